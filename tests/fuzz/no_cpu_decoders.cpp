// The fuzzers compile src/formats.cpp for the parsers' format lookups, not the decoders: the
// family table's CPU decoder entries point here (no decoder), so the fuzzers link without them.
#include "cpu/cpu_decoders.h"

namespace texdec::cpu {
const FamilyDecoder kBc1_3Decoder = {nullptr, nullptr};
const FamilyDecoder kBc4_5Decoder = {nullptr, nullptr};
const FamilyDecoder kBc6hDecoder = {nullptr, nullptr};
const FamilyDecoder kBc7Decoder = {nullptr, nullptr};
const FamilyDecoder kEtc2Decoder = {nullptr, nullptr};
const FamilyDecoder kEacDecoder = {nullptr, nullptr};
const FamilyDecoder kAstcDecoder = {nullptr, nullptr};
}  // namespace texdec::cpu

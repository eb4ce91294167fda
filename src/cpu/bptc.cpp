// CPU decoders: not written yet (decode == nullptr: the CPU backend refuses these formats).
#include "cpu/cpu_decoders.h"

namespace texdec::cpu {
const FamilyDecoder kBc6hDecoder = {nullptr, nullptr};
const FamilyDecoder kBc7Decoder = {nullptr, nullptr};
}  // namespace texdec::cpu

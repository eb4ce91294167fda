// CPU decoders: not written yet (decode == nullptr: the CPU backend refuses these formats).
#include "cpu/cpu_decoders.h"

namespace texdec::cpu {
const FamilyDecoder kBc1_3Decoder = {nullptr, nullptr};
const FamilyDecoder kBc4_5Decoder = {nullptr, nullptr};
}  // namespace texdec::cpu

// CPU decoders: not written yet (decode == nullptr: the CPU backend refuses these formats).
#include "cpu/cpu_decoders.h"

namespace texdec::cpu {
const FamilyDecoder kAstcDecoder = {nullptr, nullptr};
}  // namespace texdec::cpu

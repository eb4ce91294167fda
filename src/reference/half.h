// The one FP16 conversion every 8-bit-result format needs: ORACLES.md "Output types" makes RGBA16F
// of an 8-bit result v the FP16 nearest to v/255 (BC7, ETC2, BC1-5 IDEAL and sRGB, ASTC sRGB).
#pragma once

#include <cstdint>

namespace texdec_reference {

// The FP16 nearest to v/255, ties to even, in exact integer arithmetic: 0 -> 0x0000,
// 255 -> 0x3C00. v/255 is never a tie (255 is odd).
uint16_t half_from_unorm8(uint8_t v);

}  // namespace texdec_reference

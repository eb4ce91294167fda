// The one FP16 conversion every 8-bit-result format needs: docs/EXACTNESS.md "Output types" makes RGBA16F
// of an 8-bit result v the FP16 nearest to v/255 (BC7, ETC2, BC1-5 IDEAL and sRGB, ASTC sRGB).
#pragma once

#include <cmath>
#include <cstdint>

namespace texdec_reference {

// The FP16 nearest to v/255, ties to even, in exact integer arithmetic: 0 -> 0x0000,
// 255 -> 0x3C00. v/255 is never a tie (255 is odd).
uint16_t half_from_unorm8(uint8_t v);

// The value of FP16 bits, exactly (every half is a float): signed zeros, subnormals, infinities;
// NaN for every NaN pattern.
inline float half_to_float(uint16_t h) {
    const float sign = (h & 0x8000) ? -1.0f : 1.0f;
    const int exponent = (h >> 10) & 0x1F;
    const int mantissa = h & 0x3FF;
    if (exponent == 0) return sign * std::ldexp(float(mantissa), -24);  // zero, subnormal
    if (exponent == 31) return mantissa ? NAN : sign * INFINITY;
    return sign * std::ldexp(float(mantissa | 0x400), exponent - 25);
}

}  // namespace texdec_reference

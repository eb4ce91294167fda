// Channel codes: the bits one output channel stores, chosen by the STORE spec constant.
//   8-bit stores (RGBA8, R8, RG8): the byte (UNORM 0..255, SNORM two's complement -127..127)
//   RGBA16F:                       the IEEE half bit pattern
// Decoders compute a channel's value (a rational or an 8-bit integer) and turn it into its code
// here; common/store.glsl then writes codes without looking at their meaning.
#ifndef TEXDEC_COMMON_ENCODE_GLSL
#define TEXDEC_COMMON_ENCODE_GLSL

#include "layout.glsl"
#include "fp16.glsl"

const bool STORE_IS_HALF = STORE == TEXDEC_STORE_RGBA16F;

// The code of 1.0 (a channel the format lacks: alpha of RGB formats, BC4/BC5 alpha) and of 0.0.
uint texdec_code_one() {
    return STORE_IS_HALF ? TEXDEC_HALF_ONE : (IS_SIGNED ? 127u : 255u);
}
const uint TEXDEC_CODE_ZERO = 0u;  // +0.0 in every encoding

// An 8-bit UNORM result v (0..255), e.g. IDEAL-mode BC values or the bytes of sRGB formats:
// the byte itself, or the half nearest to v / 255 (docs/EXACTNESS.md "Output types").
uint texdec_code_unorm8(uint v) {
    return STORE_IS_HALF ? texdec_half_from_ratio(v, 255u) : v;
}

// An 8-bit SNORM result v (-128..127): the two's complement byte, or the half nearest to
// max(v, -127) / 127 (-128 means -1.0 too).
uint texdec_code_snorm8(int v) {
    return STORE_IS_HALF ? texdec_half_from_signed_ratio(max(v, -127), 127u) : (uint(v) & 0xFFu);
}

// The exact real value num / den in [0, 1] (0 < den < 2^20, num * 510 < 2^32): the 8-bit
// result round(num / den * 255) with ties rounded up, or the half nearest to num / den.
// sRGB formats: the output holds the encoded 8-bit values, so FP16 is that byte v as v / 255
// (docs/EXACTNESS.md "Output types"), for every channel.
uint texdec_code_unorm_ratio(uint num, uint den) {
    uint rounded = (510u * num + den) / (2u * den);  // floor(num * 255 / den + 1/2)
    if (STORE_IS_HALF) return SRGB != 0u ? texdec_half_from_ratio(rounded, 255u) : texdec_half_from_ratio(num, den);
    return rounded;
}

// The exact real value num / den in [-1, 1] (0 < den < 2^20, |num| * 254 < 2^32): the 8-bit
// SNORM result round(num / den * 127) as a two's complement byte, or the half nearest to
// num / den. Ties round away from zero (symmetric); BC4/BC5 values never produce one.
uint texdec_code_snorm_ratio(int num, uint den) {
    if (STORE_IS_HALF) return texdec_half_from_signed_ratio(num, den);
    int magnitude = int((254u * uint(abs(num)) + den) / (2u * den));
    return uint(num < 0 ? -magnitude : magnitude) & 0xFFu;
}

#endif

// IEEE 754 binary16 ("half") bit patterns computed with integer arithmetic only.
// packHalf2x16 and float->f16 conversions may round any way they like in Vulkan, so exact
// results (round to nearest, ties to even) are built here from rationals.
#ifndef TEXDEC_COMMON_FP16_GLSL
#define TEXDEC_COMMON_FP16_GLSL

const uint TEXDEC_HALF_ONE = 0x3C00u;
const uint TEXDEC_HALF_SIGN = 0x8000u;
const uint TEXDEC_HALF_INFINITY = 0x7C00u;

// Half bits of num / den, correctly rounded (nearest, ties to even), for 0 <= num and
// 0 < den < 2^20. Subnormals and overflow to infinity are handled.
uint texdec_half_from_ratio(uint num, uint den) {
    if (num == 0u) return 0u;
    // e = floor(log2(num / den)): it is the difference of the leading bit positions, or one less.
    int e = findMSB(num) - findMSB(den);
    // Neither shift can overflow: both sides stay below 2^(findMSB(num) + 1) resp. 2 * den.
    bool below = e >= 0 ? num < (den << uint(e)) : (num << uint(-e)) < den;
    if (below) e -= 1;
    if (e > 15) return TEXDEC_HALF_INFINITY;  // >= 2^16, beyond the largest finite half (65504)

    // 11 significant bits (normal, e >= -14) or the subnormal multiple of 2^-24.
    // q = floor(num * 2^shift / den) and r the remainder. num * 2^shift < 2^(12 + findMSB(den))
    // for normals and < den * 2^10 for subnormals, so it fits in 32 bits when den < 2^20.
    int shift = min(10 - e, 24);
    uint q, r, divisor = den;
    if (shift >= 0) {
        uint scaled = num << uint(shift);
        q = scaled / den;
        r = scaled % den;
    } else {  // 2^11 <= num / den < 2^16: divide by den * 2^-shift (at most den * 32)
        divisor = den << uint(-shift);
        q = num / divisor;
        r = num % divisor;
    }
    // Normal: biased exponent above the 10 stored mantissa bits (q's leading 1 is implicit, so
    // subtract it). Subnormal: exponent field 0, q is the mantissa.
    uint bits = e >= -14 ? (uint(e + 15) << 10u) + (q - 1024u) : q;
    // Round to nearest, ties to even. A carry out of the mantissa correctly bumps the exponent
    // (0x03FF + 1 = smallest normal, 0x7BFF + 1 = infinity).
    uint twice_r = 2u * r;
    if (twice_r > divisor || (twice_r == divisor && (q & 1u) == 1u)) bits += 1u;
    return bits;
}

// Half bits of num / den for a signed num (0 < den < 2^20, |num| < 2^31). Zero is +0.
uint texdec_half_from_signed_ratio(int num, uint den) {
    uint magnitude = texdec_half_from_ratio(uint(abs(num)), den);
    return num < 0 ? (magnitude | TEXDEC_HALF_SIGN) : magnitude;
}

#endif

#include "exact_model.h"

#include <cstdlib>

#include "portable.h"

namespace texdec_reference::exact {
namespace {

using i128 = texdec::portable::I128;

// floor(a / b) for b > 0 and any sign of a.
i128 floor_div(i128 a, i128 b) {
    i128 q = a / b;
    if ((a % b != 0) && (a < 0)) --q;
    return q;
}

// num / den (both >= 0, den > 0) rounded to the nearest integer, ties to even.
uint64_t round_half_even(i128 num, i128 den) {
    i128 q = num / den, r = num % den;
    if (2 * r > den || (2 * r == den && (q & 1))) ++q;
    return uint64_t(q);
}

}  // namespace

uint8_t to_unorm8(Rational x) {
    // floor(255 num / den + 1/2) = floor((510 num + den) / (2 den))
    i128 v = floor_div(i128(510) * x.num + x.den, i128(2) * x.den);
    if (v < 0 || v > 255) std::abort();  // outside [0, 1]: a bug in the model's caller
    return uint8_t(v);
}

int8_t to_snorm8(Rational x) {
    i128 v = floor_div(i128(254) * x.num + x.den, i128(2) * x.den);
    if (v < -127 || v > 127) std::abort();
    return int8_t(v);
}

uint16_t to_fp16(Rational x) {
    const uint16_t sign = x.num < 0 ? 0x8000 : 0;
    i128 num = x.num < 0 ? -i128(x.num) : i128(x.num);
    i128 den = x.den;
    if (num == 0) return sign;  // a rational zero is +0 (or -0 only if num was "negative zero": impossible)
    // Find e with 2^e <= num/den < 2^(e+1).
    int e = 0;
    while (num >= 2 * den) { den *= 2; ++e; }
    while (num < den) { num *= 2; --e; }
    // Restore the original ratio in num / den for the scaling below.
    num = x.num < 0 ? -i128(x.num) : i128(x.num);
    den = x.den;
    if (e < -14) {
        // Subnormal: mantissa = x * 2^24, rounded; 1024 lands exactly on the smallest normal.
        uint64_t m = round_half_even(num << 24, den);
        return uint16_t(sign | m);
    }
    // Normal: m = x * 2^(10 - e) in [1024, 2048], rounded.
    int shift = 10 - e;
    uint64_t m = shift >= 0 ? round_half_even(num << shift, den) : round_half_even(num, den << -shift);
    if (m == 2048) { m = 1024; ++e; }
    if (e > 15) return uint16_t(sign | 0x7C00);  // overflow to infinity (not reached for BC1-5)
    return uint16_t(sign | (uint16_t(e + 15) << 10) | uint16_t(m - 1024));
}

Rational bc1_channel(unsigned e0, unsigned e1, unsigned bits, unsigned code, bool four_colours) {
    const int64_t max = (int64_t(1) << bits) - 1;  // 31 or 63: R_n = c_n / 31, G_n = c_n / 63
    switch (code) {
    case 0: return {int64_t(e0), max};
    case 1: return {int64_t(e1), max};
    case 2: return four_colours ? Rational{2 * int64_t(e0) + e1, 3 * max}   // (2 RGB0 + RGB1) / 3
                                : Rational{int64_t(e0) + e1, 2 * max};      // (RGB0 + RGB1) / 2
    default: return four_colours ? Rational{int64_t(e0) + 2 * int64_t(e1), 3 * max}  // (RGB0 + 2 RGB1) / 3
                                 : Rational{0, 1};                                   // BLACK
    }
}

Rational bc2_alpha(unsigned a4) { return {int64_t(a4), 15}; }

Rational bc4_channel(int r0, int r1, unsigned code, bool is_signed) {
    // RED_n = red_n / 255 (unsigned); red_n / 127, or -1.0 for -128 (signed). -1.0 = -127/127, so
    // in units of 1/scale the endpoint is max(red_n, -127).
    const int64_t scale = is_signed ? 127 : 255;
    const int64_t a = is_signed && r0 == -128 ? -127 : r0;
    const int64_t b = is_signed && r1 == -128 ? -127 : r1;
    const int64_t lo = is_signed ? -scale : 0;  // RED_min: 0.0 or -1.0
    const int64_t hi = scale;                   // RED_max: 1.0
    if (code == 0) return {a, scale};
    if (code == 1) return {b, scale};
    if (r0 > r1) {  // raw comparison
        const int64_t i = code;  // codes 2..7: ((8 - i) RED0 + (i - 1) RED1) / 7
        return {(8 - i) * a + (i - 1) * b, 7 * scale};
    }
    if (code <= 5) {
        const int64_t i = code;  // codes 2..5: ((6 - i) RED0 + (i - 1) RED1) / 5
        return {(6 - i) * a + (i - 1) * b, 5 * scale};
    }
    return code == 6 ? Rational{lo, scale} : Rational{hi, scale};
}

}  // namespace texdec_reference::exact

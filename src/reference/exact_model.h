// EXACT rounding mode oracle: the Khronos Data Format Specification's formulas for BC1-BC5
// (s3tc.txt, rgtc.txt) evaluated with exact rational arithmetic, then rounded:
//   8-bit outputs   the real value to the nearest code, every tie up (docs/EXACTNESS.md, "EXACT");
//   RGBA16F         the real value to the nearest FP16, ties to even.
// Written from the spec text, not from the library's shaders: no floating point anywhere.
#pragma once

#include <cstdint>

namespace texdec_reference::exact {

// num / den with den > 0.
struct Rational {
    int64_t num;
    int64_t den;
};

// floor(x * 255 + 1/2) for x in [0, 1]: nearest 8-bit UNORM code, ties up.
uint8_t to_unorm8(Rational x);
// floor(x * 127 + 1/2) for x in [-1, 1]: nearest 8-bit SNORM code, ties up (toward +infinity).
int8_t to_snorm8(Rational x);
// The FP16 nearest to x (ties to even), as its bit pattern. |x| < 65520 is assumed.
uint16_t to_fp16(Rational x);

// One colour channel of a BC1-style block ("Block decoding for BC1"): endpoint codes e0, e1 of
// `bits` bits (5 or 6). code 0..3; with four_colours false, code 2 is the midpoint and code 3
// is black (0). Value = c / (2^bits - 1) etc.
Rational bc1_channel(unsigned e0, unsigned e1, unsigned bits, unsigned code, bool four_colours);

// BC2 alpha: a4 / 15.
Rational bc2_alpha(unsigned a4);

// BC3 alpha / BC4 / BC5 channel ("Block decoding for BC4", "BC4 signed"): r0, r1 are the raw
// endpoint bytes (0..255 unsigned, or -128..127 when is_signed), code 0..7. The 8- vs 6-value
// choice compares the raw values (r0 > r1), as docs/EXACTNESS.md requires for (-127, -128).
Rational bc4_channel(int r0, int r1, unsigned code, bool is_signed);

}  // namespace texdec_reference::exact

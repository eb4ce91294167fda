// The 64-bit single-channel block shared by BC3 alpha (s3tc "BC3") and BC4/BC5 (rgtc "BC4
// unsigned", "BC4 signed"): two 8-bit endpoints in bytes 0 and 1, then 16 3-bit codes.
#ifndef TEXDEC_COMMON_BC4_CHANNEL_GLSL
#define TEXDEC_COMMON_BC4_CHANNEL_GLSL

#include "bits.glsl"
#include "encode.glsl"

// The 8 palette entries of one block as channel codes: entries 0..3 in .low, 4..7 in .high.
struct Bc4Palette {
    uvec4 low;
    uvec4 high;
};

uint bc4_palette_code(Bc4Palette palette, uint code) {
    return code < 4u ? palette.low[code] : palette.high[code & 3u];
}

// Weights of palette entry `code` (2..7): value = (w0 * e0 + w1 * e1) / divisor (tables
// "Block decoding for BC4" / "Alpha encoding for BC3 blocks"). In the 6-value mode codes 6 and
// 7 are the constants MIN and MAX and have no weights.
void bc4_weights(bool eight_values, uint code, out uint w0, out uint w1, out uint divisor) {
    w0 = eight_values ? 8u - code : 6u - code;
    w1 = code - 1u;
    divisor = eight_values ? 7u : 5u;
}

// Palette of an unsigned block (BC3 alpha, BC4/BC5 UNORM); `word` is the block's first word.
//   EXACT: endpoints e / 255; interpolants (w0*e0 + w1*e1) / (divisor * 255) exactly
//          (8-bit: rounded to nearest, ties up); 6-value MIN/MAX = 0.0 / 1.0.
//   IDEAL: interpolants (w0*e0 + w1*e1) / divisor truncated to an 8-bit v (FP16: v / 255);
//          6-value MIN/MAX = 0 / 255.
Bc4Palette bc4_unsigned_palette(uint word) {
    uint e0 = texdec_byte(word, 0u);
    uint e1 = texdec_byte(word, 1u);
    bool eight_values = e0 > e1;
    uint codes[8];
    codes[0] = texdec_code_unorm8(e0);  // e / 255: the byte itself, or its half
    codes[1] = texdec_code_unorm8(e1);
    for (uint code = 2u; code < 8u; ++code) {
        if (!eight_values && code >= 6u) {
            codes[code] = code == 6u ? TEXDEC_CODE_ZERO : texdec_code_unorm8(255u);
            continue;
        }
        uint w0, w1, divisor;
        bc4_weights(eight_values, code, w0, w1, divisor);
        uint weighted = w0 * e0 + w1 * e1;
        codes[code] = ROUND_IDEAL ? texdec_code_unorm8(weighted / divisor)
                                  : texdec_code_unorm_ratio(weighted, divisor * 255u);
    }
    return Bc4Palette(uvec4(codes[0], codes[1], codes[2], codes[3]),
                      uvec4(codes[4], codes[5], codes[6], codes[7]));
}

// Palette of a signed block (BC4/BC5 SNORM, rgtc "BC4 signed"). The mode compares the raw
// two's complement bytes, so (-127, -128) is the 8-value mode (the spec leaves it undefined;
// DirectXTex and Mesa do this). For values, -128 means -1.0 like -127.
//   EXACT: endpoints e / 127; interpolants (w0*e0 + w1*e1) / (divisor * 127) exactly
//          (8-bit: round((w0*e0 + w1*e1) / divisor), which never ties); MIN/MAX = -1.0 / 1.0.
//   IDEAL: interpolants (w0*e0 + w1*e1) / divisor truncated toward zero to an 8-bit v
//          (FP16: v / 127); MIN/MAX = -127 / 127.
Bc4Palette bc4_signed_palette(uint word) {
    int raw0 = texdec_signed_byte(word, 0u);
    int raw1 = texdec_signed_byte(word, 1u);
    bool eight_values = raw0 > raw1;
    int e0 = max(raw0, -127);
    int e1 = max(raw1, -127);
    uint codes[8];
    codes[0] = texdec_code_snorm8(e0);  // e / 127: the byte itself, or its half
    codes[1] = texdec_code_snorm8(e1);
    for (uint code = 2u; code < 8u; ++code) {
        if (!eight_values && code >= 6u) {
            codes[code] = texdec_code_snorm8(code == 6u ? -127 : 127);
            continue;
        }
        uint w0, w1, divisor;
        bc4_weights(eight_values, code, w0, w1, divisor);
        int weighted = int(w0) * e0 + int(w1) * e1;
        if (ROUND_IDEAL) {
            // Truncate toward zero on the magnitude (no reliance on signed division rules).
            int magnitude = int(uint(abs(weighted)) / divisor);
            codes[code] = texdec_code_snorm8(weighted < 0 ? -magnitude : magnitude);
        } else {
            codes[code] = texdec_code_snorm_ratio(weighted, divisor * 127u);
        }
    }
    return Bc4Palette(uvec4(codes[0], codes[1], codes[2], codes[3]),
                      uvec4(codes[4], codes[5], codes[6], codes[7]));
}

// The four 3-bit codes of block row `row` (bits 16 + 12 * row .. of the block's 64 bits), texel
// x of the row in bits 3x .. 3x+2.
uint bc4_row_codes(uvec2 words, uint row) {
    return texdec_bits64(words, 16u + 12u * row, 12u);
}

#endif

// The 64-bit single-channel block shared by BC3 alpha (s3tc "BC3") and BC4/BC5 (rgtc "BC4
// unsigned", "BC4 signed"): two 8-bit endpoints in bytes 0 and 1, then 16 3-bit codes.
#ifndef TEXDEC_COMMON_BC4_CHANNEL_GLSL
#define TEXDEC_COMMON_BC4_CHANNEL_GLSL

#include "bits.glsl"
#include "encode.glsl"

// The 8 palette entries of one block as channel codes (common/encode.glsl), packed into a table:
// 8-bit codes four to a word (entry i in byte i % 4 of .x for i < 4, of .y for i >= 4; .zw are 0),
// FP16 codes two to a word (entry i in half i % 2 of word i / 2). Looking an entry up is then a
// select and a shift per texel; indexing a vector or an array with a run-time index can go
// through local memory. (BC3/BC4/BC5 store only 8-bit codes or FP16 ones.)
uvec4 bc4_pack_palette(uint codes[8]) {
    if (STORE_IS_HALF)
        return uvec4(codes[0] | (codes[1] << 16u), codes[2] | (codes[3] << 16u),
                     codes[4] | (codes[5] << 16u), codes[6] | (codes[7] << 16u));
    return uvec4(codes[0] | (codes[1] << 8u) | (codes[2] << 16u) | (codes[3] << 24u),
                 codes[4] | (codes[5] << 8u) | (codes[6] << 16u) | (codes[7] << 24u), 0u, 0u);
}

// The code of palette entry `code` (0..7, a texel's 3-bit index).
uint bc4_palette_code(uvec4 palette, uint code) {
    if (STORE_IS_HALF) {
        uvec2 words = (code & 4u) != 0u ? palette.zw : palette.xy;
        uint word = (code & 2u) != 0u ? words.y : words.x;
        return (word >> (16u * (code & 1u))) & 0xFFFFu;
    }
    uint word = (code & 4u) != 0u ? palette.y : palette.x;
    return (word >> (8u * (code & 3u))) & 0xFFu;
}

// Weights of palette entry `code` (2..7): value = (w0 * e0 + w1 * e1) / BC4_DIVISOR. The tables
// "Block decoding for BC4" / "Alpha encoding for BC3 blocks" give ((8 - code) e0 + (code - 1) e1) / 7
// in the 8-value mode and ((6 - code) e0 + (code - 1) e1) / 5 in the 6-value mode; scaling those
// by 5 and 7 puts both over 35 without changing the value, so every division below is by a
// constant whatever the block's mode. In the 6-value mode codes 6 and 7 are the constants MIN
// and MAX and have no weights.
const uint BC4_DIVISOR = 35u;
void bc4_weights(bool eight_values, uint code, out uint w0, out uint w1) {
    w0 = eight_values ? 5u * (8u - code) : 7u * (6u - code);
    w1 = (eight_values ? 5u : 7u) * (code - 1u);
}

// NVIDIA mode (measured on an H100, tests/vectors/nvidia). The hardware uses its own weights,
// not (code - 1) / 7 and / 5 exactly; the tables give each interpolant's weight of e1 (e0 gets
// the rest), for codes 2..7 of the 8-value mode and 2..5 of the 6-value mode:
//   BC3 alpha: 8-bit result (e0 * (2048 - w) + e1 * w + 1024) / 2048, truncated;
//   BC4/BC5 UNORM: a 16-bit result e0 * (257 - w) + e1 * w (exact: the endpoints become e * 257);
//   BC4/BC5 SNORM: a 16-bit SNORM result (a0 * (32767 - w) + a1 * w) / 127 rounded to nearest,
//     a = max(e, -127); the mode compares a0 > a1, so (-127, -128) is the 6-value mode here.
// The 16-bit results are returned to shaders as k / 65535 (k / 32767). RGBA16F stores the half
// nearest to that; 8-bit outputs store what NVIDIA's own float -> 8-bit conversion gives (what a
// store into an R8 / RGBA8 image writes, measured too): it keeps 12 bits,
// ((k >> 4) * 255 + 2047) >> 12, SNORM sign * (((|k| >> 4) * 127 + 1023) >> 11).
const uint NVIDIA_BC3_ALPHA_WEIGHTS[8] = uint[8](0u, 0u, 289u, 578u, 892u, 1156u, 1470u, 1759u);
const uint NVIDIA_BC3_ALPHA_WEIGHTS_6[8] = uint[8](0u, 0u, 385u, 770u, 1278u, 1663u, 0u, 0u);
const uint NVIDIA_UNORM_WEIGHTS[8] = uint[8](0u, 0u, 36u, 72u, 113u, 144u, 185u, 221u);
const uint NVIDIA_UNORM_WEIGHTS_6[8] = uint[8](0u, 0u, 48u, 96u, 161u, 209u, 0u, 0u);
const int NVIDIA_SNORM_WEIGHTS[8] = int[8](0, 0, 4572, 9144, 14479, 18288, 23623, 28195);
const int NVIDIA_SNORM_WEIGHTS_6[8] = int[8](0, 0, 6096, 12192, 20575, 26671, 0, 0);

uint bc4_nvidia_unorm16_code(uint k) {
    return STORE_IS_HALF ? texdec_half_from_ratio(k, 65535u) : ((k >> 4u) * 255u + 2047u) >> 12u;
}

uint bc4_nvidia_snorm16_code(int k) {
    if (STORE_IS_HALF) return texdec_half_from_signed_ratio(k, 32767u);
    int magnitude = int(((uint(abs(k)) >> 4u) * 127u + 1023u) >> 11u);
    return uint(k < 0 ? -magnitude : magnitude) & 0xFFu;
}

// SNORM: round(n / 127) to nearest; n / 127 is never halfway (127 is odd).
int bc4_nvidia_round_127(int n) {
    int magnitude = (abs(n) + 63) / 127;
    return n < 0 ? -magnitude : magnitude;
}

// Palette of an unsigned block (BC3 alpha, BC4/BC5 UNORM); `word` is the block's first word.
//   EXACT: endpoints e / 255; interpolants (w0*e0 + w1*e1) / (35 * 255) exactly
//          (8-bit: rounded to nearest, ties up); 6-value MIN/MAX = 0.0 / 1.0.
//   IDEAL: interpolants (w0*e0 + w1*e1) / 35 truncated to an 8-bit v (FP16: v / 255);
//          6-value MIN/MAX = 0 / 255.
uvec4 bc4_unsigned_palette(uint word) {
    uint e0 = texdec_byte(word, 0u);
    uint e1 = texdec_byte(word, 1u);
    bool eight_values = e0 > e1;
    uint codes[8];
    if (ROUND_NVIDIA) {
        for (uint code = 0u; code < 8u; ++code) {
#ifdef TEXDEC_BC4_CHANNEL_IS_BC3_ALPHA
            uint w = code < 2u ? 2048u * code : eight_values ? NVIDIA_BC3_ALPHA_WEIGHTS[code] : NVIDIA_BC3_ALPHA_WEIGHTS_6[code];
            uint v = (e0 * (2048u - w) + e1 * w + 1024u) >> 11u;
            if (!eight_values && code >= 6u) v = code == 6u ? 0u : 255u;
            codes[code] = texdec_code_unorm8(v);
#else
            uint w = code < 2u ? 257u * code : eight_values ? NVIDIA_UNORM_WEIGHTS[code] : NVIDIA_UNORM_WEIGHTS_6[code];
            uint k = e0 * (257u - w) + e1 * w;
            if (!eight_values && code >= 6u) k = code == 6u ? 0u : 65535u;
            codes[code] = bc4_nvidia_unorm16_code(k);
#endif
        }
        return bc4_pack_palette(codes);
    }
    codes[0] = texdec_code_unorm8(e0);  // e / 255: the byte itself, or its half
    codes[1] = texdec_code_unorm8(e1);
    for (uint code = 2u; code < 8u; ++code) {
        if (!eight_values && code >= 6u) {
            codes[code] = code == 6u ? TEXDEC_CODE_ZERO : texdec_code_unorm8(255u);
            continue;
        }
        uint w0, w1;
        bc4_weights(eight_values, code, w0, w1);
        uint weighted = w0 * e0 + w1 * e1;  // <= 35 * 255
        codes[code] = ROUND_IDEAL ? texdec_code_unorm8(weighted / BC4_DIVISOR)
                                  : texdec_code_unorm_ratio(weighted, BC4_DIVISOR * 255u);
    }
    return bc4_pack_palette(codes);
}

// Palette of a signed block (BC4/BC5 SNORM, rgtc "BC4 signed"). The mode compares the raw
// two's complement bytes, so (-127, -128) is the 8-value mode (the spec leaves it undefined;
// DirectXTex and Mesa do this). For values, -128 means -1.0 like -127.
//   EXACT: endpoints e / 127; interpolants (w0*e0 + w1*e1) / (35 * 127) exactly
//          (8-bit: round((w0*e0 + w1*e1) / 35), which never ties); MIN/MAX = -1.0 / 1.0.
//   IDEAL: interpolants (w0*e0 + w1*e1) / 35 truncated toward zero to an 8-bit v
//          (FP16: v / 127); MIN/MAX = -127 / 127.
uvec4 bc4_signed_palette(uint word) {
    int raw0 = texdec_signed_byte(word, 0u);
    int raw1 = texdec_signed_byte(word, 1u);
    bool eight_values = raw0 > raw1;
    int e0 = max(raw0, -127);
    int e1 = max(raw1, -127);
    uint codes[8];
    if (ROUND_NVIDIA) {
        bool nvidia_eight = e0 > e1;
        for (uint code = 0u; code < 8u; ++code) {
            int w = code < 2u ? 32767 * int(code) : nvidia_eight ? NVIDIA_SNORM_WEIGHTS[code] : NVIDIA_SNORM_WEIGHTS_6[code];
            int k = bc4_nvidia_round_127(e0 * (32767 - w) + e1 * w);
            if (!nvidia_eight && code >= 6u) k = code == 6u ? -32767 : 32767;
            codes[code] = bc4_nvidia_snorm16_code(k);
        }
        return bc4_pack_palette(codes);
    }
    codes[0] = texdec_code_snorm8(e0);  // e / 127: the byte itself, or its half
    codes[1] = texdec_code_snorm8(e1);
    for (uint code = 2u; code < 8u; ++code) {
        if (!eight_values && code >= 6u) {
            codes[code] = texdec_code_snorm8(code == 6u ? -127 : 127);
            continue;
        }
        uint w0, w1;
        bc4_weights(eight_values, code, w0, w1);
        int weighted = int(w0) * e0 + int(w1) * e1;  // |weighted| <= 35 * 127
        if (ROUND_IDEAL) {
            // Truncate toward zero on the magnitude (no reliance on signed division rules).
            int magnitude = int(uint(abs(weighted)) / BC4_DIVISOR);
            codes[code] = texdec_code_snorm8(weighted < 0 ? -magnitude : magnitude);
        } else {
            codes[code] = texdec_code_snorm_ratio(weighted, BC4_DIVISOR * 127u);
        }
    }
    return bc4_pack_palette(codes);
}

// The four 3-bit codes of block row `row` (bits 16 + 12 * row .. of the block's 64 bits), texel
// x of the row in bits 3x .. 3x+2.
uint bc4_row_codes(uvec2 words, uint row) {
    return texdec_bits64(words, 16u + 12u * row, 12u);
}

#endif

// BC1 (RGB, RGBA), BC2 and BC3 decoder: one invocation per 4x4 block.
// Khronos Data Format Specification, "S3TC Compressed Texture Image Formats".
// VARIANT: TEXDEC_BC1_RGB, TEXDEC_BC1_RGBA, TEXDEC_BC2, TEXDEC_BC3. SIGNED is always 0.
// STORE: RGBA8 (RGBA8 and NATIVE outputs) or RGBA16F. sRGB formats decode like UNORM (the
// bytes stay sRGB-encoded); with RGBA16F, SRGB = 1 makes every channel the byte v as v / 255.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "interface.h"
#include "common/layout.glsl"
#include "common/encode.glsl"
#include "common/store.glsl"
#include "common/load_block.glsl"
#define TEXDEC_BC4_CHANNEL_IS_BC3_ALPHA 1  // NVIDIA mode: BC3 alpha is not BC4's arithmetic
#include "common/bc4_channel.glsl"

const bool IS_BC1 = VARIANT == TEXDEC_BC1_RGB || VARIANT == TEXDEC_BC1_RGBA;
const uint WORDS_PER_BLOCK = IS_BC1 ? 2u : 4u;  // 8- or 16-byte blocks

// The four palette entries of one colour channel of `bits` bits (5 or 6) as channel codes,
// from the endpoint codes e0, e1 (table "Block decoding for BC1").
//   EXACT: the real values e / (2^bits - 1), (2e0 + e1) / 3, (e0 + 2e1) / 3 and the 3-colour
//          midpoint (e0 + e1) / 2, computed on the raw codes (8-bit: rounded to nearest, ties up).
//   IDEAL: endpoints bit-replicated to 8 bits A, B; (2A + B) / 3, (A + 2B) / 3, (A + B) / 2
//          truncated (FP16: v / 255).
//   NVIDIA: what NVIDIA GPUs return (measured on an H100: tests/vectors/nvidia; rgbcx.h in
//          github.com/richgel999/bc7enc_rdo describes the same arithmetic): bit-replicated
//          endpoints; 5-bit channels (2e0 + e1) * 22 / 8 and (e0 + e1) * 33 / 8 on the raw codes,
//          truncated; 6-bit channels on the 8-bit A, B with d = B - A:
//          (256A + 80d + d/4 + 128) / 256, 3-colour (256A + 128d + d/4 + 128) / 256, where d/4
//          truncates toward zero.
// Entry 3 of the 3-colour mode is black (0). Entry 2 is (2e0 + e1) / 3 or (e0 + e1) / 2; over
// the common denominator 6 that is one expression, so it is computed once, with a constant
// divisor, whatever the block's mode (same value, same rounding).
// NVIDIA: one interpolant of the 6-bit channel, from the 8-bit endpoint values `near` (weighted
// more) and `far`; weight 80 (a third) or 128 (a half) in 256ths, plus the measured d / 4 term.
uint bc1_nvidia_green(uint near, uint far, int weight) {
    int d = int(far) - int(near);
    int quarter = d < 0 ? -((-d) >> 2) : d >> 2;  // d / 4, truncated toward zero
    return uint(256 * int(near) + weight * d + quarter + 128) >> 8u;  // never negative: d >= -near
}

uvec4 bc1_channel_palette(uint e0, uint e1, uint bits, bool four_colours) {
    if (ROUND_NVIDIA) {
        uint a = (e0 << (8u - bits)) | (e0 >> (2u * bits - 8u));
        uint b = (e1 << (8u - bits)) | (e1 >> (2u * bits - 8u));
        uint third, fourth;
        if (bits == 5u) {
            third = four_colours ? ((2u * e0 + e1) * 22u) >> 3u : ((e0 + e1) * 33u) >> 3u;
            fourth = ((e0 + 2u * e1) * 22u) >> 3u;
        } else {
            third = bc1_nvidia_green(a, b, four_colours ? 80 : 128);
            fourth = bc1_nvidia_green(b, a, 80);
        }
        return uvec4(texdec_code_unorm8(a), texdec_code_unorm8(b), texdec_code_unorm8(third),
                     four_colours ? texdec_code_unorm8(fourth) : TEXDEC_CODE_ZERO);
    }
    if (ROUND_IDEAL) {
        uint a = (e0 << (8u - bits)) | (e0 >> (2u * bits - 8u));
        uint b = (e1 << (8u - bits)) | (e1 >> (2u * bits - 8u));
        uint third = texdec_code_unorm8((four_colours ? 2u * (2u * a + b) : 3u * (a + b)) / 6u);
        uint fourth = texdec_code_unorm8((a + 2u * b) / 3u);
        return uvec4(texdec_code_unorm8(a), texdec_code_unorm8(b), third, four_colours ? fourth : TEXDEC_CODE_ZERO);
    }
    uint max_code = (1u << bits) - 1u;
    uint third = texdec_code_unorm_ratio(four_colours ? 2u * (2u * e0 + e1) : 3u * (e0 + e1), 6u * max_code);
    uint fourth = texdec_code_unorm_ratio(e0 + 2u * e1, 3u * max_code);
    return uvec4(texdec_code_unorm_ratio(e0, max_code), texdec_code_unorm_ratio(e1, max_code), third,
                 four_colours ? fourth : TEXDEC_CODE_ZERO);
}

// Palette entry `c` (0..3, a texel's 2-bit index) of `entries`, by selects on its bits rather
// than a run-time array index (which can go through local memory).
uvec2 bc1_entry(uvec2 entries[4], uint c) {
    uvec2 low = (c & 1u) != 0u ? entries[1] : entries[0];
    uvec2 high = (c & 1u) != 0u ? entries[3] : entries[2];
    return (c & 2u) != 0u ? high : low;
}

void main() {
    uvec3 block;
    if (!texdec_block_coords(block)) return;
    uint first_word = texdec_src_block_word(block, WORDS_PER_BLOCK);

    // BC2/BC3: 64 bits of alpha, then a BC1-style colour block.
    uvec4 words;
    if (IS_BC1) words = uvec4(0u, 0u, texdec_load_block_8(first_word));
    else words = texdec_load_block_16(first_word);
    uvec2 alpha_words = words.xy;
    uint endpoints = words.z;     // colour0 in bits 0..15, colour1 in 16..31
    uint colour_codes = words.w;  // 2 bits per texel, texel (x, y) at 2 * (4y + x)

    // "BC1 with no alpha": c0 <= c1 selects 3 colours + black. BC2/BC3 ("BC2", "BC3") always
    // decode as if colour0 > colour1.
    uint colour0 = endpoints & 0xFFFFu;
    uint colour1 = endpoints >> 16u;
    bool four_colours = !IS_BC1 || colour0 > colour1;

    // RGB565: red in bits 15..11, green 10..5, blue 4..0.
    uvec4 red = bc1_channel_palette(bitfieldExtract(colour0, 11, 5), bitfieldExtract(colour1, 11, 5), 5u, four_colours);
    uvec4 green = bc1_channel_palette(bitfieldExtract(colour0, 5, 6), bitfieldExtract(colour1, 5, 6), 6u, four_colours);
    uvec4 blue = bc1_channel_palette(bitfieldExtract(colour0, 0, 5), bitfieldExtract(colour1, 0, 5), 5u, four_colours);

    // Alpha of the colour entries: 1 everywhere, except "BC1 with alpha": entry 3 of the
    // 3-colour mode is transparent (the RGB variant keeps it opaque black). BC2/BC3 leave it 0
    // here and OR each texel's alpha in: packing is bitwise per channel (RGBA8, RGBA16F).
    uint one = IS_BC1 ? texdec_code_one() : TEXDEC_CODE_ZERO;
    bool punch_through = VARIANT == TEXDEC_BC1_RGBA && !four_colours;
    uvec4 alpha = uvec4(one, one, one, punch_through ? TEXDEC_CODE_ZERO : one);

    // The 4 palette colours as texel bytes, so a texel is one select of whole words.
    uvec2 colours[4] = uvec2[4](texdec_pack_texel(uvec4(red.x, green.x, blue.x, alpha.x)),
                                texdec_pack_texel(uvec4(red.y, green.y, blue.y, alpha.y)),
                                texdec_pack_texel(uvec4(red.z, green.z, blue.z, alpha.z)),
                                texdec_pack_texel(uvec4(red.w, green.w, blue.w, alpha.w)));

    uvec4 bc3_alpha = VARIANT == TEXDEC_BC3 ? bc4_unsigned_palette(alpha_words.x) : uvec4(0u);

    [[unroll]] for (uint row = 0u; row < 4u; ++row) {
        uint row_colour_codes = bitfieldExtract(colour_codes, int(8u * row), 8);
        uint row_alpha;  // BC2: 4 bits per texel; BC3: 3-bit codes
        if (VARIANT == TEXDEC_BC2) row_alpha = bitfieldExtract(alpha_words[row >> 1u], int(16u * (row & 1u)), 16);
        else if (VARIANT == TEXDEC_BC3) row_alpha = bc4_row_codes(alpha_words, row);
        else row_alpha = 0u;

        uvec2 texels[4];
        [[unroll]] for (uint x = 0u; x < 4u; ++x) {
            uvec2 texel = bc1_entry(colours, bitfieldExtract(row_colour_codes, int(2u * x), 2));
            uint alpha_code = TEXDEC_CODE_ZERO;
            if (VARIANT == TEXDEC_BC2) {
                // "BC2": alpha a / 15 = bit-replicated 17a / 255 (same value in both modes).
                alpha_code = texdec_code_unorm8(17u * bitfieldExtract(row_alpha, int(4u * x), 4));
            } else if (VARIANT == TEXDEC_BC3) {
                alpha_code = bc4_palette_code(bc3_alpha, bitfieldExtract(row_alpha, int(3u * x), 3));
            }
            texels[x] = texel | texdec_pack_texel(uvec4(0u, 0u, 0u, alpha_code));
        }
        texdec_store_4_packed(uvec3(block.x * 4u, block.y * 4u + row, block.z), texels);
    }
}

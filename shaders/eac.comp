// EAC R11 / RG11 decoder (unsigned and signed): one invocation per 4x4 block.
// Khronos Data Format Specification, "Format Unsigned R11 EAC", "Format Unsigned RG11 EAC",
// "Format Signed R11 EAC", "Format Signed RG11 EAC".
// VARIANT: TEXDEC_EAC_R11 (one 64-bit block) or TEXDEC_EAC_RG11 (red block, then green block).
// SIGNED: the signed formats. STORE:
//   R16 / RG16 (NATIVE): the 11-bit value extended to 16 bits by bit replication, as the spec
//     describes: unsigned (x << 5) + (x >> 6), signed sign * ((|x| << 5) + (|x| >> 5));
//   RGBA16F: the half nearest to x / 2047 (unsigned) or x / 1023 (signed);
//   RGBA8 (unsigned only): round(x * 255 / 2047), ties up (docs/EXACTNESS.md "Output types").
// Missing channels are (g = 0,) b = 0, a = 1.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "interface.h"
#include "common/layout.glsl"
#include "common/encode.glsl"
#include "common/store.glsl"
#include "common/load_block.glsl"
#include "common/etc.glsl"

const bool IS_RG = VARIANT == TEXDEC_EAC_RG11;
const uint WORDS_PER_BLOCK = IS_RG ? 4u : 2u;  // 8- or 16-byte blocks

// The output code of an 11-bit result x (0..2047 unsigned, -1023..1023 signed).
uint eac_code(int x) {
    if (STORE_IS_16BIT_INT) {
        if (!IS_SIGNED) return (uint(x) << 5u) | (uint(x) >> 6u);
        uint m = uint(abs(x));
        uint extended = (m << 5u) | (m >> 5u);
        return uint(x < 0 ? -int(extended) : int(extended)) & 0xFFFFu;
    }
    return IS_SIGNED ? texdec_code_snorm_ratio(x, 1023u) : texdec_code_unorm_ratio(uint(x), 2047u);
}

// The 8 codes of one channel's half-block (`be`: etc_be of its words), 16 bits each, entry i in
// half i % 2 of component i / 2: the value of every 3-bit pixel index, computed once per block.
uvec4 eac_palette(uvec2 be) {
    uint table = eac_table(be);
    uint codes[8];
    [[unroll]] for (uint i = 0u; i < 8u; ++i)
        codes[i] = eac_code(eac_r11_value(be, eac_modifier(table, i), IS_SIGNED));
    return uvec4(codes[0] | (codes[1] << 16u), codes[2] | (codes[3] << 16u),
                 codes[4] | (codes[5] << 16u), codes[6] | (codes[7] << 16u));
}

uint eac_palette_code(uvec4 palette, uint index) {
    uvec2 pair = (index & 4u) != 0u ? palette.zw : palette.xy;
    uint word = (index & 2u) != 0u ? pair.y : pair.x;
    return (word >> (16u * (index & 1u))) & 0xFFFFu;
}

void main() {
    uvec3 block;
    if (!texdec_block_coords(block)) return;
    uint first_word = texdec_src_block_word(block, WORDS_PER_BLOCK);

    // RG11: "int64bit0 ... red component", "int64bit1 ... green component".
    uvec4 words;
    if (IS_RG) words = texdec_load_block_16(first_word);
    else words = uvec4(texdec_load_block_8(first_word), 0u, 0u);
    uvec2 red_be = etc_be(words.xy);
    uvec2 green_be = IS_RG ? etc_be(words.zw) : uvec2(0u);
    uvec4 red = eac_palette(red_be);
    uvec4 green = IS_RG ? eac_palette(green_be) : uvec4(0u);

    uint zero = TEXDEC_CODE_ZERO;
    uint one = texdec_code_one();
    [[unroll]] for (uint y = 0u; y < 4u; ++y) {
        uvec2 texels[4];
        [[unroll]] for (uint x = 0u; x < 4u; ++x) {
            // Pixels are lettered a..p down the columns: pixel k = 4x + y.
            uint r = eac_palette_code(red, eac_pixel_index(red_be, 4u * x + y));
            uint g = IS_RG ? eac_palette_code(green, eac_pixel_index(green_be, 4u * x + y)) : zero;
            texels[x] = texdec_pack_texel(uvec4(r, g, zero, one));
        }
        texdec_store_4_packed(uvec3(block.x * 4u, block.y * 4u + y, block.z), texels);
    }
}

// BC4 and BC5 decoder (unsigned and signed): one invocation per 4x4 block.
// Khronos Data Format Specification, "RGTC Compressed Texture Image Formats".
// VARIANT: TEXDEC_BC4 (red only) or TEXDEC_BC5 (red block, then green block). SIGNED: SNORM.
// STORE: R8 / RG8 (NATIVE), RGBA8 (UNORM only) or RGBA16F; missing channels are (g=0, b=0, a=1).
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "interface.h"
#include "common/layout.glsl"
#include "common/encode.glsl"
#include "common/store.glsl"
#include "common/load_block.glsl"
#include "common/bc4_channel.glsl"

const bool IS_BC5 = VARIANT == TEXDEC_BC5;
const uint WORDS_PER_BLOCK = IS_BC5 ? 4u : 2u;  // 8- or 16-byte blocks

uvec4 bc4_palette(uint word) {
    return IS_SIGNED ? bc4_signed_palette(word) : bc4_unsigned_palette(word);
}

void main() {
    uvec3 block;
    if (!texdec_block_coords(block)) return;
    uint first_word = texdec_src_block_word(block, WORDS_PER_BLOCK);

    // "BC5 unsigned/signed": the second 64 bits are a BC4 block giving green.
    uvec4 words;
    if (IS_BC5) words = texdec_load_block_16(first_word);
    else words = uvec4(texdec_load_block_8(first_word), 0u, 0u);
    uvec4 red = bc4_palette(words.x);
    uvec4 green = IS_BC5 ? bc4_palette(words.z) : uvec4(0u);

    // "The resulting RGBA value for the texel is (R, 0, 0, 1)" resp. (R, G, 0, 1).
    uint zero = TEXDEC_CODE_ZERO;
    uint one = texdec_code_one();
    [[unroll]] for (uint row = 0u; row < 4u; ++row) {
        uint red_codes = bc4_row_codes(words.xy, row);
        uint green_codes = IS_BC5 ? bc4_row_codes(words.zw, row) : 0u;
        uvec2 texels[4];
        [[unroll]] for (uint x = 0u; x < 4u; ++x) {
            uint r = bc4_palette_code(red, bitfieldExtract(red_codes, int(3u * x), 3));
            uint g = IS_BC5 ? bc4_palette_code(green, bitfieldExtract(green_codes, int(3u * x), 3)) : zero;
            texels[x] = texdec_pack_texel(uvec4(r, g, zero, one));
        }
        texdec_store_4_packed(uvec3(block.x * 4u, block.y * 4u + row, block.z), texels);
    }
}

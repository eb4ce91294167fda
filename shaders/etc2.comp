// ETC2 colour decoder (RGB8 incl. ETC1, RGB8A1 punch-through, RGBA8 with EAC alpha; UNORM and
// sRGB): one invocation per 4x4 block. Khronos Data Format Specification, "ETC2 Compressed Texture
// Image Formats", sections "Format RGB ETC2", "Format RGBA ETC2" and
// "Format RGB ETC2 with punchthrough alpha"; table names below are that chapter's. The modifier,
// distance and EAC tables come from the context's table buffer (common/etc.glsl).
// VARIANT: TEXDEC_ETC2_RGB8 / _RGB8A1 / _RGBA8. STORE: RGBA8 (RGBA8 and NATIVE outputs) or
// RGBA16F. sRGB decodes like UNORM (the bytes stay sRGB-encoded); RGBA16F is the byte v as v / 255.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "interface.h"
#include "common/layout.glsl"
#include "common/encode.glsl"
#include "common/store.glsl"
#include "common/load_block.glsl"
#include "common/etc.glsl"

const bool PUNCH = VARIANT == TEXDEC_ETC2_RGB8A1;
const bool EAC_ALPHA = VARIANT == TEXDEC_ETC2_RGBA8;

uint extend4(uint v) { return v * 17u; }
uint extend5(uint v) { return (v << 3u) | (v >> 2u); }
uint extend6(uint v) { return (v << 2u) | (v >> 4u); }
uint extend7(uint v) { return (v << 1u) | (v >> 6u); }
uvec3 extend4(uvec3 v) { return v * 17u; }
uvec3 extend5(uvec3 v) { return (v << 3u) | (v >> 2u); }
// A 3-bit two's-complement field.
int signed3(uint v) { return int(v << 29u) >> 29; }

// Texel k (= 4x + y, the spec's pixel a..p) as RGBA 8-bit values; `hi`/`lo` are bits 63..32 and
// 31..0 of the colour int64bit.
void main() {
    uvec3 block;
    if (!texdec_block_coords(block)) return;
    uvec2 colour_words, alpha_words = uvec2(0u);
    if (EAC_ALPHA) {
        uvec4 w = texdec_load_block_16(texdec_src_block_word(block, 4u));
        alpha_words = w.xy;
        colour_words = w.zw;
    } else {
        colour_words = texdec_load_block_8(texdec_src_block_word(block, 2u));
    }
    uvec2 be = etc_be(colour_words);
    uint hi = be.x, lo = be.y;
    uvec2 alpha_be = etc_be(alpha_words);

    // "Location of bits for mode selection": R, G, B (5 bits) + Rd, Gd, Bd (3-bit two's complement).
    // Bit 33 is the differential bit D (RGB8) or the opaque bit Op (RGB8A1, which has no
    // individual mode: the sums decide alone).
    bool bit33 = ((hi >> 1u) & 1u) != 0u;
    bool opaque = !PUNCH || bit33;
    int r = int((hi >> 27u) & 31u) + signed3(hi >> 24u);
    int g = int((hi >> 19u) & 31u) + signed3(hi >> 16u);
    int b = int((hi >> 11u) & 31u) + signed3(hi >> 8u);
    const uint MODE_INDIVIDUAL = 0u, MODE_DIFFERENTIAL = 1u, MODE_T = 2u, MODE_H = 3u, MODE_PLANAR = 4u;
    uint mode;
    if (!PUNCH && !bit33) mode = MODE_INDIVIDUAL;
    else if (r < 0 || r > 31) mode = MODE_T;
    else if (g < 0 || g > 31) mode = MODE_H;
    else if (b < 0 || b > 31) mode = MODE_PLANAR;
    else mode = MODE_DIFFERENTIAL;

    // Per-mode parameters. Individual/differential: two base colours and table codewords per
    // subblock. T/H: four paint colours. Planar: origin, horizontal and vertical colours.
    uvec3 base0 = uvec3(0u), base1 = uvec3(0u);  // (subblock 1, 2) / (base colour 1, 2)
    uint table0 = 0u, table1 = 0u;
    ivec3 paint[4];
    ivec3 po = ivec3(0), ph = ivec3(0), pv = ivec3(0);
    if (mode == MODE_INDIVIDUAL) {
        base0 = extend4(uvec3(hi >> 28u, hi >> 20u, hi >> 12u) & 15u);
        base1 = extend4(uvec3(hi >> 24u, hi >> 16u, hi >> 8u) & 15u);
    } else if (mode == MODE_DIFFERENTIAL) {
        uvec3 c = uvec3(hi >> 27u, hi >> 19u, hi >> 11u) & 31u;
        base0 = extend5(c);
        base1 = extend5(uvec3(r, g, b));
    }
    table0 = (hi >> 5u) & 7u;
    table1 = (hi >> 2u) & 7u;
    if (mode == MODE_T || mode == MODE_H) {
        uvec3 c1, c2;
        int d;
        if (mode == MODE_T) {
            // "Bit layout for bits 63 through 32 for `T' mode".
            c1 = extend4(uvec3((((hi >> 27u) & 3u) << 2u) | ((hi >> 24u) & 3u), (hi >> 20u) & 15u, (hi >> 16u) & 15u));
            c2 = extend4(uvec3(hi >> 12u, hi >> 8u, hi >> 4u) & 15u);
            d = etc_distance((((hi >> 2u) & 3u) << 1u) | (hi & 1u));
            ivec3 i2 = ivec3(c2);
            paint[0] = ivec3(c1);
            paint[1] = i2 + d;
            paint[2] = i2;
            paint[3] = i2 - d;
        } else {
            // "Bit layout for bits 63 through 32 for `H' mode".
            c1 = extend4(uvec3((hi >> 27u) & 15u, (((hi >> 24u) & 7u) << 1u) | ((hi >> 20u) & 1u),
                               (((hi >> 19u) & 1u) << 3u) | ((hi >> 15u) & 7u)));
            c2 = extend4(uvec3(hi >> 11u, hi >> 7u, hi >> 3u) & 15u);
            // Distance index: da (MSB), db, then (base colour 1 value >= base colour 2 value),
            // value = R << 16 + G << 8 + B.
            uint v1 = (c1.r << 16u) | (c1.g << 8u) | c1.b;
            uint v2 = (c2.r << 16u) | (c2.g << 8u) | c2.b;
            d = etc_distance((((hi >> 2u) & 1u) << 2u) | ((hi & 1u) << 1u) | (v1 >= v2 ? 1u : 0u));
            paint[0] = ivec3(c1) + d;
            paint[1] = ivec3(c1) - d;
            paint[2] = ivec3(c2) + d;
            paint[3] = ivec3(c2) - d;
        }
    } else if (mode == MODE_PLANAR) {
        // "Bit layout for bits 63 through 0 for `planar' mode" (RGB 6:7:6), extended to 8 bits.
        po = ivec3(extend6((hi >> 25u) & 63u),
                   extend7((((hi >> 24u) & 1u) << 6u) | ((hi >> 17u) & 63u)),
                   extend6((((hi >> 16u) & 1u) << 5u) | (((hi >> 11u) & 3u) << 3u) | ((hi >> 7u) & 7u)));
        ph = ivec3(extend6((((hi >> 2u) & 31u) << 1u) | (hi & 1u)), extend7((lo >> 25u) & 127u), extend6((lo >> 19u) & 63u));
        pv = ivec3(extend6((lo >> 13u) & 63u), extend7((lo >> 6u) & 127u), extend6(lo & 63u));
    }
    bool flip = (hi & 1u) != 0u;

    [[unroll]] for (uint row = 0u; row < 4u; ++row) {
        uvec2 texels[4];
        [[unroll]] for (uint x = 0u; x < 4u; ++x) {
            uint k = 4u * x + row;  // pixel a..p: column-major
            uint index = (((lo >> (16u + k)) & 1u) << 1u) | ((lo >> k) & 1u);  // MSB << 1 | LSB
            ivec3 c;
            bool transparent = false;
            if (mode == MODE_PLANAR) {
                // clamp255((x (H - O) + y (V - O) + 4 O + 2) >> 2); always opaque.
                c = (int(x) * (ph - po) + int(row) * (pv - po) + 4 * po + 2) >> 2;
            } else if (mode == MODE_T || mode == MODE_H) {
                c = index == 0u ? paint[0] : index == 1u ? paint[1] : index == 2u ? paint[2] : paint[3];
                transparent = !opaque && index == 2u;
            } else {
                // Subblock 2: x >= 2 (flip 0, side by side) or y >= 2 (flip 1, on top of each other).
                bool second = flip ? row >= 2u : x >= 2u;
                uint table = second ? table1 : table0;
                int m = etc_modifier(table, index);
                // Punch-through with Op = 0: indices 00 and 10 give modifier 0 (10 is transparent).
                if (!opaque && (index & 1u) == 0u) m = 0;
                c = ivec3(second ? base1 : base0) + m;
                transparent = !opaque && index == 2u;
            }
            uvec4 rgba = uvec4(clamp(c, ivec3(0), ivec3(255)), 255u);
            if (transparent) rgba = uvec4(0u);
            if (EAC_ALPHA) rgba.a = uint(eac_channel(alpha_be, k, EAC_ALPHA8));
            texels[x] = texdec_pack_texel(uvec4(texdec_code_unorm8(rgba.r), texdec_code_unorm8(rgba.g),
                                                texdec_code_unorm8(rgba.b), texdec_code_unorm8(rgba.a)));
        }
        texdec_store_4_packed(uvec3(block.x * 4u, block.y * 4u + row, block.z), texels);
    }
}

// BC7 decoder (UNORM, sRGB): one invocation per 4x4 block.
// Khronos Data Format Specification, "BPTC Compressed Texture Image Formats", section "BC7";
// table names below are that section's. The partition, anchor and weight tables come from the
// context's BPTC table buffer (common/bptc.glsl).
// STORE: RGBA8 (RGBA8 and NATIVE outputs) or RGBA16F. sRGB decodes like UNORM (the bytes stay
// sRGB-encoded); with RGBA16F every channel is the byte v as v / 255 (UNORM and sRGB alike).
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "interface.h"
#include "common/layout.glsl"
#include "common/encode.glsl"
#include "common/store.glsl"
#include "common/load_block.glsl"
#include "common/bits.glsl"
#include "common/bptc.glsl"

// "Mode-dependent BPTC parameters", one 4-bit field per mode (mode m in bits 4m..4m+3), so a
// block's parameters are shifts of constants rather than run-time array indexing.
const uint MODE_NS = 0x21112323u;   // subsets
const uint MODE_PB = 0x60006664u;   // partition selection bits
const uint MODE_RB = 0x00220000u;   // rotation bits
const uint MODE_ISB = 0x00010000u;  // index selection bit
const uint MODE_CB = 0x57757564u;   // colour bits per channel and endpoint
const uint MODE_AB = 0x57860000u;   // alpha bits per endpoint
const uint MODE_EPB = 0x11001001u;  // one P-bit per endpoint
const uint MODE_SPB = 0x00000010u;  // one P-bit per subset (shared by its two endpoints)
const uint MODE_IB = 0x24222233u;   // primary index bits
const uint MODE_IB2 = 0x00230000u;  // secondary index bits

uint mode_field(uint table, uint mode) {
    return bitfieldExtract(table, int(4u * mode), 4);
}

// A channel of `bits` bits (5..8, P-bit included) to 8 bits: "the top bits of the value are
// replicated into any remaining bits in the byte".
uint expand_to_8(uint v, uint bits) {
    return ((v << (8u - bits)) | (v >> (2u * bits - 8u))) & 0xFFu;
}

// "BPTC endpoint interpolation formula", on the 8-bit channel `channel` of two packed endpoints.
uint interpolate(uint e0, uint e1, uint channel, uint weight) {
    uint a = bitfieldExtract(e0, int(8u * channel), 8);
    uint b = bitfieldExtract(e1, int(8u * channel), 8);
    return ((64u - weight) * a + weight * b + 32u) >> 6u;
}

void main() {
    uvec3 block;
    if (!texdec_block_coords(block)) return;
    uvec4 w = texdec_load_block_16(texdec_src_block_word(block, 4u));

    // The mode is the number of zeros below the lowest set bit of byte 0. Byte 0 == 0 is reserved:
    // "return 0 for all channels of all texels" (lavapipe, DirectXTex and bcdec agree, alpha too).
    uint mode_byte = w.x & 0xFFu;
    if (mode_byte == 0u) {
        uvec2 zero[4] = uvec2[4](uvec2(0u), uvec2(0u), uvec2(0u), uvec2(0u));
        [[unroll]] for (uint row = 0u; row < 4u; ++row)
            texdec_store_4_packed(uvec3(block.x * 4u, block.y * 4u + row, block.z), zero);
        return;
    }
    uint mode = uint(findLSB(mode_byte));
    uint subsets = mode_field(MODE_NS, mode);
    uint colour_bits = mode_field(MODE_CB, mode);
    uint alpha_bits = mode_field(MODE_AB, mode);
    uint index_bits = mode_field(MODE_IB, mode);
    uint index2_bits = mode_field(MODE_IB2, mode);
    bool endpoint_pbits = mode_field(MODE_EPB, mode) != 0u;
    bool shared_pbits = mode_field(MODE_SPB, mode) != 0u;
    uint endpoints = 2u * subsets;

    // "The fields in the block are always in the same order for all modes": mode, partition,
    // rotation, index selection, colour, alpha, per-endpoint P-bits, shared P-bits, indices.
    uint pos = mode + 1u;
    uint shape = texdec_bits128(w, pos, mode_field(MODE_PB, mode));
    pos += mode_field(MODE_PB, mode);
    uint rotation = texdec_bits128(w, pos, mode_field(MODE_RB, mode));
    pos += mode_field(MODE_RB, mode);
    uint index_selection = texdec_bits128(w, pos, mode_field(MODE_ISB, mode));
    pos += mode_field(MODE_ISB, mode);

    // Endpoints packed as RGBA bytes, endpoint e of subset s at 2s + e. Colour is stored
    // "first by endpoint, then by subset, then by channel": channel-major, endpoint-minor.
    uint raw[6] = uint[6](0u, 0u, 0u, 0u, 0u, 0u);
    [[unroll]] for (uint channel = 0u; channel < 3u; ++channel) {
        [[unroll]] for (uint e = 0u; e < 6u; ++e) {
            if (e < endpoints) {
                raw[e] |= texdec_bits128(w, pos, colour_bits) << (8u * channel);
                pos += colour_bits;
            }
        }
    }
    [[unroll]] for (uint e = 0u; e < 6u; ++e) {
        if (e < endpoints) {
            raw[e] |= texdec_bits128(w, pos, alpha_bits) << 24u;
            pos += alpha_bits;
        }
    }

    // P-bits go below the stored bits of every channel (alpha too, where the mode has alpha);
    // then the value is widened to 8 bits by replicating its top bits. No alpha bits: alpha 255.
    bool has_pbit = endpoint_pbits || shared_pbits;
    uint pbit_count = endpoint_pbits ? endpoints : shared_pbits ? subsets : 0u;
    uint pbits = texdec_bits128(w, pos, pbit_count);
    pos += pbit_count;
    uint colour_width = colour_bits + (has_pbit ? 1u : 0u);
    uint alpha_width = alpha_bits + (has_pbit ? 1u : 0u);
    uint ep[6];
    [[unroll]] for (uint e = 0u; e < 6u; ++e) {
        uint p = endpoint_pbits ? (pbits >> e) & 1u : shared_pbits ? (pbits >> (e >> 1u)) & 1u : 0u;
        uint packed = 0u;
        [[unroll]] for (uint channel = 0u; channel < 3u; ++channel) {
            uint v = (bitfieldExtract(raw[e], int(8u * channel), 8) << (has_pbit ? 1u : 0u)) | p;
            packed |= expand_to_8(v, colour_width) << (8u * channel);
        }
        uint a = alpha_bits == 0u ? 255u : expand_to_8(((raw[e] >> 24u) << (has_pbit ? 1u : 0u)) | p, alpha_width);
        ep[e] = packed | (a << 24u);
    }

    // Indices: IB bits per texel in texel order (x + 4y), one bit less at each subset's anchor;
    // the secondary indices (one subset: only texel 0 is an anchor) follow the primary ones.
    uint shape_bits = bptc_partition_bits(subsets, shape);
    uvec3 anchors = bptc_anchors(subsets, shape);
    uint index_start = pos;
    uint index2_start = index_start + 16u * index_bits - subsets;
    // Index selection (mode 4) swaps which index set drives colour and which drives alpha.
    bool swap_indices = index_selection != 0u;

    [[unroll]] for (uint row = 0u; row < 4u; ++row) {
        uvec2 texels[4];
        [[unroll]] for (uint x = 0u; x < 4u; ++x) {
            uint i = 4u * row + x;
            // "index offset" of the spec's note: one bit less for every anchor before texel i.
            uint skipped = (i > 0u ? 1u : 0u) + (anchors.y < i ? 1u : 0u) + (anchors.z < i ? 1u : 0u);
            bool anchor = i == 0u || i == anchors.y || i == anchors.z;
            uint primary = texdec_bits128(w, index_start + index_bits * i - skipped, index_bits - (anchor ? 1u : 0u));
            uint secondary = 0u;
            if (index2_bits != 0u)
                secondary = texdec_bits128(w, index2_start + index2_bits * i - (i > 0u ? 1u : 0u), index2_bits - (i == 0u ? 1u : 0u));
            uint colour_index = primary, colour_index_bits = index_bits;
            uint alpha_index = primary, alpha_index_bits = index_bits;
            if (index2_bits != 0u) {
                if (swap_indices) {
                    colour_index = secondary;
                    colour_index_bits = index2_bits;
                } else {
                    alpha_index = secondary;
                    alpha_index_bits = index2_bits;
                }
            }
            uint colour_weight = bptc_weight(colour_index_bits, colour_index);
            uint alpha_weight = bptc_weight(alpha_index_bits, alpha_index);

            uint subset = bptc_subset(shape_bits, i);
            uint e0 = subset == 0u ? ep[0] : subset == 1u ? ep[2] : ep[4];
            uint e1 = subset == 0u ? ep[1] : subset == 1u ? ep[3] : ep[5];
            uvec4 c = uvec4(interpolate(e0, e1, 0u, colour_weight), interpolate(e0, e1, 1u, colour_weight),
                            interpolate(e0, e1, 2u, colour_weight), interpolate(e0, e1, 3u, alpha_weight));
            // "BPTC Rotation bits": 1 swaps A and R, 2 A and G, 3 A and B (after interpolation).
            if (rotation == 1u) c = c.agbr;
            else if (rotation == 2u) c = c.rabg;
            else if (rotation == 3u) c = c.rgab;
            texels[x] = texdec_pack_texel(uvec4(texdec_code_unorm8(c.r), texdec_code_unorm8(c.g),
                                                texdec_code_unorm8(c.b), texdec_code_unorm8(c.a)));
        }
        texdec_store_4_packed(uvec3(block.x * 4u, block.y * 4u + row, block.z), texels);
    }
}

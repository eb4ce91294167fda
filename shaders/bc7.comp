// BC7 decoder (UNORM, sRGB): one invocation per 4x4 block.
// Khronos Data Format Specification, "BPTC Compressed Texture Image Formats", section "BC7";
// table names below are that section's. The partition and anchor tables come from the context's
// BPTC table buffer (common/bptc.glsl); weights are computed (bptc_weight_from).
//
// Speed: the whole block is decoded by one function, bc7_block, that main() calls with the mode
// as a constant for mode 6 (the mode of most real-image blocks) and as a run-time value for the
// others: the compiler folds every mode-6 field position, width and branch into constants, and
// both calls run the same code (same results). Indices become nibble streams once per block
// (common/bptc.glsl), so each texel reads its index with a constant shift; colours are
// interpolated two channels at a time in 16-bit lanes.
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

// Each byte of v (values of `bits` bits, 5..8, P-bit included) to 8 bits: "the top bits of the
// value are replicated into any remaining bits in the byte". The right shift lets bits of a byte
// into the one below; the mask keeps each byte's own (v >> (2 bits - 8) < 2^(8 - bits)).
uint expand_bytes_to_8(uint v, uint bits) {
    uint low_mask = 0x01010101u * ((1u << (8u - bits)) - 1u);
    return (v << (8u - bits)) | ((v >> (2u * bits - 8u)) & low_mask);
}

// "BPTC endpoint interpolation formula" on two 8-bit channels at once: x0, x1 hold the channels in
// bits 0..7 and 16..23; (64 - w) x0 + w x1 + 32 < 2^14 per lane, so the lanes never carry.
uint interpolate_lanes(uint x0, uint x1, uint weight) {
    return (((64u - weight) * x0 + weight * x1 + 0x00200020u) >> 6u) & 0x00FF00FFu;
}
uint interpolate_byte(uint a, uint b, uint weight) {
    return ((64u - weight) * a + weight * b + 32u) >> 6u;
}

// The texel's bytes for STORE: the RGBA8 word itself, or each byte as its RGBA16F code.
uvec2 bc7_texel(uint rgba) {
    if (!STORE_IS_HALF) return uvec2(rgba, 0u);
    return texdec_pack_texel(uvec4(texdec_code_unorm8(rgba & 0xFFu), texdec_code_unorm8((rgba >> 8u) & 0xFFu),
                                   texdec_code_unorm8((rgba >> 16u) & 0xFFu), texdec_code_unorm8(rgba >> 24u)));
}

// Decodes and stores the block `w` of mode `mode` (0..7). See the top of the file for why this
// is one function called twice. `one_weight`: the caller knows the mode has one index set (then
// all four channels are interpolated in lanes); else G and A are interpolated apart, which is
// right for every mode (the alpha indices are the colour ones where there is no second set) and
// spares blocks of different modes in one subgroup from taking both ways.
void bc7_block(uvec3 block, uvec4 w, uint mode, bool one_weight) {
    uint subsets = mode_field(MODE_NS, mode);
    uint partition_bits = mode_field(MODE_PB, mode);
    uint rotation_bits = mode_field(MODE_RB, mode);
    uint isb = mode_field(MODE_ISB, mode);
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
    uint head = texdec_bits128(w, pos, partition_bits + rotation_bits + isb);  // at most 6 bits
    uint shape = bitfieldExtract(head, 0, int(partition_bits));
    uint rotation = bitfieldExtract(head, int(partition_bits), int(rotation_bits));
    bool swap_indices = bitfieldExtract(head, int(partition_bits + rotation_bits), int(isb)) != 0u;
    pos += partition_bits + rotation_bits + isb;

    // Endpoints packed as RGBA bytes, endpoint e of subset s at 2s + e. Colour is stored
    // "first by endpoint, then by subset, then by channel": one channel of every endpoint is at most
    // 30 bits (6 x 5, mode 2), so one read per channel.
    uint raw[6] = uint[6](0u, 0u, 0u, 0u, 0u, 0u);
    [[unroll]] for (uint channel = 0u; channel < 3u; ++channel) {
        uint fields = texdec_bits128(w, pos, endpoints * colour_bits);
        pos += endpoints * colour_bits;
        [[unroll]] for (uint e = 0u; e < 6u; ++e)
            if (e < endpoints) raw[e] |= bitfieldExtract(fields, int(e * colour_bits), int(colour_bits)) << (8u * channel);
    }
    uint alpha_fields = texdec_bits128(w, pos, endpoints * alpha_bits);  // 0 bits: 0
    pos += endpoints * alpha_bits;

    // P-bits go below the stored bits of every channel (alpha too, where the mode has alpha);
    // then the value is widened to 8 bits by replicating its top bits. No alpha bits: alpha 255.
    bool has_pbit = endpoint_pbits || shared_pbits;
    uint pbit_count = endpoint_pbits ? endpoints : shared_pbits ? subsets : 0u;
    uint pbits = texdec_bits128(w, pos, pbit_count);
    pos += pbit_count;
    uint pshift = has_pbit ? 1u : 0u;
    uint colour_width = colour_bits + pshift;
    uint alpha_width = alpha_bits == 0u ? 8u : alpha_bits + pshift;  // 8: no shift out of range
    uint ep[6];
    [[unroll]] for (uint e = 0u; e < 6u; ++e) {
        uint p = endpoint_pbits ? (pbits >> e) & 1u : shared_pbits ? (pbits >> (e >> 1u)) & 1u : 0u;
        uint rgb = expand_bytes_to_8((raw[e] << pshift) | (p * 0x010101u), colour_width);
        uint a = bitfieldExtract(alpha_fields, int(e * alpha_bits), int(alpha_bits));
        a = alpha_bits == 0u ? 255u : expand_bytes_to_8((a << pshift) | p, alpha_width);
        ep[e] = rgb | (a << 24u);
    }

    // Indices: IB bits per texel in texel order (x + 4y), one bit less at each subset's anchor;
    // the secondary indices (one subset: only texel 0 is an anchor) follow the primary ones.
    uint shape_bits = bptc_partition_bits(subsets, shape);
    uvec3 anchors = bptc_anchors(subsets, shape);
    uvec2 primary = bptc_index_nibbles(w, pos, index_bits, anchors.y, anchors.z);
    uvec2 secondary = primary;
    uint colour_index_bits = index_bits, alpha_index_bits = index_bits;
    if (index2_bits != 0u) {
        secondary = bptc_index_nibbles(w, pos + 16u * index_bits - 1u, index2_bits, 16u, 16u);
        // Index selection (mode 4) swaps which index set drives colour and which drives alpha.
        if (swap_indices) colour_index_bits = index2_bits;
        else alpha_index_bits = index2_bits;
    }
    uvec2 colour_indices = swap_indices ? secondary : primary;
    uvec2 alpha_indices = swap_indices ? primary : secondary;
    uint colour_multiplier = bptc_weight_multiplier(colour_index_bits);
    uint alpha_multiplier = bptc_weight_multiplier(alpha_index_bits);
    // "BPTC Rotation bits": 1 swaps A and R, 2 A and G, 3 A and B (after interpolation): byte 3
    // with byte `rotate` (3 for none: no change).
    uint rotate_shift = rotation == 0u ? 24u : 8u * (rotation - 1u);

    [[unroll]] for (uint row = 0u; row < 4u; ++row) {
        uvec2 texels[4];
        [[unroll]] for (uint x = 0u; x < 4u; ++x) {
            uint i = 4u * row + x;
            uint colour_weight = bptc_weight_from(colour_multiplier, bptc_nibble(colour_indices, i));
            uint subset = bptc_subset(shape_bits, i);
            uint e0 = subset == 0u ? ep[0] : subset == 1u ? ep[2] : ep[4];
            uint e1 = subset == 0u ? ep[1] : subset == 1u ? ep[3] : ep[5];
            uint rb = interpolate_lanes(e0 & 0x00FF00FFu, e1 & 0x00FF00FFu, colour_weight);
            uint rgba;
            if (one_weight) {
                rgba = rb | (interpolate_lanes((e0 >> 8u) & 0x00FF00FFu, (e1 >> 8u) & 0x00FF00FFu, colour_weight) << 8u);
            } else {
                uint alpha_weight = bptc_weight_from(alpha_multiplier, bptc_nibble(alpha_indices, i));
                uint g = interpolate_byte((e0 >> 8u) & 0xFFu, (e1 >> 8u) & 0xFFu, colour_weight);
                uint a = interpolate_byte(e0 >> 24u, e1 >> 24u, alpha_weight);
                rgba = rb | (g << 8u) | (a << 24u);
            }
            uint t = ((rgba >> 24u) ^ (rgba >> rotate_shift)) & 0xFFu;
            rgba ^= (t << 24u) | (t << rotate_shift);
            texels[x] = bc7_texel(rgba);
        }
        texdec_store_4_packed(uvec3(block.x * 4u, block.y * 4u + row, block.z), texels);
    }
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
    if (mode == 6u) bc7_block(block, w, 6u, true);  // constants: see the top of the file
    else bc7_block(block, w, mode, false);
}

// BC6H decoder (unsigned and signed): one invocation per 4x4 block.
// Khronos Data Format Specification, "BPTC Compressed Texture Image Formats", section "BC6H".
// SIGNED: 0 = BC6H_UFLOAT (UF16), 1 = BC6H_SFLOAT (SF16). STORE is always RGBA16F (the RGBA16F and
// NATIVE outputs; 8-bit outputs are refused on the host). The result is bit-exact: the spec's
// integer algorithm, with halves written as the 16-bit patterns it produces.
//
// The 14 modes are data (luts/bc6h_modes.h, in the BPTC table): per mode, the endpoint precision,
// delta bits and the header's fields as runs of block bits, so every mode takes the same path.
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

// One channel's four endpoints (E0..E3) as signed integers from their raw header bits: transformed
// modes add the sign-extended deltas to E0, "wrapped at the number of endpoint bits"; signed formats
// then sign-extend every endpoint from EPB bits.
ivec4 bc6h_endpoints(uvec4 raw, uint epb, uint delta_bits, bool transformed) {
    uvec4 e = raw;
    if (transformed) {
        uvec4 deltas = uvec4(bitfieldExtract(ivec4(raw), 0, int(delta_bits)));
        uint mask = (1u << epb) - 1u;
        e.yzw = (uvec3(raw.x) + deltas.yzw) & mask;
    }
    return IS_SIGNED ? bitfieldExtract(ivec4(e), 0, int(epb)) : ivec4(e);
}

// The spec's unquantization of endpoint x (EPB bits) to 16 bits: unsigned 0..0xFFFF, signed
// -0x8000..0x7FFF (-0x8000 only from a 16-bit endpoint, where x passes through).
int bc6h_unquantize(int x, uint epb) {
    if (!IS_SIGNED) {
        if (epb >= 15u) return x;
        if (x == 0) return 0;
        if (x == int((1u << epb) - 1u)) return 0xFFFF;
        return ((x << 15) + 0x4000) >> (epb - 1u);
    }
    if (epb >= 16u) return x;
    int a = abs(x);
    int unq;
    if (a == 0) unq = 0;
    else if (a >= int((1u << (epb - 1u)) - 1u)) unq = 0x7FFF;
    else unq = ((a << 15) + 0x4000) >> (epb - 1u);
    return x < 0 ? -unq : unq;
}

ivec4 bc6h_unquantize4(ivec4 e, uint epb) {
    return ivec4(bc6h_unquantize(e.x, epb), bc6h_unquantize(e.y, epb), bc6h_unquantize(e.z, epb),
                 bc6h_unquantize(e.w, epb));
}

// The final unquantization of an interpolated value to half bits: UF16 scales by 31/64; SF16
// scales the magnitude by 31/32 and restores the sign bit, so -1 gives 0x8000 (-0) and -0x8000
// gives 0xFC00 (-Inf), as the spec's formula has it.
uint bc6h_finish(int i) {
    if (!IS_SIGNED) return uint((i * 31) >> 6);
    return i < 0 ? (uint(((-i) * 31) >> 5) | TEXDEC_HALF_SIGN) : uint((i * 31) >> 5);
}

void main() {
    uvec3 block;
    if (!texdec_block_coords(block)) return;
    uvec4 w = texdec_load_block_16(texdec_src_block_word(block, 4u));

    // Mode word of the low 5 bits (the 2-bit modes 0 and 1 are repeated for every upper 3 bits).
    uint mode = bptc_lut_word(TEXDEC_BPTC_LUT_BC6H_MODES + (w.x & 31u));
    bool reserved = mode == 0u;  // 19, 23, 27, 31: (0, 0, 0, 1)
    uint epb = reserved ? 16u : mode & 31u;  // any defined precision; the result is discarded
    uvec3 delta_bits = uvec3(bitfieldExtract(mode, 5, 4), bitfieldExtract(mode, 9, 4), bitfieldExtract(mode, 13, 4));
    bool transformed = (mode & (1u << 17u)) != 0u;
    bool two_subsets = (mode & (1u << 18u)) != 0u;
    uint run_count = bitfieldExtract(mode, 19, 5);
    uint runs = TEXDEC_BPTC_LUT_BC6H_RUNS + bitfieldExtract(mode, 24, 4) * TEXDEC_BPTC_LUT_BC6H_MAX_RUNS;

    // The header ("Block descriptions for BC6H block modes"): each run moves block bits into one
    // value (v = 3 * endpoint + channel, 12 = partition bits), reversed where the spec says v^a..b
    // with a < b. raw_r/g/b hold E0..E3 of one channel.
    uvec4 raw_r = uvec4(0u), raw_g = uvec4(0u), raw_b = uvec4(0u);
    uint shape = 0u;
    for (uint r = 0u; r < run_count; ++r) {
        uint run = bptc_lut_word(runs + r);
        uint value = run & 15u;
        uint length = bitfieldExtract(run, 15, 5);
        uint bits = texdec_bits128(w, bitfieldExtract(run, 4, 7), length);
        if ((run & (1u << 20u)) != 0u) bits = bitfieldReverse(bits) >> (32u - length);
        bits <<= bitfieldExtract(run, 11, 4);
        uint endpoint = value / 3u, channel = value - 3u * endpoint;  // value 12: endpoint 4, none
        uvec4 placed = mix(uvec4(0u), uvec4(bits), equal(uvec4(0u, 1u, 2u, 3u), uvec4(endpoint)));
        raw_r |= channel == 0u ? placed : uvec4(0u);
        raw_g |= channel == 1u ? placed : uvec4(0u);
        raw_b |= channel == 2u ? placed : uvec4(0u);
        shape |= value == 12u ? bits : 0u;
    }

    ivec4 end_r = bc6h_unquantize4(bc6h_endpoints(raw_r, epb, delta_bits.x, transformed), epb);
    ivec4 end_g = bc6h_unquantize4(bc6h_endpoints(raw_g, epb, delta_bits.y, transformed), epb);
    ivec4 end_b = bc6h_unquantize4(bc6h_endpoints(raw_b, epb, delta_bits.z, transformed), epb);

    // Subsets: the first half of the 2-subset partition table ("The partition number references the
    // first half of <<bptcP2subset>>"); texel 0 and the shape's second anchor have one index bit less.
    uint subsets = two_subsets ? 2u : 1u;
    uint partition_bits = bptc_partition_bits(subsets, shape);
    uint anchor = bptc_anchors(subsets, shape).y;  // 16 (no texel) for one subset
    uint index_bits = two_subsets ? 3u : 4u;
    uint index_start = two_subsets ? 82u : 65u;

    uint alpha = TEXDEC_HALF_ONE;
    [[unroll]] for (uint row = 0u; row < 4u; ++row) {
        uvec2 texels[4];
        [[unroll]] for (uint x = 0u; x < 4u; ++x) {
            uint i = 4u * row + x;
            // "Bit offset of IB_x,y": the indices follow in texel order, anchors one bit shorter.
            uint offset = i == 0u ? index_start : index_start + index_bits * i - 1u - (i > anchor ? 1u : 0u);
            uint width = (i == 0u || i == anchor) ? index_bits - 1u : index_bits;
            int weight = int(bptc_weight(index_bits, texdec_bits128(w, offset, width)));
            bool second = bptc_subset(partition_bits, i) != 0u;
            ivec2 r = second ? end_r.zw : end_r.xy;
            ivec2 g = second ? end_g.zw : end_g.xy;
            ivec2 b = second ? end_b.zw : end_b.xy;
            // "BPTC endpoint interpolation formula" on the 16-bit integers (arithmetic shift).
            ivec3 v = ((64 - weight) * ivec3(r.x, g.x, b.x) + weight * ivec3(r.y, g.y, b.y) + 32) >> 6;
            uvec4 codes = uvec4(bc6h_finish(v.x), bc6h_finish(v.y), bc6h_finish(v.z), alpha);
            texels[x] = texdec_pack_texel(reserved ? uvec4(0u, 0u, 0u, alpha) : codes);
        }
        texdec_store_4_packed(uvec3(block.x * 4u, block.y * 4u + row, block.z), texels);
    }
}

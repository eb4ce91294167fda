// BC6H decoder (unsigned and signed): one invocation per 4x4 block.
// Khronos Data Format Specification, "BPTC Compressed Texture Image Formats", section "BC6H".
// SIGNED: 0 = BC6H_UFLOAT (UF16), 1 = BC6H_SFLOAT (SF16). STORE is always RGBA16F (the RGBA16F and
// NATIVE outputs; 8-bit outputs are refused on the host). The result is bit-exact: the spec's
// integer algorithm, with halves written as the 16-bit patterns it produces.
//
// The 14 modes' parameters are data (luts/bc6h_modes.h, in the BPTC table): per mode, the endpoint
// precision, delta bits and the header's fields as runs of block bits. The header is read in two
// steps (below): the main fields alike for every mode, then the rest per mode. Indices are read
// as nibbles and weights computed (common/bptc.glsl). Variants measured on the H100:
// docs/bench/bptc_h100_2026-11-26*.
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

    // The header ("Block descriptions for BC6H block modes (LSB..MSB)"). Every mode keeps its
    // main fields at the same block bits, only their widths differ: the low bits of R0 G0 B0 at
    // 5, 15, 25 (min(EPB, 10) bits), R1 G1 B1 at 35, 45, 55 (their delta bits); with two subsets
    // also R2 and R3 at 65 and 71 (R's delta bits), the low 4 bits of G2, G3, B2 at 41, 51, 61
    // and the partition at 77 (5 bits). So those are read the same way for every block; then one
    // case per two-subset mode adds the rest of its fields at constant block bits: value v^a..b
    // takes the next |a-b|+1 block bits, first to last into bits b..a (no two-subset mode has a
    // reversed field, a < b). The cases transcribe the field lists of luts/bc6h_modes.cpp (same
    // order), less the main fields. One-subset modes read their runs as data (below). raw_r/g/b hold E0..E3 of one channel. A
    // reserved block (mode word 0: no runs) reads some bits and its result is discarded.
#define BC6H_BITS(pos, count) texdec_bits128(w, pos, count)
    uint low_bits = min(epb, 10u);
    uvec4 raw_r = uvec4(BC6H_BITS(5u, low_bits), BC6H_BITS(35u, delta_bits.x), 0u, 0u);
    uvec4 raw_g = uvec4(BC6H_BITS(15u, low_bits), BC6H_BITS(45u, delta_bits.y), 0u, 0u);
    uvec4 raw_b = uvec4(BC6H_BITS(25u, low_bits), BC6H_BITS(55u, delta_bits.z), 0u, 0u);
    uint shape = 0u;
    if (two_subsets) {
        raw_r.zw = uvec2(BC6H_BITS(65u, delta_bits.x), BC6H_BITS(71u, delta_bits.x));
        raw_g.zw = uvec2(BC6H_BITS(41u, 4u), BC6H_BITS(51u, 4u));
        raw_b.z = BC6H_BITS(61u, 4u);
        shape = BC6H_BITS(77u, 5u);
        switch (bitfieldExtract(mode, 24, 4)) {
        case 0u:
            raw_g.z |= BC6H_BITS(2u, 1u) << 4u; raw_b.z |= BC6H_BITS(3u, 1u) << 4u;
            raw_b.w |= BC6H_BITS(4u, 1u) << 4u; raw_g.w |= BC6H_BITS(40u, 1u) << 4u; raw_b.w |= BC6H_BITS(50u, 1u);
            raw_b.w |= BC6H_BITS(60u, 1u) << 1u; raw_b.w |= BC6H_BITS(70u, 1u) << 2u;
            raw_b.w |= BC6H_BITS(76u, 1u) << 3u;
            break;
        case 1u:
            raw_g.z |= BC6H_BITS(2u, 1u) << 5u; raw_g.w |= BC6H_BITS(3u, 1u) << 4u;
            raw_g.w |= BC6H_BITS(4u, 1u) << 5u; raw_b.w |= BC6H_BITS(12u, 1u); raw_b.w |= BC6H_BITS(13u, 1u) << 1u;
            raw_b.z |= BC6H_BITS(14u, 1u) << 4u; raw_b.z |= BC6H_BITS(22u, 1u) << 5u;
            raw_b.w |= BC6H_BITS(23u, 1u) << 2u; raw_g.z |= BC6H_BITS(24u, 1u) << 4u;
            raw_b.w |= BC6H_BITS(32u, 1u) << 3u; raw_b.w |= BC6H_BITS(33u, 1u) << 5u;
            raw_b.w |= BC6H_BITS(34u, 1u) << 4u;
            break;
        case 2u:
            raw_r.x |= BC6H_BITS(40u, 1u) << 10u; raw_g.x |= BC6H_BITS(49u, 1u) << 10u;
            raw_b.w |= BC6H_BITS(50u, 1u); raw_b.x |= BC6H_BITS(59u, 1u) << 10u;
            raw_b.w |= BC6H_BITS(60u, 1u) << 1u; raw_b.w |= BC6H_BITS(70u, 1u) << 2u;
            raw_b.w |= BC6H_BITS(76u, 1u) << 3u;
            break;
        case 3u:
            raw_r.x |= BC6H_BITS(39u, 1u) << 10u; raw_g.w |= BC6H_BITS(40u, 1u) << 4u;
            raw_g.x |= BC6H_BITS(50u, 1u) << 10u; raw_b.x |= BC6H_BITS(59u, 1u) << 10u;
            raw_b.w |= BC6H_BITS(60u, 1u) << 1u; raw_b.w |= BC6H_BITS(69u, 1u);
            raw_b.w |= BC6H_BITS(70u, 1u) << 2u; raw_g.z |= BC6H_BITS(75u, 1u) << 4u;
            raw_b.w |= BC6H_BITS(76u, 1u) << 3u;
            break;
        case 4u:
            raw_r.x |= BC6H_BITS(39u, 1u) << 10u; raw_b.z |= BC6H_BITS(40u, 1u) << 4u;
            raw_g.x |= BC6H_BITS(49u, 1u) << 10u; raw_b.w |= BC6H_BITS(50u, 1u);
            raw_b.x |= BC6H_BITS(60u, 1u) << 10u; raw_b.w |= BC6H_BITS(69u, 1u) << 1u;
            raw_b.w |= BC6H_BITS(70u, 1u) << 2u; raw_b.w |= BC6H_BITS(75u, 1u) << 4u;
            raw_b.w |= BC6H_BITS(76u, 1u) << 3u;
            break;
        case 5u:
            raw_b.z |= BC6H_BITS(14u, 1u) << 4u; raw_g.z |= BC6H_BITS(24u, 1u) << 4u;
            raw_b.w |= BC6H_BITS(34u, 1u) << 4u; raw_g.w |= BC6H_BITS(40u, 1u) << 4u;
            raw_b.w |= BC6H_BITS(50u, 1u); raw_b.w |= BC6H_BITS(60u, 1u) << 1u;
            raw_b.w |= BC6H_BITS(70u, 1u) << 2u; raw_b.w |= BC6H_BITS(76u, 1u) << 3u;
            break;
        case 6u:
            raw_g.w |= BC6H_BITS(13u, 1u) << 4u; raw_b.z |= BC6H_BITS(14u, 1u) << 4u;
            raw_b.w |= BC6H_BITS(23u, 1u) << 2u; raw_g.z |= BC6H_BITS(24u, 1u) << 4u;
            raw_b.w |= BC6H_BITS(33u, 1u) << 3u; raw_b.w |= BC6H_BITS(34u, 1u) << 4u;
            raw_b.w |= BC6H_BITS(50u, 1u); raw_b.w |= BC6H_BITS(60u, 1u) << 1u;
            break;
        case 7u:
            raw_b.w |= BC6H_BITS(13u, 1u); raw_b.z |= BC6H_BITS(14u, 1u) << 4u;
            raw_g.z |= BC6H_BITS(23u, 1u) << 5u; raw_g.z |= BC6H_BITS(24u, 1u) << 4u;
            raw_g.w |= BC6H_BITS(33u, 1u) << 5u; raw_b.w |= BC6H_BITS(34u, 1u) << 4u;
            raw_g.w |= BC6H_BITS(40u, 1u) << 4u; raw_b.w |= BC6H_BITS(60u, 1u) << 1u;
            raw_b.w |= BC6H_BITS(70u, 1u) << 2u; raw_b.w |= BC6H_BITS(76u, 1u) << 3u;
            break;
        case 8u:
            raw_b.w |= BC6H_BITS(13u, 1u) << 1u; raw_b.z |= BC6H_BITS(14u, 1u) << 4u;
            raw_b.z |= BC6H_BITS(23u, 1u) << 5u; raw_g.z |= BC6H_BITS(24u, 1u) << 4u;
            raw_b.w |= BC6H_BITS(33u, 1u) << 5u; raw_b.w |= BC6H_BITS(34u, 1u) << 4u;
            raw_g.w |= BC6H_BITS(40u, 1u) << 4u; raw_b.w |= BC6H_BITS(50u, 1u);
            raw_b.w |= BC6H_BITS(70u, 1u) << 2u; raw_b.w |= BC6H_BITS(76u, 1u) << 3u;
            break;
        case 9u:
            raw_g.w |= BC6H_BITS(11u, 1u) << 4u; raw_b.w |= BC6H_BITS(12u, 1u);
            raw_b.w |= BC6H_BITS(13u, 1u) << 1u; raw_b.z |= BC6H_BITS(14u, 1u) << 4u;
            raw_g.z |= BC6H_BITS(21u, 1u) << 5u; raw_b.z |= BC6H_BITS(22u, 1u) << 5u;
            raw_b.w |= BC6H_BITS(23u, 1u) << 2u; raw_g.z |= BC6H_BITS(24u, 1u) << 4u;
            raw_g.w |= BC6H_BITS(31u, 1u) << 5u; raw_b.w |= BC6H_BITS(32u, 1u) << 3u;
            raw_b.w |= BC6H_BITS(33u, 1u) << 5u; raw_b.w |= BC6H_BITS(34u, 1u) << 4u;
            break;
        default:
            break;
        }
    } else {
        // One subset: the mode's header runs from the BPTC table (luts/bc6h_modes.h: each moves
        // block bits into one value, reversed where the spec says v^a..b with a < b), the main
        // fields above included (ORing their bits again changes nothing). Reading only the high
        // R0 G0 B0 bits by formula instead, at least as exact, was slower on the H100 for mode-3
        // blocks (197 against 259 GTexel/s, docs/bench/bptc_h100_2026-11-26*, variant v6).
        uint run_count = bitfieldExtract(mode, 19, 5);
        uint runs = TEXDEC_BPTC_LUT_BC6H_RUNS + bitfieldExtract(mode, 24, 4) * TEXDEC_BPTC_LUT_BC6H_MAX_RUNS;
        for (uint r = 0u; r < run_count; ++r) {
            uint run = bptc_lut_word(runs + r);
            uint value = run & 15u;  // 3 * endpoint + channel (no partition bits in these modes)
            uint length = bitfieldExtract(run, 15, 5);
            uint bits = texdec_bits128(w, bitfieldExtract(run, 4, 7), length);
            if ((run & (1u << 20u)) != 0u) bits = bitfieldReverse(bits) >> (32u - length);
            bits <<= bitfieldExtract(run, 11, 4);
            uint endpoint = value / 3u, channel = value - 3u * endpoint;
            uvec4 placed = mix(uvec4(0u), uvec4(bits), equal(uvec4(0u, 1u, 2u, 3u), uvec4(endpoint)));
            raw_r |= channel == 0u ? placed : uvec4(0u);
            raw_g |= channel == 1u ? placed : uvec4(0u);
            raw_b |= channel == 2u ? placed : uvec4(0u);
        }
    }
#undef BC6H_BITS

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

    // Indices as nibbles (common/bptc.glsl), weights by formula: one constant shift per texel.
    uvec2 indices = bptc_index_nibbles(w, index_start, index_bits, anchor, 16u);
    uint multiplier = bptc_weight_multiplier(index_bits);

    uint alpha = TEXDEC_HALF_ONE;
    [[unroll]] for (uint row = 0u; row < 4u; ++row) {
        uvec2 texels[4];
        [[unroll]] for (uint x = 0u; x < 4u; ++x) {
            uint i = 4u * row + x;
            int weight = int(bptc_weight_from(multiplier, bptc_nibble(indices, i)));
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

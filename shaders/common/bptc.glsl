// The BPTC tables (BC6H, BC7): one R32_UINT uniform texel buffer per context, built by
// src/luts.cpp from luts/bptc_tables.h, one uint per entry at the TEXDEC_BPTC_LUT_* offsets of
// interface.h (KDFS "BPTC Compressed Texture Image Formats"). Needs "interface.h" included first.
// Also the index-stream helpers both BPTC decoders share (weights by formula, indices as nibbles).
#ifndef TEXDEC_COMMON_BPTC_GLSL
#define TEXDEC_COMMON_BPTC_GLSL

layout(set = 0, binding = TEXDEC_BINDING_TABLES) uniform usamplerBuffer bptc_lut;

uint bptc_lut_word(uint i) {
    return texelFetch(bptc_lut, int(i)).x;
}

// The partition shape `shape` (0..63) of a `subsets`-subset block (2 or 3) as 2 bits per texel:
// the subset of texel i = x + 4y is bptc_subset(shape_bits, i). One subset: all texels 0.
uint bptc_partition_bits(uint subsets, uint shape) {
    if (subsets < 2u) return 0u;
    return bptc_lut_word((subsets == 2u ? TEXDEC_BPTC_LUT_PARTITIONS2 : TEXDEC_BPTC_LUT_PARTITIONS3) + shape);
}

uint bptc_subset(uint partition_bits, uint texel) {
    return bitfieldExtract(partition_bits, int(2u * texel), 2);
}

// The anchor indices of shape `shape`: .x = subset 0 (always texel 0), .y = the second subset's,
// .z = the third subset's; 16 (never a texel) where the block has fewer subsets.
uvec3 bptc_anchors(uint subsets, uint shape) {
    if (subsets < 2u) return uvec3(0u, 16u, 16u);
    uint word = bptc_lut_word(TEXDEC_BPTC_LUT_ANCHORS + shape);
    if (subsets == 2u) return uvec3(0u, word & 0xFFu, 16u);
    return uvec3(0u, (word >> 8u) & 0xFFu, (word >> 16u) & 0xFFu);
}

// "BPTC interpolation factors" by formula: the weight of index k of n bits (2..4) is
// round(64 k / (2^n - 1)), which equals (k * (4095 / (2^n - 1)) + 32) >> 6 for every k of the
// three tables (1365, 585, 273 for n = 2, 3, 4; tests/test_bptc_luts.cpp checks it).
uint bptc_weight_multiplier(uint index_bits) {
    return index_bits == 2u ? 1365u : index_bits == 3u ? 585u : 273u;
}
uint bptc_weight_from(uint multiplier, uint index) {
    return (index * multiplier + 32u) >> 6u;
}

// Bits [pos, pos + 64) of a 128-bit block (four little-endian words), zeros past bit 127, as a
// 64-bit value (.x = low word). 0 <= pos < 128.
uvec2 bptc_bits64_at(uvec4 w, uint pos) {
    uint word = pos >> 5u, shift = pos & 31u;
    uint a = word == 0u ? w.x : word == 1u ? w.y : word == 2u ? w.z : w.w;
    uint b = word == 0u ? w.y : word == 1u ? w.z : word == 2u ? w.w : 0u;
    uint c = word == 0u ? w.z : word == 1u ? w.w : 0u;
    // (v << (31 - shift)) << 1: a shift by 32 is undefined, this is 0 for shift 0.
    return uvec2((a >> shift) | ((b << (31u - shift)) << 1u), (b >> shift) | ((c << (31u - shift)) << 1u));
}

// v (64 bits) with a 0 bit inserted at bit q (bits q.. move up one, bit 63 drops off); q >= 64:
// v unchanged. Restores an anchor index's implicit 0 top bit.
uvec2 bptc_insert_zero(uvec2 v, uint q) {
    if (q >= 64u) return v;
    uvec2 low_mask = q < 32u ? uvec2((1u << q) - 1u, 0u) : uvec2(0xFFFFFFFFu, (1u << (q - 32u)) - 1u);
    uvec2 high = v & ~low_mask;
    return (v & low_mask) | uvec2(high.x << 1u, (high.y << 1u) | (high.x >> 31u));
}

// Eight 2-bit (resp. 3-bit) fields at the bottom of x moved to the bottom of eight nibbles.
uint bptc_spread2(uint x) {
    x = (x | (x << 8u)) & 0x00FF00FFu;
    x = (x | (x << 4u)) & 0x0F0F0F0Fu;
    return (x | (x << 2u)) & 0x33333333u;
}
uint bptc_spread3(uint x) {
    x = (x & 0xFFFu) | ((x << 4u) & 0x0FFF0000u);
    x = (x & 0x003F003Fu) | ((x << 2u) & 0x3F003F00u);
    return (x & 0x07070707u) | ((x << 1u) & 0x70707070u);
}

// Sixteen fields of `bits` bits (2..4) packed from bit 0 of v as sixteen nibbles (field i in
// bits 4i..4i+3 of the 64-bit result), so a texel's index is a constant shift.
uvec2 bptc_nibbles(uvec2 v, uint bits) {
    if (bits == 4u) return v;
    if (bits == 2u) return uvec2(bptc_spread2(v.x & 0xFFFFu), bptc_spread2(v.x >> 16u));
    return uvec2(bptc_spread3(v.x & 0xFFFFFFu), bptc_spread3(((v.x >> 24u) | (v.y << 8u)) & 0xFFFFFFu));
}

// The index of texel i (0..15) of a nibble stream.
uint bptc_nibble(uvec2 n, uint i) {
    return ((i < 8u ? n.x : n.y) >> (4u * (i & 7u))) & 15u;
}

// The indices of a block as nibbles: `bits` bits per texel starting at block bit `start`, texel 0
// and the texels `anchor1`, `anchor2` (16: none) one bit shorter ("the most significant bit of
// each anchor index is implicitly 0").
uvec2 bptc_index_nibbles(uvec4 w, uint start, uint bits, uint anchor1, uint anchor2) {
    uvec2 v = bptc_insert_zero(bptc_bits64_at(w, start), bits - 1u);
    uint first = min(anchor1, anchor2), second = max(anchor1, anchor2);
    v = bptc_insert_zero(v, first * bits + bits - 1u);
    v = bptc_insert_zero(v, second * bits + bits - 1u);
    return bptc_nibbles(v, bits);
}

#endif

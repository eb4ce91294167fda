// The BPTC tables (BC6H, BC7): one R32_UINT uniform texel buffer per context, built by
// src/luts.cpp from luts/bptc_tables.h, one uint per entry at the TEXDEC_BPTC_LUT_* offsets of
// interface.h (KDFS "BPTC Compressed Texture Image Formats"). Needs "interface.h" included first.
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

// "BPTC interpolation factors": the 6-bit weight (0..64) of an index of `index_bits` (2..4) bits.
uint bptc_weight(uint index_bits, uint index) {
    uint base = index_bits == 2u ? TEXDEC_BPTC_LUT_WEIGHTS2
              : index_bits == 3u ? TEXDEC_BPTC_LUT_WEIGHTS3
                                 : TEXDEC_BPTC_LUT_WEIGHTS4;
    return bptc_lut_word(base + index);
}

#endif

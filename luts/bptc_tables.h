// BPTC (BC6H, BC7) lookup tables: pure functions (no Vulkan, no global mutable state) returning the
// tables of the Khronos Data Format Specification, chapter "BPTC Compressed Texture Image Formats".
// Table names below are that chapter's.
//
// Texels are numbered i = x + 4 * y inside the 4x4 block (the spec's "y-major order" of indices).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace texdec::luts {

inline constexpr int kBptcShapeCount = 64;  // partition shapes per subset count (6 selection bits)

// "Partition table for 2-subset BPTC" / "... for 3-subset BPTC": the subset (0..1 / 0..2) of each
// texel of shape `shape` (0..63). subsets = 1 gives subset 0 everywhere ("A texel in a block with
// one subset is always considered to be in subset zero"). Throws std::out_of_range on subsets
// outside 1..3 or a shape outside 0..63.
std::array<uint8_t, 16> bptc_partition(int subsets, int shape);

// The anchor index (texel whose index has one bit less) of `subset` in shape `shape` of a
// `subsets`-subset partitioning: 0 for subset 0; "BPTC anchor index values for the second subset of
// two-subset partitioning", "... for the second subset of three-subset partitioning" and
// "... for the third subset of three-subset partitioning" otherwise. Throws std::out_of_range on
// arguments outside the tables (subset >= subsets).
uint8_t bptc_anchor(int subsets, int shape, int subset);

// "BPTC interpolation factors": the 6-bit weights (0..64) of 2-, 3- and 4-bit indices,
// 2^index_bits entries. Throws std::out_of_range on other index widths.
std::vector<uint8_t> bptc_weights(int index_bits);

// "Mode-dependent BPTC parameters" of BC7, per mode 0..7: subsets (NS), partition bits (PB),
// rotation bits (RB), index selection bits (ISB), colour bits (CB), alpha bits (AB), endpoint
// P-bits (EPB), shared P-bits (SPB), index bits (IB) and secondary index bits (IB2).
struct Bc7Mode {
    int subsets, partition_bits, rotation_bits, index_selection_bits, colour_bits, alpha_bits;
    int endpoint_pbits, shared_pbits, index_bits, secondary_index_bits;
};
inline constexpr Bc7Mode kBc7Modes[8] = {
    {3, 4, 0, 0, 4, 0, 1, 0, 3, 0}, {2, 6, 0, 0, 6, 0, 0, 1, 3, 0}, {3, 6, 0, 0, 5, 0, 0, 0, 2, 0},
    {2, 6, 0, 0, 7, 0, 1, 0, 2, 0}, {1, 0, 2, 1, 5, 6, 0, 0, 2, 3}, {1, 0, 2, 0, 7, 8, 0, 0, 2, 2},
    {1, 0, 0, 0, 7, 7, 1, 0, 4, 0}, {2, 6, 0, 0, 5, 5, 1, 0, 2, 0},
};

// All tables in the layout of shaders/interface.h (TEXDEC_BPTC_LUT_*), one uint32 per entry:
// words [0, TEXDEC_BPTC_LUT_BC6H_MODES) hold the partitions, anchors and weights (unused words 0),
// then the BC6H mode descriptions from TEXDEC_BPTC_LUT_BC6H_MODES on.
std::vector<uint32_t> bptc_lut_words();

}  // namespace texdec::luts

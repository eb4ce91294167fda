// BC6H mode descriptions as data: pure functions (no Vulkan, no global mutable state) built from the
// Khronos Data Format Specification, chapter "BPTC Compressed Texture Image Formats", section
// "BC6H": the table "Endpoint and partition parameters for BPTC block
// modes" and the per-mode field lists of "Block descriptions for BC6H block modes (LSB..MSB)".
//
// Endpoint values are numbered v = 3 * endpoint + channel: R0 G0 B0 R1 G1 B1 R2 G2 B2 R3 G3 B3
// (0..11); the partition bits PB are value 12 and the mode bits M value 13.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace texdec::luts {

inline constexpr int kBc6hModeCount = 14;
inline constexpr int kBc6hValuePartition = 12;  // PB
inline constexpr int kBc6hValueMode = 13;       // M

// One row of "Endpoint and partition parameters for BPTC block modes".
struct Bc6hMode {
    uint8_t number;          // the mode number (0, 1, 2, 6, 10, ..., 3, 7, 11, 15)
    uint8_t mode_bits;       // 2 (modes 0 and 1) or 5
    bool transformed;        // E1..E3 are deltas from E0
    uint8_t partition_bits;  // 5 (two subsets) or 0 (one subset)
    uint8_t endpoint_bits;   // EPB, the same for R, G and B in every mode
    std::array<uint8_t, 3> delta_bits;  // {R, G, B}; = EPB when not transformed
    uint8_t index_bits;      // 3 (two subsets) or 4
    int subsets() const { return partition_bits ? 2 : 1; }
    int header_bits() const { return partition_bits ? 82 : 65; }  // bits before the first index
};

// The 14 modes in the spec's table order (0, 1, 2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15).
const std::array<Bc6hMode, kBc6hModeCount>& bc6h_modes();

// The position (0..13) in bc6h_modes() of the mode a block's low 5 bits select, or -1 for the
// reserved modes 19, 23, 27, 31 ("If the low two bits are less than two, that is the mode number,
// otherwise the low five bits is the mode number").
int bc6h_mode_for_low_bits(uint32_t low5);

// One element v^a..b of a block description: the next |a-b|+1 block bits go, first to last, into
// bits b, ..., a of value v ("If a < b, then the bits are reversed").
struct Bc6hField {
    uint8_t value;  // 0..13 (see the top of this file)
    uint8_t a, b;
};

// The spec's field list of mode `ordinal` (0..13, bc6h_modes() order), written as in the table
// ("M:1..0 G2:4 ... PB:4..0"), and that text parsed. Throws std::out_of_range on a bad ordinal.
std::string_view bc6h_block_description(int ordinal);
std::vector<Bc6hField> bc6h_fields(int ordinal);

// What header bit `bit` (0 .. header_bits-1) of a block in mode `ordinal` holds: value and bit.
struct Bc6hBitSource {
    uint8_t value;
    uint8_t bit;
};
std::vector<Bc6hBitSource> bc6h_header_bit_sources(int ordinal);

// The BC6H region of the BPTC table (shaders/interface.h, TEXDEC_BPTC_LUT_BC6H_*), starting at word
// TEXDEC_BPTC_LUT_BC6H_MODES, TEXDEC_BPTC_LUT_BC6H_WORDS words:
//   [32] low 5 bits of a block -> mode word, 0 for the reserved modes:
//        EPB | dR << 5 | dG << 9 | dB << 13 | transformed << 17 | two subsets << 18 |
//        run count << 19 | ordinal << 24 | 1 << 31
//   [14 * 32] per ordinal, its fields without M (the runs), one word each:
//        value | first block bit << 4 | lowest value bit << 11 | length << 15 | reversed << 20
std::vector<uint32_t> bc6h_lut_words();

}  // namespace texdec::luts

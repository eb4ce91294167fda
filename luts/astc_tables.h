// ASTC lookup-table generators: pure functions (no Vulkan, no global mutable state) implementing the
// procedures of the Khronos Data Format Specification, chapter "ASTC Compressed Texture Image Formats".
// Section names below are that chapter's.
//
// Range indices: every ISE ("integer sequence encoding") range used by ASTC is named by its index in
// kIseRanges, ordered by number of levels: 0 = 0..1, 1 = 0..2, 2 = 0..3, 3 = 0..4, 4 = 0..5, ...,
// 20 = 0..255. Weight ranges are indices 0..11 (0..1 .. 0..31, "Block Mode" table "ASTC weight range
// encodings"); colour endpoint ranges are indices 4..20 (0..5 .. 0..255, "Endpoint Unquantization",
// whose parameter table starts at 0..5).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace texdec::luts {

// ---- Integer Sequence Encoding ----------------------------------------------------------------

// One ISE range 0..levels-1 = (trits ? 3 : quints ? 5 : 1) * 2^bits - 1 ("ASTC range forms").
struct IseRange {
    uint16_t levels;  // number of representable values: 2 .. 256
    uint8_t bits;     // n: low bits per value
    uint8_t trits;    // 1 if the range has a base-3 MSB digit
    uint8_t quints;   // 1 if the range has a base-5 MSB digit
};

inline constexpr int kIseRangeCount = 21;
inline constexpr std::array<IseRange, kIseRangeCount> kIseRanges = {{
    {2, 1, 0, 0},   {3, 0, 1, 0},   {4, 2, 0, 0},   {5, 0, 0, 1},   {6, 1, 1, 0},   {8, 3, 0, 0},
    {10, 1, 0, 1},  {12, 2, 1, 0},  {16, 4, 0, 0},  {20, 2, 0, 1},  {24, 3, 1, 0},  {32, 5, 0, 0},
    {40, 3, 0, 1},  {48, 4, 1, 0},  {64, 6, 0, 0},  {80, 4, 0, 1},  {96, 5, 1, 0},  {128, 7, 0, 0},
    {160, 5, 0, 1}, {192, 6, 1, 0}, {256, 8, 0, 0},
}};

inline constexpr int kWeightRangeCount = 12;  // indices 0..11: 0..1 .. 0..31
inline constexpr int kColorRangeFirst = 4;    // index of 0..5, the smallest colour endpoint range

// Index into kIseRanges of the range with `levels` values, or -1 if ASTC has no such range.
int ise_range_index(unsigned levels);

// "Data Size Determination": bits taken by `count` values of a range,
// ceil(count*8*trits/5) + ceil(count*7*quints/3) + count*bits. Throws std::out_of_range on a bad index.
uint32_t ise_bits_used(int range_index, uint32_t count);

// "Integer Sequence Encoding": the five trits t0..t4 of the packed 8-bit value T[7:0]
// (the bit-manipulation procedure following "ASTC trit-based packing"). Only bits 7..0 are used.
std::array<uint8_t, 5> decode_trit_block(uint32_t packed8);

// "Integer Sequence Encoding": the three quints q0..q2 of the packed 7-bit value Q[6:0]
// (the procedure following "ASTC quint-based packing"). Only bits 6..0 are used.
std::array<uint8_t, 3> decode_quint_block(uint32_t packed7);

// decode_trit_block for every T in 0..255 / decode_quint_block for every Q in 0..127.
std::array<std::array<uint8_t, 5>, 256> trit_table();
std::array<std::array<uint8_t, 3>, 128> quint_table();

// ---- Unquantization ---------------------------------------------------------------------------

// "Weight Unquantization": stored weight `value` (0..levels-1, = t*2^n + m / q*2^n + m for trit /
// quint ranges, per "ASTC encoding for different ranges") of weight range `range_index` (0..11)
// -> 0..64, including the final "if (unq > 32) unq += 1" step. Throws std::out_of_range on a bad
// range index or a value >= levels.
uint8_t unquantize_weight(int range_index, uint32_t value);

// All weight ranges: entry [range_index * 32 + value] (values >= levels are 0). 12 * 32 bytes.
std::vector<uint8_t> weight_unquantize_table();

// "Endpoint Unquantization": stored colour value of colour range `range_index` (4..20, i.e. 0..5 ..
// 0..255) -> 0..255: bit replication for the pure-bit ranges, the A/B/C/D procedure for trit/quint
// ranges. The pure-bit ranges 0..1 and 0..3 (indices 0, 2) are also accepted (bit replication is
// defined for them); 0..2 and 0..4 (indices 1, 3) have no colour parameters in the spec and throw
// std::out_of_range, as do values >= levels.
uint8_t unquantize_color(int range_index, uint32_t value);

// All ranges: entry [range_index * 256 + value] for range_index 0..20; rows 1 and 3 (0..2, 0..4: not
// colour ranges) and values >= levels are 0. 21 * 256 bytes, indexable directly by range index.
std::vector<uint8_t> color_unquantize_table();

// ---- Block Mode --------------------------------------------------------------------------------

// What the 11-bit block mode field says, for one block footprint ("Block Mode", tables "ASTC 2D
// block mode layout" / "ASTC 3D block mode layout", and "Illegal Encodings").
enum class BlockModeKind : uint8_t {
    error = 0,        // reserved mode, or illegal for this footprint (grid larger than the footprint,
                      // more than 64 weights, fewer than 24 or more than 96 weight bits)
    weights = 1,      // a normal block
    void_extent = 2,  // bits [8:0] = 111111100
};
struct BlockMode {
    BlockModeKind kind = BlockModeKind::error;
    uint8_t grid_w = 0, grid_h = 0, grid_d = 0;  // weight grid (grid_d = 1 for 2D footprints)
    uint8_t weight_range = 0;                    // index into kIseRanges (0..11)
    bool dual_plane = false;
    uint8_t weight_bits = 0;                     // ise_bits_used(weight_range, weights incl. both planes)
};

// Decodes `mode` (bits 10..0 of a block) for a footprint: 2D when block_d == 1 (the 2D layout), 3D
// otherwise. Fields other than kind are also filled for modes that are illegal only for this
// footprint (they decode but do not fit), and are zero for reserved modes and void extents.
BlockMode decode_block_mode(uint32_t mode, uint32_t block_w, uint32_t block_h, uint32_t block_d);

// "Data Size Determination": the largest colour range (index into kIseRanges, 4..20) whose ISE
// encoding of `value_count` values fits in `remaining_bits`, or -1 when even 0..5 does not fit
// (the "fewer than ceil(13 * C / 5) bits" illegal encoding). value_count 2..32 (even).
int color_range_for(uint32_t value_count, int remaining_bits);

// ---- Partition Pattern Generation -------------------------------------------------------------

// "Partition Pattern Generation": the seed hash hash52(), all operations on 32-bit values.
uint32_t partition_hash52(uint32_t p);

// "Partition Pattern Generation": select_partition(). seed = the 10-bit partition pattern index
// (0..1023), (x, y, z) the texel position in the block (z = 0 for 2D), small_block = the block has
// fewer than 31 texels. Returns 0..partition_count-1. The spec's function is only used when
// several partitions are active (for partition_count 1 it could return 1); here partition_count 1
// returns 0, as every texel of a single-partition block is in partition 0.
// Throws std::out_of_range unless seed <= 1023 and 1 <= partition_count <= 4.
uint8_t partition_index(uint32_t seed, uint32_t x, uint32_t y, uint32_t z, uint32_t partition_count,
                        bool small_block);

// Partition indices of every texel of a footprint for all 1024 seeds.
// Packing: 2 bits per texel, 16 texels per 32-bit word, little-endian within the word: texel
// t = x + block_w * (y + block_h * z) of seed s is bits [2*(t%16)+1 : 2*(t%16)] of
// words[s * words_per_seed + t/16]. Unused high bits of a seed's last word are 0.
// small_block is derived from the footprint (texels < 31).
struct PartitionTable {
    uint32_t block_w = 0, block_h = 0, block_d = 0;
    uint32_t partition_count = 0;
    uint32_t texels = 0;          // block_w * block_h * block_d
    uint32_t words_per_seed = 0;  // ceil(texels / 16)
    std::vector<uint32_t> words;  // 1024 * words_per_seed

    uint8_t at(uint32_t seed, uint32_t texel) const {
        return static_cast<uint8_t>((words[seed * words_per_seed + texel / 16] >> (2 * (texel % 16))) & 3u);
    }
};
inline constexpr uint32_t kPartitionSeedCount = 1024;

// For 2D footprints pass block_d = 1 (every texel then has z = 0). Throws std::out_of_range unless
// every dimension is 1..12 and 1 <= partition_count <= 4 (the ASTC footprints are 4..12 in 2D and
// 3..6 in 3D; other sizes in 1..12 are accepted for testing).
PartitionTable partition_table(uint32_t block_w, uint32_t block_h, uint32_t block_d, uint32_t partition_count);

}  // namespace texdec::luts

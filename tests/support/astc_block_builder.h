// A bit-level ASTC block *builder* for 2D and 3D blocks, written from the Khronos Data Format
// Specification's ASTC chapter only: it knows how to lay out the bits
// of a block (block mode, partitions, colour endpoint modes, integer sequence encoding of weights
// and colour values, dual-plane selector, void extents). It does not decode texels: what a block
// decodes to is always asked of the oracles (oracles/astcenc_oracle.h, oracles/mesa_gl_oracle.h).
// It shares no code with the library (shaders/, src/, luts/).
//
// Section names in the comments refer to the spec ("Block Mode", "Integer Sequence Encoding",
// "Color Endpoint Mode", "Data Size Determination", "Void-Extent Blocks", "Illegal Encodings").
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "random_blocks.h"  // SplitMix64

namespace texdec_test {

using AstcBlock = std::array<uint8_t, 16>;

// ---- bit access (little-endian bit order: bit 0 is the LSB of byte 0) ----------------------

uint32_t astc_get_bits(const uint8_t* block, unsigned first, unsigned count);  // count <= 32
void astc_set_bits(uint8_t* block, unsigned first, unsigned count, uint32_t value);

// ---- integer sequence encoding ("Integer Sequence Encoding") --------------------------------

// A value range 0..(m * 2^bits - 1) with m = 3 (trits), 5 (quints) or 1.
struct IseRange {
    unsigned trits = 0, quints = 0, bits = 0;
    unsigned levels() const { return (trits ? 3u : quints ? 5u : 1u) << bits; }  // number of values
    unsigned max_value() const { return levels() - 1; }
};
// Bits an ISE sequence of `count` values takes ("Data Size Determination").
unsigned ise_bit_count(IseRange range, unsigned count);

// The spec's decode of the 8-bit trit block T (5 trits) and the 7-bit quint block Q (3 quints).
std::array<unsigned, 5> ise_decode_trit_block(unsigned T);
std::array<unsigned, 3> ise_decode_quint_block(unsigned Q);

// Encodes `values` (each <= range.max_value()) as an ISE bit stream: element i of the result is
// stream bit i. The trit/quint packing of each block is chosen among all codes whose decode
// gives the block's values (and, for a final partial block, whose bits past the end of the
// stream are zero); with an rng, a random one of them (so duplicate codes are exercised), else
// the smallest.
std::vector<uint8_t> ise_encode(IseRange range, const std::vector<unsigned>& values, SplitMix64* rng = nullptr);

// ---- block mode ("Block Mode", 2D table) ----------------------------------------------------

// The 12 weight ranges in order of the (P, rho) encoding: index 0..5 = P=0 rho=2..7 (0..1, 0..2,
// 0..3, 0..4, 0..5, 0..7), 6..11 = P=1 rho=2..7 (0..9, 0..11, 0..15, 0..19, 0..23, 0..31).
IseRange astc_weight_range(unsigned index);
constexpr unsigned kAstcWeightRangeCount = 12;

struct AstcBlockMode {
    unsigned grid_w = 0, grid_h = 0, grid_d = 1;  // grid_d > 1 only in 3D modes
    unsigned weight_range = 0;  // index for astc_weight_range
    bool dual_plane = false;
};
// Parses the 11-bit block mode field of a 2D block. nullopt: reserved, or the void-extent pattern.
std::optional<AstcBlockMode> astc_parse_block_mode_2d(uint32_t mode11);
// The same for a 3D block ("ASTC 3D block mode layout"), and either table by footprint depth
// (3D when footprint_d > 1).
std::optional<AstcBlockMode> astc_parse_block_mode_3d(uint32_t mode11);
std::optional<AstcBlockMode> astc_parse_block_mode(uint32_t mode11, unsigned footprint_d);
// The weight count (both planes) and the ISE bit count of the weights of a mode.
unsigned astc_weight_count(const AstcBlockMode& m);
unsigned astc_weight_bits(const AstcBlockMode& m);
// Whether the mode is legal for a footprint ("Illegal Encodings"): grid fits, <= 64 weights,
// 24..96 weight bits.
bool astc_block_mode_fits(const AstcBlockMode& m, unsigned footprint_w, unsigned footprint_h);
bool astc_block_mode_fits_3d(const AstcBlockMode& m, unsigned footprint_w, unsigned footprint_h, unsigned footprint_d);
// Every 11-bit block mode value that is legal for the footprint (each distinct bit pattern).
std::vector<uint32_t> astc_legal_block_modes_2d(unsigned footprint_w, unsigned footprint_h);
std::vector<uint32_t> astc_legal_block_modes_3d(unsigned footprint_w, unsigned footprint_h, unsigned footprint_d);

// ---- colour endpoint modes ("Color Endpoint Mode", "Endpoint Interpretation") ----------------

inline unsigned astc_cem_class(unsigned cem) { return cem >> 2; }
inline unsigned astc_cem_value_count(unsigned cem) { return 2 * (astc_cem_class(cem) + 1); }
inline bool astc_cem_is_hdr_mode(unsigned cem) {
    return cem == 2 || cem == 3 || cem == 7 || cem == 11 || cem == 14 || cem == 15;
}
// The colour value ranges in descending order of size (0..255 down to 0..5).
const std::vector<IseRange>& astc_colour_ranges_descending();

// ---- HDR endpoint modes ("HDR Endpoint Mode 3" .. "15": value layouts) ----------------------
// The fields of an HDR endpoint mode's colour values (v0, v1, ... of one partition, 8 bits each,
// as unquantized: with the colour range 0..255 a stored value is its own unquantized value) that
// select how the other bits are read. Each is a list of (value, bit) positions, low bit first,
// as the spec's decoding code assembles them:
enum class AstcHdrField {
    mode3_m,            // mode 3: M = bit 7 of v0 (which bits of v1 extend L and which form d)
    mode7_modeval,      // mode 7: modeval = v0 bits 6..7 | v1 bit 7 << 2 | v2 bit 7 << 3 (major component, bit mode)
    mode11_majcomp,     // modes 11, 14, 15: majcomp = v4 bit 7 | v5 bit 7 << 1 (3: RGB stored directly)
    mode11_mode,        // modes 11, 14, 15: the bit mode = v1 bit 7 | v2 bit 7 << 1 | v3 bit 7 << 2
    mode15_alpha_mode,  // mode 15: the alpha mode M = v6 bit 7 | v7 bit 7 << 1 (3: alphas stored directly)
};
unsigned astc_hdr_field_bits(AstcHdrField f);  // 1, 4, 2, 3, 2
// The field's value in v (which holds the mode's values: 2, 4, 6 or 8); and the inverse, which
// changes only the field's bits.
unsigned astc_hdr_field(AstcHdrField f, const unsigned* v);
void astc_set_hdr_field(AstcHdrField f, unsigned* v, unsigned value);

// ---- a whole block --------------------------------------------------------------------------

struct AstcBlockSpec {
    uint32_t block_mode = 0;            // the 11-bit field
    unsigned partitions = 1;            // 1..4
    unsigned partition_seed = 0;        // 10 bits (partitions > 1)
    unsigned cem[4] = {0, 0, 0, 0};     // per partition
    // Multi-partition blocks: true = the "shared CEM" form (selector 00, one 4-bit CEM in bits
    // 25..28; all cem[] must be equal); false = the per-partition class form (selector 01/10/11:
    // all cem[] must be of class c or c+1).
    bool shared_cem = true;
    unsigned ccs = 0;                   // colour component selector (dual plane)
    std::vector<unsigned> weights;      // astc_weight_count values (plane 0, plane 1 interleaved)
    std::vector<unsigned> colours;      // colour value count values, each <= the colour range max
};

// How the bits of a spec'd block are laid out, and whether the spec calls it legal.
struct AstcBlockPlan {
    bool legal = false;
    std::string why_illegal;            // empty when legal
    AstcBlockMode mode;
    unsigned weight_count = 0, weight_bits = 0;
    unsigned config_bits = 0;           // "config_bits" of Data Size Determination
    unsigned extra_cem_bits = 0;        // CEM bits below the weights (per-partition form)
    unsigned colour_value_count = 0;
    unsigned remaining_bits = 0;        // for colour values
    IseRange colour_range;              // largest range that fits (legal blocks)
    unsigned colour_bits = 0;
    unsigned colour_start = 0;          // first bit of the colour data (17 or 29)
};
// Plans a block from the mode, partition count and CEMs of `spec` (weights/colours unused).
// Throws std::invalid_argument for specs that cannot be written at all (bad CEM combination for
// the requested form, unknown block mode, partition count out of 1..4).
AstcBlockPlan astc_plan_block(const AstcBlockSpec& spec, unsigned footprint_w, unsigned footprint_h);
// The same for a 3D footprint (block mode from the 3D table when footprint_d > 1).
AstcBlockPlan astc_plan_block_3d(const AstcBlockSpec& spec, unsigned footprint_w, unsigned footprint_h,
                                 unsigned footprint_d);

// Writes the block. `spec.weights` / `spec.colours` must have the planned counts and be in
// range. Bits the spec leaves unallocated (between the colour data and the bits written from the
// top) are filled from `rng` when given, else zero. Throws for illegal plans (use
// astc_plan_block first) and wrong value counts, unless `allow_illegal`: then it writes an
// illegal block as far as the fields fit (block mode, partition count, seed, CEM fields, CCS;
// the weights when given and they fit; no colour data) and leaves the rest random: an error
// block for the structured tests.
AstcBlock astc_build_block(const AstcBlockSpec& spec, unsigned footprint_w, unsigned footprint_h,
                           SplitMix64* rng = nullptr, bool allow_illegal = false);
AstcBlock astc_build_block_3d(const AstcBlockSpec& spec, unsigned footprint_w, unsigned footprint_h,
                              unsigned footprint_d, SplitMix64* rng = nullptr, bool allow_illegal = false);

// Fills spec.weights and spec.colours with uniformly random values of the planned ranges and
// builds the block. The plan must be legal.
AstcBlock astc_build_random_block(AstcBlockSpec spec, unsigned footprint_w, unsigned footprint_h, SplitMix64& rng);
AstcBlock astc_build_random_block_3d(AstcBlockSpec spec, unsigned footprint_w, unsigned footprint_h,
                                     unsigned footprint_d, SplitMix64& rng);

// A random legal block spec, with some choices pinned (-1 = random). Tries random block modes
// from `modes` (e.g. astc_legal_block_modes_2d; with dual_plane pinned, only modes of that kind)
// and random partitionings/CEMs until the plan is legal; nullopt after `tries` attempts.
struct AstcSpecRequest {
    int block_mode = -1;   // a fixed 11-bit mode
    int partitions = -1;   // 1..4
    int cem = -1;          // shared form: every partition's CEM; per-partition form: partition 0's
    int shared_cem = -1;   // 1 = shared form, 0 = per-partition classes (multi-partition blocks)
    int dual_plane = -1;   // 0 / 1
    int ccs = -1;          // 0..3
    int seed = -1;         // 0..1023
    int colour_levels = -1;  // the plan's colour range must have exactly this many levels (256: every
                             // stored colour value is its own unquantized value, see AstcHdrField)
};
std::optional<AstcBlockSpec> astc_random_legal_spec(const std::vector<uint32_t>& modes, unsigned footprint_w,
                                                    unsigned footprint_h, const AstcSpecRequest& request,
                                                    SplitMix64& rng, int tries = 400);
std::optional<AstcBlockSpec> astc_random_legal_spec_3d(const std::vector<uint32_t>& modes, unsigned footprint_w,
                                                       unsigned footprint_h, unsigned footprint_d,
                                                       const AstcSpecRequest& request, SplitMix64& rng,
                                                       int tries = 400);

// ---- void extents ("Void-Extent Blocks", 2D layout) -----------------------------------------

struct AstcVoidExtent {
    bool hdr = false;                    // bit 9 (dynamic range flag)
    unsigned reserved = 3;               // bits 10..11; the spec requires 11b
    unsigned min_s = 0x1FFF, max_s = 0x1FFF, min_t = 0x1FFF, max_t = 0x1FFF;  // 13 bits each
    uint16_t rgba[4] = {0, 0, 0, 0};     // UNORM16 (LDR) or FP16 (HDR)
};
AstcBlock astc_build_void_extent(const AstcVoidExtent& v);
// Legal per the spec: reserved == 3 and (all coordinates all-ones, or min < max on both axes).
// (An HDR void extent is legal but decodes to the error colour in an LDR profile.)
bool astc_void_extent_legal(const AstcVoidExtent& v);

// ---- void extents ("Void-Extent Blocks", 3D layout) -----------------------------------------

struct AstcVoidExtent3d {
    bool hdr = false;                    // bit 9 (dynamic range flag); no reserved bits in 3D
    unsigned min_s = 0x1FF, max_s = 0x1FF, min_t = 0x1FF, max_t = 0x1FF, min_r = 0x1FF, max_r = 0x1FF;  // 9 bits each
    uint16_t rgba[4] = {0, 0, 0, 0};
};
AstcBlock astc_build_void_extent_3d(const AstcVoidExtent3d& v);
// Legal per the spec: all six coordinates all-ones, or min < max on every axis.
bool astc_void_extent_3d_legal(const AstcVoidExtent3d& v);

}  // namespace texdec_test

// BPTC table functions (luts/bptc_tables.h) checked against the Khronos Data Format Specification's
// "BPTC Compressed Texture Image Formats": pure functions, no device needed.
//
// The expectations are values printed in the spec (rows of its partition tables, its anchor tables,
// its interpolation factors and the formulas it gives for them, its worked mode-2 example) or
// structural properties any correct table must have.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <vector>

#include "luts/bptc_tables.h"
#include "shaders/interface.h"

using namespace texdec::luts;

namespace {

using Rows = std::array<std::array<uint8_t, 4>, 4>;

// The partition as the spec prints it: 4 rows of 4 texels.
Rows rows_of(int subsets, int shape) {
    const auto p = bptc_partition(subsets, shape);
    Rows r{};
    for (int i = 0; i < 16; ++i) r[size_t(i / 4)][size_t(i % 4)] = p[size_t(i)];
    return r;
}

}  // namespace

TEST_CASE("bptc luts: 2-subset partition rows quoted from the spec", "[luts][bptc]") {
    // "Partition table for 2-subset BPTC".
    CHECK(rows_of(2, 0) == Rows{{{0, 0, 1, 1}, {0, 0, 1, 1}, {0, 0, 1, 1}, {0, 0, 1, 1}}});
    CHECK(rows_of(2, 13) == Rows{{{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 1, 1, 1}, {1, 1, 1, 1}}});
    CHECK(rows_of(2, 18) == Rows{{{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {1, 1, 1, 0}}});
    CHECK(rows_of(2, 35) == Rows{{{0, 0, 1, 1}, {0, 0, 1, 1}, {1, 1, 0, 0}, {1, 1, 0, 0}}});
    CHECK(rows_of(2, 63) == Rows{{{0, 1, 0, 0}, {0, 1, 0, 0}, {0, 1, 1, 1}, {0, 1, 1, 1}}});
}

TEST_CASE("bptc luts: 3-subset partition rows quoted from the spec", "[luts][bptc]") {
    // "Partition table for 3-subset BPTC".
    CHECK(rows_of(3, 0) == Rows{{{0, 0, 1, 1}, {0, 0, 1, 1}, {0, 2, 2, 1}, {2, 2, 2, 2}}});
    CHECK(rows_of(3, 6) == Rows{{{0, 0, 2, 2}, {0, 0, 2, 2}, {1, 1, 1, 1}, {1, 1, 1, 1}}});
    CHECK(rows_of(3, 38) == Rows{{{0, 1, 2, 0}, {2, 0, 1, 2}, {1, 2, 0, 1}, {0, 1, 2, 0}}});
    CHECK(rows_of(3, 63) == Rows{{{0, 1, 1, 1}, {2, 0, 1, 1}, {2, 2, 0, 1}, {2, 2, 2, 0}}});
    // One subset: "A texel in a block with one subset is always considered to be in subset zero".
    for (int shape = 0; shape < kBptcShapeCount; ++shape) CHECK(bptc_partition(1, shape) == std::array<uint8_t, 16>{});
}

TEST_CASE("bptc luts: anchor tables quoted from the spec", "[luts][bptc]") {
    // "BPTC anchor index values for the second subset of two-subset partitioning", whole table.
    const uint8_t a2[64] = {15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 2,  8,  2, 2, 8,
                            8,  15, 2,  8,  2,  2,  8,  8,  2,  2,  15, 15, 6,  8,  2,  8,  15, 15, 2, 8, 2, 2,
                            2,  15, 15, 6,  6,  2,  6,  8,  15, 15, 2,  2,  15, 15, 15, 15, 15, 2,  2, 15};
    // "... for the second subset of three-subset partitioning" and "... for the third subset".
    const uint8_t a32[64] = {3, 3, 15, 15, 8,  3,  15, 15, 8,  8,  6, 6,  6,  5,  3, 3,  3, 3, 8, 15, 3, 3,
                             6, 10, 5, 8,  8,  6,  8,  5,  15, 15, 8, 15, 3,  5,  6, 10, 8, 15, 15, 3, 15, 5,
                             15, 15, 15, 15, 3, 15, 5,  5,  5,  8,  5, 10, 5,  10, 8, 13, 15, 12, 3, 3};
    const uint8_t a33[64] = {15, 8,  8,  3,  15, 15, 3,  8,  15, 15, 15, 15, 15, 15, 15, 8,  15, 8,  15, 3,  15, 8,
                             15, 8,  3,  15, 6,  10, 15, 15, 10, 8,  15, 3,  15, 10, 10, 8,  9,  10, 6,  15, 8,  15,
                             3,  6,  6,  8,  15, 3,  15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 3,  15, 15, 8};
    for (int shape = 0; shape < kBptcShapeCount; ++shape) {
        INFO("shape " << shape);
        CHECK(bptc_anchor(2, shape, 1) == a2[shape]);
        CHECK(bptc_anchor(3, shape, 1) == a32[shape]);
        CHECK(bptc_anchor(3, shape, 2) == a33[shape]);
        // "In partition zero, the anchor index is always index zero".
        CHECK(bptc_anchor(1, shape, 0) == 0);
        CHECK(bptc_anchor(2, shape, 0) == 0);
        CHECK(bptc_anchor(3, shape, 0) == 0);
    }
}

TEST_CASE("bptc luts: partitions and anchors are consistent", "[luts][bptc]") {
    std::set<std::array<uint8_t, 16>> distinct2, distinct3;
    for (int shape = 0; shape < kBptcShapeCount; ++shape) {
        INFO("shape " << shape);
        for (int subsets = 2; subsets <= 3; ++subsets) {
            const auto p = bptc_partition(subsets, shape);
            // "index 0 always corresponds to partition zero".
            CHECK(p[0] == 0);
            std::array<int, 3> count{};
            for (uint8_t s : p) {
                REQUIRE(s < subsets);
                ++count[s];
            }
            for (int s = 0; s < subsets; ++s) CHECK(count[size_t(s)] > 0);  // every subset has texels
            // Each anchor is a texel of its own subset (its index bit is saved for that subset).
            for (int s = 0; s < subsets; ++s) CHECK(p[bptc_anchor(subsets, shape, s)] == s);
            if (subsets == 3) CHECK(bptc_anchor(3, shape, 1) != bptc_anchor(3, shape, 2));
            (subsets == 2 ? distinct2 : distinct3).insert(p);
        }
    }
    CHECK(distinct2.size() == 64);
    CHECK(distinct3.size() == 64);
}

TEST_CASE("bptc luts: the spec's mode-2 example (shape 6, texel (1, 2))", "[luts][bptc]") {
    // "this texel is partitioned into subset 1 ... index 15 (for subset 1 ...) and index 3 (for
    // subset 2 ...) ... a total of 16 bit offset into the index bits or ... bits 115 and 116".
    const int shape = 6, texel = 1 + 4 * 2;
    CHECK(bptc_partition(3, shape)[texel] == 1);
    CHECK(bptc_anchor(3, shape, 1) == 15);
    CHECK(bptc_anchor(3, shape, 2) == 3);
    // Index bits before texel 9 at 2 bits each, one less for every anchor (0 and 3) before it.
    int offset = 0;
    for (int i = 0; i < texel; ++i) {
        const bool anchor = i == 0 || i == bptc_anchor(3, shape, 1) || i == bptc_anchor(3, shape, 2);
        offset += anchor ? 1 : 2;
    }
    CHECK(offset == 16);
    CHECK(99 + offset == 115);  // mode 2's index bits start at bit 99 ("Bit layout for BC7 modes")
}

TEST_CASE("bptc luts: interpolation weights are the spec's table and formulas", "[luts][bptc]") {
    // "BPTC interpolation factors".
    CHECK(bptc_weights(2) == std::vector<uint8_t>{0, 21, 43, 64});
    CHECK(bptc_weights(3) == std::vector<uint8_t>{0, 9, 18, 27, 37, 46, 55, 64});
    CHECK(bptc_weights(4) == std::vector<uint8_t>{0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64});
    // "These weights may also be calculated as follows".
    for (uint32_t i = 0; i < 4; ++i) CHECK(bptc_weights(2)[i] == i * 21 + (i >> 1));
    for (uint32_t i = 0; i < 8; ++i) CHECK(bptc_weights(3)[i] == i * 9 + (i >> 2));
    for (uint32_t i = 0; i < 16; ++i) CHECK(bptc_weights(4)[i] == (i << 2) + (i >> 2) + ((i >> 1) & 1));
    // The shaders' formula (shaders/common/bptc.glsl, bptc_weight_from): (i * (4095 / (2^n - 1)) + 32) >> 6.
    for (uint32_t bits = 2; bits <= 4; ++bits) {
        const uint32_t multiplier = 4095 / ((1u << bits) - 1);
        for (uint32_t i = 0; i < (1u << bits); ++i) CHECK(bptc_weights(int(bits))[i] == (i * multiplier + 32) >> 6);
    }
    // Symmetric: w[i] + w[n-1-i] = 64, so swapping endpoints and inverting indices is the same colour.
    for (int bits = 2; bits <= 4; ++bits) {
        const auto w = bptc_weights(bits);
        for (size_t i = 0; i < w.size(); ++i) CHECK(w[i] + w[w.size() - 1 - i] == 64);
    }
}

TEST_CASE("bptc luts: bad arguments throw", "[luts][bptc]") {
    CHECK_THROWS_AS(bptc_partition(0, 0), std::out_of_range);
    CHECK_THROWS_AS(bptc_partition(4, 0), std::out_of_range);
    CHECK_THROWS_AS(bptc_partition(2, 64), std::out_of_range);
    CHECK_THROWS_AS(bptc_partition(2, -1), std::out_of_range);
    CHECK_THROWS_AS(bptc_anchor(2, 0, 2), std::out_of_range);
    CHECK_THROWS_AS(bptc_anchor(1, 0, 1), std::out_of_range);
    CHECK_THROWS_AS(bptc_weights(1), std::out_of_range);
    CHECK_THROWS_AS(bptc_weights(5), std::out_of_range);
}

TEST_CASE("bptc luts: uploaded words follow interface.h", "[luts][bptc]") {
    const std::vector<uint32_t> w = bptc_lut_words();
    REQUIRE(w.size() >= TEXDEC_BPTC_LUT_BC6H_MODES);
    for (int shape = 0; shape < kBptcShapeCount; ++shape) {
        INFO("shape " << shape);
        const auto p2 = bptc_partition(2, shape), p3 = bptc_partition(3, shape);
        for (uint32_t i = 0; i < 16; ++i) {
            CHECK(((w[TEXDEC_BPTC_LUT_PARTITIONS2 + shape] >> (2 * i)) & 3u) == p2[i]);
            CHECK(((w[TEXDEC_BPTC_LUT_PARTITIONS3 + shape] >> (2 * i)) & 3u) == p3[i]);
        }
        const uint32_t anchors = w[TEXDEC_BPTC_LUT_ANCHORS + shape];
        CHECK((anchors & 0xFFu) == bptc_anchor(2, shape, 1));
        CHECK(((anchors >> 8) & 0xFFu) == bptc_anchor(3, shape, 1));
        CHECK(((anchors >> 16) & 0xFFu) == bptc_anchor(3, shape, 2));
        CHECK((anchors >> 24) == 0u);
    }
    const uint32_t offsets[3] = {TEXDEC_BPTC_LUT_WEIGHTS2, TEXDEC_BPTC_LUT_WEIGHTS3, TEXDEC_BPTC_LUT_WEIGHTS4};
    for (int bits = 2; bits <= 4; ++bits) {
        const auto weights = bptc_weights(bits);
        for (size_t i = 0; i < weights.size(); ++i) CHECK(w[offsets[bits - 2] + i] == weights[i]);
    }
    // The regions do not overlap and end before the BC6H mode descriptions.
    STATIC_REQUIRE(TEXDEC_BPTC_LUT_PARTITIONS3 == TEXDEC_BPTC_LUT_PARTITIONS2 + 64);
    STATIC_REQUIRE(TEXDEC_BPTC_LUT_ANCHORS == TEXDEC_BPTC_LUT_PARTITIONS3 + 64);
    STATIC_REQUIRE(TEXDEC_BPTC_LUT_WEIGHTS2 >= TEXDEC_BPTC_LUT_ANCHORS + 64);
    STATIC_REQUIRE(TEXDEC_BPTC_LUT_WEIGHTS3 >= TEXDEC_BPTC_LUT_WEIGHTS2 + 4);
    STATIC_REQUIRE(TEXDEC_BPTC_LUT_WEIGHTS4 >= TEXDEC_BPTC_LUT_WEIGHTS3 + 8);
    STATIC_REQUIRE(TEXDEC_BPTC_LUT_BC6H_MODES >= TEXDEC_BPTC_LUT_WEIGHTS4 + 16);
}

TEST_CASE("bptc luts: every BC7 mode fills the 128 bits of a block", "[luts][bptc]") {
    for (int mode = 0; mode < 8; ++mode) {
        const Bc7Mode& m = kBc7Modes[mode];
        INFO("mode " << mode);
        // Mode bits, partition, rotation, index selection; then per subset two endpoints of three
        // colour channels and alpha, their P-bits; then the indices, each anchor one bit short.
        int bits = mode + 1 + m.partition_bits + m.rotation_bits + m.index_selection_bits;
        bits += m.subsets * 2 * (3 * m.colour_bits + m.alpha_bits + m.endpoint_pbits) + m.subsets * m.shared_pbits;
        bits += 16 * m.index_bits - m.subsets;
        if (m.secondary_index_bits) bits += 16 * m.secondary_index_bits - 1;
        CHECK(bits == 128);
    }
}

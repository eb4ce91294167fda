// ETC2 / EAC table functions (luts/etc_tables.h) checked against the Khronos Data Format
// Specification's "ETC2 Compressed Texture Image Formats": pure functions,
// no device needed. Expectations are values printed in the spec (its tables, and the worked
// examples that use them) and the layout of shaders/interface.h (TEXDEC_ETC_LUT_*).
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "luts/etc_tables.h"
#include "shaders/interface.h"

using namespace texdec::luts;

TEST_CASE("etc luts: intensity modifier table quoted from the spec", "[luts][etc]") {
    // "ETC2 intensity modifier sets for `individual' and `differential' modes", every row.
    const auto& t = etc_intensity_modifiers();
    CHECK(t[0] == std::array<int, 4>{-8, -2, 2, 8});
    CHECK(t[1] == std::array<int, 4>{-17, -5, 5, 17});
    CHECK(t[2] == std::array<int, 4>{-29, -9, 9, 29});
    CHECK(t[3] == std::array<int, 4>{-42, -13, 13, 42});
    CHECK(t[4] == std::array<int, 4>{-60, -18, 18, 60});
    CHECK(t[5] == std::array<int, 4>{-80, -24, 24, 80});
    CHECK(t[6] == std::array<int, 4>{-106, -33, 33, 106});
    CHECK(t[7] == std::array<int, 4>{-183, -47, 47, 183});
}

TEST_CASE("etc luts: pixel index to modifier mapping", "[luts][etc]") {
    // "Mapping from pixel index values to modifier values": 11 -b, 10 -a, 00 +a, 01 +b.
    CHECK(etc_modifier(2, 0b00) == 9);
    CHECK(etc_modifier(2, 0b01) == 29);  // the spec's example: index 01, table [-29,-9,9,29] -> 29
    CHECK(etc_modifier(2, 0b10) == -9);
    CHECK(etc_modifier(2, 0b11) == -29);
    CHECK(etc_modifier(7, 0b11) == -183);
    CHECK(etc_modifier(0, 0b01) == 8);
    CHECK_THROWS_AS(etc_modifier(8, 0), std::out_of_range);
    CHECK_THROWS_AS(etc_modifier(0, 4), std::out_of_range);
    CHECK_THROWS_AS(etc_modifier(-1, 0), std::out_of_range);
}

TEST_CASE("etc luts: T/H distance table quoted from the spec", "[luts][etc]") {
    // "Distance table for ETC2 `T' and `H' modes".
    CHECK(etc_distances() == std::array<int, 8>{3, 6, 11, 16, 23, 32, 41, 64});
    // "if d_a is 10 binary and d_b is 1 binary, the distance index is 101 binary and the selected
    // `distance' d will be 32".
    CHECK(etc_distances()[0b101] == 32);
}

TEST_CASE("etc luts: EAC modifier table quoted from the spec", "[luts][etc][eac]") {
    // "Intensity modifier sets for RGBA ETC2 alpha component", every row.
    const std::array<std::array<int, 8>, 16> expected = {{
        {-3, -6, -9, -15, 2, 5, 8, 14},   {-3, -7, -10, -13, 2, 6, 9, 12}, {-2, -5, -8, -13, 1, 4, 7, 12},
        {-2, -4, -6, -13, 1, 3, 5, 12},   {-3, -6, -8, -12, 2, 5, 7, 11},  {-3, -7, -9, -11, 2, 6, 8, 10},
        {-4, -7, -8, -11, 3, 6, 7, 10},   {-3, -5, -8, -11, 2, 4, 7, 10},  {-2, -6, -8, -10, 1, 5, 7, 9},
        {-2, -5, -8, -10, 1, 4, 7, 9},    {-2, -4, -8, -10, 1, 3, 7, 9},   {-2, -5, -7, -10, 1, 4, 6, 9},
        {-3, -4, -7, -10, 2, 3, 6, 9},    {-1, -2, -3, -10, 0, 1, 2, 9},   {-4, -6, -8, -9, 3, 5, 7, 8},
        {-3, -5, -7, -9, 2, 4, 6, 8},
    }};
    CHECK(eac_modifiers() == expected);
    // Worked example: table index 13, pixel index 3 -> -10; base 103, multiplier 2 -> 83 (alpha)
    // and 103 * 8 + 4 - 10 * 2 * 8 = 668 (R11).
    CHECK(eac_modifiers()[13][3] == -10);
    CHECK(103 + eac_modifiers()[13][3] * 2 == 83);
    CHECK(103 * 8 + 4 + eac_modifiers()[13][3] * 2 * 8 == 668);
}

TEST_CASE("etc luts: words in the layout of interface.h", "[luts][etc]") {
    const std::vector<uint32_t> w = etc_lut_words();
    REQUIRE(w.size() == size_t(TEXDEC_ETC_LUT_WORDS));
    CHECK(TEXDEC_ETC_LUT_BASE == TEXDEC_BPTC_LUT_WORDS);
    CHECK(TEXDEC_TABLES_WORDS == TEXDEC_ETC_LUT_BASE + TEXDEC_ETC_LUT_WORDS);
    // The three tables do not overlap and fill the ETC part exactly.
    CHECK(TEXDEC_ETC_LUT_MODIFIERS + 32 <= TEXDEC_ETC_LUT_DISTANCES);
    CHECK(TEXDEC_ETC_LUT_DISTANCES + 8 <= TEXDEC_ETC_LUT_EAC);
    CHECK(TEXDEC_ETC_LUT_EAC + 16 * 8 == TEXDEC_ETC_LUT_WORDS);
    for (int c = 0; c < 8; ++c)
        for (int i = 0; i < 4; ++i) CHECK(int32_t(w[size_t(TEXDEC_ETC_LUT_MODIFIERS + 4 * c + i)]) == etc_modifier(c, i));
    CHECK(int32_t(w[TEXDEC_ETC_LUT_MODIFIERS + 4 * 7 + 3]) == -183);
    CHECK(int32_t(w[TEXDEC_ETC_LUT_MODIFIERS + 4 * 0 + 1]) == 8);
    for (int i = 0; i < 8; ++i) CHECK(int32_t(w[size_t(TEXDEC_ETC_LUT_DISTANCES + i)]) == etc_distances()[size_t(i)]);
    for (int t = 0; t < 16; ++t)
        for (int i = 0; i < 8; ++i)
            CHECK(int32_t(w[size_t(TEXDEC_ETC_LUT_EAC + 8 * t + i)]) == eac_modifiers()[size_t(t)][size_t(i)]);
    CHECK(int32_t(w[TEXDEC_ETC_LUT_EAC + 8 * 13 + 3]) == -10);
    CHECK(int32_t(w[TEXDEC_ETC_LUT_EAC + 8 * 0 + 3]) == -15);
}

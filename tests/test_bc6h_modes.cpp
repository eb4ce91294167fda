// BC6H mode descriptions (luts/bc6h_modes.h) checked against the Khronos Data Format Specification,
// "BPTC Compressed Texture Image Formats", section "BC6H". Pure, no device.
//
// The library types the modes from two tables of the spec ("Endpoint and partition parameters for
// BPTC block modes" and the per-mode field lists of "Block descriptions for BC6H block modes").
// The spec states the same facts a second time, bit by bit, in "Interpretation of lower bits for
// BC6H block modes" and "Interpretation of upper bits for BC6H block modes": kSpecBits below is
// those two tables, one string per mode column (bits 0..81; "0"/"1" are the mode bits M with their
// value, "R0.9" is R0 bit 9, "PB.4" partition bit 4, "IB01.2" index bit IB~0,1~^2^). The tests
// check that the field lists and everything derived from them agree with it.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "luts/bc6h_modes.h"
#include "luts/bptc_tables.h"
#include "shaders/interface.h"

using namespace texdec::luts;

namespace {

const std::vector<std::pair<int, std::string>> kSpecBits = {
    {0, "0 0 G2.4 B2.4 B3.4 R0.0 R0.1 R0.2 R0.3 R0.4 R0.5 R0.6 R0.7 R0.8 R0.9 G0.0 G0.1 G0.2 G0.3 G0.4 G0.5 G0.6 G0.7 G0.8 G0.9 B0.0 B0.1 B0.2 B0.3 B0.4 B0.5 B0.6 B0.7 B0.8 B0.9 R1.0 R1.1 R1.2 R1.3 R1.4 G3.4 G2.0 G2.1 G2.2 G2.3 G1.0 G1.1 G1.2 G1.3 G1.4 B3.0 G3.0 G3.1 G3.2 G3.3 B1.0 B1.1 B1.2 B1.3 B1.4 B3.1 B2.0 B2.1 B2.2 B2.3 R2.0 R2.1 R2.2 R2.3 R2.4 B3.2 R3.0 R3.1 R3.2 R3.3 R3.4 B3.3 PB.0 PB.1 PB.2 PB.3 PB.4"},
    {1, "1 0 G2.5 G3.4 G3.5 R0.0 R0.1 R0.2 R0.3 R0.4 R0.5 R0.6 B3.0 B3.1 B2.4 G0.0 G0.1 G0.2 G0.3 G0.4 G0.5 G0.6 B2.5 B3.2 G2.4 B0.0 B0.1 B0.2 B0.3 B0.4 B0.5 B0.6 B3.3 B3.5 B3.4 R1.0 R1.1 R1.2 R1.3 R1.4 R1.5 G2.0 G2.1 G2.2 G2.3 G1.0 G1.1 G1.2 G1.3 G1.4 G1.5 G3.0 G3.1 G3.2 G3.3 B1.0 B1.1 B1.2 B1.3 B1.4 B1.5 B2.0 B2.1 B2.2 B2.3 R2.0 R2.1 R2.2 R2.3 R2.4 R2.5 R3.0 R3.1 R3.2 R3.3 R3.4 R3.5 PB.0 PB.1 PB.2 PB.3 PB.4"},
    {2, "0 1 0 0 0 R0.0 R0.1 R0.2 R0.3 R0.4 R0.5 R0.6 R0.7 R0.8 R0.9 G0.0 G0.1 G0.2 G0.3 G0.4 G0.5 G0.6 G0.7 G0.8 G0.9 B0.0 B0.1 B0.2 B0.3 B0.4 B0.5 B0.6 B0.7 B0.8 B0.9 R1.0 R1.1 R1.2 R1.3 R1.4 R0.10 G2.0 G2.1 G2.2 G2.3 G1.0 G1.1 G1.2 G1.3 G0.10 B3.0 G3.0 G3.1 G3.2 G3.3 B1.0 B1.1 B1.2 B1.3 B0.10 B3.1 B2.0 B2.1 B2.2 B2.3 R2.0 R2.1 R2.2 R2.3 R2.4 B3.2 R3.0 R3.1 R3.2 R3.3 R3.4 B3.3 PB.0 PB.1 PB.2 PB.3 PB.4"},
    {6, "0 1 1 0 0 R0.0 R0.1 R0.2 R0.3 R0.4 R0.5 R0.6 R0.7 R0.8 R0.9 G0.0 G0.1 G0.2 G0.3 G0.4 G0.5 G0.6 G0.7 G0.8 G0.9 B0.0 B0.1 B0.2 B0.3 B0.4 B0.5 B0.6 B0.7 B0.8 B0.9 R1.0 R1.1 R1.2 R1.3 R0.10 G3.4 G2.0 G2.1 G2.2 G2.3 G1.0 G1.1 G1.2 G1.3 G1.4 G0.10 G3.0 G3.1 G3.2 G3.3 B1.0 B1.1 B1.2 B1.3 B0.10 B3.1 B2.0 B2.1 B2.2 B2.3 R2.0 R2.1 R2.2 R2.3 B3.0 B3.2 R3.0 R3.1 R3.2 R3.3 G2.4 B3.3 PB.0 PB.1 PB.2 PB.3 PB.4"},
    {10, "0 1 0 1 0 R0.0 R0.1 R0.2 R0.3 R0.4 R0.5 R0.6 R0.7 R0.8 R0.9 G0.0 G0.1 G0.2 G0.3 G0.4 G0.5 G0.6 G0.7 G0.8 G0.9 B0.0 B0.1 B0.2 B0.3 B0.4 B0.5 B0.6 B0.7 B0.8 B0.9 R1.0 R1.1 R1.2 R1.3 R0.10 B2.4 G2.0 G2.1 G2.2 G2.3 G1.0 G1.1 G1.2 G1.3 G0.10 B3.0 G3.0 G3.1 G3.2 G3.3 B1.0 B1.1 B1.2 B1.3 B1.4 B0.10 B2.0 B2.1 B2.2 B2.3 R2.0 R2.1 R2.2 R2.3 B3.1 B3.2 R3.0 R3.1 R3.2 R3.3 B3.4 B3.3 PB.0 PB.1 PB.2 PB.3 PB.4"},
    {14, "0 1 1 1 0 R0.0 R0.1 R0.2 R0.3 R0.4 R0.5 R0.6 R0.7 R0.8 B2.4 G0.0 G0.1 G0.2 G0.3 G0.4 G0.5 G0.6 G0.7 G0.8 G2.4 B0.0 B0.1 B0.2 B0.3 B0.4 B0.5 B0.6 B0.7 B0.8 B3.4 R1.0 R1.1 R1.2 R1.3 R1.4 G3.4 G2.0 G2.1 G2.2 G2.3 G1.0 G1.1 G1.2 G1.3 G1.4 B3.0 G3.0 G3.1 G3.2 G3.3 B1.0 B1.1 B1.2 B1.3 B1.4 B3.1 B2.0 B2.1 B2.2 B2.3 R2.0 R2.1 R2.2 R2.3 R2.4 B3.2 R3.0 R3.1 R3.2 R3.3 R3.4 B3.3 PB.0 PB.1 PB.2 PB.3 PB.4"},
    {18, "0 1 0 0 1 R0.0 R0.1 R0.2 R0.3 R0.4 R0.5 R0.6 R0.7 G3.4 B2.4 G0.0 G0.1 G0.2 G0.3 G0.4 G0.5 G0.6 G0.7 B3.2 G2.4 B0.0 B0.1 B0.2 B0.3 B0.4 B0.5 B0.6 B0.7 B3.3 B3.4 R1.0 R1.1 R1.2 R1.3 R1.4 R1.5 G2.0 G2.1 G2.2 G2.3 G1.0 G1.1 G1.2 G1.3 G1.4 B3.0 G3.0 G3.1 G3.2 G3.3 B1.0 B1.1 B1.2 B1.3 B1.4 B3.1 B2.0 B2.1 B2.2 B2.3 R2.0 R2.1 R2.2 R2.3 R2.4 R2.5 R3.0 R3.1 R3.2 R3.3 R3.4 R3.5 PB.0 PB.1 PB.2 PB.3 PB.4"},
    {22, "0 1 1 0 1 R0.0 R0.1 R0.2 R0.3 R0.4 R0.5 R0.6 R0.7 B3.0 B2.4 G0.0 G0.1 G0.2 G0.3 G0.4 G0.5 G0.6 G0.7 G2.5 G2.4 B0.0 B0.1 B0.2 B0.3 B0.4 B0.5 B0.6 B0.7 G3.5 B3.4 R1.0 R1.1 R1.2 R1.3 R1.4 G3.4 G2.0 G2.1 G2.2 G2.3 G1.0 G1.1 G1.2 G1.3 G1.4 G1.5 G3.0 G3.1 G3.2 G3.3 B1.0 B1.1 B1.2 B1.3 B1.4 B3.1 B2.0 B2.1 B2.2 B2.3 R2.0 R2.1 R2.2 R2.3 R2.4 B3.2 R3.0 R3.1 R3.2 R3.3 R3.4 B3.3 PB.0 PB.1 PB.2 PB.3 PB.4"},
    {26, "0 1 0 1 1 R0.0 R0.1 R0.2 R0.3 R0.4 R0.5 R0.6 R0.7 B3.1 B2.4 G0.0 G0.1 G0.2 G0.3 G0.4 G0.5 G0.6 G0.7 B2.5 G2.4 B0.0 B0.1 B0.2 B0.3 B0.4 B0.5 B0.6 B0.7 B3.5 B3.4 R1.0 R1.1 R1.2 R1.3 R1.4 G3.4 G2.0 G2.1 G2.2 G2.3 G1.0 G1.1 G1.2 G1.3 G1.4 B3.0 G3.0 G3.1 G3.2 G3.3 B1.0 B1.1 B1.2 B1.3 B1.4 B1.5 B2.0 B2.1 B2.2 B2.3 R2.0 R2.1 R2.2 R2.3 R2.4 B3.2 R3.0 R3.1 R3.2 R3.3 R3.4 B3.3 PB.0 PB.1 PB.2 PB.3 PB.4"},
    {30, "0 1 1 1 1 R0.0 R0.1 R0.2 R0.3 R0.4 R0.5 G3.4 B3.0 B3.1 B2.4 G0.0 G0.1 G0.2 G0.3 G0.4 G0.5 G2.5 B2.5 B3.2 G2.4 B0.0 B0.1 B0.2 B0.3 B0.4 B0.5 G3.5 B3.3 B3.5 B3.4 R1.0 R1.1 R1.2 R1.3 R1.4 R1.5 G2.0 G2.1 G2.2 G2.3 G1.0 G1.1 G1.2 G1.3 G1.4 G1.5 G3.0 G3.1 G3.2 G3.3 B1.0 B1.1 B1.2 B1.3 B1.4 B1.5 B2.0 B2.1 B2.2 B2.3 R2.0 R2.1 R2.2 R2.3 R2.4 R2.5 R3.0 R3.1 R3.2 R3.3 R3.4 R3.5 PB.0 PB.1 PB.2 PB.3 PB.4"},
    {3, "1 1 0 0 0 R0.0 R0.1 R0.2 R0.3 R0.4 R0.5 R0.6 R0.7 R0.8 R0.9 G0.0 G0.1 G0.2 G0.3 G0.4 G0.5 G0.6 G0.7 G0.8 G0.9 B0.0 B0.1 B0.2 B0.3 B0.4 B0.5 B0.6 B0.7 B0.8 B0.9 R1.0 R1.1 R1.2 R1.3 R1.4 R1.5 R1.6 R1.7 R1.8 R1.9 G1.0 G1.1 G1.2 G1.3 G1.4 G1.5 G1.6 G1.7 G1.8 G1.9 B1.0 B1.1 B1.2 B1.3 B1.4 B1.5 B1.6 B1.7 B1.8 B1.9 IB00.0 IB00.1 IB00.2 IB10.0 IB10.1 IB10.2 IB10.3 IB20.0 IB20.1 IB20.2 IB20.3 IB30.0 IB30.1 IB30.2 IB30.3 IB01.0 IB01.1"},
    {7, "1 1 1 0 0 R0.0 R0.1 R0.2 R0.3 R0.4 R0.5 R0.6 R0.7 R0.8 R0.9 G0.0 G0.1 G0.2 G0.3 G0.4 G0.5 G0.6 G0.7 G0.8 G0.9 B0.0 B0.1 B0.2 B0.3 B0.4 B0.5 B0.6 B0.7 B0.8 B0.9 R1.0 R1.1 R1.2 R1.3 R1.4 R1.5 R1.6 R1.7 R1.8 R0.10 G1.0 G1.1 G1.2 G1.3 G1.4 G1.5 G1.6 G1.7 G1.8 G0.10 B1.0 B1.1 B1.2 B1.3 B1.4 B1.5 B1.6 B1.7 B1.8 B0.10 IB00.0 IB00.1 IB00.2 IB10.0 IB10.1 IB10.2 IB10.3 IB20.0 IB20.1 IB20.2 IB20.3 IB30.0 IB30.1 IB30.2 IB30.3 IB01.0 IB01.1"},
    {11, "1 1 0 1 0 R0.0 R0.1 R0.2 R0.3 R0.4 R0.5 R0.6 R0.7 R0.8 R0.9 G0.0 G0.1 G0.2 G0.3 G0.4 G0.5 G0.6 G0.7 G0.8 G0.9 B0.0 B0.1 B0.2 B0.3 B0.4 B0.5 B0.6 B0.7 B0.8 B0.9 R1.0 R1.1 R1.2 R1.3 R1.4 R1.5 R1.6 R1.7 R0.11 R0.10 G1.0 G1.1 G1.2 G1.3 G1.4 G1.5 G1.6 G1.7 G0.11 G0.10 B1.0 B1.1 B1.2 B1.3 B1.4 B1.5 B1.6 B1.7 B0.11 B0.10 IB00.0 IB00.1 IB00.2 IB10.0 IB10.1 IB10.2 IB10.3 IB20.0 IB20.1 IB20.2 IB20.3 IB30.0 IB30.1 IB30.2 IB30.3 IB01.0 IB01.1"},
    {15, "1 1 1 1 0 R0.0 R0.1 R0.2 R0.3 R0.4 R0.5 R0.6 R0.7 R0.8 R0.9 G0.0 G0.1 G0.2 G0.3 G0.4 G0.5 G0.6 G0.7 G0.8 G0.9 B0.0 B0.1 B0.2 B0.3 B0.4 B0.5 B0.6 B0.7 B0.8 B0.9 R1.0 R1.1 R1.2 R1.3 R0.15 R0.14 R0.13 R0.12 R0.11 R0.10 G1.0 G1.1 G1.2 G1.3 G0.15 G0.14 G0.13 G0.12 G0.11 G0.10 B1.0 B1.1 B1.2 B1.3 B0.15 B0.14 B0.13 B0.12 B0.11 B0.10 IB00.0 IB00.1 IB00.2 IB10.0 IB10.1 IB10.2 IB10.3 IB20.0 IB20.1 IB20.2 IB20.3 IB30.0 IB30.1 IB30.2 IB30.3 IB01.0 IB01.1"},
};

std::vector<std::string> split(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> out;
    for (std::string t; in >> t;) out.push_back(t);
    return out;
}

// "R0.9" for value 0 bit 9, "PB.4", or the mode bit's value for M.
std::string token(const Bc6hBitSource& s, const Bc6hMode& m) {
    if (s.value == kBc6hValueMode) return std::to_string((m.number >> s.bit) & 1);
    if (s.value == kBc6hValuePartition) return "PB." + std::to_string(s.bit);
    return std::string(1, "RGB"[s.value % 3]) + std::to_string(s.value / 3) + "." + std::to_string(s.bit);
}

}  // namespace

TEST_CASE("bc6h modes: the parameter table", "[luts][bc6h]") {
    // "Endpoint and partition parameters for BPTC block modes": mode, transformed, PB, EPB, delta
    // bits, and the three totals (mode bits, endpoint bits, delta bits per block).
    struct Row { int number; bool transformed; int pb, epb, dr, dg, db, mode_total, endpoint_total, delta_total; };
    const Row rows[kBc6hModeCount] = {
        {0, true, 5, 10, 5, 5, 5, 2, 30, 45},   {1, true, 5, 7, 6, 6, 6, 2, 21, 54},
        {2, true, 5, 11, 5, 4, 4, 5, 33, 39},   {6, true, 5, 11, 4, 5, 4, 5, 33, 39},
        {10, true, 5, 11, 4, 4, 5, 5, 33, 39},  {14, true, 5, 9, 5, 5, 5, 5, 27, 45},
        {18, true, 5, 8, 6, 5, 5, 5, 24, 48},   {22, true, 5, 8, 5, 6, 5, 5, 24, 48},
        {26, true, 5, 8, 5, 5, 6, 5, 24, 48},   {30, false, 5, 6, 0, 0, 0, 5, 72, 0},
        {3, false, 0, 10, 0, 0, 0, 5, 60, 0},   {7, true, 0, 11, 9, 9, 9, 5, 33, 27},
        {11, true, 0, 12, 8, 8, 8, 5, 36, 24},  {15, true, 0, 16, 4, 4, 4, 5, 48, 12},
    };
    for (int i = 0; i < kBc6hModeCount; ++i) {
        const Bc6hMode& m = bc6h_modes()[size_t(i)];
        const Row& r = rows[i];
        INFO("mode " << r.number);
        CHECK(m.number == r.number);
        CHECK(m.transformed == r.transformed);
        CHECK(m.partition_bits == r.pb);
        CHECK(m.endpoint_bits == r.epb);
        CHECK(m.mode_bits == r.mode_total);
        CHECK(m.subsets() == (r.pb ? 2 : 1));
        CHECK(m.index_bits == (r.pb ? 3 : 4));
        const int endpoints = 2 * m.subsets();
        if (r.transformed) {
            CHECK(m.delta_bits[0] == r.dr);
            CHECK(m.delta_bits[1] == r.dg);
            CHECK(m.delta_bits[2] == r.db);
            CHECK(3 * r.epb == r.endpoint_total);
            CHECK((endpoints - 1) * (r.dr + r.dg + r.db) == r.delta_total);
        } else {  // every endpoint stored with EPB bits: the library gives delta_bits = EPB
            CHECK(m.delta_bits == std::array<uint8_t, 3>{m.endpoint_bits, m.endpoint_bits, m.endpoint_bits});
            CHECK(endpoints * 3 * r.epb == r.endpoint_total);
        }
        // The header is what precedes the indices: bit 82 (two subsets) or bit 65 (one subset).
        CHECK(r.mode_total + r.endpoint_total + r.delta_total + r.pb == m.header_bits());
        CHECK(m.header_bits() == (r.pb ? 82 : 65));
    }
}

TEST_CASE("bc6h modes: mode number from the low bits, reserved modes", "[luts][bc6h]") {
    // "If the low two bits are less than two, that is the mode number, otherwise the low five bits
    // is the mode number. Mode numbers not listed ... (19, 23, 27, and 31) are reserved."
    for (uint32_t low5 = 0; low5 < 32; ++low5) {
        INFO("low bits " << low5);
        const int ordinal = bc6h_mode_for_low_bits(low5);
        if (low5 == 19 || low5 == 23 || low5 == 27 || low5 == 31) {
            CHECK(ordinal == -1);
            continue;
        }
        REQUIRE(ordinal >= 0);
        const uint32_t expected = (low5 & 3) < 2 ? (low5 & 3) : low5;
        CHECK(bc6h_modes()[size_t(ordinal)].number == expected);
    }
    std::set<int> numbers;
    for (const Bc6hMode& m : bc6h_modes()) numbers.insert(m.number);
    CHECK(numbers == std::set<int>{0, 1, 2, 3, 6, 7, 10, 11, 14, 15, 18, 22, 26, 30});
    CHECK_THROWS_AS(bc6h_fields(14), std::out_of_range);
    CHECK_THROWS_AS(bc6h_fields(-1), std::out_of_range);
}

TEST_CASE("bc6h modes: each mode's fields cover exactly its header bits", "[luts][bc6h]") {
    for (int i = 0; i < kBc6hModeCount; ++i) {
        const Bc6hMode& m = bc6h_modes()[size_t(i)];
        INFO("mode " << int(m.number) << ": " << bc6h_block_description(i));
        const std::vector<Bc6hBitSource> bits = bc6h_header_bit_sources(i);
        CHECK(int(bits.size()) == m.header_bits());
        // The set of (value, bit) the mode must store, each once.
        std::multiset<std::pair<int, int>> got, want;
        for (const Bc6hBitSource& s : bits) got.insert({s.value, s.bit});
        for (int b = 0; b < m.mode_bits; ++b) want.insert({kBc6hValueMode, b});
        for (int b = 0; b < m.partition_bits; ++b) want.insert({kBc6hValuePartition, b});
        for (int e = 0; e < 2 * m.subsets(); ++e)
            for (int c = 0; c < 3; ++c) {
                const int width = e == 0 ? m.endpoint_bits : m.delta_bits[size_t(c)];
                for (int b = 0; b < width; ++b) want.insert({3 * e + c, b});
            }
        CHECK(got == want);
        // The mode bits come first, in order (the decoder reads them before knowing the mode).
        for (int b = 0; b < m.mode_bits; ++b) {
            CHECK(bits[size_t(b)].value == kBc6hValueMode);
            CHECK(bits[size_t(b)].bit == b);
        }
    }
}

TEST_CASE("bc6h modes: the field lists agree with the spec's bit interpretation tables", "[luts][bc6h]") {
    REQUIRE(kSpecBits.size() == size_t(kBc6hModeCount));
    for (int i = 0; i < kBc6hModeCount; ++i) {
        const Bc6hMode& m = bc6h_modes()[size_t(i)];
        REQUIRE(kSpecBits[size_t(i)].first == m.number);
        INFO("mode " << int(m.number));
        const std::vector<std::string> spec = split(kSpecBits[size_t(i)].second);
        REQUIRE(spec.size() == 82);
        const std::vector<Bc6hBitSource> bits = bc6h_header_bit_sources(i);
        for (size_t b = 0; b < 82; ++b) {
            INFO("bit " << b);
            if (b < bits.size()) CHECK(token(bits[b], m) == spec[b]);
            else CHECK(spec[b].rfind("IB", 0) == 0);  // one subset: indices from bit 65 on
        }
    }
}

TEST_CASE("bc6h modes: the table words reproduce the modes", "[luts][bc6h]") {
    const std::vector<uint32_t> w = bc6h_lut_words();
    REQUIRE(w.size() == size_t(TEXDEC_BPTC_LUT_BC6H_WORDS));
    for (uint32_t low5 = 0; low5 < 32; ++low5) {
        INFO("low bits " << low5);
        const uint32_t word = w[low5];
        const int ordinal = bc6h_mode_for_low_bits(low5);
        if (ordinal < 0) {
            CHECK(word == 0);
            continue;
        }
        const Bc6hMode& m = bc6h_modes()[size_t(ordinal)];
        CHECK(word >> 31 == 1);
        CHECK((word & 31) == m.endpoint_bits);
        CHECK(((word >> 5) & 15) == m.delta_bits[0]);
        CHECK(((word >> 9) & 15) == m.delta_bits[1]);
        CHECK(((word >> 13) & 15) == m.delta_bits[2]);
        CHECK(((word >> 17) & 1) == uint32_t(m.transformed));
        CHECK(((word >> 18) & 1) == uint32_t(m.subsets() == 2));
        CHECK(((word >> 24) & 15) == uint32_t(ordinal));
        // Unpack the runs into per-bit sources the way bc6h.comp reads them; M is not in the runs.
        const uint32_t runs = (word >> 19) & 31;
        REQUIRE(runs <= TEXDEC_BPTC_LUT_BC6H_MAX_RUNS);
        std::map<int, Bc6hBitSource> from_runs;
        for (uint32_t r = 0; r < runs; ++r) {
            const uint32_t run = w[TEXDEC_BPTC_LUT_BC6H_RUNS - TEXDEC_BPTC_LUT_BC6H_MODES + uint32_t(ordinal) * TEXDEC_BPTC_LUT_BC6H_MAX_RUNS + r];
            const uint32_t value = run & 15, first = (run >> 4) & 127, low = (run >> 11) & 15, length = (run >> 15) & 31;
            const bool reversed = (run >> 20) & 1;
            for (uint32_t k = 0; k < length; ++k)
                from_runs[int(first + k)] = Bc6hBitSource{uint8_t(value), uint8_t(reversed ? low + length - 1 - k : low + k)};
        }
        const std::vector<Bc6hBitSource> bits = bc6h_header_bit_sources(ordinal);
        CHECK(from_runs.size() + m.mode_bits == bits.size());
        for (size_t b = m.mode_bits; b < bits.size(); ++b) {
            INFO("bit " << b);
            REQUIRE(from_runs.count(int(b)) == 1);
            CHECK(from_runs[int(b)].value == bits[b].value);
            CHECK(from_runs[int(b)].bit == bits[b].bit);
        }
    }
}

TEST_CASE("bc6h modes: the region sits in the BPTC table at TEXDEC_BPTC_LUT_BC6H_MODES", "[luts][bc6h]") {
    const std::vector<uint32_t> all = bptc_lut_words();
    const std::vector<uint32_t> bc6h = bc6h_lut_words();
    REQUIRE(all.size() == size_t(TEXDEC_BPTC_LUT_WORDS));
    REQUIRE(all.size() == TEXDEC_BPTC_LUT_BC6H_MODES + bc6h.size());
    CHECK(std::vector<uint32_t>(all.begin() + TEXDEC_BPTC_LUT_BC6H_MODES, all.end()) == bc6h);
}

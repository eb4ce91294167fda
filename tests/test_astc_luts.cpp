// ASTC table generators (luts/astc_tables.h) checked against the Khronos Data Format Specification's
// ASTC chapter: pure functions, no device needed.
//
// Where possible the expectations do not come from the implementation: they are values printed in
// the spec, values derived by hand from the spec's procedures (derivations in the comments),
// properties the spec states (e.g. "five trits in 8 bits", the packing figures), or structural
// properties any correct table must have (bijections, near-uniform spacing, endpoints).
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

#include "luts/astc_tables.h"

#include <astcenc.h>

using namespace texdec::luts;

namespace {

int range_of(unsigned levels) {
    const int r = ise_range_index(levels);
    REQUIRE(r >= 0);
    return r;
}

// The 2D and 3D ASTC footprints ("ASTC Compressed Texture Image Formats": 4..12 in 2D, 3..6 in 3D).
struct Footprint {
    uint32_t w, h, d;
};
constexpr Footprint kFootprints[] = {
    {4, 4, 1},  {5, 4, 1},  {5, 5, 1},  {6, 5, 1},   {6, 6, 1},   {8, 5, 1},   {8, 6, 1},   {8, 8, 1},
    {10, 5, 1}, {10, 6, 1}, {10, 8, 1}, {10, 10, 1}, {12, 10, 1}, {12, 12, 1}, {3, 3, 3},   {4, 3, 3},
    {4, 4, 3},  {4, 4, 4},  {5, 4, 4},  {5, 5, 4},   {5, 5, 5},   {6, 5, 5},   {6, 6, 5},   {6, 6, 6},
};

}  // namespace

// ---- ISE ranges --------------------------------------------------------------------------------

TEST_CASE("astc luts: ISE ranges match the spec's range forms and weight range table", "[luts]") {
    // "ASTC range forms": 0..2^n-1 (n <= 8), 0..3*2^n-1 (n <= 6), 0..5*2^n-1 (n <= 5). Every such
    // range with 2..256 levels, in increasing order, is exactly the 21 ranges.
    std::set<unsigned> expected;
    for (unsigned n = 1; n <= 8; ++n) expected.insert(1u << n);
    for (unsigned n = 0; n <= 6; ++n) expected.insert(3u << n);
    for (unsigned n = 0; n <= 5; ++n) expected.insert(5u << n);
    REQUIRE(expected.size() == static_cast<size_t>(kIseRangeCount));
    int i = 0;
    for (unsigned levels : expected) {
        const IseRange& r = kIseRanges[static_cast<size_t>(i)];
        INFO("levels " << levels);
        CHECK(r.levels == levels);
        CHECK(r.trits + r.quints <= 1);
        CHECK(((r.trits ? 3u : r.quints ? 5u : 1u) << r.bits) == levels);
        CHECK(ise_range_index(levels) == i);
        ++i;
    }
    CHECK(ise_range_index(7) == -1);
    CHECK(ise_range_index(512) == -1);

    // "ASTC weight range encodings" (Block Mode): the 12 weight ranges with their trits/quints/bits.
    struct W {
        unsigned levels, trits, quints, bits;
    };
    const W weights[] = {{2, 0, 0, 1},  {3, 1, 0, 0},  {4, 0, 0, 2},  {5, 0, 1, 0},  {6, 1, 0, 1},  {8, 0, 0, 3},
                         {10, 0, 1, 1}, {12, 1, 0, 2}, {16, 0, 0, 4}, {20, 0, 1, 2}, {24, 1, 0, 3}, {32, 0, 0, 5}};
    for (int k = 0; k < kWeightRangeCount; ++k) {
        const IseRange& r = kIseRanges[static_cast<size_t>(k)];
        INFO("weight range 0.." << weights[k].levels - 1);
        CHECK(r.levels == weights[k].levels);
        CHECK(r.trits == weights[k].trits);
        CHECK(r.quints == weights[k].quints);
        CHECK(r.bits == weights[k].bits);
    }
    // "ASTC color unquantization parameters" starts at 0..5.
    CHECK(kIseRanges[kColorRangeFirst].levels == 6);
}

TEST_CASE("astc luts: ise_bits_used follows the spec's formula and the packing figures", "[luts]") {
    // Worked examples of "Data Size Determination":
    //   16 weights 0..5 (1 trit + 1 bit): ceil(16*8/5) = ceil(25.6) = 26, + 16*1 = 42.
    //   16 weights 0..9 (1 quint + 1 bit): ceil(16*7/3) = ceil(37.33) = 38, + 16 = 54.
    //   64 weights 0..31: 64*5 = 320.   6 colour values 0..255: 48.
    //   1 value 0..2: ceil(8/5) = 2.    1 value 0..4: ceil(7/3) = 3.   7 values 0..47: ceil(11.2)=12 + 28 = 40.
    CHECK(ise_bits_used(range_of(6), 16) == 42);
    CHECK(ise_bits_used(range_of(10), 16) == 54);
    CHECK(ise_bits_used(range_of(32), 64) == 320);
    CHECK(ise_bits_used(range_of(256), 6) == 48);
    CHECK(ise_bits_used(range_of(3), 1) == 2);
    CHECK(ise_bits_used(range_of(5), 1) == 3);
    CHECK(ise_bits_used(range_of(48), 7) == 40);
    CHECK(ise_bits_used(range_of(2), 0) == 0);

    // Independent of the formula: "ASTC trit-based packing" puts T0,T1 after m0, T2,T3 after m1, T4
    // after m2, T5,T6 after m3 and T7 after m4, so a block of c = 1..5 values ends after c*n bits plus
    // {2,4,5,7,8}[c-1] T bits; "ASTC quint-based packing" puts Q0..Q2 after m0, Q3,Q4 after m1, Q5,Q6
    // after m2: {3,5,7}[c-1]. Full blocks are 8+5n / 7+3n bits ("ASTC encoding for different ranges").
    const uint32_t trit_tail[] = {0, 2, 4, 5, 7, 8};
    const uint32_t quint_tail[] = {0, 3, 5, 7};
    for (int r = 0; r < kIseRangeCount; ++r) {
        const IseRange& ir = kIseRanges[static_cast<size_t>(r)];
        for (uint32_t count = 0; count <= 216; ++count) {
            uint32_t expect;
            if (ir.trits)
                expect = (count / 5) * (8 + 5 * ir.bits) + (count % 5) * ir.bits + trit_tail[count % 5];
            else if (ir.quints)
                expect = (count / 3) * (7 + 3 * ir.bits) + (count % 3) * ir.bits + quint_tail[count % 3];
            else
                expect = count * ir.bits;
            INFO("range 0.." << ir.levels - 1 << ", count " << count);
            REQUIRE(ise_bits_used(r, count) == expect);
        }
    }
    CHECK_THROWS_AS(ise_bits_used(21, 1), std::out_of_range);
    CHECK_THROWS_AS(ise_bits_used(-1, 1), std::out_of_range);
}

// ---- Trits and quints --------------------------------------------------------------------------

TEST_CASE("astc luts: trit decoding covers every 5-trit tuple (spec: 3^5 = 243 <= 256)", "[luts]") {
    const auto table = trit_table();
    std::map<std::array<uint8_t, 5>, std::vector<uint32_t>> preimages;
    for (uint32_t T = 0; T < 256; ++T) {
        const auto t = table[T];
        REQUIRE(t == decode_trit_block(T));
        REQUIRE(decode_trit_block(T | 0x100u) == t);  // only T[7:0] is read
        for (uint8_t d : t) REQUIRE(d <= 2);
        preimages[t].push_back(T);
    }
    // Brute force over all digit tuples: each one is decoded from at least one packed value, and
    // together they account for all 256 packed values (13 of which are duplicates).
    size_t total = 0;
    for (unsigned code = 0; code < 243; ++code) {
        std::array<uint8_t, 5> t{};
        unsigned c = code;
        for (auto& d : t) {
            d = static_cast<uint8_t>(c % 3);
            c /= 3;
        }
        INFO("trits " << int(t[0]) << int(t[1]) << int(t[2]) << int(t[3]) << int(t[4]));
        REQUIRE(preimages.count(t) == 1);
        total += preimages[t].size();
    }
    CHECK(preimages.size() == 243);
    CHECK(total == 256);

    // Hand-decoded with the spec's procedure (t0..t4):
    //   T=0x00: T[4:2]!=111, C=0, T[6:5]=00 -> t4=T7=0,t3=0; C[1:0]=00,C[3:2]=00 -> t2=C4=0,t1=0,t0={C1,C0&~C1}=0
    //   T=0x01: C=00001 -> t0={0,1}=1                                   -> (1,0,0,0,0)
    //   T=0x02: C=00010 -> t0={1,0}=2                                   -> (2,0,0,0,0)
    //   T=0x03: C[1:0]=11 -> t2=2, t1=C4=0, t0={C3,C2&~C3}=0            -> (0,0,2,0,0)
    //   T=0x0C: C[3:2]=11 -> t2=t1=2, t0=C[1:0]=0                       -> (0,2,2,0,0)
    //   T=0x1C: T[4:2]=111 -> C={T[7:5],T[1:0]}=0, t4=t3=2              -> (0,0,0,2,2)
    //   T=0x60: T[6:5]=11 -> t4=2, t3=T7=0                              -> (0,0,0,0,2)
    //   T=0x80: T[6:5]=00 -> t4=T7=1, t3=0                              -> (0,0,0,0,1)
    //   T=0x40: T[6:5]=10 -> t4=0, t3=2                                 -> (0,0,0,2,0)
    //   T=0xFF: T[4:2]=111 -> C=11111, t4=t3=2; C[1:0]=11 -> t2=2, t1=C4=1, t0={1,0}=2 -> (2,1,2,2,2)
    using A5 = std::array<uint8_t, 5>;
    CHECK(decode_trit_block(0x00) == A5{0, 0, 0, 0, 0});
    CHECK(decode_trit_block(0x01) == A5{1, 0, 0, 0, 0});
    CHECK(decode_trit_block(0x02) == A5{2, 0, 0, 0, 0});
    CHECK(decode_trit_block(0x03) == A5{0, 0, 2, 0, 0});
    CHECK(decode_trit_block(0x0C) == A5{0, 2, 2, 0, 0});
    CHECK(decode_trit_block(0x1C) == A5{0, 0, 0, 2, 2});
    CHECK(decode_trit_block(0x60) == A5{0, 0, 0, 0, 2});
    CHECK(decode_trit_block(0x80) == A5{0, 0, 0, 0, 1});
    CHECK(decode_trit_block(0x40) == A5{0, 0, 0, 2, 0});
    CHECK(decode_trit_block(0xFF) == A5{2, 1, 2, 2, 2});
}

TEST_CASE("astc luts: quint decoding covers every 3-quint tuple (spec: 5^3 = 125 <= 128)", "[luts]") {
    const auto table = quint_table();
    std::map<std::array<uint8_t, 3>, std::vector<uint32_t>> preimages;
    for (uint32_t Q = 0; Q < 128; ++Q) {
        const auto q = table[Q];
        REQUIRE(q == decode_quint_block(Q));
        REQUIRE(decode_quint_block(Q | 0x80u) == q);  // only Q[6:0] is read
        for (uint8_t d : q) REQUIRE(d <= 4);
        preimages[q].push_back(Q);
    }
    for (unsigned code = 0; code < 125; ++code) {
        const std::array<uint8_t, 3> q{static_cast<uint8_t>(code % 5), static_cast<uint8_t>(code / 5 % 5),
                                       static_cast<uint8_t>(code / 25)};
        INFO("quints " << int(q[0]) << int(q[1]) << int(q[2]));
        REQUIRE(preimages.count(q) == 1);
    }
    CHECK(preimages.size() == 125);
    // The spec's "a few are duplicates": by hand, Q[2:1]=11, Q[6:5]=00, Q0=1 gives
    // q2={1, Q4&0, Q3&0}=4 and q1=q0=4 for all four values of Q[4:3]: 0x07, 0x0F, 0x17, 0x1F -> (4,4,4).
    // 128 - 125 = 3 duplicates, so that is the only tuple with more than one encoding.
    CHECK(preimages[{4, 4, 4}] == std::vector<uint32_t>{0x07, 0x0F, 0x17, 0x1F});
    for (const auto& [q, pre] : preimages)
        if (q != std::array<uint8_t, 3>{4, 4, 4}) CHECK(pre.size() == 1);

    // Hand-decoded with the spec's procedure (q0,q1,q2):
    //   Q=0x05: Q[2:1]=10 -> q2=Q[6:5]=0, C=00101, C[2:0]=101 -> q1=4, q0=C[4:3]=0   -> (0,4,0)
    //   Q=0x06: Q[2:1]=11,Q[6:5]=00 -> q2={Q0,Q4&~Q0,Q3&~Q0}=0, q1=q0=4             -> (4,4,0)
    //   Q=0x04: C=00100 -> q1=C[4:3]=0, q0=C[2:0]=4                                  -> (4,0,0)
    //   Q=0x22: q2=Q[6:5]=1, C=00010 -> q1=0, q0=2                                   -> (2,0,1)
    //   Q=0x66: Q[2:1]=11,Q[6:5]=11 -> q2=4, C={Q[4:3]=00,~Q[6:5]=00,Q0=0}=0        -> (0,0,4)
    //   Q=0x7F: q2=4, C={11,00,1}=11001 -> q1=3, q0=1                                -> (1,3,4)
    using A3 = std::array<uint8_t, 3>;
    CHECK(decode_quint_block(0x00) == A3{0, 0, 0});
    CHECK(decode_quint_block(0x05) == A3{0, 4, 0});
    CHECK(decode_quint_block(0x06) == A3{4, 4, 0});
    CHECK(decode_quint_block(0x04) == A3{4, 0, 0});
    CHECK(decode_quint_block(0x22) == A3{2, 0, 1});
    CHECK(decode_quint_block(0x66) == A3{0, 0, 4});
    CHECK(decode_quint_block(0x7F) == A3{1, 3, 4});
}

// ---- Weight unquantization ---------------------------------------------------------------------

TEST_CASE("astc luts: weight unquantization matches the spec's values and procedure", "[luts]") {
    // "ASTC weight unquantization values": 0..2 -> 0,32,63; 0..4 -> 0,16,32,47,63; then the
    // "if (unq > 32) unq += 1" expansion: 0,32,64 and 0,16,32,48,64.
    CHECK(unquantize_weight(range_of(3), 0) == 0);
    CHECK(unquantize_weight(range_of(3), 1) == 32);
    CHECK(unquantize_weight(range_of(3), 2) == 64);
    const uint8_t q5[] = {0, 16, 32, 48, 64};
    for (uint32_t v = 0; v < 5; ++v) CHECK(unquantize_weight(range_of(5), v) == q5[v]);

    // Bit replication (to the 6-bit 0..63 range, then expanded): 0..1 -> 0, 64;
    // 0..7: 3 -> 011011 = 27; 5 -> 101101 = 45 -> 46; 0..31: 17 = 10001 -> 100011 = 35 -> 36,
    // 16 = 10000 -> 100001 = 33 -> 34.
    CHECK(unquantize_weight(range_of(2), 0) == 0);
    CHECK(unquantize_weight(range_of(2), 1) == 64);
    CHECK(unquantize_weight(range_of(8), 3) == 27);
    CHECK(unquantize_weight(range_of(8), 5) == 46);
    CHECK(unquantize_weight(range_of(32), 17) == 36);
    CHECK(unquantize_weight(range_of(32), 16) == 34);

    // 0..5 by hand (1 trit + 1 bit a; A = aaaaaaa, B = 0, C = 50, D = trit):
    //   v=1 (D0,a1): 0^127=127 -> 0x20|31 = 63 -> 64    v=2 (D1,a0): 50>>2 = 12
    //   v=3 (D1,a1): 50^127=77 -> 0x20|19 = 51 -> 52    v=4 (D2,a0): 100>>2 = 25
    //   v=5 (D2,a1): 100^127=27 -> 0x20|6 = 38 -> 39
    const uint8_t q6[] = {0, 64, 12, 52, 25, 39};
    for (uint32_t v = 0; v < 6; ++v) CHECK(unquantize_weight(range_of(6), v) == q6[v]);
    // 0..11 (1 trit + bits ba; B = b000b0b, C = 23): v = 6 = trit 1, m = 10b: B = 1000101b = 69,
    //   23 + 69 = 92 -> 92 >> 2 = 23.   v = 10 = trit 2, m = 10b: 46 + 69 = 115 -> 28.
    CHECK(unquantize_weight(range_of(12), 6) == 23);
    CHECK(unquantize_weight(range_of(12), 10) == 28);
    // 0..23 (1 trit + bits cba; B = cb000cb, C = 11): v = 14 = trit 1, m = 110b: a=0, B = 1100011b = 99,
    //   11 + 99 = 110 -> 27.
    CHECK(unquantize_weight(range_of(24), 14) == 27);

    const std::vector<uint8_t> table = weight_unquantize_table();
    REQUIRE(table.size() == static_cast<size_t>(kWeightRangeCount) * 32);
    for (int r = 0; r < kWeightRangeCount; ++r) {
        const IseRange& ir = kIseRanges[static_cast<size_t>(r)];
        INFO("weight range 0.." << ir.levels - 1);
        std::vector<int> values;
        for (uint32_t v = 0; v < 32; ++v) {
            if (v < ir.levels) {
                REQUIRE(table[static_cast<size_t>(r) * 32 + v] == unquantize_weight(r, v));
                values.push_back(unquantize_weight(r, v));
            } else {
                REQUIRE(table[static_cast<size_t>(r) * 32 + v] == 0);
            }
        }
        // Endpoints: 0 -> 0, and 64 comes from the largest value for pure-bit ranges and 0..2 / 0..4;
        // for the A/B/C/D ranges the order is scrambled and 64 comes from v = 1 (D = 0, a = 1: B has
        // no 'a' bit so B = 0, unq = 0 ^ A = 127 -> 0x20 | 31 = 63 -> 64).
        CHECK(unquantize_weight(r, 0) == 0);
        CHECK(unquantize_weight(r, (ir.trits || ir.quints) && ir.bits ? 1u : ir.levels - 1u) == 64);
        CHECK(*std::max_element(values.begin(), values.end()) == 64);
        // Pure-bit ranges and 0..2 / 0..4 are monotonic in the stored value.
        if (!(ir.trits || ir.quints) || ir.bits == 0)
            for (size_t k = 1; k < values.size(); ++k) CHECK(values[k] > values[k - 1]);
        // Every range: distinct values, and sorted they are within 1.5 of the ideal k*64/(L-1).
        std::vector<int> sorted = values;
        std::sort(sorted.begin(), sorted.end());
        CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
        for (size_t k = 0; k < sorted.size(); ++k)
            CHECK(std::abs(sorted[k] - 64.0 * double(k) / double(ir.levels - 1)) <= 1.5);
        // Never 33 (the 0..63 -> 0..64 expansion skips it), so the values are symmetric: for every w,
        // 64 - w is also a value.
        for (int w : values) {
            CHECK(w != 33);
            CHECK(std::find(values.begin(), values.end(), 64 - w) != values.end());
        }
    }
    CHECK_THROWS_AS(unquantize_weight(12, 0), std::out_of_range);   // 0..39 is not a weight range
    CHECK_THROWS_AS(unquantize_weight(range_of(6), 6), std::out_of_range);
}

// ---- Colour endpoint unquantization ------------------------------------------------------------

TEST_CASE("astc luts: colour unquantization matches the spec's procedure", "[luts]") {
    // Bit replication example of the spec: C2C1C0 -> C2C1C0C2C1C0C2C1. 0..7: 5 = 101 -> 10110110 = 182,
    // 3 = 011 -> 01101101 = 109. 0..63: 1 -> 00000100 = 4. 0..255 is the identity.
    CHECK(unquantize_color(range_of(8), 5) == 182);
    CHECK(unquantize_color(range_of(8), 3) == 109);
    CHECK(unquantize_color(range_of(64), 1) == 4);
    CHECK(unquantize_color(range_of(2), 1) == 255);
    CHECK(unquantize_color(range_of(4), 2) == 170);
    for (uint32_t v = 0; v < 256; ++v) REQUIRE(unquantize_color(range_of(256), v) == v);

    // 0..5 by hand (1 trit + bit a; A = aaaaaaaaa, B = 0, C = 204, D = trit), value v = D*2 + a:
    //   v=1: 0^511 = 511 -> 0x80|127 = 255     v=2: 204>>2 = 51     v=3: 204^511=307 -> 0x80|76 = 204
    //   v=4: 408>>2 = 102                     v=5: 408^511=103 -> 0x80|25 = 153.  i.e. k*51, scrambled.
    const uint8_t q6[] = {0, 255, 51, 204, 102, 153};
    for (uint32_t v = 0; v < 6; ++v) CHECK(unquantize_color(range_of(6), v) == q6[v]);
    // 0..9 (1 quint + bit a; C = 113): v=2: 113>>2 = 28; v=4: 226>>2 = 56; v=6: 339>>2 = 84;
    //   v=8: 452>>2 = 113; v=3: 113^511 = 398 -> 0x80|99 = 227.
    CHECK(unquantize_color(range_of(10), 2) == 28);
    CHECK(unquantize_color(range_of(10), 4) == 56);
    CHECK(unquantize_color(range_of(10), 6) == 84);
    CHECK(unquantize_color(range_of(10), 8) == 113);
    CHECK(unquantize_color(range_of(10), 3) == 227);
    // 0..11 (1 trit + bits ba; B = b000b0bb0, C = 93): v=2 = trit 0, m=10b: B = 100010110b = 278
    //   -> 278>>2 = 69; v=6 = trit 1, m=10b: 93+278 = 371 -> 92; v=4: 93>>2 = 23.
    CHECK(unquantize_color(range_of(12), 2) == 69);
    CHECK(unquantize_color(range_of(12), 6) == 92);
    CHECK(unquantize_color(range_of(12), 4) == 23);
    // 0..191 (1 trit + 6 bits fedcba; B = fedcb000f, C = 5): v = 64 + 62 (trit 1, m = 111110b, a = 0):
    //   B = 111110001b = 497, 5 + 497 = 502 -> 502>>2 = 125.
    CHECK(unquantize_color(range_of(192), 126) == 125);

    const std::vector<uint8_t> table = color_unquantize_table();
    REQUIRE(table.size() == static_cast<size_t>(kIseRangeCount) * 256);
    for (int r = 0; r < kIseRangeCount; ++r) {
        const IseRange& ir = kIseRanges[static_cast<size_t>(r)];
        INFO("range 0.." << ir.levels - 1);
        if ((ir.trits || ir.quints) && ir.bits == 0) {  // 0..2 and 0..4: not colour ranges
            CHECK(r < kColorRangeFirst);
            CHECK_THROWS_AS(unquantize_color(r, 0), std::out_of_range);
            for (uint32_t v = 0; v < 256; ++v) REQUIRE(table[static_cast<size_t>(r) * 256 + v] == 0);
            continue;
        }
        std::vector<int> values;
        for (uint32_t v = 0; v < 256; ++v) {
            if (v < ir.levels) {
                values.push_back(unquantize_color(r, v));
                REQUIRE(table[static_cast<size_t>(r) * 256 + v] == values.back());
            } else {
                REQUIRE(table[static_cast<size_t>(r) * 256 + v] == 0);
            }
        }
        // 0 -> 0; 255 from the largest value of a pure-bit range, from v = 1 (D = 0, a = 1: 0 ^ A = 511
        // -> 0x80 | 127 = 255) for a trit/quint range.
        CHECK(unquantize_color(r, 0) == 0);
        CHECK(unquantize_color(r, ir.trits || ir.quints ? 1u : ir.levels - 1u) == 255);
        CHECK(*std::max_element(values.begin(), values.end()) == 255);
        if (!(ir.trits || ir.quints))
            for (size_t k = 1; k < values.size(); ++k) CHECK(values[k] > values[k - 1]);
        // Distinct values within 1.5 of the ideal k*255/(L-1) once sorted ("ensures correct scaling,
        // but scrambles the order"), and symmetric: 255 - u is also a value.
        std::vector<int> sorted = values;
        std::sort(sorted.begin(), sorted.end());
        CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
        for (size_t k = 0; k < sorted.size(); ++k)
            CHECK(std::abs(sorted[k] - 255.0 * double(k) / double(ir.levels - 1)) <= 1.5);
        for (int u : values) CHECK(std::binary_search(sorted.begin(), sorted.end(), 255 - u));
        // Trit/quint ranges: flipping bit a (XOR with A = all ones of a) mirrors the value.
        if (ir.trits || ir.quints)
            for (uint32_t v = 0; v < ir.levels; ++v) CHECK(unquantize_color(r, v ^ 1u) == 255 - unquantize_color(r, v));
    }
    CHECK_THROWS_AS(unquantize_color(range_of(6), 6), std::out_of_range);
    CHECK_THROWS_AS(unquantize_color(21, 0), std::out_of_range);
}

// ---- Partition pattern generation --------------------------------------------------------------

TEST_CASE("astc luts: hash52 matches hand-computed values", "[luts]") {
    // hash52(0): every step maps 0 to 0.
    CHECK(partition_hash52(0) == 0u);
    // Step by step, on 32-bit values (partition seed 0 with 2 partitions: p = 0 + 1*1024 = 0x400):
    //   p ^= p >> 15  -> 0x00000400      p -= p << 17 -> 0x400 - 0x08000000 = 0xF8000400
    //   p += p << 7   -> 0xF8020400      p += p << 4  -> 0x78224400
    //   p ^= p >> 5   -> 0x7BE35620      p += p << 16 -> 0xD2035620
    //   p ^= p >> 7   -> 0xD3A7508C      p ^= p >> 3  -> 0xC9D3BA9D
    //   p ^= p << 6   -> 0xBD3D1DDD      p ^= p >> 17 -> 0xBD3D4343
    CHECK(partition_hash52(0x400) == 0xBD3D4343u);
    // p = 0x401 (seed 1, 2 partitions): 0x401, 0xF7FE0401, 0xF7000481, 0x67004C91, 0x64384EF5,
    //   0xB32D4EF5, 0xB24B1468, 0xA40276E5, 0xA49FCFA5, 0xA49F9DEA.
    CHECK(partition_hash52(0x401) == 0xA49F9DEAu);
    // p = 0x825 (seed 37, 3 partitions): 0x825, 0xEFB60825, 0xCABA1AA5, 0x765BC4F5, 0x75E91AD2,
    //   0x90BB1AD2, 0x919A6CE7, 0x83A9217B, 0x69E17FBB, 0x69E14B4B.
    CHECK(partition_hash52(0x825) == 0x69E14B4Bu);
    // p = 0xFE8 (seed 1000, 4 partitions): 0xFE8, 0xE0300FE8, 0xF83803E8, 0x7BB84268, 0x7865807B,
    //   0xF8E0807B, 0xF911417B, 0xE6336954, 0x6AE93C54, 0x6AE90920.
    CHECK(partition_hash52(0xFE8) == 0x6AE90920u);
}

TEST_CASE("astc luts: partition_index matches hand-derived texels", "[luts]") {
    // Seed 0, 2 partitions: rnum = hash52(1024) = 0xBD3D4343. Seed 1024 is even and bit 1 clear:
    //   sh1 = 5 (count != 3), sh2 = 5; bit 4 clear -> sh3 = sh2 = 5.
    //   seed1 = 3, seed2 = 4, seed3 = 3, seed4 = 4 -> squared 9,16,9,16 -> >>5 = 0,0,0,0.
    //   seed11 = (rnum>>26)&F = 0xF -> 225>>5 = 7; seed12 = (rnum>>30 | rnum<<2)&F = 2|0xC = 14 -> 196>>5 = 6.
    //   a = 7z + (rnum>>14 & 63 = 110101b = 53), b = 6z + (rnum>>10 & 63 = 010000b = 16).
    // So every 2D texel is in partition 0 (a=53 >= b=16), and in the small 3x3x3 block (z doubled):
    //   z=1: a = (14+53)&63 = 3,  b = 12+16 = 28 -> 1;   z=2: a = (28+53)&63 = 17, b = 24+16 = 40 -> 1.
    for (uint32_t y = 0; y < 12; ++y)
        for (uint32_t x = 0; x < 12; ++x) CHECK(partition_index(0, x, y, 0, 2, false) == 0);
    CHECK(partition_index(0, 1, 2, 0, 2, true) == 0);
    CHECK(partition_index(0, 0, 0, 1, 2, true) == 1);
    CHECK(partition_index(0, 2, 1, 2, 2, true) == 1);

    // Seed 1, 2 partitions: rnum = 0xA49F9DEA; seed 1025 is odd, bit 1 clear: sh1 = 5, sh2 = 5, sh3 = 5.
    //   seed1 = 0xA -> 100>>5 = 3, seed2 = 0xE -> 196>>5 = 6, seed3 = 0xD -> 169>>5 = 5, seed4 = 9 -> 81>>5 = 2.
    //   a = 3x + 6y + (bits 19..14 = 111110b = 62), b = 5x + 2y + (bits 15..10 = 100111b = 39).
    //   8x8 (not small): (0,0): 62 vs 39 -> 0; (1,0): 65&63 = 1 vs 44 -> 1; (2,5): 98&63 = 34 vs 59 -> 1;
    //                    (7,7): 125&63 = 61 vs 88&63 = 24 -> 0.
    //   4x4 (small, x,y doubled): (1,0): 68&63 = 4 vs 49 -> 1; (0,1): 74&63 = 10 vs 43 -> 1;
    //                    (3,3): 116&63 = 52 vs 81&63 = 17 -> 0.
    CHECK(partition_index(1, 0, 0, 0, 2, false) == 0);
    CHECK(partition_index(1, 1, 0, 0, 2, false) == 1);
    CHECK(partition_index(1, 2, 5, 0, 2, false) == 1);
    CHECK(partition_index(1, 7, 7, 0, 2, false) == 0);
    CHECK(partition_index(1, 1, 0, 0, 2, true) == 1);
    CHECK(partition_index(1, 0, 1, 0, 2, true) == 1);
    CHECK(partition_index(1, 3, 3, 0, 2, true) == 0);

    // Seed 37, 3 partitions: rnum = 0x69E14B4B; seed 2085 = 100000100101b: odd, bit 1 clear -> sh1 = 5,
    //   sh2 = 6 (count 3); bit 4 clear -> sh3 = 6. Nibbles (low first) B,4,B,4,1,E,...:
    //   seed1 = 121>>5 = 3, seed2 = 16>>6 = 0, seed3 = 121>>5 = 3, seed4 = 16>>6 = 0, seed5 = 1>>5 = 0,
    //   seed6 = 196>>6 = 3. a = 3x + 5 (bits 19..14 = 000101b), b = 3x + 18 (bits 15..10 = 010010b),
    //   c = 3y + 45 (bits 11..6 = 101101b), d = 0.
    //   12x12: (0,0): 5,18,45 -> 2; (11,6): 38,51,63 -> 2; (11,7): 38,51,66&63=2 -> 1; (0,7): 5,18,2 -> 1.
    CHECK(partition_index(37, 0, 0, 0, 3, false) == 2);
    CHECK(partition_index(37, 11, 6, 0, 3, false) == 2);
    CHECK(partition_index(37, 11, 7, 0, 3, false) == 1);
    CHECK(partition_index(37, 0, 7, 0, 3, false) == 1);

    // Seed 1000, 4 partitions: rnum = 0x6AE90920; seed 4072 = 111111101000b: even, bit 1 clear -> sh1 = 5,
    //   sh2 = 5; bit 4 clear -> sh3 = 5. Nibbles (low first) 0,2,9,0,9,E,A,6:
    //   seed1..8 squared >>5 = 0,0,2,0,2,6,3,1. a = 36 (bits 19..14 = 100100b), b = 2x + 2 (bits 15..10),
    //   c = 2x + 6y + 36 (bits 11..6 = 100100b), d = 3x + y + 8 (bits 7..2 = 001000b).
    //   12x12: (0,0): 36,2,36,8 -> 0 (ties go to the lower index); (1,0): 36,4,38,11 -> 2;
    //          (11,1): 36,24,64&63=0,42 -> 3; (10,2): 36,22,68&63=4,40 -> 3; (7,7): 36,16,92&63=28,36 -> 0.
    CHECK(partition_index(1000, 0, 0, 0, 4, false) == 0);
    CHECK(partition_index(1000, 1, 0, 0, 4, false) == 2);
    CHECK(partition_index(1000, 11, 1, 0, 4, false) == 3);
    CHECK(partition_index(1000, 10, 2, 0, 4, false) == 3);
    CHECK(partition_index(1000, 7, 7, 0, 4, false) == 0);

    CHECK_THROWS_AS(partition_index(0, 0, 0, 0, 0, false), std::out_of_range);
    CHECK_THROWS_AS(partition_index(0, 0, 0, 0, 5, false), std::out_of_range);
    CHECK_THROWS_AS(partition_index(1024, 0, 0, 0, 2, false), std::out_of_range);
}

TEST_CASE("astc luts: partition tables for every footprint are consistent", "[luts]") {
    for (const Footprint& f : kFootprints) {
        const uint32_t texels = f.w * f.h * f.d;
        const bool small = texels < 31;
        for (uint32_t count = 1; count <= 4; ++count) {
            INFO(f.w << "x" << f.h << "x" << f.d << ", " << count << " partitions");
            const PartitionTable t = partition_table(f.w, f.h, f.d, count);
            REQUIRE(t.texels == texels);
            REQUIRE(t.words_per_seed == (texels + 15) / 16);
            REQUIRE(t.words.size() == size_t{kPartitionSeedCount} * t.words_per_seed);
            std::array<uint64_t, 4> used{};
            for (uint32_t seed = 0; seed < kPartitionSeedCount; ++seed) {
                // Unused high bits of the last word stay 0.
                if (texels % 16) REQUIRE((t.words[(seed + 1) * t.words_per_seed - 1] >> (2 * (texels % 16))) == 0u);
                uint32_t texel = 0;
                for (uint32_t z = 0; z < f.d; ++z)
                    for (uint32_t y = 0; y < f.h; ++y)
                        for (uint32_t x = 0; x < f.w; ++x, ++texel) {
                            const uint8_t p = t.at(seed, texel);
                            if (count == 1) REQUIRE(p == 0);  // one partition: every texel in partition 0
                            REQUIRE(p < count);
                            // The packed table is the function, with small_block from the texel count.
                            REQUIRE(p == partition_index(seed, x, y, z, count, small));
                            ++used[p];
                        }
            }
            // Over all seeds, every partition index is used.
            for (uint32_t p = 0; p < count; ++p) CHECK(used[p] > 0);
        }
    }
    // Determinism: building twice gives the same words.
    CHECK(partition_table(6, 6, 6, 3).words == partition_table(6, 6, 6, 3).words);
    CHECK(partition_table(12, 12, 1, 4).words == partition_table(12, 12, 1, 4).words);
    // 6x5 (30 texels) is a small block, 6x6 (36) is not: the hand-derived seed-1 texel (1,0) of the
    // small 4x4 case above (x doubled) must be the one in the 6x5 table, not the 6x6 one.
    CHECK(partition_table(6, 5, 1, 2).at(1, 1) == partition_index(1, 1, 0, 0, 2, true));
    CHECK(partition_table(6, 6, 1, 2).at(1, 1) == partition_index(1, 1, 0, 0, 2, false));
    CHECK_THROWS_AS(partition_table(0, 4, 1, 2), std::out_of_range);
    CHECK_THROWS_AS(partition_table(4, 4, 1, 5), std::out_of_range);
}

// ---- Block Mode and Data Size Determination ------------------------------------------------------

namespace {

// astcenc's parse of a block (libastcenc 4.2, astcenc_get_block_info), one context per footprint.
struct AstcencParser {
    astcenc_context* ctx = nullptr;
    explicit AstcencParser(const Footprint& f) {
        astcenc_config config{};
        REQUIRE(astcenc_config_init(ASTCENC_PRF_LDR, f.w, f.h, f.d, ASTCENC_PRE_FASTEST, ASTCENC_FLG_DECOMPRESS_ONLY,
                                    &config) == ASTCENC_SUCCESS);
        REQUIRE(astcenc_context_alloc(&config, 1, &ctx) == ASTCENC_SUCCESS);
    }
    ~AstcencParser() { astcenc_context_free(ctx); }
    astcenc_block_info parse(const uint8_t block[16]) {
        astcenc_block_info info{};
        REQUIRE(astcenc_get_block_info(ctx, block, &info) == ASTCENC_SUCCESS);
        return info;
    }
};

}  // namespace

// Every 11-bit block mode of every footprint, decoded by decode_block_mode, against astcenc's parse
// of a block with that mode, one partition and CEM 0 (two colour values: the colour bits always
// suffice, so astcenc calls the block an error exactly when the mode is reserved or illegal for
// the footprint).
TEST_CASE("astc luts: decode_block_mode agrees with astcenc for every mode of every footprint", "[luts]") {
    for (const Footprint& f : kFootprints) {
        AstcencParser astcenc(f);
        int weight_modes = 0;
        for (uint32_t mode = 0; mode < 2048; ++mode) {
            INFO(f.w << "x" << f.h << "x" << f.d << " block mode 0x" << std::hex << mode);
            uint8_t block[16] = {};
            block[0] = uint8_t(mode & 0xFF);
            block[1] = uint8_t(mode >> 8);  // partition count bits 11-12 = 0, CEM bits 13-16 = 0
            const BlockMode m = decode_block_mode(mode, f.w, f.h, f.d);
            if ((mode & 0x1FF) == 0x1FC) {
                CHECK(m.kind == BlockModeKind::void_extent);
                continue;
            }
            const astcenc_block_info info = astcenc.parse(block);
            REQUIRE(info.is_error_block == (m.kind == BlockModeKind::error));
            if (m.kind != BlockModeKind::weights) continue;
            ++weight_modes;
            CHECK(info.weight_x == m.grid_w);
            CHECK(info.weight_y == m.grid_h);
            CHECK(info.weight_z == m.grid_d);
            CHECK(info.is_dual_plane_block == m.dual_plane);
            CHECK(info.weight_level_count == kIseRanges[m.weight_range].levels);
            const uint32_t weights = uint32_t(m.grid_w) * m.grid_h * m.grid_d * (m.dual_plane ? 2 : 1);
            CHECK(m.weight_bits == ise_bits_used(m.weight_range, weights));
            CHECK((m.weight_bits >= 24 && m.weight_bits <= 96 && weights <= 64));
        }
        CHECK(weight_modes > 0);
    }
}

// Hand-derived modes from the 2D layout table: 0x042 = bits 6 and 1 -> first row (bits 3:2 = 00):
// W = bits 8:7 + 4 = 4, H = bits 6:5 + 2 = 4, rho = (bit1, bit0, bit4) = 100b = 4 -> 0..3, P = 0.
TEST_CASE("astc luts: decode_block_mode hand-derived 2D and 3D modes", "[luts]") {
    BlockMode m = decode_block_mode(0x042, 4, 4, 1);
    CHECK(m.kind == BlockModeKind::weights);
    CHECK((m.grid_w == 4 && m.grid_h == 4 && m.grid_d == 1 && !m.dual_plane));
    CHECK(m.weight_range == range_of(4));
    CHECK(m.weight_bits == 32);  // 16 weights x 2 bits
    // Same mode with D_P (bit 10) and P (bit 9): rho = 100b, high precision -> 0..15, 32 weights
    // x 4 bits = 128 bits > 96: illegal.
    m = decode_block_mode(0x642, 4, 4, 1);
    CHECK(m.kind == BlockModeKind::error);
    CHECK(m.dual_plane);
    CHECK(m.weight_range == range_of(16));
    CHECK(m.weight_bits == 128);
    // 0x000: bits [3:0] = 0000 is reserved; 0x1FC: void extent; 0x1C0 (bits 8:6 = 111, [5:2] != 1111): reserved.
    CHECK(decode_block_mode(0x000, 8, 8, 1).kind == BlockModeKind::error);
    CHECK(decode_block_mode(0x1FC, 8, 8, 1).kind == BlockModeKind::void_extent);
    CHECK(decode_block_mode(0x1C4, 8, 8, 1).kind == BlockModeKind::error);
    // Row "W = 12, H = bits 6:5 + 2" (bits 8:7 = 00, bits 1:0 = 00, rho2..1 = bits 3:2 = 01):
    // 0x00C -> bits 3:2 = 11 -> rho = 110b = 6 -> 0..5; W = 12, H = 2: illegal in 8x8, legal in 12x12
    // (24 weights of 0..5: ceil(24 * 8 / 5) + 24 = 39 + 24 = 63 bits).
    CHECK(decode_block_mode(0x00C, 8, 8, 1).kind == BlockModeKind::error);
    m = decode_block_mode(0x00C, 12, 12, 1);
    CHECK(m.kind == BlockModeKind::weights);
    CHECK((m.grid_w == 12 && m.grid_h == 2));
    CHECK(m.weight_bits == 63);
    // 3D first row: W = bits 6:5 + 2, H = bits 8:7 + 2, D = bits 3:2 + 2; 0x042 in 3D: W = 4, H = 2,
    // D = 2, rho = 4 -> 16 weights x 2 bits.
    m = decode_block_mode(0x042, 4, 4, 4);
    CHECK(m.kind == BlockModeKind::weights);
    CHECK((m.grid_w == 4 && m.grid_h == 2 && m.grid_d == 2));
    CHECK(m.weight_bits == 32);
}

// "Data Size Determination": the largest range whose encoding fits; -1 below 0..5 ("fewer than
// ceil(13 * C / 5) bits" is illegal: 0..5 takes 8/5 + 1 = 13/5 bits per value).
TEST_CASE("astc luts: color_range_for picks the largest colour range that fits", "[luts]") {
    // 2 values of 0..255 need 16 bits.
    CHECK(color_range_for(2, 16) == range_of(256));
    // 15 bits: 0..191 (trit + 6 bits): ceil(2 * 8 / 5) + 12 = 4 + 12 = 16 > 15; 0..159 (quint + 5):
    // ceil(2 * 7 / 3) + 10 = 5 + 10 = 15 <= 15.
    CHECK(color_range_for(2, 15) == range_of(160));
    // 18 values: 0..5 needs ceil(18 * 8 / 5) + 18 = 29 + 18 = 47 bits.
    CHECK(color_range_for(18, 47) == range_of(6));
    CHECK(color_range_for(18, 46) == -1);
    CHECK(color_range_for(2, -3) == -1);
    for (uint32_t values = 2; values <= 32; values += 2)
        for (int bits = 0; bits < 128; ++bits) {
            const int r = color_range_for(values, bits);
            INFO(values << " values, " << bits << " bits -> range " << r);
            const uint32_t minimum = (13 * values + 4) / 5;  // ceil(13 * C / 5)
            CHECK((r == -1) == (uint32_t(bits) < minimum));
            if (r < 0) continue;
            CHECK(r >= kColorRangeFirst);
            CHECK(ise_bits_used(r, values) <= uint32_t(bits));
            if (r + 1 < kIseRangeCount) CHECK(ise_bits_used(r + 1, values) > uint32_t(bits));
        }
}

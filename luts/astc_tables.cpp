// ASTC table generators. Every function cites the section of the Khronos Data Format Specification's
// ASTC chapter it implements; see astc_tables.h for the contracts.
#include "luts/astc_tables.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace texdec::luts {

namespace {

const IseRange& range_at(int range_index) {
    if (range_index < 0 || range_index >= kIseRangeCount)
        throw std::out_of_range("texdec::luts: ISE range index " + std::to_string(range_index) + " out of 0..20");
    return kIseRanges[static_cast<size_t>(range_index)];
}

uint32_t bit(uint32_t v, unsigned i) { return (v >> i) & 1u; }

// Builds a B value from a "Bit layout" pattern string of the unquantization parameter tables:
// most significant bit first; '0' is a zero bit and letter 'a' + k is bit k of the low bits m.
uint32_t pattern_value(const char* pattern, uint32_t m) {
    uint32_t v = 0;
    for (const char* p = pattern; *p; ++p) {
        v <<= 1;
        if (*p != '0') v |= bit(m, static_cast<unsigned>(*p - 'a'));
    }
    return v;
}

// One row of "ASTC weight unquantization parameters" / "ASTC color unquantization parameters".
struct UnqParams {
    uint16_t levels;
    const char* b_pattern;
    uint32_t c;
};

// "Weight Unquantization", table "ASTC weight unquantization parameters" (B: 7 bits).
constexpr UnqParams kWeightParams[] = {
    {6, "0000000", 50}, {10, "0000000", 28}, {12, "b000b0b", 23}, {20, "b0000b0", 13}, {24, "cb000cb", 11},
};

// "Endpoint Unquantization", table "ASTC color unquantization parameters" (B: 9 bits).
constexpr UnqParams kColorParams[] = {
    {6, "000000000", 204},  {10, "000000000", 113}, {12, "b000b0bb0", 93},  {20, "b0000bb00", 54},
    {24, "cb000cbcb", 44},  {40, "cb0000cbc", 26},  {48, "dcb000dcb", 22},  {80, "dcb0000dc", 13},
    {96, "edcb000ed", 11},  {160, "edcb0000e", 6},  {192, "fedcb000f", 5},
};

template <size_t N>
const UnqParams& params_for(const UnqParams (&table)[N], uint16_t levels) {
    for (const UnqParams& p : table)
        if (p.levels == levels) return p;
    throw std::out_of_range("texdec::luts: no unquantization parameters for range 0.." + std::to_string(levels - 1));
}

// Replicates the `bits`-bit value v, most significant bit first, to `out_bits` bits
// ("... is simple bit replication from the most significant bit of the value").
uint32_t replicate(uint32_t v, unsigned bits, unsigned out_bits) {
    uint32_t r = 0;
    unsigned have = 0;
    while (have < out_bits) {
        r = (r << bits) | v;
        have += bits;
    }
    return r >> (have - out_bits);
}

void check_value(const IseRange& r, uint32_t value) {
    if (value >= r.levels)
        throw std::out_of_range("texdec::luts: value " + std::to_string(value) + " out of range 0.." +
                                std::to_string(r.levels - 1));
}

}  // namespace

int ise_range_index(unsigned levels) {
    for (int i = 0; i < kIseRangeCount; ++i)
        if (kIseRanges[static_cast<size_t>(i)].levels == levels) return i;
    return -1;
}

// "Data Size Determination": weight_bits / CEM_bits formula.
uint32_t ise_bits_used(int range_index, uint32_t count) {
    const IseRange& r = range_at(range_index);
    return (count * 8u * r.trits + 4u) / 5u + (count * 7u * r.quints + 2u) / 3u + count * r.bits;
}

// "Integer Sequence Encoding": trit decoding procedure.
std::array<uint8_t, 5> decode_trit_block(uint32_t T) {
    T &= 0xFFu;
    uint32_t C, t0, t1, t2, t3, t4;
    if (((T >> 2) & 7u) == 7u) {  // T[4:2] = 111
        C = (((T >> 5) & 7u) << 2) | (T & 3u);  // { T[7:5], T[1:0] }
        t4 = t3 = 2;
    } else {
        C = T & 0x1Fu;  // T[4:0]
        if (((T >> 5) & 3u) == 3u) {  // T[6:5] = 11
            t4 = 2;
            t3 = bit(T, 7);
        } else {
            t4 = bit(T, 7);
            t3 = (T >> 5) & 3u;
        }
    }
    if ((C & 3u) == 3u) {  // C[1:0] = 11
        t2 = 2;
        t1 = bit(C, 4);
        t0 = (bit(C, 3) << 1) | (bit(C, 2) & ~bit(C, 3) & 1u);
    } else if (((C >> 2) & 3u) == 3u) {  // C[3:2] = 11
        t2 = 2;
        t1 = 2;
        t0 = C & 3u;
    } else {
        t2 = bit(C, 4);
        t1 = (C >> 2) & 3u;
        t0 = (bit(C, 1) << 1) | (bit(C, 0) & ~bit(C, 1) & 1u);
    }
    return {static_cast<uint8_t>(t0), static_cast<uint8_t>(t1), static_cast<uint8_t>(t2), static_cast<uint8_t>(t3),
            static_cast<uint8_t>(t4)};
}

// "Integer Sequence Encoding": quint decoding procedure.
std::array<uint8_t, 3> decode_quint_block(uint32_t Q) {
    Q &= 0x7Fu;
    uint32_t q0, q1, q2;
    if (((Q >> 1) & 3u) == 3u && ((Q >> 5) & 3u) == 0u) {  // Q[2:1] = 11 and Q[6:5] = 00
        const uint32_t nq0 = ~bit(Q, 0) & 1u;
        q2 = (bit(Q, 0) << 2) | ((bit(Q, 4) & nq0) << 1) | (bit(Q, 3) & nq0);
        q1 = q0 = 4;
    } else {
        uint32_t C;
        if (((Q >> 1) & 3u) == 3u) {  // Q[2:1] = 11
            q2 = 4;
            // { Q[4:3], ~Q[6:5], Q[0] }
            C = (((Q >> 3) & 3u) << 3) | ((~(Q >> 5) & 3u) << 1) | bit(Q, 0);
        } else {
            q2 = (Q >> 5) & 3u;
            C = Q & 0x1Fu;
        }
        if ((C & 7u) == 5u) {  // C[2:0] = 101
            q1 = 4;
            q0 = (C >> 3) & 3u;
        } else {
            q1 = (C >> 3) & 3u;
            q0 = C & 7u;
        }
    }
    return {static_cast<uint8_t>(q0), static_cast<uint8_t>(q1), static_cast<uint8_t>(q2)};
}

std::array<std::array<uint8_t, 5>, 256> trit_table() {
    std::array<std::array<uint8_t, 5>, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) t[i] = decode_trit_block(i);
    return t;
}

std::array<std::array<uint8_t, 3>, 128> quint_table() {
    std::array<std::array<uint8_t, 3>, 128> t{};
    for (uint32_t i = 0; i < 128; ++i) t[i] = decode_quint_block(i);
    return t;
}

// "Weight Unquantization": bit replication to 6 bits for pure-bit ranges, the fixed values of
// "ASTC weight unquantization values" for 0..2 / 0..4, the A/B/C/D procedure for the others, then
// the 0..63 -> 0..64 expansion.
uint8_t unquantize_weight(int range_index, uint32_t value) {
    if (range_index < 0 || range_index >= kWeightRangeCount)
        throw std::out_of_range("texdec::luts: weight range index " + std::to_string(range_index) + " out of 0..11");
    const IseRange& r = range_at(range_index);
    check_value(r, value);
    uint32_t unq;
    if (!r.trits && !r.quints) {
        unq = replicate(value, r.bits, 6);
    } else if (r.bits == 0) {
        static constexpr uint8_t k3[] = {0, 32, 63};
        static constexpr uint8_t k5[] = {0, 16, 32, 47, 63};
        unq = r.trits ? k3[value] : k5[value];
    } else {
        const UnqParams& p = params_for(kWeightParams, r.levels);
        const uint32_t m = value & ((1u << r.bits) - 1u);
        const uint32_t D = value >> r.bits;  // the trit or quint value
        const uint32_t A = (m & 1u) ? 0x7Fu : 0u;
        const uint32_t B = pattern_value(p.b_pattern, m);
        unq = D * p.c + B;
        unq = unq ^ A;
        unq = (A & 0x20u) | (unq >> 2);
    }
    if (unq > 32) unq += 1;
    return static_cast<uint8_t>(unq);
}

std::vector<uint8_t> weight_unquantize_table() {
    std::vector<uint8_t> t(static_cast<size_t>(kWeightRangeCount) * 32, 0);
    for (int r = 0; r < kWeightRangeCount; ++r)
        for (uint32_t v = 0; v < kIseRanges[static_cast<size_t>(r)].levels; ++v)
            t[static_cast<size_t>(r) * 32 + v] = unquantize_weight(r, v);
    return t;
}

// "Endpoint Unquantization": bit replication to 8 bits for pure-bit ranges, the A/B/C/D procedure
// of "ASTC color unquantization parameters" for trit/quint ranges.
uint8_t unquantize_color(int range_index, uint32_t value) {
    const IseRange& r = range_at(range_index);
    check_value(r, value);
    if (!r.trits && !r.quints) return static_cast<uint8_t>(replicate(value, r.bits, 8));
    if (r.bits == 0)
        throw std::out_of_range("texdec::luts: range 0.." + std::to_string(r.levels - 1) + " is not a color range");
    const UnqParams& p = params_for(kColorParams, r.levels);
    const uint32_t m = value & ((1u << r.bits) - 1u);
    const uint32_t D = value >> r.bits;
    const uint32_t A = (m & 1u) ? 0x1FFu : 0u;
    const uint32_t B = pattern_value(p.b_pattern, m);
    uint32_t unq = D * p.c + B;
    unq = unq ^ A;
    unq = (A & 0x80u) | (unq >> 2);
    return static_cast<uint8_t>(unq);
}

std::vector<uint8_t> color_unquantize_table() {
    std::vector<uint8_t> t(static_cast<size_t>(kIseRangeCount) * 256, 0);
    for (int r = 0; r < kIseRangeCount; ++r) {
        const IseRange& ir = kIseRanges[static_cast<size_t>(r)];
        if (ir.bits == 0) continue;  // 0..2, 0..4: not color ranges
        for (uint32_t v = 0; v < ir.levels; ++v) t[static_cast<size_t>(r) * 256 + v] = unquantize_color(r, v);
    }
    return t;
}

// "Block Mode": the 2D and 3D layout tables, row by row, then the legality checks of "Illegal
// Encodings" that depend on the footprint.
BlockMode decode_block_mode(uint32_t mode, uint32_t block_w, uint32_t block_h, uint32_t block_d) {
    BlockMode m;
    mode &= 0x7FFu;
    if ((mode & 0x1FFu) == 0x1FCu) {
        m.kind = BlockModeKind::void_extent;
        return m;
    }
    auto field = [mode](unsigned first, unsigned count) { return (mode >> first) & ((1u << count) - 1u); };
    uint32_t w = 0, h = 0, d = 1, rho = 0;
    bool dual = field(10, 1) != 0, high = field(9, 1) != 0;
    const bool is_3d = block_d > 1;
    if (field(0, 2) != 0) {
        // First rows: rho2 = bit 1, rho1 = bit 0, rho0 = bit 4.
        rho = (field(1, 1) << 2) | (field(0, 1) << 1) | field(4, 1);
        const uint32_t a = field(7, 2), b = field(5, 2);
        if (is_3d) {
            w = b + 2, h = a + 2, d = field(2, 2) + 2;
        } else {
            switch (field(2, 2)) {
            case 0: w = a + 4, h = b + 2; break;
            case 1: w = a + 8, h = b + 2; break;
            case 2: w = b + 2, h = a + 8; break;
            default:
                if (field(8, 1) == 0) w = b + 2, h = field(7, 1) + 6;
                else w = field(7, 1) + 2, h = b + 2;
                break;
            }
        }
    } else {
        // Bits [1:0] = 00: rho2 = bit 3, rho1 = bit 2, rho0 = bit 4; rho2..1 = 00 is reserved.
        if (field(2, 2) == 0) return m;
        rho = (field(3, 1) << 2) | (field(2, 1) << 1) | field(4, 1);
        const uint32_t hi = field(9, 2), b = field(5, 2);
        if (is_3d) {
            switch (field(7, 2)) {
            case 0: w = 6, h = hi + 2, d = b + 2, dual = high = false; break;
            case 1: w = b + 2, h = 6, d = hi + 2, dual = high = false; break;
            case 2: w = b + 2, h = hi + 2, d = 6, dual = high = false; break;
            default:
                switch (b) {
                case 0: w = 6, h = 2, d = 2; break;
                case 1: w = 2, h = 6, d = 2; break;
                case 2: w = 2, h = 2, d = 6; break;
                default: return m;  // bits [8:5] = 1111 with bits [4:2] not all 1: reserved
                }
            }
        } else {
            switch (field(7, 2)) {
            case 0: w = 12, h = b + 2; break;
            case 1: w = b + 2, h = 12; break;
            case 2: w = b + 6, h = hi + 6, dual = high = false; break;
            default:
                if (b == 0) w = 6, h = 10;
                else if (b == 1) w = 10, h = 6;
                else return m;  // bits [8:6] = 111 with bits [5:2] not all 1: reserved
            }
        }
    }
    if (rho < 2) return m;  // "Invalid" rows of "ASTC weight range encodings"
    m.grid_w = static_cast<uint8_t>(w);
    m.grid_h = static_cast<uint8_t>(h);
    m.grid_d = static_cast<uint8_t>(d);
    m.dual_plane = dual;
    m.weight_range = static_cast<uint8_t>(rho - 2 + (high ? 6 : 0));
    const uint32_t weights = w * h * d * (dual ? 2 : 1);
    const uint32_t bits = ise_bits_used(m.weight_range, weights);
    m.weight_bits = static_cast<uint8_t>(std::min<uint32_t>(bits, 255));
    const bool fits = w <= block_w && h <= block_h && d <= block_d;
    if (fits && weights <= 64 && bits >= 24 && bits <= 96) m.kind = BlockModeKind::weights;
    return m;
}

// "Data Size Determination": the iterative algorithm, largest range first.
int color_range_for(uint32_t value_count, int remaining_bits) {
    if (remaining_bits < 0) return -1;
    for (int r = kIseRangeCount - 1; r >= kColorRangeFirst; --r)
        if (ise_bits_used(r, value_count) <= static_cast<uint32_t>(remaining_bits)) return r;
    return -1;
}

// "Partition Pattern Generation": hash52(), on 32-bit unsigned values.
uint32_t partition_hash52(uint32_t p) {
    p ^= p >> 15;
    p -= p << 17;
    p += p << 7;
    p += p << 4;
    p ^= p >> 5;
    p += p << 16;
    p ^= p >> 7;
    p ^= p >> 3;
    p ^= p << 6;
    p ^= p >> 17;
    return p;
}

// "Partition Pattern Generation": select_partition().
uint8_t partition_index(uint32_t seed, uint32_t x, uint32_t y, uint32_t z, uint32_t partition_count,
                        bool small_block) {
    if (partition_count < 1 || partition_count > 4)
        throw std::out_of_range("texdec::luts: partition count " + std::to_string(partition_count) + " out of 1..4");
    if (seed >= kPartitionSeedCount)
        throw std::out_of_range("texdec::luts: partition seed " + std::to_string(seed) + " out of 0..1023");
    if (partition_count == 1) return 0;
    if (small_block) {
        x <<= 1;
        y <<= 1;
        z <<= 1;
    }
    seed += (partition_count - 1) * 1024;
    const uint32_t rnum = partition_hash52(seed);
    // seedN are uint8_t in the spec: 4-bit fields, squared (<= 225, fits), then shifted.
    uint32_t s[13];
    s[1] = rnum & 0xF;
    s[2] = (rnum >> 4) & 0xF;
    s[3] = (rnum >> 8) & 0xF;
    s[4] = (rnum >> 12) & 0xF;
    s[5] = (rnum >> 16) & 0xF;
    s[6] = (rnum >> 20) & 0xF;
    s[7] = (rnum >> 24) & 0xF;
    s[8] = (rnum >> 28) & 0xF;
    s[9] = (rnum >> 18) & 0xF;
    s[10] = (rnum >> 22) & 0xF;
    s[11] = (rnum >> 26) & 0xF;
    s[12] = ((rnum >> 30) | (rnum << 2)) & 0xF;
    for (int i = 1; i <= 12; ++i) s[i] *= s[i];

    unsigned sh1, sh2;
    if (seed & 1) {
        sh1 = (seed & 2) ? 4 : 5;
        sh2 = (partition_count == 3) ? 6 : 5;
    } else {
        sh1 = (partition_count == 3) ? 6 : 5;
        sh2 = (seed & 2) ? 4 : 5;
    }
    const unsigned sh3 = (seed & 0x10) ? sh1 : sh2;

    s[1] >>= sh1; s[2] >>= sh2; s[3] >>= sh1; s[4] >>= sh2;
    s[5] >>= sh1; s[6] >>= sh2; s[7] >>= sh1; s[8] >>= sh2;
    s[9] >>= sh3; s[10] >>= sh3; s[11] >>= sh3; s[12] >>= sh3;

    // Only the low 6 bits are kept, so 32-bit unsigned wrap-around is harmless.
    uint32_t a = s[1] * x + s[2] * y + s[11] * z + (rnum >> 14);
    uint32_t b = s[3] * x + s[4] * y + s[12] * z + (rnum >> 10);
    uint32_t c = s[5] * x + s[6] * y + s[9] * z + (rnum >> 6);
    uint32_t d = s[7] * x + s[8] * y + s[10] * z + (rnum >> 2);
    a &= 0x3F; b &= 0x3F; c &= 0x3F; d &= 0x3F;

    if (partition_count < 4) d = 0;
    if (partition_count < 3) c = 0;

    if (a >= b && a >= c && a >= d) return 0;
    if (b >= c && b >= d) return 1;
    if (c >= d) return 2;
    return 3;
}

PartitionTable partition_table(uint32_t block_w, uint32_t block_h, uint32_t block_d, uint32_t partition_count) {
    if (block_w < 1 || block_w > 12 || block_h < 1 || block_h > 12 || block_d < 1 || block_d > 12)
        throw std::out_of_range("texdec::luts: block footprint out of 1..12");
    if (partition_count < 1 || partition_count > 4)
        throw std::out_of_range("texdec::luts: partition count " + std::to_string(partition_count) + " out of 1..4");
    PartitionTable t;
    t.block_w = block_w;
    t.block_h = block_h;
    t.block_d = block_d;
    t.partition_count = partition_count;
    t.texels = block_w * block_h * block_d;
    t.words_per_seed = (t.texels + 15) / 16;
    t.words.assign(static_cast<size_t>(kPartitionSeedCount) * t.words_per_seed, 0u);
    const bool small_block = t.texels < 31;
    for (uint32_t seed = 0; seed < kPartitionSeedCount; ++seed) {
        uint32_t* w = &t.words[static_cast<size_t>(seed) * t.words_per_seed];
        uint32_t texel = 0;
        for (uint32_t z = 0; z < block_d; ++z)
            for (uint32_t y = 0; y < block_h; ++y)
                for (uint32_t x = 0; x < block_w; ++x, ++texel)
                    w[texel / 16] |= uint32_t{partition_index(seed, x, y, z, partition_count, small_block)}
                                     << (2 * (texel % 16));
    }
    return t;
}

}  // namespace texdec::luts

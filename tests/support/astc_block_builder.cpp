// See astc_block_builder.h. Written from the specification's ASTC chapter only.
#include "astc_block_builder.h"

#include <algorithm>
#include <stdexcept>

namespace texdec_test {

// ---- bits -----------------------------------------------------------------------------------

uint32_t astc_get_bits(const uint8_t* block, unsigned first, unsigned count) {
    uint32_t v = 0;
    for (unsigned i = 0; i < count; ++i) v |= uint32_t((block[(first + i) / 8] >> ((first + i) % 8)) & 1u) << i;
    return v;
}

void astc_set_bits(uint8_t* block, unsigned first, unsigned count, uint32_t value) {
    for (unsigned i = 0; i < count; ++i) {
        const unsigned b = first + i;
        if (b >= 128) throw std::logic_error("astc_set_bits: bit " + std::to_string(b) + " is outside the block");
        block[b / 8] = uint8_t((block[b / 8] & ~(1u << (b % 8))) | (((value >> i) & 1u) << (b % 8)));
    }
}

// ---- integer sequence encoding --------------------------------------------------------------

unsigned ise_bit_count(IseRange r, unsigned count) {
    // "Data Size Determination": ceil(n * 8 * trits / 5) + ceil(n * 7 * quints / 3) + n * bits.
    return (count * 8 * r.trits + 4) / 5 + (count * 7 * r.quints + 2) / 3 + count * r.bits;
}

std::array<unsigned, 5> ise_decode_trit_block(unsigned T) {
    // The procedure of "Integer Sequence Encoding", transcribed.
    auto bit = [](unsigned v, unsigned i) { return (v >> i) & 1u; };
    unsigned C, t0, t1, t2, t3, t4;
    if (((T >> 2) & 7u) == 7u) {
        C = (((T >> 5) & 7u) << 2) | (T & 3u);
        t4 = t3 = 2;
    } else {
        C = T & 0x1Fu;
        if (((T >> 5) & 3u) == 3u) {
            t4 = 2;
            t3 = bit(T, 7);
        } else {
            t4 = bit(T, 7);
            t3 = (T >> 5) & 3u;
        }
    }
    if ((C & 3u) == 3u) {
        t2 = 2;
        t1 = bit(C, 4);
        t0 = (bit(C, 3) << 1) | (bit(C, 2) & ~bit(C, 3) & 1u);
    } else if (((C >> 2) & 3u) == 3u) {
        t2 = 2;
        t1 = 2;
        t0 = C & 3u;
    } else {
        t2 = bit(C, 4);
        t1 = (C >> 2) & 3u;
        t0 = (bit(C, 1) << 1) | (bit(C, 0) & ~bit(C, 1) & 1u);
    }
    return {t0, t1, t2, t3, t4};
}

std::array<unsigned, 3> ise_decode_quint_block(unsigned Q) {
    auto bit = [](unsigned v, unsigned i) { return (v >> i) & 1u; };
    unsigned q0, q1, q2;
    if (((Q >> 1) & 3u) == 3u && ((Q >> 5) & 3u) == 0u) {
        q2 = (bit(Q, 0) << 2) | ((bit(Q, 4) & ~bit(Q, 0) & 1u) << 1) | (bit(Q, 3) & ~bit(Q, 0) & 1u);
        q1 = q0 = 4;
    } else {
        unsigned C;
        if (((Q >> 1) & 3u) == 3u) {
            q2 = 4;
            // C = { Q[4:3], ~Q[6:5], Q[0] }
            C = (((Q >> 3) & 3u) << 3) | ((~(Q >> 5) & 3u) << 1) | bit(Q, 0);
        } else {
            q2 = (Q >> 5) & 3u;
            C = Q & 0x1Fu;
        }
        if ((C & 7u) == 5u) {
            q1 = 4;
            q0 = (C >> 3) & 3u;
        } else {
            q1 = (C >> 3) & 3u;
            q0 = C & 7u;
        }
    }
    return {q0, q1, q2};
}

namespace {

// Positions (within one packed block) of the trit bits T0..T7 / quint bits Q0..Q6, and of the
// low bits of value k, for n low bits per value ("Integer Sequence Encoding" packing tables).
unsigned trit_bit_position(unsigned i, unsigned n) {
    static const unsigned after_values[8] = {1, 1, 2, 2, 3, 4, 4, 5};  // values whose m precede T_i
    static const unsigned earlier_t[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    return after_values[i] * n + earlier_t[i];
}
unsigned trit_value_position(unsigned k, unsigned n) {
    static const unsigned earlier_t[5] = {0, 2, 4, 5, 7};
    return k * n + earlier_t[k];
}
unsigned quint_bit_position(unsigned i, unsigned n) {
    static const unsigned after_values[7] = {1, 1, 1, 2, 2, 3, 3};
    return after_values[i] * n + i;
}
unsigned quint_value_position(unsigned k, unsigned n) {
    static const unsigned earlier_q[3] = {0, 3, 5};
    return k * n + earlier_q[k];
}

// For each of the `codes` packed codes, its decoded tuple.
template <size_t N>
std::vector<std::array<unsigned, N>> decode_table(unsigned codes, std::array<unsigned, N> (*decode)(unsigned)) {
    std::vector<std::array<unsigned, N>> v(codes);
    for (unsigned code = 0; code < codes; ++code) v[code] = decode(code);
    return v;
}

// The trit and quint decode tables (computed once).
const std::vector<std::array<unsigned, 5>>& trit_table() {
    static const std::vector<std::array<unsigned, 5>> t = decode_table(256, ise_decode_trit_block);
    return t;
}
const std::vector<std::array<unsigned, 3>>& quint_table() {
    static const std::vector<std::array<unsigned, 3>> t = decode_table(128, ise_decode_quint_block);
    return t;
}

}  // namespace

std::vector<uint8_t> ise_encode(IseRange r, const std::vector<unsigned>& values, SplitMix64* rng) {
    const unsigned count = unsigned(values.size());
    const unsigned total = ise_bit_count(r, count);
    std::vector<uint8_t> out(total, 0);
    const unsigned n = r.bits;
    auto put = [&](unsigned pos, unsigned nbits, unsigned v) {
        for (unsigned i = 0; i < nbits; ++i) {
            if (pos + i < total) {
                out[pos + i] = uint8_t((v >> i) & 1u);
            } else if ((v >> i) & 1u) {
                throw std::logic_error("ise_encode: a set bit falls past the end of the stream");
            }
        }
    };
    for (unsigned v : values)
        if (v > r.max_value())
            throw std::invalid_argument("ise_encode: value " + std::to_string(v) + " out of range 0.." +
                                        std::to_string(r.max_value()));
    if (!r.trits && !r.quints) {
        for (unsigned i = 0; i < count; ++i) put(i * n, n, values[i]);
        return out;
    }
    const unsigned per_block = r.trits ? 5 : 3, code_bits = r.trits ? 8 : 7;
    const unsigned block_bits = code_bits + per_block * n;
    for (unsigned first = 0; first < count; first += per_block) {
        const unsigned k = std::min(per_block, count - first);
        const unsigned start = (first / per_block) * block_bits;
        unsigned hi[5] = {0, 0, 0, 0, 0};
        for (unsigned j = 0; j < k; ++j) {
            hi[j] = values[first + j] >> n;
            const unsigned pos = start + (r.trits ? trit_value_position(j, n) : quint_value_position(j, n));
            put(pos, n, values[first + j] & ((1u << n) - 1u));
        }
        // Every code whose decode gives these k values and whose bits past the stream end are 0.
        std::vector<unsigned> candidates;
        for (unsigned code = 0; code < (1u << code_bits); ++code) {
            bool ok = true;
            for (unsigned j = 0; j < k && ok; ++j)
                ok = (r.trits ? trit_table()[code][j] : quint_table()[code][j]) == hi[j];
            for (unsigned b = 0; b < code_bits && ok; ++b) {
                const unsigned pos = start + (r.trits ? trit_bit_position(b, n) : quint_bit_position(b, n));
                if (pos >= total && ((code >> b) & 1u)) ok = false;
            }
            if (ok) candidates.push_back(code);
        }
        if (candidates.empty()) throw std::logic_error("ise_encode: no packed code for a block (bug in the builder)");
        const unsigned code = rng ? candidates[rng->next() % candidates.size()] : candidates.front();
        for (unsigned b = 0; b < code_bits; ++b)
            put(start + (r.trits ? trit_bit_position(b, n) : quint_bit_position(b, n)), 1, (code >> b) & 1u);
    }
    return out;
}

// ---- block mode -----------------------------------------------------------------------------

IseRange astc_weight_range(unsigned index) {
    // "ASTC weight range encodings": (trits, quints, bits) for P=0 rho=2..7, then P=1 rho=2..7.
    static const IseRange table[12] = {
        {0, 0, 1}, {1, 0, 0}, {0, 0, 2}, {0, 1, 0}, {1, 0, 1}, {0, 0, 3},   // 0..1 .. 0..7
        {0, 1, 1}, {1, 0, 2}, {0, 0, 4}, {0, 1, 2}, {1, 0, 3}, {0, 0, 5}};  // 0..9 .. 0..31
    if (index >= 12) throw std::invalid_argument("astc_weight_range: index out of range");
    return table[index];
}

// The end both block-mode layouts share: rho from bits 1, 0, 4 (bits 1:0 != 0) or bits 3, 2, 4
// (the other rows), P from bit 9 and DP from bit 10 (both 0 where bits 10:9 are a grid size), the
// weight range P * 6 + rho - 2 (rho < 2: reserved), dual plane from DP.
static std::optional<AstcBlockMode> with_weight_range(AstcBlockMode r, uint32_t m, bool grid_in_bits_10_9) {
    auto b = [m](unsigned i) { return (m >> i) & 1u; };
    const unsigned rho = (m & 3u) != 0 ? (b(1) << 2) | (b(0) << 1) | b(4) : (b(3) << 2) | (b(2) << 1) | b(4);
    const unsigned P = grid_in_bits_10_9 ? 0 : b(9), DP = grid_in_bits_10_9 ? 0 : b(10);
    if (rho < 2) return std::nullopt;
    r.weight_range = P * 6 + (rho - 2);
    r.dual_plane = DP != 0;
    return r;
}

std::optional<AstcBlockMode> astc_parse_block_mode_2d(uint32_t m) {
    auto b = [m](unsigned i) { return (m >> i) & 1u; };
    auto f = [m](unsigned lo, unsigned count) { return (m >> lo) & ((1u << count) - 1u); };
    AstcBlockMode r;
    bool grid_in_bits_10_9 = false;
    if (f(0, 2) != 0) {
        const unsigned A = f(7, 2), B = f(5, 2);
        switch (f(2, 2)) {
        case 0: r.grid_w = A + 4, r.grid_h = B + 2; break;
        case 1: r.grid_w = A + 8, r.grid_h = B + 2; break;
        case 2: r.grid_w = B + 2, r.grid_h = A + 8; break;  // bits 8:7 are H, 6:5 are W
        default:
            if (b(8) == 0) r.grid_w = B + 2, r.grid_h = b(7) + 6;  // DP P 0 H W W
            else r.grid_w = b(7) + 2, r.grid_h = B + 2;              // DP P 1 W H H
            break;
        }
    } else {
        if (f(2, 2) == 0) return std::nullopt;  // rho2 = rho1 = 0: reserved (last row)
        const unsigned B = f(5, 2);
        switch (f(7, 2)) {
        case 0: r.grid_w = 12, r.grid_h = B + 2; break;
        case 1: r.grid_w = B + 2, r.grid_h = 12; break;
        case 2:
            r.grid_w = B + 6, r.grid_h = f(9, 2) + 6;  // H H 1 0 W W: bits 10:9 are H, DP = P = 0
            grid_in_bits_10_9 = true;
            break;
        default:
            if (b(6) == 0) {
                if (b(5) == 0) r.grid_w = 6, r.grid_h = 10;
                else r.grid_w = 10, r.grid_h = 6;
            } else {
                return std::nullopt;  // 111xxxx00: reserved, or the void-extent pattern 111111100
            }
            break;
        }
    }
    return with_weight_range(r, m, grid_in_bits_10_9);
}

std::optional<AstcBlockMode> astc_parse_block_mode_3d(uint32_t m) {
    auto f = [m](unsigned lo, unsigned count) { return (m >> lo) & ((1u << count) - 1u); };
    AstcBlockMode r;
    bool grid_in_bits_10_9 = false;
    if (f(0, 2) != 0) {
        // First row: DP P H H W W rho0 D D rho2 rho1.
        r.grid_w = f(5, 2) + 2, r.grid_h = f(7, 2) + 2, r.grid_d = f(2, 2) + 2;
    } else {
        if (f(2, 2) == 0) return std::nullopt;  // rho2 = rho1 = 0: reserved (last row)
        const unsigned top = f(9, 2), B = f(5, 2);
        switch (f(7, 2)) {
        case 0: r.grid_w = 6, r.grid_h = top + 2, r.grid_d = B + 2, grid_in_bits_10_9 = true; break;  // H H 0 0 D D
        case 1: r.grid_w = B + 2, r.grid_h = 6, r.grid_d = top + 2, grid_in_bits_10_9 = true; break;  // D D 0 1 W W
        case 2: r.grid_w = B + 2, r.grid_h = top + 2, r.grid_d = 6, grid_in_bits_10_9 = true; break;  // H H 1 0 W W
        default:
            if (B == 0) r.grid_w = 6, r.grid_h = 2, r.grid_d = 2;
            else if (B == 1) r.grid_w = 2, r.grid_h = 6, r.grid_d = 2;
            else if (B == 2) r.grid_w = 2, r.grid_h = 2, r.grid_d = 6;
            else return std::nullopt;  // 1111xxx00: reserved, or the void-extent pattern 111111100
            break;
        }
    }
    return with_weight_range(r, m, grid_in_bits_10_9);
}

std::optional<AstcBlockMode> astc_parse_block_mode(uint32_t mode11, unsigned footprint_d) {
    return footprint_d > 1 ? astc_parse_block_mode_3d(mode11) : astc_parse_block_mode_2d(mode11);
}

unsigned astc_weight_count(const AstcBlockMode& m) { return m.grid_w * m.grid_h * m.grid_d * (m.dual_plane ? 2 : 1); }

unsigned astc_weight_bits(const AstcBlockMode& m) {
    return ise_bit_count(astc_weight_range(m.weight_range), astc_weight_count(m));
}

bool astc_block_mode_fits(const AstcBlockMode& m, unsigned fw, unsigned fh) { return astc_block_mode_fits_3d(m, fw, fh, 1); }

bool astc_block_mode_fits_3d(const AstcBlockMode& m, unsigned fw, unsigned fh, unsigned fd) {
    const unsigned bits = astc_weight_bits(m);
    return m.grid_w <= fw && m.grid_h <= fh && m.grid_d <= fd && astc_weight_count(m) <= 64 && bits >= 24 && bits <= 96;
}

std::vector<uint32_t> astc_legal_block_modes_2d(unsigned fw, unsigned fh) { return astc_legal_block_modes_3d(fw, fh, 1); }

std::vector<uint32_t> astc_legal_block_modes_3d(unsigned fw, unsigned fh, unsigned fd) {
    std::vector<uint32_t> out;
    for (uint32_t m = 0; m < 2048; ++m) {
        const auto mode = astc_parse_block_mode(m, fd);
        if (mode && astc_block_mode_fits_3d(*mode, fw, fh, fd)) out.push_back(m);
    }
    return out;
}

// ---- colour ranges --------------------------------------------------------------------------

const std::vector<IseRange>& astc_colour_ranges_descending() {
    // 0..255, 0..191, 0..159, 0..127, 0..95, 0..79, 0..63, 0..47, 0..39, 0..31, 0..23, 0..19,
    // 0..15, 0..11, 0..9, 0..7, 0..5 (the ranges of "ASTC color unquantization parameters" plus
    // the pure-bit ones).
    static const std::vector<IseRange> list = {
        {0, 0, 8}, {1, 0, 6}, {0, 1, 5}, {0, 0, 7}, {1, 0, 5}, {0, 1, 4}, {0, 0, 6}, {1, 0, 4}, {0, 1, 3},
        {0, 0, 5}, {1, 0, 3}, {0, 1, 2}, {0, 0, 4}, {1, 0, 2}, {0, 1, 1}, {0, 0, 3}, {1, 0, 1}};
    return list;
}

// ---- a whole block --------------------------------------------------------------------------

namespace {

// The base class of the per-partition CEM form, or throws if the CEMs do not share one.
unsigned base_class_of(const AstcBlockSpec& s) {
    unsigned lo = 3, hi = 0;
    for (unsigned p = 0; p < s.partitions; ++p) {
        lo = std::min(lo, astc_cem_class(s.cem[p]));
        hi = std::max(hi, astc_cem_class(s.cem[p]));
    }
    const unsigned base = std::min(lo, 2u);
    if (hi > base + 1) throw std::invalid_argument("CEM classes differ by more than one: no per-partition encoding");
    return base;
}

}  // namespace

AstcBlockPlan astc_plan_block(const AstcBlockSpec& s, unsigned fw, unsigned fh) { return astc_plan_block_3d(s, fw, fh, 1); }

AstcBlockPlan astc_plan_block_3d(const AstcBlockSpec& s, unsigned fw, unsigned fh, unsigned fd) {
    const auto mode = astc_parse_block_mode(s.block_mode, fd);
    if (!mode) throw std::invalid_argument("astc_plan_block: block mode " + std::to_string(s.block_mode) + " is reserved");
    if (s.partitions < 1 || s.partitions > 4) throw std::invalid_argument("astc_plan_block: partitions must be 1..4");
    for (unsigned p = 0; p < s.partitions; ++p)
        if (s.cem[p] > 15) throw std::invalid_argument("astc_plan_block: CEM > 15");
    AstcBlockPlan plan;
    plan.mode = *mode;
    plan.weight_count = astc_weight_count(*mode);
    plan.weight_bits = astc_weight_bits(*mode);
    if (s.partitions == 1) {
        plan.config_bits = 17;
        plan.colour_start = 17;
    } else {
        plan.colour_start = 29;
        if (s.shared_cem) {
            for (unsigned p = 1; p < s.partitions; ++p)
                if (s.cem[p] != s.cem[0]) throw std::invalid_argument("astc_plan_block: shared CEM form with different CEMs");
            plan.config_bits = 29;
        } else {
            base_class_of(s);  // throws if not encodable
            plan.config_bits = 25 + 3 * s.partitions;
            plan.extra_cem_bits = 3 * s.partitions - 4;
        }
    }
    if (mode->dual_plane) plan.config_bits += 2;
    for (unsigned p = 0; p < s.partitions; ++p) plan.colour_value_count += astc_cem_value_count(s.cem[p]);

    auto illegal = [&](const std::string& why) {
        if (plan.why_illegal.empty()) plan.why_illegal = why;
    };
    if (mode->grid_w > fw || mode->grid_h > fh || mode->grid_d > fd) illegal("weight grid larger than the footprint");
    if (plan.weight_count > 64) illegal("more than 64 weights");
    if (plan.weight_bits > 96) illegal("more than 96 weight bits");
    if (plan.weight_bits < 24) illegal("fewer than 24 weight bits");
    if (mode->dual_plane && s.partitions == 4) illegal("dual plane with 4 partitions");
    if (plan.colour_value_count > 18) illegal("more than 18 colour values");
    const int remaining = 128 - int(plan.config_bits) - int(plan.weight_bits);
    plan.remaining_bits = remaining > 0 ? unsigned(remaining) : 0;
    bool found = false;
    for (const IseRange& r : astc_colour_ranges_descending()) {
        if (remaining >= 0 && ise_bit_count(r, plan.colour_value_count) <= unsigned(remaining)) {
            plan.colour_range = r;
            plan.colour_bits = ise_bit_count(r, plan.colour_value_count);
            found = true;
            break;
        }
    }
    if (!found) illegal("too few bits for the colour values");
    plan.legal = plan.why_illegal.empty();
    return plan;
}

AstcBlock astc_build_block(const AstcBlockSpec& s, unsigned fw, unsigned fh, SplitMix64* rng, bool allow_illegal) {
    return astc_build_block_3d(s, fw, fh, 1, rng, allow_illegal);
}

AstcBlock astc_build_block_3d(const AstcBlockSpec& s, unsigned fw, unsigned fh, unsigned fd, SplitMix64* rng,
                              bool allow_illegal) {
    const AstcBlockPlan plan = astc_plan_block_3d(s, fw, fh, fd);
    if (!plan.legal && !allow_illegal) throw std::invalid_argument("astc_build_block: illegal block: " + plan.why_illegal);
    const bool write_weights = plan.legal || (!s.weights.empty() && plan.config_bits + plan.weight_bits <= 128);
    const bool write_colours = plan.legal;
    if (write_weights && s.weights.size() != plan.weight_count)
        throw std::invalid_argument("astc_build_block: " + std::to_string(s.weights.size()) + " weights, need " +
                                    std::to_string(plan.weight_count));
    if (write_colours && s.colours.size() != plan.colour_value_count)
        throw std::invalid_argument("astc_build_block: " + std::to_string(s.colours.size()) + " colour values, need " +
                                    std::to_string(plan.colour_value_count));
    AstcBlock block{};
    uint8_t* b = block.data();
    // Everything first random (or zero): the bits the spec leaves unallocated keep it.
    if (rng)
        for (unsigned i = 0; i < 16; i += 8) {
            const uint64_t v = rng->next();
            for (unsigned j = 0; j < 8; ++j) b[i + j] = uint8_t(v >> (8 * j));
        }
    astc_set_bits(b, 0, 11, s.block_mode);
    astc_set_bits(b, 11, 2, s.partitions - 1);
    // Lowest bit holding weight data (an illegal plan may claim more weight bits than the block has).
    const unsigned weight_start = plan.weight_bits < 128 - plan.colour_start ? 128 - plan.weight_bits : 128;
    unsigned below = weight_start;                          // fields stack downwards from here
    if (s.partitions == 1) {
        astc_set_bits(b, 13, 4, s.cem[0]);
    } else {
        astc_set_bits(b, 13, 10, s.partition_seed);
        if (s.shared_cem) {
            astc_set_bits(b, 23, 2, 0);
            astc_set_bits(b, 25, 4, s.cem[0]);
        } else {
            // "Color Endpoint Mode": selector = base class + 1 in bits 23..24, then one class bit
            // C_i per partition, then the two-bit M_i per partition; the first 6 bits of this
            // field are bits 23..28, the rest sit directly below the weight data.
            const unsigned base = base_class_of(s), p = s.partitions;
            uint32_t field = base + 1;
            for (unsigned i = 0; i < p; ++i) {
                field |= (astc_cem_class(s.cem[i]) - base) << (2 + i);
                field |= (s.cem[i] & 3u) << (2 + p + 2 * i);
            }
            astc_set_bits(b, 23, 6, field & 0x3Fu);
            if (below >= 29 + plan.extra_cem_bits) {
                below -= plan.extra_cem_bits;
                astc_set_bits(b, below, plan.extra_cem_bits, field >> 6);
            }
        }
    }
    if (plan.mode.dual_plane && below >= plan.colour_start + 2) {
        below -= 2;
        astc_set_bits(b, below, 2, s.ccs);  // "Dual-Plane Decoding": CCS below weights and extra CEM bits
    }
    if (write_colours) {
        if (plan.colour_start + plan.colour_bits > below) throw std::logic_error("astc_build_block: colour data overlaps");
        const std::vector<uint8_t> colour_stream = ise_encode(plan.colour_range, s.colours, rng);
        for (unsigned i = 0; i < colour_stream.size(); ++i) astc_set_bits(b, plan.colour_start + i, 1, colour_stream[i]);
    }
    if (write_weights) {
        // "Weight Decoding": stream bit n is block bit 127 - n.
        const std::vector<uint8_t> weight_stream = ise_encode(astc_weight_range(plan.mode.weight_range), s.weights, rng);
        for (unsigned i = 0; i < weight_stream.size(); ++i) astc_set_bits(b, 127 - i, 1, weight_stream[i]);
    }
    return block;
}

AstcBlock astc_build_random_block(AstcBlockSpec spec, unsigned fw, unsigned fh, SplitMix64& rng) {
    return astc_build_random_block_3d(std::move(spec), fw, fh, 1, rng);
}

AstcBlock astc_build_random_block_3d(AstcBlockSpec spec, unsigned fw, unsigned fh, unsigned fd, SplitMix64& rng) {
    const AstcBlockPlan plan = astc_plan_block_3d(spec, fw, fh, fd);
    if (!plan.legal) throw std::invalid_argument("astc_build_random_block: illegal block: " + plan.why_illegal);
    const unsigned wl = astc_weight_range(plan.mode.weight_range).levels(), cl = plan.colour_range.levels();
    spec.weights.resize(plan.weight_count);
    for (unsigned& w : spec.weights) w = unsigned(rng.next() % wl);
    spec.colours.resize(plan.colour_value_count);
    for (unsigned& c : spec.colours) c = unsigned(rng.next() % cl);
    return astc_build_block_3d(spec, fw, fh, fd, &rng);
}

std::optional<AstcBlockSpec> astc_random_legal_spec(const std::vector<uint32_t>& modes, unsigned fw, unsigned fh,
                                                    const AstcSpecRequest& q, SplitMix64& rng, int tries) {
    return astc_random_legal_spec_3d(modes, fw, fh, 1, q, rng, tries);
}

std::optional<AstcBlockSpec> astc_random_legal_spec_3d(const std::vector<uint32_t>& modes, unsigned fw, unsigned fh,
                                                       unsigned fd, const AstcSpecRequest& q, SplitMix64& rng,
                                                       int tries) {
    std::vector<uint32_t> pool;
    if (q.block_mode >= 0) {
        pool.push_back(uint32_t(q.block_mode));
    } else {
        for (uint32_t m : modes) {
            const auto mode = astc_parse_block_mode(m, fd);
            if (mode && (q.dual_plane < 0 || mode->dual_plane == (q.dual_plane == 1))) pool.push_back(m);
        }
    }
    if (pool.empty()) return std::nullopt;
    auto pick = [&](unsigned n) { return unsigned(rng.next() % n); };
    for (int attempt = 0; attempt < tries; ++attempt) {
        AstcBlockSpec s;
        s.block_mode = pool[pick(unsigned(pool.size()))];
        const auto mode = astc_parse_block_mode(s.block_mode, fd);
        if (!mode) return std::nullopt;
        const unsigned max_partitions = mode->dual_plane ? 3 : 4;
        s.partitions = q.partitions > 0 ? unsigned(q.partitions) : 1 + pick(max_partitions);
        s.partition_seed = q.seed >= 0 ? unsigned(q.seed) : pick(1024);
        s.ccs = q.ccs >= 0 ? unsigned(q.ccs) : pick(4);
        s.shared_cem = s.partitions == 1 || (q.shared_cem >= 0 ? q.shared_cem == 1 : pick(2) == 0);
        if (s.shared_cem) {
            const unsigned cem = q.cem >= 0 ? unsigned(q.cem) : pick(16);
            for (unsigned p = 0; p < 4; ++p) s.cem[p] = cem;
        } else {
            // Per-partition classes: base class c, each partition class c or c + 1.
            const unsigned first = q.cem >= 0 ? unsigned(q.cem) : pick(16);
            const unsigned cls = astc_cem_class(first);
            const unsigned base = cls == 0 ? 0 : cls == 3 ? 2 : cls - pick(2);
            s.cem[0] = first;
            for (unsigned p = 1; p < s.partitions; ++p) s.cem[p] = (base + pick(2)) * 4 + pick(4);
            for (unsigned p = s.partitions; p < 4; ++p) s.cem[p] = 0;
        }
        const AstcBlockPlan plan = astc_plan_block_3d(s, fw, fh, fd);
        if (plan.legal && (q.colour_levels < 0 || plan.colour_range.levels() == unsigned(q.colour_levels))) return s;
    }
    return std::nullopt;
}

// ---- HDR endpoint mode fields ---------------------------------------------------------------

namespace {

struct FieldBit {
    unsigned value, bit;
};

// The positions of each field's bits, low bit first (the spec's decoding code for modes 3, 7,
// 11 and 15: "(v0 & 0x80)", "((v0&0xC0)>>6) | ((v1&0x80)>>5) | ((v2&0x80)>>4)",
// "((v4 & 0x80) >> 7) | ((v5 & 0x80) >> 6)", "((v1&0x80)>>7) | ((v2&0x80)>>6) | ((v3&0x80)>>5)",
// "((v6 >> 7) & 1) | ((v7 >> 6) & 2)").
std::vector<FieldBit> field_positions(AstcHdrField f) {
    switch (f) {
    case AstcHdrField::mode3_m: return {{0, 7}};
    case AstcHdrField::mode7_modeval: return {{0, 6}, {0, 7}, {1, 7}, {2, 7}};
    case AstcHdrField::mode11_majcomp: return {{4, 7}, {5, 7}};
    case AstcHdrField::mode11_mode: return {{1, 7}, {2, 7}, {3, 7}};
    case AstcHdrField::mode15_alpha_mode: return {{6, 7}, {7, 7}};
    }
    throw std::invalid_argument("unknown AstcHdrField");
}

}  // namespace

unsigned astc_hdr_field_bits(AstcHdrField f) { return unsigned(field_positions(f).size()); }

unsigned astc_hdr_field(AstcHdrField f, const unsigned* v) {
    const std::vector<FieldBit> pos = field_positions(f);
    unsigned out = 0;
    for (size_t i = 0; i < pos.size(); ++i) out |= ((v[pos[i].value] >> pos[i].bit) & 1u) << i;
    return out;
}

void astc_set_hdr_field(AstcHdrField f, unsigned* v, unsigned value) {
    const std::vector<FieldBit> pos = field_positions(f);
    for (size_t i = 0; i < pos.size(); ++i) {
        const FieldBit p = pos[i];
        v[p.value] = (v[p.value] & ~(1u << p.bit)) | (((value >> i) & 1u) << p.bit);
    }
}

// ---- void extents ---------------------------------------------------------------------------

AstcBlock astc_build_void_extent(const AstcVoidExtent& v) {
    AstcBlock block{};
    uint8_t* b = block.data();
    astc_set_bits(b, 0, 9, 0x1FC);  // bits 8..0 = 111111100
    astc_set_bits(b, 9, 1, v.hdr ? 1 : 0);
    astc_set_bits(b, 10, 2, v.reserved);
    astc_set_bits(b, 12, 13, v.min_s);
    astc_set_bits(b, 25, 13, v.max_s);
    astc_set_bits(b, 38, 13, v.min_t);
    astc_set_bits(b, 51, 13, v.max_t);
    for (unsigned c = 0; c < 4; ++c) astc_set_bits(b, 64 + 16 * c, 16, v.rgba[c]);
    return block;
}

bool astc_void_extent_legal(const AstcVoidExtent& v) {
    if (v.reserved != 3) return false;
    const bool all_ones = v.min_s == 0x1FFF && v.max_s == 0x1FFF && v.min_t == 0x1FFF && v.max_t == 0x1FFF;
    return all_ones || (v.min_s < v.max_s && v.min_t < v.max_t);
}

AstcBlock astc_build_void_extent_3d(const AstcVoidExtent3d& v) {
    AstcBlock block{};
    uint8_t* b = block.data();
    astc_set_bits(b, 0, 9, 0x1FC);  // bits 8..0 = 111111100
    astc_set_bits(b, 9, 1, v.hdr ? 1 : 0);
    // "ASTC 3D void-extent block layout overview": six 9-bit coordinates from bit 10.
    const unsigned coords[6] = {v.min_s, v.max_s, v.min_t, v.max_t, v.min_r, v.max_r};
    for (unsigned i = 0; i < 6; ++i) astc_set_bits(b, 10 + 9 * i, 9, coords[i]);
    for (unsigned c = 0; c < 4; ++c) astc_set_bits(b, 64 + 16 * c, 16, v.rgba[c]);
    return block;
}

bool astc_void_extent_3d_legal(const AstcVoidExtent3d& v) {
    const bool all_ones = (v.min_s & v.max_s & v.min_t & v.max_t & v.min_r & v.max_r) == 0x1FF;
    return all_ones || (v.min_s < v.max_s && v.min_t < v.max_t && v.min_r < v.max_r);
}

}  // namespace texdec_test

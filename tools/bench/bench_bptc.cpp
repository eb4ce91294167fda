// The bench's multi-mode BC7 and BC6H encoders (see bench_bptc.h). Block layouts, partition
// shapes, anchors and weights follow the Khronos Data Format Specification, "BPTC Compressed
// Texture Image Formats"; the tables come from luts/ (the project's own, typed from the spec).
#include "bench_bptc.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>
#include <vector>

#include "luts/bc6h_modes.h"
#include "luts/bptc_tables.h"

namespace bench {
namespace {

namespace luts = texdec::luts;

struct Tables {
    std::array<std::array<uint8_t, 16>, luts::kBptcShapeCount> partition[4];  // [subsets 1..3][shape]
    uint8_t anchor[4][luts::kBptcShapeCount][3];                              // [subsets][shape][subset]
    std::vector<uint8_t> weights[5];                                          // [index bits 2..4]
    std::vector<luts::Bc6hBitSource> bc6h_header[luts::kBc6hModeCount];
};

const Tables& tables() {
    static const Tables t = [] {
        Tables x{};
        for (int subsets = 1; subsets <= 3; ++subsets)
            for (int shape = 0; shape < luts::kBptcShapeCount; ++shape) {
                x.partition[subsets][size_t(shape)] = luts::bptc_partition(subsets, shape);
                for (int s = 0; s < subsets; ++s) x.anchor[subsets][shape][s] = luts::bptc_anchor(subsets, shape, s);
            }
        for (int bits = 2; bits <= 4; ++bits) x.weights[bits] = luts::bptc_weights(bits);
        for (int m = 0; m < luts::kBc6hModeCount; ++m) x.bc6h_header[m] = luts::bc6h_header_bit_sources(m);
        return x;
    }();
    return t;
}

int interpolate(int e0, int e1, int weight) { return ((64 - weight) * e0 + weight * e1 + 32) >> 6; }

// Writes the low `count` bits of `value` at bit `pos` of a 16-byte block (bit 0 = bit 0 of byte 0).
void put_bits(uint8_t out[16], unsigned& pos, unsigned count, uint64_t value) {
    for (unsigned i = 0; i < count; ++i, ++pos)
        if ((value >> i) & 1) out[pos / 8] |= uint8_t(1u << (pos % 8));
}

// The shape (of the first `shapes`) of a `subsets`-subset partitioning whose subsets are most
// compact: the least sum of squared distances of the texels to their subset's mean.
int best_shape(const int texels[16][4], int channels, int subsets, int shapes) {
    int best = 0;
    int64_t best_cost = INT64_MAX;
    for (int shape = 0; shape < shapes; ++shape) {
        const auto& part = tables().partition[subsets][size_t(shape)];
        int64_t sum[3][4] = {}, sum2[3] = {}, count[3] = {};
        for (int i = 0; i < 16; ++i) {
            const int s = part[size_t(i)];
            ++count[s];
            for (int c = 0; c < channels; ++c)
                sum[s][c] += texels[i][c], sum2[s] += int64_t(texels[i][c]) * texels[i][c];
        }
        int64_t cost = 0;  // sum of squares - (sum)^2 / n, scaled by n to stay in integers
        for (int s = 0; s < subsets; ++s) {
            if (!count[s]) continue;
            int64_t c2 = 0;
            for (int c = 0; c < channels; ++c) c2 += sum[s][c] * sum[s][c];
            cost += (sum2[s] * count[s] - c2) * 16 / count[s];
        }
        if (cost < best_cost) best_cost = cost, best = shape;
    }
    return best;
}

// Nearest of the 2^bits weights on the line e0 -> e1 for each texel of `subset` (channels
// [first, first + channels)); returns the squared error.
int64_t nearest_indices(const int texels[16][4], const uint8_t* part, int subset, const int e0[4], const int e1[4],
                        int first, int channels, int bits, int index[16]) {
    const std::vector<uint8_t>& w = tables().weights[bits];
    int64_t error = 0;
    for (int i = 0; i < 16; ++i) {
        if (part[i] != subset) continue;
        int64_t best = INT64_MAX;
        for (int k = 0; k < (1 << bits); ++k) {
            int64_t d = 0;
            for (int c = first; c < first + channels; ++c) {
                const int v = interpolate(e0[c], e1[c], w[size_t(k)]) - texels[i][c];
                d += int64_t(v) * v;
            }
            if (d < best) best = d, index[i] = k;
        }
        error += best;
    }
    return error;
}

// ---- BC7 ----------------------------------------------------------------------------------------

using luts::Bc7Mode;  // "Mode-dependent BPTC parameters"
using luts::kBc7Modes;

// A code of `bits` bits (plus P-bit p when p >= 0) expanded to a byte by bit replication.
int expand(int code, int bits, int p) {
    if (p >= 0) code = (code << 1) | p, ++bits;
    const int v = code << (8 - bits);
    return v | (v >> bits);
}

// The code of [guess - 1, guess + 1] (within [0, top]) whose value decode(code) is nearest to v;
// the lowest of equally near ones.
template <class Decode>
int nearest_code(int v, int guess, int top, const Decode& decode) {
    int best = 0, best_d = INT_MAX;
    for (int code = std::max(0, guess - 1); code <= std::min(top, guess + 1); ++code) {
        const int d = std::abs(decode(code) - v);
        if (d < best_d) best_d = d, best = code;
    }
    return best;
}

// The code of `bits` bits (with P-bit p, or none for p < 0) whose expansion is nearest to v.
int quantize(int v, int bits, int p) {
    const int top = (1 << bits) - 1;
    return nearest_code(v, (v * top + 127) / 255, top, [&](int code) { return expand(code, bits, p); });
}

struct Bc7Candidate {
    int64_t error = INT64_MAX;
    uint8_t block[16];
    int decoded[16][4];
};

// Encodes in `mode` with partition shape `shape` (index selection `isel` for mode 4), rotation 0.
void try_bc7(const int texels[16][4], int mode, int shape, int isel, Bc7Candidate& best) {
    const Bc7Mode& m = kBc7Modes[mode];
    const auto& part = tables().partition[m.subsets][size_t(shape)];
    const int pbits = m.endpoint_pbits ? 2 : m.shared_pbits ? 1 : 0;  // per subset
    const bool separate_alpha = m.secondary_index_bits > 0;
    const int colour_index_bits = isel ? m.secondary_index_bits : m.index_bits;
    const int alpha_index_bits = isel ? m.index_bits : m.secondary_index_bits;
    const int channels = (m.alpha_bits && !separate_alpha) ? 4 : 3;
    int code[3][2][4] = {}, p[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}}, e[3][2][4];
    for (int s = 0; s < m.subsets; ++s) {
        int lo[4] = {255, 255, 255, 255}, hi[4] = {0, 0, 0, 0};
        for (int i = 0; i < 16; ++i)
            if (part[size_t(i)] == s)
                for (int c = 0; c < 4; ++c)
                    lo[c] = std::min(lo[c], texels[i][c]), hi[c] = std::max(hi[c], texels[i][c]);
        const int* target[2] = {lo, hi};
        // P-bits: the choice with the least quantization error over the endpoint's channels.
        auto fit = [&](int k, int pk) {  // endpoint k with P-bit pk: its squared error
            int err = 0;
            for (int c = 0; c < channels; ++c) {
                const int bits = c < 3 ? m.colour_bits : m.alpha_bits;
                code[s][k][c] = quantize(target[k][c], bits, pk);
                const int d = expand(code[s][k][c], bits, pk) - target[k][c];
                err += d * d;
            }
            return err;
        };
        if (pbits == 2) {
            for (int k = 0; k < 2; ++k) p[s][k] = fit(k, 0) <= fit(k, 1) ? 0 : 1, fit(k, p[s][k]);
        } else if (pbits == 1) {
            const int shared = fit(0, 0) + fit(1, 0) <= fit(0, 1) + fit(1, 1) ? 0 : 1;
            p[s][0] = p[s][1] = shared;
            fit(0, shared), fit(1, shared);
        } else {
            fit(0, -1), fit(1, -1);
        }
        if (separate_alpha)
            for (int k = 0; k < 2; ++k) code[s][k][3] = quantize(target[k][3], m.alpha_bits, -1);
        for (int k = 0; k < 2; ++k)
            for (int c = 0; c < 4; ++c)
                e[s][k][c] = c == 3 && !m.alpha_bits ? 255
                                                     : expand(code[s][k][c], c < 3 ? m.colour_bits : m.alpha_bits,
                                                              c == 3 && separate_alpha ? -1 : p[s][k]);
    }
    // Indices, then the anchor rule: an anchor's index has its top bit 0 (else swap and invert).
    int index[16] = {}, alpha_index[16] = {};
    for (int s = 0; s < m.subsets; ++s) {
        nearest_indices(texels, part.data(), s, e[s][0], e[s][1], 0, channels, colour_index_bits, index);
        const int anchor = tables().anchor[m.subsets][shape][s];
        if (index[anchor] >> (colour_index_bits - 1)) {
            for (int i = 0; i < 16; ++i)
                if (part[size_t(i)] == s) index[i] = (1 << colour_index_bits) - 1 - index[i];
            for (int c = 0; c < channels; ++c)
                std::swap(code[s][0][c], code[s][1][c]), std::swap(e[s][0][c], e[s][1][c]);
            if (pbits == 2) std::swap(p[s][0], p[s][1]);
        }
    }
    if (separate_alpha) {
        nearest_indices(texels, part.data(), 0, e[0][0], e[0][1], 3, 1, alpha_index_bits, alpha_index);
        if (alpha_index[0] >> (alpha_index_bits - 1)) {
            for (int i = 0; i < 16; ++i) alpha_index[i] = (1 << alpha_index_bits) - 1 - alpha_index[i];
            std::swap(code[0][0][3], code[0][1][3]), std::swap(e[0][0][3], e[0][1][3]);
        }
    }
    Bc7Candidate c;
    c.error = 0;
    for (int i = 0; i < 16; ++i) {
        const int s = part[size_t(i)];
        const int cw = tables().weights[colour_index_bits][size_t(index[i])];
        const int aw = separate_alpha ? tables().weights[alpha_index_bits][size_t(alpha_index[i])] : cw;
        for (int ch = 0; ch < 4; ++ch) {
            c.decoded[i][ch] = interpolate(e[s][0][ch], e[s][1][ch], ch == 3 ? aw : cw);
            const int d = c.decoded[i][ch] - texels[i][ch];
            c.error += d * d;
        }
    }
    if (c.error >= best.error) return;
    std::memset(c.block, 0, 16);
    unsigned pos = 0;
    put_bits(c.block, pos, unsigned(mode) + 1, 1u << mode);
    put_bits(c.block, pos, unsigned(m.partition_bits), unsigned(shape));
    put_bits(c.block, pos, unsigned(m.rotation_bits), 0);
    put_bits(c.block, pos, unsigned(m.index_selection_bits), unsigned(isel));
    for (int ch = 0; ch < (m.alpha_bits ? 4 : 3); ++ch)
        for (int s = 0; s < m.subsets; ++s)
            for (int k = 0; k < 2; ++k)
                put_bits(c.block, pos, unsigned(ch < 3 ? m.colour_bits : m.alpha_bits), unsigned(code[s][k][ch]));
    for (int s = 0; s < m.subsets; ++s)
        for (int k = 0; k < pbits; ++k) put_bits(c.block, pos, 1, unsigned(p[s][k]));
    auto put_indices = [&](const int* idx, int bits, bool anchors_of_subsets) {
        for (int i = 0; i < 16; ++i) {
            bool anchor = i == 0;
            if (anchors_of_subsets)
                for (int s = 1; s < m.subsets; ++s) anchor = anchor || tables().anchor[m.subsets][shape][s] == i;
            put_bits(c.block, pos, unsigned(anchor ? bits - 1 : bits), unsigned(idx[i]));
        }
    };
    // Mode 4 with index selection 1: the 2-bit (alpha) indices come first in the block.
    if (separate_alpha && isel) {
        put_indices(alpha_index, alpha_index_bits, false);
        put_indices(index, colour_index_bits, false);
    } else {
        put_indices(index, colour_index_bits, true);
        if (separate_alpha) put_indices(alpha_index, alpha_index_bits, false);
    }
    best = c;
}

// ---- BC6H -------------------------------------------------------------------------------------

// The spec's unquantization of a non-negative endpoint value q of `epb` bits.
int unquantize(int q, int epb, bool is_signed) {
    const int mag = is_signed ? epb - 1 : epb;
    if (epb >= (is_signed ? 16 : 15)) return q;
    if (q == 0) return 0;
    if (q >= (1 << mag) - 1) return is_signed ? 0x7FFF : 0xFFFF;
    return ((q << 15) + 0x4000) >> (epb - 1);
}

int quantize_bc6h(int u, int epb, bool is_signed) {
    const int mag = is_signed ? epb - 1 : epb, top = (1 << mag) - 1;
    const int guess = int((int64_t(u) * top + (is_signed ? 16383 : 32767)) / (is_signed ? 32767 : 65535));
    return nearest_code(u, guess, top, [&](int q) { return unquantize(q, epb, is_signed); });
}

struct Bc6hCandidate {
    int64_t error = INT64_MAX;
    uint8_t block[16];
    int decoded[16][3];
    int number = -1;
};

void try_bc6h(const int texels[16][4], bool is_signed, int ordinal, int shape, Bc6hCandidate& best) {
    const luts::Bc6hMode& m = luts::bc6h_modes()[size_t(ordinal)];
    const int subsets = m.subsets(), epb = m.endpoint_bits;
    const auto& part = tables().partition[subsets][size_t(shape)];
    int q[2][2][3], e[2][2][4] = {};
    for (int s = 0; s < subsets; ++s) {
        int lo[3] = {INT_MAX, INT_MAX, INT_MAX}, hi[3] = {0, 0, 0};
        for (int i = 0; i < 16; ++i)
            if (part[size_t(i)] == s)
                for (int c = 0; c < 3; ++c)
                    lo[c] = std::min(lo[c], texels[i][c]), hi[c] = std::max(hi[c], texels[i][c]);
        for (int c = 0; c < 3; ++c) {
            q[s][0][c] = quantize_bc6h(lo[c], epb, is_signed);
            q[s][1][c] = quantize_bc6h(hi[c], epb, is_signed);
        }
    }
    int index[16] = {};
    for (int s = 0; s < subsets; ++s) {
        for (int k = 0; k < 2; ++k)
            for (int c = 0; c < 3; ++c) e[s][k][c] = unquantize(q[s][k][c], epb, is_signed);
        nearest_indices(texels, part.data(), s, e[s][0], e[s][1], 0, 3, m.index_bits, index);
        const int anchor = tables().anchor[subsets][shape][s];
        if (index[anchor] >> (m.index_bits - 1)) {
            for (int i = 0; i < 16; ++i)
                if (part[size_t(i)] == s) index[i] = (1 << m.index_bits) - 1 - index[i];
            for (int c = 0; c < 3; ++c) std::swap(q[s][0][c], q[s][1][c]), std::swap(e[s][0][c], e[s][1][c]);
        }
    }
    // The header values: E0 as is, E1..E3 as deltas from E0 when transformed (which must fit).
    uint32_t value[14] = {};
    for (int k = 0; k < 2 * subsets; ++k)
        for (int c = 0; c < 3; ++c) {
            int v = q[k / 2][k % 2][c];
            if (k > 0 && m.transformed) {
                const int d = v - q[0][0][c], bits = m.delta_bits[size_t(c)];
                if (d < -(1 << (bits - 1)) || d >= (1 << (bits - 1))) return;
                v = d & ((1 << bits) - 1);
            }
            value[3 * k + c] = uint32_t(v);
        }
    value[luts::kBc6hValuePartition] = uint32_t(shape);
    value[luts::kBc6hValueMode] = m.number;
    Bc6hCandidate c;
    c.error = 0;
    c.number = m.number;
    for (int i = 0; i < 16; ++i) {
        const int s = part[size_t(i)], w = tables().weights[m.index_bits][size_t(index[i])];
        for (int ch = 0; ch < 3; ++ch) {
            c.decoded[i][ch] = interpolate(e[s][0][ch], e[s][1][ch], w);
            const int64_t d = c.decoded[i][ch] - texels[i][ch];
            c.error += d * d;
        }
    }
    if (c.error >= best.error) return;
    std::memset(c.block, 0, 16);
    unsigned pos = 0;
    for (const luts::Bc6hBitSource& b : tables().bc6h_header[ordinal])
        put_bits(c.block, pos, 1, value[b.value] >> b.bit);
    for (int i = 0; i < 16; ++i) {
        const bool anchor = i == 0 || (subsets == 2 && tables().anchor[2][shape][1] == i);
        put_bits(c.block, pos, unsigned(anchor ? m.index_bits - 1 : m.index_bits), unsigned(index[i]));
    }
    best = c;
}

}  // namespace

int encode_bc7_block(const int texels[16][4], uint8_t out[16], int decoded[16][4]) {
    Bc7Candidate best;
    int best_mode = 6;
    const int shape2 = best_shape(texels, 3, 2, 64), shape3 = best_shape(texels, 3, 3, 64);
    const int shape3_16 = best_shape(texels, 3, 3, 16), shape2_alpha = best_shape(texels, 4, 2, 64);
    const struct {
        int mode, shape, isel;
    } tries[] = {
        {6, 0, 0},         {5, 0, 0},     {4, 0, 0}, {4, 0, 1}, {1, shape2, 0}, {3, shape2, 0}, {7, shape2_alpha, 0},
        {0, shape3_16, 0}, {2, shape3, 0}};
    for (const auto& t : tries) {
        const int64_t before = best.error;
        try_bc7(texels, t.mode, t.shape, t.isel, best);
        if (best.error < before) best_mode = t.mode;
    }
    std::memcpy(out, best.block, 16);
    if (decoded) std::memcpy(decoded, best.decoded, sizeof best.decoded);
    return best_mode;
}

int encode_bc6h_block(const int texels[16][3], bool is_signed, uint8_t out[16], int decoded[16][3]) {
    int t[16][4] = {};
    for (int i = 0; i < 16; ++i)
        for (int c = 0; c < 3; ++c) t[i][c] = is_signed ? texels[i][c] * 32767 / 255 : texels[i][c] * 257;
    const int shape = best_shape(t, 3, 2, 32);
    Bc6hCandidate best;
    for (int ordinal = 0; ordinal < luts::kBc6hModeCount; ++ordinal)
        try_bc6h(t, is_signed, ordinal, luts::bc6h_modes()[size_t(ordinal)].subsets() == 2 ? shape : 0, best);
    std::memcpy(out, best.block, 16);
    if (decoded) std::memcpy(decoded, best.decoded, sizeof best.decoded);
    return best.number;
}

}  // namespace bench

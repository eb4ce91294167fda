// BC6H and BC7 block decoders, integer-exact, written from the Khronos Data Format Specification,
// chapter "BPTC Compressed Texture Image Formats", sections "BC7" and
// "BC6H". The spec's tables come from luts/ (typed from the spec and unit-tested there): the
// partition tables bptcP2subset / bptcP3subset, the anchor tables bptcA2index / bptcA32index /
// bptcA33index, "BPTC interpolation factors", and the BC6H "Endpoint and partition parameters for
// BPTC block modes" and "Block descriptions for BC6H block modes".
#include <array>
#include <cstdlib>
#include <vector>

#include "luts/bc6h_modes.h"
#include "luts/bptc_tables.h"
#include "reference/block_decoders.h"
#include "reference/half.h"

namespace texdec_reference::detail {
namespace {

namespace luts = texdec::luts;

// Reads the 128-bit block LSB first ("increasing bit order").
class BitReader {
public:
    explicit BitReader(const uint8_t* block) : block_(block) {}
    uint32_t bit(unsigned position) const { return (block_[position / 8] >> (position % 8)) & 1u; }
    // `count` bits from `position`, the first one in bit 0 of the result.
    uint32_t bits(unsigned position, unsigned count) const {
        uint32_t v = 0;
        for (unsigned i = 0; i < count; ++i) v |= bit(position + i) << i;
        return v;
    }
    // The next `count` bits.
    uint32_t take(unsigned count) {
        const uint32_t v = bits(next_, count);
        next_ += count;
        return v;
    }
    // Moves past `count` bits unread (a BC6H header is longer than one 32-bit read).
    void skip(unsigned count) { next_ += count; }
    unsigned position() const { return next_; }

private:
    const uint8_t* block_;
    unsigned next_ = 0;
};

struct Tables {
    std::array<std::array<uint8_t, 16>, luts::kBptcShapeCount> partition2, partition3;
    std::array<uint8_t, luts::kBptcShapeCount> anchor2, anchor3_second, anchor3_third;
    std::vector<uint8_t> weights[5];  // [index bits 2..4]
    // BC6H: per mode ordinal, what each header bit holds (value 3 * endpoint + channel, PB, M).
    std::vector<luts::Bc6hBitSource> bc6h_header[luts::kBc6hModeCount];
};

const Tables& tables() {
    static const Tables* t = [] {
        auto* x = new Tables;
        for (int shape = 0; shape < luts::kBptcShapeCount; ++shape) {
            x->partition2[size_t(shape)] = luts::bptc_partition(2, shape);
            x->partition3[size_t(shape)] = luts::bptc_partition(3, shape);
            x->anchor2[size_t(shape)] = luts::bptc_anchor(2, shape, 1);
            x->anchor3_second[size_t(shape)] = luts::bptc_anchor(3, shape, 1);
            x->anchor3_third[size_t(shape)] = luts::bptc_anchor(3, shape, 2);
        }
        for (int bits = 2; bits <= 4; ++bits) x->weights[bits] = luts::bptc_weights(bits);
        for (int ordinal = 0; ordinal < luts::kBc6hModeCount; ++ordinal) {
            x->bc6h_header[ordinal] = luts::bc6h_header_bit_sources(ordinal);
            if (int(x->bc6h_header[ordinal].size()) != luts::bc6h_modes()[size_t(ordinal)].header_bits()) std::abort();
        }
        return x;
    }();
    return *t;
}

// "BPTC endpoint interpolation formula" (also used by BC6H on its unquantized integers).
int interpolate(int e0, int e1, int weight) { return ((64 - weight) * e0 + weight * e1 + 32) >> 6; }

// The subset of texel i and whether it is an anchor (its index has one bit less).
struct Partition {
    const uint8_t* subset_of;  // 16 entries
    uint8_t anchors[3];
    int subsets;
};
Partition partition(int subsets, int shape) {
    const Tables& T = tables();
    static const uint8_t kOneSubset[16] = {};
    if (subsets == 1) return {kOneSubset, {0, 0, 0}, 1};
    if (subsets == 2) return {T.partition2[size_t(shape)].data(), {0, T.anchor2[size_t(shape)], 0}, 2};
    return {T.partition3[size_t(shape)].data(), {0, T.anchor3_second[size_t(shape)], T.anchor3_third[size_t(shape)]}, 3};
}
bool is_anchor(const Partition& p, int texel) {
    for (int s = 0; s < p.subsets; ++s)
        if (p.anchors[s] == texel) return true;
    return false;
}

// Reads 16 indices of `bits` bits in y-major order from the reader's position; anchors have one bit less.
void read_indices(BitReader& r, const Partition& p, unsigned bits, uint8_t out[16]) {
    for (int t = 0; t < 16; ++t) out[t] = uint8_t(r.take(is_anchor(p, t) ? bits - 1 : bits));
}

// ---- BC7 ------------------------------------------------------------------------------------

using luts::Bc7Mode;  // "Mode-dependent BPTC parameters"
using luts::kBc7Modes;

// A `bits`-bit value, plus its P-bit below it when there is one, as the high bits of a byte with
// "the top bits of the value ... replicated into any remaining bits" (always >= 5 bits here).
int expand_to_byte(uint32_t value, int bits, int pbit) {
    if (pbit >= 0) value = (value << 1) | uint32_t(pbit), ++bits;
    const uint32_t v = value << (8 - bits);
    return int(v | (v >> bits));
}

// Decodes one BC7 block into 16 RGBA bytes (y-major texel order).
void decode_bc7_rgba(const uint8_t* block, uint8_t out[16][4]) {
    if (block[0] == 0) {  // reserved: "should return 0 for all channels of all texels" (docs/EXACTNESS.md: (0,0,0,0))
        for (int t = 0; t < 16; ++t) out[t][0] = out[t][1] = out[t][2] = out[t][3] = 0;
        return;
    }
    int mode = 0;
    while (!((block[0] >> mode) & 1)) ++mode;
    const Bc7Mode& m = kBc7Modes[mode];
    BitReader r(block);
    r.take(unsigned(mode + 1));
    // "partition pattern selection, rotation, index selection, color, alpha, per-endpoint P-bit,
    // shared P-bit, primary indices, and secondary indices".
    const int shape = int(r.take(unsigned(m.partition_bits)));
    const int rotation = int(r.take(unsigned(m.rotation_bits)));
    const int index_selection = int(r.take(unsigned(m.index_selection_bits)));
    const int endpoints = 2 * m.subsets;
    // "grouped first by endpoint, then by subset, then by channel": endpoint k = 2 * subset + end.
    uint32_t raw[6][4] = {};
    for (int c = 0; c < 3; ++c)
        for (int k = 0; k < endpoints; ++k) raw[k][c] = r.take(unsigned(m.colour_bits));
    for (int k = 0; k < endpoints && m.alpha_bits; ++k) raw[k][3] = r.take(unsigned(m.alpha_bits));
    int pbit[6] = {-1, -1, -1, -1, -1, -1};
    if (m.endpoint_pbits)
        for (int k = 0; k < endpoints; ++k) pbit[k] = int(r.take(1));
    if (m.shared_pbits) {
        // "the lower of which applies to both endpoints of subset 0 and the upper ... of subset 1".
        for (int s = 0; s < m.subsets; ++s) {
            const int p = int(r.take(1));
            pbit[2 * s] = pbit[2 * s + 1] = p;
        }
    }
    int endpoint[6][4];
    for (int k = 0; k < endpoints; ++k) {
        for (int c = 0; c < 3; ++c) endpoint[k][c] = expand_to_byte(raw[k][c], m.colour_bits, pbit[k]);
        // "If not, alpha is overridden to 255."
        endpoint[k][3] = m.alpha_bits ? expand_to_byte(raw[k][3], m.alpha_bits, pbit[k]) : 255;
    }
    const Partition p = partition(m.subsets, shape);
    uint8_t primary[16], secondary[16] = {};
    read_indices(r, p, unsigned(m.index_bits), primary);
    if (m.secondary_index_bits) read_indices(r, p, unsigned(m.secondary_index_bits), secondary);
    // "The index value for interpolating color comes from the secondary index bits for the texel
    // if the mode has an index selection bit and its value is one, and from the primary index
    // bits otherwise. The alpha index comes from the secondary index bits if the block has a
    // secondary index and the block either doesn't have an index selection bit or that bit is
    // zero, and from the primary index bits otherwise."
    const bool colour_secondary = m.index_selection_bits && index_selection == 1;
    const bool alpha_secondary = m.secondary_index_bits && !(m.index_selection_bits && index_selection == 1);
    const std::vector<uint8_t>& colour_weights =
        tables().weights[colour_secondary ? m.secondary_index_bits : m.index_bits];
    const std::vector<uint8_t>& alpha_weights = tables().weights[alpha_secondary ? m.secondary_index_bits : m.index_bits];
    for (int t = 0; t < 16; ++t) {
        const int s = p.subset_of[t];
        const int* e0 = endpoint[2 * s];
        const int* e1 = endpoint[2 * s + 1];
        const int cw = colour_weights[colour_secondary ? secondary[t] : primary[t]];
        const int aw = alpha_weights[alpha_secondary ? secondary[t] : primary[t]];
        int rgba[4];
        for (int c = 0; c < 3; ++c) rgba[c] = interpolate(e0[c], e1[c], cw);
        rgba[3] = interpolate(e0[3], e1[3], aw);
        // "BPTC Rotation bits": 1 swap(A, R), 2 swap(A, G), 3 swap(A, B).
        if (rotation) std::swap(rgba[3], rgba[rotation - 1]);
        for (int c = 0; c < 4; ++c) out[t][c] = uint8_t(rgba[c]);
    }
}

// ---- BC6H -----------------------------------------------------------------------------------

int sign_extend(int value, int bits) {
    const int sign = 1 << (bits - 1);
    return (value & (sign - 1)) - (value & sign);
}

// The spec's unquantization of an endpoint value x of `epb` bits.
int unquantize(int x, int epb, bool is_signed) {
    if (!is_signed) {
        if (epb >= 15) return x;
        if (x == 0) return 0;
        if (x == (1 << epb) - 1) return 0xFFFF;
        return ((x << 15) + 0x4000) >> (epb - 1);
    }
    if (epb >= 16) return x;
    const bool negative = x < 0;
    if (negative) x = -x;
    int unq;
    if (x == 0) unq = 0;
    else if (x >= (1 << (epb - 1)) - 1) unq = 0x7FFF;
    else unq = ((x << 15) + 0x4000) >> (epb - 1);
    return negative ? -unq : unq;
}

// The final unquantization: the interpolated integer to its 16-bit half pattern.
uint16_t finish_unquantize(int i, bool is_signed) {
    if (!is_signed) return uint16_t((i * 31) >> 6);
    return i < 0 ? uint16_t((((-i) * 31) >> 5) | 0x8000) : uint16_t((i * 31) >> 5);
}

// Decodes one BC6H block into 16 RGB half patterns (y-major texel order).
void decode_bc6h_rgb(const uint8_t* block, bool is_signed, uint16_t out[16][3]) {
    const int ordinal = luts::bc6h_mode_for_low_bits(block[0] & 31u);
    if (ordinal < 0) {  // reserved mode: (0, 0, 0) (alpha 1 is added by the caller)
        for (int t = 0; t < 16; ++t) out[t][0] = out[t][1] = out[t][2] = 0;
        return;
    }
    const luts::Bc6hMode& m = luts::bc6h_modes()[size_t(ordinal)];
    const BitReader bits(block);
    // Header fields per "Block descriptions for BC6H block modes".
    uint32_t value[14] = {};
    const std::vector<luts::Bc6hBitSource>& header = tables().bc6h_header[ordinal];
    for (size_t b = 0; b < header.size(); ++b) value[header[b].value] |= bits.bit(unsigned(b)) << header[b].bit;
    const int shape = int(value[luts::kBc6hValuePartition]);
    const int endpoints = 2 * m.subsets();
    const int epb = m.endpoint_bits;
    int e[4][3];
    for (int k = 0; k < endpoints; ++k)
        for (int c = 0; c < 3; ++c) {
            int v = int(value[3 * k + c]);
            if (k == 0) {
                // "The values in E0 are sign-extended ... if the format of the texture is signed."
                if (is_signed) v = sign_extend(v, epb);
            } else if (m.transformed) {
                // E1..E3 are deltas of delta_bits, sign-extended, added to E0 and "wrapped at the
                // number of endpoint bits"; a signed format reads the wrapped value as signed.
                v = (int(value[c]) + sign_extend(v, m.delta_bits[size_t(c)])) & ((1 << epb) - 1);
                if (is_signed) v = sign_extend(v, epb);
            } else if (is_signed) {
                v = sign_extend(v, epb);
            }
            e[k][c] = v;
        }
    for (int k = 0; k < endpoints; ++k)
        for (int c = 0; c < 3; ++c) e[k][c] = unquantize(e[k][c], epb, is_signed);
    const Partition p = partition(m.subsets(), shape);
    BitReader r(block);
    r.skip(unsigned(m.header_bits()));
    uint8_t index[16];
    read_indices(r, p, m.index_bits, index);
    const std::vector<uint8_t>& weights = tables().weights[m.index_bits];
    for (int t = 0; t < 16; ++t) {
        const int s = p.subset_of[t];
        for (int c = 0; c < 3; ++c)
            out[t][c] = finish_unquantize(interpolate(e[2 * s][c], e[2 * s + 1][c], weights[index[t]]), is_signed);
    }
}

void store_half(uint8_t* p, uint16_t h) {
    p[0] = uint8_t(h);
    p[1] = uint8_t(h >> 8);
}

}  // namespace

void decode_bc7_block(texdec_format format, texdec_output output, const uint8_t* block, uint8_t* texels) {
    (void)format;  // sRGB and UNORM decode alike: the output holds the encoded bytes
    uint8_t rgba[16][4];
    decode_bc7_rgba(block, rgba);
    for (int t = 0; t < 16; ++t) {
        if (output == TEXDEC_OUTPUT_RGBA16F) {
            for (int c = 0; c < 4; ++c) store_half(texels + 8 * t + 2 * c, half_from_unorm8(rgba[t][c]));
        } else {  // RGBA8 and NATIVE (= RGBA8)
            for (int c = 0; c < 4; ++c) texels[4 * t + c] = rgba[t][c];
        }
    }
}

void decode_bc6h_block(texdec_format format, texdec_output output, const uint8_t* block, uint8_t* texels) {
    (void)output;  // RGBA16F and NATIVE are the same R16G16B16A16_SFLOAT texels
    uint16_t rgb[16][3];
    decode_bc6h_rgb(block, format == TEXDEC_FORMAT_BC6H_SFLOAT, rgb);
    for (int t = 0; t < 16; ++t) {
        for (int c = 0; c < 3; ++c) store_half(texels + 8 * t + 2 * c, rgb[t][c]);
        store_half(texels + 8 * t + 6, 0x3C00);  // "the returned alpha value is 1.0"
    }
}

}  // namespace texdec_reference::detail

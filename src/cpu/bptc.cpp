// CPU decoders of the BPTC formats: BC6H (UF16, SF16) and BC7 (UNORM, sRGB).
// Khronos Data Format Specification, "BPTC Compressed Texture Image Formats", sections "BC7" and
// "BC6H"; table names below are that chapter's. The arithmetic is shaders/bc7.comp's and
// shaders/bc6h.comp's, step for step, so that both backends write the same bytes; it is arranged
// for a CPU: a block is decoded once, into its 16 texels, then stored.
//
// BC7: each mode is its own template instance, so every field position, width and P-bit rule is a
// constant. The four channels of a texel are interpolated together in one 64-bit word (16 bits per
// channel: (64 - w) * a + w * b + 32 <= 16352 never carries into the next channel).
// BC6H: the header is read from the same mode descriptions as the shader's (luts/bc6h_modes.h, as
// runs of block bits); the block's 16 colours (16 of one subset, or 8 of each of two) are
// computed once, channel by channel in loops the compiler vectorizes, and the indices pick them.
#include <bit>
#include <cstring>
#include <exception>
#include <new>
#include <vector>

#include "cpu/cpu_decoders.h"
#include "cpu/texel_codes.h"
#include "portable.h"
#include "luts/bptc_tables.h"

namespace texdec::cpu {
namespace {

// The BPTC tables as the shaders read them (luts::bptc_lut_words(), the words of the context's
// BPTC table buffer), unpacked into typed arrays.
struct BptcTables {
    uint32_t partitions[2][64];  // [subsets - 2][shape]: subset of texel i in bits 2i..2i+1
    uint8_t anchors[2][2][64];   // [subsets - 2][subset - 1][shape]: anchor texel (16: none)
    uint8_t weights2[4], weights3[8], weights4[16];
    uint16_t unorm8_half[256];  // encode.glsl's texdec_code_unorm8 for RGBA16F: the half nearest to v / 255

    // BC6H: luts/bc6h_modes.h's mode words and runs.
    struct Bc6hMode {
        bool reserved;
        bool transformed;
        bool two_subsets;
        uint8_t epb;            // endpoint precision
        uint8_t delta_bits[3];  // R, G, B
        uint8_t run_count;
        uint8_t ordinal;
    };
    struct Bc6hRun {
        uint8_t value;  // 3 * endpoint + channel, 12 = partition bits
        uint8_t first;  // first block bit
        uint8_t low;    // lowest value bit
        uint8_t length;
        bool reversed;
    };
    Bc6hMode bc6h_modes[32];  // by the low 5 bits of the block
    // The weight of each of a block's 16 colours: [0] one subset (4-bit indices), [1] two subsets
    // (3-bit indices, colour 8 * subset + index).
    int32_t bc6h_lane_weights[2][16];
    Bc6hRun bc6h_runs[14][TEXDEC_BPTC_LUT_BC6H_MAX_RUNS];
};

std::shared_ptr<const void> make_bptc_tables(const Variant&) {
    try {
        const std::vector<uint32_t> w = luts::bptc_lut_words();
        auto t = std::make_shared<BptcTables>();
        for (uint32_t shape = 0; shape < 64; ++shape) {
            t->partitions[0][shape] = w[TEXDEC_BPTC_LUT_PARTITIONS2 + shape];
            t->partitions[1][shape] = w[TEXDEC_BPTC_LUT_PARTITIONS3 + shape];
            const uint32_t anchors = w[TEXDEC_BPTC_LUT_ANCHORS + shape];
            t->anchors[0][0][shape] = uint8_t(anchors & 0xFFu);
            t->anchors[0][1][shape] = 16;
            t->anchors[1][0][shape] = uint8_t((anchors >> 8) & 0xFFu);
            t->anchors[1][1][shape] = uint8_t((anchors >> 16) & 0xFFu);
        }
        for (uint32_t i = 0; i < 4; ++i) t->weights2[i] = uint8_t(w[TEXDEC_BPTC_LUT_WEIGHTS2 + i]);
        for (uint32_t i = 0; i < 8; ++i) t->weights3[i] = uint8_t(w[TEXDEC_BPTC_LUT_WEIGHTS3 + i]);
        for (uint32_t i = 0; i < 16; ++i) t->weights4[i] = uint8_t(w[TEXDEC_BPTC_LUT_WEIGHTS4 + i]);
        for (uint32_t k = 0; k < 16; ++k) {
            t->bc6h_lane_weights[0][k] = t->weights4[k];
            t->bc6h_lane_weights[1][k] = t->weights3[k & 7u];
        }
        for (uint32_t v = 0; v < 256; ++v) t->unorm8_half[v] = uint16_t(code_unorm8(true, v));

        for (uint32_t low5 = 0; low5 < 32; ++low5) {
            const uint32_t word = w[TEXDEC_BPTC_LUT_BC6H_MODES + low5];
            BptcTables::Bc6hMode& m = t->bc6h_modes[low5];
            m.reserved = word == 0u;
            m.epb = uint8_t(m.reserved ? 16u : word & 31u);
            m.delta_bits[0] = uint8_t((word >> 5) & 15u);
            m.delta_bits[1] = uint8_t((word >> 9) & 15u);
            m.delta_bits[2] = uint8_t((word >> 13) & 15u);
            m.transformed = (word & (1u << 17)) != 0u;
            m.two_subsets = (word & (1u << 18)) != 0u;
            m.run_count = uint8_t((word >> 19) & 31u);
            m.ordinal = uint8_t((word >> 24) & 15u);
        }
        for (uint32_t ordinal = 0; ordinal < 14; ++ordinal) {
            for (uint32_t r = 0; r < TEXDEC_BPTC_LUT_BC6H_MAX_RUNS; ++r) {
                const uint32_t run = w[TEXDEC_BPTC_LUT_BC6H_RUNS + ordinal * TEXDEC_BPTC_LUT_BC6H_MAX_RUNS + r];
                t->bc6h_runs[ordinal][r] = {uint8_t(run & 15u), uint8_t((run >> 4) & 127u), uint8_t((run >> 11) & 15u),
                                            uint8_t((run >> 15) & 31u), (run & (1u << 20)) != 0u};
            }
        }
        return t;
    } catch (const std::exception&) {  // bad_alloc (the table builders throw nothing else here)
        return nullptr;
    }
}

// ---- bits ----------------------------------------------------------------------------------------

// A 16-byte block as two little-endian 64-bit halves (bit 0 = bit 0 of byte 0).
struct Block128 {
    uint64_t lo, hi;
};

inline Block128 load_block(const uint8_t* p) { return {load_le<uint64_t>(p), load_le<uint64_t>(p + 8)}; }

// Bits [pos, pos + count) of the block, 0 <= count <= 64, pos + count <= 128 (bits.glsl's
// texdec_bits128, wider).
inline uint64_t bits(const Block128& b, uint32_t pos, uint32_t count) {
#if TEXDEC_HAVE_INT128  // GCC, Clang: a branch-free double shift
    const uint64_t v = uint64_t(((static_cast<portable::U128>(b.hi) << 64) | b.lo) >> pos);
#else
    uint64_t v;
    if (pos >= 64u) v = b.hi >> (pos - 64u);
    else if (pos == 0u) v = b.lo;
    else v = (b.lo >> pos) | (b.hi << (64u - pos));
#endif
    return count >= 64u ? v : v & ((uint64_t{1} << count) - 1u);
}

// The low `count` bits of v in reverse order.
inline uint32_t reverse_bits(uint32_t v, uint32_t count) {
    uint32_t r = 0;
    for (uint32_t i = 0; i < count; ++i) r |= ((v >> i) & 1u) << (count - 1u - i);
    return r;
}

// A run of fields read one after another from the low end (the index streams).
struct BitStream {
    uint64_t v;
    uint32_t take(uint32_t count) {
        const uint32_t r = uint32_t(v & ((uint64_t{1} << count) - 1u));
        v >>= count;
        return r;
    }
};

// ---- BC7 -----------------------------------------------------------------------------------------

// "Mode-dependent BPTC parameters" of mode M.
template <uint32_t M>
struct Bc7Params {
    static constexpr uint32_t kSubsets[8] = {3, 2, 3, 2, 1, 1, 1, 2};
    static constexpr uint32_t kPartitionBits[8] = {4, 6, 6, 6, 0, 0, 0, 6};
    static constexpr uint32_t kRotationBits[8] = {0, 0, 0, 0, 2, 2, 0, 0};
    static constexpr uint32_t kIndexSelectionBits[8] = {0, 0, 0, 0, 1, 0, 0, 0};
    static constexpr uint32_t kColourBits[8] = {4, 6, 5, 7, 5, 7, 7, 5};
    static constexpr uint32_t kAlphaBits[8] = {0, 0, 0, 0, 6, 8, 7, 5};
    static constexpr bool kEndpointPbits[8] = {true, false, false, true, false, false, true, true};
    static constexpr bool kSharedPbits[8] = {false, true, false, false, false, false, false, false};
    static constexpr uint32_t kIndexBits[8] = {3, 3, 2, 2, 2, 2, 4, 2};
    static constexpr uint32_t kIndex2Bits[8] = {0, 0, 0, 0, 3, 2, 0, 0};

    static constexpr uint32_t subsets = kSubsets[M];
    static constexpr uint32_t endpoints = 2 * subsets;
    static constexpr uint32_t pb = kPartitionBits[M], rb = kRotationBits[M], isb = kIndexSelectionBits[M];
    static constexpr uint32_t cb = kColourBits[M], ab = kAlphaBits[M];
    static constexpr bool epbits = kEndpointPbits[M], spbits = kSharedPbits[M], has_pbit = epbits || spbits;
    static constexpr uint32_t ib = kIndexBits[M], ib2 = kIndex2Bits[M];

    // "The fields in the block are always in the same order for all modes": mode, partition,
    // rotation, index selection, colour, alpha, per-endpoint P-bits, shared P-bits, indices.
    static constexpr uint32_t partition_pos = M + 1;
    static constexpr uint32_t rotation_pos = partition_pos + pb;
    static constexpr uint32_t selection_pos = rotation_pos + rb;
    static constexpr uint32_t colour_pos = selection_pos + isb;
    static constexpr uint32_t alpha_pos = colour_pos + 3 * endpoints * cb;
    static constexpr uint32_t pbit_pos = alpha_pos + endpoints * ab;
    static constexpr uint32_t pbit_count = epbits ? endpoints : spbits ? subsets : 0;
    static constexpr uint32_t index_pos = pbit_pos + pbit_count;
    static constexpr uint32_t index_len = 16 * ib - subsets;  // one bit less at each anchor
    static constexpr uint32_t index2_pos = index_pos + index_len;
    static constexpr uint32_t index2_len = ib2 ? 16 * ib2 - 1 : 0;
    static_assert(index2_pos + index2_len == 128, "BC7 fields must fill the block");
};

// A channel of `width` bits (5..8, P-bit included) to 8 bits: "the top bits of the value are
// replicated into any remaining bits in the byte".
template <uint32_t width>
constexpr uint32_t expand_to_8(uint32_t v) {
    if constexpr (width == 8) return v;
    else return ((v << (8 - width)) | (v >> (2 * width - 8))) & 0xFFu;
}

// RGBA bytes (R in bits 0..7) as four 16-bit lanes.
inline uint64_t spread(uint32_t rgba) {
    return uint64_t(rgba & 0xFFu) | (uint64_t((rgba >> 8) & 0xFFu) << 16) | (uint64_t((rgba >> 16) & 0xFFu) << 32) |
           (uint64_t(rgba >> 24) << 48);
}
inline uint32_t gather(uint64_t lanes) {
    const uint64_t x = (lanes | (lanes >> 8)) & 0x0000FFFF0000FFFFull;
    return uint32_t(x) | uint32_t(x >> 16);
}

// "BPTC endpoint interpolation formula" on the four lanes at once.
inline uint64_t interpolate(uint64_t e0, uint64_t e1, uint32_t weight) {
    return (((64u - weight) * e0 + weight * e1 + 0x0020002000200020ull) >> 6) & 0x00FF00FF00FF00FFull;
}

inline const uint8_t* weight_table(const BptcTables& t, uint32_t index_bits) {
    return index_bits == 2 ? t.weights2 : index_bits == 3 ? t.weights3 : t.weights4;
}

// Decodes one BC7 block of mode M into out[i] = RGBA bytes of texel i = x + 4y.
template <uint32_t M>
void bc7_block(const BptcTables& t, const Block128& b, uint32_t out[16]) {
    using P = Bc7Params<M>;
    const uint32_t shape = uint32_t(bits(b, P::partition_pos, P::pb));
    const uint32_t rotation = uint32_t(bits(b, P::rotation_pos, P::rb));
    const bool swap_indices = bits(b, P::selection_pos, P::isb) != 0u;

    // Colour is stored "first by endpoint, then by subset, then by channel": channel-major,
    // endpoint-minor. P-bits go below the stored bits of every channel (alpha too, where the
    // mode has alpha); no alpha bits: alpha 255.
    const uint32_t pbits = uint32_t(bits(b, P::pbit_pos, P::pbit_count));
    constexpr uint32_t colour_width = P::cb + (P::has_pbit ? 1 : 0);
    constexpr uint32_t alpha_width = P::ab + (P::has_pbit ? 1 : 0);
    uint64_t ep[P::endpoints];
    for (uint32_t e = 0; e < P::endpoints; ++e) {
        const uint32_t p = P::epbits ? (pbits >> e) & 1u : P::spbits ? (pbits >> (e >> 1)) & 1u : 0u;
        uint32_t rgba = 0;
        for (uint32_t channel = 0; channel < 3; ++channel) {
            uint32_t v = uint32_t(bits(b, P::colour_pos + (channel * P::endpoints + e) * P::cb, P::cb));
            if constexpr (P::has_pbit) v = (v << 1) | p;
            rgba |= expand_to_8<colour_width>(v) << (8 * channel);
        }
        uint32_t a = 255;
        if constexpr (P::ab != 0) {
            uint32_t v = uint32_t(bits(b, P::alpha_pos + e * P::ab, P::ab));
            if constexpr (P::has_pbit) v = (v << 1) | p;
            a = expand_to_8<alpha_width>(v);
        }
        ep[e] = spread(rgba | (a << 24));
    }

    // Indices: IB bits per texel in texel order, one bit less at each subset's anchor; the
    // secondary indices (one subset: only texel 0 is an anchor) follow the primary ones.
    BitStream primary{bits(b, P::index_pos, P::index_len)};

    if constexpr (P::ib2 == 0) {
        // One index set, no rotation: each subset's 2^IB colours once, then a lookup per texel.
        constexpr uint32_t n = 1u << P::ib;
        const uint8_t* weights = weight_table(t, P::ib);
        const uint32_t partition = P::subsets > 1 ? t.partitions[P::subsets - 2][shape] : 0u;
        const uint32_t anchor1 = P::subsets > 1 ? t.anchors[P::subsets - 2][0][shape] : 16u;
        const uint32_t anchor2 = P::subsets > 2 ? t.anchors[P::subsets - 2][1][shape] : 16u;
        uint32_t palette[P::subsets][n];
        for (uint32_t s = 0; s < P::subsets; ++s)
            for (uint32_t k = 0; k < n; ++k) palette[s][k] = gather(interpolate(ep[2 * s], ep[2 * s + 1], weights[k]));
        for (uint32_t i = 0; i < 16; ++i) {
            const bool anchor = i == 0 || i == anchor1 || i == anchor2;
            const uint32_t index = primary.take(P::ib - (anchor ? 1 : 0));
            out[i] = palette[(partition >> (2 * i)) & 3u][index];
        }
    } else {
        // Modes 4 and 5 (one subset): separate colour and alpha indices, then the rotation.
        BitStream secondary{bits(b, P::index2_pos, P::index2_len)};
        const uint8_t* w1 = weight_table(t, P::ib);
        const uint8_t* w2 = weight_table(t, P::ib2);
        for (uint32_t i = 0; i < 16; ++i) {
            const uint32_t first = primary.take(P::ib - (i == 0 ? 1 : 0));
            const uint32_t second = secondary.take(P::ib2 - (i == 0 ? 1 : 0));
            // Index selection (mode 4) swaps which index set drives colour and which drives alpha.
            const uint32_t colour_weight = swap_indices ? w2[second] : w1[first];
            const uint32_t alpha_weight = swap_indices ? w1[first] : w2[second];
            const uint32_t colour = gather(interpolate(ep[0], ep[1], colour_weight));
            const uint32_t alpha = gather(interpolate(ep[0], ep[1], alpha_weight));
            uint32_t c = (colour & 0x00FFFFFFu) | (alpha & 0xFF000000u);
            // "BPTC Rotation bits": 1 swaps A and R, 2 A and G, 3 A and B (after interpolation).
            if (rotation != 0) {
                const uint32_t shift = 8 * (rotation - 1);
                const uint32_t a = c >> 24, other = (c >> shift) & 0xFFu;
                c = (c & ~(0xFFu << shift) & 0x00FFFFFFu) | (a << shift) | (other << 24);
            }
            out[i] = c;
        }
    }
}

void bc7_decode_block(const BptcTables& t, const uint8_t* src, uint32_t out[16]) {
    const Block128 b = load_block(src);
    // The mode is the number of zeros below the lowest set bit of byte 0. Byte 0 == 0 is
    // reserved: "return 0 for all channels of all texels" (alpha too, docs/EXACTNESS.md).
    const uint32_t mode_byte = uint32_t(b.lo & 0xFFu);
    if (mode_byte == 0u) {
        std::memset(out, 0, 16 * sizeof(uint32_t));
        return;
    }
    switch (std::countr_zero(mode_byte)) {
    case 0: return bc7_block<0>(t, b, out);
    case 1: return bc7_block<1>(t, b, out);
    case 2: return bc7_block<2>(t, b, out);
    case 3: return bc7_block<3>(t, b, out);
    case 4: return bc7_block<4>(t, b, out);
    case 5: return bc7_block<5>(t, b, out);
    case 6: return bc7_block<6>(t, b, out);
    default: return bc7_block<7>(t, b, out);
    }
}

// The texels of one block row of a BlockRun: block `block`, texel row `y`.
inline uint8_t* row_of(const BlockRun& run, uint32_t block, uint32_t y, uint32_t texel_bytes) {
    return run.texels + y * run.row_pitch + size_t(block) * 4u * texel_bytes;
}

void bc7_decode(const Variant& variant, const BlockRun& run) {
    const BptcTables& t = *static_cast<const BptcTables*>(variant.tables);
    uint32_t texels[16];
    for (uint32_t block = 0; block < run.count; ++block) {
        bc7_decode_block(t, run.blocks + size_t(block) * 16u, texels);
        // sRGB decodes like UNORM (the bytes stay encoded); RGBA16F is every byte v as v / 255.
        if (variant.store == TEXDEC_STORE_RGBA8) {
            for (uint32_t y = 0; y < 4; ++y) std::memcpy(row_of(run, block, y, 4), texels + 4 * y, 16);
        } else if (variant.store == TEXDEC_STORE_RGBA16F) {
            for (uint32_t y = 0; y < 4; ++y) {
                uint64_t row[4];
                for (uint32_t x = 0; x < 4; ++x) {
                    const uint32_t c = texels[4 * y + x];
                    const uint16_t* h = t.unorm8_half;
                    row[x] = uint64_t(h[c & 0xFFu]) | (uint64_t(h[(c >> 8) & 0xFFu]) << 16) |
                             (uint64_t(h[(c >> 16) & 0xFFu]) << 32) | (uint64_t(h[c >> 24]) << 48);
                }
                std::memcpy(row_of(run, block, y, 8), row, 32);
            }
        } else {  // no other store takes BC7 today; packed as store.glsl would
            for (uint32_t y = 0; y < 4; ++y) {
                for (uint32_t x = 0; x < 4; ++x) {
                    const uint32_t c = texels[4 * y + x];
                    const uint32_t codes[4] = {c & 0xFFu, (c >> 8) & 0xFFu, (c >> 16) & 0xFFu, c >> 24};
                    pack_texel(variant.store, codes,
                               row_of(run, block, y, variant.texel_bytes) + x * variant.texel_bytes);
                }
            }
        }
    }
}

// ---- BC6H ----------------------------------------------------------------------------------------

inline int32_t sign_extend(uint32_t v, uint32_t bits) { return int32_t(v << (32u - bits)) >> (32u - bits); }

// The spec's unquantization of endpoint x (EPB bits) to 16 bits: unsigned 0..0xFFFF, signed
// -0x8000..0x7FFF (-0x8000 only from a 16-bit endpoint, where x passes through).
template <bool Signed>
int32_t bc6h_unquantize(int32_t x, uint32_t epb) {
    if constexpr (!Signed) {
        if (epb >= 15u) return x;
        if (x == 0) return 0;
        if (x == int32_t((1u << epb) - 1u)) return 0xFFFF;
        return ((x << 15) + 0x4000) >> (epb - 1u);
    } else {
        if (epb >= 16u) return x;
        const int32_t a = x < 0 ? -x : x;
        int32_t unq;
        if (a == 0) unq = 0;
        else if (a >= int32_t((1u << (epb - 1u)) - 1u)) unq = 0x7FFF;
        else unq = ((a << 15) + 0x4000) >> (epb - 1u);
        return x < 0 ? -unq : unq;
    }
}

// The final unquantization of an interpolated value to half bits: UF16 scales by 31/64; SF16
// scales the magnitude by 31/32 and restores the sign bit, so -1 gives 0x8000 (-0) and -0x8000
// gives 0xFC00 (-Inf), as the spec's formula has it.
// (Branch-free: sign = all ones for a negative i.)
template <bool Signed>
inline uint32_t bc6h_finish(int32_t i) {
    if constexpr (!Signed) {
        return uint32_t((i * 31) >> 6);
    } else {
        const int32_t sign = i >> 31, magnitude = (i ^ sign) - sign;
        return uint32_t((magnitude * 31) >> 5) | (uint32_t(sign) & kHalfSign);
    }
}

// Decodes one BC6H block into out[i] = the RGBA16F texel (R in bits 0..15) of texel i = x + 4y.
template <bool Signed>
void bc6h_decode_block(const BptcTables& t, const uint8_t* src, uint64_t out[16]) {
    constexpr uint64_t kAlpha = uint64_t{kHalfOne} << 48;
    const Block128 b = load_block(src);
    // Mode of the low 5 bits (the 2-bit modes 0 and 1 are repeated for every upper 3 bits);
    // the reserved modes 19, 23, 27, 31 give (0, 0, 0, 1).
    const BptcTables::Bc6hMode& mode = t.bc6h_modes[b.lo & 31u];
    if (mode.reserved) {
        for (uint32_t i = 0; i < 16; ++i) out[i] = kAlpha;
        return;
    }

    // The header ("Block descriptions for BC6H block modes"): each run moves block bits into one
    // value (v = 3 * endpoint + channel, 12 = partition bits), reversed where the spec says
    // v^a..b with a < b.
    uint32_t values[13] = {};
    const BptcTables::Bc6hRun* runs = t.bc6h_runs[mode.ordinal];
    for (uint32_t r = 0; r < mode.run_count; ++r) {
        const BptcTables::Bc6hRun& run = runs[r];
        uint32_t v = uint32_t(bits(b, run.first, run.length));
        if (run.reversed) v = reverse_bits(v, run.length);
        values[run.value] |= v << run.low;
    }

    // Endpoints per channel: transformed modes add the sign-extended deltas to E0, "wrapped at
    // the number of endpoint bits"; signed formats then sign-extend every endpoint from EPB bits.
    const uint32_t epb = mode.epb;
    const uint32_t endpoint_count = mode.two_subsets ? 4u : 2u;
    int32_t end[3][4] = {};
    for (uint32_t channel = 0; channel < 3; ++channel) {
        const uint32_t mask = (1u << epb) - 1u;
        for (uint32_t e = 0; e < endpoint_count; ++e) {
            uint32_t v = values[3 * e + channel];
            if (mode.transformed && e > 0)
                v = (values[channel] + uint32_t(sign_extend(v, mode.delta_bits[channel]))) & mask;
            const int32_t x = Signed ? sign_extend(v, epb) : int32_t(v);
            end[channel][e] = bc6h_unquantize<Signed>(x, epb);
        }
    }

    // Subsets: the first half of the 2-subset partition table ("The partition number references
    // the first half of <<bptcP2subset>>"); texel 0 and the shape's second anchor have one index
    // bit less. Each subset's colours once ("BPTC endpoint interpolation formula" on the 16-bit
    // integers, arithmetic shift), then a lookup per texel.
    // Sixteen colours: one subset's 16, or 8 per subset (colour 8 * subset + index), computed
    // as E0 + ((w * (E1 - E0) + 32) >> 6), which equals the formula's
    // ((64 - w) * E0 + w * E1 + 32) >> 6 (64 * E0 is a multiple of 64), in loops the compiler
    // can vectorize.
    const int32_t* lane_weights = t.bc6h_lane_weights[mode.two_subsets ? 1 : 0];
    uint16_t colours[3][16];
    for (uint32_t channel = 0; channel < 3; ++channel) {
        for (uint32_t half = 0; half < 2; ++half) {
            const uint32_t s = mode.two_subsets ? half : 0u;
            const int32_t e0 = end[channel][2 * s], delta = end[channel][2 * s + 1] - e0;
            for (uint32_t k = 0; k < 8; ++k) {
                const int32_t v = e0 + ((lane_weights[8 * half + k] * delta + 32) >> 6);
                colours[channel][8 * half + k] = uint16_t(bc6h_finish<Signed>(v));
            }
        }
    }
    const uint32_t shape = values[12];
    const uint32_t index_bits = mode.two_subsets ? 3u : 4u;
    const uint32_t partition = mode.two_subsets ? t.partitions[0][shape] : 0u;
    const uint32_t anchor = mode.two_subsets ? t.anchors[0][0][shape] : 16u;
    BitStream indices{bits(b, mode.two_subsets ? 82u : 65u, mode.two_subsets ? 46u : 63u)};
    for (uint32_t i = 0; i < 16; ++i) {
        const uint32_t index = indices.take(index_bits - ((i == 0 || i == anchor) ? 1u : 0u));
        const uint32_t colour = (((partition >> (2 * i)) & 3u) << 3) | index;
        out[i] = uint64_t(colours[0][colour]) | (uint64_t(colours[1][colour]) << 16) |
                 (uint64_t(colours[2][colour]) << 32) | kAlpha;
    }
}

template <bool Signed>
void bc6h_decode_run(const Variant& variant, const BlockRun& run) {
    const BptcTables& t = *static_cast<const BptcTables*>(variant.tables);
    uint64_t texels[16];
    for (uint32_t block = 0; block < run.count; ++block) {
        bc6h_decode_block<Signed>(t, run.blocks + size_t(block) * 16u, texels);
        if (variant.store == TEXDEC_STORE_RGBA16F) {  // RGBA16F and NATIVE (the only store BC6H has)
            for (uint32_t y = 0; y < 4; ++y) std::memcpy(row_of(run, block, y, 8), texels + 4 * y, 32);
        } else {  // 8-bit outputs are refused on the host; packed as store.glsl would
            for (uint32_t y = 0; y < 4; ++y) {
                for (uint32_t x = 0; x < 4; ++x) {
                    const uint64_t c = texels[4 * y + x];
                    const uint32_t codes[4] = {uint32_t(c & 0xFFFFu), uint32_t((c >> 16) & 0xFFFFu),
                                               uint32_t((c >> 32) & 0xFFFFu), uint32_t(c >> 48)};
                    pack_texel(variant.store, codes,
                               row_of(run, block, y, variant.texel_bytes) + x * variant.texel_bytes);
                }
            }
        }
    }
}

void bc6h_decode(const Variant& variant, const BlockRun& run) {
    if (variant.is_signed) bc6h_decode_run<true>(variant, run);
    else bc6h_decode_run<false>(variant, run);
}

}  // namespace

const FamilyDecoder kBc6hDecoder = {make_bptc_tables, bc6h_decode};
const FamilyDecoder kBc7Decoder = {make_bptc_tables, bc7_decode};

}  // namespace texdec::cpu

// CPU decoders of BC1, BC2, BC3 (shaders/bc1_3.comp) and BC4, BC5 (shaders/bc4_5.comp,
// shaders/common/bc4_channel.glsl). Khronos Data Format Specification, "S3TC Compressed Texture
// Image Formats" and "RGTC Compressed Texture Image Formats".
//
// Each block is decoded once: its palettes (4 colours, 8 BC3/BC4 values) are turned into output
// texel bytes with the shaders' arithmetic, then every texel is one table select. The variant
// (BC1-BC5 kind, store kind, rounding, sRGB) is a template parameter, so no texel loop branches
// on it. The channel codes are those of common/encode.glsl (src/cpu/texel_codes.h); the FP16
// codes of the few value sets a block can produce are tabulated from the same functions, once per
// process (about 30 KB, plus 192 KB for NVIDIA rounding to RGBA16F when first used): they depend on
// no context or variant, so they are static rather than FamilyDecoder::make_tables results.
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#include "cpu/cpu_decoders.h"
#include "cpu/texel_codes.h"

namespace texdec::cpu {
namespace {

// ---- channel codes (common/encode.glsl) ----------------------------------------------------------

// FP16 codes of every value the BC1-BC5 arithmetic can hand to encode.glsl, computed once with
// texel_codes.h (the same functions, hence the same bits) and then looked up.
constexpr uint32_t kBc4Den = 35u * 255u;        // unsigned interpolants: weighted / (35 * 255)
constexpr uint32_t kBc4SignedDen = 35u * 127u;  // signed interpolants
struct HalfTables {
    std::array<uint16_t, 256> unorm8;              // half of v / 255
    std::array<uint16_t, 128> snorm8;              // half of v / 127 (magnitudes)
    std::array<uint16_t, 32> end5;                 // BC1 EXACT, 5-bit channels: e / 31
    std::array<uint16_t, 6 * 31 + 1> six5;         // n / (6 * 31)
    std::array<uint16_t, 3 * 31 + 1> three5;       // n / (3 * 31)
    std::array<uint16_t, 64> end6;                 // 6-bit channels: e / 63
    std::array<uint16_t, 6 * 63 + 1> six6;         // n / (6 * 63)
    std::array<uint16_t, 3 * 63 + 1> three6;       // n / (3 * 63)
    std::array<uint16_t, kBc4Den + 1> bc4;         // BC3 alpha / BC4 EXACT: n / (35 * 255)
    std::array<uint16_t, kBc4SignedDen + 1> bc4s;  // BC4 signed EXACT: magnitudes n / (35 * 127)
};

template <size_t N>
void fill_ratio(std::array<uint16_t, N>& table, uint32_t den) {
    for (uint32_t n = 0; n < N; ++n) table[n] = uint16_t(half_from_ratio(n, den));
}

const HalfTables& half_tables() {
    static const HalfTables* const tables = [] {
        auto* t = new HalfTables;
        fill_ratio(t->unorm8, 255u);
        fill_ratio(t->snorm8, 127u);
        fill_ratio(t->end5, 31u);
        fill_ratio(t->six5, 6u * 31u);
        fill_ratio(t->three5, 3u * 31u);
        fill_ratio(t->end6, 63u);
        fill_ratio(t->six6, 6u * 63u);
        fill_ratio(t->three6, 3u * 63u);
        fill_ratio(t->bc4, kBc4Den);
        fill_ratio(t->bc4s, kBc4SignedDen);
        return t;
    }();
    return *tables;
}

// NVIDIA mode's 16-bit BC4/BC5 results as halves: k / 65535 and |k| / 32767 (built on first use).
struct NvidiaHalfTables {
    std::array<uint16_t, 65536> unorm16;
    std::array<uint16_t, 32768> snorm16;
};

const NvidiaHalfTables& nvidia_half_tables() {
    static const NvidiaHalfTables* const tables = [] {
        auto* t = new NvidiaHalfTables;
        fill_ratio(t->unorm16, 65535u);
        fill_ratio(t->snorm16, 32767u);
        return t;
    }();
    return *tables;
}

// encode.glsl for one store: Half = RGBA16F, Srgb = the SRGB constant.
template <bool Half, bool Srgb>
struct Codes {
    const HalfTables& h;
    const NvidiaHalfTables* nvidia;  // NVIDIA rounding to RGBA16F only
    static constexpr uint32_t one(bool is_signed) { return Half ? kHalfOne : (is_signed ? 127u : 255u); }
    // texdec_code_unorm8
    uint32_t unorm8(uint32_t v) const { return Half ? h.unorm8[v] : v; }
    // texdec_code_unorm_ratio(num, Den); `halves` holds half_from_ratio(n, Den) for n <= num.
    template <uint32_t Den>
    uint32_t unorm_ratio(uint32_t num, const uint16_t* halves) const {
        const uint32_t rounded = (510u * num + Den) / (2u * Den);
        if (!Half) return rounded;
        return Srgb ? h.unorm8[rounded] : halves[num];
    }
    // texdec_code_snorm8
    uint32_t snorm8(int32_t v) const {
        if (!Half) return uint32_t(v) & 0xFFu;
        if (v < -127) v = -127;
        return v < 0 ? (h.snorm8[-v] | kHalfSign) : h.snorm8[v];
    }
    // texdec_code_snorm_ratio(num, 35 * 127)
    uint32_t snorm_bc4_ratio(int32_t num) const {
        const uint32_t magnitude = uint32_t(num < 0 ? -num : num);
        if (Half) return num < 0 ? (h.bc4s[magnitude] | kHalfSign) : h.bc4s[magnitude];
        const int32_t rounded = int32_t((254u * magnitude + kBc4SignedDen) / (2u * kBc4SignedDen));
        return uint32_t(num < 0 ? -rounded : rounded) & 0xFFu;
    }
};

template <bool Half, uint32_t Rounding>
const NvidiaHalfTables* nvidia_tables_if_used() {
    return Half && Rounding == TEXDEC_ROUNDING_NVIDIA ? &nvidia_half_tables() : nullptr;
}

// ---- BC1 colour palette --------------------------------------------------------------------------

// bc1_3.comp's bc1_nvidia_green: one interpolant of the 6-bit channel from the 8-bit endpoints
// `near` (weighted more) and `far`; weight 80 (a third) or 128 (a half) in 256ths plus d / 4.
inline uint32_t bc1_nvidia_green(uint32_t near, uint32_t far, int32_t weight) {
    const int32_t d = int32_t(far) - int32_t(near);
    const int32_t quarter = d < 0 ? -((-d) >> 2) : d >> 2;
    return uint32_t(256 * int32_t(near) + weight * d + quarter + 128) >> 8;
}

// bc1_3.comp's bc1_channel_palette: the four palette entries of one colour channel of `Bits`
// bits (table "Block decoding for BC1") as channel codes.
template <uint32_t Bits, uint32_t Rounding, bool Half, bool Srgb>
inline void bc1_channel_palette(const Codes<Half, Srgb>& codes, uint32_t e0, uint32_t e1, bool four_colours,
                                uint32_t out[4]) {
    if constexpr (Rounding == TEXDEC_ROUNDING_NVIDIA || Rounding == TEXDEC_ROUNDING_IDEAL) {
        const uint32_t a = (e0 << (8u - Bits)) | (e0 >> (2u * Bits - 8u));  // bit replication
        const uint32_t b = (e1 << (8u - Bits)) | (e1 >> (2u * Bits - 8u));
        uint32_t third, fourth;
        if constexpr (Rounding == TEXDEC_ROUNDING_NVIDIA) {
            if constexpr (Bits == 5u) {
                third = four_colours ? ((2u * e0 + e1) * 22u) >> 3u : ((e0 + e1) * 33u) >> 3u;
                fourth = ((e0 + 2u * e1) * 22u) >> 3u;
            } else {
                third = bc1_nvidia_green(a, b, four_colours ? 80 : 128);
                fourth = bc1_nvidia_green(b, a, 80);
            }
        } else {
            third = (four_colours ? 2u * (2u * a + b) : 3u * (a + b)) / 6u;
            fourth = (a + 2u * b) / 3u;
        }
        out[0] = codes.unorm8(a);
        out[1] = codes.unorm8(b);
        out[2] = codes.unorm8(third);
        out[3] = four_colours ? codes.unorm8(fourth) : 0u;
    } else {
        // EXACT: the real values e / max, (2e0 + e1) / 3 or (e0 + e1) / 2, (e0 + 2e1) / 3.
        constexpr uint32_t kMax = (1u << Bits) - 1u;
        const HalfTables& h = codes.h;
        const uint16_t* end = Bits == 5u ? h.end5.data() : h.end6.data();
        const uint16_t* six = Bits == 5u ? h.six5.data() : h.six6.data();
        const uint16_t* three = Bits == 5u ? h.three5.data() : h.three6.data();
        out[0] = codes.template unorm_ratio<kMax>(e0, end);
        out[1] = codes.template unorm_ratio<kMax>(e1, end);
        out[2] = codes.template unorm_ratio<6u * kMax>(four_colours ? 2u * (2u * e0 + e1) : 3u * (e0 + e1), six);
        out[3] = four_colours ? codes.template unorm_ratio<3u * kMax>(e0 + 2u * e1, three) : 0u;
    }
}

// ---- BC3 alpha / BC4 / BC5 palettes (common/bc4_channel.glsl) ------------------------------------

// NVIDIA mode weights of e1 (bc4_channel.glsl says how they were measured).
constexpr uint32_t kNvidiaBc3AlphaWeights[8] = {0u, 0u, 289u, 578u, 892u, 1156u, 1470u, 1759u};
constexpr uint32_t kNvidiaBc3AlphaWeights6[8] = {0u, 0u, 385u, 770u, 1278u, 1663u, 0u, 0u};
constexpr uint32_t kNvidiaUnormWeights[8] = {0u, 0u, 36u, 72u, 113u, 144u, 185u, 221u};
constexpr uint32_t kNvidiaUnormWeights6[8] = {0u, 0u, 48u, 96u, 161u, 209u, 0u, 0u};
constexpr int32_t kNvidiaSnormWeights[8] = {0, 0, 4572, 9144, 14479, 18288, 23623, 28195};
constexpr int32_t kNvidiaSnormWeights6[8] = {0, 0, 6096, 12192, 20575, 26671, 0, 0};

// bc4_weights: entry `code` (2..7) = (w0 * e0 + w1 * e1) / 35 in both modes.
inline void bc4_weights(bool eight_values, uint32_t code, uint32_t& w0, uint32_t& w1) {
    w0 = eight_values ? 5u * (8u - code) : 7u * (6u - code);
    w1 = (eight_values ? 5u : 7u) * (code - 1u);
}

// bc4_unsigned_palette (BC3 alpha when Bc3Alpha: its own NVIDIA rule), `word` = the block's first word.
template <uint32_t Rounding, bool Half, bool Srgb, bool Bc3Alpha>
inline void bc4_unsigned_palette(const Codes<Half, Srgb>& codes, uint32_t word, uint32_t out[8]) {
    const uint32_t e0 = word & 0xFFu;
    const uint32_t e1 = (word >> 8) & 0xFFu;
    const bool eight_values = e0 > e1;
    if constexpr (Rounding == TEXDEC_ROUNDING_NVIDIA) {
        for (uint32_t code = 0; code < 8u; ++code) {
            if constexpr (Bc3Alpha) {
                const uint32_t w = code < 2u      ? 2048u * code
                                   : eight_values ? kNvidiaBc3AlphaWeights[code]
                                                  : kNvidiaBc3AlphaWeights6[code];
                uint32_t v = (e0 * (2048u - w) + e1 * w + 1024u) >> 11u;
                if (!eight_values && code >= 6u) v = code == 6u ? 0u : 255u;
                out[code] = codes.unorm8(v);
            } else {
                const uint32_t w = code < 2u      ? 257u * code
                                   : eight_values ? kNvidiaUnormWeights[code]
                                                  : kNvidiaUnormWeights6[code];
                uint32_t k = e0 * (257u - w) + e1 * w;
                if (!eight_values && code >= 6u) k = code == 6u ? 0u : 65535u;
                // A 16-bit UNORM k / 65535: its half, or NVIDIA's 12-bit float -> 8-bit conversion.
                if constexpr (Half) out[code] = codes.nvidia->unorm16[k];
                else out[code] = ((k >> 4u) * 255u + 2047u) >> 12u;
            }
        }
        return;
    }
    out[0] = codes.unorm8(e0);
    out[1] = codes.unorm8(e1);
    for (uint32_t code = 2; code < 8u; ++code) {
        if (!eight_values && code >= 6u) {
            out[code] = code == 6u ? 0u : codes.unorm8(255u);
            continue;
        }
        uint32_t w0, w1;
        bc4_weights(eight_values, code, w0, w1);
        const uint32_t weighted = w0 * e0 + w1 * e1;  // <= 35 * 255
        out[code] = Rounding == TEXDEC_ROUNDING_IDEAL
                        ? codes.unorm8(weighted / 35u)
                        : codes.template unorm_ratio<kBc4Den>(weighted, codes.h.bc4.data());
    }
}

// bc4_signed_palette ("BC4 signed"): the mode compares the raw bytes; -128 means -1.0 like -127.
template <uint32_t Rounding, bool Half>
inline void bc4_signed_palette(const Codes<Half, false>& codes, uint32_t word, uint32_t out[8]) {
    const int32_t raw0 = int32_t(int8_t(word & 0xFFu));
    const int32_t raw1 = int32_t(int8_t((word >> 8) & 0xFFu));
    const bool eight_values = raw0 > raw1;
    const int32_t e0 = raw0 < -127 ? -127 : raw0;
    const int32_t e1 = raw1 < -127 ? -127 : raw1;
    if constexpr (Rounding == TEXDEC_ROUNDING_NVIDIA) {
        const bool nvidia_eight = e0 > e1;
        for (uint32_t code = 0; code < 8u; ++code) {
            const int32_t w = code < 2u      ? 32767 * int32_t(code)
                              : nvidia_eight ? kNvidiaSnormWeights[code]
                                             : kNvidiaSnormWeights6[code];
            const int32_t n = e0 * (32767 - w) + e1 * w;
            const int32_t rounded = ((n < 0 ? -n : n) + 63) / 127;  // n / 127 is never halfway
            int32_t k = n < 0 ? -rounded : rounded;
            if (!nvidia_eight && code >= 6u) k = code == 6u ? -32767 : 32767;
            if constexpr (Half) {
                out[code] =
                    k < 0 ? (codes.nvidia->snorm16[uint32_t(-k)] | kHalfSign) : codes.nvidia->snorm16[uint32_t(k)];
            } else {
                const int32_t magnitude = int32_t(((uint32_t(k < 0 ? -k : k) >> 4u) * 127u + 1023u) >> 11u);
                out[code] = uint32_t(k < 0 ? -magnitude : magnitude) & 0xFFu;
            }
        }
        return;
    }
    out[0] = codes.snorm8(e0);
    out[1] = codes.snorm8(e1);
    for (uint32_t code = 2; code < 8u; ++code) {
        if (!eight_values && code >= 6u) {
            out[code] = codes.snorm8(code == 6u ? -127 : 127);
            continue;
        }
        uint32_t w0, w1;
        bc4_weights(eight_values, code, w0, w1);
        const int32_t weighted = int32_t(w0) * e0 + int32_t(w1) * e1;  // |weighted| <= 35 * 127
        if constexpr (Rounding == TEXDEC_ROUNDING_IDEAL) {
            const int32_t magnitude = int32_t(uint32_t(weighted < 0 ? -weighted : weighted) / 35u);
            out[code] = codes.snorm8(weighted < 0 ? -magnitude : magnitude);
        } else {
            out[code] = codes.snorm_bc4_ratio(weighted);
        }
    }
}

// ---- BC1, BC2, BC3 ------------------------------------------------------------------------------

template <uint32_t Kind, uint32_t S, uint32_t Rounding, bool Srgb>
void decode_bc1_3_run(const BlockRun& run) {
    using St = Store<S>;
    using T = typename St::T;
    constexpr bool kHalf = S == TEXDEC_STORE_RGBA16F;
    constexpr bool kBc1 = Kind == TEXDEC_BC1_RGB || Kind == TEXDEC_BC1_RGBA;
    constexpr uint32_t kBlockBytes = kBc1 ? 8u : 16u;
    const Codes<kHalf, Srgb> codes{half_tables(), nvidia_tables_if_used<kHalf, Rounding>()};
    const uint32_t one = Codes<kHalf, Srgb>::one(false);

    // BC2 alpha a / 15 (= 17a / 255 in every mode) as texel bits.
    T bc2_alpha[16] = {};
    if constexpr (Kind == TEXDEC_BC2)
        for (uint32_t a = 0; a < 16u; ++a) bc2_alpha[a] = T(codes.unorm8(17u * a)) << St::kAlphaShift;

    for (uint32_t i = 0; i < run.count; ++i) {
        const uint8_t* block = run.blocks + size_t(i) * kBlockBytes;
        uint8_t* out = run.texels + size_t(i) * 4u * sizeof(T);
        // BC2/BC3: 64 bits of alpha, then a BC1-style colour block.
        const uint8_t* colour_block = kBc1 ? block : block + 8;
        const uint32_t endpoints = load_le<uint32_t>(colour_block);
        const uint32_t colour_codes = load_le<uint32_t>(colour_block + 4);

        // "BC1 with no alpha": c0 <= c1 selects 3 colours + black; BC2/BC3 always 4 colours.
        const uint32_t colour0 = endpoints & 0xFFFFu;
        const uint32_t colour1 = endpoints >> 16;
        const bool four_colours = !kBc1 || colour0 > colour1;
        uint32_t red[4], green[4], blue[4];  // RGB565
        bc1_channel_palette<5, Rounding>(codes, colour0 >> 11, colour1 >> 11, four_colours, red);
        bc1_channel_palette<6, Rounding>(codes, (colour0 >> 5) & 63u, (colour1 >> 5) & 63u, four_colours, green);
        bc1_channel_palette<5, Rounding>(codes, colour0 & 31u, colour1 & 31u, four_colours, blue);

        // Alpha of the colour entries: 1, except entry 3 of "BC1 with alpha"'s 3-colour mode;
        // BC2/BC3 leave it 0 and OR each texel's alpha in.
        const uint32_t alpha = kBc1 ? one : 0u;
        const bool punch_through = Kind == TEXDEC_BC1_RGBA && !four_colours;
        const T colours[4] = {St::pack(red[0], green[0], blue[0], alpha), St::pack(red[1], green[1], blue[1], alpha),
                              St::pack(red[2], green[2], blue[2], alpha),
                              St::pack(red[3], green[3], blue[3], punch_through ? 0u : alpha)};

        if constexpr (Kind == TEXDEC_BC3) {
            const uint64_t alpha_bits = load_le<uint64_t>(block);
            uint32_t alpha_codes[8];
            bc4_unsigned_palette<Rounding, kHalf, Srgb, true>(codes, uint32_t(alpha_bits), alpha_codes);
            T alphas[8];
            for (uint32_t c = 0; c < 8u; ++c) alphas[c] = T(alpha_codes[c]) << St::kAlphaShift;
            for (uint32_t row = 0; row < 4u; ++row) {
                const uint32_t row_colours = colour_codes >> (8u * row);
                const uint32_t row_alphas = uint32_t(alpha_bits >> (16u + 12u * row));
                T texels[4];
                for (uint32_t x = 0; x < 4u; ++x)
                    texels[x] = colours[(row_colours >> (2u * x)) & 3u] | alphas[(row_alphas >> (3u * x)) & 7u];
                store_row(out + row * run.row_pitch, texels);
            }
        } else if constexpr (Kind == TEXDEC_BC2) {
            const uint64_t alpha_bits = load_le<uint64_t>(block);
            for (uint32_t row = 0; row < 4u; ++row) {
                const uint32_t row_colours = colour_codes >> (8u * row);
                const uint32_t row_alphas = uint32_t(alpha_bits >> (16u * row));
                T texels[4];
                for (uint32_t x = 0; x < 4u; ++x)
                    texels[x] = colours[(row_colours >> (2u * x)) & 3u] | bc2_alpha[(row_alphas >> (4u * x)) & 15u];
                store_row(out + row * run.row_pitch, texels);
            }
        } else {
            for (uint32_t row = 0; row < 4u; ++row) {
                const uint32_t row_colours = colour_codes >> (8u * row);
                T texels[4];
                for (uint32_t x = 0; x < 4u; ++x) texels[x] = colours[(row_colours >> (2u * x)) & 3u];
                store_row(out + row * run.row_pitch, texels);
            }
        }
    }
}

// ---- BC4, BC5 ------------------------------------------------------------------------------------

template <bool Bc5, bool Signed, uint32_t S, uint32_t Rounding>
void decode_bc4_5_run(const BlockRun& run) {
    using St = Store<S>;
    using T = typename St::T;
    constexpr bool kHalf = S == TEXDEC_STORE_RGBA16F;
    constexpr uint32_t kBlockBytes = Bc5 ? 16u : 8u;
    const Codes<kHalf, false> codes{half_tables(), nvidia_tables_if_used<kHalf, Rounding>()};
    const uint32_t one = Codes<kHalf, false>::one(Signed);

    for (uint32_t i = 0; i < run.count; ++i) {
        const uint8_t* block = run.blocks + size_t(i) * kBlockBytes;
        uint8_t* out = run.texels + size_t(i) * 4u * sizeof(T);
        // "The resulting RGBA value for the texel is (R, 0, 0, 1)" resp. (R, G, 0, 1); BC5's
        // second 64 bits are a BC4 block giving green.
        const uint64_t red_bits = load_le<uint64_t>(block);
        const uint64_t green_bits = Bc5 ? load_le<uint64_t>(block + 8) : 0u;
        uint32_t red_codes[8], green_codes[8];
        if constexpr (Signed) {
            bc4_signed_palette<Rounding, kHalf>(codes, uint32_t(red_bits), red_codes);
            if constexpr (Bc5) bc4_signed_palette<Rounding, kHalf>(codes, uint32_t(green_bits), green_codes);
        } else {
            bc4_unsigned_palette<Rounding, kHalf, false, false>(codes, uint32_t(red_bits), red_codes);
            if constexpr (Bc5)
                bc4_unsigned_palette<Rounding, kHalf, false, false>(codes, uint32_t(green_bits), green_codes);
        }
        // Texel bits of each red entry (with the constant channels) and of each green entry.
        T reds[8], greens[8];
        for (uint32_t c = 0; c < 8u; ++c) {
            reds[c] = St::pack(red_codes[c], 0u, 0u, one);
            if constexpr (Bc5) greens[c] = St::pack(0u, green_codes[c], 0u, 0u);
        }
        for (uint32_t row = 0; row < 4u; ++row) {
            const uint32_t row_reds = uint32_t(red_bits >> (16u + 12u * row));
            const uint32_t row_greens = uint32_t(green_bits >> (16u + 12u * row));
            T texels[4];
            for (uint32_t x = 0; x < 4u; ++x) {
                texels[x] = reds[(row_reds >> (3u * x)) & 7u];
                if constexpr (Bc5) texels[x] |= greens[(row_greens >> (3u * x)) & 7u];
            }
            store_row(out + row * run.row_pitch, texels);
        }
    }
}

// ---- dispatch: one instantiation per (variant, store, rounding, sRGB) -----------------------------

using RunFn = void (*)(const BlockRun&);

template <uint32_t Kind, uint32_t S, uint32_t Rounding>
RunFn pick_bc1_3_srgb(bool srgb) {
    return srgb ? decode_bc1_3_run<Kind, S, Rounding, true> : decode_bc1_3_run<Kind, S, Rounding, false>;
}
template <uint32_t Kind, uint32_t S>
RunFn pick_bc1_3_rounding(uint32_t rounding, bool srgb) {
    switch (rounding) {
    case TEXDEC_ROUNDING_IDEAL: return pick_bc1_3_srgb<Kind, S, TEXDEC_ROUNDING_IDEAL>(srgb);
    case TEXDEC_ROUNDING_NVIDIA: return pick_bc1_3_srgb<Kind, S, TEXDEC_ROUNDING_NVIDIA>(srgb);
    default: return pick_bc1_3_srgb<Kind, S, TEXDEC_ROUNDING_EXACT>(srgb);
    }
}
template <uint32_t Kind>
RunFn pick_bc1_3_store(const Variant& v) {
    if (v.store == TEXDEC_STORE_RGBA16F) return pick_bc1_3_rounding<Kind, TEXDEC_STORE_RGBA16F>(v.rounding, v.srgb);
    return pick_bc1_3_rounding<Kind, TEXDEC_STORE_RGBA8>(v.rounding, v.srgb);
}

void decode_bc1_3(const Variant& v, const BlockRun& run) {
    RunFn fn;
    switch (v.variant) {
    case TEXDEC_BC1_RGB: fn = pick_bc1_3_store<TEXDEC_BC1_RGB>(v); break;
    case TEXDEC_BC1_RGBA: fn = pick_bc1_3_store<TEXDEC_BC1_RGBA>(v); break;
    case TEXDEC_BC2: fn = pick_bc1_3_store<TEXDEC_BC2>(v); break;
    default: fn = pick_bc1_3_store<TEXDEC_BC3>(v); break;
    }
    fn(run);
}

template <bool Bc5, bool Signed, uint32_t S>
RunFn pick_bc4_5_rounding(uint32_t rounding) {
    switch (rounding) {
    case TEXDEC_ROUNDING_IDEAL: return decode_bc4_5_run<Bc5, Signed, S, TEXDEC_ROUNDING_IDEAL>;
    case TEXDEC_ROUNDING_NVIDIA: return decode_bc4_5_run<Bc5, Signed, S, TEXDEC_ROUNDING_NVIDIA>;
    default: return decode_bc4_5_run<Bc5, Signed, S, TEXDEC_ROUNDING_EXACT>;
    }
}
template <bool Bc5, bool Signed>
RunFn pick_bc4_5_store(const Variant& v) {
    switch (v.store) {
    case TEXDEC_STORE_RGBA16F: return pick_bc4_5_rounding<Bc5, Signed, TEXDEC_STORE_RGBA16F>(v.rounding);
    case TEXDEC_STORE_RGBA8: return pick_bc4_5_rounding<Bc5, Signed, TEXDEC_STORE_RGBA8>(v.rounding);
    case TEXDEC_STORE_RG8: return pick_bc4_5_rounding<Bc5, Signed, TEXDEC_STORE_RG8>(v.rounding);
    default: return pick_bc4_5_rounding<Bc5, Signed, TEXDEC_STORE_R8>(v.rounding);
    }
}

void decode_bc4_5(const Variant& v, const BlockRun& run) {
    RunFn fn;
    if (v.variant == TEXDEC_BC5) fn = v.is_signed ? pick_bc4_5_store<true, true>(v) : pick_bc4_5_store<true, false>(v);
    else fn = v.is_signed ? pick_bc4_5_store<false, true>(v) : pick_bc4_5_store<false, false>(v);
    fn(run);
}

}  // namespace

const FamilyDecoder kBc1_3Decoder = {nullptr, decode_bc1_3};
const FamilyDecoder kBc4_5Decoder = {nullptr, decode_bc4_5};

}  // namespace texdec::cpu

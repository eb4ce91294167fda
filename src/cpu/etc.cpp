// CPU decoders of ETC2 (RGB8 incl. ETC1, RGB8A1, RGBA8: shaders/etc2.comp) and EAC (R11, RG11:
// shaders/eac.comp), with the EAC channel of shaders/common/etc.glsl. Khronos Data Format
// Specification, "ETC2 Compressed Texture Image Formats"; table names below are that chapter's,
// the tables themselves those of luts/etc_tables.h in the GPU's layout (TEXDEC_ETC_LUT_*).
//
// Each block is decoded once into a palette of output texel bytes (both subblocks' 4 colours, the
// T/H paint colours, the 8 EAC values), then every texel is one table select; only planar blocks
// compute per texel. The variant and store kind are template parameters.
//
// Blocks: the spec reads a 64-bit half-block as the big-endian integer of bytes q0..q7 (int64bit);
// texels are numbered as the spec's pixels a..p, k = 4 * x + y (column-major).
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include "cpu/cpu_decoders.h"
#include "cpu/texel_codes.h"
#include "portable.h"
#include "luts/etc_tables.h"

namespace texdec::cpu {
namespace {

// int64bit of the 8-byte half-block at p.
uint64_t load_be64(const uint8_t* p) { return portable::byte_swap64(load_le<uint64_t>(p)); }

// ---- tables -------------------------------------------------------------------------------------

// Built once per process (about 8 KB; the same for every context and variant).
struct EtcTables {
    int32_t modifiers[8][4];           // "ETC2 intensity modifier sets": [table codeword][pixel index MSB << 1 | LSB]
    int32_t distances[8];              // "Distance table for ETC2 `T' and `H' modes"
    int32_t eac[16][8];                // "Intensity modifier sets for RGBA ETC2 alpha component": [table][pixel index]
    std::array<uint16_t, 256> unorm8;  // half of v / 255 (texdec_code_unorm8 for RGBA16F)
    std::array<uint16_t, 2048> r11;    // half of x / 2047 (unsigned R11 to RGBA16F)
    std::array<uint16_t, 1024> r11s;   // half of m / 1023 (signed R11 magnitudes)
};

const EtcTables& etc_tables() {
    static const EtcTables* const tables = [] {
        auto* t = new EtcTables;
        // The same words the GPU reads from its table buffer, signed entries two's complement.
        const std::vector<uint32_t> words = luts::etc_lut_words();
        for (uint32_t i = 0; i < 32u; ++i) t->modifiers[i / 4u][i % 4u] = int32_t(words[TEXDEC_ETC_LUT_MODIFIERS + i]);
        for (uint32_t i = 0; i < 8u; ++i) t->distances[i] = int32_t(words[TEXDEC_ETC_LUT_DISTANCES + i]);
        for (uint32_t i = 0; i < 128u; ++i) t->eac[i / 8u][i % 8u] = int32_t(words[TEXDEC_ETC_LUT_EAC + i]);
        for (uint32_t v = 0; v < 256u; ++v) t->unorm8[v] = uint16_t(half_from_ratio(v, 255u));
        for (uint32_t x = 0; x < 2048u; ++x) t->r11[x] = uint16_t(half_from_ratio(x, 2047u));
        for (uint32_t m = 0; m < 1024u; ++m) t->r11s[m] = uint16_t(half_from_ratio(m, 1023u));
        return t;
    }();
    return *tables;
}

inline int32_t clamp255(int32_t v) { return v < 0 ? 0 : v > 255 ? 255 : v; }

// ---- EAC channel --------------------------------------------------------------------------------

// The 3-bit pixel index of pixel k of an EAC half-block: bits 47 - 3k .. 45 - 3k of int64bit.
inline uint32_t eac_pixel_index(uint64_t be, uint32_t k) { return uint32_t(be >> (45u - 3u * k)) & 7u; }

// Header, bits 63..48 of int64bit: base codeword (63..56), multiplier (55..52), table index (51..48).
inline uint32_t eac_base(uint64_t be) { return uint32_t(be >> 56); }
inline int32_t eac_multiplier(uint64_t be) { return int32_t((be >> 52) & 15u); }
inline uint32_t eac_table(uint64_t be) { return uint32_t(be >> 48) & 15u; }

// ---- ETC2 colour --------------------------------------------------------------------------------

inline uint32_t extend4(uint32_t v) { return v * 17u; }
inline uint32_t extend5(uint32_t v) { return (v << 3) | (v >> 2); }
inline int32_t extend6(uint32_t v) { return int32_t((v << 2) | (v >> 4)); }
inline int32_t extend7(uint32_t v) { return int32_t((v << 1) | (v >> 6)); }
// A 3-bit two's-complement field (the low 3 bits of v).
inline int32_t signed3(uint32_t v) { return int32_t(v << 29) >> 29; }

template <uint32_t Kind, uint32_t S>
void decode_etc2_run(const BlockRun& run) {
    using St = Store<S>;
    using T = typename St::T;
    constexpr bool kHalf = S == TEXDEC_STORE_RGBA16F;
    constexpr bool kPunch = Kind == TEXDEC_ETC2_RGB8A1;
    constexpr bool kEacAlpha = Kind == TEXDEC_ETC2_RGBA8;
    constexpr uint32_t kBlockBytes = kEacAlpha ? 16u : 8u;
    const EtcTables& tables = etc_tables();
    const auto code = [&](int32_t v) -> uint32_t { return kHalf ? tables.unorm8[uint32_t(v)] : uint32_t(v); };
    // Alpha 1 of the colour (RGBA8 variant: 0 here, the EAC alpha is ORed in per texel).
    const uint32_t opaque_alpha = kEacAlpha ? 0u : code(255);
    // The texel bits of an (unclamped) colour.
    const auto colour = [&](int32_t r, int32_t g, int32_t b) -> T {
        return St::pack(code(clamp255(r)), code(clamp255(g)), code(clamp255(b)), opaque_alpha);
    };

    for (uint32_t i = 0; i < run.count; ++i) {
        const uint8_t* block = run.blocks + size_t(i) * kBlockBytes;
        uint8_t* out = run.texels + size_t(i) * 4u * sizeof(T);
        // "Format RGBA ETC2": the EAC alpha half-block comes first.
        const uint64_t colour_be = load_be64(kEacAlpha ? block + 8 : block);
        const uint32_t hi = uint32_t(colour_be >> 32), lo = uint32_t(colour_be);

        // "Location of bits for mode selection": R, G, B (5 bits) + Rd, Gd, Bd (3-bit two's
        // complement). Bit 33 is the differential bit D (RGB8) or the opaque bit Op (RGB8A1,
        // which has no individual mode: the sums decide alone).
        const bool bit33 = ((hi >> 1) & 1u) != 0u;
        const bool opaque = !kPunch || bit33;
        const int32_t r = int32_t((hi >> 27) & 31u) + signed3(hi >> 24);
        const int32_t g = int32_t((hi >> 19) & 31u) + signed3(hi >> 16);
        const int32_t b = int32_t((hi >> 11) & 31u) + signed3(hi >> 8);

        T alphas[8] = {};  // RGBA8: the EAC alpha of each 3-bit pixel index, as texel bits
        uint64_t alpha_be = 0;
        if constexpr (kEacAlpha) {
            // "ETC2 base": clamp255(base codeword + modifier x multiplier); a multiplier of 0
            // gives 0 x modifier = 0.
            alpha_be = load_be64(block);
            const int32_t* modifiers = tables.eac[eac_table(alpha_be)];
            const int32_t base = int32_t(eac_base(alpha_be));
            const int32_t multiplier = eac_multiplier(alpha_be);
            for (uint32_t c = 0; c < 8u; ++c)
                alphas[c] = T(code(clamp255(base + modifiers[c] * multiplier))) << St::kAlphaShift;
        }
        const auto alpha_of = [&](uint32_t k) -> T {
            if constexpr (kEacAlpha) return alphas[eac_pixel_index(alpha_be, k)];
            else return T(0);
        };
        // Pixel k's 2-bit index, MSB << 1 | LSB.
        const auto index_of = [&](uint32_t k) -> uint32_t {
            return (((lo >> (16u + k)) & 1u) << 1) | ((lo >> k) & 1u);
        };

        if ((!kPunch && !bit33) || (r >= 0 && r <= 31 && g >= 0 && g <= 31 && b >= 0 && b <= 31)) {
            // Individual or differential mode: two base colours, a table codeword per subblock.
            uint32_t base[2][3];
            if (!kPunch && !bit33) {
                for (uint32_t ch = 0; ch < 3u; ++ch) {
                    base[0][ch] = extend4((hi >> (28u - 8u * ch)) & 15u);
                    base[1][ch] = extend4((hi >> (24u - 8u * ch)) & 15u);
                }
            } else {
                for (uint32_t ch = 0; ch < 3u; ++ch) base[0][ch] = extend5((hi >> (27u - 8u * ch)) & 31u);
                base[1][0] = extend5(uint32_t(r));
                base[1][1] = extend5(uint32_t(g));
                base[1][2] = extend5(uint32_t(b));
            }
            const uint32_t tables_of[2] = {(hi >> 5) & 7u, (hi >> 2) & 7u};
            T palette[8];  // [subblock * 4 + pixel index]
            for (uint32_t s = 0; s < 2u; ++s) {
                for (uint32_t index = 0; index < 4u; ++index) {
                    int32_t m = tables.modifiers[tables_of[s]][index];
                    // Punch-through with Op = 0: indices 00 and 10 give modifier 0; 10 is transparent.
                    if (!opaque && (index & 1u) == 0u) m = 0;
                    palette[4u * s + index] =
                        !opaque && index == 2u
                            ? T(0)
                            : colour(int32_t(base[s][0]) + m, int32_t(base[s][1]) + m, int32_t(base[s][2]) + m);
                }
            }
            // Subblock 2: x >= 2 (flip 0, side by side) or y >= 2 (flip 1, on top of each other).
            const bool flip = (hi & 1u) != 0u;
            for (uint32_t y = 0; y < 4u; ++y) {
                T texels[4];
                for (uint32_t x = 0; x < 4u; ++x) {
                    const uint32_t k = 4u * x + y;
                    const uint32_t second = (flip ? y >= 2u : x >= 2u) ? 4u : 0u;
                    texels[x] = palette[second + index_of(k)] | alpha_of(k);
                }
                store_row(out + y * run.row_pitch, texels);
            }
        } else if (r < 0 || r > 31 || g < 0 || g > 31) {
            // T mode (R overflows) or H mode (G overflows): four paint colours.
            int32_t paint[4][3];
            if (r < 0 || r > 31) {
                // "Bit layout for bits 63 through 32 for `T' mode".
                const uint32_t c1[3] = {extend4((((hi >> 27) & 3u) << 2) | ((hi >> 24) & 3u)),
                                        extend4((hi >> 20) & 15u), extend4((hi >> 16) & 15u)};
                const uint32_t c2[3] = {extend4((hi >> 12) & 15u), extend4((hi >> 8) & 15u), extend4((hi >> 4) & 15u)};
                const int32_t d = tables.distances[(((hi >> 2) & 3u) << 1) | (hi & 1u)];
                for (uint32_t ch = 0; ch < 3u; ++ch) {
                    paint[0][ch] = int32_t(c1[ch]);
                    paint[1][ch] = int32_t(c2[ch]) + d;
                    paint[2][ch] = int32_t(c2[ch]);
                    paint[3][ch] = int32_t(c2[ch]) - d;
                }
            } else {
                // "Bit layout for bits 63 through 32 for `H' mode".
                const uint32_t c1[3] = {extend4((hi >> 27) & 15u),
                                        extend4((((hi >> 24) & 7u) << 1) | ((hi >> 20) & 1u)),
                                        extend4((((hi >> 19) & 1u) << 3) | ((hi >> 15) & 7u))};
                const uint32_t c2[3] = {extend4((hi >> 11) & 15u), extend4((hi >> 7) & 15u), extend4((hi >> 3) & 15u)};
                // Distance index: da (MSB), db, then (base colour 1 value >= base colour 2 value),
                // value = R << 16 + G << 8 + B.
                const uint32_t v1 = (c1[0] << 16) | (c1[1] << 8) | c1[2];
                const uint32_t v2 = (c2[0] << 16) | (c2[1] << 8) | c2[2];
                const int32_t d = tables.distances[(((hi >> 2) & 1u) << 2) | ((hi & 1u) << 1) | (v1 >= v2 ? 1u : 0u)];
                for (uint32_t ch = 0; ch < 3u; ++ch) {
                    paint[0][ch] = int32_t(c1[ch]) + d;
                    paint[1][ch] = int32_t(c1[ch]) - d;
                    paint[2][ch] = int32_t(c2[ch]) + d;
                    paint[3][ch] = int32_t(c2[ch]) - d;
                }
            }
            T palette[4];
            for (uint32_t index = 0; index < 4u; ++index)
                palette[index] =
                    !opaque && index == 2u ? T(0) : colour(paint[index][0], paint[index][1], paint[index][2]);
            for (uint32_t y = 0; y < 4u; ++y) {
                T texels[4];
                for (uint32_t x = 0; x < 4u; ++x) {
                    const uint32_t k = 4u * x + y;
                    texels[x] = palette[index_of(k)] | alpha_of(k);
                }
                store_row(out + y * run.row_pitch, texels);
            }
        } else {
            // Planar mode (B overflows): "Bit layout for bits 63 through 0 for `planar' mode"
            // (RGB 6:7:6), extended to 8 bits; always opaque.
            const int32_t po[3] = {extend6((hi >> 25) & 63u), extend7((((hi >> 24) & 1u) << 6) | ((hi >> 17) & 63u)),
                                   extend6((((hi >> 16) & 1u) << 5) | (((hi >> 11) & 3u) << 3) | ((hi >> 7) & 7u))};
            const int32_t ph[3] = {extend6((((hi >> 2) & 31u) << 1) | (hi & 1u)), extend7((lo >> 25) & 127u),
                                   extend6((lo >> 19) & 63u)};
            const int32_t pv[3] = {extend6((lo >> 13) & 63u), extend7((lo >> 6) & 127u), extend6(lo & 63u)};
            // clamp255((x (H - O) + y (V - O) + 4 O + 2) >> 2)
            int32_t dh[3], dv[3], o[3];
            for (uint32_t ch = 0; ch < 3u; ++ch) {
                dh[ch] = ph[ch] - po[ch];
                dv[ch] = pv[ch] - po[ch];
                o[ch] = 4 * po[ch] + 2;
            }
            for (uint32_t y = 0; y < 4u; ++y) {
                T texels[4];
                for (uint32_t x = 0; x < 4u; ++x) {
                    const int32_t xi = int32_t(x), yi = int32_t(y);
                    texels[x] = colour((xi * dh[0] + yi * dv[0] + o[0]) >> 2, (xi * dh[1] + yi * dv[1] + o[1]) >> 2,
                                       (xi * dh[2] + yi * dv[2] + o[2]) >> 2) |
                                alpha_of(4u * x + y);
                }
                store_row(out + y * run.row_pitch, texels);
            }
        }
    }
}

// ---- EAC R11, RG11 ------------------------------------------------------------------------------

template <bool Rg, bool Signed, uint32_t S>
void decode_eac_run(const BlockRun& run) {
    using St = Store<S>;
    using T = typename St::T;
    constexpr bool kHalf = S == TEXDEC_STORE_RGBA16F;
    constexpr bool k16BitInt = S == TEXDEC_STORE_R16 || S == TEXDEC_STORE_RG16;
    constexpr uint32_t kBlockBytes = Rg ? 16u : 8u;
    const EtcTables& tables = etc_tables();
    const uint32_t one = code_one(kHalf, Signed);

    // eac.comp's eac_code: the output code of an 11-bit result x (0..2047, or -1023..1023).
    const auto eac_code = [&](int32_t x) -> uint32_t {
        if constexpr (k16BitInt) {
            // Extended to 16 bits by bit replication, as the spec describes.
            if constexpr (!Signed) return (uint32_t(x) << 5) | (uint32_t(x) >> 6);
            const uint32_t m = uint32_t(x < 0 ? -x : x);
            const uint32_t extended = (m << 5) | (m >> 5);
            return uint32_t(x < 0 ? -int32_t(extended) : int32_t(extended)) & 0xFFFFu;
        } else if constexpr (kHalf) {
            if constexpr (Signed) return x < 0 ? (tables.r11s[uint32_t(-x)] | kHalfSign) : tables.r11s[uint32_t(x)];
            return tables.r11[uint32_t(x)];
        } else {
            if constexpr (Signed) return code_snorm_ratio(false, x, 1023u);
            return code_unorm_ratio(false, false, uint32_t(x), 2047u);
        }
    };
    // The texel bits of every 3-bit pixel index of one half-block: eac_r11_value ("Unsigned R11
    // EAC": clamp2(base * 8 + 4 + modifier * multiplier * 8), 0..2047; "Signed R11 EAC":
    // clamp2(base * 8 + modifier * multiplier * 8), -1023..1023, base -128 treated as -127; a
    // multiplier of 0 acts as 1/8: the modifier is added unscaled).
    const auto palette = [&](uint64_t be, bool green, T out[8]) {
        const int32_t* modifiers = tables.eac[eac_table(be)];
        const int32_t multiplier = eac_multiplier(be);
        for (uint32_t c = 0; c < 8u; ++c) {
            const int32_t scaled = multiplier == 0 ? modifiers[c] : modifiers[c] * multiplier * 8;
            int32_t x;
            if constexpr (Signed) {
                int32_t base = int32_t(int8_t(uint8_t(eac_base(be))));
                if (base < -127) base = -127;
                x = base * 8 + scaled;
                x = x < -1023 ? -1023 : x > 1023 ? 1023 : x;
            } else {
                x = int32_t(eac_base(be)) * 8 + 4 + scaled;
                x = x < 0 ? 0 : x > 2047 ? 2047 : x;
            }
            out[c] = green ? St::pack(0u, eac_code(x), 0u, 0u) : St::pack(eac_code(x), 0u, 0u, one);
        }
    };

    for (uint32_t i = 0; i < run.count; ++i) {
        const uint8_t* block = run.blocks + size_t(i) * kBlockBytes;
        uint8_t* out = run.texels + size_t(i) * 4u * sizeof(T);
        // RG11: "int64bit0 ... red component", "int64bit1 ... green component".
        const uint64_t red_be = load_be64(block);
        const uint64_t green_be = Rg ? load_be64(block + 8) : 0u;
        T reds[8], greens[8];
        palette(red_be, false, reds);
        if constexpr (Rg) palette(green_be, true, greens);
        for (uint32_t y = 0; y < 4u; ++y) {
            T texels[4];
            for (uint32_t x = 0; x < 4u; ++x) {
                const uint32_t k = 4u * x + y;
                texels[x] = reds[eac_pixel_index(red_be, k)];
                if constexpr (Rg) texels[x] |= greens[eac_pixel_index(green_be, k)];
            }
            store_row(out + y * run.row_pitch, texels);
        }
    }
}

// ---- dispatch -----------------------------------------------------------------------------------

using RunFn = void (*)(const BlockRun&);

template <uint32_t Kind>
RunFn pick_etc2_store(uint32_t store) {
    return store == TEXDEC_STORE_RGBA16F ? decode_etc2_run<Kind, TEXDEC_STORE_RGBA16F>
                                         : decode_etc2_run<Kind, TEXDEC_STORE_RGBA8>;
}

void decode_etc2(const Variant& v, const BlockRun& run) {
    RunFn fn;
    switch (v.variant) {
    case TEXDEC_ETC2_RGB8A1: fn = pick_etc2_store<TEXDEC_ETC2_RGB8A1>(v.store); break;
    case TEXDEC_ETC2_RGBA8: fn = pick_etc2_store<TEXDEC_ETC2_RGBA8>(v.store); break;
    default: fn = pick_etc2_store<TEXDEC_ETC2_RGB8>(v.store); break;
    }
    fn(run);
}

template <bool Rg, bool Signed>
RunFn pick_eac_store(uint32_t store) {
    switch (store) {
    case TEXDEC_STORE_RGBA16F: return decode_eac_run<Rg, Signed, TEXDEC_STORE_RGBA16F>;
    case TEXDEC_STORE_RGBA8: return decode_eac_run<Rg, Signed, TEXDEC_STORE_RGBA8>;
    case TEXDEC_STORE_RG16: return decode_eac_run<Rg, Signed, TEXDEC_STORE_RG16>;
    default: return decode_eac_run<Rg, Signed, TEXDEC_STORE_R16>;
    }
}

void decode_eac(const Variant& v, const BlockRun& run) {
    RunFn fn;
    if (v.variant == TEXDEC_EAC_RG11)
        fn = v.is_signed ? pick_eac_store<true, true>(v.store) : pick_eac_store<true, false>(v.store);
    else fn = v.is_signed ? pick_eac_store<false, true>(v.store) : pick_eac_store<false, false>(v.store);
    fn(run);
}

}  // namespace

const FamilyDecoder kEtc2Decoder = {nullptr, decode_etc2};
const FamilyDecoder kEacDecoder = {nullptr, decode_eac};

}  // namespace texdec::cpu

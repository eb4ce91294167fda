// ASTC CPU decoder: LDR, sRGB and HDR operation modes, 2D and 3D footprints, giving for every
// block exactly the texels shaders/astc.comp writes (same branches for the same variant).
// Khronos Data Format Specification, "ASTC Compressed Texture Image Formats"; the quoted names
// below are that chapter's sections.
//
// Work is per block: the block-level state (block mode, endpoint modes, colour range, "Illegal
// Encodings"), the integer sequences and the endpoints once, then a texel loop specialized on the
// output (store kind, operation mode) that handles every block shape (partitions, weight planes)
// without branches, the four channels of a texel as one vector. make_tables builds, once per
// footprint (shared by every variant and context that uses it), the block mode table, the partition
// patterns as one byte per texel and the "Weight Infill" corners and factors of every weight grid
// the footprint allows (a grid equal to the footprint needs no infill).
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "cpu/cpu_decoders.h"
#include "cpu/texel_codes.h"
#include "portable.h"
#include "luts/astc_tables.h"

namespace texdec::cpu {
namespace {

using u128 = portable::U128;

// Bits [offset, offset + count) of the block (bit 0 = bit 0 of its first byte); count <= 32.
inline uint32_t bits128(u128 b, uint32_t offset, uint32_t count) {
    return uint32_t(b >> offset) & (count >= 32 ? 0xFFFFFFFFu : (1u << count) - 1u);
}

inline u128 mask128(uint32_t count) { return count >= 128 ? ~u128(0) : (u128(1) << count) - 1; }

inline uint64_t reverse64(uint64_t v) {
    v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
    v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
    v = ((v >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((v & 0x0F0F0F0F0F0F0F0Full) << 4);
    return portable::byte_swap64(v);
}

// The block with bit n moved to bit 127 - n: "Bit n in the stream is thus bit 127-n in the block"
// (the weight stream grows down from bit 127).
inline u128 reverse128(u128 b) { return (u128(reverse64(uint64_t(b))) << 64) | reverse64(uint64_t(b >> 64)); }

// What decode() reads: built once per footprint.
constexpr uint32_t kMaxTexels = 216;    // 12x12 and 6x6x6
constexpr uint32_t kWeightSlots = 128;  // stored weights (<= 64) plus the zero-factor corners past the grid

struct GridInfill {
    bool identity = false;  // the grid is the footprint and every texel takes its own weight
    uint32_t offset = 0;    // into AstcTables::infill: texels * 4 corner indices, then texels * 4 factors
};

struct AstcTables {
    uint32_t bw = 0, bh = 0, bd = 0, texels = 0;
    uint32_t modes[2048];             // TEXDEC_ASTC_MODE_* words, as the shader's footprint table
    uint16_t trits[256];              // packed T -> t0 | t1 << 2 | ... | t4 << 8
    uint16_t quints[128];             // packed Q -> q0 | q1 << 3 | q2 << 6
    uint8_t weight_unq[12 * 32];      // [range * 32 + value] -> 0..64
    uint8_t colour_unq[21 * 256];     // [range * 256 + value] -> 0..255
    uint8_t colour_range[16 * 128];   // [(values / 2 - 1) * 128 + remaining bits] -> range or 0xFF
    uint16_t srgb_half[256];          // half_from_ratio(v, 255)
    std::vector<uint8_t> partitions;  // [((count - 2) * 1024 + seed) * texels + texel] -> partition
    GridInfill grids[12 * 12 * 12];   // [(gd - 1) * 144 + (gh - 1) * 12 + gw - 1]
    std::vector<uint8_t> infill;
};

inline uint32_t grid_key(uint32_t gw, uint32_t gh, uint32_t gd) { return (gd - 1) * 144 + (gh - 1) * 12 + gw - 1; }

// D_s of "Weight Infill" for a block dimension.
inline uint32_t infill_scale(uint32_t block_dim) { return (1024u + block_dim / 2u) / std::max(block_dim - 1u, 1u); }

// "Weight Infill" of one grid: for each texel the stream indices of its 4 corners and their factors
// (bilinear in 2D; "ASTC simplex interpolation parameters" in 3D), as the shader's texel_weights.
// A corner whose factor is 0 may lie past the grid; its index is made 0 so that it stays inside.
void build_infill(AstcTables& t, uint32_t gw, uint32_t gh, uint32_t gd) {
    GridInfill& g = t.grids[grid_key(gw, gh, gd)];
    g.offset = uint32_t(t.infill.size());
    t.infill.resize(t.infill.size() + 8 * t.texels);
    uint8_t* idx = t.infill.data() + g.offset;
    uint8_t* fac = idx + 4 * t.texels;
    const bool is_3d = t.bd > 1;
    const uint32_t sx = infill_scale(t.bw), sy = infill_scale(t.bh), sz = infill_scale(t.bd);
    bool identity = gw == t.bw && gh == t.bh && gd == t.bd;
    for (uint32_t z = 0; z < t.bd; ++z)
        for (uint32_t y = 0; y < t.bh; ++y)
            for (uint32_t x = 0; x < t.bw; ++x) {
                const uint32_t texel = x + t.bw * (y + t.bh * z);
                const uint32_t gx = (sx * x * (gw - 1) + 32) >> 6, gy = (sy * y * (gh - 1) + 32) >> 6,
                               gz = (sz * z * (gd - 1) + 32) >> 6;
                const uint32_t jx = gx >> 4, jy = gy >> 4, jz = gz >> 4;
                const uint32_t fx = gx & 15, fy = gy & 15, fz = gz & 15;
                uint32_t i[4], w[4];
                if (!is_3d) {
                    const uint32_t v0 = jx + jy * gw;
                    w[3] = (fx * fy + 8) >> 4;
                    w[2] = fy - w[3];
                    w[1] = fx - w[3];
                    w[0] = 16 - fx - fy + w[3];
                    i[0] = v0, i[1] = v0 + 1, i[2] = v0 + gw, i[3] = v0 + gw + 1;
                } else {
                    const uint32_t row = gw, slice = gw * gh;
                    uint32_t s1, s2;
                    const bool st = fx > fy, tr = fy > fz, sr = fx > fz;
                    if (st && tr) {
                        s1 = 1, s2 = row, w[0] = 16 - fx, w[1] = fx - fy, w[2] = fy - fz, w[3] = fz;
                    } else if (!st && tr && sr) {
                        s1 = row, s2 = 1, w[0] = 16 - fy, w[1] = fy - fx, w[2] = fx - fz, w[3] = fz;
                    } else if (st && !tr && sr) {
                        s1 = 1, s2 = slice, w[0] = 16 - fx, w[1] = fx - fz, w[2] = fz - fy, w[3] = fy;
                    } else if (st && !tr && !sr) {
                        s1 = slice, s2 = 1, w[0] = 16 - fz, w[1] = fz - fx, w[2] = fx - fy, w[3] = fy;
                    } else if (!st && tr && !sr) {
                        s1 = row, s2 = slice, w[0] = 16 - fy, w[1] = fy - fz, w[2] = fz - fx, w[3] = fx;
                    } else {
                        s1 = slice, s2 = row, w[0] = 16 - fz, w[1] = fz - fy, w[2] = fy - fx, w[3] = fx;
                    }
                    const uint32_t v0 = jx + jy * row + jz * slice;
                    i[0] = v0, i[1] = v0 + s1, i[2] = v0 + s1 + s2, i[3] = v0 + slice + row + 1;
                }
                for (int k = 0; k < 4; ++k) {
                    if (w[k] == 0 || i[k] >= gw * gh * gd) i[k] = 0;  // (a factor-0 corner: any index)
                    idx[4 * texel + k] = uint8_t(i[k]);
                    fac[4 * texel + k] = uint8_t(w[k]);
                }
                if (!(w[0] == 16 && i[0] == texel)) identity = false;
            }
    g.identity = identity;
}

// The tables of a footprint (the same for every variant and store).
std::shared_ptr<const AstcTables> build_tables(uint32_t bw, uint32_t bh, uint32_t bd) {
    try {
        auto t = std::make_shared<AstcTables>();
        t->bw = bw, t->bh = bh, t->bd = bd;
        t->texels = t->bw * t->bh * t->bd;
        std::vector<bool> built(std::size(t->grids), false);
        for (uint32_t mode = 0; mode < 2048; ++mode) {
            const luts::BlockMode m = luts::decode_block_mode(mode, t->bw, t->bh, t->bd);
            uint32_t word = TEXDEC_FIELD_PUT(TEXDEC_ASTC_MODE_ERROR, TEXDEC_ASTC_MODE_KIND);
            if (m.kind == luts::BlockModeKind::weights) {
                word = TEXDEC_FIELD_PUT(TEXDEC_ASTC_MODE_WEIGHTS, TEXDEC_ASTC_MODE_KIND) |
                       TEXDEC_FIELD_PUT(uint32_t{m.grid_w}, TEXDEC_ASTC_MODE_GRID_W) |
                       TEXDEC_FIELD_PUT(uint32_t{m.grid_h}, TEXDEC_ASTC_MODE_GRID_H) |
                       TEXDEC_FIELD_PUT(uint32_t{m.grid_d}, TEXDEC_ASTC_MODE_GRID_D) |
                       TEXDEC_FIELD_PUT(uint32_t{m.weight_range}, TEXDEC_ASTC_MODE_WEIGHT_RANGE) |
                       TEXDEC_FIELD_PUT(uint32_t{m.dual_plane}, TEXDEC_ASTC_MODE_DUAL_PLANE) |
                       TEXDEC_FIELD_PUT(uint32_t{m.weight_bits}, TEXDEC_ASTC_MODE_WEIGHT_BITS);
                const uint32_t key = grid_key(m.grid_w, m.grid_h, m.grid_d);
                if (!built[key]) build_infill(*t, m.grid_w, m.grid_h, m.grid_d);
                built[key] = true;
            }
            t->modes[mode] = word;
        }
        const auto trits = luts::trit_table();
        for (size_t i = 0; i < trits.size(); ++i) {
            t->trits[i] = 0;
            for (size_t j = 0; j < 5; ++j) t->trits[i] |= uint16_t(trits[i][j] << (2 * j));
        }
        const auto quints = luts::quint_table();
        for (size_t i = 0; i < quints.size(); ++i) {
            t->quints[i] = 0;
            for (size_t j = 0; j < 3; ++j) t->quints[i] |= uint16_t(quints[i][j] << (3 * j));
        }
        const auto weights = luts::weight_unquantize_table();
        std::copy(weights.begin(), weights.end(), t->weight_unq);
        const auto colours = luts::color_unquantize_table();
        std::copy(colours.begin(), colours.end(), t->colour_unq);
        for (uint32_t pairs = 1; pairs <= 16; ++pairs)
            for (int remaining = 0; remaining < 128; ++remaining) {
                const int range = luts::color_range_for(2 * pairs, remaining);
                t->colour_range[(pairs - 1) * 128 + uint32_t(remaining)] = range < 0 ? 0xFF : uint8_t(range);
            }
        for (uint32_t i = 0; i < 256; ++i) t->srgb_half[i] = uint16_t(half_from_ratio(i, 255));
        t->partitions.resize(3 * luts::kPartitionSeedCount * t->texels);
        for (uint32_t count = 2; count <= 4; ++count) {
            const luts::PartitionTable p = luts::partition_table(t->bw, t->bh, t->bd, count);
            for (uint32_t seed = 0; seed < luts::kPartitionSeedCount; ++seed)
                for (uint32_t texel = 0; texel < t->texels; ++texel)
                    t->partitions[((count - 2) * luts::kPartitionSeedCount + seed) * t->texels + texel] =
                        p.at(seed, texel);
        }
        return t;
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

// A footprint's tables are shared by every context and variant while one of them holds them:
// building them takes milliseconds (the partition patterns of 3 x 1024 seeds).
std::shared_ptr<const void> make_tables(const Variant& v) {
    static std::mutex mutex;
    static std::map<uint32_t, std::weak_ptr<const AstcTables>> cache;
    const uint32_t bw = v.format->block_width, bh = v.format->block_height, bd = v.format->block_depth;
    const uint32_t key = bw | (bh << 8) | (bd << 16);
    std::lock_guard<std::mutex> lock(mutex);
    try {
        std::weak_ptr<const AstcTables>& slot = cache[key];
        std::shared_ptr<const AstcTables> t = slot.lock();
        if (!t) {
            t = build_tables(bw, bh, bd);
            slot = t;
        }
        return t;
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

// ---- "Integer Sequence Encoding" ----------------------------------------------------------------

struct IseRange {
    uint32_t bits;  // n
    bool trits;
    bool quints;
};

inline IseRange ise_range(uint32_t range) {
    const luts::IseRange& r = luts::kIseRanges[range];
    return {r.bits, r.trits != 0, r.quints != 0};
}

// "Data Size Determination": bits used by `count` values.
inline uint32_t ise_length(IseRange r, uint32_t count) {
    return (count * 8u * uint32_t(r.trits) + 4u) / 5u + (count * 7u * uint32_t(r.quints) + 2u) / 3u + count * r.bits;
}

// The first `count` values of a sequence of range `r` (the stream at bit 0 of `s`, masked to its
// length: "If there are insufficient bits in the stream to fill the final block, then unused
// (higher-order) bits are assumed to be 0"), each mapped through `unq`. "ASTC trit-based
// packing": 5 values in 8 + 5n bits, each value's n bits followed by 2, 2, 1, 2, 1 bits of T;
// "ASTC quint-based packing": 3 values in 7 + 3n bits, followed by 3, 2, 2 bits of Q. A group
// (at most 38 bits) is taken from the stream at once, then split.
void ise_decode(const AstcTables& t, u128 s, IseRange r, uint32_t count, const uint8_t* unq, uint8_t* out) {
    const uint32_t n = r.bits;
    const uint64_t m = (1u << n) - 1u;
    if (r.trits) {
        for (uint32_t i = 0; i < count; i += 5) {
            const uint64_t g = uint64_t(s);
            s >>= 8 + 5 * n;
            const uint32_t packed = uint32_t(((g >> n) & 3u) | ((g >> (2 * n)) & 0xCu) | ((g >> (3 * n)) & 0x10u) |
                                             ((g >> (4 * n)) & 0x60u) | ((g >> (5 * n)) & 0x80u));
            const uint32_t d = t.trits[packed];
            uint32_t v[5] = {uint32_t(g & m), uint32_t((g >> (n + 2)) & m), uint32_t((g >> (2 * n + 4)) & m),
                             uint32_t((g >> (3 * n + 5)) & m), uint32_t((g >> (4 * n + 7)) & m)};
            for (uint32_t j = 0; j < 5 && i + j < count; ++j) out[i + j] = unq[(((d >> (2 * j)) & 3u) << n) | v[j]];
        }
    } else if (r.quints) {
        for (uint32_t i = 0; i < count; i += 3) {
            const uint64_t g = uint64_t(s);
            s >>= 7 + 3 * n;
            const uint32_t packed = uint32_t(((g >> n) & 7u) | ((g >> (2 * n)) & 0x18u) | ((g >> (3 * n)) & 0x60u));
            const uint32_t d = t.quints[packed];
            uint32_t v[3] = {uint32_t(g & m), uint32_t((g >> (n + 3)) & m), uint32_t((g >> (2 * n + 5)) & m)};
            for (uint32_t j = 0; j < 3 && i + j < count; ++j) out[i + j] = unq[(((d >> (3 * j)) & 7u) << n) | v[j]];
        }
    } else {
        for (uint32_t i = 0; i < count; ++i) {
            out[i] = unq[uint32_t(s) & m];
            s >>= n;
        }
    }
}

// ---- output codes -------------------------------------------------------------------------------

// decode_float16 of a UNORM16 result ("Weight Application"): C / 65536 to FP16 with round-to-zero,
// 65535 being 1.0 exactly (astc.comp's half_from_unorm16).
inline uint32_t half_from_unorm16(uint32_t c) {
    if (c == 65535u) return kHalfOne;
    if (c < 4u) return c << 8u;
    const int k = 31 - std::countl_zero(c);
    const uint32_t mantissa = k >= 10 ? (c >> (k - 10)) : (c << (10 - k));
    return (uint32_t(k - 1) << 10u) | (mantissa & 0x3FFu);
}

enum class Mode { ldr, srgb, hdr };  // linear LDR, sRGB (both the LDR variant), HDR variant
enum class Store { rgba8, rgba16f, other };

// The error colours (docs/EXACTNESS.md, "ASTC error colours"): RGBA8 magenta; RGBA16F NaN for
// illegal blocks (linear modes), magenta for HDR endpoints in LDR and every sRGB error.
void error_codes(bool half, bool srgb, bool illegal, uint32_t c[4]) {
    if (!half) {
        c[0] = 255, c[1] = 0, c[2] = 255, c[3] = 255;
    } else if (illegal && !srgb) {
        c[0] = c[1] = c[2] = c[3] = 0xFFFFu;
    } else {
        c[0] = kHalfOne, c[1] = 0, c[2] = kHalfOne, c[3] = kHalfOne;
    }
}

// The codes of an interpolated value in an LDR endpoint mode (the shader's unorm16_codes, or
// hdr_variant_codes with no HDR channel).
template <Mode M>
inline void unorm16_codes(const AstcTables& t, bool half, const uint32_t c[4], uint32_t out[4]) {
    for (int i = 0; i < 4; ++i) {
        if (!half) out[i] = c[i] >> 8;
        else if (M == Mode::srgb) out[i] = t.srgb_half[c[i] >> 8];
        else out[i] = half_from_unorm16(c[i]);
    }
}

// ---- writing texels -------------------------------------------------------------------------------

struct Out {
    uint8_t* base;  // texel (0, 0, 0) of the block
    size_t row_pitch, slice_pitch;
    uint32_t texel_bytes, store;
};

template <Store S>
inline void put(const Out& o, uint8_t* p, const uint32_t c[4]) {
    if constexpr (S == Store::rgba8) {
        const uint32_t w = c[0] | (c[1] << 8) | (c[2] << 16) | (c[3] << 24);
        std::memcpy(p, &w, 4);
    } else if constexpr (S == Store::rgba16f) {
        const uint64_t w = uint64_t(c[0] | (c[1] << 16)) | (uint64_t(c[2] | (c[3] << 16)) << 32);
        std::memcpy(p, &w, 8);
    } else {
        pack_texel(o.store, c, p);
    }
}

// Every texel of the block gets the same codes.
template <Store S>
void fill_block(const AstcTables& t, const Out& o, const uint32_t c[4]) {
    uint8_t texel[8];
    put<S>(o, texel, c);
    for (uint32_t z = 0; z < t.bd; ++z)
        for (uint32_t y = 0; y < t.bh; ++y) {
            uint8_t* row = o.base + z * o.slice_pitch + y * o.row_pitch;
            if constexpr (S == Store::rgba8) {
                for (uint32_t x = 0; x < t.bw; ++x) std::memcpy(row + 4 * x, texel, 4);
            } else if constexpr (S == Store::rgba16f) {
                for (uint32_t x = 0; x < t.bw; ++x) std::memcpy(row + 8 * x, texel, 8);
            } else {
                for (uint32_t x = 0; x < t.bw; ++x) std::memcpy(row + x * o.texel_bytes, texel, o.texel_bytes);
            }
        }
}

// ---- "LDR Endpoint Decoding" ----------------------------------------------------------------------

inline void bit_transfer_signed(int& a, int& b) {
    b >>= 1;
    b |= a & 0x80;
    a >>= 1;
    a &= 0x3F;
    if ((a & 0x20) != 0) a -= 0x40;
}

inline void blue_contract(int r, int g, int b, int a, int e[4]) {
    e[0] = (r + b) >> 1, e[1] = (g + b) >> 1, e[2] = b, e[3] = a;
}

inline void set4(int e[4], int r, int g, int b, int a) { e[0] = r, e[1] = g, e[2] = b, e[3] = a; }

// Endpoints e0, e1 (0..255) of an LDR endpoint mode from its unquantized values v.
void ldr_endpoints(uint32_t cem, int v[8], int e0[4], int e1[4]) {
    switch (cem) {
    case 0:  // Luminance, direct
        set4(e0, v[0], v[0], v[0], 255);
        set4(e1, v[1], v[1], v[1], 255);
        break;
    case 1: {  // Luminance, base+offset
        const int l0 = (v[0] >> 2) | (v[1] & 0xC0);
        const int l1 = std::min(l0 + (v[1] & 0x3F), 255);
        set4(e0, l0, l0, l0, 255);
        set4(e1, l1, l1, l1, 255);
        break;
    }
    case 4:  // Luminance+Alpha, direct
        set4(e0, v[0], v[0], v[0], v[2]);
        set4(e1, v[1], v[1], v[1], v[3]);
        break;
    case 5:  // Luminance+Alpha, base+offset
        bit_transfer_signed(v[1], v[0]);
        bit_transfer_signed(v[3], v[2]);
        set4(e0, v[0], v[0], v[0], v[2]);
        set4(e1, v[0] + v[1], v[0] + v[1], v[0] + v[1], v[2] + v[3]);
        break;
    case 6:  // RGB, base+scale
        set4(e0, (v[0] * v[3]) >> 8, (v[1] * v[3]) >> 8, (v[2] * v[3]) >> 8, 255);
        set4(e1, v[0], v[1], v[2], 255);
        break;
    case 10:  // RGB, base+scale plus two A
        set4(e0, (v[0] * v[3]) >> 8, (v[1] * v[3]) >> 8, (v[2] * v[3]) >> 8, v[4]);
        set4(e1, v[0], v[1], v[2], v[5]);
        break;
    case 8:
    case 12: {  // RGB / RGBA, direct (alpha 0xFF for mode 8)
        const int a0 = cem == 12 ? v[6] : 255, a1 = cem == 12 ? v[7] : 255;
        if (v[1] + v[3] + v[5] >= v[0] + v[2] + v[4]) {
            set4(e0, v[0], v[2], v[4], a0);
            set4(e1, v[1], v[3], v[5], a1);
        } else {
            blue_contract(v[1], v[3], v[5], a1, e0);
            blue_contract(v[0], v[2], v[4], a0, e1);
        }
        break;
    }
    default: {  // 9, 13: RGB / RGBA, base+offset
        bit_transfer_signed(v[1], v[0]);
        bit_transfer_signed(v[3], v[2]);
        bit_transfer_signed(v[5], v[4]);
        int a0 = 255, a1 = 255;
        if (cem == 13) {
            bit_transfer_signed(v[7], v[6]);
            a0 = v[6];
            a1 = v[6] + v[7];
        }
        if (v[1] + v[3] + v[5] >= 0) {
            set4(e0, v[0], v[2], v[4], a0);
            set4(e1, v[0] + v[1], v[2] + v[3], v[4] + v[5], a1);
        } else {
            blue_contract(v[0] + v[1], v[2] + v[3], v[4] + v[5], a1, e0);
            blue_contract(v[0], v[2], v[4], a0, e1);
        }
        break;
    }
    }
    // clamp_unorm8 (a no-op for the modes that cannot leave 0..255)
    for (int i = 0; i < 4; ++i) e0[i] = std::clamp(e0[i], 0, 255), e1[i] = std::clamp(e1[i], 0, 255);
}

// ---- "HDR Endpoint Decoding" (HDR variant) -------------------------------------------------------
// 12-bit values, 0..0xFFF (pseudo-logarithmic); the spec's procedures, with its names.

inline int sign_extend(int v, int bits) { return int(uint32_t(v) << (32 - bits)) >> (32 - bits); }

inline void swizzle_major(int majcomp, int e[3]) {
    if (majcomp == 1) std::swap(e[0], e[1]);       // grb
    else if (majcomp == 2) std::swap(e[0], e[2]);  // bgr
}

// "HDR Endpoint Mode 11": the RGB of e0 and e1 from v[0..5] (also the RGB of modes 14 and 15).
void hdr_rgb_endpoints(const int v[8], int e0[3], int e1[3]) {
    const int majcomp = ((v[4] & 0x80) >> 7) | ((v[5] & 0x80) >> 6);
    if (majcomp == 3) {  // "the RGB values are specified directly"
        e0[0] = v[0] << 4, e0[1] = v[2] << 4, e0[2] = (v[4] & 0x7F) << 5;
        e1[0] = v[1] << 4, e1[1] = v[3] << 4, e1[2] = (v[5] & 0x7F) << 5;
        return;
    }
    const int mode = ((v[1] & 0x80) >> 7) | ((v[2] & 0x80) >> 6) | ((v[3] & 0x80) >> 5);
    int va = v[0] | ((v[1] & 0x40) << 2);
    int vb0 = v[2] & 0x3F, vb1 = v[3] & 0x3F;
    int vc = v[1] & 0x3F;
    // signextend(vd, dbitstab[mode]) with dbitstab = {7, 6, 7, 6, 5, 6, 5, 6}
    const int dbits = mode == 4 || mode == 6 ? 5 : (mode & 1) != 0 ? 6 : 7;
    int vd0 = sign_extend(v[4] & 0x7F, dbits), vd1 = sign_extend(v[5] & 0x7F, dbits);
    const int x0 = (v[2] >> 6) & 1, x1 = (v[3] >> 6) & 1, x2 = (v[4] >> 6) & 1;
    const int x3 = (v[5] >> 6) & 1, x4 = (v[4] >> 5) & 1, x5 = (v[5] >> 5) & 1;
    const int ohm = 1 << mode;
    if ((ohm & 0xA4) != 0) va |= x0 << 9;
    if ((ohm & 0x08) != 0) va |= x2 << 9;
    if ((ohm & 0x50) != 0) va |= x4 << 9;
    if ((ohm & 0x50) != 0) va |= x5 << 10;
    if ((ohm & 0xA0) != 0) va |= x1 << 10;
    if ((ohm & 0xC0) != 0) va |= x2 << 11;
    if ((ohm & 0x04) != 0) vc |= x1 << 6;
    if ((ohm & 0xE8) != 0) vc |= x3 << 6;
    if ((ohm & 0x20) != 0) vc |= x2 << 7;
    if ((ohm & 0x5B) != 0) vb0 |= x0 << 6;
    if ((ohm & 0x5B) != 0) vb1 |= x1 << 6;
    if ((ohm & 0x12) != 0) vb0 |= x2 << 7;
    if ((ohm & 0x12) != 0) vb1 |= x3 << 7;
    // The spec writes "(modeval >> 1) ^ 3"; `mode` is meant (astc.comp says why).
    const int shamt = (mode >> 1) ^ 3;
    // Left shifts of possibly negative values, as the shader's (two's complement) int shifts.
    auto shl = [shamt](int x) { return int(uint32_t(x) << shamt); };
    va = shl(va), vb0 = shl(vb0), vb1 = shl(vb1), vc = shl(vc), vd0 = shl(vd0), vd1 = shl(vd1);
    e1[0] = std::clamp(va, 0, 0xFFF), e1[1] = std::clamp(va - vb0, 0, 0xFFF), e1[2] = std::clamp(va - vb1, 0, 0xFFF);
    e0[0] = std::clamp(va - vc, 0, 0xFFF), e0[1] = std::clamp(va - vb0 - vc - vd0, 0, 0xFFF),
    e0[2] = std::clamp(va - vb1 - vc - vd1, 0, 0xFFF);
    swizzle_major(majcomp, e0);
    swizzle_major(majcomp, e1);
}

// "HDR Endpoint Mode 7": base RGB and a scale.
void hdr_rgbo_endpoints(const int v[8], int e0[3], int e1[3]) {
    const int modeval = ((v[0] & 0xC0) >> 6) | ((v[1] & 0x80) >> 5) | ((v[2] & 0x80) >> 4);
    int majcomp, mode;
    if ((modeval & 0xC) != 0xC) {
        majcomp = modeval >> 2, mode = modeval & 3;
    } else if (modeval != 0xF) {
        majcomp = modeval & 3, mode = 4;
    } else {
        majcomp = 0, mode = 5;
    }
    int red = v[0] & 0x3F, green = v[1] & 0x1F, blue = v[2] & 0x1F, scale = v[3] & 0x1F;
    const int x0 = (v[1] >> 6) & 1, x1 = (v[1] >> 5) & 1, x2 = (v[2] >> 6) & 1, x3 = (v[2] >> 5) & 1;
    const int x4 = (v[3] >> 7) & 1, x5 = (v[3] >> 6) & 1, x6 = (v[3] >> 5) & 1;
    const int ohm = 1 << mode;
    if ((ohm & 0x30) != 0) green |= x0 << 6;
    if ((ohm & 0x3A) != 0) green |= x1 << 5;
    if ((ohm & 0x30) != 0) blue |= x2 << 6;
    if ((ohm & 0x3A) != 0) blue |= x3 << 5;
    if ((ohm & 0x3D) != 0) scale |= x6 << 5;
    if ((ohm & 0x2D) != 0) scale |= x5 << 6;
    if ((ohm & 0x04) != 0) scale |= x4 << 7;
    if ((ohm & 0x3B) != 0) red |= x4 << 6;
    if ((ohm & 0x04) != 0) red |= x3 << 6;
    if ((ohm & 0x10) != 0) red |= x5 << 7;
    if ((ohm & 0x0F) != 0) red |= x2 << 7;
    if ((ohm & 0x05) != 0) red |= x1 << 8;
    if ((ohm & 0x0A) != 0) red |= x0 << 8;
    if ((ohm & 0x05) != 0) red |= x0 << 9;
    if ((ohm & 0x02) != 0) red |= x6 << 9;
    if ((ohm & 0x01) != 0) red |= x3 << 10;
    if ((ohm & 0x02) != 0) red |= x5 << 10;
    const int shamt = std::max(mode, 1);  // shamts = {1, 1, 2, 3, 4, 5}
    int c[3] = {red << shamt, green << shamt, blue << shamt};
    scale <<= shamt;
    if (mode != 5) c[1] = c[0] - c[1], c[2] = c[0] - c[2];  // minor components are differences
    swizzle_major(majcomp, c);
    for (int i = 0; i < 3; ++i) e1[i] = std::clamp(c[i], 0, 0xFFF), e0[i] = std::clamp(c[i] - scale, 0, 0xFFF);
}

// Endpoints of an HDR endpoint mode (2, 3, 7, 11, 14, 15) from its unquantized values v: RGB
// (and alpha, except mode 14's 8-bit LDR alpha) as 12-bit values.
void hdr_endpoints(uint32_t cem, const int v[8], int e0[4], int e1[4]) {
    const int one = 0x780;  // "0x780 is 1.0f"
    switch (cem) {
    case 2: {  // "HDR Endpoint Mode 2": luminance, large range
        const int y0 = v[1] >= v[0] ? v[0] << 4 : (v[1] << 4) + 8;
        const int y1 = v[1] >= v[0] ? v[1] << 4 : (v[0] << 4) - 8;
        set4(e0, y0, y0, y0, one);
        set4(e1, y1, y1, y1, one);
        break;
    }
    case 3: {  // "HDR Endpoint Mode 3": luminance, small range; bit 7 of v0 is the mode bit M
        const bool m = (v[0] & 0x80) != 0;
        const int y0 = m ? ((v[1] & 0xE0) << 4) | ((v[0] & 0x7F) << 2) : ((v[1] & 0xF0) << 4) | ((v[0] & 0x7F) << 1);
        const int d = m ? (v[1] & 0x1F) << 2 : (v[1] & 0x0F) << 1;
        const int y1 = std::min(y0 + d, 0xFFF);
        set4(e0, y0, y0, y0, one);
        set4(e1, y1, y1, y1, one);
        break;
    }
    case 7:
        hdr_rgbo_endpoints(v, e0, e1);
        e0[3] = e1[3] = one;
        break;
    default: {  // 11, 14, 15
        hdr_rgb_endpoints(v, e0, e1);
        int a0 = one, a1 = one;
        if (cem == 14) {  // "HDR Endpoint Mode 14": 8-bit LDR alpha, interpolated as in the LDR modes
            a0 = v[6], a1 = v[7];
        } else if (cem == 15) {  // "HDR Endpoint Mode 15": HDR alpha, a mode M and two values
            const int mode = ((v[6] >> 7) & 1) | ((v[7] >> 6) & 2);
            int v6 = v[6] & 0x7F, v7 = v[7] & 0x7F;
            if (mode == 3) {
                a0 = v6 << 5, a1 = v7 << 5;
            } else {
                // Transfer bits from v7 to v6 and sign-extend v7, then add it as a delta.
                v6 |= (v7 << (mode + 1)) & 0x780;
                v7 &= 0x3F >> mode;
                v7 ^= 0x20 >> mode;
                v7 -= 0x20 >> mode;
                v6 <<= 4 - mode;
                v7 = int(uint32_t(v7) << (4 - mode));
                a0 = v6, a1 = std::clamp(v7 + v6, 0, 0xFFF);
            }
        }
        e0[3] = a0, e1[3] = a1;
        break;
    }
    }
}

// ---- block decoding --------------------------------------------------------------------------------

constexpr uint32_t kHdrEndpointModes = 0xC88Cu;  // bit m set for modes 2, 3, 7, 11, 14, 15

// What a block with stored weights decodes to, before the texel loop.
struct BlockState {
    uint32_t partitions;
    const uint8_t* part;  // partition of each texel (nullptr: one partition)
    bool dual;
    uint32_t ccs;
    uint32_t err_parts;           // LDR variant: partitions whose texels take the HDR-endpoint error colour
    uint32_t hdr_rgb, hdr_alpha;  // HDR variant: partitions whose RGB / alpha are HDR
    uint32_t c0[4][4], c1[4][4];  // 16-bit endpoints per partition
};

// ---- the texel loop ----------------------------------------------------------------------------------
// "Weight Application" computes C = (C0 * (64 - w) + C1 * w + 32) >> 6 per channel. Every term is an
// integer below 2^23, so the sum x = (C0 * 64 + 32) + (C1 - C0) * w is exact in binary32, and so are
// x / 64 and x / 2^14 (powers of two); truncating them (x >= 0) gives C and C >> 8 exactly. The
// four channels of a texel are one vector of four floats: GCC and Clang's vector extensions, else
// (MSVC, or TEXDEC_PORTABLE_SCALAR) four-lane structs computed lane by lane, with the same results.

#if defined(__GNUC__) && !defined(TEXDEC_PORTABLE_SCALAR)
#define TEXDEC_ASTC_VECTORS 1
typedef float f4 __attribute__((vector_size(16)));
typedef int32_t i4 __attribute__((vector_size(16)));
inline f4 to_f4(i4 v) { return __builtin_convertvector(v, f4); }
inline i4 to_i4(f4 v) { return __builtin_convertvector(v, i4); }  // truncates
// Lane i of a where mask lane i is nonzero, else of b.
inline i4 select(i4 mask, i4 a, i4 b) { return mask ? a : b; }
inline f4 select(i4 mask, f4 a, f4 b) { return mask ? a : b; }
#else
#define TEXDEC_ASTC_VECTORS 0
template <class T>
struct Lanes {
    T v[4];
    T& operator[](int i) { return v[i]; }
    const T& operator[](int i) const { return v[i]; }
};
using f4 = Lanes<float>;
using i4 = Lanes<int32_t>;
template <class T, class F>
Lanes<T> lanes(F f) {
    return {{f(0), f(1), f(2), f(3)}};
}
// What the vector extensions do: lane by lane, a scalar operand taken for every lane, comparisons
// give -1 (true) or 0 per lane.
template <class T>
T lane(const Lanes<T>& a, int i) {
    return a[i];
}
template <class T>
T lane(T a, int) {
    return a;
}
#define TEXDEC_LANES_OP(op)                                      \
    template <class T>                                           \
    Lanes<T> operator op(const Lanes<T>& a, const Lanes<T>& b) { \
        return lanes<T>([&](int i) { return T(a[i] op b[i]); }); \
    }                                                            \
    template <class T, class S>                                  \
    Lanes<T> operator op(const Lanes<T>& a, S b) {               \
        return lanes<T>([&](int i) { return T(a[i] op T(b)); }); \
    }                                                            \
    template <class T, class S>                                  \
    Lanes<T> operator op(S a, const Lanes<T>& b) {               \
        return lanes<T>([&](int i) { return T(T(a) op b[i]); }); \
    }
#define TEXDEC_LANES_CMP(op)                                                                         \
    template <class T, class U>                                                                      \
    i4 operator op(const Lanes<T>& a, const U& b) {                                                  \
        return lanes<int32_t>([&](int i) { return a[i] op lane(b, i) ? int32_t(-1) : int32_t(0); }); \
    }
TEXDEC_LANES_OP(+)
TEXDEC_LANES_OP(-)
TEXDEC_LANES_OP(*)
TEXDEC_LANES_OP(&)
TEXDEC_LANES_OP(>>)
TEXDEC_LANES_OP(<<)
TEXDEC_LANES_CMP(<)
TEXDEC_LANES_CMP(>=)
TEXDEC_LANES_CMP(==)
#undef TEXDEC_LANES_OP
#undef TEXDEC_LANES_CMP
inline f4 to_f4(i4 v) {
    return lanes<float>([&](int i) { return float(v[i]); });
}
inline i4 to_i4(f4 v) {
    return lanes<int32_t>([&](int i) { return int32_t(v[i]); });
}
template <class T>
Lanes<T> select(i4 mask, const Lanes<T>& a, const Lanes<T>& b) {
    return lanes<T>([&](int i) { return mask[i] ? a[i] : b[i]; });
}
#endif
#if defined(__SSE2__) && TEXDEC_ASTC_VECTORS
#define TEXDEC_ASTC_SSE2 1
#else
#define TEXDEC_ASTC_SSE2 0
#endif

// The low byte of each lane, as a little-endian word (lanes 0..3 = bytes 0..3); lanes are 0..255.
inline uint32_t pack_bytes(i4 v) {
#if TEXDEC_ASTC_SSE2
    const __m128i w = _mm_packs_epi32(__m128i(v), __m128i(v));
    return uint32_t(_mm_cvtsi128_si32(_mm_packus_epi16(w, w)));
#else
    return uint32_t(v[0]) | (uint32_t(v[1]) << 8) | (uint32_t(v[2]) << 16) | (uint32_t(v[3]) << 24);
#endif
}

// The low 16 bits of each lane, little-endian; lanes are 0..0x7FFF.
inline uint64_t pack_halves(i4 v) {
#if TEXDEC_ASTC_SSE2
    const __m128i w = _mm_packs_epi32(__m128i(v), __m128i(v));
    return uint64_t(_mm_cvtsi128_si64(w));
#else
    return uint64_t(uint32_t(v[0]) | (uint32_t(v[1]) << 16)) |
           (uint64_t(uint32_t(v[2]) | (uint32_t(v[3]) << 16)) << 32);
#endif
}

// half_from_unorm16 on four lanes (c <= 65535): for 4 <= c < 65535 the FP16 bits of c / 65536
// rounded toward zero are the binary32 bits of c (exact) with the exponent rebased and the
// mantissa truncated to 10 bits.
inline i4 half_from_unorm16_4(i4 c) {
    const f4 f = to_f4(c);
    i4 bits;
    std::memcpy(&bits, &f, sizeof bits);
    const i4 normal = (bits >> 13) - 0x20000;
    const i4 h = select(c < 4, c << 8, normal);
    return select(c == 65535, i4{0} + int32_t(kHalfOne), h);
}

// "Weight Application", HDR endpoint modes, on four lanes: the FP16 bits of an interpolated
// 16-bit value (astc.comp's half_from_hdr16); +Inf and NaN become 0x7BFF.
inline i4 half_from_hdr16_4(i4 c) {
    const i4 m = c & 0x7FF;
    const i4 mt = select(m < 512, 3 * m, select(m >= 1536, 5 * m - 2048, 4 * m - 512));
    const i4 h = ((c >> 11) << 10) + (mt >> 3);
    return select(h < 0x7BFF, h, i4{0} + 0x7BFF);
}

// The texels of a block with stored weights, from the weight of each texel (w1: the second plane,
// for channel st.ccs) and the partition of each texel.
template <Mode M, Store S>
void weight_texels(const AstcTables& t, const Out& o, const BlockState& st, const uint8_t* w0, const uint8_t* w1) {
    const bool half = S == Store::rgba16f || (S == Store::other && o.store == TEXDEC_STORE_RGBA16F);
    static constexpr uint8_t kNoPartitions[kMaxTexels] = {};
    const uint8_t* part = st.part ? st.part : kNoPartitions;
    if (!st.dual) w1 = w0;
    // Per partition: x = base + delta * w (see above); HDR variant: which lanes are HDR.
    f4 base[4], delta[4];
    i4 hdr_lanes[4];
    for (uint32_t p = 0; p < st.partitions; ++p) {
        const bool err = ((st.err_parts >> p) & 1u) != 0;  // (endpoints not decoded: texels patched below)
        for (int i = 0; i < 4; ++i) {
            base[p][i] = err ? 0.0f : float(st.c0[p][i] * 64u + 32u);
            delta[p][i] = err ? 0.0f : float(int32_t(st.c1[p][i]) - int32_t(st.c0[p][i]));
        }
        const int32_t rgb = ((st.hdr_rgb >> p) & 1u) != 0 ? -1 : 0, alpha = ((st.hdr_alpha >> p) & 1u) != 0 ? -1 : 0;
        hdr_lanes[p] = i4{rgb, rgb, rgb, alpha};
    }
    const i4 plane1 = st.dual ? i4{0, 1, 2, 3} == int32_t(st.ccs) : i4{0};  // lanes that take w1
#if TEXDEC_ASTC_SSE2
    if constexpr (S == Store::rgba8 && M != Mode::hdr) {
        // The common shape (one partition, one plane, rows of whole groups of 4 texels): 4 texels
        // at once, one vector per channel, then interleaved into RGBA bytes.
        if (st.partitions == 1 && !st.dual && st.err_parts == 0 && (t.bw & 3u) == 0) {
            const f4 scale = f4{} + 1.0f / 16384.0f;
            const f4 b0 = f4{} + base[0][0], b1 = f4{} + base[0][1], b2 = f4{} + base[0][2], b3 = f4{} + base[0][3];
            const f4 d0 = f4{} + delta[0][0], d1 = f4{} + delta[0][1], d2 = f4{} + delta[0][2], d3 = f4{} + delta[0][3];
            const __m128i zero = _mm_setzero_si128();
            uint32_t texel = 0;
            for (uint32_t z = 0; z < t.bd; ++z)
                for (uint32_t y = 0; y < t.bh; ++y) {
                    uint8_t* row = o.base + z * o.slice_pitch + y * o.row_pitch;
                    for (uint32_t x = 0; x < t.bw; x += 4, texel += 4) {
                        int32_t w4;
                        std::memcpy(&w4, w0 + texel, 4);
                        const __m128i wi = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(w4), zero), zero);
                        const f4 w = f4(_mm_cvtepi32_ps(wi));
                        const __m128i r = __m128i(__builtin_convertvector((b0 + d0 * w) * scale, i4));
                        const __m128i g = __m128i(__builtin_convertvector((b1 + d1 * w) * scale, i4));
                        const __m128i b = __m128i(__builtin_convertvector((b2 + d2 * w) * scale, i4));
                        const __m128i a = __m128i(__builtin_convertvector((b3 + d3 * w) * scale, i4));
                        // r0..r3 g0..g3 b0..b3 a0..a3, then r0 b0 r1 b1 .. g0 a0 .., then r0 g0 b0 a0 ..
                        const __m128i planar = _mm_packus_epi16(_mm_packs_epi32(r, g), _mm_packs_epi32(b, a));
                        const __m128i pairs = _mm_unpacklo_epi8(planar, _mm_srli_si128(planar, 8));
                        _mm_storeu_si128(reinterpret_cast<__m128i*>(row + 4 * x),
                                         _mm_unpacklo_epi8(pairs, _mm_srli_si128(pairs, 8)));
                    }
                }
            return;
        }
    }
#endif
    uint32_t texel = 0;
    for (uint32_t z = 0; z < t.bd; ++z)
        for (uint32_t y = 0; y < t.bh; ++y) {
            uint8_t* p = o.base + z * o.slice_pitch + y * o.row_pitch;
            for (uint32_t x = 0; x < t.bw; ++x, ++texel, p += o.texel_bytes) {
                const uint32_t q = part[texel];
                const f4 w = select(plane1, f4{} + float(w1[texel]), f4{} + float(w0[texel]));
                const f4 sum = base[q] + delta[q] * w;
                if constexpr (S == Store::rgba8 && M != Mode::hdr) {
                    const uint32_t v = pack_bytes(to_i4(sum * (1.0f / 16384.0f)));
                    std::memcpy(p, &v, 4);
                    continue;
                }
                const i4 c = to_i4(sum * (1.0f / 64.0f));
                i4 codes;
                if constexpr (M == Mode::hdr) {
                    codes = select(hdr_lanes[q], half_from_hdr16_4(c), half_from_unorm16_4(c));
                } else if (!half) {
                    codes = c >> 8;
                } else if (M == Mode::srgb) {
                    for (int i = 0; i < 4; ++i) codes[i] = t.srgb_half[c[i] >> 8];
                } else {
                    codes = half_from_unorm16_4(c);
                }
                if constexpr (S == Store::rgba16f) {
                    const uint64_t v = pack_halves(codes);
                    std::memcpy(p, &v, 8);
                } else {
                    const uint32_t cc[4] = {uint32_t(codes[0]), uint32_t(codes[1]), uint32_t(codes[2]),
                                            uint32_t(codes[3])};
                    put<S>(o, p, cc);
                }
            }
        }
    if (M != Mode::hdr && st.err_parts != 0) {
        // LDR variant: the texels of partitions with an HDR endpoint mode take the error colour.
        uint32_t err[4];
        error_codes(half, M == Mode::srgb, false, err);
        texel = 0;
        for (uint32_t z = 0; z < t.bd; ++z)
            for (uint32_t y = 0; y < t.bh; ++y)
                for (uint32_t x = 0; x < t.bw; ++x, ++texel)
                    if (((st.err_parts >> part[texel]) & 1u) != 0)
                        put<S>(o, o.base + z * o.slice_pitch + y * o.row_pitch + x * o.texel_bytes, err);
    }
}

// "Void-Extent Blocks".
template <Mode M, Store S>
void void_extent(const AstcTables& t, const Out& o, u128 b, bool half) {
    bool legal;
    if (t.bd > 1) {  // six 9-bit coordinates from bit 10; no reserved bits
        const uint32_t min_s = bits128(b, 10, 9), max_s = bits128(b, 19, 9);
        const uint32_t min_t = bits128(b, 28, 9), max_t = bits128(b, 37, 9);
        const uint32_t min_r = bits128(b, 46, 9), max_r = bits128(b, 55, 9);
        const bool all_ones = (min_s & max_s & min_t & max_t & min_r & max_r) == 0x1FFu;
        legal = all_ones || (min_s < max_s && min_t < max_t && min_r < max_r);
    } else {  // "Bits 10 and 11 are reserved and must be 1", then four 13-bit coordinates
        const uint32_t min_s = bits128(b, 12, 13), max_s = bits128(b, 25, 13);
        const uint32_t min_t = bits128(b, 38, 13), max_t = bits128(b, 51, 13);
        const bool all_ones = (min_s & max_s & min_t & max_t) == 0x1FFFu;
        legal = bits128(b, 10, 2) == 3u && (all_ones || (min_s < max_s && min_t < max_t));
    }
    uint32_t codes[4];
    const uint32_t ch[4] = {bits128(b, 64, 16), bits128(b, 80, 16), bits128(b, 96, 16), bits128(b, 112, 16)};
    if (!legal || (bits128(b, 9, 1) != 0 && M != Mode::hdr)) {
        error_codes(half, M == Mode::srgb, true, codes);
    } else if (bits128(b, 9, 1) != 0) {
        // HDR: the FP16 values are the output; a signalling NaN is made quiet (astc.comp says why).
        for (int i = 0; i < 4; ++i) codes[i] = (ch[i] & 0x7FFFu) > 0x7C00u ? ch[i] | 0x200u : ch[i];
    } else if (M == Mode::hdr) {
        for (int i = 0; i < 4; ++i) codes[i] = half_from_unorm16(ch[i]);
    } else {
        // UNORM16 colour, weight 0: the interpolation gives it back exactly.
        unorm16_codes<M>(t, half, ch, codes);
    }
    fill_block<S>(t, o, codes);
}

template <Mode M, Store S>
void decode_block(const AstcTables& t, const Out& o, const uint8_t* src) {
    const bool half = S == Store::rgba16f || (S == Store::other && o.store == TEXDEC_STORE_RGBA16F);
    uint64_t lo, hi;
    std::memcpy(&lo, src, 8);
    std::memcpy(&hi, src + 8, 8);
    const u128 b = (u128(hi) << 64) | lo;
    uint32_t err[4];
    if ((lo & 0x1FFu) == 0x1FCu) {
        void_extent<M, S>(t, o, b, half);
        return;
    }
    // "Block Mode", from the footprint's table (reserved and illegal modes are errors).
    const uint32_t mode = t.modes[lo & 0x7FFu];
    BlockState st;
    const uint32_t partitions = uint32_t(lo >> 11) & 3u;
    st.partitions = partitions + 1;
    st.dual = TEXDEC_FIELD(mode, TEXDEC_ASTC_MODE_DUAL_PLANE) != 0u;
    // "Dual-weight mode is enabled for a block with 4 partitions" is illegal.
    if (TEXDEC_FIELD(mode, TEXDEC_ASTC_MODE_KIND) != TEXDEC_ASTC_MODE_WEIGHTS || (st.dual && st.partitions == 4)) {
        error_codes(half, M == Mode::srgb, true, err);
        fill_block<S>(t, o, err);
        return;
    }
    const uint32_t weight_bits = TEXDEC_FIELD(mode, TEXDEC_ASTC_MODE_WEIGHT_BITS);
    const uint32_t weights_start = 128u - weight_bits;

    // "Color Endpoint Mode": one 4-bit mode per partition.
    uint32_t colour_start = 17, extra_cem_bits = 0, cems[4];
    if (st.partitions == 1) {
        cems[0] = bits128(b, 13, 4);
    } else {
        colour_start = 29;
        const uint32_t selector = bits128(b, 23, 2);
        if (selector == 0) {
            cems[0] = cems[1] = cems[2] = cems[3] = bits128(b, 25, 4);  // one mode for every partition
        } else {
            // Selector, class bits C_i, then the 2-bit M_i fields, continued just below the weights
            // ("ASTC multi-partition color endpoint mode layout").
            extra_cem_bits = 3 * st.partitions - 4;
            const uint32_t field =
                bits128(b, 23, 6) | (bits128(b, weights_start - extra_cem_bits, extra_cem_bits) << 6);
            for (uint32_t i = 0; i < st.partitions; ++i) {
                const uint32_t cls = selector - 1 + ((field >> (2 + i)) & 1u);
                const uint32_t low = (field >> (2 + st.partitions + 2 * i)) & 3u;
                cems[i] = (cls << 2) | low;
            }
        }
    }
    const uint32_t ccs_bits = st.dual ? 2 : 0;

    // "Data Size Determination": colour values, and the largest range that fits.
    uint32_t value_count = 0, hdr_parts = 0, hdr_alpha = 0;
    for (uint32_t i = 0; i < st.partitions; ++i) {
        value_count += 2 * ((cems[i] >> 2) + 1);
        // LDR variant: "Decoding from a HDR endpoint results in the error color", for the texels
        // of that partition only. HDR variant: the partition's RGB are HDR, and so is its alpha
        // except in mode 14.
        const uint32_t hdr = (kHdrEndpointModes >> cems[i]) & 1u;
        hdr_parts |= hdr << i;
        hdr_alpha |= (cems[i] != 14 ? hdr : 0u) << i;
    }
    const int remaining = int(weights_start) - int(extra_cem_bits + ccs_bits) - int(colour_start);
    const uint32_t colour_range =
        value_count > 18 || remaining < 0 ? 0xFFu : t.colour_range[(value_count / 2 - 1) * 128 + uint32_t(remaining)];
    if (colour_range == 0xFFu) {  // too many values, or fewer bits than 0..5 needs: illegal
        error_codes(half, M == Mode::srgb, true, err);
        fill_block<S>(t, o, err);
        return;
    }
    st.ccs = st.dual ? bits128(b, weights_start - extra_cem_bits - 2, 2) : 0;
    st.part = st.partitions > 1 ? t.partitions.data() +
                                      ((st.partitions - 2) * luts::kPartitionSeedCount + bits128(b, 13, 10)) * t.texels
                                : nullptr;
    if (M == Mode::hdr) {
        st.err_parts = 0, st.hdr_rgb = hdr_parts, st.hdr_alpha = hdr_alpha;
    } else {
        st.err_parts = hdr_parts, st.hdr_rgb = st.hdr_alpha = 0;
    }

    // Colour values ("Endpoint Unquantization") and endpoints, expanded to 16 bits for "Weight
    // Application": LDR channels to UNORM16 (sRGB: C << 8 | 0x80), HDR channels shifted left by 4.
    uint8_t colour[20];
    const IseRange cr = ise_range(colour_range);
    ise_decode(t, (b >> colour_start) & mask128(ise_length(cr, value_count)), cr, value_count,
               t.colour_unq + colour_range * 256, colour);
    uint32_t first = 0;
    for (uint32_t p = 0; p < st.partitions; ++p) {
        const uint32_t cem = cems[p], count = 2 * ((cem >> 2) + 1);
        const bool hdr = ((hdr_parts >> p) & 1u) != 0;
        if (M != Mode::hdr && hdr) {  // its texels take the error colour
            first += count;
            continue;
        }
        int v[8];
        for (uint32_t i = 0; i < 8; ++i) v[i] = i < count ? colour[first + i] : 0;
        first += count;
        int e0[4], e1[4];
        if (M == Mode::hdr && hdr) {
            hdr_endpoints(cem, v, e0, e1);
            for (int i = 0; i < 4; ++i) {
                const uint32_t scale = i == 3 && cem == 14 ? 257u : 16u;
                st.c0[p][i] = uint32_t(e0[i]) * scale, st.c1[p][i] = uint32_t(e1[i]) * scale;
            }
        } else {
            ldr_endpoints(cem, v, e0, e1);
            for (int i = 0; i < 4; ++i) {
                st.c0[p][i] = M == Mode::srgb ? (uint32_t(e0[i]) << 8) | 0x80u : uint32_t(e0[i]) * 257u;
                st.c1[p][i] = M == Mode::srgb ? (uint32_t(e1[i]) << 8) | 0x80u : uint32_t(e1[i]) * 257u;
            }
        }
    }

    // Stored weights ("Weight Unquantization"), from the reversed block; the two planes alternate
    // in dual-plane mode ("Weight Decoding").
    const uint32_t gw = TEXDEC_FIELD(mode, TEXDEC_ASTC_MODE_GRID_W), gh = TEXDEC_FIELD(mode, TEXDEC_ASTC_MODE_GRID_H),
                   gd = TEXDEC_FIELD(mode, TEXDEC_ASTC_MODE_GRID_D);
    const uint32_t grid = gw * gh * gd, weight_count = grid << (st.dual ? 1 : 0);
    const uint32_t weight_range = TEXDEC_FIELD(mode, TEXDEC_ASTC_MODE_WEIGHT_RANGE);
    uint8_t stored[kWeightSlots];
    ise_decode(t, reverse128(b) & mask128(weight_bits), ise_range(weight_range), weight_count,
               t.weight_unq + weight_range * 32, stored);
    uint8_t planes[2][kMaxTexels];
    uint8_t* plane_weights[2] = {stored, nullptr};
    if (st.dual) {
        for (uint32_t i = 0; i < grid; ++i) planes[0][i] = stored[2 * i], planes[1][i] = stored[2 * i + 1];
        plane_weights[0] = planes[0], plane_weights[1] = planes[1];
    }

    // "Weight Infill": each texel's weight from the grid.
    const GridInfill& g = t.grids[grid_key(gw, gh, gd)];
    uint8_t texel_weights[2][kMaxTexels];
    const uint8_t* w[2] = {plane_weights[0], plane_weights[1]};
    if (!g.identity) {
        const uint8_t* idx = t.infill.data() + g.offset;
        const uint8_t* fac = idx + 4 * t.texels;
        for (uint32_t pl = 0; pl < (st.dual ? 2u : 1u); ++pl) {
            const uint8_t* src_w = plane_weights[pl];
            for (uint32_t i = 0; i < t.texels; ++i) {
                const uint8_t* ix = idx + 4 * i;
                const uint8_t* f = fac + 4 * i;
                const uint32_t sum =
                    src_w[ix[0]] * f[0] + src_w[ix[1]] * f[1] + src_w[ix[2]] * f[2] + src_w[ix[3]] * f[3];
                texel_weights[pl][i] = uint8_t((sum + 8) >> 4);
            }
            w[pl] = texel_weights[pl];
        }
    }
    weight_texels<M, S>(t, o, st, w[0], w[1]);
}

template <Mode M, Store S>
void decode_run(const Variant& v, const BlockRun& run) {
    const auto& t = *static_cast<const AstcTables*>(v.tables);
    Out o{run.texels, run.row_pitch, run.slice_pitch, v.texel_bytes, v.store};
    const size_t block_stride = size_t(t.bw) * v.texel_bytes;
    for (uint32_t i = 0; i < run.count; ++i) {
        o.base = run.texels + i * block_stride;
        decode_block<M, S>(t, o, run.blocks + 16 * size_t(i));
    }
}

template <Mode M>
void decode_mode(const Variant& v, const BlockRun& run) {
    if (v.store == TEXDEC_STORE_RGBA8) decode_run<M, Store::rgba8>(v, run);
    else if (v.store == TEXDEC_STORE_RGBA16F) decode_run<M, Store::rgba16f>(v, run);
    else decode_run<M, Store::other>(v, run);
}

void decode(const Variant& v, const BlockRun& run) {
    if (v.variant == TEXDEC_ASTC_HDR) decode_mode<Mode::hdr>(v, run);
    else if (v.srgb) decode_mode<Mode::srgb>(v, run);
    else decode_mode<Mode::ldr>(v, run);
}

}  // namespace

const FamilyDecoder kAstcDecoder = {make_tables, decode};

}  // namespace texdec::cpu

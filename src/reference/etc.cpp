// CPU reference for the ETC families (src/reference/etc.cpp, as shaders/etc2.comp and eac.comp):
// ETC1/ETC2 colour blocks: RGB8, RGB8A1 (punch-through), RGBA8 (EAC alpha), each
// also sRGB (the bytes stay encoded). Written from the Khronos Data Format Specification,
// "ETC2 Compressed Texture Image Formats" (ETC1 data is its individual and
// differential modes, etc1.txt), and docs/EXACTNESS.md "ETC1, ETC2 ..." / "Output types". Integer-exact:
// every texel is an 8-bit value v; RGBA8 and NATIVE are v, RGBA16F is the FP16 nearest v / 255.
//
// And EAC R11 / RG11 blocks, unsigned and signed. Written from the Khronos Data
// Format Specification, "Format Unsigned R11 EAC", "Format Unsigned RG11 EAC", "Format Signed R11
// EAC", "Format Signed RG11 EAC", and docs/EXACTNESS.md "ETC1, ETC2 ... EAC" /
// "Output types". Each channel decodes to an exact 11-bit value x (0..2047, or -1023..1023):
//   NATIVE   R16 / R16G16 UNORM or SNORM: x extended to 16 bits by the spec's bit replication;
//   RGBA16F  the FP16 nearest x / 2047 (unsigned) or x / 1023 (signed), (r, 0, 0, 1) / (r, g, 0, 1);
//   RGBA8    unsigned only: x * 255 / 2047 rounded to nearest, ties up.
#include <array>
#include <cstring>

#include "luts/etc_tables.h"
#include "reference/block_decoders.h"
#include "reference/exact_model.h"

namespace texdec_reference::detail {
namespace {

int clamp255(int v) { return v < 0 ? 0 : v > 255 ? 255 : v; }
int extend4to8(int c) { return (c << 4) | c; }
int extend5to8(int c) { return (c << 3) | (c >> 2); }
int extend6to8(int c) { return (c << 2) | (c >> 4); }
int extend7to8(int c) { return (c << 1) | (c >> 6); }
int signed3(int d) { return d >= 4 ? d - 8 : d; }  // 3-bit two's complement, -4..3

// Texels of one block as 8-bit RGBA, index 4 * y + x.
using Texels8 = std::array<std::array<uint8_t, 4>, 16>;

// Pixel k = 4 * x + y (a..p run down the columns, "Pixel layout for an ETC2 compressed block"):
// its 2-bit index has the MSB at bit 16 + k and the LSB at bit k ("Texel Data format ..." (f)).
int pixel_index(uint64_t word, int x, int y) {
    const int k = 4 * x + y;
    return (etc_bits(word, 16 + k, 1) << 1) | etc_bits(word, k, 1);
}

using Rgb = std::array<int, 3>;

// Individual and differential modes (ETC1 too): two subblocks, each a base colour plus a
// per-pixel intensity modifier. Punch-through with the opaque bit 0 uses "ETC2 intensity modifier
// sets for the `differential' if `opaque' (Op) is unset": +-a become 0.
void decode_subblocks(uint64_t w, bool individual, bool punch_transparent, Texels8& out) {
    Rgb base1, base2;
    if (individual) {  // "individual' mode": two 4-bit colours, extend4to8bits
        for (int c = 0; c < 3; ++c) {
            base1[size_t(c)] = extend4to8(etc_bits(w, 60 - 8 * c, 4));
            base2[size_t(c)] = extend4to8(etc_bits(w, 56 - 8 * c, 4));
        }
    } else {  // "differential' mode": 5-bit colour and a 3-bit signed delta, extended after adding
        for (int c = 0; c < 3; ++c) {
            const int five = etc_bits(w, 59 - 8 * c, 5);
            base1[size_t(c)] = extend5to8(five);
            base2[size_t(c)] = extend5to8(five + signed3(etc_bits(w, 56 - 8 * c, 3)));
        }
    }
    const int table1 = etc_bits(w, 37, 3), table2 = etc_bits(w, 34, 3);
    const bool flip = etc_bits(w, 32, 1);  // 0: two 2x4 side by side; 1: two 4x2 on top of each other
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) {
            const bool second = flip ? y >= 2 : x >= 2;
            const int index = pixel_index(w, x, y);
            std::array<uint8_t, 4>& t = out[size_t(4 * y + x)];
            if (punch_transparent && index == 2) {  // msb 1, lsb 0: (0, 0, 0, 0)
                t = {0, 0, 0, 0};
                continue;
            }
            const int modifier = punch_transparent && index == 0 ? 0 : texdec::luts::etc_modifier(second ? table2 : table1, index);
            const Rgb& base = second ? base2 : base1;
            for (int c = 0; c < 3; ++c) t[size_t(c)] = uint8_t(clamp255(base[size_t(c)] + modifier));
            t[3] = 255;
        }
}

// `T' and `H' modes: four paint colours chosen by the 2-bit pixel index; with the punch-through
// opaque bit 0, index 2 is (0, 0, 0, 0).
void decode_t_or_h(uint64_t w, bool h_mode, bool punch_transparent, Texels8& out) {
    Rgb base1, base2;
    int distance_index;
    if (!h_mode) {  // layout (d)
        base1 = {extend4to8((etc_bits(w, 59, 2) << 2) | etc_bits(w, 56, 2)), extend4to8(etc_bits(w, 52, 4)), extend4to8(etc_bits(w, 48, 4))};
        base2 = {extend4to8(etc_bits(w, 44, 4)), extend4to8(etc_bits(w, 40, 4)), extend4to8(etc_bits(w, 36, 4))};
        distance_index = (etc_bits(w, 34, 2) << 1) | etc_bits(w, 32, 1);
    } else {  // layout (e)
        base1 = {extend4to8(etc_bits(w, 59, 4)), extend4to8((etc_bits(w, 56, 3) << 1) | etc_bits(w, 52, 1)),
                 extend4to8((etc_bits(w, 51, 1) << 3) | etc_bits(w, 47, 3))};
        base2 = {extend4to8(etc_bits(w, 43, 4)), extend4to8(etc_bits(w, 39, 4)), extend4to8(etc_bits(w, 35, 4))};
        // The index's LSB is (base colour 1 value >= base colour 2 value), value = R << 16 + G << 8 + B.
        const int value1 = (base1[0] << 16) + (base1[1] << 8) + base1[2];
        const int value2 = (base2[0] << 16) + (base2[1] << 8) + base2[2];
        distance_index = (etc_bits(w, 34, 1) << 2) | (etc_bits(w, 32, 1) << 1) | (value1 >= value2 ? 1 : 0);
    }
    const int d = texdec::luts::etc_distances()[size_t(distance_index)];  // "Distance table ..."
    std::array<Rgb, 4> paint;
    for (size_t c = 0; c < 3; ++c) {
        if (!h_mode) {
            paint[0][c] = base1[c];
            paint[1][c] = clamp255(base2[c] + d);
            paint[2][c] = base2[c];
            paint[3][c] = clamp255(base2[c] - d);
        } else {
            paint[0][c] = clamp255(base1[c] + d);
            paint[1][c] = clamp255(base1[c] - d);
            paint[2][c] = clamp255(base2[c] + d);
            paint[3][c] = clamp255(base2[c] - d);
        }
    }
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) {
            const int index = pixel_index(w, x, y);
            std::array<uint8_t, 4>& t = out[size_t(4 * y + x)];
            if (punch_transparent && index == 2) {
                t = {0, 0, 0, 0};
                continue;
            }
            const Rgb& p = paint[size_t(index)];
            t = {uint8_t(p[0]), uint8_t(p[1]), uint8_t(p[2]), 255};
        }
}

// `planar' mode, layout (g): three RGB 676 colours O, H, V; the colour at (x, y) is
// clamp255((x (H - O) + y (V - O) + 4 O + 2) >> 2). Always opaque (punch-through too).
void decode_planar(uint64_t w, Texels8& out) {
    const Rgb o = {extend6to8(etc_bits(w, 57, 6)), extend7to8((etc_bits(w, 56, 1) << 6) | etc_bits(w, 49, 6)),
                   extend6to8((etc_bits(w, 48, 1) << 5) | (etc_bits(w, 43, 2) << 3) | etc_bits(w, 39, 3))};
    const Rgb h = {extend6to8((etc_bits(w, 34, 5) << 1) | etc_bits(w, 32, 1)), extend7to8(etc_bits(w, 25, 7)), extend6to8(etc_bits(w, 19, 6))};
    const Rgb v = {extend6to8(etc_bits(w, 13, 6)), extend7to8(etc_bits(w, 6, 7)), extend6to8(etc_bits(w, 0, 6))};
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) {
            std::array<uint8_t, 4>& t = out[size_t(4 * y + x)];
            for (size_t c = 0; c < 3; ++c)
                t[c] = uint8_t(clamp255((x * (h[c] - o[c]) + y * (v[c] - o[c]) + 4 * o[c] + 2) >> 2));
            t[3] = 255;
        }
}

// One 64-bit colour word. Mode selection, "Format RGB ETC2" (a) and "Format RGB ETC2 with
// punchthrough alpha" (a): bit 33 is D (0: individual) or, with punch-through, Op (no individual
// mode); then R + Rd, G + Gd, B + Bd outside [0, 31] select T, H, planar, else differential.
void decode_colour(uint64_t w, bool punch, Texels8& out) {
    const bool bit33 = etc_bits(w, 33, 1);
    if (!punch && !bit33) return decode_subblocks(w, true, false, out);
    const bool transparent = punch && !bit33;
    const int r = etc_bits(w, 59, 5) + signed3(etc_bits(w, 56, 3));
    const int g = etc_bits(w, 51, 5) + signed3(etc_bits(w, 48, 3));
    const int b = etc_bits(w, 43, 5) + signed3(etc_bits(w, 40, 3));
    if (r < 0 || r > 31) return decode_t_or_h(w, false, transparent, out);
    if (g < 0 || g > 31) return decode_t_or_h(w, true, transparent, out);
    if (b < 0 || b > 31) return decode_planar(w, out);  // Op 0 is treated as 1 here
    decode_subblocks(w, false, transparent, out);
}

// "Format RGBA ETC2" alpha: clamp255(base codeword + modifier * multiplier), where a multiplier
// of 0 really multiplies by 0 (unlike R11 EAC, where it means 1/8). Indices: pixel k = 4x + y in
// bits 47 - 3k .. 45 - 3k.
void decode_alpha(uint64_t w, Texels8& out) {
    const int base = etc_bits(w, 56, 8), multiplier = etc_bits(w, 52, 4);
    const std::array<int, 8>& modifiers = texdec::luts::eac_modifiers()[size_t(etc_bits(w, 48, 4))];
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) {
            const int k = 4 * x + y;
            out[size_t(4 * y + x)][3] = uint8_t(clamp255(base + modifiers[size_t(etc_bits(w, 45 - 3 * k, 3))] * multiplier));
        }
}

// v / 255 as the nearest FP16 (ties to even), for v = 0..255.
const std::array<uint16_t, 256>& half_of_unorm8() {
    static const std::array<uint16_t, 256> table = [] {
        std::array<uint16_t, 256> t{};
        for (int v = 0; v < 256; ++v) t[size_t(v)] = exact::to_fp16({v, 255});
        return t;
    }();
    return table;
}

}  // namespace

void decode_etc2_block(texdec_format format, texdec_output output, const uint8_t* block, uint8_t* texels) {
    Texels8 t{};
    switch (format) {
    case TEXDEC_FORMAT_ETC2_R8G8B8_UNORM:
    case TEXDEC_FORMAT_ETC2_R8G8B8_SRGB: decode_colour(etc_int64bit(block), false, t); break;
    case TEXDEC_FORMAT_ETC2_R8G8B8A1_UNORM:
    case TEXDEC_FORMAT_ETC2_R8G8B8A1_SRGB: decode_colour(etc_int64bit(block), true, t); break;
    case TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM:
    case TEXDEC_FORMAT_ETC2_R8G8B8A8_SRGB:  // int64bit_Alpha first, then int64bit_Color
        decode_colour(etc_int64bit(block + 8), false, t);
        decode_alpha(etc_int64bit(block), t);
        break;
    default: break;  // not an ETC2 format: never called so (block_decoders.h); leaves zeros
    }
    if (output == TEXDEC_OUTPUT_RGBA16F) {  // v / 255 to the nearest FP16; sRGB bytes as they are
        const std::array<uint16_t, 256>& half = half_of_unorm8();
        for (size_t i = 0; i < 16; ++i)
            for (size_t c = 0; c < 4; ++c) {
                const uint16_t h = half[t[i][c]];
                texels[8 * i + 2 * c] = uint8_t(h & 0xFF);  // little-endian, as the GPU writes it
                texels[8 * i + 2 * c + 1] = uint8_t(h >> 8);
            }
        return;
    }
    // RGBA8 and NATIVE (R8G8B8A8 UNORM or SRGB): the 8-bit values themselves.
    for (size_t i = 0; i < 16; ++i) std::memcpy(texels + 4 * i, t[i].data(), 4);
}

// ---- EAC R11 / RG11 ----

namespace {
// The 16 11-bit values of one channel block, index 4 * y + x. Pixel k = 4x + y (a..p run down
// the columns) has its 3-bit index in bits 47 - 3k .. 45 - 3k ("Texel Data format for alpha part
// of RGBA ETC2 compressed textures" (b)).
std::array<int, 16> decode_channel(uint64_t w, bool is_signed) {
    const int multiplier = etc_bits(w, 52, 4);
    const std::array<int, 8>& modifiers = texdec::luts::eac_modifiers()[size_t(etc_bits(w, 48, 4))];
    int base8;  // base codeword * 8 (+ 4 unsigned)
    if (is_signed) {
        int base = etc_bits(w, 56, 8);
        base = base >= 128 ? base - 256 : base;
        if (base == -128) base = -127;  // "-128 is not allowed; ... it must be treated as -127"
        base8 = base * 8;               // "Signed R11 EAC simple"
    } else {
        base8 = etc_bits(w, 56, 8) * 8 + 4;  // "Unsigned R11 EAC simple"
    }
    const int low = is_signed ? -1023 : 0, high = is_signed ? 1023 : 2047;
    std::array<int, 16> out{};
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) {
            const int k = 4 * x + y;
            const int modifier = modifiers[size_t(etc_bits(w, 45 - 3 * k, 3))];
            // Multiplier 0 means 1/8 ("... simpler"): the modifier is added unscaled.
            int v = base8 + (multiplier == 0 ? modifier : modifier * multiplier * 8);
            v = v < low ? low : v > high ? high : v;
            out[size_t(4 * y + x)] = v;
        }
    return out;
}

// "Format Signed R11 EAC": 16 bits by bit replication, (x << 5) + (x >> 5) on |x|, sign restored;
// unsigned likewise with the 11 bits repeated: (x << 5) | (x >> 6).
uint16_t sixteen_bits(int x, bool is_signed) {
    if (!is_signed) return uint16_t((x << 5) | (x >> 6));
    const int m = x < 0 ? -x : x;
    const int e = (m << 5) + (m >> 5);
    return uint16_t(x < 0 ? -e : e);
}

// FP16 bits of x / 2047 (x = 0..2047) and x / 1023 (index x + 1023, x = -1023..1023), nearest, ties
// to even; and round(x * 255 / 2047), ties up.
struct Tables {
    std::array<uint16_t, 2048> half_unsigned;
    std::array<uint16_t, 2047> half_signed;
    std::array<uint8_t, 2048> unorm8;
};
const Tables& tables() {
    static const Tables t = [] {
        Tables t{};
        for (int x = 0; x < 2048; ++x) {
            t.half_unsigned[size_t(x)] = exact::to_fp16({x, 2047});
            t.unorm8[size_t(x)] = exact::to_unorm8({x, 2047});
        }
        for (int x = -1023; x <= 1023; ++x) t.half_signed[size_t(x + 1023)] = exact::to_fp16({x, 1023});
        return t;
    }();
    return t;
}

void put16(uint8_t* p, uint16_t v) {  // little-endian, as the GPU writes it
    p[0] = uint8_t(v & 0xFF);
    p[1] = uint8_t(v >> 8);
}

}  // namespace

void decode_eac_block(texdec_format format, texdec_output output, const uint8_t* block, uint8_t* texels) {
    bool is_signed = false;
    size_t channels = 1;
    switch (format) {
    case TEXDEC_FORMAT_EAC_R11_UNORM: break;
    case TEXDEC_FORMAT_EAC_R11_SNORM: is_signed = true; break;
    case TEXDEC_FORMAT_EAC_R11G11_UNORM: channels = 2; break;
    case TEXDEC_FORMAT_EAC_R11G11_SNORM: channels = 2, is_signed = true; break;
    default: return;  // not an EAC format: never called so (block_decoders.h)
    }
    // RG11: int64bit_0 (bytes 0..7) is red, int64bit_1 (bytes 8..15) green.
    std::array<std::array<int, 16>, 2> x{};
    for (size_t c = 0; c < channels; ++c) x[c] = decode_channel(etc_int64bit(block + 8 * c), is_signed);
    const Tables& t = tables();
    for (size_t i = 0; i < 16; ++i) {
        switch (output) {
        case TEXDEC_OUTPUT_NATIVE:
            for (size_t c = 0; c < channels; ++c)
                put16(texels + 2 * (channels * i + c), sixteen_bits(x[c][i], is_signed));
            break;
        case TEXDEC_OUTPUT_RGBA16F:
            for (size_t c = 0; c < 4; ++c) {
                uint16_t h = c == 3 ? 0x3C00 : 0;  // missing channels: (r, 0, 0, 1) / (r, g, 0, 1)
                if (c < channels)
                    h = is_signed ? t.half_signed[size_t(x[c][i] + 1023)] : t.half_unsigned[size_t(x[c][i])];
                put16(texels + 8 * i + 2 * c, h);
            }
            break;
        case TEXDEC_OUTPUT_RGBA8:  // unsigned only (signed EAC has no RGBA8 output): zeros then
            for (size_t c = 0; c < 4; ++c)
                texels[4 * i + c] = c < channels ? (is_signed ? 0 : t.unorm8[size_t(x[c][i])]) : c == 3 ? 255 : 0;
            break;
        default: return;
        }
    }
}

}  // namespace texdec_reference::detail

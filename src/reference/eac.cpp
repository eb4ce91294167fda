// CPU reference for EAC R11 / RG11 blocks, unsigned and signed. Written from the Khronos Data
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
        base8 = base * 8;  // "Signed R11 EAC simple"
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
            for (size_t c = 0; c < channels; ++c) put16(texels + 2 * (channels * i + c), sixteen_bits(x[c][i], is_signed));
            break;
        case TEXDEC_OUTPUT_RGBA16F:
            for (size_t c = 0; c < 4; ++c) {
                uint16_t h = c == 3 ? 0x3C00 : 0;  // missing channels: (r, 0, 0, 1) / (r, g, 0, 1)
                if (c < channels) h = is_signed ? t.half_signed[size_t(x[c][i] + 1023)] : t.half_unsigned[size_t(x[c][i])];
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

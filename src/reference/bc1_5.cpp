// BC1-BC5 blocks through the EXACT / IDEAL models; see bc1_5.h. Block layouts from the spec's
// "BC1 with no alpha", "BC2", "BC3", "BC4 unsigned" / "BC4 signed" and "BC5" sections.
#include "reference/bc1_5.h"

#include <cstdlib>
#include <vector>

#include "reference/block_decoders.h"
#include "reference/exact_model.h"
#include "reference/half.h"
#include "reference/ideal_model.h"

namespace texdec_reference::bc1_5 {
namespace {

constexpr uint16_t kHalfOne = 0x3C00;

struct Value {
    int16_t v8;
    uint16_t f16;
};

// The exact model evaluated once for every (endpoints, code): the model itself is rational
// arithmetic per value; these tables only memoize it, so a million blocks take well under a second.
struct ExactTables {
    Value bc1[2][64][64][4][2];  // [bits == 6][e0][e1][code][four_colours]
    Value bc2_alpha[16];
    std::vector<Value> bc4;      // [is_signed][r0 byte][r1 byte][code]
    uint16_t half_of_byte[256];  // v / 255 (sRGB formats, IDEAL UNORM)
    uint16_t half_of_snorm[256]; // max(v, -127) / 127 indexed by the byte (IDEAL SNORM)
};

const ExactTables& exact_tables() {
    static const ExactTables* tables = [] {
        auto* t = new ExactTables;
        for (int six = 0; six < 2; ++six) {
            const unsigned bits = six ? 6 : 5, n = 1u << bits;
            for (unsigned e0 = 0; e0 < n; ++e0)
                for (unsigned e1 = 0; e1 < n; ++e1)
                    for (unsigned code = 0; code < 4; ++code)
                        for (int four = 0; four < 2; ++four) {
                            exact::Rational r = exact::bc1_channel(e0, e1, bits, code, four);
                            t->bc1[six][e0][e1][code][four] = {exact::to_unorm8(r), exact::to_fp16(r)};
                        }
        }
        for (unsigned a = 0; a < 16; ++a) {
            exact::Rational r = exact::bc2_alpha(a);
            t->bc2_alpha[a] = {exact::to_unorm8(r), exact::to_fp16(r)};
        }
        t->bc4.resize(2 * 256 * 256 * 8);
        for (int s = 0; s < 2; ++s)
            for (int b0 = 0; b0 < 256; ++b0)
                for (int b1 = 0; b1 < 256; ++b1)
                    for (unsigned code = 0; code < 8; ++code) {
                        const int r0 = s ? int(int8_t(b0)) : b0, r1 = s ? int(int8_t(b1)) : b1;
                        exact::Rational r = exact::bc4_channel(r0, r1, code, s);
                        t->bc4[((s * 256 + b0) * 256 + b1) * 8 + code] =
                            {s ? int16_t(exact::to_snorm8(r)) : int16_t(exact::to_unorm8(r)), exact::to_fp16(r)};
                    }
        for (int v = 0; v < 256; ++v) {
            t->half_of_byte[v] = half_from_unorm8(uint8_t(v));
            const int s = int(int8_t(v));
            t->half_of_snorm[v] = exact::to_fp16({s < -127 ? -127 : s, 127});
        }
        return t;
    }();
    return *tables;
}

uint16_t le16(const uint8_t* p) { return uint16_t(p[0] | (p[1] << 8)); }
uint32_t le32(const uint8_t* p) { return uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24); }
uint64_t le48(const uint8_t* p) { return uint64_t(le32(p)) | (uint64_t(le16(p + 4)) << 32); }
uint64_t le64(const uint8_t* p) { return uint64_t(le32(p)) | (uint64_t(le32(p + 4)) << 32); }

bool is_bc1(Kind k) { return k == Kind::BC1_RGB || k == Kind::BC1_RGBA; }
bool has_colour_block(Kind k) { return k != Kind::BC4 && k != Kind::BC5; }

// Parsed BC1-style colour block ("BC1 with no alpha": color0, color1, 2-bit codes).
struct ColourBlock {
    unsigned e0[3], e1[3];  // R, G, B endpoint codes
    uint16_t color0, color1;
    uint32_t codes;
};
ColourBlock parse_colour(const uint8_t* p) {
    ColourBlock c;
    c.color0 = le16(p);
    c.color1 = le16(p + 2);
    c.codes = le32(p + 4);
    c.e0[0] = c.color0 >> 11; c.e0[1] = (c.color0 >> 5) & 63; c.e0[2] = c.color0 & 31;
    c.e1[0] = c.color1 >> 11; c.e1[1] = (c.color1 >> 5) & 63; c.e1[2] = c.color1 & 31;
    return c;
}
unsigned colour_code(const ColourBlock& c, int t) { return (c.codes >> (2 * t)) & 3; }
unsigned bc4_code(const uint8_t* p, int t) { return unsigned(le48(p + 2) >> (3 * t)) & 7; }

void set_channel(Texel& t, int c, Value v) { t.v8[c] = v.v8; t.f16[c] = v.f16; }

// The parts of a BC1-BC5 block, walked once for both models: colour(texel, block, code, four,
// transparent) for each texel of a colour block, bc2_alpha(texel, 4-bit alpha), bc4(its 8 bytes,
// channel, signed) for each BC4 block.
template <class Colour, class Bc2Alpha, class Bc4>
void walk_block(const Layout& f, const uint8_t* block, Colour colour, Bc2Alpha bc2_alpha, Bc4 bc4) {
    if (has_colour_block(f.kind)) {
        const bool bc1 = is_bc1(f.kind);
        const ColourBlock c = parse_colour(block + (bc1 ? 0 : 8));
        // BC2/BC3 colour: "treated as though color0 > color1, regardless of the actual values".
        const bool four = !bc1 || c.color0 > c.color1;
        for (int t = 0; t < 16; ++t) {
            const unsigned code = colour_code(c, t);
            // BC1 alpha: 0 for code 3 of the 3-colour mode in BC1 RGBA, else 1 (RGB: opaque black).
            colour(t, c, code, four, f.kind == Kind::BC1_RGBA && !four && code == 3);
        }
    }
    if (f.kind == Kind::BC2) {
        const uint64_t alpha = le64(block);
        for (int t = 0; t < 16; ++t) bc2_alpha(t, int((alpha >> (4 * t)) & 15));
    }
    if (f.kind == Kind::BC3) bc4(block, 3, false);
    if (f.kind == Kind::BC4 || f.kind == Kind::BC5) bc4(block, 0, f.is_signed);
    if (f.kind == Kind::BC5) bc4(block + 8, 1, f.is_signed);
}

void decode_exact(const Layout& f, const uint8_t* block, Texel* out) {
    const ExactTables& T = exact_tables();
    walk_block(
        f, block,
        [&](int t, const ColourBlock& c, unsigned code, bool four, bool transparent) {
            for (int ch = 0; ch < 3; ++ch) set_channel(out[t], ch, T.bc1[ch == 1][c.e0[ch]][c.e1[ch]][code][four]);
            set_channel(out[t], 3, transparent ? Value{0, 0} : Value{255, kHalfOne});
        },
        [&](int t, int a4) { set_channel(out[t], 3, T.bc2_alpha[a4]); },
        [&](const uint8_t* p, int channel, bool is_signed) {
            for (int t = 0; t < 16; ++t)
                set_channel(out[t], channel, T.bc4[((int(is_signed) * 256 + p[0]) * 256 + p[1]) * 8 + bc4_code(p, t)]);
        });
}

void set_ideal(const Layout& f, Texel& t, int c, int v) {
    t.v8[c] = int16_t(v);
    t.f16[c] = ideal_half(f.is_signed, v);
}

void decode_ideal(const Layout& f, const uint8_t* block, Texel* out) {
    walk_block(
        f, block,
        [&](int t, const ColourBlock& c, unsigned code, bool four, bool transparent) {
            for (int ch = 0; ch < 3; ++ch)
                set_ideal(f, out[t], ch, int(ideal::bc1_channel(c.e0[ch], c.e1[ch], ch == 1 ? 6 : 5, code, four)));
            set_ideal(f, out[t], 3, transparent ? 0 : 255);
        },
        [&](int t, int a4) { set_ideal(f, out[t], 3, a4 * 17); },
        [&](const uint8_t* p, int channel, bool is_signed) {
            const int r0 = is_signed ? int(int8_t(p[0])) : p[0], r1 = is_signed ? int(int8_t(p[1])) : p[1];
            for (int t = 0; t < 16; ++t)
                set_ideal(f, out[t], channel, ideal::bc4_channel(r0, r1, bc4_code(p, t), is_signed));
        });
}

}  // namespace

bool layout_of(texdec_format format, Layout* layout) {
    switch (format) {
    case TEXDEC_FORMAT_BC1_RGB_UNORM: *layout = {Kind::BC1_RGB, false, false}; return true;
    case TEXDEC_FORMAT_BC1_RGB_SRGB: *layout = {Kind::BC1_RGB, true, false}; return true;
    case TEXDEC_FORMAT_BC1_RGBA_UNORM: *layout = {Kind::BC1_RGBA, false, false}; return true;
    case TEXDEC_FORMAT_BC1_RGBA_SRGB: *layout = {Kind::BC1_RGBA, true, false}; return true;
    case TEXDEC_FORMAT_BC2_UNORM: *layout = {Kind::BC2, false, false}; return true;
    case TEXDEC_FORMAT_BC2_SRGB: *layout = {Kind::BC2, true, false}; return true;
    case TEXDEC_FORMAT_BC3_UNORM: *layout = {Kind::BC3, false, false}; return true;
    case TEXDEC_FORMAT_BC3_SRGB: *layout = {Kind::BC3, true, false}; return true;
    case TEXDEC_FORMAT_BC4_UNORM: *layout = {Kind::BC4, false, false}; return true;
    case TEXDEC_FORMAT_BC4_SNORM: *layout = {Kind::BC4, false, true}; return true;
    case TEXDEC_FORMAT_BC5_UNORM: *layout = {Kind::BC5, false, false}; return true;
    case TEXDEC_FORMAT_BC5_SNORM: *layout = {Kind::BC5, false, true}; return true;
    default: return false;
    }
}

unsigned channel_count(Kind kind) {
    switch (kind) {
    case Kind::BC4: return 1;
    case Kind::BC5: return 2;
    case Kind::BC1_RGB: return 3;
    default: return 4;
    }
}

uint16_t ideal_half(bool is_signed, int v) {
    const ExactTables& T = exact_tables();
    return is_signed ? T.half_of_snorm[uint8_t(int8_t(v))] : T.half_of_byte[uint8_t(v)];
}

void apply_output_rules(const Layout& f, Texel out[16]) {
    const unsigned channels = channel_count(f.kind);
    const ExactTables& T = exact_tables();
    for (int i = 0; i < 16; ++i) {
        Texel& t = out[i];
        if (channels < 2) t.v8[1] = 0, t.f16[1] = 0;
        if (channels < 3) t.v8[2] = 0, t.f16[2] = 0;
        if (channels < 4) t.v8[3] = 255, t.f16[3] = kHalfOne;
        if (f.srgb)
            for (int c = 0; c < 4; ++c) t.f16[c] = T.half_of_byte[uint8_t(t.v8[c])];
    }
}

void decode_model(const Layout& f, texdec_bc_rounding rounding, const uint8_t* block, Texel out[16]) {
    if (rounding == TEXDEC_BC_ROUNDING_EXACT) decode_exact(f, block, out);
    else if (rounding == TEXDEC_BC_ROUNDING_IDEAL) decode_ideal(f, block, out);
    else std::abort();  // callers check the rounding first (unavailable_reason)
    apply_output_rules(f, out);
}

uint32_t texel_bytes(const Layout& f, texdec_output output) {
    if (output == TEXDEC_OUTPUT_RGBA16F) return 8;
    if (output == TEXDEC_OUTPUT_NATIVE && f.kind == Kind::BC4) return 1;
    if (output == TEXDEC_OUTPUT_NATIVE && f.kind == Kind::BC5) return 2;
    return 4;
}

void pack(const Layout& f, texdec_output output, const Texel& t, uint8_t* bytes) {
    if (output == TEXDEC_OUTPUT_RGBA16F) {
        for (int c = 0; c < 4; ++c) {
            bytes[2 * c] = uint8_t(t.f16[c]);
            bytes[2 * c + 1] = uint8_t(t.f16[c] >> 8);
        }
        return;
    }
    const uint32_t n = texel_bytes(f, output);
    for (uint32_t c = 0; c < n; ++c) bytes[c] = uint8_t(t.v8[c]);
}

}  // namespace texdec_reference::bc1_5

namespace texdec_reference::detail {

void decode_bc1_5_block(texdec_format format, texdec_output output, texdec_bc_rounding rounding, const uint8_t* block,
                        uint8_t* texels) {
    bc1_5::Layout layout;
    if (!bc1_5::layout_of(format, &layout)) std::abort();  // the driver dispatches BC1-BC5 only
    bc1_5::Texel decoded[16];
    bc1_5::decode_model(layout, rounding, block, decoded);
    const uint32_t bytes = bc1_5::texel_bytes(layout, output);
    for (int t = 0; t < 16; ++t) bc1_5::pack(layout, output, decoded[t], texels + t * bytes);
}

}  // namespace texdec_reference::detail

#include "reference.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "cpu_models.h"
#include "nvimage_oracle.h"
#include "squish_oracle.h"

namespace texdec_test {
namespace {

constexpr uint16_t kHalfOne = 0x3C00;

struct Value { int16_t v8; uint16_t f16; };

// The exact model evaluated once for every (endpoints, code): the model itself is rational
// arithmetic per value; these tables only memoize it so a million blocks take well under a second.
struct ExactTables {
    Value bc1[2][64][64][4][2];  // [bits == 6][e0][e1][code][four_colours]
    Value bc2_alpha[16];
    std::vector<Value> bc4;      // [is_signed][r0 byte][r1 byte][code]
    uint16_t half_of_byte[256];  // v / 255 (sRGB formats, IDEAL UNORM)
    uint16_t half_of_snorm[256]; // max(v, -127) / 127 indexed by the byte (IDEAL SNORM)
};

const ExactTables& exact_tables() {
    static ExactTables* tables = [] {
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
            t->half_of_byte[v] = exact::to_fp16({v, 255});
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

void set_channel(ReferenceTexel& t, int c, Value v) { t.v8[c] = v.v8; t.f16[c] = v.f16; }

// Channels a format lacks: R formats (r, 0, 0, 1), RG formats (r, g, 0, 1), RGB alpha 1.
void fill_missing_channels(const BcFormat& f, ReferenceBlock* out) {
    for (auto& t : out->texel) {
        if (f.channels < 2) { t.v8[1] = 0; t.f16[1] = 0; }
        if (f.channels < 3) { t.v8[2] = 0; t.f16[2] = 0; }
        if (f.channels < 4) { t.v8[3] = 255; t.f16[3] = kHalfOne; }
    }
}

void decode_exact(const BcFormat& f, const uint8_t* block, ReferenceBlock* out) {
    const ExactTables& T = exact_tables();
    if (has_bc1_colour(f.kind)) {
        const bool bc1 = is_bc1_family(f.kind);
        const ColourBlock c = parse_colour(block + (bc1 ? 0 : 8));
        // BC2/BC3 colour: "treated as though color0 > color1, regardless of the actual values".
        const bool four = !bc1 || c.color0 > c.color1;
        for (int t = 0; t < 16; ++t) {
            const unsigned code = colour_code(c, t);
            for (int ch = 0; ch < 3; ++ch)
                set_channel(out->texel[t], ch, T.bc1[ch == 1][c.e0[ch]][c.e1[ch]][code][four]);
            // BC1 alpha: 0 for code 3 of the 3-colour mode in BC1 RGBA, else 1 (RGB: opaque black).
            const bool transparent = f.kind == BcKind::BC1_RGBA && !four && code == 3;
            set_channel(out->texel[t], 3, transparent ? Value{0, 0} : Value{255, kHalfOne});
        }
    }
    if (f.kind == BcKind::BC2) {
        const uint64_t alpha = le64(block);
        for (int t = 0; t < 16; ++t) set_channel(out->texel[t], 3, T.bc2_alpha[(alpha >> (4 * t)) & 15]);
    }
    auto bc4_into = [&](const uint8_t* p, int channel, bool is_signed) {
        for (int t = 0; t < 16; ++t)
            set_channel(out->texel[t], channel, T.bc4[((int(is_signed) * 256 + p[0]) * 256 + p[1]) * 8 + bc4_code(p, t)]);
    };
    if (f.kind == BcKind::BC3) bc4_into(block, 3, false);
    if (f.kind == BcKind::BC4 || f.kind == BcKind::BC5) bc4_into(block, 0, f.is_signed);
    if (f.kind == BcKind::BC5) bc4_into(block + 8, 1, f.is_signed);
    out->channel_mask = 0xF;
}

// IDEAL: the 8-bit values come from an oracle; the halves follow from them.
void set_ideal(const BcFormat& f, ReferenceTexel& t, int c, int v) {
    const ExactTables& T = exact_tables();
    t.v8[c] = int16_t(v);
    t.f16[c] = f.is_signed ? T.half_of_snorm[uint8_t(int8_t(v))] : T.half_of_byte[v];
}

void decode_ideal_model(const BcFormat& f, const uint8_t* block, ReferenceBlock* out) {
    if (has_bc1_colour(f.kind)) {
        const bool bc1 = is_bc1_family(f.kind);
        const ColourBlock c = parse_colour(block + (bc1 ? 0 : 8));
        const bool four = !bc1 || c.color0 > c.color1;
        for (int t = 0; t < 16; ++t) {
            const unsigned code = colour_code(c, t);
            for (int ch = 0; ch < 3; ++ch)
                set_ideal(f, out->texel[t], ch, int(ideal::bc1_channel(c.e0[ch], c.e1[ch], ch == 1 ? 6 : 5, code, four)));
            set_ideal(f, out->texel[t], 3, f.kind == BcKind::BC1_RGBA && !four && code == 3 ? 0 : 255);
        }
    }
    if (f.kind == BcKind::BC2) {
        const uint64_t alpha = le64(block);
        for (int t = 0; t < 16; ++t) set_ideal(f, out->texel[t], 3, int((alpha >> (4 * t)) & 15) * 17);
    }
    auto bc4_into = [&](const uint8_t* p, int channel, bool is_signed) {
        const int r0 = is_signed ? int(int8_t(p[0])) : p[0], r1 = is_signed ? int(int8_t(p[1])) : p[1];
        for (int t = 0; t < 16; ++t) set_ideal(f, out->texel[t], channel, ideal::bc4_channel(r0, r1, bc4_code(p, t), is_signed));
    };
    if (f.kind == BcKind::BC3) bc4_into(block, 3, false);
    if (f.kind == BcKind::BC4 || f.kind == BcKind::BC5) bc4_into(block, 0, f.is_signed);
    if (f.kind == BcKind::BC5) bc4_into(block + 8, 1, f.is_signed);
    out->channel_mask = 0xF;
}

void set_ideal_rgba(const BcFormat& f, const uint8_t rgba[64], ReferenceBlock* out) {
    for (int t = 0; t < 16; ++t)
        for (int c = 0; c < 4; ++c) set_ideal(f, out->texel[t], c, rgba[4 * t + c]);
}

void decode_squish(const BcFormat& f, const uint8_t* block, ReferenceBlock* out) {
    uint8_t rgba[64];
    if (is_bc1_family(f.kind)) squish_oracle::decode_bc1(block, rgba);
    else if (f.kind == BcKind::BC2) squish_oracle::decode_bc2(block, rgba);
    else squish_oracle::decode_bc3(block, rgba);
    set_ideal_rgba(f, rgba, out);
    out->channel_mask = 0xF;
}

void decode_nvimage(const BcFormat& f, const uint8_t* block, ReferenceBlock* out) {
    uint8_t rgba[64];
    out->channel_mask = 0xF;
    switch (f.kind) {
    case BcKind::BC1_RGB:
    case BcKind::BC1_RGBA: nvimage::decode_dxt1(block, rgba); break;
    case BcKind::BC2: nvimage::decode_dxt3(block, rgba); break;
    case BcKind::BC3: nvimage::decode_dxt5(block, rgba); break;
    case BcKind::BC4: {
        uint8_t r[16];
        nvimage::decode_ati1(block, r);
        for (int t = 0; t < 16; ++t) set_ideal(f, out->texel[t], 0, r[t]);
        return;
    }
    case BcKind::BC5: {
        uint8_t r[16], g[16];
        nvimage::decode_ati2(block, r, g);
        for (int t = 0; t < 16; ++t) {
            set_ideal(f, out->texel[t], 0, r[t]);
            set_ideal(f, out->texel[t], 1, g[t]);
        }
        return;
    }
    case BcKind::BC6H: case BcKind::BC7: std::abort();  // not nvimage formats
    }
    set_ideal_rgba(f, rgba, out);
    // nvtt 2.0.8 decodes BC2/BC3 colour with c0 <= c1 in the 3-colour mode (wrong): vouch for alpha only.
    if ((f.kind == BcKind::BC2 || f.kind == BcKind::BC3) && !(le16(block + 8) > le16(block + 10)))
        out->channel_mask = 0x8;
}

}  // namespace

const BcFormat& bc_format(texdec_format format) {
    for (const auto& f : bc_formats())
        if (f.format == format) return f;
    std::abort();
}

std::string hex_bytes(const uint8_t* bytes, size_t count) {
    static const char* digits = "0123456789abcdef";
    std::string s;
    for (size_t i = 0; i < count; ++i) {
        if (i) s += ' ';
        s += digits[bytes[i] >> 4];
        s += digits[bytes[i] & 15];
    }
    return s;
}

const char* oracle_name(Oracle oracle) {
    switch (oracle) {
    case Oracle::ExactModel: return "exact rational model";
    case Oracle::Squish: return "libsquish";
    case Oracle::Nvimage: return "libnvimage (nvtt 2.0.8)";
    case Oracle::IdealModel: return "IDEAL integer model";
    }
    return "?";
}

Oracle primary_oracle(const BcFormat& f, texdec_bc_rounding rounding) {
    if (rounding == TEXDEC_BC_ROUNDING_EXACT) return Oracle::ExactModel;
    if (has_bc1_colour(f.kind)) return Oracle::Squish;
    return f.is_signed ? Oracle::IdealModel : Oracle::Nvimage;
}

bool oracle_supports(Oracle oracle, const BcFormat& f, texdec_bc_rounding rounding) {
    switch (oracle) {
    case Oracle::ExactModel: return rounding == TEXDEC_BC_ROUNDING_EXACT;
    case Oracle::Squish: return rounding == TEXDEC_BC_ROUNDING_IDEAL && has_bc1_colour(f.kind);
    case Oracle::Nvimage: return rounding == TEXDEC_BC_ROUNDING_IDEAL && !f.is_signed;
    case Oracle::IdealModel: return rounding == TEXDEC_BC_ROUNDING_IDEAL;
    }
    return false;
}

void reference_decode(const BcFormat& f, texdec_bc_rounding rounding, Oracle oracle, const uint8_t* block,
                      ReferenceBlock* out) {
    if (!oracle_supports(oracle, f, rounding)) std::abort();
    switch (oracle) {
    case Oracle::ExactModel: decode_exact(f, block, out); break;
    case Oracle::Squish: decode_squish(f, block, out); break;
    case Oracle::Nvimage: decode_nvimage(f, block, out); break;
    case Oracle::IdealModel: decode_ideal_model(f, block, out); break;
    }
    fill_missing_channels(f, out);
    if (f.srgb && kSrgbHalfIsByteOver255) {
        const ExactTables& T = exact_tables();
        for (auto& t : out->texel)
            for (int c = 0; c < 4; ++c) t.f16[c] = T.half_of_byte[uint8_t(t.v8[c])];
    }
}

void pack_reference_texel(const BcFormat& f, texdec_output output, const ReferenceTexel& t, uint8_t* bytes) {
    if (output == TEXDEC_OUTPUT_RGBA16F) {
        for (int c = 0; c < 4; ++c) {
            bytes[2 * c] = uint8_t(t.f16[c]);
            bytes[2 * c + 1] = uint8_t(t.f16[c] >> 8);
        }
        return;
    }
    const uint32_t n = output_texel_bytes(f, output);  // 4, or 1 / 2 for NATIVE BC4 / BC5
    for (uint32_t c = 0; c < n; ++c) bytes[c] = uint8_t(t.v8[c]);
}

uint32_t output_byte_mask(const BcFormat& f, texdec_output output, uint32_t channel_mask) {
    const uint32_t bytes_per_channel = output == TEXDEC_OUTPUT_RGBA16F ? 2 : 1;
    const uint32_t channels = output_texel_bytes(f, output) / bytes_per_channel;
    uint32_t mask = 0;
    for (uint32_t c = 0; c < channels; ++c)
        if (channel_mask & (1u << c)) mask |= ((1u << bytes_per_channel) - 1) << (c * bytes_per_channel);
    return mask;
}

}  // namespace texdec_test

#include "reference.h"

#include <cstdlib>
#include <cstring>

#include "reference/bc1_5.h"
// TEXDEC_TEST_PACKAGED_BC_ORACLES=0 (the Windows slice, tests/windows: Debian has no mingw
// libsquish / libnvimage): IDEAL is checked against the integer model alone, which the Linux
// stages check against both libraries (test_oracles.cpp).
#ifndef TEXDEC_TEST_PACKAGED_BC_ORACLES
#define TEXDEC_TEST_PACKAGED_BC_ORACLES 1
#endif
#if TEXDEC_TEST_PACKAGED_BC_ORACLES
#include "nvimage_oracle.h"
#include "squish_oracle.h"
#endif

namespace texdec_test {
static_assert(kSrgbHalfIsByteOver255, "bc1_5::apply_output_rules implements this reading");

namespace {

// The test's BcFormat as the CPU reference's BC1-BC5 layout (same formats, same flags).
texdec_reference::bc1_5::Layout layout_of(const BcFormat& f) {
    using texdec_reference::bc1_5::Kind;
    Kind kind = Kind::BC1_RGB;
    switch (f.kind) {
    case BcKind::BC1_RGB: kind = Kind::BC1_RGB; break;
    case BcKind::BC1_RGBA: kind = Kind::BC1_RGBA; break;
    case BcKind::BC2: kind = Kind::BC2; break;
    case BcKind::BC3: kind = Kind::BC3; break;
    case BcKind::BC4: kind = Kind::BC4; break;
    case BcKind::BC5: kind = Kind::BC5; break;
    case BcKind::BC6H: case BcKind::BC7: std::abort();  // not BC1-BC5
    }
    return {kind, f.srgb, f.is_signed};
}

[[maybe_unused]] uint16_t le16(const uint8_t* p) { return uint16_t(p[0] | (p[1] << 8)); }

// IDEAL: the 8-bit values come from an oracle; the halves follow from them.
void set_ideal(const BcFormat& f, ReferenceTexel& t, int c, int v) {
    t.v8[c] = int16_t(v);
    t.f16[c] = texdec_reference::bc1_5::ideal_half(f.is_signed, v);
}

[[maybe_unused]] void set_ideal_rgba(const BcFormat& f, const uint8_t rgba[64], ReferenceBlock* out) {
    for (int t = 0; t < 16; ++t)
        for (int c = 0; c < 4; ++c) set_ideal(f, out->texel[t], c, rgba[4 * t + c]);
}

#if TEXDEC_TEST_PACKAGED_BC_ORACLES
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
#endif

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
    if (!TEXDEC_TEST_PACKAGED_BC_ORACLES) return Oracle::IdealModel;
    if (has_bc1_colour(f.kind)) return Oracle::Squish;
    return f.is_signed ? Oracle::IdealModel : Oracle::Nvimage;
}

bool oracle_supports(Oracle oracle, const BcFormat& f, texdec_bc_rounding rounding) {
    switch (oracle) {
    case Oracle::ExactModel: return rounding == TEXDEC_BC_ROUNDING_EXACT;
    case Oracle::Squish:
        return TEXDEC_TEST_PACKAGED_BC_ORACLES && rounding == TEXDEC_BC_ROUNDING_IDEAL && has_bc1_colour(f.kind);
    case Oracle::Nvimage:
        return TEXDEC_TEST_PACKAGED_BC_ORACLES && rounding == TEXDEC_BC_ROUNDING_IDEAL && !f.is_signed;
    case Oracle::IdealModel: return rounding == TEXDEC_BC_ROUNDING_IDEAL;
    }
    return false;
}

void reference_decode(const BcFormat& f, texdec_bc_rounding rounding, Oracle oracle, const uint8_t* block,
                      ReferenceBlock* out) {
    if (!oracle_supports(oracle, f, rounding)) std::abort();
    switch (oracle) {
    case Oracle::ExactModel:
    case Oracle::IdealModel:
        texdec_reference::bc1_5::decode_model(layout_of(f), rounding, block, out->texel);
        out->channel_mask = 0xF;
        break;
#if TEXDEC_TEST_PACKAGED_BC_ORACLES
    case Oracle::Squish: decode_squish(f, block, out); break;
    case Oracle::Nvimage: decode_nvimage(f, block, out); break;
#else
    case Oracle::Squish:
    case Oracle::Nvimage: std::abort();  // oracle_supports said no
#endif
    }
    // Missing channels and sRGB halves (kSrgbHalfIsByteOver255): the output rules, not the decode.
    texdec_reference::bc1_5::apply_output_rules(layout_of(f), out->texel);
}

void pack_reference_texel(const BcFormat& f, texdec_output output, const ReferenceTexel& t, uint8_t* bytes) {
    texdec_reference::bc1_5::pack(layout_of(f), output, t, bytes);
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

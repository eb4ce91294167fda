// The tests' own description of the BC1-BC5 formats (block size, channels, signedness, output
// formats), written from the Khronos Data Format Specification and docs/EXACTNESS.md "Output types".
// Tests use it instead of the library's format table, so that a wrong table row is caught by
// test_format_table.cpp rather than silently shared by the expectations.
#pragma once

#include <texdec/texdec.h>

#include <array>
#include <cstring>
#include <cstdint>
#include <string>

namespace texdec_test {

enum class BcKind { BC1_RGB, BC1_RGBA, BC2, BC3, BC4, BC5, BC6H, BC7 };

struct BcFormat {
    texdec_format format;
    const char* name;        // command-line name, e.g. "bc1-rgb-unorm"
    VkFormat vk_format;      // the compressed VkFormat
    BcKind kind;
    uint32_t block_bytes;    // 8 or 16
    uint32_t channels;       // 1 (R), 2 (RG), 3 (RGB), 4 (RGBA)
    bool srgb;
    bool is_signed;
};

inline const std::array<BcFormat, 12>& bc_formats() {
    static const std::array<BcFormat, 12> table = {{
        {TEXDEC_FORMAT_BC1_RGB_UNORM, "bc1-rgb-unorm", VK_FORMAT_BC1_RGB_UNORM_BLOCK, BcKind::BC1_RGB, 8, 3, false, false},
        {TEXDEC_FORMAT_BC1_RGB_SRGB, "bc1-rgb-srgb", VK_FORMAT_BC1_RGB_SRGB_BLOCK, BcKind::BC1_RGB, 8, 3, true, false},
        {TEXDEC_FORMAT_BC1_RGBA_UNORM, "bc1-rgba-unorm", VK_FORMAT_BC1_RGBA_UNORM_BLOCK, BcKind::BC1_RGBA, 8, 4, false, false},
        {TEXDEC_FORMAT_BC1_RGBA_SRGB, "bc1-rgba-srgb", VK_FORMAT_BC1_RGBA_SRGB_BLOCK, BcKind::BC1_RGBA, 8, 4, true, false},
        {TEXDEC_FORMAT_BC2_UNORM, "bc2-unorm", VK_FORMAT_BC2_UNORM_BLOCK, BcKind::BC2, 16, 4, false, false},
        {TEXDEC_FORMAT_BC2_SRGB, "bc2-srgb", VK_FORMAT_BC2_SRGB_BLOCK, BcKind::BC2, 16, 4, true, false},
        {TEXDEC_FORMAT_BC3_UNORM, "bc3-unorm", VK_FORMAT_BC3_UNORM_BLOCK, BcKind::BC3, 16, 4, false, false},
        {TEXDEC_FORMAT_BC3_SRGB, "bc3-srgb", VK_FORMAT_BC3_SRGB_BLOCK, BcKind::BC3, 16, 4, true, false},
        {TEXDEC_FORMAT_BC4_UNORM, "bc4-unorm", VK_FORMAT_BC4_UNORM_BLOCK, BcKind::BC4, 8, 1, false, false},
        {TEXDEC_FORMAT_BC4_SNORM, "bc4-snorm", VK_FORMAT_BC4_SNORM_BLOCK, BcKind::BC4, 8, 1, false, true},
        {TEXDEC_FORMAT_BC5_UNORM, "bc5-unorm", VK_FORMAT_BC5_UNORM_BLOCK, BcKind::BC5, 16, 2, false, false},
        {TEXDEC_FORMAT_BC5_SNORM, "bc5-snorm", VK_FORMAT_BC5_SNORM_BLOCK, BcKind::BC5, 16, 2, false, true},
    }};
    return table;
}

// BC6H (UF16, SF16). Kept out of bc_formats(): the tests that loop over that list are about the
// BC1-BC5 rounding modes and 8-bit outputs, which BC6H does not have (tests/test_bc6h_decode.cpp).
inline const std::array<BcFormat, 2>& bc6h_formats() {
    static const std::array<BcFormat, 2> table = {{
        {TEXDEC_FORMAT_BC6H_UFLOAT, "bc6h-ufloat", VK_FORMAT_BC6H_UFLOAT_BLOCK, BcKind::BC6H, 16, 3, false, false},
        {TEXDEC_FORMAT_BC6H_SFLOAT, "bc6h-sfloat", VK_FORMAT_BC6H_SFLOAT_BLOCK, BcKind::BC6H, 16, 3, false, true},
    }};
    return table;
}

// BC7 (UNORM, sRGB). Kept out of bc_formats() for the same reason (tests/test_bc7_decode.cpp);
// oracle: lavapipe's native decode (docs/EXACTNESS.md "BC6H (UF16, SF16) and BC7").
inline const std::array<BcFormat, 2>& bc7_formats() {
    static const std::array<BcFormat, 2> table = {{
        {TEXDEC_FORMAT_BC7_UNORM, "bc7-unorm", VK_FORMAT_BC7_UNORM_BLOCK, BcKind::BC7, 16, 4, false, false},
        {TEXDEC_FORMAT_BC7_SRGB, "bc7-srgb", VK_FORMAT_BC7_SRGB_BLOCK, BcKind::BC7, 16, 4, true, false},
    }};
    return table;
}

// The BcFormat of `format`; aborts the test binary if it is not BC1-BC5 (a test bug).
const BcFormat& bc_format(texdec_format format);

inline bool is_bc1_family(BcKind k) { return k == BcKind::BC1_RGB || k == BcKind::BC1_RGBA; }
inline bool has_bc1_colour(BcKind k) { return k != BcKind::BC4 && k != BcKind::BC5; }

// Whether `output` is offered for the format (docs/EXACTNESS.md: RGBA8 is refused for SNORM).
inline bool output_offered(const BcFormat& f, texdec_output output) {
    return !(output == TEXDEC_OUTPUT_RGBA8 && f.is_signed);
}

// Bytes of one output texel: RGBA8 4, RGBA16F 8, NATIVE R8 / RG8 for BC4 / BC5, RGBA8 otherwise.
inline uint32_t output_texel_bytes(const BcFormat& f, texdec_output output) {
    switch (output) {
    case TEXDEC_OUTPUT_RGBA8: return 4;
    case TEXDEC_OUTPUT_RGBA16F: return 8;
    case TEXDEC_OUTPUT_NATIVE: return f.kind == BcKind::BC4 ? 1 : f.kind == BcKind::BC5 ? 2 : 4;
    default: return 0;
    }
}

// The uncompressed VkFormat of an output (what texdec_output_vk_format must answer).
inline VkFormat output_vk_format(const BcFormat& f, texdec_output output) {
    if (output == TEXDEC_OUTPUT_RGBA16F) return VK_FORMAT_R16G16B16A16_SFLOAT;
    if (output == TEXDEC_OUTPUT_NATIVE && f.kind == BcKind::BC4)
        return f.is_signed ? VK_FORMAT_R8_SNORM : VK_FORMAT_R8_UNORM;
    if (output == TEXDEC_OUTPUT_NATIVE && f.kind == BcKind::BC5)
        return f.is_signed ? VK_FORMAT_R8G8_SNORM : VK_FORMAT_R8G8_UNORM;
    return f.srgb ? VK_FORMAT_R8G8B8A8_SRGB : VK_FORMAT_R8G8B8A8_UNORM;
}

inline const char* output_name(texdec_output o) {
    return o == TEXDEC_OUTPUT_RGBA8 ? "RGBA8" : o == TEXDEC_OUTPUT_RGBA16F ? "RGBA16F" : "NATIVE";
}
// The UNORM format an sRGB BC1-BC3 format decodes like (its bytes stay sRGB-encoded); `f` itself
// for the others.
inline const BcFormat& bc_unorm_twin(const BcFormat& f) {
    for (const BcFormat& g : bc_formats())
        if (f.srgb && g.kind == f.kind && !g.srgb) return g;
    return f;
}
inline const char* rounding_name(texdec_bc_rounding r) {
    return r == TEXDEC_BC_ROUNDING_EXACT ? "EXACT" : r == TEXDEC_BC_ROUNDING_IDEAL ? "IDEAL" : "NVIDIA";
}

constexpr texdec_output kAllOutputs[] = {TEXDEC_OUTPUT_RGBA8, TEXDEC_OUTPUT_RGBA16F, TEXDEC_OUTPUT_NATIVE};
constexpr texdec_bc_rounding kBothRoundings[] = {TEXDEC_BC_ROUNDING_EXACT, TEXDEC_BC_ROUNDING_IDEAL};

std::string hex_bytes(const uint8_t* bytes, size_t count);

// Stores an arbitrary 32-bit value into an enum field of a job struct the way a C caller (or a
// C#/Rust binding) can, without a C++ conversion of an out-of-range value to the enum type.
// The library must cope with such values (TEXDEC_ERROR_UNKNOWN_FORMAT and friends).
template <typename Enum>
void store_raw_enum(Enum& field, int32_t value) {
    static_assert(sizeof(Enum) == sizeof(int32_t), "texdec enums are 32-bit in the C ABI");
    std::memcpy(&field, &value, sizeof value);
}

}  // namespace texdec_test

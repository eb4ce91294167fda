// The format table, names, VkFormat mapping, output formats and size helpers: pure functions,
// no device needed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>

#include "support/bc_formats.h"

using namespace texdec_test;

namespace {

// Every texdec_format with the VkFormat constant of the same name, from the Vulkan headers.
// The expected command-line name is derived from the VkFormat's spelling (DESIGN.md "Names").
struct Row {
    texdec_format format;
    VkFormat vk;
    const char* vk_name;
};
#define ROW(T, V) Row{TEXDEC_FORMAT_##T, V, #V}
#define ASTC2D(W, H)                                                                        \
    ROW(ASTC_##W##x##H##_UNORM, VK_FORMAT_ASTC_##W##x##H##_UNORM_BLOCK),                     \
        ROW(ASTC_##W##x##H##_SRGB, VK_FORMAT_ASTC_##W##x##H##_SRGB_BLOCK),                   \
        ROW(ASTC_##W##x##H##_SFLOAT, VK_FORMAT_ASTC_##W##x##H##_SFLOAT_BLOCK)
const Row kRows[] = {
    ROW(BC1_RGB_UNORM, VK_FORMAT_BC1_RGB_UNORM_BLOCK), ROW(BC1_RGB_SRGB, VK_FORMAT_BC1_RGB_SRGB_BLOCK),
    ROW(BC1_RGBA_UNORM, VK_FORMAT_BC1_RGBA_UNORM_BLOCK), ROW(BC1_RGBA_SRGB, VK_FORMAT_BC1_RGBA_SRGB_BLOCK),
    ROW(BC2_UNORM, VK_FORMAT_BC2_UNORM_BLOCK), ROW(BC2_SRGB, VK_FORMAT_BC2_SRGB_BLOCK),
    ROW(BC3_UNORM, VK_FORMAT_BC3_UNORM_BLOCK), ROW(BC3_SRGB, VK_FORMAT_BC3_SRGB_BLOCK),
    ROW(BC4_UNORM, VK_FORMAT_BC4_UNORM_BLOCK), ROW(BC4_SNORM, VK_FORMAT_BC4_SNORM_BLOCK),
    ROW(BC5_UNORM, VK_FORMAT_BC5_UNORM_BLOCK), ROW(BC5_SNORM, VK_FORMAT_BC5_SNORM_BLOCK),
    ROW(BC6H_UFLOAT, VK_FORMAT_BC6H_UFLOAT_BLOCK), ROW(BC6H_SFLOAT, VK_FORMAT_BC6H_SFLOAT_BLOCK),
    ROW(BC7_UNORM, VK_FORMAT_BC7_UNORM_BLOCK), ROW(BC7_SRGB, VK_FORMAT_BC7_SRGB_BLOCK),
    ROW(ETC2_R8G8B8_UNORM, VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK), ROW(ETC2_R8G8B8_SRGB, VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK),
    ROW(ETC2_R8G8B8A1_UNORM, VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK), ROW(ETC2_R8G8B8A1_SRGB, VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK),
    ROW(ETC2_R8G8B8A8_UNORM, VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK), ROW(ETC2_R8G8B8A8_SRGB, VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK),
    ROW(EAC_R11_UNORM, VK_FORMAT_EAC_R11_UNORM_BLOCK), ROW(EAC_R11_SNORM, VK_FORMAT_EAC_R11_SNORM_BLOCK),
    ROW(EAC_R11G11_UNORM, VK_FORMAT_EAC_R11G11_UNORM_BLOCK), ROW(EAC_R11G11_SNORM, VK_FORMAT_EAC_R11G11_SNORM_BLOCK),
    ASTC2D(4, 4), ASTC2D(5, 4), ASTC2D(5, 5), ASTC2D(6, 5), ASTC2D(6, 6), ASTC2D(8, 5), ASTC2D(8, 6), ASTC2D(8, 8),
    ASTC2D(10, 5), ASTC2D(10, 6), ASTC2D(10, 8), ASTC2D(10, 10), ASTC2D(12, 10), ASTC2D(12, 12),
};
#undef ASTC2D
#undef ROW

// "VK_FORMAT_BC1_RGB_UNORM_BLOCK" -> "bc1-rgb-unorm": lower case, '_' -> '-', prefix and
// _BLOCK / _BLOCK_EXT dropped.
std::string name_from_vk_name(std::string s) {
    s = s.substr(std::strlen("VK_FORMAT_"));
    for (const char* suffix : {"_BLOCK_EXT", "_BLOCK"})
        if (s.size() > std::strlen(suffix) && s.compare(s.size() - std::strlen(suffix), std::string::npos, suffix) == 0) {
            s.resize(s.size() - std::strlen(suffix));
            break;
        }
    for (auto& c : s) c = c == '_' ? '-' : char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Block footprint and size from the name, independently of the library's table.
void expected_block(const std::string& name, uint32_t& w, uint32_t& h, uint32_t& d, uint32_t& bytes) {
    w = h = 4;
    d = 1;
    if (name.rfind("astc-", 0) == 0) {
        bytes = 16;
        const std::string dims = name.substr(5, name.find('-', 5) - 5);  // "6x5" or "4x4x3"
        unsigned a = 0, b = 0, c = 1;
        const int n = std::sscanf(dims.c_str(), "%ux%ux%u", &a, &b, &c);
        REQUIRE(n >= 2);
        w = a;
        h = b;
        d = n == 3 ? c : 1;
        return;
    }
    const bool eight = name.rfind("bc1-", 0) == 0 || name.rfind("bc4-", 0) == 0 || name.rfind("etc2-r8g8b8-", 0) == 0 ||
                       name.rfind("etc2-r8g8b8a1-", 0) == 0 || name.rfind("eac-r11-", 0) == 0;
    bytes = eight ? 8 : 16;
}

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("format table: every format's info, name and VkFormat", "[format]") {
    std::set<std::string> names;
    std::set<int> vk_formats;
    // Rows of kRows by texdec_format, to find the expected VkFormat.
    for (int v = TEXDEC_FORMAT_UNDEFINED + 1; v < TEXDEC_FORMAT_COUNT; ++v) {
        const auto format = texdec_format(v);
        texdec_format_info info;
        std::memset(&info, 0xCD, sizeof info);
        INFO("texdec_format value " << v);
        REQUIRE(texdec_format_get_info(format, &info) == TEXDEC_SUCCESS);
        CHECK(info.format == format);
        REQUIRE(info.name != nullptr);
        const std::string name = info.name;
        INFO("name " << name);
        CHECK(!name.empty());
        CHECK(names.insert(name).second);  // names are distinct
        for (char c : name) CHECK((std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-'));

        // Names round-trip; VkFormats round-trip and are distinct.
        CHECK(texdec_format_from_name(info.name) == format);
        CHECK(texdec_format_from_vk(info.vk_format) == format);
        CHECK(vk_formats.insert(int(info.vk_format)).second);

        // The VkFormat is the one of the same name (ASTC 3D: VK_EXT_texture_compression_astc_3d,
        // not in every Vulkan header; checked through the name pattern only when absent).
        const Row* row = nullptr;
        for (const auto& r : kRows)
            if (r.format == format) row = &r;
        if (row) {
            CHECK(info.vk_format == row->vk);
            CHECK(name == name_from_vk_name(row->vk_name));
        } else {
            INFO("not in the Vulkan headers used here: expected an ASTC 3D format");
            CHECK(name.rfind("astc-", 0) == 0);
            CHECK(std::count(name.begin(), name.end(), 'x') == 2);
        }

        uint32_t bw, bh, bd, bytes;
        expected_block(name, bw, bh, bd, bytes);
        CHECK(info.block_width == bw);
        CHECK(info.block_height == bh);
        CHECK(info.block_depth == bd);
        CHECK(info.bytes_per_block == bytes);

        // Family, channels and flags from the name.
        texdec_family family = TEXDEC_FAMILY_ASTC;
        uint32_t channels = 4;
        if (name.rfind("bc1-rgb-", 0) == 0) family = TEXDEC_FAMILY_BC1_3, channels = 3;
        else if (name.rfind("bc1-", 0) == 0 || name.rfind("bc2-", 0) == 0 || name.rfind("bc3-", 0) == 0) family = TEXDEC_FAMILY_BC1_3;
        else if (name.rfind("bc4-", 0) == 0) family = TEXDEC_FAMILY_BC4_5, channels = 1;
        else if (name.rfind("bc5-", 0) == 0) family = TEXDEC_FAMILY_BC4_5, channels = 2;
        else if (name.rfind("bc6h-", 0) == 0) family = TEXDEC_FAMILY_BC6H, channels = 3;
        else if (name.rfind("bc7-", 0) == 0) family = TEXDEC_FAMILY_BC7;
        else if (name.rfind("etc2-r8g8b8-", 0) == 0) family = TEXDEC_FAMILY_ETC2, channels = 3;
        else if (name.rfind("etc2-", 0) == 0) family = TEXDEC_FAMILY_ETC2;
        else if (name.rfind("eac-r11g11-", 0) == 0) family = TEXDEC_FAMILY_EAC, channels = 2;
        else if (name.rfind("eac-r11-", 0) == 0) family = TEXDEC_FAMILY_EAC, channels = 1;
        CHECK(info.family == family);
        CHECK(info.channels == channels);
        CHECK(bool(info.flags & TEXDEC_FORMAT_FLAG_SRGB) == contains(name, "-srgb"));
        CHECK(bool(info.flags & TEXDEC_FORMAT_FLAG_HDR) == (contains(name, "bc6h") || contains(name, "-sfloat")));
        CHECK(bool(info.flags & TEXDEC_FORMAT_FLAG_ALPHA) == (channels == 4));
        if (contains(name, "-snorm") || contains(name, "bc6h-sfloat")) CHECK((info.flags & TEXDEC_FORMAT_FLAG_SIGNED));
        if (contains(name, "-unorm") || contains(name, "-srgb") || contains(name, "ufloat")) CHECK(!(info.flags & TEXDEC_FORMAT_FLAG_SIGNED));
        // This milestone implements BC1-BC5.
        if (family == TEXDEC_FAMILY_BC1_3 || family == TEXDEC_FAMILY_BC4_5) CHECK((info.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED));
    }
    CHECK(names.size() == size_t(TEXDEC_FORMAT_COUNT - 1));
}

TEST_CASE("format table: the tests' BC1-BC5 description matches the library's", "[bc1-5][format]") {
    for (const BcFormat& f : bc_formats()) {
        INFO(f.name);
        texdec_format_info info;
        REQUIRE(texdec_format_get_info(f.format, &info) == TEXDEC_SUCCESS);
        CHECK(std::string(info.name) == f.name);
        CHECK(info.vk_format == f.vk_format);
        CHECK(info.bytes_per_block == f.block_bytes);
        CHECK(info.channels == f.channels);
        CHECK(bool(info.flags & TEXDEC_FORMAT_FLAG_SRGB) == f.srgb);
        CHECK(bool(info.flags & TEXDEC_FORMAT_FLAG_SIGNED) == f.is_signed);
    }
}

TEST_CASE("format table: unknown values, names and VkFormats", "[format]") {
    texdec_format_info info;
    CHECK(texdec_format_get_info(TEXDEC_FORMAT_UNDEFINED, &info) == TEXDEC_ERROR_UNKNOWN_FORMAT);
    CHECK(texdec_format_get_info(TEXDEC_FORMAT_COUNT, &info) == TEXDEC_ERROR_UNKNOWN_FORMAT);
    CHECK(texdec_format_get_info(texdec_format(-1), &info) == TEXDEC_ERROR_UNKNOWN_FORMAT);
    CHECK(texdec_format_get_info(texdec_format(0x7FFFFFFF), &info) == TEXDEC_ERROR_UNKNOWN_FORMAT);
    CHECK(texdec_format_get_info(TEXDEC_FORMAT_BC1_RGB_UNORM, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_format_from_name("") == TEXDEC_FORMAT_UNDEFINED);
    CHECK(texdec_format_from_name("bc8-unorm") == TEXDEC_FORMAT_UNDEFINED);
    CHECK(texdec_format_from_name("bc1-rgb-unorm-extra") == TEXDEC_FORMAT_UNDEFINED);
    CHECK(texdec_format_from_name("bc1") == TEXDEC_FORMAT_UNDEFINED);
    CHECK(texdec_format_from_name(nullptr) == TEXDEC_FORMAT_UNDEFINED);
    CHECK(texdec_format_from_vk(VK_FORMAT_UNDEFINED) == TEXDEC_FORMAT_UNDEFINED);
    CHECK(texdec_format_from_vk(VK_FORMAT_R8G8B8A8_UNORM) == TEXDEC_FORMAT_UNDEFINED);
    CHECK(texdec_format_from_vk(VkFormat(0x7FFFFFFF)) == TEXDEC_FORMAT_UNDEFINED);
}

TEST_CASE("output formats and texel sizes of BC1-BC5", "[bc1-5][format]") {
    for (const BcFormat& f : bc_formats())
        for (texdec_output output : kAllOutputs) {
            INFO(f.name << " " << output_name(output));
            VkFormat vk = VK_FORMAT_MAX_ENUM;
            uint32_t bytes = 12345;
            if (!output_offered(f, output)) {
                // RGBA8 is not offered for SNORM formats.
                CHECK(texdec_output_vk_format(f.format, output, &vk) == TEXDEC_ERROR_UNSUPPORTED_OUTPUT);
                CHECK(texdec_output_texel_size(f.format, output, &bytes) == TEXDEC_ERROR_UNSUPPORTED_OUTPUT);
                uint64_t size = 0;
                CHECK(texdec_decoded_size(f.format, output, 4, 4, 1, &size) == TEXDEC_ERROR_UNSUPPORTED_OUTPUT);
                continue;
            }
            REQUIRE(texdec_output_vk_format(f.format, output, &vk) == TEXDEC_SUCCESS);
            CHECK(vk == output_vk_format(f, output));
            REQUIRE(texdec_output_texel_size(f.format, output, &bytes) == TEXDEC_SUCCESS);
            CHECK(bytes == output_texel_bytes(f, output));
        }
    VkFormat vk;
    uint32_t bytes;
    CHECK(texdec_output_vk_format(texdec_format(9999), TEXDEC_OUTPUT_RGBA8, &vk) == TEXDEC_ERROR_UNKNOWN_FORMAT);
    CHECK(texdec_output_vk_format(TEXDEC_FORMAT_BC1_RGB_UNORM, texdec_output(42), &vk) == TEXDEC_ERROR_UNSUPPORTED_OUTPUT);
    CHECK(texdec_output_vk_format(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_output_texel_size(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_output_texel_size(texdec_format(9999), TEXDEC_OUTPUT_RGBA8, &bytes) == TEXDEC_ERROR_UNKNOWN_FORMAT);
}

TEST_CASE("output formats of formats not implemented yet follow docs/EXACTNESS.md where answered", "[format]") {
    // Not required to answer yet; where the library does answer, the answer must be the contract's.
    for (int v = TEXDEC_FORMAT_UNDEFINED + 1; v < TEXDEC_FORMAT_COUNT; ++v) {
        texdec_format_info info;
        REQUIRE(texdec_format_get_info(texdec_format(v), &info) == TEXDEC_SUCCESS);
        if (info.family == TEXDEC_FAMILY_BC1_3 || info.family == TEXDEC_FAMILY_BC4_5) continue;
        const std::string name = info.name;
        INFO(name);
        VkFormat vk;
        const bool is_float = info.family == TEXDEC_FAMILY_BC6H || contains(name, "-sfloat");
        const texdec_status rgba8 = texdec_output_vk_format(texdec_format(v), TEXDEC_OUTPUT_RGBA8, &vk);
        if (is_float || contains(name, "-snorm")) CHECK(rgba8 != TEXDEC_SUCCESS);
        else if (rgba8 == TEXDEC_SUCCESS) CHECK(vk == (info.flags & TEXDEC_FORMAT_FLAG_SRGB ? VK_FORMAT_R8G8B8A8_SRGB : VK_FORMAT_R8G8B8A8_UNORM));
        if (texdec_output_vk_format(texdec_format(v), TEXDEC_OUTPUT_RGBA16F, &vk) == TEXDEC_SUCCESS)
            CHECK(vk == VK_FORMAT_R16G16B16A16_SFLOAT);
        if (texdec_output_vk_format(texdec_format(v), TEXDEC_OUTPUT_NATIVE, &vk) == TEXDEC_SUCCESS) {
            VkFormat expected = info.flags & TEXDEC_FORMAT_FLAG_SRGB ? VK_FORMAT_R8G8B8A8_SRGB : VK_FORMAT_R8G8B8A8_UNORM;
            if (is_float) expected = VK_FORMAT_R16G16B16A16_SFLOAT;
            if (name.rfind("eac-r11-", 0) == 0) expected = contains(name, "snorm") ? VK_FORMAT_R16_SNORM : VK_FORMAT_R16_UNORM;
            if (name.rfind("eac-r11g11-", 0) == 0) expected = contains(name, "snorm") ? VK_FORMAT_R16G16_SNORM : VK_FORMAT_R16G16_UNORM;
            CHECK(vk == expected);
        }
    }
}

TEST_CASE("encoded and decoded sizes", "[format]") {
    uint64_t size = 0;
    CHECK(texdec_encoded_size(TEXDEC_FORMAT_BC1_RGB_UNORM, 1, 1, 1, &size) == TEXDEC_SUCCESS);
    CHECK(size == 8);
    CHECK(texdec_encoded_size(TEXDEC_FORMAT_BC1_RGB_UNORM, 5, 3, 1, &size) == TEXDEC_SUCCESS);
    CHECK(size == 2 * 1 * 8);
    CHECK(texdec_encoded_size(TEXDEC_FORMAT_BC3_UNORM, 13, 7, 1, &size) == TEXDEC_SUCCESS);
    CHECK(size == 4 * 2 * 16);
    CHECK(texdec_encoded_size(TEXDEC_FORMAT_BC5_SNORM, 4097, 3, 2, &size) == TEXDEC_SUCCESS);
    CHECK(size == 1025 * 1 * 2 * 16);
    CHECK(texdec_encoded_size(TEXDEC_FORMAT_BC4_UNORM, 16, 16, 5, &size) == TEXDEC_SUCCESS);
    CHECK(size == 4 * 4 * 5 * 8);
    // 2^30 x 2^30 blocks of 8 bytes = 2^63: still fits; with 2^32 slices it does not.
    CHECK(texdec_encoded_size(TEXDEC_FORMAT_BC1_RGB_UNORM, 0xFFFFFFFF, 0xFFFFFFFF, 1, &size) == TEXDEC_SUCCESS);
    CHECK(size == (uint64_t(1) << 63));
    CHECK(texdec_encoded_size(TEXDEC_FORMAT_BC1_RGB_UNORM, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, &size) == TEXDEC_ERROR_SIZE_OVERFLOW);
    CHECK(texdec_encoded_size(TEXDEC_FORMAT_BC3_UNORM, 0xFFFFFFFF, 0xFFFFFFFF, 1, &size) == TEXDEC_ERROR_SIZE_OVERFLOW);

    for (const BcFormat& f : bc_formats())
        for (texdec_output output : kAllOutputs) {
            if (!output_offered(f, output)) continue;
            INFO(f.name << " " << output_name(output));
            CHECK(texdec_decoded_size(f.format, output, 13, 7, 3, &size) == TEXDEC_SUCCESS);
            CHECK(size == uint64_t(13) * 7 * 3 * output_texel_bytes(f, output));
            CHECK(texdec_decoded_size(f.format, output, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, &size) == TEXDEC_ERROR_SIZE_OVERFLOW);
        }
    CHECK(texdec_decoded_size(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA16F, 0xFFFFFFFF, 0xFFFFFFFF, 1, &size) ==
          TEXDEC_ERROR_SIZE_OVERFLOW);  // 2^64 - 2^33 + 1 texels x 8 bytes

    CHECK(texdec_encoded_size(TEXDEC_FORMAT_BC1_RGB_UNORM, 0, 4, 1, &size) == TEXDEC_ERROR_INVALID_EXTENT);
    CHECK(texdec_encoded_size(TEXDEC_FORMAT_BC1_RGB_UNORM, 4, 0, 1, &size) == TEXDEC_ERROR_INVALID_EXTENT);
    CHECK(texdec_encoded_size(TEXDEC_FORMAT_BC1_RGB_UNORM, 4, 4, 0, &size) == TEXDEC_ERROR_INVALID_EXTENT);
    CHECK(texdec_decoded_size(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8, 0, 4, 1, &size) == TEXDEC_ERROR_INVALID_EXTENT);
    CHECK(texdec_encoded_size(texdec_format(9999), 4, 4, 1, &size) == TEXDEC_ERROR_UNKNOWN_FORMAT);
    CHECK(texdec_encoded_size(TEXDEC_FORMAT_BC1_RGB_UNORM, 4, 4, 1, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_decoded_size(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8, 4, 4, 1, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
}

TEST_CASE("status strings are non-empty and distinct", "[format]") {
    std::set<std::string> seen;
    for (int s = TEXDEC_SUCCESS; s <= TEXDEC_ERROR_NOT_READY; ++s) {
        const char* text = texdec_status_string(texdec_status(s));
        INFO("status " << s);
        REQUIRE(text != nullptr);
        CHECK(std::strlen(text) > 0);
        CHECK(seen.insert(text).second);
    }
    CHECK(texdec_status_string(texdec_status(1000)) != nullptr);
    CHECK(texdec_status_string(texdec_status(-1)) != nullptr);
}

TEST_CASE("library version matches the header", "[format]") { CHECK(texdec_version() == uint32_t(TEXDEC_VERSION)); }

TEST_CASE("texel formats: every output's VkFormat, its size and sRGB twin", "[format]") {
    for (uint32_t i = 1; i < TEXDEC_FORMAT_COUNT; ++i) {
        const auto format = texdec_format(i);
        texdec_format_info f{};
        REQUIRE(texdec_format_get_info(format, &f) == TEXDEC_SUCCESS);
        for (texdec_output output : {TEXDEC_OUTPUT_RGBA8, TEXDEC_OUTPUT_RGBA16F, TEXDEC_OUTPUT_NATIVE}) {
            VkFormat vk = VK_FORMAT_UNDEFINED;
            uint32_t bytes = 0;
            if (texdec_output_vk_format(format, output, &vk) != TEXDEC_SUCCESS) continue;
            REQUIRE(texdec_output_texel_size(format, output, &bytes) == TEXDEC_SUCCESS);
            INFO(f.name << " " << texdec_output_name(output));
            texdec_texel_format_info t{};
            REQUIRE(texdec_texel_format_get_info(vk, &t) == TEXDEC_SUCCESS);
            CHECK(t.texel_bytes == bytes);
            CHECK(t.channels * t.channel_bytes == t.texel_bytes);
            CHECK(bool(t.flags & TEXDEC_TEXEL_FORMAT_SRGB) == (vk == VK_FORMAT_R8G8B8A8_SRGB));
            CHECK(bool(t.flags & TEXDEC_TEXEL_FORMAT_HALF) == (vk == VK_FORMAT_R16G16B16A16_SFLOAT));
        }
    }
    texdec_texel_format_info t{};
    REQUIRE(texdec_texel_format_get_info(VK_FORMAT_B8G8R8A8_SRGB, &t) == TEXDEC_SUCCESS);
    CHECK(t.flags == (TEXDEC_TEXEL_FORMAT_SRGB | TEXDEC_TEXEL_FORMAT_BGRA));
    CHECK(t.linear_format == VK_FORMAT_B8G8R8A8_UNORM);
    CHECK(t.srgb_format == VK_FORMAT_B8G8R8A8_SRGB);
    REQUIRE(texdec_texel_format_get_info(VK_FORMAT_R8G8_SNORM, &t) == TEXDEC_SUCCESS);
    CHECK(t.flags == TEXDEC_TEXEL_FORMAT_SIGNED);
    CHECK(t.linear_format == VK_FORMAT_R8G8_SNORM);
    CHECK(t.srgb_format == VK_FORMAT_UNDEFINED);
    CHECK(texdec_texel_format_get_info(VK_FORMAT_R8_SRGB, &t) == TEXDEC_ERROR_UNKNOWN_FORMAT);
    CHECK(texdec_texel_format_get_info(VK_FORMAT_R8G8B8A8_UNORM, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(std::string(texdec_output_name(TEXDEC_OUTPUT_RGBA8)) == "rgba8");
    CHECK(std::string(texdec_output_name(TEXDEC_OUTPUT_RGBA16F)) == "rgba16f");
    CHECK(std::string(texdec_output_name(TEXDEC_OUTPUT_NATIVE)) == "native");
    CHECK(texdec_output_name(texdec_output(3)) == nullptr);
}

TEST_CASE("format table: texdec_bc_rounding_name names every rounding, NULL for others", "[format]") {
    CHECK(std::string(texdec_bc_rounding_name(TEXDEC_BC_ROUNDING_EXACT)) == "exact");
    CHECK(std::string(texdec_bc_rounding_name(TEXDEC_BC_ROUNDING_IDEAL)) == "ideal");
    CHECK(std::string(texdec_bc_rounding_name(TEXDEC_BC_ROUNDING_NVIDIA)) == "nvidia");
    CHECK(texdec_bc_rounding_name(texdec_bc_rounding(3)) == nullptr);
    CHECK(texdec_bc_rounding_name(texdec_bc_rounding(-1)) == nullptr);
    CHECK(texdec_bc_rounding_name(TEXDEC_BC_ROUNDING_MAX_ENUM) == nullptr);
}

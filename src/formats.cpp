// ONE table: every format's block footprint, family, flags and VkFormat. Everything else about a
// format (output formats, texel sizes, shader variant) is derived from it.
#include "formats.h"

#include <array>
#include <cstdio>
#include <cstring>
#include <strings.h>

#include "interface.h"
#include "portable.h"

namespace texdec {
namespace {

constexpr uint32_t kSrgb = TEXDEC_FORMAT_FLAG_SRGB;
constexpr uint32_t kSigned = TEXDEC_FORMAT_FLAG_SIGNED;
constexpr uint32_t kHdr = TEXDEC_FORMAT_FLAG_HDR;
constexpr uint32_t kAlpha = TEXDEC_FORMAT_FLAG_ALPHA;
constexpr uint32_t kDone = TEXDEC_FORMAT_FLAG_IMPLEMENTED;

// VK_EXT_texture_compression_astc_3d (not in Debian 12's Vulkan headers): 1000288000 + 3 * footprint
// + {0 UNORM, 1 SRGB, 2 SFLOAT}, footprints in the order of the enum.
constexpr VkFormat astc3d_vk(int footprint, int kind) { return VkFormat(1000288000 + 3 * footprint + kind); }
// VK_FORMAT_ASTC_4x4_UNORM_BLOCK = 157 (+2 per footprint, SRGB +1); SFLOAT = 1000066000 + footprint.
constexpr VkFormat astc2d_vk(int footprint, int kind) {
    return kind == 2 ? VkFormat(1000066000 + footprint) : VkFormat(157 + 2 * footprint + kind);
}

// 4x4 blocks whose VkFormat is VK_FORMAT_<fmt>_BLOCK.
#define BC(fmt, name, fam, bytes, ch, flags, var)                                                           \
    FormatEntry {                                                                                           \
        TEXDEC_FORMAT_##fmt, name, TEXDEC_FAMILY_##fam, 4, 4, 1, bytes, ch, flags, VK_FORMAT_##fmt##_BLOCK, \
            "VK_FORMAT_" #fmt "_BLOCK", var                                                                 \
    }
// A format's _UNORM and _SRGB (or _SNORM) twins, alike but for that flag.
#define BC_UNORM_SRGB(fmt, name, fam, bytes, ch, flags, var)    \
    BC(fmt##_UNORM, name "-unorm", fam, bytes, ch, flags, var), \
        BC(fmt##_SRGB, name "-srgb", fam, bytes, ch, flags | kSrgb, var)
#define BC_UNORM_SNORM(fmt, name, fam, bytes, ch, flags, var)   \
    BC(fmt##_UNORM, name "-unorm", fam, bytes, ch, flags, var), \
        BC(fmt##_SNORM, name "-snorm", fam, bytes, ch, flags | kSigned, var)
// ASTC: the UNORM, SRGB and SFLOAT formats of one footprint (`dims` "4x4" or "3x3x3"), whose
// VkFormats `vk(i, kind)` gives (kind 0, 1, 2).
#define ASTC_ROW(id, name, w, h, d, flags, vk, vk_name, mode)                                                  \
    FormatEntry {                                                                                              \
        TEXDEC_FORMAT_ASTC_##id, "astc-" name, TEXDEC_FAMILY_ASTC, w, h, d, 16, 4, kDone | kAlpha | flags, vk, \
            "VK_FORMAT_ASTC_" vk_name, mode                                                                    \
    }
#define ASTC_FOOTPRINT(dims, w, h, d, vk, i, ext)                                                                 \
    ASTC_ROW(dims##_UNORM, #dims "-unorm", w, h, d, 0, vk(i, 0), #dims "_UNORM_BLOCK" ext, TEXDEC_ASTC_LDR),      \
        ASTC_ROW(dims##_SRGB, #dims "-srgb", w, h, d, kSrgb, vk(i, 1), #dims "_SRGB_BLOCK" ext, TEXDEC_ASTC_LDR), \
        ASTC_ROW(dims##_SFLOAT, #dims "-sfloat", w, h, d, kHdr | kSigned, vk(i, 2), #dims "_SFLOAT_BLOCK" ext,    \
                 TEXDEC_ASTC_HDR)
#define ASTC2(w, h, i) ASTC_FOOTPRINT(w##x##h, w, h, 1, astc2d_vk, i, "")
#define ASTC3(w, h, d, i) ASTC_FOOTPRINT(w##x##h##x##d, w, h, d, astc3d_vk, i, "_EXT")

// Indexed by texdec_format - 1. Channels = what the format stores (BC1 RGBA has 1-bit alpha).
constexpr FormatEntry kFormats[] = {
    BC_UNORM_SRGB(BC1_RGB, "bc1-rgb", BC1_3, 8, 3, kDone, TEXDEC_BC1_RGB),
    BC_UNORM_SRGB(BC1_RGBA, "bc1-rgba", BC1_3, 8, 4, kDone | kAlpha, TEXDEC_BC1_RGBA),
    BC_UNORM_SRGB(BC2, "bc2", BC1_3, 16, 4, kDone | kAlpha, TEXDEC_BC2),
    BC_UNORM_SRGB(BC3, "bc3", BC1_3, 16, 4, kDone | kAlpha, TEXDEC_BC3),
    BC_UNORM_SNORM(BC4, "bc4", BC4_5, 8, 1, kDone, TEXDEC_BC4),
    BC_UNORM_SNORM(BC5, "bc5", BC4_5, 16, 2, kDone, TEXDEC_BC5),
    BC(BC6H_UFLOAT, "bc6h-ufloat", BC6H, 16, 3, kDone | kHdr, 0),
    BC(BC6H_SFLOAT, "bc6h-sfloat", BC6H, 16, 3, kDone | kHdr | kSigned, 0),
    BC_UNORM_SRGB(BC7, "bc7", BC7, 16, 4, kDone | kAlpha, 0),
    BC_UNORM_SRGB(ETC2_R8G8B8, "etc2-r8g8b8", ETC2, 8, 3, kDone, TEXDEC_ETC2_RGB8),
    BC_UNORM_SRGB(ETC2_R8G8B8A1, "etc2-r8g8b8a1", ETC2, 8, 4, kDone | kAlpha, TEXDEC_ETC2_RGB8A1),
    BC_UNORM_SRGB(ETC2_R8G8B8A8, "etc2-r8g8b8a8", ETC2, 16, 4, kDone | kAlpha, TEXDEC_ETC2_RGBA8),
    BC_UNORM_SNORM(EAC_R11, "eac-r11", EAC, 8, 1, kDone, TEXDEC_EAC_R11),
    BC_UNORM_SNORM(EAC_R11G11, "eac-r11g11", EAC, 16, 2, kDone, TEXDEC_EAC_RG11),
    ASTC2(4, 4, 0),
    ASTC2(5, 4, 1),
    ASTC2(5, 5, 2),
    ASTC2(6, 5, 3),
    ASTC2(6, 6, 4),
    ASTC2(8, 5, 5),
    ASTC2(8, 6, 6),
    ASTC2(8, 8, 7),
    ASTC2(10, 5, 8),
    ASTC2(10, 6, 9),
    ASTC2(10, 8, 10),
    ASTC2(10, 10, 11),
    ASTC2(12, 10, 12),
    ASTC2(12, 12, 13),
    ASTC3(3, 3, 3, 0),
    ASTC3(4, 3, 3, 1),
    ASTC3(4, 4, 3, 2),
    ASTC3(4, 4, 4, 3),
    ASTC3(5, 4, 4, 4),
    ASTC3(5, 5, 4, 5),
    ASTC3(5, 5, 5, 6),
    ASTC3(6, 5, 5, 7),
    ASTC3(6, 6, 5, 8),
    ASTC3(6, 6, 6, 9),
};
#undef BC
#undef BC_UNORM_SRGB
#undef BC_UNORM_SNORM
#undef ASTC_ROW
#undef ASTC_FOOTPRINT
#undef ASTC2
#undef ASTC3

static_assert(std::size(kFormats) == TEXDEC_FORMAT_COUNT - 1, "one table row per texdec_format");

// THE family table (formats.h), indexed by texdec_family.
constexpr bool kRounds = true, kAstcLuts = true, kTables = true, kSrgbDecode = true, kTiles = true;
#define FAMILY(fam, rounding, astc_luts, tables, srgb, tiles, native_bytes)                                         \
    FamilyTraits {                                                                                                  \
        TEXDEC_FAMILY_##fam, rounding, astc_luts, tables, srgb, tiles,                                              \
            tiles ? TEXDEC_ASTC_GROUP_SIZE : TEXDEC_WORKGROUP_X, tiles ? TEXDEC_ASTC_SHARED_BYTES : 0, native_bytes \
    }
constexpr FamilyTraits kFamilies[] = {
    //     family rounding astc luts  BPTC/ETC sRGB in decode tiles   NATIVE R/RG bytes
    FAMILY(BC1_3, kRounds, false, false, false, false, 0),
    FAMILY(BC4_5, kRounds, false, false, false, false, 1),
    FAMILY(BC6H, false, false, kTables, false, false, 0),
    FAMILY(BC7, false, false, kTables, false, false, 0),
    FAMILY(ETC2, false, false, kTables, false, false, 0),
    FAMILY(EAC, false, false, kTables, false, false, 2),
    FAMILY(ASTC, false, kAstcLuts, false, kSrgbDecode, kTiles, 0),
};
#undef FAMILY

constexpr bool families_in_enum_order() {
    for (size_t i = 0; i < std::size(kFamilies); ++i)
        if (kFamilies[i].family != texdec_family(i)) return false;
    for (const FormatEntry& f : kFormats)
        if (uint32_t(f.family) >= std::size(kFamilies)) return false;
    return true;
}
static_assert(families_in_enum_order(),
              "kFamilies rows must follow the texdec_family enum and cover every format's family");

constexpr bool table_is_in_enum_order() {
    for (size_t i = 0; i < std::size(kFormats); ++i)
        if (kFormats[i].format != texdec_format(i + 1)) return false;
    return true;
}
static_assert(table_is_in_enum_order(), "kFormats rows must follow the texdec_format enum");

// astc.comp sizes its shared arrays for the largest tile (interface.h): every footprint must fit.
constexpr bool astc_tiles_fit_shared_memory() {
    for (const FormatEntry& f : kFormats) {
        if (!kFamilies[f.family].tiles) continue;
        const uint32_t blocks = TEXDEC_ASTC_TILE_BLOCKS_X(uint32_t(f.block_width)) *
                                TEXDEC_ASTC_TILE_BLOCKS_Y(uint32_t(f.block_height), uint32_t(f.block_depth));
        const uint32_t weights = (blocks | 1) * TEXDEC_ASTC_MAX_WEIGHTS(uint32_t(f.block_width) * f.block_height * f.block_depth);
        if (blocks > TEXDEC_ASTC_TILE_MAX_BLOCKS || weights > TEXDEC_ASTC_TILE_MAX_WEIGHTS) return false;
    }
    return true;
}
static_assert(astc_tiles_fit_shared_memory(), "an ASTC tile exceeds astc.comp's shared arrays");

constexpr uint32_t kTexelSigned = TEXDEC_TEXEL_FORMAT_SIGNED;
constexpr uint32_t kTexelHalf = TEXDEC_TEXEL_FORMAT_HALF;
constexpr uint32_t kTexelSrgb = TEXDEC_TEXEL_FORMAT_SRGB;
constexpr uint32_t kTexelBgra = TEXDEC_TEXEL_FORMAT_BGRA;

// THE texel-format table (formats.h). The image formats' storage views, and why some formats are
// not written, are explained in image_target.cpp. In short: 8-bit RGBA layouts (sRGB, A8B8G8R8,
// B8G8R8A8) are written through R8G8B8A8_UNORM views (B8G8R8A8 with R and B swapped by the
// shader); the others through a view of their own format.
#define TEXEL(fmt, ch, bytes, flags, linear, srgb, store, view)                                     \
    TexelFormat {                                                                                   \
        VK_FORMAT_##fmt, "VK_FORMAT_" #fmt, ch, bytes, flags, VK_FORMAT_##linear, VK_FORMAT_##srgb, \
            TEXDEC_STORE_##store, VK_FORMAT_##view                                                  \
    }
constexpr TexelFormat kTexelFormats[] = {
    //    format                 ch bytes flags                    linear twin     sRGB twin              store    storage view
    TEXEL(R8G8B8A8_UNORM, 4, 1, 0, R8G8B8A8_UNORM, R8G8B8A8_SRGB, RGBA8, R8G8B8A8_UNORM),
    TEXEL(R8G8B8A8_SRGB, 4, 1, kTexelSrgb, R8G8B8A8_UNORM, R8G8B8A8_SRGB, RGBA8, R8G8B8A8_UNORM),
    TEXEL(A8B8G8R8_UNORM_PACK32, 4, 1, 0, A8B8G8R8_UNORM_PACK32, A8B8G8R8_SRGB_PACK32, RGBA8, R8G8B8A8_UNORM),
    TEXEL(A8B8G8R8_SRGB_PACK32, 4, 1, kTexelSrgb, A8B8G8R8_UNORM_PACK32, A8B8G8R8_SRGB_PACK32, RGBA8, R8G8B8A8_UNORM),
    TEXEL(B8G8R8A8_UNORM, 4, 1, kTexelBgra, B8G8R8A8_UNORM, B8G8R8A8_SRGB, RGBA8, R8G8B8A8_UNORM),
    TEXEL(B8G8R8A8_SRGB, 4, 1, kTexelBgra | kTexelSrgb, B8G8R8A8_UNORM, B8G8R8A8_SRGB, RGBA8, R8G8B8A8_UNORM),
    TEXEL(R16G16B16A16_SFLOAT, 4, 2, kTexelHalf, R16G16B16A16_SFLOAT, UNDEFINED, RGBA16F, R16G16B16A16_SFLOAT),
    TEXEL(R8_UNORM, 1, 1, 0, R8_UNORM, UNDEFINED, R8, R8_UNORM),
    TEXEL(R8_SNORM, 1, 1, kTexelSigned, R8_SNORM, UNDEFINED, R8, R8_SNORM),
    TEXEL(R8G8_UNORM, 2, 1, 0, R8G8_UNORM, UNDEFINED, RG8, R8G8_UNORM),
    TEXEL(R8G8_SNORM, 2, 1, kTexelSigned, R8G8_SNORM, UNDEFINED, RG8, R8G8_SNORM),
    TEXEL(R16_UNORM, 1, 2, 0, R16_UNORM, UNDEFINED, R16, R16_UNORM),
    TEXEL(R16_SNORM, 1, 2, kTexelSigned, R16_SNORM, UNDEFINED, R16, R16_SNORM),
    TEXEL(R16G16_UNORM, 2, 2, 0, R16G16_UNORM, UNDEFINED, RG16, R16G16_UNORM),
    TEXEL(R16G16_SNORM, 2, 2, kTexelSigned, R16G16_SNORM, UNDEFINED, RG16, R16G16_SNORM),
};
#undef TEXEL

constexpr const TexelFormat* texel_row(VkFormat format) {
    for (const TexelFormat& t : kTexelFormats)
        if (t.format == format) return &t;
    return nullptr;
}

// Twins point at each other, an sRGB row is its own sRGB twin, and a view format is a row of its
// own that stores alike and is never sRGB (storage images cannot be).
constexpr bool texel_rows_agree() {
    for (const TexelFormat& t : kTexelFormats) {
        const TexelFormat* linear = texel_row(t.linear_format);
        const TexelFormat* view = texel_row(t.view_format);
        if (!linear || (linear->flags & kTexelSrgb) || linear->srgb_format != t.srgb_format) return false;
        if (bool(t.flags & kTexelSrgb) != (t.srgb_format == t.format)) return false;
        if (t.srgb_format && !texel_row(t.srgb_format)) return false;
        if (!view || (view->flags & (kTexelSrgb | kTexelBgra)) || view->store_kind != t.store_kind ||
            view->view_format != view->format)
            return false;
    }
    return true;
}
static_assert(texel_rows_agree(), "the texel-format table's twins or views disagree");

// The R/RG UNORM or SNORM texel format of `channels` channels of `bytes` bytes (a row exists for
// each family's native_channel_bytes: static_assert below).
constexpr VkFormat narrow_texel_format(uint32_t channels, uint32_t bytes, bool is_signed) {
    for (const TexelFormat& t : kTexelFormats)
        if (t.channels == channels && t.channel_bytes == bytes && bool(t.flags & kTexelSigned) == is_signed &&
            !(t.flags & kTexelHalf))
            return t.format;
    return VK_FORMAT_UNDEFINED;
}
constexpr bool native_formats_exist() {
    for (const FamilyTraits& f : kFamilies)
        for (uint32_t ch : {1u, 2u})
            for (bool sign : {false, true})
                if (f.native_channel_bytes && !narrow_texel_format(ch, f.native_channel_bytes, sign)) return false;
    return true;
}
static_assert(native_formats_exist(), "a family's NATIVE R/RG format is missing from the texel-format table");

// THE output table: texdec_output_name's name, which messages use too.
struct OutputRow {
    texdec_output output;
    const char* name;  // "rgba8" (texdec_output_name, the CLI's --output, messages)
};
constexpr OutputRow kOutputs[] = {
    {TEXDEC_OUTPUT_RGBA8, "rgba8"}, {TEXDEC_OUTPUT_RGBA16F, "rgba16f"}, {TEXDEC_OUTPUT_NATIVE, "native"}};

const OutputRow* find_output(uint32_t output) {
    for (const OutputRow& row : kOutputs)
        if (uint32_t(row.output) == output) return &row;
    return nullptr;
}

// The compressed formats are named by kFormats, the written ones by kTexelFormats; these are
// the other VkFormats a message may name.
struct NamedVkFormat {
    VkFormat format;
    const char* name;
};
#define NAMED(f) NamedVkFormat{f, #f}
constexpr NamedVkFormat kUncompressedNames[] = {
    NAMED(VK_FORMAT_UNDEFINED),
    // Formats a caller may try that texdec refuses, named in the refusal.
    NAMED(VK_FORMAT_R8_UINT),
    NAMED(VK_FORMAT_R8_SRGB),
    NAMED(VK_FORMAT_R8G8_SRGB),
    NAMED(VK_FORMAT_R8G8B8A8_SNORM),
    NAMED(VK_FORMAT_R8G8B8A8_UINT),
    NAMED(VK_FORMAT_R8G8B8A8_SINT),
    NAMED(VK_FORMAT_B8G8R8A8_SNORM),
    NAMED(VK_FORMAT_A8B8G8R8_SNORM_PACK32),
    NAMED(VK_FORMAT_A8B8G8R8_UINT_PACK32),
    NAMED(VK_FORMAT_A2B10G10R10_UNORM_PACK32),
    NAMED(VK_FORMAT_B10G11R11_UFLOAT_PACK32),
    NAMED(VK_FORMAT_R16_UINT),
    NAMED(VK_FORMAT_R16_SFLOAT),
    NAMED(VK_FORMAT_R16G16_SFLOAT),
    NAMED(VK_FORMAT_R16G16B16A16_UNORM),
    NAMED(VK_FORMAT_R16G16B16A16_SNORM),
    NAMED(VK_FORMAT_R16G16B16A16_UINT),
    NAMED(VK_FORMAT_R32_UINT),
    NAMED(VK_FORMAT_R32_SFLOAT),
    NAMED(VK_FORMAT_R32G32_SFLOAT),
    NAMED(VK_FORMAT_R32G32B32A32_UINT),
    NAMED(VK_FORMAT_R32G32B32A32_SFLOAT),
};
#undef NAMED

}  // namespace

const FormatEntry* find_format(uint32_t format) {
    if (format == 0 || format > std::size(kFormats)) return nullptr;
    return &kFormats[format - 1];
}

const FamilyTraits& family_traits(texdec_family family) { return kFamilies[family]; }

uint32_t TexelFormat::store_swizzle() const {
    return (flags & kTexelBgra) ? TEXDEC_STORE_SWIZZLE_BGRA : TEXDEC_STORE_SWIZZLE_NONE;
}

const TexelFormat* find_texel_format(VkFormat format) { return texel_row(format); }

TexelFormatRows texel_formats() { return {std::begin(kTexelFormats), std::end(kTexelFormats)}; }

VkFormat storage_format(VkFormat format) {
    const TexelFormat* t = find_texel_format(format);
    return t ? t->view_format : format;
}

OutputLabel output_label(uint32_t output) {
    OutputLabel out{};
    if (const OutputRow* row = find_output(output)) std::snprintf(out.text, sizeof out.text, "%s", row->name);
    else std::snprintf(out.text, sizeof out.text, "%u (not a texdec_output)", output);
    return out;
}

void refused_output_message(char* buf, size_t size, uint32_t output, const char* format_name) {
    // resolve_output refuses rgba8 of signed and HDR formats, and values outside the enum.
    std::snprintf(
        buf, size, "output %s is not offered for %s%s", output_label(output).text, format_name,
        output == TEXDEC_OUTPUT_RGBA8 ? " (8 bits cannot hold signed or float data: use rgba16f or native)" : "");
}

const char* store_name(uint32_t store_kind) {
    // Indexed by TEXDEC_STORE_* (interface.h).
    constexpr const char* kStoreNames[] = {"rgba8", "rgba16f", "r8", "rg8", "r16", "rg16"};
    static_assert(TEXDEC_STORE_RGBA16F == 1 && TEXDEC_STORE_RG16 == std::size(kStoreNames) - 1,
                  "kStoreNames follows TEXDEC_STORE_*");
    return store_kind < std::size(kStoreNames) ? kStoreNames[store_kind] : "?";
}

const char* destination_name(uint32_t kind) {
    return kind == TEXDEC_DESTINATION_IMAGE_3D ? "3D image" : kind == TEXDEC_DESTINATION_IMAGE ? "image" : "buffer";
}

VkFormatName vk_format_name(VkFormat format) {
    VkFormatName out{};
    auto named = [&](const char* name) {
        std::snprintf(out.text, sizeof out.text, "%s", name);
        return out;
    };
    if (const TexelFormat* t = find_texel_format(format)) return named(t->name);
    for (const NamedVkFormat& n : kUncompressedNames)
        if (n.format == format) return named(n.name);
    for (const FormatEntry& entry : kFormats)
        if (entry.vk_format == format) return named(entry.vk_name);
    std::snprintf(out.text, sizeof out.text, "VkFormat %d", int(format));
    return out;
}

texdec_status resolve_output(uint32_t format, uint32_t output, bool require_implemented,
                             const FormatEntry** entry_out, OutputInfo* info) {
    const FormatEntry* entry = find_format(format);
    if (!entry) return TEXDEC_ERROR_UNKNOWN_FORMAT;
    if (entry_out) *entry_out = entry;
    if (require_implemented && !(entry->flags & kDone)) return TEXDEC_ERROR_UNSUPPORTED_FORMAT;
    const bool is_signed = entry->flags & kSigned;
    const bool is_srgb = entry->flags & kSrgb;
    const bool is_hdr = entry->flags & kHdr;
    const VkFormat rgba8 = is_srgb ? VK_FORMAT_R8G8B8A8_SRGB : VK_FORMAT_R8G8B8A8_UNORM;
    const uint32_t native_bytes = kFamilies[entry->family].native_channel_bytes;
    VkFormat vk = VK_FORMAT_UNDEFINED;
    switch (output) {
    case TEXDEC_OUTPUT_RGBA8:
        // 8 bits cannot hold signed or float results.
        if (is_signed || is_hdr) return TEXDEC_ERROR_UNSUPPORTED_OUTPUT;
        vk = rgba8;
        break;
    case TEXDEC_OUTPUT_RGBA16F: vk = VK_FORMAT_R16G16B16A16_SFLOAT; break;
    case TEXDEC_OUTPUT_NATIVE:
        vk = is_hdr                                 ? VK_FORMAT_R16G16B16A16_SFLOAT
             : native_bytes && entry->channels <= 2 ? narrow_texel_format(entry->channels, native_bytes, is_signed)
                                                    : rgba8;
        break;
    default:
        return TEXDEC_ERROR_UNSUPPORTED_OUTPUT;
    }
    const TexelFormat& texel = *find_texel_format(vk);  // every output format is a row
    if (info) *info = OutputInfo{texel.store_kind, texel.texel_bytes(), vk};
    return TEXDEC_SUCCESS;
}


namespace {

// One field of resolve_output's answer for the C API: its status, INVALID_ARGUMENT for a NULL out.
template <class T>
texdec_status output_query(texdec_format format, texdec_output output, T OutputInfo::*field, T* out) {
    OutputInfo info;
    const texdec_status status = resolve_output(format, output, false, nullptr, &info);
    if (status != TEXDEC_SUCCESS) return status;
    if (!out) return TEXDEC_ERROR_INVALID_ARGUMENT;
    *out = info.*field;
    return TEXDEC_SUCCESS;
}

}  // namespace

}  // namespace texdec

using namespace texdec;

extern "C" {

TEXDEC_API texdec_status texdec_format_get_info(texdec_format format, texdec_format_info* info) {
    const FormatEntry* entry = find_format(format);
    if (!entry) return TEXDEC_ERROR_UNKNOWN_FORMAT;
    if (!info) return TEXDEC_ERROR_INVALID_ARGUMENT;
    *info = texdec_format_info{entry->format, entry->name, entry->family, entry->block_width,
                               entry->block_height, entry->block_depth, entry->bytes_per_block,
                               entry->channels, entry->flags, entry->vk_format};
    return TEXDEC_SUCCESS;
}

TEXDEC_API texdec_format texdec_format_from_name(const char* name) {
    if (!name) return TEXDEC_FORMAT_UNDEFINED;
    for (const FormatEntry& entry : kFormats)
        if (strcasecmp(entry.name, name) == 0) return entry.format;
    return TEXDEC_FORMAT_UNDEFINED;
}

TEXDEC_API texdec_format texdec_format_from_vk(VkFormat vk_format) {
    for (const FormatEntry& entry : kFormats)
        if (entry.vk_format == vk_format) return entry.format;
    return TEXDEC_FORMAT_UNDEFINED;
}

TEXDEC_API texdec_status texdec_output_vk_format(texdec_format format, texdec_output output, VkFormat* vk_format) {
    return output_query(format, output, &OutputInfo::vk_format, vk_format);
}

TEXDEC_API texdec_status texdec_output_texel_size(texdec_format format, texdec_output output, uint32_t* bytes) {
    return output_query(format, output, &OutputInfo::texel_bytes, bytes);
}

TEXDEC_API const char* texdec_output_name(texdec_output output) {
    const OutputRow* row = find_output(enum_bits(output));
    return row ? row->name : nullptr;
}

TEXDEC_API const char* texdec_bc_rounding_name(texdec_bc_rounding rounding) {
    switch (enum_bits(rounding)) {
    case TEXDEC_BC_ROUNDING_EXACT: return "exact";
    case TEXDEC_BC_ROUNDING_IDEAL: return "ideal";
    case TEXDEC_BC_ROUNDING_NVIDIA: return "nvidia";
    default: return nullptr;
    }
}

TEXDEC_API texdec_status texdec_texel_format_get_info(VkFormat format, texdec_texel_format_info* info) {
    const TexelFormat* t = find_texel_format(format);
    if (!t) return TEXDEC_ERROR_UNKNOWN_FORMAT;
    if (!info) return TEXDEC_ERROR_INVALID_ARGUMENT;
    *info = texdec_texel_format_info{t->channels, t->channel_bytes, t->texel_bytes(),
                                     t->flags,    t->linear_format, t->srgb_format};
    return TEXDEC_SUCCESS;
}

TEXDEC_API texdec_status texdec_encoded_size(texdec_format format, uint32_t width, uint32_t height, uint32_t depth,
                                             uint64_t* bytes) {
    const FormatEntry* entry = find_format(format);
    if (!entry) return TEXDEC_ERROR_UNKNOWN_FORMAT;
    if (!bytes) return TEXDEC_ERROR_INVALID_ARGUMENT;
    if (width == 0 || height == 0 || depth == 0) return TEXDEC_ERROR_INVALID_EXTENT;
    const uint64_t bx = (uint64_t(width) + entry->block_width - 1) / entry->block_width;
    const uint64_t by = (uint64_t(height) + entry->block_height - 1) / entry->block_height;
    const uint64_t bz = (uint64_t(depth) + entry->block_depth - 1) / entry->block_depth;
    const portable::U128 total = portable::U128(bx) * by * bz * entry->bytes_per_block;
    if (total > UINT64_MAX) return TEXDEC_ERROR_SIZE_OVERFLOW;
    *bytes = uint64_t(total);
    return TEXDEC_SUCCESS;
}

TEXDEC_API texdec_status texdec_decoded_size(texdec_format format, texdec_output output, uint32_t width,
                                             uint32_t height, uint32_t depth, uint64_t* bytes) {
    OutputInfo info;
    texdec_status status = resolve_output(format, output, false, nullptr, &info);
    if (status != TEXDEC_SUCCESS) return status;
    if (!bytes) return TEXDEC_ERROR_INVALID_ARGUMENT;
    if (width == 0 || height == 0 || depth == 0) return TEXDEC_ERROR_INVALID_EXTENT;
    const portable::U128 total = portable::U128(width) * height * depth * info.texel_bytes;
    if (total > UINT64_MAX) return TEXDEC_ERROR_SIZE_OVERFLOW;
    *bytes = uint64_t(total);
    return TEXDEC_SUCCESS;
}

}  // extern "C"

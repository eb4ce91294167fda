// KTX 1.1 parser (layout and choices in ktx.h). glInternalFormat values are the GL enums of
// the registry's glext.h / gl2ext.h: OES_compressed_ETC1_RGB8_texture, the ETC2/EAC formats of
// OpenGL ES 3.0 / ARB_ES3_compatibility, EXT_texture_compression_s3tc, EXT_texture_sRGB,
// ARB_texture_compression_rgtc, ARB_texture_compression_bptc, KHR_texture_compression_astc_ldr
// and OES_texture_compression_astc (3D).
#include "ktx.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "format_names.h"
#include "format_text.h"
#include "portable.h"

namespace ktx {
namespace {

using texdec_io::format_text;

constexpr uint8_t kIdentifier[kIdentifierSize] = {0xAB, 0x4B, 0x54, 0x58, 0x20, 0x31,
                                                  0x31, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A};
constexpr uint32_t kEndianness = 0x04030201;
constexpr uint32_t kMaxArrayElements = 1u << 20;

struct FormatEntry {
    uint32_t gl;
    const char* name;
    texdec_format format;
};

// GL's ASTC enums do not say LDR or HDR (the profile is the context's): RGBA decodes as
// astc-WxH-unorm, SRGB8_ALPHA8 as astc-WxH-srgb.
#define ASTC2D(w, h, i)                                                                                       \
    {0x93B0 + i, "GL_COMPRESSED_RGBA_ASTC_" #w "x" #h "_KHR", texdec_format(TEXDEC_FORMAT_ASTC_4x4_UNORM + 3 * i)}, \
    {0x93D0 + i, "GL_COMPRESSED_SRGB8_ALPHA8_ASTC_" #w "x" #h "_KHR",                                            \
     texdec_format(TEXDEC_FORMAT_ASTC_4x4_SRGB + 3 * i)}
#define ASTC3D(w, h, d, i)                                                                  \
    {0x93C0 + i, "GL_COMPRESSED_RGBA_ASTC_" #w "x" #h "x" #d "_OES",                          \
     texdec_format(TEXDEC_FORMAT_ASTC_3x3x3_UNORM + 3 * i)},                                  \
    {0x93E0 + i, "GL_COMPRESSED_SRGB8_ALPHA8_ASTC_" #w "x" #h "x" #d "_OES",                  \
     texdec_format(TEXDEC_FORMAT_ASTC_3x3x3_SRGB + 3 * i)}

constexpr FormatEntry kFormats[] = {
    // ETC1 is a subset of ETC2 RGB8: an ETC2 decoder decodes every ETC1 block as ETC1 does.
    {0x8D64, "GL_ETC1_RGB8_OES", TEXDEC_FORMAT_ETC2_R8G8B8_UNORM},
    {0x9270, "GL_COMPRESSED_R11_EAC", TEXDEC_FORMAT_EAC_R11_UNORM},
    {0x9271, "GL_COMPRESSED_SIGNED_R11_EAC", TEXDEC_FORMAT_EAC_R11_SNORM},
    {0x9272, "GL_COMPRESSED_RG11_EAC", TEXDEC_FORMAT_EAC_R11G11_UNORM},
    {0x9273, "GL_COMPRESSED_SIGNED_RG11_EAC", TEXDEC_FORMAT_EAC_R11G11_SNORM},
    {0x9274, "GL_COMPRESSED_RGB8_ETC2", TEXDEC_FORMAT_ETC2_R8G8B8_UNORM},
    {0x9275, "GL_COMPRESSED_SRGB8_ETC2", TEXDEC_FORMAT_ETC2_R8G8B8_SRGB},
    {0x9276, "GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2", TEXDEC_FORMAT_ETC2_R8G8B8A1_UNORM},
    {0x9277, "GL_COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2", TEXDEC_FORMAT_ETC2_R8G8B8A1_SRGB},
    {0x9278, "GL_COMPRESSED_RGBA8_ETC2_EAC", TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM},
    {0x9279, "GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC", TEXDEC_FORMAT_ETC2_R8G8B8A8_SRGB},
    {0x83F0, "GL_COMPRESSED_RGB_S3TC_DXT1_EXT", TEXDEC_FORMAT_BC1_RGB_UNORM},
    {0x83F1, "GL_COMPRESSED_RGBA_S3TC_DXT1_EXT", TEXDEC_FORMAT_BC1_RGBA_UNORM},
    {0x83F2, "GL_COMPRESSED_RGBA_S3TC_DXT3_EXT", TEXDEC_FORMAT_BC2_UNORM},
    {0x83F3, "GL_COMPRESSED_RGBA_S3TC_DXT5_EXT", TEXDEC_FORMAT_BC3_UNORM},
    {0x8C4C, "GL_COMPRESSED_SRGB_S3TC_DXT1_EXT", TEXDEC_FORMAT_BC1_RGB_SRGB},
    {0x8C4D, "GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT1_EXT", TEXDEC_FORMAT_BC1_RGBA_SRGB},
    {0x8C4E, "GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT3_EXT", TEXDEC_FORMAT_BC2_SRGB},
    {0x8C4F, "GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT5_EXT", TEXDEC_FORMAT_BC3_SRGB},
    {0x8DBB, "GL_COMPRESSED_RED_RGTC1", TEXDEC_FORMAT_BC4_UNORM},
    {0x8DBC, "GL_COMPRESSED_SIGNED_RED_RGTC1", TEXDEC_FORMAT_BC4_SNORM},
    {0x8DBD, "GL_COMPRESSED_RG_RGTC2", TEXDEC_FORMAT_BC5_UNORM},
    {0x8DBE, "GL_COMPRESSED_SIGNED_RG_RGTC2", TEXDEC_FORMAT_BC5_SNORM},
    {0x8E8C, "GL_COMPRESSED_RGBA_BPTC_UNORM", TEXDEC_FORMAT_BC7_UNORM},
    {0x8E8D, "GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM", TEXDEC_FORMAT_BC7_SRGB},
    {0x8E8E, "GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT", TEXDEC_FORMAT_BC6H_SFLOAT},
    {0x8E8F, "GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT", TEXDEC_FORMAT_BC6H_UFLOAT},
    ASTC2D(4, 4, 0), ASTC2D(5, 4, 1), ASTC2D(5, 5, 2), ASTC2D(6, 5, 3), ASTC2D(6, 6, 4), ASTC2D(8, 5, 5),
    ASTC2D(8, 6, 6), ASTC2D(8, 8, 7), ASTC2D(10, 5, 8), ASTC2D(10, 6, 9), ASTC2D(10, 8, 10), ASTC2D(10, 10, 11),
    ASTC2D(12, 10, 12), ASTC2D(12, 12, 13),
    ASTC3D(3, 3, 3, 0), ASTC3D(4, 3, 3, 1), ASTC3D(4, 4, 3, 2), ASTC3D(4, 4, 4, 3), ASTC3D(5, 4, 4, 4),
    ASTC3D(5, 5, 4, 5), ASTC3D(5, 5, 5, 6), ASTC3D(6, 5, 5, 7), ASTC3D(6, 6, 5, 8), ASTC3D(6, 6, 6, 9),
};
#undef ASTC2D
#undef ASTC3D

const FormatEntry* find_format(uint32_t gl) {
    for (const FormatEntry& e : kFormats)
        if (e.gl == gl) return &e;
    return nullptr;
}

// Reads a UInt32 in the file's byte order.
uint32_t read_u32(std::span<const uint8_t> bytes, size_t offset, bool big_endian) {
    const uint32_t le = uint32_t(bytes[offset]) | uint32_t(bytes[offset + 1]) << 8 |
                        uint32_t(bytes[offset + 2]) << 16 | uint32_t(bytes[offset + 3]) << 24;
    return big_endian ? texdec::portable::byte_swap32(le) : le;
}

uint64_t round_up4(uint64_t v) { return (v + 3) & ~uint64_t(3); }
uint64_t div_round_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// The header fields, in header order after the identifier.
enum Field {
    kEndiannessField, kGlType, kGlTypeSize, kGlFormat, kGlInternalFormat, kGlBaseInternalFormat, kPixelWidth,
    kPixelHeight, kPixelDepth, kArrayElements, kFaces, kMipLevels, kKeyValueBytes, kFieldCount
};

std::optional<Error> read_layout(const uint32_t (&f)[kFieldCount], Texture& tex) {
    tex.width = f[kPixelWidth];
    tex.array_elements = f[kArrayElements];
    tex.faces = f[kFaces];
    if (tex.width == 0) return Error{ErrorCode::InvalidExtent, format_text("pixelWidth is 0")};
    if (f[kPixelHeight] == 0)
        return Error{ErrorCode::UnsupportedLayout, format_text("pixelHeight 0 is a 1D texture, which cannot hold "
                                                               "block-compressed data")};
    tex.height = f[kPixelHeight];
    tex.is_volume = f[kPixelDepth] > 0;
    tex.depth = tex.is_volume ? f[kPixelDepth] : 1;
    if (tex.faces != 1 && tex.faces != 6)
        return Error{ErrorCode::UnsupportedLayout,
                     format_text("numberOfFaces is %u; KTX allows 1 or 6 (a cube map)", tex.faces)};
    tex.is_cube = tex.faces == 6;
    if (tex.is_volume && tex.array_elements > 0)
        return Error{ErrorCode::UnsupportedLayout,
                     format_text("3D texture arrays (pixelDepth %u, %u array elements) do "
                                 "not exist in OpenGL",
                                 tex.depth, tex.array_elements)};
    if (auto error = container::check_cube_extent(tex.width, tex.height, tex.depth, tex.is_cube, tex.is_volume))
        return error;
    if (tex.array_elements > kMaxArrayElements)
        return Error{ErrorCode::InvalidExtent, format_text("numberOfArrayElements %u is absurd", tex.array_elements)};
    tex.layers = std::max(1u, tex.array_elements) * tex.faces;
    tex.mip_levels = std::max(1u, f[kMipLevels]);
    return container::check_mip_count("numberOfMipmapLevels", tex.mip_levels, tex.width, tex.height, tex.depth);
}

std::optional<Error> build_surfaces(std::span<const uint8_t> file, size_t offset, uint64_t max_table_bytes, bool table,
                                    Texture& tex) {
    texdec_format_info info{};
    texdec_format_get_info(tex.format, &info);
    // Only a non-array cube map has per-face imageSize and cubePadding.
    const bool per_face = tex.is_cube && tex.array_elements == 0;
    // Not more than the file can hold (a surface is at least one 8-byte block): the header alone
    // may claim 6 x 2^20 layers x 21 levels, gigabytes of table (seen in review; fuzz_ktx reports it).
    if (table)
        tex.surfaces.reserve(std::min(
            {size_t(tex.layers) * tex.mip_levels, file.size() / 8, size_t(max_table_bytes / sizeof(Surface))}));
    tex.levels.reserve(tex.mip_levels);
    for (uint32_t level = 0; level < tex.mip_levels; ++level) {
        const uint32_t w = std::max(1u, tex.width >> level), h = std::max(1u, tex.height >> level),
                       d = std::max(1u, tex.depth >> level);
        // < 2^61 (each side <= 2^20 texels, at most 16 bytes per block)
        const uint64_t face_bytes = div_round_up(w, info.block_width) * div_round_up(h, info.block_height) *
                                    div_round_up(d, info.block_depth) * info.bytes_per_block;
        if (file.size() - offset < 4)
            return Error{ErrorCode::Truncated,
                         format_text("file ends before the imageSize of mip level %u (offset %zu)", level, offset)};
        const uint32_t image_size = read_u32(file, offset, tex.big_endian);
        offset += 4;
        const uint64_t available = file.size() - offset;
        const uint64_t face_stride = per_face ? round_up4(face_bytes) : face_bytes;
        // Compared by division so that layers * face_stride cannot overflow.
        if (tex.layers > available / face_stride)
            return Error{ErrorCode::Truncated,
                         format_text("data is truncated: mip level %u needs %u x %llu bytes of %s, the file holds %llu "
                                     "more bytes",
                                     level, tex.layers, (unsigned long long)face_bytes, info.name,
                                     (unsigned long long)available)};
        const uint64_t level_bytes = face_stride * tex.layers;
        const uint64_t expected = per_face ? face_bytes : level_bytes;
        if (image_size != expected)
            return Error{ErrorCode::BadImageSize,
                         format_text("imageSize of mip level %u is %u, but %ux%ux%u of %s%s needs "
                                     "%llu bytes",
                                     level, image_size, w, h, d, info.name, per_face ? " (one cube face)" : "",
                                     (unsigned long long)expected)};
        tex.levels.push_back(Level{w, h, d, offset, face_stride, face_bytes});
        // The level's data is in the file; its entries must fit in the table's limit too.
        if (table) {
            if (auto error = container::check_table_size(
                    tex.surfaces.size() + tex.layers, sizeof(Surface), max_table_bytes,
                    format_text("surfaces up to mip level %u (%u layer(s) x %u mip level(s) in all)", level, tex.layers,
                                tex.mip_levels)))
                return error;
            for (uint32_t layer = 0; layer < tex.layers; ++layer)
                tex.surfaces.push_back(
                    Surface{layer, level, w, h, d, size_t(offset + layer * face_stride), size_t(face_bytes)});
        }
        const uint64_t padded = round_up4(level_bytes);  // mipPadding
        if (padded > available)
            return Error{ErrorCode::Truncated, format_text("file ends inside the mipPadding of mip level %u", level)};
        offset += size_t(padded);
    }
    tex.trailing_bytes = file.size() - offset;
    return std::nullopt;
}

}  // namespace

bool has_magic(std::span<const uint8_t> file) {
    return file.size() >= kIdentifierSize && std::equal(kIdentifier, kIdentifier + kIdentifierSize, file.begin());
}

texdec_format format_from_gl(uint32_t gl_internal_format) {
    const FormatEntry* e = find_format(gl_internal_format);
    return e ? e->format : TEXDEC_FORMAT_UNDEFINED;
}

uint32_t gl_from_format(texdec_format format) {
    // GL's ASTC enums say linear or sRGB, not LDR or HDR: sfloat has the linear (unorm) enum.
    texdec_format_info info{};
    if (texdec_format_get_info(format, &info) != TEXDEC_SUCCESS) return 0;
    if (info.family == TEXDEC_FAMILY_ASTC && (info.flags & TEXDEC_FORMAT_FLAG_HDR))
        format = texdec_format(format - 2);  // three formats per footprint: UNORM, SRGB, SFLOAT
    for (const FormatEntry& e : kFormats)
        if (e.format == format && e.gl != 0x8D64) return e.gl;  // GL_ETC1_RGB8_OES reads one way only
    return 0;
}

const char* gl_internal_format_name(uint32_t gl_internal_format) {
    const FormatEntry* e = find_format(gl_internal_format);
    return e ? e->name : nullptr;
}

namespace {
ParseResult parse_file(std::span<const uint8_t> file, uint64_t max_table_bytes, bool table);
}  // namespace

ParseResult parse(std::span<const uint8_t> file) { return parse_file(file, UINT64_MAX, true); }
ParseResult parse_limited(std::span<const uint8_t> file, uint64_t max_table_bytes) {
    return parse_file(file, max_table_bytes, true);
}
ParseResult parse_levels(std::span<const uint8_t> file) { return parse_file(file, UINT64_MAX, false); }

namespace {
ParseResult parse_file(std::span<const uint8_t> file, uint64_t max_table_bytes, bool table) {
    if (file.size() < kHeaderSize)
        return Error{ErrorCode::TooSmall,
                     format_text("file is %zu bytes, shorter than the 64-byte KTX header", file.size())};
    if (!has_magic(file))
        return Error{ErrorCode::BadMagic, format_text("not a KTX 1.1 file (no \"\\xABKTX 11\\xBB\" identifier)")};
    Texture tex{};
    const uint32_t endianness = read_u32(file, kIdentifierSize, false);
    if (endianness == kEndianness)
        tex.big_endian = false;
    else if (endianness == texdec::portable::byte_swap32(kEndianness)) tex.big_endian = true;
    else
        return Error{
            ErrorCode::BadEndianness,
            format_text("endianness field is 0x%08X; a KTX file has 0x04030201 (little-endian: bytes 01 02 03 04) "
                        "or its byte swap (big-endian: 04 03 02 01)",
                        endianness)};
    uint32_t f[kFieldCount];
    for (int i = 0; i < kFieldCount; ++i) f[i] = read_u32(file, kIdentifierSize + 4 * size_t(i), tex.big_endian);

    if (f[kGlType] != 0)
        return Error{ErrorCode::NotCompressed,
                     format_text("glType is 0x%X (glFormat 0x%X, glInternalFormat 0x%X): an uncompressed texture, not "
                                 "block-compressed",
                                 f[kGlType], f[kGlFormat], f[kGlInternalFormat])};
    tex.gl_internal_format = f[kGlInternalFormat];
    const FormatEntry* entry = find_format(tex.gl_internal_format);
    const format_names::Found other =
        format_names::find(format_names::Scheme::GlInternalFormat, tex.gl_internal_format);
    if (!entry && other.found())
        return Error{ErrorCode::UnknownInternalFormat,
                     format_text("glInternalFormat 0x%04X (%s) is %s", tex.gl_internal_format, other.name.c_str(),
                                 format_names::why_not(other.kind))};
    if (!entry)
        return Error{
            ErrorCode::UnknownInternalFormat,
            format_text("unknown glInternalFormat 0x%04X (known: ETC1, ETC2/EAC, S3TC/DXT, RGTC, BPTC and ASTC "
                        "compressed formats)",
                        tex.gl_internal_format)};
    tex.format = entry->format;
    char name[96];
    std::snprintf(name, sizeof name, "glInternalFormat 0x%04X (%s)", entry->gl, entry->name);
    tex.container_format = name;

    if (auto error = read_layout(f, tex)) return *error;
    tex.key_value_bytes = f[kKeyValueBytes];
    if (tex.key_value_bytes > file.size() - kHeaderSize)
        return Error{ErrorCode::Truncated,
                     format_text("bytesOfKeyValueData %zu runs past the end of the file (%zu bytes)",
                                 tex.key_value_bytes, file.size())};
    if (auto error = build_surfaces(file, kHeaderSize + tex.key_value_bytes, max_table_bytes, table, tex))
        return *error;
    return tex;
}
}  // namespace

}  // namespace ktx

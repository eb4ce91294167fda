// .pkm parser (layout in pkm.h).
#include "pkm.h"

#include <cstdio>

#include "format_text.h"

namespace pkm {
namespace {

using texdec_io::format_text;

struct FormatEntry {
    uint32_t code;
    const char* name;  // etcpack's name for the code
    texdec_format format;
};

constexpr FormatEntry kFormats[] = {
    {0, "ETC1_RGB_NO_MIPMAPS", TEXDEC_FORMAT_ETC2_R8G8B8_UNORM},
    {1, "ETC2PACKAGE_RGB_NO_MIPMAPS", TEXDEC_FORMAT_ETC2_R8G8B8_UNORM},
    {2, "ETC2PACKAGE_RGBA_NO_MIPMAPS_OLD", TEXDEC_FORMAT_UNDEFINED},
    {3, "ETC2PACKAGE_RGBA_NO_MIPMAPS", TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM},
    {4, "ETC2PACKAGE_RGBA1_NO_MIPMAPS", TEXDEC_FORMAT_ETC2_R8G8B8A1_UNORM},
    {5, "ETC2PACKAGE_R_NO_MIPMAPS", TEXDEC_FORMAT_EAC_R11_UNORM},
    {6, "ETC2PACKAGE_RG_NO_MIPMAPS", TEXDEC_FORMAT_EAC_R11G11_UNORM},
    {7, "ETC2PACKAGE_R_SIGNED_NO_MIPMAPS", TEXDEC_FORMAT_EAC_R11_SNORM},
    {8, "ETC2PACKAGE_RG_SIGNED_NO_MIPMAPS", TEXDEC_FORMAT_EAC_R11G11_SNORM},
    {9, "ETC2PACKAGE_sRGB_NO_MIPMAPS", TEXDEC_FORMAT_ETC2_R8G8B8_SRGB},
    {10, "ETC2PACKAGE_sRGBA_NO_MIPMAPS", TEXDEC_FORMAT_ETC2_R8G8B8A8_SRGB},
    {11, "ETC2PACKAGE_sRGBA1_NO_MIPMAPS", TEXDEC_FORMAT_ETC2_R8G8B8A1_SRGB},
};

uint32_t read_u16_be(std::span<const uint8_t> bytes, size_t offset) {
    return uint32_t(bytes[offset]) << 8 | bytes[offset + 1];
}

uint32_t round_up4(uint32_t v) { return (v + 3) & ~3u; }

}  // namespace

bool has_magic(std::span<const uint8_t> file) {
    return file.size() >= 4 && file[0] == 'P' && file[1] == 'K' && file[2] == 'M' && file[3] == ' ';
}

ParseResult parse(std::span<const uint8_t> file) {
    if (file.size() < kHeaderSize)
        return Error{ErrorCode::TooSmall,
                     format_text("file is %zu bytes, shorter than the 16-byte PKM header", file.size())};
    if (!has_magic(file)) return Error{ErrorCode::BadMagic, format_text("not a PKM file (no \"PKM \" magic)")};
    Texture tex{};
    if (file[4] == '1' && file[5] == '0')
        tex.version = 10;
    else if (file[4] == '2' && file[5] == '0')
        tex.version = 20;
    else
        return Error{ErrorCode::BadVersion,
                     format_text("PKM version bytes 0x%02X 0x%02X are neither \"10\" nor \"20\"", file[4], file[5])};
    tex.format_code = read_u16_be(file, 6);
    tex.padded_width = read_u16_be(file, 8);
    tex.padded_height = read_u16_be(file, 10);
    tex.width = read_u16_be(file, 12);
    tex.height = read_u16_be(file, 14);

    if (tex.version == 10 && tex.format_code != 0)
        return Error{
            ErrorCode::BadHeader,
            format_text("PKM 10 (ETC1) file has format code %u; version 10 knows only 0 (ETC1)", tex.format_code)};
    const FormatEntry* entry = nullptr;
    for (const FormatEntry& e : kFormats)
        if (e.code == tex.format_code) entry = &e;
    if (!entry)
        return Error{ErrorCode::UnknownFormat,
                     format_text("unknown PKM format code %u (known: 0, 1, 3-11)", tex.format_code)};
    if (entry->format == TEXDEC_FORMAT_UNDEFINED)
        return Error{ErrorCode::UnknownFormat,
                     format_text("PKM format code %u (%s, a pre-standard RGBA layout) is not supported; re-encode as "
                                 "code 3 (ETC2 RGBA8)",
                                 tex.format_code, entry->name)};
    tex.format = entry->format;
    char name[96];
    std::snprintf(name, sizeof name, "PKM %u format %u (%s)", tex.version, tex.format_code, entry->name);
    tex.container_format = name;

    if (tex.width == 0 || tex.height == 0)
        return Error{ErrorCode::InvalidExtent,
                     format_text("active extent %ux%u has a zero dimension", tex.width, tex.height)};
    if (tex.padded_width != round_up4(tex.width) || tex.padded_height != round_up4(tex.height))
        return Error{
            ErrorCode::BadHeader,
            format_text("padded extent %ux%u is not the active extent %ux%u rounded up to whole 4x4 blocks (%ux%u)",
                        tex.padded_width, tex.padded_height, tex.width, tex.height, round_up4(tex.width),
                        round_up4(tex.height))};
    texdec_format_info info{};
    texdec_format_get_info(tex.format, &info);
    // At most 16384 x 16384 blocks of 16 bytes: no overflow.
    tex.data_offset = kHeaderSize;
    tex.data_size = size_t(tex.padded_width / 4) * (tex.padded_height / 4) * info.bytes_per_block;
    const size_t available = file.size() - kHeaderSize;
    if (available < tex.data_size)
        return Error{
            ErrorCode::Truncated,
            format_text("data is truncated: %ux%u of %s needs %zu bytes of blocks, the file holds %zu after the "
                        "header",
                        tex.width, tex.height, info.name, tex.data_size, available)};
    tex.trailing_bytes = available - tex.data_size;
    return tex;
}

}  // namespace pkm

// .pkm container parser for astc-gpu-decode (the file Ericsson's etcpack and Android's etc1tool
// write): header -> texdec format, extent, and where the blocks are. Pure (no Vulkan, no I/O);
// never reads outside the span it is given, so it can be fuzzed directly.
//
// Layout: a 16-byte header, every field after the magic and version big-endian, then the blocks
// (x fastest, then y; 8 bytes each, 16 for RGBA8 and RG11):
//   bytes 0..3    magic "PKM "
//   bytes 4..5    version "10" (ETC1 only) or "20" (ETC2/EAC)
//   bytes 6..7    format (etcpack's numbering; "10" files hold 0 = ETC1_RGB_NO_MIPMAPS):
//                   0 ETC1 RGB          -> etc2-r8g8b8-unorm (ETC2 decodes every ETC1 block alike)
//                   1 ETC2 RGB          -> etc2-r8g8b8-unorm     9 sRGB   -> etc2-r8g8b8-srgb
//                   3 ETC2 RGBA (EAC)   -> etc2-r8g8b8a8-unorm  10 sRGBA  -> etc2-r8g8b8a8-srgb
//                   4 ETC2 RGB A1       -> etc2-r8g8b8a1-unorm  11 sRGBA1 -> etc2-r8g8b8a1-srgb
//                   5 R11 / 7 signed R11   -> eac-r11-unorm / eac-r11-snorm
//                   6 RG11 / 8 signed RG11 -> eac-r11g11-unorm / eac-r11g11-snorm
//                   2 (RGBA_NO_MIPMAPS_OLD, a pre-standard RGBA layout) and anything else: refused
//   bytes 8..11   padded width, padded height (the active extent rounded up to whole 4x4 blocks)
//   bytes 12..15  active width, active height (the image's own extent)
// The layout is not published by Khronos; it is the one etcpack's writer and the Android
// etc1tool header use (see the README's CLI section). One image, no mip levels.
// Choices: a padded extent that is not the active one rounded up to a multiple of 4 is a
// BadHeader error (etcpack writes exactly that); a zero active extent is InvalidExtent; bytes
// after the blocks are allowed and counted in trailing_bytes (the CLI warns about them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <variant>

#include <texdec/texdec.h>

#include "container.h"

namespace pkm {

constexpr size_t kHeaderSize = 16;

// parse() refuses a file with one of these container::ErrorCode values: TooSmall (shorter than the
// 16-byte header), BadMagic (bytes 0..3 are not "PKM "), BadVersion (bytes 4..5 are neither "10"
// nor "20"), UnknownFormat (a format code this parser does not map, or 2, the old RGBA layout),
// BadHeader (padded extent inconsistent with the active one; a "10" file with format != 0),
// InvalidExtent (active width or height 0), Truncated.
using container::Error;
using container::ErrorCode;

struct Texture {
    texdec_format format;
    std::string container_format;  // "PKM 20 format 5 (ETC2PACKAGE_R_NO_MIPMAPS)"
    uint32_t version;              // 10 or 20
    uint32_t format_code;          // bytes 6..7
    uint32_t padded_width, padded_height;
    uint32_t width, height;        // the active extent: what is decoded
    size_t data_offset;            // always kHeaderSize
    size_t data_size;              // bytes of blocks the padded extent holds
    size_t trailing_bytes;         // bytes after them (ignored)
};

using ParseResult = std::variant<Texture, Error>;

// Parses a whole .pkm file held in memory. The described blocks lie inside `file`.
ParseResult parse(std::span<const uint8_t> file);

// True if the bytes start with "PKM " (cheap container detection).
bool has_magic(std::span<const uint8_t> file);

using container::error_code_name;

}  // namespace pkm

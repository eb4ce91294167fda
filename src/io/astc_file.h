// .astc container parser for astc-gpu-decode (the file format ARM's astcenc writes): header ->
// footprint, extent, and where the blocks are. Pure (no Vulkan, no I/O); never reads outside the
// span it is given, so it can be fuzzed directly.
//
// Layout: 16-byte header, then the blocks (16 bytes each, x fastest, then y, then z):
//   bytes 0..3    magic 0x5CA1AB13, little-endian (13 AB A1 5C)
//   bytes 4..6    block_x, block_y, block_z (footprint in texels)
//   bytes 7..15   xsize, ysize, zsize: 24-bit little-endian each (extent in texels)
//
// Choices where the format is silent (they follow astcenc 4.2's own reader where it has one):
//   - block_z 0 reads as 1 (a 2D footprint), as astcenc does; a 2D footprint with zsize > 1 is a
//     stack of zsize 2D slices, the blocks of each slice contiguous, slice after slice.
//   - the 2D footprints are the 14 of the ASTC spec, the 3D ones the 10 of
//     VK_EXT_texture_compression_astc_3d (3x3x3 .. 6x6x6); anything else is UnknownFootprint.
//   - a zero xsize, ysize or zsize is an error (astcenc: "File corrupt").
//   - bytes after the last block are allowed and counted in trailing_bytes (astcenc ignores
//     them too); the CLI warns about them.
// A .astc file does not say whether its data is linear LDR, sRGB or HDR: the caller picks the
// profile, and Texture::format() gives the texdec format for it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include <texdec/texdec.h>

#include "container.h"

namespace astc_file {

constexpr size_t kHeaderSize = 16;
constexpr size_t kBlockBytes = 16;

// parse() refuses a file with one of these container::ErrorCode values: TooSmall (shorter than the
// 16-byte header), BadMagic (bytes 0..3 are not 13 AB A1 5C), UnknownFootprint, InvalidExtent
// (xsize, ysize or zsize is 0), SizeOverflow, Truncated.
using container::Error;
using container::ErrorCode;

enum class Profile {
    Ldr,   // linear LDR: astc-WxH-unorm
    Srgb,  // sRGB LDR: astc-WxH-srgb
    Hdr    // HDR: astc-WxH-sfloat
};

struct Texture {
    uint32_t block_x, block_y, block_z;  // footprint; block_z is 1 for the 2D footprints
    uint32_t width, height, depth;       // extent in texels (depth = slices for a 2D footprint)
    texdec_format unorm, srgb, sfloat;   // the footprint's three texdec formats
    size_t data_offset;                  // always kHeaderSize
    size_t data_size;                    // bytes of blocks the header describes
    size_t trailing_bytes;               // bytes after them (ignored)

    bool is_3d_footprint() const { return block_z > 1; }
    texdec_format format(Profile profile) const {
        return profile == Profile::Srgb ? srgb : profile == Profile::Hdr ? sfloat : unorm;
    }
};

using ParseResult = std::variant<Texture, Error>;

// Parses a whole .astc file held in memory. The described blocks lie inside `file`.
ParseResult parse(std::span<const uint8_t> file);

// True if the bytes start with the .astc magic (cheap container detection).
bool has_magic(std::span<const uint8_t> file);

using container::error_code_name;
// The format of a footprint (block_z 1 for the 2D ones) for `profile`; TEXDEC_FORMAT_UNDEFINED for
// a footprint that does not exist.
texdec_format footprint_format(uint32_t block_x, uint32_t block_y, uint32_t block_z, Profile profile);
const char* profile_name(Profile profile);                        // "ldr", "srgb", "hdr"
std::optional<Profile> profile_from_name(std::string_view name);  // profile_name's inverse

}  // namespace astc_file

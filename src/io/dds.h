// DDS container parser for astc-gpu-decode: header -> texdec format, extent, and where each
// surface's blocks are. Pure (no Vulkan, no I/O, no allocation beyond the surface table); never
// reads outside the span it is given, so it can be fuzzed directly.
//
// Supported: the legacy header with a FourCC (DXT1-5, ATI1/ATI2, BC4U/BC4S/BC5U/BC5S; RXGB, the
// swizzled DXT5 of Doom 3 and NVTT; the ETC FourCCs Compressonator and Tacent write: 'ETC ', ETC1,
// ETC2, ETCA, ETCP, and Compressonator's sRGB ETCS, ETCT, ETCU) and the DX10 extension header with
// DXGI BC1-BC7 formats and the ASTC values NVTT writes (133-187, see dds.cpp); mip chains, texture
// arrays, cube maps (all six faces; partial cube maps are refused, as Direct3D 10+ does) and volume
// textures are described by the surface table. Whether texdec can decode the format is the
// library's business, not the parser's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include <texdec/texdec.h>

#include "container.h"

namespace dds {

// parse() refuses a file with one of these container::ErrorCode values: TooSmall (shorter than the
// magic + header (+ DX10 header)), BadMagic (no "DDS "), BadHeader (header or pixel-format size
// field wrong, inconsistent flags), NotCompressed (RGB masks / luminance), UnknownFourCC,
// UnknownDxgiFormat, UnsupportedLayout (e.g. a 1D texture, a volume texture array or a cube map whose
// faces are not square), InvalidExtent (zero or absurd width/height/depth/mip count/array size),
// Truncated, TableTooLarge (see parse()).
using container::Error;
using container::ErrorCode;

// One 2D or 3D image: one mip level of one array layer (or cube face).
struct Surface {
    uint32_t layer;  // array layer; for cube maps layer = 6 * cube index + face
    uint32_t level;  // mip level
    uint32_t width, height, depth;
    size_t offset;  // bytes from the start of the file
    size_t size;    // bytes of tightly packed blocks
};

// One mip level of every layer: what libtexdec_file keeps instead of the surface table.
struct Level {
    uint32_t width, height, depth;
    uint64_t offset_in_layer;  // bytes from the start of a layer's data to this level's blocks
    uint64_t size;             // bytes of tightly packed blocks of one layer's level
};

struct Texture {
    texdec_format format;
    std::string container_format;   // what the header said: "FourCC 'DXT5'", "DXGI 77 (BC3_UNORM)"
    uint32_t width, height, depth;  // level 0 extent in texels (depth 1 unless a volume)
    uint32_t mip_levels;
    uint32_t layers;  // array layers, cube faces counted (6 per cube)
    bool is_cube;
    bool is_volume;
    bool has_dx10_header;
    bool swap_red_alpha;            // RXGB: the decoded red and alpha channels are to be swapped back
    bool premultiplied_alpha;       // DXT2, DXT4
    uint32_t header_code;           // the DXGI format (DX10) or the FourCC as stored (legacy)
    size_t data_offset;             // where layer 0's data starts (after the DX10 header, if any)
    uint64_t layer_bytes;           // bytes of one layer's mip chain; layer n starts n * layer_bytes later
    std::vector<Level> levels;      // level 0 first (also without the surface table)
    std::vector<Surface> surfaces;  // layer-major: every level of layer 0, then of layer 1, ...
    size_t trailing_bytes;          // bytes after the last surface (ignored)

    const Surface& surface(uint32_t layer, uint32_t level) const {
        return surfaces[size_t(layer) * mip_levels + level];
    }
};

using ParseResult = std::variant<Texture, Error>;

// Parses a whole .dds file held in memory. Every surface the header describes must lie inside
// `file`; the returned Surfaces index into it. parse_limited allocates the surface table
// (sizeof(Surface) bytes per layer and mip level) only if it fits in `max_table_bytes`, else it
// answers TableTooLarge: a 64 MiB file can describe 8 million surfaces of one BC1 block each.
ParseResult parse_limited(std::span<const uint8_t> file, uint64_t max_table_bytes);
ParseResult parse(std::span<const uint8_t> file);  // parse_limited(file, UINT64_MAX)
// The same checks without the surface table (Texture::surfaces empty, surface() unusable):
// data_offset, layer_bytes and levels describe every surface, in O(mip levels) memory.
ParseResult parse_levels(std::span<const uint8_t> file);

// The parser's tables as mappings (libtexdec_file's texdec_format_from_dxgi / _to_dxgi /
// _from_dds_fourcc): TEXDEC_FORMAT_UNDEFINED / 0 where the table has nothing. format_from_dxgi reads
// TYPELESS as UNORM (UF16 for BC6H); dxgi_from_format gives the UNORM / UNORM_SRGB / UF16 / SF16 value,
// NVTT's value for 2D ASTC unorm and srgb, BC1_UNORM(_SRGB) for the BC1 RGB formats.
texdec_format format_from_fourcc(uint32_t fourcc);
texdec_format format_from_dxgi(uint32_t dxgi_format);
uint32_t dxgi_from_format(texdec_format format);

// True if the bytes start with the "DDS " magic (cheap container detection).
bool has_magic(std::span<const uint8_t> file);

using container::error_code_name;

}  // namespace dds

// A test-side writer of whole texture files, for the texdec_file tests (test_file_containers.cpp,
// test_file_hostile.cpp) and the fuzzers' seeds: KTX 2.0 (supercompression none / Zstandard /
// zlib, a DFD, key-value data), KTX 1.1 (little- and big-endian), DDS (legacy FourCC and DX10
// headers; arrays, cube maps, cube arrays, volumes, mips), .pkm and ARM's .astc. Written from the
// containers' own descriptions (the Khronos KTX File Format Specification 2.0 and KTX 1.1, the
// Khronos Data Format Specification 1.3 for the DFD, Microsoft's "DDS_HEADER structure",
// "DDS_PIXELFORMAT", "DDS_HEADER_DXT10" and "Programming Guide for DDS" pages, etcpack's PKM
// header, astcenc's file header), never from src/io.
//
// Every surface's blocks are a pattern that names it: each 8-byte unit is
//   0xC0 | level, layer & 0xFF, layer >> 8, face, unit & 0xFF, unit >> 8 & 0xFF, unit >> 16 & 0xFF, xor of them
// so a range that points at another level, layer, face or byte cannot compare equal.
// A bad argument throws std::logic_error (Catch2 reports it as a failure).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <texdec/texdec.h>

namespace texdec_test::writer {

// What to write. depth > 1 (or a 3D ASTC footprint) is a volume; faces 6 is a cube map; `array`
// says array in the header even for one layer (KTX layerCount / numberOfArrayElements > 0; DDS:
// the DX10 header's arraySize, which is the number of cubes for a cube map).
struct Shape {
    texdec_format format = TEXDEC_FORMAT_UNDEFINED;
    uint32_t width = 0, height = 0, depth = 1;
    uint32_t levels = 1;
    uint32_t layers = 1;
    uint32_t faces = 1;
    bool array = false;
};

// One surface (a level of one layer's face, every depth slice) where the writer put it: `offset`
// from the start of the file, or (supercompressed KTX 2) from the start of its inflated level.
struct Surface {
    uint32_t level = 0, layer = 0, face = 0;
    uint32_t width = 0, height = 0, depth = 0;
    uint64_t offset = 0, size = 0, slice_size = 0;
};

struct KeyValue {
    std::string key;             // without its NUL
    std::vector<uint8_t> value;  // as stored (a string value includes its NUL)
};

struct Written {
    std::vector<uint8_t> bytes;
    std::vector<Surface> surfaces;  // in the order the file stores them
    std::vector<KeyValue> key_values;
    uint32_t header_format = 0;  // the number the header holds (vkFormat, DXGI, FourCC, glInternalFormat, PKM code)
    std::vector<uint64_t> level_file_offset, level_file_length;  // KTX 2: the level index (level 0 first)
};

// The block geometry of a format (texdec.h's public format table: block size and footprint).
struct Blocks {
    uint32_t bw = 1, bh = 1, bd = 1, bytes = 16;
};
Blocks blocks_of(texdec_format format);

uint32_t level_extent(uint32_t extent, uint32_t level);  // max(1, extent >> level)
// Bytes of blocks of one surface of `level`, and of one block slice.
uint64_t surface_size(const Shape& s, uint32_t level);
uint64_t slice_size(const Shape& s, uint32_t level);
bool is_volume(const Shape& s);

// The pattern bytes of surface (level, layer, face).
std::vector<uint8_t> surface_pattern(uint32_t level, uint32_t layer, uint32_t face, uint64_t size);

// The packed layout texdec_file.h documents: level 0 first, each level at a multiple of 16 bytes,
// inside a level layer by layer, face by face. Offsets of each level and the total (end of the
// last level); level_bytes(l) = the level's surfaces in that order.
std::vector<uint64_t> packed_level_offsets(const Shape& s);
uint64_t packed_total(const Shape& s);
std::vector<uint8_t> packed_level(const Shape& s, uint32_t level);
std::vector<uint8_t> packed_all(const Shape& s);  // padding zeros

// The default key-value entries: KTXorientation (`orientation`, e.g. "rd", "S=r,T=d"), KTXwriter.
std::vector<KeyValue> default_key_values(const std::string& orientation);
// Key-value entries in KTX form (keyAndValueByteSize, key NUL value, padding to 4), in `order`.
std::vector<uint8_t> key_value_bytes(const std::vector<KeyValue>& entries, bool big_endian);

// ---- KTX 2.0 -------------------------------------------------------------------------------------
// supercompressionScheme 0 none, 2 Zstandard, 3 zlib. Key-value entries are sorted by key as the
// spec requires. Levels smallest first ("mip level 0 last"), each at lcm(texel block size, 4)
// without supercompression, unaligned with it.
uint32_t vk_format_of(texdec_format format);  // VkFormat numbers (Vulkan registry, VK_EXT_texture_compression_astc_3d)
Written write_ktx2(const Shape& s, uint32_t scheme, std::vector<KeyValue> kv);
std::vector<uint8_t> supercompress(uint32_t scheme, const std::vector<uint8_t>& data);

// ---- KTX 1.1 -------------------------------------------------------------------------------------
uint32_t gl_internal_format_of(texdec_format format);  // Khronos GL registry enums
Written write_ktx1(const Shape& s, bool big_endian, const std::vector<KeyValue>& kv);

// ---- DDS -----------------------------------------------------------------------------------------
// fourcc "DX10": a DDS_HEADER_DXT10 with `dxgi_format`; otherwise a legacy FourCC ("DXT1", ...)
// and no arrays. Surfaces layer-major (each layer's, or each cube face's, mip chain in turn).
Written write_dds(const Shape& s, const char (&fourcc)[5], uint32_t dxgi_format = 0);

// ---- .pkm (etcpack) ------------------------------------------------------------------------------
// version "10" (format code 0 only) or "20"; the padded extent is the extent rounded up to 4.
Written write_pkm(const Shape& s, const char (&version)[3], uint32_t code);

// ---- .astc (ARM astcenc) -------------------------------------------------------------------------
Written write_astc(const Shape& s);

}  // namespace texdec_test::writer

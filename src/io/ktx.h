// KTX 1.1 container parser for astc-gpu-decode: header -> texdec format, extent, and where each
// surface's blocks are. Pure (no Vulkan, no I/O, no allocation beyond the surface table); never
// reads outside the span it is given, so it can be fuzzed directly.
//
// Layout (Khronos "KTX File Format Specification", version 1.1): a 12-byte identifier
// (AB 4B 54 58 20 31 31 BB 0D 0A 1A 0A, "«KTX 11»\r\n\x1A\n"), then 13 UInt32 fields in the
// file's byte order (endianness, glType, glTypeSize, glFormat, glInternalFormat,
// glBaseInternalFormat, pixelWidth, pixelHeight, pixelDepth, numberOfArrayElements,
// numberOfFaces, numberOfMipmapLevels, bytesOfKeyValueData), the key/value data (skipped), then
// for each mip level: a UInt32 imageSize and the level's data: for each array element, for each
// face, the z slices of blocks (x fastest, then y), each face of a non-array cube map followed by
// cubePadding to 4 bytes, the level followed by mipPadding to 4 bytes.
//
// Choices where the spec leaves room:
//   - endianness 0x04030201 read little-endian is a little-endian file, 0x01020304 a big-endian
//     one (header fields and imageSize are swapped; block data never is: glTypeSize is 1 for
//     compressed formats); anything else is BadEndianness.
//   - glType != 0 is an uncompressed texture (NotCompressed); glInternalFormat alone picks the
//     format (glFormat, glTypeSize and glBaseInternalFormat are not checked).
//   - pixelHeight 0 (a 1D texture) is UnsupportedLayout; pixelDepth 0 is a 2D texture, > 0 a 3D
//     one (a 2D block format then decodes depth slices, as texdec does); a 3D array, a 3D cube,
//     numberOfFaces other than 1 or 6 and a non-square cube face are refused.
//   - numberOfArrayElements 0 is "not an array" (1 layer); numberOfMipmapLevels 0 means the file
//     holds level 0 only (a loader would generate the rest).
//   - imageSize must be exactly what the level needs (one face for a non-array cube map, the
//     whole level otherwise): a different value is BadImageSize.
//   - bytes after the last level are allowed and counted in trailing_bytes (the CLI warns).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include <texdec/texdec.h>

#include "container.h"

namespace ktx {

constexpr size_t kIdentifierSize = 12;
constexpr size_t kHeaderSize = 64;  // identifier + 13 UInt32 fields

// parse() refuses a file with one of these container::ErrorCode values: TooSmall (shorter than the
// 64-byte header), BadMagic (no KTX 1.1 identifier), BadEndianness, NotCompressed (glType != 0),
// UnknownInternalFormat, UnsupportedLayout (1D, 3D array, 3D cube, a face count other than 1 or 6,
// non-square cube), InvalidExtent (zero width, absurd extent, mip count or array size),
// BadImageSize, Truncated (the file ends inside the key/value data, an imageSize or a level),
// TableTooLarge (see parse()).
using container::Error;
using container::ErrorCode;

// One 2D or 3D image: one mip level of one array element's face.
struct Surface {
    uint32_t layer;  // array element * faces + face
    uint32_t level;
    uint32_t width, height, depth;
    size_t offset;  // bytes from the start of the file
    size_t size;    // bytes of tightly packed blocks
};

// One mip level, every layer and face: what libtexdec_file keeps instead of the surface table.
struct Level {
    uint32_t width, height, depth;
    uint64_t offset;       // layer 0's (face 0's) blocks, bytes from the start of the file
    uint64_t face_stride;  // bytes from one layer's (face's) blocks to the next's (cubePadding included)
    uint64_t face_bytes;   // bytes of tightly packed blocks of one layer or face
};

struct Texture {
    texdec_format format;
    std::string container_format;  // "glInternalFormat 0x9274 (GL_COMPRESSED_RGB8_ETC2)"
    uint32_t gl_internal_format;
    bool big_endian;
    uint32_t width, height, depth;  // level 0 extent in texels (depth 1 unless 3D)
    uint32_t mip_levels;            // levels in the file (numberOfMipmapLevels, 0 read as 1)
    uint32_t array_elements;        // numberOfArrayElements (0: not an array)
    uint32_t faces;                 // 1 or 6
    uint32_t layers;                // max(1, array_elements) * faces
    bool is_cube;
    bool is_volume;
    size_t key_value_bytes;         // bytesOfKeyValueData (from kHeaderSize; in the file)
    std::vector<Level> levels;      // every level, level 0 first (also without the surface table)
    std::vector<Surface> surfaces;  // level-major: every layer of level 0, then of level 1, ...
    size_t trailing_bytes;          // bytes after the last level (ignored)

    const Surface& surface(uint32_t layer, uint32_t level) const {
        return surfaces[size_t(level) * layers + layer];
    }
};

using ParseResult = std::variant<Texture, Error>;

// Parses a whole KTX 1.1 file held in memory. Every surface lies inside `file`. parse_limited
// grows the surface table (sizeof(Surface) bytes per layer and mip level) only while it fits in
// `max_table_bytes`, else it answers TableTooLarge (a level whose data is truncated is Truncated
// first).
ParseResult parse_limited(std::span<const uint8_t> file, uint64_t max_table_bytes);
ParseResult parse(std::span<const uint8_t> file);  // parse_limited(file, UINT64_MAX)
// The same checks without the surface table (Texture::surfaces empty, surface() unusable):
// Texture::levels describe every surface, in O(mip levels) memory.
ParseResult parse_levels(std::span<const uint8_t> file);

// True if the bytes start with the KTX 1.1 identifier (cheap container detection).
bool has_magic(std::span<const uint8_t> file);

using container::error_code_name;

// The parser's table as mappings (libtexdec_file's texdec_format_from/to_gl_internal_format):
// TEXDEC_FORMAT_UNDEFINED / 0 where it has nothing. gl_from_format gives GL_COMPRESSED_RGB8_ETC2 for
// etc2-r8g8b8-unorm (not GL_ETC1_RGB8_OES) and the linear enum for astc-*-sfloat.
texdec_format format_from_gl(uint32_t gl_internal_format);
uint32_t gl_from_format(texdec_format format);

// The GL name of a glInternalFormat this parser maps ("GL_COMPRESSED_R11_EAC"), else nullptr.
const char* gl_internal_format_name(uint32_t gl_internal_format);

}  // namespace ktx

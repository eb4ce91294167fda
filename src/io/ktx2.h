// KTX 2.0 container parser for astc-gpu-decode: header -> texdec format, extent, layers, and the
// level index; level_data() gives one mip level's blocks, inflating Zstandard or zlib
// supercompression. Pure (no Vulkan, no I/O); never reads outside the span it is given, so it can
// be fuzzed directly.
//
// Layout (Khronos "KTX File Format Specification", version 2.0), all fields little-endian:
//   bytes 0..11   identifier AB 4B 54 58 20 32 30 BB 0D 0A 1A 0A ("«KTX 20»\r\n\x1A\n")
//   12..47        UInt32 vkFormat, typeSize, pixelWidth, pixelHeight, pixelDepth, layerCount,
//                 faceCount, levelCount, supercompressionScheme
//   48..79        index: UInt32 dfdByteOffset, dfdByteLength, kvdByteOffset, kvdByteLength,
//                 UInt64 sgdByteOffset, sgdByteLength
//   80..          level index: max(1, levelCount) x {UInt64 byteOffset, byteLength,
//                 uncompressedByteLength}, level 0 first
//   then the data format descriptor (DFD), key/value data, supercompression global data and the
//   mip levels (smallest first in the file; each found through its byteOffset). A level holds, for
//   each layer, for each face, the z slices of blocks (x fastest, then y): no padding inside a
//   level. With supercompressionScheme 2 (Zstandard) or 3 (zlib) each level is one compressed
//   stream of those bytes.
//
// What is validated (each failure has its own ErrorCode and a message naming the field):
//   - vkFormat must be a block-compressed format texdec has (texdec_format_from_vk: BC1-7,
//     ETC2/EAC, ASTC 2D UNORM/SRGB/SFLOAT and the ASTC 3D formats of
//     VK_EXT_texture_compression_astc_3d, 1000288000 + 3 * footprint + {0 UNORM, 1 SRGB, 2 SFLOAT});
//     other formats are refused by name (vkFormat 37 is "VK_FORMAT_R8G8B8A8_UNORM, uncompressed").
//     typeSize must be 1, as the spec requires for block-compressed formats.
//   - Basis Universal is refused by name, named by the DFD's colour model where it has one: 163
//     ETC1S, 166 UASTC (LDR 4x4), 167 UASTC HDR 4x4, 168 UASTC HDR 6x6 intermediate, 169 XUASTC
//     LDR intermediate; with vkFormat 0, or supercompressionScheme 1 (BasisLZ: ETC1S, or the
//     6x6 intermediate of older Basis Universal releases), 4 or 5 (Basis Universal's own schemes
//     for the two intermediates). Other schemes from 4 up (reserved or vendor) are refused as
//     unknown. UASTC HDR 4x4 with vkFormat ASTC_4x4_SFLOAT is plain ASTC HDR data: decoded.
//   - layout: pixelHeight 0 (1D) is refused; pixelDepth 0 is 2D, > 0 3D (a 2D block format then
//     holds depth slices, as texdec decodes them); faceCount 1 or 6 (a cube: square, pixelDepth
//     0); a 3D array is refused; layerCount 0 is "not an array"; levelCount 0 means the file holds
//     level 0 only; levelCount may not exceed the levels the extent has.
//   - the data format descriptor (DFD) vetoes nothing when vkFormat names a format texdec decodes:
//     vkFormat alone says everything the decoder needs (block size, bytes per block, sRGB or not,
//     LDR or HDR), so the file is decoded by it and every disagreement of the DFD becomes a warning
//     (Texture::warnings), one rule for every field: where it lies (inside the file, after the level
//     index, 4-byte aligned), dfdTotalSize == dfdByteLength, a Khronos basic block first (with a
//     sane descriptorBlockSize), and that block's colorModel (BC1A..BC7, ETC2 (or ETC1 for ETC2
//     RGB8), ASTC, or UASTC HDR 4x4 for ASTC 4x4 SFLOAT), transferFunction (sRGB exactly when
//     vkFormat is), texelBlockDimension and bytesPlane0 (0 allowed when supercompressed) against
//     vkFormat. (NVIDIA's tools write transfer sRGB for BC4/BC5 UNORM: decoded as UNORM, with a
//     warning.) The DFD is read for decoding only where vkFormat is 0: its colour model names the
//     Basis Universal codec in the refusal.
//   - key/value data and supercompression global data, where present, lie in the file (not read).
//   - each level: byteOffset + byteLength inside the file, after the level index;
//     uncompressedByteLength == the bytes the level's extent, layers and faces need; with no
//     supercompression byteLength == uncompressedByteLength and byteOffset a multiple of
//     lcm(block bytes, 4), the spec's alignment. The compressed stream itself is checked by
//     level_data() (it must inflate to exactly uncompressedByteLength bytes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include <texdec/texdec.h>

#include "container.h"

namespace ktx2 {

constexpr size_t kIdentifierSize = 12;
constexpr size_t kHeaderSize = 80;  // identifier, 9 UInt32, the index (4 UInt32 + 2 UInt64)
constexpr size_t kLevelIndexEntrySize = 24;

enum class Supercompression : uint32_t { None = 0, BasisLZ = 1, Zstandard = 2, Zlib = 3 };

// parse() refuses a file with one of these container::ErrorCode values: TooSmall (shorter than the
// header or its level index), BadMagic (no KTX 2.0 identifier), BasisUniversal,
// UnsupportedSupercompression (a supercompressionScheme other than 0-3), UnknownFormat (a vkFormat
// that is not a block-compressed format texdec has), BadTypeSize (typeSize != 1),
// UnsupportedLayout, InvalidExtent (zero width, absurd extent, too many levels, size overflow),
// BadIndex (key-value / global data range outside the file), BadLevelIndex, Truncated,
// BadSupercompressedData (a Zstandard / zlib stream that does not inflate to the level's size).
using container::Error;
using container::ErrorCode;

struct Level {
    uint32_t width, height, depth;   // extent in texels
    uint64_t byte_offset;            // in the file
    uint64_t byte_length;            // in the file (compressed, with supercompression)
    uint64_t uncompressed_byte_length;
    uint64_t image_bytes;            // one layer or face: tightly packed blocks
};

struct Texture {
    texdec_format format;
    uint32_t vk_format;
    std::string container_format;  // "vkFormat 157 (astc-4x4-unorm)"
    uint32_t width, height, depth;  // level 0 extent in texels (depth 1 unless 3D)
    uint32_t layer_count;           // the header's layerCount (0: not an array)
    uint32_t faces;                 // 1 or 6
    uint32_t layers;                // max(1, layer_count) * faces; layer = element * faces + face
    uint32_t mip_levels;            // levels in the file (levelCount, 0 read as 1)
    bool is_cube;
    bool is_volume;
    Supercompression supercompression;
    uint64_t key_value_offset;      // kvdByteOffset (0 when kvdByteLength is 0)
    uint64_t key_value_bytes;       // kvdByteLength (parse() checks the range lies in the file)
    std::vector<Level> levels;      // level 0 first
    std::vector<std::string> warnings;  // where the DFD disagrees with vkFormat (which decides)
};

using ParseResult = std::variant<Texture, Error>;

// Parses and validates a whole KTX 2.0 file held in memory (see above). Every level's
// byte range lies inside `file`.
ParseResult parse(std::span<const uint8_t> file);

// The blocks of one mip level (every layer and face, layer-major, image_bytes each): a view into
// `file` when not supercompressed, else inflated into `storage`. Errors: BadSupercompressedData
// (a stream that is not valid or inflates to another size), InvalidExtent (no memory for it).
using LevelResult = std::variant<std::span<const uint8_t>, Error>;
LevelResult level_data(std::span<const uint8_t> file, const Texture& texture, uint32_t level,
                       std::vector<uint8_t>& storage);

// The same into caller memory (libtexdec_file: nothing allocated per level): writes the level's
// uncompressed_byte_length bytes at dst (dst.size() must be at least that), copying or inflating,
// after the same checks of the stream as level_data (a stream that cannot inflate to the level's
// size is refused before a byte is written). Errors: BadSupercompressedData,
// UnsupportedSupercompression (Zstandard in a build without libzstd), InvalidExtent (dst too small).
std::optional<Error> read_level(std::span<const uint8_t> file, const Texture& texture, uint32_t level,
                                std::span<uint8_t> dst);

// True if the bytes start with the KTX 2.0 identifier (cheap container detection).
bool has_magic(std::span<const uint8_t> file);

using container::error_code_name;
const char* supercompression_name(uint32_t scheme);  // "none", "BasisLZ", "Zstandard", "zlib", "unknown"

}  // namespace ktx2

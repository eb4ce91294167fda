// What the container parsers (.astc, DDS, KTX, KTX 2, .pkm) share: the error they answer when they
// refuse a file (one vocabulary for all of them, so callers and the parser-contract tests handle each
// the same way; each parser's header lists the codes it returns), and the extent checks with the
// same meaning in several containers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace container {

enum class ErrorCode {
    TooSmall,                     // shorter than the header (or what the header says must follow it)
    BadMagic,                     // no magic / identifier of the container
    BadHeader,                    // a header field wrong or inconsistent with another
    BadVersion,                   // a version field this parser does not know
    BadEndianness,                // an endianness field that is neither order
    NotCompressed,                // an uncompressed pixel format
    UnknownFootprint,             // an ASTC block footprint that does not exist
    UnknownFourCC,                // a DDS FourCC this parser does not map to a texdec format
    UnknownDxgiFormat,            // a DXGI format this parser does not map to a texdec format
    UnknownInternalFormat,        // a glInternalFormat this parser does not map to a texdec format
    UnknownFormat,                // a format code (vkFormat, PKM code) that is not a format texdec has
    UnsupportedLayout,            // 1D, 3D array, 3D cube, bad face count, non-square cube
    InvalidExtent,                // zero or absurd extent, mip count, array size
    SizeOverflow,                 // the data the header describes does not fit in 64 bits / memory
    BadImageSize,                 // a level's size field that is not what the level needs
    BasisUniversal,               // BasisLZ supercompression or UASTC / ETC1S data: transcode it first
    UnsupportedSupercompression,  // a supercompression scheme this parser does not inflate
    BadTypeSize,                  // a type size that block-compressed data cannot have
    BadIndex,                     // an index of the file's parts that points outside the file
    BadLevelIndex,                // a level's length / uncompressed length / alignment is wrong
    Truncated,                    // the file ends before the data its header describes
    BadSupercompressedData,       // a compressed stream that does not inflate to the level's size
    TableTooLarge                 // the surface table the header asks for exceeds the caller's memory limit
};

struct Error {
    ErrorCode code;
    std::string message;  // names the problem, e.g. "unknown FourCC 'RXGB'"
};

// "file too small", "unknown FourCC", ...; "unknown error" for a value outside the enum.
const char* error_code_name(ErrorCode code);

// The most texels per side a parser accepts: larger than any real texture (Direct3D's limit is
// 16384); keeps every size computation far from overflowing 64 bits.
constexpr uint32_t kMaxDimension = 1u << 20;

// InvalidExtent if a side exceeds kMaxDimension.
std::optional<Error> check_extent_limit(uint32_t width, uint32_t height, uint32_t depth);

// The KTX 1 and KTX 2 cube and volume rules, then check_extent_limit: a cube map cannot have
// depth (pixelDepth > 0) and its faces must be square.
std::optional<Error> check_cube_extent(uint32_t width, uint32_t height, uint32_t depth, bool is_cube, bool is_volume);

// TableTooLarge if a table of `entries` entries of `entry_bytes` each exceeds `max_bytes` (the
// parsers' limit for what they allocate; `what` names the entries: "surfaces (8388608 layers x 1 mip
// level)"). No overflow: compared by division.
std::optional<Error> check_table_size(uint64_t entries, uint64_t entry_bytes, uint64_t max_bytes,
                                      const std::string& what);

// InvalidExtent if `levels` (the header field named `field`) exceeds the full mip chain of a
// width x height x depth image.
std::optional<Error> check_mip_count(const char* field, uint32_t levels, uint32_t width, uint32_t height,
                                     uint32_t depth);

}  // namespace container

#include "container.h"

#include <algorithm>
#include <bit>

#include "format_text.h"

namespace container {

const char* error_code_name(ErrorCode code) {
    switch (code) {
    case ErrorCode::TooSmall: return "file too small";
    case ErrorCode::BadMagic: return "not this container";
    case ErrorCode::BadHeader: return "malformed header";
    case ErrorCode::BadVersion: return "unknown version";
    case ErrorCode::BadEndianness: return "bad endianness field";
    case ErrorCode::NotCompressed: return "not block-compressed";
    case ErrorCode::UnknownFootprint: return "unknown footprint";
    case ErrorCode::UnknownFourCC: return "unknown FourCC";
    case ErrorCode::UnknownDxgiFormat: return "unknown DXGI format";
    case ErrorCode::UnknownInternalFormat: return "unknown glInternalFormat";
    case ErrorCode::UnknownFormat: return "unknown format";
    case ErrorCode::UnsupportedLayout: return "unsupported texture layout";
    case ErrorCode::InvalidExtent: return "invalid extent";
    case ErrorCode::SizeOverflow: return "size overflow";
    case ErrorCode::BadImageSize: return "wrong imageSize";
    case ErrorCode::BasisUniversal: return "Basis Universal";
    case ErrorCode::UnsupportedSupercompression: return "unsupported supercompression";
    case ErrorCode::BadTypeSize: return "wrong typeSize";
    case ErrorCode::BadIndex: return "bad index";
    case ErrorCode::BadLevelIndex: return "bad level index";
    case ErrorCode::Truncated: return "truncated data";
    case ErrorCode::BadSupercompressedData: return "bad supercompressed data";
    case ErrorCode::TableTooLarge: return "surface table too large";
    }
    return "unknown error";
}

std::optional<Error> check_extent_limit(uint32_t width, uint32_t height, uint32_t depth) {
    if (width > kMaxDimension || height > kMaxDimension || depth > kMaxDimension)
        return Error{ErrorCode::InvalidExtent, texdec_io::format_text("extent %ux%ux%u is absurd (limit %u per side)",
                                                                      width, height, depth, kMaxDimension)};
    return std::nullopt;
}

std::optional<Error> check_cube_extent(uint32_t width, uint32_t height, uint32_t depth, bool is_cube, bool is_volume) {
    if (is_volume && is_cube)
        return Error{ErrorCode::UnsupportedLayout,
                     texdec_io::format_text("a cube map with pixelDepth %u: cube faces are 2D", depth)};
    if (auto error = check_extent_limit(width, height, depth)) return error;
    if (is_cube && width != height)
        return Error{ErrorCode::UnsupportedLayout,
                     texdec_io::format_text("cube map faces of %ux%u are not square", width, height)};
    return std::nullopt;
}

std::optional<Error> check_table_size(uint64_t entries, uint64_t entry_bytes, uint64_t max_bytes,
                                      const std::string& what) {
    if (entry_bytes == 0 || entries <= max_bytes / entry_bytes) return std::nullopt;
    const unsigned long long bytes =
        entries > UINT64_MAX / entry_bytes ? UINT64_MAX : (unsigned long long)(entries * entry_bytes);
    return Error{
        ErrorCode::TableTooLarge,
        texdec_io::format_text("the header describes %llu %s: the table of them needs %llu bytes, more than "
                               "the %llu bytes of memory allowed",
                               (unsigned long long)entries, what.c_str(), bytes, (unsigned long long)max_bytes)};
}

std::optional<Error> check_mip_count(const char* field, uint32_t levels, uint32_t width, uint32_t height,
                                     uint32_t depth) {
    const uint32_t most = uint32_t(std::bit_width(std::max({width, height, depth})));
    if (levels > most)
        return Error{ErrorCode::InvalidExtent,
                     texdec_io::format_text("%s %u exceeds the %u levels a %ux%ux%u image has", field, levels, most,
                                            width, height, depth)};
    return std::nullopt;
}

}  // namespace container

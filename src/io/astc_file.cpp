// .astc parser (see astc_file.h for the layout and the choices made).
#include "astc_file.h"

#include <cstdio>
#include <iterator>

#include "format_text.h"
#include "portable.h"

namespace astc_file {
namespace {

using texdec_io::format_text;

struct FootprintEntry {
    uint8_t x, y, z;
    texdec_format unorm, srgb, sfloat;
};

#define ASTC2D(w, h)                                                                                   \
    FootprintEntry {                                                                                   \
        w, h, 1, TEXDEC_FORMAT_ASTC_##w##x##h##_UNORM, TEXDEC_FORMAT_ASTC_##w##x##h##_SRGB,            \
            TEXDEC_FORMAT_ASTC_##w##x##h##_SFLOAT                                                      \
    }
#define ASTC3D(w, h, d)                                                                                \
    FootprintEntry {                                                                                   \
        w, h, d, TEXDEC_FORMAT_ASTC_##w##x##h##x##d##_UNORM, TEXDEC_FORMAT_ASTC_##w##x##h##x##d##_SRGB, \
            TEXDEC_FORMAT_ASTC_##w##x##h##x##d##_SFLOAT                                                \
    }
constexpr FootprintEntry kFootprints[] = {
    ASTC2D(4, 4),       ASTC2D(5, 4),       ASTC2D(5, 5),       ASTC2D(6, 5),       ASTC2D(6, 6),
    ASTC2D(8, 5),       ASTC2D(8, 6),       ASTC2D(8, 8),       ASTC2D(10, 5),      ASTC2D(10, 6),
    ASTC2D(10, 8),      ASTC2D(10, 10),     ASTC2D(12, 10),     ASTC2D(12, 12),     ASTC3D(3, 3, 3),
    ASTC3D(4, 3, 3),    ASTC3D(4, 4, 3),    ASTC3D(4, 4, 4),    ASTC3D(5, 4, 4),    ASTC3D(5, 5, 4),
    ASTC3D(5, 5, 5),    ASTC3D(6, 5, 5),    ASTC3D(6, 6, 5),    ASTC3D(6, 6, 6),
};
#undef ASTC2D
#undef ASTC3D

uint32_t read_u24(std::span<const uint8_t> bytes, size_t offset) {
    return uint32_t(bytes[offset]) | uint32_t(bytes[offset + 1]) << 8 | uint32_t(bytes[offset + 2]) << 16;
}

const FootprintEntry* find_footprint(uint32_t x, uint32_t y, uint32_t z) {
    for (const FootprintEntry& e : kFootprints)
        if (e.x == x && e.y == y && e.z == z) return &e;
    return nullptr;
}

uint64_t div_round_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

}  // namespace

texdec_format footprint_format(uint32_t block_x, uint32_t block_y, uint32_t block_z, Profile profile) {
    const FootprintEntry* e = find_footprint(block_x, block_y, block_z);
    if (!e) return TEXDEC_FORMAT_UNDEFINED;
    return profile == Profile::Srgb ? e->srgb : profile == Profile::Hdr ? e->sfloat : e->unorm;
}

bool has_magic(std::span<const uint8_t> file) {
    return file.size() >= 4 && file[0] == 0x13 && file[1] == 0xAB && file[2] == 0xA1 && file[3] == 0x5C;
}

ParseResult parse(std::span<const uint8_t> file) {
    if (file.size() < kHeaderSize)
        return Error{ErrorCode::TooSmall,
                     format_text("file is %zu bytes, shorter than the 16-byte .astc header", file.size())};
    if (!has_magic(file))
        return Error{ErrorCode::BadMagic,
                     format_text("not an .astc file (bytes 0-3 are %02X %02X %02X %02X, not the magic "
                                 "13 AB A1 5C)",
                                 file[0], file[1], file[2], file[3])};

    const uint32_t bx = file[4], by = file[5], bz = file[6] == 0 ? 1 : file[6];  // astcenc reads 0 as 1
    const FootprintEntry* fp = find_footprint(bx, by, bz);
    if (!fp)
        return Error{
            ErrorCode::UnknownFootprint,
            format_text("unknown ASTC footprint %ux%ux%u in the header (2D: 4x4 5x4 5x5 6x5 6x6 8x5 8x6 8x8 10x5 "
                        "10x6 10x8 10x10 12x10 12x12, with block_z 1; 3D: 3x3x3 4x3x3 4x4x3 4x4x4 5x4x4 5x5x4 "
                        "5x5x5 6x5x5 6x6x5 6x6x6)",
                        bx, by, uint32_t(file[6]))};

    Texture tex{};
    tex.block_x = bx, tex.block_y = by, tex.block_z = bz;
    tex.unorm = fp->unorm, tex.srgb = fp->srgb, tex.sfloat = fp->sfloat;
    tex.width = read_u24(file, 7);
    tex.height = read_u24(file, 10);
    tex.depth = read_u24(file, 13);
    if (tex.width == 0 || tex.height == 0 || tex.depth == 0)
        return Error{ErrorCode::InvalidExtent, format_text("extent %ux%ux%u in the header has a zero dimension",
                                                           tex.width, tex.height, tex.depth)};

    // Each side is < 2^24, so each block count is < 2^24 and the product can reach 2^72: checked.
    uint64_t blocks = div_round_up(tex.width, bx), bytes = 0;
    if (texdec::portable::mul_overflow(blocks, div_round_up(tex.height, by), &blocks) ||
        texdec::portable::mul_overflow(blocks, div_round_up(tex.depth, bz), &blocks) ||
        texdec::portable::mul_overflow(blocks, uint64_t(kBlockBytes), &bytes) || bytes > SIZE_MAX - kHeaderSize)
        return Error{
            ErrorCode::SizeOverflow,
            format_text("extent %ux%ux%u with %ux%ux%u blocks describes more block data than 64 bits can count",
                        tex.width, tex.height, tex.depth, bx, by, bz)};
    const size_t available = file.size() - kHeaderSize;
    if (bytes > available)
        return Error{
            ErrorCode::Truncated,
            format_text("data is truncated: the header describes %ux%ux%u texels in %ux%ux%u blocks (%llu blocks, "
                        "%llu bytes), the file holds %zu bytes after the header",
                        tex.width, tex.height, tex.depth, bx, by, bz, (unsigned long long)(bytes / kBlockBytes),
                        (unsigned long long)bytes, available)};
    tex.data_offset = kHeaderSize;
    tex.data_size = size_t(bytes);
    tex.trailing_bytes = available - tex.data_size;
    return tex;
}

namespace {
constexpr const char* kProfileNames[] = {"ldr", "srgb", "hdr"};  // indexed by Profile
}  // namespace

const char* profile_name(Profile profile) {
    return size_t(profile) < std::size(kProfileNames) ? kProfileNames[size_t(profile)] : "?";
}

std::optional<Profile> profile_from_name(std::string_view name) {
    for (size_t i = 0; i < std::size(kProfileNames); ++i)
        if (name == kProfileNames[i]) return Profile(i);
    return std::nullopt;
}

}  // namespace astc_file

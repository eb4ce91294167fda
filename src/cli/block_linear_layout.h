// The Tegra X1 block-linear layout on the tool's side: parsing --block-linear H[xD], laying linear
// blocks out block-linear (the bench's block-linear rows) and reading a block-linear surface back
// in linear block order (decode --verify, whose CPU reference reads linear blocks). The address is
// the library's own (src/common/block_linear_address.h: the "source layouts" comment of
// include/texdec/texdec.h); the library decodes block-linear sources itself, this is only what
// the tool needs around it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <texdec/texdec.h>

namespace block_linear_layout {

// GOBs per block vertically and in depth: each 1, 2, 4, 8, 16 or 32.
struct Gobs {
    uint32_t height = 1, depth = 1;
};

// "H" or "HxD" (D defaults to 1). The error names what is wrong with the text.
std::variant<Gobs, std::string> parse(std::string_view text);

// "16" or "4x2": what parse() reads.
std::string text(const Gobs& gobs);

// A block-linear surface of row_blocks x rows x slices compressed blocks of bytes_per_block bytes.
struct Surface {
    uint64_t row_blocks = 0, rows = 0, slices = 0;
    uint32_t bytes_per_block = 0;
    Gobs gobs;

    // Byte offset of block (bx, by, bz) from the surface's start.
    uint64_t offset(uint64_t bx, uint64_t by, uint64_t bz) const;
    // Bytes of the whole surface in whole blocks of GOBs (its padding included).
    uint64_t size() const;
};

// The surface of an extent in texels, for a format's blocks.
Surface surface_of(texdec_format format, uint32_t width, uint32_t height, uint32_t depth, const Gobs& gobs);

// Linear blocks (x fastest, then y, then z; tightly packed) laid out block-linear in a surface of
// size() bytes; the padding is zero.
std::vector<uint8_t> swizzle(std::span<const uint8_t> linear, const Surface& surface);

// The blocks of a block-linear surface in linear order. False (and `linear` left empty) if a
// block lies past the end of `source`.
bool deswizzle(std::span<const uint8_t> source, const Surface& surface, std::vector<uint8_t>& linear);

}  // namespace block_linear_layout

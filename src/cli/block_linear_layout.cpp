#include "block_linear_layout.h"

#include <bit>
#include <charconv>
#include <cstring>

#include "block_linear_address.h"

namespace block_linear_layout {

namespace {

using texdec::block_linear::is_gob_count;

uint64_t div_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

}  // namespace

std::variant<Gobs, std::string> parse(std::string_view text) {
    const size_t x = text.find_first_of("xX");
    const std::string_view parts[2] = {text.substr(0, x),
                                       x == std::string_view::npos ? std::string_view("1") : text.substr(x + 1)};
    uint32_t values[2] = {0, 0};
    for (int i = 0; i < 2; ++i) {
        const std::string_view p = parts[i];
        const auto [end, error] = std::from_chars(p.data(), p.data() + p.size(), values[i]);
        if (p.empty() || error != std::errc() || end != p.data() + p.size() || !is_gob_count(values[i]))
            return std::string("the block ") + (i == 0 ? "height" : "depth") + " '" + std::string(p) +
                   "' is not 1, 2, 4, 8, 16 or 32 (GOBs; give H or HxD)";
    }
    return Gobs{values[0], values[1]};
}

std::string text(const Gobs& gobs) {
    return std::to_string(gobs.height) + (gobs.depth > 1 ? "x" + std::to_string(gobs.depth) : "");
}

// texdec.h, "source layouts": the library's own formula (src/common/block_linear_address.h).
uint64_t Surface::offset(uint64_t bx, uint64_t by, uint64_t bz) const {
    const uint32_t h = uint32_t(std::countr_zero(gobs.height)), d = uint32_t(std::countr_zero(gobs.depth));
    const uint64_t row_bytes = row_blocks * bytes_per_block;
    return texdec::block_linear::block_offset(bx * bytes_per_block, by, bz, h, d,
                                              texdec::block_linear::gob_row_bytes(row_bytes, h, d),
                                              texdec::block_linear::gob_slice_bytes(row_bytes, rows, h, d));
}

uint64_t Surface::size() const {
    const uint32_t h = uint32_t(std::countr_zero(gobs.height)), d = uint32_t(std::countr_zero(gobs.depth));
    return div_up(slices, gobs.depth) * texdec::block_linear::gob_slice_bytes(row_blocks * bytes_per_block, rows, h, d);
}

Surface surface_of(texdec_format format, uint32_t width, uint32_t height, uint32_t depth, const Gobs& gobs) {
    texdec_format_info info{};
    texdec_format_get_info(format, &info);
    Surface s;
    s.row_blocks = div_up(width, info.block_width);
    s.rows = div_up(height, info.block_height);
    s.slices = div_up(depth, info.block_depth);
    s.bytes_per_block = info.bytes_per_block;
    s.gobs = gobs;
    return s;
}

std::vector<uint8_t> swizzle(std::span<const uint8_t> linear, const Surface& s) {
    std::vector<uint8_t> out(size_t(s.size()), 0);
    const uint8_t* block = linear.data();
    for (uint64_t z = 0; z < s.slices; ++z)
        for (uint64_t y = 0; y < s.rows; ++y)
            for (uint64_t x = 0; x < s.row_blocks; ++x, block += s.bytes_per_block)
                std::memcpy(&out[size_t(s.offset(x, y, z))], block, s.bytes_per_block);
    return out;
}

bool deswizzle(std::span<const uint8_t> source, const Surface& s, std::vector<uint8_t>& linear) {
    linear.assign(size_t(s.row_blocks * s.rows * s.slices * s.bytes_per_block), 0);
    uint8_t* block = linear.data();
    for (uint64_t z = 0; z < s.slices; ++z)
        for (uint64_t y = 0; y < s.rows; ++y)
            for (uint64_t x = 0; x < s.row_blocks; ++x, block += s.bytes_per_block) {
                const uint64_t at = s.offset(x, y, z);
                if (at + s.bytes_per_block > source.size()) {
                    linear.clear();
                    return false;
                }
                std::memcpy(block, &source[size_t(at)], s.bytes_per_block);
            }
    return true;
}

}  // namespace block_linear_layout

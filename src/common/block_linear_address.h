// The Tegra X1 block-linear address (include/texdec/texdec.h, "source layouts"; the Tegra X1
// Technical Reference Manual's "Block Linear" surfaces), written once for every C++ room: the
// library's job planning (src/plan.cpp) and CPU backend, and the tool's block-linear layout
// (src/cli/block_linear_layout.cpp: --block-linear, --verify, the bench's block-linear rows).
// Its GPU twin is texdec_src_block_word() in shaders/common/layout.glsl (in 32-bit words, from
// the GOB block that holds a chunk's first block); keep the two in step.
// Header-only, no dependency (src/common: every room may include it). No overflow checks: callers
// pass coordinates inside a surface whose size they checked.
#pragma once

#include <cstdint>

namespace texdec::block_linear {

// A block height or depth in GOBs that a source layout accepts: 1, 2, 4, 8, 16 or 32.
constexpr bool is_gob_count(uint32_t v) { return v >= 1 && v <= 32 && (v & (v - 1)) == 0; }

// The part of a block's address that depends on its byte column xb alone: GOB blocks of
// 2^column_shift bytes side by side (column_shift = 9 + log2 H + log2 D), and the x terms of the
// GOB swizzle (byte x of a 64-byte GOB row: (x / 32) * 256 + ((x % 32) / 16) * 32 + x % 16).
constexpr uint64_t gob_x_offset(uint64_t xb, uint32_t column_shift) {
    return ((xb >> 6) << column_shift) + ((xb & 32) << 3) + ((xb & 16) << 1) + (xb & 15);
}

// Bytes between rows of GOB blocks: ceil(row bytes / 64) GOB blocks of 512 * H * D bytes.
constexpr uint64_t gob_row_bytes(uint64_t row_bytes, uint32_t height_log2, uint32_t depth_log2) {
    return ((row_bytes + 63) / 64) << (9 + height_log2 + depth_log2);
}

// Bytes of one group of D block slices: ceil(rows / 8H) rows of GOB blocks.
constexpr uint64_t gob_slice_bytes(uint64_t row_bytes, uint64_t rows, uint32_t height_log2, uint32_t depth_log2) {
    return ((rows + (uint64_t(8) << height_log2) - 1) >> (3 + height_log2)) *
           gob_row_bytes(row_bytes, height_log2, depth_log2);
}

// Byte offset of the compressed block at byte column xb (= block x * bytes per block), row y and
// slice z of a surface whose rows of GOB blocks lie row_stride bytes apart and whose groups of D
// block slices (or layers) slice_stride bytes apart (gob_row_bytes / gob_slice_bytes, or a
// caller's layer stride).
constexpr uint64_t block_offset(uint64_t xb, uint64_t y, uint64_t z, uint32_t height_log2, uint32_t depth_log2,
                                uint64_t row_stride, uint64_t slice_stride) {
    const uint32_t h = height_log2, d = depth_log2;
    const uint64_t y_in_gob = (y % 8 / 2) * 64 + (y % 2) * 16;  // the GOB swizzle's y terms
    return (z >> d) * slice_stride + (y >> (3 + h)) * row_stride + ((z & ((uint64_t(1) << d) - 1)) << (9 + h)) +
           (((y >> 3) & ((uint64_t(1) << h) - 1)) << 9) + y_in_gob + gob_x_offset(xb, 9 + h + d);
}

}  // namespace texdec::block_linear

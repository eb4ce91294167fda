// Comparing decoded texels with an oracle, texel by texel, with tolerance 0, and checking that
// bytes outside the decoded texels were left alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../oracles/reference.h"
#include "bc_formats.h"

namespace texdec_test {

// Where the blocks are: like VkBufferImageCopy (row length / image height in texels, 0 = extent).
struct BlockLayout {
    uint32_t width = 0, height = 0, depth = 1;  // extent in texels
    uint32_t row_length = 0, image_height = 0;
    size_t offset = 0;                          // byte offset of the first block
    // Tightly packed blocks of a width x height x depth extent from offset 0.
    static BlockLayout of_extent(uint32_t width, uint32_t height, uint32_t depth = 1) {
        BlockLayout bl;
        bl.width = width, bl.height = height, bl.depth = depth;
        return bl;
    }
    uint32_t blocks_per_row() const { return ((row_length ? row_length : width) + 3) / 4; }
    uint32_t block_rows_per_slice() const { return ((image_height ? image_height : height) + 3) / 4; }
    // Bytes from the first byte of the buffer up to the end of the last block the extent needs.
    size_t required_bytes(uint32_t block_bytes) const;
    size_t block_offset(uint32_t bx, uint32_t by, uint32_t bz, uint32_t block_bytes) const {
        return offset + ((size_t(bz) * block_rows_per_slice() + by) * blocks_per_row() + bx) * block_bytes;
    }
};

// Where the texels are. 0 pitches = tight.
struct TexelLayout {
    size_t offset = 0;
    size_t row_pitch = 0, slice_pitch = 0;
};

struct ResolvedTexelLayout {
    size_t offset, row_pitch, slice_pitch;
    uint32_t texel_bytes;
    // Bytes from the start of the buffer to the end of the last texel.
    size_t end(uint32_t width, uint32_t height, uint32_t depth) const {
        return offset + (depth - 1) * slice_pitch + (height - 1) * row_pitch + size_t(width) * texel_bytes;
    }
};
ResolvedTexelLayout resolve(const TexelLayout& layout, uint32_t texel_bytes, uint32_t width, uint32_t height);

struct OutputUnderTest {
    texdec_output output;
    const uint8_t* texels;  // start of the buffer the layout refers to
    TexelLayout layout;
};

struct CompareResult {
    size_t blocks = 0;
    size_t texels_checked = 0;  // per output
    size_t mismatches = 0;      // texels that differ, over all outputs
    std::string first_mismatch;
};

// Decodes every block of the extent with `oracle` and compares every texel inside the extent,
// for every output in `outputs`, bytes masked to the channels the oracle vouches for.
CompareResult compare_with_oracle(const BcFormat& format, texdec_bc_rounding rounding, Oracle oracle,
                                  const uint8_t* blocks, const BlockLayout& block_layout,
                                  const std::vector<OutputUnderTest>& outputs);

// A deterministic, position-dependent canary byte: what untouched memory must still hold.
inline uint8_t canary_byte(size_t position) { return uint8_t(((position * 0x9E37u) >> 5) ^ 0x5A); }
void fill_canary(uint8_t* bytes, size_t size);

// The first byte outside the extent's texels that no longer holds its canary, or SIZE_MAX.
size_t first_clobbered_byte(const uint8_t* bytes, size_t size, const ResolvedTexelLayout& layout, uint32_t width,
                            uint32_t height, uint32_t depth);
// first_clobbered_byte's answer for a message: "none" or the byte's position.
inline std::string clobbered_text(size_t first_clobbered) {
    return first_clobbered == SIZE_MAX ? std::string("none") : std::to_string(first_clobbered);
}

// An FP16 NaN: exponent all ones, mantissa not zero.
inline bool is_half_nan(uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x03FF) != 0; }

// RGBA16F texels read back from a storage *image* against the expected bytes: equal, except that
// where an FP16 NaN is expected any FP16 NaN is accepted (the image store converts the shader's
// NaN to the driver's own bit pattern: docs/EXACTNESS.md "ASTC error colours"; lavapipe keeps
// 0xFFFF, NVIDIA's driver does not). Buffers must hold the exact bytes: compare them with memcmp.
inline bool image_half_texels_equal(const uint8_t* got, const uint8_t* want, size_t bytes) {
    for (size_t i = 0; i + 1 < bytes; i += 2) {
        const uint16_t g = uint16_t(got[i] | got[i + 1] << 8), w = uint16_t(want[i] | want[i + 1] << 8);
        if (g != w && !(is_half_nan(w) && is_half_nan(g))) return false;
    }
    return bytes % 2 == 0 || got[bytes - 1] == want[bytes - 1];
}

}  // namespace texdec_test

// REQUIREs a CompareResult with no mismatches and says what was compared.
#define TEXDEC_CHECK_MATCHES_ORACLE(result, what)                                                            \
    do {                                                                                                     \
        const auto& r_ = (result);                                                                           \
        INFO(what << ": " << r_.blocks << " blocks, " << r_.texels_checked << " texels per output, "           \
                  << r_.mismatches << " mismatching texels");                                                \
        INFO("first mismatch: " << r_.first_mismatch);                                                      \
        CHECK(r_.texels_checked > 0);                                                                        \
        CHECK(r_.mismatches == 0);                                                                           \
    } while (0)

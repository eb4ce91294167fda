// The common step of the oracle tests: decode a tight block image with every output type the
// format offers (one-call API, guard bytes after the destination), then compare all outputs
// with the primary oracle and, in IDEAL mode, libnvimage as a second oracle where it applies.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../gpu/gpu_fixture.h"
#include "bc_formats.h"

namespace texdec_test {

void decode_and_compare_all_outputs(OwnContext& ctx, const BcFormat& format, texdec_bc_rounding rounding,
                                    const std::vector<uint8_t>& blocks, uint32_t width, uint32_t height,
                                    const char* what);

// Pads `blocks` (whole blocks of `format`) to a multiple of `blocks_per_row` by repeating the
// first block; returns the extent in texels of the resulting blocks_per_row-wide image.
void pad_to_rows(const BcFormat& format, std::vector<uint8_t>& blocks, uint32_t blocks_per_row, uint32_t* width,
                 uint32_t* height);

// The count of differing channels of the RGBA8-oracle tests (BC7 vs lavapipe, ETC2 vs Mesa) and
// the first of them: "<output> texel (x,y) channel c: texdec <ours> <oracle> <theirs>; block <hex>".
struct Mismatch {
    size_t count = 0;
    std::string first;
    void add(const char* output, size_t texel, uint32_t width, uint32_t channel, double ours, const char* oracle,
             double theirs, const std::vector<uint8_t>& blocks, size_t block_bytes);
};

// Decodes `blocks` (width x height texels, `block_bytes` per 4x4 block) as `format` with texdec to
// RGBA8, RGBA16F and, when `with_native_output`, NATIVE, and compares with `oracle` (4 values per
// texel, 0..255; a negative value is a channel the oracle does not vouch for, not compared):
// RGBA8 byte for byte, RGBA16F bit for bit with half_from_unorm8 of it, NATIVE with RGBA8.
void compare_rgba8_outputs(OwnContext& ctx, texdec_format format, const std::vector<uint8_t>& blocks,
                           size_t block_bytes, uint32_t width, uint32_t height, const std::vector<int>& oracle,
                           const char* oracle_name, bool with_native_output, Mismatch& m);

}  // namespace texdec_test

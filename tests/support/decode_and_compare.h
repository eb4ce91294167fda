// The common step of the oracle tests: decode a tight block image with every output type the
// format offers (one-call API, guard bytes after the destination), then compare all outputs
// with the primary oracle and, in IDEAL mode, libnvimage as a second oracle where it applies.
#pragma once

#include <cstdint>
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

}  // namespace texdec_test

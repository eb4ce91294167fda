// The bench's BC7 and BC6H block encoders: a small deterministic multi-mode encoder, so that the
// "real" blocks mix modes as real files do (docs/PERFORMANCE.md gives the mode histogram of the
// default image). Per block every mode is tried with bounding-box endpoints (per subset, on the
// partition shape whose subsets are most compact) and nearest-weight indices, and the mode with the
// least squared error is kept. Not a quality encoder; nothing else uses it.
#pragma once

#include <cstdint>

namespace bench {

// BC7: 16 texels (x + 4 * y) of RGBA8. Writes the block, returns its mode (0..7); `decoded`
// (optional) receives the texels the block decodes to.
int encode_bc7_block(const int texels[16][4], uint8_t out[16], int decoded[16][4] = nullptr);

// BC6H: 16 texels of RGB in 0..255, taken as the unquantized endpoint domain scaled to 0..65535
// (ufloat) or 0..32767 (sfloat, non-negative values only): plausible blocks for a benchmark, not
// an HDR encoder. Writes the block, returns its mode number (0, 1, 2, 3, 6, 7, ..., 30: the spec's
// numbers); `decoded` (optional) receives the 16-bit values before the final scaling (x 31/64, or
// x 31/32 for sfloat), as the spec's decoder computes them.
int encode_bc6h_block(const int texels[16][3], bool is_signed, uint8_t out[16], int decoded[16][3] = nullptr);

}  // namespace bench

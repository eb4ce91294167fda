// IDEAL-mode oracle: libsquish 1.15 (libsquish-dev), squish::Decompress.
// DXT1/3/5 (BC1/BC2/BC3) only: its kBc4/kBc5 flags silently decode as DXT1 in 1.15, so they are
// never used. squish decodes BC2/BC3 colour as 4-colour always (correct, unlike nvtt 2.0.8).
#pragma once

#include <cstdint>

namespace texdec_test::squish_oracle {

// 16 texels (row-major 4x4) as R, G, B, A bytes.
void decode_bc1(const uint8_t block[8], uint8_t rgba[64]);   // 3-colour code 3 -> (0, 0, 0, 0)
void decode_bc2(const uint8_t block[16], uint8_t rgba[64]);
void decode_bc3(const uint8_t block[16], uint8_t rgba[64]);

}  // namespace texdec_test::squish_oracle

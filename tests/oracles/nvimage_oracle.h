// IDEAL-mode oracle: the block decoders of libnvimage (NVIDIA Texture Tools 2.0.8, libnvtt-dev).
// Only the compressor API has a public header; the block classes are exported from
// libnvimage.so but undeclared, so nvimage_oracle.cpp declares them itself (see there).
//
// Known fault (docs/EXACTNESS.md): nvtt 2.0.8 decodes BC2/BC3 colour with c0 <= c1 as BC1's 3-colour
// mode, although the spec says BC2/BC3 colour is always 4-colour. Use squish for that case.
#pragma once

#include <cstdint>

namespace texdec_test::nvimage {

// Each writes 16 texels (row-major 4x4) as R, G, B, A bytes.
void decode_dxt1(const uint8_t block[8], uint8_t rgba[64]);   // BC1 (code 3 of 3-colour: 0,0,0,0)
void decode_dxt3(const uint8_t block[16], uint8_t rgba[64]);  // BC2
void decode_dxt5(const uint8_t block[16], uint8_t rgba[64]);  // BC3
void decode_ati1(const uint8_t block[8], uint8_t red[16]);    // BC4 unsigned
void decode_ati2(const uint8_t block[16], uint8_t red[16], uint8_t green[16]);  // BC5 unsigned

}  // namespace texdec_test::nvimage

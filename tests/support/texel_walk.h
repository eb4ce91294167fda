// Walking the channels of a decoded stack of slices, for the record-path tests that compare a
// destination (buffer or image readback, with row and slice pitches) with expected values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace texdec_test {

// Decoded RGBA8 (4 bytes a texel) or RGBA16F (`half`: 8 bytes, a channel's 16 bits) texels at
// `base`, rows `row_pitch` and slices `slice_pitch` bytes apart.
struct SliceTexels {
    const uint8_t* base;
    size_t row_pitch, slice_pitch;
    bool half;
    // Channel c of texel (x, y) of slice z: the byte, or the 16 bits of the half.
    uint32_t channel(uint32_t x, uint32_t y, uint32_t z, uint32_t c) const {
        const uint8_t* texel = base + z * slice_pitch + y * row_pitch + size_t(x) * (half ? 8 : 4);
        if (!half) return texel[c];
        uint16_t v;
        std::memcpy(&v, texel + 2 * c, 2);
        return v;
    }
};

// Calls visit(x, y, z, c) for every channel of w x h x d texels, slice by slice, row by row.
template <class Visit>
void for_each_channel(uint32_t w, uint32_t h, uint32_t d, Visit visit) {
    for (uint32_t z = 0; z < d; ++z)
        for (uint32_t y = 0; y < h; ++y)
            for (uint32_t x = 0; x < w; ++x)
                for (uint32_t c = 0; c < 4; ++c) visit(x, y, z, c);
}

}  // namespace texdec_test

// The device's own BC decode (lavapipe's, on machines without a GPU): a VkImage of the BC
// VkFormat (OPTIMAL tiling), vkCmdCopyBufferToImage of the raw blocks, and a compute shader that
// texelFetches every texel into a vec4 storage buffer (tests/shaders/native_fetch.comp), and
// stores the same vec4 into RGBA8 UNORM and SNORM storage images (the device's conversion).
// docs/EXACTNESS.md: lavapipe's BC1-5 decode is an approximation (up to 2 LSB off), so it is only a
// +-2 sanity check, independent of both rounding modes.
#pragma once

#include <cstdint>
#include <vector>

#include "../gpu/gpu_fixture.h"
#include "../support/bc_formats.h"

namespace texdec_test {

// The fetched texels as the device converted them to 8 bits (imageStore into an RGBA8 UNORM and
// an RGBA8 SNORM image, read back with a copy): 4 bytes per texel, row-major.
struct NativeBytes {
    std::vector<uint8_t> unorm8;
    std::vector<int8_t> snorm8;
};

// Decodes width x height texels (block multiples not required) of tightly packed blocks.
// sRGB formats are fetched through the UNORM view of a MUTABLE_FORMAT image, so the values stay
// sRGB-encoded (as texdec's outputs do). Returns RGBA floats, row-major; `bytes`, when given,
// receives the device's 8-bit conversions of the same values.
std::vector<float> native_decode(VulkanTestDevice& device, const BcFormat& format, const uint8_t* blocks,
                                 uint32_t width, uint32_t height, NativeBytes* bytes = nullptr);

// The half bits of a float the native decode returned for an FP16 format (BC6H), which must be
// exactly representable (REQUIREd). Keeps -0 and +-Inf.
uint16_t exact_half_bits(float f);

}  // namespace texdec_test

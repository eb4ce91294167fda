// Output files of astc-gpu-decode: PNG (8-bit via stb_image_write; 16-bit via libpng), OpenEXR
// (half floats, via Debian's libtinyexr), Radiance .hdr (stb_image_write) and raw texels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include <vulkan/vulkan_core.h>

namespace image_write {

// Decoded texels as texdec_decode wrote them: tightly packed, x fastest, then y, then slices,
// little-endian, in `format` (what texdec_output_vk_format answered for the job).
struct DecodedImage {
    std::span<const uint8_t> texels;
    uint32_t width, height, depth;
    VkFormat format;
};

struct WriteResult {
    bool ok;
    std::string message;  // why it failed (names the file and the cause)
};

// Writes a PNG. Slices of a 3D image are stacked top to bottom (height * depth rows).
// Conversion by texel format:
//   RGBA8 (UNORM/SRGB)   8-bit RGBA as is (sRGB bytes stay encoded, which is what PNG expects)
//   R8                   8-bit grey
//   RG8                  8-bit RGB with blue = 0
//   R16 (NATIVE EAC R11)       16-bit grey, the UNORM16 value as is
//   RG16 (NATIVE EAC RG11)     16-bit RGB with blue = 0
//   RGBA16F              8-bit RGBA, each channel clamped to [0, 1] and scaled to 255
//   SNORM (and RGBA16F of a signed format, colour channels only): [-1, 1] mapped to [0, 255]
//     (8-bit: -1 -> 0, 0 -> 128, +1 -> 255) or [0, 65535] (16-bit: -1 -> 0, 0 -> 32768,
//     +1 -> 65535, i.e. (max(v, -32767) + 32767) * 65535 / 65534 rounded); the most negative
//     code acts as -1.
WriteResult write_png(const std::string& path, const DecodedImage& image, bool signed_values);

// Writes an OpenEXR file with four HALF channels R, G, B, A holding the RGBA16F texels bit for bit
// (no conversion: -0, subnormals, Inf and the NaN error colour stay as decoded). Scanlines, ZIP
// compression (lossless). Slices of a 3D image are stacked top to bottom, as for PNG.
// `image.format` must be VK_FORMAT_R16G16B16A16_SFLOAT.
WriteResult write_exr(const std::string& path, const DecodedImage& image);

// Writes a Radiance RGBE (.hdr) file through stb_image_write's stbi_write_hdr: three float
// channels R, G, B made from the RGBA16F texels (alpha is dropped; each half becomes the float of
// the same value). RGBE stores an 8-bit mantissa per channel with a shared exponent, so values keep
// about 2 to 3 significant digits, and it cannot hold negative values, NaN or infinity: negative
// values and NaN (the error colour) are written as 0, +infinity as 65504 (the largest finite half).
// Slices of a 3D image are stacked top to bottom, as for PNG. `image.format` must be
// VK_FORMAT_R16G16B16A16_SFLOAT.
WriteResult write_hdr(const std::string& path, const DecodedImage& image);

// Writes the texels unchanged (the raw layout above).
WriteResult write_raw(const std::string& path, std::span<const uint8_t> bytes);

// Whether write_png knows how to convert this texel format.
bool png_supports(VkFormat format);

}  // namespace image_write

// Output files of astc-gpu-decode: PNG (8- and 16-bit via libpng), Truevision
// TGA (8-bit), OpenEXR (half floats, via Debian's libtinyexr), Radiance .hdr (stb_image_write),
// uncompressed KTX 2.0 (every level, layer, face and slice) and raw texels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <vulkan/vulkan_core.h>

namespace image_write {

// Decoded texels as texdec_decode wrote them: tightly packed, x fastest, then y, then slices,
// little-endian, in `format` (what texdec_output_vk_format answered for the job).
struct DecodedImage {
    std::span<const uint8_t> texels;
    uint32_t width, height, depth;
    VkFormat format;
};

// Every writer below writes through safe_output::write_file (atomic replace; see safe_output.h).
struct WriteResult {
    bool ok;
    std::string message;         // why it failed (names the file and the cause)
    bool same_as_input = false;  // refused: the output is one of the inputs (a usage error)
    // Wall clock of the steps (0 where a writer has no such step): making the file's bytes in
    // memory (PNG: conversion, filtering and compression; TGA: conversion; EXR: planes and ZIP
    // compression; .hdr: float conversion and RGBE encoding; KTX 2: header, index and DFD; .raw:
    // none), writing them to the temporary file, and fsync + close + rename (safe_output).
    double encode_ms = 0, write_ms = 0, sync_ms = 0;
};

// How write_png compresses: threads, band height, zlib level (see png_parallel.h). Default: every
// hardware thread, bands and level chosen by png_parallel.
struct PngOptions {
    unsigned threads = 0;
    uint32_t band_rows = 0;
    int level = -1;
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
// The file is encoded by png_parallel (bands of rows filtered and deflated on several threads,
// one valid zlib stream), then written through safe_output.
WriteResult write_png(const std::string& path, const DecodedImage& image, bool signed_values,
                      const PngOptions& options = {});

// Writes an uncompressed Truevision TGA (type 3, 8-bit grey, for R8; type 2, 24-bit BGR or 32-bit
// BGRA with 8 alpha bits, otherwise), origin top-left (image descriptor bit 5), no RLE, with the
// TGA 2.0 footer. The texels become 8-bit pixels exactly as write_png's 8-bit path makes them
// (same table above; one shared conversion), and R16 / RG16 (which PNG keeps at 16 bits) are
// reduced to 8 bits by rounding: UNORM v -> (v * 255 + 32767) / 65535, SNORM v ->
// ((max(v, -32767) + 32767) * 255 + 32767) / 65534 (-1 -> 0, 0 -> 128, +1 -> 255), in integers.
// Slices of a 3D image are stacked top to bottom, as for PNG. TGA extents are 16-bit: width and
// height * depth must be at most 65535. Formats other than those listed for PNG are refused.
WriteResult write_tga(const std::string& path, const DecodedImage& image, bool signed_values);

// An uncompressed texture for write_ktx2. `format` is one of the texel formats texdec outputs
// (texdec_output_vk_format): R8G8B8A8_UNORM / _SRGB, R16G16B16A16_SFLOAT, R8_UNORM / _SNORM,
// R8G8_UNORM / _SNORM, R16_UNORM / _SNORM, R16G16_UNORM / _SNORM.
struct Ktx2Texture {
    VkFormat format;
    uint32_t width, height;  // level 0, both >= 1
    uint32_t depth;          // 0: 2D (arrays and cube maps too); >= 1: 3D
    uint32_t layer_count;    // 0: not an array; >= 1: array layers
    uint32_t face_count;     // 1, or 6 for a cube map (square, depth 0): +X, -X, +Y, -Y, +Z, -Z
    // Level 0 first; level i has extent max(1, extent >> i). Each holds, for each layer, for each
    // face, its z slices (one for 2D), each slice rows top to bottom of tightly packed texels
    // (texdec_decode's layout), and must be exactly that many bytes.
    std::vector<std::span<const uint8_t>> levels;
};

// Writes a KTX 2.0 file (Khronos KTX File Format Specification 2.0) holding `texture` unchanged:
// vkFormat = texture.format, typeSize = the component size (1 or 2), no supercompression, every
// level (stored smallest first, each at a multiple of lcm(texel size, 4)), layer, face and slice;
// a Khronos basic Data Format Descriptor (model RGBSDA, primaries BT.709, transfer sRGB for
// R8G8B8A8_SRGB with its alpha sample LINEAR, otherwise linear; one sample per channel;
// sampleLower/Upper 0/2^n-1 for UNORM, -(2^(n-1)-1)/2^(n-1)-1 for SNORM, -1.0f/1.0f for SFLOAT);
// key/value data KTXorientation "rd" ("rdi" for 3D: the first texel is the top-left of slice 0)
// and KTXwriter "astc-gpu-decode <texdec version>". Refuses (clear message, nothing written) other
// formats, inconsistent extents and level sizes that differ from what the extents need.
WriteResult write_ktx2(const std::string& path, const Ktx2Texture& texture);

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

// Whether write_png (and write_tga) know how to convert this texel format.
bool png_supports(VkFormat format);

// Whether write_ktx2 can describe this texel format.
bool ktx2_supports(VkFormat format);

}  // namespace image_write

#include "image_write.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

// stb_image_write is a single-header library (Debian's libstb-dev); this is its one
// implementation unit. Its code is not ours to warn about.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO  // files are written below, so errors can name errno
#include <stb_image_write.h>
#pragma GCC diagnostic pop

#include <tinyexr.h>  // Debian's libtinyexr-dev: declarations only, the code is in libtinyexr.so

namespace image_write {
namespace {

// How a texel format becomes PNG pixels.
struct PngLayout {
    int source_channels;    // channels stored per texel
    int bytes_per_channel;  // 1, 2 (16-bit integer) or 2 (half float, see is_half)
    bool is_signed;         // SNORM storage
    bool is_half;           // RGBA16F
    int png_channels;       // 1 grey, 3 RGB, 4 RGBA
};

bool layout_for(VkFormat format, PngLayout& out) {
    switch (format) {
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_SRGB: out = {4, 1, false, false, 4}; return true;
    case VK_FORMAT_R8_UNORM: out = {1, 1, false, false, 1}; return true;
    case VK_FORMAT_R8_SNORM: out = {1, 1, true, false, 1}; return true;
    case VK_FORMAT_R8G8_UNORM: out = {2, 1, false, false, 3}; return true;
    case VK_FORMAT_R8G8_SNORM: out = {2, 1, true, false, 3}; return true;
    case VK_FORMAT_R16_UNORM: out = {1, 2, false, false, 1}; return true;
    case VK_FORMAT_R16_SNORM: out = {1, 2, true, false, 1}; return true;
    case VK_FORMAT_R16G16_UNORM: out = {2, 2, false, false, 3}; return true;
    case VK_FORMAT_R16G16_SNORM: out = {2, 2, true, false, 3}; return true;
    case VK_FORMAT_R16G16B16A16_SFLOAT: out = {4, 2, false, true, 4}; return true;
    default: return false;
    }
}

uint16_t read_u16_le(const uint8_t* p) { return uint16_t(p[0] | p[1] << 8); }

float half_to_float(uint16_t h) {
    const int sign = h >> 15 ? -1 : 1;
    const int exponent = (h >> 10) & 0x1F;
    const int mantissa = h & 0x3FF;
    if (exponent == 0) return sign * std::ldexp(float(mantissa), -24);  // zero, subnormal
    if (exponent == 31) return mantissa ? NAN : sign * INFINITY;
    return sign * std::ldexp(float(mantissa | 0x400), exponent - 25);
}

// [0, 1] -> [0, 255], rounded; NaN -> 0.
uint8_t unit_to_byte(float v) {
    if (!(v > 0.0f)) return 0;
    return v >= 1.0f ? 255 : uint8_t(std::lround(v * 255.0f));
}

// SNORM -> [0, 255]: -1 -> 0, 0 -> 128, +1 -> 255 (the most negative code acts as -1).
uint8_t snorm8_to_byte(int8_t v) { return uint8_t(((std::max<int>(v, -127) + 127) * 255 + 127) / 254); }
uint8_t snorm16_to_byte(int16_t v) {
    return uint8_t(((std::max<int>(v, -32767) + 32767) * 255 + 32767) / 65534);
}
uint8_t unorm16_to_byte(uint16_t v) { return uint8_t((uint32_t(v) * 255 + 32767) / 65535); }

// One channel of one texel as a PNG byte. `colour` is false for alpha (never sign-mapped).
uint8_t channel_to_byte(const uint8_t* p, const PngLayout& layout, bool signed_values, bool colour) {
    if (layout.is_half) {
        const float v = half_to_float(read_u16_le(p));
        return unit_to_byte(signed_values && colour ? (v + 1.0f) * 0.5f : v);
    }
    if (layout.bytes_per_channel == 1) return layout.is_signed ? snorm8_to_byte(int8_t(p[0])) : p[0];
    const uint16_t v = read_u16_le(p);
    return layout.is_signed ? snorm16_to_byte(int16_t(v)) : unorm16_to_byte(v);
}

std::vector<uint8_t> to_png_pixels(const DecodedImage& image, size_t texel_count, const PngLayout& layout,
                                   bool signed_values) {
    const size_t texel_bytes = size_t(layout.source_channels) * layout.bytes_per_channel;
    std::vector<uint8_t> pixels(texel_count * layout.png_channels, 0);  // RG -> RGB leaves blue 0
    for (size_t t = 0; t < texel_count; ++t) {
        const uint8_t* src = image.texels.data() + t * texel_bytes;
        uint8_t* dst = pixels.data() + t * layout.png_channels;
        for (int c = 0; c < layout.source_channels; ++c)
            dst[c] = channel_to_byte(src + c * layout.bytes_per_channel, layout, signed_values, c < 3);
    }
    return pixels;
}

void append_bytes(void* context, void* data, int size) {
    auto* out = static_cast<std::vector<uint8_t>*>(context);
    const auto* bytes = static_cast<const uint8_t*>(data);
    out->insert(out->end(), bytes, bytes + size);
}

WriteResult write_file(const std::string& path, const uint8_t* data, size_t size) {
    FILE* file = std::fopen(path.c_str(), "wb");
    if (!file) return {false, "cannot open '" + path + "' for writing: " + std::strerror(errno)};
    const size_t written = std::fwrite(data, 1, size, file);
    const int write_errno = errno;
    const bool closed = std::fclose(file) == 0;
    if (written != size || !closed) {
        std::error_code ignored;  // no half-written output left behind (but never remove a device or pipe)
        if (std::filesystem::is_regular_file(std::filesystem::symlink_status(path, ignored))) std::remove(path.c_str());
        return {false, "cannot write '" + path + "': " + std::strerror(written != size ? write_errno : errno)};
    }
    return {true, {}};
}

}  // namespace

bool png_supports(VkFormat format) {
    PngLayout layout;
    return layout_for(format, layout);
}

WriteResult write_png(const std::string& path, const DecodedImage& image, bool signed_values) {
    PngLayout layout;
    if (!layout_for(image.format, layout))
        return {false, "cannot write VkFormat " + std::to_string(int(image.format)) + " as PNG; use a .raw output"};
    // stb_image_write works in int: rows, row bytes and the filtered image size must fit.
    const uint64_t rows = uint64_t(image.height) * image.depth;
    const uint64_t row_bytes = uint64_t(image.width) * layout.png_channels;
    if (rows > INT_MAX || (row_bytes + 1) * rows > INT_MAX)
        return {false, "image is too large for the PNG writer (about 2 GiB of pixels at most); use a .raw output"};
    const size_t texel_count = size_t(image.width) * rows;
    if (image.texels.size() < texel_count * layout.source_channels * layout.bytes_per_channel)
        return {false, "internal error: fewer decoded bytes than the image needs"};

    const std::vector<uint8_t> pixels = to_png_pixels(image, texel_count, layout, signed_values);
    std::vector<uint8_t> png;
    if (!stbi_write_png_to_func(append_bytes, &png, int(image.width), int(rows), layout.png_channels,
                                pixels.data(), int(row_bytes)))
        return {false, "PNG encoding failed (stb_image_write) for '" + path + "'"};
    return write_file(path, png.data(), png.size());
}

WriteResult write_exr(const std::string& path, const DecodedImage& image) {
    if (image.format != VK_FORMAT_R16G16B16A16_SFLOAT)
        return {false, "cannot write VkFormat " + std::to_string(int(image.format)) +
                           " as EXR (it takes RGBA16F texels); use --output rgba16f"};
    // tinyexr takes int extents and builds the whole file in memory.
    const uint64_t rows = uint64_t(image.height) * image.depth;
    const uint64_t texel_count = uint64_t(image.width) * rows;
    if (image.width > INT_MAX || rows > INT_MAX || texel_count > (uint64_t(1) << 31))
        return {false, "image is too large for the EXR writer (2^31 texels at most); use a .raw output"};
    if (image.texels.size() < texel_count * 8)
        return {false, "internal error: fewer decoded bytes than the image needs"};

    // EXR stores channels planar and its channel list sorted by name: A, B, G, R. tinyexr passes
    // HALF input to HALF output unchanged, so the file holds the decoder's bit patterns.
    static constexpr const char* kNames[4] = {"A", "B", "G", "R"};
    static constexpr int kSourceChannel[4] = {3, 2, 1, 0};
    std::vector<std::vector<uint16_t>> planes(4, std::vector<uint16_t>(size_t(texel_count)));
    for (size_t t = 0; t < texel_count; ++t)
        for (int c = 0; c < 4; ++c)
            planes[c][t] = read_u16_le(image.texels.data() + t * 8 + kSourceChannel[c] * 2);
    unsigned char* plane_pointers[4];
    EXRChannelInfo channels[4]{};
    int pixel_types[4], stored_types[4];
    for (int c = 0; c < 4; ++c) {
        plane_pointers[c] = reinterpret_cast<unsigned char*>(planes[c].data());
        std::snprintf(channels[c].name, sizeof channels[c].name, "%s", kNames[c]);
        channels[c].pixel_type = TINYEXR_PIXELTYPE_HALF;
        pixel_types[c] = stored_types[c] = TINYEXR_PIXELTYPE_HALF;
    }
    EXRHeader header;
    InitEXRHeader(&header);
    header.num_channels = 4;
    header.channels = channels;
    header.pixel_types = pixel_types;
    header.requested_pixel_types = stored_types;
    header.compression_type = TINYEXR_COMPRESSIONTYPE_ZIP;
    EXRImage exr;
    InitEXRImage(&exr);
    exr.num_channels = 4;
    exr.width = int(image.width);
    exr.height = int(rows);
    exr.images = plane_pointers;

    unsigned char* memory = nullptr;
    const char* error = nullptr;
    const size_t size = SaveEXRImageToMemory(&exr, &header, &memory, &error);
    if (size == 0) {
        std::string message = "EXR encoding failed (tinyexr) for '" + path + "'";
        if (error) message += std::string(": ") + error;
        FreeEXRErrorMessage(error);
        std::free(memory);
        return {false, message};
    }
    WriteResult result = write_file(path, memory, size);
    std::free(memory);  // tinyexr allocates the file with malloc
    return result;
}

WriteResult write_raw(const std::string& path, std::span<const uint8_t> bytes) {
    return write_file(path, bytes.data(), bytes.size());
}

}  // namespace image_write

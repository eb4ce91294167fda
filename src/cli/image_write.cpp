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
// Not STBI_WRITE_NO_STDIO: this stb version compiles its HDR writer only with stdio. Files are
// still written below (the *_to_func variants), so errors can name errno.
#include <stb_image_write.h>
#pragma GCC diagnostic pop

#include <tinyexr.h>  // Debian's libtinyexr-dev: declarations only, the code is in libtinyexr.so

#include <png.h>  // Debian's libpng-dev (libpng 1.6): 16-bit PNG, which stb_image_write cannot write

namespace image_write {
namespace {

// How a texel format becomes PNG pixels.
struct PngLayout {
    int source_channels;    // channels stored per texel
    int bytes_per_channel;  // 1, 2 (16-bit integer) or 2 (half float, see is_half)
    bool is_signed;         // SNORM storage
    bool is_half;           // RGBA16F
    int png_channels;       // 1 grey, 3 RGB, 4 RGBA
    bool png16 = false;     // written as a 16-bit PNG (libpng): R16 / RG16 (NATIVE EAC)
};

bool layout_for(VkFormat format, PngLayout& out) {
    switch (format) {
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_SRGB: out = {4, 1, false, false, 4}; return true;
    case VK_FORMAT_R8_UNORM: out = {1, 1, false, false, 1}; return true;
    case VK_FORMAT_R8_SNORM: out = {1, 1, true, false, 1}; return true;
    case VK_FORMAT_R8G8_UNORM: out = {2, 1, false, false, 3}; return true;
    case VK_FORMAT_R8G8_SNORM: out = {2, 1, true, false, 3}; return true;
    case VK_FORMAT_R16_UNORM: out = {1, 2, false, false, 1, true}; return true;
    case VK_FORMAT_R16_SNORM: out = {1, 2, true, false, 1, true}; return true;
    case VK_FORMAT_R16G16_UNORM: out = {2, 2, false, false, 3, true}; return true;
    case VK_FORMAT_R16G16_SNORM: out = {2, 2, true, false, 3, true}; return true;
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
// The same mapping to 16 bits: -1 -> 0, 0 -> 32768, +1 -> 65535 (-32768 acts as -1).
uint16_t snorm16_to_u16(int16_t v) {
    return uint16_t(((std::max<int>(v, -32767) + 32767) * int64_t(65535) + 32767) / 65534);
}

// One channel of one texel as a PNG byte (8-bit and half channels; 16-bit integer channels go to
// the 16-bit writer). `colour` is false for alpha (never sign-mapped).
uint8_t channel_to_byte(const uint8_t* p, const PngLayout& layout, bool signed_values, bool colour) {
    if (layout.is_half) {
        const float v = half_to_float(read_u16_le(p));
        return unit_to_byte(signed_values && colour ? (v + 1.0f) * 0.5f : v);
    }
    return layout.is_signed ? snorm8_to_byte(int8_t(p[0])) : p[0];
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

// 16-bit PNG through libpng into memory. libpng reports errors by longjmp: the function that
// calls setjmp holds no C++ object with a destructor, and the write callback turns bad_alloc
// into png_error.
struct PngMemory {
    std::vector<uint8_t>* out;
    char error[200];
};

void png_append(png_structp png, png_bytep data, size_t size) {
    auto* memory = static_cast<PngMemory*>(png_get_io_ptr(png));
    try {
        memory->out->insert(memory->out->end(), data, data + size);
    } catch (const std::bad_alloc&) {
        png_error(png, "out of memory");
    }
}

void png_flush(png_structp) {}

[[noreturn]] void png_on_error(png_structp png, png_const_charp message) {
    auto* memory = static_cast<PngMemory*>(png_get_error_ptr(png));
    std::snprintf(memory->error, sizeof memory->error, "%s", message);
    png_longjmp(png, 1);
}

void png_on_warning(png_structp, png_const_charp) {}

// rows: big-endian 16-bit samples, `channels` per pixel (1 grey or 3 RGB), `row_bytes` apart.
bool encode_png16(PngMemory& memory, const uint8_t* rows, uint32_t width, uint32_t height, int channels,
                  size_t row_bytes) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &memory, png_on_error, png_on_warning);
    if (!png) {
        std::snprintf(memory.error, sizeof memory.error, "png_create_write_struct failed");
        return false;
    }
    png_infop info = png_create_info_struct(png);
    if (!info || setjmp(png_jmpbuf(png))) {
        if (!info) std::snprintf(memory.error, sizeof memory.error, "png_create_info_struct failed");
        png_destroy_write_struct(&png, info ? &info : nullptr);
        return false;
    }
    png_set_write_fn(png, &memory, png_append, png_flush);
    png_set_user_limits(png, 0x7FFFFFFF, 0x7FFFFFFF);  // the default limit is 10^6 pixels per side
    png_set_IHDR(png, info, width, height, 16, channels == 1 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; ++y) png_write_row(png, rows + size_t(y) * row_bytes);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return true;
}

WriteResult write_png16(const std::string& path, const DecodedImage& image, const PngLayout& layout,
                        size_t texel_count, uint64_t rows) {
    // libpng takes 32-bit extents (and refuses rows above 2^31 - 1 by default, as PNG does).
    if (image.width > 0x7FFFFFFF || rows > 0x7FFFFFFF)
        return {false, "image is too large for the PNG writer; use a .raw output"};
    const size_t row_bytes = size_t(image.width) * layout.png_channels * 2;
    std::vector<uint8_t> pixels(texel_count * layout.png_channels * 2, 0);  // RG -> RGB leaves blue 0
    for (size_t t = 0; t < texel_count; ++t)
        for (int c = 0; c < layout.source_channels; ++c) {
            const uint16_t raw = read_u16_le(image.texels.data() + (t * layout.source_channels + c) * 2);
            const uint16_t v = layout.is_signed ? snorm16_to_u16(int16_t(raw)) : raw;
            uint8_t* dst = &pixels[(t * layout.png_channels + c) * 2];
            dst[0] = uint8_t(v >> 8);  // PNG samples are big-endian
            dst[1] = uint8_t(v);
        }
    std::vector<uint8_t> png;
    PngMemory memory{&png, {}};
    if (!encode_png16(memory, pixels.data(), image.width, uint32_t(rows), layout.png_channels, row_bytes))
        return {false, "PNG encoding failed (libpng) for '" + path + "': " + memory.error};
    return write_file(path, png.data(), png.size());
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
    if (layout.png16) return write_png16(path, image, layout, texel_count, rows);

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

namespace {
// What an .hdr file can hold of one half-float channel (see image_write.h).
float hdr_channel_value(uint16_t half_bits) {
    const float v = half_to_float(half_bits);
    if (!(v > 0.0f)) return 0.0f;  // negative, -0, NaN: RGBE has no sign and no NaN
    return std::isinf(v) ? 65504.0f : v;
}
}  // namespace

WriteResult write_hdr(const std::string& path, const DecodedImage& image) {
    if (image.format != VK_FORMAT_R16G16B16A16_SFLOAT)
        return {false, "cannot write VkFormat " + std::to_string(int(image.format)) +
                           " as .hdr (it takes RGBA16F texels); use --output rgba16f"};
    const uint64_t rows = uint64_t(image.height) * image.depth;
    const uint64_t texel_count = uint64_t(image.width) * rows;
    if (image.width > INT_MAX || rows > INT_MAX || texel_count > (uint64_t(1) << 31))
        return {false, "image is too large for the .hdr writer (2^31 texels at most); use a .raw output"};
    if (image.texels.size() < texel_count * 8)
        return {false, "internal error: fewer decoded bytes than the image needs"};
    std::vector<float> rgb(size_t(texel_count) * 3);
    for (size_t t = 0; t < texel_count; ++t)
        for (int c = 0; c < 3; ++c) rgb[t * 3 + c] = hdr_channel_value(read_u16_le(image.texels.data() + t * 8 + c * 2));
    std::vector<uint8_t> bytes;
    const auto append = [](void* context, void* data, int size) {
        auto* out = static_cast<std::vector<uint8_t>*>(context);
        out->insert(out->end(), static_cast<uint8_t*>(data), static_cast<uint8_t*>(data) + size);
    };
    if (!stbi_write_hdr_to_func(append, &bytes, int(image.width), int(rows), 3, rgb.data()))
        return {false, ".hdr encoding failed (stb_image_write) for '" + path + "'"};
    return write_file(path, bytes.data(), bytes.size());
}

WriteResult write_raw(const std::string& path, std::span<const uint8_t> bytes) {
    return write_file(path, bytes.data(), bytes.size());
}

}  // namespace image_write

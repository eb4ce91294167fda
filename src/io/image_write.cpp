#include "image_write.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <numeric>
#include <optional>
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

#include <texdec/texdec.h>  // texdec_version: the KTX 2 writer names itself

#include "portable.h"
#include "png_parallel.h"  // every PNG (zlib, several threads)

#include "safe_output.h"

namespace image_write {
namespace {

// The value of FP16 bits, exactly: signed zeros, subnormals, infinities; one quiet NaN for every
// NaN pattern.
float half_to_float(uint16_t h) {
    const bool negative = h & 0x8000;
    const uint32_t exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
    if (exponent == 31) return mantissa ? NAN : negative ? -INFINITY : INFINITY;
    if (exponent == 0) {  // zero, subnormal: mantissa * 2^-24
        const float v = float(mantissa) * 0x1p-24f;
        return negative ? -v : v;
    }
    return std::bit_cast<float>((uint32_t(negative) << 31) | ((exponent + 112) << 23) | (mantissa << 13));
}

// How a texel format becomes image pixels: 8-bit for PNG and TGA, 16-bit for PNG's R16 / RG16.
struct PixelLayout {
    int source_channels;    // channels stored per texel
    int bytes_per_channel;  // 1, 2 (16-bit integer) or 2 (half float, see is_half)
    bool is_signed;         // SNORM storage
    bool is_half;           // RGBA16F
    int pixel_channels;     // 1 grey, 3 RGB, 4 RGBA
    bool png16 = false;     // written as a 16-bit PNG (libpng): R16 / RG16 (NATIVE EAC)
};

// Every format of texdec's texel table except B8G8R8A8 (the writers do not swap red and blue).
bool layout_for(VkFormat format, PixelLayout& out) {
    texdec_texel_format_info info{};
    if (texdec_texel_format_get_info(format, &info) != TEXDEC_SUCCESS || (info.flags & TEXDEC_TEXEL_FORMAT_BGRA))
        return false;
    const bool half = info.flags & TEXDEC_TEXEL_FORMAT_HALF;
    out = {int(info.channels),
           int(info.channel_bytes),
           bool(info.flags & TEXDEC_TEXEL_FORMAT_SIGNED),
           half,
           info.channels == 2 ? 3 : int(info.channels),
           info.channel_bytes == 2 && !half};
    return true;
}

uint16_t read_u16_le(const uint8_t* p) { return uint16_t(p[0] | p[1] << 8); }

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

// 16-bit channels reduced to 8 bits by rounding (TGA; PNG keeps them at 16 bits).
uint8_t unorm16_to_byte(uint16_t v) { return uint8_t((uint32_t(v) * 255 + 32767) / 65535); }
// SNORM16 -> [0, 255]: -1 -> 0, 0 -> 128, +1 -> 255 (-32768 acts as -1).
uint8_t snorm16_to_byte(int16_t v) { return uint8_t(((std::max<int>(v, -32767) + 32767) * 255 + 32767) / 65534); }

// One channel of one texel as an 8-bit pixel value. `colour` is false for alpha (never
// sign-mapped).
uint8_t channel_to_byte(const uint8_t* p, const PixelLayout& layout, bool signed_values, bool colour) {
    if (layout.is_half) {
        const float v = half_to_float(read_u16_le(p));
        return unit_to_byte(signed_values && colour ? (v + 1.0f) * 0.5f : v);
    }
    if (layout.bytes_per_channel == 2) {
        const uint16_t raw = read_u16_le(p);
        return layout.is_signed ? snorm16_to_byte(int16_t(raw)) : unorm16_to_byte(raw);
    }
    return layout.is_signed ? snorm8_to_byte(int8_t(p[0])) : p[0];
}

// The 8-bit pixels (grey, RGB or RGBA, in that channel order) of write_png and write_tga, for
// `count` texels from texel `first` on, into `dst` (count * pixel_channels bytes).
void convert_8bit(const DecodedImage& image, size_t first, size_t count, const PixelLayout& layout, bool signed_values,
                  uint8_t* dst) {
    const size_t texel_bytes = size_t(layout.source_channels) * layout.bytes_per_channel;
    const uint8_t* src = image.texels.data() + first * texel_bytes;
    if (layout.pixel_channels > layout.source_channels)  // RG -> RGB leaves blue 0
        std::memset(dst, 0, count * layout.pixel_channels);
    for (size_t t = 0; t < count; ++t, src += texel_bytes, dst += layout.pixel_channels)
        for (int c = 0; c < layout.source_channels; ++c)
            dst[c] = channel_to_byte(src + c * layout.bytes_per_channel, layout, signed_values, c < 3);
}

// The same as 16-bit big-endian samples (R16 / RG16 of write_png): UNORM as is, SNORM mapped.
void convert_16bit(const DecodedImage& image, size_t first, size_t count, const PixelLayout& layout, uint8_t* dst) {
    const uint8_t* src = image.texels.data() + first * layout.source_channels * 2;
    std::memset(dst, 0, count * layout.pixel_channels * 2);  // RG -> RGB leaves blue 0
    for (size_t t = 0; t < count; ++t, src += layout.source_channels * 2, dst += layout.pixel_channels * 2)
        for (int c = 0; c < layout.source_channels; ++c) {
            const uint16_t raw = read_u16_le(src + c * 2);
            const uint16_t v = layout.is_signed ? snorm16_to_u16(int16_t(raw)) : raw;
            dst[c * 2] = uint8_t(v >> 8);  // PNG samples are big-endian
            dst[c * 2 + 1] = uint8_t(v);
        }
}

std::vector<uint8_t> to_8bit_pixels(const DecodedImage& image, size_t texel_count, const PixelLayout& layout,
                                    bool signed_values) {
    std::vector<uint8_t> pixels(texel_count * layout.pixel_channels);
    convert_8bit(image, 0, texel_count, layout, signed_values, pixels.data());
    return pixels;
}

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// Writes the parts one after the other (so large texel data is not copied into one buffer),
// atomically: every writer ends here, in safe_output (temporary file, fsync, rename).
WriteResult write_file_parts(const std::string& path, std::span<const std::span<const uint8_t>> parts) {
    const safe_output::Result written = safe_output::write_file(path, parts);
    WriteResult result{written.ok, written.message, written.same_as_input};
    result.write_ms = written.write_ms;
    result.sync_ms = written.sync_ms;
    return result;
}

WriteResult write_file(const std::string& path, const uint8_t* data, size_t size) {
    const std::span<const uint8_t> whole(data, size);
    return write_file_parts(path, std::span(&whole, 1));
}

}  // namespace

bool png_supports(VkFormat format) {
    PixelLayout layout;
    return layout_for(format, layout);
}

WriteResult write_png(const std::string& path, const DecodedImage& image, bool signed_values,
                      const PngOptions& options) {
    PixelLayout layout;
    if (!layout_for(image.format, layout))
        return {false, "cannot write VkFormat " + std::to_string(int(image.format)) + " as PNG; use a .raw output"};
    // PNG takes 31-bit extents; the rows are kept whole in memory.
    const uint64_t rows = uint64_t(image.height) * image.depth;
    if (rows > INT_MAX || image.width > INT_MAX)
        return {false, "image is too large for the PNG writer; use a .raw output"};
    if (image.width == 0 || rows == 0) return {false, "internal error: an empty image cannot be written as PNG"};
    const size_t texel_count = size_t(image.width) * rows;
    if (image.texels.size() < texel_count * layout.source_channels * layout.bytes_per_channel)
        return {false, "internal error: fewer decoded bytes than the image needs"};

    const auto started = std::chrono::steady_clock::now();
    png_parallel::Image png;
    png.width = image.width;
    png.height = uint32_t(rows);
    png.channels = layout.pixel_channels;
    png.bit_depth = layout.png16 ? 16 : 8;
    png.row_bytes = size_t(image.width) * layout.pixel_channels * (layout.png16 ? 2 : 1);
    const size_t width = image.width;
    if (layout.png16) {
        png.convert = [&](uint32_t first, uint32_t count, uint8_t* out) {
            convert_16bit(image, first * width, count * width, layout, out);
        };
    } else if (layout.bytes_per_channel == 1 && !layout.is_signed && layout.pixel_channels == layout.source_channels) {
        png.rows = image.texels.data();  // RGBA8 and R8 UNORM: the texels are the PNG's samples
    } else {
        png.convert = [&](uint32_t first, uint32_t count, uint8_t* out) {
            convert_8bit(image, first * width, count * width, layout, signed_values, out);
        };
    }
    const png_parallel::Encoded encoded =
        png_parallel::encode(png, {options.threads, options.band_rows, options.level});
    if (!encoded.ok) return {false, "PNG encoding failed for '" + path + "': " + encoded.error};
    const double encode_ms = ms_since(started);
    std::vector<std::span<const uint8_t>> parts(encoded.pieces.begin(), encoded.pieces.end());
    WriteResult result = write_file_parts(path, parts);
    result.encode_ms = encode_ms;
    return result;
}

WriteResult write_tga(const std::string& path, const DecodedImage& image, bool signed_values) {
    PixelLayout layout;
    if (!layout_for(image.format, layout))
        return {false, "cannot write VkFormat " + std::to_string(int(image.format)) + " as TGA; use a .raw output"};
    const uint64_t rows = uint64_t(image.height) * image.depth;
    if (image.width == 0 || rows == 0) return {false, "internal error: an empty image cannot be written as TGA"};
    if (image.width > 0xFFFF || rows > 0xFFFF)
        return {false, "image is too large for TGA (65535 x 65535 pixels at most, slices stacked); use .png or .raw"};
    const size_t texel_count = size_t(image.width) * rows;
    if (image.texels.size() < texel_count * layout.source_channels * layout.bytes_per_channel)
        return {false, "internal error: fewer decoded bytes than the image needs"};

    const auto started = std::chrono::steady_clock::now();
    std::vector<uint8_t> pixels = to_8bit_pixels(image, texel_count, layout, signed_values);
    const int channels = layout.pixel_channels;
    if (channels >= 3)  // TGA true-colour pixels are stored B, G, R(, A)
        for (size_t t = 0; t < texel_count; ++t) std::swap(pixels[t * channels], pixels[t * channels + 2]);

    // Truevision TGA 2.0: 18-byte header, pixel data, 26-byte footer; little-endian fields.
    uint8_t header[18] = {};
    header[2] = channels == 1 ? 3 : 2;  // image type: 3 uncompressed black-and-white, 2 uncompressed true-colour
    header[12] = uint8_t(image.width);
    header[13] = uint8_t(image.width >> 8);
    header[14] = uint8_t(rows);
    header[15] = uint8_t(rows >> 8);
    header[16] = uint8_t(channels * 8);                  // pixel depth
    header[17] = uint8_t((channels == 4 ? 8 : 0) | 0x20);  // alpha bits; bit 5: first row is the top
    // No extension or developer area (offsets 0), then the signature "TRUEVISION-XFILE.\0".
    static constexpr uint8_t kFooter[26] = {0, 0, 0, 0, 0, 0, 0, 0, 'T', 'R', 'U', 'E', 'V', 'I', 'S', 'I', 'O',
                                            'N', '-', 'X', 'F', 'I', 'L', 'E', '.', 0};
    const std::span<const uint8_t> parts[3] = {header, pixels, kFooter};
    const double encode_ms = ms_since(started);
    WriteResult result = write_file_parts(path, parts);
    result.encode_ms = encode_ms;
    return result;
}

namespace {

// What the KTX 2 writer needs of a texel format (Khronos Data Format Specification: basic
// descriptor block, one sample per channel, channels in memory order R, G, B, A), from texdec's
// texel-format table: every row but B8G8R8A8 (the writers do not swap red and blue) and the
// A8B8G8R8 PACK32 formats (which KTX 2 prohibits: their R8G8B8A8 twins hold the same bytes).
struct Ktx2Format {
    uint32_t channels;
    uint32_t component_bytes;  // also the header's typeSize
    enum Kind { kUnorm, kSnorm, kSfloat } kind;
    bool srgb;
};

std::optional<Ktx2Format> ktx2_format(VkFormat format) {
    texdec_texel_format_info info{};
    if (texdec_texel_format_get_info(format, &info) != TEXDEC_SUCCESS || (info.flags & TEXDEC_TEXEL_FORMAT_BGRA) ||
        format == VK_FORMAT_A8B8G8R8_UNORM_PACK32 || format == VK_FORMAT_A8B8G8R8_SRGB_PACK32)
        return std::nullopt;
    const Ktx2Format::Kind kind = (info.flags & TEXDEC_TEXEL_FORMAT_HALF)     ? Ktx2Format::kSfloat
                                  : (info.flags & TEXDEC_TEXEL_FORMAT_SIGNED) ? Ktx2Format::kSnorm
                                                                              : Ktx2Format::kUnorm;
    return Ktx2Format{info.channels, info.channel_bytes, kind, bool(info.flags & TEXDEC_TEXEL_FORMAT_SRGB)};
}

void put_u32(std::vector<uint8_t>& out, uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(uint8_t(v >> (8 * i)));
}
void set_u64(std::vector<uint8_t>& out, size_t at, uint64_t v) {
    for (int i = 0; i < 8; ++i) out[at + i] = uint8_t(v >> (8 * i));
}

// The Data Format Descriptor: dfdTotalSize, then one Khronos basic descriptor block (KDFS
// "Khronos Basic Data Format Descriptor Block"; KTX 2 "Data Format Descriptor" restrictions).
void put_dfd(std::vector<uint8_t>& out, const Ktx2Format& f) {
    constexpr uint32_t kModelRgbsda = 1, kPrimariesBt709 = 1, kTransferLinear = 1, kTransferSrgb = 2;
    constexpr uint32_t kQualifierLinear = 0x10, kQualifierSigned = 0x40, kQualifierFloat = 0x80;
    constexpr uint32_t kChannelIds[4] = {0, 1, 2, 15};  // RGBSDA red, green, blue, alpha
    const uint32_t block_size = 24 + 16 * f.channels;
    put_u32(out, 4 + block_size);  // dfdTotalSize
    put_u32(out, 0);               // vendorId 0 (Khronos), descriptorType 0 (basic)
    put_u32(out, 2 | block_size << 16);  // versionNumber 2 (KDFS 1.3), descriptorBlockSize
    // colorModel, colorPrimaries, transferFunction, flags (0: alpha straight)
    put_u32(out, kModelRgbsda | kPrimariesBt709 << 8 | (f.srgb ? kTransferSrgb : kTransferLinear) << 16);
    put_u32(out, 0);  // texelBlockDimension0..3 = 1 texel (stored as dimension - 1)
    put_u32(out, f.channels * f.component_bytes);  // bytesPlane0; planes 1..7 unused
    put_u32(out, 0);
    const uint32_t bits = f.component_bytes * 8;
    for (uint32_t c = 0; c < f.channels; ++c) {
        const bool alpha = c == 3;
        uint32_t qualifiers = 0;
        if (f.kind == Ktx2Format::kSnorm) qualifiers = kQualifierSigned;
        if (f.kind == Ktx2Format::kSfloat) qualifiers = kQualifierFloat | kQualifierSigned;
        if (alpha && f.srgb) qualifiers |= kQualifierLinear;  // alpha is never sRGB-encoded
        put_u32(out, c * bits | (bits - 1) << 16 | (kChannelIds[c] | qualifiers) << 24);
        put_u32(out, 0);  // samplePosition0..3
        // sampleLower / sampleUpper: the values that mean 0 (or -1 if signed) and 1.
        switch (f.kind) {
        case Ktx2Format::kUnorm:
            put_u32(out, 0);
            put_u32(out, uint32_t((uint64_t(1) << bits) - 1));
            break;
        case Ktx2Format::kSnorm:  // -(2^(n-1) - 1), sign-extended to 32 bits, and 2^(n-1) - 1
            put_u32(out, uint32_t(-int32_t((1u << (bits - 1)) - 1)));
            put_u32(out, (1u << (bits - 1)) - 1);
            break;
        case Ktx2Format::kSfloat:  // float bit patterns of -1.0f and 1.0f
            put_u32(out, 0xBF800000u);
            put_u32(out, 0x3F800000u);
            break;
        }
    }
}

// One key/value entry: keyAndValueByteLength, key NUL value NUL, zero padding to 4 bytes.
void put_key_value(std::vector<uint8_t>& out, const std::string& key, const std::string& value) {
    put_u32(out, uint32_t(key.size() + 1 + value.size() + 1));
    out.insert(out.end(), key.begin(), key.end());
    out.push_back(0);
    out.insert(out.end(), value.begin(), value.end());
    out.push_back(0);
    while (out.size() % 4) out.push_back(0);
}

bool multiply_fits(uint64_t& product, uint64_t factor) {
    return !texdec::portable::mul_overflow(product, factor, &product);
}

}  // namespace

bool ktx2_supports(VkFormat format) { return ktx2_format(format).has_value(); }

WriteResult write_ktx2(const std::string& path, const Ktx2Texture& texture) {
    const std::optional<Ktx2Format> f = ktx2_format(texture.format);
    if (!f)
        return {false, "cannot write VkFormat " + std::to_string(int(texture.format)) +
                           " as KTX 2 (uncompressed texel formats texdec outputs only); use a .raw output"};
    const auto refuse = [](const std::string& why) { return WriteResult{false, "cannot write KTX 2: " + why}; };
    if (texture.width == 0 || texture.height == 0) return refuse("width and height must be at least 1");
    if (texture.face_count != 1 && texture.face_count != 6)
        return refuse("face count " + std::to_string(texture.face_count) + " (1, or 6 for a cube map)");
    if (texture.face_count == 6 && (texture.width != texture.height || texture.depth != 0))
        return refuse("a cube map must be square and 2D (depth 0)");
    if (texture.levels.empty()) return refuse("no levels");
    // The spec's largest level index: floor(log2(max(width, height, depth))).
    const uint32_t largest = std::max({texture.width, texture.height, texture.depth});
    const size_t max_levels = size_t(std::bit_width(largest));
    if (texture.levels.size() > max_levels)
        return refuse(std::to_string(texture.levels.size()) + " levels, but a " + std::to_string(largest) +
                      "-texel extent has at most " + std::to_string(max_levels));

    const auto started = std::chrono::steady_clock::now();
    const uint32_t level_count = uint32_t(texture.levels.size());
    const uint64_t texel_bytes = f->channels * f->component_bytes;
    // mipPadding: each level starts at a multiple of lcm(texel block size, 4).
    const uint64_t alignment = std::lcm(texel_bytes, uint64_t(4));
    std::vector<uint64_t> level_sizes(level_count);
    for (uint32_t p = 0; p < level_count; ++p) {
        uint64_t size = texel_bytes;
        const bool fits = multiply_fits(size, std::max(1u, texture.width >> p)) &&
                          multiply_fits(size, std::max(1u, texture.height >> p)) &&
                          multiply_fits(size, std::max(1u, texture.depth >> p)) &&
                          multiply_fits(size, std::max(1u, texture.layer_count)) &&
                          multiply_fits(size, texture.face_count);
        if (!fits) return refuse("level " + std::to_string(p) + " is larger than 2^64 bytes");
        if (texture.levels[p].size() != size)
            return refuse("level " + std::to_string(p) + " has " + std::to_string(texture.levels[p].size()) +
                          " bytes, but its extent, layers and faces need " + std::to_string(size));
        level_sizes[p] = size;
    }

    // Identifier, header, index, level index, DFD and key/value data, built in memory; the
    // levels are written from the caller's spans.
    static constexpr uint8_t kIdentifier[12] = {0xAB, 0x4B, 0x54, 0x58, 0x20, 0x32, 0x30, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A};
    std::vector<uint8_t> head(std::begin(kIdentifier), std::end(kIdentifier));
    put_u32(head, uint32_t(texture.format));
    put_u32(head, f->component_bytes);  // typeSize
    put_u32(head, texture.width);
    put_u32(head, texture.height);
    put_u32(head, texture.depth);
    put_u32(head, texture.layer_count);
    put_u32(head, texture.face_count);
    put_u32(head, level_count);
    put_u32(head, 0);  // supercompressionScheme: none
    const size_t index_at = head.size();
    head.resize(head.size() + 32 + 24 * size_t(level_count));  // index and level index, filled below

    const uint32_t dfd_offset = uint32_t(head.size());
    put_dfd(head, *f);
    const uint32_t kvd_offset = uint32_t(head.size());
    const uint32_t version = texdec_version();
    const std::string writer = "astc-gpu-decode " + std::to_string(version >> 16) + "." +
                               std::to_string((version >> 8) & 0xFF) + "." + std::to_string(version & 0xFF);
    // Keys sorted by code point; orientation: x right, y down (and z inward for 3D).
    put_key_value(head, "KTXorientation", texture.depth > 0 ? "rdi" : "rd");
    put_key_value(head, "KTXwriter", writer);
    const uint32_t kvd_length = uint32_t(head.size()) - kvd_offset;

    size_t at = index_at;
    const auto put_index_u32 = [&](uint32_t v) {
        for (int i = 0; i < 4; ++i) head[at++] = uint8_t(v >> (8 * i));
    };
    put_index_u32(dfd_offset);
    put_index_u32(kvd_offset - dfd_offset);  // dfdByteLength
    put_index_u32(kvd_offset);
    put_index_u32(kvd_length);
    // sgdByteOffset, sgdByteLength: 0 (already zero)
    const size_t level_index_at = index_at + 32;

    // Mip level array: smallest level first, each after its mipPadding.
    static constexpr uint8_t kZeros[8] = {};
    std::vector<std::span<const uint8_t>> parts{head};
    uint64_t offset = head.size();
    for (uint32_t p = level_count; p-- > 0;) {
        const uint64_t padding = (alignment - offset % alignment) % alignment;
        if (padding) parts.emplace_back(kZeros, size_t(padding));
        offset += padding;
        set_u64(head, level_index_at + 24 * size_t(p), offset);                // byteOffset
        set_u64(head, level_index_at + 24 * size_t(p) + 8, level_sizes[p]);    // byteLength
        set_u64(head, level_index_at + 24 * size_t(p) + 16, level_sizes[p]);   // uncompressedByteLength
        parts.push_back(texture.levels[p]);
        if (texdec::portable::add_overflow(offset, level_sizes[p], &offset))
            return refuse("the file would exceed 2^64 bytes");
    }
    const double encode_ms = ms_since(started);  // the header, index and DFD (the levels are written as they are)
    WriteResult result = write_file_parts(path, parts);
    result.encode_ms = encode_ms;
    return result;
}

namespace {
// Why the `name` writer (EXR, .hdr) refuses `image`, if it does: both take RGBA16F texels, and
// their libraries take int extents and build the whole file in memory.
std::optional<WriteResult> refuse_half_float_image(const DecodedImage& image, const char* name) {
    if (image.format != VK_FORMAT_R16G16B16A16_SFLOAT)
        return WriteResult{false, "cannot write VkFormat " + std::to_string(int(image.format)) + " as " + name +
                                      " (it takes RGBA16F texels); use --output rgba16f"};
    const uint64_t rows = uint64_t(image.height) * image.depth;
    const uint64_t texel_count = uint64_t(image.width) * rows;
    if (image.width > INT_MAX || rows > INT_MAX || texel_count > (uint64_t(1) << 31))
        return WriteResult{false, std::string("image is too large for the ") + name +
                                      " writer (2^31 texels at most); use a .raw output"};
    if (image.texels.size() < texel_count * 8)
        return WriteResult{false, "internal error: fewer decoded bytes than the image needs"};
    return std::nullopt;
}
}  // namespace

WriteResult write_exr(const std::string& path, const DecodedImage& image) {
    if (auto refused = refuse_half_float_image(image, "EXR")) return *refused;
    const uint64_t rows = uint64_t(image.height) * image.depth;
    const uint64_t texel_count = uint64_t(image.width) * rows;

    const auto started = std::chrono::steady_clock::now();
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
    const double encode_ms = ms_since(started);  // the planes and tinyexr's ZIP compression
    WriteResult result = write_file(path, memory, size);
    std::free(memory);  // tinyexr allocates the file with malloc
    result.encode_ms = encode_ms;
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
    if (auto refused = refuse_half_float_image(image, ".hdr")) return *refused;
    const uint64_t rows = uint64_t(image.height) * image.depth;
    const uint64_t texel_count = uint64_t(image.width) * rows;
    const auto started = std::chrono::steady_clock::now();
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
    const double encode_ms = ms_since(started);  // the float conversion and stb's RLE encoding
    WriteResult result = write_file(path, bytes.data(), bytes.size());
    result.encode_ms = encode_ms;
    return result;
}

WriteResult write_raw(const std::string& path, std::span<const uint8_t> bytes) {
    return write_file(path, bytes.data(), bytes.size());
}

}  // namespace image_write

// astc-gpu-decode, the .tga and .ktx2 writers (src/io/image_write.cpp), tested directly,
// no GPU.
//   - write_tga: read back with stb_image (Debian's libstb-dev, stbi_load) and compared pixel for
//     pixel with the 8-bit conversion written here from image_write.h's documentation (halves
//     through the compiler's _Float16, the SNORM and 16-bit roundings in double); the header bytes
//     (image type, depth, alpha bits, top-left origin), the size (uncompressed) and the TGA 2.0
//     footer checked directly. Every texel format texdec outputs, one and three slices, and every
//     8-bit code, every 16-bit code and every half; the 8-bit and half formats' pixels equal
//     write_png's read back (one conversion for both).
//   - write_ktx2: read back by a minimal KTX 2.0 reader written here from the Khronos KTX File
//     Format Specification 2.0 and the Khronos Data Format Specification (src/io/ktx2.cpp reads
//     block-compressed formats only): identifier, every header field, the index, the level index
//     (offsets, lengths, alignment to lcm(texel size, 4), smallest level first, zero padding), the
//     basic DFD of every format (samples, bit offsets and lengths, qualifiers, lower / upper,
//     transfer, primaries, model), the key/value data, and the texels of every level, layer, face
//     and slice of a 2D mip chain, an array, a cube map, a cube map array and a 3D texture.
//     Debian 12 packages no KTX validator (KTX-Software's `ktx validate` / ktx2check), so none runs.
#include <catch2/catch.hpp>

#include <stb/stb_image.h>  // the implementation is in test_cli.cpp

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <texdec/texdec.h>  // TEXDEC_VERSION_*: the KTXwriter value
#include <vulkan/vulkan_core.h>

#include "image_write.h"  // src/io
#include "support/portable.h"

namespace {

std::string temp_dir() {
    static const std::string dir = [] {
        const std::string made = texdec_test::make_temp_dir("texdec_writers_");
        REQUIRE(!made.empty());
        return made;
    }();
    return dir;
}

std::vector<uint8_t> read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in.good());
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool file_exists(const std::string& path) { return std::ifstream(path).good(); }

// ---- TGA ---------------------------------------------------------------------------------------

// What the test knows of a texel format (from its Vulkan name).
struct TexelFormat {
    VkFormat format;
    const char* name;
    int channels;        // stored per texel
    int channel_bytes;   // 1 or 2
    char kind;           // 'u' UNORM, 's' SNORM, 'f' SFLOAT
    bool srgb;
};

const TexelFormat kTexelFormats[] = {
    {VK_FORMAT_R8G8B8A8_UNORM, "R8G8B8A8_UNORM", 4, 1, 'u', false},
    {VK_FORMAT_R8G8B8A8_SRGB, "R8G8B8A8_SRGB", 4, 1, 'u', true},
    {VK_FORMAT_R16G16B16A16_SFLOAT, "R16G16B16A16_SFLOAT", 4, 2, 'f', false},
    {VK_FORMAT_R8_UNORM, "R8_UNORM", 1, 1, 'u', false},
    {VK_FORMAT_R8_SNORM, "R8_SNORM", 1, 1, 's', false},
    {VK_FORMAT_R8G8_UNORM, "R8G8_UNORM", 2, 1, 'u', false},
    {VK_FORMAT_R8G8_SNORM, "R8G8_SNORM", 2, 1, 's', false},
    {VK_FORMAT_R16_UNORM, "R16_UNORM", 1, 2, 'u', false},
    {VK_FORMAT_R16_SNORM, "R16_SNORM", 1, 2, 's', false},
    {VK_FORMAT_R16G16_UNORM, "R16G16_UNORM", 2, 2, 'u', false},
    {VK_FORMAT_R16G16_SNORM, "R16G16_SNORM", 2, 2, 's', false},
};

double half_value(uint16_t bits) {
    _Float16 h;  // the compiler's IEEE binary16, independent of the writer's decoder
    std::memcpy(&h, &bits, 2);
    return double(h);
}

// [0, 1] -> [0, 255], round half up; NaN and negatives 0.
uint8_t expect_unit(double v) {
    if (!(v > 0.0)) return 0;
    if (v >= 1.0) return 255;
    return uint8_t(std::floor(v * 255.0 + 0.5));
}

// The documented 8-bit value of one stored channel (image_write.h, write_png / write_tga).
uint8_t expect_byte(const TexelFormat& f, const uint8_t* p, bool signed_values, bool colour) {
    if (f.kind == 'f') {
        const double v = half_value(uint16_t(p[0] | p[1] << 8));
        return expect_unit(signed_values && colour ? (v + 1.0) / 2.0 : v);
    }
    if (f.channel_bytes == 1) {
        if (f.kind == 'u') return p[0];
        const int v = std::max(int(int8_t(p[0])), -127);  // -128 acts as -1
        return uint8_t(std::floor((v + 127) * 255.0 / 254.0 + 0.5));
    }
    const uint16_t raw = uint16_t(p[0] | p[1] << 8);
    if (f.kind == 'u') return uint8_t(std::floor(raw / 257.0 + 0.5));  // 65535 / 255 = 257
    const int v = std::max(int(int16_t(raw)), -32767);
    return uint8_t(std::floor((v + 32767) * 255.0 / 65534.0 + 0.5));
}

// Writes `texels` as a TGA, reads it back with stbi_load and compares every pixel with the
// documented conversion; checks the header, the size and the footer bytes too.
void check_tga(const TexelFormat& f, const std::vector<uint8_t>& texels, uint32_t width, uint32_t height,
               uint32_t depth, bool signed_values) {
    INFO(f.name << " " << width << "x" << height << "x" << depth << " signed_values " << signed_values);
    const std::string path = temp_dir() + "/out.tga";
    std::remove(path.c_str());
    const image_write::DecodedImage image{texels, width, height, depth, f.format};
    const image_write::WriteResult result = image_write::write_tga(path, image, signed_values);
    INFO(result.message);
    REQUIRE(result.ok);

    const int file_channels = f.channels == 1 ? 1 : f.channels == 2 ? 3 : 4;  // RG -> RGB with blue 0
    const uint32_t rows = height * depth;
    const size_t texel_count = size_t(width) * rows;
    const std::vector<uint8_t> file = read_file(path);
    REQUIRE(file.size() == 18 + texel_count * file_channels + 26);  // uncompressed: no RLE
    CHECK(file[0] == 0);                                             // no image ID
    CHECK(file[1] == 0);                                             // no colour map
    CHECK(file[2] == (file_channels == 1 ? 3 : 2));                  // uncompressed grey / true-colour
    CHECK((file[12] | file[13] << 8) == int(width));
    CHECK((file[14] | file[15] << 8) == int(rows));
    CHECK(file[16] == file_channels * 8);
    CHECK(file[17] == ((file_channels == 4 ? 8 : 0) | 0x20));  // alpha bits, origin top-left
    const char signature[] = "TRUEVISION-XFILE.";
    CHECK(std::memcmp(file.data() + file.size() - 18, signature, 18) == 0);  // with its NUL

    int w = 0, h = 0, n = 0;
    stbi_uc* pixels = stbi_load(path.c_str(), &w, &h, &n, 0);
    INFO((pixels ? "" : stbi_failure_reason()));
    REQUIRE(pixels != nullptr);
    CHECK(w == int(width));
    CHECK(h == int(rows));
    CHECK(n == file_channels);
    size_t mismatches = 0;
    if (w == int(width) && h == int(rows) && n == file_channels)
        for (size_t t = 0; t < texel_count; ++t)
            for (int c = 0; c < file_channels; ++c) {
                const uint8_t expected =
                    c < f.channels ? expect_byte(f, &texels[(t * f.channels + c) * f.channel_bytes], signed_values, c < 3)
                                   : 0;
                const uint8_t got = pixels[t * file_channels + c];
                if (got != expected && ++mismatches <= 8)
                    UNSCOPED_INFO("texel " << t << " (x " << t % width << " row " << t / width << ") channel " << c
                                           << ": got " << int(got) << " expected " << int(expected));
            }
    CHECK(mismatches == 0);
    // The same conversion as write_png's 8-bit path (R16 / RG16 become 16-bit PNGs instead).
    if (f.channel_bytes == 1 || f.kind == 'f') {
        const std::string png_path = temp_dir() + "/out.png";
        REQUIRE(image_write::write_png(png_path, image, signed_values).ok);
        int pw = 0, ph = 0, pn = 0;
        stbi_uc* png = stbi_load(png_path.c_str(), &pw, &ph, &pn, 0);
        REQUIRE(png != nullptr);
        CHECK(pw == w);
        CHECK(ph == h);
        CHECK(pn == n);
        if (pw == w && ph == h && pn == n) CHECK(std::memcmp(png, pixels, texel_count * file_channels) == 0);
        stbi_image_free(png);
    }
    stbi_image_free(pixels);
}

std::vector<uint8_t> random_bytes(size_t count, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<uint8_t> bytes(count);
    for (auto& b : bytes) b = uint8_t(rng());
    return bytes;
}

}  // namespace

TEST_CASE("TGA writer: every texel format in one and three slices read back with stbi_load equals the documented conversion",
          "[cli][writers]") {
    // Values at the ends of every range lead each image; random bytes fill the rest.
    const std::vector<uint8_t> edges8 = {0x00, 0x01, 0x7F, 0x80, 0x81, 0xFE, 0xFF, 0x40};
    const std::vector<uint16_t> edges16 = {0x0000, 0x0001, 0x0080, 0x0081, 0x7FFF, 0x8000, 0x8001,
                                           0xFFFE, 0xFFFF, 0x3C00, 0xBC00, 0x3800, 0x7C00, 0xFC00, 0x7E00};
    struct Shape {
        uint32_t width, height, depth;
    };
    const Shape shapes[] = {{7, 5, 1}, {5, 3, 3}, {1, 1, 1}};
    uint32_t seed = 1;
    for (const TexelFormat& f : kTexelFormats)
        for (const Shape& s : shapes)
            for (const bool signed_values : {false, true}) {
                const size_t bytes = size_t(s.width) * s.height * s.depth * f.channels * f.channel_bytes;
                std::vector<uint8_t> texels = random_bytes(bytes, seed++);
                if (f.channel_bytes == 1)
                    for (size_t i = 0; i < std::min(edges8.size(), bytes); ++i) texels[i] = edges8[i];
                else
                    for (size_t i = 0; i < std::min(edges16.size(), bytes / 2); ++i) {
                        texels[2 * i] = uint8_t(edges16[i]);
                        texels[2 * i + 1] = uint8_t(edges16[i] >> 8);
                    }
                check_tga(f, texels, s.width, s.height, s.depth, signed_values);
            }
}

TEST_CASE("TGA writer: every 8-bit code and every 16-bit code and every half read back with stbi_load", "[cli][writers]") {
    for (const TexelFormat& f : kTexelFormats) {
        // One texel per code in the first channel; the other channels hold other codes (a
        // permutation), so every channel sees every code too.
        const uint32_t codes = f.channel_bytes == 1 ? 256 : 65536;
        const uint32_t side = f.channel_bytes == 1 ? 16 : 256;
        std::vector<uint8_t> texels(size_t(codes) * f.channels * f.channel_bytes);
        for (uint32_t t = 0; t < codes; ++t)
            for (int c = 0; c < f.channels; ++c) {
                const uint32_t code = (t * (2 * c + 1) + 37 * c) % codes;
                uint8_t* p = &texels[(size_t(t) * f.channels + c) * f.channel_bytes];
                p[0] = uint8_t(code);
                if (f.channel_bytes == 2) p[1] = uint8_t(code >> 8);
            }
        for (const bool signed_values : {false, true}) check_tga(f, texels, side, side, 1, signed_values);
    }
}

TEST_CASE("TGA writer: formats it cannot write and bad extents are refused with a message", "[cli][writers]") {
    const std::string path = temp_dir() + "/refused.tga";
    std::remove(path.c_str());
    std::vector<uint8_t> texels(64, 0);
    for (const VkFormat format : {VK_FORMAT_BC1_RGBA_UNORM_BLOCK, VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_UNDEFINED,
                                  VK_FORMAT_B8G8R8A8_UNORM}) {
        const auto result = image_write::write_tga(path, {texels, 2, 2, 1, format}, false);
        CHECK_FALSE(result.ok);
        CHECK(result.message.find("cannot write VkFormat " + std::to_string(int(format)) + " as TGA") !=
              std::string::npos);
    }
    // TGA extents are 16-bit: refused before any texel is read.
    const std::vector<uint8_t> none;
    for (const auto& [w, h, d] : {std::tuple{65536u, 1u, 1u}, std::tuple{1u, 65536u, 1u}, std::tuple{1u, 21846u, 3u}}) {
        const auto result = image_write::write_tga(path, {none, w, h, d, VK_FORMAT_R8_UNORM}, false);
        CHECK_FALSE(result.ok);
        CHECK(result.message.find("too large for TGA") != std::string::npos);
    }
    const auto empty = image_write::write_tga(path, {texels, 0, 4, 1, VK_FORMAT_R8_UNORM}, false);
    CHECK_FALSE(empty.ok);
    const auto short_input = image_write::write_tga(path, {texels, 5, 4, 1, VK_FORMAT_R8G8B8A8_UNORM}, false);
    CHECK_FALSE(short_input.ok);
    CHECK(short_input.message.find("fewer decoded bytes") != std::string::npos);
    CHECK_FALSE(file_exists(path));
    const auto unwritable = image_write::write_tga(temp_dir() + "/no/such/dir/x.tga",
                                                   {texels, 4, 4, 1, VK_FORMAT_R8G8B8A8_UNORM}, false);
    CHECK_FALSE(unwritable.ok);
    CHECK(unwritable.message.find("cannot open") != std::string::npos);
    // The largest TGA extent is written.
    std::vector<uint8_t> tall(65535, 7);
    CHECK(image_write::write_tga(path, {tall, 1, 21845, 3, VK_FORMAT_R8_UNORM}, false).ok);
}

// ---- KTX 2 -------------------------------------------------------------------------------------

namespace {

// A minimal KTX 2.0 reader (KTX File Format Specification 2.0, "File Structure"): every field as
// stored, with bounds checked by REQUIRE.
struct Ktx2Sample {
    uint32_t bit_offset, bit_length, channel_type, positions, lower, upper;
};
struct Ktx2Read {
    uint32_t vk_format, type_size, width, height, depth, layer_count, face_count, level_count, scheme;
    uint32_t dfd_offset, dfd_length, kvd_offset, kvd_length;
    uint64_t sgd_offset, sgd_length;
    struct Level {
        uint64_t offset, length, uncompressed_length;
    };
    std::vector<Level> levels;
    // DFD: dfdTotalSize and the first (basic) descriptor block.
    uint32_t dfd_total_size, vendor_id, descriptor_type, version_number, block_size;
    uint32_t color_model, color_primaries, transfer_function, flags, block_dimensions;
    uint8_t bytes_plane[8];
    std::vector<Ktx2Sample> samples;
    std::vector<std::pair<std::string, std::string>> key_values;  // value: raw bytes
    std::vector<uint8_t> file;
};

uint32_t u32_at(const std::vector<uint8_t>& f, uint64_t at) {
    REQUIRE(at + 4 <= f.size());
    return uint32_t(f[at]) | uint32_t(f[at + 1]) << 8 | uint32_t(f[at + 2]) << 16 | uint32_t(f[at + 3]) << 24;
}
uint64_t u64_at(const std::vector<uint8_t>& f, uint64_t at) { return u32_at(f, at) | uint64_t(u32_at(f, at + 4)) << 32; }

Ktx2Read read_ktx2(const std::string& path) {
    Ktx2Read k{};
    k.file = read_file(path);
    const std::vector<uint8_t>& f = k.file;
    const uint8_t identifier[12] = {0xAB, 'K', 'T', 'X', ' ', '2', '0', 0xBB, '\r', '\n', 0x1A, '\n'};
    REQUIRE(f.size() >= 80);
    REQUIRE(std::memcmp(f.data(), identifier, 12) == 0);
    uint32_t* header[] = {&k.vk_format, &k.type_size, &k.width, &k.height, &k.depth, &k.layer_count,
                          &k.face_count, &k.level_count, &k.scheme, &k.dfd_offset, &k.dfd_length,
                          &k.kvd_offset, &k.kvd_length};
    for (size_t i = 0; i < std::size(header); ++i) *header[i] = u32_at(f, 12 + 4 * i);
    k.sgd_offset = u64_at(f, 64);
    k.sgd_length = u64_at(f, 72);
    for (uint32_t p = 0; p < std::max(1u, k.level_count); ++p)
        k.levels.push_back({u64_at(f, 80 + 24 * p), u64_at(f, 88 + 24 * p), u64_at(f, 96 + 24 * p)});

    // Khronos Data Format Specification, "Khronos Basic Data Format Descriptor Block".
    const uint64_t d = k.dfd_offset;
    k.dfd_total_size = u32_at(f, d);
    const uint32_t word0 = u32_at(f, d + 4), word1 = u32_at(f, d + 8), word2 = u32_at(f, d + 12);
    k.vendor_id = word0 & 0x1FFFF;
    k.descriptor_type = word0 >> 17;
    k.version_number = word1 & 0xFFFF;
    k.block_size = word1 >> 16;
    k.color_model = word2 & 0xFF;
    k.color_primaries = (word2 >> 8) & 0xFF;
    k.transfer_function = (word2 >> 16) & 0xFF;
    k.flags = word2 >> 24;
    k.block_dimensions = u32_at(f, d + 16);
    REQUIRE(d + 28 <= f.size());
    std::memcpy(k.bytes_plane, &f[d + 20], 8);
    REQUIRE(k.block_size >= 24);
    REQUIRE((k.block_size - 24) % 16 == 0);
    for (uint32_t s = 0; s < (k.block_size - 24) / 16; ++s) {
        const uint64_t at = d + 4 + 24 + 16 * s;
        const uint32_t w = u32_at(f, at);
        k.samples.push_back({w & 0xFFFF, ((w >> 16) & 0xFF) + 1, w >> 24, u32_at(f, at + 4), u32_at(f, at + 8),
                             u32_at(f, at + 12)});
    }

    // Key/value data: keyAndValueByteLength, key NUL value, valuePadding to 4 bytes (zeros).
    uint64_t at = k.kvd_offset;
    const uint64_t end = uint64_t(k.kvd_offset) + k.kvd_length;
    REQUIRE(end <= f.size());
    while (at < end) {
        const uint32_t length = u32_at(f, at);
        REQUIRE(length >= 2);
        REQUIRE(at + 4 + length <= end);
        const std::string entry(f.begin() + at + 4, f.begin() + at + 4 + length);
        const size_t nul = entry.find('\0');
        REQUIRE(nul != std::string::npos);
        k.key_values.emplace_back(entry.substr(0, nul), entry.substr(nul + 1));
        at += 4 + length;
        while (at % 4) {
            REQUIRE(at < end);
            CHECK(f[at] == 0);
            ++at;
        }
    }
    CHECK(at == end);
    return k;
}

// The basic DFD the KDFS gives each format: one sample per channel (R, G, B, A channel ids 0, 1,
// 2, 15) at bit offset channel * bits; UNORM 0..2^n-1; SNORM -(2^(n-1)-1)..2^(n-1)-1 with the
// SIGNED qualifier; SFLOAT -1.0f..1.0f with FLOAT and SIGNED; sRGB: transfer 2 and a LINEAR alpha.
struct ExpectedDfd {
    uint32_t lower, upper, qualifiers;
};
ExpectedDfd expected_dfd(const TexelFormat& f) {
    if (f.kind == 'f') return {std::bit_cast<uint32_t>(-1.0f), std::bit_cast<uint32_t>(1.0f), 0x80 | 0x40};
    if (f.kind == 's') return f.channel_bytes == 1 ? ExpectedDfd{0xFFFFFF81u, 0x7Fu, 0x40} : ExpectedDfd{0xFFFF8001u, 0x7FFFu, 0x40};
    return f.channel_bytes == 1 ? ExpectedDfd{0, 0xFFu, 0} : ExpectedDfd{0, 0xFFFFu, 0};
}

const TexelFormat& texel_format(VkFormat format) {
    for (const TexelFormat& f : kTexelFormats)
        if (f.format == format) return f;
    FAIL("no such format in the test's table");
    return kTexelFormats[0];
}

// A texture whose every slice has its own bytes: slice(level, layer, face, z).
struct TestTexture {
    image_write::Ktx2Texture texture;
    std::vector<std::vector<uint8_t>> storage;
};

uint32_t level_extent(uint32_t extent, uint32_t level) { return std::max(1u, extent >> level); }

std::vector<uint8_t> slice_bytes(size_t size, uint32_t level, uint32_t layer, uint32_t face, uint32_t z) {
    return random_bytes(size, 1000003u * level + 10007u * layer + 101u * face + z + 17u);
}

TestTexture make_texture(VkFormat format, uint32_t width, uint32_t height, uint32_t depth, uint32_t layers,
                         uint32_t faces, uint32_t levels) {
    const TexelFormat& f = texel_format(format);
    TestTexture t;
    t.texture = {format, width, height, depth, layers, faces, {}};
    for (uint32_t p = 0; p < levels; ++p) {
        const size_t slice = size_t(level_extent(width, p)) * level_extent(height, p) * f.channels * f.channel_bytes;
        std::vector<uint8_t> level;
        for (uint32_t l = 0; l < std::max(1u, layers); ++l)
            for (uint32_t face = 0; face < faces; ++face)
                for (uint32_t z = 0; z < level_extent(depth, p); ++z) {
                    const std::vector<uint8_t> bytes = slice_bytes(slice, p, l, face, z);
                    level.insert(level.end(), bytes.begin(), bytes.end());
                }
        t.storage.push_back(std::move(level));
    }
    for (const auto& level : t.storage) t.texture.levels.emplace_back(level);
    return t;
}

// Writes the texture, reads it back and checks every field and every texel against what the
// spec says the file must hold.
void check_ktx2(const TestTexture& t) {
    const image_write::Ktx2Texture& tex = t.texture;
    const TexelFormat& f = texel_format(tex.format);
    INFO(f.name << " " << tex.width << "x" << tex.height << "x" << tex.depth << " layers " << tex.layer_count
                << " faces " << tex.face_count << " levels " << tex.levels.size());
    const std::string path = temp_dir() + "/out.ktx2";
    std::remove(path.c_str());
    const image_write::WriteResult result = image_write::write_ktx2(path, tex);
    INFO(result.message);
    REQUIRE(result.ok);
    const Ktx2Read k = read_ktx2(path);
    const uint32_t level_count = uint32_t(tex.levels.size());

    // Header and index.
    CHECK(k.vk_format == uint32_t(tex.format));
    CHECK(k.type_size == uint32_t(f.channel_bytes));
    CHECK(k.width == tex.width);
    CHECK(k.height == tex.height);
    CHECK(k.depth == tex.depth);
    CHECK(k.layer_count == tex.layer_count);
    CHECK(k.face_count == tex.face_count);
    CHECK(k.level_count == level_count);
    CHECK(k.scheme == 0);
    CHECK(k.dfd_offset == 80 + 24 * level_count);  // right after the level index
    CHECK(k.dfd_length == k.dfd_total_size);
    CHECK(k.kvd_offset == k.dfd_offset + k.dfd_length);  // dfdTotalSize == kvdByteOffset - dfdByteOffset
    CHECK(k.kvd_offset % 4 == 0);
    CHECK(k.sgd_offset == 0);
    CHECK(k.sgd_length == 0);

    // DFD.
    const int texel_bytes = f.channels * f.channel_bytes;
    CHECK(k.dfd_total_size == 4 + 24 + 16 * uint32_t(f.channels));
    CHECK(k.vendor_id == 0);
    CHECK(k.descriptor_type == 0);
    CHECK(k.version_number == 2);
    CHECK(k.block_size == 24 + 16 * uint32_t(f.channels));
    CHECK(k.color_model == 1);      // KHR_DF_MODEL_RGBSDA
    CHECK(k.color_primaries == 1);  // KHR_DF_PRIMARIES_BT709
    CHECK(k.transfer_function == (f.srgb ? 2u : 1u));  // SRGB : LINEAR
    CHECK(k.flags == 0);                               // alpha straight
    CHECK(k.block_dimensions == 0);                    // 1x1x1x1 texel blocks
    CHECK(k.bytes_plane[0] == texel_bytes);
    for (int i = 1; i < 8; ++i) CHECK(k.bytes_plane[i] == 0);
    REQUIRE(k.samples.size() == size_t(f.channels));
    const ExpectedDfd e = expected_dfd(f);
    const uint32_t channel_ids[4] = {0, 1, 2, 15};
    for (int c = 0; c < f.channels; ++c) {
        INFO("sample " << c);
        const Ktx2Sample& s = k.samples[c];
        CHECK(s.bit_offset == uint32_t(c * f.channel_bytes * 8));
        CHECK(s.bit_length == uint32_t(f.channel_bytes * 8));
        CHECK((s.channel_type & 0x0F) == channel_ids[c]);
        CHECK((s.channel_type & 0xF0) == (e.qualifiers | (f.srgb && c == 3 ? 0x10u : 0u)));
        CHECK(s.positions == 0);
        CHECK(s.lower == e.lower);
        CHECK(s.upper == e.upper);
    }

    // Key/value data, sorted by key.
    const std::string writer = "astc-gpu-decode " + std::to_string(TEXDEC_VERSION_MAJOR) + "." +
                               std::to_string(TEXDEC_VERSION_MINOR) + "." + std::to_string(TEXDEC_VERSION_PATCH);
    REQUIRE(k.key_values.size() == 2);
    CHECK(k.key_values[0].first == "KTXorientation");
    CHECK(k.key_values[0].second == std::string(tex.depth > 0 ? "rdi" : "rd") + '\0');
    CHECK(k.key_values[1].first == "KTXwriter");
    CHECK(k.key_values[1].second == writer + '\0');

    // Level index: smallest level first in the file, each after zero mipPadding to
    // lcm(texel size, 4), lengths equal to what the extents need, level 0 ending the file.
    const uint64_t alignment = std::lcm(uint64_t(texel_bytes), uint64_t(4));
    uint64_t expected_offset = uint64_t(k.kvd_offset) + k.kvd_length;
    for (uint32_t p = level_count; p-- > 0;) {
        INFO("level " << p);
        const Ktx2Read::Level& level = k.levels[p];
        const uint64_t slice = uint64_t(level_extent(tex.width, p)) * level_extent(tex.height, p) * texel_bytes;
        const uint64_t size = slice * level_extent(tex.depth, p) * std::max(1u, tex.layer_count) * tex.face_count;
        while (expected_offset % alignment) {
            REQUIRE(expected_offset < k.file.size());
            CHECK(k.file[expected_offset] == 0);
            ++expected_offset;
        }
        CHECK(level.offset == expected_offset);
        CHECK(level.offset % alignment == 0);
        CHECK(level.length == size);
        CHECK(level.uncompressed_length == size);
        REQUIRE(level.offset + level.length <= k.file.size());
        // Texels: layer, face, slice order; each slice as make_texture made it.
        size_t mismatched_slices = 0;
        uint64_t at = level.offset;
        for (uint32_t l = 0; l < std::max(1u, tex.layer_count); ++l)
            for (uint32_t face = 0; face < tex.face_count; ++face)
                for (uint32_t z = 0; z < level_extent(tex.depth, p); ++z) {
                    const std::vector<uint8_t> expected = slice_bytes(size_t(slice), p, l, face, z);
                    if (!std::equal(expected.begin(), expected.end(), k.file.begin() + at) && ++mismatched_slices <= 4)
                        UNSCOPED_INFO("layer " << l << " face " << face << " z " << z << " differs");
                    at += slice;
                }
        CHECK(mismatched_slices == 0);
        expected_offset = level.offset + level.length;
    }
    CHECK(expected_offset == k.file.size());
}

}  // namespace

TEST_CASE("KTX2 writer: every texel format's header and DFD and key/value data and texels read back by an independent reader",
          "[cli][writers]") {
    for (const TexelFormat& f : kTexelFormats) {
        check_ktx2(make_texture(f.format, 3, 2, 0, 0, 1, 1));  // one 2D level
        check_ktx2(make_texture(f.format, 5, 3, 0, 0, 1, 3));  // a mip chain: padding for small texels
    }
}

TEST_CASE("KTX2 writer: a 2D mip chain and an array and a cube map and a cube map array and a 3D texture read back",
          "[cli][writers]") {
    SECTION("2D mip chain") { check_ktx2(make_texture(VK_FORMAT_R8G8B8A8_SRGB, 13, 7, 0, 0, 1, 4)); }
    SECTION("2D array with mips") { check_ktx2(make_texture(VK_FORMAT_R16G16_SNORM, 5, 3, 0, 3, 1, 3)); }
    SECTION("array of one layer") { check_ktx2(make_texture(VK_FORMAT_R8G8_UNORM, 3, 3, 0, 1, 1, 2)); }
    SECTION("cube map with mips") { check_ktx2(make_texture(VK_FORMAT_R16G16B16A16_SFLOAT, 4, 4, 0, 0, 6, 3)); }
    SECTION("cube map array") { check_ktx2(make_texture(VK_FORMAT_R8_SNORM, 3, 3, 0, 2, 6, 2)); }
    SECTION("3D with mips") { check_ktx2(make_texture(VK_FORMAT_R8_UNORM, 5, 4, 3, 0, 1, 3)); }
    SECTION("3D deeper than wide") { check_ktx2(make_texture(VK_FORMAT_R16_UNORM, 2, 3, 9, 0, 1, 4)); }
    SECTION("3D of one slice") { check_ktx2(make_texture(VK_FORMAT_R8G8B8A8_UNORM, 2, 2, 1, 0, 1, 2)); }
}

TEST_CASE("KTX2 writer: inconsistent textures are refused with a message and nothing is written", "[cli][writers]") {
    const std::string path = temp_dir() + "/refused.ktx2";
    std::remove(path.c_str());
    const auto refused = [&](const image_write::Ktx2Texture& texture, const std::string& message) {
        const image_write::WriteResult result = image_write::write_ktx2(path, texture);
        INFO(result.message);
        CHECK_FALSE(result.ok);
        CHECK(result.message.find(message) != std::string::npos);
        CHECK_FALSE(file_exists(path));
    };
    const TestTexture good = make_texture(VK_FORMAT_R8G8B8A8_UNORM, 4, 4, 0, 0, 1, 3);
    const auto with = [&](auto change) {
        image_write::Ktx2Texture t = good.texture;
        change(t);
        return t;
    };
    for (const VkFormat format : {VK_FORMAT_BC7_UNORM_BLOCK, VK_FORMAT_R32_SFLOAT, VK_FORMAT_UNDEFINED,
                                  VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R8G8B8A8_USCALED})
        refused(with([&](auto& t) { t.format = format; }), "cannot write VkFormat " + std::to_string(int(format)));
    refused(with([](auto& t) { t.width = 0; }), "width and height must be at least 1");
    refused(with([](auto& t) { t.height = 0; }), "width and height must be at least 1");
    refused(with([](auto& t) { t.face_count = 0; }), "face count 0");
    refused(with([](auto& t) { t.face_count = 3; }), "face count 3");
    refused(with([](auto& t) { t.face_count = 6; t.width = 8; }), "a cube map must be square");
    refused(with([](auto& t) { t.face_count = 6; t.depth = 4; }), "a cube map must be square and 2D");
    refused(with([](auto& t) { t.levels.clear(); }), "no levels");
    refused(with([](auto& t) { t.levels.push_back(t.levels.back()); }), "4 levels, but a 4-texel extent has at most 3");
    // Level sizes must match the extents exactly (too short, too long; layers, faces, depth).
    refused(with([](auto& t) { t.levels[1] = t.levels[1].first(t.levels[1].size() - 1); }),
            "level 1 has 15 bytes, but its extent, layers and faces need 16");
    std::vector<uint8_t> long_level(17 * 4);
    refused(with([&](auto& t) { t.levels[0] = long_level; }), "level 0 has 68 bytes, but its extent, layers and faces need 64");
    refused(with([](auto& t) { t.layer_count = 2; }), "level 0 has 64 bytes, but its extent, layers and faces need 128");
    refused(with([](auto& t) { t.depth = 2; }), "level 0 has 64 bytes, but its extent, layers and faces need 128");
    // Sizes past 2^64 are refused, not wrapped.
    refused(with([](auto& t) {
                t.width = t.height = 0xFFFFFFFFu;
                t.depth = 0xFFFFFFFFu;
                t.levels.resize(1);
            }),
            "larger than 2^64 bytes");
    refused(with([](auto& t) {
                t.width = t.height = 0x10000u;
                t.layer_count = 0xFFFFFFFFu;
                t.levels.resize(1);
            }),
            "larger than 2^64 bytes");
    // An unwritable path gets the writer's message.
    const auto unwritable = image_write::write_ktx2(temp_dir() + "/no/such/dir/x.ktx2", good.texture);
    CHECK_FALSE(unwritable.ok);
    CHECK(unwritable.message.find("cannot open") != std::string::npos);
    CHECK(image_write::write_ktx2(path, good.texture).ok);
    CHECK(image_write::ktx2_supports(VK_FORMAT_R16G16_SNORM));
    CHECK_FALSE(image_write::ktx2_supports(VK_FORMAT_BC1_RGB_UNORM_BLOCK));
    // The writer reads texdec's texel-format table: every row but B8G8R8A8 (no red/blue swap)
    // and the A8B8G8R8 PACK32 formats (KTX 2 prohibits them).
    for (const VkFormat f : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_R16G16B16A16_SFLOAT,
                             VK_FORMAT_R8_UNORM, VK_FORMAT_R8_SNORM, VK_FORMAT_R8G8_UNORM, VK_FORMAT_R8G8_SNORM,
                             VK_FORMAT_R16_UNORM, VK_FORMAT_R16_SNORM, VK_FORMAT_R16G16_UNORM, VK_FORMAT_R16G16_SNORM})
        CHECK(image_write::ktx2_supports(f));
    for (const VkFormat f : {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_A8B8G8R8_UNORM_PACK32,
                             VK_FORMAT_A8B8G8R8_SRGB_PACK32, VK_FORMAT_R16G16B16A16_UNORM})
        CHECK_FALSE(image_write::ktx2_supports(f));
}

// astc-gpu-decode's PNG writer (src/io/png_parallel.cpp through image_write::write_png: bands of
// rows deflated on several threads, joined into one zlib stream) and the per-file phases of -v
// and --json.
//   - The files are read back by two independent decoders: libpng's simplified reader
//     (png_image_*) and stb_image
//     (stbi_load / stbi_load_16), and compared with the texels, tolerance 0: RGBA8 and R8 as
//     they are, RG8 as RGB with blue 0, R16 / RG16 UNORM as 16-bit values, SNORM mapped by the
//     documented formulas (image_write.h, written out again here), RGBA16F against the TGA
//     writer's pixels (the same documented conversion, tested in test_writers.cpp). The chunks are
//     also walked here (PNG spec: signature, IHDR first, IDATs, IEND last) with every CRC-32
//     recomputed, and the IDATs' data inflated whole by zlib's uncompress, which checks the
//     stream's Adler-32 (libpng stops once it has the rows and does not read it).
//   - Sizes: 1x1, one row, one column, odd widths, fewer rows than threads, and many bands forced
//     small (band heights 1, 2, 3, 7; 1, 3 and 16 threads).
//   - The CLI: an ASTC file to .png with the band height forced small (TEXDEC_CLI_PNG_BAND_ROWS)
//     equals its .raw RGBA8 decode; --json's "phases" are there, numbers, >= 0, and add up to at
//     most the file's wall_ms; -v prints them.
#include <catch2/catch.hpp>

#include <stb/stb_image.h>  // the implementation is in test_cli.cpp

#include <png.h>   // libpng's reader: an independent decoder
#include <zlib.h>  // the stream itself: every chunk's CRC-32 and the zlib stream (with its Adler-32)

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <vulkan/vulkan_core.h>

#include "image_write.h"  // src/io
#include "png_parallel.h"
#include "support/cli_runner.h"

using namespace texdec_test;

namespace {

std::vector<uint8_t> random_bytes(size_t count, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<uint8_t> bytes(count);
    for (auto& b : bytes) b = uint8_t(rng());
    return bytes;
}

// Smooth rows with noise (so the filters and deflate have something to do) or random bytes.
std::vector<uint8_t> image_bytes(size_t count, uint32_t seed, bool smooth) {
    std::vector<uint8_t> bytes = random_bytes(count, seed);
    if (smooth)
        for (size_t i = 0; i < count; ++i) bytes[i] = uint8_t((i * 7 / 5) + (bytes[i] & 3));
    return bytes;
}

struct ReadBack {
    bool ok = false;
    int width = 0, height = 0, channels = 0;
    std::vector<uint16_t> samples;  // every sample, 8-bit values as they are
};

// libpng's simplified API: the file's own format (channels and depth), 16-bit samples in host order.
ReadBack read_with_libpng(const std::string& path, bool sixteen) {
    ReadBack r;
    png_image image{};
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, path.c_str())) {
        UNSCOPED_INFO("libpng: " << image.message);
        return r;
    }
    r.channels = int(PNG_IMAGE_SAMPLE_CHANNELS(image.format));
    // Keep the file's channels; linear 16-bit for 16-bit files (no gamma: values as stored).
    image.format =
        (image.format & (PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)) | (sixteen ? PNG_FORMAT_FLAG_LINEAR : 0);
    r.width = int(image.width);
    r.height = int(image.height);
    const size_t count = size_t(image.width) * image.height * r.channels;
    std::vector<uint8_t> buffer(PNG_IMAGE_SIZE(image));
    if (!png_image_finish_read(&image, nullptr, buffer.data(), 0, nullptr)) {
        UNSCOPED_INFO("libpng: " << image.message);
        png_image_free(&image);
        return r;
    }
    r.samples.resize(count);
    for (size_t i = 0; i < count; ++i) {
        if (sixteen) {
            uint16_t v;
            std::memcpy(&v, buffer.data() + 2 * i, 2);
            r.samples[i] = v;
        } else {
            r.samples[i] = buffer[i];
        }
    }
    r.ok = true;
    return r;
}

ReadBack read_with_stb(const std::string& path, bool sixteen) {
    ReadBack r;
    if (sixteen) {
        stbi_us* p = stbi_load_16(path.c_str(), &r.width, &r.height, &r.channels, 0);
        if (!p) return r;
        r.samples.assign(p, p + size_t(r.width) * r.height * r.channels);
        stbi_image_free(p);
    } else {
        stbi_uc* p = stbi_load(path.c_str(), &r.width, &r.height, &r.channels, 0);
        if (!p) return r;
        r.samples.assign(p, p + size_t(r.width) * r.height * r.channels);
        stbi_image_free(p);
    }
    r.ok = true;
    return r;
}

uint32_t be32(const std::vector<uint8_t>& b, size_t at) {
    return uint32_t(b[at]) << 24 | uint32_t(b[at + 1]) << 16 | uint32_t(b[at + 2]) << 8 | b[at + 3];
}

// The file's chunks and zlib stream, checked here: returns the inflated (filtered) rows' size, or
// -1 (with a message) on any fault.
long long check_chunks_and_stream(const std::string& path, size_t expected_inflated) {
    const std::vector<uint8_t> f = read_binary_file(path);
    static const uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    if (f.size() < 8 || std::memcmp(f.data(), kSignature, 8) != 0) {
        UNSCOPED_INFO("no PNG signature");
        return -1;
    }
    std::vector<uint8_t> idat;
    std::vector<std::string> types;
    for (size_t at = 8; at < f.size();) {
        if (at + 12 > f.size()) return UNSCOPED_INFO("truncated chunk"), -1;
        const uint32_t length = be32(f, at);
        if (at + 12 + length > f.size()) return UNSCOPED_INFO("chunk past the end"), -1;
        const std::string type(reinterpret_cast<const char*>(&f[at + 4]), 4);
        const uint32_t crc = uint32_t(crc32(0L, &f[at + 4], 4 + length));
        if (crc != be32(f, at + 8 + length)) return UNSCOPED_INFO("bad CRC in " << type), -1;
        if (type == "IDAT") idat.insert(idat.end(), f.begin() + long(at + 8), f.begin() + long(at + 8 + length));
        types.push_back(type);
        at += 12 + length;
    }
    if (types.size() < 3 || types.front() != "IHDR" || types.back() != "IEND")
        return UNSCOPED_INFO("IHDR must lead and IEND end"), -1;
    std::vector<uint8_t> inflated(expected_inflated + 16);
    uLongf size = uLongf(inflated.size());
    const int status = uncompress(inflated.data(), &size, idat.data(), uLong(idat.size()));
    if (status != Z_OK) return UNSCOPED_INFO("uncompress: " << status), -1;
    return (long long)size;
}

struct Layout {
    VkFormat format;
    int source_channels, bytes;  // per texel channel
    bool snorm;
    int file_channels;  // grey 1, RGB 3, RGBA 4
    bool sixteen;
};

const Layout kLayouts[] = {
    {VK_FORMAT_R8G8B8A8_UNORM, 4, 1, false, 4, false},
    {VK_FORMAT_R8G8B8A8_SRGB, 4, 1, false, 4, false},
    {VK_FORMAT_R8_UNORM, 1, 1, false, 1, false},
    {VK_FORMAT_R8_SNORM, 1, 1, true, 1, false},
    {VK_FORMAT_R8G8_UNORM, 2, 1, false, 3, false},
    {VK_FORMAT_R8G8_SNORM, 2, 1, true, 3, false},
    {VK_FORMAT_R16_UNORM, 1, 2, false, 1, true},
    {VK_FORMAT_R16_SNORM, 1, 2, true, 1, true},
    {VK_FORMAT_R16G16_UNORM, 2, 2, false, 3, true},
    {VK_FORMAT_R16G16_SNORM, 2, 2, true, 3, true},
    {VK_FORMAT_R16G16B16A16_SFLOAT, 4, 2, false, 4, false},
};

// The documented sample of channel c of texel t (image_write.h), except RGBA16F (see below).
uint16_t expected_sample(const Layout& l, const std::vector<uint8_t>& texels, size_t t, int c) {
    if (c >= l.source_channels) return 0;  // RG -> RGB: blue 0
    const uint8_t* p = &texels[(t * l.source_channels + c) * l.bytes];
    if (l.bytes == 1) {
        if (!l.snorm) return p[0];
        const int n = std::max<int>(int8_t(p[0]), -127) + 127;  // -1 -> 0, 0 -> 128, +1 -> 255
        return uint16_t((n * 255 + 127) / 254);
    }
    const uint16_t raw = uint16_t(p[0] | p[1] << 8);
    if (!l.snorm) return raw;
    const int64_t n = std::max<int>(int16_t(raw), -32767) + 32767;  // -1 -> 0, 0 -> 32768, +1 -> 65535
    return uint16_t((n * 65535 + 32767) / 65534);
}

void check_png(const Layout& l, uint32_t width, uint32_t height, uint32_t depth, uint32_t band_rows, unsigned threads,
               uint32_t seed, bool smooth) {
    const size_t texel_count = size_t(width) * height * depth;
    std::vector<uint8_t> texels = image_bytes(texel_count * l.source_channels * l.bytes, seed, smooth);
    if (l.format == VK_FORMAT_R16G16B16A16_SFLOAT)  // finite halves in -2..2 (exponent <= 15)
        for (size_t i = 1; i < texels.size(); i += 2) texels[i] &= 0xBF;
    const image_write::DecodedImage image{texels, width, height, depth, l.format};
    const std::string path = cli_temp_dir() + "/png_parallel.png";
    image_write::PngOptions options;
    options.band_rows = band_rows;
    options.threads = threads;
    const bool signed_values = l.snorm;
    const auto written = image_write::write_png(path, image, signed_values, options);
    INFO("VkFormat " << int(l.format) << " " << width << "x" << height << "x" << depth << " band rows " << band_rows
                     << " threads " << threads << (smooth ? " smooth" : " random"));
    REQUIRE(written.ok);
    CHECK(written.encode_ms >= 0);

    // RGBA16F: the same 8-bit pixels as the TGA writer's (B, G, R, A there).
    std::vector<uint8_t> tga_pixels;
    if (l.format == VK_FORMAT_R16G16B16A16_SFLOAT) {
        const std::string tga = cli_temp_dir() + "/png_parallel.tga";
        REQUIRE(image_write::write_tga(tga, image, signed_values).ok);
        int w = 0, h = 0, n = 0;
        stbi_uc* p = stbi_load(tga.c_str(), &w, &h, &n, 0);
        REQUIRE(p != nullptr);
        tga_pixels.assign(p, p + size_t(w) * h * n);
        stbi_image_free(p);
    }
    const size_t row_bytes = size_t(width) * l.file_channels * (l.sixteen ? 2 : 1);
    CHECK(check_chunks_and_stream(path, (row_bytes + 1) * height * depth) ==
          (long long)((row_bytes + 1) * height * depth));
    for (const bool libpng : {true, false}) {
        const ReadBack r = libpng ? read_with_libpng(path, l.sixteen) : read_with_stb(path, l.sixteen);
        INFO((libpng ? "libpng" : "stb_image"));
        REQUIRE(r.ok);
        CHECK(r.width == int(width));
        CHECK(r.height == int(height * depth));
        REQUIRE(r.channels == l.file_channels);
        size_t wrong = 0;
        for (size_t t = 0; t < texel_count; ++t)
            for (int c = 0; c < l.file_channels; ++c) {
                const uint16_t want = tga_pixels.empty() ? expected_sample(l, texels, t, c) : tga_pixels[t * 4 + c];
                const uint16_t got = r.samples[t * l.file_channels + c];
                if (got != want && ++wrong <= 4)
                    UNSCOPED_INFO("texel " << t << " channel " << c << ": got " << got << " expected " << want);
            }
        CHECK(wrong == 0);
    }
}

}  // namespace

TEST_CASE(
    "PNG writer: every channel layout, odd sizes, one row, many small bands, read back losslessly by libpng and "
    "stb_image",
    "[cli][png]") {
    struct Shape {
        uint32_t width, height, depth;
    };
    const Shape shapes[] = {{1, 1, 1}, {13, 1, 1}, {1, 9, 1}, {7, 5, 1}, {37, 3, 1}, {5, 4, 3}, {129, 33, 1}};
    uint32_t seed = 1;
    for (const Layout& l : kLayouts)
        for (const Shape& s : shapes)
            for (const uint32_t band_rows : {0u, 1u, 3u})
                for (const unsigned threads : {1u, 3u}) {
                    check_png(l, s.width, s.height, s.depth, band_rows, threads, seed, seed % 2 == 0);
                    ++seed;
                }
    // Fewer rows than threads, and bands of 2 and 7 rows on 16 threads, smooth and random.
    for (const Layout& l : kLayouts)
        for (const uint32_t band_rows : {0u, 2u, 7u})
            for (const bool smooth : {true, false}) check_png(l, 301, 45, 1, band_rows, 16, seed++, smooth);
}

TEST_CASE("PNG encoder: a large image in many bands is one valid zlib stream (CRCs and Adler-32 checked)",
          "[cli][png]") {
    const Layout& rgba = kLayouts[0];
    // ~1.5 MiB of rows: the automatic band height makes several bands, 1 MiB each at least.
    check_png(rgba, 1031, 397, 1, 0, 4, 77, true);
    check_png(rgba, 1031, 397, 1, 64, 4, 78, false);
    png_parallel::Image image;
    image.width = 1031;
    image.height = 397;
    image.row_bytes = 1031 * 4;
    CHECK(png_parallel::auto_band_rows(image, 4) >= 1);
    CHECK(png_parallel::auto_band_rows(image, 4) < 397);
}

TEST_CASE("CLI: ASTC to .png in forced small bands equals the .raw RGBA8 decode, --json phases and -v time line",
          "[cli][png]") {
    if (!cli_has_device()) return;
    const std::string d = fresh_cli_dir("png_bands");
    const std::string in = cli_sample_astc();
    const std::string cli = cli_path();
    REQUIRE(run_cli_command(cli + " decode --output rgba8 " + in + " " + d + "/ref.raw") == 0);
    const std::vector<uint8_t> raw = read_binary_file(d + "/ref.raw");
    REQUIRE(!raw.empty());
    for (const char* rows : {"1", "5", "0"}) {
        INFO("TEXDEC_CLI_PNG_BAND_ROWS=" << rows);
        REQUIRE(run_cli_command(std::string("TEXDEC_CLI_PNG_BAND_ROWS=") + rows + " " + cli + " decode -v --json=" + d +
                                "/r.json " + in + " " + d + "/out.png") == 0);
        const std::string err = last_cli_stderr();
        CHECK(contains(err, "time: read "));
        CHECK(contains(err, ", encode "));
        CHECK(contains(err, "time: device and context "));
        CHECK(check_chunks_and_stream(d + "/out.png", raw.size() / 4 * 4 + raw.size() / 4) > 0);
        for (const bool libpng : {true, false}) {
            const ReadBack r = libpng ? read_with_libpng(d + "/out.png", false) : read_with_stb(d + "/out.png", false);
            REQUIRE(r.ok);
            REQUIRE(r.channels == 4);
            REQUIRE(r.samples.size() == raw.size());
            size_t wrong = 0;
            for (size_t i = 0; i < raw.size(); ++i) wrong += r.samples[i] != raw[i];
            CHECK(wrong == 0);
        }
        // The phases, checked by Python's json module: every field a number >= 0 (the GPU ones
        // may be null), their host part adding up to at most the file's wall time, the decode's
        // parts to at most the decode call, and context_ms at the top and in the summary.
        const std::string check = R"PY(
import json, sys
j = json.load(open(sys.argv[1]))
f = j["files"][0]
p = f["phases"]
host = ["read_ms", "parse_ms", "context_wait_ms", "alloc_ms", "decode_ms", "verify_ms", "encode_ms", "write_ms", "sync_ms"]
parts = ["prepare_ms", "upload_copy_ms", "submit_wait_ms", "readback_copy_ms"]
gpu = ["gpu_upload_ms", "gpu_decode_ms", "gpu_readback_ms"]
assert set(p) == set(host + parts + gpu), sorted(p)
for k in host + parts: assert isinstance(p[k], (int, float)) and p[k] >= 0, k
for k in gpu: assert p[k] is None or p[k] >= 0, k
assert p["encode_ms"] > 0 and p["decode_ms"] > 0 and p["write_ms"] > 0, p
assert sum(p[k] for k in host) <= f["wall_ms"] * 1.01 + 0.5, (p, f["wall_ms"])
assert sum(p[k] for k in parts) <= p["decode_ms"] * 1.01 + 0.5, p
assert j["context_ms"] > 0 and j["summary"]["context_ms"] == j["context_ms"]
assert j["summary"]["wall_ms"] >= f["wall_ms"]
)PY";
        write_binary_file(d + "/check.py", std::vector<uint8_t>(check.begin(), check.end()));
        CHECK(std::system(("python3 " + d + "/check.py " + d + "/r.json").c_str()) == 0);
    }
}

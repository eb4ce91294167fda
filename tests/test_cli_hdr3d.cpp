// astc-gpu-decode, KTX 2.0 input, .hdr output, --level / --layer, and (end to end) ASTC
// 3D footprints and HDR (--profile hdr) from .astc, .ktx and .ktx2 files.
//   - The KTX 2 parser (src/io/ktx2.cpp) on files this test writes itself (its own header, level
//     index, DFD and Zstandard / zlib compression, vkFormat numbers from the Vulkan headers and
//     VK_EXT_texture_compression_astc_3d, not from the parser): every texdec format, layouts,
//     every truncation, every value of every header / level index / DFD byte, corrupt streams,
//     and each malformed field with its error code and message. Through the CLI: exit code 3 for
//     malformed files, 2 for bad --level / --layer / --profile.
//   - The .hdr writer (image_write::write_hdr) read back with stbi_loadf and compared, bit for
//     bit, with a model of Radiance RGBE written here from the format's definition.
//   - End to end (the CLI's own device): ASTC blocks from the astcenc CLI and random blocks (void
//     extents included) in KTX 2 files (none, Zstandard, zlib; levels, layers, --level/--layer),
//     .astc files (3D footprints, --profile hdr) and a KTX 1 file (--profile hdr), to .raw, .png,
//     .exr and .hdr, against libastcenc (tests/oracles/astcenc_oracle.h: decode_unorm8, and FP16
//     in the HDR profile for sfloat), tolerance 0 (.hdr: the RGBE model of libastcenc's halves).
//     --layer all on a .dds array whose layers are not contiguous, against the BC3 EXACT model.
#include <catch2/catch.hpp>

#include <stb/stb_image.h>  // the implementation is in test_cli.cpp

#include <zstd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <numeric>
#include <string>
#include <sys/wait.h>
#include <vector>

#include <texdec/texdec.h>
#include <tinyexr.h>  // reads back the CLI's .exr outputs
#include <vulkan/vulkan_core.h>

#include "gpu/gpu_fixture.h"
#include "image_write.h"  // src/io: the .hdr writer is tested directly
#include "ktx2.h"         // src/io: the KTX 2 parser is tested directly
#include "oracles/astcenc_oracle.h"
#include "oracles/reference.h"
#include "support/astcenc_cli.h"
#include "support/bc_formats.h"
#include "support/cli_runner.h"
#include "support/container_files.h"
#include "support/format_info.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

// The CLI and the shell runner come from support/cli_runner ($TEXDEC_CLI overrides the path).
const std::string kCli = cli_path();
std::string temp_dir() { return cli_temp_dir(); }
int run(const std::string& command) { return run_cli_command(command); }
std::string last_stderr() { return last_cli_stderr(); }
std::vector<uint8_t> read_file(const std::string& path) { return read_binary_file(path); }
void write_file(const std::string& path, const std::vector<uint8_t>& bytes) { write_binary_file(path, bytes); }

std::vector<uint8_t> random_bytes(size_t n, uint64_t seed) {
    SplitMix64 rng(seed * 0x9E3779B97F4A7C15ull + 12345);
    std::vector<uint8_t> out(n);
    for (uint8_t& b : out) b = uint8_t(rng.next());
    return out;
}

uint64_t encoded_size(texdec_format format, uint32_t w, uint32_t h, uint32_t d) {
    uint64_t size = 0;
    REQUIRE(texdec_encoded_size(format, w, h, d, &size) == TEXDEC_SUCCESS);
    return size;
}

// ---- KTX 2 files, written here (support/container_files.h: header, level index, DFD, key/value
// data, Zstandard / zlib through libzstd / zlib; vkFormat numbers from the Vulkan headers) -------

// Random level bytes of the right size for every level (every layer and face, layer-major).
std::vector<std::vector<uint8_t>> random_levels(texdec_format format, const Ktx2Spec& s, uint64_t seed) {
    std::vector<std::vector<uint8_t>> levels;
    for (const uint64_t size : ktx2_level_bytes(format, s))
        levels.push_back(random_bytes(size_t(size), seed + levels.size()));
    return levels;
}

const ktx2::Texture& parsed_texture(const ktx2::ParseResult& r) {
    if (const auto* e = std::get_if<ktx2::Error>(&r)) FAIL("unexpected parse error: " << e->message);
    return std::get<ktx2::Texture>(r);
}

ktx2::Error parse_error(const std::vector<uint8_t>& bytes) {
    const auto r = ktx2::parse(bytes);
    REQUIRE(std::holds_alternative<ktx2::Error>(r));
    return std::get<ktx2::Error>(r);
}

// Every level of a parsed texture: inflates to the right size, or errors with a message; anything
// else counts in `wrong`. Returns the number of levels that came back. (No CHECK per call: this
// runs for every mutated file.)
size_t check_level_data(std::span<const uint8_t> file, const ktx2::Texture& t, size_t& wrong) {
    size_t good = 0;
    for (uint32_t l = 0; l < t.mip_levels; ++l) {
        std::vector<uint8_t> storage;
        const auto r = ktx2::level_data(file, t, l, storage);
        if (const auto* e = std::get_if<ktx2::Error>(&r)) {
            wrong += e->message.empty();
            continue;
        }
        const auto data = std::get<std::span<const uint8_t>>(r);
        wrong += data.size() != t.levels[l].image_bytes * t.layers;
        if (t.supercompression == ktx2::Supercompression::None)
            wrong += !(data.data() >= file.data() && data.data() + data.size() <= file.data() + file.size());
        ++good;
    }
    return good;
}

}  // namespace

TEST_CASE("KTX2 parser: every vkFormat texdec has in 2D and 3D with mips and key/value data", "[cli][ktx2]") {
    std::vector<uint8_t> kv(4, 0);
    const char key[] = "KTXorientation\0rd";
    put_u32(kv, 0, uint32_t(sizeof key));
    kv.insert(kv.end(), key, key + sizeof key);
    size_t formats = 0;
    for (int fi = TEXDEC_FORMAT_UNDEFINED + 1; fi < TEXDEC_FORMAT_COUNT; ++fi) {
        const texdec_format format = texdec_format(fi);
        const texdec_format_info info = format_info(format);
        INFO(info.name);
        const bool is3d = info.block_depth > 1;
        for (const uint32_t scheme : {0u, 2u}) {
            INFO("supercompressionScheme " << scheme);
            Ktx2Spec spec = ktx2_spec(format, 37, 21, is3d ? 5 : 0, 0, 1, 3, scheme);
            spec.key_values = kv;
            const auto levels = random_levels(format, spec, fi * 7 + scheme);
            const Ktx2File file = ktx2_bytes(spec, levels);
            const auto parsed = ktx2::parse(file.bytes);
            const ktx2::Texture& t = parsed_texture(parsed);
            CHECK(t.format == format);
            CHECK(t.vk_format == spec.vk_format);
            CHECK(t.container_format == "vkFormat " + std::to_string(spec.vk_format) + " (" + info.name + ")");
            CHECK((t.width == 37 && t.height == 21 && t.depth == (is3d ? 5u : 1u) && t.is_volume == is3d));
            CHECK((t.mip_levels == 3 && t.layers == 1 && t.faces == 1 && !t.is_cube && t.layer_count == 0));
            CHECK(t.key_value_bytes == kv.size());
            CHECK(uint32_t(t.supercompression) == scheme);
            REQUIRE(t.levels.size() == 3);
            for (uint32_t l = 0; l < 3; ++l) {
                const ktx2::Level& lv = t.levels[l];
                CHECK((lv.width == std::max(1u, 37u >> l) && lv.height == std::max(1u, 21u >> l) &&
                       lv.depth == (is3d ? std::max(1u, 5u >> l) : 1u)));
                CHECK((lv.byte_offset == file.level_offsets[l] && lv.byte_length == file.level_lengths[l]));
                CHECK((lv.image_bytes == levels[l].size() && lv.uncompressed_byte_length == levels[l].size()));
                std::vector<uint8_t> storage;
                const auto data = ktx2::level_data(file.bytes, t, l, storage);
                REQUIRE(std::holds_alternative<std::span<const uint8_t>>(data));
                const auto span = std::get<std::span<const uint8_t>>(data);
                CHECK(std::equal(span.begin(), span.end(), levels[l].begin(), levels[l].end()));
            }
        }
        ++formats;
    }
    CHECK(formats == TEXDEC_FORMAT_COUNT - 1);
    // Values of VK_EXT_texture_compression_astc_3d, spelled out.
    const std::pair<uint32_t, texdec_format> ext3d[] = {{1000288000, TEXDEC_FORMAT_ASTC_3x3x3_UNORM},
                                                        {1000288001, TEXDEC_FORMAT_ASTC_3x3x3_SRGB},
                                                        {1000288002, TEXDEC_FORMAT_ASTC_3x3x3_SFLOAT},
                                                        {1000288011, TEXDEC_FORMAT_ASTC_4x4x4_SFLOAT},
                                                        {1000288029, TEXDEC_FORMAT_ASTC_6x6x6_SFLOAT}};
    for (const auto& [vk, format] : ext3d) CHECK(vk_format_number(format) == vk);
}

TEST_CASE("KTX2 parser: arrays and cube maps and zlib and levelCount 0", "[cli][ktx2]") {
    // An array of 3 ASTC 6x6 SFLOAT layers with 2 levels, zlib: layer-major inside each level.
    {
        const Ktx2Spec spec = ktx2_spec(TEXDEC_FORMAT_ASTC_6x6_SFLOAT, 13, 7, 0, 3, 1, 2, 3);
        const auto levels = random_levels(TEXDEC_FORMAT_ASTC_6x6_SFLOAT, spec, 1);
        const Ktx2File file = ktx2_bytes(spec, levels);
        const auto parsed = ktx2::parse(file.bytes);
        const ktx2::Texture& t = parsed_texture(parsed);
        CHECK((t.layers == 3 && t.layer_count == 3 && t.mip_levels == 2 && t.supercompression == ktx2::Supercompression::Zlib));
        CHECK((t.levels[0].image_bytes == 3 * 2 * 16 && t.levels[1].image_bytes == 1 * 1 * 16));
        std::vector<uint8_t> storage;
        const auto data = ktx2::level_data(file.bytes, t, 1, storage);
        REQUIRE(std::holds_alternative<std::span<const uint8_t>>(data));
        const auto span = std::get<std::span<const uint8_t>>(data);
        CHECK(std::equal(span.begin(), span.end(), levels[1].begin(), levels[1].end()));
        size_t wrong = 0;
        CHECK(check_level_data(file.bytes, t, wrong) == 2);
        CHECK(wrong == 0);
    }
    // A cube map array of 2 (12 faces) of BC7, one level.
    {
        const Ktx2Spec spec = ktx2_spec(TEXDEC_FORMAT_BC7_SRGB, 8, 8, 0, 2, 6, 1);
        const Ktx2File file = ktx2_bytes(spec, random_levels(TEXDEC_FORMAT_BC7_SRGB, spec, 2));
        const auto parsed = ktx2::parse(file.bytes);
        const ktx2::Texture& t = parsed_texture(parsed);
        CHECK((t.is_cube && t.faces == 6 && t.layers == 12 && t.levels[0].image_bytes == 64));
    }
    // levelCount 0: level 0 only (a loader would make the rest).
    {
        const Ktx2Spec spec = ktx2_spec(TEXDEC_FORMAT_EAC_R11_UNORM, 8, 8, 0, 0, 1, 0);
        const Ktx2File file = ktx2_bytes(spec, random_levels(TEXDEC_FORMAT_EAC_R11_UNORM, spec, 3));
        const auto parsed = ktx2::parse(file.bytes);
        CHECK(parsed_texture(parsed).mip_levels == 1);
    }
    // A 3D texture of a 2D block format: slices; and a 3D ASTC footprint texture with 2 levels.
    {
        const Ktx2Spec spec = ktx2_spec(TEXDEC_FORMAT_ASTC_4x4_UNORM, 9, 5, 3, 0, 1, 2, 2);
        const Ktx2File file = ktx2_bytes(spec, random_levels(TEXDEC_FORMAT_ASTC_4x4_UNORM, spec, 4));
        const auto parsed = ktx2::parse(file.bytes);
        const ktx2::Texture& t = parsed_texture(parsed);
        CHECK((t.is_volume && t.depth == 3 && t.levels[0].image_bytes == 3 * 2 * 3 * 16 && t.levels[1].depth == 1));
        const Ktx2Spec spec3 = ktx2_spec(TEXDEC_FORMAT_ASTC_5x5x4_SRGB, 11, 6, 9, 0, 1, 2);
        const Ktx2File file3 = ktx2_bytes(spec3, random_levels(TEXDEC_FORMAT_ASTC_5x5x4_SRGB, spec3, 5));
        const auto parsed3 = ktx2::parse(file3.bytes);
        const ktx2::Texture& t3 = parsed_texture(parsed3);
        CHECK((t3.levels[0].image_bytes == 3 * 2 * 3 * 16 && t3.levels[1].image_bytes == 1 * 1 * 1 * 16));
    }
    // bytesPlane0 0 ("unsized") is what older writers put in supercompressed files: accepted there
    // without a word; in a plain file decoded by vkFormat with a warning.
    {
        Ktx2Spec spec = ktx2_spec(TEXDEC_FORMAT_BC1_RGB_UNORM, 8, 8, 0, 0, 1, 1, 2);
        spec.bytes_plane0 = 0;
        const Ktx2File file = ktx2_bytes(spec, random_levels(TEXDEC_FORMAT_BC1_RGB_UNORM, spec, 6));
        CHECK(parsed_texture(ktx2::parse(file.bytes)).warnings.empty());
        spec.scheme = 0;
        const Ktx2File plain = ktx2_bytes(spec, random_levels(TEXDEC_FORMAT_BC1_RGB_UNORM, spec, 6));
        CHECK(parsed_texture(ktx2::parse(plain.bytes)).warnings.size() == 1);
    }
}

TEST_CASE("KTX2 parser: each malformed field gets its error code and a message naming it", "[cli][ktx2]") {
    const texdec_format f = TEXDEC_FORMAT_ASTC_4x4_UNORM;
    const auto good_spec = [&] { return ktx2_spec(f, 16, 8, 0, 0, 1, 2); };
    const auto build = [&](const Ktx2Spec& s) { return ktx2_bytes(s, random_levels(f, s, 9)).bytes; };
    struct Bad {
        const char* name;
        std::vector<uint8_t> bytes;
        ktx2::ErrorCode code;
        const char* message;
    };
    std::vector<Bad> bad;
    const auto add = [&](const char* name, std::vector<uint8_t> bytes, ktx2::ErrorCode code, const char* message) {
        bad.push_back({name, std::move(bytes), code, message});
    };
    const auto with = [&](auto change) {
        Ktx2Spec s = good_spec();
        change(s);
        return build(s);
    };
    const auto patched = [&](size_t at, uint64_t value, int bytes) {
        std::vector<uint8_t> b = build(good_spec());
        if (bytes == 8) put_u64(b, at, value); else put_u32(b, at, uint32_t(value));
        return b;
    };
    using C = ktx2::ErrorCode;
    add("BasisLZ", with([](Ktx2Spec& s) { s.vk_format = 0, s.scheme = 1; }), C::BasisUniversal,
        "supercompressionScheme 1 (BasisLZ: Basis Universal ETC1S) is not supported");
    add("UASTC", with([](Ktx2Spec& s) { s.vk_format = 0, s.color_model = 166; }), C::BasisUniversal,
        "Basis Universal UASTC");
    add("UASTC + zstd", with([](Ktx2Spec& s) { s.vk_format = 0, s.color_model = 166, s.scheme = 2; }),
        C::BasisUniversal, "Basis Universal UASTC");
    add("scheme 4", with([](Ktx2Spec& s) { s.scheme = 4; }), C::UnsupportedSupercompression,
        "unknown supercompressionScheme 4");
    add("vendor scheme", with([](Ktx2Spec& s) { s.scheme = 0x10000; }), C::UnsupportedSupercompression,
        "unknown supercompressionScheme 65536");
    add("uncompressed vkFormat", with([](Ktx2Spec& s) { s.vk_format = 37; }), C::UnknownFormat,
        "vkFormat 37 (VK_FORMAT_R8G8B8A8_UNORM) is an uncompressed format");
    add("vkFormat 0, not Basis", with([](Ktx2Spec& s) { s.vk_format = 0; }), C::UnknownFormat, "unknown vkFormat 0");
    add("PVRTC", with([](Ktx2Spec& s) { s.vk_format = 1000054000; }), C::UnknownFormat,
        "vkFormat 1000054000 (VK_FORMAT_PVRTC1_2BPP_UNORM_BLOCK_IMG) is a block-compressed format texdec does not");
    // Above VK_FORMAT_MAX_ENUM: no VkFormat at all (UBSan caught its conversion to one: fuzz_ktx2).
    add("vkFormat 0x97000001", with([](Ktx2Spec& s) { s.vk_format = 0x97000001; }), C::UnknownFormat,
        "unknown vkFormat 2533359617");
    add("typeSize 4", with([](Ktx2Spec& s) { s.type_size = 4; }), C::BadTypeSize, "typeSize is 4");
    add("width 0", patched(20, 0, 4), C::InvalidExtent, "pixelWidth is 0");
    add("1D", patched(24, 0, 4), C::UnsupportedLayout, "1D texture");
    add("3 faces", with([](Ktx2Spec& s) { s.face_count = 3; }), C::UnsupportedLayout, "faceCount is 3");
    add("3D array", with([](Ktx2Spec& s) { s.depth = 2, s.layer_count = 2; }), C::UnsupportedLayout,
        "3D array textures");
    add("3D cube", with([](Ktx2Spec& s) { s.depth = 2, s.face_count = 6, s.width = s.height = 8; }),
        C::UnsupportedLayout, "cube map with pixelDepth 2");
    add("non-square cube", with([](Ktx2Spec& s) { s.face_count = 6; }), C::UnsupportedLayout, "not square");
    add("absurd extent", patched(20, 1u << 21, 4), C::InvalidExtent, "absurd");
    add("absurd layers", patched(32, 1u << 21, 4), C::InvalidExtent, "layerCount 2097152 is absurd");
    add("too many levels", patched(40, 6, 4), C::InvalidExtent, "levelCount 6 exceeds the 5 levels");
    add("absurd levelCount", patched(40, 1000, 4), C::InvalidExtent, "levelCount 1000 is absurd");
    {
        const std::vector<uint8_t> b = build(good_spec());
        add("level index past the end", std::vector<uint8_t>(b.begin(), b.begin() + 100), C::TooSmall,
            "shorter than the header and the level index of 2 level(s) (128 bytes)");
    }
    // DFD problems are warnings: tests/test_cli_realfiles.cpp.
    add("key/value data past the end", patched(60, 1u << 20, 4), C::BadIndex, "the key/value data");
    add("global data past the end", patched(72, 1u << 30, 8), C::BadIndex, "supercompression global data");
    // Level 0 (16x8: 8 blocks, 128 bytes) and level 1 (8x4: 2 blocks, 32 bytes).
    add("uncompressedByteLength", patched(80 + 16, 127, 8), C::BadLevelIndex,
        "uncompressedByteLength of mip level 0 is 127, but 16x8x1 x 1 layer(s)/face(s) of astc-4x4-unorm needs 128");
    add("byteLength", patched(80 + 24 + 8, 33, 8), C::BadLevelIndex,
        "byteLength of mip level 1 is 33; without supercompression it must equal uncompressedByteLength (32)");
    add("byteOffset in the header", patched(80, 64, 8), C::BadLevelIndex, "points into the header");
    {
        std::vector<uint8_t> b = build(good_spec());
        put_u64(b, 80, b.size() - 128 + 8);  // level 0 moved by 8: misaligned for 16-byte blocks
        add("misaligned level", b, C::BadLevelIndex, "is not a multiple of 16");
        b = build(good_spec());
        put_u64(b, 80, b.size() - 128 + 16);
        add("level past the end", b, C::Truncated, "mip level 0 is 128 bytes at offset");
        b = build(good_spec());
        put_u64(b, 80, uint64_t(-16));
        add("offset overflow", b, C::Truncated, "data is truncated");
    }
    for (const Bad& b : bad) {
        INFO(b.name);
        const ktx2::Error e = parse_error(b.bytes);
        INFO(e.message);
        CHECK(e.code == b.code);
        CHECK(e.message.find(b.message) != std::string::npos);
    }
    // Too short for the header; the KTX 1 identifier is not KTX 2.
    CHECK(parse_error(std::vector<uint8_t>(79, 0)).code == ktx2::ErrorCode::TooSmall);
    std::vector<uint8_t> ktx1 = build(good_spec());
    ktx1[5] = 0x31, ktx1[6] = 0x31;
    CHECK(!ktx2::has_magic(ktx1));
    CHECK(parse_error(ktx1).code == ktx2::ErrorCode::BadMagic);

    // Supercompressed levels that do not inflate to uncompressedByteLength.
    for (const uint32_t scheme : {2u, 3u}) {
        INFO("supercompressionScheme " << scheme);
        const Ktx2Spec spec = ktx2_spec(f, 16, 8, 0, 0, 1, 1, scheme);
        const std::vector<std::vector<uint8_t>> level = {random_bytes(128, 10)};
        // Declared one block larger than the data: the parser accepts the index (it matches the
        // extent), the stream then inflates to fewer bytes.
        Ktx2Spec bigger = spec;
        bigger.width = 20;
        Ktx2File short_stream = ktx2_bytes(bigger, {random_bytes(160, 11)});
        const std::vector<uint8_t> small = compress_level(scheme, level[0]);
        std::copy(small.begin(), small.end(), short_stream.bytes.begin() + short_stream.level_offsets[0]);
        put_u64(short_stream.bytes, 80 + 8, small.size());
        const auto parsed = ktx2::parse(short_stream.bytes);
        const ktx2::Texture& t = parsed_texture(parsed);
        std::vector<uint8_t> storage;
        auto r = ktx2::level_data(short_stream.bytes, t, 0, storage);
        REQUIRE(std::holds_alternative<ktx2::Error>(r));
        CHECK(std::get<ktx2::Error>(r).code == ktx2::ErrorCode::BadSupercompressedData);
        INFO(std::get<ktx2::Error>(r).message);
        CHECK(std::get<ktx2::Error>(r).message.find(scheme == 2 ? "holds 128 bytes; uncompressedByteLength is 160"
                                                                 : "inflates to 128 bytes") != std::string::npos);
        // Garbage instead of a stream.
        Ktx2File garbage = ktx2_bytes(spec, level);
        for (uint64_t i = 0; i < garbage.level_lengths[0]; ++i) garbage.bytes[garbage.level_offsets[0] + i] = uint8_t(0x5A + i);
        const auto parsed_garbage = ktx2::parse(garbage.bytes);
        r = ktx2::level_data(garbage.bytes, parsed_texture(parsed_garbage), 0, storage);
        REQUIRE(std::holds_alternative<ktx2::Error>(r));
        CHECK(std::get<ktx2::Error>(r).code == ktx2::ErrorCode::BadSupercompressedData);
        CHECK(std::get<ktx2::Error>(r).message.find(scheme == 2 ? "not a Zstandard frame" : "zlib data is corrupt") !=
              std::string::npos);
        // A stream longer than the level.
        Ktx2File longer = ktx2_bytes(spec, level);
        const std::vector<uint8_t> big = compress_level(scheme, random_bytes(256, 12));
        longer.bytes.resize(longer.level_offsets[0]);
        longer.bytes.insert(longer.bytes.end(), big.begin(), big.end());
        put_u64(longer.bytes, 80 + 8, big.size());
        const auto parsed_longer = ktx2::parse(longer.bytes);
        r = ktx2::level_data(longer.bytes, parsed_texture(parsed_longer), 0, storage);
        REQUIRE(std::holds_alternative<ktx2::Error>(r));
        CHECK(std::get<ktx2::Error>(r).code == ktx2::ErrorCode::BadSupercompressedData);
    }
}

// Seen in review while writing tests/fuzz, confirmed by fuzz_ktx2 (libFuzzer's malloc limit): a
// level of a few bytes whose uncompressedByteLength says gigabytes made level_data allocate (and
// zero) all of it before finding that the stream cannot hold that much. Now refused first;
// nothing is allocated.
TEST_CASE("KTX2 level_data: a tiny stream claiming 4 GiB is refused before allocating", "[cli][ktx2]") {
    const texdec_format f = TEXDEC_FORMAT_BC7_UNORM;
    const std::vector<uint8_t> zeros(64, 0);
    // zstd without a declared content size: only the block headers bound what it can hold.
    std::vector<uint8_t> undeclared(ZSTD_compressBound(zeros.size()));
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    REQUIRE(ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0)) == 0);
    const size_t n = ZSTD_compress2(cctx, undeclared.data(), undeclared.size(), zeros.data(), zeros.size());
    ZSTD_freeCCtx(cctx);
    REQUIRE(!ZSTD_isError(n));
    undeclared.resize(n);
    REQUIRE(ZSTD_getFrameContentSize(undeclared.data(), undeclared.size()) == ZSTD_CONTENTSIZE_UNKNOWN);
    struct Case {
        const char* name;
        uint32_t scheme;
        std::vector<uint8_t> stream;
        const char* message;
    };
    const Case cases[] = {
        {"zlib", 3, compress_level(3, zeros), "deflate expands at most 1032 times"},
        {"zstd, size declared", 2, compress_level(2, zeros), "holds 64 bytes; uncompressedByteLength is 4294967296"},
        {"zstd, size not declared", 2, undeclared, "bytes of Zstandard data hold at most"},
    };
    for (const Case& c : cases) {
        INFO(c.name);
        Ktx2File file = ktx2_bytes(ktx2_spec(f, 4, 4, 0, 0, 1, 1, c.scheme), {std::vector<uint8_t>(16, 0)});
        file.bytes.resize(file.level_offsets[0]);
        file.bytes.insert(file.bytes.end(), c.stream.begin(), c.stream.end());
        put_u32(file.bytes, 20, 65536);  // pixelWidth, pixelHeight: 16384 x 16384 blocks of 16 bytes
        put_u32(file.bytes, 24, 65536);
        put_u64(file.bytes, 80 + 8, c.stream.size());
        put_u64(file.bytes, 80 + 16, uint64_t(1) << 32);
        const auto parsed = ktx2::parse(file.bytes);
        const ktx2::Texture& t = parsed_texture(parsed);
        std::vector<uint8_t> storage;
        const auto r = ktx2::level_data(file.bytes, t, 0, storage);
        REQUIRE(std::holds_alternative<ktx2::Error>(r));
        CHECK(std::get<ktx2::Error>(r).code == ktx2::ErrorCode::BadSupercompressedData);
        INFO(std::get<ktx2::Error>(r).message);
        CHECK(std::get<ktx2::Error>(r).message.find(c.message) != std::string::npos);
        CHECK(storage.capacity() == 0);
    }
}

TEST_CASE("KTX2 parser: every truncation and every value of every header and index and DFD byte and no crash",
          "[cli][ktx2]") {
    size_t parsed_ok = 0, levels_ok = 0, mutations = 0, wrong = 0, empty_messages = 0, not_bad_magic = 0,
           outside = 0;
    for (const uint32_t scheme : {0u, 2u, 3u}) {
        INFO("supercompressionScheme " << scheme);
        // An array of 2 layers of ASTC 5x4 with 3 levels (level 0 last in the file).
        Ktx2Spec spec = ktx2_spec(TEXDEC_FORMAT_ASTC_5x4_SRGB, 21, 9, 0, 2, 1, 3, scheme);
        spec.key_values = {4, 0, 0, 0, 'a', 0, 'b', 0};
        const Ktx2File file = ktx2_bytes(spec, random_levels(TEXDEC_FORMAT_ASTC_5x4_SRGB, spec, 20 + scheme));
        {
            const auto p = ktx2::parse(file.bytes);
            REQUIRE(check_level_data(file.bytes, parsed_texture(p), wrong) == 3);
        }
        // Every shorter file (exact-size copies, so ASan sees any read past the end).
        for (size_t size = 0; size < file.bytes.size(); ++size) {
            const std::vector<uint8_t> part(file.bytes.begin(), file.bytes.begin() + size);
            const auto r = ktx2::parse(part);
            REQUIRE(std::holds_alternative<ktx2::Error>(r));
            CHECK(!std::get<ktx2::Error>(r).message.empty());
            if (size < 80) CHECK(std::get<ktx2::Error>(r).code == ktx2::ErrorCode::TooSmall);
        }
        // Every value of every byte before the level data.
        const size_t end = file.dfd_offset + file.dfd_length + spec.key_values.size();
        for (size_t at = 0; at < end; ++at)
            for (unsigned v = 0; v < 256; ++v) {
                if (v == file.bytes[at]) continue;
                std::vector<uint8_t> m = file.bytes;
                m[at] = uint8_t(v);
                ++mutations;
                const auto p = ktx2::parse(m);
                if (const auto* e = std::get_if<ktx2::Error>(&p)) {
                    empty_messages += e->message.empty();
                    not_bad_magic += at < 12 && e->code != ktx2::ErrorCode::BadMagic;
                    continue;
                }
                ++parsed_ok;
                const ktx2::Texture& t = std::get<ktx2::Texture>(p);
                REQUIRE(t.levels.size() == t.mip_levels);
                for (const ktx2::Level& l : t.levels) outside += l.byte_offset + l.byte_length > m.size();
                levels_ok += check_level_data(m, t, wrong);
            }
        // Supercompressed streams: every byte of level 1 and level 2 set to 3 values each; level
        // data is then either the right size or an error.
        if (scheme != 0)
            for (uint32_t level : {1u, 2u})
                for (uint64_t i = 0; i < file.level_lengths[level]; ++i)
                    for (uint8_t v : {uint8_t(0), uint8_t(0xFF), uint8_t(file.bytes[file.level_offsets[level] + i] ^ 0x10)}) {
                        std::vector<uint8_t> m = file.bytes;
                        m[file.level_offsets[level] + i] = v;
                        ++mutations;
                        const auto p = ktx2::parse(m);
                        levels_ok += check_level_data(m, parsed_texture(p), wrong);
                    }
    }
    // The mutations above must have reached the level data, not stopped at the parser.
    WARN(mutations << " mutated files: " << parsed_ok << " header mutations parsed, " << levels_ok << " levels read");
    CHECK((wrong == 0 && empty_messages == 0 && not_bad_magic == 0 && outside == 0));
    CHECK(parsed_ok > 1000);
    CHECK(levels_ok > 1000);
}

TEST_CASE("CLI: malformed KTX2 files get exit code 3 and bad --level / --layer / --profile exit code 2",
          "[cli][ktx2]") {
    const texdec_format f = TEXDEC_FORMAT_BC1_RGBA_UNORM;
    const Ktx2Spec spec = ktx2_spec(f, 8, 8, 0, 2, 1, 2, 2);
    const Ktx2File good = ktx2_bytes(spec, random_levels(f, spec, 30));
    std::vector<uint8_t> truncated = good.bytes;
    truncated.resize(truncated.size() - 1);
    std::vector<uint8_t> basis = good.bytes;
    put_u32(basis, 44, 1);
    std::vector<uint8_t> corrupt = good.bytes;
    corrupt[good.level_offsets[0] + 1] ^= 0xFF;  // the zstd frame's magic number
    std::vector<uint8_t> vkformat = good.bytes;
    put_u32(vkformat, 12, 44);  // VK_FORMAT_B8G8R8A8_UNORM
    const std::vector<MalformedInput> cases = {
        {"header cut short", std::vector<uint8_t>(good.bytes.begin(), good.bytes.begin() + 50),
         "shorter than the 80-byte KTX 2 header"},
        {"truncated", truncated, "data is truncated: mip level 0"},
        {"Basis", basis, "BasisLZ: Basis Universal ETC1S) is not supported"},
        {"corrupt zstd", corrupt, "mip level 0 is not a Zstandard frame"},
        {"vkFormat", vkformat, "vkFormat 44 (VK_FORMAT_B8G8R8A8_UNORM) is an uncompressed format"},
    };
    check_malformed_inputs(cases, temp_dir() + "/malformed.ktx2");
    // Usage errors, before any device is opened.
    const std::string in = temp_dir() + "/good.ktx2";
    write_file(in, good.bytes);
    const std::string out = temp_dir() + "/o.png";
    const std::pair<std::string, const char*> usage[] = {
        {"--level 2 " + in, "--level 2: the file has 2 mip levels (0 to 1)"},
        {"--level x " + in, "--level 'x' is not a number or 'all'"},
        {"--layer 2 " + in, "--layer 2: the file has 2 layers (0 to 1)"},
        {"--layer some " + in, "--layer 'some' is not a number or 'all'"},
        {"--profile hdr " + in, "--profile applies to ASTC data; this is a KTX 2.0 file of bc1-rgba-unorm"},
    };
    for (const auto& [args, message] : usage) {
        INFO(args);
        CHECK(run(kCli + " decode " + args + " " + out) == 2);
        INFO(last_stderr());
        CHECK(last_stderr().find(message) != std::string::npos);
    }
    CHECK(run(kCli + " bench --level 1") == 2);
    CHECK(last_stderr().find("option --level applies to 'decode' only") != std::string::npos);
    CHECK(run(kCli + " decode " + in + " " + temp_dir() + "/o.jpg") == 2);
    CHECK(last_stderr().find(".hdr (Radiance RGBE)") != std::string::npos);
    CHECK(run(kCli + " decode --output rgba8 " + in + " " + temp_dir() + "/o.hdr") == 2);
    CHECK(last_stderr().find("an .hdr output is made from RGBA16F texels") != std::string::npos);
}

// ---- .hdr writer ---------------------------------------------------------------------------

namespace {

// FP16 bits -> float, from the IEEE 754 binary16 layout.
float half_value(uint16_t h) {
    const int e = (h >> 10) & 31, m = h & 1023;
    const float sign = (h & 0x8000) ? -1.0f : 1.0f;
    if (e == 31) return m ? std::nanf("") : sign * INFINITY;
    return sign * (e == 0 ? std::ldexp(float(m), -24) : std::ldexp(float(m + 1024), e - 25));
}

// What the .hdr output promises per channel (image_write.h): negative, -0 and NaN -> 0,
// +infinity -> 65504, anything else its own value.
float hdr_input(uint16_t h) {
    const float v = half_value(h);
    if (std::isnan(v) || v <= 0.0f) return 0.0f;
    return std::isinf(v) ? 65504.0f : v;
}

// Radiance RGBE (Greg Ward's format): the largest channel m = f * 2^e with f in [0.5, 1) sets the
// shared exponent e; each channel keeps floor(c * 256 / 2^e) as its 8-bit mantissa and reads back
// as mantissa * 2^(e - 8). All-zero below 1e-32.
void rgbe_round_trip(const float in[3], float out[3]) {
    const float m = std::max({in[0], in[1], in[2]});
    if (m < 1e-32f) {
        out[0] = out[1] = out[2] = 0.0f;
        return;
    }
    int e = 0;
    std::frexp(m, &e);
    for (int c = 0; c < 3; ++c) out[c] = std::floor(std::ldexp(in[c], 8 - e)) * std::ldexp(1.0f, e - 8);
}

}  // namespace

TEST_CASE(".hdr writer: RGBA16F texels read back with stbi_loadf equal the RGBE model bit for bit", "[cli][hdrfile]") {
    // 29 x 7 x 3 texels (slices stacked): special values, every exponent, channels far apart.
    constexpr uint32_t kW = 29, kH = 7, kD = 3;
    const size_t n = size_t(kW) * kH * kD;
    std::vector<uint16_t> halves(n * 4);
    SplitMix64 rng(test_seed() + 77);
    const uint16_t specials[] = {0x0000, 0x8000, 0x0001, 0x03FF, 0x0400, 0x3C00, 0x3BFF, 0x7BFF, 0x7C00,
                                 0xFC00, 0x7E00, 0xFFFF, 0xBC00, 0x5640, 0x1400, 0x3555};
    for (size_t t = 0; t < n; ++t)
        for (int c = 0; c < 4; ++c) {
            uint16_t h;
            if (t < 64)
                h = specials[(t + c * 5) % std::size(specials)];
            else if (t % 3 == 0)  // one channel large, the others tiny: they quantize towards 0
                h = c == int(t % 4) ? uint16_t(0x7000 + rng.next() % 0x0BFF) : uint16_t(rng.next() % 0x2000);
            else
                h = uint16_t(rng.next() % 0x7C00);  // positive finite, every exponent
            halves[t * 4 + c] = h;
        }
    std::vector<uint8_t> texels(n * 8);
    for (size_t i = 0; i < halves.size(); ++i) {
        texels[2 * i] = uint8_t(halves[i]);
        texels[2 * i + 1] = uint8_t(halves[i] >> 8);
    }
    const std::string path = temp_dir() + "/writer.hdr";
    const image_write::WriteResult r =
        image_write::write_hdr(path, {texels, kW, kH, kD, VK_FORMAT_R16G16B16A16_SFLOAT});
    INFO(r.message);
    REQUIRE(r.ok);
    int w = 0, h = 0, comp = 0;
    REQUIRE(stbi_is_hdr(path.c_str()));
    float* got = stbi_loadf(path.c_str(), &w, &h, &comp, 3);
    REQUIRE(got != nullptr);
    CHECK((w == int(kW) && h == int(kH * kD) && comp == 3));
    size_t mismatches = 0, nonzero = 0;
    std::string first;
    for (size_t t = 0; t < n && w == int(kW) && h == int(kH * kD); ++t) {
        const float in[3] = {hdr_input(halves[t * 4]), hdr_input(halves[t * 4 + 1]), hdr_input(halves[t * 4 + 2])};
        float want[3];
        rgbe_round_trip(in, want);
        for (int c = 0; c < 3; ++c) {
            nonzero += want[c] != 0.0f;
            if (std::memcmp(&want[c], &got[t * 3 + c], 4) != 0 && mismatches++ == 0)
                first = "texel " + std::to_string(t) + " channel " + std::to_string(c) + ": half " +
                        std::to_string(halves[t * 4 + c]) + " want " + std::to_string(want[c]) + " got " +
                        std::to_string(got[t * 3 + c]);
            // RGBE keeps 8 bits relative to the texel's largest channel.
            CHECK(std::fabs(got[t * 3 + c] - in[c]) <= std::ldexp(std::max({in[0], in[1], in[2]}), -7));
        }
    }
    stbi_image_free(got);
    INFO("first mismatch: " << first);
    CHECK(mismatches == 0);
    CHECK(nonzero > n);  // the model is not trivially all zeros
    // Only RGBA16F texels can be written.
    CHECK(!image_write::write_hdr(temp_dir() + "/bad.hdr", {texels, kW, kH, kD, VK_FORMAT_R8G8B8A8_UNORM}).ok);
}

// ---- end to end: ASTC through the CLI against libastcenc ------------------------------------

namespace {

bool astcenc_cli_ready() {
    const std::string why = astcenc_cli_unavailable_reason();
    if (why.empty()) return true;
    fail_or_skip_for_missing_device(why);
    return false;
}

AstcFootprint footprint_of(texdec_format format) {
    const texdec_format_info info = format_info(format);
    return {info.block_width, info.block_height, info.block_depth};
}

bool is_sfloat(texdec_format format) { return format_info(format).flags & TEXDEC_FORMAT_FLAG_HDR; }
bool is_srgb(texdec_format format) { return format_info(format).flags & TEXDEC_FORMAT_FLAG_SRGB; }

// The CLI's default raw output of an ASTC format, from libastcenc: RGBA8 = decode_unorm8 (LDR,
// sRGB), RGBA16F halves (little-endian) = its FP16 output in the HDR profile (sfloat).
std::vector<uint8_t> astc_oracle_bytes(texdec_format format, uint32_t w, uint32_t h, uint32_t d,
                                       const std::vector<uint8_t>& blocks) {
    const AstcFootprint fp = footprint_of(format);
    if (is_sfloat(format)) {
        const std::vector<uint16_t> f16 = astcenc_decode_f16(AstcProfile::hdr, fp, w, h, d, blocks.data(), blocks.size());
        std::vector<uint8_t> out(f16.size() * 2);
        for (size_t i = 0; i < f16.size(); ++i) out[2 * i] = uint8_t(f16[i]), out[2 * i + 1] = uint8_t(f16[i] >> 8);
        return out;
    }
    return astcenc_decode_unorm8(is_srgb(format) ? AstcProfile::ldr_srgb : AstcProfile::ldr, fp, w, h, d,
                                 blocks.data(), blocks.size());
}

// Texels that differ; the first one described (texel, block and its bytes) in `first`.
size_t count_mismatches(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, texdec_format format,
                        uint32_t w, uint32_t h, const std::vector<uint8_t>& blocks, std::string& first) {
    const uint32_t texel = is_sfloat(format) ? 8 : 4;
    if (got.size() != want.size()) {
        first = "sizes differ: got " + std::to_string(got.size()) + " bytes, want " + std::to_string(want.size());
        return want.size() / texel;
    }
    const AstcFootprint fp = footprint_of(format);
    const uint32_t bw = (w + fp.x - 1) / fp.x, bh = (h + fp.y - 1) / fp.y;
    size_t mismatches = 0;
    for (size_t t = 0; t < want.size() / texel; ++t) {
        if (std::memcmp(&got[t * texel], &want[t * texel], texel) == 0) continue;
        if (mismatches++ == 0) {
            const size_t x = t % w, y = t / w % h, z = t / (size_t(w) * h);
            const size_t b = (z / fp.z * bh + y / fp.y) * bw + x / fp.x;
            first = "texel (" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + "): want " +
                    hex_bytes(&want[t * texel], texel) + " got " + hex_bytes(&got[t * texel], texel) +
                    (b * 16 + 16 <= blocks.size() ? "; block " + hex_bytes(&blocks[b * 16], 16) : std::string());
        }
    }
    return mismatches;
}

// Random ASTC blocks: every bit pattern (most are valid blocks, some error blocks), and every
// fourth block a void extent (LDR UNORM16 or, for sfloat, also HDR FP16 values).
std::vector<uint8_t> random_astc_blocks(size_t count, bool hdr, uint64_t seed) {
    std::vector<uint8_t> out = random_bytes(count * 16, seed);
    SplitMix64 rng(seed + 99);
    for (size_t b = 0; b < count; b += 4) {
        uint8_t* p = &out[b * 16];
        const bool hdr_void = hdr && (rng.next() & 1);
        p[0] = 0xFC, p[1] = hdr_void ? 0xFF : 0xFD;
        std::fill(p + 2, p + 8, 0xFF);
        for (int c = 0; c < 4; ++c) {
            const uint16_t v = hdr_void ? uint16_t(rng.next() % 0x7C00) : uint16_t(rng.next());
            p[8 + 2 * c] = uint8_t(v), p[9 + 2 * c] = uint8_t(v >> 8);
        }
    }
    return out;
}

// Blocks of a w x h x d image encoded by the astcenc CLI from the procedural test image (2D:
// one TGA; 3D footprints: d slices through -zdim). LDR and sRGB formats only.
std::vector<uint8_t> astcenc_blocks(texdec_format format, uint32_t w, uint32_t h, uint32_t d, uint64_t seed) {
    const AstcFootprint fp = footprint_of(format);
    const std::string base = temp_dir() + "/enc_" + std::to_string(seed);
    std::string extra = "-fast";
    if (fp.z > 1) {
        for (uint32_t z = 0; z < d; ++z) write_procedural_tga(base + "_" + std::to_string(z) + ".tga", w, h, seed + z);
        extra += " -zdim " + std::to_string(d);
    } else {
        REQUIRE(d == 1);
        write_procedural_tga(base + ".tga", w, h, seed);
    }
    const AstcProfile profile = is_srgb(format) ? AstcProfile::ldr_srgb : AstcProfile::ldr;
    REQUIRE(astcenc_cli_encode(profile, base + ".tga", base + ".astc", fp, extra) == "");
    const AstcFileContents file = read_astc_file(base + ".astc");
    REQUIRE(file.error == "");
    REQUIRE((file.w == w && file.h == h && file.d == d && file.fp.z == fp.z));
    return file.blocks;
}

// Runs the CLI on `args` (ending in the output path); REQUIREs success and returns stderr.
std::string cli_ok(const std::string& args) {
    const std::string command = kCli + " decode " + args;
    const int code = run(command);
    INFO(command << "\n" << last_stderr());
    REQUIRE(code == 0);
    return last_stderr();
}

}  // namespace

TEST_CASE("CLI: ASTC LDR KTX2 files (none and Zstandard and zlib) with levels and layers equal libastcenc",
          "[cli][gpu][astc][ktx2]") {
    if (!cli_has_device() || !astcenc_cli_ready()) return;
    struct Case {
        texdec_format format;
        uint32_t scheme;
    };
    const Case cases[] = {{TEXDEC_FORMAT_ASTC_6x5_UNORM, 2},
                          {TEXDEC_FORMAT_ASTC_8x8_SRGB, 3},
                          {TEXDEC_FORMAT_ASTC_10x6_UNORM, 0},
                          {TEXDEC_FORMAT_ASTC_4x4_SRGB, 2}};
    constexpr uint32_t kW = 37, kH = 29;
    for (const Case& c : cases) {
        const texdec_format_info info = format_info(c.format);
        INFO(info.name << " supercompressionScheme " << c.scheme);
        // 2 layers, 3 levels: level 0 encoded by astcenc (another image per layer), the smaller
        // levels random blocks and void extents.
        const Ktx2Spec spec = ktx2_spec(c.format, kW, kH, 0, 2, 1, 3, c.scheme);
        std::vector<std::vector<uint8_t>> levels;
        for (uint32_t l = 0; l < 3; ++l) {
            const uint32_t w = std::max(1u, kW >> l), h = std::max(1u, kH >> l);
            std::vector<uint8_t> level;
            for (uint32_t layer = 0; layer < 2; ++layer) {
                const std::vector<uint8_t> b = l == 0 ? astcenc_blocks(c.format, w, h, 1, 100 + layer)
                                                      : random_astc_blocks(encoded_size(c.format, w, h, 1) / 16, false,
                                                                           test_seed() + l * 2 + layer);
                level.insert(level.end(), b.begin(), b.end());
            }
            levels.push_back(level);
        }
        const std::string in = temp_dir() + "/" + info.name + ".ktx2";
        write_file(in, ktx2_bytes(spec, levels).bytes);
        // Level 0 of layer 0 (the default), then every layer of level 1 (one output per layer,
        // named -layerN), then layer 1 of level 2.
        struct Pick {
            std::string args;
            uint32_t level, first_layer, layers;
        };
        const Pick picks[] = {{"", 0, 0, 1}, {"--level 1 --layer all ", 1, 0, 2}, {"--level=2 --layer=1 ", 2, 1, 1}};
        for (const Pick& p : picks) {
            INFO(p.args);
            const uint32_t w = std::max(1u, kW >> p.level), h = std::max(1u, kH >> p.level);
            const size_t image = size_t(encoded_size(c.format, w, h, 1));
            const std::string out = temp_dir() + "/ktx2_out.raw";
            const std::string log = cli_ok(p.args + in + " " + out);
            CHECK(log.find("decoded " + std::string(info.name) + " " + std::to_string(w) + "x" + std::to_string(h) +
                           "x1 ") != std::string::npos);
            for (uint32_t layer = p.first_layer; layer < p.first_layer + p.layers; ++layer) {
                const std::vector<uint8_t> blocks(levels[p.level].begin() + image * layer,
                                                  levels[p.level].begin() + image * (layer + 1));
                const std::string path =
                    p.layers > 1 ? temp_dir() + "/ktx2_out-layer" + std::to_string(layer) + ".raw" : out;
                const std::vector<uint8_t> want = astc_oracle_bytes(c.format, w, h, 1, blocks);
                std::string first;
                const size_t mismatches = count_mismatches(read_file(path), want, c.format, w, h, blocks, first);
                INFO(path << " first mismatch: " << first);
                CHECK(mismatches == 0);
            }
        }
        if (c.scheme == 0) {  // and once to PNGs: each layer of level 0 in its own file
            for (uint32_t layer = 0; layer < 2; ++layer)
                std::remove((temp_dir() + "/ktx2_layers-layer" + std::to_string(layer) + ".png").c_str());
            cli_ok("--layer all " + in + " " + temp_dir() + "/ktx2_layers.png");
            for (uint32_t layer = 0; layer < 2; ++layer) {
                const std::string png = temp_dir() + "/ktx2_layers-layer" + std::to_string(layer) + ".png";
                int w = 0, h = 0, n = 0;
                stbi_uc* pixels = stbi_load(png.c_str(), &w, &h, &n, 4);
                INFO(png);
                REQUIRE(pixels != nullptr);
                const std::vector<uint8_t> got(pixels, pixels + size_t(w) * h * 4);
                stbi_image_free(pixels);
                REQUIRE((w == int(kW) && h == int(kH)));
                const size_t image = size_t(encoded_size(c.format, kW, kH, 1));
                const std::vector<uint8_t> blocks(levels[0].begin() + image * layer, levels[0].begin() + image * (layer + 1));
                std::string first;
                CHECK(count_mismatches(got, astc_oracle_bytes(c.format, kW, kH, 1, blocks), c.format, kW, kH, blocks,
                                       first) == 0);
            }
        }
    }
}


// ---- end to end: ASTC HDR and 3D footprints ----------------------------------------------------

namespace {

// Blocks of a w x h x d image encoded by the astcenc CLI in its HDR profile from the procedural
// HDR test image (-ch: HDR RGB, LDR alpha; -cH: HDR RGBA); 3D footprints from d slices (-zdim).
std::vector<uint8_t> astcenc_hdr_blocks(texdec_format format, uint32_t w, uint32_t h, uint32_t d, bool hdr_alpha,
                                        uint64_t seed) {
    const AstcFootprint fp = footprint_of(format);
    const std::string base = temp_dir() + "/hdr_enc_" + std::to_string(seed);
    std::string extra = "-fast";
    if (fp.z > 1) {
        for (uint32_t z = 0; z < d; ++z)
            REQUIRE(write_procedural_exr(base + "_" + std::to_string(z) + ".exr", w, h, seed + z) == "");
        extra += " -zdim " + std::to_string(d);
    } else {
        REQUIRE(d == 1);
        REQUIRE(write_procedural_exr(base + ".exr", w, h, seed) == "");
    }
    REQUIRE(astcenc_cli_encode_hdr(hdr_alpha, base + ".exr", base + ".astc", fp, extra) == "");
    const AstcFileContents file = read_astc_file(base + ".astc");
    REQUIRE(file.error == "");
    REQUIRE((file.w == w && file.h == h && file.d == d && file.fp.z == fp.z));
    return file.blocks;
}

std::vector<uint8_t> astc_file_bytes(texdec_format format, uint32_t w, uint32_t h, uint32_t d,
                                     const std::vector<uint8_t>& blocks) {
    std::vector<uint8_t> bytes = astc_file_header(footprint_of(format), w, h, d);
    bytes.insert(bytes.end(), blocks.begin(), blocks.end());
    return bytes;
}

const char* profile_arg(texdec_format format) { return is_sfloat(format) ? "hdr" : is_srgb(format) ? "srgb" : "ldr"; }

// An .exr written by the CLI: its four HALF channels as RGBA bit patterns (little-endian bytes,
// as the raw output holds them).
std::vector<uint8_t> read_exr_halves(const std::string& path, uint32_t w, uint32_t h) {
    EXRVersion version;
    REQUIRE(ParseEXRVersionFromFile(&version, path.c_str()) == TINYEXR_SUCCESS);
    EXRHeader header;
    InitEXRHeader(&header);
    const char* err = nullptr;
    REQUIRE(ParseEXRHeaderFromFile(&header, &version, path.c_str(), &err) == TINYEXR_SUCCESS);
    EXRImage image;
    InitEXRImage(&image);
    REQUIRE(LoadEXRImageFromFile(&image, &header, path.c_str(), &err) == TINYEXR_SUCCESS);
    REQUIRE((image.width == int(w) && image.height == int(h) && header.num_channels == 4));
    std::vector<uint8_t> out(size_t(w) * h * 8);
    for (size_t t = 0; t < size_t(w) * h; ++t)
        for (int c = 0; c < 4; ++c)  // stored sorted by name: A, B, G, R
            std::memcpy(&out[t * 8 + c * 2], image.images[3 - c] + t * 2, 2);
    FreeEXRImage(&image);
    FreeEXRHeader(&header);
    return out;
}

// Decodes `in` with the CLI to a .raw and compares with libastcenc; `args` picks what to decode.
// With --layer all, each of the d layers is its own output (e2e-layerN.raw), compared here as the
// d slices the oracle decodes.
void check_raw(const std::string& args, const std::string& in, texdec_format format, uint32_t w, uint32_t h,
               uint32_t d, const std::vector<uint8_t>& blocks) {
    INFO(args << in);
    const bool per_layer = args.find("--layer all") != std::string::npos;
    const std::string out = temp_dir() + "/e2e.raw";
    auto layer_path = [&](uint32_t i) { return temp_dir() + "/e2e-layer" + std::to_string(i) + ".raw"; };
    std::remove(out.c_str());
    for (uint32_t i = 0; i < d; ++i) std::remove(layer_path(i).c_str());
    const std::string log = cli_ok(args + in + " " + out);
    const std::string extent = std::to_string(w) + "x" + std::to_string(h) + "x" + std::to_string(per_layer ? 1 : d);
    CHECK(log.find("decoded " + std::string(format_info(format).name) + " " + extent + " ") != std::string::npos);
    std::vector<uint8_t> got;
    for (uint32_t i = 0; i < (per_layer ? d : 1); ++i) {
        const std::vector<uint8_t> part = read_file(per_layer ? layer_path(i) : out);
        got.insert(got.end(), part.begin(), part.end());
    }
    std::string first;
    const size_t mismatches =
        count_mismatches(got, astc_oracle_bytes(format, w, h, d, blocks), format, w, h, blocks, first);
    INFO("first mismatch: " << first);
    CHECK(mismatches == 0);
}

}  // namespace

TEST_CASE("CLI: ASTC 3D footprints from .astc and KTX2 files (unorm and srgb and sfloat) equal libastcenc",
          "[cli][gpu][astc][cli3d]") {
    if (!cli_has_device() || !astcenc_cli_ready()) return;
    struct Case {
        texdec_format format;
        uint32_t w, h, d;
        bool encoded;  // from the astcenc CLI, else random blocks and void extents
    };
    const Case cases[] = {
        {TEXDEC_FORMAT_ASTC_4x4x4_UNORM, 19, 13, 7, true},  {TEXDEC_FORMAT_ASTC_3x3x3_SRGB, 10, 11, 5, true},
        {TEXDEC_FORMAT_ASTC_6x6x5_SFLOAT, 17, 13, 6, true}, {TEXDEC_FORMAT_ASTC_5x4x4_SFLOAT, 21, 9, 9, false},
        {TEXDEC_FORMAT_ASTC_6x6x6_UNORM, 13, 7, 8, false},  {TEXDEC_FORMAT_ASTC_5x5x5_SRGB, 11, 16, 6, false},
    };
    for (const Case& c : cases) {
        const char* name = format_info(c.format).name;
        INFO(name << (c.encoded ? " (astcenc)" : " (random blocks)"));
        const std::vector<uint8_t> blocks =
            !c.encoded          ? random_astc_blocks(encoded_size(c.format, c.w, c.h, c.d) / 16, is_sfloat(c.format),
                                                     test_seed() + c.format)
            : is_sfloat(c.format) ? astcenc_hdr_blocks(c.format, c.w, c.h, c.d, true, 500 + c.format)
                                  : astcenc_blocks(c.format, c.w, c.h, c.d, 500 + c.format);
        const std::string astc = temp_dir() + "/" + name + ".astc";
        write_file(astc, astc_file_bytes(c.format, c.w, c.h, c.d, blocks));
        check_raw(std::string("--profile ") + profile_arg(c.format) + " ", astc, c.format, c.w, c.h, c.d, blocks);
    }
    // A 3D footprint to a PNG and an .exr: the slices stacked top to bottom.
    {
        const texdec_format f = TEXDEC_FORMAT_ASTC_4x4x4_SRGB;
        const std::vector<uint8_t> blocks = astcenc_blocks(f, 9, 6, 5, 900);
        const std::string astc = temp_dir() + "/stack.astc", png = temp_dir() + "/stack.png";
        write_file(astc, astc_file_bytes(f, 9, 6, 5, blocks));
        CHECK(cli_ok("--profile srgb " + astc + " " + png).find("5 slices stacked") != std::string::npos);
        int w = 0, h = 0, n = 0;
        stbi_uc* pixels = stbi_load(png.c_str(), &w, &h, &n, 4);
        REQUIRE(pixels != nullptr);
        const std::vector<uint8_t> got(pixels, pixels + size_t(w) * h * 4);
        stbi_image_free(pixels);
        REQUIRE((w == 9 && h == 30));
        std::string first;
        CHECK(count_mismatches(got, astc_oracle_bytes(f, 9, 6, 5, blocks), f, 9, 6, blocks, first) == 0);
        INFO(first);
        const texdec_format hf = TEXDEC_FORMAT_ASTC_3x3x3_SFLOAT;
        const std::vector<uint8_t> hblocks = astcenc_hdr_blocks(hf, 8, 5, 4, false, 901);
        const std::string hastc = temp_dir() + "/stack_hdr.astc", exr = temp_dir() + "/stack_hdr.exr";
        write_file(hastc, astc_file_bytes(hf, 8, 5, 4, hblocks));
        cli_ok("--profile hdr " + hastc + " " + exr);
        CHECK(count_mismatches(read_exr_halves(exr, 8, 20), astc_oracle_bytes(hf, 8, 5, 4, hblocks), hf, 8, 5, hblocks,
                               first) == 0);
        INFO(first);
    }
    // KTX 2 3D textures with two levels, one per supercompression scheme; level 1 picked.
    struct KtxCase {
        texdec_format format;
        uint32_t scheme;
    };
    const KtxCase ktx_cases[] = {{TEXDEC_FORMAT_ASTC_4x3x3_UNORM, 0},
                                 {TEXDEC_FORMAT_ASTC_5x5x4_SRGB, 2},
                                 {TEXDEC_FORMAT_ASTC_6x5x5_SFLOAT, 3}};
    for (const KtxCase& k : ktx_cases) {
        const char* name = format_info(k.format).name;
        INFO(name << " KTX2 supercompressionScheme " << k.scheme);
        const Ktx2Spec spec = ktx2_spec(k.format, 23, 14, 10, 0, 1, 2, k.scheme);
        std::vector<std::vector<uint8_t>> levels = {
            is_sfloat(k.format) ? astcenc_hdr_blocks(k.format, 23, 14, 10, true, 700 + k.format)
                                : astcenc_blocks(k.format, 23, 14, 10, 700 + k.format),
            random_astc_blocks(encoded_size(k.format, 11, 7, 5) / 16, is_sfloat(k.format), test_seed() + 3)};
        const std::string in = temp_dir() + "/" + name + ".ktx2";
        write_file(in, ktx2_bytes(spec, levels).bytes);
        check_raw("", in, k.format, 23, 14, 10, levels[0]);
        check_raw("--level 1 ", in, k.format, 11, 7, 5, levels[1]);
    }
    // An array of a 3D footprint: --layer all writes one file per layer.
    const Ktx2Spec arr = ktx2_spec(TEXDEC_FORMAT_ASTC_3x3x3_UNORM, 6, 6, 0, 2);
    const std::string arr_in = temp_dir() + "/array3d.ktx2";
    const std::vector<std::vector<uint8_t>> arr_levels = random_levels(TEXDEC_FORMAT_ASTC_3x3x3_UNORM, arr, 5);
    write_file(arr_in, ktx2_bytes(arr, arr_levels).bytes);
    const size_t layer_bytes = arr_levels[0].size() / 2;
    for (uint32_t layer = 0; layer < 2; ++layer)
        check_raw("--layer " + std::to_string(layer) + " ", arr_in, TEXDEC_FORMAT_ASTC_3x3x3_UNORM, 6, 6, 1,
                  std::vector<uint8_t>(arr_levels[0].begin() + layer_bytes * layer,
                                       arr_levels[0].begin() + layer_bytes * (layer + 1)));
    cli_ok("--layer all " + arr_in + " " + temp_dir() + "/a3d.raw");
    CHECK(read_file(temp_dir() + "/a3d-layer1.raw").size() == 6 * 6 * 4);
}

TEST_CASE("CLI: ASTC HDR (--profile hdr .astc and .ktx and sfloat KTX2) to .raw and .exr and .hdr equals libastcenc",
          "[cli][gpu][astc][clihdr]") {
    if (!cli_has_device() || !astcenc_cli_ready()) return;
    constexpr uint32_t kW = 37, kH = 29;
    struct Case {
        texdec_format format;
        bool hdr_alpha;
    };
    const Case cases[] = {{TEXDEC_FORMAT_ASTC_4x4_SFLOAT, false},
                          {TEXDEC_FORMAT_ASTC_6x6_SFLOAT, true},
                          {TEXDEC_FORMAT_ASTC_8x5_SFLOAT, false},
                          {TEXDEC_FORMAT_ASTC_12x12_SFLOAT, true}};
    for (const Case& c : cases) {
        const char* name = format_info(c.format).name;
        INFO(name << (c.hdr_alpha ? " -cH" : " -ch"));
        const std::vector<uint8_t> blocks = astcenc_hdr_blocks(c.format, kW, kH, 1, c.hdr_alpha, 300 + c.format);
        const std::string astc = temp_dir() + "/" + name + ".astc";
        write_file(astc, astc_file_bytes(c.format, kW, kH, 1, blocks));
        check_raw("--profile hdr ", astc, c.format, kW, kH, 1, blocks);
    }
    // .exr (the halves bit for bit) and .hdr (RGBE of the same values) of one encoded image and of
    // random blocks with HDR and LDR void extents.
    const texdec_format f = TEXDEC_FORMAT_ASTC_5x4_SFLOAT;
    for (const bool random : {false, true}) {
        INFO((random ? "random blocks" : "astcenc -cH"));
        const std::vector<uint8_t> blocks = random ? random_astc_blocks(encoded_size(f, kW, kH, 1) / 16, true, test_seed() + 8)
                                                   : astcenc_hdr_blocks(f, kW, kH, 1, true, 333);
        const std::string astc = temp_dir() + "/hdr_out.astc", exr = temp_dir() + "/hdr_out.exr",
                          hdr = temp_dir() + "/hdr_out.hdr";
        write_file(astc, astc_file_bytes(f, kW, kH, 1, blocks));
        const std::vector<uint8_t> want = astc_oracle_bytes(f, kW, kH, 1, blocks);
        cli_ok("--profile hdr " + astc + " " + exr);
        std::string first;
        CHECK(count_mismatches(read_exr_halves(exr, kW, kH), want, f, kW, kH, blocks, first) == 0);
        INFO(first);
        cli_ok("--profile hdr " + astc + " " + hdr);
        int w = 0, h = 0, n = 0;
        float* got = stbi_loadf(hdr.c_str(), &w, &h, &n, 3);
        REQUIRE(got != nullptr);
        REQUIRE((w == int(kW) && h == int(kH)));
        size_t mismatches = 0;
        for (size_t t = 0; t < size_t(kW) * kH; ++t) {
            float in[3], expect[3];
            for (int ch = 0; ch < 3; ++ch) in[ch] = hdr_input(uint16_t(want[t * 8 + ch * 2] | want[t * 8 + ch * 2 + 1] << 8));
            rgbe_round_trip(in, expect);
            mismatches += std::memcmp(expect, &got[t * 3], sizeof expect) != 0;
        }
        stbi_image_free(got);
        CHECK(mismatches == 0);
    }
    // An HDR format to PNG is a usage error.
    CHECK(run(kCli + " decode --profile hdr " + temp_dir() + "/hdr_out.astc " + temp_dir() + "/o.png") == 2);
    CHECK(last_stderr().find("astc-5x4-sfloat is an HDR format") != std::string::npos);

    // KTX 1: GL_COMPRESSED_RGBA_ASTC_6x6_KHR does not say HDR; --profile hdr does.
    {
        const texdec_format hf = TEXDEC_FORMAT_ASTC_6x6_SFLOAT;
        const std::vector<uint8_t> blocks = astcenc_hdr_blocks(hf, kW, kH, 1, false, 444);
        std::vector<uint8_t> ktx(64, 0);
        const uint8_t id[12] = {0xAB, 0x4B, 0x54, 0x58, 0x20, 0x31, 0x31, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A};
        std::copy(id, id + 12, ktx.begin());
        const uint32_t fields[13] = {0x04030201, 0, 1, 0, 0x93B4, 0x1908, kW, kH, 0, 0, 1, 1, 0};
        for (int i = 0; i < 13; ++i) put_u32(ktx, 12 + 4 * i, fields[i]);
        ktx.resize(68);
        put_u32(ktx, 64, uint32_t(blocks.size()));
        ktx.insert(ktx.end(), blocks.begin(), blocks.end());
        const std::string in = temp_dir() + "/hdr.ktx";
        write_file(in, ktx);
        check_raw("--profile hdr ", in, hf, kW, kH, 1, blocks);
        // Without it, the same blocks are astc-6x6-unorm; srgb overrides the linear GL enum, with a
        // note (--profile overrides a container's ASTC format).
        check_raw("", in, TEXDEC_FORMAT_ASTC_6x6_UNORM, kW, kH, 1, blocks);
        CHECK(run(kCli + " decode --profile srgb " + in + " " + temp_dir() + "/o.raw") == 0);
        CHECK(last_stderr().find("--profile srgb overrides the format its header names") != std::string::npos);
    }
    // KTX 2: vkFormat ASTC_10x8_SFLOAT_BLOCK, Zstandard, two layers decoded as two slices.
    {
        const texdec_format hf = TEXDEC_FORMAT_ASTC_10x8_SFLOAT;
        const Ktx2Spec spec = ktx2_spec(hf, kW, kH, 0, 2, 1, 1, 2);
        std::vector<uint8_t> level = astcenc_hdr_blocks(hf, kW, kH, 1, true, 555);
        const std::vector<uint8_t> second = random_astc_blocks(level.size() / 16, true, test_seed() + 9);
        level.insert(level.end(), second.begin(), second.end());
        const std::string in = temp_dir() + "/hdr_layers.ktx2";
        write_file(in, ktx2_bytes(spec, {level}).bytes);
        check_raw("--layer all ", in, hf, kW, kH, 2, level);
    }
}

TEST_CASE("CLI: --level and --layer all on a DX10 .dds array (layers not contiguous) equal the EXACT model",
          "[cli][gpu][dds]") {
    if (!cli_has_device()) return;
    // BC3 UNORM (DXGI 77), 3 array elements of 12x8 with 2 mip levels: each element's levels are
    // together, so the layers of level 1 are not contiguous and the CLI gathers them.
    constexpr uint32_t kLayers = 3, kW = 12, kH = 8;
    const size_t level0 = 3 * 2 * 16, level1 = 2 * 1 * 16;
    const std::vector<uint8_t> data = random_bytes(kLayers * (level0 + level1), test_seed() + 4);
    std::vector<uint8_t> dds(4 + 124 + 20, 0);
    dds[0] = 'D', dds[1] = 'D', dds[2] = 'S', dds[3] = ' ';
    put_u32(dds, 4, 124);
    put_u32(dds, 8, 0x1 | 0x2 | 0x4 | 0x1000 | 0x20000);  // CAPS HEIGHT WIDTH PIXELFORMAT MIPMAPCOUNT
    put_u32(dds, 12, kH);
    put_u32(dds, 16, kW);
    put_u32(dds, 28, 2);    // mip levels
    put_u32(dds, 76, 32);   // DDS_PIXELFORMAT
    put_u32(dds, 80, 0x4);  // DDPF_FOURCC "DX10"
    dds[84] = 'D', dds[85] = 'X', dds[86] = '1', dds[87] = '0';
    put_u32(dds, 108, 0x1000 | 0x400000 | 0x8);  // DDSCAPS_TEXTURE | MIPMAP | COMPLEX
    put_u32(dds, 128, 77);       // DXGI_FORMAT_BC3_UNORM
    put_u32(dds, 132, 3);        // D3D10_RESOURCE_DIMENSION_TEXTURE2D
    put_u32(dds, 140, kLayers);  // arraySize
    dds.insert(dds.end(), data.begin(), data.end());
    const std::string in = temp_dir() + "/array.dds", out = temp_dir() + "/array.raw";
    write_file(in, dds);
    const BcFormat& bc3 = *std::find_if(bc_formats().begin(), bc_formats().end(),
                                        [](const BcFormat& f) { return f.format == TEXDEC_FORMAT_BC3_UNORM; });
    struct Pick {
        std::string args;
        uint32_t level, first_layer, layers;
    };
    for (const Pick& p : {Pick{"--level 1 --layer all ", 1, 0, kLayers}, Pick{"--layer 2 ", 0, 2, 1}}) {
        INFO(p.args);
        const uint32_t w = kW >> p.level, h = kH >> p.level, bw = (w + 3) / 4, bh = (h + 3) / 4;
        const std::string log = cli_ok(p.args + "--output rgba8 " + in + " " + out);
        CHECK(log.find("decoded bc3-unorm " + std::to_string(w) + "x" + std::to_string(h) + "x1") != std::string::npos);
        std::vector<uint8_t> got;  // --layer all: one file per layer (array-layerN.raw), gathered here
        for (uint32_t layer = 0; layer < p.layers; ++layer) {
            const std::vector<uint8_t> part =
                read_file(p.layers > 1 ? temp_dir() + "/array-layer" + std::to_string(layer) + ".raw" : out);
            got.insert(got.end(), part.begin(), part.end());
        }
        REQUIRE(got.size() == size_t(w) * h * p.layers * 4);
        size_t mismatches = 0;
        for (uint32_t layer = 0; layer < p.layers; ++layer) {
            const size_t surface = (p.first_layer + layer) * (level0 + level1) + (p.level ? level0 : 0);
            for (uint32_t b = 0; b < bw * bh; ++b) {
                ReferenceBlock ref;
                reference_decode(bc3, TEXDEC_BC_ROUNDING_EXACT, Oracle::ExactModel, &data[surface + b * 16], &ref);
                for (uint32_t t = 0; t < 16; ++t) {
                    const uint32_t x = b % bw * 4 + t % 4, y = b / bw * 4 + t / 4;
                    if (x >= w || y >= h) continue;
                    uint8_t want[8];
                    pack_reference_texel(bc3, TEXDEC_OUTPUT_RGBA8, ref.texel[t], want);
                    mismatches += std::memcmp(want, &got[((size_t(layer) * h + y) * w + x) * 4], 4) != 0;
                }
            }
        }
        CHECK(mismatches == 0);
    }
}

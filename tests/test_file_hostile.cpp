// texdec_file_open and texdec_file_read_* on malformed, unsupported and hostile files, through the
// public API only (include/texdec/texdec_file.h): each refusal's status, its texdec_file_problem,
// and the field its message names. The cases are today's parser-contract cases (test_cli.cpp,
// test_cli_hdr3d.cpp, test_cli_hostile.cpp assert them on src/io's parsers), plus key-value edge
// cases (a size past the end, a missing NUL, padding, big-endian), Basis Universal KTX 2 files,
// decompression bombs (a zlib / Zstandard level claiming far more than its stream can hold), every
// truncation of a valid file of each container, and every value of every header byte.
// Files come from tests/support/container_files (field by field) and container_writer (whole files).
#include <catch2/catch.hpp>

#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <texdec/texdec.h>
#include <texdec/texdec_file.h>

#include "support/container_files.h"
#include "support/container_writer.h"

namespace w = texdec_test::writer;
using texdec_test::dx10_dds;
using texdec_test::ktx2_bytes;
using texdec_test::ktx2_spec;
using texdec_test::ktx_bytes;
using texdec_test::KtxHeader;
using texdec_test::KtxLevel;
using texdec_test::legacy_dds;
using texdec_test::pkm_bytes;
using texdec_test::put_u32;
using texdec_test::put_u32_order;
using texdec_test::put_u64;

namespace {

std::vector<uint8_t> random_bytes(size_t n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<uint8_t> b(n);
    for (uint8_t& v : b) v = uint8_t(rng());
    return b;
}

std::vector<uint8_t> cut(std::vector<uint8_t> b, size_t size) {
    b.resize(size);
    return b;
}

// The coarse status of each problem (texdec_file.h's groups).
texdec_status status_of(texdec_file_problem p) {
    if (p == TEXDEC_FILE_PROBLEM_NONE) return TEXDEC_SUCCESS;
    if (p <= TEXDEC_FILE_PROBLEM_UNSUPPORTED_SUPERCOMPRESSION) return TEXDEC_ERROR_UNSUPPORTED_FILE;
    if (p == TEXDEC_FILE_PROBLEM_BASIS_UNIVERSAL) return TEXDEC_ERROR_BASIS_UNIVERSAL;
    return TEXDEC_ERROR_MALFORMED_FILE;
}

struct Opened {
    texdec_status status = TEXDEC_SUCCESS;
    texdec_file_problem problem = TEXDEC_FILE_PROBLEM_MAX_ENUM;
    std::vector<std::string> errors, warnings, infos;
    texdec_file* file = nullptr;
    Opened() = default;
    Opened(const Opened&) = delete;
    Opened& operator=(const Opened&) = delete;
    ~Opened() { texdec_file_destroy(file); }
    std::string all_errors() const {
        std::string s;
        for (const std::string& e : errors) s += e + " | ";
        return s;
    }
    bool error_has(const std::string& text) const {
        return std::any_of(errors.begin(), errors.end(), [&](const std::string& e) { return e.find(text) != e.npos; });
    }
    bool warning_has(const std::string& text) const {
        return std::any_of(warnings.begin(), warnings.end(),
                           [&](const std::string& e) { return e.find(text) != e.npos; });
    }
};

void collect(texdec_message_severity severity, const char* message, void* user) {
    Opened& o = *static_cast<Opened*>(user);
    const std::string m = message ? message : "(null)";
    if (severity == TEXDEC_MESSAGE_ERROR) o.errors.push_back(m);
    else if (severity == TEXDEC_MESSAGE_WARNING) o.warnings.push_back(m);
    else o.infos.push_back(m);
}

// Opens `bytes` (a copy, so the Opened outlives the vector) with a message callback and a problem.
void open_file(const std::vector<uint8_t>& bytes, Opened& o) {
    texdec_file_open_info info{};
    info.flags = TEXDEC_FILE_OPEN_COPY;
    info.message_callback = &collect;
    info.user_data = &o;
    info.problem = &o.problem;
    o.status = texdec_file_open(&info, bytes.empty() ? nullptr : bytes.data(), bytes.size(), &o.file);
}

struct Bad {
    std::string name;
    std::vector<uint8_t> bytes;
    texdec_file_problem problem;
    std::string field;  // the message names it
};

void check_refused(const Bad& b) {
    INFO(b.name);
    Opened o;
    open_file(b.bytes, o);
    INFO("errors: " << o.all_errors());
    CHECK(o.status == status_of(b.problem));
    CHECK(o.problem == b.problem);
    CHECK(o.file == nullptr);
    CHECK(o.error_has(b.field));
}

// A valid file opens; every surface lies in the file; read_blocks works.
void check_opens_sanely(const std::vector<uint8_t>& bytes, const char* what) {
    Opened o;
    open_file(bytes, o);
    if (o.status != TEXDEC_SUCCESS) {
        INFO(what << ": refused");
        CHECK(o.file == nullptr);
        CHECK(o.problem != TEXDEC_FILE_PROBLEM_NONE);
        CHECK(o.status == status_of(o.problem));
        CHECK(!o.errors.empty());
        return;
    }
    INFO(what << ": opened");
    CHECK(o.problem == TEXDEC_FILE_PROBLEM_NONE);
    texdec_file_info info{};
    REQUIRE(texdec_file_get_info(o.file, &info) == TEXDEC_SUCCESS);
    CHECK(info.surface_count == uint64_t(info.levels) * info.layers * info.faces);
    const uint32_t n = uint32_t(std::min<uint64_t>(info.surface_count, 4096));
    std::vector<texdec_file_surface> s(n);
    REQUIRE(texdec_file_get_surfaces(o.file, 0, n, s.data()) == TEXDEC_SUCCESS);
    for (const texdec_file_surface& x : s) {
        if (info.supercompression == TEXDEC_FILE_SUPERCOMPRESSION_NONE) CHECK(x.offset + x.size <= bytes.size());
        CHECK(x.size > 0);
        CHECK(x.packed_offset + x.size <= info.blocks_size);
    }
    if (info.blocks_size <= (16u << 20)) {
        std::vector<uint8_t> blocks(size_t(info.blocks_size));
        const texdec_status r = texdec_file_read_blocks(o.file, blocks.data(), blocks.size());
        CHECK((r == TEXDEC_SUCCESS || r == TEXDEC_ERROR_MALFORMED_FILE));
    }
}

constexpr uint32_t kR11 = 0x9270;         // GL_COMPRESSED_R11_EAC
constexpr uint32_t kGlRgbaDxt1 = 0x83F1;  // GL_COMPRESSED_RGBA_S3TC_DXT1_EXT
constexpr uint32_t kDxgiBc1Unorm = 71;

}  // namespace

TEST_CASE("file hostile: arguments, empty and unknown files", "[file][hostile]") {
    const std::vector<uint8_t> good = w::write_astc([] {
                                          w::Shape s;
                                          s.format = TEXDEC_FORMAT_ASTC_4x4_UNORM, s.width = 4, s.height = 4;
                                          return s;
                                      }())
                                          .bytes;
    texdec_file* file = nullptr;
    CHECK(texdec_file_open(nullptr, nullptr, 16, &file) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_file_open(nullptr, good.data(), good.size(), nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    texdec_file_open_info bad_flags{};
    bad_flags.flags = 1u << 7;
    CHECK(texdec_file_open(&bad_flags, good.data(), good.size(), &file) == TEXDEC_ERROR_INVALID_ARGUMENT);
    texdec_file_open_info bad_profile{};
    bad_profile.astc_profile = texdec_astc_profile(9);
    CHECK(texdec_file_open(&bad_profile, good.data(), good.size(), &file) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(file == nullptr);
    texdec_file_destroy(nullptr);  // ignored

    // Empty: MALFORMED (TOO_SMALL). No magic: UNSUPPORTED (UNKNOWN_CONTAINER), the first 8 bytes in hex.
    {
        Opened o;
        open_file({}, o);
        CHECK(o.status == TEXDEC_ERROR_MALFORMED_FILE);
        CHECK(o.problem == TEXDEC_FILE_PROBLEM_TOO_SMALL);
        CHECK(!o.errors.empty());
    }
    {
        Opened o;
        open_file({0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13}, o);
        INFO(o.all_errors());
        CHECK(o.status == TEXDEC_ERROR_UNSUPPORTED_FILE);
        CHECK(o.problem == TEXDEC_FILE_PROBLEM_UNKNOWN_CONTAINER);
        CHECK((o.error_has("89 50 4e 47 0d 0a 1a 0a") || o.error_has("89 50 4E 47 0D 0A 1A 0A")));
    }
    // Queries refuse NULL pointers.
    Opened o;
    open_file(good, o);
    REQUIRE(o.status == TEXDEC_SUCCESS);
    CHECK(texdec_file_get_info(o.file, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_file_get_info(nullptr, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_file_get_surface(o.file, 0, 0, 0, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_file_level_size(o.file, 0, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_file_read_blocks(o.file, nullptr, 16) == TEXDEC_ERROR_INVALID_ARGUMENT);
    // Each with its sentence (texdec_file.h, "Messages": every failure), naming the function; the
    // NULL file has no callback to find.
    INFO(o.all_errors());
    REQUIRE(o.errors.size() == 4);
    CHECK(o.errors[0].find("texdec_file_get_info") != std::string::npos);
    CHECK(o.errors[1].find("texdec_file_get_surface") != std::string::npos);
    CHECK(o.errors[2].find("texdec_file_level_size") != std::string::npos);
    CHECK(o.errors[3].find("texdec_file_read_blocks") != std::string::npos);
}

TEST_CASE("file hostile: DDS headers, each with its problem and the field named", "[file][hostile]") {
    const std::vector<uint8_t> blocks = random_bytes(256, 3);
    const std::vector<Bad> cases = {
        {"DX10 header cut short", cut(dx10_dds({95, 16, 16}, {}), 138), TEXDEC_FILE_PROBLEM_TOO_SMALL, "DX10 header"},
        {"DDS header cut short", cut(dx10_dds({95, 16, 16}, {}), 100), TEXDEC_FILE_PROBLEM_TOO_SMALL, ""},
        {"1D resource", dx10_dds({98, 16, 16, 1, 1, 2}, blocks), TEXDEC_FILE_PROBLEM_UNSUPPORTED_LAYOUT, "1D"},
        {"resource dimension 7", dx10_dds({96, 16, 16, 1, 1, 7}, blocks), TEXDEC_FILE_PROBLEM_BAD_HEADER,
         "resource dimension 7"},
        {"resource dimension 0", dx10_dds({99, 16, 16, 1, 1, 0}, blocks), TEXDEC_FILE_PROBLEM_BAD_HEADER,
         "resource dimension 0"},
        {"array size 0", dx10_dds({98, 16, 16, 1, 1, 3, 0, 0}, blocks), TEXDEC_FILE_PROBLEM_INVALID_EXTENT,
         "array size is 0"},
        {"volume array", dx10_dds({95, 16, 16, 1, 1, 4, 0, 2}, blocks), TEXDEC_FILE_PROBLEM_UNSUPPORTED_LAYOUT,
         "array size 2"},
        {"absurd cube array", dx10_dds({99, 16, 16, 1, 1, 3, 0x4, 0x40000000}, blocks),
         TEXDEC_FILE_PROBLEM_INVALID_EXTENT, "1073741824"},
        {"DXGI 100 (AYUV)", dx10_dds({100, 16, 16}, blocks), TEXDEC_FILE_PROBLEM_UNKNOWN_DXGI_FORMAT,
         "DXGI format 100 (DXGI_FORMAT_AYUV)"},
        {"DXGI R16G16B16A16_FLOAT", dx10_dds({10, 16, 16}, blocks), TEXDEC_FILE_PROBLEM_UNKNOWN_DXGI_FORMAT,
         "DXGI_FORMAT_R16G16B16A16_FLOAT"},
        {"zero width", dx10_dds({96, 0, 16}, blocks), TEXDEC_FILE_PROBLEM_INVALID_EXTENT, "zero dimension"},
        {"mip count beyond the chain", dx10_dds({98, 16, 16, 1, 6}, blocks), TEXDEC_FILE_PROBLEM_INVALID_EXTENT,
         "mip count 6"},
        {"BC6H data one byte short", cut(dx10_dds({95, 16, 16}, blocks), 148 + 255), TEXDEC_FILE_PROBLEM_TRUNCATED,
         "truncated"},
        {"BC7 array data short", dx10_dds({98, 16, 16, 1, 1, 3, 0, 2}, blocks), TEXDEC_FILE_PROBLEM_TRUNCATED,
         "2 layer(s)"},
        {"legacy FourCC PTC2", legacy_dds({{'P', 'T', 'C', '2'}, 8, 8}, blocks), TEXDEC_FILE_PROBLEM_UNKNOWN_FOURCC,
         "PTC2"},
        {"legacy non-square cube", legacy_dds({{'D', 'X', 'T', '1'}, 8, 4, 0, 0, 0xFE00}, blocks),
         TEXDEC_FILE_PROBLEM_UNSUPPORTED_LAYOUT, "not square"},
        {"legacy partial cube (+X only)", legacy_dds({{'D', 'X', 'T', '1'}, 8, 8, 0, 0, 0x200 | 0x400}, blocks),
         TEXDEC_FILE_PROBLEM_UNSUPPORTED_LAYOUT, "1 of 6 faces"},
        {"legacy partial cube (5 faces)", legacy_dds({{'D', 'X', 'T', '1'}, 8, 8, 0, 0, 0x200 | 0x7C00}, blocks),
         TEXDEC_FILE_PROBLEM_UNSUPPORTED_LAYOUT, "5 of 6 faces"},
        {"DX10 non-square cube", dx10_dds({kDxgiBc1Unorm, 8, 4, 1, 1, 3, 0x4, 1}, blocks),
         TEXDEC_FILE_PROBLEM_UNSUPPORTED_LAYOUT, "not square"},
        // 6 x 2^20 layers claimed in a 200-byte file: truncated, and no table of them is built
        // (texdec_file keeps per-level data only; the fuzzers' malloc limit holds that).
        {"a million cubes claimed", dx10_dds({kDxgiBc1Unorm, 4, 4, 1, 1, 3, 0x4, 1u << 20}, random_bytes(52, 4)),
         TEXDEC_FILE_PROBLEM_TRUNCATED, "truncated"},
    };
    for (const Bad& b : cases) check_refused(b);
}

TEST_CASE("file hostile: KTX 1 headers (both endians), each with its problem and the field named", "[file][hostile]") {
    for (const bool big : {false, true}) {
        INFO((big ? "big-endian" : "little-endian"));
        const std::vector<KtxLevel> one = {{32, random_bytes(32, 7)}};  // 8x8 R11
        KtxHeader endian{kR11, 8, 8};
        endian.endianness = 0x04030202;
        KtxHeader uncompressed{0x8058 /* GL_RGBA8 */, 8, 8};
        uncompressed.gl_type = 0x1401;  // GL_UNSIGNED_BYTE
        KtxHeader million{kGlRgbaDxt1, 1u << 20, 1u << 20};
        million.array_elements = 1u << 20, million.faces = 6, million.mip_levels = 21;
        const std::vector<Bad> cases = {
            {"wrong endianness", ktx_bytes(endian, one, big), TEXDEC_FILE_PROBLEM_BAD_ENDIANNESS, "endianness"},
            {"uncompressed", ktx_bytes(uncompressed, one, big), TEXDEC_FILE_PROBLEM_NOT_COMPRESSED, "glType is 0x1401"},
            {"unknown internal format", ktx_bytes({0x8C00, 8, 8}, one, big),
             TEXDEC_FILE_PROBLEM_UNKNOWN_GL_INTERNAL_FORMAT, "glInternalFormat 0x8C00"},
            {"1D", ktx_bytes({kR11, 8, 0}, one, big), TEXDEC_FILE_PROBLEM_UNSUPPORTED_LAYOUT, "1D texture"},
            {"width 0", ktx_bytes({kR11, 0, 8}, one, big), TEXDEC_FILE_PROBLEM_INVALID_EXTENT, "pixelWidth is 0"},
            {"3 faces", ktx_bytes({kR11, 8, 8, 0, 0, 3}, one, big), TEXDEC_FILE_PROBLEM_UNSUPPORTED_LAYOUT,
             "numberOfFaces is 3"},
            {"3D array", ktx_bytes({kR11, 8, 8, 2, 2}, one, big), TEXDEC_FILE_PROBLEM_UNSUPPORTED_LAYOUT,
             "3D texture arrays"},
            {"3D cube", ktx_bytes({kR11, 8, 8, 2, 0, 6}, one, big), TEXDEC_FILE_PROBLEM_UNSUPPORTED_LAYOUT,
             "cube map with"},
            {"non-square cube", ktx_bytes({kR11, 8, 4, 0, 0, 6}, one, big), TEXDEC_FILE_PROBLEM_UNSUPPORTED_LAYOUT,
             "not square"},
            {"too many mips", ktx_bytes({kR11, 8, 8, 0, 0, 1, 5}, one, big), TEXDEC_FILE_PROBLEM_INVALID_EXTENT,
             "numberOfMipmapLevels 5"},
            {"absurd extent", ktx_bytes({kR11, 1u << 21, 8}, one, big), TEXDEC_FILE_PROBLEM_INVALID_EXTENT, "absurd"},
            {"wrong imageSize", ktx_bytes({kR11, 8, 8}, {{33, random_bytes(36, 7)}}, big),
             TEXDEC_FILE_PROBLEM_BAD_IMAGE_SIZE, "imageSize of mip level 0 is 33"},
            {"missing mip level", ktx_bytes({kR11, 8, 8, 0, 0, 1, 2}, one, big), TEXDEC_FILE_PROBLEM_TRUNCATED,
             "mip level 1"},
            {"key/value data swallowing the level", ktx_bytes({kR11, 8, 8}, {}, big, std::vector<uint8_t>(4, 0)),
             TEXDEC_FILE_PROBLEM_TRUNCATED, "imageSize of mip level 0"},
            // 132 million surfaces described in 76 bytes (a fuzzer finding): truncated at level 0.
            {"132 million surfaces", ktx_bytes(million, {{8, std::vector<uint8_t>(8, 0)}}, big),
             TEXDEC_FILE_PROBLEM_TRUNCATED, "mip level 0"},
        };
        for (const Bad& b : cases) check_refused(b);
        // bytesOfKeyValueData past the end of the file.
        std::vector<uint8_t> kv_past = ktx_bytes({kR11, 8, 8}, one, big);
        put_u32_order(kv_past, 60, 1000, big);
        check_refused(
            {"bytesOfKeyValueData past the end", kv_past, TEXDEC_FILE_PROBLEM_TRUNCATED, "bytesOfKeyValueData 1000"});
    }
}

TEST_CASE("file hostile: KTX 2 headers and indexes, each with its problem and the field named", "[file][hostile]") {
    const texdec_format f = TEXDEC_FORMAT_ASTC_4x4_UNORM;
    const auto good_spec = [&] { return ktx2_spec(f, 16, 8, 0, 0, 1, 2); };
    const auto build = [&](const texdec_test::Ktx2Spec& s) {
        std::vector<std::vector<uint8_t>> levels;
        for (const uint64_t size : texdec_test::ktx2_level_bytes(f, s)) levels.push_back(random_bytes(size, size));
        return ktx2_bytes(s, levels).bytes;
    };
    const auto with = [&](auto change) {
        texdec_test::Ktx2Spec s = good_spec();
        change(s);
        return build(s);
    };
    const auto patched = [&](size_t at, uint64_t value, int bytes) {
        std::vector<uint8_t> b = build(good_spec());
        if (bytes == 8) put_u64(b, at, value);
        else put_u32(b, at, uint32_t(value));
        return b;
    };
    using S = texdec_test::Ktx2Spec;
    std::vector<Bad> cases = {
        {"BasisLZ", with([](S& s) { s.vk_format = 0, s.scheme = 1; }), TEXDEC_FILE_PROBLEM_BASIS_UNIVERSAL, "BasisLZ"},
        {"UASTC", with([](S& s) { s.vk_format = 0, s.color_model = 166; }), TEXDEC_FILE_PROBLEM_BASIS_UNIVERSAL,
         "UASTC"},
        {"UASTC + Zstandard", with([](S& s) { s.vk_format = 0, s.color_model = 166, s.scheme = 2; }),
         TEXDEC_FILE_PROBLEM_BASIS_UNIVERSAL, "UASTC"},
        {"scheme 4", with([](S& s) { s.scheme = 4; }), TEXDEC_FILE_PROBLEM_UNSUPPORTED_SUPERCOMPRESSION,
         "supercompressionScheme 4"},
        {"vendor scheme", with([](S& s) { s.scheme = 0x10000; }), TEXDEC_FILE_PROBLEM_UNSUPPORTED_SUPERCOMPRESSION,
         "supercompressionScheme 65536"},
        {"uncompressed vkFormat", with([](S& s) { s.vk_format = 37; }), TEXDEC_FILE_PROBLEM_UNKNOWN_FORMAT,
         "vkFormat 37 (VK_FORMAT_R8G8B8A8_UNORM)"},
        {"vkFormat 0, not Basis", with([](S& s) { s.vk_format = 0; }), TEXDEC_FILE_PROBLEM_UNKNOWN_FORMAT,
         "vkFormat 0"},
        {"PVRTC", with([](S& s) { s.vk_format = 1000054000; }), TEXDEC_FILE_PROBLEM_UNKNOWN_FORMAT,
         "vkFormat 1000054000"},
        {"vkFormat above VK_FORMAT_MAX_ENUM", with([](S& s) { s.vk_format = 0x97000001; }),
         TEXDEC_FILE_PROBLEM_UNKNOWN_FORMAT, "vkFormat 2533359617"},
        {"typeSize 4", with([](S& s) { s.type_size = 4; }), TEXDEC_FILE_PROBLEM_BAD_TYPE_SIZE, "typeSize is 4"},
        {"width 0", patched(20, 0, 4), TEXDEC_FILE_PROBLEM_INVALID_EXTENT, "pixelWidth is 0"},
        {"1D", patched(24, 0, 4), TEXDEC_FILE_PROBLEM_UNSUPPORTED_LAYOUT, "1D texture"},
        {"3 faces", with([](S& s) { s.face_count = 3; }), TEXDEC_FILE_PROBLEM_UNSUPPORTED_LAYOUT, "faceCount is 3"},
        {"3D array", with([](S& s) { s.depth = 2, s.layer_count = 2; }), TEXDEC_FILE_PROBLEM_UNSUPPORTED_LAYOUT,
         "3D array textures"},
        {"3D cube", with([](S& s) { s.depth = 2, s.face_count = 6, s.width = s.height = 8; }),
         TEXDEC_FILE_PROBLEM_UNSUPPORTED_LAYOUT, "cube map with pixelDepth 2"},
        {"non-square cube", with([](S& s) { s.face_count = 6; }), TEXDEC_FILE_PROBLEM_UNSUPPORTED_LAYOUT, "not square"},
        {"absurd extent", patched(20, 1u << 21, 4), TEXDEC_FILE_PROBLEM_INVALID_EXTENT, "absurd"},
        {"absurd layers", patched(32, 1u << 21, 4), TEXDEC_FILE_PROBLEM_INVALID_EXTENT, "layerCount 2097152"},
        {"too many levels", patched(40, 6, 4), TEXDEC_FILE_PROBLEM_INVALID_EXTENT, "levelCount 6"},
        {"absurd levelCount", patched(40, 1000, 4), TEXDEC_FILE_PROBLEM_INVALID_EXTENT, "levelCount 1000"},
        {"level index past the end", cut(build(good_spec()), 100), TEXDEC_FILE_PROBLEM_TOO_SMALL, "level index"},
        {"header cut short", cut(build(good_spec()), 79), TEXDEC_FILE_PROBLEM_TOO_SMALL, ""},
        {"key/value data past the end", patched(60, 1u << 20, 4), TEXDEC_FILE_PROBLEM_BAD_INDEX, "key/value data"},
        {"global data past the end", patched(72, 1u << 30, 8), TEXDEC_FILE_PROBLEM_BAD_INDEX,
         "supercompression global data"},
        {"uncompressedByteLength", patched(80 + 16, 127, 8), TEXDEC_FILE_PROBLEM_BAD_LEVEL_INDEX,
         "uncompressedByteLength of mip level 0 is 127"},
        {"byteLength", patched(80 + 24 + 8, 33, 8), TEXDEC_FILE_PROBLEM_BAD_LEVEL_INDEX,
         "byteLength of mip level 1 is 33"},
        {"byteOffset in the header", patched(80, 64, 8), TEXDEC_FILE_PROBLEM_BAD_LEVEL_INDEX, "header"},
    };
    {
        std::vector<uint8_t> b = build(good_spec());
        put_u64(b, 80, b.size() - 128 + 8);  // level 0 moved by 8: misaligned for 16-byte blocks
        cases.push_back({"misaligned level", b, TEXDEC_FILE_PROBLEM_BAD_LEVEL_INDEX, "multiple of 16"});
        b = build(good_spec());
        put_u64(b, 80, b.size() - 128 + 16);
        cases.push_back({"level past the end", b, TEXDEC_FILE_PROBLEM_TRUNCATED, "mip level 0"});
        b = build(good_spec());
        put_u64(b, 80, uint64_t(-16));
        cases.push_back({"byteOffset + byteLength overflows", b, TEXDEC_FILE_PROBLEM_TRUNCATED, "truncated"});
    }
    for (const Bad& b : cases) check_refused(b);
}

TEST_CASE("file hostile: PKM and .astc headers", "[file][hostile]") {
    const std::vector<uint8_t> etc1 = random_bytes(32, 5);  // 8x8 ETC1
    const std::vector<Bad> cases = {
        {"version 30", pkm_bytes("30", 1, 8, 8, 8, 8, etc1), TEXDEC_FILE_PROBLEM_BAD_VERSION, "\"10\""},
        {"RGBA_NO_MIPMAPS_OLD", pkm_bytes("20", 2, 8, 8, 8, 8, etc1), TEXDEC_FILE_PROBLEM_UNKNOWN_FORMAT,
         "RGBA_NO_MIPMAPS_OLD"},
        {"format code 12", pkm_bytes("20", 12, 8, 8, 8, 8, etc1), TEXDEC_FILE_PROBLEM_UNKNOWN_FORMAT, "format code 12"},
        {"zero width", pkm_bytes("20", 1, 8, 8, 0, 8, etc1), TEXDEC_FILE_PROBLEM_INVALID_EXTENT, "zero dimension"},
        {"padded width not rounded", pkm_bytes("20", 1, 12, 8, 8, 8, etc1), TEXDEC_FILE_PROBLEM_BAD_HEADER,
         "rounded up"},
        {"truncated RGBA", pkm_bytes("20", 3, 8, 8, 8, 8, etc1), TEXDEC_FILE_PROBLEM_TRUNCATED, "truncated"},
        {".astc footprint 7x7", texdec_test::astc_file_bytes(7, 7, 1, 8, 8, 1, random_bytes(32, 6)),
         TEXDEC_FILE_PROBLEM_UNKNOWN_FOOTPRINT, "7x7"},
        {".astc zero width", texdec_test::astc_file_bytes(4, 4, 1, 0, 8, 1, random_bytes(32, 6)),
         TEXDEC_FILE_PROBLEM_INVALID_EXTENT, ""},
        {".astc truncated", texdec_test::astc_file_bytes(4, 4, 1, 8, 8, 1, random_bytes(63, 6)),
         TEXDEC_FILE_PROBLEM_TRUNCATED, ""},
    };
    for (const Bad& b : cases) check_refused(b);
}

TEST_CASE("file hostile: key-value data edge cases (KTX 2 and KTX 1, both endians)", "[file][hostile]") {
    w::Shape s;
    s.format = TEXDEC_FORMAT_BC1_RGBA_UNORM, s.width = 8, s.height = 8;
    // Values of 0..6 bytes: every padding length; keys sorted as KTX 2 requires.
    const std::vector<w::KeyValue> entries = {{"a", {}},
                                              {"b1", {1}},
                                              {"c22", {1, 2}},
                                              {"d333", {1, 2, 3}},
                                              {"KTXorientation", {'r', 'u', 0}},
                                              {"e", {1, 2, 3, 4, 5}},
                                              {"f", {0, 0, 0, 0, 0, 0}}};
    const auto check_entries = [](texdec_file* file, const std::vector<w::KeyValue>& want) {
        texdec_file_info info{};
        REQUIRE(texdec_file_get_info(file, &info) == TEXDEC_SUCCESS);
        REQUIRE(info.key_value_count == want.size());
        for (uint32_t i = 0; i < want.size(); ++i) {
            texdec_file_key_value e{};
            REQUIRE(texdec_file_get_key_value(file, i, &e) == TEXDEC_SUCCESS);
            CHECK(std::string(e.key) == want[i].key);
            CHECK(e.value_size == want[i].value.size());
            if (!want[i].value.empty()) CHECK(std::memcmp(e.value, want[i].value.data(), want[i].value.size()) == 0);
        }
        CHECK((info.facts & TEXDEC_FILE_FACT_KEY_VALUE_DAMAGED) == 0);
        CHECK((info.facts & TEXDEC_FILE_FACT_ORIENTATION_STATED) != 0);
        CHECK(info.orientation == TEXDEC_FILE_ORIENTATION_Y_UP);
    };
    SECTION("padding after every value length") {
        std::vector<w::KeyValue> sorted = entries;
        std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.key < b.key; });
        const w::Written k2 = w::write_ktx2(s, 0, entries);
        Opened o;
        open_file(k2.bytes, o);
        REQUIRE(o.status == TEXDEC_SUCCESS);
        check_entries(o.file, sorted);
        for (const bool big : {false, true}) {
            INFO((big ? "KTX 1 big-endian" : "KTX 1 little-endian"));
            const w::Written k1 = w::write_ktx1(s, big, entries);
            Opened o1;
            open_file(k1.bytes, o1);
            REQUIRE(o1.status == TEXDEC_SUCCESS);
            check_entries(o1.file, entries);
        }
    }
    // Damaged entries: the file opens (the blocks are unaffected), with FACT_KEY_VALUE_DAMAGED, a
    // WARNING, and the entries before the damage listed.
    const auto damaged = [&](const std::vector<uint8_t>& bytes, uint32_t entries_before, const char* what) {
        INFO(what);
        Opened o;
        open_file(bytes, o);
        INFO(o.all_errors());
        REQUIRE(o.status == TEXDEC_SUCCESS);
        texdec_file_info info{};
        REQUIRE(texdec_file_get_info(o.file, &info) == TEXDEC_SUCCESS);
        CHECK((info.facts & TEXDEC_FILE_FACT_KEY_VALUE_DAMAGED) != 0);
        CHECK(info.key_value_count == entries_before);
        CHECK(!o.warnings.empty());
        std::vector<uint8_t> blocks(info.blocks_size);
        REQUIRE(texdec_file_read_blocks(o.file, blocks.data(), blocks.size()) == TEXDEC_SUCCESS);
        CHECK(blocks == w::packed_all(s));
    };
    const std::vector<w::KeyValue> two = {{"KTXorientation", {'r', 'd', 0}}, {"KTXwriter", {'t', 0}}};
    SECTION("KTX 2: an entry's size past the end of the key/value data, a key without its NUL") {
        w::Written k2 = w::write_ktx2(s, 0, two);
        const uint32_t kvd = uint32_t(k2.bytes[56]) | uint32_t(k2.bytes[57]) << 8;  // kvdByteOffset (small file)
        const uint32_t second = kvd + 24;  // 4 + "KTXorientation\0rd\0" (18 bytes), padded to 24
        std::vector<uint8_t> past = k2.bytes;
        put_u32(past, second, 1000);
        damaged(past, 1, "second entry's keyAndValueByteLength 1000");
        std::vector<uint8_t> first_past = k2.bytes;
        put_u32(first_past, kvd, 0xFFFFFFFF);
        damaged(first_past, 0, "first entry's keyAndValueByteLength 0xFFFFFFFF");
        std::vector<uint8_t> no_nul = k2.bytes;
        put_u32(no_nul, second, 3);  // "KTX" of "KTXwriter": no NUL within the entry
        damaged(no_nul, 1, "a key without its NUL");
    }
    for (const bool big : {false, true}) {
        INFO((big ? "KTX 1 big-endian" : "KTX 1 little-endian"));
        const w::Written k1 = w::write_ktx1(s, big, two);
        const size_t second = 64 + 24;
        std::vector<uint8_t> past = k1.bytes;
        put_u32_order(past, second, 1000, big);
        damaged(past, 1, "KTX 1: second entry's keyAndValueByteSize past bytesOfKeyValueData");
        std::vector<uint8_t> no_nul = k1.bytes;
        put_u32_order(no_nul, second, 3, big);
        damaged(no_nul, 1, "KTX 1: a key without its NUL");
        std::vector<uint8_t> zero = k1.bytes;
        put_u32_order(zero, 64, 0, big);
        // A zero-size entry has no key: damaged at the first entry (or skipped as padding: then
        // nothing is listed after it that the file did not hold).
        Opened o;
        open_file(zero, o);
        REQUIRE(o.status == TEXDEC_SUCCESS);
    }
}

TEST_CASE("file hostile: Basis Universal KTX 2 is refused with its own status", "[file][hostile]") {
    for (const uint32_t scheme : {0u, 1u, 2u}) {
        for (const uint32_t model : {163u, 166u}) {  // KHR_DF_MODEL_ETC1S, KHR_DF_MODEL_UASTC
            if (scheme == 1 && model == 166) continue;
            texdec_test::Ktx2Spec spec = ktx2_spec(TEXDEC_FORMAT_BC7_UNORM, 8, 8, 0, 0, 1, 1, scheme);
            spec.vk_format = 0, spec.color_model = model, spec.bytes_plane0 = 0;
            const std::vector<uint8_t> bytes = ktx2_bytes(spec, {random_bytes(64, 9)}).bytes;
            INFO("scheme " << scheme << " model " << model);
            Opened o;
            open_file(bytes, o);
            INFO(o.all_errors());
            CHECK(o.status == TEXDEC_ERROR_BASIS_UNIVERSAL);
            CHECK(o.problem == TEXDEC_FILE_PROBLEM_BASIS_UNIVERSAL);
            CHECK((o.error_has("Basis Universal") || o.error_has("BasisLZ")));
        }
    }
}

TEST_CASE("file hostile: supercompressed levels that do not inflate, and bombs", "[file][hostile]") {
    w::Shape s;
    s.format = TEXDEC_FORMAT_BC7_UNORM, s.width = 16, s.height = 8, s.levels = 2;
    for (const uint32_t scheme : {2u, 3u}) {
        INFO("supercompressionScheme " << scheme);
        const w::Written good = w::write_ktx2(s, scheme, {});
        const auto read0 = [&](const std::vector<uint8_t>& bytes, std::vector<std::string>* errors = nullptr) {
            Opened o;
            open_file(bytes, o);
            REQUIRE(o.status == TEXDEC_SUCCESS);  // streams are checked when read
            std::vector<uint8_t> dst(w::surface_size(s, 0));
            const texdec_status r = texdec_file_read_level(o.file, 0, dst.data(), dst.size());
            if (errors) *errors = o.errors;
            // The other level still reads.
            std::vector<uint8_t> one(w::surface_size(s, 1));
            CHECK(texdec_file_read_level(o.file, 1, one.data(), one.size()) == TEXDEC_SUCCESS);
            CHECK(one == w::packed_level(s, 1));
            return r;
        };
        // Garbage in place of level 0's stream.
        std::vector<uint8_t> garbage = good.bytes;
        for (uint64_t i = 0; i < good.level_file_length[0]; ++i)
            garbage[good.level_file_offset[0] + i] = uint8_t(0x5A + i);
        std::vector<std::string> errors;
        CHECK(read0(garbage, &errors) == TEXDEC_ERROR_MALFORMED_FILE);
        CHECK(!errors.empty());
        // A stream of fewer bytes than uncompressedByteLength (the stream of level 1 given to level 0).
        std::vector<uint8_t> shorter = good.bytes;
        put_u64(shorter, 80, good.level_file_offset[1]);
        put_u64(shorter, 80 + 8, good.level_file_length[1]);
        CHECK(read0(shorter, &errors) == TEXDEC_ERROR_MALFORMED_FILE);
        // A stream of more bytes than uncompressedByteLength.
        std::vector<uint8_t> longer = good.bytes;
        const std::vector<uint8_t> big = w::supercompress(scheme, random_bytes(4096, 12));
        longer.resize(good.level_file_offset[0]);
        longer.insert(longer.end(), big.begin(), big.end());
        put_u64(longer, 80 + 8, big.size());
        CHECK(read0(longer, &errors) == TEXDEC_ERROR_MALFORMED_FILE);
    }
    // Bombs: a few bytes of stream whose level claims 1 MiB (1024 x 1024 BC7) or 4 GiB. Refused by
    // the header's bound (deflate's 1032:1, the Zstandard frame's declared size), before writing.
    std::vector<uint8_t> undeclared(ZSTD_compressBound(64));
    {
        const std::vector<uint8_t> zeros(64, 0);
        ZSTD_CCtx* cctx = ZSTD_createCCtx();
        REQUIRE(ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0)) == 0);
        const size_t n = ZSTD_compress2(cctx, undeclared.data(), undeclared.size(), zeros.data(), zeros.size());
        ZSTD_freeCCtx(cctx);
        REQUIRE(!ZSTD_isError(n));
        undeclared.resize(n);
    }
    struct Bomb {
        const char* name;
        uint32_t scheme;
        std::vector<uint8_t> stream;
    };
    const Bomb bombs[] = {{"zlib", 3, w::supercompress(3, std::vector<uint8_t>(64, 0))},
                          {"zstd, size declared", 2, w::supercompress(2, std::vector<uint8_t>(64, 0))},
                          {"zstd, size not declared", 2, undeclared}};
    for (const Bomb& b : bombs) {
        for (const uint32_t side : {1024u, 65536u}) {
            INFO(b.name << ", " << side << " x " << side << " BC7");
            w::Shape one;
            one.format = TEXDEC_FORMAT_BC7_UNORM, one.width = 4, one.height = 4;
            w::Written file = w::write_ktx2(one, b.scheme, {});
            file.bytes.resize(file.level_file_offset[0]);
            file.bytes.insert(file.bytes.end(), b.stream.begin(), b.stream.end());
            put_u32(file.bytes, 20, side);
            put_u32(file.bytes, 24, side);
            const uint64_t claimed = uint64_t(side / 4) * (side / 4) * 16;
            put_u64(file.bytes, 80 + 8, b.stream.size());
            put_u64(file.bytes, 80 + 16, claimed);
            Opened o;
            open_file(file.bytes, o);
            INFO(o.all_errors());
            REQUIRE(o.status == TEXDEC_SUCCESS);
            texdec_file_info info{};
            REQUIRE(texdec_file_get_info(o.file, &info) == TEXDEC_SUCCESS);
            CHECK(info.blocks_size == claimed);
            std::vector<uint8_t> small(64, 0xA5);
            CHECK(texdec_file_read_level(o.file, 0, small.data(), small.size()) == TEXDEC_ERROR_DESTINATION_TOO_SMALL);
            CHECK(std::all_of(small.begin(), small.end(), [](uint8_t v) { return v == 0xA5; }));
            if (side == 1024) {
                std::vector<uint8_t> dst(size_t(claimed), 0xA5);
                o.errors.clear();
                CHECK(texdec_file_read_level(o.file, 0, dst.data(), dst.size()) == TEXDEC_ERROR_MALFORMED_FILE);
                CHECK(!o.errors.empty());
                // Refused before inflating: nothing written.
                CHECK(std::all_of(dst.begin(), dst.end(), [](uint8_t v) { return v == 0xA5; }));
            }
        }
    }
}

TEST_CASE("file hostile: every truncation of a valid file of each container is refused", "[file][hostile]") {
    w::Shape s;
    s.format = TEXDEC_FORMAT_BC1_RGBA_UNORM, s.width = 8, s.height = 8, s.levels = 2, s.layers = 2, s.array = true;
    w::Shape a;
    a.format = TEXDEC_FORMAT_ASTC_4x4_UNORM, a.width = 8, a.height = 8;
    w::Shape e;
    e.format = TEXDEC_FORMAT_ETC2_R8G8B8_UNORM, e.width = 8, e.height = 8;
    const std::vector<std::pair<const char*, std::vector<uint8_t>>> files = {
        {"KTX 2", w::write_ktx2(s, 0, w::default_key_values("rd")).bytes},
        {"KTX 2 zlib", w::write_ktx2(s, 3, {}).bytes},
        {"KTX 1", w::write_ktx1(s, true, w::default_key_values("S=r,T=d")).bytes},
        {"DDS", w::write_dds(s, "DX10", 71).bytes},
        {"PKM", w::write_pkm(e, "10", 0).bytes},
        {".astc", w::write_astc(a).bytes}};
    for (const auto& [name, bytes] : files) {
        INFO(name);
        {
            Opened whole;
            open_file(bytes, whole);
            REQUIRE(whole.status == TEXDEC_SUCCESS);
        }
        for (size_t size = 0; size < bytes.size(); ++size) {
            INFO(size << " of " << bytes.size() << " bytes");
            Opened o;
            open_file(cut(bytes, size), o);
            CHECK(o.status != TEXDEC_SUCCESS);
            CHECK(o.file == nullptr);
            CHECK(o.status == status_of(o.problem));
            CHECK(!o.errors.empty());
        }
    }
}

TEST_CASE("file hostile: every value of every header byte: a sane file or a refusal with a message",
          "[file][hostile]") {
    w::Shape s;
    s.format = TEXDEC_FORMAT_BC7_UNORM, s.width = 12, s.height = 8, s.levels = 2, s.layers = 2, s.array = true;
    w::Shape cube = s;
    cube.width = 8, cube.faces = 6, cube.layers = 1, cube.array = false;
    w::Shape a;
    a.format = TEXDEC_FORMAT_ASTC_4x4x4_UNORM, a.width = 8, a.height = 4, a.depth = 4;
    w::Shape e;
    e.format = TEXDEC_FORMAT_EAC_R11G11_UNORM, e.width = 8, e.height = 4;
    struct F {
        const char* name;
        std::vector<uint8_t> bytes;
        size_t header;  // bytes mutated
    };
    const F files[] = {{"KTX 2", w::write_ktx2(s, 0, w::default_key_values("rd")).bytes, 80 + 48},
                       {"KTX 2 zstd", w::write_ktx2(s, 2, {}).bytes, 80 + 48},
                       {"KTX 1", w::write_ktx1(cube, false, w::default_key_values("S=r,T=d")).bytes, 68},
                       {"DDS", w::write_dds(s, "DX10", 98).bytes, 148},
                       {"DDS legacy cube", w::write_dds(cube, "DXT5").bytes, 128},
                       {"PKM", w::write_pkm(e, "20", 6).bytes, 16},
                       {".astc", w::write_astc(a).bytes, 16}};
    for (const F& f : files) {
        INFO(f.name);
        for (size_t at = 0; at < std::min(f.header, f.bytes.size()); ++at)
            for (const int delta : {1, 0x80, 0xFF}) {
                std::vector<uint8_t> m = f.bytes;
                m[at] = uint8_t(m[at] + delta);
                INFO("byte " << at << " + " << delta);
                check_opens_sanely(m, f.name);
            }
    }
}

// libtexdec_file's open, queries and reads (texdec_file.h item 1) against src/io's texture_file::open,
// the internal front end the CLI has read files with since 1.0: every sample, every file the
// container writer of tests/support makes here (mips, arrays, cubes, volumes, KTX 1 big-endian,
// KTX 2 with Zstandard and zlib), and every file of the shared corpus ($TEXDEC_CORPUS) opens alike,
// with the same format, layout and bytes of every surface (tolerance 0). Plus key-value data and
// KTXorientation, open_path's system error, and the refusals of Basis Universal and unknown files.
#include <catch2/catch.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <texdec/texdec_file.h>

#include "support/cli_runner.h"
#include "support/container_files.h"
#include "support/corpus_files.h"
#include "texture_file.h"

namespace {

using namespace texdec_test;

struct Messages {
    std::vector<std::string> errors, warnings, infos;
    static void callback(texdec_message_severity severity, const char* message, void* user) {
        auto* m = static_cast<Messages*>(user);
        (severity == TEXDEC_MESSAGE_ERROR     ? m->errors
         : severity == TEXDEC_MESSAGE_WARNING ? m->warnings
                                              : m->infos)
            .push_back(message);
    }
};

// A texdec_file that closes itself.
struct FileHandle {
    texdec_file* file = nullptr;
    ~FileHandle() { texdec_file_destroy(file); }
};

texdec_file_container container_of(texture_file::Container c) {
    switch (c) {
    case texture_file::Container::Ktx2: return TEXDEC_FILE_CONTAINER_KTX2;
    case texture_file::Container::Ktx: return TEXDEC_FILE_CONTAINER_KTX;
    case texture_file::Container::Dds: return TEXDEC_FILE_CONTAINER_DDS;
    case texture_file::Container::Pkm: return TEXDEC_FILE_CONTAINER_PKM;
    case texture_file::Container::Astc: return TEXDEC_FILE_CONTAINER_ASTC;
    case texture_file::Container::Raw: break;
    }
    return TEXDEC_FILE_CONTAINER_MAX_ENUM;
}

texdec_file_supercompression supercompression_of(const std::string& name) {
    if (name == "Zstandard") return TEXDEC_FILE_SUPERCOMPRESSION_ZSTD;
    if (name == "zlib") return TEXDEC_FILE_SUPERCOMPRESSION_ZLIB;
    return TEXDEC_FILE_SUPERCOMPRESSION_NONE;
}

// Opens `bytes` with the public API and with texture_file::open and requires the same answer: both
// refuse, or both open with the same description and the same bytes for every surface (through the
// surface's file offset where the file is not supercompressed, through read_level, and through
// read_blocks). Returns whether it opened.
bool check_like_texture_file(const std::vector<uint8_t>& bytes, const std::string& name, uint64_t* trailing = nullptr) {
    INFO("file: " << name);
    auto parsed = texture_file::open(texture_file::FileBytes{std::span<const uint8_t>(bytes), nullptr},
                                     texture_file::OpenOptions{});
    Messages messages;
    texdec_file_problem problem = TEXDEC_FILE_PROBLEM_MAX_ENUM;
    texdec_file_open_info open_info{};
    open_info.message_callback = Messages::callback;
    open_info.user_data = &messages;
    open_info.problem = &problem;
    FileHandle handle;
    const texdec_status status = texdec_file_open(&open_info, bytes.data(), bytes.size(), &handle.file);
    if (const auto* error = std::get_if<texture_file::Error>(&parsed)) {
        INFO("texture_file refused it: " << error->message);
        REQUIRE(status != TEXDEC_SUCCESS);
        REQUIRE(handle.file == nullptr);
        REQUIRE((status == TEXDEC_ERROR_MALFORMED_FILE || status == TEXDEC_ERROR_UNSUPPORTED_FILE ||
                 status == TEXDEC_ERROR_BASIS_UNIVERSAL));
        REQUIRE(problem != TEXDEC_FILE_PROBLEM_NONE);
        REQUIRE(problem != TEXDEC_FILE_PROBLEM_MAX_ENUM);
        REQUIRE(messages.errors.size() == 1);
        return false;
    }
    texture_file::TextureFile& tf = std::get<texture_file::TextureFile>(parsed);
    INFO("status " << texdec_status_string(status) << (messages.errors.empty() ? "" : ": " + messages.errors[0]));
    REQUIRE(status == TEXDEC_SUCCESS);
    REQUIRE(problem == TEXDEC_FILE_PROBLEM_NONE);
    REQUIRE(messages.errors.empty());

    texdec_file_info info{};
    REQUIRE(texdec_file_get_info(handle.file, &info) == TEXDEC_SUCCESS);
    CHECK(info.container == container_of(tf.container));
    CHECK(info.format == tf.format);
    texdec_format_info format{};
    REQUIRE(texdec_format_get_info(tf.format, &format) == TEXDEC_SUCCESS);
    CHECK(info.vk_format == format.vk_format);
    CHECK(std::string(info.header_format_text) == tf.container_format);
    CHECK(info.supercompression == supercompression_of(tf.supercompression));
    REQUIRE(info.levels == tf.levels);
    REQUIRE(info.layers == tf.layers);
    REQUIRE(info.faces == tf.faces);
    CHECK(info.width == tf.level_info[0].width);
    CHECK(info.height == tf.level_info[0].height);
    CHECK(info.depth == tf.level_info[0].depth);
    CHECK(bool(info.layout_flags & TEXDEC_FILE_ARRAY) == tf.is_array);
    CHECK(bool(info.layout_flags & TEXDEC_FILE_CUBE) == tf.is_cube);
    CHECK(bool(info.layout_flags & TEXDEC_FILE_VOLUME) == tf.is_volume);
    CHECK(bool(info.facts & TEXDEC_FILE_FACT_SWAP_RED_ALPHA) == tf.swap_red_alpha);
    CHECK(bool(info.facts & TEXDEC_FILE_FACT_DFD_DISAGREES) == !tf.warnings.empty());
    CHECK(messages.warnings.size() >= tf.warnings.size());
    CHECK(info.surface_count == uint64_t(tf.levels) * tf.layers * tf.faces);
    CHECK(info.file_size == bytes.size());
    // texture_file counts no trailing bytes in KTX 2 files (the CLI never noted them there).
    if (info.container != TEXDEC_FILE_CONTAINER_KTX2) CHECK(info.trailing_bytes == tf.trailing_bytes);
    if (trailing) *trailing = info.trailing_bytes;

    std::vector<uint8_t> all(size_t(info.blocks_size) + 1, 0xCD);
    REQUIRE(texdec_file_read_blocks(handle.file, all.data(), size_t(info.blocks_size)) == TEXDEC_SUCCESS);
    CHECK(all.back() == 0xCD);  // nothing past blocks_size
    uint64_t expected_packed = 0;
    for (uint32_t level = 0; level < info.levels; ++level) {
        INFO("level " << level);
        uint64_t level_size = 0;
        REQUIRE(texdec_file_level_size(handle.file, level, &level_size) == TEXDEC_SUCCESS);
        CHECK(level_size == tf.level_info[level].surface_bytes * tf.layers * tf.faces);
        std::vector<uint8_t> level_bytes(static_cast<size_t>(level_size));
        if (level_size > 0)
            REQUIRE(texdec_file_read_level(handle.file, level, level_bytes.data(), level_bytes.size()) ==
                    TEXDEC_SUCCESS);
        expected_packed = (expected_packed + 15) / 16 * 16;
        for (uint32_t layer = 0; layer < info.layers; ++layer)
            for (uint32_t face = 0; face < info.faces; ++face) {
                INFO("layer " << layer << ", face " << face);
                auto blocks = tf.blocks(level, layer, face);
                REQUIRE(std::holds_alternative<std::span<const uint8_t>>(blocks));
                const std::span<const uint8_t> want = std::get<std::span<const uint8_t>>(blocks);
                texdec_file_surface s{};
                REQUIRE(texdec_file_get_surface(handle.file, level, layer, face, &s) == TEXDEC_SUCCESS);
                CHECK((s.level == level && s.layer == layer && s.face == face));
                CHECK(s.width == tf.level_info[level].width);
                CHECK(s.height == tf.level_info[level].height);
                CHECK(s.depth == tf.level_info[level].depth);
                REQUIRE(s.size == want.size());
                const uint64_t blocks_z = (s.depth + format.block_depth - 1) / format.block_depth;
                CHECK(s.slice_size * blocks_z == s.size);
                CHECK(s.packed_offset == expected_packed);
                if (info.supercompression == TEXDEC_FILE_SUPERCOMPRESSION_NONE) {
                    REQUIRE(s.offset + s.size <= bytes.size());
                    CHECK(std::memcmp(bytes.data() + s.offset, want.data(), want.size()) == 0);
                }
                const uint64_t in_level = uint64_t(layer * info.faces + face) * s.size;
                REQUIRE(in_level + s.size <= level_bytes.size());
                CHECK(std::memcmp(level_bytes.data() + in_level, want.data(), want.size()) == 0);
                CHECK(std::memcmp(all.data() + s.packed_offset, want.data(), want.size()) == 0);
                expected_packed += s.size;
            }
    }
    CHECK(info.blocks_size == expected_packed);
    // get_surfaces: every surface once, each as get_surface gives it, in the order the file stores
    // them (offsets ascending where the file is not supercompressed), asked for in two parts.
    std::vector<texdec_file_surface> order(size_t(info.surface_count));
    const uint32_t half = uint32_t(info.surface_count / 2);
    REQUIRE(texdec_file_get_surfaces(handle.file, 0, half, order.data()) == TEXDEC_SUCCESS);
    REQUIRE(texdec_file_get_surfaces(handle.file, half, uint32_t(info.surface_count - half), order.data() + half) ==
            TEXDEC_SUCCESS);
    std::vector<bool> seen(order.size());
    for (size_t i = 0; i < order.size(); ++i) {
        const texdec_file_surface& s = order[i];
        INFO("surface " << i << " of the file order: level " << s.level << ", layer " << s.layer << ", face "
                        << s.face);
        texdec_file_surface same{};
        REQUIRE(texdec_file_get_surface(handle.file, s.level, s.layer, s.face, &same) == TEXDEC_SUCCESS);
        CHECK(std::memcmp(&same, &s, sizeof s) == 0);
        const size_t index = (size_t(s.level) * info.layers + s.layer) * info.faces + s.face;
        CHECK_FALSE(seen[index]);
        seen[index] = true;
        if (i > 0 && info.supercompression == TEXDEC_FILE_SUPERCOMPRESSION_NONE)
            CHECK(s.offset >= order[i - 1].offset + order[i - 1].size);
    }
    // Bad queries: their statuses, and one ERROR message each through the open info's callback
    // (texdec_file.h: every failure has its sentence), none for the empty request.
    CHECK(messages.errors.empty());
    CHECK(texdec_file_get_surfaces(handle.file, info.surface_count, 1, order.data()) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_file_get_surfaces(handle.file, info.surface_count, 0, nullptr) == TEXDEC_SUCCESS);
    texdec_file_surface outside{};
    CHECK(texdec_file_get_surface(handle.file, info.levels, 0, 0, &outside) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_file_get_surface(handle.file, 0, info.layers, 0, &outside) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_file_get_surface(handle.file, 0, 0, info.faces, &outside) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_file_read_blocks(handle.file, all.data(), size_t(info.blocks_size - 1)) ==
          TEXDEC_ERROR_DESTINATION_TOO_SMALL);
    CHECK(texdec_file_read_level(handle.file, info.levels, all.data(), all.size()) == TEXDEC_ERROR_INVALID_ARGUMENT);
    REQUIRE(messages.errors.size() == 6);
    CHECK_THAT(messages.errors[0], Catch::Contains("texdec_file_get_surfaces"));
    CHECK_THAT(messages.errors[1], Catch::Contains("texdec_file_get_surface: level"));
    CHECK_THAT(messages.errors[4], Catch::Contains("destination holds"));
    return true;
}

// Blocks of `bytes` bytes whose every byte differs from its neighbours' (a misplaced surface shows).
std::vector<uint8_t> pattern(size_t bytes, uint32_t seed) {
    std::vector<uint8_t> data(bytes);
    uint32_t x = seed * 2654435761u + 1;
    for (uint8_t& b : data) {
        x = x * 1664525u + 1013904223u;
        b = uint8_t(x >> 24);
    }
    return data;
}

uint64_t blocks_bytes(texdec_format format, uint32_t w, uint32_t h, uint32_t d) {
    uint64_t bytes = 0;
    REQUIRE(texdec_encoded_size(format, w, h, d, &bytes) == TEXDEC_SUCCESS);
    return bytes;
}

// The files the tests' own writer makes: every container and shape texture_file reads.
std::vector<std::pair<std::string, std::vector<uint8_t>>> written_files() {
    std::vector<std::pair<std::string, std::vector<uint8_t>>> files;
    // KTX 2: a 2D array with mips, a cube map, a 3D texture; none, Zstandard and zlib.
    struct Ktx2Case {
        const char* name;
        texdec_format format;
        uint32_t w, h, d, layers, faces, levels;
    };
    const Ktx2Case ktx2_cases[] = {
        {"bc7 array", TEXDEC_FORMAT_BC7_SRGB, 20, 12, 0, 3, 1, 3},
        {"bc1 cube", TEXDEC_FORMAT_BC1_RGBA_UNORM, 16, 16, 0, 0, 6, 5},
        {"astc 3d", TEXDEC_FORMAT_ASTC_4x4x4_UNORM, 9, 8, 7, 0, 1, 2},
        {"etc2 volume of 2D blocks", TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM, 8, 8, 3, 0, 1, 1},
    };
    for (const Ktx2Case& c : ktx2_cases)
        for (uint32_t scheme : {0u, 2u, 3u}) {
            Ktx2Spec spec = ktx2_spec(c.format, c.w, c.h, c.d, c.layers, c.faces, c.levels, scheme);
            std::vector<std::vector<uint8_t>> levels;
            uint32_t seed = 1;
            for (uint64_t bytes : ktx2_level_bytes(c.format, spec)) levels.push_back(pattern(size_t(bytes), seed++));
            files.emplace_back(std::string("KTX 2 ") + c.name + " scheme " + std::to_string(scheme),
                               ktx2_bytes(spec, levels).bytes);
        }
    // KTX 1: an ETC2 mip chain (both byte orders), a non-array cube with cubePadding, an array.
    for (bool big_endian : {false, true}) {
        KtxHeader h{0x9274, 12, 6};  // GL_COMPRESSED_RGB8_ETC2
        h.mip_levels = 4;
        h.endianness = 0x04030201;
        std::vector<KtxLevel> levels;
        for (uint32_t l = 0; l < 4; ++l) {
            const uint64_t bytes =
                blocks_bytes(TEXDEC_FORMAT_ETC2_R8G8B8_UNORM, std::max(1u, 12u >> l), std::max(1u, 6u >> l), 1);
            levels.push_back({uint32_t(bytes), pattern(size_t(bytes), l + 10)});
        }
        files.emplace_back(big_endian ? "KTX 1 big-endian mips" : "KTX 1 mips",
                           ktx_bytes(h, levels, big_endian, ktx_orientation_kv(big_endian)));
    }
    {
        KtxHeader h{0x93B0, 6, 6};  // GL_COMPRESSED_RGBA_ASTC_4x4_KHR, cube 6x6: 4 blocks of 16 bytes a face
        h.faces = 6;
        std::vector<uint8_t> level;
        for (int face = 0; face < 6; ++face) {
            const std::vector<uint8_t> blocks = pattern(64, uint32_t(face) + 20);
            level.insert(level.end(), blocks.begin(), blocks.end());  // 64 bytes: no cubePadding needed
        }
        files.emplace_back("KTX 1 cube", ktx_bytes(h, {{64, level}}, false));
        KtxHeader bc4{0x8DBB, 6, 5};  // GL_COMPRESSED_RED_RGTC1: 2x2 blocks of 8 bytes, 3 array elements
        bc4.array_elements = 3;
        bc4.mip_levels = 2;
        files.emplace_back("KTX 1 array", ktx_bytes(bc4, {{96, pattern(96, 30)}, {24, pattern(24, 31)}}, false));
    }
    // DDS: legacy DXT5 mips, a legacy cube with mips, a DX10 cube array, a DX10 volume, RXGB, DXT2.
    {
        LegacyDdsHeader h{{'D', 'X', 'T', '5'}, 16, 8};
        h.mip_count = 5;
        uint64_t bytes = 0;
        for (uint32_t l = 0; l < 5; ++l)
            bytes += blocks_bytes(TEXDEC_FORMAT_BC3_UNORM, std::max(1u, 16u >> l), std::max(1u, 8u >> l), 1);
        files.emplace_back("DDS DXT5 mips", legacy_dds(h, pattern(size_t(bytes), 40)));
        LegacyDdsHeader cube{{'D', 'X', 'T', '1'}, 8, 8};
        cube.mip_count = 4;
        cube.caps2 = 0x200 | 0xFC00;
        files.emplace_back("DDS legacy cube", legacy_dds(cube, pattern(6 * (32 + 8 + 8 + 8) + 5, 41)));
        Dx10Header array{98, 8, 8};  // BC7_UNORM
        array.misc_flag = 4;         // TEXTURECUBE
        array.array_size = 2;
        array.mip_count = 2;
        files.emplace_back("DDS DX10 cube array", dx10_dds(array, pattern(12 * (64 + 16), 42)));
        Dx10Header volume{80, 8, 4};  // BC4_UNORM
        volume.dimension = 4;
        volume.depth = 3;
        volume.mip_count = 3;
        files.emplace_back("DDS DX10 volume", dx10_dds(volume, pattern(3 * 16 + 1 * 8 * 1 + 8, 43)));
        LegacyDdsHeader rxgb{{'R', 'X', 'G', 'B'}, 4, 4};
        files.emplace_back("DDS RXGB", legacy_dds(rxgb, pattern(16, 44)));
    }
    files.emplace_back("PKM", pkm_bytes("20", 5, 8, 4, 7, 3, pattern(16, 50)));  // R11: two blocks
    files.emplace_back(".astc 2D stack", astc_file_bytes(6, 6, 1, 13, 7, 2, pattern(3 * 2 * 2 * 16, 51)));
    files.emplace_back(".astc 3D", astc_file_bytes(3, 3, 3, 4, 4, 4, pattern(8 * 16, 52)));
    return files;
}

std::vector<uint8_t> ktx2_key_value(const std::string& key, const std::string& value_with_nul) {
    std::vector<uint8_t> kv(4, 0);
    const std::string entry = key + '\0' + value_with_nul;
    put_u32(kv, 0, uint32_t(entry.size()));
    kv.insert(kv.end(), entry.begin(), entry.end());
    while (kv.size() % 4) kv.push_back(0);
    return kv;
}

}  // namespace

TEST_CASE("texdec_file opens the samples as texture_file reads them", "[file]") {
    int opened = 0;
    for (const auto& entry : std::filesystem::directory_iterator(std::string(TEXDEC_SOURCE_DIR) + "/samples")) {
        const std::string ext = entry.path().extension().string();
        if (ext != ".astc" && ext != ".dds" && ext != ".ktx" && ext != ".ktx2" && ext != ".pkm") continue;
        if (check_like_texture_file(read_binary_file(entry.path().string()), entry.path().string())) ++opened;
    }
    REQUIRE(opened >= 2);  // sample-astc-6x6.astc, sample-bc3.dds
}

TEST_CASE("texdec_file opens every container and shape the test writer makes as texture_file does", "[file]") {
    const auto files = written_files();
    // Each as written, truncated by one byte (refused alike, or opened alike), and with two bytes
    // more (two more trailing bytes).
    for (const auto& [name, bytes] : files) {
        uint64_t trailing = 0, more = 0;
        REQUIRE(check_like_texture_file(bytes, name, &trailing));
        if (name.rfind("KTX 2", 0) == 0) CHECK(trailing == 0);  // the writer puts level 0 last
        std::vector<uint8_t> shorter(bytes.begin(), bytes.end() - 1);
        check_like_texture_file(shorter, name + ", one byte short");
        std::vector<uint8_t> longer = bytes;
        longer.push_back(1);
        longer.push_back(2);
        REQUIRE(check_like_texture_file(longer, name + ", two bytes more", &more));
        CHECK(more == trailing + 2);
    }
}

TEST_CASE("texdec_file opens every corpus file as texture_file reads it", "[file][corpus]") {
    const std::string root = corpus_root();
    if (root.empty()) return;
    int opened = 0, refused = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
        if (!entry.is_regular_file()) continue;
        const std::string ext = entry.path().extension().string();
        if (ext != ".astc" && ext != ".dds" && ext != ".ktx" && ext != ".ktx2" && ext != ".pkm") continue;
        if (check_like_texture_file(read_binary_file(entry.path().string()), entry.path().string())) ++opened;
        else ++refused;
    }
    WARN("texdec_file checked " << opened << " corpus files opened and " << refused
                                << " refused, each as texture_file::open does");
    REQUIRE(opened > 100);
}

TEST_CASE("texdec_file reads key-value data and KTXorientation", "[file]") {
    const texdec_format format = TEXDEC_FORMAT_BC1_RGBA_UNORM;
    SECTION("KTX 2: entries in file order, values with their NUL, orientation letters") {
        std::vector<uint8_t> kv = ktx2_key_value("KTXorientation", std::string("ru", 3));
        const std::vector<uint8_t> writer = ktx2_key_value("KTXwriter", std::string("texdec test", 12));
        kv.insert(kv.end(), writer.begin(), writer.end());
        Ktx2Spec spec = ktx2_spec(format, 8, 8);
        spec.key_values = kv;
        const std::vector<uint8_t> bytes = ktx2_bytes(spec, {pattern(32, 1)}).bytes;
        FileHandle handle;
        REQUIRE(texdec_file_open(nullptr, bytes.data(), bytes.size(), &handle.file) == TEXDEC_SUCCESS);
        texdec_file_info info{};
        REQUIRE(texdec_file_get_info(handle.file, &info) == TEXDEC_SUCCESS);
        REQUIRE(info.key_value_count == 2);
        CHECK(info.facts & TEXDEC_FILE_FACT_ORIENTATION_STATED);
        CHECK(info.orientation == TEXDEC_FILE_ORIENTATION_Y_UP);
        CHECK_FALSE(info.facts & TEXDEC_FILE_FACT_KEY_VALUE_DAMAGED);
        texdec_file_key_value e{};
        REQUIRE(texdec_file_get_key_value(handle.file, 1, &e) == TEXDEC_SUCCESS);
        CHECK(std::string(e.key) == "KTXwriter");
        REQUIRE(e.value_size == 12);
        CHECK(std::memcmp(e.value, "texdec test", 12) == 0);
        REQUIRE(texdec_file_find_key_value(handle.file, "KTXorientation", &e) == TEXDEC_SUCCESS);
        REQUIRE(e.key != nullptr);
        CHECK(e.value_size == 3);
        CHECK(std::memcmp(e.value, "ru", 3) == 0);
        REQUIRE(texdec_file_find_key_value(handle.file, "KTXorientatio", &e) == TEXDEC_SUCCESS);
        CHECK(e.key == nullptr);
        CHECK(texdec_file_get_key_value(handle.file, 2, &e) == TEXDEC_ERROR_INVALID_ARGUMENT);
    }
    SECTION("KTX 1, both byte orders: S=r,T=d and a damaged entry after it") {
        for (bool big_endian : {false, true}) {
            INFO("big-endian " << big_endian);
            std::vector<uint8_t> kv = ktx_orientation_kv(big_endian);
            const size_t first = kv.size();
            kv.resize(first + 8, 0);
            put_u32_order(kv, first, 100, big_endian);  // keyAndValueByteSize past the end
            KtxHeader h{0x83F1, 4, 4};                  // GL_COMPRESSED_RGBA_S3TC_DXT1_EXT
            const std::vector<uint8_t> bytes = ktx_bytes(h, {{8, pattern(8, 2)}}, big_endian, kv);
            Messages messages;
            texdec_file_open_info open_info{};
            open_info.message_callback = Messages::callback;
            open_info.user_data = &messages;
            FileHandle handle;
            REQUIRE(texdec_file_open(&open_info, bytes.data(), bytes.size(), &handle.file) == TEXDEC_SUCCESS);
            texdec_file_info info{};
            REQUIRE(texdec_file_get_info(handle.file, &info) == TEXDEC_SUCCESS);
            CHECK(info.key_value_count == 1);
            CHECK(info.facts & TEXDEC_FILE_FACT_ORIENTATION_STATED);
            CHECK(info.orientation == 0);
            CHECK(info.facts & TEXDEC_FILE_FACT_KEY_VALUE_DAMAGED);
            REQUIRE(messages.warnings.size() == 1);
            CHECK_THAT(messages.warnings[0], Catch::Contains("keyAndValueByteSize 100"));
            texdec_file_key_value e{};
            REQUIRE(texdec_file_get_key_value(handle.file, 0, &e) == TEXDEC_SUCCESS);
            CHECK(std::string(e.key) == "KTXorientation");
            CHECK(std::string(static_cast<const char*>(e.value), e.value_size) == std::string("S=r,T=d", 8));
        }
    }
    SECTION("DDS states no orientation and has no key-value data") {
        LegacyDdsHeader h{{'D', 'X', 'T', '1'}, 4, 4};
        const std::vector<uint8_t> bytes = legacy_dds(h, pattern(8, 3));
        FileHandle handle;
        REQUIRE(texdec_file_open(nullptr, bytes.data(), bytes.size(), &handle.file) == TEXDEC_SUCCESS);
        texdec_file_info info{};
        REQUIRE(texdec_file_get_info(handle.file, &info) == TEXDEC_SUCCESS);
        CHECK(info.key_value_count == 0);
        CHECK_FALSE(info.facts & TEXDEC_FILE_FACT_ORIENTATION_STATED);
        CHECK(info.facts & TEXDEC_FILE_FACT_COLOR_SPACE_STATED);
        CHECK(info.facts & TEXDEC_FILE_FACT_RANGE_STATED);
    }
}

TEST_CASE("texdec_file_open_path: a missing file is FILE_IO with the system's reason", "[file]") {
    const std::string path = (std::filesystem::temp_directory_path() / "texdec-no-such-file-36.ktx2").string();
    std::filesystem::remove(path);
    Messages messages;
    texdec_file_open_info open_info{};
    open_info.message_callback = Messages::callback;
    open_info.user_data = &messages;
    texdec_file* file = reinterpret_cast<texdec_file*>(&messages);  // overwritten with NULL
    REQUIRE(texdec_file_open_path(&open_info, path.c_str(), &file) == TEXDEC_ERROR_FILE_IO);
    CHECK(file == nullptr);
    REQUIRE(messages.errors.size() == 1);
    CHECK_THAT(messages.errors[0], Catch::Contains(path) && Catch::Contains(std::strerror(ENOENT)));
    // A sample through the path: the same description as from memory.
    FileHandle handle;
    const std::string sample = std::string(TEXDEC_SOURCE_DIR) + "/samples/sample-bc3.dds";
    REQUIRE(texdec_file_open_path(nullptr, sample.c_str(), &handle.file) == TEXDEC_SUCCESS);
    texdec_file_info info{};
    REQUIRE(texdec_file_get_info(handle.file, &info) == TEXDEC_SUCCESS);
    CHECK(info.container == TEXDEC_FILE_CONTAINER_DDS);
    CHECK(info.format == TEXDEC_FORMAT_BC3_UNORM);
    CHECK(info.file_size == read_binary_file(sample).size());
}

TEST_CASE("texdec_file_open_path: a file the system cannot map is read", "[file]") {
    // texdec_file.h: "mapped read-only where the system can, else read". A sysfs attribute is a
    // regular file of 4096 bytes (stat) that mmap refuses (ENODEV): open_path used to answer
    // FILE_IO ("cannot map"). Read, its text is no texture: UNSUPPORTED_FILE, the message showing
    // its first bytes, as read here.
    const std::string path = "/sys/kernel/mm/transparent_hugepage/enabled";
    const std::vector<uint8_t> bytes = std::filesystem::exists(path) ? read_binary_file(path) : std::vector<uint8_t>{};
    if (bytes.size() < 8) {
        WARN("no " << path << " to read: not checked here");
        return;
    }
    Messages messages;
    texdec_file_problem problem = TEXDEC_FILE_PROBLEM_MAX_ENUM;
    texdec_file_open_info open_info{};
    open_info.message_callback = Messages::callback;
    open_info.user_data = &messages;
    open_info.problem = &problem;
    texdec_file* file = nullptr;
    const texdec_status st = texdec_file_open_path(&open_info, path.c_str(), &file);
    INFO((messages.errors.empty() ? std::string() : messages.errors[0]));
    CHECK(st == TEXDEC_ERROR_UNSUPPORTED_FILE);
    CHECK(problem == TEXDEC_FILE_PROBLEM_UNKNOWN_CONTAINER);
    CHECK(file == nullptr);
    char hex[32];
    std::snprintf(hex, sizeof hex, "%02X %02X %02X %02X", bytes[0], bytes[1], bytes[2], bytes[3]);
    REQUIRE(messages.errors.size() == 1);
    CHECK_THAT(messages.errors[0], Catch::Contains(hex));
}

TEST_CASE("texdec_file refuses Basis Universal, unknown and empty files with their statuses", "[file]") {
    struct Case {
        const char* name;
        std::vector<uint8_t> bytes;
        texdec_status status;
        texdec_file_problem problem;
        const char* named;
    };
    Ktx2Spec basis = ktx2_spec(TEXDEC_FORMAT_BC7_UNORM, 8, 8);
    basis.vk_format = 0;
    basis.scheme = 1;         // BasisLZ
    basis.color_model = 163;  // ETC1S
    std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, 13};
    const Case cases[] = {
        {"KTX 2 BasisLZ / ETC1S", ktx2_bytes(basis, {pattern(64, 1)}).bytes, TEXDEC_ERROR_BASIS_UNIVERSAL,
         TEXDEC_FILE_PROBLEM_BASIS_UNIVERSAL, "ETC1S"},
        {"PNG", png, TEXDEC_ERROR_UNSUPPORTED_FILE, TEXDEC_FILE_PROBLEM_UNKNOWN_CONTAINER, "89 50 4E 47"},
        {"empty", {}, TEXDEC_ERROR_MALFORMED_FILE, TEXDEC_FILE_PROBLEM_TOO_SMALL, "empty"},
    };
    for (const Case& c : cases) {
        INFO(c.name);
        Messages messages;
        texdec_file_problem problem = TEXDEC_FILE_PROBLEM_NONE;
        texdec_file_open_info open_info{};
        open_info.message_callback = Messages::callback;
        open_info.user_data = &messages;
        open_info.problem = &problem;
        texdec_file* file = nullptr;
        CHECK(texdec_file_open(&open_info, c.bytes.data(), c.bytes.size(), &file) == c.status);
        CHECK(file == nullptr);
        CHECK(problem == c.problem);
        REQUIRE(messages.errors.size() == 1);
        CHECK_THAT(messages.errors[0], Catch::Contains(c.named));
    }
    texdec_file* file = nullptr;
    CHECK(texdec_file_open(nullptr, nullptr, 4, &file) == TEXDEC_ERROR_INVALID_ARGUMENT);
    texdec_file_open_info bad{};
    bad.flags = 2;
    CHECK(texdec_file_open(&bad, png.data(), png.size(), &file) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_file_open(nullptr, png.data(), png.size(), nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
}

TEST_CASE("texdec_file computes every surface of many-layer files from the header", "[file]") {
    // The files of "Parsers build their surface tables only within the limit they are given":
    // 65536 DDS layers and 49152 KTX 1 cube faces x 2 levels of one 4x4 BC1 block each. The public
    // parsers keep no table; each surface's offset is the spec's arithmetic (DDS: layer after
    // layer, each layer's levels in turn, after the 148 bytes of "DDS ", DDS_HEADER and
    // DDS_HEADER_DXT10; KTX 1: a level's imageSize, then its faces).
    const uint32_t layers = 65536;
    std::vector<uint8_t> blocks(size_t(layers) * 8);
    for (size_t i = 0; i < blocks.size(); ++i) blocks[i] = uint8_t(i / 8 * 7 + i);
    const std::vector<uint8_t> dds_file = dx10_dds({71, 4, 4, 1, 1, 3, 0, layers}, blocks);  // BC1_UNORM
    REQUIRE(check_like_texture_file(dds_file, "DDS of 65536 layers"));
    const uint32_t elements = 8192, faces = 6;
    const std::vector<uint8_t> level(size_t(elements) * faces * 8, 0x5A);
    const std::vector<uint8_t> ktx_file =
        ktx_bytes({0x83F1, 4, 4, 0, elements, faces, 2},
                  {{uint32_t(level.size()), level}, {uint32_t(level.size()), level}}, false);
    REQUIRE(check_like_texture_file(ktx_file, "KTX 1 cube array of 8192 elements"));

    FileHandle dds, ktx;
    REQUIRE(texdec_file_open(nullptr, dds_file.data(), dds_file.size(), &dds.file) == TEXDEC_SUCCESS);
    REQUIRE(texdec_file_open(nullptr, ktx_file.data(), ktx_file.size(), &ktx.file) == TEXDEC_SUCCESS);
    for (uint32_t layer : {0u, 1u, 4097u, layers - 1}) {
        texdec_file_surface s{};
        REQUIRE(texdec_file_get_surface(dds.file, 0, layer, 0, &s) == TEXDEC_SUCCESS);
        CHECK(s.offset == 148 + uint64_t(layer) * 8);
        CHECK(s.packed_offset == uint64_t(layer) * 8);
    }
    for (uint32_t element : {0u, 5u, elements - 1})
        for (uint32_t face : {0u, 5u})
            for (uint32_t l : {0u, 1u}) {
                texdec_file_surface s{};
                REQUIRE(texdec_file_get_surface(ktx.file, l, element, face, &s) == TEXDEC_SUCCESS);
                const uint64_t level_start = 64 + 4 + uint64_t(l) * (level.size() + 4);
                CHECK(s.offset == level_start + (uint64_t(element) * faces + face) * 8);
            }
}

// astc-gpu-decode --block-linear H[xD] (issue 23: raw blocks in the Tegra X1 block-linear layout)
// and the bench's block-linear rows, run as a program, on the GPU backend (--backend gpu) and the
// CPU backend (--backend cpu).
//
// Oracle: tl_offset() below, a block-linear address written here from the formula of the "source
// layouts" comment in include/texdec/texdec.h (the Tegra X1 Technical Reference Manual's "Block
// Linear" surfaces; the same facts as Ryujinx's BlockLinearLayout, no code taken from it, nor from
// the library or the tool). Its addresses are hand-checked for a few blocks, and it deswizzles the
// public tegra_swizzle vector to its linear twin. The test lays random blocks out with it, writes
// both layouts to files, and the CLI's decode of the block-linear file (--block-linear) must give
// the bytes of its decode of the linear file (tolerance 0), with the file cut to exactly the bytes
// the last block ends at (one byte less: the library's SOURCE_TOO_SMALL, exit code 3).
//   - random blocks: BC7 (2D, partial blocks), ASTC 6x6 (block height 16), BC1 2D slices through
//     the block depth (--block-linear 2x2), ASTC 4x4x4 3D (--block-linear 1x2), and --verify;
//   - corpus ($TEXDEC_CORPUS; skipped loudly without it): tegra_swizzle's 128_bc7, 128_bc1 (block
//     height 4) and 512_bc7 (16) *_tiled.bin against their linear .bin;
//   - errors: bad H / D, a container input, `info`, a short or empty file;
//   - bench: the block-linear rows in the table and the JSON (tiny extent), --block-linear off.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <texdec/texdec.h>

#include "support/astc_block_builder.h"
#include "support/astc_random_blocks.h"
#include "support/cli_runner.h"
#include "support/corpus_files.h"
#include "support/format_info.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

const std::string kCli = cli_path();

// ---- the oracle: texdec.h "source layouts" -----------------------------------------------------

struct TlSurface {
    uint64_t row_blocks, rows, slices;  // compressed blocks
    uint64_t block_bytes;               // 8 or 16
    uint64_t gob_height, gob_depth;     // H, D
};

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Block (bx, by, bz): its row bytes are x = bx * block bytes; a GOB is 64 bytes x 8 rows; H x D
// GOBs make a block of GOBs (the GOB below after the one above, then the next slice's);
// ceil(row bytes / 64) blocks of GOBs a row, ceil(rows / 8H) rows per D slices.
uint64_t tl_offset(const TlSurface& s, uint64_t bx, uint64_t by, uint64_t bz) {
    const uint64_t gob_block = 512 * s.gob_height * s.gob_depth;
    const uint64_t per_row = ceil_div(s.row_blocks * s.block_bytes, 64);
    const uint64_t rows_of_blocks = ceil_div(s.rows, 8 * s.gob_height);
    const uint64_t x = bx * s.block_bytes, xg = x % 64, yg = by % 8;
    const uint64_t in_gob = (xg / 32) * 256 + (yg / 2) * 64 + ((xg % 32) / 16) * 32 + (yg % 2) * 16 + xg % 16;
    const uint64_t block_index = ((bz / s.gob_depth) * rows_of_blocks + by / (8 * s.gob_height)) * per_row + x / 64;
    return block_index * gob_block + (bz % s.gob_depth) * 512 * s.gob_height + ((by / 8) % s.gob_height) * 512 + in_gob;
}

// Linear blocks (x, then y, then z) laid out block-linear, cut after the byte the farthest block
// ends at (what a job reads; texdec.h: "not the whole padded surface"). Unused bytes: 0xA5.
std::vector<uint8_t> tl_swizzle(const TlSurface& s, const std::vector<uint8_t>& linear) {
    uint64_t end = 0;
    for (uint64_t z = 0; z < s.slices; ++z)
        for (uint64_t y = 0; y < s.rows; ++y)
            for (uint64_t x = 0; x < s.row_blocks; ++x) end = std::max(end, tl_offset(s, x, y, z) + s.block_bytes);
    std::vector<uint8_t> out(end, 0xA5);
    size_t i = 0;
    for (uint64_t z = 0; z < s.slices; ++z)
        for (uint64_t y = 0; y < s.rows; ++y)
            for (uint64_t x = 0; x < s.row_blocks; ++x, i += s.block_bytes)
                std::memcpy(&out[tl_offset(s, x, y, z)], &linear[i], s.block_bytes);
    return out;
}

std::vector<uint8_t> tl_deswizzle(const TlSurface& s, const std::vector<uint8_t>& tiled) {
    std::vector<uint8_t> out(s.row_blocks * s.rows * s.slices * s.block_bytes);
    size_t i = 0;
    for (uint64_t z = 0; z < s.slices; ++z)
        for (uint64_t y = 0; y < s.rows; ++y)
            for (uint64_t x = 0; x < s.row_blocks; ++x, i += s.block_bytes) {
                const uint64_t at = tl_offset(s, x, y, z);
                REQUIRE(at + s.block_bytes <= tiled.size());
                std::memcpy(&out[i], &tiled[at], s.block_bytes);
            }
    return out;
}

// ---- helpers -----------------------------------------------------------------------------------

const char* const kBackends[] = {"gpu", "cpu"};

// The CLI's texels (.raw, native) of a raw file (`args`: --format, --extent, --block-linear), on a backend.
std::vector<uint8_t> cli_decode(const std::string& dir, const char* backend, const std::string& args,
                                const std::string& input) {
    const std::string out = dir + "/out-" + backend + ".raw";
    std::remove(out.c_str());
    const std::string command =
        kCli + " --backend " + backend + " decode --output native " + args + " " + input + " " + out;
    INFO(command);
    const int code = run_cli_command(command);
    INFO(last_cli_stderr());
    REQUIRE(code == 0);
    CHECK(contains(last_cli_stderr(), std::string("[") + backend + ": "));
    const std::vector<uint8_t> texels = read_binary_file(out);
    REQUIRE(!texels.empty());
    return texels;
}

void require_same(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want) {
    REQUIRE(got.size() == want.size());
    if (got != want) {
        const size_t first = size_t(std::mismatch(got.begin(), got.end(), want.begin()).first - got.begin());
        FAIL("the block-linear input decodes to other bytes than the linear input, first at byte " << first << " of "
                                                                                                   << got.size());
    }
}

struct RandomCase {
    texdec_format format;
    uint32_t width, height, depth;  // texels
    uint32_t gob_height, gob_depth;
    const char* option;  // --block-linear's value
};

}  // namespace

TEST_CASE("CLI block-linear oracle: hand-checked addresses", "[cli][block_linear][cli_block_linear]") {
    // 16-byte blocks, 25 a row (400 bytes: 7 GOBs a row), block height 2 GOBs (16 block rows).
    const TlSurface s{25, 18, 1, 16, 2, 1};
    // A GOB is 16 bytes x 2 rows pieces (32 bytes): two across a 32-byte half, four rows of them
    // down a half (256 bytes), then the right half.
    CHECK(tl_offset(s, 0, 0, 0) == 0);
    CHECK(tl_offset(s, 0, 1, 0) == 16);     // y = 1: the odd row of the first piece
    CHECK(tl_offset(s, 1, 0, 0) == 32);     // x = 16: the second piece
    CHECK(tl_offset(s, 1, 1, 0) == 48);     // x = 16, y = 1
    CHECK(tl_offset(s, 0, 2, 0) == 64);     // y = 2: the next pair of rows
    CHECK(tl_offset(s, 2, 0, 0) == 256);    // x = 32: the GOB's right half
    CHECK(tl_offset(s, 5, 3, 0) == 1136);   // GOB column 1 (1024), x % 64 = 16 -> 32, y = 3 -> 64 + 16
    CHECK(tl_offset(s, 4, 9, 0) == 1552);   // GOB column 1 (1024), the second GOB down (512), y % 8 = 1 -> 16
    CHECK(tl_offset(s, 0, 16, 0) == 7168);  // the second row of GOB blocks: 7 blocks of 1024 bytes further
    // 8-byte blocks, block height 1, block depth 2: slice 1 is the next GOB of the block.
    const TlSurface t{10, 4, 3, 8, 1, 2};  // 80 bytes a row: 2 GOBs; 1 row of GOB blocks
    CHECK(tl_offset(t, 0, 0, 1) == 512);
    CHECK(tl_offset(t, 8, 0, 1) == 1024 + 512);  // x = 64: the second block of GOBs (1024 bytes each)
    CHECK(tl_offset(t, 0, 0, 2) == 2048);        // slices 2-3: after the 2 blocks of slices 0-1
}

TEST_CASE("CLI --block-linear: random blocks decode like their linear twins, both backends",
          "[cli][block_linear][cli_block_linear]") {
    if (!cli_has_device()) return;
    const std::string d = fresh_cli_dir("block-linear-random");
    const RandomCase cases[] = {
        {TEXDEC_FORMAT_BC7_UNORM, 100, 70, 1, 4, 1, "4"},          // 25 x 18 blocks, partial last ones
        {TEXDEC_FORMAT_ASTC_6x6_UNORM, 130, 50, 1, 16, 1, "16"},   // 22 x 9 blocks, one row of GOB blocks
        {TEXDEC_FORMAT_BC1_RGBA_UNORM, 72, 40, 3, 2, 2, "2x2"},    // 3 slices through the block depth
        {TEXDEC_FORMAT_ASTC_4x4x4_UNORM, 20, 12, 9, 1, 2, "1x2"},  // 5 x 3 x 3 blocks of a 3D footprint
    };
    size_t decodes = 0;
    for (const RandomCase& c : cases) {
        const texdec_format_info info = format_info(c.format);
        if (!(info.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED)) continue;
        INFO(info.name << " " << c.width << "x" << c.height << "x" << c.depth << " --block-linear " << c.option);
        const TlSurface s{ceil_div(c.width, info.block_width),
                          ceil_div(c.height, info.block_height),
                          ceil_div(c.depth, info.block_depth),
                          info.bytes_per_block,
                          c.gob_height,
                          c.gob_depth};
        const std::vector<uint8_t> linear = random_format_blocks(info, size_t(s.row_blocks * s.rows * s.slices),
                                                                 test_seed() + 0xB1 + uint64_t(c.format));
        const std::vector<uint8_t> tiled = tl_swizzle(s, linear);
        const std::string lin_file = d + "/linear.bin", bl_file = d + "/tiled.bin", short_file = d + "/short.bin";
        write_binary_file(lin_file, linear);
        write_binary_file(bl_file, tiled);
        write_binary_file(short_file, std::vector<uint8_t>(tiled.begin(), tiled.end() - 1));
        const std::string extent = std::to_string(c.width) + "x" + std::to_string(c.height) +
                                   (c.depth > 1 ? "x" + std::to_string(c.depth) : "");
        const std::string raw = std::string("--format ") + info.name + " --extent " + extent;
        for (const char* backend : kBackends) {
            INFO("backend " << backend);
            const std::vector<uint8_t> want = cli_decode(d, backend, raw, lin_file);
            require_same(cli_decode(d, backend, raw + " --block-linear " + c.option, bl_file), want);
            decodes += 2;
            // One byte short of the farthest block: the library's size check, an input error.
            CHECK(run_cli_command(kCli + " --backend " + backend + " decode " + raw + " --block-linear " + c.option +
                                  " " + short_file + " " + d + "/short.raw") == 3);
            CHECK(contains(last_cli_stderr(), "too short for its block-linear layout (--block-linear " +
                                                  std::string(c.option) +
                                                  "): source data too small [texdec status 8]"));
            CHECK(contains(last_cli_stderr(), "the extent needs " + std::to_string(tiled.size()) + " bytes"));
        }
        // The same blocks read as linear give other texels (the layout matters): except by chance.
        CHECK(tiled != linear);
    }
    CHECK(decodes >= 12);

    // --verify: the tool reads the blocks back in linear order for the CPU reference.
    const texdec_format_info bc7 = format_info(TEXDEC_FORMAT_BC7_UNORM);
    const TlSurface s{10, 9, 1, bc7.bytes_per_block, 8, 1};
    const std::vector<uint8_t> tiled = tl_swizzle(s, random_format_blocks(bc7, 90, test_seed() + 0xF1));
    write_binary_file(d + "/verify.bin", tiled);
    for (const char* backend : kBackends) {
        REQUIRE(run_cli_command(kCli + " --backend " + backend +
                                " decode --verify --format bc7-unorm --extent 40x36 --block-linear 8 --json=" + d +
                                "/verify.json " + d + "/verify.bin " + d + "/verify.png") == 0);
        CHECK(contains(last_cli_stderr(), "verify: 0 of 1440 texels differ"));
        CHECK(contains(compact(read_text(d + "/verify.json")),
                       "\"container_format\": \"--format bc7-unorm --block-linear 8\""));
    }
}

TEST_CASE("CLI --block-linear: tegra_swizzle's block-linear vectors decode like their linear twins",
          "[cli][block_linear][cli_block_linear][corpus]") {
    const std::string root = corpus_root();
    if (root.empty()) return;  // skipped loudly
    if (!cli_has_device()) return;
    const std::string dir = root + "/tegra_swizzle/block_linear/", d = fresh_cli_dir("block-linear-corpus");
    struct Vector {
        const char* name;
        const char* format;
        uint32_t blocks, block_bytes, gob_height;  // blocks a side (square)
    };
    // The corpus README: 128_bc7 and 128_bc1 32x32 blocks, block height 4; 512_bc7 128x128, 16
    // (its tiled file is longer than one surface: the linear file is the first).
    const Vector vectors[] = {{"128_bc7", "bc7-unorm", 32, 16, 4},
                              {"128_bc1", "bc1-rgba-unorm", 32, 8, 4},
                              {"512_bc7", "bc7-unorm", 128, 16, 16}};
    size_t files = 0;
    for (const Vector& v : vectors) {
        INFO(v.name);
        const std::string tiled_path = dir + v.name + "_tiled.bin", linear_path = dir + v.name + ".bin";
        const std::vector<uint8_t> tiled = read_binary_file(tiled_path), linear = read_binary_file(linear_path);
        if (tiled.empty() || linear.empty())
            FAIL("TEXDEC_CORPUS is set but " << (tiled.empty() ? tiled_path : linear_path) << " is missing");
        // The oracle agrees with the vector.
        const TlSurface s{v.blocks, v.blocks, 1, v.block_bytes, v.gob_height, 1};
        REQUIRE(linear.size() == size_t(v.blocks) * v.blocks * v.block_bytes);
        CHECK(tl_deswizzle(s, tiled) == linear);
        const std::string raw = std::string("--format ") + v.format + " --extent " + std::to_string(v.blocks * 4) +
                                "x" + std::to_string(v.blocks * 4);
        for (const char* backend : kBackends) {
            INFO("backend " << backend);
            require_same(cli_decode(d, backend, raw + " --block-linear " + std::to_string(v.gob_height), tiled_path),
                         cli_decode(d, backend, raw, linear_path));
        }
        files += 2;
    }
    WARN("tegra_swizzle block-linear vectors through the CLI: " << files
                                                                << " files (128_bc7, 128_bc1, 512_bc7), both backends, "
                                                                   "equal to their linear twins");
}

TEST_CASE("CLI --block-linear: usage errors and short files", "[cli][block_linear][cli_block_linear]") {
    const std::string d = fresh_cli_dir("block-linear-errors");
    write_binary_file(d + "/blocks.bin", std::vector<uint8_t>(4096, 0));
    const std::string raw = " decode --format bc7-unorm --extent 64x64 " + d + "/blocks.bin " + d + "/out.png";
    for (const char* bad : {"3", "0", "64", "4x3", "4x64", "x4", "4x", "abc", "-4", "16x1x1"}) {
        INFO("--block-linear " << bad);
        CHECK(run_cli_command(kCli + raw + " --block-linear=" + bad) == 2);
        CHECK(contains(last_cli_stderr(), "--block-linear '" + std::string(bad) + "': the block "));
        CHECK(contains(last_cli_stderr(), "is not 1, 2, 4, 8, 16 or 32 (GOBs; give H or HxD)"));
    }
    // A container file: its header says its layout.
    const std::string sample = cli_sample_bc3();
    CHECK(run_cli_command(kCli + " decode --block-linear 4 " + sample + " " + d + "/out.png") == 2);
    CHECK(contains(last_cli_stderr(),
                   "--block-linear applies to raw blocks (give --format and --extent); a .dds, "
                   ".ktx, .ktx2, .pkm or .astc file is read as its header lays it out"));
    CHECK(read_binary_file(d + "/out.png").empty());
    CHECK(run_cli_command(kCli + " decode --block-linear 4 --out-dir " + d + "/batch " + sample) == 2);
    CHECK(contains(last_cli_stderr(), "--block-linear applies to raw blocks"));
    CHECK(run_cli_command(kCli + " info --block-linear 4 " + sample) == 2);
    CHECK(contains(last_cli_stderr(), "option --block-linear applies to 'decode' and 'bench' only"));
    // --format without --extent is still the error it was.
    CHECK(run_cli_command(kCli + " decode --format bc7-unorm --block-linear 4 " + d + "/blocks.bin " + d + "/o.png") ==
          2);
    CHECK(contains(last_cli_stderr(), "--format needs --extent WxH[xD]"));

    // Short and empty files: the library's SOURCE_TOO_SMALL, exit code 3, before any output.
    if (!cli_has_device()) return;
    // 64x64 BC7 = 16 x 16 blocks (256 bytes a row: 4 GOBs), block height 4: 32 rows of one block of
    // GOBs; the last block, (15, 15), is in GOB column 3 (3 x 2048), GOB 1 down (512), and at
    // x = 48, y = 7 of it: 256 (right half) + 192 (rows 6-7) + 32 (second piece) + 16 (odd row).
    const TlSurface s{16, 16, 1, 16, 4, 1};
    const uint64_t needed = tl_offset(s, 15, 15, 0) + 16;
    CHECK(needed == 3 * 2048 + 512 + 496 + 16);
    write_binary_file(d + "/short.bin", std::vector<uint8_t>(size_t(needed - 1), 0));
    write_binary_file(d + "/empty.bin", {});
    for (const char* backend : kBackends) {
        for (const char* file : {"short.bin", "empty.bin"}) {
            INFO(backend << " " << file);
            CHECK(run_cli_command(kCli + " --backend " + backend +
                                  " decode --format bc7-unorm --extent 64x64 --block-linear 4 " + d + "/" + file + " " +
                                  d + "/out.png") == 3);
            CHECK(contains(last_cli_stderr(),
                           "too short for its block-linear layout (--block-linear 4): source data "
                           "too small [texdec status 8]: the extent needs " +
                               std::to_string(needed) + " bytes of blocks"));
            CHECK(read_binary_file(d + "/out.png").empty());
        }
    }
}

TEST_CASE("CLI bench: block-linear rows next to the linear ones", "[cli][block_linear][cli_block_linear][bench]") {
    const std::string d = fresh_cli_dir("block-linear-bench"), json = d + "/bench.json", table = d + "/table.txt";
    CHECK(run_cli_command(kCli + " bench --block-linear 3") == 2);
    if (contains(last_cli_stderr(), "has no 'bench'")) {
        WARN("the bench is not built (TEXDEC_BUILD_BENCH=OFF)");
        return;
    }
    CHECK(contains(last_cli_stderr(), "--block-linear '3': the block height '3' is not 1, 2, 4, 8, 16 or 32"));
    CHECK(run_cli_command(kCli + " bench --block-linear 4x2") == 2);
    CHECK(contains(last_cli_stderr(), "the bench's textures are 2D"));
    if (!cli_has_device()) return;
    for (const char* backend : kBackends) {
        INFO("backend " << backend);
        const std::string threads = std::string(backend) == "cpu" ? " --threads 2" : "";
        const int code = run_cli_command(kCli + " bench --backend " + backend + threads +
                                         " --size 64x64 --iterations 2 --warmup-ms 0 --block-linear 2 "
                                         "--format bc1-rgba-unorm --format astc-6x6-unorm --json=" +
                                         json + " > " + table);
        INFO(last_cli_stderr() << read_text(table));
        REQUIRE(code == 0);
        const std::string t = read_text(table), j = compact(read_text(json));
        CHECK(contains(t, "block-linear input (Tegra X1 layout, block height 2 GOBs"));
        CHECK(contains(t, "GPU block-linear"));
        CHECK(contains(j, "\"block_linear_block_height\": 2"));
        CHECK(contains(j, "\"layout\": {\"type\": \"linear\"}"));
        auto count = [&](const std::string& part) {
            size_t n = 0;
            for (size_t at = 0; (at = j.find(part, at)) != std::string::npos; ++at) ++n;
            return n;
        };
        // One block-linear object per format, both checked equal to the linear decode.
        CHECK(count("\"layout\": {\"type\": \"block-linear\",\"block_height\": 2,\"block_depth\": 1}") == 2);
        CHECK(count("\"check\": \"same texels\",\"same_texels\": true") == 2);
        CHECK(count("\"ours_over_linear\": ") == 4);
        // Measured on the backend asked: 2 formats x real, random.
        if (std::string(backend) == "cpu") {
            CHECK(count("\"ours_cpu_backend\": {\"available\": true") == 4);
        } else {
            CHECK(count("\"ours\": {\"available\": true,\"shape\": \"texdec_record_regions, block-linear 2 GOBs\"") ==
                  4);
            // The ratio docs/PERFORMANCE.md's block-linear target is about, measured.
            CHECK(bench_summary_value(t, "bc1-rgba-unorm real-image block-linear/linear input") > 0);
        }
    }
    // off: no block-linear rows.
    REQUIRE(run_cli_command(kCli +
                            " bench --backend cpu --threads 2 --size 16x16 --iterations 1 --warmup-ms 0 "
                            "--block-linear off --format bc1-rgba-unorm --json=" +
                            json + " > " + table) == 0);
    CHECK(contains(compact(read_text(json)), "\"block_linear\": null"));
    CHECK(!contains(read_text(table), "block-linear input"));
}

// astc-gpu-decode's backend choice, run as a program: raw mode on the CPU backend
// (TEXDEC_BACKEND=cpu) gives the bytes of the GPU backend (--backend gpu) for every implemented
// format, output type and BC rounding mode, on random blocks with an extent that is not a block
// multiple; --backend / TEXDEC_BACKEND / --device / --threads and what wins; the backend named on
// stderr, on the per-file line and in --json; usage errors; --verify on the CPU backend; and the
// bench on the CPU backend alone with no Vulkan driver to be found.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include <texdec/texdec.h>

#include "support/astc_block_builder.h"
#include "support/astc_random_blocks.h"
#include "support/bc_formats.h"
#include "support/cli_runner.h"
#include "support/container_files.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

const std::string kCli = cli_path();

// The environment of one command: TEXDEC_BACKEND as given ("" = unset), so that a TEXDEC_BACKEND
// the test run itself has (CI's CPU stage) does not change what a case means.
std::string with_backend_env(const std::string& value) {
    return value.empty() ? "env -u TEXDEC_BACKEND " : "env TEXDEC_BACKEND=" + value + " ";
}

// No Vulkan driver to be found: the loader sees no ICD (and texdec's own loader, none at all).
const std::string kNoVulkan =
    "VK_DRIVER_FILES=/nonexistent VK_ICD_FILENAMES=/nonexistent TEXDEC_DEBUG_VULKAN_LOADER=/nonexistent ";

const char* output_option(texdec_output output) {
    return output == TEXDEC_OUTPUT_RGBA8 ? "rgba8" : output == TEXDEC_OUTPUT_RGBA16F ? "rgba16f" : "native";
}
const char* rounding_option(texdec_bc_rounding rounding) { return texdec_bc_rounding_name(rounding); }

bool offers(texdec_format format, texdec_output output) {
    VkFormat ignored;
    return texdec_output_vk_format(format, output, &ignored) == TEXDEC_SUCCESS;
}

// Random blocks of `format` for a bx x by x bz grid: BC1-BC5 from random_blocks() (every bit
// pattern, plus the endpoint cases docs/EXACTNESS.md names), ASTC the LDR test mix (random bits,
// legal modes with random bits, HDR-mode patterns, builder blocks, void extents; 2D or 3D), the
// other families uniformly random bytes (every bit pattern is a block).
std::vector<uint8_t> blocks_for(const texdec_format_info& info, texdec_format format, size_t count, uint64_t seed) {
    if (info.family == TEXDEC_FAMILY_BC1_3 || info.family == TEXDEC_FAMILY_BC4_5)
        return random_blocks(bc_format(format), count, seed);
    return random_format_blocks(info, count, seed);
}

struct FamilyCase {
    const char* name;
    bool (*has)(const texdec_format_info& info);
};

// Raw mode through the CLI on both backends for every implemented format of a family: the same bytes.
void compare_backends_in_raw_mode(const FamilyCase& family) {
    const bool gpu = cli_has_device();
    if (!gpu) return;
    const std::string d = fresh_cli_dir(std::string("backend-raw-") + family.name);
    size_t formats = 0, runs = 0;
    for (int fi = TEXDEC_FORMAT_UNDEFINED + 1; fi < TEXDEC_FORMAT_COUNT; ++fi) {
        const texdec_format format = texdec_format(fi);
        texdec_format_info info{};
        if (texdec_format_get_info(format, &info) != TEXDEC_SUCCESS) continue;
        if (!(info.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED) || !family.has(info)) continue;
        ++formats;
        // Partial blocks on every axis: 16 x 9 (x 3) blocks, the last column, row (and layer) cut.
        const uint32_t bx = 16, by = 9, bz = info.block_depth > 1 ? 3 : 1;
        const uint32_t w = bx * info.block_width - info.block_width / 2;
        const uint32_t h = by * info.block_height - (info.block_height + 1) / 2;
        const uint32_t depth = info.block_depth > 1 ? bz * info.block_depth - 1 : 1;
        const std::string extent =
            std::to_string(w) + "x" + std::to_string(h) + (depth > 1 ? "x" + std::to_string(depth) : "");
        const std::vector<uint8_t> blocks = blocks_for(info, format, size_t(bx) * by * bz, test_seed() + 0xB4C0 + fi);
        const std::string in = d + "/" + info.name + ".bin";
        write_binary_file(in, blocks);
        const bool bc1_5 = info.family == TEXDEC_FAMILY_BC1_3 || info.family == TEXDEC_FAMILY_BC4_5;
        const std::vector<texdec_bc_rounding> roundings =
            bc1_5 ? std::vector<texdec_bc_rounding>{TEXDEC_BC_ROUNDING_EXACT, TEXDEC_BC_ROUNDING_IDEAL,
                                                    TEXDEC_BC_ROUNDING_NVIDIA}
                  : std::vector<texdec_bc_rounding>{TEXDEC_BC_ROUNDING_EXACT};
        for (texdec_output output : kAllOutputs) {
            if (!offers(format, output)) continue;
            for (texdec_bc_rounding rounding : roundings) {
                const std::string args = std::string(" decode --format ") + info.name + " --extent " + extent +
                                         " --output " + output_option(output) +
                                         (bc1_5 ? std::string(" --bc-rounding ") + rounding_option(rounding) : "") +
                                         " " + in + " ";
                const std::string gpu_out = d + "/gpu.raw", cpu_out = d + "/cpu.raw";
                std::remove(gpu_out.c_str());
                std::remove(cpu_out.c_str());
                const std::string gpu_command = kCli + " --backend gpu" + args + gpu_out;
                const std::string cpu_command = "TEXDEC_BACKEND=cpu " + kCli + args + cpu_out;
                INFO(cpu_command);
                REQUIRE(run_cli_command(gpu_command) == 0);
                CHECK(contains(last_cli_stderr(), "[gpu: "));
                const int cpu_code = run_cli_command(cpu_command);
                INFO(last_cli_stderr());
                REQUIRE(cpu_code == 0);
                CHECK(contains(last_cli_stderr(), "[cpu: "));
                const std::vector<uint8_t> want = read_binary_file(gpu_out), got = read_binary_file(cpu_out);
                REQUIRE(!want.empty());
                REQUIRE(got.size() == want.size());
                if (got != want) {
                    size_t first = 0;
                    while (got[first] == want[first]) ++first;
                    FAIL_CHECK("the CPU backend's bytes differ from the GPU's, first at byte " << first << " of "
                                                                                               << got.size());
                }
                ++runs;
            }
        }
    }
    INFO(formats << " formats, " << runs << " decodes per backend");
    CHECK(formats > 0);
}

const FamilyCase kFamilies[] = {
    {"bc1-5",
     [](const texdec_format_info& i) { return i.family == TEXDEC_FAMILY_BC1_3 || i.family == TEXDEC_FAMILY_BC4_5; }},
    {"bc6h-bc7",
     [](const texdec_format_info& i) { return i.family == TEXDEC_FAMILY_BC6H || i.family == TEXDEC_FAMILY_BC7; }},
    {"etc2-eac",
     [](const texdec_format_info& i) { return i.family == TEXDEC_FAMILY_ETC2 || i.family == TEXDEC_FAMILY_EAC; }},
    {"astc-2d", [](const texdec_format_info& i) { return i.family == TEXDEC_FAMILY_ASTC && i.block_depth == 1; }},
    {"astc-3d", [](const texdec_format_info& i) { return i.family == TEXDEC_FAMILY_ASTC && i.block_depth > 1; }},
};

// Is every Vulkan device of CPU type (lavapipe)? Then --backend auto decodes on the CPU backend.
bool only_cpu_type_devices() {
    const std::string d = cli_temp_dir();
    REQUIRE(run_cli_command(kCli + " list-devices > " + d + "/devices.txt") == 0);
    const std::string list = read_text(d + "/devices.txt");
    size_t devices = 0, cpu = 0;
    size_t at = list.find('\n');  // past the header
    while (at != std::string::npos && at + 1 < list.size()) {
        const size_t end = list.find('\n', at + 1);
        const std::string line = list.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
        if (!line.empty()) {
            ++devices;
            cpu += contains(line, "  cpu  ");
        }
        at = end;
    }
    return devices == cpu;
}

}  // namespace

TEST_CASE("CLI raw mode: the CPU backend gives the GPU's bytes: BC1-BC5, every output and rounding",
          "[cli][cpu][heavy]") {
    compare_backends_in_raw_mode(kFamilies[0]);
}
TEST_CASE("CLI raw mode: the CPU backend gives the GPU's bytes: BC6H, BC7", "[cli][cpu][heavy]") {
    compare_backends_in_raw_mode(kFamilies[1]);
}
TEST_CASE("CLI raw mode: the CPU backend gives the GPU's bytes: ETC2, EAC", "[cli][cpu][heavy]") {
    compare_backends_in_raw_mode(kFamilies[2]);
}
TEST_CASE("CLI raw mode: the CPU backend gives the GPU's bytes: ASTC 2D", "[cli][cpu][heavy]") {
    compare_backends_in_raw_mode(kFamilies[3]);
}
TEST_CASE("CLI raw mode: the CPU backend gives the GPU's bytes: ASTC 3D", "[cli][cpu][heavy]") {
    compare_backends_in_raw_mode(kFamilies[4]);
}

TEST_CASE("CLI --backend and TEXDEC_BACKEND: the choice, what wins, and where it is said", "[cli][cpu]") {
    const std::string d = fresh_cli_dir("backend-choice");
    const std::string in = cli_sample_bc3(), json = d + "/r.json";
    auto decode = [&](const std::string& env, const std::string& options) {
        return run_cli_command(with_backend_env(env) + kCli + " decode " + options + " --json=" + json + " " + in +
                               " " + d + "/out.png");
    };

    SECTION("the CPU backend needs no Vulkan driver, and says so on every line") {
        for (const auto& [env, options] : {std::pair<std::string, std::string>{"", "--backend cpu"}, {"cpu", ""}}) {
            INFO("TEXDEC_BACKEND='" << env << "' " << options);
            REQUIRE(run_cli_command(kNoVulkan + with_backend_env(env) + kCli + " decode " + options +
                                    " --json=" + json + " " + in + " " + d + "/out.png") == 0);
            const std::string err = last_cli_stderr();
            CHECK(contains(err, "device: "));
            CHECK(contains(err, "(cpu backend)"));
            CHECK(contains(err, "decoded bc3-unorm 256x256x1 (rgba8) in "));
            CHECK(contains(err, " ms [cpu: "));
            const std::string j = read_text(json);
            CHECK(contains(j, "\"backend\": \"cpu\""));
            CHECK(contains(j, "\"gpu_ms\": null"));
            CHECK(contains(j, "\"cpu_ms\": "));
            CHECK(!contains(j, "\"backend\": \"gpu\""));
        }
    }
    SECTION("--threads names the CPU backend's thread count") {
        REQUIRE(decode("cpu", "--threads 3") == 0);
        CHECK(contains(last_cli_stderr(), "3 threads"));
        CHECK(contains(read_text(json), "3 threads"));
    }
    SECTION("--verify on the CPU backend") {
        REQUIRE(run_cli_command(with_backend_env("cpu") + kCli + " decode --verify " + in + " " + d + "/v.png") == 0);
        CHECK(contains(last_cli_stderr(), "verify: 0 of 65536 texels differ from the CPU reference"));
    }
    SECTION("usage errors: exit code 2, before anything is written") {
        CHECK(decode("", "--backend tpu") == 2);
        CHECK(contains(last_cli_stderr(), "unknown --backend 'tpu' (gpu, cpu or auto)"));
        CHECK(decode("tpu", "") == 2);
        CHECK(contains(last_cli_stderr(), "unknown TEXDEC_BACKEND 'tpu' in the environment"));
        CHECK(decode("", "--backend cpu --device 0") == 2);
        CHECK(contains(last_cli_stderr(), "--device selects a Vulkan device; the CPU backend has none"));
        for (const char* bad : {"0", "x", "1025"}) {
            CHECK(decode("cpu", std::string("--threads ") + bad) == 2);
            CHECK(contains(last_cli_stderr(), "--threads '" + std::string(bad) + "' is not a number from 1 to 1024"));
        }
        CHECK(run_cli_command(kCli + " info --backend cpu " + in) == 2);
        CHECK(contains(last_cli_stderr(), "option --backend applies to 'decode' and 'bench' only"));
        CHECK(run_cli_command(kCli + " info --threads 2 " + in) == 2);
        CHECK(contains(last_cli_stderr(), "option --threads applies to 'decode' and 'bench' only"));
        CHECK(read_binary_file(d + "/out.png").empty());
        CHECK(read_binary_file(json).empty());
    }
    SECTION("the GPU backend: --backend gpu wins over TEXDEC_BACKEND, and so does --device") {
        if (!cli_has_device()) return;
        REQUIRE(decode("cpu", "--backend gpu") == 0);
        CHECK(contains(last_cli_stderr(), "(gpu backend)"));
        CHECK(contains(last_cli_stderr(), " ms [gpu: "));
        CHECK(contains(read_text(json), "\"backend\": \"gpu\""));
        REQUIRE(decode("cpu", "--device 0") == 0);
        CHECK(contains(last_cli_stderr(), "(gpu backend)"));
        // --backend cpu wins over TEXDEC_BACKEND=gpu.
        REQUIRE(decode("gpu", "--backend cpu") == 0);
        CHECK(contains(last_cli_stderr(), "(cpu backend)"));
    }
    SECTION("auto (the default): a GPU that is not of CPU type, else the CPU backend") {
        if (!cli_has_device()) return;
        const char* want = only_cpu_type_devices() ? "(cpu backend)" : "(gpu backend)";
        for (const auto& [env, options] :
             {std::pair<std::string, std::string>{"", ""}, {"", "--backend auto"}, {"auto", ""}}) {
            INFO("TEXDEC_BACKEND='" << env << "' " << options);
            REQUIRE(decode(env, options) == 0);
            CHECK(contains(last_cli_stderr(), want));
        }
        // No Vulkan driver at all: auto still decodes, on the CPU backend.
        REQUIRE(run_cli_command(kNoVulkan + with_backend_env("") + kCli + " decode " + in + " " + d + "/nv.png") == 0);
        CHECK(contains(last_cli_stderr(), "(cpu backend)"));
        // ... while the GPU backend fails (exit code 1).
        CHECK(run_cli_command(kNoVulkan + with_backend_env("") + kCli + " decode --backend gpu " + in + " " + d +
                              "/nv2.png") == 1);
        CHECK(contains(last_cli_stderr(), "cannot create a texdec context (--backend gpu)"));
    }
}

TEST_CASE("CLI decode: a batch on the CPU backend names it for every file", "[cli][cpu]") {
    const std::string d = fresh_cli_dir("backend-batch"), out = d + "/out", json = d + "/r.json";
    REQUIRE(run_cli_command(kNoVulkan + with_backend_env("cpu") + kCli + " decode --out-dir " + out +
                            " --json=" + json + " " + cli_sample_bc3() + " " + cli_sample_astc()) == 0);
    const std::string err = last_cli_stderr();
    CHECK(contains(err, "[1/2] "));
    CHECK(contains(err, "[2/2] "));
    size_t lines = 0;
    for (size_t at = 0; (at = err.find(" ms [cpu: ", at)) != std::string::npos; ++at) ++lines;
    CHECK(lines == 2);
    const std::string j = read_text(json);
    size_t backends = 0;
    for (size_t at = 0; (at = j.find("\"backend\": \"cpu\"", at)) != std::string::npos; ++at) ++backends;
    CHECK(backends == 3);  // the run and each file
}

TEST_CASE("CLI bench --backend cpu: the CPU backend next to libastcenc, no Vulkan needed", "[cli][cpu][bench]") {
    const std::string d = fresh_cli_dir("backend-bench"), json = d + "/bench.json", table = d + "/table.txt";
    // --validate is about a Vulkan device: a usage error with the CPU backend (or no bench at all).
    CHECK(run_cli_command(kCli + " bench --backend cpu --validate") == 2);
    if (contains(last_cli_stderr(), "has no 'bench'")) {
        WARN("the bench is not built (TEXDEC_BUILD_BENCH=OFF)");
        return;
    }
    CHECK(contains(last_cli_stderr(), "--validate checks the Vulkan device; the CPU backend has none"));
    const int code = run_cli_command(kNoVulkan + kCli +
                                     " bench --backend cpu --threads 2 --size 64x64 --iterations 2 --warmup-ms 0 "
                                     "--format bc1-rgba-unorm --format astc-6x6-unorm --json=" +
                                     json + " > " + table);
    INFO(last_cli_stderr() << read_text(table));
    REQUIRE(code == 0);
    const std::string t = read_text(table), j = compact(read_text(json));
    CHECK(contains(t, "CPU backend: "));
    CHECK(contains(t, "CPU-backend GT/s"));
    CHECK(contains(t, "libastcenc GT/s"));
    CHECK(contains(t, "summary of the CPU backend (2 threads here"));
    // Measurements, not targets: a measured rate for each format, the ratio to libastcenc for ASTC.
    CHECK(!contains(t, "target"));
    CHECK(bench_summary_value(t, "bc1-rgba-unorm CPU backend real-image GTexel/s") > 0);
    CHECK(bench_summary_value(t, "astc-6x6-unorm CPU backend real-image GTexel/s") > 0);
    CHECK(bench_summary_value(t, "astc-6x6-unorm CPU backend/libastcenc, real-image, same threads") > 0);
    CHECK(contains(j, "\"backends\": {\"gpu\": false,\"cpu\": true"));
    CHECK(contains(j, "\"device\": null"));
    CHECK(contains(j, "\"threads\": 2"));
    CHECK(contains(j, "\"cpu_backend_over_libastcenc\": "));
    // Both formats measured on the CPU backend (real and random blocks), ASTC next to libastcenc.
    size_t measured = 0;
    for (size_t at = 0; (at = j.find("\"cpu_backend\": {\"available\": true", at)) != std::string::npos; ++at)
        ++measured;
    CHECK(measured == 4);
    CHECK(contains(j, "\"cpu\": {\"available\": true,\"note\": \"libastcenc"));

    // auto with no Vulkan driver: the CPU backend alone, and a note on why there is no GPU.
    REQUIRE(run_cli_command(kNoVulkan + with_backend_env("") + kCli +
                            " bench --size 16x16 --iterations 1 --warmup-ms 0 --format bc4-unorm > " + table) == 0);
    CHECK(contains(last_cli_stderr(), "bench: no GPU measured (no usable Vulkan device"));
    CHECK(contains(read_text(table), "CPU backend: "));
}

TEST_CASE("CLI bench --input FILE: a container's blocks tiled to the extent and measured", "[cli][cpu][bench]") {
    const std::string d = fresh_cli_dir("backend-bench-input"), json = d + "/bench.json", table = d + "/table.txt";
    auto bytes = [](size_t n, unsigned seed) {  // arbitrary block bytes (several BC7 modes)
        std::vector<uint8_t> out(n);
        for (size_t i = 0; i < n; ++i) out[i] = uint8_t(i * 151 + seed * 7 + (i >> 3) * 29);
        return out;
    };
    // A 12x8 BC7 DDS (3x2 blocks), tiled to 64x64 (16x16 blocks).
    const std::string dds = d + "/small_bc7.dds";
    write_binary_file(dds, dx10_dds({98, 12, 8}, bytes(6 * 16, 35)));  // DXGI_FORMAT_BC7_UNORM
    const int code = run_cli_command(kNoVulkan + kCli +
                                     " bench --backend cpu --threads 2 --size 64x64 --iterations 2 --warmup-ms 0 "
                                     "--input " +
                                     dds + " --json=" + json + " > " + table);
    if (contains(last_cli_stderr(), "has no 'bench'")) {
        WARN("the bench is not built (TEXDEC_BUILD_BENCH=OFF)");
        return;
    }
    INFO(last_cli_stderr() << read_text(table));
    REQUIRE(code == 0);
    const std::string t = read_text(table), j = compact(read_text(json));
    CHECK(contains(t, "real blocks: " + dds + " (DDS, "));
    CHECK(contains(t, "12x8), tiled to the extent"));
    CHECK(contains(last_cli_stderr(), "bc7-unorm 64x64 -> rgba8: real blocks from " + dds + ", tiled"));
    CHECK(contains(j, "\"input\": {\"path\": \"" + dds + "\""));
    CHECK(contains(j, "\"width\": 12,\"height\": 8,\"format\": \"bc7-unorm\"}"));
    // The file's format alone, measured on real (the file's) and random blocks.
    CHECK(contains(j, "\"format\": \"bc7-unorm\",\"width\": 64,\"height\": 64"));
    CHECK(!contains(j, "\"format\": \"bc1-rgba-unorm\""));
    size_t measured = 0;
    for (size_t at = 0; (at = j.find("\"cpu_backend\": {\"available\": true", at)) != std::string::npos; ++at)
        ++measured;
    CHECK(measured == 2);
    CHECK(bench_summary_value(t, "bc7-unorm CPU backend real-image GTexel/s") > 0);

    // The file names the format; a volume is refused; a missing file is an input error.
    CHECK(run_cli_command(kCli + " bench --backend cpu --input " + dds + " --format bc1-rgba-unorm") == 2);
    CHECK(contains(last_cli_stderr(), "--input gives the format"));
    CHECK(run_cli_command(kCli + " bench --backend cpu --input " + dds + " --regions 4") == 2);
    const std::string volume = d + "/volume.dds";
    Dx10Header v{71, 4, 4};  // DXGI_FORMAT_BC1_UNORM, 4x4x2
    v.depth = 2;
    v.dimension = 4;  // D3D10_RESOURCE_DIMENSION_TEXTURE3D
    write_binary_file(volume, dx10_dds(v, bytes(2 * 8, 36)));
    CHECK(run_cli_command(kCli + " bench --backend cpu --input " + volume) == 3);
    CHECK(contains(last_cli_stderr(), "the bench tiles 2D textures"));
    CHECK(run_cli_command(kCli + " bench --backend cpu --input " + d + "/missing.dds") == 3);
}

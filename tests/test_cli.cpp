// astc-gpu-decode, run as a program: raw mode for every BC1-BC5 format, output type and rounding
// mode on random blocks with an extent that is not a block multiple, compared with the oracles
// (tolerance 0); the bundled sample .dds to PNG compared with the EXACT model; exit codes for
// malformed input. The CLI uses its own device (validation is checked by the other tests).
#include <catch2/catch.hpp>

#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/wait.h>
#include <vector>

#include "gpu/gpu_fixture.h"
#include "oracles/reference.h"
#include "support/bc_formats.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

// TEXDEC_CLI / TEXDEC_SAMPLE override the build-time paths (for running the binary elsewhere).
std::string env_or(const char* name, const char* fallback) {
    const char* v = std::getenv(name);
    return v && *v ? v : fallback;
}
const std::string kCli = env_or("TEXDEC_CLI", TEXDEC_CLI_PATH);
const std::string kSample = env_or("TEXDEC_SAMPLE", TEXDEC_SOURCE_DIR "/samples/sample-bc3.dds");

std::string temp_dir() {
    static const std::string dir = [] {
        char pattern[] = "/tmp/texdec_cli_test_XXXXXX";
        const char* made = mkdtemp(pattern);
        REQUIRE(made != nullptr);
        return std::string(made);
    }();
    return dir;
}

// Runs a shell command; returns its exit code.
int run(const std::string& command) {
    const int status = std::system((command + " 2>" + temp_dir() + "/stderr.txt").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string last_stderr() {
    std::ifstream in(temp_dir() + "/stderr.txt");
    return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<uint8_t> read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void write_file(const std::string& path, const uint8_t* data, size_t size) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
}

// A GPU test through the CLI: fails without a device unless TEXDEC_ALLOW_NO_DEVICE=1.
bool cli_has_device() {
    if (run(kCli + " list-devices >/dev/null") == 0 && last_stderr().empty()) return true;
    fail_or_skip_for_missing_device("astc-gpu-decode list-devices failed: " + last_stderr());
    return false;
}

}  // namespace

TEST_CASE("CLI raw mode: every BC1-BC5 format, output and rounding matches the oracles", "[cli][gpu]") {
    if (!cli_has_device()) return;
    constexpr uint32_t kWidth = 253, kHeight = 61;  // 64 x 16 blocks, partial last column and row
    constexpr uint32_t kBlocksX = 64, kBlocksY = 16;
    for (const BcFormat& f : bc_formats()) {
        const std::vector<uint8_t> blocks = random_blocks(f, kBlocksX * kBlocksY, test_seed() + 7);
        const std::string in = temp_dir() + "/" + f.name + ".bin";
        write_file(in, blocks.data(), blocks.size());
        for (texdec_bc_rounding rounding : kBothRoundings)
            for (texdec_output output : kAllOutputs) {
                INFO(f.name << " " << rounding_name(rounding) << " " << output_name(output));
                const std::string out = temp_dir() + "/out.raw";
                std::remove(out.c_str());
                const std::string command = kCli + " decode --format " + f.name + " --extent 253x61 --output " +
                                            (output == TEXDEC_OUTPUT_RGBA8 ? "rgba8" : output == TEXDEC_OUTPUT_RGBA16F ? "rgba16f" : "native") +
                                            " --bc-rounding " + (rounding == TEXDEC_BC_ROUNDING_EXACT ? "exact" : "ideal") +
                                            " " + in + " " + out;
                const int code = run(command);
                if (output == TEXDEC_OUTPUT_RGBA8 && f.is_signed) {  // refused, as a usage error
                    CHECK(code == 2);
                    continue;
                }
                INFO(command << "\n" << last_stderr());
                REQUIRE(code == 0);
                const uint32_t texel = output_texel_bytes(f, output);
                const std::vector<uint8_t> texels = read_file(out);
                REQUIRE(texels.size() == size_t(kWidth) * kHeight * texel);
                const Oracle oracle = primary_oracle(f, rounding);
                size_t mismatches = 0;
                std::string first;
                for (uint32_t b = 0; b < kBlocksX * kBlocksY; ++b) {
                    ReferenceBlock ref;
                    reference_decode(f, rounding, oracle, &blocks[size_t(b) * f.block_bytes], &ref);
                    const uint32_t mask = output_byte_mask(f, output, ref.channel_mask);
                    for (uint32_t t = 0; t < 16; ++t) {
                        const uint32_t x = (b % kBlocksX) * 4 + t % 4, y = (b / kBlocksX) * 4 + t / 4;
                        if (x >= kWidth || y >= kHeight) continue;
                        uint8_t want[8];
                        pack_reference_texel(f, output, ref.texel[t], want);
                        const uint8_t* got = &texels[(size_t(y) * kWidth + x) * texel];
                        for (uint32_t i = 0; i < texel; ++i)
                            if ((mask >> i & 1) && want[i] != got[i]) {
                                if (mismatches++ == 0)
                                    first = "texel (" + std::to_string(x) + "," + std::to_string(y) + "): expected " +
                                            hex_bytes(want, texel) + " got " + hex_bytes(got, texel);
                                break;
                            }
                    }
                }
                INFO("oracle " << oracle_name(oracle) << "; first mismatch: " << first);
                CHECK(mismatches == 0);
            }
    }
}

TEST_CASE("CLI: the bundled sample .dds decodes to a PNG equal to the EXACT model", "[cli][gpu]") {
    if (!cli_has_device()) return;
    const std::string png = temp_dir() + "/sample.png";
    REQUIRE(run(kCli + " decode " + kSample + " " + png) == 0);
    CHECK(last_stderr().find("device: ") != std::string::npos);  // the device used is printed
    int w = 0, h = 0, n = 0;
    stbi_uc* pixels = stbi_load(png.c_str(), &w, &h, &n, 4);
    REQUIRE(pixels != nullptr);
    REQUIRE((w == 256 && h == 256));
    // A legacy DDS header (DXT5 = bc3-unorm) is 128 bytes; the level-0 blocks follow.
    const std::vector<uint8_t> dds = read_file(kSample);
    REQUIRE(dds.size() >= 128 + 64 * 64 * 16);
    const BcFormat& f = bc_format(TEXDEC_FORMAT_BC3_UNORM);
    size_t mismatches = 0;
    for (uint32_t b = 0; b < 64 * 64; ++b) {
        ReferenceBlock ref;
        reference_decode(f, TEXDEC_BC_ROUNDING_EXACT, Oracle::ExactModel, &dds[128 + size_t(b) * 16], &ref);
        for (uint32_t t = 0; t < 16; ++t) {
            const uint32_t x = (b % 64) * 4 + t % 4, y = (b / 64) * 4 + t / 4;
            for (int c = 0; c < 4; ++c)
                if (pixels[(size_t(y) * 256 + x) * 4 + c] != ref.texel[t].v8[c]) ++mismatches;
        }
    }
    stbi_image_free(pixels);
    CHECK(mismatches == 0);
}

TEST_CASE("CLI: malformed input gets exit code 3 and a message, bad usage 2", "[cli]") {
    const std::vector<uint8_t> dds = read_file(kSample);
    REQUIRE(dds.size() > 200);
    const std::string truncated = temp_dir() + "/truncated.dds";
    write_file(truncated, dds.data(), 200);
    CHECK(run(kCli + " decode " + truncated + " " + temp_dir() + "/t.png") == 3);
    CHECK(last_stderr().find("truncated") != std::string::npos);
    CHECK(run(kCli + " decode --format bc9-unorm --extent 4x4 " + truncated + " " + temp_dir() + "/t.raw") == 2);
    CHECK(run(kCli + " decode --format bc1-rgb-unorm --extent 0x4 " + truncated + " " + temp_dir() + "/t.raw") != 0);
    CHECK(run(kCli + " frobnicate") == 2);
}

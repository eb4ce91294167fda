// Not a test: a survey, hidden from the default run ([.survey]). It decodes BC1 blocks with the
// device's native BC decoder (texelFetch of a BC1 image, as the lavapipe oracle does) and with
// texdec's EXACT and IDEAL modes, and reports which texels differ, grouped by what the texel is
// (endpoint, 1/3-2/3 interpolant, 3-colour midpoint, black) and by channel width (5 or 6 bits).
// On the H100 this is the ground work for the NVIDIA rounding mode (issue 10):
//   texdec_tests "[.survey]"          (TEXDEC_SURVEY_OUT=dir also writes the native floats there)
// Blocks: every (c0, c1) pair of 6-bit green / 5-bit red endpoints (hand-built) + random blocks.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#include "gpu/gpu_fixture.h"
#include "oracles/lavapipe_native.h"
#include "support/bc_formats.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

// 4096 blocks: green endpoints (g0, g1) = every 6-bit pair, red (g0 >> 1, g1 >> 1) = every 5-bit
// pair, blue every 5-bit pair of another mapping; each row uses codes 0, 1, 2, 3.
std::vector<uint8_t> endpoint_sweep() {
    std::vector<uint8_t> out(4096 * 8);
    for (uint32_t i = 0; i < 4096; ++i) {
        const uint32_t g0 = i >> 6, g1 = i & 63, r0 = g0 >> 1, r1 = g1 >> 1, b0 = (g0 * 5 + 3) & 31, b1 = (g1 * 11 + 7) & 31;
        const uint32_t c0 = (r0 << 11) | (g0 << 5) | b0, c1 = (r1 << 11) | (g1 << 5) | b1;
        uint8_t* b = &out[i * 8];
        b[0] = uint8_t(c0), b[1] = uint8_t(c0 >> 8), b[2] = uint8_t(c1), b[3] = uint8_t(c1 >> 8);
        b[4] = b[5] = b[6] = b[7] = 0xE4;
    }
    return out;
}

const char* texel_kind(bool four, int code) {
    if (code < 2) return "endpoint";
    if (four) return code == 2 ? "(2c0+c1)/3" : "(c0+2c1)/3";
    return code == 2 ? "(c0+c1)/2" : "black";
}

void survey(const char* what, const std::vector<uint8_t>& blocks) {
    auto dev = VulkanTestDevice::open();
    if (!dev) return;
    auto ctx = OwnContext::open();
    if (!ctx) return;
    const BcFormat& f = bc_format(TEXDEC_FORMAT_BC1_RGBA_UNORM);
    const uint32_t count = uint32_t(blocks.size() / 8), per_row = 256;
    const uint32_t width = per_row * 4, height = (count + per_row - 1) / per_row * 4;
    REQUIRE(count % per_row == 0);
    const std::vector<float> native = native_decode(*dev, f, blocks.data(), width, height);

    std::vector<uint8_t> ours[2];
    for (int mode = 0; mode < 2; ++mode) {
        ours[mode].resize(size_t(width) * height * 4);
        texdec_host_job job{};
        job.format = f.format;
        job.output = TEXDEC_OUTPUT_RGBA8;
        job.bc_rounding = mode ? TEXDEC_BC_ROUNDING_IDEAL : TEXDEC_BC_ROUNDING_EXACT;
        job.width = width, job.height = height, job.depth = 1;
        job.blocks = blocks.data(), job.blocks_size = blocks.size();
        job.texels = ours[mode].data(), job.texels_size = ours[mode].size();
        REQUIRE(ctx->decode(job) == TEXDEC_SUCCESS);
    }

    // key: kind / channel bits -> [mode] differing count; plus the total per key.
    std::map<std::string, uint64_t> total, differ[2], not_multiple_of_1_255;
    std::map<std::string, std::string> example[2];
    for (uint32_t bi = 0; bi < count; ++bi) {
        const uint8_t* b = &blocks[size_t(bi) * 8];
        const uint32_t c0 = b[0] | b[1] << 8, c1 = b[2] | b[3] << 8;
        const uint32_t codes = b[4] | b[5] << 8 | b[6] << 16 | uint32_t(b[7]) << 24;
        const bool four = c0 > c1;
        for (int t = 0; t < 16; ++t) {
            const int code = (codes >> (2 * t)) & 3;
            const size_t x = (bi % per_row) * 4 + t % 4, y = (bi / per_row) * 4 + t / 4, p = y * width + x;
            for (int ch = 0; ch < 4; ++ch) {
                const int bits = ch == 1 ? 6 : ch == 3 ? 1 : 5;
                const std::string key = std::string(four ? "4-colour " : "3-colour ") + texel_kind(four, code) +
                                        (ch == 3 ? " alpha" : bits == 6 ? " 6-bit" : " 5-bit");
                const float v = native[p * 4 + ch] * 255.0f;
                const long native8 = std::lround(v);
                ++total[key];
                if (std::fabs(v - float(native8)) > 1e-3f) ++not_multiple_of_1_255[key];
                for (int mode = 0; mode < 2; ++mode) {
                    const int mine = ours[mode][p * 4 + ch];
                    if (native8 != mine) {
                        if (differ[mode][key]++ == 0) {
                            const int e0 = ch == 0 ? c0 >> 11 : ch == 1 ? (c0 >> 5) & 63 : c0 & 31;
                            const int e1 = ch == 0 ? c1 >> 11 : ch == 1 ? (c1 >> 5) & 63 : c1 & 31;
                            char text[160];
                            std::snprintf(text, sizeof text, "e0=%d e1=%d: native %.4f/255, texdec %d", e0, e1, v, mine);
                            example[mode][key] = text;
                        }
                    }
                }
            }
        }
    }
    std::printf("\n== native BC1 decode of %s (%u blocks) on %s ==\n", what, count, dev->properties().deviceName);
    std::printf("%-34s %10s %12s %12s %14s  first EXACT difference\n", "texel", "channels", "!=EXACT", "!=IDEAL", "not k/255");
    for (const auto& [key, n] : total)
        std::printf("%-34s %10llu %12llu %12llu %14llu  %s\n", key.c_str(), (unsigned long long)n,
                    (unsigned long long)differ[0][key], (unsigned long long)differ[1][key],
                    (unsigned long long)not_multiple_of_1_255[key], example[0][key].c_str());
    if (const char* dir = std::getenv("TEXDEC_SURVEY_OUT")) {
        const std::string base = std::string(dir) + "/bc1_native_" + what;
        if (FILE* out = std::fopen((base + ".blocks").c_str(), "wb")) {
            std::fwrite(blocks.data(), 1, blocks.size(), out);
            std::fclose(out);
        }
        if (FILE* out = std::fopen((base + ".rgba32f").c_str(), "wb")) {
            std::fwrite(native.data(), sizeof(float), native.size(), out);
            std::fclose(out);
        }
    }
    ctx->close_and_check();
    dev->close_and_check();
}

}  // namespace

TEST_CASE("survey: native BC1 decode vs EXACT and IDEAL", "[.survey]") {
    survey("sweep", endpoint_sweep());
    survey("random", random_blocks(bc_format(TEXDEC_FORMAT_BC1_RGBA_UNORM), 65536, 1234));
}

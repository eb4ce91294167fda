// The CPU backend's BC1-BC5, ETC2 and EAC decoders (src/cpu/bc1_5.cpp, src/cpu/etc.cpp) against the
// GPU shaders, byte for byte (tolerance 0): a CPU context and a GPU context (lavapipe; validation
// on) decode the same job into destinations that start with the same bytes, and the whole
// destinations must be equal (texels, and the bytes around them left alone by both).
//   random: every format x offered output x rounding (EXACT, IDEAL, NVIDIA for BC1-BC5),
//           random_block_count() / 16 blocks each in rows of 1024 (66,560 by default): BC
//           blocks from random_blocks() (uniform bits, one in eight with the edge endpoints of
//           docs/EXACTNESS.md), ETC2/EAC uniform bits with one in eight given an edge EAC base,
//           multiplier 0, or equal ETC base colours;
//   layouts: every case also at odd extents (partial edge blocks): 2D with a source row length
//           two blocks past the extent and a padded row pitch; 2 slices with a source image
//           height and a padded slice pitch; 51 blocks a row (more than one run of blocks) with
//           blocks and texels at odd addresses; 1x1 and 5x3.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gpu/gpu_fixture.h"
#include "support/backend_context.h"
#include "support/bc_formats.h"
#include "support/compare.h"  // fill_canary
#include "support/job_builder.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

struct Format {
    texdec_format format;
    const char* name;
    uint32_t block_bytes;
    bool is_signed;
    bool is_bc;  // BC1-BC5: takes a rounding mode
};

const Format kFormats[] = {
    {TEXDEC_FORMAT_BC1_RGB_UNORM, "bc1-rgb-unorm", 8, false, true},
    {TEXDEC_FORMAT_BC1_RGB_SRGB, "bc1-rgb-srgb", 8, false, true},
    {TEXDEC_FORMAT_BC1_RGBA_UNORM, "bc1-rgba-unorm", 8, false, true},
    {TEXDEC_FORMAT_BC1_RGBA_SRGB, "bc1-rgba-srgb", 8, false, true},
    {TEXDEC_FORMAT_BC2_UNORM, "bc2-unorm", 16, false, true},
    {TEXDEC_FORMAT_BC2_SRGB, "bc2-srgb", 16, false, true},
    {TEXDEC_FORMAT_BC3_UNORM, "bc3-unorm", 16, false, true},
    {TEXDEC_FORMAT_BC3_SRGB, "bc3-srgb", 16, false, true},
    {TEXDEC_FORMAT_BC4_UNORM, "bc4-unorm", 8, false, true},
    {TEXDEC_FORMAT_BC4_SNORM, "bc4-snorm", 8, true, true},
    {TEXDEC_FORMAT_BC5_UNORM, "bc5-unorm", 16, false, true},
    {TEXDEC_FORMAT_BC5_SNORM, "bc5-snorm", 16, true, true},
    {TEXDEC_FORMAT_ETC2_R8G8B8_UNORM, "etc2-r8g8b8-unorm", 8, false, false},
    {TEXDEC_FORMAT_ETC2_R8G8B8_SRGB, "etc2-r8g8b8-srgb", 8, false, false},
    {TEXDEC_FORMAT_ETC2_R8G8B8A1_UNORM, "etc2-r8g8b8a1-unorm", 8, false, false},
    {TEXDEC_FORMAT_ETC2_R8G8B8A1_SRGB, "etc2-r8g8b8a1-srgb", 8, false, false},
    {TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM, "etc2-r8g8b8a8-unorm", 16, false, false},
    {TEXDEC_FORMAT_ETC2_R8G8B8A8_SRGB, "etc2-r8g8b8a8-srgb", 16, false, false},
    {TEXDEC_FORMAT_EAC_R11_UNORM, "eac-r11-unorm", 8, false, false},
    {TEXDEC_FORMAT_EAC_R11_SNORM, "eac-r11-snorm", 8, true, false},
    {TEXDEC_FORMAT_EAC_R11G11_UNORM, "eac-r11g11-unorm", 16, false, false},
    {TEXDEC_FORMAT_EAC_R11G11_SNORM, "eac-r11g11-snorm", 16, true, false},
};

constexpr texdec_bc_rounding kRoundings[] = {TEXDEC_BC_ROUNDING_EXACT, TEXDEC_BC_ROUNDING_IDEAL,
                                             TEXDEC_BC_ROUNDING_NVIDIA};

struct Contexts {
    std::unique_ptr<BackendContext> gpu, cpu;
    bool open() {
        gpu = BackendContext::open(TEXDEC_BACKEND_GPU);
        if (!gpu) return false;
        cpu = BackendContext::open(TEXDEC_BACKEND_CPU);
        return true;
    }
};

bool output_offered(const Format& f, texdec_output output) {
    uint32_t bytes = 0;
    return texdec_output_texel_size(f.format, output, &bytes) == TEXDEC_SUCCESS && bytes != 0;
}

uint32_t texel_bytes(const Format& f, texdec_output output) {
    uint32_t bytes = 0;
    REQUIRE(texdec_output_texel_size(f.format, output, &bytes) == TEXDEC_SUCCESS);
    return bytes;
}

// `count` blocks of `f`: random_blocks() for BC1-BC5; uniform bits for ETC2/EAC, one block in eight
// with an edge case forced into its first (EAC or ETC) half-block.
std::vector<uint8_t> test_blocks(const Format& f, size_t count, uint64_t seed) {
    if (f.is_bc) {
        for (const BcFormat& bc : bc_formats())
            if (bc.format == f.format) return random_blocks(bc, count, seed);
        FAIL("not a BC1-BC5 format: " << f.name);
    }
    std::vector<uint8_t> blocks(count * f.block_bytes);
    SplitMix64 rng(seed);
    for (size_t i = 0; i < blocks.size(); i += 8) {
        const uint64_t bits = rng.next();
        std::memcpy(&blocks[i], &bits, 8);
    }
    for (size_t i = 0; i < count; ++i) {
        const uint64_t pick = rng.next();
        if (pick % 8 != 0) continue;
        uint8_t* block = &blocks[i * f.block_bytes];
        switch ((pick >> 8) % 6) {
        case 0: block[0] = 0x80; break;   // EAC base -128 (signed) / 128
        case 1: block[0] = 0x81; break;   // signed -127
        case 2: block[0] = 0xFF; break;   // 255 / -1
        case 3: block[1] &= 0x0F; break;  // EAC multiplier 0
        case 4:
            block[0] = 0x7F;
            block[1] |= 0xF0;
            break;  // 127, multiplier 15
        default:
            block[1] = block[0];
            block[2] = block[0];
            break;  // ETC: equal base colours
        }
    }
    return blocks;
}

std::string first_difference(const std::vector<uint8_t>& cpu, const std::vector<uint8_t>& gpu) {
    size_t count = 0, first = SIZE_MAX;
    for (size_t i = 0; i < cpu.size(); ++i)
        if (cpu[i] != gpu[i]) {
            if (first == SIZE_MAX) first = i;
            ++count;
        }
    if (count == 0) return "";
    char text[160];
    std::snprintf(text, sizeof text, "%zu bytes differ, first at byte %zu: cpu %02x gpu %02x", count, first, cpu[first],
                  gpu[first]);
    return text;
}

// Decodes `job` on both contexts into copies of `initial`; REQUIREs success and equal bytes.
// `initial` holds `dst_skew` bytes before the destination.
void compare_backends(Contexts& contexts, texdec_host_job job, const std::vector<uint8_t>& initial,
                      const std::string& what, size_t dst_skew = 0) {
    std::vector<uint8_t> gpu = initial, cpu = initial;
    INFO(what);
    job.dst = gpu.data() + dst_skew;
    job.dst_size = gpu.size() - dst_skew;
    contexts.gpu->decode(job);
    job.dst = cpu.data() + dst_skew;
    contexts.cpu->decode(job);
    const std::string difference = first_difference(cpu, gpu);
    if (!difference.empty()) FAIL(difference);
}

}  // namespace

// One case, so that lavapipe compiles each pipeline once.
TEST_CASE("CPU backend BC1-BC5, ETC2, EAC vs the GPU: random blocks, extents, pitches", "[cpu][bc-etc][gpu]") {
    Contexts contexts;
    if (!contexts.open()) return;
    // Rows of 1024 blocks: random_block_count() / 16, rounded up.
    const uint32_t blocks_wide = 1024;
    const uint32_t rows = uint32_t((random_block_count() / 16 + blocks_wide - 1) / blocks_wide);
    const uint64_t seed = test_seed();
    INFO("TEXDEC_TEST_SEED " << seed << ", " << size_t(blocks_wide) * rows << " random blocks per case");
    for (const Format& f : kFormats) {
        const std::vector<uint8_t> blocks = test_blocks(f, size_t(blocks_wide) * rows, seed + f.format);
        for (texdec_output output : kAllOutputs) {
            if (!output_offered(f, output)) continue;
            const uint32_t bytes = texel_bytes(f, output);
            for (texdec_bc_rounding rounding : kRoundings) {
                if (!f.is_bc && rounding != TEXDEC_BC_ROUNDING_EXACT) continue;
                const std::string what =
                    std::string(f.name) + " " + output_name(output) + " " + rounding_name(rounding) + " ";

                const uint32_t w = blocks_wide * 4, h = rows * 4;
                const texdec_host_job job = JobBuilder(f.format, output, w, h).blocks(blocks).rounding(rounding);
                compare_backends(contexts, job, std::vector<uint8_t>(size_t(w) * h * bytes, 0xA5), what + "random");

                // Odd extents (partial edge blocks), source row lengths and image heights, padded
                // pitches, rows of more than one run of blocks, blocks and texels at odd addresses.
                struct Layout {
                    uint32_t w, h, d;
                    uint32_t row_length, image_height;  // texels (0 = the extent)
                    size_t row_pad, slice_pad;          // bytes past the tight pitches
                    size_t src_skew, dst_skew;          // bytes before the blocks, the texels
                };
                const Layout layouts[] = {
                    {37, 23, 1, 37 + 8 + 3, 0, 12, 0, 0, 0},    // row length two blocks past the extent
                    {13, 6, 2, 0, 6 + 6, 3 * bytes, 40, 0, 0},  // 2 slices, a source image height
                    {203, 9, 1, 0, 0, bytes, 0, 1, 3},          // 51 blocks a row; odd addresses
                    {1, 1, 1, 0, 0, 0, 0, 0, 0},
                    {5, 3, 1, 0, 0, 0, 0, 0, 0},
                };
                for (const Layout& l : layouts) {
                    const uint32_t row_blocks = ((l.row_length ? l.row_length : l.w) + 3) / 4;
                    const uint32_t slice_rows = ((l.image_height ? l.image_height : l.h) + 3) / 4;
                    const size_t block_count = size_t(row_blocks) * slice_rows * l.d;
                    std::vector<uint8_t> source(l.src_skew);
                    const std::vector<uint8_t> layout_blocks =
                        test_blocks(f, block_count, seed + 7 * f.format + 3 * output + rounding + l.w);
                    source.insert(source.end(), layout_blocks.begin(), layout_blocks.end());
                    const size_t row_pitch = size_t(l.w) * bytes + l.row_pad;
                    const size_t slice_pitch = row_pitch * l.h + l.slice_pad;
                    texdec_host_job layout_job = JobBuilder(f.format, output, l.w, l.h, l.d)
                                                     .blocks(source.data() + l.src_skew, layout_blocks.size())
                                                     .rounding(rounding)
                                                     .source_rows(l.row_length, l.image_height)
                                                     .pitches(row_pitch, l.d > 1 ? slice_pitch : 0);
                    std::vector<uint8_t> initial(l.dst_skew + slice_pitch * l.d + 64);
                    fill_canary(initial.data(), initial.size());
                    compare_backends(contexts, layout_job, initial,
                                     what + std::to_string(l.w) + "x" + std::to_string(l.h) + "x" + std::to_string(l.d),
                                     l.dst_skew);
                }
            }
        }
    }
}

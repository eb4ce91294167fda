// Random blocks: for every BC1-BC5 format and both rounding modes, 1,049,600 blocks (a
// 4096 x 4100 texture; TEXDEC_TEST_RANDOM_BLOCKS overrides the count) decoded once per output type with the one-call API, compared texel by
// texel, tolerance 0, with:
//   EXACT  the rational spec model (oracles/exact_model);
//   IDEAL  libsquish (BC1-BC3) and libnvimage (BC1; BC2/BC3 alpha, and colour where c0 > c1;
//          BC4/BC5 unsigned), the IDEAL integer model for SNORM (no packaged decoder has it).
#include <catch2/catch.hpp>

#include "gpu/gpu_fixture.h"
#include "support/decode_and_compare.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

constexpr uint32_t kBlocksX = 1024;

void run_random_block_test(texdec_format format) {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    const BcFormat& f = bc_format(format);
    const uint64_t seed = test_seed();
    INFO("seed " << seed << " (TEXDEC_TEST_SEED changes it)");
    const size_t count = random_block_count();
    const uint32_t blocks_y = uint32_t(count / kBlocksX);
    const std::vector<uint8_t> blocks = random_blocks(f, count, seed);
    for (texdec_bc_rounding rounding : kBothRoundings)
        decode_and_compare_all_outputs(*ctx, f, rounding, blocks, kBlocksX * 4, blocks_y * 4, "random blocks");
    ctx->close_and_check();
}

}  // namespace

#define RANDOM_BLOCK_TEST(FORMAT) \
    TEST_CASE("random blocks: " #FORMAT, "[bc1-5][random][gpu]") { run_random_block_test(TEXDEC_FORMAT_##FORMAT); }

RANDOM_BLOCK_TEST(BC1_RGB_UNORM)
RANDOM_BLOCK_TEST(BC1_RGB_SRGB)
RANDOM_BLOCK_TEST(BC1_RGBA_UNORM)
RANDOM_BLOCK_TEST(BC1_RGBA_SRGB)
RANDOM_BLOCK_TEST(BC2_UNORM)
RANDOM_BLOCK_TEST(BC2_SRGB)
RANDOM_BLOCK_TEST(BC3_UNORM)
RANDOM_BLOCK_TEST(BC3_SRGB)
RANDOM_BLOCK_TEST(BC4_UNORM)
RANDOM_BLOCK_TEST(BC4_SNORM)
RANDOM_BLOCK_TEST(BC5_UNORM)
RANDOM_BLOCK_TEST(BC5_SNORM)

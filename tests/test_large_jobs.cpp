// The one-call path on jobs larger than its staging: texdec_decode streams them in
// parts through two bounded sets of staging buffers, each part its own submission with its own
// timeout, so a job decodes whenever its blocks and texels fit in host memory.
//
// The smaller streaming cases (every format, output, layout and part shape) are the existing
// oracle tests run again with a tiny part size: see TEXDEC_DEBUG_STAGING_PART_BYTES in
// tests/CMakeLists.txt.
#include <catch2/catch.hpp>

#include <texdec/texdec.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gpu/gpu_fixture.h"
#include "oracles/reference.h"
#include "support/job_builder.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

// A well-mixed index for block i (SplitMix64's finalizer), so that neighbouring blocks, rows and
// parts all hold different palette blocks.
uint64_t mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

}  // namespace

// 16384 x 16384 BC1 to RGBA16F: 128 MiB of blocks, 2 GiB of texels (more than lavapipe's
// maxMemoryAllocationSize of 2 GiB for one staging buffer), decoded with the default timeout
// (10 s per submission). Every texel is checked: the blocks come from a palette of 4099 random
// blocks, each decoded once by the EXACT model (tests/oracles), placed by a hash of the block index.
// Not run under ASan (.ci/test.sh): 2 GiB of texels and a model check of every texel are slow there.
TEST_CASE("large job: 16384x16384 BC1 to RGBA16F (2 GiB of texels) streams through bounded staging",
          "[large][gpu][heavy]") {
    auto ctx = OwnContext::open(Backend::gpu);
    if (!ctx) return;
    const BcFormat& f = bc_format(TEXDEC_FORMAT_BC1_RGBA_UNORM);
    constexpr uint32_t kSize = 16384, kBlocksPerRow = kSize / 4, kPalette = 4099;
    const std::vector<uint8_t> palette = random_blocks(f, kPalette, test_seed());
    // The expected RGBA16F texels of each palette block, row-major 4x4 (8 bytes each).
    std::vector<uint8_t> expected(size_t(kPalette) * 16 * 8);
    for (uint32_t p = 0; p < kPalette; ++p) {
        ReferenceBlock ref;
        reference_decode(f, TEXDEC_BC_ROUNDING_EXACT, Oracle::ExactModel, &palette[size_t(p) * 8], &ref);
        REQUIRE(ref.channel_mask == 0xF);
        for (uint32_t t = 0; t < 16; ++t) pack_reference_texel(f, TEXDEC_OUTPUT_RGBA16F, ref.texel[t], &expected[(size_t(p) * 16 + t) * 8]);
    }
    const size_t block_count = size_t(kBlocksPerRow) * kBlocksPerRow;
    std::vector<uint32_t> which(block_count);
    std::vector<uint8_t> blocks(block_count * 8);
    for (size_t i = 0; i < block_count; ++i) {
        which[i] = uint32_t(mix(i) % kPalette);
        std::memcpy(&blocks[i * 8], &palette[size_t(which[i]) * 8], 8);
    }
    const size_t row_bytes = size_t(kSize) * 8;
    std::unique_ptr<uint8_t[]> texels(new uint8_t[row_bytes * kSize]);  // 2 GiB, not zero-filled

    const texdec_host_job job = JobBuilder(f.format, TEXDEC_OUTPUT_RGBA16F, kSize, kSize)
                                    .blocks(blocks)
                                    .texels(texels.get(), row_bytes * kSize)
                                    .rounding(TEXDEC_BC_ROUNDING_EXACT)
                                    .timeout(0);  // the default
    uint64_t host = 0, device = 0;
    REQUIRE(texdec_decode_scratch_size(ctx->get(), &job, &host, &device) == TEXDEC_SUCCESS);
    INFO("scratch: " << host << " host bytes, " << device << " device bytes");
    CHECK(host <= uint64_t(128) << 20);  // two parts of at most 64 MiB, however large the job
    CHECK((device == 0 || device == host));

    texdec_decode_timing timing{};
    const texdec_status status = texdec_decode_timed(ctx->get(), &job, &timing);
    for (const std::string& e : ctx->log().take_errors()) UNSCOPED_INFO("texdec: " << e);
    REQUIRE(status == TEXDEC_SUCCESS);
    check_no_validation_messages(ctx->log(), "texdec_decode of the large job");
    INFO("total " << timing.total_ns / 1000000 << " ms, GPU decode " << timing.gpu_decode_ns / 1000000 << " ms");
    CHECK(timing.total_ns >= timing.upload_copy_ns + timing.submit_wait_ns + timing.readback_copy_ns);

    size_t wrong_blocks = 0;
    std::string first;
    for (size_t by = 0; by < kBlocksPerRow; ++by)
        for (size_t bx = 0; bx < kBlocksPerRow; ++bx) {
            const uint8_t* want = &expected[size_t(which[by * kBlocksPerRow + bx]) * 16 * 8];
            bool ok = true;
            for (size_t y = 0; y < 4; ++y)
                ok &= std::memcmp(&texels[(by * 4 + y) * row_bytes + bx * 32], want + y * 32, 32) == 0;
            if (!ok && wrong_blocks++ == 0) first = "block (" + std::to_string(bx) + ", " + std::to_string(by) + ")";
        }
    INFO(wrong_blocks << " of " << block_count << " blocks differ from the EXACT model; first: " << first);
    CHECK(wrong_blocks == 0);

    texdec_memory_usage usage{};
    REQUIRE(texdec_context_memory_usage(ctx->get(), &usage) == TEXDEC_SUCCESS);
    CHECK(usage.staging_host_bytes <= (uint64_t(128) << 20) + 4 * 65536);  // + the 64 KiB minimum per buffer
    ctx->close_and_check();
}

// The same job decoded in one submission and streamed in parts of whole block slices, block rows
// and single blocks gives the same bytes (the part sizes come from TEXDEC_DEBUG_STAGING_PART_BYTES,
// read when a context is created), and the staging follows the part size. The oracle comparison
// of streamed decodes is done by the "streamed in small parts: ..." ctest runs.
TEST_CASE("large job: streamed parts of every shape give the bytes of one submission", "[large-parts][gpu][heavy]") {
    const BcFormat& f = bc_format(TEXDEC_FORMAT_BC3_UNORM);
    const uint32_t w = 97, h = 61, d = 3, row_length = 104, image_height = 68;  // padded source rows and slices
    const size_t row_pitch = size_t(w) * 8 + 24, slice_pitch = row_pitch * h + 40;
    const std::vector<uint8_t> blocks = random_blocks(f, size_t(row_length / 4) * (image_height / 4) * d, test_seed());
    std::vector<uint8_t> first;
    // part bytes: one submission; 1 of the 3 block slices fits (whole slices); 2 block
    // rows; part of one block row (block columns); a single block.
    for (const char* part_bytes : {static_cast<const char*>(nullptr), "100000", "9000", "3000", "1"}) {
        INFO("TEXDEC_DEBUG_STAGING_PART_BYTES " << (part_bytes ? part_bytes : "(default)"));
        if (part_bytes) setenv("TEXDEC_DEBUG_STAGING_PART_BYTES", part_bytes, 1);
        auto ctx = OwnContext::open(Backend::gpu);
        if (part_bytes) unsetenv("TEXDEC_DEBUG_STAGING_PART_BYTES");
        if (!ctx) return;
        std::vector<uint8_t> texels(slice_pitch * d, 0xCD);
        const texdec_host_job job = JobBuilder(f.format, TEXDEC_OUTPUT_RGBA16F, w, h, d)
                                        .blocks(blocks)
                                        .texels(texels)
                                        .source_rows(row_length, image_height)
                                        .pitches(row_pitch, slice_pitch);
        uint64_t host = 0, device = 0;
        REQUIRE(texdec_decode_scratch_size(ctx->get(), &job, &host, &device) == TEXDEC_SUCCESS);
        const uint64_t whole = uint64_t(w) * h * d * 8;
        if (!part_bytes) {
            CHECK(host > whole);  // one set: every block and texel
        } else {
            const uint64_t part = std::stoull(part_bytes);
            INFO("staging " << host << " host bytes");
            CHECK(host < whole);
            // Two sets of at most one part each, except that a part is never smaller than one block
            // (16 texels of 8 bytes + 16 block bytes).
            CHECK(host <= 2 * std::max<uint64_t>(part, 16 * 8 + 16));
        }
        REQUIRE(ctx->decode(job) == TEXDEC_SUCCESS);
        if (first.empty()) first = texels;
        else CHECK(texels == first);  // padding bytes included: never written
        ctx->close_and_check();
    }
}

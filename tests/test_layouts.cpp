// Layouts with the one-call API: extents that are not block multiples, row pitches with padding,
// slice pitches with depth > 1, source row length / image height larger than the extent, and a
// destination inside a larger allocation. Bytes that are not texels of the extent hold a canary
// that must survive; every texel is compared with the oracle (tolerance 0).
#include <catch2/catch.hpp>

#include <vector>

#include "gpu/gpu_fixture.h"
#include "support/compare.h"
#include "support/job_builder.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

struct Case {
    uint32_t width, height, depth;
    uint32_t row_length, image_height;  // source, in texels (0 = extent)
    size_t extra_row_bytes, extra_slice_bytes;  // destination padding
    size_t dst_offset;                          // texels start this far into the allocation
};

const Case kCases[] = {
    {1, 1, 1, 0, 0, 0, 0, 0},
    {5, 3, 1, 0, 0, 0, 0, 0},
    {13, 7, 1, 0, 0, 0, 0, 0},
    {4097, 3, 1, 0, 0, 0, 0, 0},
    {13, 7, 1, 0, 0, 24, 0, 16},         // padded rows
    {6, 9, 3, 0, 0, 8, 40, 8},           // depth 3: padded rows and slices
    {13, 7, 2, 24, 12, 0, 0, 0},         // source rows of 6 blocks, slices of 3 block rows
    {5, 5, 3, 16, 8, 16, 96, 32},        // everything at once
};

void run_layout_case(OwnContext& ctx, const BcFormat& f, texdec_bc_rounding rounding, texdec_output output, const Case& c) {
    INFO(f.name << " " << rounding_name(rounding) << " " << output_name(output) << ": extent " << c.width << "x" << c.height
                << "x" << c.depth << ", source row length " << c.row_length << ", image height " << c.image_height
                << ", extra row bytes " << c.extra_row_bytes << ", extra slice bytes " << c.extra_slice_bytes
                << ", destination offset " << c.dst_offset);
    BlockLayout bl;
    bl.width = c.width;
    bl.height = c.height;
    bl.depth = c.depth;
    bl.row_length = c.row_length;
    bl.image_height = c.image_height;
    // Every block of the source, including those outside the extent, is random: blocks outside
    // must not influence the result (the oracle only reads the blocks the extent covers).
    const size_t source_blocks = bl.required_bytes(f.block_bytes) / f.block_bytes;
    const std::vector<uint8_t> blocks = random_blocks(f, source_blocks, test_seed() + c.width * 131 + c.height);

    const uint32_t texel = output_texel_bytes(f, output);
    TexelLayout tl;
    tl.offset = c.dst_offset;
    tl.row_pitch = c.extra_row_bytes ? size_t(c.width) * texel + c.extra_row_bytes : 0;
    tl.slice_pitch = c.extra_slice_bytes ? (tl.row_pitch ? tl.row_pitch : size_t(c.width) * texel) * c.height + c.extra_slice_bytes : 0;
    const ResolvedTexelLayout rl = resolve(tl, texel, c.width, c.height);
    // The destination ends at the last texel: the last row's and slice's padding is not needed.
    const size_t needed = rl.end(c.width, c.height, c.depth) - rl.offset;
    std::vector<uint8_t> memory(rl.offset + needed + 128);
    fill_canary(memory.data(), memory.size());

    const texdec_host_job job = JobBuilder(f.format, output, c.width, c.height, c.depth)
                                    .blocks(blocks)
                                    .texels(memory.data() + rl.offset, needed)
                                    .rounding(rounding)
                                    .source_rows(c.row_length, c.image_height)
                                    .pitches(tl.row_pitch, tl.slice_pitch);
    REQUIRE(ctx.decode(job) == TEXDEC_SUCCESS);

    const size_t clobbered = first_clobbered_byte(memory.data(), memory.size(), rl, c.width, c.height, c.depth);
    INFO("first byte outside the texels that changed: " << clobbered_text(clobbered));
    CHECK(clobbered == SIZE_MAX);
    TEXDEC_CHECK_MATCHES_ORACLE(compare_with_oracle(f, rounding, primary_oracle(f, rounding), blocks.data(), bl,
                                                    {{output, memory.data(), tl}}),
                                oracle_name(primary_oracle(f, rounding)));
}

}  // namespace

TEST_CASE("layouts: odd extents with padded pitches and depth and source row length for every format/output/mode",
          "[bc1-5][layout][gpu]") {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    for (const BcFormat& f : bc_formats())
        for (texdec_bc_rounding rounding : kBothRoundings)
            for (texdec_output output : kAllOutputs)
                if (output_offered(f, output))
                    for (const Case& c : kCases) run_layout_case(*ctx, f, rounding, output, c);
    ctx->close_and_check();
}

TEST_CASE("layouts: dst_size of exactly the last texel's end is enough", "[bc1-5][layout][gpu]") {
    // A caller decoding into the bottom-right corner of a larger image has exactly the bytes up to
    // the last texel, not a whole padded last row: that must be accepted, and one byte less refused.
    auto ctx = OwnContext::open();
    if (!ctx) return;
    const BcFormat& f = bc_format(TEXDEC_FORMAT_BC3_UNORM);
    const uint32_t w = 9, h = 6;
    const std::vector<uint8_t> blocks = random_blocks(f, 3 * 2, test_seed());
    const size_t pitch = 64 * 4, needed = (h - 1) * pitch + w * 4;
    std::vector<uint8_t> memory(needed + 64);
    fill_canary(memory.data(), memory.size());
    texdec_host_job job =
        JobBuilder(f.format, TEXDEC_OUTPUT_RGBA8, w, h).blocks(blocks).texels(memory.data(), needed - 1).pitches(pitch);
    CHECK(ctx->decode(job) == TEXDEC_ERROR_DESTINATION_TOO_SMALL);
    CHECK(first_clobbered_byte(memory.data(), memory.size(), resolve({0, pitch, 0}, 4, w, h), 0, 0, 0) == SIZE_MAX);
    job.dst_size = needed;
    CHECK(ctx->decode(job) == TEXDEC_SUCCESS);
    CHECK(first_clobbered_byte(memory.data(), memory.size(), resolve({0, pitch, 0}, 4, w, h), w, h, 1) == SIZE_MAX);
    const BlockLayout bl = BlockLayout::of_extent(w, h);
    TEXDEC_CHECK_MATCHES_ORACLE(compare_with_oracle(f, TEXDEC_BC_ROUNDING_EXACT, Oracle::ExactModel, blocks.data(), bl,
                                                    {{TEXDEC_OUTPUT_RGBA8, memory.data(), {0, pitch, 0}}}),
                                "exact model");
    ctx->close_and_check();
}

// What a context holds and when it allocates: texdec_context_memory_usage,
// texdec_decode_scratch_size, texdec_context_release_staging and texdec_prepare.
#include <catch2/catch.hpp>

#include <texdec/texdec.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "gpu/gpu_fixture.h"
#include "support/job_builder.h"

using namespace texdec_test;

namespace {

struct HostJob {
    std::vector<uint8_t> blocks, texels;
    texdec_host_job job{};
    HostJob(texdec_format format, uint32_t width, uint32_t height, uint32_t bytes_per_block, uint32_t block_w, uint32_t block_h) {
        blocks.resize(size_t((width + block_w - 1) / block_w) * ((height + block_h - 1) / block_h) * bytes_per_block);
        std::mt19937 rng(width * 131 + height);
        for (uint8_t& b : blocks) b = uint8_t(rng());
        texels.resize(size_t(width) * height * 4);
        job = JobBuilder(format, TEXDEC_OUTPUT_RGBA8, width, height).blocks(blocks).texels(texels);
    }
};

}  // namespace

TEST_CASE("Memory: staging grows to the largest job and is released on request", "[memory][gpu]") {
    auto own = OwnContext::open(Backend::gpu);
    if (!own) return;
    texdec_context* ctx = own->get();
    const texdec_memory_usage fresh = usage_of(ctx);
    CHECK(fresh.staging_host_bytes == 0);
    CHECK(fresh.staging_device_bytes == 0);
    CHECK(fresh.table_bytes == 0);
    CHECK(fresh.pipelines == 0);

    // 100x60 BC1: 25x15 blocks of 8 bytes uploaded, 100*4 bytes x 60 rows read back.
    HostJob bc1(TEXDEC_FORMAT_BC1_RGBA_UNORM, 100, 60, 8, 4, 4);
    uint64_t host = 0, device = 0;
    REQUIRE(texdec_decode_scratch_size(ctx, &bc1.job, &host, &device) == TEXDEC_SUCCESS);
    CHECK(host == 25 * 15 * 8 + 100 * 4 * 60);
    CHECK((device == 0 || device == host));
    REQUIRE(own->decode(bc1.job) == TEXDEC_SUCCESS);
    const texdec_memory_usage after_one = usage_of(ctx);
    CHECK(after_one.staging_host_bytes >= host);
    CHECK(after_one.staging_device_bytes >= device);
    CHECK(after_one.pipelines == 1);
    CHECK(after_one.table_bytes == 0);  // BC1 reads no tables

    // A smaller job reuses the staging; a larger one grows it.
    HostJob small(TEXDEC_FORMAT_BC1_RGBA_UNORM, 8, 8, 8, 4, 4);
    REQUIRE(own->decode(small.job) == TEXDEC_SUCCESS);
    CHECK(usage_of(ctx).staging_host_bytes == after_one.staging_host_bytes);
    HostJob large(TEXDEC_FORMAT_BC1_RGBA_UNORM, 512, 512, 8, 4, 4);
    REQUIRE(texdec_decode_scratch_size(ctx, &large.job, &host, &device) == TEXDEC_SUCCESS);
    REQUIRE(own->decode(large.job) == TEXDEC_SUCCESS);
    CHECK(usage_of(ctx).staging_host_bytes >= host);
    CHECK(usage_of(ctx).staging_host_bytes > after_one.staging_host_bytes);

    REQUIRE(texdec_context_release_staging(ctx) == TEXDEC_SUCCESS);
    const texdec_memory_usage released = usage_of(ctx);
    CHECK(released.staging_host_bytes == 0);
    CHECK(released.staging_device_bytes == 0);
    CHECK(released.pipelines == 1);  // pipelines stay
    // ... and the next call creates it again.
    std::vector<uint8_t> first = large.texels;
    std::fill(large.texels.begin(), large.texels.end(), 0);
    REQUIRE(own->decode(large.job) == TEXDEC_SUCCESS);
    CHECK(large.texels == first);
    CHECK(usage_of(ctx).staging_host_bytes >= host);

    // Bad arguments.
    CHECK(texdec_context_memory_usage(ctx, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    texdec_memory_usage unused{};
    CHECK(texdec_context_memory_usage(nullptr, &unused) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_context_release_staging(nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_decode_scratch_size(ctx, &bc1.job, nullptr, &device) == TEXDEC_ERROR_INVALID_ARGUMENT);
    texdec_host_job short_blocks = bc1.job;
    short_blocks.src_size = 8;
    CHECK(texdec_decode_scratch_size(ctx, &short_blocks, &host, &device) == TEXDEC_ERROR_SOURCE_TOO_SMALL);
    own->log().take_errors();
    own->close_and_check();
}

TEST_CASE("Memory: texdec_prepare creates the pipeline and tables so decoding adds none", "[memory][gpu]") {
    auto own = OwnContext::open(Backend::gpu);
    if (!own) return;
    texdec_context* ctx = own->get();
    auto variant = [](texdec_format format, texdec_destination_kind destination) {
        return make_variant(format, TEXDEC_OUTPUT_RGBA8, destination);
    };
    const texdec_variant astc6x6 = variant(TEXDEC_FORMAT_ASTC_6x6_UNORM, TEXDEC_DESTINATION_BUFFER);
    REQUIRE(texdec_prepare(ctx, 1, &astc6x6) == TEXDEC_SUCCESS);
    const texdec_memory_usage prepared = usage_of(ctx);
    CHECK(prepared.pipelines == 1);
    CHECK(prepared.table_bytes > 0);  // ASTC: the shared and the 6x6 footprint tables
    // Preparing again (twice in one list), and decoding that format into a buffer, create nothing more.
    const texdec_variant twice[2] = {astc6x6, astc6x6};
    REQUIRE(texdec_prepare(ctx, 2, twice) == TEXDEC_SUCCESS);
    HostJob astc(TEXDEC_FORMAT_ASTC_6x6_UNORM, 30, 18, 16, 6, 6);
    REQUIRE(own->decode(astc.job) == TEXDEC_SUCCESS);
    const texdec_memory_usage decoded = usage_of(ctx);
    CHECK(decoded.pipelines == prepared.pipelines);
    CHECK(decoded.table_bytes == prepared.table_bytes);
    // Another destination kind is another pipeline; another footprint more tables (one call).
    const texdec_variant more[2] = {variant(TEXDEC_FORMAT_ASTC_6x6_UNORM, TEXDEC_DESTINATION_IMAGE_3D),
                                    variant(TEXDEC_FORMAT_ASTC_8x8_UNORM, TEXDEC_DESTINATION_BUFFER)};
    REQUIRE(texdec_prepare(ctx, 2, more) == TEXDEC_SUCCESS);
    CHECK(usage_of(ctx).pipelines == prepared.pipelines + 2);
    CHECK(usage_of(ctx).table_bytes > prepared.table_bytes);
    CHECK(texdec_prepare(ctx, 0, nullptr) == TEXDEC_SUCCESS);  // nothing to do

    // Refusals, each with its status (the message names the variant: test_prepare.cpp).
    const texdec_memory_usage before_refusals = usage_of(ctx);
    texdec_variant bad = variant(texdec_format(9999), TEXDEC_DESTINATION_BUFFER);
    CHECK(texdec_prepare(ctx, 1, &bad) == TEXDEC_ERROR_UNKNOWN_FORMAT);
    bad = variant(TEXDEC_FORMAT_BC6H_UFLOAT, TEXDEC_DESTINATION_BUFFER);
    CHECK(texdec_prepare(ctx, 1, &bad) == TEXDEC_ERROR_UNSUPPORTED_OUTPUT);
    bad = variant(TEXDEC_FORMAT_BC1_RGB_UNORM, texdec_destination_kind(9));
    CHECK(texdec_prepare(ctx, 1, &bad) == TEXDEC_ERROR_INVALID_DESTINATION);
    const texdec_variant good = variant(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_DESTINATION_BUFFER);
    CHECK(texdec_prepare(nullptr, 1, &good) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_prepare(ctx, 1, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(usage_of(ctx).pipelines == before_refusals.pipelines);  // a refused list creates nothing
    own->log().take_errors();
    own->close_and_check();
}

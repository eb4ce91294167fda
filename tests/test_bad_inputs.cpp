// Bad inputs to the one-call API: each returns its own status and writes nothing (the whole
// destination and guard bytes around it keep their canary). CI also runs these under ASan, which
// catches reads past the end of the block data.
#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <memory>
#include <vector>

#include "gpu/gpu_fixture.h"
#include "support/compare.h"
#include "support/job_builder.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

// A destination with guard bytes on both sides; `texels` points past the front guard.
struct GuardedDestination {
    static constexpr size_t kGuard = 64;
    std::vector<uint8_t> memory;
    explicit GuardedDestination(size_t size) : memory(size + 2 * kGuard) { fill_canary(memory.data(), memory.size()); }
    uint8_t* texels() { return memory.data() + kGuard; }
    size_t size() const { return memory.size() - 2 * kGuard; }
    bool untouched() const {
        for (size_t i = 0; i < memory.size(); ++i)
            if (memory[i] != canary_byte(i)) return false;
        return true;
    }
};

// The block data lives at the very end of a heap allocation, so that a read past src_size is
// a heap overflow under ASan.
struct ExactBlocks {
    std::unique_ptr<uint8_t[]> data;
    size_t size;
    ExactBlocks(const std::vector<uint8_t>& bytes, size_t keep) : data(new uint8_t[keep ? keep : 1]), size(keep) {
        std::memcpy(data.get(), bytes.data(), keep);
    }
};

texdec_host_job job_for(const BcFormat& f, uint32_t w, uint32_t h, uint32_t d, const void* blocks, size_t src_size,
                        GuardedDestination& dst) {
    return JobBuilder(f.format, TEXDEC_OUTPUT_RGBA16F, w, h, d)
        .blocks(blocks, src_size)
        .texels(dst.texels(), dst.size())
        .rounding(TEXDEC_BC_ROUNDING_EXACT);
}

}  // namespace

TEST_CASE("bad inputs: one-call API statuses and nothing written", "[bad][gpu]") {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    const BcFormat& bc1 = bc_format(TEXDEC_FORMAT_BC1_RGBA_UNORM);
    const BcFormat& bc5 = bc_format(TEXDEC_FORMAT_BC5_SNORM);
    const std::vector<uint8_t> blocks = random_blocks(bc5, 4 * 2 * 3, test_seed());  // 13x7x3 of BC5
    const uint32_t w = 13, h = 7, d = 3;
    // Decodes `format` (w x h x d) into a guarded destination after `change` edits the job; returns
    // the status and CHECKs that the destination is untouched (every caller expects a refusal).
    auto refused_status = [&](const BcFormat& format, auto change) {
        GuardedDestination dst(size_t(w) * h * d * 8);
        texdec_host_job job = job_for(format, w, h, d, blocks.data(), blocks.size(), dst);
        change(job);
        const texdec_status status = ctx->decode(job);
        CHECK(dst.untouched());
        return status;
    };

    SECTION("truncated block data: SOURCE_TOO_SMALL") {
        for (const BcFormat* f : {&bc1, &bc5}) {
            INFO(f->name);
            const size_t needed = size_t(4 * 2 * d) * f->block_bytes;
            for (size_t keep : {size_t(0), size_t(1), needed / 2, needed - 1}) {
                INFO("src_size " << keep << " of " << needed);
                ExactBlocks source(blocks, keep);
                GuardedDestination dst(size_t(w) * h * d * 8);
                texdec_host_job job = job_for(*f, w, h, d, source.data.get(), keep, dst);
                CHECK(ctx->decode(job) == TEXDEC_ERROR_SOURCE_TOO_SMALL);
                CHECK(dst.untouched());
                CHECK(!ctx->log().take_errors().empty());  // the callback names the problem
            }
            // With a row length the last block row still needs the whole of its row's blocks.
            GuardedDestination dst(size_t(w) * h * 8);
            texdec_host_job job = job_for(*f, w, h, 1, blocks.data(), size_t(6 * 1 + 4) * f->block_bytes - 1, dst);
            job.src_row_length = 24;  // 6 blocks per row: 6 + 4 blocks needed for 2 block rows
            CHECK(ctx->decode(job) == TEXDEC_ERROR_SOURCE_TOO_SMALL);
            CHECK(dst.untouched());
            // Exactly up to the last needed block is enough (ASan: nothing past it is read).
            ExactBlocks exact(blocks, size_t(6 * 1 + 4) * f->block_bytes);
            job.src = exact.data.get();
            job.src_size = exact.size;
            CHECK(ctx->decode(job) == TEXDEC_SUCCESS);
        }
    }

    SECTION("zero extents: INVALID_EXTENT") {
        for (auto [ew, eh, ed] : {std::array<uint32_t, 3>{0, 7, 1}, {13, 0, 1}, {13, 7, 0}, {0, 0, 0}}) {
            GuardedDestination dst(size_t(w) * h * d * 8);
            texdec_host_job job = job_for(bc5, ew, eh, ed, blocks.data(), blocks.size(), dst);
            CHECK(ctx->decode(job) == TEXDEC_ERROR_INVALID_EXTENT);
            CHECK(dst.untouched());
        }
    }

    SECTION("overflowing extents: SIZE_OVERFLOW") {
        GuardedDestination dst(1024);
        texdec_host_job job = job_for(bc5, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, blocks.data(), blocks.size(), dst);
        CHECK(ctx->decode(job) == TEXDEC_ERROR_SIZE_OVERFLOW);
        CHECK(dst.untouched());
        job = job_for(bc1, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, blocks.data(), blocks.size(), dst);
        job.output = TEXDEC_OUTPUT_RGBA8;
        CHECK(ctx->decode(job) == TEXDEC_ERROR_SIZE_OVERFLOW);
        CHECK(dst.untouched());
        // Pitches that overflow with a modest extent.
        job = job_for(bc1, 8, 8, 8, blocks.data(), blocks.size(), dst);
        job.output = TEXDEC_OUTPUT_RGBA8;
        job.dst_row_pitch = SIZE_MAX / 4;
        job.dst_slice_pitch = SIZE_MAX / 2;
        const texdec_status s = ctx->decode(job);
        CHECK((s == TEXDEC_ERROR_SIZE_OVERFLOW || s == TEXDEC_ERROR_DESTINATION_TOO_SMALL || s == TEXDEC_ERROR_SOURCE_TOO_SMALL));
        CHECK(dst.untouched());
    }

    SECTION("destination too small: DESTINATION_TOO_SMALL") {
        for (texdec_output output : {TEXDEC_OUTPUT_RGBA16F, TEXDEC_OUTPUT_NATIVE}) {
            INFO(output_name(output));
            const size_t needed = size_t(w) * h * d * output_texel_bytes(bc5, output);
            for (size_t size : {size_t(0), size_t(1), needed - 1}) {
                GuardedDestination dst(size);
                texdec_host_job job = job_for(bc5, w, h, d, blocks.data(), blocks.size(), dst);
                job.output = output;
                CHECK(ctx->decode(job) == TEXDEC_ERROR_DESTINATION_TOO_SMALL);
                CHECK(dst.untouched());
            }
        }
        // A padded pitch needs the padding between rows.
        GuardedDestination dst(size_t(w) * h * 8);
        texdec_host_job job = job_for(bc5, w, h, 1, blocks.data(), blocks.size(), dst);
        job.dst_row_pitch = size_t(w) * 8 + 8;
        CHECK(ctx->decode(job) == TEXDEC_ERROR_DESTINATION_TOO_SMALL);
        CHECK(dst.untouched());
    }

    SECTION("row pitch / row length smaller than the extent: INVALID_LAYOUT") {
        GuardedDestination dst(size_t(w) * h * 8 * 2);
        texdec_host_job job = job_for(bc5, w, h, 1, blocks.data(), blocks.size(), dst);
        job.dst_row_pitch = size_t(w) * 8 - 8;
        CHECK(ctx->decode(job) == TEXDEC_ERROR_INVALID_LAYOUT);
        CHECK(dst.untouched());
        job = job_for(bc5, w, h, 2, blocks.data(), blocks.size(), dst);
        job.dst_slice_pitch = size_t(w) * 8 * h - 8;
        CHECK(ctx->decode(job) == TEXDEC_ERROR_INVALID_LAYOUT);
        CHECK(dst.untouched());
        job = job_for(bc5, w, h, 1, blocks.data(), blocks.size(), dst);
        job.src_row_length = 8;  // < width 13
        CHECK(ctx->decode(job) == TEXDEC_ERROR_INVALID_LAYOUT);
        CHECK(dst.untouched());
        job = job_for(bc5, w, h, 2, blocks.data(), blocks.size(), dst);
        job.src_image_height = 4;  // < height 7
        CHECK(ctx->decode(job) == TEXDEC_ERROR_INVALID_LAYOUT);
        CHECK(dst.untouched());
    }

    SECTION("unknown format value: UNKNOWN_FORMAT") {
        for (int v : {int(TEXDEC_FORMAT_UNDEFINED), int(TEXDEC_FORMAT_COUNT), 9999, -5}) {
            INFO("format value " << v);
            CHECK(refused_status(bc5, [&](texdec_host_job& job) { store_raw_enum(job.format, v); }) ==
                  TEXDEC_ERROR_UNKNOWN_FORMAT);
        }
    }

    SECTION("formats not implemented (BC6H, BC7, ETC2, EAC, ASTC): UNSUPPORTED_FORMAT") {
        size_t checked = 0;
        for (int v = TEXDEC_FORMAT_UNDEFINED + 1; v < TEXDEC_FORMAT_COUNT; ++v) {
            texdec_format_info info;
            REQUIRE(texdec_format_get_info(texdec_format(v), &info) == TEXDEC_SUCCESS);
            if (info.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED) continue;
            INFO(info.name);
            uint64_t bytes = 0;
            REQUIRE(texdec_encoded_size(info.format, 16, 16, 1, &bytes) == TEXDEC_SUCCESS);
            std::vector<uint8_t> data(bytes, 0x55);
            GuardedDestination dst(16 * 16 * 8);
            texdec_host_job job = job_for(bc5, 16, 16, 1, data.data(), data.size(), dst);
            job.format = info.format;
            job.output = TEXDEC_OUTPUT_RGBA16F;
            CHECK(ctx->decode(job) == TEXDEC_ERROR_UNSUPPORTED_FORMAT);
            CHECK(dst.untouched());
            ++checked;
        }
        // This milestone: BC7 and ASTC at least are not implemented yet.
        texdec_format_info bc7, astc;
        REQUIRE(texdec_format_get_info(TEXDEC_FORMAT_BC7_UNORM, &bc7) == TEXDEC_SUCCESS);
        REQUIRE(texdec_format_get_info(TEXDEC_FORMAT_ASTC_6x6_UNORM, &astc) == TEXDEC_SUCCESS);
        if (!(bc7.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED) || !(astc.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED)) CHECK(checked > 0);
    }

    SECTION("RGBA8 of SNORM formats and unknown outputs: UNSUPPORTED_OUTPUT") {
        for (texdec_format format : {TEXDEC_FORMAT_BC4_SNORM, TEXDEC_FORMAT_BC5_SNORM})
            CHECK(refused_status(bc_format(format), [](texdec_host_job& job) { job.output = TEXDEC_OUTPUT_RGBA8; }) ==
                  TEXDEC_ERROR_UNSUPPORTED_OUTPUT);
        CHECK(refused_status(bc1, [](texdec_host_job& job) { store_raw_enum(job.output, 3); }) ==
              TEXDEC_ERROR_UNSUPPORTED_OUTPUT);
    }

    SECTION("unknown roundings: UNSUPPORTED_ROUNDING") {
        for (int r : {3, 77, -1}) {
            INFO("rounding value " << r);
            CHECK(refused_status(bc1, [&](texdec_host_job& job) { store_raw_enum(job.bc_rounding, r); }) ==
                  TEXDEC_ERROR_UNSUPPORTED_ROUNDING);
        }
    }

    SECTION("NULL pointers: INVALID_ARGUMENT") {
        GuardedDestination dst(size_t(w) * h * d * 8);
        texdec_host_job job = job_for(bc5, w, h, d, blocks.data(), blocks.size(), dst);
        CHECK(texdec_decode(nullptr, &job) == TEXDEC_ERROR_INVALID_ARGUMENT);
        CHECK(ctx->decode(job) == TEXDEC_SUCCESS);  // the job itself is valid
        CHECK(texdec_decode(ctx->get(), nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
        GuardedDestination dst2(size_t(w) * h * d * 8);
        job = job_for(bc5, w, h, d, nullptr, blocks.size(), dst2);
        CHECK(ctx->decode(job) == TEXDEC_ERROR_INVALID_ARGUMENT);
        CHECK(dst2.untouched());
        job = job_for(bc5, w, h, d, blocks.data(), blocks.size(), dst2);
        job.dst = nullptr;
        CHECK(ctx->decode(job) == TEXDEC_ERROR_INVALID_ARGUMENT);
        CHECK(dst2.untouched());
        texdec_context* out = reinterpret_cast<texdec_context*>(uintptr_t(1));
        // The header does not say whether info may be NULL (the library takes it as defaults):
        // either answer is accepted, but a context it returns must be usable and destroyable.
        const texdec_status with_null_info = texdec_context_create(nullptr, &out);
        CHECK((with_null_info == TEXDEC_SUCCESS || with_null_info == TEXDEC_ERROR_INVALID_ARGUMENT));
        if (with_null_info == TEXDEC_SUCCESS) {
            REQUIRE(out != nullptr);
            CHECK(texdec_context_device_name(out) != nullptr);
            texdec_context_destroy(out);
        }
        texdec_context_create_info info{};
        CHECK(texdec_context_create(&info, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
        CHECK(texdec_context_create_external(&info, nullptr, &out) == TEXDEC_ERROR_INVALID_ARGUMENT);
        CHECK(texdec_record_regions(nullptr, VK_NULL_HANDLE, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
        CHECK(texdec_enumerate_devices(nullptr, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
        texdec_context_destroy(nullptr);  // must be a no-op
    }

    SECTION("a failed call does not spoil the context: the next decode is right") {
        GuardedDestination bad(8);
        texdec_host_job job = job_for(bc5, w, h, d, blocks.data(), blocks.size(), bad);
        CHECK(ctx->decode(job) == TEXDEC_ERROR_DESTINATION_TOO_SMALL);
        std::vector<uint8_t> texels(size_t(w) * h * d * 8);
        job.dst = texels.data();
        job.dst_size = texels.size();
        REQUIRE(ctx->decode(job) == TEXDEC_SUCCESS);
        const BlockLayout bl = BlockLayout::of_extent(w, h, d);
        TEXDEC_CHECK_MATCHES_ORACLE(compare_with_oracle(bc5, TEXDEC_BC_ROUNDING_EXACT, Oracle::ExactModel, blocks.data(), bl,
                                                        {{TEXDEC_OUTPUT_RGBA16F, texels.data(), {}}}),
                                    "exact model");
    }
    ctx->log().take_errors();
    ctx->close_and_check();
}

// A NULL required pointer is INVALID_ARGUMENT with a message that names the function and the
// argument, through the context's callback (these once came without a word).
TEST_CASE("bad inputs: NULL pointers are refused with a message naming them", "[bad][gpu]") {
    auto ctx = OwnContext::open(Backend::gpu);
    if (!ctx) return;
    texdec_context* c = ctx->get();
    auto expect_named = [&](texdec_status status, const char* function, const char* argument) {
        INFO(function << " with " << argument << " NULL");
        CHECK(status == TEXDEC_ERROR_INVALID_ARGUMENT);
        const std::vector<std::string> errors = ctx->log().take_errors();
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].find(function) != std::string::npos);
        CHECK(errors[0].find(argument) != std::string::npos);
    };
    expect_named(texdec_decode(c, nullptr), "texdec_decode", "job");
    expect_named(texdec_decode_timed(c, nullptr, nullptr), "texdec_decode", "job");
    expect_named(texdec_context_memory_usage(c, nullptr), "texdec_context_memory_usage", "usage");
    texdec_host_job job{};
    uint64_t bytes = 0;
    expect_named(texdec_decode_scratch_size(c, &job, nullptr, &bytes), "texdec_decode_scratch_size", "host_bytes");
    expect_named(texdec_decode_scratch_size(c, &job, &bytes, nullptr), "texdec_decode_scratch_size", "device_bytes");
    texdec_image_target* target = nullptr;
    texdec_image_target_create_info ti{};
    expect_named(texdec_image_target_create(c, nullptr, &target), "texdec_image_target_create", "info");
    expect_named(texdec_image_target_create(c, &ti, nullptr), "texdec_image_target_create", "out_target");
    // Record calls: a NULL job, and a NULL command buffer (checked before anything is recorded).
    VkCommandBuffer fake_cmd = reinterpret_cast<VkCommandBuffer>(uintptr_t(0x1000));  // never used: the job is NULL
    expect_named(texdec_record_regions(c, fake_cmd, nullptr), "texdec_record_regions", "job");
    texdec_regions_job record{};
    expect_named(texdec_record_regions(c, VK_NULL_HANDLE, &record), "texdec_record_regions", "cmd");
    ctx->close_and_check();
}

// The 1.0 struct rule (texdec.h "Structs"): every struct begins with `next`; a chained struct of
// a type texdec does not accept there is refused with INVALID_ARGUMENT and a message naming the
// struct, never ignored (a caller relying on an extension a library lacks must not get a wrong
// decode). Nothing runs: the destination stays untouched.
TEST_CASE("bad inputs: unknown structs chained to next are refused", "[bad][gpu]") {
    auto ctx = OwnContext::open(Backend::gpu);
    if (!ctx) return;
    texdec_context* c = ctx->get();
    const uint32_t unknown[4] = {0x7E000042, 0, 0, 0};  // a type no texdec version defines
    const void* chain = unknown;
    auto expect_refused = [&](texdec_status status, const char* where) {
        INFO(where);
        CHECK(status == TEXDEC_ERROR_INVALID_ARGUMENT);
        const std::vector<std::string> errors = ctx->log().take_errors();
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].find(where) != std::string::npos);
    };
    const uint8_t block[8] = {0x00, 0xF8, 0x1F, 0x00, 0, 0, 0, 0};
    std::array<uint8_t, 64> texels{};
    const texdec_host_job job = JobBuilder(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8, 4, 4)
                                    .blocks(block, sizeof block)
                                    .texels(texels)
                                    .next(chain);
    expect_refused(texdec_decode(c, &job), "texdec_host_job");
    uint64_t host = 0, device = 0;
    expect_refused(texdec_decode_scratch_size(c, &job, &host, &device), "texdec_host_job");
    CHECK(texels == std::array<uint8_t, 64>{});
    texdec_decode_timing timing{};
    expect_refused(texdec_decode_timed(c, &job, &timing), "texdec_host_job");
    texdec_regions_job regions{};
    regions.next = chain;
    VkCommandBuffer fake_cmd = reinterpret_cast<VkCommandBuffer>(uintptr_t(0x1000));  // refused before any use
    expect_refused(texdec_record_regions(c, fake_cmd, &regions), "texdec_regions_job");
    texdec_image_target_create_info ti{};
    ti.next = chain;
    texdec_image_target* target = nullptr;
    expect_refused(texdec_image_target_create(c, &ti, &target), "texdec_image_target_create_info");
    CHECK(target == nullptr);
    texdec_region region{};
    region.next = chain;
    regions.next = nullptr;
    regions.src_buffer = reinterpret_cast<VkBuffer>(uintptr_t(0x2000));
    regions.src_size = 4096;
    regions.dst_buffer = reinterpret_cast<VkBuffer>(uintptr_t(0x3000));
    regions.dst_size = 4096;
    regions.region_count = 1;
    regions.regions = &region;
    expect_refused(texdec_record_regions(c, fake_cmd, &regions), "region 0");
    texdec_record_barriers barriers{};
    barriers.next = chain;
    region.next = nullptr;
    regions.barriers = &barriers;
    expect_refused(texdec_record_regions(c, fake_cmd, &regions), "texdec_record_barriers");
    std::vector<std::string> messages;
    texdec_context_create_info ci{};
    ci.next = chain;
    ci.message_callback = [](texdec_message_severity, const char* m, void* u) { static_cast<std::vector<std::string>*>(u)->push_back(m); };
    ci.user_data = &messages;
    texdec_context* other = nullptr;
    CHECK(texdec_context_create(&ci, &other) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(other == nullptr);
    REQUIRE(messages.size() == 1);
    CHECK(messages[0].find("texdec_context_create_info.next") != std::string::npos);
    ctx->close_and_check();
}

// Issue 34, item 10: both backends take the same one-call jobs. texdec_decode on a GPU context
// refused a job the CPU backend decodes (BC1 4x8 with src_row_length = 2^26: SIZE_OVERFLOW, "one
// block row needs more than maxStorageBufferRange" for an 8-byte row), because it staged the
// source's stride, not the blocks the job reads. Jobs with huge source row lengths and image
// heights (linear and block-linear) and small extents, 2D and 3D, several formats: the GPU context
// and the CPU backend decode them to the same bytes as the same blocks laid out tightly; and
// texdec_record_regions, which reads the caller's buffer in place, records the linear ones of up
// to 320 MiB of source (one block row per dispatch where a stride passes maxStorageBufferRange).
//
// The sources are address space, not memory: an uninitialized allocation of up to a few GiB of
// which only the job's blocks are written (the untouched pages are never committed), and the
// staging texdec_decode uses for them stays small (checked with texdec_decode_scratch_size).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "gpu/external_setup.h"
#include "gpu/gpu_fixture.h"
#include "support/compare.h"
#include "support/cpu_context.h"
#include "support/format_info.h"
#include "support/job_builder.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

struct StrideCase {
    texdec_format format;
    texdec_output output;
    uint32_t w, h, d;
    uint32_t row_length, image_height;  // texels (0 = the extent's)
    uint32_t gob_height = 0;            // block-linear: GOBs per block vertically (0: linear source)
};

uint64_t div_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Byte offset of block (bx, by, bz) in the case's source, from texdec.h "source layouts" (linear:
// rows of row_length texels, slices of image_height rows; block-linear: GOBs of 64 bytes x 8 rows,
// gob_height GOBs a block, block_depth 1).
uint64_t block_offset(const StrideCase& c, const texdec_format_info& fi, uint64_t bx, uint64_t by, uint64_t bz) {
    const uint64_t row_blocks = div_up(c.row_length ? c.row_length : c.w, fi.block_width);
    const uint64_t rows = div_up(c.image_height ? c.image_height : c.h, fi.block_height);
    const uint64_t bpb = fi.bytes_per_block;
    if (!c.gob_height) return (bz * rows + by) * row_blocks * bpb + bx * bpb;
    const uint64_t h = c.gob_height, gob_block = 512 * h;
    const uint64_t gob_columns = div_up(row_blocks * bpb, 64), gob_rows = div_up(rows, 8 * h);
    const uint64_t x = bx * bpb, yg = by % 8;
    const uint64_t in_gob = (x % 64) / 32 * 256 + yg / 2 * 64 + (x % 32) / 16 * 32 + yg % 2 * 16 + x % 16;
    return (bz * gob_rows + by / (8 * h)) * gob_columns * gob_block + x / 64 * gob_block + (by / 8) % h * 512 + in_gob;
}

}  // namespace

TEST_CASE("one-call: jobs with huge source strides decode alike on the GPU and the CPU backend", "[gpu][cpu][layout]") {
    const StrideCase cases[] = {
        // The job: one 8-byte block per row, rows 2^26 texels apart (128 MiB).
        {TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8, 4, 8, 1, 1u << 26, 0},
        // Partial blocks, 3 block rows 2^25 + 4 texels apart (a 16-byte-block row of 128 MiB + 16).
        {TEXDEC_FORMAT_BC7_UNORM, TEXDEC_OUTPUT_RGBA8, 13, 9, 1, (1u << 25) + 4, 0},
        // Rows of 256 MiB, 2 slices.
        {TEXDEC_FORMAT_EAC_R11G11_SNORM, TEXDEC_OUTPUT_NATIVE, 5, 7, 2, 1u << 27, 0},
        // Slices 2^24 texel rows apart (1 GiB), short rows.
        {TEXDEC_FORMAT_ETC2_R8G8B8A8_SRGB, TEXDEC_OUTPUT_RGBA16F, 6, 5, 3, 64, 1u << 24},
        // A 3D footprint: block rows of 64 MiB, block slices of 128 MiB.
        {TEXDEC_FORMAT_ASTC_4x4x4_UNORM, TEXDEC_OUTPUT_RGBA8, 5, 6, 7, 1u << 24, 8},
        {TEXDEC_FORMAT_ASTC_6x6_SFLOAT, TEXDEC_OUTPUT_RGBA16F, 7, 13, 1, 6u << 23, 0},
        // Block-linear: rows of GOB blocks of 1 GiB (two of them exceed any maxStorageBufferRange).
        {TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8, 9, 40, 1, 1u << 26, 0, 1},
        {TEXDEC_FORMAT_BC5_UNORM, TEXDEC_OUTPUT_NATIVE, 8, 70, 1, 1u << 24, 0, 2},
    };
    auto gpu = OwnContext::open(Backend::gpu);
    if (!gpu) return;
    ExternalSetup setup;  // the record path, on a device of the test's own
    if (!setup.open()) return;
    MessageLog cpu_log;
    texdec_context* cpu = create_cpu_context(cpu_log, 2);
    uint64_t seed = test_seed() ^ 0x57D;
    for (const StrideCase& c : cases) {
        const texdec_format_info fi = format_info(c.format);
        INFO(fi.name << " " << c.w << "x" << c.h << "x" << c.d << ", src_row_length " << c.row_length
                     << ", src_image_height " << c.image_height
                     << (c.gob_height ? ", block-linear block height " + std::to_string(c.gob_height) : std::string()));
        const uint64_t bx = div_up(c.w, fi.block_width), by = div_up(c.h, fi.block_height),
                       bz = div_up(c.d, fi.block_depth);
        // The tight blocks (random bits: every pattern is a block), and the strided source.
        std::vector<uint8_t> tight(bx * by * bz * fi.bytes_per_block);
        SplitMix64 rng(++seed);
        for (uint8_t& v : tight) v = uint8_t(rng.next());
        const uint64_t src_size = block_offset(c, fi, bx - 1, by - 1, bz - 1) + fi.bytes_per_block;
        std::unique_ptr<uint8_t[]> src(new (std::nothrow) uint8_t[src_size]);  // pages committed on write only
        REQUIRE(src);
        for (uint64_t z = 0; z < bz; ++z)
            for (uint64_t y = 0; y < by; ++y)
                for (uint64_t x = 0; x < bx; ++x)
                    std::memcpy(src.get() + block_offset(c, fi, x, y, z),
                                tight.data() + ((z * by + y) * bx + x) * fi.bytes_per_block, fi.bytes_per_block);
        texdec_source_layout_info layout{};
        layout.type = TEXDEC_STRUCTURE_TYPE_SOURCE_LAYOUT_INFO;
        layout.layout = TEXDEC_SOURCE_LAYOUT_BLOCK_LINEAR;
        layout.block_height = c.gob_height;
        layout.block_depth = 1;
        uint32_t texel = 0;
        REQUIRE(texdec_output_texel_size(c.format, c.output, &texel) == TEXDEC_SUCCESS);
        const size_t bytes = size_t(c.w) * c.h * c.d * texel;

        // The reference: the tight blocks on the CPU backend.
        std::vector<uint8_t> expected(bytes + 64);
        fill_canary(expected.data(), expected.size());
        const texdec_host_job tight_job =
            JobBuilder(c.format, c.output, c.w, c.h, c.d).blocks(tight).texels(expected.data(), bytes);
        REQUIRE(texdec_decode(cpu, &tight_job) == TEXDEC_SUCCESS);

        texdec_host_job job = JobBuilder(c.format, c.output, c.w, c.h, c.d)
                                  .blocks(src.get(), size_t(src_size))
                                  .source_rows(c.row_length, c.image_height);
        if (c.gob_height) job.next = &layout;
        for (texdec_context* ctx : {cpu, gpu->get()}) {
            const bool on_gpu = ctx != cpu;
            INFO((on_gpu ? "GPU context" : "CPU backend"));
            std::vector<uint8_t> got(bytes + 64);
            fill_canary(got.data(), got.size());
            job.dst = got.data();
            job.dst_size = bytes;
            uint64_t host = 0, device = 0;
            REQUIRE(texdec_decode_scratch_size(ctx, &job, &host, &device) == TEXDEC_SUCCESS);
            // Staging holds the blocks read and the texels, not the strides.
            if (on_gpu) CHECK(host <= tight.size() + 2 * bytes + 64);
            const texdec_status st = on_gpu ? gpu->decode(job) : texdec_decode(ctx, &job);
            std::string errors;
            for (const auto& e : (on_gpu ? gpu->log() : cpu_log).take_errors()) errors += e + "; ";
            INFO(texdec_status_string(st) << " " << errors);
            REQUIRE(st == TEXDEC_SUCCESS);
            CHECK(got == expected);  // every texel, and the canary after the job
        }

        // The record path reads the caller's buffer in place: a linear source's strides give
        // dispatches of one block row, never SIZE_OVERFLOW (sources of up to 320 MiB here).
        if (c.gob_height || src_size > (uint64_t(320) << 20)) continue;
        INFO("texdec_record_regions into a buffer");
        VulkanTestDevice& dev = *setup.device;
        HostBuffer sb = dev.create_buffer(src_size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        for (uint64_t z = 0; z < bz; ++z)
            for (uint64_t y = 0; y < by; ++y)
                for (uint64_t x = 0; x < bx; ++x)
                    std::memcpy(sb.mapped + block_offset(c, fi, x, y, z),
                                tight.data() + ((z * by + y) * bx + x) * fi.bytes_per_block, fi.bytes_per_block);
        HostBuffer db = dev.create_buffer(bytes + 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        fill_canary(db.mapped, bytes + 64);
        texdec_region region{};
        region.extent = {c.w, c.h, c.d};
        region.src_row_length = c.row_length;
        region.src_image_height = c.image_height;
        texdec_record_barriers barriers{};
        barriers.src_stage_mask = VK_PIPELINE_STAGE_HOST_BIT;
        barriers.src_access_mask = VK_ACCESS_HOST_WRITE_BIT;
        barriers.dst_stage_mask = VK_PIPELINE_STAGE_HOST_BIT;
        barriers.dst_access_mask = VK_ACCESS_HOST_READ_BIT;
        const texdec_regions_job rj = RegionsJobBuilder(c.format, c.output, sb.buffer, src_size, &region)
                                          .into_buffer(db.buffer, (bytes + 3) / 4 * 4)
                                          .barriers(&barriers);
        VkCommandBuffer cmd = dev.begin_commands();
        const texdec_status st = texdec_record_regions(setup.ctx, cmd, &rj);
        std::string errors;
        for (const auto& e : setup.context_log.take_errors()) errors += e + "; ";
        INFO(texdec_status_string(st) << " " << errors);
        REQUIRE(st == TEXDEC_SUCCESS);
        dev.submit_and_wait(cmd);
        check_no_validation_messages(dev.log(), "a record job with huge source strides");
        CHECK(std::equal(expected.begin(), expected.end(), db.mapped));
        dev.destroy(sb);
        dev.destroy(db);
    }
    texdec_context_destroy(cpu);
    gpu->close_and_check();
    setup.close();
}

// The external-context path: the test creates its own VkInstance (validation layer with
// synchronization validation, a VK_EXT_debug_utils messenger that fails the test on any message),
// device (VK_KHR_push_descriptor), queue, buffers and command buffers; texdec records into the
// test's command buffer (texdec_record_regions), the test submits, reads back and compares with
// the oracles (tolerance 0). Destinations: a VkBuffer (offsets, padded pitches, depth 2) and a
// storage image (2D_ARRAY view, GENERAL layout, an origin offset and a first layer; sRGB outputs
// through an R8G8B8A8_SRGB image with MUTABLE_FORMAT and a UNORM view). Bytes outside the texels
// hold a canary that must survive.
#include <catch2/catch.hpp>

#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "gpu/external_setup.h"
#include "gpu/gpu_fixture.h"
#include "support/compare.h"
#include "support/job_builder.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

// Source blocks in a device buffer at an offset, with a row length and image height larger than
// the extent; uploaded with vkCmdCopyBuffer (so the barrier before the decode has work to do).
struct Source {
    BlockLayout layout;
    std::vector<uint8_t> bytes;  // the whole source buffer's contents, junk around the blocks
    HostBuffer staging, buffer;
};

Source make_source(VulkanTestDevice& dev, const BcFormat& f, uint32_t w, uint32_t h, uint32_t d, uint64_t seed,
                   size_t offset = 256) {
    Source s;
    s.layout.width = w;
    s.layout.height = h;
    s.layout.depth = d;
    s.layout.row_length = ((w + 3) / 4 + 2) * 4;
    s.layout.image_height = ((h + 3) / 4 + 1) * 4;
    s.layout.offset = offset;
    const size_t size = s.layout.required_bytes(f.block_bytes) + 64;
    const size_t blocks = (size + f.block_bytes - 1) / f.block_bytes;
    s.bytes = random_blocks(f, blocks, seed);
    s.bytes.resize(size);
    s.staging = dev.create_buffer(size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    std::memcpy(s.staging.mapped, s.bytes.data(), size);
    s.buffer = dev.create_buffer(size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    std::memset(s.buffer.mapped, 0, size);
    return s;
}

void record_upload(VkCommandBuffer cmd, const Source& s) {
    VkBufferCopy copy{0, 0, s.staging.size};
    vkCmdCopyBuffer(cmd, s.staging.buffer, s.buffer.buffer, 1, &copy);
}

RecordJob base_job(const BcFormat& f, texdec_bc_rounding rounding, texdec_output output, const Source& s) {
    RecordJob job{.format = f.format,
                  .output = output,
                  .bc_rounding = rounding,
                  .barriers = true,
                  .width = s.layout.width,
                  .height = s.layout.height,
                  .depth = s.layout.depth,
                  .src_buffer = s.buffer.buffer,
                  .src_offset = s.layout.offset,
                  .src_size = s.buffer.size - s.layout.offset,
                  .src_row_length = s.layout.row_length,
                  .src_image_height = s.layout.image_height};
    return job;
}

// One buffer destination: texels at an offset with padded rows and slices, canary everywhere else.
struct BufferDestination {
    texdec_output output;
    TexelLayout layout;
    ResolvedTexelLayout resolved;
    HostBuffer buffer, readback;
    VkDeviceSize dst_size;
};

void destroy(VulkanTestDevice& dev, BufferDestination& b) {
    dev.destroy(b.buffer);
    dev.destroy(b.readback);
}
void destroy(VulkanTestDevice& dev, Source& s) {
    dev.destroy(s.staging);
    dev.destroy(s.buffer);
}

// Records the copy of the destination into its readback buffer (device-local contents -> host).
void record_readback(VkCommandBuffer cmd, const BufferDestination& b) {
    VkBufferCopy copy{0, 0, b.buffer.size};
    vkCmdCopyBuffer(cmd, b.buffer.buffer, b.readback.buffer, 1, &copy);
}

// Copies the destination back, makes it visible to the host, submits and waits.
void read_back_and_wait(VulkanTestDevice& dev, VkCommandBuffer cmd, const BufferDestination& b) {
    record_readback(cmd, b);
    host_read_barrier(cmd);
    dev.submit_and_wait(cmd);
}

BufferDestination make_buffer_destination(VulkanTestDevice& dev, const BcFormat& f, texdec_output output, uint32_t w, uint32_t h,
                                          uint32_t d, size_t offset = 64) {
    BufferDestination b;
    b.output = output;
    const uint32_t texel = output_texel_bytes(f, output);
    b.layout.offset = offset;
    b.layout.row_pitch = size_t(w) * texel + 4 * texel;                // padded rows
    b.layout.slice_pitch = b.layout.row_pitch * h + 16 * texel;        // padded slices
    b.resolved = resolve(b.layout, texel, w, h);
    const size_t end = b.resolved.end(w, h, d);
    b.dst_size = ((end - b.layout.offset) + 3) / 4 * 4;  // the word holding the last texel (1-2 byte texels)
    const size_t total = b.layout.offset + b.dst_size + 64;
    b.buffer = dev.create_buffer(total, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    fill_canary(b.buffer.mapped, total);
    b.readback = dev.create_buffer(total, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    std::memset(b.readback.mapped, 0, total);
    return b;
}

void check_buffer_destination(const BcFormat& f, texdec_bc_rounding rounding, const Source& s, const BufferDestination& b) {
    INFO(f.name << " " << rounding_name(rounding) << " " << output_name(b.output) << " (buffer destination)");
    const size_t clobbered = first_clobbered_byte(b.readback.mapped, b.readback.size, b.resolved, s.layout.width, s.layout.height,
                                                  s.layout.depth);
    INFO("first byte outside the texels that changed: " << clobbered_text(clobbered));
    CHECK(clobbered == SIZE_MAX);
    const Oracle primary = primary_oracle(f, rounding);
    TEXDEC_CHECK_MATCHES_ORACLE(compare_with_oracle(f, rounding, primary, s.bytes.data(), s.layout,
                                                    {{b.output, b.readback.mapped, b.layout}}),
                                oracle_name(primary));
    if (primary != Oracle::Nvimage && oracle_supports(Oracle::Nvimage, f, rounding))
        TEXDEC_CHECK_MATCHES_ORACLE(compare_with_oracle(f, rounding, Oracle::Nvimage, s.bytes.data(), s.layout,
                                                        {{b.output, b.readback.mapped, b.layout}}),
                                    oracle_name(Oracle::Nvimage));
}

}  // namespace

TEST_CASE("smoke: external context decodes one block", "[smoke][gpu][external]") {
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    const BcFormat& f = bc_format(TEXDEC_FORMAT_BC1_RGB_UNORM);
    HostBuffer src = dev.create_buffer(8, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    const uint8_t block[8] = {0x00, 0xF8, 0x1F, 0x00, 0, 0, 0, 0};  // red 31 > blue 31; codes 0: red
    std::memcpy(src.mapped, block, 8);
    HostBuffer dst = dev.create_buffer(64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    std::memset(dst.mapped, 0, 64);
    RecordJob job{.format = f.format,
                  .output = TEXDEC_OUTPUT_RGBA8,
                  .width = 4,
                  .height = 4,
                  .depth = 1,
                  .src_buffer = src.buffer,
                  .src_size = 8,
                  .dst_buffer = dst.buffer,
                  .dst_size = 64};
    VkCommandBuffer cmd = dev.begin_commands();
    REQUIRE(record_one(setup.ctx, cmd, &job) == TEXDEC_SUCCESS);
    host_read_barrier(cmd);
    dev.submit_and_wait(cmd);
    for (int t = 0; t < 16; ++t) {
        INFO("texel " << t);
        CHECK(dst.mapped[4 * t + 0] == 255);
        CHECK(dst.mapped[4 * t + 1] == 0);
        CHECK(dst.mapped[4 * t + 2] == 0);
        CHECK(dst.mapped[4 * t + 3] == 255);
    }
    dev.destroy(src);
    dev.destroy(dst);
    setup.close();
}

// Decodes every offered output of every BC format into buffer destinations and checks them.
// The offsets choose the shaders' load and store paths: 16-byte aligned blocks and rows take the
// vector loads and stores, other 4-byte aligned ones the word-by-word fallbacks.
void check_buffer_destinations(const std::vector<texdec_bc_rounding>& roundings, size_t src_offset, size_t dst_offset) {
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    const uint32_t w = 37, h = 23, d = 2;
    INFO("source offset " << src_offset << ", destination offset " << dst_offset);
    for (const BcFormat& f : bc_formats())
        for (texdec_bc_rounding rounding : roundings) {
            Source s = make_source(dev, f, w, h, d, test_seed() + f.format * 7 + rounding + src_offset, src_offset);
            // All outputs of this format decoded in ONE command buffer, after one upload.
            std::vector<BufferDestination> dsts;
            for (texdec_output output : kAllOutputs)
                if (output_offered(f, output)) dsts.push_back(make_buffer_destination(dev, f, output, w, h, d, dst_offset));
            VkCommandBuffer cmd = dev.begin_commands();
            record_upload(cmd, s);
            for (auto& b : dsts) {
                RecordJob job = base_job(f, rounding, b.output, s);
                job.into_buffer(b.buffer.buffer, b.layout.offset, b.dst_size, b.layout.row_pitch, b.layout.slice_pitch);
                INFO(f.name << " " << rounding_name(rounding) << " " << output_name(b.output));
                REQUIRE(record_one(setup.ctx, cmd, &job) == TEXDEC_SUCCESS);
            }
            for (auto& b : dsts) {
                record_readback(cmd, b);
            }
            host_read_barrier(cmd);
            dev.submit_and_wait(cmd);
            check_no_validation_messages(dev.log(), "recording and running the decode");
            for (auto& b : dsts) {
                check_buffer_destination(f, rounding, s, b);
                destroy(dev, b);
            }
            destroy(dev, s);
        }
    setup.close();
}

TEST_CASE("external context: buffer destinations for every format/output/mode", "[external][gpu]") {
    check_buffer_destinations({std::begin(kBothRoundings), std::end(kBothRoundings)}, 256, 64);
}

TEST_CASE("external context: block and texel offsets that are not multiples of 16 (the shaders' fallback paths)",
          "[external][gpu][heavy]") {
    for (auto [src, dst] : {std::pair<size_t, size_t>{260, 68}, {264, 72}, {268, 80}})
        check_buffer_destinations({TEXDEC_BC_ROUNDING_EXACT}, src, dst);
}

TEST_CASE("external context: storage image destinations for every format/output/mode", "[external][gpu][heavy]") {
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    const uint32_t w = 37, h = 23, d = 2;
    const int32_t x0 = 5, y0 = 3;
    const uint32_t first_layer = 1;
    const uint32_t iw = w + x0 + 3, ih = h + y0 + 4, layers = d + first_layer + 1;
    for (const BcFormat& f : bc_formats())
        for (texdec_bc_rounding rounding : kBothRoundings)
            for (texdec_output output : kAllOutputs) {
                if (!output_offered(f, output)) continue;
                INFO(f.name << " " << rounding_name(rounding) << " " << output_name(output) << " (image destination)");
                const VkFormat image_format = output_vk_format(f, output);
                const VkFormat view_format = storage_view_format(image_format);
                if (!dev.format_supports(view_format, VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT)) {
                    WARN("device lacks storage-image support for VkFormat " << view_format << ": case not run");
                    continue;
                }
                const uint32_t texel = output_texel_bytes(f, output);
                Source s = make_source(dev, f, w, h, d, test_seed() + f.format * 13 + output * 3 + rounding);
                VkCommandBuffer cmd = dev.begin_commands();
                record_upload(cmd, s);
                ImageTarget t = record_to_canary_image(setup, cmd, base_job(f, rounding, output, s), image_format, iw,
                                                       ih, layers, texel, x0, y0, first_layer);
                const CanaryImage& image = t.image;
                host_read_barrier(cmd);
                dev.submit_and_wait(cmd);
                check_no_validation_messages(dev.log(), "recording and running the decode into an image");

                const TexelLayout tl = window_layout(image, x0, y0, first_layer);
                const uint8_t* bytes = image.readback.mapped;
                const size_t clobbered = first_clobbered_byte(bytes, image.bytes, resolve(tl, texel, w, h), w, h, d);
                INFO("first byte outside the texels that changed: " << clobbered_text(clobbered));
                CHECK(clobbered == SIZE_MAX);
                TEXDEC_CHECK_MATCHES_ORACLE(compare_with_oracle(f, rounding, primary_oracle(f, rounding),
                                                                s.bytes.data(), s.layout, {{output, bytes, tl}}),
                                            oracle_name(primary_oracle(f, rounding)));
                destroy(dev, s);
                destroy(dev, t.image);
            }
    setup.close();
}

TEST_CASE("external context: bad record jobs return their status and record nothing", "[external][bad][gpu]") {
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    const BcFormat& f = bc_format(TEXDEC_FORMAT_BC3_UNORM);
    const uint32_t w = 13, h = 7, d = 1;
    Source s = make_source(dev, f, w, h, d, test_seed());
    std::memcpy(s.buffer.mapped, s.bytes.data(), s.bytes.size());
    BufferDestination b = make_buffer_destination(dev, f, TEXDEC_OUTPUT_RGBA16F, w, h, d);

    VkCommandBuffer cmd = dev.begin_commands();
    auto good = [&] {
        RecordJob job = base_job(f, TEXDEC_BC_ROUNDING_EXACT, TEXDEC_OUTPUT_RGBA16F, s);
        job.barriers = false;
        job.into_buffer(b.buffer.buffer, b.layout.offset, b.dst_size, b.layout.row_pitch, b.layout.slice_pitch);
        return job;
    };
    auto expect = [&](RecordJob job, texdec_status status, const char* what) {
        INFO(what);
        CHECK(record_one(setup.ctx, cmd, &job) == status);
    };
    RecordJob job = good();
    job.src_size = s.layout.required_bytes(f.block_bytes) - s.layout.offset - 1;
    expect(job, TEXDEC_ERROR_SOURCE_TOO_SMALL, "src_size one byte short");
    job = good();
    job.dst_size = b.resolved.end(w, h, d) - b.layout.offset - 1;
    expect(job, TEXDEC_ERROR_DESTINATION_TOO_SMALL, "dst_size one byte short");
    job = good();
    job.src_offset = 2;
    expect(job, TEXDEC_ERROR_INVALID_LAYOUT, "src_offset not a multiple of 4");
    job = good();
    job.dst_row_pitch = b.layout.row_pitch - 2;  // >= a row, but not a multiple of the texel size (nor of 4)
    expect(job, TEXDEC_ERROR_INVALID_LAYOUT, "dst_row_pitch not a multiple of the texel size");
    job = good();
    job.dst_slice_pitch = b.layout.slice_pitch + 2;
    expect(job, TEXDEC_ERROR_INVALID_LAYOUT, "dst_slice_pitch not a multiple of the texel size");
    job = good();
    job.dst_offset = b.layout.offset + 2;
    job.dst_size = b.dst_size - 2;
    expect(job, TEXDEC_ERROR_INVALID_LAYOUT, "dst_offset not a multiple of the texel size");
    job = good();
    job.dst_row_pitch = size_t(w) * 8 - 8;
    expect(job, TEXDEC_ERROR_INVALID_LAYOUT, "dst_row_pitch smaller than a row");
    job = good();
    job.src_row_length = 8;
    expect(job, TEXDEC_ERROR_INVALID_LAYOUT, "src_row_length smaller than the width");
    // Offsets whose sum with the size wraps around 64 bits (the GPU then addressed
    // bytes far outside the buffer; lavapipe crashed).
    job = good();
    job.src_offset = ~VkDeviceSize(0) - 63;  // a multiple of 4; the region needs more than 64 bytes
    job.src_size = 512;
    expect(job, TEXDEC_ERROR_SIZE_OVERFLOW, "src_offset + src_size wraps");
    job = good();
    job.dst_offset = ~VkDeviceSize(0) - 511;  // a multiple of 8
    job.dst_size = 1024;
    expect(job, TEXDEC_ERROR_SIZE_OVERFLOW, "dst_offset + dst_size wraps");
    job = good();
    job.width = 0;
    expect(job, TEXDEC_ERROR_INVALID_EXTENT, "zero width");
    job = good();
    job.width = job.height = job.depth = 0xFFFFFFFF;
    job.src_row_length = job.src_image_height = 0;  // tight: only the sizes are wrong
    job.dst_row_pitch = job.dst_slice_pitch = 0;
    expect(job, TEXDEC_ERROR_SIZE_OVERFLOW, "0xFFFFFFFF^3 extent");
    job = good();
    store_raw_enum(job.format, 9999);
    expect(job, TEXDEC_ERROR_UNKNOWN_FORMAT, "unknown format");
    // The first format this version does not implement (BC7 was the example once).
    for (int v = TEXDEC_FORMAT_UNDEFINED + 1; v < TEXDEC_FORMAT_COUNT; ++v) {
        texdec_format_info info;
        REQUIRE(texdec_format_get_info(texdec_format(v), &info) == TEXDEC_SUCCESS);
        if (info.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED) continue;
        job = good();
        job.format = info.format;
        expect(job, TEXDEC_ERROR_UNSUPPORTED_FORMAT, (std::string(info.name) + " (not implemented)").c_str());
        break;
    }
    job = good();
    job.format = TEXDEC_FORMAT_BC4_SNORM;
    job.output = TEXDEC_OUTPUT_RGBA8;
    expect(job, TEXDEC_ERROR_UNSUPPORTED_OUTPUT, "RGBA8 of BC4 SNORM");
    job = good();
    store_raw_enum(job.bc_rounding, 3);
    expect(job, TEXDEC_ERROR_UNSUPPORTED_ROUNDING, "unknown rounding");
    job = good();
    job.src_buffer = VK_NULL_HANDLE;
    expect(job, TEXDEC_ERROR_INVALID_ARGUMENT, "no source buffer");
    job = good();
    job.dst_buffer = VK_NULL_HANDLE;
    expect(job, TEXDEC_ERROR_INVALID_DESTINATION, "no destination at all");
    texdec_regions_job regions{};  // the pointers are checked first
    CHECK(texdec_record_regions(setup.ctx, VK_NULL_HANDLE, &regions) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_record_regions(setup.ctx, cmd, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_record_regions(nullptr, cmd, &regions) == TEXDEC_ERROR_INVALID_ARGUMENT);
    // Nothing above may have recorded a write: run the command buffer and find the canary intact.
    read_back_and_wait(dev, cmd, b);
    bool untouched = true;
    for (size_t i = 0; i < b.readback.size; ++i) untouched &= b.readback.mapped[i] == canary_byte(i);
    CHECK(untouched);
    setup.context_log.take_errors();
    check_no_validation_messages(dev.log(), "bad record jobs");

    // And the context still records a good job correctly afterwards (source already in place).
    cmd = dev.begin_commands();
    job = good();
    job.barriers = true;
    REQUIRE(record_one(setup.ctx, cmd, &job) == TEXDEC_SUCCESS);
    read_back_and_wait(dev, cmd, b);
    check_buffer_destination(f, TEXDEC_BC_ROUNDING_EXACT, s, b);
    destroy(dev, b);
    destroy(dev, s);
    setup.close();
}

TEST_CASE("external context: the one-call API on the caller's queue", "[external][gpu]") {
    ExternalSetup setup;
    if (!setup.open()) return;
    const BcFormat& f = bc_format(TEXDEC_FORMAT_BC5_UNORM);
    const uint32_t w = 21, h = 10;
    const std::vector<uint8_t> blocks = random_blocks(f, 6 * 3, test_seed());
    std::vector<uint8_t> texels(size_t(w) * h * 2);
    const texdec_host_job job = JobBuilder(f.format, TEXDEC_OUTPUT_NATIVE, w, h)
                                    .blocks(blocks)
                                    .texels(texels)
                                    .rounding(TEXDEC_BC_ROUNDING_IDEAL);
    REQUIRE(texdec_decode(setup.ctx, &job) == TEXDEC_SUCCESS);
    check_no_validation_messages(setup.device->log(), "texdec_decode on an external context");
    const BlockLayout bl = BlockLayout::of_extent(w, h);
    const Oracle oracle = primary_oracle(f, TEXDEC_BC_ROUNDING_IDEAL);  // libnvimage (on Linux)
    TEXDEC_CHECK_MATCHES_ORACLE(compare_with_oracle(f, TEXDEC_BC_ROUNDING_IDEAL, oracle, blocks.data(), bl,
                                                    {{TEXDEC_OUTPUT_NATIVE, texels.data(), {}}}),
                                oracle_name(oracle));
    setup.close();
}

TEST_CASE("external context: RGBA16F buffer pitch that is a multiple of 4 but not of 8", "[external][gpu]") {
    // The header asks for pitches that are multiples of the texel size. A library may refuse
    // such a pitch (INVALID_LAYOUT) or honour it; if it honours it, the result must be right.
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    const BcFormat& f = bc_format(TEXDEC_FORMAT_BC1_RGBA_UNORM);
    const uint32_t w = 13, h = 7, d = 1;
    Source s = make_source(dev, f, w, h, d, test_seed() + 5);
    BufferDestination b = make_buffer_destination(dev, f, TEXDEC_OUTPUT_RGBA16F, w, h, d);
    b.layout.row_pitch = size_t(w) * 8 + 4;
    b.resolved = resolve(b.layout, 8, w, h);
    VkCommandBuffer cmd = dev.begin_commands();
    record_upload(cmd, s);
    RecordJob job = base_job(f, TEXDEC_BC_ROUNDING_EXACT, TEXDEC_OUTPUT_RGBA16F, s);
    job.into_buffer(b.buffer.buffer, b.layout.offset, b.dst_size, b.layout.row_pitch);
    const texdec_status status = record_one(setup.ctx, cmd, &job);
    INFO("status " << texdec_status_string(status));
    CHECK((status == TEXDEC_SUCCESS || status == TEXDEC_ERROR_INVALID_LAYOUT));
    read_back_and_wait(dev, cmd, b);
    if (status == TEXDEC_SUCCESS) {
        check_buffer_destination(f, TEXDEC_BC_ROUNDING_EXACT, s, b);
    } else {
        bool untouched = true;
        for (size_t i = 0; i < b.readback.size; ++i) untouched &= b.readback.mapped[i] == canary_byte(i);
        CHECK(untouched);
    }
    setup.context_log.take_errors();
    destroy(dev, b);
    destroy(dev, s);
    setup.close();
}

TEST_CASE("the validation messenger catches a deliberate error", "[external][gpu]") {
    // Proves the failure path: an invalid call must reach the test's messenger (and would fail
    // any other test through check_no_validation_messages).
    auto dev = VulkanTestDevice::open();
    if (!dev) return;
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = 0;  // VUID-VkBufferCreateInfo-size-00912: size must be greater than 0
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    VkBuffer buffer = VK_NULL_HANDLE;
    vkCreateBuffer(dev->device(), &bci, nullptr, &buffer);
    if (buffer) vkDestroyBuffer(dev->device(), buffer, nullptr);
    const auto messages = dev->log().take_validation();
    CHECK(!messages.empty());
    dev->close_and_check();
}

TEST_CASE("external context: a job larger than one dispatch with 1-byte texels and padded pitches",
          "[external][gpu][heavy]") {
    // Over 2^20 blocks per slice and two slices, odd width, R8 texels with a pitch that is not a
    // multiple of 4: the library must split the job into several dispatches and, where a 32-bit
    // word holds texels of two chunks or caller padding, change only its own bytes.
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    const BcFormat& f = bc_format(TEXDEC_FORMAT_BC4_UNORM);
    const uint32_t w = 8190, h = 2078, d = 2;
    Source s;
    s.layout.width = w;
    s.layout.height = h;
    s.layout.depth = d;
    s.layout.offset = 64;
    const size_t size = s.layout.required_bytes(f.block_bytes);
    s.bytes = random_blocks(f, (size + 7) / 8, test_seed() + 2078);
    s.bytes.resize(size);
    s.buffer = dev.create_buffer(size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    std::memcpy(s.buffer.mapped, s.bytes.data(), size);
    BufferDestination b;
    b.output = TEXDEC_OUTPUT_NATIVE;
    b.layout.offset = 5;
    b.layout.row_pitch = w + 3;
    b.layout.slice_pitch = b.layout.row_pitch * h + 1;
    b.resolved = resolve(b.layout, 1, w, h);
    b.dst_size = (b.resolved.end(w, h, d) - b.layout.offset + 3) / 4 * 4;
    const size_t total = b.layout.offset + b.dst_size + 64;
    b.buffer = dev.create_buffer(total, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    fill_canary(b.buffer.mapped, total);
    RecordJob job{.format = f.format,
                  .output = TEXDEC_OUTPUT_NATIVE,
                  .bc_rounding = TEXDEC_BC_ROUNDING_EXACT,
                  .width = w,
                  .height = h,
                  .depth = d,
                  .src_buffer = s.buffer.buffer,
                  .src_offset = s.layout.offset,
                  .src_size = size - s.layout.offset};
    job.into_buffer(b.buffer.buffer, b.layout.offset, b.dst_size, b.layout.row_pitch, b.layout.slice_pitch);
    VkCommandBuffer cmd = dev.begin_commands();
    const texdec_status status = record_one(setup.ctx, cmd, &job);
    INFO("status " << texdec_status_string(status));
    REQUIRE(status == TEXDEC_SUCCESS);
    host_read_barrier(cmd);
    dev.submit_and_wait(cmd);
    check_no_validation_messages(dev.log(), "a chunked decode");
    const size_t clobbered = first_clobbered_byte(b.buffer.mapped, total, b.resolved, w, h, d);
    INFO("first byte outside the texels that changed: " << clobbered_text(clobbered));
    CHECK(clobbered == SIZE_MAX);
    TEXDEC_CHECK_MATCHES_ORACLE(compare_with_oracle(f, TEXDEC_BC_ROUNDING_EXACT, Oracle::ExactModel, s.bytes.data(), s.layout,
                                                    {{TEXDEC_OUTPUT_NATIVE, b.buffer.mapped, b.layout}}),
                                "exact model");
    dev.destroy(b.buffer);
    dev.destroy(s.buffer);
    setup.close();
}

namespace {

// A caller's queue lock (texdec_external_device::lock_queue / unlock_queue) that counts its calls.
struct QueueLock {
    std::mutex mutex;
    int locks = 0, unlocks = 0;
    static void lock(void* user) {
        auto* self = static_cast<QueueLock*>(user);
        self->mutex.lock();
        ++self->locks;
    }
    static void unlock(void* user) {
        auto* self = static_cast<QueueLock*>(user);
        ++self->unlocks;
        self->mutex.unlock();
    }
};

}  // namespace

// Half a lock pair locked the queue on the first texdec_decode and never unlocked it: the second
// call hung. It is refused at creation; both or neither are accepted, and a pair stays balanced.
TEST_CASE("external context: lock_queue without unlock_queue (or the reverse) is refused", "[external][bad][gpu]") {
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    QueueLock queue_lock;
    MessageLog log;
    texdec_context_create_info info{};
    info.message_callback = [](texdec_message_severity severity, const char* m, void* user) {
        if (severity == TEXDEC_MESSAGE_ERROR) static_cast<MessageLog*>(user)->add_error(m ? m : "");
    };
    info.user_data = &log;
    for (int half = 0; half < 2; ++half) {
        texdec_external_device ext = dev.external_device();
        if (half == 0) ext.lock_queue = &QueueLock::lock;
        else ext.unlock_queue = &QueueLock::unlock;
        ext.queue_user_data = &queue_lock;
        const char* missing = half == 0 ? "unlock_queue" : "lock_queue";
        INFO("only " << (half == 0 ? "lock_queue" : "unlock_queue") << " given");
        texdec_context* ctx = nullptr;
        const texdec_status s = texdec_context_create_external(&info, &ext, &ctx);
        CHECK(s == TEXDEC_ERROR_INVALID_ARGUMENT);
        CHECK(ctx == nullptr);
        if (ctx) texdec_context_destroy(ctx);  // never decoded with: the second decode would hang
        const std::vector<std::string> errors = log.take_errors();
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].find(missing) != std::string::npos);
    }
    CHECK(queue_lock.locks == 0);
    CHECK(queue_lock.unlocks == 0);
    // Both given: two decodes, each submission locked and unlocked.
    texdec_external_device ext = dev.external_device();
    ext.lock_queue = &QueueLock::lock;
    ext.unlock_queue = &QueueLock::unlock;
    ext.queue_user_data = &queue_lock;
    texdec_context* ctx = nullptr;
    REQUIRE(texdec_context_create_external(&info, &ext, &ctx) == TEXDEC_SUCCESS);
    const uint8_t block[8] = {0x00, 0xF8, 0x1F, 0x00, 0, 0, 0, 0};  // BC1: red everywhere
    std::vector<uint8_t> texels(64);
    const texdec_host_job job =
        JobBuilder(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8, 4, 4).blocks(block, 8).texels(texels);
    CHECK(texdec_decode(ctx, &job) == TEXDEC_SUCCESS);
    CHECK(texdec_decode(ctx, &job) == TEXDEC_SUCCESS);
    texdec_context_destroy(ctx);
    CHECK(texels[0] == 255);
    CHECK(queue_lock.locks >= 2);
    CHECK(queue_lock.locks == queue_lock.unlocks);
    CHECK(log.take_errors().empty());
    setup.close();
}

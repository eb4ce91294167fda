#include "support/job_builder.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "support/compare.h"  // fill_canary
#include "support/format_info.h"
#include "support/random_blocks.h"
#include "support/record_compare.h"

namespace texdec_test {
namespace {

std::string errors_of(ExternalSetup& setup) {
    std::string all;
    for (auto& e : setup.context_log.take_errors()) all += e + "; ";
    return all;
}

}  // namespace

std::vector<uint8_t> random_bytes(size_t bytes, uint64_t seed) {
    std::vector<uint8_t> out(bytes);
    SplitMix64 rng(seed);
    for (size_t i = 0; i < bytes; i += 8) {
        const uint64_t v = rng.next();
        std::memcpy(out.data() + i, &v, std::min<size_t>(8, bytes - i));
    }
    return out;
}

std::vector<uint8_t> random_blocks_for(texdec_format format, uint32_t w, uint32_t h, uint64_t seed) {
    uint64_t bytes = 0;
    REQUIRE(texdec_encoded_size(format, w, h, 1, &bytes) == TEXDEC_SUCCESS);
    return random_bytes(size_t(bytes), seed);
}

std::vector<uint8_t> decode_on_host(texdec_context* ctx, texdec_format format, texdec_output output,
                                    const std::vector<uint8_t>& blocks, uint32_t w, uint32_t h) {
    std::vector<uint8_t> texels(size_t(w) * h * texel_size(format, output));
    const texdec_host_job job = JobBuilder(format, output, w, h).blocks(blocks).texels(texels);
    REQUIRE(texdec_decode(ctx, &job) == TEXDEC_SUCCESS);
    return texels;
}

std::vector<uint8_t> record_into_buffer(ExternalSetup& setup, texdec_format format, texdec_output output,
                                        const std::vector<uint8_t>& blocks, uint32_t w, uint32_t h) {
    VulkanTestDevice& dev = *setup.device;
    const size_t size = size_t(w) * h * texel_size(format, output);
    HostBuffer src = dev.create_buffer(blocks.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    std::memcpy(src.mapped, blocks.data(), blocks.size());
    HostBuffer dst = dev.create_buffer((size + 3) / 4 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    texdec_region region{};
    region.extent = {w, h, 1};
    texdec_record_barriers barriers{};
    barriers.src_stage_mask = VK_PIPELINE_STAGE_HOST_BIT;
    barriers.src_access_mask = VK_ACCESS_HOST_WRITE_BIT;
    barriers.dst_stage_mask = VK_PIPELINE_STAGE_HOST_BIT;
    barriers.dst_access_mask = VK_ACCESS_HOST_READ_BIT;
    const texdec_regions_job job = RegionsJobBuilder(format, output, src.buffer, blocks.size(), &region)
                                       .into_buffer(dst.buffer, dst.size)
                                       .barriers(&barriers);
    VkCommandBuffer cmd = dev.begin_commands();
    const texdec_status st = texdec_record_regions(setup.ctx, cmd, &job);
    INFO("texdec_record_regions: " << texdec_status_string(st) << " " << errors_of(setup));
    REQUIRE(st == TEXDEC_SUCCESS);
    dev.submit_and_wait(cmd);
    check_no_validation_messages(dev.log(), "record_into_buffer");
    std::vector<uint8_t> out(dst.mapped, dst.mapped + size);
    dev.destroy(src);
    dev.destroy(dst);
    return out;
}

void check_canary_around(const uint8_t* bytes, size_t total, const TexelLayout& layout, uint32_t texel, uint32_t w,
                         uint32_t h, uint32_t d, const std::string& where) {
    const size_t clobbered = first_clobbered_byte(bytes, total, resolve(layout, texel, w, h), w, h, d);
    INFO(where << ": first byte outside the texels that changed: " << clobbered_text(clobbered));
    CHECK(clobbered == SIZE_MAX);
}

VkImageCreateInfo storage_image_info(VkFormat format, uint32_t w, uint32_t h) {
    const VkImageCreateFlags flags =
        format == VK_FORMAT_R8G8B8A8_SRGB ? VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT : 0;
    return vk_app::image_info_2d(
        format, w, h, 1, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        flags);
}

std::vector<uint8_t> record_into_image(ExternalSetup& setup, texdec_format format, texdec_output output,
                                       const std::vector<uint8_t>& blocks, uint32_t w, uint32_t h) {
    VulkanTestDevice& dev = *setup.device;
    const size_t size = size_t(w) * h * texel_size(format, output);
    VkFormat vk = VK_FORMAT_UNDEFINED;
    REQUIRE(texdec_output_vk_format(format, output, &vk) == TEXDEC_SUCCESS);
    const VkImageCreateInfo ici = storage_image_info(vk, w, h);
    TestImage image = dev.create_image(ici);
    texdec_image_target* target = nullptr;
    const texdec_image_target_create_info ti = target_create_info(ici, image.image);
    {
        const texdec_status st = texdec_image_target_create(setup.ctx, &ti, &target);
        INFO("texdec_image_target_create: " << texdec_status_string(st) << " " << errors_of(setup));
        REQUIRE(st == TEXDEC_SUCCESS);
    }
    HostBuffer src = dev.create_buffer(blocks.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    std::memcpy(src.mapped, blocks.data(), blocks.size());
    HostBuffer canary = dev.create_buffer(size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    fill_canary(canary.mapped, size);
    HostBuffer readback = dev.create_buffer(size, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    texdec_region region{};
    region.extent = {w, h, 1};
    const texdec_regions_job job =
        RegionsJobBuilder(format, output, src.buffer, blocks.size(), &region).into_image(target);
    VkCommandBuffer cmd = dev.begin_commands();
    record_image_canary(cmd, image.image, canary, w, h, 1);  // leaves the image in GENERAL
    const texdec_status st = texdec_record_regions(setup.ctx, cmd, &job);
    INFO("texdec_record_regions: " << texdec_status_string(st) << " " << errors_of(setup));
    REQUIRE(st == TEXDEC_SUCCESS);
    record_image_readback(cmd, image.image, readback, w, h, 1);
    host_read_barrier(cmd);
    dev.submit_and_wait(cmd);
    check_no_validation_messages(dev.log(), "record_into_image");
    std::vector<uint8_t> out(readback.mapped, readback.mapped + size);
    texdec_image_target_destroy(setup.ctx, target);
    dev.destroy(image);
    dev.destroy(src);
    dev.destroy(canary);
    dev.destroy(readback);
    return out;
}

}  // namespace texdec_test

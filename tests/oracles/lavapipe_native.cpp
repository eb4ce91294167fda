#include "lavapipe_native.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "native_fetch.h"  // spirv_native_fetch, generated from tests/shaders/native_fetch.comp

namespace texdec_test {
namespace {

VkFormat unorm_twin(const BcFormat& f) {
    if (!f.srgb) return f.vk_format;
    if (const BcFormat& twin = bc_unorm_twin(f); !twin.srgb) return twin.vk_format;
    for (const auto& g : bc7_formats())  // BC7 sRGB: through its UNORM twin
        if (g.kind == f.kind && !g.srgb && !g.is_signed) return g.vk_format;
    return VK_FORMAT_UNDEFINED;
}

}  // namespace

std::vector<float> native_decode(VulkanTestDevice& dev, const BcFormat& f, const uint8_t* blocks, uint32_t width,
                                 uint32_t height, NativeBytes* bytes) {
    VkDevice d = dev.device();
    const VkDeviceSize block_bytes = VkDeviceSize((width + 3) / 4) * ((height + 3) / 4) * f.block_bytes;
    const VkDeviceSize texel_bytes = VkDeviceSize(width) * height * 16;

    REQUIRE(dev.format_supports(f.vk_format, VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT));
    TestImage image = dev.create_image(f.vk_format, width, height, 1, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                       f.srgb ? VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT : 0, unorm_twin(f));
    HostBuffer upload = dev.create_buffer(block_bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    std::memcpy(upload.mapped, blocks, block_bytes);
    HostBuffer texels = dev.create_buffer(texel_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    // The 8-bit conversions: two storage images, copied into one buffer (UNORM, then SNORM).
    const VkImageUsageFlags byte_usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    TestImage byte_images[2] = {dev.create_image(VK_FORMAT_R8G8B8A8_UNORM, width, height, 1, byte_usage),
                                dev.create_image(VK_FORMAT_R8G8B8A8_SNORM, width, height, 1, byte_usage)};
    const VkDeviceSize byte_image_bytes = VkDeviceSize(width) * height * 4;
    HostBuffer byte_readback = dev.create_buffer(2 * byte_image_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);

    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sci.magFilter = sci.minFilter = VK_FILTER_NEAREST;
    sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    VkSampler sampler;
    REQUIRE(vkCreateSampler(d, &sci, nullptr, &sampler) == VK_SUCCESS);

    VkDescriptorSetLayoutBinding bindings[4] = {
        {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {2, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {3, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
    VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dslci.bindingCount = 4;
    dslci.pBindings = bindings;
    VkDescriptorSetLayout set_layout;
    REQUIRE(vkCreateDescriptorSetLayout(d, &dslci, nullptr, &set_layout) == VK_SUCCESS);
    VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, 12};
    VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plci.setLayoutCount = 1;
    plci.pSetLayouts = &set_layout;
    plci.pushConstantRangeCount = 1;
    plci.pPushConstantRanges = &push;
    VkPipelineLayout pipeline_layout;
    REQUIRE(vkCreatePipelineLayout(d, &plci, nullptr, &pipeline_layout) == VK_SUCCESS);
    VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smci.codeSize = sizeof spirv_native_fetch;
    smci.pCode = spirv_native_fetch;
    VkShaderModule module;
    REQUIRE(vkCreateShaderModule(d, &smci, nullptr, &module) == VK_SUCCESS);
    VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main", nullptr};
    cpci.layout = pipeline_layout;
    VkPipeline pipeline;
    REQUIRE(vkCreateComputePipelines(d, VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline) == VK_SUCCESS);
    VkDescriptorPoolSize sizes[3] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1},
                                     {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
                                     {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 2}};
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.maxSets = 1;
    dpci.poolSizeCount = 3;
    dpci.pPoolSizes = sizes;
    VkDescriptorPool pool;
    REQUIRE(vkCreateDescriptorPool(d, &dpci, nullptr, &pool) == VK_SUCCESS);
    VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dsai.descriptorPool = pool;
    dsai.descriptorSetCount = 1;
    dsai.pSetLayouts = &set_layout;
    VkDescriptorSet set;
    REQUIRE(vkAllocateDescriptorSets(d, &dsai, &set) == VK_SUCCESS);
    VkDescriptorImageInfo image_info{sampler, image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    VkDescriptorBufferInfo buffer_info{texels.buffer, 0, VK_WHOLE_SIZE};
    VkDescriptorImageInfo byte_infos[2] = {{VK_NULL_HANDLE, byte_images[0].view, VK_IMAGE_LAYOUT_GENERAL},
                                           {VK_NULL_HANDLE, byte_images[1].view, VK_IMAGE_LAYOUT_GENERAL}};
    VkWriteDescriptorSet writes[4] = {};
    writes[0] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 0, 0, 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, &image_info, nullptr, nullptr};
    writes[1] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 1, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nullptr, &buffer_info, nullptr};
    writes[2] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 2, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, &byte_infos[0], nullptr, nullptr};
    writes[3] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 3, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, &byte_infos[1], nullptr, nullptr};
    vkUpdateDescriptorSets(d, 4, writes, 0, nullptr);

    VkCommandBuffer cmd = dev.begin_commands();
    const VkImageMemoryBarrier to_transfer =
        vk_app::image_barrier(image.image, 1, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                              VK_ACCESS_TRANSFER_WRITE_BIT);
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1, &to_transfer);
    const VkBufferImageCopy region = vk_app::whole_image(width, height, 1);
    vkCmdCopyBufferToImage(cmd, upload.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    // The sampled image to SHADER_READ_ONLY, the two byte images to GENERAL.
    VkImageMemoryBarrier to_general[3] = {vk_app::image_barrier(
        image.image, 1, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
        VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT)};
    for (int i = 1; i < 3; ++i)
        to_general[i] = vk_app::image_barrier(byte_images[i - 1].image, 1, VK_IMAGE_LAYOUT_UNDEFINED,
                                              VK_IMAGE_LAYOUT_GENERAL, 0, VK_ACCESS_SHADER_WRITE_BIT);
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, nullptr, 0, nullptr, 3, to_general);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 0, 1, &set, 0, nullptr);
    const uint32_t extent[3] = {width, height, 1};
    vkCmdPushConstants(cmd, pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof extent, extent);
    vkCmdDispatch(cmd, (width + 7) / 8, (height + 7) / 8, 1);
    VkImageMemoryBarrier to_copy[2];
    for (int i = 0; i < 2; ++i)
        to_copy[i] = vk_app::image_barrier(byte_images[i].image, 1, VK_IMAGE_LAYOUT_GENERAL,
                                           VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_SHADER_WRITE_BIT,
                                           VK_ACCESS_TRANSFER_READ_BIT);
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 2, to_copy);
    for (int i = 0; i < 2; ++i) {
        VkBufferImageCopy byte_region = region;
        byte_region.bufferOffset = VkDeviceSize(i) * byte_image_bytes;
        vkCmdCopyImageToBuffer(cmd, byte_images[i].image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, byte_readback.buffer, 1, &byte_region);
    }
    VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    to_host.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                         &to_host, 0, nullptr, 0, nullptr);
    dev.submit_and_wait(cmd);

    std::vector<float> result(size_t(width) * height * 4);
    std::memcpy(result.data(), texels.mapped, texel_bytes);
    if (bytes) {
        bytes->unorm8.assign(byte_readback.mapped, byte_readback.mapped + byte_image_bytes);
        bytes->snorm8.resize(byte_image_bytes);
        std::memcpy(bytes->snorm8.data(), byte_readback.mapped + byte_image_bytes, byte_image_bytes);
    }

    vkDestroyDescriptorPool(d, pool, nullptr);
    vkDestroyPipeline(d, pipeline, nullptr);
    vkDestroyShaderModule(d, module, nullptr);
    vkDestroyPipelineLayout(d, pipeline_layout, nullptr);
    vkDestroyDescriptorSetLayout(d, set_layout, nullptr);
    vkDestroySampler(d, sampler, nullptr);
    dev.destroy(texels);
    dev.destroy(byte_readback);
    for (TestImage& byte_image : byte_images) dev.destroy(byte_image);
    dev.destroy(upload);
    dev.destroy(image);
    return result;
}

uint16_t exact_half_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    const uint16_t sign = uint16_t((u >> 16) & 0x8000);
    const float a = std::fabs(f);
    if (std::isinf(a)) return sign | 0x7C00;
    REQUIRE(!std::isnan(a));
    if (a == 0.0f) return sign;
    int e;
    const float m = std::frexp(a, &e);  // a = m * 2^e, 0.5 <= m < 1
    uint32_t bits;
    if (e >= -13) {  // normal half: 2^-14 <= a
        REQUIRE(e <= 16);
        const float mant = std::ldexp(m, 11) - 1024.0f;  // 10 fraction bits
        REQUIRE(mant == std::floor(mant));
        bits = uint32_t(e + 14) << 10 | uint32_t(mant);
    } else {  // subnormal: multiple of 2^-24
        const float q = std::ldexp(a, 24);
        REQUIRE(q == std::floor(q));
        bits = uint32_t(q);
    }
    return uint16_t(sign | bits);
}

}  // namespace texdec_test

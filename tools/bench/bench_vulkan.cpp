// The benchmark's Vulkan device, buffers, images, ceiling kernels and timestamp timing.
#include "bench_vulkan.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "bench_copy.h"    // spirv_bench_copy (tools/bench/shaders/bench_copy.comp)
#include "bench_native.h"  // spirv_bench_native (tools/bench/shaders/bench_native.comp)

namespace bench {
namespace {

using vk_app::kValidationLayer;

void check(VkResult r, const char* what) {
    if (r != VK_SUCCESS)
        throw std::runtime_error(std::string(what) + " failed with VkResult " + std::to_string(int(r)));
}
// A vk_app call: names the Vulkan call that failed, and what for.
void check(VkResult r, const vk_app::Failure& failure, const char* what) {
    if (r != VK_SUCCESS) check(r, (std::string(failure.call ? failure.call : "?") + " (" + what + ")").c_str());
}

void compute_barrier(VkCommandBuffer cmd) {
    VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    b.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT;
    b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &b, 0,
                         nullptr, 0, nullptr);
}

}  // namespace

Timing timing_from(std::vector<double> ms) {
    Timing t;
    t.ms = std::move(ms);
    std::vector<double> sorted = t.ms;
    std::sort(sorted.begin(), sorted.end());
    const size_t n = sorted.size();
    t.median_ms = n == 0 ? 0.0 : n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    t.min_ms = *std::min_element(t.ms.begin(), t.ms.end());
    t.max_ms = *std::max_element(t.ms.begin(), t.ms.end());
    return t;
}

VKAPI_ATTR VkBool32 VKAPI_CALL Device::messenger_callback(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                          VkDebugUtilsMessageTypeFlagsEXT,
                                                          const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                          void* user) {
    auto* log = static_cast<ValidationLog*>(user);
    ++log->count;
    std::fprintf(stderr, "astc-gpu-decode bench: validation: %s\n",
                 data && data->pMessage ? data->pMessage : "(no text)");
    return VK_FALSE;
}

Device::Device(const Config& config) {
    if (volkInitialize() != VK_SUCCESS)
        throw std::runtime_error("the Vulkan loader (libvulkan.so.1) could not be loaded");
    create_instance(config.validate);
    pick_device(config.selector);
    create_device();
}

void Device::create_instance(bool validate) {
    VkDebugUtilsMessengerCreateInfoEXT messenger_info = vk_app::messenger_info(&Device::messenger_callback, &log_);
    const vk_app::SyncValidation sync(&messenger_info);

    std::vector<const char*> layers, extensions;
    bool have_features_ext = false;
    if (validate) {
        if (!vk_app::has_instance_layer(kValidationLayer))
            throw std::runtime_error(
                "--validate: VK_LAYER_KHRONOS_validation is not installed (Debian: vulkan-validationlayers)");
        layers.push_back(kValidationLayer);
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        have_features_ext = vk_app::has_instance_extension(kValidationLayer, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
        if (have_features_ext) extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
    }
    uint32_t loader_version = VK_API_VERSION_1_0;
    if (vkEnumerateInstanceVersion) vkEnumerateInstanceVersion(&loader_version);
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "astc-gpu-decode bench";
    // 1.2 where the loader has it (VkPhysicalDeviceDriverProperties names the driver); texdec needs 1.1.
    app.apiVersion = loader_version >= VK_API_VERSION_1_2 ? VK_API_VERSION_1_2 : VK_API_VERSION_1_1;
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pNext = validate ? (have_features_ext ? static_cast<const void*>(&sync.features) : &messenger_info) : nullptr;
    ici.pApplicationInfo = &app;
    ici.enabledLayerCount = uint32_t(layers.size());
    ici.ppEnabledLayerNames = layers.data();
    ici.enabledExtensionCount = uint32_t(extensions.size());
    ici.ppEnabledExtensionNames = extensions.data();
    const VkResult r = vkCreateInstance(&ici, nullptr, &instance_);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
        throw std::runtime_error("no Vulkan device: vkCreateInstance found no driver (VK_ERROR_INCOMPATIBLE_DRIVER)");
    check(r, "vkCreateInstance");
    volkLoadInstance(instance_);
    if (validate)
        check(vkCreateDebugUtilsMessengerEXT(instance_, &messenger_info, nullptr, &messenger_),
              "vkCreateDebugUtilsMessengerEXT");
}

void Device::pick_device(const std::string& selector_option) {
    // The library's policy (device_choice.h), so the bench measures the device texdec would pick;
    // a compute queue counts here only where it has timestamps (the family texdec's own context
    // would pick is the first with compute; on the GPUs we know that one has timestamps too).
    const vk_app::ChosenDevice chosen = vk_app::choose_device(
        instance_, selector_option.c_str(), [](VkPhysicalDevice pd) { return vk_app::compute_family(pd, true); });
    if (!chosen.physical) {
        const char* selector = chosen.selector;
        throw std::runtime_error("no Vulkan device with a compute queue with timestamps and VK_KHR_push_descriptor" +
                                 (selector ? " matching '" + std::string(selector) + "'" : std::string()) +
                                 (chosen.rejected.empty() ? std::string() : "; rejected:" + chosen.rejected));
    }
    physical_ = chosen.physical;
    family_ = vk_app::compute_family(physical_, true, &timestamp_bits_);
    properties_ = chosen.properties;
    vkGetPhysicalDeviceMemoryProperties(physical_, &memory_properties_);
    if (properties_.apiVersion >= VK_API_VERSION_1_2 && vkGetPhysicalDeviceProperties2) {
        VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
        VkPhysicalDeviceProperties2 props2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
        props2.pNext = &driver;
        vkGetPhysicalDeviceProperties2(physical_, &props2);
        driver_name_ = driver.driverName;
        driver_info_ = driver.driverInfo;
    }
}

void Device::create_device() {
    VkPhysicalDeviceFeatures supported{};
    vkGetPhysicalDeviceFeatures(physical_, &supported);
    // The native path samples compressed images: enable what the device has.
    enabled_features_.textureCompressionBC = supported.textureCompressionBC;
    enabled_features_.textureCompressionASTC_LDR = supported.textureCompressionASTC_LDR;
    enabled_features_.textureCompressionETC2 = supported.textureCompressionETC2;
    const char* exts[] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
    check(vk_app::create_device(physical_, family_, 1, exts, &enabled_features_, nullptr, &device_), "vkCreateDevice");
    volkLoadDevice(device_);
    vkGetDeviceQueue(device_, family_, 0, &queue_);
    VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    cpci.queueFamilyIndex = family_;
    cpci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    check(vkCreateCommandPool(device_, &cpci, nullptr, &pool_), "vkCreateCommandPool");
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    check(vkCreateFence(device_, &fci, nullptr, &fence_), "vkCreateFence");

    // Kernel layouts: binding 0 = storage buffer (copy) or sampled image (native), binding 1 = storage buffer.
    for (uint32_t k = 0; k < 2; ++k) {
        VkDescriptorSetLayoutBinding bindings[2] = {};
        bindings[0].binding = 0;
        bindings[0].descriptorType = k == 0 ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER : VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
        bindings[0].descriptorCount = 1;
        bindings[0].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
        bindings[1] = bindings[0];
        bindings[1].binding = 1;
        bindings[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
        dslci.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
        dslci.bindingCount = 2;
        dslci.pBindings = bindings;
        check(vkCreateDescriptorSetLayout(device_, &dslci, nullptr, &set_layouts_[k]), "vkCreateDescriptorSetLayout");
        VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 32};
        VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
        plci.setLayoutCount = 1;
        plci.pSetLayouts = &set_layouts_[k];
        plci.pushConstantRangeCount = 1;
        plci.pPushConstantRanges = &range;
        check(vkCreatePipelineLayout(device_, &plci, nullptr, &layouts_[k]), "vkCreatePipelineLayout");
        VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        smci.codeSize = k == 0 ? sizeof spirv_bench_copy : sizeof spirv_bench_native;
        smci.pCode = k == 0 ? spirv_bench_copy : spirv_bench_native;
        check(vkCreateShaderModule(device_, &smci, nullptr, &modules_[k]), "vkCreateShaderModule");
    }
}

Device::~Device() {
    if (device_) {
        vkDeviceWaitIdle(device_);
        for (auto& [key, p] : pipelines_) vkDestroyPipeline(device_, p, nullptr);
        for (uint32_t k = 0; k < 2; ++k) {
            if (modules_[k]) vkDestroyShaderModule(device_, modules_[k], nullptr);
            if (layouts_[k]) vkDestroyPipelineLayout(device_, layouts_[k], nullptr);
            if (set_layouts_[k]) vkDestroyDescriptorSetLayout(device_, set_layouts_[k], nullptr);
        }
        if (fence_) vkDestroyFence(device_, fence_, nullptr);
        if (pool_) vkDestroyCommandPool(device_, pool_, nullptr);
        vkDestroyDevice(device_, nullptr);
    }
    if (messenger_) vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
    if (instance_) vkDestroyInstance(instance_, nullptr);
}

bool Device::can_sample(VkFormat format) const {
    VkFormatProperties props{};
    vkGetPhysicalDeviceFormatProperties(physical_, format, &props);
    const VkFormatFeatureFlags need = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    if ((props.optimalTilingFeatures & need) != need) return false;
    if (format >= VK_FORMAT_BC1_RGB_UNORM_BLOCK && format <= VK_FORMAT_BC7_SRGB_BLOCK)
        return enabled_features_.textureCompressionBC;
    if (format >= VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK && format <= VK_FORMAT_EAC_R11G11_SNORM_BLOCK)
        return enabled_features_.textureCompressionETC2;
    if (format >= VK_FORMAT_ASTC_4x4_UNORM_BLOCK && format <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK)
        return enabled_features_.textureCompressionASTC_LDR;
    return false;
}

Buffer Device::create_buffer(VkDeviceSize size) {
    Buffer b;
    vk_app::Failure failure;
    check(vk_app::create_buffer(
              device_, memory_properties_, size,
              VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
              0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, false, &b, &failure),
          failure, "device-local buffer");
    return b;
}

Buffer Device::create_host_buffer(VkDeviceSize size, bool cached) {
    // System memory (not device-local) where there is some: the copies then cross the bus.
    const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT,
                                preferred =
                                    cached ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT : VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    const auto pick = [&](const VkMemoryRequirements& req) {
        for (const VkMemoryPropertyFlags want : {host | preferred, host})
            for (uint32_t i = 0; i < memory_properties_.memoryTypeCount; ++i) {
                const VkMemoryPropertyFlags f = memory_properties_.memoryTypes[i].propertyFlags;
                if ((req.memoryTypeBits & (1u << i)) && (f & want) == want &&
                    !(f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
                    return i;
            }
        return vk_app::memory_type(memory_properties_, req.memoryTypeBits, host);
    };
    Buffer b;
    vk_app::Failure failure;
    check(vk_app::create_buffer(device_, memory_properties_, size,
                                VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, host, 0, false, &b,
                                &failure, pick),
          failure, "host-visible buffer");
    return b;
}

void Device::destroy(Buffer& b) { vk_app::destroy(device_, b); }

VkCommandBuffer Device::begin_commands() {
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    vk_app::Failure failure;
    check(vk_app::begin_commands(device_, pool_, 0, &cmd, &failure), failure, "bench commands");
    return cmd;
}

void Device::submit_and_wait(VkCommandBuffer cmd) {
    vk_app::Failure failure;
    check(vk_app::submit_and_wait(device_, queue_, cmd, fence_, &failure), failure, "bench commands");
}

void Device::run_once(const std::function<void(VkCommandBuffer)>& record) {
    VkCommandBuffer cmd = begin_commands();
    record(cmd);
    check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
    submit_and_wait(cmd);
    vkFreeCommandBuffers(device_, pool_, 1, &cmd);
}

void Device::upload(const Buffer& dst, const void* data, VkDeviceSize bytes) {
    // Staging buffer in host-visible memory, one copy.
    Buffer staging;
    vk_app::Failure failure;
    check(vk_app::create_buffer(
              device_, memory_properties_, std::max<VkDeviceSize>(bytes, 4), VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
              VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0, true, &staging, &failure),
          failure, "staging");
    std::memcpy(staging.mapped, data, bytes);
    run_once([&](VkCommandBuffer cmd) {
        VkBufferCopy region{0, 0, bytes};
        vkCmdCopyBuffer(cmd, staging.buffer, dst.buffer, 1, &region);
        VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &b, 0,
                             nullptr, 0, nullptr);
    });
    destroy(staging);
}

Image Device::create_compressed_image(VkFormat format, uint32_t width, uint32_t height, const void* blocks,
                                      VkDeviceSize bytes) {
    Image img;
    const VkImageCreateInfo ici =
        vk_app::image_info_2d(format, width, height, 1, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    vk_app::Failure failure;
    check(vk_app::create_image(device_, memory_properties_, ici, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &img, &failure),
          failure, "compressed image");
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = img.image;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = format;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    check(vkCreateImageView(device_, &vci, nullptr, &img.view), "vkCreateImageView");

    Buffer src = create_buffer(bytes);
    upload(src, blocks, bytes);
    run_once([&](VkCommandBuffer cmd) {
        const VkImageMemoryBarrier to_dst =
            vk_app::image_barrier(img.image, 1, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                                  VK_ACCESS_TRANSFER_WRITE_BIT);
        // The upload's barrier made the buffer visible to compute; the copy reads it in transfer.
        VkMemoryBarrier buffer_ready{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT,
                                     VK_ACCESS_TRANSFER_READ_BIT};
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &buffer_ready, 0, nullptr, 1, &to_dst);
        const VkBufferImageCopy region = vk_app::whole_image(width, height, 1);
        vkCmdCopyBufferToImage(cmd, src.buffer, img.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        const VkImageMemoryBarrier to_read = vk_app::image_barrier(
            img.image, 1, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
            VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT);
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, nullptr,
                             0, nullptr, 1, &to_read);
    });
    destroy(src);
    return img;
}

Image Device::create_image(const VkImageCreateInfo& info) {
    Image img;
    vk_app::Failure failure;
    check(vk_app::create_image(device_, memory_properties_, info, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &img, &failure),
          failure, "image");
    return img;
}

void Device::destroy(Image& img) { vk_app::destroy(device_, img); }

VkPipeline Device::pipeline(uint32_t which, const std::vector<uint32_t>& constants) {
    auto key = std::make_pair(which, constants);
    if (auto it = pipelines_.find(key); it != pipelines_.end()) return it->second;
    std::vector<VkSpecializationMapEntry> entries(constants.size());
    for (uint32_t i = 0; i < constants.size(); ++i) entries[i] = {i, uint32_t(i * sizeof(uint32_t)), sizeof(uint32_t)};
    VkSpecializationInfo spec{uint32_t(entries.size()), entries.data(), constants.size() * sizeof(uint32_t),
                              constants.data()};
    VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpci.stage.module = modules_[which];
    cpci.stage.pName = "main";
    cpci.stage.pSpecializationInfo = &spec;
    cpci.layout = layouts_[which];
    VkPipeline p = VK_NULL_HANDLE;
    check(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &cpci, nullptr, &p),
          "vkCreateComputePipelines (bench kernel)");
    pipelines_[key] = p;
    return p;
}

void Device::record_copy(VkCommandBuffer cmd, const Buffer& src, VkDeviceSize in_bytes, const Buffer& dst,
                         VkDeviceSize out_bytes, uint32_t bytes_per_block, uint32_t out_bytes_per_block, uint32_t group,
                         uint32_t words_per_thread, bool interleaved) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE,
                      pipeline(0, {words_per_thread, interleaved ? 1u : 0u, group}));
    // Chunks of whole blocks (a multiple of 256, so every offset is 256-byte aligned), each within
    // maxStorageBufferRange and small enough that the shader's 32-bit index arithmetic holds.
    const VkDeviceSize range = properties_.limits.maxStorageBufferRange;
    const VkDeviceSize limit = std::min<VkDeviceSize>(range, VkDeviceSize(1) << 29);
    const uint64_t total_blocks = in_bytes / bytes_per_block;
    uint64_t chunk = std::min<uint64_t>(limit / out_bytes_per_block, limit / bytes_per_block) / 256 * 256;
    chunk = std::max<uint64_t>(chunk, 256);
    for (uint64_t b0 = 0; b0 < total_blocks; b0 += chunk) {
        const uint64_t n = std::min(chunk, total_blocks - b0);
        const VkDeviceSize in_off = b0 * bytes_per_block, out_off = b0 * out_bytes_per_block;
        const VkDeviceSize in_len = n * bytes_per_block;
        const VkDeviceSize out_len = std::min<VkDeviceSize>(n * out_bytes_per_block, out_bytes - out_off);
        const VkDeviceSize out_len16 = (out_len + 15) / 16 * 16;
        VkDescriptorBufferInfo infos[2] = {{src.buffer, in_off, in_len}, {dst.buffer, out_off, out_len16}};
        VkWriteDescriptorSet writes[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET},
                                          {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
        for (uint32_t i = 0; i < 2; ++i) {
            writes[i].dstBinding = i;
            writes[i].descriptorCount = 1;
            writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
            writes[i].pBufferInfo = &infos[i];
        }
        vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layouts_[0], 0, 2, writes);
        const uint32_t vec4s = uint32_t(out_len16 / 16);
        const uint64_t words_per_group = uint64_t(group) * words_per_thread;
        const uint64_t groups = (uint64_t(vec4s) * 4 + words_per_group - 1) / words_per_group;
        const uint32_t groups_x = uint32_t(std::min<uint64_t>(groups, 65535));
        const uint32_t groups_y = uint32_t((groups + groups_x - 1) / groups_x);
        const uint32_t pc[5] = {vec4s, uint32_t(in_len / 4), bytes_per_block, out_bytes_per_block, groups_x};
        vkCmdPushConstants(cmd, layouts_[0], VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, pc);
        vkCmdDispatch(cmd, groups_x, groups_y, 1);
    }
}

void Device::record_native(VkCommandBuffer cmd, const Image& image, uint32_t width, uint32_t height, const Buffer& dst,
                           uint32_t store, bool is_signed, uint32_t tx, uint32_t ty, uint32_t wg_x, uint32_t wg_y) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE,
                      pipeline(1, {wg_x, wg_y, tx, ty, store, is_signed ? 1u : 0u}));
    const uint32_t texel_bytes = store == 0 ? 4 : store == 1 ? 8 : store == 2 ? 1 : 2;
    const VkDeviceSize row_bytes = VkDeviceSize(width) * texel_bytes;
    VkDescriptorImageInfo image_info{VK_NULL_HANDLE, image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    VkDescriptorBufferInfo buffer_info{
        dst.buffer, 0, std::min<VkDeviceSize>(row_bytes * height, properties_.limits.maxStorageBufferRange)};
    if (row_bytes * height > properties_.limits.maxStorageBufferRange)
        throw std::runtime_error("native path: the output exceeds maxStorageBufferRange; use a smaller --size");
    VkWriteDescriptorSet writes[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET},
                                      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
    writes[0].dstBinding = 0;
    writes[0].descriptorCount = 1;
    writes[0].descriptorType = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
    writes[0].pImageInfo = &image_info;
    writes[1].dstBinding = 1;
    writes[1].descriptorCount = 1;
    writes[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[1].pBufferInfo = &buffer_info;
    vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layouts_[1], 0, 2, writes);
    const uint32_t pc[3] = {width, height, uint32_t(row_bytes / 4)};
    vkCmdPushConstants(cmd, layouts_[1], VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, pc);
    const uint32_t threads_x = (width + tx - 1) / tx, threads_y = (height + ty - 1) / ty;
    vkCmdDispatch(cmd, (threads_x + wg_x - 1) / wg_x, (threads_y + wg_y - 1) / wg_y, 1);
}

Timing Device::time(const std::function<void(VkCommandBuffer)>& record, uint32_t iterations, uint32_t warmup_ms) {
    iterations = std::max(iterations, 1u);
    VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qpci.queryCount = 2 * iterations;
    VkQueryPool pool = VK_NULL_HANDLE;
    check(vkCreateQueryPool(device_, &qpci, nullptr, &pool), "vkCreateQueryPool");
    const uint64_t mask = timestamp_bits_ >= 64 ? ~uint64_t(0) : (uint64_t(1) << timestamp_bits_) - 1;
    const double period_ns = properties_.limits.timestampPeriod;

    // `count` repetitions, timestamps around each when `stamped`.
    auto run = [&](uint32_t count, bool stamped) {
        VkCommandBuffer cmd = begin_commands();
        if (stamped) vkCmdResetQueryPool(cmd, pool, 0, 2 * count);
        for (uint32_t i = 0; i < count; ++i) {
            compute_barrier(cmd);  // the previous repetition (or the setup) has finished writing
            if (stamped) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 2 * i);
            record(cmd);
            if (stamped) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 2 * i + 1);
        }
        compute_barrier(cmd);
        check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
        submit_and_wait(cmd);
        vkFreeCommandBuffers(device_, pool_, 1, &cmd);
        std::vector<double> ms;
        if (stamped) {
            std::vector<uint64_t> ticks(2 * count);
            check(vkGetQueryPoolResults(device_, pool, 0, 2 * count, ticks.size() * sizeof(uint64_t), ticks.data(),
                                        sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                  "vkGetQueryPoolResults");
            for (uint32_t i = 0; i < count; ++i)
                ms.push_back(double((ticks[2 * i + 1] - ticks[2 * i]) & mask) * period_ns * 1e-6);
        }
        return ms;
    };

    // Warm-up: one timed repetition sizes the batches, then batches of back-to-back repetitions
    // (about 25 ms each) until warmup_ms have passed.
    const double one_ms = std::max(run(1, true)[0], 1e-3);
    const uint32_t batch = uint32_t(std::clamp(25.0 / one_ms, 1.0, 2000.0));
    const auto start = std::chrono::steady_clock::now();
    while (std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() < warmup_ms)
        run(batch, false);

    const Timing t = timing_from(run(iterations, true));
    vkDestroyQueryPool(device_, pool, nullptr);
    return t;
}

}  // namespace bench

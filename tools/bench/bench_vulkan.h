// The benchmark's own Vulkan device (through volk) and what it records: buffers, BC images, the
// ceiling kernels, and timing of any recorded kernel with timestamp queries.
#pragma once

#include "vk_app.h"  // tools/vk_app: buffers, images, device choice, one-shot submission

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace bench {

using Buffer = vk_app::Buffer;  // mapped stays nullptr: the bench maps none it keeps
using Image = vk_app::Image;

// Per-dispatch durations of one measured kernel, in milliseconds.
struct Timing {
    std::vector<double> ms;  // in the order they ran
    double median_ms = 0, min_ms = 0, max_ms = 0;
};
// The median, minimum and maximum of per-dispatch durations (at least one).
Timing timing_from(std::vector<double> ms);

// What the validation layer reported (--validate).
struct ValidationLog {
    std::atomic<uint32_t> count{0};
};

class Device : public vk_app::DeviceHandles {
public:
    struct Config {
        std::string selector;  // "" = TEXDEC_DEVICE, else by type (discrete, integrated, virtual, CPU)
        bool validate = false;
    };
    explicit Device(const Config& config);  // throws std::runtime_error
    ~Device();
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    const std::string& driver_name() const { return driver_name_; }  // VkPhysicalDeviceDriverProperties, "" if unknown
    const std::string& driver_info() const { return driver_info_; }
    uint32_t timestamp_bits() const { return timestamp_bits_; }
    uint32_t validation_messages() const { return log_.count.load(); }
    // The compressed format can be sampled (feature enabled, SAMPLED_IMAGE + TRANSFER_DST, optimal tiling).
    bool can_sample(VkFormat format) const;

    // Device-local storage buffer (also transfer source and destination).
    Buffer create_buffer(VkDeviceSize size);
    // Host-visible transfer source/destination buffer (cached memory preferred where `cached`, as
    // texdec_decode's readback buffer; coherent otherwise, as its upload buffer). The one-call
    // section times copies between these and device-local buffers: the bus transfer of its bytes.
    Buffer create_host_buffer(VkDeviceSize size, bool cached);
    void destroy(Buffer& buffer);
    // Copies `bytes` into `dst` through a staging buffer; waits.
    void upload(const Buffer& dst, const void* data, VkDeviceSize bytes);
    // A 2D image of a compressed format with the blocks copied in, in SHADER_READ_ONLY_OPTIMAL.
    Image create_compressed_image(VkFormat format, uint32_t width, uint32_t height, const void* blocks,
                                  VkDeviceSize bytes);
    // Any image (an atlas the bench decodes into), in device-local memory where there is some; no view.
    Image create_image(const VkImageCreateInfo& info);
    void destroy(Image& image);

    // Records into one command buffer, submits, waits (60 s).
    void run_once(const std::function<void(VkCommandBuffer)>& record);

    // Times `record` (one dispatch or a few): back-to-back repetitions for at least warmup_ms, then
    // `iterations` repetitions each bracketed with timestamps, a compute->compute barrier between
    // repetitions.
    Timing time(const std::function<void(VkCommandBuffer)>& record, uint32_t iterations, uint32_t warmup_ms);

    // ---- the ceiling kernels (src/cli/shaders) -------------------------------------------------
    // Memory-bound copy: reads `in_bytes` from src, writes `out_bytes` (a multiple of 16 is
    // written; dst must hold it) to dst. bytes_per_block/out_bytes_per_block relate the two.
    // group: invocations per workgroup; words_per_thread: 1 or a multiple of 4.
    void record_copy(VkCommandBuffer cmd, const Buffer& src, VkDeviceSize in_bytes, const Buffer& dst,
                     VkDeviceSize out_bytes, uint32_t bytes_per_block, uint32_t out_bytes_per_block, uint32_t group,
                     uint32_t words_per_thread, bool interleaved);
    // Native path: texelFetch from `image` and store (STORE kind 0 RGBA8, 1 RGBA16F, 2 R8, 3 RG8).
    void record_native(VkCommandBuffer cmd, const Image& image, uint32_t width, uint32_t height, const Buffer& dst,
                       uint32_t store, bool is_signed, uint32_t tx, uint32_t ty, uint32_t wg_x, uint32_t wg_y);

private:
    void create_instance(bool validate);
    void pick_device(const std::string& selector);
    void create_device();
    VkCommandBuffer begin_commands();
    void submit_and_wait(VkCommandBuffer cmd);
    VkPipeline pipeline(uint32_t which, const std::vector<uint32_t>& constants);
    static VKAPI_ATTR VkBool32 VKAPI_CALL messenger_callback(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                             VkDebugUtilsMessageTypeFlagsEXT,
                                                             const VkDebugUtilsMessengerCallbackDataEXT*, void*);

    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkPhysicalDeviceFeatures enabled_features_{};
    std::string driver_name_, driver_info_;
    uint32_t timestamp_bits_ = 0;
    VkFence fence_ = VK_NULL_HANDLE;
    // Kernels: 0 copy (storage, storage), 1 native (sampled image, storage). Push descriptors.
    VkDescriptorSetLayout set_layouts_[2] = {};
    VkPipelineLayout layouts_[2] = {};
    VkShaderModule modules_[2] = {};
    std::map<std::pair<uint32_t, std::vector<uint32_t>>, VkPipeline> pipelines_;
    ValidationLog log_;
};

}  // namespace bench

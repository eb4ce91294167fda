// The application side of Vulkan that the bench (tools/bench) and the GPU tests (tests/gpu) share:
// what a program that hands texdec its own device writes around it. Layer and extension queries,
// the validation messenger and synchronization validation, the device texdec itself would pick
// (src/device_choice.h), memory types, buffers and images with their memory, and one-shot command
// submission. Calls go through volk's global pointers (the program calls volkInitialize,
// volkLoadInstance and volkLoadDevice). Nothing here throws or asserts: each call returns the
// VkResult (and names the Vulkan call that failed), so the bench throws and the tests REQUIRE.
#pragma once

#include <volk.h>

#include <cstdint>
#include <functional>
#include <string>

namespace vk_app {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";
constexpr uint64_t kWaitNs = 60ull * 1000 * 1000 * 1000;  // one-shot submissions wait 60 s

// ---- layers and extensions ----------------------------------------------------------------------

bool has_instance_layer(const char* layer);
// An instance extension that `layer` offers (nullptr: the loader and the implicit layers).
bool has_instance_extension(const char* layer, const char* extension);
bool has_device_extension(VkPhysicalDevice physical, const char* extension);

// ---- validation ---------------------------------------------------------------------------------

// A debug-utils messenger for warnings and errors of the general, validation and performance kinds.
VkDebugUtilsMessengerCreateInfoEXT messenger_info(PFN_vkDebugUtilsMessengerCallbackEXT callback, void* user_data);

// VkValidationFeaturesEXT enabling synchronization validation, chained before `next` (the
// messenger's create info, to report what instance creation finds). It points into itself: not
// copyable.
struct SyncValidation {
    VkValidationFeatureEnableEXT enable = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    explicit SyncValidation(const void* next) {
        features.enabledValidationFeatureCount = 1;
        features.pEnabledValidationFeatures = &enable;
        features.pNext = next;
    }
    SyncValidation(const SyncValidation&) = delete;
    SyncValidation& operator=(const SyncValidation&) = delete;
};

// ---- the device ---------------------------------------------------------------------------------

// The first queue family with compute (and with timestamps where `timestamps`; its valid bits go
// to *timestamp_bits); UINT32_MAX where there is none.
uint32_t compute_family(VkPhysicalDevice physical, bool timestamps = false, uint32_t* timestamp_bits = nullptr);

// The device of texdec's own policy (src/device_choice.h): the selector (`given`, else
// TEXDEC_DEVICE), else discrete, integrated, virtual, CPU; Vulkan 1.1, VK_KHR_push_descriptor and a
// queue family that `family_of` finds (UINT32_MAX: none).
struct ChosenDevice {
    VkPhysicalDevice physical = VK_NULL_HANDLE;  // VK_NULL_HANDLE: none
    uint32_t family = UINT32_MAX;
    VkPhysicalDeviceProperties properties{};
    uint32_t count = 0;              // devices enumerated
    const char* selector = nullptr;  // the selector in effect, nullptr for none
    std::string rejected;            // " NAME (why)" for each device the selector allows but texdec cannot use
};
ChosenDevice choose_device(VkInstance instance, const char* given_selector,
                           const std::function<uint32_t(VkPhysicalDevice)>& family_of);

// A device with one queue of `family` (priority 1), `extension_count` extensions, `features`
// (nullptr: none) and `next` chained on its VkDeviceCreateInfo.
VkResult create_device(VkPhysicalDevice physical, uint32_t family, uint32_t extension_count,
                       const char* const* extensions, const VkPhysicalDeviceFeatures* features, const void* next,
                       VkDevice* device);

// The handles of a program's own device, for the classes that own one (the bench's Device, the
// tests' VulkanTestDevice): they create and destroy them, this gives them out.
class DeviceHandles {
public:
    VkInstance instance() const { return instance_; }
    VkPhysicalDevice physical_device() const { return physical_; }
    VkDevice device() const { return device_; }
    VkQueue queue() const { return queue_; }
    uint32_t queue_family() const { return family_; }
    const VkPhysicalDeviceProperties& properties() const { return properties_; }

protected:
    VkInstance instance_ = VK_NULL_HANDLE;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    VkPhysicalDeviceProperties properties_{};
    VkPhysicalDeviceMemoryProperties memory_properties_{};
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    uint32_t family_ = 0;
    VkCommandPool pool_ = VK_NULL_HANDLE;
};

// ---- memory, buffers, images --------------------------------------------------------------------

// The first memory type of `type_bits` with all of `flags`; UINT32_MAX where there is none.
uint32_t memory_type(const VkPhysicalDeviceMemoryProperties& memory, uint32_t type_bits, VkMemoryPropertyFlags flags);
// One with `required` and `preferred` flags where there is one, else one with `required`.
uint32_t memory_type(const VkPhysicalDeviceMemoryProperties& memory, uint32_t type_bits, VkMemoryPropertyFlags required,
                     VkMemoryPropertyFlags preferred);

// Where a call failed: the Vulkan function's name (nullptr after success).
struct Failure {
    const char* call = nullptr;
};

// Allocates `req` from `type` (UINT32_MAX: VK_ERROR_OUT_OF_DEVICE_MEMORY, no call).
VkResult allocate(VkDevice device, const VkMemoryRequirements& req, uint32_t type, VkDeviceMemory* memory,
                  Failure* failure);

struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    uint8_t* mapped = nullptr;  // where created mapped: the whole buffer, persistently
    VkDeviceSize size = 0;
};
// A buffer with memory of its own (a type with `required` flags, one with `preferred` flags too
// where there is one; `pick`, where given, chooses instead), bound, and mapped where `map`. On
// failure nothing is left created.
VkResult create_buffer(VkDevice device, const VkPhysicalDeviceMemoryProperties& memory, VkDeviceSize size,
                       VkBufferUsageFlags usage, VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred,
                       bool map, Buffer* buffer, Failure* failure,
                       const std::function<uint32_t(const VkMemoryRequirements&)>& pick = {});
void destroy(VkDevice device, Buffer& buffer);

struct Image {
    VkImage image = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;  // created by the caller, destroyed by destroy()
};
// An image of `info` with memory of its own (`preferred` flags where a type has them), bound. On
// failure nothing is left created.
VkResult create_image(VkDevice device, const VkPhysicalDeviceMemoryProperties& memory, const VkImageCreateInfo& info,
                      VkMemoryPropertyFlags preferred, Image* image, Failure* failure);
void destroy(VkDevice device, Image& image);

// The create info of a 2D image of `layers` layers: one mip level, one sample, optimal tiling,
// UNDEFINED initial layout.
VkImageCreateInfo image_info_2d(VkFormat format, uint32_t width, uint32_t height, uint32_t layers,
                                VkImageUsageFlags usage, VkImageCreateFlags flags = 0);

// ---- commands -----------------------------------------------------------------------------------

// A barrier for mip level 0, layers [0, layers) of a colour image, no queue family transfer.
VkImageMemoryBarrier image_barrier(VkImage image, uint32_t layers, VkImageLayout from, VkImageLayout to,
                                   VkAccessFlags src, VkAccessFlags dst);
// A copy of mip level 0, layers [0, layers) of a width x height colour image from or to tightly
// packed texels at buffer offset 0.
VkBufferImageCopy whole_image(uint32_t width, uint32_t height, uint32_t layers);

// ---- one-shot commands --------------------------------------------------------------------------

// Allocates a primary command buffer from `pool` and begins it with `flags`.
VkResult begin_commands(VkDevice device, VkCommandPool pool, VkCommandBufferUsageFlags flags, VkCommandBuffer* cmd,
                        Failure* failure);
// Submits the ended `cmd` to `queue` and waits kWaitNs for `fence` (reset first), or, where `fence`
// is VK_NULL_HANDLE, for a fence created and destroyed here.
VkResult submit_and_wait(VkDevice device, VkQueue queue, VkCommandBuffer cmd, VkFence fence, Failure* failure);

}  // namespace vk_app

// Per-context Vulkan function tables, loaded through the vkGetInstanceProcAddr the context was
// given (own context: the loader's, from vulkan_loader.cpp). No global dispatch state.
#pragma once
#include <vulkan/vulkan_core.h>

namespace texdec {

#define TEXDEC_INSTANCE_FUNCTIONS(X)            \
    X(vkDestroyInstance)                        \
    X(vkEnumeratePhysicalDevices)               \
    X(vkGetPhysicalDeviceProperties)            \
    X(vkGetPhysicalDeviceQueueFamilyProperties) \
    X(vkGetPhysicalDeviceMemoryProperties)      \
    X(vkGetPhysicalDeviceFormatProperties)      \
    X(vkGetPhysicalDeviceImageFormatProperties) \
    X(vkEnumerateDeviceExtensionProperties)     \
    X(vkCreateDevice)                           \
    X(vkGetDeviceProcAddr)

// VK_EXT_debug_utils, an instance extension: optional. vkGetInstanceProcAddr returns NULL for a
// command of an instance extension the instance did not enable (the spec's vkGetInstanceProcAddr
// table: "any other case, not covered above: NULL"; the Khronos loader checks the instance's
// enabled extensions for every VK_EXT_debug_utils command), so non-NULL means usable.
#define TEXDEC_DEBUG_UTILS_FUNCTIONS(X)  \
    X(vkCreateDebugUtilsMessengerEXT)    \
    X(vkDestroyDebugUtilsMessengerEXT)   \
    X(vkSetDebugUtilsObjectNameEXT)      \
    X(vkCmdBeginDebugUtilsLabelEXT)      \
    X(vkCmdEndDebugUtilsLabelEXT)

#define TEXDEC_DEVICE_FUNCTIONS(X)    \
    X(vkDestroyDevice)                \
    X(vkGetDeviceQueue)               \
    X(vkDeviceWaitIdle)               \
    X(vkCreateShaderModule)           \
    X(vkDestroyShaderModule)          \
    X(vkCreateDescriptorSetLayout)    \
    X(vkDestroyDescriptorSetLayout)   \
    X(vkCreatePipelineLayout)         \
    X(vkDestroyPipelineLayout)        \
    X(vkCreateComputePipelines)       \
    X(vkDestroyPipeline)              \
    X(vkCreatePipelineCache)          \
    X(vkDestroyPipelineCache)         \
    X(vkCreateBuffer)                 \
    X(vkDestroyBuffer)                \
    X(vkGetBufferMemoryRequirements)  \
    X(vkAllocateMemory)               \
    X(vkFreeMemory)                   \
    X(vkBindBufferMemory)             \
    X(vkCreateBufferView)             \
    X(vkCreateImageView)              \
    X(vkDestroyImageView)             \
    X(vkDestroyBufferView)            \
    X(vkMapMemory)                    \
    X(vkUnmapMemory)                  \
    X(vkFlushMappedMemoryRanges)      \
    X(vkInvalidateMappedMemoryRanges) \
    X(vkCreateCommandPool)            \
    X(vkDestroyCommandPool)           \
    X(vkResetCommandPool)             \
    X(vkAllocateCommandBuffers)       \
    X(vkBeginCommandBuffer)           \
    X(vkEndCommandBuffer)             \
    X(vkCreateFence)                  \
    X(vkDestroyFence)                 \
    X(vkResetFences)                  \
    X(vkWaitForFences)                \
    X(vkQueueSubmit)                  \
    X(vkCmdBindPipeline)              \
    X(vkCmdPushConstants)             \
    X(vkCmdDispatch)                  \
    X(vkCmdPipelineBarrier)           \
    X(vkCmdCopyBuffer)                \
    X(vkCmdUpdateBuffer)              \
    X(vkCreateQueryPool)              \
    X(vkDestroyQueryPool)             \
    X(vkCmdResetQueryPool)            \
    X(vkCmdWriteTimestamp)            \
    X(vkGetQueryPoolResults)

// VK_KHR_push_descriptor: optional at load time. vkGetDeviceProcAddr returns NULL for a command
// of a device extension the device did not enable (the spec's vkGetDeviceProcAddr table), so NULL
// means the context cannot record (DeviceFacts::push_descriptor; support.cpp says why).
#define TEXDEC_PUSH_DESCRIPTOR_FUNCTIONS(X) X(vkCmdPushDescriptorSetKHR)

#define TEXDEC_DECLARE_PFN(name) PFN_##name name = nullptr;

struct InstanceFunctions {
    TEXDEC_INSTANCE_FUNCTIONS(TEXDEC_DECLARE_PFN)
    TEXDEC_DEBUG_UTILS_FUNCTIONS(TEXDEC_DECLARE_PFN)
};

struct DeviceFunctions {
    TEXDEC_DEVICE_FUNCTIONS(TEXDEC_DECLARE_PFN)
    TEXDEC_PUSH_DESCRIPTOR_FUNCTIONS(TEXDEC_DECLARE_PFN)
};

// Each loads its functions through `get` and returns the name of the first missing required one
// (nullptr if all are there). Debug-utils and push-descriptor functions are optional.
#define TEXDEC_LOAD_REQUIRED(name)                             \
    f.name = reinterpret_cast<PFN_##name>(get(handle, #name)); \
    if (!f.name) return #name;
#define TEXDEC_LOAD_OPTIONAL(name) f.name = reinterpret_cast<PFN_##name>(get(handle, #name));
inline const char* load_instance_functions(PFN_vkGetInstanceProcAddr get, VkInstance handle, InstanceFunctions& f) {
    TEXDEC_INSTANCE_FUNCTIONS(TEXDEC_LOAD_REQUIRED)
    TEXDEC_DEBUG_UTILS_FUNCTIONS(TEXDEC_LOAD_OPTIONAL)
    return nullptr;
}
inline const char* load_device_functions(PFN_vkGetDeviceProcAddr get, VkDevice handle, DeviceFunctions& f) {
    TEXDEC_DEVICE_FUNCTIONS(TEXDEC_LOAD_REQUIRED)
    TEXDEC_PUSH_DESCRIPTOR_FUNCTIONS(TEXDEC_LOAD_OPTIONAL)
    return nullptr;
}
#undef TEXDEC_LOAD_REQUIRED
#undef TEXDEC_LOAD_OPTIONAL

}  // namespace texdec

// The Vulkan loader, opened at run time (own contexts only). Our own few lines instead of volk, so
// the library defines no vk*/volk* symbols that would clash with an application's own volk.
#pragma once
#include <vulkan/vulkan_core.h>

namespace texdec {

struct VulkanLoader {
    void* library = nullptr;  // dlopen / LoadLibrary handle; close with close_vulkan_loader
    PFN_vkGetInstanceProcAddr get_instance_proc_addr = nullptr;
};

// Opens libvulkan.so.1 (then libvulkan.so; Windows: vulkan-1.dll). False, and nothing held, if
// neither loads or it lacks vkGetInstanceProcAddr. The environment variable
// TEXDEC_DEBUG_VULKAN_LOADER replaces the file name (the tests name a missing one to check that
// CPU and AUTO contexts need no loader).
bool open_vulkan_loader(VulkanLoader& out);
// The file name open_vulkan_loader tries first, for messages.
const char* vulkan_loader_name();
// Closes what open_vulkan_loader opened; a null handle is a no-op.
void close_vulkan_loader(void* library);

}  // namespace texdec

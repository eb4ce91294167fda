// The application-side Vulkan helper of the bench and the GPU tests (vk_app.h).
#include "vk_app.h"

#include <cstring>
#include <vector>

#include "device_choice.h"  // src/: the library's device policy

namespace vk_app {
namespace {

bool has_extension(const std::vector<VkExtensionProperties>& extensions, const char* name) {
    for (const auto& e : extensions)
        if (std::strcmp(e.extensionName, name) == 0) return true;
    return false;
}

// Records the failing call's name; passes the result on.
VkResult note(VkResult r, const char* call, Failure* failure) {
    if (r != VK_SUCCESS && failure) failure->call = call;
    return r;
}

}  // namespace

bool has_instance_layer(const char* layer) {
    uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, nullptr);
    std::vector<VkLayerProperties> layers(count);
    vkEnumerateInstanceLayerProperties(&count, layers.data());
    for (const auto& l : layers)
        if (std::strcmp(l.layerName, layer) == 0) return true;
    return false;
}

bool has_instance_extension(const char* layer, const char* extension) {
    uint32_t count = 0;
    vkEnumerateInstanceExtensionProperties(layer, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateInstanceExtensionProperties(layer, &count, extensions.data());
    return has_extension(extensions, extension);
}

bool has_device_extension(VkPhysicalDevice physical, const char* extension) {
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data());
    return has_extension(extensions, extension);
}

VkDebugUtilsMessengerCreateInfoEXT messenger_info(PFN_vkDebugUtilsMessengerCallbackEXT callback, void* user_data) {
    VkDebugUtilsMessengerCreateInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    info.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    info.pfnUserCallback = callback;
    info.pUserData = user_data;
    return info;
}

uint32_t compute_family(VkPhysicalDevice physical, bool timestamps, uint32_t* timestamp_bits) {
    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families.data());
    for (uint32_t i = 0; i < count; ++i)
        if ((families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && (!timestamps || families[i].timestampValidBits > 0)) {
            if (timestamp_bits) *timestamp_bits = families[i].timestampValidBits;
            return i;
        }
    return UINT32_MAX;
}

ChosenDevice choose_device(VkInstance instance, const char* given_selector,
                           const std::function<uint32_t(VkPhysicalDevice)>& family_of) {
    ChosenDevice result;
    vkEnumeratePhysicalDevices(instance, &result.count, nullptr);
    const uint32_t count = result.count;
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(instance, &result.count, devices.data());
    std::vector<VkPhysicalDeviceProperties> properties(count);
    std::vector<uint32_t> families(count);
    std::vector<texdec::DeviceCandidate> candidates(count);
    result.selector = texdec::device_selector(given_selector);
    for (uint32_t i = 0; i < count; ++i) {
        vkGetPhysicalDeviceProperties(devices[i], &properties[i]);
        families[i] = family_of(devices[i]);
        candidates[i] = {i, &properties[i], families[i] != UINT32_MAX,
                         has_device_extension(devices[i], VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME)};
        const bool selected =
            !result.selector || texdec::device_matches_selector(result.selector, i, properties[i].deviceName);
        if (const char* why = texdec::device_unusable_reason(candidates[i]); why && selected)
            result.rejected += std::string(" ") + properties[i].deviceName + " (" + why + ")";
    }
    const size_t chosen = texdec::choose_device(candidates.data(), count, result.selector);
    if (chosen != SIZE_MAX) {
        result.physical = devices[chosen];
        result.family = families[chosen];
        result.properties = properties[chosen];
    }
    return result;
}

VkResult create_device(VkPhysicalDevice physical, uint32_t family, uint32_t extension_count,
                       const char* const* extensions, const VkPhysicalDeviceFeatures* features, const void* next,
                       VkDevice* device) {
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.pNext = next;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = extension_count;
    dci.ppEnabledExtensionNames = extensions;
    dci.pEnabledFeatures = features;
    return vkCreateDevice(physical, &dci, nullptr, device);
}

uint32_t memory_type(const VkPhysicalDeviceMemoryProperties& memory, uint32_t type_bits, VkMemoryPropertyFlags flags) {
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i)
        if ((type_bits & (1u << i)) && (memory.memoryTypes[i].propertyFlags & flags) == flags) return i;
    return UINT32_MAX;
}

uint32_t memory_type(const VkPhysicalDeviceMemoryProperties& memory, uint32_t type_bits, VkMemoryPropertyFlags required,
                     VkMemoryPropertyFlags preferred) {
    const uint32_t type = memory_type(memory, type_bits, required | preferred);
    return type != UINT32_MAX ? type : memory_type(memory, type_bits, required);
}

VkResult allocate(VkDevice device, const VkMemoryRequirements& req, uint32_t type, VkDeviceMemory* memory,
                  Failure* failure) {
    if (type == UINT32_MAX) return note(VK_ERROR_OUT_OF_DEVICE_MEMORY, "vkAllocateMemory (no memory type)", failure);
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = type;
    return note(vkAllocateMemory(device, &mai, nullptr, memory), "vkAllocateMemory", failure);
}

VkResult create_buffer(VkDevice device, const VkPhysicalDeviceMemoryProperties& memory, VkDeviceSize size,
                       VkBufferUsageFlags usage, VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred,
                       bool map, Buffer* buffer, Failure* failure,
                       const std::function<uint32_t(const VkMemoryRequirements&)>& pick) {
    Buffer b;
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = size;
    bci.usage = usage;
    VkResult r = note(vkCreateBuffer(device, &bci, nullptr, &b.buffer), "vkCreateBuffer", failure);
    if (r == VK_SUCCESS) {
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(device, b.buffer, &req);
        const uint32_t type = pick ? pick(req) : memory_type(memory, req.memoryTypeBits, required, preferred);
        r = allocate(device, req, type, &b.memory, failure);
    }
    if (r == VK_SUCCESS) r = note(vkBindBufferMemory(device, b.buffer, b.memory, 0), "vkBindBufferMemory", failure);
    if (r == VK_SUCCESS && map) {
        void* mapped = nullptr;
        r = note(vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory", failure);
        b.mapped = static_cast<uint8_t*>(mapped);
    }
    b.size = size;
    if (r != VK_SUCCESS) destroy(device, b);
    *buffer = b;
    return r;
}

void destroy(VkDevice device, Buffer& buffer) {
    if (buffer.buffer) vkDestroyBuffer(device, buffer.buffer, nullptr);
    if (buffer.memory) vkFreeMemory(device, buffer.memory, nullptr);
    buffer = Buffer{};
}

VkResult create_image(VkDevice device, const VkPhysicalDeviceMemoryProperties& memory, const VkImageCreateInfo& info,
                      VkMemoryPropertyFlags preferred, Image* image, Failure* failure) {
    Image img;
    VkResult r = note(vkCreateImage(device, &info, nullptr, &img.image), "vkCreateImage", failure);
    if (r == VK_SUCCESS) {
        VkMemoryRequirements req;
        vkGetImageMemoryRequirements(device, img.image, &req);
        r = allocate(device, req, memory_type(memory, req.memoryTypeBits, 0, preferred), &img.memory, failure);
    }
    if (r == VK_SUCCESS) r = note(vkBindImageMemory(device, img.image, img.memory, 0), "vkBindImageMemory", failure);
    if (r != VK_SUCCESS) destroy(device, img);
    *image = img;
    return r;
}

void destroy(VkDevice device, Image& image) {
    if (image.view) vkDestroyImageView(device, image.view, nullptr);
    if (image.image) vkDestroyImage(device, image.image, nullptr);
    if (image.memory) vkFreeMemory(device, image.memory, nullptr);
    image = Image{};
}

VkImageCreateInfo image_info_2d(VkFormat format, uint32_t width, uint32_t height, uint32_t layers,
                                VkImageUsageFlags usage, VkImageCreateFlags flags) {
    return VkImageCreateInfo{.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                             .flags = flags,
                             .imageType = VK_IMAGE_TYPE_2D,
                             .format = format,
                             .extent = {width, height, 1},
                             .mipLevels = 1,
                             .arrayLayers = layers,
                             .samples = VK_SAMPLE_COUNT_1_BIT,
                             .tiling = VK_IMAGE_TILING_OPTIMAL,
                             .usage = usage,
                             .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED};
}

VkImageMemoryBarrier image_barrier(VkImage image, uint32_t layers, VkImageLayout from, VkImageLayout to,
                                   VkAccessFlags src, VkAccessFlags dst) {
    VkImageMemoryBarrier ib{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    ib.srcQueueFamilyIndex = ib.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    ib.image = image;
    ib.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, layers};
    ib.oldLayout = from;
    ib.newLayout = to;
    ib.srcAccessMask = src;
    ib.dstAccessMask = dst;
    return ib;
}

VkBufferImageCopy whole_image(uint32_t width, uint32_t height, uint32_t layers) {
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, layers};
    region.imageExtent = {width, height, 1};
    return region;
}

VkResult begin_commands(VkDevice device, VkCommandPool pool, VkCommandBufferUsageFlags flags, VkCommandBuffer* cmd,
                        Failure* failure) {
    VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbai.commandPool = pool;
    cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbai.commandBufferCount = 1;
    *cmd = VK_NULL_HANDLE;
    VkResult r = note(vkAllocateCommandBuffers(device, &cbai, cmd), "vkAllocateCommandBuffers", failure);
    if (r != VK_SUCCESS) return r;
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = flags;
    r = note(vkBeginCommandBuffer(*cmd, &begin), "vkBeginCommandBuffer", failure);
    if (r != VK_SUCCESS) {
        vkFreeCommandBuffers(device, pool, 1, cmd);
        *cmd = VK_NULL_HANDLE;
    }
    return r;
}

VkResult submit_and_wait(VkDevice device, VkQueue queue, VkCommandBuffer cmd, VkFence fence, Failure* failure) {
    VkFence own = VK_NULL_HANDLE;
    VkResult r = VK_SUCCESS;
    if (fence) {
        r = note(vkResetFences(device, 1, &fence), "vkResetFences", failure);
    } else {
        VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        r = note(vkCreateFence(device, &fci, nullptr, &own), "vkCreateFence", failure);
        fence = own;
    }
    if (r == VK_SUCCESS) {
        VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cmd;
        r = note(vkQueueSubmit(queue, 1, &si, fence), "vkQueueSubmit", failure);
    }
    if (r == VK_SUCCESS) r = note(vkWaitForFences(device, 1, &fence, VK_TRUE, kWaitNs), "vkWaitForFences", failure);
    if (own) vkDestroyFence(device, own, nullptr);
    return r;
}

}  // namespace vk_app

// Which physical device texdec decodes on when it picks one itself: the policy of
// texdec_context_create (context.cpp), also used by the bench and the test fixture so that all
// three pick the same device. Pure functions over facts the caller gathered: no Vulkan call here.
#pragma once
#include <vulkan/vulkan_core.h>

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "test_hooks.h"

namespace texdec {

// One physical device, in vkEnumeratePhysicalDevices order.
struct DeviceCandidate {
    uint32_t index = 0;
    const VkPhysicalDeviceProperties* properties = nullptr;
    bool has_compute_queue = false;    // a queue family with VK_QUEUE_COMPUTE_BIT
    bool has_push_descriptor = false;  // offers VK_KHR_push_descriptor
};

// Why texdec cannot use a device, or nullptr if it can: Vulkan 1.1, a compute queue and
// VK_KHR_push_descriptor.
inline const char* device_unusable_reason(const DeviceCandidate& c) {
    if (c.properties->apiVersion < VK_API_VERSION_1_1) return "Vulkan 1.1 is required";
    if (!c.has_compute_queue) return "no compute queue";
    if (!c.has_push_descriptor) return "no VK_KHR_push_descriptor";
    return nullptr;
}

// Preference without a selector: discrete, integrated, virtual GPU, CPU (lavapipe), other.
inline int device_type_rank(VkPhysicalDeviceType type) {
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
    }
}

// The selector in effect: the caller's when given and not empty, else the environment variable
// TEXDEC_DEVICE; nullptr for none.
inline const char* device_selector(const char* given) {
    if (given && *given) return given;
    const char* env = user_setting("TEXDEC_DEVICE");
    return env && *env ? env : nullptr;
}

// Whether a device matches a selector: a decimal selector is a device index (one that does not
// fit 32 bits matches no device rather than wrapping around), any other a case-insensitive
// substring of the device name.
inline bool device_matches_selector(const char* selector, uint32_t index, const char* device_name) {
    bool decimal = *selector != '\0';
    for (const char* s = selector; *s; ++s) decimal = decimal && std::isdigit(static_cast<unsigned char>(*s));
    if (decimal) {
        uint64_t value = 0;
        for (const char* s = selector; *s; ++s)
            if ((value = value * 10 + uint64_t(*s - '0')) > UINT32_MAX) return false;
        return value == index;
    }
    auto lower = [](char c) { return char(std::tolower(static_cast<unsigned char>(c))); };
    for (const char* start = device_name; *start; ++start) {
        const char *h = start, *n = selector;
        while (*h && *n && lower(*h) == lower(*n)) ++h, ++n;
        if (!*n) return true;
    }
    return !*selector;
}

// The candidate to use (an index into `candidates`), or SIZE_MAX if none: among the usable ones,
// the first that matches `selector` (see device_selector), or without a selector the first of
// the most preferred type.
inline size_t choose_device(const DeviceCandidate* candidates, size_t count, const char* selector) {
    size_t chosen = SIZE_MAX;
    for (size_t i = 0; i < count; ++i) {
        const DeviceCandidate& c = candidates[i];
        if (device_unusable_reason(c)) continue;
        if (selector) {
            if (device_matches_selector(selector, c.index, c.properties->deviceName)) return i;
        } else if (chosen == SIZE_MAX || device_type_rank(c.properties->deviceType) <
                                             device_type_rank(candidates[chosen].properties->deviceType)) {
            chosen = i;
        }
    }
    return chosen;
}

}  // namespace texdec

// Context creation: an own instance + device (loader dlopened; GPU first, lavapipe as fallback), or
// the caller's device. All Vulkan functions come from per-context tables.
#include "context.h"
#include "cpu/cpu_backend.h"
#include "device_choice.h"
#include "gpu_backend.h"
#include "report.h"
#include "test_hooks.h"
#include "vulkan_loader.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <thread>
#include <vector>

using namespace texdec;

namespace {

// Formats one message and hands it to the callback, if any (longer messages are cut at 1 KiB).
void deliver_message(texdec_message_callback callback, void* user_data, texdec_message_severity severity,
                     const char* fmt, va_list args) {
    if (!callback) return;
    char text[1024];
    vsnprintf(text, sizeof text, fmt, args);
    callback(severity, text, user_data);
}

}  // namespace

texdec_status texdec_context::report(texdec_status status, texdec_message_severity severity, const char* fmt, ...) const {
    va_list args;
    va_start(args, fmt);
    deliver_message(message_callback, user_data, severity, fmt, args);
    va_end(args);
    return status;
}

texdec_status texdec::report(const texdec_context* ctx, texdec_status status, texdec_message_severity severity,
                             const char* fmt, ...) {
    if (!ctx) return status;
    va_list args;
    va_start(args, fmt);
    deliver_message(ctx->message_callback, ctx->user_data, severity, fmt, args);
    va_end(args);
    return status;
}

namespace texdec {

texdec_status null_argument(const texdec_context* ctx, const char* function, const char* argument) {
    if (ctx) ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR, "%s: %s is NULL", function, argument);
    return TEXDEC_ERROR_INVALID_ARGUMENT;
}

texdec_status check_chain(const texdec_context* ctx, const void* next, const char* where) {
    if (!next) return TEXDEC_SUCCESS;
    uint32_t type;  // every chained struct, texdec's or Vulkan's, begins with a 32-bit type
    std::memcpy(&type, next, sizeof type);
    if (ctx)
        ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                    "%s.next: structure type %u is not accepted there (this texdec version defines no extension of it)",
                    where, type);
    return TEXDEC_ERROR_INVALID_ARGUMENT;
}

texdec_status vk_failure(const texdec_context* ctx, VkResult result, const char* what) {
    texdec_status status = TEXDEC_ERROR_VULKAN;
    if (result == VK_ERROR_DEVICE_LOST) status = TEXDEC_ERROR_DEVICE_LOST;
    if (result == VK_ERROR_OUT_OF_HOST_MEMORY || result == VK_ERROR_OUT_OF_DEVICE_MEMORY)
        status = TEXDEC_ERROR_OUT_OF_MEMORY;
    return ctx->report(status, TEXDEC_MESSAGE_ERROR, "%s failed with VkResult %d", what, int(result));
}

}  // namespace texdec

namespace {

void report_early(const texdec_context_create_info* info, texdec_message_severity severity, const char* fmt, ...)
    TEXDEC_PRINTF_LIKE(3, 4);
void report_early(const texdec_context_create_info* info, texdec_message_severity severity, const char* fmt, ...) {
    if (!info) return;
    va_list args;
    va_start(args, fmt);
    deliver_message(info->message_callback, info->user_data, severity, fmt, args);
    va_end(args);
}

// The create info's own rules (before anything is created): known flags; in `next` nothing, or
// (own contexts: `backend` not null) one valid texdec_backend_info, copied to *backend. Without
// one the backend is AUTO (since 1.5.0; it was GPU), as the CLI's default.
bool create_info_valid(const texdec_context_create_info* info, texdec_backend_info* backend) {
    if (backend)
        *backend =
            texdec_backend_info{TEXDEC_STRUCTURE_TYPE_BACKEND_INFO, nullptr, TEXDEC_BACKEND_AUTO, 0, nullptr, nullptr};
    if (info->next) {
        uint32_t type;
        std::memcpy(&type, info->next, sizeof type);
        if (type != TEXDEC_STRUCTURE_TYPE_BACKEND_INFO || !backend) {
            report_early(info, TEXDEC_MESSAGE_ERROR,
                         backend
                             ? "texdec_context_create_info.next: structure type %u is not accepted there (only "
                               "TEXDEC_STRUCTURE_TYPE_BACKEND_INFO)"
                             : "texdec_context_create_info.next: structure type %u is not accepted there (an external "
                               "context is a GPU context: texdec_backend_info belongs to texdec_context_create)",
                         type);
            return false;
        }
        std::memcpy(backend, info->next, sizeof *backend);
        if (backend->next) {
            report_early(info, TEXDEC_MESSAGE_ERROR,
                         "texdec_backend_info.next: this texdec version accepts no extension struct there");
            return false;
        }
        const uint32_t kind = uint32_t(backend->backend);
        if (kind > TEXDEC_BACKEND_AUTO) {
            report_early(info, TEXDEC_MESSAGE_ERROR, "texdec_backend_info.backend %u is not a texdec_backend", kind);
            return false;
        }
        // Checked before any thread starts (100000 threads took seconds to fail).
        if (backend->cpu_threads > cpu::kMaxCpuThreads) {
            report_early(info, TEXDEC_MESSAGE_ERROR,
                         "texdec_backend_info.cpu_threads %u is above the maximum of %u (0 = the hardware's count)",
                         backend->cpu_threads, cpu::kMaxCpuThreads);
            return false;
        }
    }
    if (info->flags & ~uint32_t(TEXDEC_CONTEXT_VALIDATION)) {
        report_early(info, TEXDEC_MESSAGE_ERROR, "texdec_context_create_info.flags has unknown bits 0x%x",
                     info->flags & ~uint32_t(TEXDEC_CONTEXT_VALIDATION));
        return false;
    }
    return true;
}

VKAPI_ATTR VkBool32 VKAPI_CALL debug_messenger_callback(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                        VkDebugUtilsMessageTypeFlagsEXT,
                                                        const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                        void* user) {
    auto* ctx = static_cast<const texdec_context*>(user);
    ctx->report(TEXDEC_SUCCESS, TEXDEC_MESSAGE_VALIDATION, "%s", data && data->pMessage ? data->pMessage : "(no text)");
    return VK_FALSE;
}

bool has_extension(const InstanceFunctions& vki, VkPhysicalDevice pd, const char* name) {
    uint32_t count = 0;
    if (vki.vkEnumerateDeviceExtensionProperties(pd, nullptr, &count, nullptr) != VK_SUCCESS) return false;
    std::vector<VkExtensionProperties> exts(count);
    if (vki.vkEnumerateDeviceExtensionProperties(pd, nullptr, &count, exts.data()) != VK_SUCCESS) return false;
    for (const auto& e : exts)
        if (strcmp(e.extensionName, name) == 0) return true;
    return false;
}

// Whether the loader (layer NULL) or a layer offers an instance extension.
bool offers_extension(PFN_vkEnumerateInstanceExtensionProperties enumerate, const char* layer, const char* name) {
    uint32_t count = 0;
    if (!enumerate || enumerate(layer, &count, nullptr) != VK_SUCCESS) return false;
    std::vector<VkExtensionProperties> exts(count);
    if (enumerate(layer, &count, exts.data()) != VK_SUCCESS) return false;
    for (uint32_t i = 0; i < count; ++i)
        if (strcmp(exts[i].extensionName, name) == 0) return true;
    return false;
}

// Index of a queue family with compute (preferring compute-only ones is not worth it here: the
// host path submits little). UINT32_MAX if none.
uint32_t find_compute_queue_family(const InstanceFunctions& vki, VkPhysicalDevice pd, VkQueueFlags* flags) {
    uint32_t count = 0;
    vki.vkGetPhysicalDeviceQueueFamilyProperties(pd, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vki.vkGetPhysicalDeviceQueueFamilyProperties(pd, &count, families.data());
    for (uint32_t i = 0; i < count; ++i)
        if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
            if (flags) *flags = families[i].queueFlags;
            return i;
        }
    return UINT32_MAX;
}

bool is_decimal(const char* s) {
    if (!*s) return false;
    for (; *s; ++s)
        if (!isdigit(static_cast<unsigned char>(*s))) return false;
    return true;
}

// Everything both creation paths do once the device exists.
texdec_status finish_context(texdec_context* ctx, const texdec_context_create_info* info) {
    ctx->vki.vkGetPhysicalDeviceProperties(ctx->physical_device, &ctx->properties);
    ctx->vki.vkGetPhysicalDeviceMemoryProperties(ctx->physical_device, &ctx->memory_properties);
    if (const char* missing = load_device_functions(ctx->vki.vkGetDeviceProcAddr, ctx->device, ctx->vkd))
        return ctx->report(TEXDEC_ERROR_MISSING_FEATURE, TEXDEC_MESSAGE_ERROR, "device function %s is unavailable", missing);
    ctx->debug_utils = ctx->vki.vkSetDebugUtilsObjectNameEXT && ctx->vki.vkCmdBeginDebugUtilsLabelEXT &&
                       ctx->vki.vkCmdEndDebugUtilsLabelEXT;
    gather_device_facts(ctx);
    if (info->pipeline_cache) {
        ctx->pipeline_cache = info->pipeline_cache;
    } else {
        VkPipelineCacheCreateInfo pci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
        VkResult r = ctx->vkd.vkCreatePipelineCache(ctx->device, &pci, ctx->allocator, &ctx->pipeline_cache);
        if (r != VK_SUCCESS) return vk_failure(ctx, r, "vkCreatePipelineCache");
        ctx->owns_pipeline_cache = true;
        name_object(ctx, VK_OBJECT_TYPE_PIPELINE_CACHE, handle_bits(ctx->pipeline_cache), "texdec pipeline cache");
    }
    // Without push descriptors the context still answers questions (texdec_query_support says
    // why nothing can be recorded); its set layouts would need the extension.
    if (!ctx->facts.push_descriptor) {
        ctx->report(TEXDEC_SUCCESS, TEXDEC_MESSAGE_WARNING,
                    "VK_KHR_push_descriptor is not enabled on the device: this context cannot record or decode "
                    "(texdec_query_support answers TEXDEC_ERROR_MISSING_FEATURE)");
        return TEXDEC_SUCCESS;
    }
    return create_pipeline_layouts(ctx);
}

void init_common(texdec_context* ctx, const texdec_context_create_info* info) {
    const char* force = TEXDEC_TEST_HOOK("TEXDEC_DEBUG_DEVICE_STAGING");
    ctx->force_device_staging = force && strcmp(force, "1") == 0;
    if (const char* part = TEXDEC_TEST_HOOK("TEXDEC_DEBUG_STAGING_PART_BYTES"); part && is_decimal(part))
        ctx->staging_part_bytes = std::max<uint64_t>(1, strtoull(part, nullptr, 10));
    ctx->copy_threads = std::clamp<uint32_t>(std::thread::hardware_concurrency(), 1, kMaxCopyThreads);
    if (const char* threads = TEXDEC_TEST_HOOK("TEXDEC_DEBUG_COPY_THREADS"); threads && is_decimal(threads)) {
        ctx->copy_debug = true;
        ctx->copy_threads =
            uint32_t(std::clamp<unsigned long long>(strtoull(threads, nullptr, 10), 1, kMaxCopyThreads));
    }
    ctx->tasks.start_on_first_use(ctx->copy_threads);
    if (const char* trace = TEXDEC_TEST_HOOK("TEXDEC_DEBUG_ONE_CALL_TRACE"); trace && is_decimal(trace))
        ctx->trace_one_call = uint32_t(std::min<unsigned long long>(strtoull(trace, nullptr, 10), 2));
    ctx->message_callback = info->message_callback;
    ctx->user_data = info->user_data;
    if (info->max_texels_per_dispatch) ctx->max_texels_per_dispatch = info->max_texels_per_dispatch;
    if (info->allocator) {
        ctx->allocator_storage = *info->allocator;
        ctx->allocator = &ctx->allocator_storage;
    }
}

texdec_status create_own_instance(texdec_context* ctx, const texdec_context_create_info* info, PFN_vkGetInstanceProcAddr gipa) {
    auto create_instance = reinterpret_cast<PFN_vkCreateInstance>(gipa(VK_NULL_HANDLE, "vkCreateInstance"));
    if (!create_instance) return ctx->report(TEXDEC_ERROR_NO_DEVICE, TEXDEC_MESSAGE_ERROR, "the Vulkan loader has no vkCreateInstance");
    const bool validation = info->flags & TEXDEC_CONTEXT_VALIDATION;
    std::vector<const char*> layers, extensions;
    if (validation) layers.push_back("VK_LAYER_KHRONOS_validation");
    auto enumerate = reinterpret_cast<PFN_vkEnumerateInstanceExtensionProperties>(
        gipa(VK_NULL_HANDLE, "vkEnumerateInstanceExtensionProperties"));
    // Names and labels for RenderDoc and validation messages wherever the instance offers
    // VK_EXT_debug_utils (the loader does; the validation layer too); validation needs it.
    if (validation || offers_extension(enumerate, nullptr, VK_EXT_DEBUG_UTILS_EXTENSION_NAME))
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "texdec";
    app.pEngineName = "texdec";
    app.engineVersion = TEXDEC_VERSION;
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    ici.enabledLayerCount = uint32_t(layers.size());
    ici.ppEnabledLayerNames = layers.data();
    // Validation also turns on synchronization validation (hazards between the one-call path's
    // copies, dispatches and host reads), where the layer offers VK_EXT_validation_features.
    const VkValidationFeatureEnableEXT sync_validation = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = &sync_validation;
    if (validation && offers_extension(enumerate, "VK_LAYER_KHRONOS_validation", VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME)) {
        extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
        ici.pNext = &features;
    }
    ici.enabledExtensionCount = uint32_t(extensions.size());
    ici.ppEnabledExtensionNames = extensions.data();
    VkResult r = create_instance(&ici, ctx->allocator, &ctx->instance);
    if (r == VK_ERROR_LAYER_NOT_PRESENT || r == VK_ERROR_EXTENSION_NOT_PRESENT)
        return ctx->report(TEXDEC_ERROR_NO_DEVICE, TEXDEC_MESSAGE_ERROR,
                           "validation requested but VK_LAYER_KHRONOS_validation / VK_EXT_debug_utils is not installed");
    if (r != VK_SUCCESS)
        return ctx->report(TEXDEC_ERROR_NO_DEVICE, TEXDEC_MESSAGE_ERROR, "vkCreateInstance failed with VkResult %d", int(r));
    if (const char* missing = load_instance_functions(gipa, ctx->instance, ctx->vki))
        return ctx->report(TEXDEC_ERROR_NO_DEVICE, TEXDEC_MESSAGE_ERROR, "instance function %s is unavailable", missing);
    if (validation) {
        if (!ctx->vki.vkCreateDebugUtilsMessengerEXT)
            return ctx->report(TEXDEC_ERROR_NO_DEVICE, TEXDEC_MESSAGE_ERROR, "VK_EXT_debug_utils functions are unavailable");
        VkDebugUtilsMessengerCreateInfoEXT mci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
        mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
        mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
        mci.pfnUserCallback = debug_messenger_callback;
        mci.pUserData = ctx;
        r = ctx->vki.vkCreateDebugUtilsMessengerEXT(ctx->instance, &mci, ctx->allocator, &ctx->messenger);
        if (r != VK_SUCCESS) return vk_failure(ctx, r, "vkCreateDebugUtilsMessengerEXT");
    }
    return TEXDEC_SUCCESS;
}

texdec_status choose_physical_device(texdec_context* ctx, const texdec_context_create_info* info) {
    uint32_t count = 0;
    VkResult r = ctx->vki.vkEnumeratePhysicalDevices(ctx->instance, &count, nullptr);
    if (r != VK_SUCCESS) return vk_failure(ctx, r, "vkEnumeratePhysicalDevices");
    std::vector<VkPhysicalDevice> devices(count);
    r = ctx->vki.vkEnumeratePhysicalDevices(ctx->instance, &count, devices.data());
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) return vk_failure(ctx, r, "vkEnumeratePhysicalDevices");
    if (count == 0)
        return ctx->report(TEXDEC_ERROR_NO_DEVICE, TEXDEC_MESSAGE_ERROR,
                           "no Vulkan physical device (install mesa-vulkan-drivers for lavapipe)");

    // The facts the policy (device_choice.h) needs; unusable devices are named.
    std::vector<VkPhysicalDeviceProperties> props(count);
    std::vector<DeviceCandidate> candidates(count);
    for (uint32_t i = 0; i < count; ++i) {
        ctx->vki.vkGetPhysicalDeviceProperties(devices[i], &props[i]);
        DeviceCandidate& c = candidates[i];
        c.index = i;
        c.properties = &props[i];
        c.has_compute_queue = find_compute_queue_family(ctx->vki, devices[i], nullptr) != UINT32_MAX;
        c.has_push_descriptor = has_extension(ctx->vki, devices[i], VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
        if (const char* why = device_unusable_reason(c))
            ctx->report(TEXDEC_SUCCESS, TEXDEC_MESSAGE_WARNING, "device %u (%s) skipped: %s", i, props[i].deviceName,
                        why);
    }

    const char* selector = device_selector(info->device_selector);
    const size_t choice = choose_device(candidates.data(), count, selector);
    if (choice == SIZE_MAX && selector)
        return ctx->report(TEXDEC_ERROR_NO_DEVICE, TEXDEC_MESSAGE_ERROR,
                           "no usable Vulkan device matches \"%s\" (see astc-gpu-decode list-devices)", selector);
    if (choice == SIZE_MAX)
        return ctx->report(TEXDEC_ERROR_NO_DEVICE, TEXDEC_MESSAGE_ERROR,
                           "no Vulkan device has Vulkan 1.1, compute and VK_KHR_push_descriptor");
    ctx->physical_device = devices[choice];
    ctx->queue_family = find_compute_queue_family(ctx->vki, devices[choice], &ctx->queue_flags);
    ctx->report(TEXDEC_SUCCESS, TEXDEC_MESSAGE_INFO, "device %u: %s", uint32_t(choice), props[choice].deviceName);
    return TEXDEC_SUCCESS;
}

texdec_status create_own_device(texdec_context* ctx) {
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = ctx->queue_family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    const char* extensions[] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = 1;
    dci.ppEnabledExtensionNames = extensions;
    VkResult r = ctx->vki.vkCreateDevice(ctx->physical_device, &dci, ctx->allocator, &ctx->device);
    if (r != VK_SUCCESS) return vk_failure(ctx, r, "vkCreateDevice");
    return TEXDEC_SUCCESS;
}

// The own GPU context (TEXDEC_BACKEND_GPU). With reject_cpu_type, a chosen device of type
// VK_PHYSICAL_DEVICE_TYPE_CPU fails with NO_DEVICE before a device is created (AUTO).
texdec_status create_gpu_context(const texdec_context_create_info* info, bool reject_cpu_type, texdec_context** out) {
    VulkanLoader loader;
    if (!open_vulkan_loader(loader)) {
        report_early(info, TEXDEC_MESSAGE_ERROR, "could not load the Vulkan loader (%s); install libvulkan1",
                     vulkan_loader_name());
        return TEXDEC_ERROR_NO_DEVICE;
    }
    auto* ctx = new (std::nothrow) texdec_context;
    if (!ctx) {
        close_vulkan_loader(loader.library);
        return TEXDEC_ERROR_OUT_OF_MEMORY;
    }
    ctx->backend = gpu::backend();
    ctx->owns_device = true;
    ctx->loader_library = loader.library;
    init_common(ctx, info);
    texdec_status status = create_own_instance(ctx, info, loader.get_instance_proc_addr);
    if (status == TEXDEC_SUCCESS) status = choose_physical_device(ctx, info);
    if (status == TEXDEC_SUCCESS && reject_cpu_type) {
        VkPhysicalDeviceProperties props;
        ctx->vki.vkGetPhysicalDeviceProperties(ctx->physical_device, &props);
        if (props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU)
            status = ctx->report(TEXDEC_ERROR_NO_DEVICE, TEXDEC_MESSAGE_ERROR,
                                 "the only usable Vulkan device, %s, runs on the CPU", props.deviceName);
    }
    if (status == TEXDEC_SUCCESS) status = create_own_device(ctx);
    if (status == TEXDEC_SUCCESS) status = finish_context(ctx, info);
    if (status == TEXDEC_SUCCESS) {
        ctx->vkd.vkGetDeviceQueue(ctx->device, ctx->queue_family, 0, &ctx->queue);
        name_object(ctx, VK_OBJECT_TYPE_DEVICE, handle_bits(ctx->device), "texdec device");
        name_object(ctx, VK_OBJECT_TYPE_QUEUE, handle_bits(ctx->queue), "texdec queue");
    }
    if (status != TEXDEC_SUCCESS) {
        texdec_context_destroy(ctx);
        return status;
    }
    *out = ctx;
    return TEXDEC_SUCCESS;
}

// A CPU context: no Vulkan at all.
texdec_status create_cpu_context(const texdec_context_create_info* info, const texdec_backend_info& backend,
                                 texdec_context** out) {
    auto* ctx = new (std::nothrow) texdec_context;
    if (!ctx) return TEXDEC_ERROR_OUT_OF_MEMORY;
    ctx->message_callback = info->message_callback;
    ctx->user_data = info->user_data;
    const texdec_status status = cpu::create_backend(backend, ctx->tasks, &ctx->backend, ctx->properties.deviceName,
                                                     sizeof ctx->properties.deviceName);
    if (status != TEXDEC_SUCCESS) {
        ctx->report(status, TEXDEC_MESSAGE_ERROR, "could not start the CPU backend's threads");
        delete ctx;
        return status;
    }
    ctx->report(TEXDEC_SUCCESS, TEXDEC_MESSAGE_INFO, "%s", ctx->properties.deviceName);
    *out = ctx;
    return TEXDEC_SUCCESS;
}

// AUTO's GPU attempt keeps the reason it failed for the INFO message, and passes the rest on.
struct AutoProbe {
    const texdec_context_create_info* caller;
    std::string reason;
    static void collect(texdec_message_severity severity, const char* message, void* user_data) {
        auto* self = static_cast<AutoProbe*>(user_data);
        if (severity == TEXDEC_MESSAGE_ERROR) {
            self->reason = message;
        } else if (self->caller->message_callback) {
            self->caller->message_callback(severity, message, self->caller->user_data);
        }
    }
};

}  // namespace

extern "C" {

TEXDEC_API texdec_status texdec_context_create(const texdec_context_create_info* info, texdec_context** out_context) {
    if (!out_context) {
        if (info) report_early(info, TEXDEC_MESSAGE_ERROR, "texdec_context_create: out_context is NULL");
        return TEXDEC_ERROR_INVALID_ARGUMENT;
    }
    *out_context = nullptr;
    texdec_context_create_info defaults{};
    if (!info) info = &defaults;
    texdec_backend_info backend;
    if (!create_info_valid(info, &backend)) return TEXDEC_ERROR_INVALID_ARGUMENT;
    if (backend.backend == TEXDEC_BACKEND_CPU) return create_cpu_context(info, backend, out_context);
    if (backend.backend == TEXDEC_BACKEND_GPU) return create_gpu_context(info, false, out_context);
    // AUTO: the GPU path, quietly (its failures are not the caller's errors), refusing CPU-type
    // devices; anything short of a real GPU decodes on the CPU backend.
    AutoProbe probe;
    probe.caller = info;
    texdec_context_create_info quiet = *info;
    quiet.message_callback = &AutoProbe::collect;
    quiet.user_data = &probe;
    texdec_status status = create_gpu_context(&quiet, true, out_context);
    if (status == TEXDEC_SUCCESS) {
        (*out_context)->message_callback = info->message_callback;
        (*out_context)->user_data = info->user_data;
        return TEXDEC_SUCCESS;
    }
    if (status == TEXDEC_ERROR_INVALID_ARGUMENT || status == TEXDEC_ERROR_OUT_OF_MEMORY) return status;
    report_early(info, TEXDEC_MESSAGE_INFO, "backend AUTO: no GPU (%s); decoding on the CPU",
                 probe.reason.empty() ? texdec_status_string(status) : probe.reason.c_str());
    return create_cpu_context(info, backend, out_context);
}

TEXDEC_API texdec_status texdec_context_create_external(const texdec_context_create_info* info,
                                                        const texdec_external_device* device,
                                                        texdec_context** out_context) {
    if (!out_context) {
        if (info) report_early(info, TEXDEC_MESSAGE_ERROR, "texdec_context_create_external: out_context is NULL");
        return TEXDEC_ERROR_INVALID_ARGUMENT;
    }
    *out_context = nullptr;
    texdec_context_create_info defaults{};
    if (!info) info = &defaults;
    if (!device || !device->get_instance_proc_addr || !device->instance || !device->physical_device || !device->device) {
        report_early(info, TEXDEC_MESSAGE_ERROR,
                     "texdec_external_device needs get_instance_proc_addr, instance, physical_device and device");
        return TEXDEC_ERROR_INVALID_ARGUMENT;
    }
    if (!create_info_valid(info, nullptr)) return TEXDEC_ERROR_INVALID_ARGUMENT;
    if (device->next) {
        report_early(info, TEXDEC_MESSAGE_ERROR, "texdec_external_device.next: this texdec version accepts no extension struct there");
        return TEXDEC_ERROR_INVALID_ARGUMENT;
    }
    if (info->flags & TEXDEC_CONTEXT_VALIDATION) {
        report_early(info, TEXDEC_MESSAGE_ERROR,
                     "TEXDEC_CONTEXT_VALIDATION is for own contexts: enable the layer on your own instance");
        return TEXDEC_ERROR_INVALID_ARGUMENT;
    }
    // Half a lock pair would lock the queue and never unlock it (the next submission deadlocks)
    // or unlock a lock nobody took: refused before anything is created.
    if (!device->lock_queue != !device->unlock_queue) {
        report_early(info, TEXDEC_MESSAGE_ERROR,
                     "texdec_external_device: %s is set but %s is NULL (give both queue lock functions or neither)",
                     device->lock_queue ? "lock_queue" : "unlock_queue",
                     device->lock_queue ? "unlock_queue" : "lock_queue");
        return TEXDEC_ERROR_INVALID_ARGUMENT;
    }
    auto* ctx = new (std::nothrow) texdec_context;
    if (!ctx) return TEXDEC_ERROR_OUT_OF_MEMORY;
    ctx->backend = gpu::backend();
    init_common(ctx, info);
    ctx->instance = device->instance;
    ctx->physical_device = device->physical_device;
    ctx->device = device->device;
    ctx->queue_family = device->queue_family_index;
    ctx->queue = device->queue;
    ctx->lock_queue = device->lock_queue;
    ctx->unlock_queue = device->unlock_queue;
    ctx->queue_user_data = device->queue_user_data;
    texdec_status status = TEXDEC_SUCCESS;
    if (const char* missing = load_instance_functions(device->get_instance_proc_addr, device->instance, ctx->vki))
        status = ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR, "instance function %s is unavailable", missing);
    if (status == TEXDEC_SUCCESS) {
        uint32_t count = 0;
        ctx->vki.vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical_device, &count, nullptr);
        std::vector<VkQueueFamilyProperties> families(count);
        ctx->vki.vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical_device, &count, families.data());
        if (ctx->queue_family >= count || !(families[ctx->queue_family].queueFlags & VK_QUEUE_COMPUTE_BIT))
            status = ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                                 "queue family %u does not exist or lacks compute", ctx->queue_family);
        else
            ctx->queue_flags = families[ctx->queue_family].queueFlags;
    }
    if (status == TEXDEC_SUCCESS) status = finish_context(ctx, info);
    if (status != TEXDEC_SUCCESS) {
        texdec_context_destroy(ctx);
        return status;
    }
    *out_context = ctx;
    return TEXDEC_SUCCESS;
}

TEXDEC_API void texdec_context_destroy(texdec_context* ctx) {
    if (!ctx) return;
    if (ctx->backend) ctx->backend->destroy(ctx);
    delete ctx;  // the task pool's threads end here
}

TEXDEC_API const char* texdec_context_device_name(const texdec_context* ctx) {
    return ctx ? ctx->properties.deviceName : "";
}

TEXDEC_API texdec_backend texdec_context_backend(const texdec_context* ctx) {
    if (!ctx) return TEXDEC_BACKEND_MAX_ENUM;
    return ctx->backend ? ctx->backend->kind() : TEXDEC_BACKEND_MAX_ENUM;
}

TEXDEC_API texdec_status texdec_enumerate_devices(texdec_device_callback callback, void* user_data) {
    if (!callback) return TEXDEC_ERROR_INVALID_ARGUMENT;
    VulkanLoader loader;
    if (!open_vulkan_loader(loader)) return TEXDEC_ERROR_NO_DEVICE;
    texdec_context scratch;  // only for the instance + function table
    texdec_context_create_info info{};
    texdec_status status = create_own_instance(&scratch, &info, loader.get_instance_proc_addr);
    if (status == TEXDEC_SUCCESS) {
        uint32_t count = 0;
        scratch.vki.vkEnumeratePhysicalDevices(scratch.instance, &count, nullptr);
        std::vector<VkPhysicalDevice> devices(count);
        scratch.vki.vkEnumeratePhysicalDevices(scratch.instance, &count, devices.data());
        for (uint32_t i = 0; i < count; ++i) {
            VkPhysicalDeviceProperties props;
            scratch.vki.vkGetPhysicalDeviceProperties(devices[i], &props);
            callback(i, props.deviceName, props.deviceType, props.apiVersion, user_data);
        }
    }
    if (scratch.instance && scratch.vki.vkDestroyInstance) scratch.vki.vkDestroyInstance(scratch.instance, nullptr);
    close_vulkan_loader(loader.library);
    return status;
}

}  // extern "C"

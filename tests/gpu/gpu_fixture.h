// GPU test plumbing: a texdec context of the library's own (validation on), or a Vulkan device
// of the test's own (validation layer + VK_EXT_debug_utils messenger) for the external-context
// path and the lavapipe-native oracle.
//
// Policy (DESIGN.md "Tests and CI"):
//   - every GPU test runs with VK_LAYER_KHRONOS_validation and fails on ANY message it reports;
//   - no Vulkan device (or no validation layer) fails the test with a clear message, unless
//     TEXDEC_ALLOW_NO_DEVICE=1: then the test stops early with a loud "SKIPPED" warning and the
//     process exits with kSkipExitCode, which ctest shows as skipped.
//
// Backends (texdec.h "backends"): OwnContext::open() decodes on the backend TEXDEC_BACKEND names
// (gpu, the default, or cpu) and mirrors every decode() on the other backend, tolerance 0 (see
// OwnContext::decode). So the normal run compares the GPU path with the oracles and the CPU
// backend with the GPU path for every one-call case; a run with TEXDEC_BACKEND=cpu compares the
// CPU backend with the oracles. TEXDEC_TEST_MIRROR=0 turns the mirror off (CI's sanitizer stage,
// where the first stage has compared the backends already). TEXDEC_TEST_CPU_PARTIAL=1 (only while
// some family has no CPU decoder yet) lets the mirror skip, counted and printed, exactly the CPU
// side's TEXDEC_ERROR_UNSUPPORTED_FORMAT.
#pragma once

#include "vk_app.h"  // tools/vk_app: the application side of Vulkan, shared with the bench

#include <texdec/texdec.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace texdec_test {

constexpr int kSkipExitCode = 77;
bool any_test_skipped_for_lack_of_device();

// Fails the current test with `reason`, or (TEXDEC_ALLOW_NO_DEVICE=1) records a skip and warns.
// Returns normally only in the skip case; the caller then returns from the test.
void fail_or_skip_for_missing_device(const std::string& reason);

// TEXDEC_CONTEXT_VALIDATION, which every GPU context of the tests asks for; 0 where
// TEXDEC_TEST_VALIDATION=host. That is the Windows slice under Wine (tests/windows): Wine's Vulkan
// lists no layers, so the build host's loader inserts VK_LAYER_KHRONOS_validation into every
// instance instead (VK_INSTANCE_LAYERS); its messages about the test's own instance reach the
// test's messenger, those about texdec's instances the layer's log file, which .ci/windows.sh checks.
uint32_t validation_context_flag();
bool host_validation_layer();

// For a test whose optional input is not configured (e.g. TEXDEC_CORPUS unset): warns loudly and
// records a skip, so the process exits with kSkipExitCode when nothing failed and ctest shows the
// test as "Skipped", never as passed. The caller then returns from the test.
void skip_loudly(const std::string& reason);

// Messages collected from a callback that may run on any thread.
class MessageLog {
public:
    void add_validation(const std::string& text);
    void add_error(const std::string& text);
    std::vector<std::string> take_validation();
    std::vector<std::string> take_errors();

private:
    std::mutex mutex_;
    std::vector<std::string> validation_, errors_;
};

// CHECKs that `log` got no validation message since the last call; lists them otherwise.
void check_no_validation_messages(MessageLog& log, const char* where);

// texdec_context_memory_usage, REQUIREd to succeed and to write every field.
texdec_memory_usage usage_of(texdec_context* ctx);

// ---- backends ---------------------------------------------------------------------------------

enum class Backend { gpu, cpu };
const char* backend_name(Backend backend);
// The backend OwnContext::open() decodes on: TEXDEC_BACKEND=gpu (or unset) or cpu; any other
// value FAILs the test.
Backend tested_backend();
// TEXDEC_TEST_CPU_PARTIAL=1: see the top of this file.
bool cpu_partial_allowed();
// A texdec_backend_info to chain on texdec_context_create_info::next.
texdec_backend_info backend_info(texdec_backend backend, uint32_t cpu_threads = 0,
                                 texdec_run_tasks_function run_tasks = nullptr, void* run_tasks_user_data = nullptr);

// ---- a texdec context with its own device ---------------------------------------------------

class OwnContext {
public:
    // A context on tested_backend(), mirrored on the other one. GPU: TEXDEC_CONTEXT_VALIDATION;
    // nullptr means: stop the test (skipped); a missing device otherwise FAILs inside this call.
    static std::unique_ptr<OwnContext> open();
    // On `backend` whatever TEXDEC_BACKEND says (tests of one backend's own behaviour: staging,
    // pipelines, device selection, recording), still mirrored on the other one.
    static std::unique_ptr<OwnContext> open(Backend backend);
    ~OwnContext();

    texdec_context* get() const { return ctx_; }
    Backend backend() const { return backend_; }
    MessageLog& log() { return log_; }
    // texdec_decode, then a check that the validation layer said nothing; then the same job on
    // the mirror context (the other backend, opened at the first decode) into a copy of the
    // destination with the same initial bytes: the status and every byte of job.dst_size must be
    // the same (on failure only the status: texels may be partly written then). One thread at a
    // time (the mirror is opened lazily, and Catch2's assertions are not thread-safe).
    texdec_status decode(const texdec_host_job& job);
    // decode() of w x h texels of tightly packed blocks into tight rows of texel_bytes-byte texels
    // that start as `fill` bytes; REQUIREs success.
    std::vector<uint8_t> decode_tight(texdec_format format, texdec_output output, const std::vector<uint8_t>& blocks,
                                      uint32_t w, uint32_t h, uint32_t texel_bytes, uint8_t fill = 0);
    // Destroys the context (reporting anything the layer says at teardown) and checks the log.
    void close_and_check();

private:
    OwnContext() = default;
    static std::unique_ptr<OwnContext> open_one(Backend backend, bool quiet_if_missing);
    static void callback(texdec_message_severity severity, const char* message, void* user_data);
    OwnContext* mirror();  // nullptr: no mirror (TEXDEC_TEST_MIRROR=0, or no GPU with TEXDEC_ALLOW_NO_DEVICE=1)
    void mirror_decode(const texdec_host_job& job, texdec_status status, std::vector<uint8_t>& copy);
    texdec_context* ctx_ = nullptr;
    Backend backend_ = Backend::gpu;
    MessageLog log_;
    bool is_mirror_ = false;
    bool mirror_tried_ = false;
    std::unique_ptr<OwnContext> mirror_;
};

// ---- a Vulkan device of the test's own ------------------------------------------------------

// A buffer in HOST_VISIBLE | HOST_COHERENT memory, persistently mapped (`mapped`).
using HostBuffer = vk_app::Buffer;

struct TestImage {
    VkImage image = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkImageCreateInfo info{};  // how it was created (pNext cleared), for texdec_image_target_create
    // The texdec image target of this image (image_target() in external_setup.h creates it once);
    // destroyed with the image.
    texdec_context* target_context = nullptr;
    texdec_image_target* target = nullptr;
};

// What a test's device leaves out (default: nothing), to test texdec where an application did.
struct VulkanTestDeviceOptions {
    // false: the instance does not enable VK_EXT_debug_utils; the layer's messages come through
    // a VK_EXT_debug_report callback instead (recorded the same way).
    bool debug_utils = true;
    // false: the device does not enable VK_KHR_push_descriptor.
    bool push_descriptor = true;
    // true: the device enables textureCompressionBC, textureCompressionETC2 and
    // textureCompressionASTC_LDR where the physical device has them (enabled_features() says
    // which), as a loader that uploads compressed textures natively does.
    bool texture_compression = false;
};

class VulkanTestDevice : public vk_app::DeviceHandles {
public:
    // Instance with VK_LAYER_KHRONOS_validation (+ synchronization validation) and a debug
    // messenger that records every message; a device with a compute queue and
    // VK_KHR_push_descriptor. nullptr: skipped (see fail_or_skip_for_missing_device).
    static std::unique_ptr<VulkanTestDevice> open(const VulkanTestDeviceOptions& options = {});
    ~VulkanTestDevice();

    MessageLog& log() { return log_; }

    // What texdec_context_create_external needs.
    texdec_external_device external_device() const;

    HostBuffer create_buffer(VkDeviceSize size, VkBufferUsageFlags usage);
    void destroy(HostBuffer& buffer);
    // A 2D image (arrayLayers layers) with one 2D_ARRAY view of `view_format` (0 = image format).
    TestImage create_image(VkFormat format, uint32_t width, uint32_t height, uint32_t layers, VkImageUsageFlags usage,
                           VkImageCreateFlags flags = 0, VkFormat view_format = VK_FORMAT_UNDEFINED);
    // Any image the test describes (3D, mip levels, create flags), in device-local memory, no view.
    TestImage create_image(const VkImageCreateInfo& info);
    void destroy(TestImage& image);
    bool format_supports(VkFormat format, VkFormatFeatureFlags optimal_features) const;
    // VK_KHR_image_format_list is enabled (where the device has it): images may chain a
    // VkImageFormatListCreateInfo, as applications that create MUTABLE_FORMAT images do.
    bool has_image_format_list() const { return image_format_list_; }
    // The VkPhysicalDeviceFeatures given to vkCreateDevice.
    const VkPhysicalDeviceFeatures& enabled_features() const { return enabled_features_; }

    VkCommandBuffer begin_commands();
    // Ends, submits, waits (60 s) and frees the command buffer; REQUIREs success.
    void submit_and_wait(VkCommandBuffer cmd);

    // Destroys everything (leaks and teardown messages are reported by the layer) and checks the log.
    void close_and_check();

private:
    VulkanTestDevice() = default;
    void destroy_all();
    static VKAPI_ATTR VkBool32 VKAPI_CALL report_callback(VkDebugReportFlagsEXT flags, VkDebugReportObjectTypeEXT type,
                                                          uint64_t object, size_t location, int32_t code, const char* prefix,
                                                          const char* message, void* user_data);
    static VKAPI_ATTR VkBool32 VKAPI_CALL messenger_callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                             VkDebugUtilsMessageTypeFlagsEXT types,
                                                             const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                             void* user_data);

    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkDebugReportCallbackEXT report_callback_ = VK_NULL_HANDLE;  // VulkanTestDeviceOptions::debug_utils false
    bool image_format_list_ = false;
    VkPhysicalDeviceFeatures enabled_features_{};
    MessageLog log_;
};

}  // namespace texdec_test

#include "gpu_fixture.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <utility>

#include "support/job_builder.h"

namespace texdec_test {
namespace {

std::atomic<bool> g_skipped{false};

bool no_device_allowed() {
    const char* v = std::getenv("TEXDEC_ALLOW_NO_DEVICE");
    return v && std::strcmp(v, "1") == 0;
}

using vk_app::kValidationLayer;

}  // namespace

bool any_test_skipped_for_lack_of_device() { return g_skipped.load(); }

void skip_loudly(const std::string& reason) {
    g_skipped = true;
    std::fprintf(stderr, "\n*** SKIPPED: %s ***\n\n", reason.c_str());
    WARN("SKIPPED: " << reason);
}

bool host_validation_layer() {
    const char* value = std::getenv("TEXDEC_TEST_VALIDATION");
    return value && std::strcmp(value, "host") == 0;
}

uint32_t validation_context_flag() { return host_validation_layer() ? 0u : uint32_t(TEXDEC_CONTEXT_VALIDATION); }

void fail_or_skip_for_missing_device(const std::string& reason) {
    if (no_device_allowed()) {
        g_skipped = true;
        std::fprintf(stderr, "\n*** SKIPPED: %s (TEXDEC_ALLOW_NO_DEVICE=1) ***\n\n", reason.c_str());
        WARN("SKIPPED: " << reason << " (TEXDEC_ALLOW_NO_DEVICE=1)");
        return;
    }
    FAIL("No usable Vulkan device for this GPU test: "
         << reason
         << ". GPU tests need a Vulkan driver (on a machine without a GPU: lavapipe, Debian package "
            "mesa-vulkan-drivers) and VK_LAYER_KHRONOS_validation (vulkan-validationlayers). Set "
            "TEXDEC_ALLOW_NO_DEVICE=1 to skip GPU tests instead of failing.");
}

// ---- MessageLog -------------------------------------------------------------------------------

void MessageLog::add_validation(const std::string& text) {
    std::fprintf(stderr, "VALIDATION: %s\n", text.c_str());
    std::lock_guard<std::mutex> lock(mutex_);
    validation_.push_back(text);
}
void MessageLog::add_error(const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex_);
    errors_.push_back(text);
}
std::vector<std::string> MessageLog::take_validation() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::exchange(validation_, {});
}
std::vector<std::string> MessageLog::take_errors() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::exchange(errors_, {});
}

void check_no_validation_messages(MessageLog& log, const char* where) {
    const auto messages = log.take_validation();
    for (const auto& m : messages) FAIL_CHECK("validation message (" << where << "): " << m);
    CHECK(messages.empty());
}

// ---- OwnContext ---------------------------------------------------------------------------------

void OwnContext::callback(texdec_message_severity severity, const char* message, void* user_data) {
    auto* self = static_cast<OwnContext*>(user_data);
    const std::string text = message ? message : "(null message)";
    switch (severity) {
    case TEXDEC_MESSAGE_VALIDATION: self->log_.add_validation(text); break;
    case TEXDEC_MESSAGE_ERROR: self->log_.add_error(text); break;
    case TEXDEC_MESSAGE_WARNING: std::fprintf(stderr, "texdec warning: %s\n", text.c_str()); break;
    case TEXDEC_MESSAGE_INFO:
    default: break;
    }
}

// ---- backends -----------------------------------------------------------------------------------

namespace {

bool env_is(const char* name, const char* value) {
    const char* v = std::getenv(name);
    return v && std::strcmp(v, value) == 0;
}

bool mirror_enabled() { return !env_is("TEXDEC_TEST_MIRROR", "0"); }

// Jobs whose destination is above this are not mirrored: a second destination of that size and
// its comparison would cost more than the case itself (the 2 GiB "large job" of test_large_jobs.cpp;
// its streaming through staging parts is the GPU path's own business, the CPU backend writes
// job->dst directly).
constexpr size_t kMirrorMaxBytes = size_t(256) << 20;

// What the mirror did in this process, printed at exit.
struct MirrorTally {
    std::atomic<uint64_t> compared{0}, skipped_partial{0}, skipped_large{0};
    std::mutex mutex;
    std::set<int> partial_formats;  // noted once each
    ~MirrorTally() {
        if (compared || skipped_partial || skipped_large)
            std::fprintf(stderr,
                         "[mirror] %llu decodes compared with the other backend; %llu skipped (CPU UNSUPPORTED_FORMAT, "
                         "TEXDEC_TEST_CPU_PARTIAL=1); %llu not mirrored (destination above 256 MiB)\n",
                         (unsigned long long)compared.load(), (unsigned long long)skipped_partial.load(),
                         (unsigned long long)skipped_large.load());
    }
} g_mirror;

std::string format_text(texdec_format format) {
    texdec_format_info info;
    if (texdec_format_get_info(format, &info) == TEXDEC_SUCCESS && info.name) return info.name;
    return "format " + std::to_string(int(format));
}

std::string job_text(const texdec_host_job& job) {
    const char* output = texdec_output_name(job.output);
    std::string s = format_text(job.format) + " to " + (output ? output : std::to_string(int(job.output))) +
                    " rounding " + std::to_string(int(job.bc_rounding)) + ", " + std::to_string(job.width) + "x" +
                    std::to_string(job.height) + "x" + std::to_string(job.depth);
    if (job.src_row_length || job.src_image_height)
        s += ", source rows " + std::to_string(job.src_row_length) + " / " + std::to_string(job.src_image_height);
    if (job.dst_row_pitch || job.dst_slice_pitch)
        s += ", pitches " + std::to_string(job.dst_row_pitch) + " / " + std::to_string(job.dst_slice_pitch);
    return s + ", dst_size " + std::to_string(job.dst_size);
}

}  // namespace

const char* backend_name(Backend backend) { return backend == Backend::cpu ? "CPU" : "GPU"; }

Backend tested_backend() {
    const char* v = std::getenv("TEXDEC_BACKEND");
    if (!v || !*v || std::strcmp(v, "gpu") == 0) return Backend::gpu;
    if (std::strcmp(v, "cpu") == 0) return Backend::cpu;
    FAIL("TEXDEC_BACKEND=" << v << ": the tests know gpu (the default) and cpu");
    return Backend::gpu;
}

bool cpu_partial_allowed() { return env_is("TEXDEC_TEST_CPU_PARTIAL", "1"); }

texdec_backend_info backend_info(texdec_backend backend, uint32_t cpu_threads, texdec_run_tasks_function run_tasks,
                                 void* run_tasks_user_data) {
    return texdec_backend_info{
        TEXDEC_STRUCTURE_TYPE_BACKEND_INFO, nullptr, backend, cpu_threads, run_tasks, run_tasks_user_data};
}

// ---- OwnContext ---------------------------------------------------------------------------------

std::unique_ptr<OwnContext> OwnContext::open() { return open(tested_backend()); }

std::unique_ptr<OwnContext> OwnContext::open(Backend backend) { return open_one(backend, false); }

std::unique_ptr<OwnContext> OwnContext::open_one(Backend backend, bool quiet_if_missing) {
    std::unique_ptr<OwnContext> self(new OwnContext);
    self->backend_ = backend;
    texdec_context_create_info info{};
    info.flags = validation_context_flag();  // not used by the CPU backend
    info.message_callback = &OwnContext::callback;
    info.user_data = self.get();
    const texdec_backend_info cpu = backend_info(TEXDEC_BACKEND_CPU);
    if (backend == Backend::cpu) info.next = &cpu;
    const texdec_status status = texdec_context_create(&info, &self->ctx_);
    if (status == TEXDEC_ERROR_NO_DEVICE && backend == Backend::gpu) {
        std::string why;
        for (const auto& e : self->log_.take_errors()) why += (why.empty() ? "" : "; ") + e;
        if (quiet_if_missing && no_device_allowed()) {
            std::fprintf(stderr,
                         "note: no GPU context to mirror the CPU backend's decodes on (%s; TEXDEC_ALLOW_NO_DEVICE=1)\n",
                         why.c_str());
            return nullptr;
        }
        fail_or_skip_for_missing_device("texdec_context_create with TEXDEC_CONTEXT_VALIDATION returned "
                                        "TEXDEC_ERROR_NO_DEVICE (" + why + ")");
        return nullptr;
    }
    if (status != TEXDEC_SUCCESS) {
        std::string why;
        for (const auto& e : self->log_.take_errors()) why += (why.empty() ? "" : "; ") + e;
        FAIL("texdec_context_create (" << backend_name(backend) << " backend) failed: " << texdec_status_string(status)
                                       << " (" << why << ")");
    }
    REQUIRE(self->ctx_ != nullptr);
    check_no_validation_messages(self->log_, "texdec_context_create");
    return self;
}

OwnContext::~OwnContext() {
    mirror_.reset();
    if (ctx_) texdec_context_destroy(ctx_);
}

OwnContext* OwnContext::mirror() {
    if (!mirror_tried_) {
        mirror_tried_ = true;
        mirror_ = open_one(backend_ == Backend::gpu ? Backend::cpu : Backend::gpu, true);
        if (mirror_) mirror_->is_mirror_ = true;
    }
    return mirror_.get();
}

texdec_status OwnContext::decode(const texdec_host_job& job) {
    const bool mirrored = !is_mirror_ && mirror_enabled() && job.dst_size <= kMirrorMaxBytes;
    if (!is_mirror_ && mirror_enabled() && !mirrored) ++g_mirror.skipped_large;
    // The destination as the caller left it (at least one byte, so that a non-NULL dst of size 0
    // stays non-NULL on the mirror).
    std::vector<uint8_t> initial;
    if (mirrored && job.dst) {
        initial.resize(std::max<size_t>(job.dst_size, 1));
        std::memcpy(initial.data(), job.dst, job.dst_size);
    }
    const texdec_status status = texdec_decode(ctx_, &job);
    check_no_validation_messages(log_, "texdec_decode");
    if (mirrored) mirror_decode(job, status, initial);
    return status;
}

// `copy`: the destination's bytes before the primary decode; the mirror decodes into it.
void OwnContext::mirror_decode(const texdec_host_job& job, texdec_status status, std::vector<uint8_t>& copy) {
    OwnContext* m = mirror();
    if (!m) return;
    texdec_host_job mj = job;
    if (job.dst) mj.dst = copy.data();
    const texdec_status mirror_status = texdec_decode(m->ctx_, &mj);
    check_no_validation_messages(m->log_, "texdec_decode on the mirror context");
    m->log_.take_errors();  // the test checks the messages of its own context
    const texdec_status cpu_status = backend_ == Backend::cpu ? status : mirror_status;
    const texdec_status gpu_status = backend_ == Backend::cpu ? mirror_status : status;
    if (cpu_partial_allowed() && cpu_status == TEXDEC_ERROR_UNSUPPORTED_FORMAT && gpu_status != cpu_status) {
        ++g_mirror.skipped_partial;
        std::lock_guard<std::mutex> lock(g_mirror.mutex);
        if (g_mirror.partial_formats.insert(int(job.format)).second)
            std::fprintf(stderr,
                         "note: %s: the CPU backend has no decoder yet; GPU vs CPU not compared "
                         "(TEXDEC_TEST_CPU_PARTIAL=1)\n",
                         format_text(job.format).c_str());
        return;
    }
    if (mirror_status != status) {
        FAIL_CHECK("the backends disagree on " << job_text(job) << ": GPU " << texdec_status_string(gpu_status)
                                               << ", CPU " << texdec_status_string(cpu_status));
        return;
    }
    ++g_mirror.compared;
    if (status != TEXDEC_SUCCESS || !job.dst) return;
    const uint8_t* got = static_cast<const uint8_t*>(job.dst);
    if (std::memcmp(got, copy.data(), job.dst_size) == 0) return;
    size_t differ = 0, first = SIZE_MAX;
    for (size_t i = 0; i < job.dst_size; ++i)
        if (got[i] != copy[i]) {
            ++differ;
            if (first == SIZE_MAX) first = i;
        }
    const size_t from = first / 16 * 16, n = std::min<size_t>(32, job.dst_size - from);
    auto bytes = [&](const uint8_t* p) {
        std::string s;
        char buf[4];
        for (size_t i = 0; i < n; ++i) {
            std::snprintf(buf, sizeof buf, "%02x", p[from + i]);
            if (i && i % 4 == 0) s += ' ';
            s += buf;
        }
        return s;
    };
    const uint8_t* gpu = backend_ == Backend::gpu ? got : copy.data();
    const uint8_t* cpu = backend_ == Backend::gpu ? copy.data() : got;
    FAIL("GPU and CPU backends decode differently: "
         << job_text(job) << ": " << differ << " of " << job.dst_size << " destination bytes differ, first at byte "
         << first << "\n  GPU @" << from << ": " << bytes(gpu) << "\n  CPU @" << from << ": " << bytes(cpu));
}

std::vector<uint8_t> OwnContext::decode_tight(texdec_format format, texdec_output output,
                                              const std::vector<uint8_t>& blocks, uint32_t w, uint32_t h,
                                              uint32_t texel_bytes, uint8_t fill) {
    std::vector<uint8_t> out(size_t(w) * h * texel_bytes, fill);
    REQUIRE(decode(JobBuilder(format, output, w, h).blocks(blocks).texels(out)) == TEXDEC_SUCCESS);
    return out;
}

void OwnContext::close_and_check() {
    if (mirror_) mirror_->close_and_check();
    mirror_.reset();
    if (ctx_) texdec_context_destroy(ctx_);
    ctx_ = nullptr;
    check_no_validation_messages(log_, "texdec_context_destroy");
}

// ---- VulkanTestDevice ---------------------------------------------------------------------------

VKAPI_ATTR VkBool32 VKAPI_CALL VulkanTestDevice::messenger_callback(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                                     VkDebugUtilsMessageTypeFlagsEXT,
                                                                     const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                                     void* user_data) {
    auto* log = static_cast<MessageLog*>(user_data);
    log->add_validation(data && data->pMessage ? data->pMessage : "(no message text)");
    return VK_FALSE;
}

VKAPI_ATTR VkBool32 VKAPI_CALL VulkanTestDevice::report_callback(VkDebugReportFlagsEXT, VkDebugReportObjectTypeEXT, uint64_t,
                                                                  size_t, int32_t, const char*, const char* message,
                                                                  void* user_data) {
    static_cast<MessageLog*>(user_data)->add_validation(message ? message : "(no message text)");
    return VK_FALSE;
}

std::unique_ptr<VulkanTestDevice> VulkanTestDevice::open(const VulkanTestDeviceOptions& options) {
    std::unique_ptr<VulkanTestDevice> self(new VulkanTestDevice);
    if (volkInitialize() != VK_SUCCESS) {
        fail_or_skip_for_missing_device("the Vulkan loader (libvulkan.so.1) could not be loaded");
        return nullptr;
    }
    // The validation layer must exist: a GPU test without it would hide exactly what it should report.
    const bool have_layer = vk_app::has_instance_layer(kValidationLayer);
    const bool host_layer = host_validation_layer();  // inserted by the host's loader, not listed here
    if (!have_layer && !host_layer) {
        fail_or_skip_for_missing_device("VK_LAYER_KHRONOS_validation is not installed");
        return nullptr;
    }
    const bool have_features_ext =
        vk_app::has_instance_extension(kValidationLayer, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);

    VkDebugUtilsMessengerCreateInfoEXT messenger_info =
        vk_app::messenger_info(&VulkanTestDevice::messenger_callback, &self->log_);

    // Without VK_EXT_debug_utils the layer reports through VK_EXT_debug_report (deprecated, but
    // the layer still offers it): every message is recorded all the same.
    VkDebugReportCallbackCreateInfoEXT report_info{VK_STRUCTURE_TYPE_DEBUG_REPORT_CALLBACK_CREATE_INFO_EXT};
    report_info.flags = VK_DEBUG_REPORT_ERROR_BIT_EXT | VK_DEBUG_REPORT_WARNING_BIT_EXT |
                        VK_DEBUG_REPORT_PERFORMANCE_WARNING_BIT_EXT;
    report_info.pfnCallback = &VulkanTestDevice::report_callback;
    report_info.pUserData = &self->log_;
    const void* message_info = options.debug_utils ? static_cast<const void*>(&messenger_info) : &report_info;

    // Synchronization validation: catches missing barriers around the recorded decode.
    const vk_app::SyncValidation sync(message_info);

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "texdec_tests";
    app.apiVersion = VK_API_VERSION_1_1;  // the library's documented minimum
    std::vector<const char*> extensions = {options.debug_utils ? VK_EXT_DEBUG_UTILS_EXTENSION_NAME
                                                               : VK_EXT_DEBUG_REPORT_EXTENSION_NAME};
    if (have_features_ext) extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pNext = have_features_ext ? static_cast<const void*>(&sync.features) : message_info;
    ici.pApplicationInfo = &app;
    ici.enabledLayerCount = host_layer ? 0 : 1;
    ici.ppEnabledLayerNames = &kValidationLayer;
    ici.enabledExtensionCount = uint32_t(extensions.size());
    ici.ppEnabledExtensionNames = extensions.data();
    VkResult r = vkCreateInstance(&ici, nullptr, &self->instance_);
    if (r != VK_SUCCESS) {
        fail_or_skip_for_missing_device("vkCreateInstance with the validation layer failed (VkResult " + std::to_string(r) + ")");
        return nullptr;
    }
    volkLoadInstance(self->instance_);
    if (options.debug_utils)
        r = vkCreateDebugUtilsMessengerEXT(self->instance_, &messenger_info, nullptr, &self->messenger_);
    else
        r = vkCreateDebugReportCallbackEXT(self->instance_, &report_info, nullptr, &self->report_callback_);
    REQUIRE(r == VK_SUCCESS);

    // The library's own policy (src/device_choice.h, through tools/vk_app): TEXDEC_DEVICE (index or
    // name substring), else discrete, integrated, virtual, CPU; the device must have Vulkan 1.1,
    // compute and VK_KHR_push_descriptor.
    const vk_app::ChosenDevice chosen =
        vk_app::choose_device(self->instance_, nullptr, [](VkPhysicalDevice pd) { return vk_app::compute_family(pd); });
    self->physical_ = chosen.physical;
    self->family_ = chosen.family;
    self->properties_ = chosen.properties;
    if (!self->physical_) {
        const char* selector = chosen.selector;
        std::string reason = chosen.count == 0
                                 ? "vkEnumeratePhysicalDevices found no device"
                                 : "no device with compute and VK_KHR_push_descriptor" +
                                       (selector ? " matching TEXDEC_DEVICE=" + std::string(selector) : std::string()) +
                                       (chosen.rejected.empty() ? "" : "; rejected:" + chosen.rejected);
        self->destroy_all();
        fail_or_skip_for_missing_device(reason);
        return nullptr;
    }
    vkGetPhysicalDeviceMemoryProperties(self->physical_, &self->memory_properties_);

    VkPhysicalDeviceFeatures supported{};
    vkGetPhysicalDeviceFeatures(self->physical_, &supported);
    VkPhysicalDeviceFeatures enabled{};
    // Storage images of R8 / RG8 (UNORM, SNORM) need the extended formats feature; an application
    // writing NATIVE BC4/BC5 into images enables it, so the tests do too where the device has it.
    enabled.shaderStorageImageExtendedFormats = supported.shaderStorageImageExtendedFormats;
    if (options.texture_compression) {
        enabled.textureCompressionBC = supported.textureCompressionBC;
        enabled.textureCompressionETC2 = supported.textureCompressionETC2;
        enabled.textureCompressionASTC_LDR = supported.textureCompressionASTC_LDR;
    }
    self->enabled_features_ = enabled;

    std::vector<const char*> device_exts;
    if (options.push_descriptor) device_exts.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
    self->image_format_list_ = vk_app::has_device_extension(self->physical_, VK_KHR_IMAGE_FORMAT_LIST_EXTENSION_NAME);
    if (self->image_format_list_) device_exts.push_back(VK_KHR_IMAGE_FORMAT_LIST_EXTENSION_NAME);
    r = vk_app::create_device(self->physical_, self->family_, uint32_t(device_exts.size()), device_exts.data(),
                              &enabled, nullptr, &self->device_);
    REQUIRE(r == VK_SUCCESS);
    volkLoadDevice(self->device_);
    vkGetDeviceQueue(self->device_, self->family_, 0, &self->queue_);
    VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    cpci.queueFamilyIndex = self->family_;
    cpci.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    r = vkCreateCommandPool(self->device_, &cpci, nullptr, &self->pool_);
    REQUIRE(r == VK_SUCCESS);
    check_no_validation_messages(self->log_, "creating the test's Vulkan device");
    return self;
}

void VulkanTestDevice::destroy_all() {
    if (device_) {
        vkDeviceWaitIdle(device_);
        if (pool_) vkDestroyCommandPool(device_, pool_, nullptr);
        vkDestroyDevice(device_, nullptr);
    }
    pool_ = VK_NULL_HANDLE;
    device_ = VK_NULL_HANDLE;
    if (messenger_) vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
    messenger_ = VK_NULL_HANDLE;
    if (report_callback_) vkDestroyDebugReportCallbackEXT(instance_, report_callback_, nullptr);
    report_callback_ = VK_NULL_HANDLE;
    if (instance_) vkDestroyInstance(instance_, nullptr);
    instance_ = VK_NULL_HANDLE;
}

VulkanTestDevice::~VulkanTestDevice() { destroy_all(); }

void VulkanTestDevice::close_and_check() {
    // Destroying the device makes the layer report objects the test or the library leaked; the
    // messenger lives until after that.
    if (device_) {
        vkDeviceWaitIdle(device_);
        if (pool_) vkDestroyCommandPool(device_, pool_, nullptr);
        pool_ = VK_NULL_HANDLE;
        vkDestroyDevice(device_, nullptr);
        device_ = VK_NULL_HANDLE;
    }
    check_no_validation_messages(log_, "destroying the test's Vulkan device");
    destroy_all();
}

texdec_memory_usage usage_of(texdec_context* ctx) {
    texdec_memory_usage usage;
    std::memset(&usage, 0xAB, sizeof usage);  // every field must be written
    REQUIRE(texdec_context_memory_usage(ctx, &usage) == TEXDEC_SUCCESS);
    return usage;
}

texdec_external_device VulkanTestDevice::external_device() const {
    texdec_external_device d{};
    d.get_instance_proc_addr = vkGetInstanceProcAddr;  // volk's pointer: the loader's entry point
    d.instance = instance_;
    d.physical_device = physical_;
    d.device = device_;
    d.queue_family_index = family_;
    d.queue = queue_;
    return d;
}

HostBuffer VulkanTestDevice::create_buffer(VkDeviceSize size, VkBufferUsageFlags usage) {
    HostBuffer b;
    vk_app::Failure failure;
    const VkResult r = vk_app::create_buffer(device_, memory_properties_, size, usage,
                                             VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                             0, true, &b, &failure);
    INFO("creating a host-visible buffer: " << (failure.call ? failure.call : ""));
    REQUIRE(r == VK_SUCCESS);
    return b;
}

void VulkanTestDevice::destroy(HostBuffer& b) { vk_app::destroy(device_, b); }

TestImage VulkanTestDevice::create_image(VkFormat format, uint32_t width, uint32_t height, uint32_t layers,
                                         VkImageUsageFlags usage, VkImageCreateFlags flags, VkFormat view_format) {
    TestImage img = create_image(vk_app::image_info_2d(format, width, height, layers, usage, flags));
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = img.image;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
    vci.format = view_format ? view_format : format;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, layers};
    // A storage view of an sRGB image created with MUTABLE_FORMAT must not inherit the sRGB
    // format's (missing) storage usage: restrict the view's usage to what its format supports.
    VkImageViewUsageCreateInfo usage_info{VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO};
    if (view_format && view_format != format) {
        usage_info.usage = usage;
        vci.pNext = &usage_info;
    }
    REQUIRE(vkCreateImageView(device_, &vci, nullptr, &img.view) == VK_SUCCESS);
    return img;
}

TestImage VulkanTestDevice::create_image(const VkImageCreateInfo& info) {
    vk_app::Image created;
    vk_app::Failure failure;
    const VkResult r = vk_app::create_image(device_, memory_properties_, info, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                                            &created, &failure);
    INFO("creating an image: " << (failure.call ? failure.call : ""));
    REQUIRE(r == VK_SUCCESS);
    TestImage img;
    img.image = created.image;
    img.memory = created.memory;
    img.info = info;
    img.info.pNext = nullptr;
    return img;
}

void VulkanTestDevice::destroy(TestImage& img) {
    if (img.target) texdec_image_target_destroy(img.target_context, img.target);
    vk_app::Image owned{img.image, img.memory, img.view};
    vk_app::destroy(device_, owned);
    img = TestImage{};
}

bool VulkanTestDevice::format_supports(VkFormat format, VkFormatFeatureFlags features) const {
    VkFormatProperties props;
    vkGetPhysicalDeviceFormatProperties(physical_, format, &props);
    return (props.optimalTilingFeatures & features) == features;
}

VkCommandBuffer VulkanTestDevice::begin_commands() {
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    vk_app::Failure failure;
    const VkResult r =
        vk_app::begin_commands(device_, pool_, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, &cmd, &failure);
    INFO("beginning a command buffer: " << (failure.call ? failure.call : ""));
    REQUIRE(r == VK_SUCCESS);
    return cmd;
}

void VulkanTestDevice::submit_and_wait(VkCommandBuffer cmd) {
    REQUIRE(vkEndCommandBuffer(cmd) == VK_SUCCESS);
    vk_app::Failure failure;
    const VkResult r = vk_app::submit_and_wait(device_, queue_, cmd, VK_NULL_HANDLE, &failure);  // a fence of its own
    vkFreeCommandBuffers(device_, pool_, 1, &cmd);
    INFO("submitting and waiting: " << (failure.call ? failure.call : ""));
    REQUIRE(r == VK_SUCCESS);
}

}  // namespace texdec_test

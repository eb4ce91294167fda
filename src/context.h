// The context: device, function tables, pipelines and host-path staging. Internal.
#pragma once
#include <texdec/texdec.h>

#include "backend.h"
#include "printf_like.h"
#include "task_pool.h"

#include <array>
#include <condition_variable>
#include <cstdarg>
#include <cstdint>
#include <map>
#include <type_traits>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "vk_functions.h"

namespace texdec {

struct TexelFormat;  // formats.h
struct FormatEntry;  // formats.h

// Everything a record call needs to know about one compute pipeline variant.
struct PipelineKey {
    uint32_t shader;     // ShaderId (pipelines.cpp)
    uint32_t variant;    // TEXDEC_SC_VARIANT
    uint32_t is_signed;  // TEXDEC_SC_SIGNED
    uint32_t store;      // TEXDEC_SC_STORE
    uint32_t rounding;   // TEXDEC_SC_ROUNDING
    uint32_t srgb;       // TEXDEC_SC_SRGB
    uint32_t block_w, block_h, block_d;  // TEXDEC_SC_BLOCK_W/H/D
    uint32_t store_swizzle;  // TEXDEC_SC_STORE_SWIZZLE (image variants; 0 for buffers)
    auto operator<=>(const PipelineKey&) const = default;
};

// A buffer + its memory; host-visible ones are persistently mapped (mapped != nullptr).
struct MappedBuffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize size = 0;
    void* mapped = nullptr;
    bool coherent = false;
    bool device_local = false;
};

// One set of staging buffers with the command buffer and fence that use them. texdec_decode
// streams a job too large for one set through two of them: the host fills one (and reads the
// other's texels back) while the GPU decodes the other.
struct StagingSlot {
    MappedBuffer upload;    // blocks
    MappedBuffer readback;  // texels
    // Discrete GPUs: device-local copies, so the shader does not read and write over the bus.
    MappedBuffer device_blocks;
    MappedBuffer device_texels;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    bool in_flight = false;  // submitted and not yet waited for (a timed-out call leaves it set)
};

// The most copy threads a GPU context's one-call path uses (texdec_context::copy_threads).
constexpr uint32_t kMaxCopyThreads = 16;

// Resources of the one-call path, reused between calls (guarded by host_mutex).
struct HostStaging {
    static constexpr uint32_t kSlots = 2;
    StagingSlot slots[kSlots];
    VkCommandPool pool = VK_NULL_HANDLE;
    // texdec_decode_timed: 4 timestamps per slot (start, blocks copied, decoded, texels copied),
    // created on the first timed call where the queue family has timestamps (timestamp_bits > 0).
    VkQueryPool timestamps = VK_NULL_HANDLE;
    uint32_t timestamp_bits = UINT32_MAX;  // the queue family's timestampValidBits; UINT32_MAX = not asked yet
};

// What the capability rules read (support.cpp), gathered once at context creation so that asking
// costs nothing and the answer cannot change between the question and the work. The
// TEXDEC_DEBUG_MAX_SHARED_MEMORY / _MAX_INVOCATIONS / _NO_STORAGE_FORMATS environment variables
// (read at creation; tests/README.md) replace them to fake a smaller device.
struct DeviceFacts {
    bool push_descriptor = false;      // vkCmdPushDescriptorSetKHR loaded: the device enabled the extension
    uint32_t max_shared_memory = 0;    // maxComputeSharedMemorySize
    uint32_t max_invocations = 0;      // min(maxComputeWorkGroupInvocations, maxComputeWorkGroupSize[0])
    // ASTC workgroup size (specialization constant TEXDEC_SC_GROUP_SIZE): TEXDEC_ASTC_GROUP_SIZE_FAST
    // on a GPU that offers it, else TEXDEC_ASTC_GROUP_SIZE (CPU devices: 512 was slower on lavapipe).
    // TEXDEC_DEBUG_ASTC_GROUP_SIZE=256|512 picks one (tests run the 512 shader on lavapipe with it).
    uint32_t astc_group_size = 0;
    uint32_t max_texel_buffer_elements = 0;
    // Format properties of every format an image target or the tables use (image_target.cpp's
    // table, R32_UINT).
    static constexpr uint32_t kMaxFormats = 32;
    uint32_t format_count = 0;
    VkFormat formats[kMaxFormats] = {};
    VkFormatProperties format_properties[kMaxFormats] = {};
};

}  // namespace texdec

struct texdec_context {
    // The backend that does the work (backend.h): the GPU backend (gpu_backend.cpp), whose state is
    // the Vulkan members below, or the CPU backend (cpu/cpu_backend.cpp), with which they stay empty.
    // Set first at creation; nothing outside the two backends asks which one it is.
    texdec::Backend* backend = nullptr;
    // The task pool (task_pool.h): the CPU backend's threads or the caller's run_tasks hook; on GPU
    // contexts the one-call path's copy threads.
    texdec::TaskPool tasks;
    texdec::InstanceFunctions vki;
    texdec::DeviceFunctions vkd;
    bool owns_device = false;
    void* loader_library = nullptr;  // own contexts: the dlopened Vulkan loader, closed in destroy
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical_device = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    uint32_t queue_family = 0;
    VkQueueFlags queue_flags = 0;
    VkQueue queue = VK_NULL_HANDLE;
    void (*lock_queue)(void*) = nullptr;
    void (*unlock_queue)(void*) = nullptr;
    void* queue_user_data = nullptr;
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;

    VkAllocationCallbacks allocator_storage{};
    const VkAllocationCallbacks* allocator = nullptr;  // nullptr or &allocator_storage
    VkPipelineCache pipeline_cache = VK_NULL_HANDLE;
    bool owns_pipeline_cache = false;

    VkPhysicalDeviceProperties properties{};
    VkPhysicalDeviceMemoryProperties memory_properties{};
    texdec::DeviceFacts facts;  // immutable after creation
    // VK_EXT_debug_utils on the instance (its functions loaded): texdec names its objects and
    // labels what it records (debug_utils.cpp).
    bool debug_utils = false;

    texdec_message_callback message_callback = nullptr;
    void* user_data = nullptr;
    uint64_t max_texels_per_dispatch = uint64_t(1) << 24;  // texdec_context_create_info

    // Pipelines: created on first use (or by texdec_prepare). pipeline_mutex guards the map and the
    // keys being compiled, never a compile: finding an existing variant never waits for another's
    // creation. A thread that needs a key in flight waits on pipeline_compiled for that compile.
    std::mutex pipeline_mutex;
    std::condition_variable pipeline_compiled;
    std::set<texdec::PipelineKey> pipelines_in_flight;
    VkDescriptorSetLayout set_layout_buffer_dst = VK_NULL_HANDLE;
    VkDescriptorSetLayout set_layout_image_dst = VK_NULL_HANDLE;
    VkPipelineLayout layout_buffer_dst = VK_NULL_HANDLE;
    VkPipelineLayout layout_image_dst = VK_NULL_HANDLE;
    std::map<texdec::PipelineKey, VkPipeline> pipelines;
    // The variants whose TEXDEC_ERROR_NOT_READY a record call has reported (an INFO, once per
    // variant): format, output, rounding, destination kind, image format. Guarded by
    // pipeline_mutex.
    std::set<std::array<uint32_t, 5>> not_ready_reported;

    // Lookup tables (luts.cpp): created on first use (or by texdec_prepare), kept until
    // destruction. lut_mutex guards these members only, never a table's creation.
    std::mutex lut_mutex;
    texdec::MappedBuffer astc_shared_lut;
    std::map<uint32_t, texdec::MappedBuffer> astc_footprint_luts;  // key: w | h << 8 | d << 16
    texdec::MappedBuffer tables_lut;                // BC6H/BC7/ETC2/EAC tables (uniform texel buffer)
    VkBufferView tables_lut_view = VK_NULL_HANDLE;  // R32_UINT view of tables_lut

    std::mutex host_mutex;
    texdec::HostStaging staging;
    // TEXDEC_DEBUG_DEVICE_STAGING=1 (read at creation): use the discrete-GPU staging path even on
    // unified memory, so the tests exercise it on lavapipe.
    bool force_device_staging = false;
    // Staging bytes (blocks + texels) one submission of texdec_decode may use; larger jobs are
    // streamed in parts. TEXDEC_DEBUG_STAGING_PART_BYTES (read at creation) lowers it for tests.
    uint64_t staging_part_bytes = uint64_t(64) << 20;
    // Threads (the caller's included) that copy blocks into and texels out of the staging buffers:
    // min(hardware threads, 16) (on a 16-core H100 host, 16 threads copied 256 MiB of texels out in
    // 4.3 ms, 8 in 8.0, 4 in 14.1); TEXDEC_DEBUG_COPY_THREADS (read at creation, 1-16) sets it for
    // tests and measurements. Copies below 1 MiB a thread use fewer.
    uint32_t copy_threads = 1;
    bool copy_debug = false;  // TEXDEC_DEBUG_COPY_THREADS set: split even tiny copies
    // TEXDEC_DEBUG_ONE_CALL_TRACE=1 (read at creation): texdec_decode_timed prints each part's
    // times to stderr (profiling the streamed path); =2 also decodes each part once more, untimed,
    // before the timed decode (is the decode slow when cold?).
    uint32_t trace_one_call = 0;

    // Sends a printf-style message to the callback (if any); returns `status` for chaining.
    texdec_status report(texdec_status status, texdec_message_severity severity, const char* fmt, ...) const
        TEXDEC_PRINTF_LIKE(4, 5);
    void lock() const { if (lock_queue) lock_queue(queue_user_data); }
    void unlock() const { if (unlock_queue) unlock_queue(queue_user_data); }
};

// A caller's VkImage with one storage view per mip level (image_target.cpp). Immutable.
struct texdec_image_target {
    VkImage image = VK_NULL_HANDLE;
    bool is_3d = false;
    const texdec::TexelFormat* format = nullptr;  // its format's row of the texel-format table (formats.h)
    VkExtent3D extent{};
    uint32_t mip_levels = 0, array_layers = 0;
    VkImageUsageFlags usage = 0;                 // the image's (the layouts its barriers may use)
    VkImageView views[32] = {};                  // one per mip level
};

namespace texdec {

// INVALID_ARGUMENT for a required pointer that is NULL, with a message naming the function and
// the argument (reported through ctx when there is one).
texdec_status null_argument(const texdec_context* ctx, const char* function, const char* argument);

// INVALID_ARGUMENT for a non-NULL `next` where texdec accepts no extension struct (the header's
// struct rule: unknown chained types are refused, never ignored); `where` names the struct.
texdec_status check_chain(const texdec_context* ctx, const void* next, const char* where);

// Maps a VkResult to a status and reports what failed.
texdec_status vk_failure(const texdec_context* ctx, VkResult result, const char* what);

// Pipelines (pipelines.cpp).
texdec_status create_pipeline_layouts(texdec_context* ctx);
void destroy_pipelines(texdec_context* ctx);
// The pipeline for a key, created on first use (compiled outside pipeline_mutex; a thread that
// needs a key another thread is compiling waits for that compile). Thread-safe.
texdec_status get_pipeline(texdec_context* ctx, const PipelineKey& key, Creation creation, VkPipeline* pipeline);
// The shader id for (family, destination kind, output VkFormat); false if none exists.
bool find_shader(texdec_family family, texdec_destination_kind dst, VkFormat output_format, uint32_t* shader);

// Capability rules (support.cpp), each the one place its rule lives: texdec_query_support asks
// them, and the calls that would fail apply them. Each returns TEXDEC_SUCCESS or the failure
// status, reports the first problem through ctx when `report` is set, and ORs its reasons and
// numbers into `support` when that is not null.
void gather_device_facts(texdec_context* ctx);
// What a decoder of `format`'s family needs of the device: push descriptors, compute shared
// memory and invocations, the tables' texel buffer.
texdec_status check_device_needs(const texdec_context* ctx, const FormatEntry& format, bool report,
                                 texdec_support* support);
// Whether the device can write `view_format` as a storage image with `tiling`.
texdec_status check_storage_format(const texdec_context* ctx, VkFormat view_format, VkImageTiling tiling, bool report,
                                   texdec_support* support);
// The format properties gathered at creation (asked of the device for a format not gathered).
VkFormatProperties format_properties(const texdec_context* ctx, VkFormat format);

// Image targets (image_target.cpp): every image and storage view format of the image-format
// table, for DeviceFacts.
uint32_t target_formats(VkFormat* formats, uint32_t max);

// VK_EXT_debug_utils (debug_utils.cpp); all do nothing without it. Object names: "texdec ..."
// (printf-style); labels: begin/end around what texdec records.
void name_object(const texdec_context* ctx, VkObjectType type, uint64_t handle, const char* fmt, ...)
    TEXDEC_PRINTF_LIKE(4, 5);
template <class Handle>
uint64_t handle_bits(Handle h) {
    if constexpr (sizeof(Handle) == sizeof(uint64_t) && !std::is_pointer_v<Handle>) return uint64_t(h);
    else return uint64_t(reinterpret_cast<uintptr_t>(h));
}
void begin_label(const texdec_context* ctx, VkCommandBuffer cmd, const char* fmt, ...) TEXDEC_PRINTF_LIKE(3, 4);
void end_label(const texdec_context* ctx, VkCommandBuffer cmd);

// Host path teardown (decode_host.cpp).
void destroy_host_staging(texdec_context* ctx);

// Buffers (decode_host.cpp). create_buffer makes a buffer of exactly `size` bytes usable as storage and
// transfer source/destination (plus `extra_usage`), in memory with `required` flags (preferring
// `preferred`), mapped when host-visible; `what` names it in error messages.
uint32_t find_memory_type(const texdec_context* ctx, uint32_t type_bits, VkMemoryPropertyFlags required,
                          VkMemoryPropertyFlags preferred);
texdec_status create_buffer(texdec_context* ctx, VkDeviceSize size, VkMemoryPropertyFlags required,
                            VkMemoryPropertyFlags preferred, const char* what, MappedBuffer& b,
                            VkBufferUsageFlags extra_usage = 0);
void destroy_buffer(texdec_context* ctx, MappedBuffer& b);

// The ASTC lookup tables for a footprint (built on first use, outside lut_mutex; thread-safe), as
// descriptors for TEXDEC_BINDING_LUT and TEXDEC_BINDING_FOOTPRINT_LUT.
texdec_status get_astc_luts(texdec_context* ctx, uint32_t block_w, uint32_t block_h, uint32_t block_d, Creation creation,
                            VkDescriptorBufferInfo* shared, VkDescriptorBufferInfo* footprint);
// The BPTC and ETC tables (BC6H, BC7, ETC2, EAC; built on first use, outside lut_mutex;
// thread-safe) as the R32_UINT uniform texel buffer view for TEXDEC_BINDING_TABLES.
texdec_status get_tables_lut(texdec_context* ctx, Creation creation, VkBufferView* view);
void destroy_luts(texdec_context* ctx);
// Bytes of lookup-table buffers created so far (thread-safe).
uint64_t lut_bytes(texdec_context* ctx);

}  // namespace texdec

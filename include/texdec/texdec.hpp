// texdec.hpp — header-only C++ wrapper over texdec.h: RAII handles and byte-span parameters.
// Compiles as C++17 and later (no C++20 library); no exceptions: every call that can fail
// returns its texdec_status (marked [[nodiscard]]), and results come back through out-parameters,
// in the C functions' argument order. Nothing here that the C API lacks: the C structs are used
// as they are (texdec.h documents them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>
#include <utility>

#include "texdec.h"

namespace texdec {

using Status = texdec_status;
using Format = texdec_format;
using Output = texdec_output;

inline const char* to_string(Status status) noexcept { return texdec_status_string(status); }

namespace detail {
// A contiguous container (std::vector, std::array, std::string, std::span, ...) of trivially
// copyable elements: has std::data() and std::size().
template <class C>
using ContiguousElement = std::remove_pointer_t<decltype(std::data(std::declval<C&>()))>;
template <class C, class = void>
struct IsByteSource : std::false_type {};
template <class C>
struct IsByteSource<C, std::void_t<ContiguousElement<C>, decltype(std::size(std::declval<C&>()))>>
    : std::is_trivially_copyable<std::remove_cv_t<ContiguousElement<C>>> {};
}  // namespace detail

// Bytes texdec reads (compressed blocks): a pointer and a size, from either those or any
// contiguous container of trivially copyable elements (its size in bytes is size() * sizeof).
class ConstByteSpan {
public:
    constexpr ConstByteSpan() noexcept = default;
    constexpr ConstByteSpan(const void* data, size_t size) noexcept : data_(data), size_(size) {}
    template <class C, class = std::enable_if_t<detail::IsByteSource<const C>::value>>
    constexpr ConstByteSpan(const C& bytes) noexcept
        : data_(std::data(bytes)), size_(std::size(bytes) * sizeof(detail::ContiguousElement<const C>)) {}
    constexpr const void* data() const noexcept { return data_; }
    constexpr size_t size() const noexcept { return size_; }

private:
    const void* data_ = nullptr;
    size_t size_ = 0;
};

// Bytes texdec writes (decoded texels): as ConstByteSpan, from writable containers only.
class ByteSpan {
public:
    constexpr ByteSpan() noexcept = default;
    constexpr ByteSpan(void* data, size_t size) noexcept : data_(data), size_(size) {}
    // Takes temporaries too (a std::span<std::byte> returned by std::as_writable_bytes).
    template <class C, class = std::enable_if_t<!std::is_same_v<std::decay_t<C>, ByteSpan> &&
                                                detail::IsByteSource<std::remove_reference_t<C>>::value &&
                                                !std::is_const_v<detail::ContiguousElement<std::remove_reference_t<C>>>>>
    constexpr ByteSpan(C&& bytes) noexcept
        : data_(std::data(bytes)),
          size_(std::size(bytes) * sizeof(detail::ContiguousElement<std::remove_reference_t<C>>)) {}
    constexpr void* data() const noexcept { return data_; }
    constexpr size_t size() const noexcept { return size_; }

private:
    void* data_ = nullptr;
    size_t size_ = 0;
};

// A texdec_decode job for tightly packed blocks and texels (EXACT BC rounding, row length, pitches
// and timeout at their defaults): set more fields on the result (bc_rounding, dst_row_pitch, ...)
// before passing it to Context::decode.
inline texdec_host_job host_job(Format format, Output output, uint32_t width, uint32_t height, uint32_t depth,
                                ConstByteSpan src, ByteSpan dst) noexcept {
    texdec_host_job job{};
    job.format = format;
    job.output = output;
    job.bc_rounding = TEXDEC_BC_ROUNDING_EXACT;
    job.width = width;
    job.height = height;
    job.depth = depth;
    job.src = src.data();
    job.src_size = src.size();
    job.dst = dst.data();
    job.dst_size = dst.size();
    return job;
}

// A block-linear source layout (texdec.h "source layouts") to chain on a texdec_host_job's or a
// texdec_region's next: block height and depth in GOBs, layer stride in bytes (0: see texdec.h).
// The struct must outlive the call that reads the job.
inline texdec_source_layout_info block_linear_layout(uint32_t block_height, uint32_t block_depth = 1,
                                                     uint64_t layer_stride = 0) noexcept {
    return texdec_source_layout_info{TEXDEC_STRUCTURE_TYPE_SOURCE_LAYOUT_INFO,
                                     nullptr,
                                     TEXDEC_SOURCE_LAYOUT_BLOCK_LINEAR,
                                     block_height,
                                     block_depth,
                                     layer_stride};
}

// Scratch for batched small regions (texdec.h "many small regions") to chain on a
// texdec_regions_job's next: a range of your buffer (STORAGE + TRANSFER_DST usage) of at least
// Context::regions_scratch_size bytes. The struct must outlive the record call.
inline texdec_regions_scratch_info regions_scratch(VkBuffer buffer, VkDeviceSize offset, VkDeviceSize size) noexcept {
    return texdec_regions_scratch_info{TEXDEC_STRUCTURE_TYPE_REGIONS_SCRATCH_INFO, nullptr, buffer, offset, size};
}

// The texdec_image_target_create_info of `image`, created with `info`: type, format, flags, usage,
// tiling, extent, mip levels and layers as the image has them. `next` stays nullptr: chain the
// VkImageFormatListCreateInfo the image was created with, if any, yourself (texdec.h).
inline texdec_image_target_create_info image_target_info(VkImage image, const VkImageCreateInfo& info) noexcept {
    return texdec_image_target_create_info{nullptr,    image,       info.imageType, info.format,    info.flags,
                                           info.usage, info.tiling, info.extent,    info.mipLevels, info.arrayLayers};
}

// The texdec_image_target_create_info of a 2D image (VK_IMAGE_TILING_OPTIMAL) of `format`,
// width x height texels at mip level 0, with `mip_levels` levels and `array_layers` layers,
// created with `usage` and `flags` (MUTABLE_FORMAT, EXTENDED_USAGE where texdec.h's format table
// asks for them).
inline texdec_image_target_create_info image_target_info(VkImage image, VkFormat format, VkImageUsageFlags usage,
                                                         uint32_t width, uint32_t height, uint32_t mip_levels = 1,
                                                         uint32_t array_layers = 1,
                                                         VkImageCreateFlags flags = 0) noexcept {
    VkImageCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
    info.flags = flags;
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = format;
    info.extent = {width, height, 1};
    info.mipLevels = mip_levels;
    info.arrayLayers = array_layers;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = usage;
    return image_target_info(image, info);
}

// A texdec_regions_job (EXACT BC rounding, no flags, barriers or scratch, the context's dispatch
// size) decoding `region_count` regions of `src_size` bytes of `src_buffer` into `dst_size`
// bytes of `dst_buffer`: set more fields on the result (bc_rounding, barriers, next, ...) before
// passing it to Context::record_regions. The regions must outlive the record call.
inline texdec_regions_job regions_job(Format format, Output output, VkBuffer src_buffer, VkDeviceSize src_size,
                                      const texdec_region* regions, uint32_t region_count, VkBuffer dst_buffer,
                                      VkDeviceSize dst_size) noexcept {
    return texdec_regions_job{nullptr,    format,     output,       TEXDEC_BC_ROUNDING_EXACT,
                              0,          src_buffer, src_size,     nullptr,
                              dst_buffer, dst_size,   region_count, regions,
                              nullptr,    0};
}

// The same job into an image target (ImageTarget::get(), or texdec_image_target_create's).
inline texdec_regions_job regions_job(Format format, Output output, VkBuffer src_buffer, VkDeviceSize src_size,
                                      const texdec_region* regions, uint32_t region_count,
                                      const texdec_image_target* dst_image) noexcept {
    texdec_regions_job job =
        regions_job(format, output, src_buffer, src_size, regions, region_count, VK_NULL_HANDLE, 0);
    job.dst_image = dst_image;
    return job;
}

// The calls of a context, shared by Context (owning) and ContextRef (not owning); Self::get()
// gives the texdec_context*.
template <class Self>
class ContextCalls {
public:
    const char* device_name() const noexcept { return texdec_context_device_name(ctx()); }
    texdec_backend backend() const noexcept { return texdec_context_backend(ctx()); }

    // texdec_decode of host_job(format, output, width, height, depth, src, dst).
    [[nodiscard]] Status decode(Format format, Output output, uint32_t width, uint32_t height, uint32_t depth,
                                ConstByteSpan src, ByteSpan dst) const noexcept {
        const texdec_host_job job = host_job(format, output, width, height, depth, src, dst);
        return texdec_decode(ctx(), &job);
    }
    [[nodiscard]] Status decode(const texdec_host_job& job) const noexcept { return texdec_decode(ctx(), &job); }
    // texdec_decode_timed (timing may be NULL).
    [[nodiscard]] Status decode_timed(const texdec_host_job& job, texdec_decode_timing* timing) const noexcept {
        return texdec_decode_timed(ctx(), &job, timing);
    }
    [[nodiscard]] Status decode_scratch_size(const texdec_host_job& job, uint64_t& host_bytes,
                                             uint64_t& device_bytes) const noexcept {
        return texdec_decode_scratch_size(ctx(), &job, &host_bytes, &device_bytes);
    }
    [[nodiscard]] Status record_regions(VkCommandBuffer cmd, const texdec_regions_job& job) const noexcept {
        return texdec_record_regions(ctx(), cmd, &job);
    }
    // The scratch bytes record_regions can use for `job`'s regions (texdec_regions_scratch_size).
    [[nodiscard]] Status regions_scratch_size(const texdec_regions_job& job, VkDeviceSize& bytes) const noexcept {
        return texdec_regions_scratch_size(ctx(), &job, &bytes);
    }
    // Creates the variants' pipelines and tables now (any thread; see texdec_prepare).
    [[nodiscard]] Status prepare(uint32_t variant_count, const texdec_variant* variants) const noexcept {
        return texdec_prepare(ctx(), variant_count, variants);
    }
    // TEXDEC_SUCCESS or TEXDEC_ERROR_NOT_READY (see texdec_variant_ready).
    [[nodiscard]] Status variant_ready(const texdec_variant& variant) const noexcept {
        return texdec_variant_ready(ctx(), &variant);
    }
    // Whether this context can decode a variant, and why not (see texdec_query_support).
    [[nodiscard]] Status query_support(const texdec_variant& variant, texdec_support& support) const noexcept {
        return texdec_query_support(ctx(), &variant, &support);
    }
    // texdec_plan_upload with this context as info.context (whatever info.context says).
    [[nodiscard]] Status plan_upload(texdec_upload_plan_info info, texdec_upload_plan& plan) const noexcept {
        info.context = ctx();
        return texdec_plan_upload(&info, &plan);
    }
    [[nodiscard]] Status memory_usage(texdec_memory_usage& usage) const noexcept {
        return texdec_context_memory_usage(ctx(), &usage);
    }
    [[nodiscard]] Status release_staging() const noexcept { return texdec_context_release_staging(ctx()); }

private:
    texdec_context* ctx() const noexcept { return static_cast<const Self&>(*this).get(); }
};

// Owns a texdec_context; movable, not copyable.
class Context : public ContextCalls<Context> {
public:
    Context() noexcept = default;
    explicit Context(texdec_context* adopted) noexcept : ctx_(adopted) {}
    Context(Context&& other) noexcept : ctx_(std::exchange(other.ctx_, nullptr)) {}
    Context& operator=(Context&& other) noexcept {
        if (this != &other) {
            texdec_context_destroy(ctx_);
            ctx_ = std::exchange(other.ctx_, nullptr);
        }
        return *this;
    }
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;
    ~Context() { texdec_context_destroy(ctx_); }

    // Own instance + device (texdec_context_create); *out is replaced (empty on failure).
    [[nodiscard]] static Status create(const texdec_context_create_info& info, Context& out) noexcept {
        return adopt(texdec_context_create(&info, &out.reset()), out);
    }
    // The same with every default (texdec_context_create with info NULL).
    [[nodiscard]] static Status create(Context& out) noexcept {
        return adopt(texdec_context_create(nullptr, &out.reset()), out);
    }
    // An own context on a backend (texdec_backend_info chained on info.next; info.next must be
    // NULL): GPU, CPU (cpu_threads 0 = the hardware's) or AUTO.
    [[nodiscard]] static Status create(texdec_backend backend, uint32_t cpu_threads, Context& out,
                                       texdec_context_create_info info = {}) noexcept {
        texdec_backend_info choice{TEXDEC_STRUCTURE_TYPE_BACKEND_INFO, nullptr, backend, cpu_threads, nullptr, nullptr};
        if (info.next) return TEXDEC_ERROR_INVALID_ARGUMENT;
        info.next = &choice;
        return adopt(texdec_context_create(&info, &out.reset()), out);
    }
    // The caller's device (texdec_context_create_external).
    [[nodiscard]] static Status create_external(const texdec_context_create_info& info,
                                                const texdec_external_device& device, Context& out) noexcept {
        return adopt(texdec_context_create_external(&info, &device, &out.reset()), out);
    }

    texdec_context* get() const noexcept { return ctx_; }
    explicit operator bool() const noexcept { return ctx_ != nullptr; }
    // Gives the context up without destroying it: the caller owns the pointer returned (destroy
    // it with texdec_context_destroy), and this Context is empty.
    [[nodiscard]] texdec_context* release() noexcept { return std::exchange(ctx_, nullptr); }

private:
    // Destroys the context held and returns the slot a create function fills.
    texdec_context*& reset() noexcept {
        texdec_context_destroy(std::exchange(ctx_, nullptr));
        return ctx_;
    }
    static Status adopt(Status status, Context& out) noexcept {
        if (status != TEXDEC_SUCCESS) out.reset();
        return status;
    }

    texdec_context* ctx_ = nullptr;
};

// A context that someone else owns (a texdec_context* from C code, an engine's, a Context's):
// the calls of Context, never a destroy. Copyable; it must not outlive the context.
class ContextRef : public ContextCalls<ContextRef> {
public:
    ContextRef() noexcept = default;
    explicit ContextRef(texdec_context* context) noexcept : ctx_(context) {}
    ContextRef(const Context& context) noexcept : ctx_(context.get()) {}  // NOLINT: a view of it

    texdec_context* get() const noexcept { return ctx_; }
    explicit operator bool() const noexcept { return ctx_ != nullptr; }

private:
    texdec_context* ctx_ = nullptr;
};

// Owns a texdec_image_target (destroy it before its context); movable, not copyable.
class ImageTarget {
public:
    ImageTarget() noexcept = default;
    ImageTarget(ImageTarget&& other) noexcept
        : ctx_(std::exchange(other.ctx_, nullptr)), target_(std::exchange(other.target_, nullptr)) {}
    ImageTarget& operator=(ImageTarget&& other) noexcept {
        if (this != &other) {
            texdec_image_target_destroy(ctx_, target_);
            ctx_ = std::exchange(other.ctx_, nullptr);
            target_ = std::exchange(other.target_, nullptr);
        }
        return *this;
    }
    ImageTarget(const ImageTarget&) = delete;
    ImageTarget& operator=(const ImageTarget&) = delete;
    ~ImageTarget() { texdec_image_target_destroy(ctx_, target_); }

    // texdec_image_target_create; *out is replaced (empty on failure).
    [[nodiscard]] static Status create(ContextRef context, const texdec_image_target_create_info& info,
                                       ImageTarget& out) noexcept {
        out = ImageTarget();
        texdec_image_target* target = nullptr;
        const Status status = texdec_image_target_create(context.get(), &info, &target);
        if (status == TEXDEC_SUCCESS) {
            out.ctx_ = context.get();
            out.target_ = target;
        }
        return status;
    }
    const texdec_image_target* get() const noexcept { return target_; }
    explicit operator bool() const noexcept { return target_ != nullptr; }

private:
    texdec_context* ctx_ = nullptr;
    texdec_image_target* target_ = nullptr;
};

// ---- the upload plan (texdec.h "the upload plan") ----------------------------------------------

// texdec_plan_upload (info.context may be NULL: the plan names no backend).
[[nodiscard]] inline Status plan_upload(const texdec_upload_plan_info& info, texdec_upload_plan& plan) noexcept {
    return texdec_plan_upload(&info, &plan);
}

// The VkImageCreateInfo of the image `plan` describes: its type, format, flags and usage, tiling
// OPTIMAL, one sample, exclusive sharing, layout UNDEFINED, and your extent (level 0), levels and
// layers (give those the plan was asked for). Where the plan lists view formats
// (view_format_count > 0, a DECODE_RECORD image), `list` is filled with them and chained on pNext:
// keep `list` and `plan` alive until vkCreateImage, and chain `list` on the
// texdec_image_target_create_info too (image_target_info(image, info, list) does).
inline VkImageCreateInfo image_create_info(const texdec_upload_plan& plan, VkExtent3D extent, uint32_t mip_levels,
                                           uint32_t array_layers, VkImageFormatListCreateInfo& list) noexcept {
    list = VkImageFormatListCreateInfo{};
    list.sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO;
    list.viewFormatCount = plan.view_format_count;
    list.pViewFormats = plan.view_formats;
    VkImageCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
    info.pNext = plan.view_format_count ? &list : nullptr;
    info.flags = plan.image_flags;
    info.imageType = plan.image_type;
    info.format = plan.image_format;
    info.extent = extent;
    info.mipLevels = mip_levels ? mip_levels : 1;
    info.arrayLayers = array_layers ? array_layers : 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = plan.image_usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    return info;
}

// The texdec_image_target_create_info of an image created with image_create_info(plan, ..., list):
// as image_target_info(image, info), with `list` chained on next where info has it.
inline texdec_image_target_create_info image_target_info(VkImage image, const VkImageCreateInfo& info,
                                                         const VkImageFormatListCreateInfo& list) noexcept {
    texdec_image_target_create_info target = image_target_info(image, info);
    if (info.pNext == &list) target.next = &list;
    return target;
}

// ---- format queries (texdec.h's functions of the same names) ----------------------------------
[[nodiscard]] inline Status format_get_info(Format format, texdec_format_info& info) noexcept {
    return texdec_format_get_info(format, &info);
}
[[nodiscard]] inline Status output_vk_format(Format format, Output output, VkFormat& vk_format) noexcept {
    return texdec_output_vk_format(format, output, &vk_format);
}
[[nodiscard]] inline Status texel_format_get_info(VkFormat format, texdec_texel_format_info& info) noexcept {
    return texdec_texel_format_get_info(format, &info);
}
[[nodiscard]] inline Status output_texel_size(Format format, Output output, uint32_t& bytes) noexcept {
    return texdec_output_texel_size(format, output, &bytes);
}
[[nodiscard]] inline Status encoded_size(Format format, uint32_t width, uint32_t height, uint32_t depth,
                                         uint64_t& bytes) noexcept {
    return texdec_encoded_size(format, width, height, depth, &bytes);
}
[[nodiscard]] inline Status decoded_size(Format format, Output output, uint32_t width, uint32_t height,
                                         uint32_t depth, uint64_t& bytes) noexcept {
    return texdec_decoded_size(format, output, width, height, depth, &bytes);
}

}  // namespace texdec

// texdec.hpp — header-only C++20 wrapper over texdec.h: an RAII context and span-based decode.
// Nothing here that the C API lacks; no exceptions (statuses are returned).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include "texdec.h"

namespace texdec {

using Status = texdec_status;
using Format = texdec_format;
using Output = texdec_output;

inline const char* to_string(Status status) { return texdec_status_string(status); }

// Owns a texdec_context; movable, not copyable.
class Context {
public:
    Context() = default;
    explicit Context(texdec_context* adopted) : ctx_(adopted) {}
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

    // Own instance + device (see texdec_context_create).
    static Status create(Context& out, const texdec_context_create_info& info = {}) {
        texdec_context* ctx = nullptr;
        Status s = texdec_context_create(&info, &ctx);
        out = Context(ctx);
        return s;
    }
    // The caller's device (see texdec_context_create_external).
    static Status create_external(Context& out, const texdec_external_device& device,
                                  const texdec_context_create_info& info = {}) {
        texdec_context* ctx = nullptr;
        Status s = texdec_context_create_external(&info, &device, &ctx);
        out = Context(ctx);
        return s;
    }

    texdec_context* get() const { return ctx_; }
    explicit operator bool() const { return ctx_ != nullptr; }
    const char* device_name() const { return texdec_context_device_name(ctx_); }

    // Decodes tightly packed blocks into tightly packed texels (or the pitches given).
    Status decode(Format format, Output output, uint32_t width, uint32_t height, uint32_t depth,
                  std::span<const std::byte> blocks, std::span<std::byte> texels,
                  texdec_bc_rounding rounding = TEXDEC_BC_ROUNDING_EXACT, size_t row_pitch = 0,
                  size_t slice_pitch = 0) const {
        texdec_host_job job{};
        job.format = format;
        job.output = output;
        job.bc_rounding = rounding;
        job.width = width;
        job.height = height;
        job.depth = depth;
        job.blocks = blocks.data();
        job.blocks_size = blocks.size();
        job.texels = texels.data();
        job.texels_size = texels.size();
        job.row_pitch = row_pitch;
        job.slice_pitch = slice_pitch;
        return texdec_decode(ctx_, &job);
    }
    Status decode(const texdec_host_job& job) const { return texdec_decode(ctx_, &job); }
    // Fills *timing (its struct_size is set here).
    Status decode_timed(const texdec_host_job& job, texdec_decode_timing* timing) const {
        if (timing) timing->struct_size = sizeof(texdec_decode_timing);
        return texdec_decode_timed(ctx_, &job, timing);
    }
    Status record(VkCommandBuffer cmd, const texdec_record_job& job) const { return texdec_record_decode(ctx_, cmd, &job); }
    // Many copy-shaped regions in one call (see texdec_record_regions).
    Status record(VkCommandBuffer cmd, const texdec_regions_job& job) const { return texdec_record_regions(ctx_, cmd, &job); }
    // Creates the variants' pipelines and tables now (any thread; see texdec_prepare).
    Status prepare(uint32_t variant_count, const texdec_variant* variants) const {
        return texdec_prepare(ctx_, variant_count, variants);
    }
    // TEXDEC_SUCCESS or TEXDEC_ERROR_NOT_READY (see texdec_variant_ready).
    Status variant_ready(const texdec_variant& variant) const { return texdec_variant_ready(ctx_, &variant); }
    texdec_memory_usage memory_usage() const {
        texdec_memory_usage usage{};
        texdec_context_memory_usage(ctx_, &usage);
        return usage;
    }
    Status release_staging() const { return texdec_context_release_staging(ctx_); }

private:
    texdec_context* ctx_ = nullptr;
};

// Owns a texdec_image_target (it must not outlive its context); movable, not copyable.
class ImageTarget {
public:
    ImageTarget() = default;
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

    static Status create(ImageTarget& out, const Context& context, const texdec_image_target_create_info& info) {
        texdec_image_target* target = nullptr;
        Status s = texdec_image_target_create(context.get(), &info, &target);
        out = ImageTarget();
        out.ctx_ = context.get();
        out.target_ = target;
        return s;
    }
    const texdec_image_target* get() const { return target_; }
    explicit operator bool() const { return target_ != nullptr; }

private:
    texdec_context* ctx_ = nullptr;
    texdec_image_target* target_ = nullptr;
};

// Bytes texdec_decode writes for a tight layout; 0 on error.
inline uint64_t decoded_size(Format format, Output output, uint32_t width, uint32_t height, uint32_t depth = 1) {
    uint64_t bytes = 0;
    return texdec_decoded_size(format, output, width, height, depth, &bytes) == TEXDEC_SUCCESS ? bytes : 0;
}

}  // namespace texdec

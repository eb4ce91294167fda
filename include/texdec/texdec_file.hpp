// texdec_file.hpp — header-only C++ wrapper over texdec_file.h (libtexdec_file, CMake target
// texdec::file), in texdec.hpp's terms: an owning, movable texdec::File, byte spans, statuses as
// values ([[nodiscard]]), results through out-parameters, noexcept, no exceptions. Compiles as
// C++17 and later. Nothing here that the C API lacks: the C structs are used as they are
// (texdec_file.h documents them); a separate header so that texdec.hpp users need not link
// libtexdec_file.
//
// A loader in a few lines (docs/FILE_API.md; samples/load_texture.cpp is the whole program):
//   texdec::File file;
//   if (texdec::File::open_path(path, file) != TEXDEC_SUCCESS) return false;
//   texdec_upload_plan plan{};
//   if (file.plan_upload(plan_info, plan) != TEXDEC_SUCCESS) return false;  // device, features, usage
//   texdec_file_info info{};
//   (void)file.info(info);
//   VkImageFormatListCreateInfo list{};
//   const VkImageCreateInfo image_info = texdec::image_create_info(plan, info, list);  // vkCreateImage
//   ... NATIVE: read_blocks + buffer_copies(BLOCKS); DECODE_RECORD: read_blocks into a storage
//   buffer, ImageTarget::create(ctx, texdec::image_target_info(image, image_info, list), target),
//   record(ctx, cmd, job); DECODE_HOST: decode(cpu_ctx, plan.output, texels) + buffer_copies(TEXELS).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "texdec.hpp"
#include "texdec_file.h"

namespace texdec {

// Owns a texdec_file (texdec_file_destroy); movable, not copyable. Every const call may run on
// several threads at once (a texdec_file is immutable once open).
class File {
public:
    File() noexcept = default;
    explicit File(texdec_file* adopted) noexcept : file_(adopted) {}
    File(File&& other) noexcept : file_(std::exchange(other.file_, nullptr)) {}
    File& operator=(File&& other) noexcept {
        if (this != &other) {
            texdec_file_destroy(file_);
            file_ = std::exchange(other.file_, nullptr);
        }
        return *this;
    }
    File(const File&) = delete;
    File& operator=(const File&) = delete;
    ~File() { texdec_file_destroy(file_); }

    // texdec_file_open of `bytes`: kept by pointer, so they must stay valid and unchanged while
    // the File lives, unless info->flags has TEXDEC_FILE_OPEN_COPY (the File then owns a copy);
    // *out is replaced (empty on failure).
    [[nodiscard]] static Status open(ConstByteSpan bytes, File& out,
                                     const texdec_file_open_info* info = nullptr) noexcept {
        return adopt(texdec_file_open(info, bytes.data(), bytes.size(), &out.reset()), out);
    }
    // texdec_file_open_path: `utf8_path` mapped (or read) and owned by the File.
    [[nodiscard]] static Status open_path(const char* utf8_path, File& out,
                                          const texdec_file_open_info* info = nullptr) noexcept {
        return adopt(texdec_file_open_path(info, utf8_path, &out.reset()), out);
    }

    const texdec_file* get() const noexcept { return file_; }
    explicit operator bool() const noexcept { return file_ != nullptr; }
    // Gives the file up without destroying it (destroy it with texdec_file_destroy).
    [[nodiscard]] texdec_file* release() noexcept { return std::exchange(file_, nullptr); }

    // ---- queries -------------------------------------------------------------------------------
    [[nodiscard]] Status info(texdec_file_info& out) const noexcept { return texdec_file_get_info(file_, &out); }
    [[nodiscard]] Status surface(uint32_t level, uint32_t layer, uint32_t face,
                                 texdec_file_surface& out) const noexcept {
        return texdec_file_get_surface(file_, level, layer, face, &out);
    }
    // `count` surfaces in file order from `first` (texdec_file_get_surfaces).
    [[nodiscard]] Status surfaces(uint64_t first, uint32_t count, texdec_file_surface* out) const noexcept {
        return texdec_file_get_surfaces(file_, first, count, out);
    }
    [[nodiscard]] Status key_value(uint32_t index, texdec_file_key_value& out) const noexcept {
        return texdec_file_get_key_value(file_, index, &out);
    }
    // out.key is nullptr when the file has no entry `key`.
    [[nodiscard]] Status find_key_value(const char* key, texdec_file_key_value& out) const noexcept {
        return texdec_file_find_key_value(file_, key, &out);
    }

    // ---- blocks into your memory (the packed layout) ---------------------------------------------
    [[nodiscard]] Status level_size(uint32_t level, uint64_t& bytes) const noexcept {
        return texdec_file_level_size(file_, level, &bytes);
    }
    [[nodiscard]] Status read_level(uint32_t level, ByteSpan dst) const noexcept {
        return texdec_file_read_level(file_, level, dst.data(), dst.size());
    }
    // Every level; dst holds at least texdec_file_info::blocks_size bytes.
    [[nodiscard]] Status read_blocks(ByteSpan dst) const noexcept {
        return texdec_file_read_blocks(file_, dst.data(), dst.size());
    }

    // ---- the plan, layouts and copies ----------------------------------------------------------
    // texdec_file_plan_upload: info's device, context, flags, usage and features, the file's format,
    // extent, levels and layers.
    [[nodiscard]] Status plan_upload(const texdec_upload_plan_info& info, texdec_upload_plan& plan) const noexcept {
        return texdec_file_plan_upload(file_, &info, &plan);
    }
    // Level `level` of the layout of levels base_level .. base_level + level_count - 1 (0: to the
    // last); `output` is read for TEXDEC_FILE_DATA_TEXELS only.
    [[nodiscard]] Status layout(texdec_file_data data, Output output, uint32_t level, texdec_file_level_layout& out,
                                uint32_t base_level = 0, uint32_t level_count = 0) const noexcept {
        return texdec_file_get_layout(file_, data, output, base_level, level_count, level, &out);
    }
    // Sizes first: copies nullptr writes count; else count must be at least that and is set to it.
    [[nodiscard]] Status buffer_copies(texdec_file_data data, Output output, uint32_t& count, VkBufferImageCopy* copies,
                                       VkDeviceSize buffer_offset = 0, uint32_t base_level = 0,
                                       uint32_t level_count = 0, bool image_base_level_zero = false) const noexcept {
        return texdec_file_buffer_copies(file_, data, output, base_level, level_count,
                                         image_base_level_zero ? VK_TRUE : VK_FALSE, buffer_offset, &count, copies);
    }

    // ---- whole-texture jobs --------------------------------------------------------------------
    // Bytes of every level's texels of `output` (texdec_file_decode's layout, levels base_level ..).
    [[nodiscard]] Status decoded_size(Output output, uint64_t& bytes, uint32_t base_level = 0,
                                      uint32_t level_count = 0) const noexcept {
        texdec_file_level_layout level{};
        const Status status =
            texdec_file_get_layout(file_, TEXDEC_FILE_DATA_TEXELS, output, base_level, level_count, base_level, &level);
        if (status == TEXDEC_SUCCESS) bytes = level.total_size;
        return status;
    }
    // Every level, layer, face and slice into dst (size it with decoded_size), EXACT BC rounding,
    // scratch allocated by texdec for the call, on a GPU or CPU context.
    [[nodiscard]] Status decode(ContextRef context, Output output, ByteSpan dst) const noexcept {
        texdec_file_decode_job job{};
        job.output = output;
        job.bc_rounding = TEXDEC_BC_ROUNDING_EXACT;
        job.dst = dst.data();
        job.dst_size = dst.size();
        return texdec_file_decode(context.get(), file_, &job);
    }
    // The whole job (levels, rounding, scratch, timeout).
    [[nodiscard]] Status decode(ContextRef context, const texdec_file_decode_job& job) const noexcept {
        return texdec_file_decode(context.get(), file_, &job);
    }
    [[nodiscard]] Status decode_scratch_size(const texdec_file_decode_job& job, uint64_t& bytes) const noexcept {
        return texdec_file_decode_scratch_size(file_, &job, &bytes);
    }
    // Records every level's regions into job.dst_image (texdec_file_record).
    [[nodiscard]] Status record(ContextRef context, VkCommandBuffer cmd,
                                const texdec_file_record_job& job) const noexcept {
        return texdec_file_record(context.get(), cmd, file_, &job);
    }
    // Sizes first: regions nullptr writes count.
    [[nodiscard]] Status make_regions(const texdec_file_record_job& job, uint32_t& count,
                                      texdec_region* regions) const noexcept {
        return texdec_file_make_regions(file_, &job, &count, regions);
    }

private:
    texdec_file*& reset() noexcept {
        texdec_file_destroy(std::exchange(file_, nullptr));
        return file_;
    }
    static Status adopt(Status status, File& out) noexcept {
        if (status != TEXDEC_SUCCESS) out.reset();
        return status;
    }

    texdec_file* file_ = nullptr;
};

// The VkImageCreateInfo of the image a plan asks for, holding `file`: texdec.hpp's
// image_create_info(plan, extent, levels, layers, list) with the file's extent (depth for a 3D
// image), levels and layers x faces. With view formats, `list` is filled and chained on pNext:
// keep it (and the plan) alive until vkCreateImage, and give it to
// image_target_info(image, info, list) for a DECODE_RECORD image.
inline VkImageCreateInfo image_create_info(const texdec_upload_plan& plan, const texdec_file_info& file,
                                           VkImageFormatListCreateInfo& list) noexcept {
    const bool volume = plan.image_type == VK_IMAGE_TYPE_3D;
    return image_create_info(plan, VkExtent3D{file.width, file.height, volume ? file.depth : 1u}, file.levels,
                             volume ? 1u : file.layers * file.faces, list);
}

}  // namespace texdec

// Validation and geometry of a decode job, shared by the record path and the one-call path.
#pragma once
#include <texdec/texdec.h>

#include <cstdint>
#include <cstring>

#include "context.h"
#include "formats.h"

namespace texdec {

// TEXDEC_DESTINATION_IMAGE (2D array view) or TEXDEC_DESTINATION_IMAGE_3D (3D view: slice z of
// the job goes to depth slice dst_layer + z); raw enum bits, see enum_bits.
inline bool is_image_destination(uint32_t kind) {
    return kind == TEXDEC_DESTINATION_IMAGE || kind == TEXDEC_DESTINATION_IMAGE_3D;
}

// A job reduced to what the GPU work needs, every size checked for overflow.
struct JobPlan {
    const FormatEntry* format = nullptr;
    OutputInfo output{};
    uint32_t rounding = 0;
    uint32_t width = 0, height = 0, depth = 0;         // texels
    uint64_t blocks_x = 0, blocks_y = 0, blocks_z = 0;  // blocks covering the extent
    uint64_t src_row_bytes = 0;     // bytes between block rows in the source
    uint64_t src_slice_bytes = 0;   // bytes between block slices
    uint64_t src_bytes_needed = 0;  // from the first block to the end of the last
    uint64_t dst_row_pitch = 0, dst_slice_pitch = 0;
    uint64_t dst_bytes_needed = 0;  // from the first texel to the end of the last
};

struct SourceLayout {
    uint32_t row_length;    // texels, 0 = width
    uint32_t image_height;  // texels, 0 = height
};

// Job structs come from C callers, who may store any 32-bit value in an enum field: read the
// bits, not the enum (a C++ load of an out-of-range enum value is undefined behaviour).
template <class Enum>
uint32_t enum_bits(const Enum& field) {
    static_assert(sizeof(Enum) == sizeof(uint32_t), "texdec enums are 32-bit");
    uint32_t bits;
    std::memcpy(&bits, &field, sizeof bits);
    return bits;
}

// Checks format, output, rounding (raw enum bits), extent and source layout; fills everything
// but the destination fields. Reports the problem through ctx (may be nullptr).
texdec_status plan_job(const texdec_context* ctx, uint32_t format, uint32_t output, uint32_t rounding,
                       uint32_t width, uint32_t height, uint32_t depth, SourceLayout source, JobPlan* plan);

// Checks and fills the destination pitches for a linear destination (0 = tight).
texdec_status plan_destination(const texdec_context* ctx, uint64_t row_pitch, uint64_t slice_pitch, JobPlan* plan);

// Records the dispatches (record.cpp). `src`/`dst` ranges have been checked by the caller.
struct RecordTarget {
    VkBuffer src_buffer;
    VkDeviceSize src_offset;
    texdec_destination_kind dst_kind;
    VkBuffer dst_buffer;
    VkDeviceSize dst_offset;
    VkImageView dst_view;
    int32_t dst_x, dst_y;
    uint32_t dst_layer;
    uint32_t flags;
};
texdec_status record_plan(texdec_context* ctx, VkCommandBuffer cmd, const JobPlan& plan, const RecordTarget& target);

}  // namespace texdec

// The GPU record path's declarations (record.cpp, support.cpp, prepare.cpp, image_target.cpp):
// regions, record calls, the destination rules and the variants. GPU side only: src/cpu never
// includes it (job.h is what both backends share).
#pragma once
#include "context.h"
#include "job.h"

namespace texdec {

// Where one region's blocks and texels are (checked by the caller).
struct RegionTarget {
    VkDeviceSize src_offset = 0;            // bytes into RecordCall::src_buffer
    VkDeviceSize dst_offset = 0;            // buffer destinations: bytes into RecordCall::dst_buffer
    VkImageView dst_view = VK_NULL_HANDLE;  // image destinations
    int32_t dst_x = 0, dst_y = 0;
    uint32_t dst_layer = 0;  // first array layer (3D views: depth slice)
};

// Mip levels an image target can have (a 2^31-texel edge has 32).
constexpr uint32_t kMaxMipLevels = 32;

// Whether an output of VkFormat `output_format` (texdec_output_vk_format) writes images of the
// texel-format row `image` (formats.h: every row is a format texdec writes images of): the same
// bytes, its sRGB/UNORM twin included (R8G8B8A8_SRGB texels into a UNORM image and back).
bool image_format_takes_output(const TexelFormat& image, VkFormat output_format);

// INVALID_DESTINATION (with a message naming both formats) unless the plan's output writes the
// target's image format.
texdec_status check_target_output(const texdec_context* ctx, const texdec_image_target& target, const JobPlan& plan);

// What the regions of one record call share.
struct RecordCall {
    VkBuffer src_buffer = VK_NULL_HANDLE;
    texdec_destination_kind dst_kind = TEXDEC_DESTINATION_BUFFER;
    VkBuffer dst_buffer = VK_NULL_HANDLE;
    uint64_t max_texels_per_dispatch = 0;                // 0: the context's
    bool fail_if_not_ready = false;                      // TEXDEC_RECORD_FAIL_IF_NOT_READY
    texdec_record_barriers barriers{};                   // the caller's (texdec_record_barriers' rules)
    bool barrier_before = false, barrier_after = false;  // which sides are recorded
    // Image targets: the image, the mip levels written (bit per level) and its layer count, for
    // the layout transitions of `barriers` (every layer of a written level: its storage view
    // spans them all, and a descriptor's layout must hold for every subresource of its view).
    VkImage image = VK_NULL_HANDLE;
    const TexelFormat* image_format = nullptr;  // the image's row (selects the pipeline, as texdec_variant)
    uint32_t levels_written = 0;
    uint32_t layer_count = 1;
    // A texdec_regions_scratch_info (texdec.h "many small regions"): small regions share batched
    // dispatches whose region table texdec writes here. Null buffer: one dispatch per region.
    VkBuffer scratch_buffer = VK_NULL_HANDLE;
    VkDeviceSize scratch_offset = 0, scratch_size = 0;
};

// Bytes of scratch a record call of `region_count` regions may use (one table entry per region).
constexpr VkDeviceSize kRegionEntryBytes = sizeof(shader::TexdecPushConstants);

// Produces region `index`'s plan and target, doing every check (called once per region to check
// all of them before anything is recorded, and again while recording: no per-call storage).
class RegionList {
public:
    virtual uint32_t count() const = 0;
    virtual texdec_status plan(uint32_t index, JobPlan* plan, RegionTarget* target) const = 0;
    // The mip level region `index` writes (image targets; unchecked, may be out of range: plan()
    // refuses it), for grouping regions into batched dispatches. 0 where there is no image.
    virtual uint32_t level(uint32_t) const { return 0; }

protected:
    ~RegionList() = default;
};

// Records the dispatches of every region (record.cpp): on any error, nothing is recorded.
texdec_status record_regions(texdec_context* ctx, VkCommandBuffer cmd, const RecordCall& call,
                             const RegionList& regions);

// Capability rules that need a format's output (support.cpp; see check_device_needs in context.h).
// The shader (kShaders index) that writes `output` of `format` to a destination kind.
texdec_status find_decoder(const texdec_context* ctx, const FormatEntry& format, const OutputInfo& output,
                           texdec_destination_kind kind, bool report, uint32_t* shader);
// The destination rule that texdec_prepare, texdec_query_support and the record calls share
// (each words its own message): a destination kind texdec knows and, for images, an image format
// (VK_FORMAT_UNDEFINED: the output's own) of the texel-format table that takes `output_format`.
// Sets *image_row to that format's row (nullptr for buffers and unknown formats).
enum class DestinationFit { fits, unknown_kind, unknown_image_format, image_format_mismatch };
DestinationFit fit_destination(uint32_t kind, VkFormat image_format, VkFormat output_format,
                               const TexelFormat** image_row);

// Whether a destination kind (raw bits) and, for images, an image format (VK_FORMAT_UNDEFINED: the
// output's own) can take `output` of `format`: a kind texdec knows, a format image targets take
// whose storage view the output fits and the device can store (optimal tiling), and a decoder.
texdec_status check_destination(const texdec_context* ctx, const FormatEntry& format, const OutputInfo& output,
                                uint32_t kind, VkFormat image_format, bool report, texdec_support* support);

// Creates the pipeline and lookup tables of a variant: the plan's format, output and rounding, a
// destination kind and, for image destinations, the image format's row (nullptr: the output's
// own; checked by the caller with image_format_takes_output). Creation::lookup_only creates
// nothing and returns TEXDEC_ERROR_NOT_READY (no message) if anything is missing.
texdec_status prepare_variant(texdec_context* ctx, const JobPlan& plan, texdec_destination_kind dst_kind,
                              const TexelFormat* image_format, Creation creation);

}  // namespace texdec

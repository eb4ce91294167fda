// Validation and geometry of a decode job, shared by the record path and the one-call path.
#pragma once
#include <texdec/texdec.h>

#include <bit>
#include <cstdint>
#include <cstring>

#include "context.h"
#include "formats.h"
#include "interface.h"

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
    uint32_t output_kind = 0;  // the texdec_output asked for (checked), for messages
    uint32_t rounding = 0;
    uint32_t width = 0, height = 0, depth = 0;         // texels
    uint64_t blocks_x = 0, blocks_y = 0, blocks_z = 0;  // blocks covering the extent
    // Source layout. LINEAR: src_row_bytes between block rows, src_slice_bytes between block
    // slices. BLOCK_LINEAR (Tegra GOBs, texdec.h "source layouts"): src_row_bytes between rows
    // of GOB blocks, src_slice_bytes between groups of 2^gob_depth_log2 block slices (or layers).
    bool block_linear = false;
    uint32_t gob_height_log2 = 0, gob_depth_log2 = 0;  // block height / depth in GOBs, log2
    uint64_t src_row_bytes = 0;
    uint64_t src_slice_bytes = 0;
    // Block (0, 0, 0) of the plan is block src_origin of the source surface (a part of a larger
    // job: texdec_decode's streaming), which lies src_origin_bytes from the surface's start; the
    // plan's source bytes start there. Zero for whole jobs and regions.
    uint64_t src_origin_x = 0, src_origin_y = 0, src_origin_z = 0;
    uint64_t src_origin_bytes = 0;
    uint64_t src_bytes_needed = 0;  // from the first block to the end of the last
    uint64_t dst_row_pitch = 0, dst_slice_pitch = 0;
    uint64_t dst_bytes_needed = 0;  // from the first texel to the end of the last
};

struct SourceLayout {
    uint32_t row_length;    // texels, 0 = width
    uint32_t image_height;  // texels, 0 = height
    const void* chain;      // the job's or region's next chain: a texdec_source_layout_info or NULL
    const char* where;      // the chain's owner, for messages ("texdec_host_job", "region 3")
};

// A block height or depth texdec_source_layout_info accepts: 1, 2, 4, 8, 16 or 32 GOBs.
inline bool is_gob_count(uint32_t v) { return std::has_single_bit(v) && v <= 32; }

// Block-linear (texdec.h "source layouts"): the part of a block's address that depends on its byte
// column xb alone: GOB blocks of 2^column_shift bytes side by side, and the GOB swizzle's x terms.
inline uint64_t gob_x_offset(uint64_t xb, uint32_t column_shift) {
    return ((xb >> 6) << column_shift) + ((xb & 32) << 3) + ((xb & 16) << 1) + (xb & 15);
}

// Byte offset of block (x, y, z) of the plan's source surface from the surface's start (texdec.h
// "source layouts"; linear: z * slice + y * row + x * block bytes). Coordinates of blocks inside
// a checked plan (+ its origin) give no overflow.
uint64_t surface_block_offset(const JobPlan& p, uint64_t x, uint64_t y, uint64_t z);

// Byte offset of the plan's block (bx, by, bz) from the plan's first source byte.
inline uint64_t source_block_offset(const JobPlan& p, uint64_t bx, uint64_t by, uint64_t bz) {
    return surface_block_offset(p, p.src_origin_x + bx, p.src_origin_y + by, p.src_origin_z + bz) - p.src_origin_bytes;
}

// The plan of the part of `p` that starts at its block (bx, by, bz): the same source layout with
// the origin moved there (the caller sets the part's extent and sizes).
void move_source_origin(JobPlan* p, uint64_t bx, uint64_t by, uint64_t bz);

// Checks format, output, rounding (raw enum bits), extent and source layout (the chain too: a
// texdec_source_layout_info or nothing); fills everything but the destination fields. Reports the
// problem through ctx (may be nullptr).
texdec_status plan_job(const texdec_context* ctx, uint32_t format, uint32_t output, uint32_t rounding,
                       uint32_t width, uint32_t height, uint32_t depth, SourceLayout source, JobPlan* plan);

// Checks and fills the destination pitches for a linear destination (0 = tight).
texdec_status plan_destination(const texdec_context* ctx, uint64_t row_pitch, uint64_t slice_pitch, JobPlan* plan);

// TEXDEC_SC_SRGB of a decoder variant (both backends). Where sRGB changes only RGBA16F (v / 255 of
// the byte), the other stores share the UNORM variant.
inline bool srgb_constant(const FormatEntry& f, uint32_t store_kind) {
    return (f.flags & TEXDEC_FORMAT_FLAG_SRGB) &&
           (family_traits(f.family).srgb_in_decode || store_kind == TEXDEC_STORE_RGBA16F);
}

// Checks a host job (everything but the texels pointer, which `need_texels` adds) and plans it
// (decode_host.cpp; both backends' one-call path).
texdec_status plan_host_job(texdec_context* ctx, const texdec_host_job* job, bool need_texels, JobPlan* plan);

// A piece of a job: block columns [bx0, bx0+nbx), block rows [by0, by0+nby), block slices
// [bz0, bz0+nbz). One dispatch of the record path, or one part of texdec_decode's streaming.
// 3D footprints whose one block slice spans more buffer than a descriptor may cover are cut
// inside the block slice too: then nbz is 1 and the dispatch writes only texel slices
// [z_skip, z_skip + z_count) of it (z_count 0: every texel slice of its block slices).
struct Chunk {
    uint64_t bx0, nbx, by0, nby, bz0, nbz;
    uint64_t z_skip = 0, z_count = 0;
};

// Where a chunk lies: its texel origin and extent, and the bytes of source and destination it
// spans (from its first byte), in the plan's layout.
struct ChunkSpan {
    uint64_t x0, y0, z0, width, height, depth;
    uint64_t src_start, src_bytes, dst_start, dst_bytes;
};
ChunkSpan chunk_span(const JobPlan& p, const Chunk& c);  // record.cpp

// Where one region's blocks and texels are (checked by the caller).
struct RegionTarget {
    VkDeviceSize src_offset = 0;            // bytes into RecordCall::src_buffer
    VkDeviceSize dst_offset = 0;            // buffer destinations: bytes into RecordCall::dst_buffer
    VkImageView dst_view = VK_NULL_HANDLE;  // image destinations
    int32_t dst_x = 0, dst_y = 0;
    uint32_t dst_layer = 0;                 // first array layer (3D views: depth slice)
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
    uint64_t max_texels_per_dispatch = 0;  // 0: the context's
    bool fail_if_not_ready = false;        // TEXDEC_RECORD_FAIL_IF_NOT_READY
    texdec_record_barriers barriers{};     // the caller's (texdec_record_barriers' rules)
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
texdec_status record_regions(texdec_context* ctx, VkCommandBuffer cmd, const RecordCall& call, const RegionList& regions);

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

// Validation and geometry of a decode job, shared by both backends (plan.cpp): no GPU code and no
// context state here, so that src/cpu plans with it as the record path does (record.h has the
// GPU record path's declarations).
#pragma once
#include <texdec/texdec.h>

#include <bit>
#include <cstdint>
#include <cstring>

#include "block_linear_address.h"
#include "formats.h"
#include "interface.h"

struct texdec_context;

namespace texdec {

// TEXDEC_DESTINATION_IMAGE (2D array view) or TEXDEC_DESTINATION_IMAGE_3D (3D view: slice z of
// the job goes to depth slice dst_layer + z); raw enum bits, see enum_bits.
inline bool is_image_destination(uint32_t kind) {
    return kind == TEXDEC_DESTINATION_IMAGE || kind == TEXDEC_DESTINATION_IMAGE_3D;
}

// A job reduced to what the work needs (either backend), every size checked for overflow.
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

// Block-linear (texdec.h "source layouts"): the GOB counts a texdec_source_layout_info accepts,
// and the part of a block's address that depends on its byte column alone (src/common, shared
// with the tool; surface_block_offset uses the whole address).
using block_linear::gob_x_offset;
using block_linear::is_gob_count;

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
// (both backends' one-call path).
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
ChunkSpan chunk_span(const JobPlan& p, const Chunk& c);

}  // namespace texdec

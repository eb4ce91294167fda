// Job planning, shared by both backends (job.h): a job's format, output, extent, source layout
// and destination checked (every size for overflow) and reduced to a JobPlan; where a chunk of a
// plan lies. No GPU code: the CPU backend plans with it as the record path does.
#include <algorithm>
#include <cstring>

#include "context.h"
#include "enum_bits.h"
#include "interface.h"
#include "job.h"
#include "portable.h"

namespace texdec {
namespace {

uint64_t div_round_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// a * b + c without overflow, false if it overflows 64 bits.
bool mul_add(uint64_t a, uint64_t b, uint64_t c, uint64_t* out) { return portable::mul_add_fits(a, b, c, out); }

// The chain of a job or region: nothing, or a texdec_source_layout_info with nothing after it
// (checked before anything else, as an unknown structure is refused whatever the job holds).
texdec_status check_source_chain(const texdec_context* ctx, const SourceLayout& source) {
    if (!source.chain) return TEXDEC_SUCCESS;
    uint32_t type;  // every chained struct begins with a 32-bit type
    std::memcpy(&type, source.chain, sizeof type);
    if (type != TEXDEC_STRUCTURE_TYPE_SOURCE_LAYOUT_INFO) return check_chain(ctx, source.chain, source.where);
    return check_chain(ctx, static_cast<const texdec_source_layout_info*>(source.chain)->next,
                       "texdec_source_layout_info");
}

// Reads the source layout chain (a texdec_source_layout_info or nothing) into the plan.
texdec_status plan_source_layout(const texdec_context* ctx, const FormatEntry& f, const SourceLayout& source,
                                 JobPlan* plan) {
    plan->block_linear = false;
    plan->gob_height_log2 = plan->gob_depth_log2 = 0;
    plan->src_slice_bytes = 0;
    plan->src_origin_x = plan->src_origin_y = plan->src_origin_z = plan->src_origin_bytes = 0;
    if (!source.chain) return TEXDEC_SUCCESS;
    const auto& info = *static_cast<const texdec_source_layout_info*>(source.chain);  // checked by check_source_chain
    auto fail = [&](const char* what) {
        if (ctx)
            ctx->report(TEXDEC_ERROR_INVALID_LAYOUT, TEXDEC_MESSAGE_ERROR, "%s: texdec_source_layout_info %s",
                        source.where, what);
        return TEXDEC_ERROR_INVALID_LAYOUT;
    };
    const uint32_t layout = enum_bits(info.layout);
    if (layout == TEXDEC_SOURCE_LAYOUT_LINEAR) {
        if (info.block_height || info.block_depth || info.layer_stride)
            return fail("is LINEAR with block_height, block_depth or layer_stride set (they must be 0)");
        return TEXDEC_SUCCESS;
    }
    if (layout != TEXDEC_SOURCE_LAYOUT_BLOCK_LINEAR) return fail("has an unknown layout value");
    if (!is_gob_count(info.block_height)) return fail("block_height must be 1, 2, 4, 8, 16 or 32 (GOBs)");
    if (!is_gob_count(info.block_depth)) return fail("block_depth must be 1, 2, 4, 8, 16 or 32 (GOBs)");
    if (info.layer_stride) {
        if (info.layer_stride % 4) return fail("layer_stride must be a multiple of 4");
        if (info.block_depth != 1) return fail("layer_stride needs block_depth 1 (layers of a 2D texture)");
        if (f.block_depth != 1) return fail("layer_stride is for 2D formats (a 3D footprint's slices are depth)");
    }
    plan->block_linear = true;
    plan->gob_height_log2 = uint32_t(std::countr_zero(info.block_height));
    plan->gob_depth_log2 = uint32_t(std::countr_zero(info.block_depth));
    plan->src_slice_bytes = info.layer_stride;  // 0: computed from the surface by plan_job
    return TEXDEC_SUCCESS;
}

}  // namespace

texdec_status plan_job(const texdec_context* ctx, uint32_t format_bits, uint32_t output_bits, uint32_t rounding_bits,
                       uint32_t width, uint32_t height, uint32_t depth, SourceLayout source, JobPlan* plan) {
    auto fail = [&](texdec_status s, const char* msg) {
        if (ctx) ctx->report(s, TEXDEC_MESSAGE_ERROR, "%s", msg);
        return s;
    };
    if (texdec_status s = check_source_chain(ctx, source); s != TEXDEC_SUCCESS) return s;
    if (rounding_bits > TEXDEC_BC_ROUNDING_NVIDIA)
        return fail(TEXDEC_ERROR_UNSUPPORTED_ROUNDING, "unknown BC rounding mode");
    const auto rounding = texdec_bc_rounding(rounding_bits);
    texdec_status status = resolve_output(format_bits, output_bits, true, &plan->format, &plan->output);
    if (status == TEXDEC_ERROR_UNKNOWN_FORMAT) return fail(status, "the format value is not a texdec_format");
    if (status == TEXDEC_ERROR_UNSUPPORTED_FORMAT) {
        if (ctx)
            ctx->report(status, TEXDEC_MESSAGE_ERROR, "format %s is not implemented in this version",
                        plan->format->name);
        return status;
    }
    if (status == TEXDEC_ERROR_UNSUPPORTED_OUTPUT) {
        char what[192];
        refused_output_message(what, sizeof what, output_bits, plan->format->name);
        return fail(status, what);
    }
    if (status != TEXDEC_SUCCESS) return status;
    plan->output_kind = output_bits;
    plan->rounding = family_traits(plan->format->family).takes_rounding ? uint32_t(rounding) : 0;
    if (width == 0 || height == 0 || depth == 0)
        return fail(TEXDEC_ERROR_INVALID_EXTENT, "width, height and depth must be at least 1");
    const uint32_t row_length = source.row_length ? source.row_length : width;
    const uint32_t image_height = source.image_height ? source.image_height : height;
    if (row_length < width || image_height < height)
        return fail(TEXDEC_ERROR_INVALID_LAYOUT, "source row length / image height is smaller than the extent");

    const FormatEntry& f = *plan->format;
    if (texdec_status s = plan_source_layout(ctx, f, source, plan); s != TEXDEC_SUCCESS) return s;
    plan->width = width;
    plan->height = height;
    plan->depth = depth;
    plan->blocks_x = div_round_up(width, f.block_width);
    plan->blocks_y = div_round_up(height, f.block_height);
    plan->blocks_z = div_round_up(depth, f.block_depth);
    const uint64_t row_blocks = div_round_up(row_length, f.block_width);
    const uint64_t rows_per_slice = div_round_up(image_height, f.block_height);
    uint64_t tmp = 0;
    if (!plan->block_linear) {
        plan->src_row_bytes = row_blocks * f.bytes_per_block;  // < 2^32 * 16: no overflow
        if (!mul_add(plan->src_row_bytes, rows_per_slice, 0, &plan->src_slice_bytes) ||
            !mul_add(plan->src_slice_bytes, plan->blocks_z - 1, 0, &tmp) ||
            !mul_add(plan->src_row_bytes, plan->blocks_y - 1, tmp, &tmp) ||
            !mul_add(plan->blocks_x, f.bytes_per_block, tmp, &plan->src_bytes_needed))
            return fail(TEXDEC_ERROR_SIZE_OVERFLOW, "the compressed size of the extent overflows 64 bits");
        return TEXDEC_SUCCESS;
    }
    // Block-linear: a row of GOB blocks is ceil(row bytes / 64) blocks of 512 * H * D bytes; a
    // group of D block slices is ceil(rows / 8H) such rows (or the caller's layer stride).
    const uint64_t gob_block_bytes = uint64_t(512) << (plan->gob_height_log2 + plan->gob_depth_log2);
    const uint64_t gob_columns = div_round_up(row_blocks * f.bytes_per_block, 64);
    const uint64_t gob_block_rows = div_round_up(rows_per_slice, uint64_t(8) << plan->gob_height_log2);
    uint64_t surface_bytes = 0;  // one group of D block slices (one layer)
    if (!mul_add(gob_columns, gob_block_bytes, 0, &plan->src_row_bytes) ||
        !mul_add(plan->src_row_bytes, gob_block_rows, 0, &surface_bytes))
        return fail(TEXDEC_ERROR_SIZE_OVERFLOW, "the block-linear surface's size overflows 64 bits");
    if (!plan->src_slice_bytes) plan->src_slice_bytes = surface_bytes;
    else if (plan->src_slice_bytes < surface_bytes) {
        if (ctx)
            ctx->report(TEXDEC_ERROR_INVALID_LAYOUT, TEXDEC_MESSAGE_ERROR,
                        "%s: layer_stride (%llu) is smaller than one layer's block-linear surface (%llu bytes)",
                        source.where, (unsigned long long)plan->src_slice_bytes, (unsigned long long)surface_bytes);
        return TEXDEC_ERROR_INVALID_LAYOUT;
    }
    // The last block read is the farthest (every term of the address grows with its coordinate);
    // the terms below a row of GOB blocks add less than two rows.
    using u128 = portable::U128;
    const u128 last = u128((plan->blocks_z - 1) >> plan->gob_depth_log2) * plan->src_slice_bytes +
                      u128((plan->blocks_y - 1) >> (3 + plan->gob_height_log2)) * plan->src_row_bytes;
    if (last + 2 * u128(plan->src_row_bytes) + 16 > UINT64_MAX)
        return fail(TEXDEC_ERROR_SIZE_OVERFLOW, "the compressed size of the extent overflows 64 bits");
    plan->src_bytes_needed =
        surface_block_offset(*plan, plan->blocks_x - 1, plan->blocks_y - 1, plan->blocks_z - 1) + f.bytes_per_block;
    return TEXDEC_SUCCESS;
}

uint64_t surface_block_offset(const JobPlan& p, uint64_t x, uint64_t y, uint64_t z) {
    const uint64_t block_bytes = p.format->bytes_per_block;
    if (!p.block_linear) return z * p.src_slice_bytes + y * p.src_row_bytes + x * block_bytes;
    return block_linear::block_offset(x * block_bytes, y, z, p.gob_height_log2, p.gob_depth_log2, p.src_row_bytes,
                                      p.src_slice_bytes);
}

void move_source_origin(JobPlan* p, uint64_t bx, uint64_t by, uint64_t bz) {
    p->src_origin_bytes += source_block_offset(*p, bx, by, bz);
    p->src_origin_x += bx, p->src_origin_y += by, p->src_origin_z += bz;
}

texdec_status plan_destination(const texdec_context* ctx, uint64_t row_pitch, uint64_t slice_pitch, JobPlan* plan) {
    auto fail = [&](texdec_status s, const char* msg) {
        if (ctx) ctx->report(s, TEXDEC_MESSAGE_ERROR, "%s", msg);
        return s;
    };
    const uint64_t texel = plan->output.texel_bytes;
    const uint64_t tight_row = uint64_t(plan->width) * texel;
    if (row_pitch == 0) row_pitch = tight_row;
    if (row_pitch < tight_row) return fail(TEXDEC_ERROR_INVALID_LAYOUT, "row pitch is smaller than width * texel size");
    uint64_t tight_slice = 0;
    if (!mul_add(row_pitch, plan->height, 0, &tight_slice))
        return fail(TEXDEC_ERROR_SIZE_OVERFLOW, "row pitch * height overflows 64 bits");
    if (slice_pitch == 0) slice_pitch = tight_slice;
    if (slice_pitch < tight_slice)
        return fail(TEXDEC_ERROR_INVALID_LAYOUT, "slice pitch is smaller than row pitch * height");
    uint64_t needed = 0;
    if (!mul_add(slice_pitch, plan->depth - 1, 0, &needed) || !mul_add(row_pitch, plan->height - 1, needed, &needed) ||
        !mul_add(tight_row, 1, needed, &needed))
        return fail(TEXDEC_ERROR_SIZE_OVERFLOW, "the decoded size of the extent overflows 64 bits");
    plan->dst_row_pitch = row_pitch;
    plan->dst_slice_pitch = slice_pitch;
    plan->dst_bytes_needed = needed;
    return TEXDEC_SUCCESS;
}

ChunkSpan chunk_span(const JobPlan& p, const Chunk& c) {
    const FormatEntry& f = *p.format;
    ChunkSpan s{};
    s.x0 = c.bx0 * f.block_width, s.y0 = c.by0 * f.block_height, s.z0 = c.bz0 * f.block_depth + c.z_skip;
    s.width = std::min<uint64_t>(p.width - s.x0, c.nbx * f.block_width);
    s.height = std::min<uint64_t>(p.height - s.y0, c.nby * f.block_height);
    s.depth = std::min<uint64_t>(p.depth - s.z0, c.z_count ? c.z_count : c.nbz * f.block_depth);
    // Every term of a block's address grows with its coordinate (both layouts): the chunk's first
    // block is its lowest byte, its last block its highest.
    s.src_start = source_block_offset(p, c.bx0, c.by0, c.bz0);
    s.src_bytes = source_block_offset(p, c.bx0 + c.nbx - 1, c.by0 + c.nby - 1, c.bz0 + c.nbz - 1) + f.bytes_per_block -
                  s.src_start;
    s.dst_start = s.z0 * p.dst_slice_pitch + s.y0 * p.dst_row_pitch + s.x0 * p.output.texel_bytes;
    s.dst_bytes = (s.depth - 1) * p.dst_slice_pitch + (s.height - 1) * p.dst_row_pitch + s.width * p.output.texel_bytes;
    return s;
}

texdec_status plan_host_job(texdec_context* ctx, const texdec_host_job* job, bool need_texels, JobPlan* plan) {
    texdec_status s = plan_job(ctx, enum_bits(job->format), enum_bits(job->output), enum_bits(job->bc_rounding),
                               job->width, job->height, job->depth,
                               {job->src_row_length, job->src_image_height, job->next, "texdec_host_job"}, plan);
    if (s != TEXDEC_SUCCESS) return s;
    if (!job->src || (need_texels && !job->dst))
        return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                           "the job's src and dst must not be NULL");
    if (job->src_size < plan->src_bytes_needed)
        return ctx->report(TEXDEC_ERROR_SOURCE_TOO_SMALL, TEXDEC_MESSAGE_ERROR,
                           "the extent needs %llu bytes of blocks, src_size is %llu",
                           (unsigned long long)plan->src_bytes_needed, (unsigned long long)job->src_size);
    if ((s = plan_destination(ctx, job->dst_row_pitch, job->dst_slice_pitch, plan)) != TEXDEC_SUCCESS) return s;
    if (job->dst_size < plan->dst_bytes_needed)
        return ctx->report(TEXDEC_ERROR_DESTINATION_TOO_SMALL, TEXDEC_MESSAGE_ERROR,
                           "the extent needs %llu bytes of texels, dst_size is %llu",
                           (unsigned long long)plan->dst_bytes_needed, (unsigned long long)job->dst_size);
    return TEXDEC_SUCCESS;
}

}  // namespace texdec

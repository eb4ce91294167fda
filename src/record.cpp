// record_decode: validation, chunking into dispatches that respect the device limits, optional
// barriers, push descriptors and push constants. Nothing is allocated per call.
#include <algorithm>

#include "interface.h"
#include "job.h"

namespace texdec {
namespace {

uint64_t div_round_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// a * b + c without overflow, false if it overflows 64 bits.
bool mul_add(uint64_t a, uint64_t b, uint64_t c, uint64_t* out) {
    unsigned __int128 v = (unsigned __int128)a * b + c;
    if (v > UINT64_MAX) return false;
    *out = uint64_t(v);
    return true;
}

}  // namespace

texdec_status plan_job(const texdec_context* ctx, uint32_t format_bits, uint32_t output_bits, uint32_t rounding_bits,
                       uint32_t width, uint32_t height, uint32_t depth, SourceLayout source, JobPlan* plan) {
    auto fail = [&](texdec_status s, const char* msg) {
        if (ctx) ctx->report(s, TEXDEC_MESSAGE_ERROR, "%s", msg);
        return s;
    };
    if (rounding_bits > TEXDEC_BC_ROUNDING_NVIDIA) return fail(TEXDEC_ERROR_UNSUPPORTED_ROUNDING, "unknown BC rounding mode");
    const auto rounding = texdec_bc_rounding(rounding_bits);
    texdec_status status = resolve_output(format_bits, output_bits, true, &plan->format, &plan->output);
    if (status == TEXDEC_ERROR_UNKNOWN_FORMAT) return fail(status, "the format value is not a texdec_format");
    if (status == TEXDEC_ERROR_UNSUPPORTED_FORMAT) {
        if (ctx) ctx->report(status, TEXDEC_MESSAGE_ERROR, "format %s is not implemented in this version", plan->format->name);
        return status;
    }
    if (status == TEXDEC_ERROR_UNSUPPORTED_OUTPUT) {
        if (ctx) ctx->report(status, TEXDEC_MESSAGE_ERROR, "output type %u is not offered for %s (RGBA8 cannot hold signed or float data)",
                             output_bits, plan->format->name);
        return status;
    }
    if (status != TEXDEC_SUCCESS) return status;
    const bool uses_rounding = plan->format->family == TEXDEC_FAMILY_BC1_3 || plan->format->family == TEXDEC_FAMILY_BC4_5;
    if (uses_rounding && rounding == TEXDEC_BC_ROUNDING_NVIDIA)
        return fail(TEXDEC_ERROR_UNSUPPORTED_ROUNDING, "BC rounding mode NVIDIA is not implemented yet");
    plan->rounding = uses_rounding ? uint32_t(rounding) : 0;
    if (width == 0 || height == 0 || depth == 0) return fail(TEXDEC_ERROR_INVALID_EXTENT, "width, height and depth must be at least 1");
    const uint32_t row_length = source.row_length ? source.row_length : width;
    const uint32_t image_height = source.image_height ? source.image_height : height;
    if (row_length < width || image_height < height)
        return fail(TEXDEC_ERROR_INVALID_LAYOUT, "source row length / image height is smaller than the extent");

    const FormatEntry& f = *plan->format;
    plan->width = width;
    plan->height = height;
    plan->depth = depth;
    plan->blocks_x = div_round_up(width, f.block_width);
    plan->blocks_y = div_round_up(height, f.block_height);
    plan->blocks_z = div_round_up(depth, f.block_depth);
    const uint64_t row_blocks = div_round_up(row_length, f.block_width);
    const uint64_t rows_per_slice = div_round_up(image_height, f.block_height);
    plan->src_row_bytes = row_blocks * f.bytes_per_block;  // < 2^32 * 16: no overflow
    uint64_t tmp = 0;
    if (!mul_add(plan->src_row_bytes, rows_per_slice, 0, &plan->src_slice_bytes) ||
        !mul_add(plan->src_slice_bytes, plan->blocks_z - 1, 0, &tmp) ||
        !mul_add(plan->src_row_bytes, plan->blocks_y - 1, tmp, &tmp) ||
        !mul_add(plan->blocks_x, f.bytes_per_block, tmp, &plan->src_bytes_needed))
        return fail(TEXDEC_ERROR_SIZE_OVERFLOW, "the compressed size of the extent overflows 64 bits");
    return TEXDEC_SUCCESS;
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
    if (slice_pitch < tight_slice) return fail(TEXDEC_ERROR_INVALID_LAYOUT, "slice pitch is smaller than row pitch * height");
    uint64_t needed = 0;
    if (!mul_add(slice_pitch, plan->depth - 1, 0, &needed) || !mul_add(row_pitch, plan->height - 1, needed, &needed) ||
        !mul_add(tight_row, 1, needed, &needed))
        return fail(TEXDEC_ERROR_SIZE_OVERFLOW, "the decoded size of the extent overflows 64 bits");
    plan->dst_row_pitch = row_pitch;
    plan->dst_slice_pitch = slice_pitch;
    plan->dst_bytes_needed = needed;
    return TEXDEC_SUCCESS;
}

namespace {

VkDeviceSize align_down(VkDeviceSize v, VkDeviceSize a) { return v / a * a; }
VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a) { return div_round_up(v, a) * a; }

// One dispatch: block columns [bx0, bx0+nbx), block rows [by0, by0+nby), block slices [bz0, bz0+nbz).
struct Chunk {
    uint64_t bx0, nbx, by0, nby, bz0, nbz;
};

// Where a chunk lies: its texel origin and extent, and the bytes of source and destination it
// spans (from its first byte).
struct ChunkSpan {
    uint64_t x0, y0, z0, width, height, depth;
    uint64_t src_start, src_bytes, dst_start, dst_bytes;
};

ChunkSpan chunk_span(const JobPlan& p, const Chunk& c) {
    const FormatEntry& f = *p.format;
    ChunkSpan s{};
    s.x0 = c.bx0 * f.block_width, s.y0 = c.by0 * f.block_height, s.z0 = c.bz0 * f.block_depth;
    s.width = std::min<uint64_t>(p.width - s.x0, c.nbx * f.block_width);
    s.height = std::min<uint64_t>(p.height - s.y0, c.nby * f.block_height);
    s.depth = std::min<uint64_t>(p.depth - s.z0, c.nbz * f.block_depth);
    s.src_start = c.bz0 * p.src_slice_bytes + c.by0 * p.src_row_bytes + c.bx0 * f.bytes_per_block;
    s.src_bytes = (c.nbz - 1) * p.src_slice_bytes + (c.nby - 1) * p.src_row_bytes + c.nbx * f.bytes_per_block;
    s.dst_start = s.z0 * p.dst_slice_pitch + s.y0 * p.dst_row_pitch + s.x0 * p.output.texel_bytes;
    s.dst_bytes = (s.depth - 1) * p.dst_slice_pitch + (s.height - 1) * p.dst_row_pitch + s.width * p.output.texel_bytes;
    return s;
}

// How a shader maps invocations to work, and the lookup tables it reads (if any).
struct ShaderShape {
    uint32_t tile_x = 0, tile_y = 0;        // ASTC: blocks per workgroup (0: one block per invocation)
    VkDescriptorBufferInfo luts[2] = {};    // TEXDEC_BINDING_LUT, TEXDEC_BINDING_FOOTPRINT_LUT (null: none)
    VkBufferView tables = VK_NULL_HANDLE;   // TEXDEC_BINDING_TABLES (BC6H, BC7, ETC2, EAC; null: none)
};

// One dispatch: push the chunk's descriptors (buffer ranges aligned down to `align`) and push
// constants, then dispatch one invocation per block (ASTC: one workgroup per tile of blocks).
void record_chunk(texdec_context* ctx, VkCommandBuffer cmd, VkPipelineLayout layout, const JobPlan& p,
                  const RecordTarget& t, const ShaderShape& shape, const Chunk& c, VkDeviceSize align) {
    const bool to_image = is_image_destination(t.dst_kind);
    const ChunkSpan span = chunk_span(p, c);
    const VkDeviceSize src_first = t.src_offset + span.src_start;
    const VkDeviceSize src_bind = align_down(src_first, align);
    const VkDescriptorBufferInfo src_info{t.src_buffer, src_bind, src_first + span.src_bytes - src_bind};
    VkDescriptorBufferInfo dst_info{};
    const VkDescriptorImageInfo image_info{VK_NULL_HANDLE, t.dst_view, VK_IMAGE_LAYOUT_GENERAL};
    shader::TexdecPushConstants pc{};
    pc.src_base_word = uint32_t((src_first - src_bind) / 4);
    pc.src_row_words = uint32_t(p.src_row_bytes / 4);
    pc.src_slice_words = uint32_t(std::min<uint64_t>(p.src_slice_bytes / 4, UINT32_MAX));
    pc.width = uint32_t(span.width);
    pc.height = uint32_t(span.height);
    pc.depth = uint32_t(span.depth);
    if (to_image) {
        pc.dst_x = t.dst_x + int32_t(span.x0);
        pc.dst_y = t.dst_y + int32_t(span.y0);
        pc.dst_layer = int32_t(t.dst_layer + span.z0);
    } else {
        const VkDeviceSize dst_first = t.dst_offset + span.dst_start;
        const VkDeviceSize dst_bind = align_down(dst_first, align);
        // Narrow texels are written as whole words (atomically where shared): bind up to the next
        // multiple of 4 after the last texel (checked by the caller).
        const VkDeviceSize dst_end = align_up(dst_first + span.dst_bytes, 4);
        dst_info = {t.dst_buffer, dst_bind, dst_end - dst_bind};
        pc.dst_base_byte = uint32_t(dst_first - dst_bind);
        pc.dst_row_pitch = uint32_t(p.dst_row_pitch);
        pc.dst_slice_pitch = uint32_t(std::min<uint64_t>(p.dst_slice_pitch, UINT32_MAX));
    }
    VkWriteDescriptorSet writes[5] = {};
    uint32_t write_count = 0;
    auto add_write = [&](uint32_t binding, VkDescriptorType type) -> VkWriteDescriptorSet& {
        VkWriteDescriptorSet& w = writes[write_count++];
        w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        w.dstBinding = binding;
        w.descriptorCount = 1;
        w.descriptorType = type;
        return w;
    };
    add_write(TEXDEC_BINDING_SRC, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).pBufferInfo = &src_info;
    VkWriteDescriptorSet& dst_write =
        add_write(TEXDEC_BINDING_DST, to_image ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
    if (to_image) dst_write.pImageInfo = &image_info;
    else dst_write.pBufferInfo = &dst_info;
    if (shape.luts[0].buffer) {
        add_write(TEXDEC_BINDING_LUT, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).pBufferInfo = &shape.luts[0];
        add_write(TEXDEC_BINDING_FOOTPRINT_LUT, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).pBufferInfo = &shape.luts[1];
    }
    if (shape.tables) add_write(TEXDEC_BINDING_TABLES, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER).pTexelBufferView = &shape.tables;
    ctx->vkd.vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, write_count, writes);
    ctx->vkd.vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, &pc);
    if (shape.tile_x)
        ctx->vkd.vkCmdDispatch(cmd, uint32_t(div_round_up(c.nbx, shape.tile_x)), uint32_t(div_round_up(c.nby, shape.tile_y)),
                               uint32_t(c.nbz));
    else
        ctx->vkd.vkCmdDispatch(cmd, uint32_t(div_round_up(c.nbx, TEXDEC_WORKGROUP_X)), uint32_t(c.nby), uint32_t(c.nbz));
}

}  // namespace

texdec_status record_plan(texdec_context* ctx, VkCommandBuffer cmd, const JobPlan& p, const RecordTarget& t) {
    const FormatEntry& f = *p.format;
    const bool to_image = is_image_destination(t.dst_kind);
    PipelineKey key{};
    if (!find_shader(f.family, t.dst_kind, p.output.vk_format, &key.shader))
        return ctx->report(TEXDEC_ERROR_INVALID_DESTINATION, TEXDEC_MESSAGE_ERROR,
                           "no %s-destination decoder for %s with this output%s",
                           t.dst_kind == TEXDEC_DESTINATION_IMAGE_3D ? "3D-image" : to_image ? "image" : "buffer", f.name,
                           t.dst_kind == TEXDEC_DESTINATION_IMAGE_3D ? " (3D image views: ASTC formats only)" : "");
    key.variant = f.shader_variant;
    key.is_signed = (f.flags & TEXDEC_FORMAT_FLAG_SIGNED) ? 1 : 0;
    key.store = p.output.store_kind;
    key.rounding = p.rounding;
    const bool is_astc = f.family == TEXDEC_FAMILY_ASTC;
    // sRGB changes ASTC's endpoint expansion; for the other families only RGBA16F (v / 255 of the
    // byte), so their other stores share the UNORM pipeline.
    key.srgb = (f.flags & TEXDEC_FORMAT_FLAG_SRGB) && (is_astc || p.output.store_kind == TEXDEC_STORE_RGBA16F) ? 1 : 0;
    key.block_w = f.block_width, key.block_h = f.block_height, key.block_d = f.block_depth;
    // ASTC's variant is its operation mode: HDR for the sfloat formats (astc.comp).
    if (is_astc) key.variant = (f.flags & TEXDEC_FORMAT_FLAG_HDR) ? TEXDEC_ASTC_HDR : TEXDEC_ASTC_LDR;
    if (is_astc) {  // checked before the pipeline is created: creating it would break these limits
        const VkPhysicalDeviceLimits& l = ctx->properties.limits;
        if (l.maxComputeSharedMemorySize < TEXDEC_ASTC_SHARED_BYTES || l.maxComputeWorkGroupInvocations < TEXDEC_ASTC_GROUP_SIZE ||
            l.maxComputeWorkGroupSize[0] < TEXDEC_ASTC_GROUP_SIZE)
            return ctx->report(TEXDEC_ERROR_MISSING_FEATURE, TEXDEC_MESSAGE_ERROR,
                               "the ASTC decoder needs %u bytes of shared memory and %u invocations per workgroup; the device "
                               "offers %u and %u", unsigned(TEXDEC_ASTC_SHARED_BYTES), unsigned(TEXDEC_ASTC_GROUP_SIZE),
                               l.maxComputeSharedMemorySize, l.maxComputeWorkGroupInvocations);
    }
    VkPipeline pipeline = VK_NULL_HANDLE;
    if (texdec_status s = get_pipeline(ctx, key, &pipeline); s != TEXDEC_SUCCESS) return s;
    VkPipelineLayout layout = to_image ? ctx->layout_image_dst : ctx->layout_buffer_dst;
    ShaderShape shape;
    if (is_astc) {
        shape.tile_x = TEXDEC_ASTC_TILE_BLOCKS_X(uint32_t(f.block_width));
        shape.tile_y = TEXDEC_ASTC_TILE_BLOCKS_Y(uint32_t(f.block_height), uint32_t(f.block_depth));
        texdec_status s = get_astc_luts(ctx, f.block_width, f.block_height, f.block_depth, &shape.luts[0], &shape.luts[1]);
        if (s != TEXDEC_SUCCESS) return s;
    }
    if (f.family == TEXDEC_FAMILY_BC6H || f.family == TEXDEC_FAMILY_BC7 || f.family == TEXDEC_FAMILY_ETC2 ||
        f.family == TEXDEC_FAMILY_EAC) {
        texdec_status s = get_tables_lut(ctx, &shape.tables);
        if (s != TEXDEC_SUCCESS) return s;
    }

    // Chunk sizes: every dispatch stays inside maxComputeWorkGroupCount, and the buffer ranges it
    // binds inside maxStorageBufferRange (minus the alignment slack).
    const VkPhysicalDeviceLimits& lim = ctx->properties.limits;
    const VkDeviceSize align = std::max<VkDeviceSize>(lim.minStorageBufferOffsetAlignment, 4);
    const uint64_t max_range = uint64_t(lim.maxStorageBufferRange) - align - 4;
    // Block columns / rows / slices one dispatch can cover within maxComputeWorkGroupCount.
    const uint64_t group_cols = uint64_t(lim.maxComputeWorkGroupCount[0]) * (shape.tile_x ? shape.tile_x : TEXDEC_WORKGROUP_X);
    const uint64_t group_rows = uint64_t(lim.maxComputeWorkGroupCount[1]) * (shape.tile_y ? shape.tile_y : 1);
    const uint64_t group_slices = lim.maxComputeWorkGroupCount[2];
    const uint64_t max_cols = std::min<uint64_t>(std::max<uint64_t>(group_cols, 1), p.blocks_x);
    const uint64_t row_dst_bytes = p.dst_row_pitch * f.block_height;
    if (p.src_row_bytes > max_range || (!to_image && row_dst_bytes > max_range))
        return ctx->report(TEXDEC_ERROR_SIZE_OVERFLOW, TEXDEC_MESSAGE_ERROR,
                           "one block row needs more than maxStorageBufferRange (%u bytes)", lim.maxStorageBufferRange);
    // Rows per chunk: bounded by the group-count limit, by a work cap (2^24 texels per dispatch,
    // so no single dispatch runs long enough to trip a GPU watchdog), and by the ranges.
    const uint64_t kMaxBlocksPerDispatch = std::max<uint64_t>(1, (uint64_t(1) << 24) / (f.block_width * f.block_height * f.block_depth));
    uint64_t rows = std::min<uint64_t>({p.blocks_y, std::max<uint64_t>(group_rows, 1),
                                        std::max<uint64_t>(1, kMaxBlocksPerDispatch / max_cols),
                                        max_range / std::max<uint64_t>(p.src_row_bytes, 1)});
    if (!to_image) rows = std::min<uint64_t>(rows, max_range / std::max<uint64_t>(row_dst_bytes, 1));
    rows = std::max<uint64_t>(rows, 1);
    // Whole slices per chunk when a slice fits in one chunk.
    uint64_t slices = 1;
    if (rows == p.blocks_y) {
        const uint64_t slice_src = p.src_slice_bytes, slice_dst = p.dst_slice_pitch * f.block_depth;
        slices = std::min<uint64_t>({p.blocks_z, std::max<uint64_t>(group_slices, 1),
                                     std::max<uint64_t>(1, kMaxBlocksPerDispatch / (max_cols * rows)),
                                     std::max<uint64_t>(1, max_range / std::max<uint64_t>(slice_src, 1))});
        if (!to_image) slices = std::min<uint64_t>(slices, std::max<uint64_t>(1, max_range / std::max<uint64_t>(slice_dst, 1)));
    }

    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    if (t.flags & TEXDEC_RECORD_BARRIER_BEFORE) {
        barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT;
        barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
        ctx->vkd.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
                                      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
    }
    ctx->vkd.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);

    for (uint64_t bz = 0; bz < p.blocks_z; bz += slices)
        for (uint64_t by = 0; by < p.blocks_y; by += rows)
            for (uint64_t bx = 0; bx < p.blocks_x; bx += max_cols)
                record_chunk(ctx, cmd, layout, p, t, shape,
                             Chunk{bx, std::min(max_cols, p.blocks_x - bx), by, std::min(rows, p.blocks_y - by), bz,
                                   std::min(slices, p.blocks_z - bz)},
                             align);

    if (t.flags & TEXDEC_RECORD_BARRIER_AFTER) {
        barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
        barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_SHADER_READ_BIT;
        VkPipelineStageFlags dst_stages = VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
        if (ctx->queue_flags & VK_QUEUE_GRAPHICS_BIT) dst_stages |= VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
        ctx->vkd.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, dst_stages, 0, 1, &barrier, 0, nullptr, 0, nullptr);
    }
    return TEXDEC_SUCCESS;
}

}  // namespace texdec

using namespace texdec;

extern "C" TEXDEC_API texdec_status texdec_record_decode(texdec_context* ctx, VkCommandBuffer cmd, const texdec_record_job* job) {
    if (!ctx || !cmd || !job) return TEXDEC_ERROR_INVALID_ARGUMENT;
    JobPlan plan;
    texdec_status s = plan_job(ctx, enum_bits(job->format), enum_bits(job->output), enum_bits(job->bc_rounding),
                               job->width, job->height, job->depth,
                               {job->src_row_length, job->src_image_height}, &plan);
    if (s != TEXDEC_SUCCESS) return s;
    if (!job->src_buffer) return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR, "src_buffer is VK_NULL_HANDLE");
    if (job->src_offset % 4)
        return ctx->report(TEXDEC_ERROR_INVALID_LAYOUT, TEXDEC_MESSAGE_ERROR, "src_offset (%llu) is not a multiple of 4",
                           (unsigned long long)job->src_offset);
    if (job->src_size < plan.src_bytes_needed)
        return ctx->report(TEXDEC_ERROR_SOURCE_TOO_SMALL, TEXDEC_MESSAGE_ERROR, "the job needs %llu bytes of blocks, src_size is %llu",
                           (unsigned long long)plan.src_bytes_needed, (unsigned long long)job->src_size);
    const uint32_t dst_kind = enum_bits(job->dst_kind);
    if (dst_kind == TEXDEC_DESTINATION_BUFFER) {
        if (!job->dst_buffer) return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR, "dst_buffer is VK_NULL_HANDLE");
        s = plan_destination(ctx, job->dst_row_pitch, job->dst_slice_pitch, &plan);
        if (s != TEXDEC_SUCCESS) return s;
        const uint64_t texel = plan.output.texel_bytes;
        const uint64_t granule = texel >= 4 ? 4 : texel;  // shader writes words (narrow texels: bytes)
        if (job->dst_offset % granule || plan.dst_row_pitch % granule || plan.dst_slice_pitch % granule)
            return ctx->report(TEXDEC_ERROR_INVALID_LAYOUT, TEXDEC_MESSAGE_ERROR,
                               "dst_offset and pitches must be multiples of %llu for this output", (unsigned long long)granule);
        // Narrow texels: the word holding the last texel must lie inside dst_size.
        const uint64_t needed = align_up(job->dst_offset + plan.dst_bytes_needed, 4) - job->dst_offset;
        if (job->dst_size < needed)
            return ctx->report(TEXDEC_ERROR_DESTINATION_TOO_SMALL, TEXDEC_MESSAGE_ERROR,
                               "the job writes %llu bytes (rounded up to a whole word), dst_size is %llu",
                               (unsigned long long)needed, (unsigned long long)job->dst_size);
    } else if (is_image_destination(dst_kind)) {
        if (!job->dst_view) return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR, "dst_view is VK_NULL_HANDLE");
        if (job->dst_x < 0 || job->dst_y < 0)
            return ctx->report(TEXDEC_ERROR_INVALID_DESTINATION, TEXDEC_MESSAGE_ERROR, "dst_x and dst_y must not be negative");
        if (uint64_t(job->dst_x) + job->width > INT32_MAX || uint64_t(job->dst_y) + job->height > INT32_MAX ||
            uint64_t(job->dst_layer) + job->depth > INT32_MAX)
            return ctx->report(TEXDEC_ERROR_SIZE_OVERFLOW, TEXDEC_MESSAGE_ERROR, "destination coordinates overflow");
    } else {
        return ctx->report(TEXDEC_ERROR_INVALID_DESTINATION, TEXDEC_MESSAGE_ERROR, "unknown dst_kind %u", dst_kind);
    }
    RecordTarget target{job->src_buffer, job->src_offset, texdec_destination_kind(dst_kind), job->dst_buffer, job->dst_offset,
                        job->dst_view, job->dst_x, job->dst_y, job->dst_layer, job->flags};
    return record_plan(ctx, cmd, plan, target);
}

// texdec_record_regions: validation, chunking into dispatches that respect the device limits, optional
// barriers, push descriptors and push constants. Nothing is allocated per call.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>

#include "enum_bits.h"
#include "interface.h"
#include "dispatch.h"
#include "record.h"
#include "portable.h"

namespace texdec {
namespace {

// The pipeline for a variant (see prepare_variant), and how its shader maps invocations to blocks.
texdec_status get_pipeline_and_shape(texdec_context* ctx, const JobPlan& p, texdec_destination_kind dst_kind,
                                     const TexelFormat* image_format, Creation creation, VkPipeline* pipeline,
                                     ShaderShape* shape) {
    const FormatEntry& f = *p.format;
    PipelineKey key{};
    if (texdec_status s = find_decoder(ctx, f, p.output, dst_kind, true, &key.shader); s != TEXDEC_SUCCESS) return s;
    // Checked before the pipeline is created: creating it would break these limits.
    if (texdec_status s = check_device_needs(ctx, f, true, nullptr); s != TEXDEC_SUCCESS) return s;
    const FamilyTraits& family = family_traits(f.family);
    key.variant = f.shader_variant;
    key.is_signed = (f.flags & TEXDEC_FORMAT_FLAG_SIGNED) ? 1 : 0;
    key.store = p.output.store_kind;
    key.rounding = p.rounding;
    key.srgb = srgb_constant(f, p.output.store_kind) ? 1 : 0;
    key.block_w = f.block_width, key.block_h = f.block_height, key.block_d = f.block_depth;
    // Image formats whose bytes are the output's in another order are stored swizzled (the
    // texel-format table); the caller checked that the image format holds the output.
    key.store_swizzle =
        is_image_destination(dst_kind) && image_format ? image_format->store_swizzle() : TEXDEC_STORE_SWIZZLE_NONE;
    // The workgroup shape first: the caller's chunk checks need it even when the variant is not ready.
    *shape = ShaderShape{};
    if (family.tiles) {
        shape->tile_x = TEXDEC_ASTC_TILE_BLOCKS_X(uint32_t(f.block_width));
        shape->tile_y = TEXDEC_ASTC_TILE_BLOCKS_Y(uint32_t(f.block_height), uint32_t(f.block_depth));
    }
    if (texdec_status s = get_pipeline(ctx, key, creation, pipeline); s != TEXDEC_SUCCESS) return s;
    if (family.reads_astc_luts) {
        texdec_status s = get_astc_luts(ctx, f.block_width, f.block_height, f.block_depth, creation, &shape->luts[0],
                                        &shape->luts[1]);
        if (s != TEXDEC_SUCCESS) return s;
    }
    if (family.reads_tables) {
        texdec_status s = get_tables_lut(ctx, creation, &shape->tables);
        if (s != TEXDEC_SUCCESS) return s;
    }
    return TEXDEC_SUCCESS;
}

// a * b, or UINT64_MAX where that overflows (only compared against device limits).
uint64_t saturating_mul(uint64_t a, uint64_t b) { return b && a > UINT64_MAX / b ? UINT64_MAX : a * b; }

}  // namespace

// Chunk sizes: every dispatch stays inside maxComputeWorkGroupCount, under the work cap
// (max_texels texels per dispatch, so that no single dispatch runs long enough to trip a GPU
// watchdog), and the buffer ranges it binds inside maxStorageBufferRange (minus alignment slack).
// A buffer destination range covers, for a chunk of r block rows and t texel slices, at most
// (t - 1) * slice pitch + r * block height * row pitch bytes: a 3D footprint's block row spans
// block_depth texel slices, so the slice pitch counts even when a chunk is one block row.
texdec_status chunk_size(const texdec_context* ctx, const JobPlan& p, const ShaderShape& shape, bool to_image,
                         uint64_t max_texels, ChunkSize* out) {
    const FormatEntry& f = *p.format;
    const VkPhysicalDeviceLimits& lim = ctx->properties.limits;
    const VkDeviceSize align = std::max<VkDeviceSize>(lim.minStorageBufferOffsetAlignment, 4);
    const uint64_t max_range = uint64_t(lim.maxStorageBufferRange) - align - 4;
    // Block columns / rows / slices one dispatch can cover within maxComputeWorkGroupCount.
    const uint64_t group_cols = uint64_t(lim.maxComputeWorkGroupCount[0]) * (shape.tile_x ? shape.tile_x : TEXDEC_WORKGROUP_X);
    const uint64_t group_rows = uint64_t(lim.maxComputeWorkGroupCount[1]) * (shape.tile_y ? shape.tile_y : 1);
    const uint64_t group_slices = lim.maxComputeWorkGroupCount[2];
    const uint64_t max_blocks = std::max<uint64_t>(1, max_texels / (f.block_width * f.block_height * f.block_depth));
    const uint64_t row_dst_bytes = p.dst_row_pitch * f.block_height;  // one block row of one texel slice
    // Source bytes a chunk may span: linear, rows (slices) times their stride, and a chunk of one
    // block row only its blocks (a row stride or slice stride past the range costs nothing but
    // chunks of one row; a row whose blocks pass it is cut into columns); block-linear, r block
    // rows touch at most (r - 1) / 8H + 2 rows of GOB blocks, s block slices at most (s - 1) / D
    // + 2 groups of D slices (a chunk need not start on a GOB block).
    if ((p.block_linear && saturating_mul(p.src_row_bytes, 2) > max_range) || (!to_image && row_dst_bytes > max_range))
        return ctx->report(TEXDEC_ERROR_SIZE_OVERFLOW, TEXDEC_MESSAGE_ERROR,
                           p.block_linear
                               ? "two rows of GOB blocks of the block-linear source (or one block row of the "
                                 "destination) need more than maxStorageBufferRange (%u bytes)"
                               : "one block row of the destination needs more than maxStorageBufferRange (%u bytes)",
                           lim.maxStorageBufferRange);
    const uint64_t range_cols = p.block_linear ? UINT64_MAX : std::max<uint64_t>(1, max_range / f.bytes_per_block);
    auto source_cap = [&](uint64_t stride, uint32_t group_log2) -> uint64_t {  // rows (slices) whose span fits
        const uint64_t fit = max_range / std::max<uint64_t>(stride, 1);
        if (!p.block_linear) return fit;
        return fit < 2 ? 1 : saturating_mul(fit - 1, uint64_t(1) << group_log2);
    };
    // Texel slices of one block slice a chunk writes: all of them, unless (buffer destination)
    // their slice pitches alone break the range; then as many as fit beside one block row.
    const uint64_t slices_per_block = std::min<uint64_t>(f.block_depth, p.depth);
    uint64_t texel_slices = slices_per_block;
    if (!to_image && slices_per_block > 1 &&
        saturating_mul(p.dst_slice_pitch, slices_per_block - 1) > max_range - row_dst_bytes) {
        texel_slices = (max_range - row_dst_bytes) / p.dst_slice_pitch + 1;
        out->texel_slices = texel_slices;
    }
    // Columns: the whole row unless the group count, the work cap or (linear) the range says less.
    out->cols = std::min<uint64_t>({p.blocks_x, std::max<uint64_t>(group_cols, 1), max_blocks, range_cols});
    out->rows = std::min<uint64_t>({p.blocks_y, std::max<uint64_t>(group_rows, 1),
                                    std::max<uint64_t>(1, max_blocks / out->cols),
                                    source_cap(p.src_row_bytes, 3 + p.gob_height_log2)});
    if (!to_image)
        out->rows = std::min<uint64_t>(out->rows, (max_range - (texel_slices - 1) * p.dst_slice_pitch) / std::max<uint64_t>(row_dst_bytes, 1));
    out->rows = std::max<uint64_t>(out->rows, 1);
    // Whole slices per chunk when a slice fits in one chunk.
    out->slices = 1;
    if (out->rows == p.blocks_y && out->cols == p.blocks_x && !out->texel_slices) {
        const uint64_t slice_src = p.src_slice_bytes, slice_dst = saturating_mul(p.dst_slice_pitch, f.block_depth);
        out->slices = std::min<uint64_t>({p.blocks_z, std::max<uint64_t>(group_slices, 1),
                                          std::max<uint64_t>(1, max_blocks / (out->cols * out->rows)),
                                          std::max<uint64_t>(1, source_cap(slice_src, p.gob_depth_log2))});
        if (!to_image)
            out->slices = std::min<uint64_t>(out->slices, std::max<uint64_t>(1, max_range / std::max<uint64_t>(slice_dst, 1)));
    }
    return TEXDEC_SUCCESS;
}

namespace {

// The buffer ranges one chunk binds (offsets aligned down to `align`).
struct ChunkBinding {
    VkDescriptorBufferInfo src{}, dst{};
    uint32_t src_base_word = 0, dst_base_byte = 0;
};

ChunkBinding chunk_binding(const RecordCall& call, const RegionTarget& t, const ChunkSpan& span, VkDeviceSize align) {
    ChunkBinding b;
    const VkDeviceSize src_first = t.src_offset + span.src_start;
    const VkDeviceSize src_bind = align_down(src_first, align);
    b.src = {call.src_buffer, src_bind, src_first + span.src_bytes - src_bind};
    b.src_base_word = uint32_t((src_first - src_bind) / 4);
    if (!is_image_destination(call.dst_kind)) {
        const VkDeviceSize dst_first = t.dst_offset + span.dst_start;
        const VkDeviceSize dst_bind = align_down(dst_first, align);
        // Narrow texels are written as whole words (atomically where shared): bind up to the next
        // multiple of 4 after the last texel (checked by the caller).
        const VkDeviceSize dst_end = align_up(dst_first + span.dst_bytes, 4);
        b.dst = {call.dst_buffer, dst_bind, dst_end - dst_bind};
        b.dst_base_byte = uint32_t(dst_first - dst_bind);
    }
    return b;
}

}  // namespace

// The push constants of one chunk whose source range is bound so that its first block is word
// `src_base_word` and (buffer destinations) its first texel byte `dst_base_byte` of the bound
// destination range. Also a batched dispatch's region table entry (interface.h).
shader::TexdecPushConstants chunk_push_constants(const JobPlan& p, const RecordCall& call, const RegionTarget& t,
                                                 const Chunk& c, const ChunkSpan& span, uint32_t src_base_word,
                                                 uint32_t dst_base_byte) {
    shader::TexdecPushConstants pc{};
    pc.src_base_word = src_base_word;
    pc.src_row_words = uint32_t(p.src_row_bytes / 4);
    pc.src_slice_words = uint32_t(std::min<uint64_t>(p.src_slice_bytes / 4, UINT32_MAX));
    pc.width = uint32_t(span.width);
    pc.height = uint32_t(span.height);
    pc.depth = uint32_t(span.depth);
    pc.dst_z_skip = uint32_t(c.z_skip);
    if (p.block_linear) {
        // The shader addresses from the GOB block holding the chunk's first block (interface.h).
        const uint64_t x_in = (p.src_origin_x + c.bx0) % (64 / p.format->bytes_per_block);
        const uint64_t y_in = (p.src_origin_y + c.by0) % (uint64_t(8) << p.gob_height_log2);
        const uint64_t z_in = (p.src_origin_z + c.bz0) % (uint64_t(1) << p.gob_depth_log2);
        pc.src_layout = TEXDEC_FIELD_PUT(1u, TEXDEC_SRC_BLOCK_LINEAR) |
                        TEXDEC_FIELD_PUT(p.gob_height_log2, TEXDEC_SRC_GOB_HEIGHT_LOG2) |
                        TEXDEC_FIELD_PUT(p.gob_depth_log2, TEXDEC_SRC_GOB_DEPTH_LOG2);
        pc.src_block_origin = TEXDEC_FIELD_PUT(uint32_t(x_in), TEXDEC_SRC_ORIGIN_X) |
                              TEXDEC_FIELD_PUT(uint32_t(y_in), TEXDEC_SRC_ORIGIN_Y) |
                              TEXDEC_FIELD_PUT(uint32_t(z_in), TEXDEC_SRC_ORIGIN_Z);
        // Wraps modulo 2^32 where the in-block offset exceeds the chunk's word: the shader's sum wraps back.
        pc.src_base_word = src_base_word - uint32_t(surface_block_offset(p, x_in, y_in, z_in) / 4);
    }
    if (is_image_destination(call.dst_kind)) {
        pc.dst_x = t.dst_x + int32_t(span.x0);
        pc.dst_y = t.dst_y + int32_t(span.y0);
        pc.dst_layer = int32_t(t.dst_layer + span.z0);
    } else {
        pc.dst_base_byte = dst_base_byte;
        pc.dst_row_pitch = uint32_t(p.dst_row_pitch);
        pc.dst_slice_pitch = uint32_t(std::min<uint64_t>(p.dst_slice_pitch, UINT32_MAX));
    }
    return pc;
}

Groups chunk_groups(const ShaderShape& shape, const Chunk& c) {
    if (shape.tile_x) return {div_round_up(c.nbx, shape.tile_x), div_round_up(c.nby, shape.tile_y), c.nbz};
    return {div_round_up(c.nbx, TEXDEC_WORKGROUP_X), c.nby, c.nbz};
}

namespace {

// One dispatch: push the descriptors (`regions`: a batched dispatch's table; any storage buffer
// range otherwise, unread) and the push constants, then dispatch `groups`.
void record_dispatch(texdec_context* ctx, VkCommandBuffer cmd, VkPipelineLayout layout, bool to_image, VkImageView view,
                     const VkDescriptorBufferInfo& src, const VkDescriptorBufferInfo& dst,
                     const VkDescriptorBufferInfo& regions, const ShaderShape& shape,
                     const shader::TexdecPushConstants& pc, Groups groups) {
    const VkDescriptorImageInfo image_info{VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL};
    VkWriteDescriptorSet writes[6] = {};
    uint32_t write_count = 0;
    auto add_write = [&](uint32_t binding, VkDescriptorType type) -> VkWriteDescriptorSet& {
        VkWriteDescriptorSet& w = writes[write_count++];
        w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        w.dstBinding = binding;
        w.descriptorCount = 1;
        w.descriptorType = type;
        return w;
    };
    add_write(TEXDEC_BINDING_SRC, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).pBufferInfo = &src;
    VkWriteDescriptorSet& dst_write =
        add_write(TEXDEC_BINDING_DST, to_image ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
    if (to_image) dst_write.pImageInfo = &image_info;
    else dst_write.pBufferInfo = &dst;
    if (shape.luts[0].buffer) {
        add_write(TEXDEC_BINDING_LUT, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).pBufferInfo = &shape.luts[0];
        add_write(TEXDEC_BINDING_FOOTPRINT_LUT, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).pBufferInfo = &shape.luts[1];
    }
    if (shape.tables) add_write(TEXDEC_BINDING_TABLES, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER).pTexelBufferView = &shape.tables;
    add_write(TEXDEC_BINDING_REGIONS, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).pBufferInfo = &regions;
    ctx->vkd.vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, write_count, writes);
    ctx->vkd.vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, &pc);
    ctx->vkd.vkCmdDispatch(cmd, uint32_t(groups.x), uint32_t(groups.y), uint32_t(groups.z));
}

// One chunk in its own dispatch.
void record_chunk(texdec_context* ctx, VkCommandBuffer cmd, VkPipelineLayout layout, const JobPlan& p,
                  const RecordCall& call, const RegionTarget& t, const ShaderShape& shape, const Chunk& c,
                  const ChunkSpan& span, const ChunkBinding& b) {
    const shader::TexdecPushConstants pc = chunk_push_constants(p, call, t, c, span, b.src_base_word, b.dst_base_byte);
    record_dispatch(ctx, cmd, layout, is_image_destination(call.dst_kind), t.dst_view, b.src, b.dst, b.src, shape, pc,
                    chunk_groups(shape, c));
}

// Destinations written since the last barrier of this call: a dispatch that writes one of them
// again gets a compute-to-compute barrier first. Storage-image views count whole (the
// synchronization validation layer cannot see which texels a shader writes); buffer ranges
// count as one span from the lowest to the highest byte bound.
class WriteTracker {
public:
    // True if writing `view` (image) or [begin, end) (buffer) needs a barrier first; then the
    // caller records it and the tracker starts over with this write.
    bool needs_barrier(VkImageView view, uint64_t begin, uint64_t end) {
        bool hazard = false;
        if (view) {
            for (uint32_t i = 0; i < view_count_; ++i) hazard |= views_[i] == view;
            if (view_count_ == kMaxViews) hazard = true;
        } else {
            hazard = begin < hi_ && lo_ < end;
        }
        if (hazard) *this = WriteTracker{};
        if (view) views_[view_count_++] = view;
        else lo_ = std::min(lo_, begin), hi_ = std::max(hi_, end);
        return hazard;
    }

private:
    static constexpr uint32_t kMaxViews = 32;
    VkImageView views_[kMaxViews] = {};
    uint32_t view_count_ = 0;
    uint64_t lo_ = UINT64_MAX, hi_ = 0;
};

// One vkCmdPipelineBarrier for one side of `call.barriers`, by texdec_record_barriers' rules: a
// memory barrier; buffer barriers where queue family ownership moves; for an image target an
// image barrier per mip level written (the caller's layout <-> GENERAL). A zero stage mask
// becomes TOP_OF_PIPE (before) or BOTTOM_OF_PIPE (after) with no access: the layout
// transitions and ownership transfers are recorded all the same.
void record_call_barrier(texdec_context* ctx, VkCommandBuffer cmd, const RecordCall& call, bool before) {
    if (!(before ? call.barrier_before : call.barrier_after)) return;
    const texdec_record_barriers& b = call.barriers;
    const VkPipelineStageFlags caller_stages = before ? b.src_stage_mask : b.dst_stage_mask;
    const VkAccessFlags caller_access = caller_stages ? (before ? b.src_access_mask : b.dst_access_mask) : 0;
    const VkPipelineStageFlags outside_stages =
        caller_stages ? caller_stages
                      : VkPipelineStageFlags(before ? VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT : VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
    // With a scratch the decode begins with the region tables' transfer writes (record_regions).
    const bool tables = before && call.scratch_buffer;
    const VkAccessFlags table_access = tables ? VkAccessFlags(VK_ACCESS_TRANSFER_WRITE_BIT) : 0;
    const VkAccessFlags decode_access =
        before ? VkAccessFlags(VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT) | table_access
               : VkAccessFlags(VK_ACCESS_SHADER_WRITE_BIT);
    const VkAccessFlags src_access = before ? caller_access : decode_access, dst_access = before ? decode_access : caller_access;
    // Ownership: acquired before the decode from the caller's family, released after to it.
    const bool transfer = (b.flags & (before ? TEXDEC_BARRIER_ACQUIRE : TEXDEC_BARRIER_RELEASE)) != 0;
    const uint32_t other_family = before ? b.src_queue_family_index : b.dst_queue_family_index;
    const uint32_t src_family = !transfer ? VK_QUEUE_FAMILY_IGNORED : before ? other_family : ctx->queue_family;
    const uint32_t dst_family = !transfer ? VK_QUEUE_FAMILY_IGNORED : before ? ctx->queue_family : other_family;
    VkMemoryBarrier memory{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, src_access, dst_access};
    VkBufferMemoryBarrier buffers[2] = {};
    uint32_t buffer_count = 0;
    auto add_buffer = [&](VkBuffer buffer) {
        if (!transfer || !buffer) return;
        buffers[buffer_count++] = {VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER, nullptr, src_access, dst_access, src_family, dst_family,
                                   buffer, 0, VK_WHOLE_SIZE};
    };
    if (before) add_buffer(call.src_buffer);  // the source is only acquired: it is not handed back
    add_buffer(call.dst_buffer);
    VkImageMemoryBarrier images[kMaxMipLevels] = {};
    uint32_t image_count = 0;
    if (call.image) {
        const VkImageLayout outside_layout = before ? b.old_layout : b.new_layout;
        for (uint32_t level = 0; level < kMaxMipLevels; ++level) {
            if (!(call.levels_written >> level & 1)) continue;
            VkImageMemoryBarrier& ib = images[image_count++];
            ib.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
            ib.srcAccessMask = src_access;
            ib.dstAccessMask = dst_access;
            // new_layout UNDEFINED (0) after: the image stays in GENERAL.
            ib.oldLayout = before ? outside_layout : VK_IMAGE_LAYOUT_GENERAL;
            ib.newLayout = before ? VK_IMAGE_LAYOUT_GENERAL
                                  : (outside_layout == VK_IMAGE_LAYOUT_UNDEFINED ? VK_IMAGE_LAYOUT_GENERAL : outside_layout);
            ib.srcQueueFamilyIndex = src_family;
            ib.dstQueueFamilyIndex = dst_family;
            ib.image = call.image;
            ib.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, level, 1, 0, call.layer_count};
        }
    }
    const VkPipelineStageFlags decode_stage =
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | (tables ? VkPipelineStageFlags(VK_PIPELINE_STAGE_TRANSFER_BIT) : 0);
    ctx->vkd.vkCmdPipelineBarrier(cmd, before ? outside_stages : decode_stage, before ? decode_stage : outside_stages, 0, 1,
                                  &memory, buffer_count, buffers, image_count, images);
}

}  // namespace

texdec_status prepare_variant(texdec_context* ctx, const JobPlan& plan, texdec_destination_kind dst_kind,
                              const TexelFormat* image_format, Creation creation) {
    VkPipeline pipeline = VK_NULL_HANDLE;
    ShaderShape shape;
    return get_pipeline_and_shape(ctx, plan, dst_kind, image_format, creation, &pipeline, &shape);
}

texdec_status record_regions(texdec_context* ctx, VkCommandBuffer cmd, const RecordCall& call, const RegionList& regions) {
    const bool to_image = is_image_destination(call.dst_kind);
    const uint64_t max_texels = call.max_texels_per_dispatch ? call.max_texels_per_dispatch : ctx->max_texels_per_dispatch;
    const uint32_t count = regions.count();
    if (count == 0) return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR, "no regions to decode");
    // Everything that can fail happens before the first command: checks, pipeline, tables.
    JobPlan p;
    RegionTarget t;
    VkPipeline pipeline = VK_NULL_HANDLE;
    ShaderShape shape;
    ChunkSize size;
    bool ready = true;  // FAIL_IF_NOT_READY: NOT_READY only once every region passed its checks
    for (uint32_t i = 0; i < count; ++i) {
        if (texdec_status s = regions.plan(i, &p, &t); s != TEXDEC_SUCCESS) return s;
        if (i == 0) {
            const Creation creation = call.fail_if_not_ready ? Creation::lookup_only : Creation::create_missing;
            texdec_status s = get_pipeline_and_shape(ctx, p, call.dst_kind, call.image_format, creation, &pipeline, &shape);
            ready = s != TEXDEC_ERROR_NOT_READY;
            if (ready && s != TEXDEC_SUCCESS) return s;
        }
        if (texdec_status s = chunk_size(ctx, p, shape, to_image, max_texels, &size); s != TEXDEC_SUCCESS) return s;
    }
    if (!ready) {
        // An expected answer (the caller falls back and records later, maybe every frame until
        // texdec_prepare is done): an INFO, the first time for each variant only. Format and
        // output are the job's, the same in every region's plan.
        const std::array<uint32_t, 5> variant = {uint32_t(p.format->format), p.output_kind, p.rounding, call.dst_kind,
                                                 call.image_format ? uint32_t(call.image_format->format) : 0u};
        bool first;
        {
            std::lock_guard<std::mutex> lock(ctx->pipeline_mutex);
            first = ctx->not_ready_reported.insert(variant).second;
        }
        if (first)
            ctx->report(TEXDEC_ERROR_NOT_READY, TEXDEC_MESSAGE_INFO,
                        "the variant %s -> %s into %s is not ready (TEXDEC_RECORD_FAIL_IF_NOT_READY): its pipeline or "
                        "lookup tables are not created yet (texdec_prepare creates them); nothing was recorded (said "
                        "once per variant)",
                        p.format->name, output_label(p.output_kind).text, destination_name(call.dst_kind));
        return TEXDEC_ERROR_NOT_READY;
    }

    const VkDeviceSize align = std::max<VkDeviceSize>(ctx->properties.limits.minStorageBufferOffsetAlignment, 4);
    const VkPipelineLayout layout = to_image ? ctx->layout_image_dst : ctx->layout_buffer_dst;
    // Everything recorded below (barriers included) sits in one label: RenderDoc's event tree and
    // the validation layer's messages (VkDebugUtilsMessengerCallbackDataEXT::pCmdBufLabels) show it.
    begin_label(ctx, cmd, "texdec %s -> %s %s, %u region%s", p.format->name, store_name(p.output.store_kind),
                destination_name(call.dst_kind), count, count == 1 ? "" : "s");
    record_call_barrier(ctx, cmd, call, true);
    // Batched dispatches: every batch's region table first (vkCmdUpdateBuffer into the scratch, in
    // the order the batches are dispatched), then one barrier, so that the dispatches run unbroken.
    const Batcher batcher(ctx, call, regions, shape, max_texels);
    if (call.scratch_buffer) {
        constexpr uint32_t kStaged = 256;  // entries per vkCmdUpdateBuffer (16 KiB of stack)
        shader::TexdecPushConstants staged[kStaged];
        uint32_t staged_count = 0;
        VkDeviceSize written_entries = 0;
        auto flush = [&] {
            if (!staged_count) return;
            ctx->vkd.vkCmdUpdateBuffer(cmd, call.scratch_buffer,
                                       call.scratch_offset + written_entries * kRegionEntryBytes,
                                       staged_count * kRegionEntryBytes, staged);
            written_entries += staged_count;
            staged_count = 0;
        };
        batcher.for_each([](uint32_t) {},
                         [&](const Batch& b) {
                             batcher.entries(b, [&](const shader::TexdecPushConstants& entry) {
                                 staged[staged_count++] = entry;
                                 if (staged_count == kStaged) flush();
                             });
                         });
        flush();
        if (written_entries) {
            const VkMemoryBarrier tables{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT,
                                         VK_ACCESS_SHADER_READ_BIT};
            ctx->vkd.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0,
                                          1, &tables, 0, nullptr, 0, nullptr);
        }
    }
    ctx->vkd.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    WriteTracker written;
    auto write_barrier = [&](VkImageView view, uint64_t begin, uint64_t end) {
        if (!written.needs_barrier(view, begin, end)) return;
        const VkMemoryBarrier waw{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT,
                                  VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT};
        ctx->vkd.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                      0, 1, &waw, 0, nullptr, 0, nullptr);
    };
    // A region in dispatches of its own (chunks).
    auto direct = [&](uint32_t i) {
        regions.plan(i, &p, &t);  // succeeded above
        chunk_size(ctx, p, shape, to_image, max_texels, &size);
        // Texel slices within a block slice: one step of the whole block unless it is cut.
        const uint64_t block_depth = p.format->block_depth, z_step = size.texel_slices ? size.texel_slices : block_depth;
        for (uint64_t bz = 0; bz < p.blocks_z; bz += size.slices)
            for (uint64_t z_skip = 0; z_skip < block_depth && bz * block_depth + z_skip < p.depth; z_skip += z_step)
                for (uint64_t by = 0; by < p.blocks_y; by += size.rows)
                    for (uint64_t bx = 0; bx < p.blocks_x; bx += size.cols) {
                        const Chunk c{
                            bx, std::min(size.cols, p.blocks_x - bx),   by,     std::min(size.rows, p.blocks_y - by),
                            bz, std::min(size.slices, p.blocks_z - bz), z_skip, size.texel_slices};
                        const ChunkSpan span = chunk_span(p, c);
                        const ChunkBinding b = chunk_binding(call, t, span, align);
                        write_barrier(to_image ? t.dst_view : VK_NULL_HANDLE, b.dst.offset, b.dst.offset + b.dst.range);
                        record_chunk(ctx, cmd, layout, p, call, t, shape, c, span, b);
                    }
    };
    // A batch: one dispatch, its members' entries at table slots [slot, slot + members).
    VkDeviceSize slot = 0;
    auto batch = [&](const Batch& b) {
        const VkDeviceSize src_bind = align_down(b.src_lo, align), dst_bind = align_down(b.dst_lo, align);
        const VkDescriptorBufferInfo src{call.src_buffer, src_bind, b.src_hi - src_bind};
        const VkDescriptorBufferInfo dst{call.dst_buffer, to_image ? 0 : dst_bind, to_image ? 0 : b.dst_hi - dst_bind};
        const VkDeviceSize table = call.scratch_offset + slot * kRegionEntryBytes,
                           table_bind = align_down(table, align);
        const VkDescriptorBufferInfo regions_info{call.scratch_buffer, table_bind,
                                                  table + b.members * kRegionEntryBytes - table_bind};
        shader::TexdecPushConstants pc{};
        pc.src_base_word = uint32_t((table - table_bind) / 4);
        pc.batch_slices = uint32_t(b.grid.z);
        pc.src_row_words = b.row_log2;
        write_barrier(to_image ? b.view : VK_NULL_HANDLE, dst.offset, dst.offset + dst.range);
        record_dispatch(ctx, cmd, layout, to_image, b.view, src, dst, regions_info, shape, pc,
                        Groups{b.grid.x, b.grid.y, b.grid.z * b.members});
        slot += b.members;
    };
    if (call.scratch_buffer) {
        batcher.for_each(direct, batch);
    } else {
        for (uint32_t i = 0; i < count; ++i) direct(i);
    }
    record_call_barrier(ctx, cmd, call, false);
    end_label(ctx, cmd);
    return TEXDEC_SUCCESS;
}

}  // namespace texdec

using namespace texdec;

namespace {

// Checks a linear destination: pitches, alignment for the output's texel size, and the bytes
// it writes from `dst_offset` against `dst_available` (bytes usable from dst_offset).
texdec_status check_buffer_destination(const texdec_context* ctx, uint64_t row_pitch, uint64_t slice_pitch, uint64_t dst_offset,
                                       uint64_t dst_available, JobPlan* plan) {
    if (texdec_status s = plan_destination(ctx, row_pitch, slice_pitch, plan); s != TEXDEC_SUCCESS) return s;
    const uint64_t texel = plan->output.texel_bytes;
    const uint64_t granule = texel >= 4 ? 4 : texel;  // shader writes words (narrow texels: bytes)
    if (dst_offset % granule || plan->dst_row_pitch % granule || plan->dst_slice_pitch % granule)
        return ctx->report(TEXDEC_ERROR_INVALID_LAYOUT, TEXDEC_MESSAGE_ERROR,
                           "the destination offset and pitches must be multiples of %llu for this output", (unsigned long long)granule);
    // The GPU addresses dst_offset + every byte written: that sum (rounded up to the word holding
    // the last texel) and dst_offset + dst_available must not wrap around 64 bits.
    if (dst_offset > UINT64_MAX - dst_available || dst_offset > UINT64_MAX - 4 - plan->dst_bytes_needed)
        return ctx->report(TEXDEC_ERROR_SIZE_OVERFLOW, TEXDEC_MESSAGE_ERROR,
                           "the destination offset (%llu) plus its size overflows 64 bits", (unsigned long long)dst_offset);
    // Narrow texels: the word holding the last texel must lie inside the destination.
    const uint64_t needed = align_up(dst_offset + plan->dst_bytes_needed, 4) - dst_offset;
    if (dst_available < needed)
        return ctx->report(TEXDEC_ERROR_DESTINATION_TOO_SMALL, TEXDEC_MESSAGE_ERROR,
                           "the region writes %llu bytes (rounded up to a whole word) from offset %llu; %llu are usable",
                           (unsigned long long)needed, (unsigned long long)dst_offset, (unsigned long long)dst_available);
    return TEXDEC_SUCCESS;
}

texdec_status check_source(const texdec_context* ctx, VkBuffer buffer, uint64_t offset, uint64_t available, const JobPlan& plan) {
    if (!buffer) return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR, "the source buffer is VK_NULL_HANDLE");
    if (offset % 4)
        return ctx->report(TEXDEC_ERROR_INVALID_LAYOUT, TEXDEC_MESSAGE_ERROR, "the source offset (%llu) is not a multiple of 4",
                           (unsigned long long)offset);
    // The GPU addresses offset + every byte read: neither that nor offset + available may wrap.
    if (offset > UINT64_MAX - available || offset > UINT64_MAX - plan.src_bytes_needed)
        return ctx->report(TEXDEC_ERROR_SIZE_OVERFLOW, TEXDEC_MESSAGE_ERROR,
                           "the source offset (%llu) plus its size overflows 64 bits", (unsigned long long)offset);
    if (available < plan.src_bytes_needed)
        return ctx->report(TEXDEC_ERROR_SOURCE_TOO_SMALL, TEXDEC_MESSAGE_ERROR,
                           "the region needs %llu bytes of blocks from offset %llu; %llu are usable",
                           (unsigned long long)plan.src_bytes_needed, (unsigned long long)offset, (unsigned long long)available);
    return TEXDEC_SUCCESS;
}

// texdec_record_regions' regions, checked against the image target or the buffer.
class RegionArray final : public RegionList {
public:
    RegionArray(texdec_context* ctx, const texdec_regions_job& job) : ctx_(ctx), job_(job) {}
    uint32_t count() const override { return job_.region_count; }
    uint32_t level(uint32_t index) const override { return job_.regions[index].mip_level; }
    texdec_status plan(uint32_t index, JobPlan* plan, RegionTarget* t) const override {
        const texdec_region& r = job_.regions[index];
        const texdec_image_target* image = job_.dst_image;
        const uint32_t layers = r.layer_count ? r.layer_count : 1;
        // Layer ranges first (before any size): they are out of range whatever the buffers hold.
        if (r.layer_count == VK_REMAINING_ARRAY_LAYERS)
            return fail(index, TEXDEC_ERROR_INVALID_ARGUMENT,
                        "has layer_count 0xFFFFFFFF (VK_REMAINING_ARRAY_LAYERS), which texdec does not take: give the "
                        "number of layers");
        if (uint64_t(r.base_array_layer) + layers > UINT32_MAX)
            return fail(index, TEXDEC_ERROR_INVALID_ARGUMENT, "has base_array_layer + layer_count above 2^32 - 1");
        if (image && image->is_3d && (r.base_array_layer != 0 || layers != 1))
            return fail(index, TEXDEC_ERROR_INVALID_DESTINATION, "names array layers of a 3D image");
        if (image && !image->is_3d && uint64_t(r.base_array_layer) + layers > image->array_layers)
            return fail(index, TEXDEC_ERROR_INVALID_DESTINATION, "names layers past the image's array_layers");
        if (r.extent.depth > 1 && layers > 1)
            return fail(index, TEXDEC_ERROR_INVALID_ARGUMENT, "has both extent.depth > 1 and layer_count > 1 (Vulkan allows one)");
        const uint64_t slices = uint64_t(r.extent.depth) * layers;
        if (slices > UINT32_MAX) return fail(index, TEXDEC_ERROR_SIZE_OVERFLOW, "has too many slices");
        char where[32];
        std::snprintf(where, sizeof where, "region %u", index);
        texdec_status s =
            plan_job(ctx_, enum_bits(job_.format), enum_bits(job_.output), enum_bits(job_.bc_rounding), r.extent.width,
                     r.extent.height, uint32_t(slices), {r.src_row_length, r.src_image_height, r.next, where}, plan);
        if (s != TEXDEC_SUCCESS) return s;
        if (r.src_offset > job_.src_size) return fail(index, TEXDEC_ERROR_SOURCE_TOO_SMALL, "starts past src_size");
        if ((s = check_source(ctx_, job_.src_buffer, r.src_offset, job_.src_size - r.src_offset, *plan)) != TEXDEC_SUCCESS)
            return s;
        *t = RegionTarget{};
        t->src_offset = r.src_offset;
        if (!image) {
            if (r.dst_offset > job_.dst_size) return fail(index, TEXDEC_ERROR_DESTINATION_TOO_SMALL, "starts past dst_size");
            t->dst_offset = r.dst_offset;
            return check_buffer_destination(ctx_, r.dst_row_pitch, r.dst_slice_pitch, r.dst_offset, job_.dst_size - r.dst_offset,
                                            plan);
        }
        // Image target: the output must be what the image holds, the region inside the level.
        if ((s = check_target_output(ctx_, *image, *plan)) != TEXDEC_SUCCESS) return s;
        if (r.mip_level >= image->mip_levels)
            return fail(index, TEXDEC_ERROR_INVALID_DESTINATION, "has mip_level >= the image's mip_levels");
        const uint32_t w = std::max(1u, image->extent.width >> r.mip_level), h = std::max(1u, image->extent.height >> r.mip_level);
        const uint32_t d = image->is_3d ? std::max(1u, image->extent.depth >> r.mip_level) : 1;
        const uint64_t z_end = uint64_t(r.offset.z) + r.extent.depth;
        if (r.offset.x < 0 || r.offset.y < 0 || r.offset.z < 0 || uint64_t(r.offset.x) + r.extent.width > w ||
            uint64_t(r.offset.y) + r.extent.height > h || z_end > d)
            return fail(index, TEXDEC_ERROR_INVALID_DESTINATION, "lies outside its mip level");
        t->dst_view = image->views[r.mip_level];
        t->dst_x = r.offset.x, t->dst_y = r.offset.y;
        t->dst_layer = image->is_3d ? uint32_t(r.offset.z) : r.base_array_layer;
        return TEXDEC_SUCCESS;
    }

private:
    texdec_status fail(uint32_t index, texdec_status status, const char* what) const {
        return ctx_->report(status, TEXDEC_MESSAGE_ERROR, "region %u %s", index, what);
    }
    texdec_context* ctx_;
    const texdec_regions_job& job_;
};

}  // namespace

namespace {

// texdec_regions_job::next: nothing, or a texdec_regions_scratch_info (with nothing after it) that
// holds the job's region tables.
texdec_status regions_job_chain(const texdec_context* ctx, const texdec_regions_job* job,
                                const texdec_regions_scratch_info** out) {
    *out = nullptr;
    if (!job->next) return TEXDEC_SUCCESS;
    uint32_t type;  // every chained struct begins with a 32-bit type
    std::memcpy(&type, job->next, sizeof type);
    if (type != TEXDEC_STRUCTURE_TYPE_REGIONS_SCRATCH_INFO) return check_chain(ctx, job->next, "texdec_regions_job");
    const auto* scratch = static_cast<const texdec_regions_scratch_info*>(job->next);
    if (texdec_status s = check_chain(ctx, scratch->next, "texdec_regions_scratch_info"); s != TEXDEC_SUCCESS) return s;
    if (!scratch->buffer)
        return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                           "texdec_regions_scratch_info.buffer is VK_NULL_HANDLE");
    if (scratch->offset % 4)
        return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                           "texdec_regions_scratch_info.offset (%llu) is not a multiple of 4",
                           (unsigned long long)scratch->offset);
    const uint64_t needed = uint64_t(job->region_count) * kRegionEntryBytes;
    if (scratch->size < needed || scratch->offset > UINT64_MAX - needed)
        return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                           "texdec_regions_scratch_info.size (%llu) is smaller than the %llu bytes %u regions need "
                           "(texdec_regions_scratch_size)",
                           (unsigned long long)scratch->size, (unsigned long long)needed, job->region_count);
    *out = scratch;
    return TEXDEC_SUCCESS;
}

// ---- texdec_record_barriers' values (texdec.h): checked before anything is recorded ----------

// The image layouts a barrier may name around the decode of a colour storage image, and the usage
// each needs (VkImageMemoryBarrier's valid usage: a layout transition from or to a layout needs
// the usage that layout serves). Depth/stencil layouts (not a colour image's), layouts of
// extensions texdec does not know, and values outside VkImageLayout are refused.
struct LayoutRule {
    VkImageLayout layout;
    const char* name;
    VkImageUsageFlags usage;  // any of these (0: none needed)
    bool before_only;         // UNDEFINED and PREINITIALIZED: only as the layout before the decode
};
constexpr LayoutRule kLayouts[] = {
    {VK_IMAGE_LAYOUT_UNDEFINED, "UNDEFINED", 0, true},
    {VK_IMAGE_LAYOUT_GENERAL, "GENERAL", 0, false},
    {VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, "COLOR_ATTACHMENT_OPTIMAL", VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, false},
    {VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, "SHADER_READ_ONLY_OPTIMAL",
     VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT, false},
    {VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, "TRANSFER_SRC_OPTIMAL", VK_IMAGE_USAGE_TRANSFER_SRC_BIT, false},
    {VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, "TRANSFER_DST_OPTIMAL", VK_IMAGE_USAGE_TRANSFER_DST_BIT, false},
    {VK_IMAGE_LAYOUT_PREINITIALIZED, "PREINITIALIZED", 0, true},
    // Vulkan 1.3 / VK_KHR_synchronization2 (the device must enable synchronization2).
    {VK_IMAGE_LAYOUT_READ_ONLY_OPTIMAL, "READ_ONLY_OPTIMAL",
     VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, false},
    {VK_IMAGE_LAYOUT_ATTACHMENT_OPTIMAL, "ATTACHMENT_OPTIMAL", VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, false},
    // VK_KHR_swapchain, VK_KHR_shared_presentable_image (the device must enable them).
    {VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, "PRESENT_SRC_KHR", 0, false},
    {VK_IMAGE_LAYOUT_SHARED_PRESENT_KHR, "SHARED_PRESENT_KHR", 0, false},
};

// Vulkan 1.0's pipeline stages and the shader stages of the ray tracing and mesh shading
// extensions (the stages that may read decoded texels).
constexpr VkPipelineStageFlags kGraphicsStages =
    VK_PIPELINE_STAGE_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_VERTEX_SHADER_BIT |
    VK_PIPELINE_STAGE_TESSELLATION_CONTROL_SHADER_BIT | VK_PIPELINE_STAGE_TESSELLATION_EVALUATION_SHADER_BIT |
    VK_PIPELINE_STAGE_GEOMETRY_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT |
    VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT |
    VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT |
    VK_PIPELINE_STAGE_TASK_SHADER_BIT_EXT | VK_PIPELINE_STAGE_MESH_SHADER_BIT_EXT;
constexpr VkPipelineStageFlags kShaderStages =
    VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_TESSELLATION_CONTROL_SHADER_BIT |
    VK_PIPELINE_STAGE_TESSELLATION_EVALUATION_SHADER_BIT | VK_PIPELINE_STAGE_GEOMETRY_SHADER_BIT |
    VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
    VK_PIPELINE_STAGE_RAY_TRACING_SHADER_BIT_KHR | VK_PIPELINE_STAGE_TASK_SHADER_BIT_EXT |
    VK_PIPELINE_STAGE_MESH_SHADER_BIT_EXT;
constexpr VkPipelineStageFlags kKnownStages =
    0x1FFFF /* Vulkan 1.0: TOP_OF_PIPE ... ALL_COMMANDS */ | VK_PIPELINE_STAGE_RAY_TRACING_SHADER_BIT_KHR |
    VK_PIPELINE_STAGE_TASK_SHADER_BIT_EXT | VK_PIPELINE_STAGE_MESH_SHADER_BIT_EXT;

// Vulkan 1.0's access types and the stages that perform each (the spec's "Supported access types"
// table; MEMORY_READ / MEMORY_WRITE: any stage). ALL_COMMANDS performs every access,
// ALL_GRAPHICS every access of the graphics stages.
struct AccessRule {
    VkAccessFlags access;
    const char* name;
    VkPipelineStageFlags stages;  // 0: any stage
};
constexpr AccessRule kAccesses[] = {
    {VK_ACCESS_INDIRECT_COMMAND_READ_BIT, "INDIRECT_COMMAND_READ", VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT},
    {VK_ACCESS_INDEX_READ_BIT, "INDEX_READ", VK_PIPELINE_STAGE_VERTEX_INPUT_BIT},
    {VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT, "VERTEX_ATTRIBUTE_READ", VK_PIPELINE_STAGE_VERTEX_INPUT_BIT},
    {VK_ACCESS_UNIFORM_READ_BIT, "UNIFORM_READ", kShaderStages},
    {VK_ACCESS_INPUT_ATTACHMENT_READ_BIT, "INPUT_ATTACHMENT_READ", VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT},
    {VK_ACCESS_SHADER_READ_BIT, "SHADER_READ", kShaderStages},
    {VK_ACCESS_SHADER_WRITE_BIT, "SHADER_WRITE", kShaderStages},
    {VK_ACCESS_COLOR_ATTACHMENT_READ_BIT, "COLOR_ATTACHMENT_READ", VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT},
    {VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, "COLOR_ATTACHMENT_WRITE", VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT},
    {VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT, "DEPTH_STENCIL_ATTACHMENT_READ",
     VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT},
    {VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, "DEPTH_STENCIL_ATTACHMENT_WRITE",
     VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT},
    {VK_ACCESS_TRANSFER_READ_BIT, "TRANSFER_READ", VK_PIPELINE_STAGE_TRANSFER_BIT},
    {VK_ACCESS_TRANSFER_WRITE_BIT, "TRANSFER_WRITE", VK_PIPELINE_STAGE_TRANSFER_BIT},
    {VK_ACCESS_HOST_READ_BIT, "HOST_READ", VK_PIPELINE_STAGE_HOST_BIT},
    {VK_ACCESS_HOST_WRITE_BIT, "HOST_WRITE", VK_PIPELINE_STAGE_HOST_BIT},
    {VK_ACCESS_MEMORY_READ_BIT, "MEMORY_READ", 0},
    {VK_ACCESS_MEMORY_WRITE_BIT, "MEMORY_WRITE", 0},
};

texdec_status check_barrier_layout(const texdec_context* ctx, uint32_t layout, bool before,
                                   const texdec_image_target* image) {
    const char* member = before ? "old_layout" : "new_layout";
    for (const LayoutRule& rule : kLayouts) {
        if (uint32_t(rule.layout) != layout) continue;
        // new_layout UNDEFINED means: stay in GENERAL (texdec.h); PREINITIALIZED is never a new layout.
        if (!before && rule.layout == VK_IMAGE_LAYOUT_PREINITIALIZED)
            return ctx->report(
                TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                "texdec_record_barriers.new_layout VK_IMAGE_LAYOUT_PREINITIALIZED: an image cannot move to "
                "it (VK_IMAGE_LAYOUT_UNDEFINED keeps it in GENERAL)");
        if (image && rule.usage && !(image->usage & rule.usage))
            return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                               "texdec_record_barriers.%s VK_IMAGE_LAYOUT_%s needs an image created with usage 0x%x "
                               "(any of those bits); the target's usage is 0x%x",
                               member, rule.name, unsigned(rule.usage), unsigned(image->usage));
        return TEXDEC_SUCCESS;
    }
    return ctx->report(
        TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
        "texdec_record_barriers.%s %u is not a layout of a colour image texdec takes (UNDEFINED, GENERAL, "
        "COLOR_ATTACHMENT_OPTIMAL, SHADER_READ_ONLY_OPTIMAL, TRANSFER_SRC/DST_OPTIMAL, PREINITIALIZED, "
        "READ_ONLY_OPTIMAL, ATTACHMENT_OPTIMAL, PRESENT_SRC_KHR, SHARED_PRESENT_KHR)",
        member, layout);
}

texdec_status check_barrier_masks(const texdec_context* ctx, VkPipelineStageFlags stages, VkAccessFlags access,
                                  bool before) {
    const char* stage_member = before ? "src_stage_mask" : "dst_stage_mask";
    const char* access_member = before ? "src_access_mask" : "dst_access_mask";
    if (stages & ~kKnownStages)
        return ctx->report(
            TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
            "texdec_record_barriers.%s has bits 0x%x that are not Vulkan 1.0 pipeline stages (nor the ray "
            "tracing, task or mesh shader stage)",
            stage_member, unsigned(stages & ~kKnownStages));
    if ((stages & kGraphicsStages) && !(ctx->queue_flags & VK_QUEUE_GRAPHICS_BIT))
        return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                           "texdec_record_barriers.%s has graphics stages 0x%x; the context's queue family %u has no "
                           "graphics",
                           stage_member, unsigned(stages & kGraphicsStages), ctx->queue_family);
    VkAccessFlags known = 0;
    for (const AccessRule& rule : kAccesses) known |= rule.access;
    if (access & ~known)
        return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                           "texdec_record_barriers.%s has bits 0x%x that are not Vulkan 1.0 access types",
                           access_member, unsigned(access & ~known));
    if (!stages) return TEXDEC_SUCCESS;  // no stage: the access mask is not used (texdec.h)
    for (const AccessRule& rule : kAccesses) {
        if (!(access & rule.access) || rule.stages == 0 || (stages & VK_PIPELINE_STAGE_ALL_COMMANDS_BIT)) continue;
        const bool graphics_rule = (rule.stages & kGraphicsStages) != 0;
        if ((stages & rule.stages) || (graphics_rule && (stages & VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT))) continue;
        return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                           "texdec_record_barriers.%s has VK_ACCESS_%s_BIT, which none of the stages in %s (0x%x) "
                           "performs",
                           access_member, rule.name, stage_member, unsigned(stages));
    }
    return TEXDEC_SUCCESS;
}

texdec_status check_barriers(const texdec_context* ctx, const texdec_record_barriers& b,
                             const texdec_image_target* image) {
    if (texdec_status s = check_chain(ctx, b.next, "texdec_record_barriers"); s != TEXDEC_SUCCESS) return s;
    const uint32_t known = TEXDEC_BARRIER_ACQUIRE | TEXDEC_BARRIER_RELEASE;
    if (b.flags & ~known)
        return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                           "texdec_record_barriers.flags has unknown bits 0x%x", b.flags & ~known);
    texdec_status s = check_barrier_masks(ctx, b.src_stage_mask, b.src_access_mask, true);
    if (s == TEXDEC_SUCCESS) s = check_barrier_masks(ctx, b.dst_stage_mask, b.dst_access_mask, false);
    if (s == TEXDEC_SUCCESS) s = check_barrier_layout(ctx, enum_bits(b.old_layout), true, image);
    if (s == TEXDEC_SUCCESS) s = check_barrier_layout(ctx, enum_bits(b.new_layout), false, image);
    return s;
}

}  // namespace

extern "C" TEXDEC_API texdec_status texdec_regions_scratch_size(const texdec_context* ctx,
                                                                const texdec_regions_job* job,
                                                                VkDeviceSize* out_bytes) {
    if (!ctx || !job || !out_bytes)
        return null_argument(ctx, "texdec_regions_scratch_size", !ctx ? "context" : !job ? "job" : "out_bytes");
    *out_bytes = VkDeviceSize(job->region_count) * kRegionEntryBytes;
    return TEXDEC_SUCCESS;
}

extern "C" TEXDEC_API texdec_status texdec_record_regions(texdec_context* ctx, VkCommandBuffer cmd,
                                                          const texdec_regions_job* job) {
    if (!ctx) return null_argument(ctx, "texdec_record_regions", "context");
    // A CPU context answers WRONG_BACKEND whatever the other arguments.
    if (texdec_status s = ctx->backend->require_device(ctx, "texdec_record_regions"); s != TEXDEC_SUCCESS) return s;
    if (!cmd || !job) return null_argument(ctx, "texdec_record_regions", !cmd ? "cmd" : "job");
    const texdec_regions_scratch_info* scratch = nullptr;
    if (texdec_status s = regions_job_chain(ctx, job, &scratch); s != TEXDEC_SUCCESS) return s;
    if (job->barriers)
        if (texdec_status s = check_barriers(ctx, *job->barriers, job->dst_image); s != TEXDEC_SUCCESS) return s;
    if (!job->regions || job->region_count == 0)
        return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR, "regions is NULL or region_count is 0");
    if (job->flags & ~uint32_t(TEXDEC_RECORD_FAIL_IF_NOT_READY))
        return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                           "flags 0x%x: the only record flag of texdec_regions_job is TEXDEC_RECORD_FAIL_IF_NOT_READY (barriers "
                           "are given by texdec_regions_job::barriers)", job->flags);
    if (!job->dst_image == !job->dst_buffer)
        return ctx->report(TEXDEC_ERROR_INVALID_DESTINATION, TEXDEC_MESSAGE_ERROR,
                           "give exactly one destination: dst_image or dst_buffer");
    // VK_WHOLE_SIZE is not a size: texdec cannot learn a VkBuffer's size, and would bound its
    // reads and writes by nothing.
    if (job->src_size == VK_WHOLE_SIZE || (job->dst_buffer && job->dst_size == VK_WHOLE_SIZE))
        return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                           "%s is VK_WHOLE_SIZE, which is not a size: give the bytes of %s texdec may %s",
                           job->src_size == VK_WHOLE_SIZE ? "src_size" : "dst_size",
                           job->src_size == VK_WHOLE_SIZE ? "src_buffer" : "dst_buffer",
                           job->src_size == VK_WHOLE_SIZE ? "read" : "write");
    RecordCall call;
    call.src_buffer = job->src_buffer;
    call.dst_buffer = job->dst_buffer;
    call.max_texels_per_dispatch = job->max_texels_per_dispatch;
    call.fail_if_not_ready = (job->flags & TEXDEC_RECORD_FAIL_IF_NOT_READY) != 0;
    if (scratch) {
        call.scratch_buffer = scratch->buffer;
        call.scratch_offset = scratch->offset;
        call.scratch_size = scratch->size;
    }
    if (job->barriers) {
        call.barriers = *job->barriers;
        call.barrier_before = call.barrier_after = true;
    }
    if (const texdec_image_target* image = job->dst_image) {
        call.dst_kind = image->is_3d ? TEXDEC_DESTINATION_IMAGE_3D : TEXDEC_DESTINATION_IMAGE;
        call.image = image->image;
        call.image_format = image->format;
        // The levels the barriers cover (out-of-range levels are refused in record_regions).
        call.layer_count = image->array_layers;
        for (uint32_t i = 0; i < job->region_count; ++i)
            if (job->regions[i].mip_level < kMaxMipLevels) call.levels_written |= 1u << job->regions[i].mip_level;
    }
    return record_regions(ctx, cmd, call, RegionArray(ctx, *job));
}

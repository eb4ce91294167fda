// Batched dispatches (texdec.h "many small regions"; dispatch.h says how batches are formed):
// which regions share a dispatch, and where each member's table entry and destination lie.
#include <algorithm>
#include <bit>

#include "dispatch.h"

namespace texdec {

Batcher::Batcher(texdec_context* ctx, const RecordCall& call, const RegionList& regions, const ShaderShape& shape,
                 uint64_t max_texels)
    : ctx_(ctx), call_(call), regions_(regions), shape_(shape), max_texels_(max_texels),
      to_image_(is_image_destination(call.dst_kind)) {
    const VkPhysicalDeviceLimits& lim = ctx->properties.limits;
    align_ = std::max<VkDeviceSize>(lim.minStorageBufferOffsetAlignment, 4);
    max_range_ = uint64_t(lim.maxStorageBufferRange) - align_ - 4;
    max_z_ = lim.maxComputeWorkGroupCount[2];
}

bool Batcher::start(uint32_t level, uint32_t i, Batch* b) const {
    Member m;
    if (!member(i, &m)) return false;
    b->level = level, b->first = i, b->end = i + 1, b->members = 1;
    // Workgroups as wide as the first region (a power of two up to a row of 64): narrow
    // regions fill every lane.
    b->row_log2 = shape_.tile_x ? 6u : std::min(6u, uint32_t(std::bit_width(std::max<uint64_t>(m.nbx, 1) - 1)));
    b->grid = groups(m, b->row_log2), b->used_groups = b->grid.count();
    b->src_lo = m.src_lo, b->src_hi = m.src_hi, b->dst_lo = m.dst_lo, b->dst_hi = m.dst_hi;
    b->view = m.view;
    boxes_[0] = m.box;
    bounds_ = m.box;
    return true;
}

void Batcher::grow(Batch* b) const {
    const uint32_t count = regions_.count();
    for (uint32_t j = b->end; j < count && b->members < kBatchMaxRegions; ++j) {
        if (to_image_ && regions_.level(j) != b->level) continue;
        Member m;
        if (!member(j, &m)) return;
        const Groups own = groups(m, b->row_log2);
        const Groups grid{std::max(b->grid.x, own.x), std::max(b->grid.y, own.y), std::max(b->grid.z, own.z)};
        const uint64_t members = b->members + 1, used = b->used_groups + own.count();
        if (members * grid.z > max_z_ || members * grid.count() > 2 * used + kBatchWasteSlack) return;
        const VkDeviceSize src_lo = std::min(b->src_lo, m.src_lo), src_hi = std::max(b->src_hi, m.src_hi);
        if (src_hi - align_down(src_lo, align_) > max_range_) return;
        const VkDeviceSize dst_lo = std::min(b->dst_lo, m.dst_lo), dst_hi = std::max(b->dst_hi, m.dst_hi);
        if (!to_image_ && dst_hi - align_down(dst_lo, align_) > max_range_) return;
        if (overlaps(*b, m.box)) return;
        boxes_[b->members] = m.box;
        bounds_ = {std::min(bounds_.x0, m.box.x0), std::max(bounds_.x1, m.box.x1), std::min(bounds_.y0, m.box.y0),
                   std::max(bounds_.y1, m.box.y1), std::min(bounds_.z0, m.box.z0), std::max(bounds_.z1, m.box.z1)};
        b->members = uint32_t(members), b->used_groups = used, b->grid = grid, b->end = j + 1;
        b->src_lo = src_lo, b->src_hi = src_hi, b->dst_lo = dst_lo, b->dst_hi = dst_hi;
    }
}

bool Batcher::overlaps(const Batch& b, const DstBox& box) const {
    if (!box.overlaps(bounds_)) return false;
    for (uint32_t k = 0; k < b.members; ++k)
        if (box.overlaps(boxes_[k])) return true;
    return false;
}

bool Batcher::member(uint32_t i, Member* m) const {
    JobPlan p;
    RegionTarget t;
    ChunkSize size;
    regions_.plan(i, &p, &t);  // checked
    chunk_size(ctx_, p, shape_, to_image_, max_texels_, &size);
    if (size.texel_slices || size.cols != p.blocks_x || size.rows != p.blocks_y || size.slices != p.blocks_z)
        return false;
    const Chunk c = whole(p);
    if (chunk_groups(shape_, c).count() > kBatchMaxRegionGroups) return false;
    m->nbx = p.blocks_x, m->nby = p.blocks_y, m->nbz = p.blocks_z;
    const ChunkSpan span = chunk_span(p, c);
    m->src_lo = t.src_offset + span.src_start;
    m->src_hi = m->src_lo + span.src_bytes;
    if (to_image_) {
        m->view = t.dst_view;
        m->box = {uint64_t(t.dst_x), uint64_t(t.dst_x) + span.width,
                  uint32_t(t.dst_y), uint32_t(t.dst_y + span.height),
                  t.dst_layer,       uint32_t(t.dst_layer + span.depth)};
    } else {
        m->dst_lo = t.dst_offset + span.dst_start;
        m->dst_hi = align_up(m->dst_lo + span.dst_bytes, 4);
        m->box = {m->dst_lo, m->dst_hi, 0, 1, 0, 1};
    }
    return true;
}

Groups Batcher::groups(const Member& m, uint32_t row_log2) const {
    if (shape_.tile_x) return {div_round_up(m.nbx, shape_.tile_x), div_round_up(m.nby, shape_.tile_y), m.nbz};
    return {div_round_up(m.nbx, uint64_t(1) << row_log2), div_round_up(m.nby, uint64_t(TEXDEC_WORKGROUP_X) >> row_log2),
            m.nbz};
}

}  // namespace texdec

// How the record path cuts regions into dispatches: each region into chunks within the device
// limits (record.cpp), and small regions batched into shared dispatches (batch.cpp). GPU side.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>

#include "record.h"

namespace texdec {

inline uint64_t div_round_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
inline VkDeviceSize align_down(VkDeviceSize v, VkDeviceSize a) { return v / a * a; }
inline VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a) { return div_round_up(v, a) * a; }

// How a shader maps invocations to work, and the lookup tables it reads (if any).
struct ShaderShape {
    uint32_t tile_x = 0, tile_y = 0;       // ASTC: blocks per workgroup (0: one block per invocation)
    VkDescriptorBufferInfo luts[2] = {};   // TEXDEC_BINDING_LUT, TEXDEC_BINDING_FOOTPRINT_LUT (null: none)
    VkBufferView tables = VK_NULL_HANDLE;  // TEXDEC_BINDING_TABLES (FamilyTraits::reads_tables; null: none)
};


// How a region is cut into dispatches: block columns, rows and slices per chunk, and texel
// slices per chunk where one block slice must be cut (3D footprints, buffer destinations).
struct ChunkSize {
    uint64_t cols = 0, rows = 0, slices = 0;
    uint64_t texel_slices = 0;  // 0: whole block slices
};


// Workgroups of a chunk's dispatch: one per tile of blocks (ASTC), else one per
// TEXDEC_WORKGROUP_X blocks of a block row.
struct Groups {
    uint64_t x = 0, y = 0, z = 0;
    uint64_t count() const { return x * y * z; }
};

// ---- chunks (record.cpp) ----------------------------------------------------------------------

// Chunk sizes: every dispatch stays inside maxComputeWorkGroupCount, under the work cap
// (max_texels texels per dispatch) and the buffer ranges it binds inside maxStorageBufferRange.
texdec_status chunk_size(const texdec_context* ctx, const JobPlan& p, const ShaderShape& shape, bool to_image,
                         uint64_t max_texels, ChunkSize* out);
// The push constants of one chunk (also a batched dispatch's region table entry, interface.h).
shader::TexdecPushConstants chunk_push_constants(const JobPlan& p, const RecordCall& call, const RegionTarget& t,
                                                 const Chunk& c, const ChunkSpan& span, uint32_t src_base_word,
                                                 uint32_t dst_base_byte);
Groups chunk_groups(const ShaderShape& shape, const Chunk& c);

// ---- batched dispatches (texdec.h "many small regions") --------------------------------------
//
// Small regions of one destination view share a dispatch: the workgroup grid is the largest
// region's (x, y) and slices (z) once per region, each workgroup reads its region's push
// constants from a table in the caller's scratch (TexdecPushConstants::batch_slices). A batch is
// the regions of one mip level (buffer: all regions) from a first one on, in order, until a region
// that is decoded in more than one dispatch or breaks one of the batch's limits (count, group
// counts, descriptor ranges, waste, an overlapping destination); that region starts the next
// batch (or is recorded alone). Batches are formed the same way twice, to fill the table and to
// dispatch: nothing is stored per call beyond the stack.

constexpr uint32_t kBatchMaxRegions = 1024;       // 64 KiB of table: one vkCmdUpdateBuffer's limit
constexpr uint64_t kBatchMaxRegionGroups = 4096;  // larger regions fill the GPU alone
constexpr uint64_t kBatchWasteSlack = 4096;       // grid workgroups allowed beyond 2x the used ones

// Where a region writes, for the overlap test: texel box (image) or byte span (buffer, [x0, x1)).
struct DstBox {
    uint64_t x0, x1;
    uint32_t y0, y1, z0, z1;
    bool overlaps(const DstBox& o) const {
        return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1 && z0 < o.z1 && o.z0 < z1;
    }
};

struct Batch {
    uint32_t level = 0;           // mip level (image targets)
    uint32_t first = 0, end = 0;  // regions [first, end) of `level` are its members
    uint32_t members = 0;
    uint32_t row_log2 = 6;     // one block per invocation: workgroups of 2^row_log2 x 64 / 2^row_log2 blocks
    Groups grid;               // per region: the largest member's
    uint64_t used_groups = 0;  // the members' own
    VkDeviceSize src_lo = UINT64_MAX, src_hi = 0, dst_lo = UINT64_MAX, dst_hi = 0;
    VkImageView view = VK_NULL_HANDLE;
};

class Batcher {
public:
    Batcher(texdec_context* ctx, const RecordCall& call, const RegionList& regions, const ShaderShape& shape,
            uint64_t max_texels);

    // Calls direct(i) for every region decoded in dispatches of its own and batch(b) for every
    // batch, levels in ascending order, regions of a level in order.
    template <class Direct, class Each>
    void for_each(Direct&& direct, Each&& batch) const {
        const uint32_t count = regions_.count();
        const uint32_t levels = to_image_ ? call_.levels_written : 1u;
        for (uint32_t level = 0; level < kMaxMipLevels; ++level) {
            if (!(levels >> level & 1)) continue;
            for (uint32_t i = 0; i < count;) {
                if (to_image_ && regions_.level(i) != level) {
                    ++i;
                    continue;
                }
                Batch b;
                if (!call_.scratch_buffer || !start(level, i, &b)) {
                    direct(i++);
                    continue;
                }
                grow(&b);
                if (b.members == 1) direct(i);
                else batch(b);
                i = b.end;
            }
        }
    }

    // The region table entry of every member of `b`, in order, through `entry(pc)`.
    template <class Entry>
    void entries(const Batch& b, Entry&& entry) const {
        JobPlan p;
        RegionTarget t;
        const VkDeviceSize src_bind = align_down(b.src_lo, align_), dst_bind = align_down(b.dst_lo, align_);
        for (uint32_t i = b.first; i < b.end; ++i) {
            if (to_image_ && regions_.level(i) != b.level) continue;
            regions_.plan(i, &p, &t);  // checked
            const Chunk c = whole(p);
            const ChunkSpan span = chunk_span(p, c);
            const uint32_t src_word = uint32_t((t.src_offset + span.src_start - src_bind) / 4);
            const uint32_t dst_byte = to_image_ ? 0u : uint32_t(t.dst_offset + span.dst_start - dst_bind);
            entry(chunk_push_constants(p, call_, t, c, span, src_word, dst_byte));
        }
    }

    VkDeviceSize align() const { return align_; }

private:
    static Chunk whole(const JobPlan& p) { return Chunk{0, p.blocks_x, 0, p.blocks_y, 0, p.blocks_z, 0, 0}; }

    // Region i as the batch's first member, false if it is not decoded in one small dispatch.
    bool start(uint32_t level, uint32_t i, Batch* b) const;

    // Adds the following regions of the batch's level while they fit.
    void grow(Batch* b) const;

    // Whether `box` overlaps a member's destination (outside the members' bounds: at once).
    bool overlaps(const Batch& b, const DstBox& box) const;

    struct Member {
        uint64_t nbx, nby, nbz;  // blocks
        VkDeviceSize src_lo, src_hi, dst_lo = 0, dst_hi = 0;
        DstBox box;
        VkImageView view = VK_NULL_HANDLE;
    };

    // Region i's dispatch, false unless it is one chunk of at most kBatchMaxRegionGroups workgroups.
    bool member(uint32_t i, Member* m) const;

    // A member's workgroups in a batch of workgroup shape row_log2.
    Groups groups(const Member& m, uint32_t row_log2) const;

    texdec_context* ctx_;
    const RecordCall& call_;
    const RegionList& regions_;
    const ShaderShape& shape_;
    uint64_t max_texels_;
    bool to_image_;
    VkDeviceSize align_ = 4;
    uint64_t max_range_ = 0, max_z_ = 0;
    // The current batch's members' destinations and their bounds (for_each forms one at a time).
    mutable DstBox boxes_[kBatchMaxRegions];
    mutable DstBox bounds_{};
};

}  // namespace texdec

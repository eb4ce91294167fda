// texdec_decode: the one-call path. Blocks are copied into a persistently mapped upload buffer,
// decoded into a mapped readback buffer with a tight (word-aligned) layout, and the rows are then
// copied into the caller's memory with the caller's pitches (padding bytes are never touched).
// A job whose staging exceeds the context's part size (64 MiB) is streamed: cut into parts of
// whole block slices, rows or columns, each its own submission, through two sets of staging
// buffers, so that the host copies one part in (and the previous one out) while the GPU decodes
// another, and no buffer grows with the job. The host copies (blocks in, texels out) are split
// across the context's copy threads. Buffers, command buffers, fences and threads are kept in the
// context.
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <vector>

#include "gpu_backend.h"
#include "record.h"
#include "portable.h"

namespace texdec {

// ---- buffers (also used by luts.cpp) --------------------------------------------------------------

uint32_t find_memory_type(const texdec_context* ctx, uint32_t type_bits, VkMemoryPropertyFlags required,
                          VkMemoryPropertyFlags preferred) {
    uint32_t fallback = UINT32_MAX;
    for (uint32_t i = 0; i < ctx->memory_properties.memoryTypeCount; ++i) {
        if (!(type_bits & (1u << i))) continue;
        const VkMemoryPropertyFlags flags = ctx->memory_properties.memoryTypes[i].propertyFlags;
        if ((flags & required) != required) continue;
        if ((flags & preferred) == preferred) return i;
        if (fallback == UINT32_MAX) fallback = i;
    }
    return fallback;
}

void destroy_buffer(texdec_context* ctx, MappedBuffer& b) {
    if (b.buffer) ctx->vkd.vkDestroyBuffer(ctx->device, b.buffer, ctx->allocator);
    if (b.memory) ctx->vkd.vkFreeMemory(ctx->device, b.memory, ctx->allocator);  // unmaps implicitly
    b = MappedBuffer{};
}

texdec_status create_buffer(texdec_context* ctx, VkDeviceSize size, VkMemoryPropertyFlags required,
                            VkMemoryPropertyFlags preferred, const char* what, MappedBuffer& b,
                            VkBufferUsageFlags extra_usage) {
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = size;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                extra_usage;
    bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VkResult r = ctx->vkd.vkCreateBuffer(ctx->device, &bci, ctx->allocator, &b.buffer);
    if (r != VK_SUCCESS) return vk_failure(ctx, r, what);
    VkMemoryRequirements req;
    ctx->vkd.vkGetBufferMemoryRequirements(ctx->device, b.buffer, &req);
    const uint32_t type = find_memory_type(ctx, req.memoryTypeBits, required, preferred);
    if (type == UINT32_MAX) {
        destroy_buffer(ctx, b);
        return ctx->report(TEXDEC_ERROR_OUT_OF_MEMORY, TEXDEC_MESSAGE_ERROR, "no suitable memory type for %s", what);
    }
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = type;
    r = ctx->vkd.vkAllocateMemory(ctx->device, &mai, ctx->allocator, &b.memory);
    if (r != VK_SUCCESS) {
        destroy_buffer(ctx, b);
        return vk_failure(ctx, r, what);
    }
    const VkMemoryPropertyFlags flags = ctx->memory_properties.memoryTypes[type].propertyFlags;
    const bool map = flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
    if ((r = ctx->vkd.vkBindBufferMemory(ctx->device, b.buffer, b.memory, 0)) != VK_SUCCESS ||
        (map && (r = ctx->vkd.vkMapMemory(ctx->device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped)) != VK_SUCCESS)) {
        destroy_buffer(ctx, b);
        return vk_failure(ctx, r, what);
    }
    b.size = size;
    b.coherent = flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    b.device_local = flags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    name_object(ctx, VK_OBJECT_TYPE_BUFFER, handle_bits(b.buffer), "texdec %s", what);
    name_object(ctx, VK_OBJECT_TYPE_DEVICE_MEMORY, handle_bits(b.memory), "texdec %s memory", what);
    return TEXDEC_SUCCESS;
}

namespace {

constexpr uint64_t kDefaultTimeoutNs = 10ull * 1000 * 1000 * 1000;

// Makes `b` at least `size` bytes (grows by replacing; the old contents are not kept).
texdec_status ensure_buffer(texdec_context* ctx, MappedBuffer& b, VkDeviceSize size, VkMemoryPropertyFlags required,
                            VkMemoryPropertyFlags preferred, const char* what) {
    if (b.buffer && b.size >= size) return TEXDEC_SUCCESS;
    destroy_buffer(ctx, b);
    return create_buffer(ctx, std::max<VkDeviceSize>(size, 64 * 1024), required, preferred, what, b);
}

texdec_status ensure_command_objects(texdec_context* ctx) {
    HostStaging& st = ctx->staging;
    if (st.pool) return TEXDEC_SUCCESS;
    VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    // Each slot's command buffer is re-recorded (implicitly reset) while the other may be pending.
    cpci.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT | VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    cpci.queueFamilyIndex = ctx->queue_family;
    VkResult r = ctx->vkd.vkCreateCommandPool(ctx->device, &cpci, ctx->allocator, &st.pool);
    if (r != VK_SUCCESS) return vk_failure(ctx, r, "vkCreateCommandPool");
    name_object(ctx, VK_OBJECT_TYPE_COMMAND_POOL, handle_bits(st.pool), "texdec_decode command pool");
    for (uint32_t i = 0; i < HostStaging::kSlots; ++i) {
        StagingSlot& slot = st.slots[i];
        VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        cbai.commandPool = st.pool;
        cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        cbai.commandBufferCount = 1;
        if ((r = ctx->vkd.vkAllocateCommandBuffers(ctx->device, &cbai, &slot.cmd)) != VK_SUCCESS)
            return vk_failure(ctx, r, "vkAllocateCommandBuffers");
        VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        if ((r = ctx->vkd.vkCreateFence(ctx->device, &fci, ctx->allocator, &slot.fence)) != VK_SUCCESS)
            return vk_failure(ctx, r, "vkCreateFence");
        name_object(ctx, VK_OBJECT_TYPE_COMMAND_BUFFER, handle_bits(slot.cmd), "texdec_decode command buffer %u", i);
        name_object(ctx, VK_OBJECT_TYPE_FENCE, handle_bits(slot.fence), "texdec_decode fence %u", i);
    }
    return TEXDEC_SUCCESS;
}

// Waits for a slot's submission (timeout per submission).
texdec_status wait_slot(texdec_context* ctx, StagingSlot& slot, uint64_t timeout_ns, const char* what) {
    if (!slot.in_flight) return TEXDEC_SUCCESS;
    VkResult r = ctx->vkd.vkWaitForFences(ctx->device, 1, &slot.fence, VK_TRUE, timeout_ns);
    if (r == VK_TIMEOUT)
        return ctx->report(TEXDEC_ERROR_TIMEOUT, TEXDEC_MESSAGE_ERROR, "%s did not finish within %llu ns", what,
                           (unsigned long long)timeout_ns);
    if (r != VK_SUCCESS) return vk_failure(ctx, r, "vkWaitForFences");
    slot.in_flight = false;
    return TEXDEC_SUCCESS;
}

// Waits for the submissions an earlier call left running (it timed out or failed mid-stream).
texdec_status wait_previous(texdec_context* ctx, uint64_t timeout_ns) {
    for (StagingSlot& slot : ctx->staging.slots)
        if (texdec_status s = wait_slot(ctx, slot, timeout_ns, "an earlier decode that timed out"); s != TEXDEC_SUCCESS) {
            if (s == TEXDEC_ERROR_TIMEOUT)
                return ctx->report(TEXDEC_ERROR_TIMEOUT, TEXDEC_MESSAGE_ERROR, "an earlier decode that timed out is still running");
            return s;
        }
    return TEXDEC_SUCCESS;
}

texdec_status submit(texdec_context* ctx, StagingSlot& slot) {
    VkResult r = ctx->vkd.vkResetFences(ctx->device, 1, &slot.fence);
    if (r != VK_SUCCESS) return vk_failure(ctx, r, "vkResetFences");
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &slot.cmd;
    ctx->lock();
    r = ctx->vkd.vkQueueSubmit(ctx->queue, 1, &si, slot.fence);
    ctx->unlock();
    if (r != VK_SUCCESS) return vk_failure(ctx, r, "vkQueueSubmit");
    slot.in_flight = true;
    return TEXDEC_SUCCESS;
}

uint64_t now_ns() {
    return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

// The timestamp query pool of texdec_decode_timed; false where the queue family has no timestamps.
bool ensure_timestamps(texdec_context* ctx) {
    HostStaging& st = ctx->staging;
    if (st.timestamp_bits == UINT32_MAX) {
        uint32_t count = 0;
        ctx->vki.vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical_device, &count, nullptr);
        std::vector<VkQueueFamilyProperties> families(count);
        ctx->vki.vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical_device, &count, families.data());
        st.timestamp_bits = ctx->queue_family < count ? families[ctx->queue_family].timestampValidBits : 0;
    }
    if (st.timestamp_bits == 0) return false;
    if (st.timestamps) return true;
    VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qpci.queryCount = 4 * HostStaging::kSlots;
    if (ctx->vkd.vkCreateQueryPool(ctx->device, &qpci, ctx->allocator, &st.timestamps) != VK_SUCCESS) {
        st.timestamps = VK_NULL_HANDLE;
        st.timestamp_bits = 0;  // measure without timestamps rather than fail the decode
        return false;
    }
    name_object(ctx, VK_OBJECT_TYPE_QUERY_POOL, handle_bits(st.timestamps), "texdec_decode_timed timestamps");
    return true;
}

// Ticks between two timestamps (modulo timestampValidBits) in nanoseconds.
uint64_t ticks_to_ns(const texdec_context* ctx, uint64_t from, uint64_t to) {
    const uint32_t bits = ctx->staging.timestamp_bits;
    const uint64_t mask = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    return uint64_t(double((to - from) & mask) * double(ctx->properties.limits.timestampPeriod) + 0.5);
}

// ---- the copy threads (the context's task pool) ------------------------------------------------

// Runs task(data, i) for i in [0, count) on the context's task pool: up to ctx->copy_threads
// threads, the caller's included, started on first use (fewer where a thread cannot be started).
void parallel_run(texdec_context* ctx, uint32_t count, void (*task)(void*, uint32_t), void* data) {
    ctx->tasks.run(ctx, count, task, data);  // no hook on a GPU context: always succeeds
}

// A copy is split into tasks of at least 1 MiB (of 1 byte with TEXDEC_DEBUG_COPY_THREADS set, so
// that the tests split small jobs).
uint64_t min_split_bytes(const texdec_context* ctx) { return ctx->copy_debug ? 1 : uint64_t(1) << 20; }

// How many tasks a copy of `bytes` is split into.
uint32_t copy_tasks(const texdec_context* ctx, uint64_t bytes) {
    return uint32_t(std::clamp<uint64_t>(bytes / min_split_bytes(ctx), 1, ctx->copy_threads));
}

// A copy of `rows` runs of `row_bytes` each (in `slices` groups): run r of slice z goes from
// src + z * src_slice + r * src_row to dst + z * dst_slice + r * dst_row. Split by bytes into equal
// ranges, so a part of one long row splits as well as one of many short ones.
struct RowCopy {
    const uint8_t* src;
    uint8_t* dst;
    uint64_t row_bytes, rows, slices;
    uint64_t src_row, src_slice, dst_row, dst_slice;
    uint32_t tasks;
};

void row_copy_task(void* data, uint32_t index) {
    const RowCopy& c = *static_cast<const RowCopy*>(data);
    const uint64_t total = c.row_bytes * c.rows * c.slices;
    uint64_t from = total / c.tasks * index + std::min<uint64_t>(index, total % c.tasks);
    const uint64_t to = from + total / c.tasks + (index < total % c.tasks ? 1 : 0);
    while (from < to) {
        const uint64_t run = from / c.row_bytes, offset = from % c.row_bytes;
        const uint64_t z = run / c.rows, y = run % c.rows;
        const uint64_t n = std::min(c.row_bytes - offset, to - from);
        memcpy(c.dst + z * c.dst_slice + y * c.dst_row + offset, c.src + z * c.src_slice + y * c.src_row + offset, n);
        from += n;
    }
}

void copy_rows(texdec_context* ctx, RowCopy c) {
    const uint64_t total = c.row_bytes * c.rows * c.slices;
    if (total == 0) return;
    c.tasks = copy_tasks(ctx, total);
    parallel_run(ctx, c.tasks, row_copy_task, &c);
}

void copy_bytes(texdec_context* ctx, void* dst, const void* src, uint64_t bytes) {
    copy_rows(ctx, RowCopy{static_cast<const uint8_t*>(src), static_cast<uint8_t*>(dst), bytes, 1, 1, 0, 0, 0, 0, 0});
}

}  // namespace

// The staging buffers (not the command objects); the caller has waited for their last use.
void destroy_staging_buffers(texdec_context* ctx) {
    for (StagingSlot& slot : ctx->staging.slots) {
        destroy_buffer(ctx, slot.upload);
        destroy_buffer(ctx, slot.readback);
        destroy_buffer(ctx, slot.device_blocks);
        destroy_buffer(ctx, slot.device_texels);
    }
}

void destroy_host_staging(texdec_context* ctx) {
    HostStaging& st = ctx->staging;
    for (StagingSlot& slot : st.slots)
        if (slot.in_flight && slot.fence) ctx->vkd.vkWaitForFences(ctx->device, 1, &slot.fence, VK_TRUE, UINT64_MAX);
    destroy_staging_buffers(ctx);
    for (StagingSlot& slot : st.slots)
        if (slot.fence) ctx->vkd.vkDestroyFence(ctx->device, slot.fence, ctx->allocator);
    if (st.timestamps) ctx->vkd.vkDestroyQueryPool(ctx->device, st.timestamps, ctx->allocator);
    if (st.pool) ctx->vkd.vkDestroyCommandPool(ctx->device, st.pool, ctx->allocator);
    st = HostStaging{};
}

}  // namespace texdec

using namespace texdec;

extern "C" TEXDEC_API texdec_status texdec_decode(texdec_context* ctx, const texdec_host_job* job) {
    return texdec_decode_timed(ctx, job, nullptr);
}

namespace {

// The staged plan as one region: blocks at offset 0 of `blocks`, texels at offset 0 of `texels`.
class StagedRegion final : public RegionList {
public:
    explicit StagedRegion(const JobPlan& plan) : plan_(plan) {}
    uint32_t count() const override { return 1; }
    texdec_status plan(uint32_t, JobPlan* plan, RegionTarget* target) const override {
        *plan = plan_;
        *target = RegionTarget{};
        return TEXDEC_SUCCESS;
    }

private:
    const JobPlan& plan_;
};

texdec_status record_staged(texdec_context* ctx, VkCommandBuffer cmd, const JobPlan& plan, VkBuffer blocks, VkBuffer texels,
                            bool after_copy) {
    RecordCall call;
    call.src_buffer = blocks;
    call.dst_buffer = texels;
    if (after_copy) {  // the upload copy's writes -> the decode's reads
        call.barrier_before = true;
        call.barriers.src_stage_mask = VK_PIPELINE_STAGE_TRANSFER_BIT;
        call.barriers.src_access_mask = VK_ACCESS_TRANSFER_WRITE_BIT;
    }
    return record_regions(ctx, cmd, call, StagedRegion(plan));
}


uint64_t round_up4(uint64_t v) { return (v + 3) / 4 * 4; }

// One part of a host job: block columns [bx0, bx0+nbx), rows [by0, by0+nby), slices [bz0, bz0+nbz),
// decoded by one submission through one staging slot. Its blocks are uploaded either tightly
// (the blocks it reads, row after row: linear sources, and block-linear ones whose rows of GOB
// blocks are too long to bind, which the host gathers) or, for other block-linear sources, as the
// one contiguous span of the source they occupy (the shader reads the GOBs). So a source row or
// slice stride costs nothing: a job of a few blocks with a 2^26-texel row length stages a few
// blocks, as the CPU backend reads them. Its texels are staged tightly (rows padded to whole
// words, so that no two rows share a word) and then copied into the caller's layout.
struct Part {
    ChunkSpan span;     // where it lies in the job (texel origin, source bytes)
    JobPlan staged;     // the part as the GPU decodes it (blocks and texels at offset 0)
    uint64_t upload_bytes = 0;  // whole words
};

Part make_part(const JobPlan& p, const Chunk& c, bool tight) {
    Part part;
    part.span = chunk_span(p, c);
    JobPlan& s = part.staged;
    s = p;
    if (tight) {  // a linear source of exactly the part's blocks
        const uint64_t row = c.nbx * p.format->bytes_per_block;
        s.block_linear = false;
        s.gob_height_log2 = s.gob_depth_log2 = 0;
        s.src_row_bytes = row;
        s.src_slice_bytes = row * c.nby;
        s.src_origin_x = s.src_origin_y = s.src_origin_z = s.src_origin_bytes = 0;
    } else {
        move_source_origin(&s, c.bx0, c.by0, c.bz0);  // the part's blocks are uploaded from its first one
    }
    s.width = uint32_t(part.span.width), s.height = uint32_t(part.span.height), s.depth = uint32_t(part.span.depth);
    s.blocks_x = c.nbx, s.blocks_y = c.nby, s.blocks_z = c.nbz;
    s.src_bytes_needed = tight ? c.nbx * c.nby * c.nbz * p.format->bytes_per_block : part.span.src_bytes;
    s.dst_row_pitch = round_up4(uint64_t(s.width) * p.output.texel_bytes);
    s.dst_slice_pitch = s.dst_row_pitch * s.height;
    s.dst_bytes_needed = s.dst_slice_pitch * s.depth;
    part.upload_bytes = round_up4(s.src_bytes_needed);
    return part;
}

// How a job is cut into parts: blocks per part along each axis (the first part is the largest).
struct PartGrid {
    uint64_t cols = 0, rows = 0, slices = 0;
};

using u128 = portable::U128;

// Upload bytes (whole words) of any part of cols x rows x slices blocks: staged tightly, its
// blocks; block-linear spans, a bound (a part need not start on a GOB block, so it may touch one
// more row or group of GOB blocks than its size alone needs).
u128 part_source_bytes(const JobPlan& p, uint64_t cols, uint64_t rows, uint64_t slices, bool tight) {
    const FormatEntry& f = *p.format;
    u128 bytes = 0;
    if (tight) bytes = u128(cols) * rows * slices * f.bytes_per_block;
    else if (slices > 1) bytes = u128(((slices - 1) >> p.gob_depth_log2) + 2) * p.src_slice_bytes;
    else if (rows > 1) bytes = u128(((rows - 1) >> (3 + p.gob_height_log2)) + 2) * p.src_row_bytes;
    else bytes = u128((u128(cols) * f.bytes_per_block - 1) / 64 + 2) << (9 + p.gob_height_log2 + p.gob_depth_log2);
    return (bytes + 3) / 4 * 4;
}

// Staging bytes (blocks + texels) of a part of cols x rows x slices blocks, saturated at
// UINT64_MAX (sizes come from the caller: no product may wrap).
uint64_t part_bytes(const JobPlan& p, uint64_t cols, uint64_t rows, uint64_t slices, bool tight) {
    const FormatEntry& f = *p.format;
    const u128 w = std::min<u128>(p.width, u128(cols) * f.block_width), h = std::min<u128>(p.height, u128(rows) * f.block_height),
               d = std::min<u128>(p.depth, u128(slices) * f.block_depth);
    const u128 texels = (w * p.output.texel_bytes + 3) / 4 * 4 * h * d;
    const u128 total = texels + part_source_bytes(p, cols, rows, slices, tight);
    return total > UINT64_MAX ? UINT64_MAX : uint64_t(total);
}

// Parts that fit `budget` bytes of staging: the whole job if it fits, else whole block slices,
// else whole block rows of one block slice, else block columns of one block row (at least one
// block: a single block always decodes, whatever the budget). The parts along the cut axis are
// made as even as their count allows (a 65 MiB job is two parts of 33 MiB, not 64 + 1), so that
// the two staging slots stay small and the host's copies overlap the GPU's work evenly.
PartGrid plan_parts(const JobPlan& p, uint64_t budget, bool tight) {
    PartGrid g{p.blocks_x, p.blocks_y, p.blocks_z};
    auto most = [&](uint64_t total, auto bytes_of) {  // the largest n <= total with bytes_of(n) <= budget (at least 1)
        uint64_t lo = 1, hi = total;
        while (lo < hi) {
            const uint64_t mid = lo + (hi - lo + 1) / 2;
            if (bytes_of(mid) <= budget) lo = mid;
            else hi = mid - 1;
        }
        const uint64_t parts = (total + lo - 1) / lo;
        return (total + parts - 1) / parts;  // as many parts, evened out (never more per part than lo)
    };
    if (part_bytes(p, g.cols, g.rows, g.slices, tight) <= budget) return g;
    g.slices = most(p.blocks_z, [&](uint64_t n) { return part_bytes(p, g.cols, g.rows, n, tight); });
    if (part_bytes(p, g.cols, g.rows, g.slices, tight) <= budget) return g;
    g.slices = 1;
    g.rows = most(p.blocks_y, [&](uint64_t n) { return part_bytes(p, g.cols, n, 1, tight); });
    if (part_bytes(p, g.cols, g.rows, 1, tight) <= budget) return g;
    g.rows = 1;
    g.cols = most(p.blocks_x, [&](uint64_t n) { return part_bytes(p, n, 1, 1, tight); });
    return g;
}

}  // namespace

namespace {

// Whether texdec_decode stages through device-local twins: where the host-visible memory the
// staging buffers get (upload: coherent preferred, readback: cached preferred) is not
// device-local (discrete GPUs), so that the shader does not read and write over the bus.
bool stages_via_device(const texdec_context* ctx) {
    auto local = [&](VkMemoryPropertyFlags preferred) {
        const uint32_t type = find_memory_type(ctx, ~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, preferred);
        return type != UINT32_MAX && (ctx->memory_properties.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    };
    return ctx->force_device_staging || !local(VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) || !local(VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
}

// The staging a job needs: its parts, how many slots they use, and each slot's buffer sizes.
struct StagingPlan {
    bool tight = true;  // blocks staged tightly (Part); false: block-linear spans as they are
    PartGrid grid;
    uint32_t slots = 0;  // 1 for a job that is one part, else two (streamed)
    uint64_t upload_bytes = 0, texel_bytes = 0;  // per slot (the first, largest part's)
};

StagingPlan plan_staging(const texdec_context* ctx, const JobPlan& p) {
    StagingPlan z;
    // Block-linear sources are staged as they are (the shader reads the GOBs, the host copies
    // spans) unless two rows of GOB blocks, the least a dispatch binds, exceed
    // maxStorageBufferRange (the record path's limit): then the host gathers the blocks.
    const VkPhysicalDeviceLimits& lim = ctx->properties.limits;
    const uint64_t max_range =
        uint64_t(lim.maxStorageBufferRange) - std::max<VkDeviceSize>(lim.minStorageBufferOffsetAlignment, 4) - 4;
    z.tight = !p.block_linear || p.src_row_bytes > max_range / 2;
    z.grid = plan_parts(p, ctx->staging_part_bytes, z.tight);
    const bool one_part = z.grid.cols == p.blocks_x && z.grid.rows == p.blocks_y && z.grid.slices == p.blocks_z;
    z.slots = one_part ? 1 : HostStaging::kSlots;
    const Part first = make_part(p, Chunk{0, z.grid.cols, 0, z.grid.rows, 0, z.grid.slices}, z.tight);
    // Tight: the first part's; block-linear spans: what any part may need (at most the whole job's).
    const u128 upload = std::min<u128>(part_source_bytes(p, z.grid.cols, z.grid.rows, z.grid.slices, false),
                                       u128(round_up4(p.src_bytes_needed)));
    z.upload_bytes = z.tight ? first.upload_bytes : uint64_t(upload);
    z.texel_bytes = first.staged.dst_bytes_needed;
    return z;
}

// A part's blocks gathered from a block-linear source into rows of its blocks (StagingPlan::tight),
// split by block rows across the copy threads.
struct GatherCopy {
    const JobPlan* job;
    Chunk chunk;
    const uint8_t* src;
    uint8_t* dst;
    uint32_t tasks;
};

void gather_task(void* data, uint32_t index) {
    const GatherCopy& g = *static_cast<const GatherCopy*>(data);
    const JobPlan& p = *g.job;
    const uint64_t bpb = p.format->bytes_per_block, row_bytes = g.chunk.nbx * bpb;
    const uint64_t rows = g.chunk.nby * g.chunk.nbz;
    const uint32_t column_shift = 9 + p.gob_height_log2 + p.gob_depth_log2;
    for (uint64_t r = rows * index / g.tasks; r < rows * (uint64_t(index) + 1) / g.tasks; ++r) {
        // A block's address is its row's (x = 0) plus a part that depends on x alone (texdec.h
        // "source layouts"; the job's plan starts at the surface's origin).
        const uint8_t* row =
            g.src + surface_block_offset(p, 0, g.chunk.by0 + r % g.chunk.nby, g.chunk.bz0 + r / g.chunk.nby);
        uint8_t* out = g.dst + r * row_bytes;
        for (uint64_t i = 0; i < g.chunk.nbx; ++i)
            memcpy(out + i * bpb, row + gob_x_offset((g.chunk.bx0 + i) * bpb, column_shift), bpb);
    }
}

// Copies a part's blocks into its upload buffer, as make_part laid them out.
void copy_part_in(texdec_context* ctx, const JobPlan& job, const StagingPlan& z, const Chunk& c, const Part& part,
                  const uint8_t* blocks, uint8_t* upload) {
    if (!z.tight) {  // the span as it is
        copy_bytes(ctx, upload, blocks + part.span.src_start, part.staged.src_bytes_needed);
        return;
    }
    if (job.block_linear) {
        GatherCopy g{&job, c, blocks, upload, 0};
        g.tasks = uint32_t(std::min<uint64_t>(copy_tasks(ctx, part.staged.src_bytes_needed), c.nby * c.nbz));
        parallel_run(ctx, g.tasks, gather_task, &g);
        return;
    }
    // Linear: each block row of the part (rows and slices that follow each other in the source
    // are one run).
    RowCopy rc{blocks + part.span.src_start,
               upload,
               part.staged.src_row_bytes,
               c.nby,
               c.nbz,
               job.src_row_bytes,
               job.src_slice_bytes,
               part.staged.src_row_bytes,
               part.staged.src_slice_bytes,
               0};
    if (rc.src_row == rc.row_bytes) {
        rc.row_bytes *= rc.rows, rc.rows = 1, rc.src_row = rc.dst_row = rc.row_bytes;
        if (rc.src_slice == rc.row_bytes)
            rc.row_bytes *= rc.slices, rc.slices = 1, rc.src_slice = rc.dst_slice = rc.row_bytes;
    }
    copy_rows(ctx, rc);
}

// Copies a part's staged rows into the caller's layout, texel bytes only (on the copy threads).
void copy_part_out(texdec_context* ctx, const JobPlan& job, const Part& part, const uint8_t* staged, uint8_t* out) {
    const JobPlan& s = part.staged;
    uint8_t* origin = out + part.span.z0 * job.dst_slice_pitch + part.span.y0 * job.dst_row_pitch +
                      part.span.x0 * job.output.texel_bytes;
    copy_rows(ctx, RowCopy{staged, origin, uint64_t(s.width) * job.output.texel_bytes, s.height, s.depth,
                           s.dst_row_pitch, s.dst_slice_pitch, job.dst_row_pitch, job.dst_slice_pitch, 0});
}

// Records one part into its slot's command buffer: upload copy (device-local staging), decode,
// copy back, and the barrier that makes the texels visible to the host. Timestamps (when
// `stamps`): 4 per slot, start / blocks on the device / decoded / texels copied back.
texdec_status record_part(texdec_context* ctx, StagingSlot& slot, uint32_t slot_index, const Part& part, bool via_device,
                          bool stamps) {
    HostStaging& st = ctx->staging;
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VkResult r = ctx->vkd.vkBeginCommandBuffer(slot.cmd, &begin);  // implicit reset of the slot's buffer
    if (r != VK_SUCCESS) return vk_failure(ctx, r, "vkBeginCommandBuffer");
    const uint32_t query = 4 * slot_index;
    auto stamp = [&](uint32_t q, VkPipelineStageFlagBits stage) {
        if (stamps) ctx->vkd.vkCmdWriteTimestamp(slot.cmd, stage, st.timestamps, query + q);
    };
    if (stamps) ctx->vkd.vkCmdResetQueryPool(slot.cmd, st.timestamps, query, 4);
    const JobPlan& p = part.staged;
    begin_label(ctx, slot.cmd, "texdec_decode %s -> %s, %ux%ux%u texels at (%llu, %llu, %llu)", p.format->name,
                store_name(p.output.store_kind), p.width, p.height, p.depth, (unsigned long long)part.span.x0,
                (unsigned long long)part.span.y0, (unsigned long long)part.span.z0);
    stamp(0, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT);
    VkBuffer blocks = slot.upload.buffer, texels = slot.readback.buffer;
    if (via_device) {
        VkBufferCopy up{0, 0, part.upload_bytes};
        ctx->vkd.vkCmdCopyBuffer(slot.cmd, slot.upload.buffer, slot.device_blocks.buffer, 1, &up);
        blocks = slot.device_blocks.buffer;
        texels = slot.device_texels.buffer;
    }
    if (ctx->trace_one_call == 2) {  // TEXDEC_DEBUG_ONE_CALL_TRACE=2: an untimed decode first
        if (texdec_status w = record_staged(ctx, slot.cmd, part.staged, blocks, texels, via_device);
            w != TEXDEC_SUCCESS) {
            ctx->vkd.vkEndCommandBuffer(slot.cmd);
            return w;
        }
        VkMemoryBarrier again{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT,
                              VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
        ctx->vkd.vkCmdPipelineBarrier(slot.cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &again, 0, nullptr, 0, nullptr);
    }
    stamp(1, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
    texdec_status s = record_staged(ctx, slot.cmd, part.staged, blocks, texels, via_device);
    stamp(2, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
    VkPipelineStageFlags last_stage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    if (via_device) {
        // Shader writes -> the copy back into the readback buffer.
        VkMemoryBarrier to_copy{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT};
        ctx->vkd.vkCmdPipelineBarrier(slot.cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                                      &to_copy, 0, nullptr, 0, nullptr);
        VkBufferCopy down{0, 0, part.staged.dst_bytes_needed};
        ctx->vkd.vkCmdCopyBuffer(slot.cmd, slot.device_texels.buffer, slot.readback.buffer, 1, &down);
        barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        last_stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
    }
    stamp(3, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
    // Last GPU writes -> host reads of the readback buffer.
    ctx->vkd.vkCmdPipelineBarrier(slot.cmd, last_stage, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
    end_label(ctx, slot.cmd);
    r = ctx->vkd.vkEndCommandBuffer(slot.cmd);
    if (s != TEXDEC_SUCCESS) return s;
    if (r != VK_SUCCESS) return vk_failure(ctx, r, "vkEndCommandBuffer");
    return TEXDEC_SUCCESS;
}

}  // namespace

void texdec::gpu::scratch_size(texdec_context* ctx, const JobPlan& plan, uint64_t* host_bytes, uint64_t* device_bytes) {
    const StagingPlan z = plan_staging(ctx, plan);
    // ensure_buffer's 64 KiB minimum per buffer is not counted: it is an allocation granule.
    *host_bytes = z.slots * (z.upload_bytes + z.texel_bytes);
    *device_bytes = stages_via_device(ctx) ? *host_bytes : 0;
}

void texdec::gpu::memory_usage(texdec_context* ctx, texdec_memory_usage* usage) {
    {
        std::lock_guard<std::mutex> lock(ctx->host_mutex);
        for (const StagingSlot& slot : ctx->staging.slots) {
            usage->staging_host_bytes += slot.upload.size + slot.readback.size;
            usage->staging_device_bytes += slot.device_blocks.size + slot.device_texels.size;
        }
    }
    usage->table_bytes = lut_bytes(ctx);
    std::lock_guard<std::mutex> lock(ctx->pipeline_mutex);
    usage->pipelines = uint32_t(ctx->pipelines.size());
}

texdec_status texdec::gpu::release_staging(texdec_context* ctx) {
    std::lock_guard<std::mutex> lock(ctx->host_mutex);
    if (texdec_status s = wait_previous(ctx, 0); s != TEXDEC_SUCCESS) return s;
    destroy_staging_buffers(ctx);
    return TEXDEC_SUCCESS;
}

extern "C" TEXDEC_API texdec_status texdec_decode_scratch_size(texdec_context* ctx, const texdec_host_job* job,
                                                               uint64_t* host_bytes, uint64_t* device_bytes) {
    if (!ctx || !job || !host_bytes || !device_bytes)
        return null_argument(ctx, "texdec_decode_scratch_size",
                             !ctx          ? "context"
                             : !job        ? "job"
                             : !host_bytes ? "host_bytes"
                                           : "device_bytes");
    JobPlan plan;
    if (texdec_status s = plan_host_job(ctx, job, false, &plan); s != TEXDEC_SUCCESS) return s;
    ctx->backend->scratch_size(ctx, plan, host_bytes, device_bytes);
    return TEXDEC_SUCCESS;
}

extern "C" TEXDEC_API texdec_status texdec_context_memory_usage(texdec_context* ctx, texdec_memory_usage* usage) {
    if (!ctx || !usage) return null_argument(ctx, "texdec_context_memory_usage", !ctx ? "context" : "usage");
    *usage = texdec_memory_usage{};
    ctx->backend->memory_usage(ctx, usage);
    return TEXDEC_SUCCESS;
}

extern "C" TEXDEC_API texdec_status texdec_context_release_staging(texdec_context* ctx) {
    if (!ctx) return null_argument(ctx, "texdec_context_release_staging", "context");
    return ctx->backend->release_staging(ctx);
}

extern "C" TEXDEC_API texdec_status texdec_decode_timed(texdec_context* ctx, const texdec_host_job* job,
                                                       texdec_decode_timing* timing) {
    const uint64_t t_start = timing ? now_ns() : 0;
    if (!ctx || !job) return null_argument(ctx, "texdec_decode", !ctx ? "context" : "job");
    JobPlan plan;
    if (texdec_status s = plan_host_job(ctx, job, true, &plan); s != TEXDEC_SUCCESS) return s;
    return ctx->backend->decode(ctx, *job, plan, timing, t_start);
}

texdec_status texdec::gpu::decode(texdec_context* ctx, const texdec_host_job* job, const JobPlan& plan,
                                  texdec_decode_timing* timing, uint64_t t_start) {
    texdec_status s;
    // The device's part of texdec_query_support, before anything is allocated.
    if ((s = check_device_needs(ctx, *plan.format, true, nullptr)) != TEXDEC_SUCCESS) return s;
    if (!ctx->queue)
        return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR, "the context has no queue (external device without one)");
    const StagingPlan z = plan_staging(ctx, plan);

    std::lock_guard<std::mutex> lock(ctx->host_mutex);
    const uint64_t timeout = job->timeout_ns ? job->timeout_ns : kDefaultTimeoutNs;
    HostStaging& st = ctx->staging;
    if ((s = wait_previous(ctx, timeout)) != TEXDEC_SUCCESS) return s;
    if ((s = ensure_command_objects(ctx)) != TEXDEC_SUCCESS) return s;
    const bool via_device = stages_via_device(ctx);
    const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, local = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    for (uint32_t i = 0; i < z.slots; ++i) {
        StagingSlot& slot = st.slots[i];
        const char* upload_names[] = {"staging upload 0", "staging upload 1"};
        const char* readback_names[] = {"staging readback 0", "staging readback 1"};
        const char* blocks_names[] = {"staging device blocks 0", "staging device blocks 1"};
        const char* texels_names[] = {"staging device texels 0", "staging device texels 1"};
        static_assert(HostStaging::kSlots == 2, "one name per slot");
        if ((s = ensure_buffer(ctx, slot.upload, z.upload_bytes, host, VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, upload_names[i])) !=
                TEXDEC_SUCCESS ||
            (s = ensure_buffer(ctx, slot.readback, z.texel_bytes, host, VK_MEMORY_PROPERTY_HOST_CACHED_BIT, readback_names[i])) !=
                TEXDEC_SUCCESS)
            return s;
        if (via_device && ((s = ensure_buffer(ctx, slot.device_blocks, z.upload_bytes, local, 0, blocks_names[i])) != TEXDEC_SUCCESS ||
                           (s = ensure_buffer(ctx, slot.device_texels, z.texel_bytes, local, 0, texels_names[i])) != TEXDEC_SUCCESS))
            return s;
    }
    const bool stamps = timing && ensure_timestamps(ctx);
    texdec_decode_timing t{};
    const auto* blocks = static_cast<const uint8_t*>(job->src);
    auto* texels = static_cast<uint8_t*>(job->dst);

    // Parts in order; part k uses slot k % slots. Before a slot takes a new part, the part it
    // holds is waited for (timeout per submission) and copied out, while the GPU works on the other.
    Part pending[HostStaging::kSlots];
    uint64_t first_tick = 0;  // TEXDEC_DEBUG_ONE_CALL_TRACE: the first part's start
    if (ctx->trace_one_call) {
        std::unique_lock<std::mutex> lut_lock(ctx->lut_mutex);
        for (const auto& [key, lut] : ctx->astc_footprint_luts)
            std::fprintf(stderr, "texdec one-call trace: ASTC footprint table %ux%ux%u %s\n", key & 0xFF,
                         (key >> 8) & 0xFF, key >> 16, lut.device_local ? "device-local" : "host");
        std::fprintf(stderr, "texdec one-call trace: device blocks %s, device texels %s\n",
                     st.slots[0].device_blocks.device_local ? "device-local" : "host",
                     st.slots[0].device_texels.device_local ? "device-local" : "host");
        std::fprintf(stderr, "texdec one-call trace: ASTC shared table %s, BPTC/ETC tables %s\n",
                     !ctx->astc_shared_lut.buffer        ? "not created"
                     : ctx->astc_shared_lut.device_local ? "device-local"
                                                         : "host",
                     !ctx->tables_lut.buffer        ? "not created"
                     : ctx->tables_lut.device_local ? "device-local"
                                                    : "host");
    }
    if (ctx->trace_one_call)
        std::fprintf(
            stderr,
            "texdec one-call trace: %ux%ux%u %s, %u slot(s) of %" PRIu64 " + %" PRIu64 " bytes, parts of %" PRIu64
            "x%" PRIu64 "x%" PRIu64 " blocks, via device %d; upload %s%s, readback %s%s\n",
            plan.width, plan.height, plan.depth, plan.format->name, z.slots, z.upload_bytes, z.texel_bytes, z.grid.cols,
            z.grid.rows, z.grid.slices, int(via_device), st.slots[0].upload.device_local ? "device-local" : "host",
            st.slots[0].upload.coherent ? " coherent" : "", st.slots[0].readback.device_local ? "device-local" : "host",
            st.slots[0].readback.coherent ? " coherent" : "");
    auto finish = [&](uint32_t index) -> texdec_status {
        StagingSlot& slot = st.slots[index];
        const uint64_t t_wait = timing ? now_ns() : 0;
        if (texdec_status w = wait_slot(ctx, slot, timeout, "the decode"); w != TEXDEC_SUCCESS) return w;
        const uint64_t t_copy = timing ? now_ns() : 0;
        if (!slot.readback.coherent) {
            VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, nullptr, slot.readback.memory, 0, VK_WHOLE_SIZE};
            ctx->vkd.vkInvalidateMappedMemoryRanges(ctx->device, 1, &range);
        }
        copy_part_out(ctx, plan, pending[index], static_cast<const uint8_t*>(slot.readback.mapped), texels);
        if (timing) {
            const uint64_t t_end = now_ns();
            t.submit_wait_ns += t_copy - t_wait;
            t.readback_copy_ns += t_end - t_copy;
        }
        uint64_t ticks[4] = {};
        if (stamps && ctx->vkd.vkGetQueryPoolResults(ctx->device, st.timestamps, 4 * index, 4, sizeof ticks, ticks, sizeof ticks[0],
                                                     VK_QUERY_RESULT_64_BIT) == VK_SUCCESS) {
            t.gpu_timestamps = 1;
            t.gpu_upload_ns += via_device ? ticks_to_ns(ctx, ticks[0], ticks[1]) : 0;
            t.gpu_decode_ns += ticks_to_ns(ctx, ticks[1], ticks[2]);
            t.gpu_readback_ns += via_device ? ticks_to_ns(ctx, ticks[2], ticks[3]) : 0;
            if (ctx->trace_one_call) {
                const Part& part = pending[index];
                std::fprintf(stderr,
                             "texdec one-call trace: part at (%" PRIu64 ", %" PRIu64 ", %" PRIu64
                             ") %ux%ux%u slot %u: "
                             "gpu start %.3f ms after the first part's, upload %.3f, decode %.3f, readback %.3f ms; "
                             "host wait %.3f, copy out %.3f ms (%u threads)\n",
                             part.span.x0, part.span.y0, part.span.z0, part.staged.width, part.staged.height,
                             part.staged.depth, index,
                             first_tick ? double(ticks_to_ns(ctx, first_tick, ticks[0])) * 1e-6 : 0.0,
                             double(ticks_to_ns(ctx, ticks[0], ticks[1])) * 1e-6,
                             double(ticks_to_ns(ctx, ticks[1], ticks[2])) * 1e-6,
                             double(ticks_to_ns(ctx, ticks[2], ticks[3])) * 1e-6, double(t_copy - t_wait) * 1e-6,
                             double(now_ns() - t_copy) * 1e-6, ctx->copy_threads);
                if (!first_tick) first_tick = ticks[0];
            }
        }
        return TEXDEC_SUCCESS;
    };
    uint64_t k = 0;
    for (uint64_t bz = 0; bz < plan.blocks_z; bz += z.grid.slices)
        for (uint64_t by = 0; by < plan.blocks_y; by += z.grid.rows)
            for (uint64_t bx = 0; bx < plan.blocks_x; bx += z.grid.cols, ++k) {
                const uint32_t index = uint32_t(k % z.slots);
                StagingSlot& slot = st.slots[index];
                if (slot.in_flight && (s = finish(index)) != TEXDEC_SUCCESS) return s;
                const Chunk chunk{bx, std::min(z.grid.cols, plan.blocks_x - bx),
                                  by, std::min(z.grid.rows, plan.blocks_y - by),
                                  bz, std::min(z.grid.slices, plan.blocks_z - bz)};
                pending[index] = make_part(plan, chunk, z.tight);
                const Part& part = pending[index];
                const uint64_t t_upload = timing ? now_ns() : 0;
                copy_part_in(ctx, plan, z, chunk, part, blocks, static_cast<uint8_t*>(slot.upload.mapped));
                if (!slot.upload.coherent) {
                    VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, nullptr, slot.upload.memory, 0, VK_WHOLE_SIZE};
                    ctx->vkd.vkFlushMappedMemoryRanges(ctx->device, 1, &range);
                }
                const uint64_t t_record = timing ? now_ns() : 0;
                if ((s = record_part(ctx, slot, index, part, via_device, stamps)) != TEXDEC_SUCCESS) return s;
                const uint64_t t_submit = timing ? now_ns() : 0;
                if ((s = submit(ctx, slot)) != TEXDEC_SUCCESS) return s;
                if (timing) {
                    t.upload_copy_ns += t_record - t_upload;
                    t.submit_wait_ns += now_ns() - t_submit;
                }
            }
    // The last parts, oldest first.
    for (uint64_t left = std::min<uint64_t>(k, z.slots); left > 0; --left)
        if ((s = finish(uint32_t((k - left) % z.slots))) != TEXDEC_SUCCESS) return s;
    if (timing) {
        t.total_ns = now_ns() - t_start;
        t.prepare_ns = t.total_ns - t.upload_copy_ns - t.submit_wait_ns - t.readback_copy_ns;
        *timing = t;
    }
    return TEXDEC_SUCCESS;
}

// texdec_decode: the one-call path. Blocks are copied into a persistently mapped upload buffer,
// decoded into a mapped readback buffer with a tight (word-aligned) layout, and the rows are then
// copied into the caller's memory with the caller's pitches (padding bytes are never touched).
// Buffers, command buffer and fence are kept in the context and grow as needed.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include "job.h"

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
    return TEXDEC_SUCCESS;
}

namespace {

constexpr uint64_t kDefaultTimeoutNs = 10ull * 1000 * 1000 * 1000;

// Makes `b` at least `size` bytes (grows by replacing; the old contents are not kept).
texdec_status ensure_buffer(texdec_context* ctx, MappedBuffer& b, VkDeviceSize size, VkMemoryPropertyFlags required,
                            VkMemoryPropertyFlags preferred) {
    if (b.buffer && b.size >= size) return TEXDEC_SUCCESS;
    destroy_buffer(ctx, b);
    return create_buffer(ctx, std::max<VkDeviceSize>(size, 64 * 1024), required, preferred, "staging", b);
}

texdec_status ensure_command_objects(texdec_context* ctx) {
    HostStaging& st = ctx->staging;
    if (st.pool) return TEXDEC_SUCCESS;
    VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    cpci.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    cpci.queueFamilyIndex = ctx->queue_family;
    VkResult r = ctx->vkd.vkCreateCommandPool(ctx->device, &cpci, ctx->allocator, &st.pool);
    if (r != VK_SUCCESS) return vk_failure(ctx, r, "vkCreateCommandPool");
    VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbai.commandPool = st.pool;
    cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbai.commandBufferCount = 1;
    if ((r = ctx->vkd.vkAllocateCommandBuffers(ctx->device, &cbai, &st.cmd)) != VK_SUCCESS)
        return vk_failure(ctx, r, "vkAllocateCommandBuffers");
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if ((r = ctx->vkd.vkCreateFence(ctx->device, &fci, ctx->allocator, &st.fence)) != VK_SUCCESS)
        return vk_failure(ctx, r, "vkCreateFence");
    return TEXDEC_SUCCESS;
}

// Waits for the previous submission if an earlier call timed out while it was running.
texdec_status wait_previous(texdec_context* ctx, uint64_t timeout_ns) {
    HostStaging& st = ctx->staging;
    if (!st.in_flight) return TEXDEC_SUCCESS;
    VkResult r = ctx->vkd.vkWaitForFences(ctx->device, 1, &st.fence, VK_TRUE, timeout_ns);
    if (r == VK_TIMEOUT)
        return ctx->report(TEXDEC_ERROR_TIMEOUT, TEXDEC_MESSAGE_ERROR, "an earlier decode that timed out is still running");
    if (r != VK_SUCCESS) return vk_failure(ctx, r, "vkWaitForFences");
    st.in_flight = false;
    return TEXDEC_SUCCESS;
}

texdec_status submit_and_wait(texdec_context* ctx, uint64_t timeout_ns) {
    HostStaging& st = ctx->staging;
    VkResult r = ctx->vkd.vkResetFences(ctx->device, 1, &st.fence);
    if (r != VK_SUCCESS) return vk_failure(ctx, r, "vkResetFences");
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &st.cmd;
    ctx->lock();
    r = ctx->vkd.vkQueueSubmit(ctx->queue, 1, &si, st.fence);
    ctx->unlock();
    if (r != VK_SUCCESS) return vk_failure(ctx, r, "vkQueueSubmit");
    st.in_flight = true;
    r = ctx->vkd.vkWaitForFences(ctx->device, 1, &st.fence, VK_TRUE, timeout_ns);
    if (r == VK_TIMEOUT)
        return ctx->report(TEXDEC_ERROR_TIMEOUT, TEXDEC_MESSAGE_ERROR, "the decode did not finish within %llu ns",
                           (unsigned long long)timeout_ns);
    if (r != VK_SUCCESS) return vk_failure(ctx, r, "vkWaitForFences");
    st.in_flight = false;
    return TEXDEC_SUCCESS;
}

// Copies the tight staging rows into the caller's layout, texel bytes only.
void copy_rows_out(const JobPlan& plan, const uint8_t* staged, uint64_t staged_row, uint64_t staged_slice, uint8_t* out) {
    const uint64_t row_bytes = uint64_t(plan.width) * plan.output.texel_bytes;
    for (uint32_t z = 0; z < plan.depth; ++z)
        for (uint32_t y = 0; y < plan.height; ++y)
            memcpy(out + z * plan.dst_slice_pitch + y * plan.dst_row_pitch, staged + z * staged_slice + y * staged_row, row_bytes);
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
    qpci.queryCount = 4;
    if (ctx->vkd.vkCreateQueryPool(ctx->device, &qpci, ctx->allocator, &st.timestamps) != VK_SUCCESS) {
        st.timestamps = VK_NULL_HANDLE;
        st.timestamp_bits = 0;  // measure without timestamps rather than fail the decode
        return false;
    }
    return true;
}

// Ticks between two timestamps (modulo timestampValidBits) in nanoseconds.
uint64_t ticks_to_ns(const texdec_context* ctx, uint64_t from, uint64_t to) {
    const uint32_t bits = ctx->staging.timestamp_bits;
    const uint64_t mask = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    return uint64_t(double((to - from) & mask) * double(ctx->properties.limits.timestampPeriod) + 0.5);
}

// Copies the fields of `measured` the caller's struct has room for (struct_size bytes).
void write_timing(texdec_decode_timing* out, texdec_decode_timing measured) {
    const uint32_t size = std::min<uint32_t>(out->struct_size, uint32_t(sizeof measured));
    measured.struct_size = out->struct_size;
    if (size >= sizeof(uint32_t)) memcpy(reinterpret_cast<char*>(out) + sizeof(uint32_t),
                                          reinterpret_cast<const char*>(&measured) + sizeof(uint32_t), size - sizeof(uint32_t));
}

}  // namespace

// The staging buffers (not the command objects); the caller has waited for their last use.
void destroy_staging_buffers(texdec_context* ctx) {
    HostStaging& st = ctx->staging;
    destroy_buffer(ctx, st.upload);
    destroy_buffer(ctx, st.readback);
    destroy_buffer(ctx, st.device_blocks);
    destroy_buffer(ctx, st.device_texels);
}

void destroy_host_staging(texdec_context* ctx) {
    HostStaging& st = ctx->staging;
    if (st.in_flight && st.fence) ctx->vkd.vkWaitForFences(ctx->device, 1, &st.fence, VK_TRUE, UINT64_MAX);
    destroy_staging_buffers(ctx);
    if (st.fence) ctx->vkd.vkDestroyFence(ctx->device, st.fence, ctx->allocator);
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
        call.barriers.src_stage_mask = VK_PIPELINE_STAGE_TRANSFER_BIT;
        call.barriers.src_access_mask = VK_ACCESS_TRANSFER_WRITE_BIT;
    }
    return record_regions(ctx, cmd, call, StagedRegion(plan));
}

// Checks a host job (everything but the texels pointer, which `need_texels` adds) and plans it.
texdec_status plan_host_job(texdec_context* ctx, const texdec_host_job* job, bool need_texels, JobPlan* plan) {
    texdec_status s = plan_job(ctx, enum_bits(job->format), enum_bits(job->output), enum_bits(job->bc_rounding),
                               job->width, job->height, job->depth,
                               {job->blocks_row_length, job->blocks_image_height}, plan);
    if (s != TEXDEC_SUCCESS) return s;
    if (!job->blocks || (need_texels && !job->texels))
        return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR, "blocks and texels must not be NULL");
    if (job->blocks_size < plan->src_bytes_needed)
        return ctx->report(TEXDEC_ERROR_SOURCE_TOO_SMALL, TEXDEC_MESSAGE_ERROR,
                           "the extent needs %llu bytes of blocks, blocks_size is %llu",
                           (unsigned long long)plan->src_bytes_needed, (unsigned long long)job->blocks_size);
    if ((s = plan_destination(ctx, job->row_pitch, job->slice_pitch, plan)) != TEXDEC_SUCCESS) return s;
    if (job->texels_size < plan->dst_bytes_needed)
        return ctx->report(TEXDEC_ERROR_DESTINATION_TOO_SMALL, TEXDEC_MESSAGE_ERROR,
                           "the extent needs %llu bytes of texels, texels_size is %llu",
                           (unsigned long long)plan->dst_bytes_needed, (unsigned long long)job->texels_size);
    return TEXDEC_SUCCESS;
}

// The staging layout of a job: blocks uploaded as whole words; texel rows padded to whole words,
// so no two rows share a word.
struct StagingSizes {
    uint64_t upload_bytes, staged_row, staged_slice, staged_bytes;
};

StagingSizes staging_sizes(const JobPlan& plan) {
    StagingSizes z;
    z.upload_bytes = (plan.src_bytes_needed + 3) / 4 * 4;
    z.staged_row = (uint64_t(plan.width) * plan.output.texel_bytes + 3) / 4 * 4;
    z.staged_slice = z.staged_row * plan.height;
    z.staged_bytes = z.staged_slice * plan.depth;
    return z;
}

}  // namespace

extern "C" TEXDEC_API texdec_status texdec_decode_scratch_size(texdec_context* ctx, const texdec_host_job* job,
                                                               uint64_t* host_bytes, uint64_t* device_bytes) {
    if (!ctx || !job || !host_bytes || !device_bytes) return TEXDEC_ERROR_INVALID_ARGUMENT;
    JobPlan plan;
    if (texdec_status s = plan_host_job(ctx, job, false, &plan); s != TEXDEC_SUCCESS) return s;
    const StagingSizes z = staging_sizes(plan);
    *host_bytes = z.upload_bytes + z.staged_bytes;
    // Device-local twins exist where either host-visible buffer (upload: coherent preferred,
    // readback: cached preferred, as texdec_decode allocates them) is not device-local.
    auto local = [&](VkMemoryPropertyFlags preferred) {
        const uint32_t type = find_memory_type(ctx, ~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, preferred);
        return type != UINT32_MAX && (ctx->memory_properties.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    };
    const bool via_device = ctx->force_device_staging || !local(VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) ||
                            !local(VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    *device_bytes = via_device ? *host_bytes : 0;
    return TEXDEC_SUCCESS;
}

extern "C" TEXDEC_API texdec_status texdec_context_memory_usage(texdec_context* ctx, texdec_memory_usage* usage) {
    if (!ctx || !usage) return TEXDEC_ERROR_INVALID_ARGUMENT;
    *usage = texdec_memory_usage{};
    {
        std::lock_guard<std::mutex> lock(ctx->host_mutex);
        const HostStaging& st = ctx->staging;
        usage->staging_host_bytes = st.upload.size + st.readback.size;
        usage->staging_device_bytes = st.device_blocks.size + st.device_texels.size;
    }
    usage->table_bytes = lut_bytes(ctx);
    std::lock_guard<std::mutex> lock(ctx->pipeline_mutex);
    usage->pipelines = uint32_t(ctx->pipelines.size());
    return TEXDEC_SUCCESS;
}

extern "C" TEXDEC_API texdec_status texdec_context_release_staging(texdec_context* ctx) {
    if (!ctx) return TEXDEC_ERROR_INVALID_ARGUMENT;
    std::lock_guard<std::mutex> lock(ctx->host_mutex);
    if (texdec_status s = wait_previous(ctx, 0); s != TEXDEC_SUCCESS) return s;
    destroy_staging_buffers(ctx);
    return TEXDEC_SUCCESS;
}

extern "C" TEXDEC_API texdec_status texdec_decode_timed(texdec_context* ctx, const texdec_host_job* job,
                                                       texdec_decode_timing* timing) {
    const uint64_t t_start = timing ? now_ns() : 0;
    if (!ctx || !job) return TEXDEC_ERROR_INVALID_ARGUMENT;
    JobPlan plan;
    texdec_status s = plan_host_job(ctx, job, true, &plan);
    if (s != TEXDEC_SUCCESS) return s;
    if (!ctx->queue)
        return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR, "the context has no queue (external device without one)");

    const StagingSizes z = staging_sizes(plan);
    JobPlan staged_plan = plan;
    staged_plan.dst_row_pitch = z.staged_row;
    staged_plan.dst_slice_pitch = z.staged_slice;
    staged_plan.dst_bytes_needed = z.staged_bytes;

    std::lock_guard<std::mutex> lock(ctx->host_mutex);
    const uint64_t timeout = job->timeout_ns ? job->timeout_ns : kDefaultTimeoutNs;
    HostStaging& st = ctx->staging;
    if ((s = wait_previous(ctx, timeout)) != TEXDEC_SUCCESS) return s;
    if ((s = ensure_command_objects(ctx)) != TEXDEC_SUCCESS) return s;
    const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
    if ((s = ensure_buffer(ctx, st.upload, z.upload_bytes, host, VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)) != TEXDEC_SUCCESS) return s;
    if ((s = ensure_buffer(ctx, st.readback, z.staged_bytes, host, VK_MEMORY_PROPERTY_HOST_CACHED_BIT)) != TEXDEC_SUCCESS) return s;
    // Where the staging memory is not device-local (discrete GPUs), decode between device-local
    // buffers and copy: one pass over the bus each way instead of the shader's scattered accesses.
    const bool via_device = ctx->force_device_staging || !st.upload.device_local || !st.readback.device_local;
    const VkMemoryPropertyFlags local = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    if (via_device && ((s = ensure_buffer(ctx, st.device_blocks, z.upload_bytes, local, 0)) != TEXDEC_SUCCESS ||
                       (s = ensure_buffer(ctx, st.device_texels, z.staged_bytes, local, 0)) != TEXDEC_SUCCESS))
        return s;

    const bool stamps = timing && ensure_timestamps(ctx);
    const uint64_t t_upload = timing ? now_ns() : 0;
    memcpy(st.upload.mapped, job->blocks, plan.src_bytes_needed);
    if (!st.upload.coherent) {
        VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, nullptr, st.upload.memory, 0, VK_WHOLE_SIZE};
        ctx->vkd.vkFlushMappedMemoryRanges(ctx->device, 1, &range);
    }
    const uint64_t t_uploaded = timing ? now_ns() : 0;

    VkResult r = ctx->vkd.vkResetCommandPool(ctx->device, st.pool, 0);
    if (r != VK_SUCCESS) return vk_failure(ctx, r, "vkResetCommandPool");
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if ((r = ctx->vkd.vkBeginCommandBuffer(st.cmd, &begin)) != VK_SUCCESS) return vk_failure(ctx, r, "vkBeginCommandBuffer");
    // Timestamps (texdec_decode_timed): 0 start, 1 blocks on the device, 2 decoded, 3 texels copied back.
    auto stamp = [&](uint32_t query, VkPipelineStageFlagBits stage) {
        if (stamps) ctx->vkd.vkCmdWriteTimestamp(st.cmd, stage, st.timestamps, query);
    };
    if (stamps) ctx->vkd.vkCmdResetQueryPool(st.cmd, st.timestamps, 0, 4);
    stamp(0, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT);
    VkBuffer blocks = st.upload.buffer, texels = st.readback.buffer;
    if (via_device) {
        VkBufferCopy up{0, 0, z.upload_bytes};
        ctx->vkd.vkCmdCopyBuffer(st.cmd, st.upload.buffer, st.device_blocks.buffer, 1, &up);
        blocks = st.device_blocks.buffer;
        texels = st.device_texels.buffer;
    }
    stamp(1, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
    s = record_staged(ctx, st.cmd, staged_plan, blocks, texels, via_device);
    stamp(2, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
    VkPipelineStageFlags last_stage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    if (via_device) {
        // Shader writes -> the copy back into the readback buffer.
        VkMemoryBarrier to_copy{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT};
        ctx->vkd.vkCmdPipelineBarrier(st.cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                                      &to_copy, 0, nullptr, 0, nullptr);
        VkBufferCopy down{0, 0, z.staged_bytes};
        ctx->vkd.vkCmdCopyBuffer(st.cmd, st.device_texels.buffer, st.readback.buffer, 1, &down);
        barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        last_stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
    }
    stamp(3, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
    // Last GPU writes -> host reads of the readback buffer.
    ctx->vkd.vkCmdPipelineBarrier(st.cmd, last_stage, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
    r = ctx->vkd.vkEndCommandBuffer(st.cmd);
    if (s != TEXDEC_SUCCESS) return s;
    if (r != VK_SUCCESS) return vk_failure(ctx, r, "vkEndCommandBuffer");
    const uint64_t t_submit = timing ? now_ns() : 0;
    if ((s = submit_and_wait(ctx, timeout)) != TEXDEC_SUCCESS) return s;
    const uint64_t t_done = timing ? now_ns() : 0;

    if (!st.readback.coherent) {
        VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, nullptr, st.readback.memory, 0, VK_WHOLE_SIZE};
        ctx->vkd.vkInvalidateMappedMemoryRanges(ctx->device, 1, &range);
    }
    copy_rows_out(plan, static_cast<const uint8_t*>(st.readback.mapped), z.staged_row, z.staged_slice,
                  static_cast<uint8_t*>(job->texels));
    if (timing) {
        texdec_decode_timing t{};
        const uint64_t t_end = now_ns();
        t.total_ns = t_end - t_start;
        t.upload_copy_ns = t_uploaded - t_upload;
        t.submit_wait_ns = t_done - t_submit;
        t.readback_copy_ns = t_end - t_done;
        t.prepare_ns = t.total_ns - t.upload_copy_ns - t.submit_wait_ns - t.readback_copy_ns;
        uint64_t ticks[4] = {};
        if (stamps && ctx->vkd.vkGetQueryPoolResults(ctx->device, st.timestamps, 0, 4, sizeof ticks, ticks, sizeof ticks[0],
                                                     VK_QUERY_RESULT_64_BIT) == VK_SUCCESS) {
            t.gpu_timestamps = 1;
            t.gpu_upload_ns = via_device ? ticks_to_ns(ctx, ticks[0], ticks[1]) : 0;
            t.gpu_decode_ns = ticks_to_ns(ctx, ticks[1], ticks[2]);
            t.gpu_readback_ns = via_device ? ticks_to_ns(ctx, ticks[2], ticks[3]) : 0;
        }
        write_timing(timing, t);
    }
    return TEXDEC_SUCCESS;
}

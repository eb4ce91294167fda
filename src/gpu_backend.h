// The GPU backend (backend.h): Vulkan compute on the context's device. Its state is the Vulkan
// members of texdec_context (context.h); gpu_backend.cpp is the adapter, the work lives in the
// files named below. Internal: only the GPU files include it.
#pragma once
#include "context.h"

namespace texdec {
struct JobPlan;
}

namespace texdec::gpu {

// The GPU backend (one object for every GPU context: it keeps nothing of its own).
Backend* backend();

// The one-call path (decode_host.cpp): texdec_decode_timed of a checked job, its scratch size,
// texdec_context_memory_usage (staging, tables, pipelines) and texdec_context_release_staging.
texdec_status decode(texdec_context* ctx, const texdec_host_job* job, const JobPlan& plan, texdec_decode_timing* timing,
                     uint64_t start_ns);
void scratch_size(texdec_context* ctx, const JobPlan& plan, uint64_t* host_bytes, uint64_t* device_bytes);
void memory_usage(texdec_context* ctx, texdec_memory_usage* usage);
texdec_status release_staging(texdec_context* ctx);

// texdec_query_support's device rules (support.cpp): the device's needs and the destination.
void support_reasons(const texdec_context* ctx, texdec_status resolved, const FormatEntry* entry,
                     const OutputInfo& output, uint32_t kind, VkFormat image_format, texdec_support* support);
texdec_status support_status(texdec_context* ctx, const JobPlan& plan, uint32_t kind, VkFormat image_format);

}  // namespace texdec::gpu

// The backend seam: a context is a common part (message callback, task pool, the public calls'
// checks and job planning) plus one backend that does the work. The GPU backend
// (gpu_backend.cpp: Vulkan, the context's device state) and the CPU backend (cpu/cpu_backend.cpp)
// implement this interface; nothing outside them asks which one a context has. Adding a backend
// is one class here and its creation in context.cpp. Internal.
#pragma once
#include <texdec/texdec.h>

#include <cstdint>

struct texdec_context;

namespace texdec {

struct JobPlan;      // job.h
struct FormatEntry;  // formats.h
struct OutputInfo;   // formats.h
struct TexelFormat;  // formats.h

// Whether a get_* call may create what is missing, or only find what exists (then
// TEXDEC_ERROR_NOT_READY, without a message, if it is missing: TEXDEC_RECORD_FAIL_IF_NOT_READY
// and texdec_variant_ready).
enum class Creation { create_missing, lookup_only };

class Backend {
public:
    virtual ~Backend() = default;

    // texdec_context_backend.
    virtual texdec_backend kind() const = 0;

    // What needs a VkDevice (the record calls, image targets, image destinations): TEXDEC_SUCCESS
    // where the backend has one, else TEXDEC_ERROR_WRONG_BACKEND with a message naming `function`.
    virtual texdec_status require_device(const texdec_context* ctx, const char* function) const = 0;

    // texdec_decode_timed after the job was checked (plan_host_job). `start_ns` is when the call
    // began (timing only).
    virtual texdec_status decode(texdec_context* ctx, const texdec_host_job& job, const JobPlan& plan,
                                 texdec_decode_timing* timing, uint64_t start_ns) = 0;
    // texdec_decode_scratch_size of a checked job.
    virtual void scratch_size(texdec_context* ctx, const JobPlan& plan, uint64_t* host_bytes,
                              uint64_t* device_bytes) = 0;

    // texdec_prepare (create_missing) and texdec_variant_ready (lookup_only) of a checked variant.
    virtual texdec_status prepare(texdec_context* ctx, const JobPlan& plan, texdec_destination_kind dst_kind,
                                  const TexelFormat* image_format, Creation creation) = 0;

    // texdec_query_support: ORs into support->reasons what the backend refuses of a variant whose
    // own rules gave `resolved` (entry and output are set where resolved is SUCCESS or
    // UNSUPPORTED_OUTPUT), silently.
    virtual void support_reasons(const texdec_context* ctx, texdec_status resolved, const FormatEntry* entry,
                                 const OutputInfo& output, uint32_t kind, VkFormat image_format,
                                 texdec_support* support) = 0;
    // texdec_query_support's status for a variant that planned: the first rule the work would
    // fail on, with its message.
    virtual texdec_status support_status(texdec_context* ctx, const JobPlan& plan, uint32_t kind,
                                         VkFormat image_format) = 0;

    // texdec_context_memory_usage (usage is zeroed by the caller) and texdec_context_release_staging.
    virtual void memory_usage(texdec_context* ctx, texdec_memory_usage* usage) = 0;
    virtual texdec_status release_staging(texdec_context* ctx) = 0;

    // texdec_context_destroy: ends what the backend made for ctx and frees the backend.
    virtual void destroy(texdec_context* ctx) = 0;
};

}  // namespace texdec

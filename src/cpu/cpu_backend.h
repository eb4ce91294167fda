// The CPU backend as the rest of the library sees it: created by texdec_context_create for
// TEXDEC_BACKEND_CPU (or AUTO without a GPU), used by the one-call path. Internal.
#pragma once
#include <texdec/texdec.h>

#include <cstdint>

struct texdec_context;

namespace texdec {
struct JobPlan;
}

namespace texdec::cpu {

struct Backend;  // the thread pool (or the caller's task hook) and the decoders' tables

// The most cpu_threads a texdec_backend_info may ask for (texdec.h); 0 (the hardware's count) is
// capped to it too.
constexpr uint32_t kMaxCpuThreads = 1024;

// Starts the backend's threads (cpu_threads - 1 of them, none with a task hook). Fills
// `name` (texdec_context_device_name) with at most name_size bytes. OUT_OF_MEMORY if a thread
// cannot be started.
texdec_status create_backend(const texdec_backend_info& info, Backend** out, char* name, size_t name_size);
// Joins the threads. nullptr is ignored.
void destroy_backend(Backend* backend);

// texdec_decode_timed on a CPU context, after the job was checked (plan_host_job).
// Messages go through ctx's callback (report.h); the backend never reads the context's state.
texdec_status decode(Backend& backend, const texdec_context* ctx, const texdec_host_job& job, const JobPlan& plan,
                     texdec_decode_timing* timing, uint64_t start_ns);
// Whether the CPU backend decodes `plan`'s format (UNSUPPORTED_FORMAT with a message if not) and
// builds its tables now (texdec_prepare of a buffer variant).
texdec_status prepare(Backend& backend, const texdec_context* ctx, const JobPlan& plan);

}  // namespace texdec::cpu

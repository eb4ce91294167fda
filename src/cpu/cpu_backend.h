// The CPU backend as the rest of the library sees it: one implementation of the backend seam
// (backend.h), created by texdec_context_create for TEXDEC_BACKEND_CPU (or AUTO without a GPU).
// It reads nothing of the context but its message callback (report.h) and its task pool. Internal.
#pragma once
#include <texdec/texdec.h>

#include <cstddef>
#include <cstdint>

#include "backend.h"
#include "task_pool.h"

namespace texdec::cpu {

// The most cpu_threads a texdec_backend_info may ask for (texdec.h); 0 (the hardware's count) is
// capped to it too.
constexpr uint32_t kMaxCpuThreads = 1024;

// Sets up the context's task pool (cpu_threads - 1 threads started now, or the caller's run_tasks
// hook and no thread) and makes the backend, which decodes on it. Fills `name`
// (texdec_context_device_name) with at most name_size bytes. OUT_OF_MEMORY if a thread cannot be
// started (none is left running).
texdec_status create_backend(const texdec_backend_info& info, TaskPool& tasks, Backend** out, char* name,
                             size_t name_size);

}  // namespace texdec::cpu

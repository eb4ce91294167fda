// The context's task pool: runs task(task_data, i) for i in [0, count) on the context's threads
// (the calling thread takes part) or through the caller's run_tasks hook (texdec.h). One pool per
// context serves whichever backend it has: the CPU backend's decodes and the GPU backend's
// one-call host copies. Internal.
#pragma once
#include <texdec/texdec.h>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

struct texdec_context;

namespace texdec {

class TaskPool {
public:
    TaskPool() = default;
    TaskPool(const TaskPool&) = delete;
    TaskPool& operator=(const TaskPool&) = delete;
    ~TaskPool();  // joins the threads

    // One of the three, once, before the first run:
    // - start: `threads` (the caller's included) at once; false (and no thread left running) if
    //   one cannot be started. The CPU backend's threads (cpu_threads).
    // - start_on_first_use: `threads` (the caller's included), started by the first run of more
    //   than one task; where fewer start, fewer work (still correct). The one-call path's copy
    //   threads (TEXDEC_DEBUG_COPY_THREADS).
    // - use_hook: every run goes through the caller's run_tasks hook; no thread is started.
    //   `threads` is what the work is cut for (texdec_backend_info::cpu_threads).
    bool start(uint32_t threads);
    void start_on_first_use(uint32_t threads);
    void use_hook(texdec_run_tasks_function hook, void* user_data, uint32_t threads);

    // Threads (the caller's included) a run is cut for; with a hook, the hook's width.
    uint32_t threads() const { return threads_; }
    bool hooked() const { return hook_ != nullptr; }

    // Runs task(task_data, i) for i in [0, count) and returns when all have returned. Thread-safe:
    // concurrent runs share the threads. With the caller's hook: INVALID_ARGUMENT (a message
    // through ctx naming run_tasks) where it called an index outside [0, count) or one twice
    // (those calls are ignored), or returned with tasks not run; OUT_OF_MEMORY if its task table
    // cannot be allocated. Without a hook it always succeeds.
    texdec_status run(const texdec_context* ctx, uint32_t count, texdec_task_function task, void* task_data);

private:
    struct Batch;
    void work_loop();
    void start_lazily();
    void stop();
    texdec_status run_hooked(const texdec_context* ctx, uint32_t count, texdec_task_function task, void* task_data);

    uint32_t threads_ = 1;
    bool lazy_ = false;  // start_on_first_use: threads not started yet (guarded by mutex_)
    texdec_run_tasks_function hook_ = nullptr;
    void* hook_user_data_ = nullptr;

    // Batches waiting for help; every thread takes the oldest with tasks left.
    std::mutex mutex_;
    std::condition_variable work_ready_;     // a batch was queued, or stopping
    std::condition_variable batch_settled_;  // a batch's last task finished or a holder left it
    std::deque<Batch*> queue_;
    bool stopping_ = false;
    std::vector<std::thread> workers_;
};

}  // namespace texdec

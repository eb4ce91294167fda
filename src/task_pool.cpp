// The context's task pool (task_pool.h). A run is a batch on the calling thread's stack, queued
// for the pool's threads; the caller works on it too and returns when every task has run and no
// pool thread still holds it. With the caller's run_tasks hook the batch goes to the hook instead,
// through a wrapper that checks the hook keeps its contract (texdec.h, texdec_run_tasks_function).
#include "task_pool.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <new>

#include "report.h"

namespace texdec {

struct TaskPool::Batch {
    texdec_task_function task = nullptr;
    void* task_data = nullptr;
    uint32_t count = 0;
    std::atomic<uint32_t> next{0};  // the next task index to claim
    std::atomic<uint32_t> done{0};  // tasks finished
    uint32_t holders = 0;           // pool threads working on it (guarded by the pool mutex)
};

namespace {

// Runs claimed tasks of a batch until none is left.
template <class Batch>
void work_on(Batch& b) {
    for (uint32_t i; (i = b.next.fetch_add(1, std::memory_order_relaxed)) < b.count;) {
        b.task(b.task_data, i);
        b.done.fetch_add(1, std::memory_order_acq_rel);
    }
}

// One run as a caller's hook sees it: the hook calls `hooked_task`, which checks the index, runs
// each task at most once and counts what ran, so that a hook that breaks its contract can neither
// make a task read or write outside its work nor make the call succeed with tasks left undone.
struct HookedBatch {
    texdec_task_function task = nullptr;
    void* task_data = nullptr;
    uint32_t count = 0;
    std::unique_ptr<std::atomic<uint64_t>[]> started;  // a bit per task: claimed by a call
    std::atomic<uint32_t> done{0};                     // tasks that ran (each once)
    std::atomic<uint32_t> out_of_range{0}, repeated{0};
    std::atomic<uint32_t> first_out_of_range{UINT32_MAX}, first_repeated{UINT32_MAX};
};

void hooked_task(void* data, uint32_t index) {
    auto& b = *static_cast<HookedBatch*>(data);
    if (index >= b.count) {
        uint32_t none = UINT32_MAX;
        b.first_out_of_range.compare_exchange_strong(none, index, std::memory_order_relaxed);
        b.out_of_range.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    const uint64_t bit = uint64_t(1) << (index % 64);
    if (b.started[index / 64].fetch_or(bit, std::memory_order_relaxed) & bit) {
        uint32_t none = UINT32_MAX;
        b.first_repeated.compare_exchange_strong(none, index, std::memory_order_relaxed);
        b.repeated.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    b.task(b.task_data, index);
    b.done.fetch_add(1, std::memory_order_acq_rel);
}

}  // namespace

TaskPool::~TaskPool() { stop(); }

void TaskPool::stop() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    work_ready_.notify_all();
    for (std::thread& t : workers_) t.join();
    workers_.clear();
}

bool TaskPool::start(uint32_t threads) {
    threads_ = std::max(threads, 1u);
    try {
        workers_.reserve(threads_ - 1);
        for (uint32_t i = 1; i < threads_; ++i) workers_.emplace_back([this] { work_loop(); });
    } catch (...) {  // std::system_error (no more threads) or bad_alloc
        stop();
        stopping_ = false;
        return false;
    }
    return true;
}

void TaskPool::start_on_first_use(uint32_t threads) {
    threads_ = std::max(threads, 1u);
    lazy_ = threads_ > 1;
}

void TaskPool::use_hook(texdec_run_tasks_function hook, void* user_data, uint32_t threads) {
    threads_ = std::max(threads, 1u);
    hook_ = hook;
    hook_user_data_ = user_data;
}

// Under mutex_: the threads start_on_first_use asked for, as many as can be started.
void TaskPool::start_lazily() {
    lazy_ = false;
    try {
        while (workers_.size() + 1 < threads_) workers_.emplace_back([this] { work_loop(); });
    } catch (...) {  // std::system_error: fewer threads, still correct
    }
}

void TaskPool::work_loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        work_ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (stopping_) return;
        Batch* b = queue_.front();
        ++b->holders;
        lock.unlock();
        work_on(*b);
        lock.lock();
        // Every task is claimed: nobody else needs to find it here.
        if (!queue_.empty() && queue_.front() == b) queue_.pop_front();
        --b->holders;
        batch_settled_.notify_all();
    }
}

texdec_status TaskPool::run(const texdec_context* ctx, uint32_t count, texdec_task_function task, void* task_data) {
    if (hook_) return run_hooked(ctx, count, task, task_data);
    auto alone = [&] {
        for (uint32_t i = 0; i < count; ++i) task(task_data, i);
        return TEXDEC_SUCCESS;
    };
    if (count <= 1) return alone();
    Batch b;
    b.task = task;
    b.task_data = task_data;
    b.count = count;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (lazy_) start_lazily();
        if (workers_.empty()) return alone();
        queue_.push_back(&b);
    }
    work_ready_.notify_all();
    work_on(b);  // the calling thread takes part
    std::unique_lock<std::mutex> lock(mutex_);
    // Once every task is claimed, remove it if no pool thread did; then wait for the holders
    // (they may still be running their last task).
    if (auto it = std::find(queue_.begin(), queue_.end(), &b); it != queue_.end()) queue_.erase(it);
    batch_settled_.wait(lock, [&] { return b.holders == 0 && b.done.load(std::memory_order_acquire) == b.count; });
    return TEXDEC_SUCCESS;
}

texdec_status TaskPool::run_hooked(const texdec_context* ctx, uint32_t count, texdec_task_function task,
                                   void* task_data) {
    HookedBatch b;
    b.task = task;
    b.task_data = task_data;
    b.count = count;
    const uint32_t words = (count + 63) / 64;
    b.started.reset(new (std::nothrow) std::atomic<uint64_t>[words]);
    if (!b.started)
        return report(ctx, TEXDEC_ERROR_OUT_OF_MEMORY, TEXDEC_MESSAGE_ERROR,
                      "out of host memory for the CPU backend's task table");
    for (uint32_t i = 0; i < words; ++i) b.started[i].store(0, std::memory_order_relaxed);
    hook_(hook_user_data_, count, hooked_task, &b);
    const uint32_t done = b.done.load(std::memory_order_acquire);
    const uint32_t out_of_range = b.out_of_range.load(std::memory_order_relaxed);
    const uint32_t repeated = b.repeated.load(std::memory_order_relaxed);
    // The hook is a CPU backend option (texdec_backend_info), so the messages name it so.
    if (out_of_range)
        return report(ctx, TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                      "the CPU backend's run_tasks hook called a task with index %u (%u such call%s), outside "
                      "[0, %u): ignored; %u of %u tasks ran, the texels are incomplete",
                      b.first_out_of_range.load(std::memory_order_relaxed), out_of_range, out_of_range == 1 ? "" : "s",
                      count, done, count);
    if (repeated)
        return report(ctx, TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                      "the CPU backend's run_tasks hook called task %u more than once (%u repeated call%s, "
                      "ignored); it must run each task once",
                      b.first_repeated.load(std::memory_order_relaxed), repeated, repeated == 1 ? "" : "s");
    if (done != count)
        return report(ctx, TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                      "the CPU backend's run_tasks hook returned with %u of %u tasks not run (it must run "
                      "every task before it returns); the texels are incomplete",
                      count - done, count);
    return TEXDEC_SUCCESS;
}

}  // namespace texdec

// The CPU backend's driver: cuts a checked one-call job into tasks of block rows, runs them on the
// context's threads (or the caller's task hook), and for each run of up to kMaxRunBlocks blocks
// calls the family's decoder into a scratch tile, then copies the texels inside the extent into
// the job's layout. The decoders (cpu_decoders.h) never see the destination, so no decoder can
// write outside it; the copy is the only writer of job.dst.
#include "cpu/cpu_backend.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <thread>
#include <tuple>
#include <type_traits>
#include <vector>

#include "cpu/cpu_decoders.h"
#include "job.h"
#include "report.h"

namespace texdec::cpu {
namespace {

uint64_t now_ns() {
    return uint64_t(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
}

// One texdec_decode's tasks, shared by the threads that work on it. Lives on the calling thread's
// stack: the caller returns only when every task has run and no pool thread still holds it.
struct Batch {
    texdec_task_function task = nullptr;
    void* task_data = nullptr;
    uint32_t count = 0;
    std::atomic<uint32_t> next{0};  // the next task index to claim
    std::atomic<uint32_t> done{0};  // tasks finished
    uint32_t holders = 0;           // pool threads working on it (guarded by the pool mutex)
};

// One texdec_decode's tasks as a caller's run_tasks hook sees them: the hook calls
// `hooked_task`, which checks the index, runs each task at most once and counts what ran, so that
// a hook that breaks its contract (texdec.h, texdec_run_tasks_function) can neither make a
// decoder read or write outside the job nor make the call succeed with tasks left undone.
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

// Runs claimed tasks of `b` until none is left; returns how many this thread ran.
void work_on(Batch& b) {
    for (uint32_t i; (i = b.next.fetch_add(1, std::memory_order_relaxed)) < b.count;) {
        b.task(b.task_data, i);
        b.done.fetch_add(1, std::memory_order_acq_rel);
    }
}

}  // namespace

struct Backend {
    uint32_t threads = 1;  // decoding one call, the caller's included
    texdec_run_tasks_function run_tasks = nullptr;
    void* run_tasks_user_data = nullptr;

    // The pool: batches waiting for help; every thread takes the oldest with tasks left.
    std::mutex mutex;
    std::condition_variable work_ready;     // a batch was queued, or stopping
    std::condition_variable batch_settled;  // a batch's last task finished or a holder left it
    std::deque<Batch*> queue;
    bool stopping = false;
    std::vector<std::thread> pool;

    // Tables the decoders build (FamilyDecoder::make_tables), once per context and key.
    std::mutex tables_mutex;
    std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, bool>, std::shared_ptr<const void>>
        tables;

    void pool_thread() {
        std::unique_lock<std::mutex> lock(mutex);
        for (;;) {
            work_ready.wait(lock, [&] { return stopping || !queue.empty(); });
            if (stopping) return;
            Batch* b = queue.front();
            ++b->holders;
            lock.unlock();
            work_on(*b);
            lock.lock();
            // Every task is claimed: nobody else needs to find it here.
            if (!queue.empty() && queue.front() == b) queue.pop_front();
            --b->holders;
            batch_settled.notify_all();
        }
    }

    // Runs task(task_data, i) for i in [0, count) and returns when all have returned. With the
    // caller's hook: INVALID_ARGUMENT (a message naming run_tasks) where it called a task index
    // outside [0, count) or one twice (those calls are ignored), or returned with tasks not run.
    texdec_status run(const texdec_context* ctx, uint32_t count, texdec_task_function task, void* task_data) {
        if (run_tasks) return run_hooked(ctx, count, task, task_data);
        if (pool.empty() || count == 1) {
            for (uint32_t i = 0; i < count; ++i) task(task_data, i);
            return TEXDEC_SUCCESS;
        }
        Batch b;
        b.task = task;
        b.task_data = task_data;
        b.count = count;
        {
            std::lock_guard<std::mutex> lock(mutex);
            queue.push_back(&b);
        }
        work_ready.notify_all();
        work_on(b);  // the calling thread takes part
        std::unique_lock<std::mutex> lock(mutex);
        // Once every task is claimed, remove it if no pool thread did; then wait for the
        // holders (they may still be running their last task).
        if (auto it = std::find(queue.begin(), queue.end(), &b); it != queue.end()) queue.erase(it);
        batch_settled.wait(lock, [&] { return b.holders == 0 && b.done.load(std::memory_order_acquire) == b.count; });
        return TEXDEC_SUCCESS;
    }

    texdec_status run_hooked(const texdec_context* ctx, uint32_t count, texdec_task_function task, void* task_data) {
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
        run_tasks(run_tasks_user_data, count, hooked_task, &b);
        const uint32_t done = b.done.load(std::memory_order_acquire);
        const uint32_t out_of_range = b.out_of_range.load(std::memory_order_relaxed);
        const uint32_t repeated = b.repeated.load(std::memory_order_relaxed);
        if (out_of_range)
            return report(ctx, TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                          "the CPU backend's run_tasks hook called a task with index %u (%u such call%s), outside "
                          "[0, %u): ignored; %u of %u tasks ran, the texels are incomplete",
                          b.first_out_of_range.load(std::memory_order_relaxed), out_of_range,
                          out_of_range == 1 ? "" : "s", count, done, count);
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
};

texdec_status create_backend(const texdec_backend_info& info, Backend** out, char* name, size_t name_size) {
    *out = nullptr;
    auto backend = std::unique_ptr<Backend>(new (std::nothrow) Backend);
    if (!backend) return TEXDEC_ERROR_OUT_OF_MEMORY;
    const uint32_t hardware = std::clamp(std::thread::hardware_concurrency(), 1u, uint32_t(kMaxCpuThreads));
    backend->threads = info.cpu_threads ? info.cpu_threads : hardware;  // checked: at most kMaxCpuThreads
    backend->run_tasks = info.run_tasks;
    backend->run_tasks_user_data = info.run_tasks_user_data;
    if (!backend->run_tasks) {
        try {
            backend->pool.reserve(backend->threads - 1);
            for (uint32_t i = 1; i < backend->threads; ++i)
                backend->pool.emplace_back([b = backend.get()] { b->pool_thread(); });
        } catch (...) {  // std::system_error (no more threads) or bad_alloc
            destroy_backend(backend.release());
            return TEXDEC_ERROR_OUT_OF_MEMORY;
        }
    }
    if (backend->run_tasks) std::snprintf(name, name_size, "CPU backend, caller's tasks (%u-way)", backend->threads);
    else std::snprintf(name, name_size, "CPU backend, %u thread%s", backend->threads, backend->threads == 1 ? "" : "s");
    *out = backend.release();
    return TEXDEC_SUCCESS;
}

void destroy_backend(Backend* backend) {
    if (!backend) return;
    {
        std::lock_guard<std::mutex> lock(backend->mutex);
        backend->stopping = true;
    }
    backend->work_ready.notify_all();
    for (std::thread& t : backend->pool) t.join();
    delete backend;
}

const FamilyDecoder* family_decoder(texdec_family family) {
    // Indexed by texdec_family: a new family adds its row here (and its decoder file).
    static constexpr const FamilyDecoder* kDecoders[] = {
        &kBc1_3Decoder,  // TEXDEC_FAMILY_BC1_3
        &kBc4_5Decoder,  // TEXDEC_FAMILY_BC4_5
        &kBc6hDecoder,   // TEXDEC_FAMILY_BC6H
        &kBc7Decoder,    // TEXDEC_FAMILY_BC7
        &kEtc2Decoder,   // TEXDEC_FAMILY_ETC2
        &kEacDecoder,    // TEXDEC_FAMILY_EAC
        &kAstcDecoder,   // TEXDEC_FAMILY_ASTC
    };
    static_assert(std::size(kDecoders) == TEXDEC_FAMILY_ASTC + 1, "one CPU decoder per texdec_family");
    return uint32_t(family) < std::size(kDecoders) ? kDecoders[family] : nullptr;
}

namespace {

Variant make_variant(const JobPlan& plan) {
    const FormatEntry& f = *plan.format;
    Variant v{};
    v.format = &f;
    v.variant = f.shader_variant;
    v.is_signed = (f.flags & TEXDEC_FORMAT_FLAG_SIGNED) != 0;
    v.store = plan.output.store_kind;
    v.texel_bytes = plan.output.texel_bytes;
    v.rounding = plan.rounding;
    v.srgb = srgb_constant(f, plan.output.store_kind);
    return v;
}

// The family's decoder with its tables for this variant (built on first use).
texdec_status find_decoder(Backend& b, const texdec_context* ctx, Variant* v, const FamilyDecoder** decoder) {
    const FamilyDecoder* d = family_decoder(v->format->family);
    if (!d || !d->decode)
        return report(ctx, TEXDEC_ERROR_UNSUPPORTED_FORMAT, TEXDEC_MESSAGE_ERROR,
                      "format %s has no CPU decoder in this build (use a GPU context)", v->format->name);
    *decoder = d;
    if (!d->make_tables) return TEXDEC_SUCCESS;
    const FormatEntry& f = *v->format;
    const auto key = std::make_tuple(uint32_t(f.family), uint32_t(f.block_width), uint32_t(f.block_height),
                                     uint32_t(f.block_depth), v->variant, v->store, v->srgb);
    std::lock_guard<std::mutex> lock(b.tables_mutex);
    auto it = b.tables.find(key);
    if (it == b.tables.end()) {
        std::shared_ptr<const void> made;
        try {
            made = d->make_tables(*v);
        } catch (...) {}
        if (!made)
            return report(ctx, TEXDEC_ERROR_OUT_OF_MEMORY, TEXDEC_MESSAGE_ERROR,
                          "out of host memory for the CPU decoder's tables of %s", f.name);
        it = b.tables.emplace(key, std::move(made)).first;
    }
    v->tables = it->second.get();
    return TEXDEC_SUCCESS;
}

// What every task of one decode reads.
struct DecodeWork {
    const FamilyDecoder* decoder;
    Variant variant;
    const JobPlan* plan;
    const uint8_t* src;
    uint8_t* dst;
    uint64_t rows;   // block rows in all: blocks_y * blocks_z
    uint32_t tasks;  // rows are dealt out in this many contiguous ranges
    std::atomic<bool> out_of_memory{false};
};

// Decodes block rows [first, end) of the job (row r = block row r % blocks_y of block slice
// r / blocks_y).
void decode_rows(DecodeWork& w, uint64_t first, uint64_t end) {
    const JobPlan& p = *w.plan;
    const FormatEntry& f = *p.format;
    const uint32_t bw = f.block_width, bh = f.block_height, bd = f.block_depth, tb = w.variant.texel_bytes;
    // The scratch tile of one run: kMaxRunBlocks blocks side by side.
    const size_t row_pitch = size_t(kMaxRunBlocks) * bw * tb;
    const size_t slice_pitch = row_pitch * bh;
    std::unique_ptr<uint8_t[]> storage(new (std::nothrow) uint8_t[slice_pitch * bd + 15]);
    if (!storage) {
        w.out_of_memory.store(true);
        return;
    }
    uint8_t* tile = storage.get() + ((16 - reinterpret_cast<uintptr_t>(storage.get()) % 16) % 16);
    alignas(16) uint8_t gathered[kMaxRunBlocks * 16];  // a block-linear run's blocks, side by side
    for (uint64_t r = first; r < end; ++r) {
        const uint64_t by = r % p.blocks_y, bz = r / p.blocks_y;
        // A block-linear block's address is its row's (x = 0) plus a part that depends on x alone
        // (texdec.h "source layouts"; a host job's plan starts at the surface's origin).
        const uint8_t* src_row = w.src + (p.block_linear ? surface_block_offset(p, 0, by, bz)
                                                         : bz * p.src_slice_bytes + by * p.src_row_bytes);
        // Texel rows and slices of this block row inside the extent.
        const uint64_t y0 = by * bh, z0 = bz * bd;
        const uint32_t rows_in = uint32_t(std::min<uint64_t>(bh, p.height - y0));
        const uint32_t slices_in = uint32_t(std::min<uint64_t>(bd, p.depth - z0));
        for (uint64_t bx = 0; bx < p.blocks_x; bx += kMaxRunBlocks) {
            BlockRun run;
            run.count = uint32_t(std::min<uint64_t>(kMaxRunBlocks, p.blocks_x - bx));
            if (!p.block_linear) {
                run.blocks = src_row + bx * f.bytes_per_block;
            } else {  // a row's blocks are 8- or 16-byte pieces spread over GOBs: gather them
                const uint32_t column_shift = 9 + p.gob_height_log2 + p.gob_depth_log2;
                auto gather = [&](auto block_bytes) {  // a constant size, so that the copies inline
                    for (uint32_t i = 0; i < run.count; ++i) {
                        const uint64_t xb = (bx + i) * block_bytes;
                        const uint64_t x_part = gob_x_offset(xb, column_shift);
                        std::memcpy(gathered + i * block_bytes, src_row + x_part, block_bytes);
                    }
                };
                if (f.bytes_per_block == 8) gather(std::integral_constant<uint64_t, 8>{});
                else gather(std::integral_constant<uint64_t, 16>{});
                run.blocks = gathered;
            }
            run.texels = tile;
            run.row_pitch = row_pitch;
            run.slice_pitch = slice_pitch;
            w.decoder->decode(w.variant, run);
            const uint64_t x0 = bx * bw;
            const size_t row_bytes = size_t(std::min<uint64_t>(uint64_t(run.count) * bw, p.width - x0)) * tb;
            for (uint32_t z = 0; z < slices_in; ++z)
                for (uint32_t y = 0; y < rows_in; ++y)
                    std::memcpy(w.dst + (z0 + z) * p.dst_slice_pitch + (y0 + y) * p.dst_row_pitch + x0 * tb,
                                tile + z * slice_pitch + y * row_pitch, row_bytes);
        }
    }
}

void decode_task(void* data, uint32_t index) {
    auto& w = *static_cast<DecodeWork*>(data);
    decode_rows(w, w.rows * index / w.tasks, w.rows * (uint64_t(index) + 1) / w.tasks);
}

}  // namespace

texdec_status prepare(Backend& backend, const texdec_context* ctx, const JobPlan& plan) {
    Variant v = make_variant(plan);
    const FamilyDecoder* decoder = nullptr;
    return find_decoder(backend, ctx, &v, &decoder);
}

texdec_status decode(Backend& backend, const texdec_context* ctx, const texdec_host_job& job, const JobPlan& plan,
                     texdec_decode_timing* timing, uint64_t start_ns) {
    static_assert(sizeof(size_t) >= sizeof(uint64_t), "the CPU backend addresses jobs with 64-bit sizes");
    DecodeWork w;
    w.variant = make_variant(plan);
    if (texdec_status s = find_decoder(backend, ctx, &w.variant, &w.decoder); s != TEXDEC_SUCCESS) return s;
    w.plan = &plan;
    w.src = static_cast<const uint8_t*>(job.src);
    w.dst = static_cast<uint8_t*>(job.dst);
    w.rows = plan.blocks_y * plan.blocks_z;
    // Several ranges per thread, so that a thread that finishes early (or started late) takes
    // another; never more ranges than rows.
    const Backend& b = backend;
    const uint64_t wanted = b.threads == 1 && !b.run_tasks ? 1 : uint64_t(b.threads) * 4;
    w.tasks = uint32_t(std::min<uint64_t>(w.rows, wanted));
    const uint64_t decode_start = timing ? now_ns() : 0;
    if (texdec_status s = backend.run(ctx, w.tasks, decode_task, &w); s != TEXDEC_SUCCESS) return s;
    if (w.out_of_memory.load())
        return report(ctx, TEXDEC_ERROR_OUT_OF_MEMORY, TEXDEC_MESSAGE_ERROR,
                      "out of host memory for the CPU backend's scratch tile");
    if (timing) {
        const uint64_t end = now_ns();
        *timing = texdec_decode_timing{};
        timing->prepare_ns = decode_start - start_ns;
        timing->submit_wait_ns = end - decode_start;
        timing->total_ns = end - start_ns;
    }
    return TEXDEC_SUCCESS;
}

}  // namespace texdec::cpu

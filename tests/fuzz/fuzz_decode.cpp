// libFuzzer target of the decoders and the one-call path's job checks: the input is a random
// texdec_decode job and its blocks (decode_jobs.h says how the bytes pick the job), decoded on a
// CPU-backend context (one thread, two threads, or a run_tasks hook that runs the tasks last to
// first, as the input picks) with every check of decode_jobs.h: statuses and messages,
// texdec_decode_scratch_size, a model of the job's rules and sizes, untouched padding, and the
// texels against a tight linear decode of the same blocks. A broken check aborts (a crash with
// the input saved); AddressSanitizer sees any access outside the exact-size source and
// destination. Bounded work: jobs over 32 K texels must be refused (their destination is short).
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <utility>

#include <texdec/texdec.h>

#include "decode_jobs.h"

namespace {

struct Errors {
    std::mutex mutex;
    std::string text;
};

void on_message(texdec_message_severity severity, const char* message, void* user_data) {
    if (severity != TEXDEC_MESSAGE_ERROR) return;
    auto* errors = static_cast<Errors*>(user_data);
    std::lock_guard<std::mutex> lock(errors->mutex);
    errors->text += errors->text.empty() ? "" : " | ";
    errors->text += message ? message : "(null message)";
}

// The run_tasks hook: every task on the calling thread, last to first.
void run_backwards(void*, uint32_t count, texdec_task_function task, void* data) {
    for (uint32_t i = count; i-- > 0;) task(data, i);
}

struct CpuContext {
    texdec_context* context = nullptr;
    Errors errors;
};

CpuContext& cpu_context(uint32_t choice) {
    static CpuContext contexts[3];
    CpuContext& c = contexts[choice];
    if (!c.context) {
        texdec_backend_info backend = {
            TEXDEC_STRUCTURE_TYPE_BACKEND_INFO, nullptr, TEXDEC_BACKEND_CPU, choice == 1 ? 2u : 1u, nullptr, nullptr};
        if (choice == 2) backend.cpu_threads = 2, backend.run_tasks = run_backwards;
        texdec_context_create_info info = {};
        info.next = &backend;
        info.message_callback = on_message;
        info.user_data = &c.errors;
        if (texdec_context_create(&info, &c.context) != TEXDEC_SUCCESS) {
            std::fprintf(stderr, "fuzz_decode: no CPU context\n");
            std::abort();
        }
    }
    return c;
}

// How the jobs ended, printed when the process exits (run_fuzzers.sh shows it): how many decoded
// and which refusals, so a change that makes most jobs fail early shows.
std::atomic<uint64_t> g_outcomes[TEXDEC_ERROR_WRONG_BACKEND + 1];

void print_outcomes() {
    uint64_t total = 0;
    for (const auto& n : g_outcomes) total += n;
    if (!total) return;
    std::fprintf(stderr, "fuzz_decode: %llu jobs:", (unsigned long long)total);
    for (uint32_t s = 0; s <= TEXDEC_ERROR_WRONG_BACKEND; ++s)
        if (g_outcomes[s]) {
            std::fprintf(stderr, " %s %.1f%%", texdec_status_string(texdec_status(s)),
                         100.0 * double(g_outcomes[s]) / double(total));
        }
    std::fprintf(stderr, "\n");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    texdec_fuzz::DecodeCase job({data, size});
    CpuContext& c = cpu_context(job.cpu_context_choice());
    static const bool registered = std::atexit(print_outcomes) == 0;
    (void)registered;
    texdec_fuzz::DecodeOutcome outcome;
    const std::string broken = job.run_and_check(
        c.context,
        [&c] {
            std::lock_guard<std::mutex> lock(c.errors.mutex);
            return std::exchange(c.errors.text, std::string());
        },
        &outcome);
    if (!broken.empty()) {
        std::fprintf(stderr, "fuzz_decode: %s\n", broken.c_str());
        std::abort();
    }
    if (uint32_t(outcome.status) <= TEXDEC_ERROR_WRONG_BACKEND) ++g_outcomes[outcome.status];
    return 0;
}

// fuzz_decode's jobs on a GPU context (lavapipe in CI) and a CPU context ([fuzz-decode]): the
// "short run of the decoder fuzzer on the GPU", as a deterministic ctest case rather than a
// libFuzzer target, so that it runs in every ctest stage with the validation layer on, and a
// failure names a job that fails again on every run. tests/fuzz/decode_jobs.h makes the jobs
// (from fixed pseudo-random bytes here; from the fuzzer's input in fuzz_decode) and checks each
// decode (statuses, messages, texdec_decode_scratch_size, its model of the rules and sizes,
// untouched padding, texels against a tight linear decode on the same context). On top of that:
// both contexts give the same status and every byte of dst_size the same (texdec.h "backends"),
// except that the GPU may refuse with SIZE_OVERFLOW a job whose block row needs more than the
// smallest maxStorageBufferRange Vulkan allows (texdec.h, TEXDEC_ERROR_SIZE_OVERFLOW).
//
//   decode fuzz jobs: every format's seed job agrees on GPU and CPU      fuzz_decode's seeds (a valid
//       job of every format, linear and block-linear);
//   decode fuzz jobs: pseudo-random jobs agree on GPU and CPU           kRandomJobs jobs from
//       pseudo_random_job_input(kFirstSeed + i): any format (or none), output, rounding, extents
//       (0 and huge ones too), row lengths, image heights, pitches, block-linear layouts, short
//       and long sources and destinations, unaligned pointers.
//   decode fuzz jobs: a longer run from --rng-seed (hidden: [.fuzz-decode-long])   kLongRunJobs
//       jobs from seed 1,000,000 x Catch2's --rng-seed on, to search further by hand:
//       `texdec_tests "[.fuzz-decode-long]" --rng-seed 7`. Known finding (reported, library code):
//       on a GPU context texdec_decode_scratch_size answers SUCCESS for jobs that texdec_decode
//       refuses with SIZE_OVERFLOW (a block row over maxStorageBufferRange); seeds 1-5 each meet
//       one to six such jobs, so this case fails until that is fixed.
// A failing job's input is written to decode-fuzz-job-<seed>.bin in the working directory:
// `build-fuzz/tests/fuzz/fuzz_decode decode-fuzz-job-<seed>.bin` replays it on the CPU backend.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/decode_jobs.h"
#include "gpu/gpu_fixture.h"

using namespace texdec_test;

namespace {

constexpr uint64_t kFirstSeed = 3500;
constexpr uint32_t kRandomJobs = 400;
constexpr uint32_t kLongRunJobs = 5000;

texdec_fuzz::TakeErrors errors_of(OwnContext& context) {
    return [&context] {
        std::string all;
        for (const std::string& e : context.log().take_errors()) all += (all.empty() ? "" : " | ") + e;
        return all;
    };
}

std::string save_input(const std::string& name, const std::vector<uint8_t>& input) {
    std::ofstream out(name, std::ios::binary);
    out.write(reinterpret_cast<const char*>(input.data()), std::streamsize(input.size()));
    return out ? name : "(could not write " + name + ")";
}

struct Counts {
    uint32_t jobs = 0, decoded = 0, block_linear_decoded = 0;
};

// The job on both contexts, each decode checked; then the two outcomes compared.
void run_on_both(OwnContext& gpu, OwnContext& cpu, const std::vector<uint8_t>& input, const std::string& name,
                 Counts& counts) {
    texdec_fuzz::DecodeCase job(input);
    texdec_fuzz::DecodeOutcome on_gpu, on_cpu;
    const std::string cpu_broken = job.run_and_check(cpu.get(), errors_of(cpu), &on_cpu);
    const std::string gpu_broken = job.run_and_check(gpu.get(), errors_of(gpu), &on_gpu);
    check_no_validation_messages(gpu.log(), name.c_str());
    ++counts.jobs;
    std::string problem;
    if (!cpu_broken.empty()) problem = "CPU context: " + cpu_broken;
    else if (!gpu_broken.empty()) problem = "GPU context: " + gpu_broken;
    else if (on_gpu.status != on_cpu.status && !(on_gpu.status == TEXDEC_ERROR_SIZE_OVERFLOW &&
                                                 on_cpu.status == TEXDEC_SUCCESS && job.gpu_may_refuse_row()))
        problem = std::string("GPU says ") + texdec_status_string(on_gpu.status) + ", CPU " +
                  texdec_status_string(on_cpu.status) + "; job: " + job.describe();
    else if (on_gpu.status == TEXDEC_SUCCESS && on_gpu.dst != on_cpu.dst) {
        size_t i = 0;
        while (on_gpu.dst[i] == on_cpu.dst[i]) ++i;
        problem = "dst byte " + std::to_string(i) + ": GPU " + std::to_string(on_gpu.dst[i]) + ", CPU " +
                  std::to_string(on_cpu.dst[i]) + "; job: " + job.describe();
    }
    if (!problem.empty()) {
        FAIL_CHECK(name << ": " << problem << "\ninput saved as " << save_input(name + ".bin", input));
        return;
    }
    if (on_cpu.status == TEXDEC_SUCCESS) {
        ++counts.decoded;
        if (job.describe().find("layout{") != std::string::npos) ++counts.block_linear_decoded;
    }
}

// A job's fuzzer input, and the name its failure is reported and saved under.
struct NamedInput {
    std::vector<uint8_t> input;
    std::string name;
};

NamedInput pseudo_random_job(uint64_t seed) {
    return {texdec_fuzz::pseudo_random_job_input(seed), "decode-fuzz-job-" + std::to_string(seed)};
}

// run_on_both of job(0) ... job(count - 1) on a GPU and a CPU context of their own; the counts,
// or nothing when there is no GPU (the test stops: skipped).
template <class MakeJob>
std::optional<Counts> run_jobs(uint64_t count, MakeJob job) {
    auto gpu = OwnContext::open(Backend::gpu);
    if (!gpu) return std::nullopt;
    auto cpu = OwnContext::open(Backend::cpu);
    REQUIRE(cpu);
    Counts counts;
    for (uint64_t i = 0; i < count; ++i) {
        const NamedInput j = job(i);
        run_on_both(*gpu, *cpu, j.input, j.name, counts);
    }
    gpu->close_and_check();
    cpu->close_and_check();
    return counts;
}

}  // namespace

TEST_CASE("decode fuzz jobs: every format's seed job agrees on GPU and CPU", "[fuzz-decode]") {
    const std::vector<std::vector<uint8_t>> seeds = texdec_fuzz::decode_seed_inputs();
    const auto counts = run_jobs(seeds.size(), [&](uint64_t i) {
        return NamedInput{seeds[i], "decode-fuzz-seed-" + std::to_string(i)};
    });
    if (!counts) return;
    // Every seed is a valid job: all decode (block-linear: half of them).
    CHECK(counts->jobs == seeds.size());
    CHECK(counts->decoded == seeds.size());
    CHECK(counts->block_linear_decoded == seeds.size() / 2);
}

TEST_CASE("decode fuzz jobs: pseudo-random jobs agree on GPU and CPU", "[fuzz-decode]") {
    const auto counts = run_jobs(kRandomJobs, [](uint64_t i) { return pseudo_random_job(kFirstSeed + i); });
    if (!counts) return;
    // The generator still makes jobs that decode (212 of the 400 when this was written: every
    // other job keeps its fields valid), block-linear ones included (52), not only refusals.
    INFO(counts->decoded << " of " << counts->jobs << " jobs decoded, " << counts->block_linear_decoded
                         << " block-linear");
    CHECK(counts->decoded >= kRandomJobs * 2 / 5);
    CHECK(counts->block_linear_decoded >= kRandomJobs / 20);
}

TEST_CASE("decode fuzz jobs: a longer run from --rng-seed", "[.fuzz-decode-long]") {
    const uint64_t first = uint64_t(Catch::rngSeed()) * 1000000;
    const auto counts = run_jobs(kLongRunJobs, [&](uint64_t i) { return pseudo_random_job(first + i); });
    if (!counts) return;
    WARN(counts->decoded << " of " << counts->jobs << " jobs from seed " << first << " decoded, "
                         << counts->block_linear_decoded << " block-linear");
}

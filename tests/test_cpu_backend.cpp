// The CPU backend's own behaviour (texdec.h "backends"): creation (CPU, AUTO, no Vulkan loader),
// texdec_context_backend and the device name, cpu_threads and the run_tasks hook (every split of
// a job gives the GPU path's bytes), the calls that need a VkDevice (WRONG_BACKEND with a
// message), bad inputs (the same statuses as a GPU context), timing, scratch size, memory usage
// (0 in every field) and staging release. Its decoders' exactness is proved elsewhere: every one-call test mirrors
// its decodes on the CPU backend (tests/gpu/gpu_fixture.h), the family files
// tests/test_cpu_*.cpp compare random blocks, and test_threads.cpp runs concurrent calls ([threads]).
#include <catch2/catch.hpp>

#include <texdec/texdec.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gpu/gpu_fixture.h"
#include "support/compare.h"
#include "support/job_builder.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

// A context of the test's own (no OwnContext: the backend info is the test's subject).
struct Context {
    MessageLog log;
    texdec_context* ctx = nullptr;
    texdec_status status = TEXDEC_ERROR_INVALID_ARGUMENT;

    explicit Context(const texdec_backend_info* backend, uint32_t flags = 0) {
        texdec_context_create_info info{};
        info.next = backend;
        info.flags = flags;
        info.message_callback = [](texdec_message_severity severity, const char* m, void* user) {
            auto* log = static_cast<MessageLog*>(user);
            if (severity == TEXDEC_MESSAGE_ERROR) log->add_error(m ? m : "");
            if (severity == TEXDEC_MESSAGE_VALIDATION) log->add_validation(m ? m : "");
        };
        info.user_data = &log;
        status = texdec_context_create(&info, &ctx);
    }
    ~Context() {
        if (ctx) texdec_context_destroy(ctx);
    }
};

std::unique_ptr<Context> cpu_context(uint32_t threads = 0, texdec_run_tasks_function hook = nullptr,
                                     void* user = nullptr) {
    const texdec_backend_info b = backend_info(TEXDEC_BACKEND_CPU, threads, hook, user);
    auto c = std::make_unique<Context>(&b);
    INFO("errors: " << [&] {
        std::string all;
        for (const auto& e : c->log.take_errors()) all += e + "; ";
        return all;
    }());
    REQUIRE(c->status == TEXDEC_SUCCESS);
    REQUIRE(c->ctx != nullptr);
    REQUIRE(texdec_context_backend(c->ctx) == TEXDEC_BACKEND_CPU);
    return c;
}

std::string format_name(texdec_format format) {
    texdec_format_info info;
    REQUIRE(texdec_format_get_info(format, &info) == TEXDEC_SUCCESS);
    return info.name;
}

// One job of every family: odd extents, 2 slices, padded source rows and destination pitches,
// random bits (every bit pattern is a block: ASTC gives error blocks and some legal ones).
struct LayoutJob {
    texdec_format format;
    texdec_output output;
    uint32_t w = 203, h = 77, d = 2;
    std::vector<uint8_t> blocks;
    size_t row_pitch = 0, slice_pitch = 0, bytes = 0;

    LayoutJob(texdec_format f, texdec_output o, uint64_t seed) : format(f), output(o) {
        texdec_format_info info;
        REQUIRE(texdec_format_get_info(f, &info) == TEXDEC_SUCCESS);
        uint64_t size = 0;
        // Source rows 3 blocks longer than the extent, slices one block row taller.
        REQUIRE(texdec_encoded_size(f, row_length(), image_height(), d, &size) == TEXDEC_SUCCESS);
        blocks.resize(size);
        SplitMix64 rng(seed);
        for (uint8_t& b : blocks) b = uint8_t(rng.next());
        uint32_t texel = 0;
        REQUIRE(texdec_output_texel_size(f, o, &texel) == TEXDEC_SUCCESS);
        row_pitch = size_t(w) * texel + 12;
        slice_pitch = row_pitch * h + 20;
        bytes = slice_pitch * d;
    }
    uint32_t block_w() const {
        texdec_format_info info;
        texdec_format_get_info(format, &info);
        return info.block_width;
    }
    uint32_t block_h() const {
        texdec_format_info info;
        texdec_format_get_info(format, &info);
        return info.block_height;
    }
    uint32_t row_length() const { return (w + block_w() - 1) / block_w() * block_w() + 3 * block_w(); }
    uint32_t image_height() const { return (h + block_h() - 1) / block_h() * block_h() + block_h(); }
    texdec_host_job job(std::vector<uint8_t>& dst) const {
        return JobBuilder(format, output, w, h, d)
            .blocks(blocks)
            .texels(dst)
            .source_rows(row_length(), image_height())
            .pitches(row_pitch, slice_pitch);
    }
};

const std::vector<std::pair<texdec_format, texdec_output>>& family_cases() {
    static const std::vector<std::pair<texdec_format, texdec_output>> cases = {
        {TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8},    {TEXDEC_FORMAT_BC3_SRGB, TEXDEC_OUTPUT_RGBA16F},
        {TEXDEC_FORMAT_BC5_SNORM, TEXDEC_OUTPUT_NATIVE},        {TEXDEC_FORMAT_BC6H_SFLOAT, TEXDEC_OUTPUT_RGBA16F},
        {TEXDEC_FORMAT_BC7_UNORM, TEXDEC_OUTPUT_RGBA8},         {TEXDEC_FORMAT_ETC2_R8G8B8A8_SRGB, TEXDEC_OUTPUT_RGBA8},
        {TEXDEC_FORMAT_EAC_R11G11_SNORM, TEXDEC_OUTPUT_NATIVE}, {TEXDEC_FORMAT_ASTC_6x6_UNORM, TEXDEC_OUTPUT_RGBA8},
        {TEXDEC_FORMAT_ASTC_5x4_SFLOAT, TEXDEC_OUTPUT_RGBA16F},
    };
    return cases;
}

// texdec_decode on a CPU context; false (with a printed note) where TEXDEC_TEST_CPU_PARTIAL=1 lets
// a family without its CPU decoder pass.
bool cpu_decode(texdec_context* ctx, const texdec_host_job& job) {
    const texdec_status st = texdec_decode(ctx, &job);
    if (st == TEXDEC_ERROR_UNSUPPORTED_FORMAT && cpu_partial_allowed()) {
        std::printf("note: %s: no CPU decoder yet (TEXDEC_TEST_CPU_PARTIAL=1)\n", format_name(job.format).c_str());
        return false;
    }
    INFO(format_name(job.format) << ": " << texdec_status_string(st));
    REQUIRE(st == TEXDEC_SUCCESS);
    return true;
}

// Does AUTO find a GPU here? A device not of CPU type (lavapipe and SwiftShader are).
bool has_non_cpu_device() {
    bool found = false;
    texdec_enumerate_devices(
        [](uint32_t, const char*, VkPhysicalDeviceType type, uint32_t, void* user) {
            if (type != VK_PHYSICAL_DEVICE_TYPE_CPU) *static_cast<bool*>(user) = true;
        },
        &found);
    return found;
}

}  // namespace

TEST_CASE("CPU backend: creation, texdec_context_backend and the device name", "[cpu]") {
    for (uint32_t threads : {1u, 2u, 3u, 0u}) {
        INFO("cpu_threads " << threads);
        auto c = cpu_context(threads);
        const char* name = texdec_context_device_name(c->ctx);
        REQUIRE(name != nullptr);
        const std::string n = name;
        INFO("device name: " << n);
        CHECK(n.find("CPU") != std::string::npos);
        if (threads) CHECK(n.find(std::to_string(threads) + " thread") != std::string::npos);
        CHECK(c->log.take_errors().empty());
    }
    CHECK(texdec_context_backend(nullptr) == TEXDEC_BACKEND_MAX_ENUM);
    // The backend struct is checked like any chained struct: an unknown backend is refused.
    texdec_backend_info bad = backend_info(TEXDEC_BACKEND_CPU);
    bad.backend = texdec_backend(7);
    Context refused(&bad);
    CHECK(refused.status == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(refused.ctx == nullptr);
    CHECK(!refused.log.take_errors().empty());
    // A GPU context says GPU (OwnContext's chains TEXDEC_BACKEND_GPU, and so does this one).
    auto gpu = OwnContext::open(Backend::gpu);
    if (!gpu) return;
    CHECK(texdec_context_backend(gpu->get()) == TEXDEC_BACKEND_GPU);
    const texdec_backend_info explicit_gpu = backend_info(TEXDEC_BACKEND_GPU);
    Context g(&explicit_gpu, validation_context_flag());
    REQUIRE(g.status == TEXDEC_SUCCESS);
    CHECK(texdec_context_backend(g.ctx) == TEXDEC_BACKEND_GPU);
    CHECK(std::string(texdec_context_device_name(g.ctx)) == texdec_context_device_name(gpu->get()));
    gpu->close_and_check();
}

TEST_CASE("CPU backend: AUTO picks a GPU that is not of CPU type, else the CPU backend", "[cpu]") {
    const texdec_backend_info automatic = backend_info(TEXDEC_BACKEND_AUTO);
    Context c(&automatic, validation_context_flag());
    REQUIRE(c.status == TEXDEC_SUCCESS);
    const bool gpu = has_non_cpu_device();
    INFO("device: " << texdec_context_device_name(c.ctx) << "; a non-CPU Vulkan device: " << (gpu ? "yes" : "no"));
    // Where the only device is lavapipe (CI, this machine) AUTO must not take it.
    CHECK(texdec_context_backend(c.ctx) == (gpu ? TEXDEC_BACKEND_GPU : TEXDEC_BACKEND_CPU));
    const uint8_t block[8] = {0x00, 0xF8, 0x1F, 0x00, 0, 0, 0, 0};  // BC1: red everywhere
    std::vector<uint8_t> texels(64);
    const texdec_host_job job =
        JobBuilder(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8, 4, 4).blocks(block, 8).texels(texels);
    if (cpu_decode(c.ctx, job))
        for (size_t i = 0; i < 64; i += 4)
            CHECK((texels[i] == 255 && texels[i + 1] == 0 && texels[i + 2] == 0 && texels[i + 3] == 255));
    check_no_validation_messages(c.log, "AUTO context");
}

// texdec.h (since 1.5.0): without a texdec_backend_info, or with info NULL, a context is AUTO, as
// the CLI's default; an explicit GPU backend still takes a CPU-type device (lavapipe).
TEST_CASE("CPU backend: a zero-initialized create info means AUTO, explicit GPU takes any device", "[cpu][auto]") {
    const bool gpu = has_non_cpu_device();
    const texdec_backend expected = gpu ? TEXDEC_BACKEND_GPU : TEXDEC_BACKEND_CPU;
    INFO("a non-CPU Vulkan device: " << (gpu ? "yes" : "no"));
    Context zero(nullptr);  // texdec_context_create_info{} with no next
    REQUIRE(zero.status == TEXDEC_SUCCESS);
    CHECK(texdec_context_backend(zero.ctx) == expected);
    CHECK(zero.log.take_errors().empty());
    texdec_context* null_info = nullptr;
    REQUIRE(texdec_context_create(nullptr, &null_info) == TEXDEC_SUCCESS);
    CHECK(texdec_context_backend(null_info) == expected);
    texdec_context_destroy(null_info);
    texdec::Context defaults;
    REQUIRE(texdec::Context::create(defaults) == TEXDEC_SUCCESS);
    CHECK(defaults.backend() == expected);
    // Explicit GPU: a Vulkan device whatever its type (lavapipe on this machine and in CI).
    auto own = OwnContext::open(Backend::gpu);
    if (!own) return;
    const texdec_backend_info explicit_gpu = backend_info(TEXDEC_BACKEND_GPU);
    Context g(&explicit_gpu, validation_context_flag());
    REQUIRE(g.status == TEXDEC_SUCCESS);
    CHECK(texdec_context_backend(g.ctx) == TEXDEC_BACKEND_GPU);
    check_no_validation_messages(g.log, "explicit GPU context");
    own->close_and_check();
}

// Run by ctest with TEXDEC_DEBUG_VULKAN_LOADER naming a file that does not exist (tests/CMakeLists.txt):
// a machine without libvulkan. Hidden from the normal run, where the loader was loaded already.
TEST_CASE("CPU backend: without a Vulkan loader GPU gives NO_DEVICE, CPU and AUTO decode", "[.][no-loader]") {
    const char* loader = std::getenv("TEXDEC_DEBUG_VULKAN_LOADER");
    REQUIRE(loader != nullptr);
    INFO("TEXDEC_DEBUG_VULKAN_LOADER=" << loader);
    const texdec_backend_info explicit_gpu = backend_info(TEXDEC_BACKEND_GPU);
    Context gpu(&explicit_gpu);
    CHECK(gpu.status == TEXDEC_ERROR_NO_DEVICE);
    CHECK(gpu.ctx == nullptr);
    CHECK(!gpu.log.take_errors().empty());  // and it says why
    const uint8_t block[8] = {0x00, 0xF8, 0x1F, 0x00, 0, 0, 0, 0};
    for (texdec_backend backend : {TEXDEC_BACKEND_CPU, TEXDEC_BACKEND_AUTO}) {
        INFO("backend " << int(backend));
        const texdec_backend_info b = backend_info(backend);
        Context c(&b);
        REQUIRE(c.status == TEXDEC_SUCCESS);
        CHECK(texdec_context_backend(c.ctx) == TEXDEC_BACKEND_CPU);
        std::vector<uint8_t> texels(64);
        const texdec_host_job job =
            JobBuilder(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8, 4, 4).blocks(block, 8).texels(texels);
        if (cpu_decode(c.ctx, job)) CHECK((texels[0] == 255 && texels[1] == 0 && texels[2] == 0 && texels[3] == 255));
        CHECK(c.log.take_errors().empty());
    }
}

// Every split of a job over threads (1, 2, 3, 0 = hardware) gives the GPU path's bytes, padding
// included: odd extents, 2 slices, padded source rows and pitches, a family of each kind.
TEST_CASE("CPU backend: cpu_threads 1, 2, 3 and 0 give the GPU path's bytes", "[cpu]") {
    auto gpu = OwnContext::open(Backend::gpu);  // the expectation (its own mirror compares again)
    if (!gpu) return;
    std::vector<std::unique_ptr<Context>> cpus;
    for (uint32_t threads : {1u, 2u, 3u, 0u}) cpus.push_back(cpu_context(threads));
    uint64_t seed = test_seed();
    for (const auto& [format, output] : family_cases()) {
        const LayoutJob lj(format, output, ++seed);
        INFO(format_name(format) << " " << texdec_output_name(output));
        std::vector<uint8_t> expected(lj.bytes);
        fill_canary(expected.data(), expected.size());
        const std::vector<uint8_t> initial = expected;
        REQUIRE(gpu->decode(lj.job(expected)) == TEXDEC_SUCCESS);
        for (size_t i = 0; i < cpus.size(); ++i) {
            INFO("CPU context " << i << " (" << texdec_context_device_name(cpus[i]->ctx) << ")");
            std::vector<uint8_t> got = initial;
            if (!cpu_decode(cpus[i]->ctx, lj.job(got))) break;
            CHECK(got == expected);
        }
    }
    gpu->close_and_check();
}

namespace {

// A caller's scheduler: runs the tasks on the calling thread in order (serial) or in reverse on
// three threads of its own, and records what it was given.
struct Hook {
    bool threaded = false;
    std::mutex mutex;
    uint32_t calls = 0;
    std::vector<uint32_t> counts;  // task_count of each call
    std::vector<std::string> errors;
    std::thread::id caller;
    static void run(void* user, uint32_t count, texdec_task_function task, void* data) {
        auto* self = static_cast<Hook*>(user);
        {
            std::lock_guard<std::mutex> lock(self->mutex);
            ++self->calls;
            self->counts.push_back(count);
            if (!task || count == 0) self->errors.push_back("run_tasks called with no task or count 0");
        }
        if (!task) return;
        if (!self->threaded) {
            for (uint32_t i = 0; i < count; ++i) task(data, i);
            return;
        }
        std::atomic<uint32_t> left{count};
        auto drain = [&] {
            for (uint32_t i; (i = left.fetch_sub(1)) > 0 && i <= count;) task(data, i - 1);
        };
        std::thread a(drain), b(drain), c(drain);
        a.join(), b.join(), c.join();
    }
};

}  // namespace

TEST_CASE("CPU backend: a run_tasks hook runs every task and gives the same bytes", "[cpu]") {
    auto plain = cpu_context(1);
    for (bool threaded : {false, true}) {
        INFO((threaded ? "tasks in reverse on 3 threads of the hook's own" : "tasks in order on the calling thread"));
        Hook hook;
        hook.threaded = threaded;
        {
            auto hooked = cpu_context(4, &Hook::run, &hook);
            uint64_t seed = test_seed() ^ 0x700C;
            uint32_t decodes = 0;
            for (const auto& [format, output] : family_cases()) {
                const LayoutJob lj(format, output, ++seed);
                INFO(format_name(format));
                std::vector<uint8_t> expected(lj.bytes, 0x5A), got(lj.bytes, 0x5A);
                if (!cpu_decode(plain->ctx, lj.job(expected))) continue;
                const uint32_t before = hook.calls;
                const texdec_host_job job = lj.job(got);
                REQUIRE(texdec_decode(hooked->ctx, &job) == TEXDEC_SUCCESS);
                CHECK(got == expected);
                CHECK(hook.calls > before);  // the job went through the hook
                ++decodes;
            }
            if (decodes == 0) return;  // no CPU decoder yet (TEXDEC_TEST_CPU_PARTIAL=1)
        }
        for (const auto& e : hook.errors) FAIL_CHECK(e);
        // About 4 * cpu_threads tasks for a job of many block rows (77 texel rows x 2 slices).
        REQUIRE(!hook.counts.empty());
        CHECK(*std::max_element(hook.counts.begin(), hook.counts.end()) > 1);
        CHECK(*std::max_element(hook.counts.begin(), hook.counts.end()) <= 4 * 4 * 2);
    }
}

// The context's task pool (src/task_pool.h) hands a CPU decode to the caller's hook: exactly one
// run_tasks call per texdec_decode (also from several threads at once), with the job cut into
// min(block rows, 4 * cpu_threads) tasks, and the bytes of a 1-thread context.
TEST_CASE("CPU backend: the task pool calls run_tasks once per decode, same bytes", "[cpu][task_pool]") {
    auto plain = cpu_context(1);
    for (uint32_t threads : {1u, 3u}) {
        INFO("cpu_threads " << threads);
        Hook hook;
        hook.threaded = threads > 1;
        auto hooked = cpu_context(threads, &Hook::run, &hook);
        uint64_t seed = test_seed() ^ 0x7A5C;
        for (const auto& [format, output] : family_cases()) {
            const LayoutJob lj(format, output, ++seed);
            INFO(format_name(format));
            std::vector<uint8_t> expected(lj.bytes, 0x5A);
            if (!cpu_decode(plain->ctx, lj.job(expected))) continue;
            const uint64_t rows = uint64_t(lj.image_height() / lj.block_h() - 1) * lj.d;  // block rows of the extent
            const uint32_t tasks = uint32_t(std::min<uint64_t>(rows, 4 * threads));
            // Four decodes of the same job from four threads at once, then one more alone.
            std::vector<std::vector<uint8_t>> got(5, std::vector<uint8_t>(lj.bytes, 0x5A));
            const uint32_t before = hook.calls;
            std::vector<texdec_status> status(4, TEXDEC_ERROR_INVALID_ARGUMENT);
            {
                std::vector<std::thread> callers;
                for (size_t i = 0; i < 4; ++i)
                    callers.emplace_back([&, i] {
                        const texdec_host_job job = lj.job(got[i]);
                        status[i] = texdec_decode(hooked->ctx, &job);
                    });
                for (std::thread& t : callers) t.join();
            }
            const texdec_host_job job = lj.job(got[4]);
            REQUIRE(texdec_decode(hooked->ctx, &job) == TEXDEC_SUCCESS);
            for (size_t i = 0; i < 4; ++i) CHECK(status[i] == TEXDEC_SUCCESS);
            for (const auto& g : got) CHECK(g == expected);
            std::lock_guard<std::mutex> lock(hook.mutex);
            CHECK(hook.calls - before == 5);
            for (size_t i = before; i < hook.counts.size(); ++i) CHECK(hook.counts[i] == tasks);
        }
        for (const auto& e : hook.errors) FAIL_CHECK(e);
    }
}

TEST_CASE("CPU backend: calls that need a VkDevice return WRONG_BACKEND with a message", "[cpu]") {
    auto c = cpu_context();
    auto expect_wrong = [&](texdec_status status, const char* what) {
        INFO(what);
        CHECK(status == TEXDEC_ERROR_WRONG_BACKEND);
        CHECK(!c->log.take_errors().empty());
    };
    // Record: a job that would be valid on a GPU context (the handles are never used).
    VkCommandBuffer fake_cmd = reinterpret_cast<VkCommandBuffer>(uintptr_t(0x1000));
    texdec_region region{};
    region.extent = {4, 4, 1};
    const texdec_regions_job job = RegionsJobBuilder(TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8,
                                                     reinterpret_cast<VkBuffer>(uintptr_t(0x2000)), 4096, &region)
                                       .into_buffer(reinterpret_cast<VkBuffer>(uintptr_t(0x3000)), 4096);
    expect_wrong(texdec_record_regions(c->ctx, fake_cmd, &job), "texdec_record_regions");
    // The backend's answer comes before the arguments: a null command buffer or job, or a job that
    // would be refused on a GPU context, is still WRONG_BACKEND on a CPU context.
    expect_wrong(texdec_record_regions(c->ctx, VK_NULL_HANDLE, &job), "texdec_record_regions, null cmd");
    expect_wrong(texdec_record_regions(c->ctx, fake_cmd, nullptr), "texdec_record_regions, null job");
    expect_wrong(texdec_record_regions(c->ctx, VK_NULL_HANDLE, nullptr), "texdec_record_regions, null cmd and job");
    const texdec_regions_job empty{};
    expect_wrong(texdec_record_regions(c->ctx, fake_cmd, &empty), "texdec_record_regions, empty job");
    texdec_image_target_create_info ti{};
    ti.image = reinterpret_cast<VkImage>(uintptr_t(0x4000));
    ti.image_type = VK_IMAGE_TYPE_2D;
    ti.format = VK_FORMAT_R8G8B8A8_UNORM;
    ti.usage = VK_IMAGE_USAGE_STORAGE_BIT;
    ti.extent = {16, 16, 1};
    ti.mip_levels = ti.array_layers = 1;
    texdec_image_target* target = nullptr;
    expect_wrong(texdec_image_target_create(c->ctx, &ti, &target), "texdec_image_target_create");
    CHECK(target == nullptr);
    expect_wrong(texdec_image_target_create(c->ctx, nullptr, &target), "texdec_image_target_create, null info");
    expect_wrong(texdec_image_target_create(c->ctx, &ti, nullptr), "texdec_image_target_create, null out_target");
    for (texdec_destination_kind kind : {TEXDEC_DESTINATION_IMAGE, TEXDEC_DESTINATION_IMAGE_3D}) {
        INFO("destination kind " << int(kind));
        const texdec_variant image = make_variant(TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8, kind);
        expect_wrong(texdec_prepare(c->ctx, 1, &image), "texdec_prepare of an image variant");
        expect_wrong(texdec_variant_ready(c->ctx, &image), "texdec_variant_ready of an image variant");
        texdec_support support{};
        expect_wrong(texdec_query_support(c->ctx, &image, &support), "texdec_query_support of an image variant");
        CHECK((support.reasons & TEXDEC_SUPPORT_REASON_DESTINATION) != 0);
    }
    // Buffer variants are the one-call path's: they work.
    const texdec_variant buffer =
        make_variant(TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8, TEXDEC_DESTINATION_BUFFER);
    const texdec_status prepared = texdec_prepare(c->ctx, 1, &buffer);
    if (!(prepared == TEXDEC_ERROR_UNSUPPORTED_FORMAT && cpu_partial_allowed())) {
        CHECK(prepared == TEXDEC_SUCCESS);
        CHECK(texdec_variant_ready(c->ctx, &buffer) == TEXDEC_SUCCESS);
        texdec_support support{};
        CHECK(texdec_query_support(c->ctx, &buffer, &support) == TEXDEC_SUCCESS);
        CHECK(support.reasons == 0);
    }
    c->log.take_errors();
}

// A refused output is named in the message as texdec_output_name names it ("rgba8"), never by its
// value ("output type 0"); a value outside texdec_output is given as a number. The checks are the
// backends' shared ones (plan.cpp, prepare.cpp), so a CPU context shows them.
TEST_CASE("messages name a refused output", "[cpu][bad]") {
    auto c = cpu_context();
    auto expect_message = [&](texdec_status status, std::initializer_list<const char*> parts) {
        CHECK(status == TEXDEC_ERROR_UNSUPPORTED_OUTPUT);
        const std::vector<std::string> errors = c->log.take_errors();
        REQUIRE(errors.size() == 1);
        INFO(errors[0]);
        for (const char* part : parts) CHECK(errors[0].find(part) != std::string::npos);
        CHECK(errors[0].find("output type") == std::string::npos);
        CHECK(errors[0].find("RGBA8") == std::string::npos);
    };
    std::vector<uint8_t> blocks(8), texels(64);
    texdec_host_job job{};
    job.format = TEXDEC_FORMAT_BC4_SNORM;
    job.output = TEXDEC_OUTPUT_RGBA8;
    job.width = job.height = 4;
    job.depth = 1;
    job.src = blocks.data();
    job.src_size = blocks.size();
    job.dst = texels.data();
    job.dst_size = texels.size();
    expect_message(texdec_decode(c->ctx, &job), {"output rgba8", "bc4-snorm"});
    store_raw_enum(job.output, 7);
    expect_message(texdec_decode(c->ctx, &job), {"output 7", "not a texdec_output"});
    const texdec_variant rgba8 = make_variant(TEXDEC_FORMAT_BC5_SNORM, TEXDEC_OUTPUT_RGBA8);
    expect_message(texdec_prepare(c->ctx, 1, &rgba8), {"output rgba8", "bc5-snorm"});
    texdec_variant unknown = rgba8;
    store_raw_enum(unknown.output, 7);
    expect_message(texdec_prepare(c->ctx, 1, &unknown), {"output 7", "not a texdec_output"});
}

// Every refusal of the one-call path gives a CPU context the GPU context's status (the checks are
// shared) and writes nothing. test_bad_inputs.cpp's decodes are mirrored too (gpu_fixture.h).
TEST_CASE("CPU backend: bad one-call inputs give the GPU path's statuses and write nothing", "[cpu][bad]") {
    auto gpu = OwnContext::open(Backend::gpu);
    if (!gpu) return;
    auto cpu = cpu_context();
    const BcFormat& bc5 = bc_format(TEXDEC_FORMAT_BC5_SNORM);
    const uint32_t w = 13, h = 7, d = 3;
    const std::vector<uint8_t> blocks = random_blocks(bc5, 4 * 2 * d, test_seed());
    const uint32_t unknown_struct[4] = {0x7E000042, 0, 0, 0};
    struct Bad {
        const char* what;
        void (*change)(texdec_host_job&);
    };
    const Bad bads[] = {
        {"src_size short by one", [](texdec_host_job& j) { j.src_size -= 1; }},
        {"src NULL", [](texdec_host_job& j) { j.src = nullptr; }},
        {"dst NULL", [](texdec_host_job& j) { j.dst = nullptr; }},
        {"width 0", [](texdec_host_job& j) { j.width = 0; }},
        {"depth 0", [](texdec_host_job& j) { j.depth = 0; }},
        {"overflowing extent", [](texdec_host_job& j) { j.width = j.height = j.depth = 0xFFFFFFFF; }},
        {"dst_size short by one", [](texdec_host_job& j) { j.dst_size -= 1; }},
        {"row pitch below a row", [](texdec_host_job& j) { j.dst_row_pitch = size_t(j.width) * 8 - 8; }},
        {"row length below the width", [](texdec_host_job& j) { j.src_row_length = 8; }},
        {"image height below the height", [](texdec_host_job& j) { j.src_image_height = 4; }},
        {"unknown format", [](texdec_host_job& j) { store_raw_enum(j.format, 9999); }},
        {"RGBA8 of an SNORM format", [](texdec_host_job& j) { j.output = TEXDEC_OUTPUT_RGBA8; }},
        {"unknown output", [](texdec_host_job& j) { store_raw_enum(j.output, 3); }},
        {"unknown rounding", [](texdec_host_job& j) { store_raw_enum(j.bc_rounding, 77); }},
        {"unknown struct in next", nullptr},
    };
    for (const Bad& bad : bads) {
        INFO(bad.what);
        texdec_status statuses[2];
        for (int which = 0; which < 2; ++which) {
            texdec_context* ctx = which ? cpu->ctx : gpu->get();
            std::vector<uint8_t> dst(size_t(w) * h * d * 8 + 128);
            fill_canary(dst.data(), dst.size());
            texdec_host_job job = JobBuilder(bc5.format, TEXDEC_OUTPUT_RGBA16F, w, h, d)
                                      .blocks(blocks)
                                      .texels(dst.data(), dst.size() - 128);
            if (bad.change) bad.change(job);
            else job.next = unknown_struct;
            statuses[which] = texdec_decode(ctx, &job);
            uint64_t host = 7, device = 7;
            const texdec_status sized = texdec_decode_scratch_size(ctx, &job, &host, &device);
            texdec_decode_timing timing{};
            const texdec_status timed = texdec_decode_timed(ctx, &job, &timing);
            INFO((which ? "CPU" : "GPU") << ": " << texdec_status_string(statuses[which]));
            CHECK(statuses[which] != TEXDEC_SUCCESS);
            CHECK(timed == statuses[which]);
            if (job.dst) CHECK(sized == statuses[which]);  // scratch_size checks all but the dst pointer
            bool untouched = true;
            for (size_t i = 0; i < dst.size(); ++i) untouched &= dst[i] == canary_byte(i);
            CHECK(untouched);
        }
        if (statuses[1] == TEXDEC_ERROR_UNSUPPORTED_FORMAT && statuses[0] != statuses[1] && cpu_partial_allowed()) {
            std::printf("note: %s: no CPU decoder yet (TEXDEC_TEST_CPU_PARTIAL=1)\n", bad.what);
            cpu->log.take_errors();
            gpu->log().take_errors();
            continue;
        }
        CHECK(texdec_status_string(statuses[0]) == std::string(texdec_status_string(statuses[1])));
        CHECK(!cpu->log.take_errors().empty());  // the CPU context says why too
        gpu->log().take_errors();
    }
    // NULL pointers are named in the message, as on a GPU context.
    CHECK(texdec_decode(cpu->ctx, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    std::vector<std::string> errors = cpu->log.take_errors();
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].find("job") != std::string::npos);
    CHECK(texdec_context_memory_usage(cpu->ctx, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    errors = cpu->log.take_errors();
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].find("usage") != std::string::npos);
    gpu->close_and_check();
}

TEST_CASE("CPU backend: timing, scratch size, memory usage and staging release", "[cpu][memory]") {
    auto c = cpu_context(2);
    const texdec_memory_usage fresh = usage_of(c->ctx);
    CHECK(fresh.staging_host_bytes == 0);
    CHECK(fresh.staging_device_bytes == 0);
    CHECK(fresh.table_bytes == 0);
    CHECK(fresh.pipelines == 0);

    const LayoutJob bc1(TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8, test_seed());
    std::vector<uint8_t> expected(bc1.bytes, 0), got(bc1.bytes, 0);
    uint64_t host = 7, device = 7;
    const texdec_host_job bc1_expected = bc1.job(expected), bc1_got = bc1.job(got);
    REQUIRE(texdec_decode_scratch_size(c->ctx, &bc1_expected, &host, &device) == TEXDEC_SUCCESS);
    CHECK(host == 0);  // the CPU decodes straight into job->dst
    CHECK(device == 0);
    // Large jobs too (the 2 GiB one of test_large_jobs.cpp's, not decoded).
    const texdec_host_job large = JobBuilder(TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA16F, 16384, 16384)
                                      .blocks(nullptr, size_t(4096) * 4096 * 8)
                                      .texels(nullptr, size_t(16384) * 16384 * 8);
    std::vector<uint8_t> dummy(1);
    texdec_host_job large_with_src = large;
    large_with_src.src = dummy.data();  // never read: scratch_size checks sizes only
    REQUIRE(texdec_decode_scratch_size(c->ctx, &large_with_src, &host, &device) == TEXDEC_SUCCESS);
    CHECK(host == 0);
    CHECK(device == 0);

    if (cpu_decode(c->ctx, bc1_expected)) {
        texdec_decode_timing timing;
        std::memset(&timing, 0xA5, sizeof timing);  // every field is written
        REQUIRE(texdec_decode_timed(c->ctx, &bc1_got, &timing) == TEXDEC_SUCCESS);
        CHECK(got == expected);
        CHECK(timing.total_ns > 0);
        CHECK(timing.submit_wait_ns > 0);  // the decode on the threads
        CHECK(timing.total_ns >= timing.prepare_ns + timing.submit_wait_ns);
        CHECK(timing.gpu_timestamps == 0);
        CHECK(timing.upload_copy_ns == 0);
        CHECK(timing.readback_copy_ns == 0);
        CHECK(timing.gpu_upload_ns == 0);
        CHECK(timing.gpu_decode_ns == 0);
        CHECK(timing.gpu_readback_ns == 0);
        std::fill(got.begin(), got.end(), 0);
        REQUIRE(texdec_decode_timed(c->ctx, &bc1_got, nullptr) == TEXDEC_SUCCESS);
        CHECK(got == expected);
        const texdec_memory_usage after = usage_of(c->ctx);
        CHECK(after.staging_host_bytes == 0);
        CHECK(after.staging_device_bytes == 0);
        CHECK(after.pipelines == 0);
    }
    // Memory usage answers 0 in every field, also once a decoder built its tables (ASTC: per
    // footprint; not counted) and after texdec_prepare.
    const LayoutJob astc(TEXDEC_FORMAT_ASTC_6x6_UNORM, TEXDEC_OUTPUT_RGBA8, test_seed() + 1);
    std::vector<uint8_t> texels(astc.bytes);
    const texdec_host_job astc_job = astc.job(texels);
    cpu_decode(c->ctx, astc_job);
    const texdec_variant v =
        make_variant(TEXDEC_FORMAT_ASTC_8x8_SRGB, TEXDEC_OUTPUT_RGBA16F, TEXDEC_DESTINATION_BUFFER);
    const texdec_status prepared = texdec_prepare(c->ctx, 1, &v);
    if (!(prepared == TEXDEC_ERROR_UNSUPPORTED_FORMAT && cpu_partial_allowed())) CHECK(prepared == TEXDEC_SUCCESS);
    const texdec_memory_usage used = usage_of(c->ctx);
    CHECK(used.staging_host_bytes == 0);
    CHECK(used.staging_device_bytes == 0);
    CHECK(used.table_bytes == 0);
    CHECK(used.pipelines == 0);
    REQUIRE(texdec_context_release_staging(c->ctx) == TEXDEC_SUCCESS);
    CHECK(usage_of(c->ctx).staging_host_bytes == 0);
    const std::vector<std::string> errors = c->log.take_errors();
    if (!cpu_partial_allowed()) CHECK(errors.empty());  // else: the partial CPU backend's refusals
}

namespace {

// run_tasks hooks that break the contract (texdec_run_tasks_function: every i in [0, task_count)
// once, all returned before the hook returns).
enum class BadHook { off_by_one, runs_nothing, runs_half, index_max, twice };

struct BrokenHook {
    BadHook kind = BadHook::off_by_one;
    static void run(void* user, uint32_t count, texdec_task_function task, void* data) {
        switch (static_cast<BrokenHook*>(user)->kind) {
        case BadHook::off_by_one:  // 1 ... count: task 0 never runs, task `count` does not exist
            for (uint32_t i = 1; i <= count; ++i) task(data, i);
            break;
        case BadHook::runs_nothing: break;
        case BadHook::runs_half:
            for (uint32_t i = 0; i < count / 2; ++i) task(data, i);
            break;
        case BadHook::index_max:  // every task, and one more call far outside
            for (uint32_t i = 0; i < count; ++i) task(data, i);
            task(data, UINT32_MAX);
            break;
        case BadHook::twice:
            for (int round = 0; round < 2; ++round)
                for (uint32_t i = 0; i < count; ++i) task(data, i);
            break;
        }
    }
};

}  // namespace

// Issue 34: a hook calling task index task_count read and wrote past the job (ASan: heap overflow
// in the decoders); a hook running no task returned SUCCESS with the destination untouched.
// Buffers are larger than the job says (src_size / dst_size), so that a decode past the job lands
// in canary bytes this test checks instead of in someone else's memory.
TEST_CASE("CPU backend: a run_tasks hook that breaks its contract is reported and never obeyed past the job",
          "[cpu][bad]") {
    auto plain = cpu_context(1);
    const LayoutJob lj(TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8, test_seed() ^ 0xBAD);
    std::vector<uint8_t> expected(lj.bytes, 0x5A);
    if (!cpu_decode(plain->ctx, lj.job(expected))) return;
    const struct {
        BadHook kind;
        const char* what;
    } cases[] = {{BadHook::off_by_one, "tasks 1 ... task_count"},
                 {BadHook::runs_nothing, "no task run"},
                 {BadHook::runs_half, "half the tasks run"},
                 {BadHook::index_max, "every task and index UINT32_MAX"},
                 {BadHook::twice, "every task twice"}};
    for (const auto& c : cases) {
        INFO("hook: " << c.what);
        BrokenHook hook;
        hook.kind = c.kind;
        auto hooked = cpu_context(4, &BrokenHook::run, &hook);
        // The job's blocks and texels, then as many bytes again of canary.
        std::vector<uint8_t> src(lj.blocks.size() * 2);
        std::memcpy(src.data(), lj.blocks.data(), lj.blocks.size());
        fill_canary(src.data() + lj.blocks.size(), lj.blocks.size());
        const std::vector<uint8_t> src_before = src;
        std::vector<uint8_t> dst(lj.bytes * 2, 0x5A);
        fill_canary(dst.data() + lj.bytes, lj.bytes);
        texdec_host_job job = lj.job(dst);
        job.src = src.data();
        job.src_size = lj.blocks.size();
        job.dst_size = lj.bytes;
        const texdec_status st = texdec_decode(hooked->ctx, &job);
        const std::vector<std::string> errors = hooked->log.take_errors();
        INFO(texdec_status_string(st) << "; messages: " << (errors.empty() ? "(none)" : errors[0]));
        CHECK(st == TEXDEC_ERROR_INVALID_ARGUMENT);
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].find("run_tasks") != std::string::npos);
        bool outside_untouched = true;
        for (size_t i = 0; i < lj.bytes; ++i) outside_untouched &= dst[lj.bytes + i] == canary_byte(i);
        CHECK(outside_untouched);
        CHECK(src == src_before);
        if (c.kind == BadHook::twice) {  // every task ran once (the repeats were ignored)
            CHECK(std::equal(expected.begin(), expected.end(), dst.begin()));
        }
    }
    // A hook that keeps the contract still decodes on a context whose hook once failed.
    Hook good;
    auto hooked = cpu_context(4, &Hook::run, &good);
    std::vector<uint8_t> got(lj.bytes, 0x5A);
    const texdec_host_job job = lj.job(got);
    REQUIRE(texdec_decode(hooked->ctx, &job) == TEXDEC_SUCCESS);
    CHECK(got == expected);
    CHECK(hooked->log.take_errors().empty());
}

// Issue 34: cpu_threads = 100000 spent seconds starting threads before it failed. Above the
// documented maximum (1024) it is refused before any thread starts; with a run_tasks hook (no
// threads of texdec's own) the maximum is accepted.
TEST_CASE("CPU backend: cpu_threads above 1024 is refused at once", "[cpu][bad]") {
    for (texdec_backend backend : {TEXDEC_BACKEND_CPU, TEXDEC_BACKEND_AUTO})
        for (uint32_t threads : {100000u, 1025u, 0xFFFFFFFFu}) {
            INFO("backend " << int(backend) << ", cpu_threads " << threads);
            const texdec_backend_info b = backend_info(backend, threads);
            const auto start = std::chrono::steady_clock::now();
            Context c(&b);
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            CHECK(c.status == TEXDEC_ERROR_INVALID_ARGUMENT);
            CHECK(c.ctx == nullptr);
            CHECK(seconds < 1.0);
            const std::vector<std::string> errors = c.log.take_errors();
            REQUIRE(errors.size() == 1);
            CHECK(errors[0].find("cpu_threads") != std::string::npos);
            CHECK(errors[0].find("1024") != std::string::npos);
        }
    Hook hook;
    auto c = cpu_context(1024, &Hook::run, &hook);
    CHECK(std::string(texdec_context_device_name(c->ctx)).find("1024") != std::string::npos);
}

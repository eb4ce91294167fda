// Contexts: device enumeration and selection, allocation callbacks, several threads on one
// context, and the C++ wrapper (texdec.hpp).
#include <catch2/catch.hpp>

#include <texdec/texdec.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "gpu/gpu_fixture.h"
#include "support/compare.h"
#include "support/job_builder.h"
#include "support/portable.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

void log_callback(texdec_message_severity severity, const char* message, void* user_data) {
    auto* log = static_cast<MessageLog*>(user_data);
    if (severity == TEXDEC_MESSAGE_VALIDATION) log->add_validation(message ? message : "");
    else if (severity == TEXDEC_MESSAGE_ERROR) log->add_error(message ? message : "");
}

// A GPU context's create info (TEXDEC_BACKEND_GPU chained: a zero info is AUTO, which takes the
// CPU backend on lavapipe) with the validation layer on, its messages going to `log`.
const texdec_backend_info kGpuBackend{
    TEXDEC_STRUCTURE_TYPE_BACKEND_INFO, nullptr, TEXDEC_BACKEND_GPU, 0, nullptr, nullptr};
texdec_context_create_info validating_create_info(MessageLog& log) {
    texdec_context_create_info info{};
    info.next = &kGpuBackend;
    info.flags = validation_context_flag();
    info.message_callback = log_callback;
    info.user_data = &log;
    return info;
}

// VkAllocationCallbacks that count live allocations.
struct CountingAllocator {
    std::mutex mutex;
    std::unordered_map<void*, size_t> live;
    size_t total = 0;

    static void* VKAPI_CALL allocate(void* user, size_t size, size_t alignment, VkSystemAllocationScope) {
        auto* self = static_cast<CountingAllocator*>(user);
        if (alignment < sizeof(void*)) alignment = sizeof(void*);
        void* p = aligned_malloc(alignment, size ? size : 1);
        if (!p) return nullptr;
        std::lock_guard<std::mutex> lock(self->mutex);
        self->live[p] = size;
        ++self->total;
        return p;
    }
    static void* VKAPI_CALL reallocate(void* user, void* original, size_t size, size_t alignment, VkSystemAllocationScope scope) {
        auto* self = static_cast<CountingAllocator*>(user);
        if (!original) return allocate(user, size, alignment, scope);
        if (size == 0) {
            release(user, original);
            return nullptr;
        }
        void* p = allocate(user, size, alignment, scope);
        if (!p) return nullptr;
        size_t old_size;
        {
            std::lock_guard<std::mutex> lock(self->mutex);
            old_size = self->live[original];
        }
        std::memcpy(p, original, old_size < size ? old_size : size);
        release(user, original);
        return p;
    }
    static void VKAPI_CALL release(void* user, void* p) {
        if (!p) return;
        auto* self = static_cast<CountingAllocator*>(user);
        {
            std::lock_guard<std::mutex> lock(self->mutex);
            self->live.erase(p);
        }
        aligned_free(p);
    }
    VkAllocationCallbacks callbacks() {
        VkAllocationCallbacks c{};
        c.pUserData = this;
        c.pfnAllocation = allocate;
        c.pfnReallocation = reallocate;
        c.pfnFree = release;
        return c;
    }
};

}  // namespace

TEST_CASE("context: device name and device enumeration", "[context][gpu]") {
    auto ctx = OwnContext::open(Backend::gpu);
    if (!ctx) return;
    const char* name = texdec_context_device_name(ctx->get());
    REQUIRE(name != nullptr);
    CHECK(std::strlen(name) > 0);
    struct Seen {
        std::vector<std::string> names;
        std::vector<uint32_t> indices;
    } seen;
    REQUIRE(texdec_enumerate_devices(
                [](uint32_t index, const char* device, VkPhysicalDeviceType, uint32_t api_version, void* user) {
                    auto* s = static_cast<Seen*>(user);
                    s->names.push_back(device ? device : "");
                    s->indices.push_back(index);
                    CHECK(api_version >= VK_API_VERSION_1_0);
                },
                &seen) == TEXDEC_SUCCESS);
    REQUIRE(!seen.names.empty());
    bool found = false;
    for (size_t i = 0; i < seen.names.size(); ++i) {
        CHECK(!seen.names[i].empty());
        CHECK(seen.indices[i] == i);
        found |= seen.names[i] == name;
    }
    CHECK(found);  // the context's device is one of those enumerated
    ctx->close_and_check();
}

TEST_CASE("context: device_selector by name and matching nothing", "[context][gpu]") {
    auto probe = OwnContext::open(Backend::gpu);  // establishes that a device exists (or fails / skips)
    if (!probe) return;
    const std::string name = texdec_context_device_name(probe->get());
    probe->close_and_check();

    MessageLog log;
    texdec_context_create_info info = validating_create_info(log);
    texdec_context* ctx = nullptr;
    info.device_selector = "no device has this name 7f3a";
    CHECK(texdec_context_create(&info, &ctx) == TEXDEC_ERROR_NO_DEVICE);
    CHECK(ctx == nullptr);
    CHECK(!log.take_errors().empty());  // and it says why
    // A case-insensitive substring of the device's name selects it.
    std::string upper = name.substr(0, 6);
    for (auto& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
    info.device_selector = upper.c_str();
    REQUIRE(texdec_context_create(&info, &ctx) == TEXDEC_SUCCESS);
    CHECK(std::string(texdec_context_device_name(ctx)).substr(0, 6) == name.substr(0, 6));
    texdec_context_destroy(ctx);
    ctx = nullptr;
    info.device_selector = "9999";
    CHECK(texdec_context_create(&info, &ctx) == TEXDEC_ERROR_NO_DEVICE);
    // Indices that do not fit 32 bits select nothing (they once wrapped around: 2^32 was device 0).
    for (const char* huge : {"4294967296", "18446744073709551616", "99999999999999999999999999"}) {
        INFO("device_selector " << huge);
        info.device_selector = huge;
        CHECK(texdec_context_create(&info, &ctx) == TEXDEC_ERROR_NO_DEVICE);
        CHECK(ctx == nullptr);
        CHECK(!log.take_errors().empty());
    }
    // out_context NULL: INVALID_ARGUMENT, and the callback of the create info says which argument.
    info.device_selector = nullptr;
    CHECK(texdec_context_create(&info, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    const std::vector<std::string> errors = log.take_errors();
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].find("out_context") != std::string::npos);
    check_no_validation_messages(log, "device selection");
}

TEST_CASE("context: allocation callbacks are used and balanced", "[context][gpu]") {
    auto probe = OwnContext::open(Backend::gpu);
    if (!probe) return;
    probe->close_and_check();
    CountingAllocator counter;
    const VkAllocationCallbacks callbacks = counter.callbacks();
    MessageLog log;
    texdec_context_create_info info = validating_create_info(log);
    info.allocator = &callbacks;
    texdec_context* ctx = nullptr;
    REQUIRE(texdec_context_create(&info, &ctx) == TEXDEC_SUCCESS);
    const BcFormat& f = bc_format(TEXDEC_FORMAT_BC3_SRGB);
    const std::vector<uint8_t> blocks = random_blocks(f, 64, test_seed());
    std::vector<uint8_t> texels(32 * 32 * 4);
    const texdec_host_job job = JobBuilder(f.format, TEXDEC_OUTPUT_RGBA8, 32, 32).blocks(blocks).texels(texels);
    REQUIRE(texdec_decode(ctx, &job) == TEXDEC_SUCCESS);
    texdec_context_destroy(ctx);
    check_no_validation_messages(log, "context with allocation callbacks");
    CHECK(counter.total > 0);
    INFO("allocations still live after texdec_context_destroy: " << counter.live.size());
    CHECK(counter.live.empty());
}

TEST_CASE("context: several threads decode on one context at once", "[context][gpu]") {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    const texdec_format formats[] = {TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_FORMAT_BC3_UNORM, TEXDEC_FORMAT_BC4_SNORM,
                                     TEXDEC_FORMAT_BC5_UNORM};
    struct Work {
        const BcFormat* f;
        texdec_bc_rounding rounding;
        texdec_output output;
        std::vector<uint8_t> blocks, texels;
        texdec_status status = TEXDEC_ERROR_INVALID_ARGUMENT;
    };
    const uint32_t w = 61, h = 45;
    std::vector<Work> work;
    for (int i = 0; i < 16; ++i) {
        Work wk;
        wk.f = &bc_format(formats[i % 4]);
        wk.rounding = i & 4 ? TEXDEC_BC_ROUNDING_IDEAL : TEXDEC_BC_ROUNDING_EXACT;
        wk.output = i & 8 ? TEXDEC_OUTPUT_RGBA16F : TEXDEC_OUTPUT_NATIVE;
        wk.blocks = random_blocks(*wk.f, 16 * 12, test_seed() + i);
        wk.texels.assign(size_t(w) * h * output_texel_bytes(*wk.f, wk.output), 0);
        work.push_back(std::move(wk));
    }
    std::atomic<size_t> next{0};
    auto worker = [&] {
        for (size_t i; (i = next++) < work.size();) {
            Work& wk = work[i];
            const texdec_host_job job =
                JobBuilder(wk.f->format, wk.output, w, h).blocks(wk.blocks).texels(wk.texels).rounding(wk.rounding);
            wk.status = texdec_decode(ctx->get(), &job);
        }
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) threads.emplace_back(worker);
    for (auto& t : threads) t.join();
    check_no_validation_messages(ctx->log(), "concurrent texdec_decode");
    for (Work& wk : work) {
        INFO(wk.f->name << " " << rounding_name(wk.rounding) << " " << output_name(wk.output));
        REQUIRE(wk.status == TEXDEC_SUCCESS);
        const BlockLayout bl = BlockLayout::of_extent(w, h);
        TEXDEC_CHECK_MATCHES_ORACLE(compare_with_oracle(*wk.f, wk.rounding, primary_oracle(*wk.f, wk.rounding), wk.blocks.data(), bl,
                                                        {{wk.output, wk.texels.data(), {}}}),
                                    oracle_name(primary_oracle(*wk.f, wk.rounding)));
    }
    ctx->close_and_check();
}

TEST_CASE("C++ wrapper: RAII context and span decode", "[context][gpu]") {
    auto probe = OwnContext::open(Backend::gpu);
    if (!probe) return;
    probe->close_and_check();
    MessageLog log;
    texdec_context_create_info info = validating_create_info(log);
    texdec::Context ctx;
    REQUIRE(texdec::Context::create(info, ctx) == TEXDEC_SUCCESS);
    REQUIRE(bool(ctx));
    texdec::Context moved(std::move(ctx));
    CHECK(!ctx);
    REQUIRE(bool(moved));
    const BcFormat& f = bc_format(TEXDEC_FORMAT_BC2_UNORM);
    const uint32_t w = 10, h = 6;
    const std::vector<uint8_t> blocks = random_blocks(f, 3 * 2, test_seed());
    uint64_t size = 0;
    REQUIRE(texdec::decoded_size(f.format, TEXDEC_OUTPUT_RGBA16F, w, h, 1, size) == TEXDEC_SUCCESS);
    REQUIRE(size == uint64_t(w) * h * 8);
    std::vector<uint8_t> texels(size);
    texdec_host_job job = texdec::host_job(f.format, TEXDEC_OUTPUT_RGBA16F, w, h, 1, std::as_bytes(std::span(blocks)),
                                           std::as_writable_bytes(std::span(texels)));
    job.bc_rounding = TEXDEC_BC_ROUNDING_IDEAL;
    REQUIRE(moved.decode(job) == TEXDEC_SUCCESS);
    const BlockLayout bl = BlockLayout::of_extent(w, h);
    const Oracle oracle = primary_oracle(f, TEXDEC_BC_ROUNDING_IDEAL);  // libsquish (on Linux)
    TEXDEC_CHECK_MATCHES_ORACLE(compare_with_oracle(f, TEXDEC_BC_ROUNDING_IDEAL, oracle, blocks.data(), bl,
                                                    {{TEXDEC_OUTPUT_RGBA16F, texels.data(), {}}}),
                                oracle_name(oracle));
    CHECK(std::string(texdec::to_string(TEXDEC_ERROR_SOURCE_TOO_SMALL)) == texdec_status_string(TEXDEC_ERROR_SOURCE_TOO_SMALL));
    texdec_regions_job regions_job{};
    regions_job.region_count = 3;
    VkDeviceSize scratch_bytes = 0;
    REQUIRE(moved.regions_scratch_size(regions_job, scratch_bytes) == TEXDEC_SUCCESS);
    CHECK(scratch_bytes == 3 * TEXDEC_REGIONS_SCRATCH_BYTES_PER_REGION);
    moved = texdec::Context();  // destroys the context
    check_no_validation_messages(log, "C++ wrapper");
}

TEST_CASE("context: TEXDEC_CONTEXT_VALIDATION really asks for the validation layer", "[context][gpu]") {
    // Indirect proof that own-context tests run under the layer: hide every explicit layer from
    // the loader (VK_LAYER_PATH) and the flag must make creation fail with NO_DEVICE, while the
    // same call without the flag still succeeds.
    auto probe = OwnContext::open(Backend::gpu);
    if (!probe) return;
    probe->close_and_check();
    const char* old = std::getenv("VK_LAYER_PATH");
    const std::string saved = old ? old : "";
    set_env("VK_LAYER_PATH", "/nonexistent/texdec-tests-no-layers");
    MessageLog log;
    texdec_context_create_info info = validating_create_info(log);
    texdec_context* ctx = nullptr;
    const texdec_status with_flag = texdec_context_create(&info, &ctx);
    if (ctx) texdec_context_destroy(ctx);
    ctx = nullptr;
    info.flags = 0;
    const texdec_status without_flag = texdec_context_create(&info, &ctx);
    if (ctx) texdec_context_destroy(ctx);
    if (old) set_env("VK_LAYER_PATH", saved.c_str());
    else unset_env("VK_LAYER_PATH");
    CHECK(with_flag == TEXDEC_ERROR_NO_DEVICE);
    CHECK(!log.take_errors().empty());
    CHECK(without_flag == TEXDEC_SUCCESS);
}

TEST_CASE("one-call path: texdec_decode_timed gives texdec_decode's texels and a consistent breakdown", "[context][gpu]") {
    auto ctx = OwnContext::open(Backend::gpu);
    if (!ctx) return;
    const BcFormat& f = bc_format(TEXDEC_FORMAT_BC3_UNORM);
    const uint32_t w = 37, h = 21;
    const std::vector<uint8_t> blocks = random_blocks(f, size_t((w + 3) / 4) * ((h + 3) / 4), test_seed());
    std::vector<uint8_t> expected(size_t(w) * h * 4), got(expected.size());
    texdec_host_job job = JobBuilder(f.format, TEXDEC_OUTPUT_RGBA8, w, h).blocks(blocks).texels(expected);
    REQUIRE(ctx->decode(job) == TEXDEC_SUCCESS);

    job.dst = got.data();
    texdec_decode_timing timing{};
    REQUIRE(texdec_decode_timed(ctx->get(), &job, &timing) == TEXDEC_SUCCESS);
    check_no_validation_messages(ctx->log(), "texdec_decode_timed");
    CHECK(got == expected);
    CHECK(timing.total_ns > 0);
    CHECK(timing.total_ns == timing.prepare_ns + timing.upload_copy_ns + timing.submit_wait_ns + timing.readback_copy_ns);
    CHECK(timing.submit_wait_ns > 0);
    CHECK(timing.gpu_timestamps == 1);  // lavapipe and the NVIDIA driver have compute timestamps
    CHECK(timing.gpu_decode_ns > 0);

    // An uninitialized struct is fine: texdec writes every member.
    texdec_decode_timing garbage;
    std::memset(&garbage, 0xA5, sizeof garbage);
    std::fill(got.begin(), got.end(), 0);
    REQUIRE(texdec_decode_timed(ctx->get(), &job, &garbage) == TEXDEC_SUCCESS);
    CHECK(got == expected);
    CHECK(garbage.total_ns == garbage.prepare_ns + garbage.upload_copy_ns + garbage.submit_wait_ns + garbage.readback_copy_ns);

    // NULL timing is texdec_decode.
    std::fill(got.begin(), got.end(), 0);
    REQUIRE(texdec_decode_timed(ctx->get(), &job, nullptr) == TEXDEC_SUCCESS);
    CHECK(got == expected);
    ctx->close_and_check();
}

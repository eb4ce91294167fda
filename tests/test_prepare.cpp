// Recording never waits for a compile. texdec_prepare (a list of variants, any
// thread), texdec_variant_ready and TEXDEC_RECORD_FAIL_IF_NOT_READY, on a context created on the
// test's own device (validation + synchronization validation on; any message fails).
//   - the stall: thread A records a prepared variant again and again while thread B prepares five
//     new ASTC footprints; every record call (and texdec_variant_ready of B's variants, which
//     compile meanwhile) must return in under 20 ms (the issue measured 76 ms while the pipeline
//     lock was held across vkCreateComputePipelines; with that lock put back, this test sees
//     120-320 ms on a busy 2-core lavapipe machine); 60 ms under ASan (kRecordBoundMs). Calls the
//     scheduler preempted are left out (a busy machine is not a texdec stall; a lock wait is a
//     voluntary sleep, so it stays in). Timed, so ctest runs it alone
//     (RUN_SERIAL, tests/CMakeLists.txt) and it is not in the ThreadSanitizer [threads] run:
//     TSan's slowdown makes wall-clock bounds meaningless. The races it exercises (a compile beside
//     lookups) are in test_threads.cpp's prepare case, which TSan runs;
//   - NOT_READY: a fresh context answers NOT_READY, records nothing and creates nothing; after
//     texdec_prepare the same calls succeed, create nothing more, and decode exactly as libastcenc
//     does (buffer destination, and an sRGB image target prepared through its image_format);
//   - a bad variant anywhere in the list: its status, a message naming its index, nothing created.
#include <catch2/catch.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <latch>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gpu/external_setup.h"
#include "gpu/gpu_fixture.h"
#include "oracles/astcenc_oracle.h"
#include "support/astc_block_builder.h"
#include "support/job_builder.h"
#include "support/random_blocks.h"
#include "support/record_compare.h"  // storage_image_info

using namespace texdec_test;

namespace {

using Clock = std::chrono::steady_clock;
constexpr uint8_t kCanary = 0xCD;

// The bound on one record call while another thread compiles. Under AddressSanitizer some calls
// sleep once for up to ~13 ms in a page fault (measured: one voluntary context switch and a few
// minor faults, no wait on texdec's locks) while the compiling thread churns memory, which ASan
// multiplies; a compile there takes 400-1000 ms, so 60 ms still tells a wait for it apart.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr double kRecordBoundMs = 60.0;
#else
constexpr double kRecordBoundMs = 20.0;
#endif

// Times the calling thread was preempted so far (involuntary context switches). A call that waits
// for a lock sleeps (a voluntary switch); one that the scheduler preempts for other processes
// (a busy shared machine) is not slow because of texdec, so the stall test leaves it out.
long preemptions() {
    rusage u{};
    getrusage(RUSAGE_THREAD, &u);
    return u.ru_nivcsw;
}

// Every message of a context, whatever its severity (NOT_READY's is an INFO, once per variant).
struct Messages {
    std::mutex mutex;
    std::vector<std::pair<texdec_message_severity, std::string>> list;
    static void callback(texdec_message_severity severity, const char* message, void* user_data) {
        auto* self = static_cast<Messages*>(user_data);
        std::lock_guard<std::mutex> lock(self->mutex);
        self->list.emplace_back(severity, message ? message : "(null)");
    }
    std::vector<std::pair<texdec_message_severity, std::string>> take() {
        std::lock_guard<std::mutex> lock(mutex);
        return std::exchange(list, {});
    }
};

// A device of the test's own and a texdec context on it whose messages go to `messages`.
struct Setup {
    std::unique_ptr<VulkanTestDevice> device;
    texdec_context* ctx = nullptr;
    Messages messages;

    bool open() {
        device = VulkanTestDevice::open();
        if (!device) return false;
        texdec_context_create_info info{};
        info.message_callback = Messages::callback;
        info.user_data = &messages;
        const texdec_external_device ext = device->external_device();
        REQUIRE(texdec_context_create_external(&info, &ext, &ctx) == TEXDEC_SUCCESS);
        return true;
    }
    void close() {
        texdec_context_destroy(ctx);
        ctx = nullptr;
        for (const auto& [severity, text] : messages.take()) FAIL_CHECK("unexpected texdec message: " << text);
        device->close_and_check();
    }
    ~Setup() { texdec_context_destroy(ctx); }
};

// Mostly legal random ASTC blocks of one 2D footprint (random modes, partitions, CEMs, weights),
// so that the decode exercises more than the error colour.
std::vector<uint8_t> astc_blocks(unsigned bw, unsigned bh, size_t count, uint64_t seed) {
    SplitMix64 rng(seed);
    const std::vector<uint32_t> modes = astc_legal_block_modes_2d(bw, bh);
    AstcSpecRequest ldr;
    std::vector<uint8_t> out(count * 16);
    for (size_t i = 0; i < count; ++i) {
        AstcBlock b{};
        for (size_t k = 0; k < 16; k += 8) {
            const uint64_t v = rng.next();
            std::memcpy(b.data() + k, &v, 8);
        }
        if (rng.next() % 8 != 0)
            if (const auto spec = astc_random_legal_spec(modes, bw, bh, ldr, rng)) b = astc_build_random_block(*spec, bw, bh, rng);
        std::memcpy(&out[i * 16], b.data(), 16);
    }
    return out;
}

// One region of w x h texels from offset 0 of `src` into offset 0 of `dst` (tight rows).
texdec_regions_job buffer_job(texdec_format format, const HostBuffer& src, const HostBuffer& dst, const texdec_region* region) {
    return RegionsJobBuilder(format, TEXDEC_OUTPUT_RGBA8, src.buffer, src.size, region)
        .into_buffer(dst.buffer, dst.size);
}

std::string messages_text(const std::vector<std::pair<texdec_message_severity, std::string>>& list) {
    std::string all;
    for (const auto& m : list) all += "[" + std::to_string(int(m.first)) + "] " + m.second + "\n";
    return all;
}

// An ASTC 4x4 UNORM -> RGBA8 buffer job on a device of the test's own: random blocks of
// width x height texels in a source buffer, libastcenc's texels of them, and a destination of those
// texels and `spare` bytes more, all canary until decoded into; one region, the whole extent.
struct Astc4x4BufferJob {
    Astc4x4BufferJob(VulkanTestDevice& dev, uint32_t width, uint32_t height, uint64_t seed, size_t spare)
        : blocks(astc_blocks(4, 4, ((width + 3) / 4) * ((height + 3) / 4), seed)),
          expected(astcenc_decode_unorm8(AstcProfile::ldr, {4, 4, 1}, width, height, 1, blocks.data(), blocks.size())),
          src(dev.create_buffer(blocks.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT)),
          dst(dev.create_buffer(expected.size() + spare, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT)) {
        REQUIRE(expected.size() == size_t(width) * height * 4);
        std::memcpy(src.mapped, blocks.data(), blocks.size());
        std::memset(dst.mapped, kCanary, dst.size);
        region.extent = {width, height, 1};
        job = buffer_job(TEXDEC_FORMAT_ASTC_4x4_UNORM, src, dst, &region);
    }
    Astc4x4BufferJob(const Astc4x4BufferJob&) = delete;  // job points at region
    Astc4x4BufferJob& operator=(const Astc4x4BufferJob&) = delete;

    // CHECKs the destination: libastcenc's texels, then canaries.
    void check_decoded() const {
        CHECK(std::memcmp(dst.mapped, expected.data(), expected.size()) == 0);
        CHECK(std::all_of(dst.mapped + expected.size(), dst.mapped + dst.size, [](uint8_t b) { return b == kCanary; }));
    }

    std::vector<uint8_t> blocks, expected;
    HostBuffer src, dst;
    texdec_region region{};
    texdec_regions_job job{};
};

// Takes the context's messages: REQUIREs exactly one, CHECKs it is of `severity` and contains
// every part of `says`.
void expect_one_message(Setup& setup, texdec_message_severity severity, std::initializer_list<const char*> says = {}) {
    const auto messages = setup.messages.take();
    INFO(messages_text(messages));
    REQUIRE(messages.size() == 1);
    CHECK(messages[0].first == severity);
    for (const char* part : says) CHECK(messages[0].second.find(part) != std::string::npos);
}

}  // namespace

TEST_CASE("prepare: a ready variant records in under 20 ms while another thread prepares five new ASTC footprints",
          "[.][prepare][stall]") {
    Setup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    texdec_context* ctx = setup.ctx;

    // Thread A's variant, prepared first; thread B's five, none of them ready yet.
    const texdec_variant ready = make_variant(TEXDEC_FORMAT_ASTC_4x4_UNORM, TEXDEC_OUTPUT_RGBA8, TEXDEC_DESTINATION_BUFFER);
    REQUIRE(texdec_prepare(ctx, 1, &ready) == TEXDEC_SUCCESS);
    const texdec_format new_formats[] = {TEXDEC_FORMAT_ASTC_5x5_UNORM, TEXDEC_FORMAT_ASTC_6x6_UNORM, TEXDEC_FORMAT_ASTC_8x8_UNORM,
                                         TEXDEC_FORMAT_ASTC_10x10_UNORM, TEXDEC_FORMAT_ASTC_12x12_UNORM};
    std::vector<texdec_variant> new_variants;
    for (texdec_format f : new_formats) {
        new_variants.push_back(make_variant(f, TEXDEC_OUTPUT_RGBA8, TEXDEC_DESTINATION_BUFFER));
        REQUIRE(texdec_variant_ready(ctx, &new_variants.back()) == TEXDEC_ERROR_NOT_READY);
    }

    // 61 x 37 texels: 16 x 10 blocks, partial at the right and bottom edges.
    Astc4x4BufferJob astc(dev, 61, 37, test_seed() ^ 0x57A11, 256);
    const texdec_regions_job& job = astc.job;

    VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    cpci.queueFamilyIndex = dev.queue_family();
    cpci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;  // vkBeginCommandBuffer resets it
    VkCommandPool pool = VK_NULL_HANDLE;
    REQUIRE(vkCreateCommandPool(dev.device(), &cpci, nullptr, &pool) == VK_SUCCESS);
    VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbai.commandPool = pool;
    cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbai.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    REQUIRE(vkAllocateCommandBuffers(dev.device(), &cbai, &cmd) == VK_SUCCESS);

    struct Call {
        Clock::time_point start, end;
        texdec_status status;
        Clock::duration ready_query;      // texdec_variant_ready of one of B's variants
        texdec_status ready_status;
        bool preempted;                   // the scheduler preempted the thread during the calls
    };
    std::vector<Call> calls;
    calls.reserve(200000);
    std::atomic<bool> preparing_done{false};
    Clock::time_point prepare_start, prepare_end;
    texdec_status prepare_status = TEXDEC_ERROR_NOT_READY;
    std::latch start(2);
    // A: records the ready variant, a fresh command buffer each time (only the texdec call is
    // timed), with a short sleep between calls (as a render thread has other work; a thread that
    // sleeps is not the one the scheduler preempts), until B is done; and asks whether one of B's
    // variants is ready (it must answer at once, even while that variant compiles).
    std::thread recorder([&] {
        const VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        start.arrive_and_wait();
        const Clock::time_point deadline = Clock::now() + std::chrono::seconds(300);
        while (calls.size() < calls.capacity() && Clock::now() < deadline) {
            const bool last = preparing_done.load();  // one more call after B finished
            vkBeginCommandBuffer(cmd, &begin);
            Call c;
            const long preempted_before = preemptions();
            c.start = Clock::now();
            c.status = texdec_record_regions(ctx, cmd, &job);
            c.end = Clock::now();
            const Clock::time_point query_start = Clock::now();
            c.ready_status = texdec_variant_ready(ctx, &new_variants[calls.size() % new_variants.size()]);
            c.ready_query = Clock::now() - query_start;
            c.preempted = preemptions() != preempted_before;
            host_read_barrier(cmd);
            vkEndCommandBuffer(cmd);
            calls.push_back(c);
            if (last) break;
            std::this_thread::sleep_for(std::chrono::microseconds(250));
        }
    });
    // B: prepares the five new footprints in one call (five compiles and five footprint tables).
    std::thread preparer([&] {
        start.arrive_and_wait();
        prepare_start = Clock::now();
        prepare_status = texdec_prepare(ctx, uint32_t(new_variants.size()), new_variants.data());
        prepare_end = Clock::now();
        preparing_done.store(true);
    });
    recorder.join();
    preparer.join();

    auto ms = [](Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
    REQUIRE(prepare_status == TEXDEC_SUCCESS);
    for (const texdec_variant& v : new_variants) CHECK(texdec_variant_ready(ctx, &v) == TEXDEC_SUCCESS);
    REQUIRE(!calls.empty());
    // Bounds over the calls the scheduler did not preempt (see preemptions()).
    double slowest_query = 0, slowest_preempted = 0;
    size_t during_prepare = 0, preempted = 0, failed = 0, not_ready = 0, bad_query = 0;
    std::vector<double> durations;
    for (const Call& c : calls) {
        failed += c.status != TEXDEC_SUCCESS;
        not_ready += c.ready_status == TEXDEC_ERROR_NOT_READY;
        bad_query += c.ready_status != TEXDEC_SUCCESS && c.ready_status != TEXDEC_ERROR_NOT_READY;
        if (c.preempted) {
            ++preempted;
            slowest_preempted = std::max(slowest_preempted, std::max(ms(c.end - c.start), ms(c.ready_query)));
            continue;
        }
        durations.push_back(ms(c.end - c.start));
        slowest_query = std::max(slowest_query, ms(c.ready_query));
        during_prepare += c.start >= prepare_start && c.end <= prepare_end;
    }
    std::sort(durations.begin(), durations.end());
    const double median = durations.empty() ? 0.0 : durations[durations.size() / 2];
    const double slowest = durations.empty() ? 0.0 : durations.back();
    std::printf("[stall] texdec_prepare of %zu ASTC footprints: %.1f ms; %zu record calls, %zu inside it (%zu more were "
                "preempted, slowest %.3f ms); record call median %.3f ms, slowest %.3f ms; texdec_variant_ready slowest "
                "%.3f ms, %zu NOT_READY\n",
                new_variants.size(), ms(prepare_end - prepare_start), calls.size() - preempted, during_prepare, preempted,
                slowest_preempted, median, slowest, slowest_query, not_ready);
    CHECK(failed == 0);
    CHECK(bad_query == 0);
    CHECK(not_ready > 0);  // B's variants were asked about before they existed
    CHECK(slowest_query < kRecordBoundMs);
    // The test proves something only if the calls ran while B compiled (and were not all preempted).
    CHECK(during_prepare >= 10);
    CHECK(slowest < kRecordBoundMs);

    // The last command buffer recorded (and ended) is a real decode: submit it, compare with libastcenc.
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    REQUIRE(vkCreateFence(dev.device(), &fci, nullptr, &fence) == VK_SUCCESS);
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    REQUIRE(vkQueueSubmit(dev.queue(), 1, &si, fence) == VK_SUCCESS);
    REQUIRE(vkWaitForFences(dev.device(), 1, &fence, VK_TRUE, 60ull * 1000 * 1000 * 1000) == VK_SUCCESS);
    vkDestroyFence(dev.device(), fence, nullptr);
    astc.check_decoded();
    check_no_validation_messages(dev.log(), "recording beside texdec_prepare");
    vkDestroyCommandPool(dev.device(), pool, nullptr);
    dev.destroy(astc.src);
    dev.destroy(astc.dst);
    setup.close();
}

TEST_CASE("prepare: TEXDEC_RECORD_FAIL_IF_NOT_READY and texdec_variant_ready answer NOT_READY until texdec_prepare",
          "[prepare][gpu]") {
    Setup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    texdec_context* ctx = setup.ctx;
    REQUIRE(usage_of(ctx).pipelines == 0);

    // ---- buffer destination: ASTC 4x4 UNORM -> RGBA8 ----
    const texdec_variant to_buffer = make_variant(TEXDEC_FORMAT_ASTC_4x4_UNORM, TEXDEC_OUTPUT_RGBA8, TEXDEC_DESTINATION_BUFFER);
    CHECK(texdec_variant_ready(ctx, &to_buffer) == TEXDEC_ERROR_NOT_READY);
    CHECK(setup.messages.take().empty());  // an answer, not a failure: no message

    // 45 x 30 texels: 12 x 8 blocks, partial edges.
    Astc4x4BufferJob astc(dev, 45, 30, test_seed() ^ 0x4EAD1, 64);
    auto& [blocks, expected, src, dst, region, job] = astc;
    job.flags = TEXDEC_RECORD_FAIL_IF_NOT_READY;

    // Not ready: NOT_READY, an INFO naming the variant (an expected answer, not a warning),
    // nothing created and nothing recorded (the submitted command buffer leaves the destination
    // untouched).
    VkCommandBuffer cmd = dev.begin_commands();
    CHECK(texdec_record_regions(ctx, cmd, &job) == TEXDEC_ERROR_NOT_READY);
    host_read_barrier(cmd);
    dev.submit_and_wait(cmd);
    CHECK(std::all_of(dst.mapped, dst.mapped + dst.size, [](uint8_t b) { return b == kCanary; }));
    expect_one_message(setup, TEXDEC_MESSAGE_INFO, {"astc-4x4-unorm -> rgba8 into buffer", "not ready"});
    // The same answer next frame, without a message: once per variant.
    for (int frame = 0; frame < 3; ++frame) {
        cmd = dev.begin_commands();
        CHECK(texdec_record_regions(ctx, cmd, &job) == TEXDEC_ERROR_NOT_READY);
        dev.submit_and_wait(cmd);
    }
    CHECK(setup.messages.take().empty());
    CHECK(usage_of(ctx).pipelines == 0);
    CHECK(usage_of(ctx).table_bytes == 0);
    // Every region is checked before readiness: a bad second region gives its own status.
    const texdec_region two[2] = {region, [&] {
                                      texdec_region r = region;
                                      r.src_offset = 16;  // its blocks run past src_size
                                      return r;
                                  }()};
    texdec_regions_job two_regions = job;
    two_regions.region_count = 2;
    two_regions.regions = two;
    cmd = dev.begin_commands();
    CHECK(texdec_record_regions(ctx, cmd, &two_regions) == TEXDEC_ERROR_SOURCE_TOO_SMALL);
    dev.submit_and_wait(cmd);
    expect_one_message(setup, TEXDEC_MESSAGE_ERROR);

    // Prepared: ready, and the same record call succeeds, creates nothing and decodes exactly.
    REQUIRE(texdec_prepare(ctx, 1, &to_buffer) == TEXDEC_SUCCESS);
    const texdec_memory_usage prepared = usage_of(ctx);
    CHECK(prepared.pipelines == 1);
    CHECK(prepared.table_bytes > 0);
    CHECK(texdec_variant_ready(ctx, &to_buffer) == TEXDEC_SUCCESS);
    cmd = dev.begin_commands();
    REQUIRE(texdec_record_regions(ctx, cmd, &job) == TEXDEC_SUCCESS);
    host_read_barrier(cmd);
    dev.submit_and_wait(cmd);
    astc.check_decoded();
    CHECK(usage_of(ctx).pipelines == prepared.pipelines);
    CHECK(usage_of(ctx).table_bytes == prepared.table_bytes);

    // Another destination kind or footprint is another variant; a BC7 one needs the BPTC tables.
    const texdec_variant to_image = make_variant(TEXDEC_FORMAT_ASTC_4x4_UNORM, TEXDEC_OUTPUT_RGBA8, TEXDEC_DESTINATION_IMAGE);
    const texdec_variant bc7 = make_variant(TEXDEC_FORMAT_BC7_UNORM, TEXDEC_OUTPUT_RGBA8, TEXDEC_DESTINATION_BUFFER);
    CHECK(texdec_variant_ready(ctx, &to_image) == TEXDEC_ERROR_NOT_READY);
    CHECK(texdec_variant_ready(ctx, &bc7) == TEXDEC_ERROR_NOT_READY);
    REQUIRE(texdec_prepare(ctx, 1, &bc7) == TEXDEC_SUCCESS);
    CHECK(texdec_variant_ready(ctx, &bc7) == TEXDEC_SUCCESS);
    CHECK(usage_of(ctx).table_bytes > prepared.table_bytes);

    // ---- image target: ASTC 6x6 sRGB -> RGBA8 into an R8G8B8A8_SRGB image (UNORM storage view) ----
    const uint32_t iw = 40, ih = 23, w = 35, h = 20;  // the region at (3, 2), partial blocks
    const VkImageCreateInfo ici = storage_image_info(VK_FORMAT_R8G8B8A8_SRGB, iw, ih);  // MUTABLE + EXTENDED_USAGE
    TestImage image = dev.create_image(ici);
    const texdec_image_target_create_info ti = target_create_info(ici, image.image);
    texdec_image_target* target = nullptr;
    REQUIRE(texdec_image_target_create(ctx, &ti, &target) == TEXDEC_SUCCESS);

    const std::vector<uint8_t> srgb_blocks = astc_blocks(6, 6, 6 * 4, test_seed() ^ 0x5EB6);
    const std::vector<uint8_t> srgb_expected =
        astcenc_decode_unorm8(AstcProfile::ldr_srgb, {6, 6, 1}, w, h, 1, srgb_blocks.data(), srgb_blocks.size());
    HostBuffer srgb_src = dev.create_buffer(srgb_blocks.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    std::memcpy(srgb_src.mapped, srgb_blocks.data(), srgb_blocks.size());
    HostBuffer canary = dev.create_buffer(size_t(iw) * ih * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    HostBuffer readback = dev.create_buffer(size_t(iw) * ih * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    std::memset(canary.mapped, kCanary, canary.size);
    texdec_region image_region{};
    image_region.offset = {3, 2, 0};
    image_region.extent = {w, h, 1};
    const texdec_regions_job image_job = RegionsJobBuilder(TEXDEC_FORMAT_ASTC_6x6_SRGB, TEXDEC_OUTPUT_RGBA8,
                                                           srgb_src.buffer, srgb_src.size, &image_region)
                                             .into_image(target)
                                             .flags(TEXDEC_RECORD_FAIL_IF_NOT_READY);

    const uint32_t before_image = usage_of(ctx).pipelines;
    cmd = dev.begin_commands();
    CHECK(texdec_record_regions(ctx, cmd, &image_job) == TEXDEC_ERROR_NOT_READY);
    dev.submit_and_wait(cmd);
    expect_one_message(setup, TEXDEC_MESSAGE_INFO, {"astc-6x6-srgb -> rgba8 into image"});
    CHECK(usage_of(ctx).pipelines == before_image);
    // Prepared through the target's own format (sRGB, written through the UNORM view): the same
    // variant as image_format UNDEFINED (texdec_output_vk_format's R8G8B8A8_SRGB).
    const texdec_variant srgb_image =
        make_variant(TEXDEC_FORMAT_ASTC_6x6_SRGB, TEXDEC_OUTPUT_RGBA8, TEXDEC_DESTINATION_IMAGE, VK_FORMAT_R8G8B8A8_SRGB);
    const texdec_variant srgb_default = make_variant(TEXDEC_FORMAT_ASTC_6x6_SRGB, TEXDEC_OUTPUT_RGBA8, TEXDEC_DESTINATION_IMAGE);
    const texdec_variant srgb_3d =
        make_variant(TEXDEC_FORMAT_ASTC_6x6_SRGB, TEXDEC_OUTPUT_RGBA8, TEXDEC_DESTINATION_IMAGE_3D, VK_FORMAT_R8G8B8A8_SRGB);
    REQUIRE(texdec_prepare(ctx, 1, &srgb_image) == TEXDEC_SUCCESS);
    CHECK(usage_of(ctx).pipelines == before_image + 1);
    CHECK(texdec_variant_ready(ctx, &srgb_image) == TEXDEC_SUCCESS);
    CHECK(texdec_variant_ready(ctx, &srgb_default) == TEXDEC_SUCCESS);
    CHECK(texdec_variant_ready(ctx, &srgb_3d) == TEXDEC_ERROR_NOT_READY);  // 3D views: another pipeline
    cmd = dev.begin_commands();
    record_image_canary(cmd, image.image, canary, iw, ih, 1);
    REQUIRE(texdec_record_regions(ctx, cmd, &image_job) == TEXDEC_SUCCESS);
    record_image_readback(cmd, image.image, readback, iw, ih, 1);
    dev.submit_and_wait(cmd);
    CHECK(usage_of(ctx).pipelines == before_image + 1);
    size_t differ = 0, canary_broken = 0;
    for (uint32_t y = 0; y < ih; ++y)
        for (uint32_t x = 0; x < iw; ++x) {
            const uint8_t* got = readback.mapped + (size_t(y) * iw + x) * 4;
            const bool inside = x >= 3 && x < 3 + w && y >= 2 && y < 2 + h;
            if (inside) differ += std::memcmp(got, &srgb_expected[(size_t(y - 2) * w + (x - 3)) * 4], 4) != 0;
            else canary_broken += !std::all_of(got, got + 4, [](uint8_t b) { return b == kCanary; });
        }
    CHECK(differ == 0);
    CHECK(canary_broken == 0);

    // texdec_regions_job::flags takes FAIL_IF_NOT_READY only: other bits are refused, never ignored.
    for (uint32_t flags : {1u << 1, 1u << 2, 1u << 7}) {
        texdec_regions_job bad = job;
        bad.flags = flags | TEXDEC_RECORD_FAIL_IF_NOT_READY;
        cmd = dev.begin_commands();
        CHECK(texdec_record_regions(ctx, cmd, &bad) == TEXDEC_ERROR_INVALID_ARGUMENT);
        dev.submit_and_wait(cmd);
        expect_one_message(setup, TEXDEC_MESSAGE_ERROR, {"TEXDEC_RECORD_FAIL_IF_NOT_READY"});
    }
    CHECK(texdec_variant_ready(ctx, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_variant_ready(nullptr, &to_buffer) == TEXDEC_ERROR_INVALID_ARGUMENT);
    setup.messages.take();

    check_no_validation_messages(dev.log(), "FAIL_IF_NOT_READY");
    texdec_image_target_destroy(ctx, target);
    dev.destroy(image);
    for (HostBuffer* b : {&src, &dst, &srgb_src, &canary, &readback}) dev.destroy(*b);
    setup.close();
}

TEST_CASE("prepare: a bad variant anywhere in the list is refused with its index, before anything is created",
          "[prepare][gpu]") {
    auto own = OwnContext::open(Backend::gpu);
    if (!own) return;
    texdec_context* ctx = own->get();
    const texdec_variant good = make_variant(TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8, TEXDEC_DESTINATION_BUFFER);
    const texdec_variant good2 = make_variant(TEXDEC_FORMAT_ASTC_5x4_UNORM, TEXDEC_OUTPUT_RGBA16F, TEXDEC_DESTINATION_IMAGE_3D);
    const uint32_t unknown_struct[4] = {0x7E57, 0, 0, 0};  // an extension struct texdec does not know

    struct Bad {
        const char* what;
        texdec_variant variant;
        texdec_status status;
        const char* message;  // expected in the message, after "variant <index>: "
    };
    auto with = [&](auto change) {
        texdec_variant v = good;
        change(v);
        return v;
    };
    const Bad bads[] = {
        {"next not NULL", with([&](texdec_variant& v) { v.next = unknown_struct; }), TEXDEC_ERROR_INVALID_ARGUMENT,
         "type 32343"},
        {"unknown format", with([](texdec_variant& v) { v.format = texdec_format(9999); }), TEXDEC_ERROR_UNKNOWN_FORMAT,
         "format 9999"},
        {"RGBA8 of BC6H", with([](texdec_variant& v) { v.format = TEXDEC_FORMAT_BC6H_UFLOAT; }),
         TEXDEC_ERROR_UNSUPPORTED_OUTPUT, "bc6h-ufloat"},
        {"unknown output", with([](texdec_variant& v) { v.output = texdec_output(7); }),
         TEXDEC_ERROR_UNSUPPORTED_OUTPUT, "output 7"},
        {"unknown rounding", with([](texdec_variant& v) { v.bc_rounding = texdec_bc_rounding(9); }),
         TEXDEC_ERROR_UNSUPPORTED_ROUNDING, "bc_rounding 9"},
        {"unknown destination", with([](texdec_variant& v) { v.destination = texdec_destination_kind(5); }),
         TEXDEC_ERROR_INVALID_DESTINATION, "destination 5"},
        {"image_format for a buffer", with([](texdec_variant& v) { v.image_format = VK_FORMAT_R8G8B8A8_UNORM; }),
         TEXDEC_ERROR_INVALID_DESTINATION, "buffer destination"},
        {"an image format that does not hold the output", with([](texdec_variant& v) {
             v.destination = TEXDEC_DESTINATION_IMAGE;
             v.image_format = VK_FORMAT_R16G16B16A16_SFLOAT;  // RGBA8 texels
         }),
         TEXDEC_ERROR_INVALID_DESTINATION, "cannot hold bc1-rgba-unorm -> rgba8"},
        {"an image format texdec never writes", with([](texdec_variant& v) {
             v.destination = TEXDEC_DESTINATION_IMAGE;
             v.image_format = VK_FORMAT_D32_SFLOAT;
         }),
         TEXDEC_ERROR_INVALID_DESTINATION, "an image of VkFormat 126 cannot hold"},
    };
    for (const Bad& bad : bads) {
        for (uint32_t index = 0; index < 3; ++index) {
            INFO(bad.what << " at index " << index);
            texdec_variant list[3] = {good, good2, good};
            list[index] = bad.variant;
            CHECK(texdec_prepare(ctx, 3, list) == bad.status);
            const auto errors = own->log().take_errors();
            REQUIRE(errors.size() == 1);
            INFO(errors[0]);
            CHECK(errors[0].find("texdec_prepare: variant " + std::to_string(index) + ": ") != std::string::npos);
            CHECK(errors[0].find(bad.message) != std::string::npos);
            // Checked before anything is created: the good variants before it were not created.
            texdec_memory_usage u{};
            REQUIRE(texdec_context_memory_usage(ctx, &u) == TEXDEC_SUCCESS);
            CHECK(u.pipelines == 0);
        }
        // texdec_variant_ready checks a variant as texdec_prepare does.
        CHECK(texdec_variant_ready(ctx, &bad.variant) == bad.status);
        const auto errors = own->log().take_errors();
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].find(bad.message) != std::string::npos);
    }
    // A NULL list with a count, and a NULL context.
    CHECK(texdec_prepare(ctx, 2, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_prepare(nullptr, 1, &good) == TEXDEC_ERROR_INVALID_ARGUMENT);
    own->log().take_errors();
    // The good list still works afterwards.
    const texdec_variant both[2] = {good, good2};
    CHECK(texdec_prepare(ctx, 2, both) == TEXDEC_SUCCESS);
    CHECK(texdec_variant_ready(ctx, &good) == TEXDEC_SUCCESS);
    CHECK(texdec_variant_ready(ctx, &good2) == TEXDEC_SUCCESS);
    own->close_and_check();
}

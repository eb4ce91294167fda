// Thread safety: one texdec context used by many threads at once. Every thread starts
// at the same moment (a std::latch), so that the context's first-use work (pipeline creation,
// ASTC footprint tables, the BPTC/ETC table buffer) races for real; every result is compared,
// tolerance 0, with an oracle computed single-threaded beforehand:
//   BC1 (EXACT) and BC4 (EXACT, NATIVE)  exact_model (oracles/reference.h);
//   BC7                                  lavapipe's native decode (docs/EXACTNESS.md "BC7");
//   ASTC LDR / sRGB / HDR                libastcenc (oracles/astcenc_oracle.h);
//   ETC2, EAC                            texdec_decode on a separate, fresh context, one thread
//                                        (their true oracle, Mesa's GL decoder, is not cheap to
//                                        start; test_etc2_decode.cpp / test_eac_decode.cpp prove
//                                        that path against it).
// A third case races texdec_prepare, texdec_variant_ready, texdec_context_memory_usage and
// texdec_context_release_staging with texdec_decode, and checks that the racing context ends up
// with exactly the pipelines and tables a context that did the same work on one thread has (each
// kept once: compiles run outside the lock, a thread needing a variant in flight waits for it,
// and of two lookup tables built at once the first stored is kept).
// The one-call cases run on a GPU context and on a CPU backend context (the CPU backend's pool
// shared by the calling threads, and a caller's run_tasks hook running tasks on threads of its
// own); the record path is GPU only.
// Catch2 v2's assertions are not thread-safe: threads only collect error strings; the main thread
// reports them. .ci/test.sh runs these tests (tag [threads]) under ThreadSanitizer too.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <latch>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gpu/external_setup.h"
#include "gpu/gpu_fixture.h"
#include "oracles/astcenc_oracle.h"
#include "oracles/lavapipe_native.h"
#include "oracles/reference.h"
#include "support/astc_block_builder.h"
#include "support/job_builder.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

constexpr uint32_t kThreads = 16;
constexpr uint8_t kCanary = 0xCD;

enum class Expect { exact_model, lavapipe_bc7, astcenc_unorm8, astcenc_hdr_f16, one_call_fresh_context };

struct FormatCase {
    texdec_format format;
    texdec_output output;
    const char* name;
    uint32_t texel_bytes;
    uint32_t block_w, block_h, block_bytes;
    Expect expect;
    AstcProfile profile;  // ASTC only
};

// One of each family, three ASTC footprints (three footprint tables) and all three ASTC profiles.
// Cases both paths decode.
const FormatCase kBc1 = {TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8, "bc1-rgba-unorm RGBA8", 4, 4, 4, 8, Expect::exact_model, {}};
const FormatCase kBc4Native = {TEXDEC_FORMAT_BC4_SNORM, TEXDEC_OUTPUT_NATIVE, "bc4-snorm NATIVE", 1, 4, 4, 8, Expect::exact_model, {}};
const FormatCase kAstc4x4 = {TEXDEC_FORMAT_ASTC_4x4_UNORM, TEXDEC_OUTPUT_RGBA8, "astc-4x4-unorm RGBA8", 4, 4, 4, 16,
                             Expect::astcenc_unorm8, AstcProfile::ldr};
const FormatCase kAstc6x6Srgb = {TEXDEC_FORMAT_ASTC_6x6_SRGB, TEXDEC_OUTPUT_RGBA8, "astc-6x6-srgb RGBA8", 4, 6, 6, 16,
                                 Expect::astcenc_unorm8, AstcProfile::ldr_srgb};
const FormatCase kAstc5x4Hdr = {TEXDEC_FORMAT_ASTC_5x4_SFLOAT, TEXDEC_OUTPUT_RGBA16F, "astc-5x4-sfloat RGBA16F", 8, 5, 4, 16,
                                Expect::astcenc_hdr_f16, AstcProfile::hdr};

const std::vector<FormatCase>& record_cases() {
    static const std::vector<FormatCase> cases = {
        kBc1,
        kBc4Native,
        {TEXDEC_FORMAT_BC7_UNORM, TEXDEC_OUTPUT_RGBA8, "bc7-unorm RGBA8", 4, 4, 4, 16, Expect::lavapipe_bc7, {}},
        {TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM, TEXDEC_OUTPUT_RGBA8, "etc2-r8g8b8a8-unorm RGBA8", 4, 4, 4, 16,
         Expect::one_call_fresh_context, {}},
        {TEXDEC_FORMAT_EAC_R11G11_SNORM, TEXDEC_OUTPUT_RGBA16F, "eac-r11g11-snorm RGBA16F", 8, 4, 4, 16,
         Expect::one_call_fresh_context, {}},
        kAstc4x4,
        kAstc6x6Srgb,
        kAstc5x4Hdr,
    };
    return cases;
}

// texdec_decode on a shared context: formats with a true oracle only.
const std::vector<FormatCase>& one_call_cases() {
    static const std::vector<FormatCase> cases = {
        kBc1,
        {TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA16F, "bc1-rgb-unorm RGBA16F", 8, 4, 4, 8, Expect::exact_model, {}},
        {TEXDEC_FORMAT_BC3_UNORM, TEXDEC_OUTPUT_RGBA8, "bc3-unorm RGBA8", 4, 4, 4, 16, Expect::exact_model, {}},
        kBc4Native,
        {TEXDEC_FORMAT_BC5_UNORM, TEXDEC_OUTPUT_RGBA16F, "bc5-unorm RGBA16F", 8, 4, 4, 16, Expect::exact_model, {}},
        kAstc4x4,
        kAstc6x6Srgb,
        kAstc5x4Hdr,
    };
    return cases;
}

// An image to decode and what it must decode to (tight texels, row pitch width * texel size).
struct Sample {
    const FormatCase* fc = nullptr;
    uint32_t width = 0, height = 0;
    std::vector<uint8_t> blocks;    // tightly packed
    std::vector<uint8_t> expected;  // width * height * texel_bytes
    size_t texel_bytes() const { return size_t(width) * height * fc->texel_bytes; }
    // The one-call job decoding these blocks into `texels` (texel_bytes() of them).
    texdec_host_job host_job(void* texels) const {
        return JobBuilder(fc->format, fc->output, width, height).blocks(blocks).texels(texels, texel_bytes());
    }
};

// ASTC blocks: mostly legal random blocks (random block mode, partitioning, CEMs incl. HDR ones,
// weights, colours), some void extents, some random bits (mostly error blocks).
std::vector<uint8_t> astc_blocks(const FormatCase& fc, size_t count, SplitMix64& rng) {
    const std::vector<uint32_t> modes = astc_legal_block_modes_2d(fc.block_w, fc.block_h);
    std::vector<uint8_t> out(count * 16);
    for (size_t i = 0; i < count; ++i) {
        AstcBlock b;
        const uint64_t lo = rng.next(), hi = rng.next();
        std::memcpy(b.data(), &lo, 8), std::memcpy(b.data() + 8, &hi, 8);
        const unsigned r = unsigned(rng.next() % 8);
        if (r < 5) {
            if (const auto spec = astc_random_legal_spec(modes, fc.block_w, fc.block_h, {}, rng))
                b = astc_build_random_block(*spec, fc.block_w, fc.block_h, rng);
        } else if (r == 5) {
            AstcVoidExtent v;
            v.hdr = fc.profile == AstcProfile::hdr && (rng.next() & 1);
            for (auto& c : v.rgba) c = uint16_t(rng.next() % (v.hdr ? 0x7C00 : 0x10000));  // finite FP16 when HDR
            b = astc_build_void_extent(v);
        } else if (r == 6) {
            astc_set_bits(b.data(), 0, 11, modes[rng.next() % modes.size()]);  // a legal mode, the rest random
        }
        std::memcpy(&out[i * 16], b.data(), 16);
    }
    return out;
}

// Blocks and the oracle's texels for one image. `fresh` decodes the ETC2/EAC expectation (one call,
// a context of its own); `device` the BC7 one (lavapipe's native decode).
Sample make_sample(const FormatCase& fc, uint32_t width, uint32_t height, uint64_t seed, OwnContext* fresh,
                   VulkanTestDevice* device) {
    Sample s;
    s.fc = &fc;
    s.width = width;
    s.height = height;
    const uint32_t bx = (width + fc.block_w - 1) / fc.block_w, by = (height + fc.block_h - 1) / fc.block_h;
    const size_t count = size_t(bx) * by;
    SplitMix64 rng(seed);
    if (fc.format >= TEXDEC_FORMAT_ASTC_4x4_UNORM) {
        s.blocks = astc_blocks(fc, count, rng);
    } else if (fc.format <= TEXDEC_FORMAT_BC5_SNORM) {
        s.blocks = random_blocks(bc_format(fc.format), count, seed);
    } else {  // BC7, ETC2, EAC: every bit pattern is a block
        s.blocks.resize(count * fc.block_bytes);
        for (size_t i = 0; i < s.blocks.size(); i += 8) {
            const uint64_t v = rng.next();
            std::memcpy(&s.blocks[i], &v, 8);
        }
    }
    s.expected.assign(s.texel_bytes(), 0);
    switch (fc.expect) {
    case Expect::exact_model: {
        const BcFormat& f = bc_format(fc.format);
        REQUIRE(output_texel_bytes(f, fc.output) == fc.texel_bytes);
        for (uint32_t y = 0; y < by; ++y)
            for (uint32_t x = 0; x < bx; ++x) {
                ReferenceBlock ref;
                reference_decode(f, TEXDEC_BC_ROUNDING_EXACT, Oracle::ExactModel, &s.blocks[(size_t(y) * bx + x) * f.block_bytes],
                                 &ref);
                REQUIRE(ref.channel_mask == 0xFu);
                for (uint32_t ty = 0; ty < 4; ++ty)
                    for (uint32_t tx = 0; tx < 4; ++tx) {
                        const uint32_t px = x * 4 + tx, py = y * 4 + ty;
                        if (px >= width || py >= height) continue;
                        pack_reference_texel(f, fc.output, ref.texel[ty * 4 + tx],
                                             &s.expected[(size_t(py) * width + px) * fc.texel_bytes]);
                    }
            }
        break;
    }
    case Expect::lavapipe_bc7: {
        const std::vector<float> native = native_decode(*device, bc7_formats()[0], s.blocks.data(), width, height);
        REQUIRE(native.size() == size_t(width) * height * 4);
        for (size_t i = 0; i < native.size(); ++i) {
            const float v = native[i] * 255.0f;
            const long rounded = std::lround(v);
            REQUIRE(std::fabs(v - float(rounded)) < 1e-3f);  // lavapipe returns v / 255
            s.expected[i] = uint8_t(rounded);
        }
        break;
    }
    case Expect::astcenc_unorm8: {
        const auto texels = astcenc_decode_unorm8(fc.profile, {fc.block_w, fc.block_h, 1}, width, height, 1,
                                                  s.blocks.data(), s.blocks.size());
        REQUIRE(texels.size() == s.expected.size());
        s.expected = texels;
        break;
    }
    case Expect::astcenc_hdr_f16: {
        const auto halves = astcenc_decode_f16(AstcProfile::hdr, {fc.block_w, fc.block_h, 1}, width, height, 1,
                                               s.blocks.data(), s.blocks.size());
        REQUIRE(halves.size() * 2 == s.expected.size());
        std::memcpy(s.expected.data(), halves.data(), s.expected.size());
        break;
    }
    case Expect::one_call_fresh_context: {
        const texdec_host_job job = JobBuilder(fc.format, fc.output, width, height).blocks(s.blocks).texels(s.expected);
        REQUIRE(fresh->decode(job) == TEXDEC_SUCCESS);
        break;
    }
    }
    return s;
}

// "<what>: N of M texels differ, first at (x, y): got .. expected .." or empty.
std::string compare_texels(const Sample& s, const uint8_t* got, const std::string& what) {
    const uint32_t tb = s.fc->texel_bytes;
    size_t differ = 0;
    std::ostringstream first;
    for (uint32_t y = 0; y < s.height; ++y)
        for (uint32_t x = 0; x < s.width; ++x) {
            const size_t at = (size_t(y) * s.width + x) * tb;
            if (std::memcmp(got + at, &s.expected[at], tb) == 0) continue;
            if (differ++ == 0)
                first << " first at (" << x << ", " << y << "): got " << hex_bytes(got + at, tb) << " expected "
                      << hex_bytes(&s.expected[at], tb);
        }
    if (!differ) return {};
    std::ostringstream out;
    out << what << " " << s.fc->name << " " << s.width << "x" << s.height << ": " << differ << " of "
        << size_t(s.width) * s.height << " texels differ," << first.str();
    return out.str();
}

struct ThreadResult {
    std::vector<std::string> errors;
    size_t texels_checked = 0;
    size_t skipped_partial = 0;  // CPU backend without the family's decoder (TEXDEC_TEST_CPU_PARTIAL=1)
};

std::string status_text(texdec_status s) { return texdec_status_string(s); }

// ---- case 1: the record path on one shared external context ---------------------------------

// One thread's resources on the test's device: its own pool, its own source and destination.
struct RecordWorker {
    VkCommandPool pool = VK_NULL_HANDLE;
    HostBuffer src, dst;
    std::vector<Sample> samples;
    std::vector<VkDeviceSize> src_offsets, dst_offsets, dst_ends;  // dst_ends: next output's offset (canary up to it)
    ThreadResult result;
};

VkDeviceSize align256(VkDeviceSize v) { return (v + 255) / 256 * 256; }

// Records every sample (in `order`), submits under `queue_mutex`, waits and compares.
void record_round(VulkanTestDevice& dev, texdec_context* ctx, RecordWorker& w, std::mutex& queue_mutex,
                  const std::vector<size_t>& order, std::latch* start, const char* round) {
    auto fail = [&](const std::string& e) { w.result.errors.push_back(std::string(round) + ": " + e); };
    std::memset(w.dst.mapped, kCanary, w.dst.size);
    if (vkResetCommandPool(dev.device(), w.pool, 0) != VK_SUCCESS) return fail("vkResetCommandPool failed");
    VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbai.commandPool = w.pool;
    cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbai.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    if (vkAllocateCommandBuffers(dev.device(), &cbai, &cmd) != VK_SUCCESS) return fail("vkAllocateCommandBuffers failed");
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(cmd, &begin);
    if (start) start->arrive_and_wait();  // every thread's first texdec call at once
    bool recorded_all = true;
    for (size_t i : order) {
        const Sample& s = w.samples[i];
        RecordJob job{.format = s.fc->format,
                      .output = s.fc->output,
                      .width = s.width,
                      .height = s.height,
                      .depth = 1,
                      .src_buffer = w.src.buffer,
                      .src_offset = w.src_offsets[i],
                      .src_size = s.blocks.size()};
        job.into_buffer(w.dst.buffer, w.dst_offsets[i], w.dst_ends[i] - w.dst_offsets[i]);
        const texdec_status st = record_one(ctx, cmd, &job);
        if (st != TEXDEC_SUCCESS) {
            fail(std::string("texdec_record_regions ") + s.fc->name + ": " + status_text(st));
            recorded_all = false;
        }
    }
    host_read_barrier(cmd);
    vkEndCommandBuffer(cmd);
    if (!recorded_all) return;
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    if (vkCreateFence(dev.device(), &fci, nullptr, &fence) != VK_SUCCESS) return fail("vkCreateFence failed");
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    VkResult r;
    {
        std::lock_guard<std::mutex> lock(queue_mutex);  // Vulkan: a queue is externally synchronized
        r = vkQueueSubmit(dev.queue(), 1, &si, fence);
    }
    if (r == VK_SUCCESS) r = vkWaitForFences(dev.device(), 1, &fence, VK_TRUE, 120ull * 1000 * 1000 * 1000);
    vkDestroyFence(dev.device(), fence, nullptr);
    if (r != VK_SUCCESS) return fail("submit / wait failed with VkResult " + std::to_string(r));
    for (size_t i = 0; i < w.samples.size(); ++i) {
        const Sample& s = w.samples[i];
        const uint8_t* got = w.dst.mapped + w.dst_offsets[i];
        if (std::string e = compare_texels(s, got, round); !e.empty()) w.result.errors.push_back(e);
        const uint8_t* tail = got + s.texel_bytes();
        const size_t tail_bytes = size_t(w.dst_ends[i] - w.dst_offsets[i]) - s.texel_bytes();
        if (std::any_of(tail, tail + tail_bytes, [](uint8_t b) { return b != kCanary; }))
            fail(std::string(s.fc->name) + ": bytes after the texels were written");
        w.result.texels_checked += size_t(s.width) * s.height;
    }
}

// ---- case 2: texdec_decode from many threads on one own context ------------------------------

void one_call_worker(texdec_context* ctx, const std::vector<Sample>& samples, std::latch& start, ThreadResult& result) {
    const bool partial = texdec_context_backend(ctx) == TEXDEC_BACKEND_CPU && cpu_partial_allowed();
    std::vector<std::vector<uint8_t>> outputs(samples.size());
    for (size_t i = 0; i < samples.size(); ++i) outputs[i].assign(samples[i].texel_bytes() + 64, kCanary);
    start.arrive_and_wait();
    for (size_t i = 0; i < samples.size(); ++i) {
        const Sample& s = samples[i];
        texdec_host_job job = s.host_job(outputs[i].data());
        job.timeout_ns = 120ull * 1000 * 1000 * 1000;  // 16 threads queue up on 2 cores
        const texdec_status st = texdec_decode(ctx, &job);
        if (st == TEXDEC_ERROR_UNSUPPORTED_FORMAT && partial) {
            ++result.skipped_partial;
            continue;
        }
        if (st != TEXDEC_SUCCESS) {
            result.errors.push_back(std::string("texdec_decode ") + s.fc->name + ": " + status_text(st));
            continue;
        }
        if (std::string e = compare_texels(s, outputs[i].data(), "texdec_decode"); !e.empty()) result.errors.push_back(e);
        if (std::any_of(outputs[i].begin() + ptrdiff_t(s.texel_bytes()), outputs[i].end(), [](uint8_t b) { return b != kCanary; }))
            result.errors.push_back(std::string(s.fc->name) + ": bytes after dst_size were written");
        result.texels_checked += size_t(s.width) * s.height;
    }
}

// Reports the threads' errors; returns the decodes skipped for TEXDEC_TEST_CPU_PARTIAL=1.
size_t report(const std::vector<ThreadResult>& results, size_t* texels) {
    *texels = 0;
    size_t skipped = 0;
    for (size_t t = 0; t < results.size(); ++t) {
        for (const auto& e : results[t].errors) FAIL_CHECK("thread " << t << ": " << e);
        *texels += results[t].texels_checked;
        skipped += results[t].skipped_partial;
    }
    if (skipped)
        std::printf(
            "note: %zu decodes skipped: the CPU backend has no decoder for their format yet "
            "(TEXDEC_TEST_CPU_PARTIAL=1)\n",
            skipped);
    return skipped;
}

// A caller's scheduler for the CPU backend (texdec_run_tasks_function): every call runs its tasks
// on `workers` threads of its own that take task indices from a shared counter, and counts calls
// and tasks. Several texdec_decode calls use it at once.
struct TaskHook {
    uint32_t workers = 3;
    std::atomic<uint64_t> calls{0}, tasks{0};
    static void run(void* user, uint32_t count, texdec_task_function task, void* data) {
        auto* self = static_cast<TaskHook*>(user);
        ++self->calls;
        self->tasks += count;
        std::atomic<uint32_t> next{0};
        auto drain = [&] {
            for (uint32_t i; (i = next.fetch_add(1)) < count;) task(data, i);
        };
        std::vector<std::thread> threads;
        for (uint32_t t = 1; t < self->workers; ++t) threads.emplace_back(drain);
        drain();
        for (auto& th : threads) th.join();
    }
};

// A CPU backend context of the test's own (no OwnContext: a run_tasks hook, no mirror).
struct CpuContext {
    MessageLog log;
    texdec_context* ctx = nullptr;
    CpuContext(uint32_t threads, TaskHook* hook) {
        const texdec_backend_info b = backend_info(TEXDEC_BACKEND_CPU, threads, hook ? &TaskHook::run : nullptr, hook);
        texdec_context_create_info info{};
        info.next = &b;
        info.message_callback = [](texdec_message_severity severity, const char* m, void* user) {
            if (severity == TEXDEC_MESSAGE_ERROR) static_cast<MessageLog*>(user)->add_error(m ? m : "");
        };
        info.user_data = &log;
        REQUIRE(texdec_context_create(&info, &ctx) == TEXDEC_SUCCESS);
        REQUIRE(texdec_context_backend(ctx) == TEXDEC_BACKEND_CPU);
    }
    ~CpuContext() { texdec_context_destroy(ctx); }
};

}  // namespace

TEST_CASE("threads: 16 threads record 8 formats at once into their own command buffers on one shared context",
          "[threads]") {
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    auto fresh = OwnContext::open();  // the ETC2/EAC expectations: one call, one thread, another context
    if (!fresh) return;

    const auto& cases = record_cases();
    std::vector<RecordWorker> workers(kThreads);
    for (uint32_t t = 0; t < kThreads; ++t) {
        RecordWorker& w = workers[t];
        VkDeviceSize src_size = 0, dst_size = 0;
        for (size_t c = 0; c < cases.size(); ++c) {
            // Sizes differ per thread and format; none is a multiple of the block size in both axes.
            const uint32_t width = 21 + 6 * uint32_t((t + c) % 7), height = 13 + 5 * uint32_t((3 * t + c) % 5);
            w.samples.push_back(make_sample(cases[c], width, height, test_seed() ^ (uint64_t(t) << 32) ^ (c << 8) ^ 0x7EAD,
                                            fresh.get(), &dev));
            const Sample& s = w.samples.back();
            w.src_offsets.push_back(src_size);
            src_size = align256(src_size + s.blocks.size());
            w.dst_offsets.push_back(dst_size);
            dst_size = align256(dst_size + s.texel_bytes() + 1);  // at least one canary byte after each output
            w.dst_ends.push_back(dst_size);
        }
        w.src = dev.create_buffer(src_size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        w.dst = dev.create_buffer(dst_size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        for (size_t i = 0; i < w.samples.size(); ++i)
            std::memcpy(w.src.mapped + w.src_offsets[i], w.samples[i].blocks.data(), w.samples[i].blocks.size());
        VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        cpci.queueFamilyIndex = dev.queue_family();
        cpci.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
        REQUIRE(vkCreateCommandPool(dev.device(), &cpci, nullptr, &w.pool) == VK_SUCCESS);
    }
    fresh->close_and_check();
    check_no_validation_messages(dev.log(), "preparing the samples");

    std::mutex queue_mutex;
    std::latch start(kThreads);
    std::vector<std::thread> threads;
    for (uint32_t t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            RecordWorker& w = workers[t];
            // Round 1: half the threads start with the same format (the same pipeline and tables
            // are created under contention), the others each with a different one.
            std::vector<size_t> order(cases.size());
            for (size_t i = 0; i < order.size(); ++i) order[i] = (i + (t % 2 ? t / 2 : 0)) % order.size();
            record_round(dev, setup.ctx, w, queue_mutex, order, &start, "round 1");
            // Round 2: everything exists now; recording overlaps the other threads' submissions.
            std::reverse(order.begin(), order.end());
            record_round(dev, setup.ctx, w, queue_mutex, order, nullptr, "round 2");
        });
    for (auto& th : threads) th.join();

    std::vector<ThreadResult> results;
    for (auto& w : workers) results.push_back(w.result);
    size_t texels = 0;
    report(results, &texels);
    std::printf("[threads] record path: %u threads x %zu formats x 2 rounds, %zu texels compared\n", kThreads,
                cases.size(), texels);
    CHECK(texels > 0);
    for (const auto& e : setup.context_log.take_errors()) FAIL_CHECK("texdec error message: " << e);
    check_no_validation_messages(dev.log(), "16 threads recording");
    for (auto& w : workers) {
        vkDestroyCommandPool(dev.device(), w.pool, nullptr);
        dev.destroy(w.src);
        dev.destroy(w.dst);
    }
    setup.close();
}

namespace {

// Three decodes per thread on `ctx`, each of another format; sizes grow with the thread index so
// that calls keep growing the shared staging buffers (GPU) while others use them.
size_t sixteen_threads_decode(texdec_context* ctx, MessageLog& log, const char* what) {
    const auto& cases = one_call_cases();
    std::vector<std::vector<Sample>> samples(kThreads);
    for (uint32_t t = 0; t < kThreads; ++t)
        for (uint32_t k = 0; k < 3; ++k) {
            const FormatCase& fc = cases[(t + 3 * k) % cases.size()];
            const uint32_t width = 9 + 19 * t + 7 * k, height = 5 + 11 * t + 3 * k;
            samples[t].push_back(make_sample(fc, width, height, test_seed() ^ (uint64_t(t) << 32) ^ (k << 8) ^ 0x0CA11,
                                             nullptr, nullptr));
        }
    std::latch start(kThreads);
    std::vector<ThreadResult> results(kThreads);
    std::vector<std::thread> threads;
    for (uint32_t t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] { one_call_worker(ctx, samples[t], start, results[t]); });
    for (auto& th : threads) th.join();
    size_t texels = 0;
    const size_t skipped = report(results, &texels);
    std::printf("[threads] one-call path (%s): %u threads x 3 decodes, %zu texels compared\n", what, kThreads, texels);
    CHECK((texels > 0 || skipped > 0));
    for (const auto& e : log.take_errors())
        if (!skipped) FAIL_CHECK("texdec error message: " << e);  // else: the partial CPU backend's refusals
    return texels;
}

}  // namespace

TEST_CASE("threads: 16 threads call texdec_decode at once on one own context with different sizes and formats",
          "[threads]") {
    auto ctx = OwnContext::open(Backend::gpu);
    if (!ctx) return;
    sixteen_threads_decode(ctx->get(), ctx->log(), "GPU");
    ctx->close_and_check();
}

TEST_CASE("threads (CPU backend): 16 threads call texdec_decode at once on one CPU context", "[threads][cpu]") {
    // 1 thread: every call decodes on its caller; 2: one pool thread shared by all 16 callers.
    for (uint32_t pool : {2u, 1u}) {
        INFO("cpu_threads " << pool);
        CpuContext cpu(pool, nullptr);
        sixteen_threads_decode(cpu.ctx, cpu.log, pool == 1 ? "CPU, cpu_threads 1" : "CPU, cpu_threads 2");
    }
}

TEST_CASE("threads (CPU backend): 16 threads call texdec_decode at once through a run_tasks hook", "[threads][cpu]") {
    TaskHook hook;
    size_t texels = 0;
    {
        CpuContext cpu(4, &hook);
        texels = sixteen_threads_decode(cpu.ctx, cpu.log, "CPU, run_tasks hook");
    }
    std::printf("[threads] run_tasks hook: %llu calls, %llu tasks\n", (unsigned long long)hook.calls.load(),
                (unsigned long long)hook.tasks.load());
    if (texels > 0) CHECK(hook.calls > 0);
    CHECK(hook.tasks >= hook.calls);
}

namespace {

struct PrepareCombo {
    texdec_format format;
    texdec_output output;
    texdec_destination_kind dst_kind;
};

// Buffer and 2D/3D image variants of several families (RGBA8 / RGBA16F images only: R8/R16 storage
// images need a device feature the own context does not enable), overlapping the decoders' formats.
const std::vector<PrepareCombo>& prepare_combos() {
    static const std::vector<PrepareCombo> combos = {
        {TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8, TEXDEC_DESTINATION_BUFFER},
        {TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8, TEXDEC_DESTINATION_IMAGE},
        {TEXDEC_FORMAT_BC4_SNORM, TEXDEC_OUTPUT_NATIVE, TEXDEC_DESTINATION_BUFFER},
        {TEXDEC_FORMAT_BC5_UNORM, TEXDEC_OUTPUT_RGBA16F, TEXDEC_DESTINATION_IMAGE},
        {TEXDEC_FORMAT_BC7_SRGB, TEXDEC_OUTPUT_RGBA8, TEXDEC_DESTINATION_BUFFER},
        {TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM, TEXDEC_OUTPUT_RGBA8, TEXDEC_DESTINATION_IMAGE},
        {TEXDEC_FORMAT_EAC_R11_UNORM, TEXDEC_OUTPUT_RGBA16F, TEXDEC_DESTINATION_BUFFER},
        {TEXDEC_FORMAT_ASTC_4x4_UNORM, TEXDEC_OUTPUT_RGBA8, TEXDEC_DESTINATION_BUFFER},
        {TEXDEC_FORMAT_ASTC_4x4_UNORM, TEXDEC_OUTPUT_RGBA8, TEXDEC_DESTINATION_IMAGE},
        {TEXDEC_FORMAT_ASTC_6x6_SRGB, TEXDEC_OUTPUT_RGBA8, TEXDEC_DESTINATION_BUFFER},
        {TEXDEC_FORMAT_ASTC_8x8_SFLOAT, TEXDEC_OUTPUT_RGBA16F, TEXDEC_DESTINATION_IMAGE_3D},
        {TEXDEC_FORMAT_ASTC_5x4_SFLOAT, TEXDEC_OUTPUT_RGBA16F, TEXDEC_DESTINATION_BUFFER},
    };
    return combos;
}

texdec_variant variant_of(const PrepareCombo& c) { return make_variant(c.format, c.output, c.dst_kind); }

// The combos a context prepares: a CPU backend context has buffer variants only (image variants
// are TEXDEC_ERROR_WRONG_BACKEND there: test_cpu_backend.cpp).
std::vector<PrepareCombo> combos_for(texdec_context* ctx) {
    std::vector<PrepareCombo> out;
    for (const PrepareCombo& c : prepare_combos())
        if (texdec_context_backend(ctx) != TEXDEC_BACKEND_CPU || c.dst_kind == TEXDEC_DESTINATION_BUFFER)
            out.push_back(c);
    return out;
}

// A CPU backend without the format's decoder yet (TEXDEC_TEST_CPU_PARTIAL=1).
bool partial_skip(texdec_context* ctx, texdec_status st) {
    return st == TEXDEC_ERROR_UNSUPPORTED_FORMAT && texdec_context_backend(ctx) == TEXDEC_BACKEND_CPU &&
           cpu_partial_allowed();
}

std::string prepare_all(texdec_context* ctx, size_t first) {
    const auto combos = combos_for(ctx);
    for (size_t i = 0; i < combos.size(); ++i) {
        const PrepareCombo& c = combos[(first + i) % combos.size()];
        const texdec_variant v = variant_of(c);
        const texdec_status st = texdec_prepare(ctx, 1, &v);
        if (st != TEXDEC_SUCCESS && !partial_skip(ctx, st))
            return "texdec_prepare(format " + std::to_string(int(c.format)) + ", output " + std::to_string(int(c.output)) +
                   ", kind " + std::to_string(int(c.dst_kind)) + "): " + status_text(st);
    }
    return {};
}

std::string usage_text(const texdec_memory_usage& u) {
    return std::to_string(u.pipelines) + " pipelines, " + std::to_string(u.table_bytes) + " table bytes, " +
           std::to_string(u.staging_host_bytes) + " host / " + std::to_string(u.staging_device_bytes) + " device staging bytes";
}

}  // namespace

namespace {

void race_prepare_queries_and_decodes(Backend backend) {
    auto ctx = OwnContext::open(backend);
    if (!ctx) return;
    const bool cpu = backend == Backend::cpu;
    const auto& cases = one_call_cases();
    constexpr uint32_t kDecoders = 6, kPreparers = 4, kQueriers = 4, kReleasers = 2;
    std::vector<std::vector<Sample>> samples(kDecoders);
    for (uint32_t t = 0; t < kDecoders; ++t)
        for (uint32_t k = 0; k < 3; ++k) {
            const FormatCase& fc = cases[(2 * t + k) % cases.size()];
            samples[t].push_back(make_sample(fc, 40 + 31 * t + 5 * k, 24 + 13 * t + 7 * k,
                                             test_seed() ^ (uint64_t(t) << 32) ^ (k << 8) ^ 0x9E9, nullptr, nullptr));
        }

    constexpr uint32_t kThreadCount = kDecoders + kPreparers + kQueriers + kReleasers;
    std::latch start(kThreadCount);
    std::atomic<uint32_t> decoders_running{kDecoders};
    std::vector<ThreadResult> results(kThreadCount);
    std::vector<std::thread> threads;
    for (uint32_t t = 0; t < kDecoders; ++t)
        threads.emplace_back([&, t] {
            one_call_worker(ctx->get(), samples[t], start, results[t]);
            decoders_running.fetch_sub(1);
        });
    for (uint32_t t = 0; t < kPreparers; ++t)
        threads.emplace_back([&, t] {
            ThreadResult& r = results[kDecoders + t];
            start.arrive_and_wait();
            // Half start at the first combo (same pipelines at once), half elsewhere.
            if (std::string e = prepare_all(ctx->get(), t % 2 ? 3 * t : 0); !e.empty()) r.errors.push_back(e);
        });
    for (uint32_t t = 0; t < kQueriers; ++t)
        threads.emplace_back([&, t] {
            ThreadResult& r = results[kDecoders + kPreparers + t];
            start.arrive_and_wait();
            texdec_memory_usage last{};
            uint32_t queries = 0;
            const auto combos = combos_for(ctx->get());
            std::vector<bool> was_ready(combos.size(), false);
            // Pipelines and tables are created once and kept: their counts never go down, and a
            // variant once ready stays ready (texdec_variant_ready looks up beside the creations).
            do {
                texdec_memory_usage u{};
                if (texdec_status st = texdec_context_memory_usage(ctx->get(), &u); st != TEXDEC_SUCCESS) {
                    r.errors.push_back("texdec_context_memory_usage: " + status_text(st));
                    break;
                }
                if (u.pipelines < last.pipelines || u.table_bytes < last.table_bytes)
                    r.errors.push_back("memory usage went down: " + usage_text(last) + ", then " + usage_text(u));
                last = u;
                for (size_t i = 0; i < combos.size(); ++i) {
                    const texdec_variant v = variant_of(combos[i]);
                    const texdec_status st = texdec_variant_ready(ctx->get(), &v);
                    if (st != TEXDEC_SUCCESS && (st != TEXDEC_ERROR_NOT_READY || was_ready[i]) &&
                        !partial_skip(ctx->get(), st))
                        r.errors.push_back("texdec_variant_ready of combo " + std::to_string(i) + ": " + status_text(st) +
                                           (was_ready[i] ? " after it was ready" : ""));
                    was_ready[i] = was_ready[i] || st == TEXDEC_SUCCESS;
                }
                ++queries;
                std::this_thread::yield();
            } while (decoders_running.load() > 0);
            if (queries == 0) r.errors.push_back("no query ran");
        });
    for (uint32_t t = 0; t < kReleasers; ++t)
        threads.emplace_back([&, t] {
            ThreadResult& r = results[kDecoders + kPreparers + kQueriers + t];
            start.arrive_and_wait();
            // Frees the staging between (never during) decodes; TIMEOUT would mean an abandoned
            // submission, which no decode here has.
            while (decoders_running.load() > 0) {
                if (texdec_status st = texdec_context_release_staging(ctx->get()); st != TEXDEC_SUCCESS)
                    r.errors.push_back("texdec_context_release_staging: " + status_text(st));
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
        });
    for (auto& th : threads) th.join();
    size_t texels = 0;
    const size_t skipped = report(results, &texels);
    CHECK((texels > 0 || skipped > 0));

    // Every variant once: the same work on one thread, on a fresh context, gives the same counts.
    texdec_memory_usage raced{};
    REQUIRE(texdec_context_memory_usage(ctx->get(), &raced) == TEXDEC_SUCCESS);
    auto sequential = OwnContext::open(backend);
    REQUIRE(sequential);
    REQUIRE(prepare_all(sequential->get(), 0).empty());
    for (const auto& per_thread : samples)
        for (const Sample& s : per_thread) {
            std::vector<uint8_t> out(s.texel_bytes());
            const texdec_host_job job = s.host_job(out.data());
            const texdec_status st = sequential->decode(job);
            if (!partial_skip(sequential->get(), st)) REQUIRE(st == TEXDEC_SUCCESS);
        }
    texdec_memory_usage alone{};
    REQUIRE(texdec_context_memory_usage(sequential->get(), &alone) == TEXDEC_SUCCESS);
    INFO("16 threads: " << usage_text(raced) << "; one thread: " << usage_text(alone));
    CHECK(raced.pipelines == alone.pipelines);
    CHECK(raced.table_bytes == alone.table_bytes);
    if (cpu) {
        // A CPU context answers 0 in every field (its tables are not counted).
        CHECK(raced.pipelines == 0);
        CHECK(raced.table_bytes == 0);
        CHECK(raced.staging_host_bytes == 0);
        CHECK(raced.staging_device_bytes == 0);
    } else {
        CHECK(raced.pipelines > 0);
        CHECK(raced.table_bytes > 0);  // ASTC footprint tables
    }
    // Preparing again creates nothing.
    REQUIRE(prepare_all(ctx->get(), 5).empty());
    texdec_memory_usage again{};
    REQUIRE(texdec_context_memory_usage(ctx->get(), &again) == TEXDEC_SUCCESS);
    CHECK(again.pipelines == raced.pipelines);
    CHECK(again.table_bytes == raced.table_bytes);
    std::printf("[threads] prepare/query/release beside decodes (%s): %zu texels compared; %s\n", backend_name(backend),
                texels, usage_text(raced).c_str());
    for (const auto& e : ctx->log().take_errors())
        if (!skipped) FAIL_CHECK("texdec error message: " << e);  // else: the partial CPU backend's refusals
    sequential->close_and_check();
    ctx->close_and_check();
}

}  // namespace

TEST_CASE("threads: texdec_prepare and memory queries and staging release race with texdec_decode on one own context",
          "[threads]") {
    race_prepare_queries_and_decodes(Backend::gpu);
}

TEST_CASE("threads (CPU backend): texdec_prepare, memory queries and staging release race with texdec_decode",
          "[threads][cpu]") {
    race_prepare_queries_and_decodes(Backend::cpu);
}

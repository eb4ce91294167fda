// astc-gpu-decode bench: texdec's decode throughput next to ceilings measured in the same
// run, on the same device, for the same output bytes.
//
// Method, per format:
//   - blocks: (a) "real": a procedural image (gradients, edges, noise; at most 1024 x 1024)
//     encoded by libastcenc -fastest (ASTC) or a min/max BC encoder (bench_blocks.cpp), tiled to
//     the benchmark extent; (b) "random": random bytes (for ASTC mostly error blocks).
//   - ours: texdec_record_regions into this tool's command buffers, device-local buffers in and
//     out (texdec_context_create_external on the tool's own device).
//   - memory-bound ceiling: shaders/bench_copy.comp reads the same block bytes and writes the same
//     number of output bytes with no decoding; six shapes (4, 8, 16 words per invocation,
//     contiguous or interleaved), the best one reported.
//   - native: where the device samples the compressed format, a VkImage of it (blocks copied in)
//     read with texelFetch and stored in texdec's output layout (shaders/bench_native.comp); five
//     shapes on the real blocks, the best one also on the random blocks.
//   - CPU backend: texdec_decode() on a CPU context (TEXDEC_BACKEND_CPU) with --threads threads,
//     timed with the host clock: a warm-up (at least one call), then the best and the median of
//     up to 10 calls. No Vulkan is touched when only the CPU backend is measured.
//   - libastcenc: decompressing the same blocks with the same thread count (ASTC); none for BC.
//   - one-call: texdec_decode_timed() end to end on the real blocks, and where the time goes (GPU),
//     after a first call and a warm-up of untimed calls; next to it the bus transfer of the same
//     bytes (vkCmdCopyBuffer host -> device of the blocks, device -> host of the texels).
//   - block-linear (--block-linear H, default 16 GOBs; off: none): the same real and random blocks
//     laid out in the Tegra X1 block-linear layout (block_linear_layout.cpp), decoded by texdec
//     with a texdec_source_layout_info chained (on the region; on the CPU backend's host job) and
//     timed as the linear rows are; the ratio block-linear / linear per row. Before timing, one
//     texdec_decode of the real blocks in each layout checks that both give the same texels.
// GPU timing: each kernel runs back to back for at least the warm-up time, then `iterations`
// repetitions, each between two timestamps (BOTTOM_OF_PIPE after a compute barrier); GTexel/s
// from the median and from the minimum time.
#include "bench.h"

#include <astcenc.h>
#include <texdec/texdec.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench_blocks.h"
#include "bench_vulkan.h"
#include "block_linear_layout.h"
#include "cli_common.h"
#include "format_text.h"
#include "json.h"
#include "safe_output.h"
#include "texture_file.h"  // profile_twin

namespace bench {
namespace {

// Shared with the rest of the tool.
using cli::device_type_name;
using cli::format_info;
using cli::Json;
using texdec_io::format_text;
using Clock = std::chrono::steady_clock;

// ---- small helpers ---------------------------------------------------------------------------

double gtexels(uint64_t texels, double ms) { return ms > 0 ? double(texels) / (ms * 1e6) : 0.0; }

// NVIDIA packs its driver version as 10.8.8.6 bits; others follow VK_MAKE_API_VERSION.
std::string driver_version_text(const VkPhysicalDeviceProperties& p) {
    const uint32_t v = p.driverVersion;
    if (p.vendorID == 0x10DE) return format_text("%u.%u.%02u", v >> 22, (v >> 14) & 0xFF, (v >> 6) & 0xFF);
    return format_text("%u.%u.%u", VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v), VK_API_VERSION_PATCH(v));
}

// The host CPU's model name (/proc/cpuinfo), "" where unknown: the CPU figures name it.
std::string host_cpu_name() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("model name", 0) == 0) {
            const size_t colon = line.find(':');
            if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
        }
    return "";
}

std::string utc_now() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

// ---- results ----------------------------------------------------------------------------------

struct Measured {
    bool available = false;
    std::string note;   // why not available, or what it is
    std::string shape;  // kernel shape
    Timing t;
    double error_block_share = NAN;  // CPU reference of ASTC: share of error blocks in the data (libastcenc's view)
};

struct Shape {
    std::string name;
    Timing t;
};

struct OneCall {
    std::string format;
    uint32_t width = 0, height = 0;
    texdec_decode_timing first{};
    std::vector<texdec_decode_timing> runs;  // after the first
    texdec_decode_timing typical{};          // the run with the median total
    double error_colour_share = NAN;         // ASTC: texels decoded as magenta (sanity of the data)
    // The bus transfer of the call's bytes, same run: vkCmdCopyBuffer of the block bytes from a
    // host-visible (coherent) buffer to a device-local one, and of the texel bytes from a
    // device-local buffer to a host-visible (cached) one, GPU timestamps, medians; 0: not measured.
    double transfer_up_ms = 0, transfer_down_ms = 0;
    double transfer_ms() const { return transfer_up_ms + transfer_down_ms; }
};

struct FormatResult {
    texdec_format format{};
    texdec_format_info info{};
    uint32_t width = 0, height = 0;
    texdec_output output{};
    uint32_t texel_bytes = 0;
    uint64_t block_bytes = 0, out_bytes = 0;
    std::string real_modes;  // BC6H / BC7: the mode histogram of the real blocks ("mode 1 36.0%, ...")
    Measured ours[2];        // real, random
    std::vector<Shape> ceiling_shapes;
    Measured ceiling;                  // best shape
    std::vector<Shape> native_shapes;  // on real blocks
    Measured native[2];                // best shape: real, random
    Measured cpu[2];                   // libastcenc
    Measured cpu_backend[2];           // texdec's CPU backend
    // Block-linear input (--block-linear H): the same blocks laid out block-linear.
    uint32_t bl_height = 0;      // GOBs; 0: not measured (--block-linear off)
    uint64_t bl_bytes = 0;       // the block-linear surface's bytes
    Measured ours_bl[2];         // texdec on the GPU: real, random
    Measured cpu_backend_bl[2];  // texdec's CPU backend
    std::string bl_check;        // "same texels" or what differed (real blocks, both layouts)
    bool bl_mismatch = false;
    OneCall one_call;
    uint64_t texels() const { return uint64_t(width) * height; }
};

constexpr const char* kDataNames[2] = {"real", "random"};

double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// ---- CPU reference: libastcenc ----------------------------------------------------------------

Measured cpu_astc(const texdec_format_info& info, const std::vector<uint8_t>& blocks, uint32_t width, uint32_t height,
                  unsigned threads, uint32_t reps) {
    Measured m;
    const bool hdr = info.flags & TEXDEC_FORMAT_FLAG_HDR;
    const astcenc_profile profile = hdr                                      ? ASTCENC_PRF_HDR
                                    : (info.flags & TEXDEC_FORMAT_FLAG_SRGB) ? ASTCENC_PRF_LDR_SRGB
                                                                             : ASTCENC_PRF_LDR;
    astcenc_config config{};
    astcenc_error e = astcenc_config_init(profile, info.block_width, info.block_height, 1, ASTCENC_PRE_FASTEST,
                                          ASTCENC_FLG_DECOMPRESS_ONLY, &config);
    astcenc_context* ctx = nullptr;
    if (e == ASTCENC_SUCCESS) e = astcenc_context_alloc(&config, threads, &ctx);
    if (e != ASTCENC_SUCCESS) {
        m.note = std::string("libastcenc: ") + astcenc_get_error_string(e);
        return m;
    }
    // How many of these blocks libastcenc calls error blocks (first 4096; random data: most).
    const size_t sample = std::min<size_t>(blocks.size() / 16, 4096);
    size_t errors = 0;
    auto block_info = std::make_unique<astcenc_block_info>();
    for (size_t i = 0; i < sample; ++i)
        if (astcenc_get_block_info(ctx, &blocks[i * 16], block_info.get()) == ASTCENC_SUCCESS &&
            block_info->is_error_block)
            ++errors;
    m.error_block_share = sample ? double(errors) / double(sample) : NAN;
    // HDR formats decode to FP16 (what texdec's RGBA16F output holds), LDR ones to 8 bits.
    std::vector<uint8_t> out(size_t(width) * height * (hdr ? 8 : 4));
    void* slices[1] = {out.data()};
    astcenc_image image{width, height, 1, hdr ? ASTCENC_TYPE_F16 : ASTCENC_TYPE_U8, slices};
    const astcenc_swizzle swizzle{ASTCENC_SWZ_R, ASTCENC_SWZ_G, ASTCENC_SWZ_B, ASTCENC_SWZ_A};
    std::vector<double> ms;
    std::vector<astcenc_error> results(threads);
    for (uint32_t rep = 0; rep <= reps; ++rep) {  // rep 0 warms caches and page-faults the output
        astcenc_decompress_reset(ctx);
        const auto start = Clock::now();
        std::vector<std::thread> workers;
        for (unsigned i = 0; i < threads; ++i)
            workers.emplace_back([&, i] {
                results[i] = astcenc_decompress_image(ctx, blocks.data(), blocks.size(), &image, &swizzle, i);
            });
        for (auto& w : workers) w.join();
        const double t = ms_since(start);
        for (astcenc_error r : results)
            if (r != ASTCENC_SUCCESS) {
                astcenc_context_free(ctx);
                m.note = std::string("libastcenc: ") + astcenc_get_error_string(r);
                return m;
            }
        if (rep > 0) ms.push_back(t);
    }
    astcenc_context_free(ctx);
    m.available = true;
    m.note = format_text("libastcenc %s, %u threads, U8 output", "4.x", threads);
    m.shape = format_text("%u threads", threads);
    m.t = timing_from(ms);
    return m;
}

// ---- the benchmark ----------------------------------------------------------------------------

struct TexdecLog {
    std::mutex mutex;
    std::vector<std::string> errors;
    bool verbose = false;
    static void callback(texdec_message_severity severity, const char* message, void* user) {
        auto* log = static_cast<TexdecLog*>(user);
        std::lock_guard lock(log->mutex);
        if (severity == TEXDEC_MESSAGE_ERROR) log->errors.emplace_back(message);
        else if (severity != TEXDEC_MESSAGE_INFO || log->verbose) std::fprintf(stderr, "texdec: %s\n", message);
    }
    std::string take() {
        std::lock_guard lock(mutex);
        std::string s;
        for (const auto& e : errors) s += (s.empty() ? "" : "; ") + e;
        errors.clear();
        return s;
    }
};

class Runner {
public:
    // device and ctx: the GPU measured (both null: none); cpu_ctx: the CPU backend's context (null: not measured).
    Runner(const Options& options, Device* device, texdec_context* ctx, texdec_context* cpu_ctx, TexdecLog& log)
        : opt_(options), dev_(device), ctx_(ctx), cpu_ctx_(cpu_ctx), log_(log) {
        is_cpu_device_ = device && device->properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
        // Without a GPU (the CPU backend alone) 2048 x 2048: a few ms per call on a few cores.
        const uint32_t base = !device ? 2048 : is_cpu_device_ ? 1024 : 8192;
        base_w_ = options.width.value_or(base);
        base_h_ = options.height.value_or(base);
        warmup_ms_ = options.warmup_ms.value_or(!device || is_cpu_device_ ? 50 : 300);
        threads_ = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    }

    FormatResult run_format(texdec_format format);
    OneCall one_call_astc_6x6();

    uint32_t warmup_ms() const { return warmup_ms_; }
    uint32_t base_width() const { return base_w_; }
    uint32_t base_height() const { return base_h_; }
    unsigned threads() const { return threads_; }
    uint32_t one_call_runs() const { return std::clamp(opt_.iterations, 1u, 5u); }
    // Timed calls of the CPU backend and libastcenc (host clock): best and median of these.
    uint32_t cpu_reps() const { return std::clamp(opt_.iterations, 1u, 10u); }
    bool gpu() const { return dev_ != nullptr; }
    bool cpu_backend() const { return cpu_ctx_ != nullptr; }

private:
    void progress(const char* fmt, ...) TEXDEC_IO_PRINTF_LIKE(2, 3);
    Measured time_ours(const FormatResult& r, const Buffer& src, const Buffer& dst,
                       const texdec_source_layout_info* layout = nullptr);
    texdec_host_job host_job(const FormatResult& r, const std::vector<uint8_t>& blocks, std::vector<uint8_t>& out,
                             const texdec_source_layout_info* layout) const;
    Measured time_cpu_backend(const FormatResult& r, const std::vector<uint8_t>& blocks, std::vector<uint8_t>& out,
                              const texdec_source_layout_info* layout = nullptr);
    void run_gpu(FormatResult& r, const std::vector<uint8_t> blocks[2], const std::vector<uint8_t>* bl_blocks);
    void check_block_linear(FormatResult& r, texdec_context* ctx, const std::vector<uint8_t>& linear,
                            const std::vector<uint8_t>& block_linear);
    void time_ceiling(FormatResult& r, const Buffer& src, const Buffer& dst);
    void time_native(FormatResult& r, const std::vector<uint8_t> blocks[2], const Buffer& dst);
    OneCall time_one_call(texdec_format format, uint32_t width, uint32_t height, const std::vector<uint8_t>& blocks);

    const Options& opt_;
    Device* dev_;
    texdec_context* ctx_;
    texdec_context* cpu_ctx_;
    TexdecLog& log_;
    bool is_cpu_device_ = false;
    uint32_t base_w_ = 0, base_h_ = 0, warmup_ms_ = 0;
    unsigned threads_ = 1;
};

void Runner::progress(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    std::fputs("bench: ", stderr);
    std::vfprintf(stderr, fmt, args);
    std::fputc('\n', stderr);
    va_end(args);
}

Measured Runner::time_ours(const FormatResult& r, const Buffer& src, const Buffer& dst,
                           const texdec_source_layout_info* layout) {
    texdec_region region{};
    region.next = layout;
    region.extent = {r.width, r.height, 1};
    texdec_regions_job job =
        texdec::regions_job(r.format, r.output, src.buffer, src.size, &region, 1, dst.buffer, dst.size);
    job.bc_rounding = opt_.bc_rounding;
    texdec_status status = TEXDEC_SUCCESS;
    Measured m;
    m.t = dev_->time(
        [&](VkCommandBuffer cmd) {
            const texdec_status s = texdec_record_regions(ctx_, cmd, &job);
            if (s != TEXDEC_SUCCESS) status = s;
        },
        opt_.iterations, warmup_ms_);
    if (status != TEXDEC_SUCCESS)
        throw std::runtime_error(std::string("texdec_record_regions: ") + texdec_status_string(status) + ": " +
                                 log_.take());
    m.available = true;
    m.shape = layout ? format_text("texdec_record_regions, block-linear %u GOBs", layout->block_height)
                     : std::string("texdec_record_regions");
    return m;
}

// A host job of the format's whole extent: `blocks` (in `layout`; nullptr: linear) into `out`.
texdec_host_job Runner::host_job(const FormatResult& r, const std::vector<uint8_t>& blocks, std::vector<uint8_t>& out,
                                 const texdec_source_layout_info* layout) const {
    texdec_host_job job = texdec::host_job(r.format, r.output, r.width, r.height, 1, blocks, out);
    job.next = layout;
    job.bc_rounding = opt_.bc_rounding;
    return job;
}

Measured Runner::time_cpu_backend(const FormatResult& r, const std::vector<uint8_t>& blocks, std::vector<uint8_t>& out,
                                  const texdec_source_layout_info* layout) {
    const texdec_host_job job = host_job(r, blocks, out, layout);
    Measured m;
    std::vector<double> ms;
    // Warm-up: at least one call (caches, the output's pages, the context's tables), then timed calls.
    const auto warmup_start = Clock::now();
    for (bool warm = false; !warm || ms_since(warmup_start) < warmup_ms_; warm = true) {
        const texdec_status s = texdec_decode(cpu_ctx_, &job);
        if (s == TEXDEC_ERROR_UNSUPPORTED_FORMAT) {  // a family without a CPU decoder in this build
            m.note = std::string(texdec_status_string(s)) + ": " + log_.take();
            return m;
        }
        if (s != TEXDEC_SUCCESS)
            throw std::runtime_error(std::string("texdec_decode (CPU backend): ") + texdec_status_string(s) + ": " +
                                     log_.take());
    }
    for (uint32_t rep = 0; rep < cpu_reps(); ++rep) {
        const auto start = Clock::now();
        const texdec_status s = texdec_decode(cpu_ctx_, &job);
        const double t = ms_since(start);
        if (s != TEXDEC_SUCCESS)
            throw std::runtime_error(std::string("texdec_decode (CPU backend): ") + texdec_status_string(s) + ": " +
                                     log_.take());
        ms.push_back(t);
    }
    m.available = true;
    m.note = format_text("texdec CPU backend, %u threads, host clock", threads_);
    m.shape = format_text("%u threads", threads_);
    m.t = timing_from(ms);
    return m;
}

void Runner::time_ceiling(FormatResult& r, const Buffer& src, const Buffer& dst) {
    const uint32_t out_per_block = r.info.block_width * r.info.block_height * r.texel_bytes;
    struct CopyShape {
        uint32_t group, words;
        bool interleaved;
    };
    // Several words per invocation in 256-invocation workgroups (the memory-bound shapes), and one
    // word per invocation in 64-invocation workgroups: the shape of a one-texel-per-invocation
    // decoder (texdec's ASTC decoder), which shows the workgroup-launch limit of that shape.
    const CopyShape shapes[] = {{256, 4, false},  {256, 4, true},  {256, 8, false}, {256, 8, true},
                                {256, 16, false}, {256, 16, true}, {64, 1, false}};
    for (const CopyShape& c : shapes) {
        Shape s;
        s.name = c.words == 1 ? format_text("%u threads x 1 word", c.group)
                              : format_text("%u threads x %u words, %s", c.group, c.words,
                                            c.interleaved ? "interleaved" : "contiguous");
        s.t = dev_->time(
            [&](VkCommandBuffer cmd) {
                dev_->record_copy(cmd, src, r.block_bytes, dst, r.out_bytes, r.info.bytes_per_block, out_per_block,
                                  c.group, c.words, c.interleaved);
            },
            opt_.iterations, warmup_ms_);
        r.ceiling_shapes.push_back(s);
    }
    const Shape& best = *std::min_element(r.ceiling_shapes.begin(), r.ceiling_shapes.end(),
                                          [](const Shape& a, const Shape& b) { return a.t.median_ms < b.t.median_ms; });
    r.ceiling.available = true;
    r.ceiling.shape = best.name;
    r.ceiling.t = best.t;
}

void Runner::time_native(FormatResult& r, const std::vector<uint8_t> blocks[2], const Buffer& dst) {
    // An sRGB format is sampled as its UNORM twin: its texels stay encoded, like ours.
    const VkFormat vk = (r.info.flags & TEXDEC_FORMAT_FLAG_SRGB)
                            ? format_info(texture_file::profile_twin(r.format, astc_file::Profile::Ldr)).vk_format
                            : r.info.vk_format;
    if (!dev_->can_sample(vk)) {
        r.native[0].note = r.native[1].note = "the device does not sample this format";
        return;
    }
    VkFormat out_vk = VK_FORMAT_UNDEFINED;
    texdec_output_vk_format(r.format, r.output, &out_vk);
    // bench_native.comp's stores: 0 RGBA8, 1 RGBA16F, 2 R8, 3 RG8 (UNORM or SNORM); none for 16-bit integers.
    texdec_texel_format_info texel{};
    texdec_texel_format_get_info(out_vk, &texel);
    const bool half = texel.flags & TEXDEC_TEXEL_FORMAT_HALF;
    if (!half && texel.channel_bytes != 1) {
        r.native[0].note = r.native[1].note = "no native-path store for this output";
        return;
    }
    const uint32_t store = half ? 1 : texel.channels == 4 ? 0 : texel.channels == 1 ? 2 : 3;
    const bool is_signed = texel.flags & TEXDEC_TEXEL_FORMAT_SIGNED;
    const uint64_t row_bytes = uint64_t(r.width) * r.texel_bytes;
    if (row_bytes * r.height > dev_->properties().limits.maxStorageBufferRange) {
        r.native[0].note = r.native[1].note = "the output exceeds maxStorageBufferRange (use a smaller --size)";
        return;
    }
    const VkPhysicalDeviceLimits& lim = dev_->properties().limits;
    if (r.width > lim.maxImageDimension2D || r.height > lim.maxImageDimension2D) {
        r.native[0].note = r.native[1].note = "the extent exceeds maxImageDimension2D";
        return;
    }
    struct NativeShape {
        uint32_t tx, ty, wg_x, wg_y;
    };
    const NativeShape shapes[] = {{1, 1, 16, 16}, {4, 1, 64, 4}, {8, 1, 64, 4}, {16, 1, 64, 4}, {4, 4, 64, 4}};
    const uint32_t per_vec4 = 16 / r.texel_bytes;
    Image images[2];
    for (int d = 0; d < 2; ++d)
        images[d] = dev_->create_compressed_image(vk, r.width, r.height, blocks[d].data(), r.block_bytes);
    const NativeShape* best = nullptr;
    for (const NativeShape& s : shapes) {
        const bool storable = s.tx == 1 ? r.texel_bytes >= 4 : s.tx % per_vec4 == 0;
        if (!storable || r.width % s.tx || r.height % s.ty) continue;
        Shape shape;
        shape.name = format_text("%ux%u texels per thread, %ux%u workgroup", s.tx, s.ty, s.wg_x, s.wg_y);
        shape.t = dev_->time(
            [&](VkCommandBuffer cmd) {
                dev_->record_native(cmd, images[0], r.width, r.height, dst, store, is_signed, s.tx, s.ty, s.wg_x,
                                    s.wg_y);
            },
            opt_.iterations, warmup_ms_);
        if (!best || shape.t.median_ms < r.native[0].t.median_ms) {
            best = &s;
            r.native[0].available = true;
            r.native[0].shape = shape.name;
            r.native[0].t = shape.t;
        }
        r.native_shapes.push_back(shape);
    }
    if (best) {
        r.native[1].available = true;
        r.native[1].shape = r.native[0].shape;
        r.native[1].t = dev_->time(
            [&](VkCommandBuffer cmd) {
                dev_->record_native(cmd, images[1], r.width, r.height, dst, store, is_signed, best->tx, best->ty,
                                    best->wg_x, best->wg_y);
            },
            opt_.iterations, warmup_ms_);
    } else {
        r.native[0].note = r.native[1].note = "no kernel shape fits this extent";
    }
    for (Image& img : images) dev_->destroy(img);
}

OneCall Runner::time_one_call(texdec_format format, uint32_t width, uint32_t height,
                              const std::vector<uint8_t>& blocks) {
    OneCall oc;
    oc.format = format_info(format).name;
    oc.width = width;
    oc.height = height;
    uint64_t size = 0;
    texdec_decoded_size(format, TEXDEC_OUTPUT_RGBA8, width, height, 1, &size);
    std::vector<uint8_t> texels(size);
    texdec_host_job job = texdec::host_job(format, TEXDEC_OUTPUT_RGBA8, width, height, 1, blocks, texels);
    job.bc_rounding = opt_.bc_rounding;
    job.timeout_ns = 60ull * 1000 * 1000 * 1000;
    auto call = [&](texdec_decode_timing* t) {
        const texdec_status s = texdec_decode_timed(ctx_, &job, t);
        if (s != TEXDEC_SUCCESS)
            throw std::runtime_error(std::string("texdec_decode_timed: ") + texdec_status_string(s) + ": " +
                                     log_.take());
    };
    call(&oc.first);  // allocates the staging; on a GPU that was idle, at its idle clocks
    // Warm-up, as for the recorded rows: an idle GPU lowers its clocks (the H100's SM clock falls
    // from 1980 to 345 MHz within about a second, e.g. while libastcenc runs on the host just before)
    // and raises them only after some 200 ms of work, so a compute-bound decode (ASTC) would be
    // timed at a fraction of its speed.
    const auto start = Clock::now();
    while (ms_since(start) < warmup_ms_) call(nullptr);
    for (uint32_t i = 0; i < one_call_runs(); ++i) {
        texdec_decode_timing t{};
        call(&t);
        oc.runs.push_back(t);
    }
    if (format_info(format).family == TEXDEC_FAMILY_ASTC) {
        uint64_t magenta = 0;
        for (size_t i = 0; i + 4 <= texels.size(); i += 4)
            magenta += texels[i] == 255 && texels[i + 1] == 0 && texels[i + 2] == 255 && texels[i + 3] == 255;
        oc.error_colour_share = double(magenta) / double(uint64_t(width) * height);
    }
    std::vector<texdec_decode_timing> sorted = oc.runs;
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.total_ns < b.total_ns; });
    oc.typical = sorted[(sorted.size() - 1) / 2];
    // The transfer of the same bytes: blocks host -> device, texels device -> host.
    auto time_copy = [&](const Buffer& from, const Buffer& to, VkDeviceSize bytes) {
        const Timing t = dev_->time(
            [&](VkCommandBuffer cmd) {
                VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT,
                                  VK_ACCESS_TRANSFER_WRITE_BIT};
                vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &b, 0,
                                     nullptr, 0, nullptr);
                VkBufferCopy region{0, 0, bytes};
                vkCmdCopyBuffer(cmd, from.buffer, to.buffer, 1, &region);
            },
            one_call_runs(), 50);
        return t.median_ms;
    };
    const VkDeviceSize block_bytes = (blocks.size() + 3) / 4 * 4, texel_bytes = (texels.size() + 3) / 4 * 4;
    {
        Buffer host = dev_->create_host_buffer(block_bytes, false), local = dev_->create_buffer(block_bytes);
        oc.transfer_up_ms = time_copy(host, local, block_bytes);
        dev_->destroy(host);
        dev_->destroy(local);
    }
    {
        Buffer host = dev_->create_host_buffer(texel_bytes, true), local = dev_->create_buffer(texel_bytes);
        oc.transfer_down_ms = time_copy(local, host, texel_bytes);
        dev_->destroy(host);
        dev_->destroy(local);
    }
    return oc;
}

FormatResult Runner::run_format(texdec_format format) {
    FormatResult r;
    r.format = format;
    r.info = format_info(format);
    const texdec_format_info& info = r.info;
    // Whole blocks: round the extent up to the footprint.
    r.width = (base_w_ + info.block_width - 1) / info.block_width * info.block_width;
    r.height = (base_h_ + info.block_height - 1) / info.block_height * info.block_height;
    VkFormat ignored;
    r.output = opt_.output.value_or(texdec_output_vk_format(format, TEXDEC_OUTPUT_RGBA8, &ignored) == TEXDEC_SUCCESS
                                        ? TEXDEC_OUTPUT_RGBA8
                                        : TEXDEC_OUTPUT_NATIVE);
    if (texdec_output_texel_size(format, r.output, &r.texel_bytes) != TEXDEC_SUCCESS)
        throw std::runtime_error(std::string(info.name) + " has no " + texdec_output_name(r.output) + " output");
    const uint32_t bx = r.width / info.block_width, by = r.height / info.block_height;
    r.block_bytes = uint64_t(bx) * by * info.bytes_per_block;
    r.out_bytes = r.texels() * r.texel_bytes;

    const bool from_file = opt_.input && opt_.input->format == format;
    progress("%s %ux%u -> %s: %s", info.name, r.width, r.height, texdec_output_name(r.output),
             from_file ? ("real blocks from " + opt_.input->path + ", tiled").c_str() : "encoding the test image");
    std::vector<uint8_t> blocks[2] = {
        from_file ? tile_blocks(opt_.input->blocks, info.bytes_per_block, opt_.input->bx, opt_.input->by, bx, by)
                  : real_image_blocks(format, bx, by, threads_),
        random_bytes(r.block_bytes, 0x7E5DEC00ull + uint64_t(format))};
    r.real_modes = mode_histogram(format, blocks[0]);
    if (!r.real_modes.empty()) progress("%s: real blocks: %s", info.name, r.real_modes.c_str());
    // The same blocks in the block-linear layout (the padding of the surface zero).
    std::vector<uint8_t> bl_blocks[2];
    const texdec_source_layout_info bl_layout = texdec::block_linear_layout(opt_.block_linear_height);
    if (opt_.block_linear_height) {
        r.bl_height = opt_.block_linear_height;
        const block_linear_layout::Gobs gobs{r.bl_height, 1};
        const block_linear_layout::Surface surface =
            block_linear_layout::surface_of(format, r.width, r.height, 1, gobs);
        for (int d = 0; d < 2; ++d) bl_blocks[d] = block_linear_layout::swizzle(blocks[d], surface);
        r.bl_bytes = surface.size();
    } else {
        for (Measured* m : {&r.ours_bl[0], &r.ours_bl[1], &r.cpu_backend_bl[0], &r.cpu_backend_bl[1]})
            m->note = "not measured (--block-linear off)";
    }
    if (dev_) {
        run_gpu(r, blocks, r.bl_height ? bl_blocks : nullptr);
    } else {
        for (Measured* m : {&r.ours[0], &r.ours[1], &r.ceiling, &r.native[0], &r.native[1]})
            m->note = "no GPU measured (--backend cpu, or no device that is not of CPU type)";
        if (r.bl_height) r.ours_bl[0].note = r.ours_bl[1].note = r.ours[0].note;
    }
    if (cpu_ctx_) {
        if (!dev_ && r.bl_height) check_block_linear(r, cpu_ctx_, blocks[0], bl_blocks[0]);
        std::vector<uint8_t> out(r.out_bytes);
        for (int d = 0; d < 2; ++d) {
            progress("%s: the CPU backend on %s blocks (%u threads)", info.name, kDataNames[d], threads_);
            r.cpu_backend[d] = time_cpu_backend(r, blocks[d], out);
            if (!r.bl_height) continue;
            progress("%s: the CPU backend on %s blocks, block-linear (block height %u GOBs)", info.name, kDataNames[d],
                     r.bl_height);
            r.cpu_backend_bl[d] = time_cpu_backend(r, bl_blocks[d], out, &bl_layout);
        }
    } else {
        r.cpu_backend[0].note = r.cpu_backend[1].note = "not measured (--backend gpu)";
        if (r.bl_height) r.cpu_backend_bl[0].note = r.cpu_backend_bl[1].note = r.cpu_backend[0].note;
    }

    if (info.family == TEXDEC_FAMILY_ASTC) {
        progress("%s: CPU reference (libastcenc, %u threads)", info.name, threads_);
        for (int d = 0; d < 2; ++d) r.cpu[d] = cpu_astc(info, blocks[d], r.width, r.height, threads_, cpu_reps());
    } else {
        r.cpu[0].note = r.cpu[1].note = "none (no CPU reference decoder for this family in the project's dependencies)";
    }
    if (dev_ && r.output == TEXDEC_OUTPUT_RGBA8) {
        progress("%s: one-call path", info.name);
        r.one_call = time_one_call(format, r.width, r.height, blocks[0]);
    }
    return r;
}

// Decodes the real blocks once in each layout (texdec_decode on `ctx`) and records whether the
// texels are the same: the block-linear figures are only worth something if they are.
void Runner::check_block_linear(FormatResult& r, texdec_context* ctx, const std::vector<uint8_t>& linear,
                                const std::vector<uint8_t>& block_linear) {
    progress("%s: block-linear input decodes to the linear input's texels?", r.info.name);
    const texdec_source_layout_info layout = texdec::block_linear_layout(r.bl_height);
    std::vector<uint8_t> texels[2];
    for (int l = 0; l < 2; ++l) {
        texels[l].resize(r.out_bytes);
        texdec_host_job job = host_job(r, l ? block_linear : linear, texels[l], l ? &layout : nullptr);
        job.timeout_ns = 60ull * 1000 * 1000 * 1000;
        const texdec_status s = texdec_decode(ctx, &job);
        if (s != TEXDEC_SUCCESS)
            throw std::runtime_error(std::string("texdec_decode (") + (l ? "block-linear" : "linear") +
                                     " input): " + texdec_status_string(s) + ": " + log_.take());
    }
    const auto diff = std::mismatch(texels[0].begin(), texels[0].end(), texels[1].begin());
    if (diff.first == texels[0].end()) {
        r.bl_check = "same texels";
        return;
    }
    r.bl_mismatch = true;
    r.bl_check = format_text("texels differ from the linear input's, first at byte %zu of %zu",
                             size_t(diff.first - texels[0].begin()), texels[0].size());
    std::fprintf(stderr, "bench: %s: block-linear input: %s\n", r.info.name, r.bl_check.c_str());
}

// The GPU: texdec_record_regions (linear, and block-linear unless bl_blocks is null), the
// memory-bound ceiling and the native path.
void Runner::run_gpu(FormatResult& r, const std::vector<uint8_t> blocks[2], const std::vector<uint8_t>* bl_blocks) {
    const char* name = r.info.name;
    Buffer src[2] = {dev_->create_buffer(r.block_bytes), dev_->create_buffer(r.block_bytes)};
    Buffer dst = dev_->create_buffer((r.out_bytes + 15) / 16 * 16);
    for (int d = 0; d < 2; ++d) dev_->upload(src[d], blocks[d].data(), r.block_bytes);

    for (int d = 0; d < 2; ++d) {
        progress("%s: texdec on %s blocks", name, kDataNames[d]);
        r.ours[d] = time_ours(r, src[d], dst);
    }
    if (bl_blocks) {
        check_block_linear(r, ctx_, blocks[0], bl_blocks[0]);
        const texdec_source_layout_info layout = texdec::block_linear_layout(r.bl_height);
        for (int d = 0; d < 2; ++d) {
            Buffer bl = dev_->create_buffer(r.bl_bytes);
            dev_->upload(bl, bl_blocks[d].data(), r.bl_bytes);
            progress("%s: texdec on %s blocks, block-linear (block height %u GOBs)", name, kDataNames[d], r.bl_height);
            r.ours_bl[d] = time_ours(r, bl, dst, &layout);
            dev_->destroy(bl);
        }
    }
    progress("%s: memory-bound ceiling", name);
    time_ceiling(r, src[0], dst);
    progress("%s: native path", name);
    time_native(r, blocks, dst);
    for (Buffer& b : src) dev_->destroy(b);
    dev_->destroy(dst);
}

// The one-call path for a 4096 x 4096 ASTC 6x6 texture (smaller if --size is).
OneCall Runner::one_call_astc_6x6() {
    if (!dev_) return {};
    const texdec_format format = TEXDEC_FORMAT_ASTC_6x6_UNORM;
    const uint32_t w = std::min(base_w_, 4096u), h = std::min(base_h_, 4096u);
    const uint32_t bx = (w + 5) / 6, by = (h + 5) / 6;
    progress("one-call: astc-6x6-unorm %ux%u", w, h);
    return time_one_call(format, w, h, real_image_blocks(format, bx, by, threads_));
}

// ---- report ------------------------------------------------------------------------------------

// Throughput of `ours` over that of `other` (median times): > 1 means ours is faster.
double ratio(const Measured& other, const Measured& ours) {
    return other.available && ours.available && ours.t.median_ms > 0 ? other.t.median_ms / ours.t.median_ms : NAN;
}

std::string gt_text(const Measured& m, uint64_t texels) {
    if (!m.available) return "-";
    auto one = [](double v) { return v < 10 ? format_text("%.3g", v) : format_text("%.1f", v); };
    return one(gtexels(texels, m.t.median_ms)) + " / " + one(gtexels(texels, m.t.min_ms));
}

std::string ratio_text(double v) {
    if (!std::isfinite(v)) return "-";
    return v < 0.1 ? format_text("%.2g", v) : format_text("%.2f", v);
}

double ms(uint64_t ns) { return double(ns) * 1e-6; }

// Throughput of `ours` over that of `other` from the best (minimum) times: the CPU figures'
// measure (best of N on the host clock).
double ratio_best(const Measured& other, const Measured& ours) {
    return other.available && ours.available && ours.t.min_ms > 0 ? other.t.min_ms / ours.t.min_ms : NAN;
}

// The summary: one line per measure and format, the ratios and rates docs/PERFORMANCE.md compares
// with its targets (the targets themselves live there, not here). GPU lines are medians; CPU
// backend lines best of N.
struct SummaryLine {
    std::string what;
    double value;
    bool cpu;  // a CPU backend measure (best of N), else a GPU one (medians)
};

enum class Measure {
    RealGtexels,
    RealOverCeiling,
    RandomOverReal,
    OneCallDecodeShare,
    CpuRealGtexels,
    CpuRealOverLibastcenc,
    CpuRandomOverLibastcenc,
    BlockLinearOverLinear
};
struct SummaryRow {
    bool (*applies)(const texdec_format_info& info);  // nullptr: the one-call ASTC 6x6 row
    Measure measure;
    const char* text;  // what is measured, as printed
};
bool any_format(const texdec_format_info&) { return true; }
bool astc(const texdec_format_info& i) { return i.family == TEXDEC_FAMILY_ASTC; }
bool is_cpu_measure(Measure m) {
    return m == Measure::CpuRealGtexels || m == Measure::CpuRealOverLibastcenc || m == Measure::CpuRandomOverLibastcenc;
}
constexpr SummaryRow kSummary[] = {
    {any_format, Measure::RealGtexels, "real-image GTexel/s"},
    {any_format, Measure::RealOverCeiling, "real-image ours/memory-bound ceiling"},
    {any_format, Measure::RandomOverReal, "random/real-image"},
    {any_format, Measure::BlockLinearOverLinear, "real-image block-linear/linear input"},
    {nullptr, Measure::OneCallDecodeShare, "decode / end-to-end"},
    {any_format, Measure::CpuRealGtexels, "CPU backend real-image GTexel/s"},
    {astc, Measure::CpuRealOverLibastcenc, "CPU backend/libastcenc, real-image, same threads"},
    {astc, Measure::CpuRandomOverLibastcenc, "CPU backend/libastcenc, random, same threads"},
};

std::vector<SummaryLine> summarize(const std::vector<FormatResult>& results, const OneCall& one_call) {
    std::vector<SummaryLine> out;
    auto add = [&](const SummaryRow& row, const std::string& subject, double value) {
        out.push_back({format_text("%s %s", subject.c_str(), row.text), value, is_cpu_measure(row.measure)});
    };
    for (const FormatResult& r : results) {
        const double real = gtexels(r.texels(), r.ours[0].t.median_ms);
        const double random = gtexels(r.texels(), r.ours[1].t.median_ms);
        for (const SummaryRow& row : kSummary) {
            if (!row.applies || !row.applies(r.info)) continue;
            // Only what was measured: a row of a part not run is left out.
            if (is_cpu_measure(row.measure) ? !r.cpu_backend[0].available : !r.ours[0].available) continue;
            if (row.measure == Measure::BlockLinearOverLinear && !r.ours_bl[0].available) continue;
            double value = NAN;
            switch (row.measure) {
            case Measure::RealGtexels: value = real; break;
            case Measure::RealOverCeiling: value = ratio(r.ceiling, r.ours[0]); break;
            case Measure::RandomOverReal: value = random / real; break;
            case Measure::OneCallDecodeShare: break;
            case Measure::CpuRealGtexels: value = gtexels(r.texels(), r.cpu_backend[0].t.min_ms); break;
            case Measure::CpuRealOverLibastcenc: value = ratio_best(r.cpu[0], r.cpu_backend[0]); break;
            case Measure::CpuRandomOverLibastcenc: value = ratio_best(r.cpu[1], r.cpu_backend[1]); break;
            case Measure::BlockLinearOverLinear: value = ratio(r.ours[0], r.ours_bl[0]); break;
            }
            add(row, r.info.name, value);
        }
    }
    if (one_call.typical.total_ns) {
        const texdec_decode_timing& t = one_call.typical;
        for (const SummaryRow& row : kSummary)
            if (row.measure == Measure::OneCallDecodeShare)
                add(row, format_text("one-call %s %ux%u:", one_call.format.c_str(), one_call.width, one_call.height),
                    t.gpu_timestamps ? double(t.gpu_decode_ns) / double(t.total_ns) : NAN);
    }
    return out;
}

void print_one_call_row(const OneCall& oc) {
    const texdec_decode_timing& t = oc.typical;
    const double share = t.gpu_timestamps ? double(t.gpu_decode_ns) / double(t.total_ns) : NAN;
    std::printf("%-19s %-11s %9.2f %9.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %7s %8.2f %6.2f\n",
                oc.format.c_str(), format_text("%ux%u", oc.width, oc.height).c_str(), ms(oc.first.total_ns),
                ms(t.total_ns), ms(t.prepare_ns), ms(t.upload_copy_ns), ms(t.gpu_upload_ns), ms(t.gpu_decode_ns),
                ms(t.gpu_readback_ns), ms(t.readback_copy_ns), ms(t.submit_wait_ns),
                std::isfinite(share) ? format_text("%.1f%%", 100 * share).c_str() : "-", oc.transfer_ms(),
                oc.transfer_ms() > 0 ? ms(t.total_ns) / oc.transfer_ms() : NAN);
}

// "CPU backend, 16 threads (host: AMD EPYC ...)": what the CPU figures ran on.
std::string cpu_text(const std::string& cpu_device, const std::string& host_cpu) {
    return cpu_device + (host_cpu.empty() ? "" : " (host: " + host_cpu + ")");
}

// The block-linear rows: each format's linear figures next to those from the same blocks laid
// out block-linear, and the ratio block-linear / linear (GPU: medians; CPU backend: best times).
void print_block_linear(const Runner& runner, const Options& opt, const std::vector<FormatResult>& results) {
    if (!opt.block_linear_height) return;
    std::printf(
        "\nblock-linear input (Tegra X1 layout, block height %u GOBs: the same blocks swizzled; GT/s median / "
        "best):\n",
        opt.block_linear_height);
    std::printf("%-19s %-11s %-6s %-17s %-17s %6s %-17s %-17s %6s  %s\n", "format", "extent", "blocks", "GPU linear",
                "GPU block-linear", "BL/lin", "CPU-b. linear", "CPU-b. block-lin.", "BL/lin", "check");
    for (const FormatResult& r : results)
        for (int d = 0; d < 2; ++d)
            std::printf("%-19s %-11s %-6s %-17s %-17s %6s %-17s %-17s %6s  %s\n", d == 0 ? r.info.name : "",
                        d == 0 ? format_text("%ux%u", r.width, r.height).c_str() : "", kDataNames[d],
                        gt_text(r.ours[d], r.texels()).c_str(), gt_text(r.ours_bl[d], r.texels()).c_str(),
                        ratio_text(ratio(r.ours[d], r.ours_bl[d])).c_str(),
                        gt_text(r.cpu_backend[d], r.texels()).c_str(), gt_text(r.cpu_backend_bl[d], r.texels()).c_str(),
                        ratio_text(ratio_best(r.cpu_backend[d], r.cpu_backend_bl[d])).c_str(),
                        d == 0 ? r.bl_check.c_str() : "");
    std::printf(
        "  BL/lin: block-linear over linear throughput (GPU: medians; CPU backend (%u threads): best times); "
        "check: one decode of the real blocks in each layout\n",
        runner.threads());
}

void print_report(const Device* dev, const Runner& runner, const Options& opt, const std::string& date,
                  const std::string& cpu_device, const std::string& host_cpu, const std::string& gpu_note,
                  const std::vector<FormatResult>& results, const OneCall& one_call_astc,
                  const std::vector<SummaryLine>& summary) {
    std::printf("astc-gpu-decode bench — %s\n", date.c_str());
    if (dev) {
        const VkPhysicalDeviceProperties& p = dev->properties();
        std::printf("device: %s (%s), driver %s%s%s, Vulkan %u.%u.%u\n", p.deviceName, device_type_name(p.deviceType),
                    driver_version_text(p).c_str(), dev->driver_info().empty() ? "" : " / ", dev->driver_info().c_str(),
                    VK_API_VERSION_MAJOR(p.apiVersion), VK_API_VERSION_MINOR(p.apiVersion),
                    VK_API_VERSION_PATCH(p.apiVersion));
    } else {
        std::printf("device: none (%s)\n", gpu_note.c_str());
    }
    if (runner.cpu_backend()) std::printf("CPU backend: %s\n", cpu_text(cpu_device, host_cpu).c_str());
    else
        std::printf("CPU: %s; the CPU backend not measured (--backend gpu)\n",
                    host_cpu.empty() ? "unknown" : host_cpu.c_str());
    std::printf("command: %s\n", opt.command_line.c_str());
    if (opt.input)
        std::printf("real blocks: %s (%s), tiled to the extent\n", opt.input->path.c_str(),
                    opt.input->description.c_str());
    std::printf("method: ");
    if (dev)
        std::printf("GPU: %u timed dispatches after >= %u ms warm-up, timestamps; ", std::max(opt.iterations, 1u),
                    runner.warmup_ms());
    std::printf(
        "%s: %u threads, %u timed calls (host clock) after >= %u ms warm-up; GTexel/s as median / best (from the "
        "minimum time)\n\n",
        runner.cpu_backend() ? "CPU backend and libastcenc" : "libastcenc", runner.threads(), runner.cpu_reps(),
        runner.warmup_ms());
    std::printf("%-19s %-11s %-6s %-17s %-17s %-17s %-17s %-17s %6s %6s %7s %7s\n", "format", "extent", "blocks",
                "GPU GT/s", "mem-bound GT/s", "native GT/s", "CPU-backend GT/s", "libastcenc GT/s", "/ceil", "/nativ",
                "GPU/CPU", "CPU/lib");
    for (const FormatResult& r : results)
        for (int d = 0; d < 2; ++d) {
            const Measured& ceil = r.ceiling;
            std::printf("%-19s %-11s %-6s %-17s %-17s %-17s %-17s %-17s %6s %6s %7s %7s\n", d == 0 ? r.info.name : "",
                        d == 0 ? format_text("%ux%u", r.width, r.height).c_str() : "", kDataNames[d],
                        gt_text(r.ours[d], r.texels()).c_str(), d == 0 ? gt_text(ceil, r.texels()).c_str() : "",
                        gt_text(r.native[d], r.texels()).c_str(), gt_text(r.cpu_backend[d], r.texels()).c_str(),
                        gt_text(r.cpu[d], r.texels()).c_str(), ratio_text(ratio(ceil, r.ours[d])).c_str(),
                        ratio_text(ratio(r.native[d], r.ours[d])).c_str(),
                        ratio_text(ratio(r.cpu_backend[d], r.ours[d])).c_str(),
                        ratio_text(ratio_best(r.cpu[d], r.cpu_backend[d])).c_str());
        }
    std::printf(
        "  GPU/CPU: GPU over CPU backend (medians); CPU/lib: CPU backend over libastcenc, same threads (best "
        "times)\n");
    for (const FormatResult& r : results)
        for (int d = 0; d < 2; ++d)
            if (runner.cpu_backend() && !r.cpu_backend[d].available)
                std::printf("  %s %s: CPU backend: %s\n", r.info.name, kDataNames[d], r.cpu_backend[d].note.c_str());
    print_block_linear(runner, opt, results);
    if (dev) {
        std::printf("\nbest shapes:\n");
        for (const FormatResult& r : results)
            std::printf(
                "  %-19s mem-bound: %s; native: %s; trivial kernel, 1 word per thread in 64-thread groups: %.3g GT/s\n",
                r.info.name, r.ceiling.shape.c_str(),
                r.native[0].available ? r.native[0].shape.c_str() : r.native[0].note.c_str(),
                r.ceiling_shapes.empty() ? NAN : gtexels(r.texels(), r.ceiling_shapes.back().t.median_ms));
        std::printf(
            "\none-call path (texdec_decode_timed, RGBA8, real-image blocks; ms of the median run of %u, "
            "after a first call and >= %u ms of untimed calls):\n",
            runner.one_call_runs(), runner.warmup_ms());
        std::printf("%-19s %-11s %9s %9s %8s %8s %8s %8s %8s %8s %8s %7s %8s %6s\n", "format", "extent", "1st call",
                    "total", "prepare", "upload", "gpu-up", "decode", "gpu-down", "readback", "submit", "decode%",
                    "transfer", "/xfer");
        for (const FormatResult& r : results)
            if (!r.one_call.runs.empty()) print_one_call_row(r.one_call);
        if (!one_call_astc.runs.empty()) print_one_call_row(one_call_astc);
        std::printf(
            "  upload = host copy into the staging buffer; gpu-up/decode/gpu-down = GPU timestamps; readback = host "
            "copy out; submit = submit to fence\n"
            "  transfer = vkCmdCopyBuffer of the same block bytes host -> device plus texel bytes device -> host "
            "(GPU timestamps, medians, same run); /xfer = total / transfer\n");
    }
    for (bool cpu : {false, true}) {
        if (cpu ? !runner.cpu_backend() : !dev) continue;
        if (cpu)
            std::printf("\nsummary of the CPU backend (%u threads here; best of %u):\n", runner.threads(),
                        runner.cpu_reps());
        else std::printf("\nsummary of the GPU (medians):\n");
        for (const SummaryLine& l : summary)
            if (l.cpu == cpu) std::printf("  %-72s %8s\n", l.what.c_str(), ratio_text(l.value).c_str());
    }
    std::printf("  (docs/PERFORMANCE.md compares these figures with what texdec aims for)\n");
}

void json_timing(Json& j, const char* key, const Measured& m, uint64_t texels) {
    j.key(key).begin_object();
    j.field("available", m.available);
    if (!m.note.empty()) j.field("note", m.note);
    if (m.available) {
        if (!m.shape.empty()) j.field("shape", m.shape);
        j.field("median_ms", m.t.median_ms).field("min_ms", m.t.min_ms).field("max_ms", m.t.max_ms);
        j.field("gtexel_s_median", gtexels(texels, m.t.median_ms)).field("gtexel_s_best", gtexels(texels, m.t.min_ms));
        j.field("samples", uint64_t(m.t.ms.size()));
        if (std::isfinite(m.error_block_share)) j.field("error_block_share", m.error_block_share);
    }
    j.end_object();
}

// A format's block-linear rows: "block_linear": null (--block-linear off) or the layout, the
// surface's bytes, the check, and per data set the GPU ("ours") and CPU backend
// ("ours_cpu_backend") timings with their ratios to the linear rows.
void json_block_linear(Json& j, const FormatResult& r) {
    if (!r.bl_height) {
        j.key("block_linear").null();
        return;
    }
    j.key("block_linear").begin_object();
    j.key("layout").begin_object();
    j.field("type", "block-linear").field("block_height", uint64_t(r.bl_height)).field("block_depth", uint64_t(1));
    j.end_object();
    j.field("source_bytes", uint64_t(r.bl_bytes));
    j.field("check", r.bl_check).field("same_texels", !r.bl_check.empty() && !r.bl_mismatch);
    for (int d = 0; d < 2; ++d) {
        j.key(kDataNames[d]).begin_object();
        json_timing(j, "ours", r.ours_bl[d], r.texels());
        json_timing(j, "ours_cpu_backend", r.cpu_backend_bl[d], r.texels());
        j.key("ratios").begin_object();
        j.field("ours_over_linear", ratio(r.ours[d], r.ours_bl[d]));
        j.field("ours_over_linear_best", ratio_best(r.ours[d], r.ours_bl[d]));
        j.field("cpu_backend_over_linear_best", ratio_best(r.cpu_backend[d], r.cpu_backend_bl[d]));
        j.end_object();
        j.end_object();
    }
    j.end_object();
}

void json_one_call(Json& j, const char* key, const OneCall& oc) {
    auto fields = [&](const char* k, const texdec_decode_timing& t) {
        j.key(k).begin_object();
        j.field("total_ms", ms(t.total_ns))
            .field("prepare_ms", ms(t.prepare_ns))
            .field("upload_copy_ms", ms(t.upload_copy_ns));
        j.field("submit_wait_ms", ms(t.submit_wait_ns)).field("readback_copy_ms", ms(t.readback_copy_ns));
        j.field("gpu_timestamps", bool(t.gpu_timestamps != 0));
        j.field("gpu_upload_ms", ms(t.gpu_upload_ns))
            .field("gpu_decode_ms", ms(t.gpu_decode_ns))
            .field("gpu_readback_ms", ms(t.gpu_readback_ns));
        j.field("decode_share", t.gpu_timestamps && t.total_ns ? double(t.gpu_decode_ns) / double(t.total_ns) : NAN);
        j.end_object();
    };
    j.key(key).begin_object();
    j.field("format", oc.format)
        .field("width", uint64_t(oc.width))
        .field("height", uint64_t(oc.height))
        .field("output", "rgba8");
    j.field("runs", uint64_t(oc.runs.size()));
    if (std::isfinite(oc.error_colour_share)) j.field("error_colour_share", oc.error_colour_share);
    fields("first_call", oc.first);
    fields("median_run", oc.typical);
    j.key("total_ms_runs").begin_array();
    for (const auto& t : oc.runs) j.value(ms(t.total_ns));
    j.end_array();
    j.field("transfer_up_ms", oc.transfer_up_ms).field("transfer_down_ms", oc.transfer_down_ms);
    j.field("total_over_transfer", oc.transfer_ms() > 0 ? ms(oc.typical.total_ns) / oc.transfer_ms() : NAN);
    j.end_object();
}

std::string json_report(const Device* dev, const Runner& runner, const Options& opt, const std::string& date,
                        const std::string& cpu_device, const std::string& host_cpu, const std::string& gpu_note,
                        const std::vector<FormatResult>& results, const OneCall& one_call_astc,
                        const std::vector<SummaryLine>& summary) {
    Json j;
    j.begin_object();
    j.field("tool", "astc-gpu-decode bench").field("version", TEXDEC_CLI_VERSION).field("date", date);
    j.field("command_line", opt.command_line);
    if (opt.input) {
        j.key("input").begin_object().field("path", opt.input->path).field("description", opt.input->description);
        j.field("width", uint64_t(opt.input->width)).field("height", uint64_t(opt.input->height));
        j.field("format", format_info(opt.input->format).name).end_object();
    } else {
        j.key("input").null();  // the real blocks: the bench's own encoded image
    }
    j.key("backends").begin_object().field("gpu", dev != nullptr).field("cpu", runner.cpu_backend());
    if (!dev) j.field("gpu_note", gpu_note);
    j.end_object();
    if (dev) {
        const VkPhysicalDeviceProperties& p = dev->properties();
        j.key("device").begin_object();
        j.field("name", p.deviceName).field("type", device_type_name(p.deviceType));
        j.field("vendor_id", uint64_t(p.vendorID)).field("device_id", uint64_t(p.deviceID));
        j.field("driver_version", driver_version_text(p)).field("driver_version_raw", uint64_t(p.driverVersion));
        j.field("driver_name", dev->driver_name()).field("driver_info", dev->driver_info());
        j.field("vulkan_api", format_text("%u.%u.%u", VK_API_VERSION_MAJOR(p.apiVersion),
                                          VK_API_VERSION_MINOR(p.apiVersion), VK_API_VERSION_PATCH(p.apiVersion)));
        j.field("timestamp_period_ns", p.limits.timestampPeriod)
            .field("timestamp_valid_bits", uint64_t(dev->timestamp_bits()));
        j.field("max_storage_buffer_range", uint64_t(p.limits.maxStorageBufferRange));
        j.end_object();
    } else {
        j.key("device").null();
    }
    j.key("cpu_backend").begin_object();
    j.field("measured", runner.cpu_backend());
    if (runner.cpu_backend()) j.field("device_name", cpu_device);
    j.field("threads", uint64_t(runner.threads())).field("host_cpu", host_cpu);
    j.field("hardware_threads", uint64_t(std::thread::hardware_concurrency()));
    j.field("timed_calls", uint64_t(runner.cpu_reps())).field("clock", "host (steady_clock), per texdec_decode call");
    j.end_object();
    j.key("settings").begin_object();
    j.field("iterations", uint64_t(std::max(opt.iterations, 1u))).field("warmup_ms", uint64_t(runner.warmup_ms()));
    j.field("base_width", uint64_t(runner.base_width())).field("base_height", uint64_t(runner.base_height()));
    j.field("cpu_threads", uint64_t(runner.threads())).field("validation", opt.validate);
    j.field("block_linear_block_height", uint64_t(opt.block_linear_height));  // 0: off
    j.field("bc_rounding", texdec_bc_rounding_name(opt.bc_rounding));
    j.field("cpu", "libastcenc (ASTC), cpu_threads threads, best and median of timed_calls");
    j.field("gtexel_s", "texels of the extent / time; median = from the median time, best = from the minimum time");
    j.end_object();
    j.key("formats").begin_array();
    for (const FormatResult& r : results) {
        j.begin_object();
        j.field("format", r.info.name).field("width", uint64_t(r.width)).field("height", uint64_t(r.height));
        j.field("block", format_text("%ux%u", r.info.block_width, r.info.block_height))
            .field("bytes_per_block", uint64_t(r.info.bytes_per_block));
        j.field("output", texdec_output_name(r.output)).field("output_texel_bytes", uint64_t(r.texel_bytes));
        j.field("block_bytes", uint64_t(r.block_bytes)).field("output_bytes", uint64_t(r.out_bytes));
        if (!r.real_modes.empty()) j.field("real_modes", r.real_modes);
        json_timing(j, "memory_bound_ceiling", r.ceiling, r.texels());
        j.key("memory_bound_shapes").begin_array();
        for (const Shape& s : r.ceiling_shapes) {
            j.begin_object().field("shape", s.name).field("median_ms", s.t.median_ms);
            j.field("gtexel_s_median", gtexels(r.texels(), s.t.median_ms)).end_object();
        }
        j.end_array();
        j.key("native_shapes").begin_array();
        for (const Shape& s : r.native_shapes) {
            j.begin_object().field("shape", s.name).field("median_ms", s.t.median_ms);
            j.field("gtexel_s_median", gtexels(r.texels(), s.t.median_ms)).end_object();
        }
        j.end_array();
        for (int d = 0; d < 2; ++d) {
            j.key(kDataNames[d]).begin_object();
            json_timing(j, "ours", r.ours[d], r.texels());
            json_timing(j, "native", r.native[d], r.texels());
            json_timing(j, "cpu", r.cpu[d], r.texels());
            json_timing(j, "cpu_backend", r.cpu_backend[d], r.texels());
            j.key("ratios").begin_object();
            j.field("ours_over_ceiling", ratio(r.ceiling, r.ours[d]));
            j.field("ours_over_native", ratio(r.native[d], r.ours[d]));
            j.field("ours_over_cpu", ratio(r.cpu[d], r.ours[d]));
            j.field("ours_over_cpu_backend", ratio(r.cpu_backend[d], r.ours[d]));
            j.field("cpu_backend_over_libastcenc", ratio_best(r.cpu[d], r.cpu_backend[d]));
            j.end_object();
            j.key("layout").begin_object().field("type", "linear").end_object();
            j.end_object();
        }
        json_block_linear(j, r);
        if (!r.one_call.runs.empty()) json_one_call(j, "one_call", r.one_call);
        else j.key("one_call").null();
        j.end_object();
    }
    j.end_array();
    if (!one_call_astc.runs.empty()) json_one_call(j, "one_call_astc_6x6", one_call_astc);
    else j.key("one_call_astc_6x6").null();
    j.key("summary").begin_array();
    for (const SummaryLine& l : summary) {
        j.begin_object().field("measure", l.what).field("value", l.value);
        j.field("backend", l.cpu ? "cpu" : "gpu").end_object();
    }
    j.end_array();
    j.field("validation_messages", uint64_t(dev ? dev->validation_messages() : 0));
    j.end_object();
    return j.text() + "\n";
}

}  // namespace

// A representative set from every family this build decodes (formats not implemented yet are left
// out, so the default run works at every stage of the project).
std::vector<texdec_format> default_formats() {
    const texdec_format candidates[] = {
        TEXDEC_FORMAT_BC1_RGBA_UNORM,    TEXDEC_FORMAT_BC3_UNORM,           TEXDEC_FORMAT_BC4_UNORM,
        TEXDEC_FORMAT_BC5_UNORM,         TEXDEC_FORMAT_BC6H_UFLOAT,         TEXDEC_FORMAT_BC7_UNORM,
        TEXDEC_FORMAT_ETC2_R8G8B8_UNORM, TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM, TEXDEC_FORMAT_EAC_R11_UNORM,
        TEXDEC_FORMAT_EAC_R11G11_SNORM,  TEXDEC_FORMAT_ASTC_4x4_UNORM,      TEXDEC_FORMAT_ASTC_6x6_UNORM,
        TEXDEC_FORMAT_ASTC_8x8_UNORM,    TEXDEC_FORMAT_ASTC_12x12_UNORM,    TEXDEC_FORMAT_ASTC_6x6_SRGB,
        TEXDEC_FORMAT_ASTC_4x4_SFLOAT,   TEXDEC_FORMAT_ASTC_6x6_SFLOAT};
    std::vector<texdec_format> formats;
    for (texdec_format f : candidates) {
        texdec_format_info info{};
        if (texdec_format_get_info(f, &info) == TEXDEC_SUCCESS && (info.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED))
            formats.push_back(f);
    }
    return formats;
}

int run(const Options& options) {
    const std::vector<texdec_format> formats = options.formats.empty() ? default_formats() : options.formats;
    for (texdec_format f : formats)
        if (!(format_info(f).flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED))
            throw std::runtime_error(std::string(format_info(f).name) + " is not implemented in this build");

    // The GPU: required with --backend gpu; with auto only a device that is not of CPU type.
    std::unique_ptr<Device> device;
    std::string gpu_note;
    if (options.backend == TEXDEC_BACKEND_GPU) {
        device = std::make_unique<Device>(Device::Config{options.device_selector, options.validate});
    } else if (options.backend == TEXDEC_BACKEND_AUTO) {
        try {
            device = std::make_unique<Device>(Device::Config{options.device_selector, options.validate});
        } catch (const std::runtime_error& e) {
            if (options.validate) throw;  // --validate asks for the GPU
            gpu_note = std::string("no usable Vulkan device: ") + e.what();
        }
        if (device && device->properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) {
            gpu_note = std::string("the Vulkan device is ") + device->properties().deviceName +
                       ", of CPU type: --backend gpu measures it";
            device.reset();
        }
    } else {
        gpu_note = "--backend cpu";
    }
    if (device) {
        const VkPhysicalDeviceProperties& p = device->properties();
        std::fprintf(stderr, "bench: device %s (%s)%s\n", p.deviceName, device_type_name(p.deviceType),
                     options.validate ? ", validation layer on" : "");
    } else {
        std::fprintf(stderr, "bench: no GPU measured (%s)\n", gpu_note.c_str());
    }

    TexdecLog log;
    log.verbose = options.verbose;
    texdec_context_create_info ci{};
    ci.message_callback = &TexdecLog::callback;
    ci.user_data = &log;
    texdec::Context ctx;
    if (device) {
        texdec_external_device ext{};
        ext.get_instance_proc_addr = vkGetInstanceProcAddr;  // volk's: the loader's entry point
        ext.instance = device->instance();
        ext.physical_device = device->physical_device();
        ext.device = device->device();
        ext.queue_family_index = device->queue_family();
        ext.queue = device->queue();
        const texdec_status s = texdec::Context::create_external(ci, ext, ctx);
        if (s != TEXDEC_SUCCESS)
            throw std::runtime_error(std::string("texdec_context_create_external: ") + texdec_status_string(s) + ": " +
                                     log.take());
    }
    // The CPU backend: its own context, the same thread count as libastcenc gets.
    texdec::Context cpu_ctx;
    const uint32_t threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    std::string cpu_device;
    if (options.backend != TEXDEC_BACKEND_GPU) {
        texdec_backend_info backend{};
        backend.type = TEXDEC_STRUCTURE_TYPE_BACKEND_INFO;
        backend.backend = TEXDEC_BACKEND_CPU;
        backend.cpu_threads = threads;
        texdec_context_create_info cpu_ci = ci;
        cpu_ci.next = &backend;
        const texdec_status s = texdec::Context::create(cpu_ci, cpu_ctx);
        if (s != TEXDEC_SUCCESS)
            throw std::runtime_error(std::string("texdec_context_create (CPU backend): ") + texdec_status_string(s) +
                                     ": " + log.take());
        cpu_device = cpu_ctx.device_name();
        std::fprintf(stderr, "bench: CPU backend: %s\n", cpu_device.c_str());
    }
    const std::string host_cpu = host_cpu_name();

    const std::string date = utc_now();
    Runner runner(options, device.get(), ctx.get(), cpu_ctx.get(), log);
    std::vector<FormatResult> results;
    for (texdec_format f : formats) results.push_back(runner.run_format(f));
    const OneCall one_call_astc = runner.one_call_astc_6x6();
    const std::vector<SummaryLine> summary = summarize(results, one_call_astc);
    ctx = texdec::Context();  // destroyed before the device goes
    cpu_ctx = texdec::Context();

    print_report(device.get(), runner, options, date, cpu_device, host_cpu, gpu_note, results, one_call_astc, summary);
    if (!options.json_path.empty()) {
        const std::string text = json_report(device.get(), runner, options, date, cpu_device, host_cpu, gpu_note,
                                             results, one_call_astc, summary);
        const safe_output::Result written = safe_output::write_file(options.json_path, text);
        if (!written.ok) throw std::runtime_error(written.message);
        std::fprintf(stderr, "bench: wrote %s\n", options.json_path.c_str());
    }
    for (const FormatResult& r : results)
        if (r.bl_mismatch) {
            std::fprintf(stderr, "astc-gpu-decode bench: %s: block-linear input: %s\n", r.info.name,
                         r.bl_check.c_str());
            return 1;
        }
    if (device && device->validation_messages() > 0) {
        std::fprintf(stderr, "astc-gpu-decode bench: %u validation message(s) (see above)\n",
                     device->validation_messages());
        return 1;
    }
    return 0;
}

}  // namespace bench

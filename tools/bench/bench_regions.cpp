// astc-gpu-decode bench --regions N: the cost of many small regions (texdec.h "many small regions").
//
// Method, per format: N regions of --region-size (default 64x64) texels, each with its own blocks
// at its own source offset (real blocks: the procedural image encoded as for the main bench and cut
// into regions), decoded by texdec_record_regions:
//   - large: one region of --size (default 4096x4096) into a buffer: the large-image figure;
//   - buffer/image, one call, batched: the N regions in one call with a texdec_regions_scratch_info
//     (buffer: region i at its own offset; image: an atlas of the output's format, region i in
//     its own cell of mip level 0);
//   - buffer/image, one call, unbatched: the same call without scratch (one dispatch per region,
//     the 1.3 path);
//   - buffer/image, N calls: N texdec_record_regions calls of one region each (no scratch).
// The one-call rows pass texdec_record_barriers (src COMPUTE_SHADER: the previous repetition; the
// scratch's table write must wait for the reads of the previous one), the N-call rows none.
// Timed as the main bench (Device::time: GPU timestamps around each repetition, a warm-up first);
// the host time of the recording (steady clock around the texdec calls) beside it.
#include <texdec/texdec.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench.h"
#include "bench_blocks.h"
#include "bench_vulkan.h"
#include "cli_common.h"
#include "json.h"
#include "safe_output.h"

namespace bench {
namespace {

struct Log {
    std::string errors;
    static void callback(texdec_message_severity severity, const char* message, void* user) {
        auto* log = static_cast<Log*>(user);
        if (severity == TEXDEC_MESSAGE_ERROR) log->errors += std::string(log->errors.empty() ? "" : "; ") + message;
        else if (severity != TEXDEC_MESSAGE_INFO) std::fprintf(stderr, "texdec: %s\n", message);
    }
};

struct Row {
    std::string name;
    uint32_t regions = 0, calls = 0;
    uint64_t texels = 0;
    Timing t;
    double record_us = 0;  // host time of one repetition's texdec calls (median)
};

struct FormatRows {
    texdec_format format{};
    std::string name;
    std::vector<Row> rows;  // rows[0]: large
};

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[(v.size() - 1) / 2];
}

class RegionsBench {
public:
    RegionsBench(const Options& o, Device& dev, texdec_context* ctx, Log& log)
        : opt_(o), dev_(dev), ctx_(ctx), log_(log) {
        n_ = o.regions;
        rw_ = o.region_width, rh_ = o.region_height;
        large_w_ = o.width.value_or(4096), large_h_ = o.height.value_or(4096);
        warmup_ms_ = o.warmup_ms.value_or(dev.properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? 50 : 300);
        cols_ = uint32_t(std::ceil(std::sqrt(double(n_))));
        rows_ = (n_ + cols_ - 1) / cols_;
    }

    FormatRows run(texdec_format format);

private:
    Row time_job(const char* name, const texdec_regions_job& job, uint32_t calls, uint64_t texels);
    void check(texdec_status s, const char* what) {
        if (s != TEXDEC_SUCCESS)
            throw std::runtime_error(std::string(what) + ": " + texdec_status_string(s) + ": " + log_.errors);
    }

    const Options& opt_;
    Device& dev_;
    texdec_context* ctx_;
    Log& log_;
    uint32_t n_ = 0, rw_ = 0, rh_ = 0, large_w_ = 0, large_h_ = 0, warmup_ms_ = 0, cols_ = 0, rows_ = 0;
};

Row RegionsBench::time_job(const char* name, const texdec_regions_job& job, uint32_t calls, uint64_t texels) {
    Row row;
    row.name = name;
    row.regions = calls == 1 ? job.region_count : calls;
    row.calls = calls;
    row.texels = texels;
    std::vector<double> host_us;
    texdec_status status = TEXDEC_SUCCESS;
    row.t = dev_.time(
        [&](VkCommandBuffer cmd) {
            const auto start = std::chrono::steady_clock::now();
            if (calls == 1) {
                const texdec_status s = texdec_record_regions(ctx_, cmd, &job);
                if (s != TEXDEC_SUCCESS) status = s;
            } else {
                texdec_regions_job one = job;
                one.region_count = 1;
                for (uint32_t i = 0; i < calls; ++i) {
                    one.regions = job.regions + i;
                    const texdec_status s = texdec_record_regions(ctx_, cmd, &one);
                    if (s != TEXDEC_SUCCESS) status = s;
                }
            }
            host_us.push_back(
                std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
        },
        opt_.iterations, warmup_ms_);
    check(status, "texdec_record_regions");
    row.record_us = median(host_us);
    std::fprintf(stderr, "bench: %-28s %8.3f ms median\n", name, row.t.median_ms);
    return row;
}

FormatRows RegionsBench::run(texdec_format format) {
    FormatRows out;
    out.format = format;
    texdec_format_info info{};
    texdec_format_get_info(format, &info);
    out.name = info.name;
    texdec_output output = opt_.output.value_or(TEXDEC_OUTPUT_RGBA8);
    uint32_t texel_bytes = 0;
    if (texdec_output_texel_size(format, output, &texel_bytes) != TEXDEC_SUCCESS) {
        output = TEXDEC_OUTPUT_NATIVE;
        check(texdec_output_texel_size(format, output, &texel_bytes), "texdec_output_texel_size");
    }
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    const uint32_t bw = info.block_width, bh = info.block_height, bpb = info.bytes_per_block;

    // The large image: real blocks tiled to --size.
    const uint32_t lbx = (large_w_ + bw - 1) / bw, lby = (large_h_ + bh - 1) / bh;
    std::vector<uint8_t> large = real_image_blocks(format, lbx, lby, threads);
    // The regions: an atlas of cols x rows regions encoded as one image, each region's blocks then
    // copied to its own contiguous piece of the source.
    const uint32_t rbx = (rw_ + bw - 1) / bw, rby = (rh_ + bh - 1) / bh;
    const uint64_t region_bytes = uint64_t(rbx) * rby * bpb;
    std::vector<uint8_t> atlas = real_image_blocks(format, rbx * cols_, rby * rows_, threads);
    std::vector<uint8_t> src_bytes(region_bytes * n_);
    for (uint32_t i = 0; i < n_; ++i) {
        const uint32_t cx = i % cols_, cy = i / cols_;
        for (uint32_t y = 0; y < rby; ++y)
            std::memcpy(&src_bytes[i * region_bytes + uint64_t(y) * rbx * bpb],
                        &atlas[(uint64_t(cy * rby + y) * rbx * cols_ + uint64_t(cx) * rbx) * bpb], size_t(rbx) * bpb);
    }
    const uint64_t region_out = uint64_t(rw_) * rh_ * texel_bytes;
    const uint64_t large_out = uint64_t(large_w_) * large_h_ * texel_bytes;
    Buffer src = dev_.create_buffer(std::max<uint64_t>(large.size(), src_bytes.size()));
    Buffer dst = dev_.create_buffer(std::max<uint64_t>(large_out, region_out * n_));
    Buffer scratch_buffer{};
    std::unique_ptr<Buffer, std::function<void(Buffer*)>> guard(&src, [&](Buffer*) {
        dev_.destroy(src);
        dev_.destroy(dst);
        if (scratch_buffer.buffer) dev_.destroy(scratch_buffer);
    });

    // Large.
    dev_.upload(src, large.data(), large.size());
    texdec_region big{};
    big.extent = {large_w_, large_h_, 1};
    texdec_regions_job job = texdec::regions_job(format, output, src.buffer, src.size, &big, 1, dst.buffer, dst.size);
    job.bc_rounding = opt_.bc_rounding;
    out.rows.push_back(time_job("large (one region)", job, 1, uint64_t(large_w_) * large_h_));

    // The regions into the buffer.
    dev_.upload(src, src_bytes.data(), src_bytes.size());
    std::vector<texdec_region> regions(n_);
    for (uint32_t i = 0; i < n_; ++i) {
        regions[i] = texdec_region{};
        regions[i].src_offset = i * region_bytes;
        regions[i].extent = {rw_, rh_, 1};
        regions[i].dst_offset = i * region_out;
    }
    job.region_count = n_;
    job.regions = regions.data();
    VkDeviceSize scratch_bytes = 0;
    check(texdec_regions_scratch_size(ctx_, &job, &scratch_bytes), "texdec_regions_scratch_size");
    scratch_buffer = dev_.create_buffer(scratch_bytes);
    const texdec_regions_scratch_info scratch = texdec::regions_scratch(scratch_buffer.buffer, 0, scratch_bytes);
    texdec_record_barriers barriers{};
    barriers.src_stage_mask = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    barriers.src_access_mask = VK_ACCESS_SHADER_WRITE_BIT;
    barriers.old_layout = VK_IMAGE_LAYOUT_GENERAL;
    const uint64_t texels = uint64_t(rw_) * rh_ * n_;
    // The three ways of recording the regions into the job's destination (`kind`): one call with
    // barriers, batched and not, then one call per region without barriers.
    const auto time_three = [&](const std::string& kind) {
        job.barriers = &barriers;
        job.next = &scratch;
        out.rows.push_back(time_job((kind + ", one call, batched").c_str(), job, 1, texels));
        job.next = nullptr;
        out.rows.push_back(time_job((kind + ", one call, unbatched").c_str(), job, 1, texels));
        job.barriers = nullptr;
        out.rows.push_back(time_job((kind + ", N calls").c_str(), job, n_, texels));
    };
    time_three("buffer");

    // The regions into an atlas image of the output's format.
    VkFormat vk_format = VK_FORMAT_UNDEFINED;
    check(texdec_output_vk_format(format, output, &vk_format), "texdec_output_vk_format");
    const VkImageCreateInfo ici = vk_app::image_info_2d(
        vk_format, rw_ * cols_, rh_ * rows_, 1, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
        vk_format == VK_FORMAT_R8G8B8A8_SRGB ? VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT
                                             : 0);
    Image atlas_image = dev_.create_image(ici);
    const VkImage image = atlas_image.image;
    dev_.run_once([&](VkCommandBuffer cmd) {
        const VkImageMemoryBarrier b = vk_app::image_barrier(image, 1, VK_IMAGE_LAYOUT_UNDEFINED,
                                                             VK_IMAGE_LAYOUT_GENERAL, 0, VK_ACCESS_SHADER_WRITE_BIT);
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0,
                             nullptr, 0, nullptr, 1, &b);
    });
    const texdec_image_target_create_info tci = texdec::image_target_info(image, ici);
    texdec_image_target* target = nullptr;
    check(texdec_image_target_create(ctx_, &tci, &target), "texdec_image_target_create");
    for (uint32_t i = 0; i < n_; ++i) {
        regions[i].offset = {int32_t((i % cols_) * rw_), int32_t((i / cols_) * rh_), 0};
        regions[i].dst_offset = 0;
    }
    job.dst_buffer = VK_NULL_HANDLE;
    job.dst_size = 0;
    job.dst_image = target;
    time_three("image");
    texdec_image_target_destroy(ctx_, target);
    dev_.destroy(atlas_image);
    return out;
}

double gtexel(const Row& r) { return r.t.median_ms > 0 ? double(r.texels) / (r.t.median_ms * 1e6) : 0; }

}  // namespace

int run_regions(const Options& options) {
    std::vector<texdec_format> formats = options.formats;
    if (formats.empty()) formats = {TEXDEC_FORMAT_ASTC_4x4_UNORM, TEXDEC_FORMAT_BC1_RGBA_UNORM};
    Device dev(Device::Config{options.device_selector, options.validate});
    Log log;
    texdec_context_create_info ci{};
    ci.message_callback = &Log::callback;
    ci.user_data = &log;
    texdec_external_device ext{};
    ext.get_instance_proc_addr = vkGetInstanceProcAddr;
    ext.instance = dev.instance();
    ext.physical_device = dev.physical_device();
    ext.device = dev.device();
    ext.queue_family_index = dev.queue_family();
    ext.queue = dev.queue();
    texdec::Context ctx;
    if (texdec_status s = texdec::Context::create_external(ci, ext, ctx); s != TEXDEC_SUCCESS)
        throw std::runtime_error(std::string("texdec_context_create_external: ") + texdec_status_string(s) + ": " +
                                 log.errors);
    const VkPhysicalDeviceProperties& p = dev.properties();
    std::fprintf(stderr, "bench: device %s, %u regions of %ux%u\n", p.deviceName, options.regions, options.region_width,
                 options.region_height);
    RegionsBench bench(options, dev, ctx.get(), log);
    std::vector<FormatRows> results;
    for (texdec_format f : formats) results.push_back(bench.run(f));
    ctx = texdec::Context();

    std::printf("astc-gpu-decode bench --regions: %s (%s), driver %s\n", p.deviceName, dev.driver_name().c_str(),
                dev.driver_info().c_str());
    std::printf(
        "%u regions of %ux%u texels; GPU time per repetition (median of %u, timestamps); host: recording time\n",
        options.regions, options.region_width, options.region_height, options.iterations);
    std::printf("%-14s %-30s %10s %10s %12s %10s %12s\n", "format", "case", "GPU ms", "GTexel/s", "us/region",
                "vs large", "host us/reg");
    cli::Json j;
    j.begin_object();
    j.field("tool", "astc-gpu-decode bench --regions");
    j.field("command_line", options.command_line);
    j.field("device", p.deviceName);
    j.field("driver", dev.driver_name() + " " + dev.driver_info());
    j.field("regions", options.regions);
    j.field("region_width", options.region_width);
    j.field("region_height", options.region_height);
    j.field("iterations", options.iterations);
    j.key("formats").begin_array();
    for (const FormatRows& fr : results) {
        const double large = gtexel(fr.rows[0]);
        j.begin_object();
        j.field("format", fr.name);
        j.key("cases").begin_array();
        for (const Row& r : fr.rows) {
            const double g = gtexel(r);
            const double us_region = r.t.median_ms * 1000.0 / r.regions;
            std::printf("%-14s %-30s %10.4f %10.2f %12.4f %9.1f%% %12.4f\n", fr.name.c_str(), r.name.c_str(),
                        r.t.median_ms, g, us_region, large > 0 ? 100.0 * g / large : 0.0, r.record_us / r.regions);
            j.begin_object();
            j.field("case", r.name);
            j.field("regions", r.regions);
            j.field("calls", r.calls);
            j.field("texels", r.texels);
            j.field("median_ms", r.t.median_ms);
            j.field("min_ms", r.t.min_ms);
            j.field("gtexel_per_s", g);
            j.field("us_per_region", us_region);
            j.field("ratio_to_large", large > 0 ? g / large : 0.0);
            j.field("host_record_us", r.record_us);
            j.end_object();
        }
        j.end_array();
        j.end_object();
    }
    j.end_array();
    j.end_object();
    if (!options.json_path.empty()) {
        const safe_output::Result written = safe_output::write_file(options.json_path, j.text() + "\n");
        if (!written.ok) throw std::runtime_error(written.message);
    }
    if (dev.validation_messages() > 0) {
        std::fprintf(stderr, "astc-gpu-decode bench: %u validation message(s)\n", dev.validation_messages());
        return 1;
    }
    return 0;
}

}  // namespace bench

// The CPU backend (backend.h): cuts a checked one-call job into tasks of block rows, runs them on the
// context's task pool (its threads or the caller's run_tasks hook), and for each run of up to kMaxRunBlocks blocks
// calls the family's decoder into a scratch tile, then copies the texels inside the extent into
// the job's layout. The decoders (cpu_decoders.h) never see the destination, so no decoder can
// write outside it; the copy is the only writer of job.dst.
#include "cpu/cpu_backend.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
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

}  // namespace

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

// Tables the decoders build (FamilyDecoder::make_tables), once per context and key.
struct Tables {
    std::mutex mutex;
    std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, bool>, std::shared_ptr<const void>>
        made;
};

// The family's decoder with its tables for this variant (built on first use).
texdec_status find_decoder(Tables& tables, const texdec_context* ctx, Variant* v, const FamilyDecoder** decoder) {
    const FamilyDecoder* d = family_decoder(v->format->family);
    if (!d || !d->decode)
        return report(ctx, TEXDEC_ERROR_UNSUPPORTED_FORMAT, TEXDEC_MESSAGE_ERROR,
                      "format %s has no CPU decoder in this build (use a GPU context)", v->format->name);
    *decoder = d;
    if (!d->make_tables) return TEXDEC_SUCCESS;
    const FormatEntry& f = *v->format;
    const auto key = std::make_tuple(uint32_t(f.family), uint32_t(f.block_width), uint32_t(f.block_height),
                                     uint32_t(f.block_depth), v->variant, v->store, v->srgb);
    std::lock_guard<std::mutex> lock(tables.mutex);
    auto it = tables.made.find(key);
    if (it == tables.made.end()) {
        std::shared_ptr<const void> made;
        try {
            made = d->make_tables(*v);
        } catch (...) {}
        if (!made)
            return report(ctx, TEXDEC_ERROR_OUT_OF_MEMORY, TEXDEC_MESSAGE_ERROR,
                          "out of host memory for the CPU decoder's tables of %s", f.name);
        it = tables.made.emplace(key, std::move(made)).first;
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

// The CPU backend: the family decoders (family_decoder) with their tables, run on the context's
// task pool. No device: what needs one fails with WRONG_BACKEND.
class CpuBackend final : public Backend {
public:
    explicit CpuBackend(TaskPool& tasks) : tasks_(tasks) {}

    texdec_backend kind() const override { return TEXDEC_BACKEND_CPU; }

    texdec_status require_device(const texdec_context* ctx, const char* function) const override {
        return report(ctx, TEXDEC_ERROR_WRONG_BACKEND, TEXDEC_MESSAGE_ERROR,
                      "%s needs a GPU context; this is a CPU context (it serves texdec_decode and the queries)",
                      function);
    }

    texdec_status decode(texdec_context* ctx, const texdec_host_job& job, const JobPlan& plan,
                         texdec_decode_timing* timing, uint64_t start_ns) override;

    // Decodes straight into job->dst.
    void scratch_size(texdec_context*, const JobPlan&, uint64_t* host_bytes, uint64_t* device_bytes) override {
        *host_bytes = *device_bytes = 0;
    }

    // Buffer variants are what texdec_decode uses: nothing to compile, the tables are built.
    texdec_status prepare(texdec_context* ctx, const JobPlan& plan, texdec_destination_kind dst_kind,
                          const TexelFormat*, Creation creation) override {
        if (is_image_destination(dst_kind)) return require_device(ctx, "an image destination");
        return creation == Creation::create_missing ? prepare_tables(ctx, plan) : TEXDEC_SUCCESS;
    }

    void support_reasons(const texdec_context*, texdec_status resolved, const FormatEntry*, const OutputInfo&,
                         uint32_t kind, VkFormat, texdec_support* support) override {
        if (resolved == TEXDEC_SUCCESS && kind != TEXDEC_DESTINATION_BUFFER)
            support->reasons |= TEXDEC_SUPPORT_REASON_DESTINATION;
    }
    // Buffer variants decode (if the CPU backend has the family), images never.
    texdec_status support_status(texdec_context* ctx, const JobPlan& plan, uint32_t kind, VkFormat) override {
        if (is_image_destination(kind)) return require_device(ctx, "an image destination");
        if (kind != TEXDEC_DESTINATION_BUFFER)
            return report(ctx, TEXDEC_ERROR_INVALID_DESTINATION, TEXDEC_MESSAGE_ERROR,
                          "destination %u is not a texdec_destination_kind", kind);
        return prepare_tables(ctx, plan);
    }

    // No staging, no pipelines; the decoders' tables are not counted.
    void memory_usage(texdec_context*, texdec_memory_usage*) override {}
    texdec_status release_staging(texdec_context*) override { return TEXDEC_SUCCESS; }

    // The threads are the context's task pool's: they end with the context.
    void destroy(texdec_context*) override { delete this; }

private:
    // Whether the CPU backend decodes `plan`'s format (UNSUPPORTED_FORMAT with a message if not);
    // builds its tables now.
    texdec_status prepare_tables(const texdec_context* ctx, const JobPlan& plan) {
        Variant v = make_variant(plan);
        const FamilyDecoder* decoder = nullptr;
        return find_decoder(tables_, ctx, &v, &decoder);
    }

    TaskPool& tasks_;  // the context's
    Tables tables_;
};

texdec_status CpuBackend::decode(texdec_context* ctx, const texdec_host_job& job, const JobPlan& plan,
                                 texdec_decode_timing* timing, uint64_t start_ns) {
    static_assert(sizeof(size_t) >= sizeof(uint64_t), "the CPU backend addresses jobs with 64-bit sizes");
    DecodeWork w;
    w.variant = make_variant(plan);
    if (texdec_status s = find_decoder(tables_, ctx, &w.variant, &w.decoder); s != TEXDEC_SUCCESS) return s;
    w.plan = &plan;
    w.src = static_cast<const uint8_t*>(job.src);
    w.dst = static_cast<uint8_t*>(job.dst);
    w.rows = plan.blocks_y * plan.blocks_z;
    // Several ranges per thread, so that a thread that finishes early (or started late) takes
    // another; never more ranges than rows.
    const uint64_t wanted = tasks_.threads() == 1 && !tasks_.hooked() ? 1 : uint64_t(tasks_.threads()) * 4;
    w.tasks = uint32_t(std::min<uint64_t>(w.rows, wanted));
    const uint64_t decode_start = timing ? now_ns() : 0;
    if (texdec_status s = tasks_.run(ctx, w.tasks, decode_task, &w); s != TEXDEC_SUCCESS) return s;
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

texdec_status create_backend(const texdec_backend_info& info, TaskPool& tasks, Backend** out, char* name,
                             size_t name_size) {
    *out = nullptr;
    const uint32_t hardware = std::clamp(std::thread::hardware_concurrency(), 1u, uint32_t(kMaxCpuThreads));
    const uint32_t threads = info.cpu_threads ? info.cpu_threads : hardware;  // checked: at most kMaxCpuThreads
    auto* backend = new (std::nothrow) CpuBackend(tasks);
    if (!backend) return TEXDEC_ERROR_OUT_OF_MEMORY;
    if (info.run_tasks) {
        tasks.use_hook(info.run_tasks, info.run_tasks_user_data, threads);
        std::snprintf(name, name_size, "CPU backend, caller's tasks (%u-way)", threads);
    } else {
        if (!tasks.start(threads)) {
            delete backend;
            return TEXDEC_ERROR_OUT_OF_MEMORY;
        }
        std::snprintf(name, name_size, "CPU backend, %u thread%s", threads, threads == 1 ? "" : "s");
    }
    *out = backend;
    return TEXDEC_SUCCESS;
}

}  // namespace texdec::cpu

// The CPU backend's BPTC decoders (src/cpu/bptc.cpp) against the GPU path (bc6h.comp, bc7.comp on
// the test machine's device, lavapipe in CI), byte for byte (tolerance 0): the two backends must
// write the same bytes for every block bit pattern, format, output and BC rounding mode.
//
//   random: random_block_count() blocks per format and store (RGBA8, RGBA16F; EXACT rounding), and
//           a chunk of 16,384 for NATIVE and for IDEAL and NVIDIA, which BPTC ignores: a quarter uniformly random bytes, a quarter with the
//           mode forced (BC7: modes 0..7 and the reserved mode byte 0; BC6H: all 32 values of the
//           low 5 bits, the reserved modes included), a quarter with sparse and a quarter with
//           dense bits (small and large endpoints and deltas: BC6H wrap-around, -0, -Inf);
//   layout: odd extents, several block runs per row, source row lengths and image heights,
//           destination pitches, slices; the destinations start as the same non-zero bytes, so
//           the bytes outside the extent must stay the same too.
// GPU and CPU contexts are opened explicitly (whatever TEXDEC_BACKEND says).
#include <catch2/catch.hpp>

#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/gpu_fixture.h"
#include "support/backend_context.h"
#include "support/job_builder.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

struct BptcFormat {
    texdec_format format;
    const char* name;
    bool bc6h;
};
constexpr BptcFormat kFormats[] = {
    {TEXDEC_FORMAT_BC6H_UFLOAT, "BC6H_UFLOAT", true},
    {TEXDEC_FORMAT_BC6H_SFLOAT, "BC6H_SFLOAT", true},
    {TEXDEC_FORMAT_BC7_UNORM, "BC7_UNORM", false},
    {TEXDEC_FORMAT_BC7_SRGB, "BC7_SRGB", false},
};

// The outputs a format has (BC6H refuses RGBA8).
std::vector<texdec_output> outputs_of(const BptcFormat& f) {
    if (f.bc6h) return {TEXDEC_OUTPUT_RGBA16F, TEXDEC_OUTPUT_NATIVE};
    return {TEXDEC_OUTPUT_RGBA8, TEXDEC_OUTPUT_RGBA16F, TEXDEC_OUTPUT_NATIVE};
}

uint32_t texel_bytes_of(texdec_format format, texdec_output output) {
    uint32_t bytes = 0;
    REQUIRE(texdec_output_texel_size(format, output, &bytes) == TEXDEC_SUCCESS);
    return bytes;
}

// `count` 16-byte blocks, in four kinds by index (see the top of this file).
std::vector<uint8_t> bptc_blocks(const BptcFormat& f, size_t count, uint64_t seed) {
    std::vector<uint8_t> data(count * 16);
    SplitMix64 rng(seed ^ (uint64_t(f.format) << 40));
    for (size_t i = 0; i < count; ++i) {
        uint8_t* b = &data[i * 16];
        const uint64_t lo = rng.next(), hi = rng.next();
        std::memcpy(b, &lo, 8);
        std::memcpy(b + 8, &hi, 8);
        switch (i % 4) {
        case 1: {
            const uint32_t pick = uint32_t(rng.next());
            if (f.bc6h) {
                b[0] = uint8_t((b[0] & ~31u) | (pick & 31u));
            } else {
                const uint32_t mode = pick % 9;  // 8: the reserved mode byte 0
                b[0] = mode == 8 ? 0 : uint8_t((b[0] & ~((2u << mode) - 1u)) | (1u << mode));
            }
            break;
        }
        case 2:  // sparse bits above the mode
            for (int j = 0; j < 16; ++j) b[j] &= uint8_t(rng.next() | (j == 0 ? 0x1Fu : 0u));
            break;
        case 3:  // dense bits above the mode
            for (int j = 0; j < 16; ++j) b[j] |= uint8_t(rng.next() & (j == 0 ? 0xE0u : 0xFFu));
            break;
        default: break;
        }
    }
    return data;
}

// Index and description of the first differing texel.
std::string first_difference(const std::vector<uint8_t>& gpu, const std::vector<uint8_t>& cpu, size_t row_pitch,
                             uint32_t texel_bytes) {
    for (size_t i = 0; i < gpu.size(); ++i) {
        if (gpu[i] == cpu[i]) continue;
        std::ostringstream s;
        s << "byte " << i << " (row " << i / row_pitch << ", texel " << (i % row_pitch) / texel_bytes << "): gpu "
          << int(gpu[i]) << ", cpu " << int(cpu[i]);
        return s.str();
    }
    return "";
}

size_t count_differences(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
    size_t n = 0;
    for (size_t i = 0; i < a.size(); ++i) n += a[i] != b[i];
    return n;
}

// Decodes `job` (its dst/dst_size replaced) on both contexts into destinations that start as the
// same `fill` bytes; REQUIREs identical bytes.
void compare_backends(BackendContext& gpu_ctx, BackendContext& cpu_ctx, texdec_host_job job, size_t dst_bytes,
                      const std::string& what, uint8_t fill = 0xA5) {
    std::vector<uint8_t> gpu(dst_bytes, fill), cpu(dst_bytes, fill);
    job.dst = gpu.data();
    job.dst_size = gpu.size();
    gpu_ctx.decode(job);
    job.dst = cpu.data();
    cpu_ctx.decode(job);
    const uint32_t texel_bytes = texel_bytes_of(job.format, job.output);
    const size_t row_pitch = job.dst_row_pitch ? job.dst_row_pitch : size_t(job.width) * texel_bytes;
    INFO(what << ": " << count_differences(gpu, cpu)
              << " bytes differ; first: " << first_difference(gpu, cpu, row_pitch, texel_bytes));
    REQUIRE(gpu == cpu);
}

const char* rounding_name(texdec_bc_rounding r) {
    return r == TEXDEC_BC_ROUNDING_EXACT ? "EXACT" : r == TEXDEC_BC_ROUNDING_IDEAL ? "IDEAL" : "NVIDIA";
}

void random_blocks_test(const BptcFormat& f) {
    auto gpu = BackendContext::open(TEXDEC_BACKEND_GPU, 2);
    if (!gpu) return;
    auto cpu = BackendContext::open(TEXDEC_BACKEND_CPU, 2);
    // Chunks of 256 x 64 blocks (1024 x 256 texels).
    constexpr uint32_t kChunkW = 256, kChunkH = 64, kChunkBlocks = kChunkW * kChunkH;
    const size_t total = random_block_count();
    size_t compared = 0;
    for (texdec_output output : outputs_of(f)) {
        const uint32_t texel_bytes = texel_bytes_of(f.format, output);
        for (texdec_bc_rounding rounding :
             {TEXDEC_BC_ROUNDING_EXACT, TEXDEC_BC_ROUNDING_IDEAL, TEXDEC_BC_ROUNDING_NVIDIA}) {
            // BPTC takes no rounding mode: the other two only have to be ignored alike. NATIVE is
            // the RGBA8 (BC7) or RGBA16F (BC6H) store again: one chunk each, like those.
            const bool full = rounding == TEXDEC_BC_ROUNDING_EXACT && output != TEXDEC_OUTPUT_NATIVE;
            const size_t blocks = full ? total : size_t{kChunkBlocks};
            for (size_t first = 0; first < blocks; first += kChunkBlocks) {
                const std::vector<uint8_t> data = bptc_blocks(f, kChunkBlocks, test_seed() + first * 7 + output);
                const texdec_host_job job =
                    JobBuilder(f.format, output, kChunkW * 4, kChunkH * 4).blocks(data).rounding(rounding);
                std::ostringstream what;
                what << f.name << " " << texdec_output_name(output) << " " << rounding_name(rounding)
                     << ", blocks from " << first << " (seed " << test_seed() << ")";
                compare_backends(*gpu, *cpu, job, size_t(kChunkW) * 4 * kChunkH * 4 * texel_bytes, what.str());
                compared += kChunkBlocks;
            }
        }
    }
    WARN(f.name << ": " << compared << " blocks identical on the GPU and CPU backends");
}

}  // namespace

TEST_CASE("cpu bptc: random blocks: GPU == CPU byte for byte (BC6H_UFLOAT)", "[cpu][bptc][random]") {
    random_blocks_test(kFormats[0]);
}
TEST_CASE("cpu bptc: random blocks: GPU == CPU byte for byte (BC6H_SFLOAT)", "[cpu][bptc][random]") {
    random_blocks_test(kFormats[1]);
}
TEST_CASE("cpu bptc: random blocks: GPU == CPU byte for byte (BC7_UNORM)", "[cpu][bptc][random]") {
    random_blocks_test(kFormats[2]);
}
TEST_CASE("cpu bptc: random blocks: GPU == CPU byte for byte (BC7_SRGB)", "[cpu][bptc][random]") {
    random_blocks_test(kFormats[3]);
}

TEST_CASE("cpu bptc: odd extents and source rows and pitches and slices: GPU == CPU", "[cpu][bptc]") {
    auto gpu = BackendContext::open(TEXDEC_BACKEND_GPU, 2);
    if (!gpu) return;
    auto cpu = BackendContext::open(TEXDEC_BACKEND_CPU, 2);
    struct Layout {
        uint32_t width, height, depth;
        uint32_t row_length, image_height;  // texels (0 = the extent)
        uint32_t pad_bytes;                 // added to the tight row pitch
        uint32_t pad_rows;                  // rows of padding added to the slice pitch
    };
    const Layout layouts[] = {
        {1, 1, 1, 0, 0, 0, 0},       // one texel
        {3, 2, 1, 0, 0, 0, 0},       // part of one block
        {13, 7, 1, 0, 0, 0, 0},      // partial blocks right and below
        {129, 5, 1, 0, 0, 0, 0},     // 33 blocks: a full run of 32 blocks and one more
        {257, 9, 1, 260, 0, 12, 0},  // a longer source row, padded destination rows
        {66, 33, 1, 72, 0, 4, 0},    // both, and many block rows
        {5, 6, 3, 8, 12, 8, 1},      // slices: source image height, padded slices
        {130, 3, 2, 0, 8, 0, 3},     // slices of one partial block row
    };
    for (const BptcFormat& f : kFormats) {
        for (texdec_output output : outputs_of(f)) {
            const uint32_t texel_bytes = texel_bytes_of(f.format, output);
            for (const Layout& l : layouts) {
                const uint32_t row_length = l.row_length ? l.row_length : l.width;
                const uint32_t image_height = l.image_height ? l.image_height : l.height;
                const size_t src_blocks = size_t((row_length + 3) / 4) * ((image_height + 3) / 4) * l.depth;
                const std::vector<uint8_t> data = bptc_blocks(f, src_blocks, test_seed() + l.width * 31 + l.height);
                const size_t row_pitch = size_t(l.width) * texel_bytes + l.pad_bytes;
                const size_t slice_pitch = row_pitch * (l.height + l.pad_rows);
                const texdec_host_job job = JobBuilder(f.format, output, l.width, l.height, l.depth)
                                                .blocks(data)
                                                .source_rows(l.row_length, l.image_height)
                                                .pitches(l.pad_bytes ? row_pitch : 0, l.pad_rows ? slice_pitch : 0);
                std::ostringstream what;
                what << f.name << " " << texdec_output_name(output) << " " << l.width << "x" << l.height << "x"
                     << l.depth << " row length " << l.row_length << " image height " << l.image_height << " row pitch "
                     << row_pitch << " slice pitch " << slice_pitch;
                compare_backends(*gpu, *cpu, job, slice_pitch * l.depth, what.str());
            }
        }
    }
}

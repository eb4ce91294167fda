// The CPU backend's ASTC decoder (src/cpu/astc.cpp) against the GPU decoder (shaders/astc.comp),
// byte for byte (tolerance 0), through the public one-call API: a GPU context (lavapipe on CI
// machines) and a CPU context decode the same job into destinations with the same initial bytes.
//
//   CPU ASTC: random blocks, ...: every ASTC format (14 2D and 10 3D footprints x UNORM, SRGB,
//     SFLOAT) x every output (RGBA8, RGBA16F, NATIVE; RGBA8 of SFLOAT is refused alike), on
//     cpu_astc_block_count() blocks per format: a mix of uniformly random bits (mostly error
//     blocks), a legal block mode with random bits above (random partition counts, seeds,
//     endpoint modes LDR and HDR, dual planes, colour ranges), a one-partition HDR endpoint mode,
//     builder blocks (LDR and HDR endpoint modes), and void extents (LDR, HDR, illegal). The
//     extent is not a multiple of the footprint in any dimension, and the destination rows and
//     slices are padded: the bytes past the extent must stay as they were.
//   Then, on the same contexts, every format and output with a source row longer than the extent
//     and a source image taller than it (3D), an extent one texel past a block, one texel.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gpu/gpu_fixture.h"
#include "support/astc_block_builder.h"
#include "support/astc_random_blocks.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

// Blocks per format: 4096 by default; scaled with TEXDEC_TEST_RANDOM_BLOCKS (the ASan run's
// 65,536 gives 1024).
size_t cpu_astc_block_count() { return std::max<size_t>(1024, astc_random_block_count() / 49); }

struct CpuContext {
    texdec_context* ctx = nullptr;
    CpuContext() {
        texdec_backend_info b = {TEXDEC_STRUCTURE_TYPE_BACKEND_INFO, nullptr, TEXDEC_BACKEND_CPU, 2, nullptr, nullptr};
        texdec_context_create_info info = {};
        info.next = &b;
        REQUIRE(texdec_context_create(&info, &ctx) == TEXDEC_SUCCESS);
        REQUIRE(texdec_context_backend(ctx) == TEXDEC_BACKEND_CPU);
    }
    ~CpuContext() { texdec_context_destroy(ctx); }
};

// A block of the test mix (see the top of this file); 3D footprints draw 3D blocks.
AstcBlock mixed_block(AstcFootprint fp, const std::vector<uint32_t>& modes, SplitMix64& rng) {
    const bool is_3d = fp.z > 1;
    AstcBlock b = astc_random_bits_block(rng);
    const unsigned r = unsigned(rng.next() % 16);
    if (r >= 2 && r < 9) {
        astc_set_random_mode(b, modes, rng);
    } else if (r == 9 || r == 10) {
        astc_set_one_partition_hdr_mode(b, modes, rng);
    } else if (r >= 11 && r < 14) {
        AstcSpecRequest q;
        if (r == 13) q.cem = int(kAstcHdrCems[rng.next() % 6]);
        b = is_3d ? astc_random_legal_block_3d(fp, modes, q, rng) : astc_random_legal_block(fp, modes, q, rng);
    } else if (r >= 14) {
        b = is_3d ? astc_build_void_extent_3d(astc_random_void_extent_3d(rng))
                  : astc_build_void_extent(astc_random_void_extent(rng));
    }
    return b;
}

struct Layout {
    uint32_t w, h, d;
    uint32_t row_length = 0, image_height = 0;  // source, in texels (0 = the extent)
    size_t row_pad = 0, slice_pad = 0;          // destination bytes past each row / slice
};

// Decodes `blocks` (laid out for `l`) on both contexts and REQUIREs identical bytes, the padding
// included. Returns the number of texels compared.
size_t compare_backends(OwnContext& gpu, texdec_context* cpu, const texdec_format_info& fi, texdec_output output,
                        const std::vector<uint8_t>& blocks, const Layout& l) {
    uint32_t texel_bytes = 0;
    const texdec_status size_status = texdec_output_texel_size(fi.format, output, &texel_bytes);
    const size_t row_pitch = size_t(l.w) * texel_bytes + l.row_pad;
    const size_t slice_pitch = row_pitch * l.h + l.slice_pad;
    std::vector<uint8_t> g(std::max<size_t>(1, slice_pitch * l.d), 0xA5), c(g);
    texdec_host_job job = {};
    job.format = fi.format;
    job.output = output;
    job.width = l.w, job.height = l.h, job.depth = l.d;
    job.src = blocks.data(), job.src_size = blocks.size();
    job.src_row_length = l.row_length, job.src_image_height = l.image_height;
    job.dst_row_pitch = row_pitch, job.dst_slice_pitch = slice_pitch;
    job.dst = g.data(), job.dst_size = g.size();
    const texdec_status gs = gpu.decode(job);
    job.dst = c.data();
    const texdec_status cs = texdec_decode(cpu, &job);
    INFO(fi.name << " " << texdec_output_name(output) << " " << l.w << "x" << l.h << "x" << l.d);
    REQUIRE(cs == gs);
    if (gs != TEXDEC_SUCCESS) {
        CHECK((size_status != TEXDEC_SUCCESS || gs == TEXDEC_ERROR_UNSUPPORTED_OUTPUT));
        return 0;
    }
    if (g != c) {
        size_t first = 0, count = 0;
        for (size_t i = 0; i < g.size(); ++i)
            if (g[i] != c[i]) first = count++ ? first : i;
        const size_t z = first / slice_pitch, y = first % slice_pitch / row_pitch, x = first % row_pitch / texel_bytes;
        const uint32_t rl = l.row_length ? l.row_length : l.w, ih = l.image_height ? l.image_height : l.h;
        const size_t bx = x / fi.block_width, by = y / fi.block_height, bz = z / fi.block_depth;
        const size_t cols = (rl + fi.block_width - 1) / fi.block_width,
                     rows = (ih + fi.block_height - 1) / fi.block_height;
        const size_t block = (bz * rows + by) * cols + bx;
        char text[200];
        std::string hex;
        for (int k = 15; k >= 0 && x < l.w && block * 16 + 16 <= blocks.size(); --k) {
            std::snprintf(text, sizeof text, "%02x", blocks[block * 16 + size_t(k)]);
            hex += text;
        }
        std::string gt, ct;
        for (size_t k = first - first % texel_bytes; k < first - first % texel_bytes + texel_bytes && k < g.size();
             ++k) {
            std::snprintf(text, sizeof text, "%02x", g[k]), gt += text;
            std::snprintf(text, sizeof text, "%02x", c[k]), ct += text;
        }
        FAIL(count << " bytes differ; first at texel (" << x << ", " << y << ", " << z << "), block " << block << " ("
                   << hex << ", most significant byte first): GPU " << gt << ", CPU " << ct);
    }
    return size_t(l.w) * l.h * l.d;
}

std::vector<texdec_format_info> astc_formats() {
    std::vector<texdec_format_info> out;
    for (uint32_t f = TEXDEC_FORMAT_ASTC_4x4_UNORM; f <= TEXDEC_FORMAT_ASTC_6x6x6_SFLOAT; ++f) {
        texdec_format_info fi;
        REQUIRE(texdec_format_get_info(texdec_format(f), &fi) == TEXDEC_SUCCESS);
        REQUIRE(fi.family == TEXDEC_FAMILY_ASTC);
        out.push_back(fi);
    }
    return out;
}

std::vector<uint32_t> legal_modes(AstcFootprint fp) {
    return fp.z > 1 ? astc_legal_block_modes_3d(fp.x, fp.y, fp.z) : astc_legal_block_modes_2d(fp.x, fp.y);
}

constexpr texdec_output kOutputs[] = {TEXDEC_OUTPUT_RGBA8, TEXDEC_OUTPUT_RGBA16F, TEXDEC_OUTPUT_NATIVE};

}  // namespace

TEST_CASE("CPU ASTC: random blocks, every format, output and layout, same bytes as the GPU", "[cpu][astc]") {
    auto gpu = OwnContext::open();
    if (!gpu) return;
    CpuContext cpu;
    const size_t count = cpu_astc_block_count();
    INFO("seed " << test_seed() << " (TEXDEC_TEST_SEED changes it), " << count << " blocks per format");
    size_t texels = 0, decodes = 0;
    for (const texdec_format_info& fi : astc_formats()) {
        const AstcFootprint fp{fi.block_width, fi.block_height, fi.block_depth};
        const std::vector<uint32_t> modes = legal_modes(fp);
        REQUIRE(!modes.empty());
        // Columns x rows x slices of blocks, about `count` in all; the extent stops inside the
        // last block of each dimension.
        const uint32_t cols = 64, slices = fp.z > 1 ? 4 : 1, rows = uint32_t(count / (cols * slices));
        Layout l{cols * fp.x - 1, rows * fp.y - (fp.y > 4 ? 3 : 1), fp.z > 1 ? slices * fp.z - 2 : 1};
        l.row_pad = 24, l.slice_pad = fp.z > 1 ? 40 : 0;
        SplitMix64 rng(astc_fp_seed_3d(fp, 0xC0A57C) ^ fi.format);
        std::vector<uint8_t> blocks(size_t(cols) * rows * slices * 16);
        for (size_t i = 0; i < blocks.size(); i += 16) {
            const AstcBlock b = mixed_block(fp, modes, rng);
            std::memcpy(&blocks[i], b.data(), 16);
        }
        for (texdec_output output : kOutputs) {
            texels += compare_backends(*gpu, cpu.ctx, fi, output, blocks, l);
            ++decodes;
        }
    }
    std::printf("CPU ASTC random blocks: %zu decodes, %zu texels identical on both backends\n", decodes, texels);

    // Source row length and image height, small extents (on the same contexts: lavapipe builds
    // each pipeline once).
    for (const texdec_format_info& fi : astc_formats()) {
        const AstcFootprint fp{fi.block_width, fi.block_height, fi.block_depth};
        const std::vector<uint32_t> modes = legal_modes(fp);
        SplitMix64 rng(astc_fp_seed_3d(fp, 0xC0A57D) ^ fi.format);
        const bool is_3d = fp.z > 1;
        const Layout layouts[] = {
            {1, 1, 1},
            {fp.x + 1, 2 * fp.y + 1, is_3d ? fp.z + 1 : 1},
            // Source rows two blocks longer than the extent, source images a block taller.
            {2 * fp.x + 3, fp.y + 1, is_3d ? 2 * fp.z : 1, 4 * fp.x + 3, is_3d ? 2 * fp.y + 1 : 0, 8, is_3d ? 16u : 0u},
        };
        for (const Layout& l : layouts) {
            const uint32_t rl = l.row_length ? l.row_length : l.w, ih = l.image_height ? l.image_height : l.h;
            const size_t n = size_t((rl + fp.x - 1) / fp.x) * ((ih + fp.y - 1) / fp.y) * ((l.d + fp.z - 1) / fp.z);
            std::vector<uint8_t> blocks(n * 16);
            for (size_t i = 0; i < blocks.size(); i += 16) {
                const AstcBlock b = mixed_block(fp, modes, rng);
                std::memcpy(&blocks[i], b.data(), 16);
            }
            for (texdec_output output : kOutputs) compare_backends(*gpu, cpu.ctx, fi, output, blocks, l);
        }
    }
    gpu->close_and_check();
}

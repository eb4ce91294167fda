// Block-linear (Tegra X1) sources, issue 23's acceptance ([block_linear]).
//
// The oracle is a deswizzle model written here from the Tegra X1 Technical Reference Manual's
// "Block Linear" description (the facts also in texdec.h "source layouts", in Ryujinx's
// BlockLinearLayout and in ScanMountGoat/tegra_swizzle's documentation; no code is taken from any of
// them, and none from texdec's src/ or shaders/):
//   - a GOB is 64 bytes x 8 rows = 512 bytes; byte (x, y) of a GOB is at
//     (x / 32) * 256 + (y / 2) * 64 + ((x % 32) / 16) * 32 + (y % 2) * 16 + x % 16;
//   - a block is block_height GOBs stacked vertically, then block_depth of those stacks in depth;
//   - a surface is rows of blocks, ceil(row bytes / 64) blocks a row; ceil(rows / (8 * block_height))
//     rows of blocks per group of block_depth slices; then the next group (or, with a layer stride,
//     each slice is a surface of its own, layer_stride bytes after the previous one).
// bl_offset() below maps an element (a compressed block, or a texel of the RGBA8 vectors) to its
// byte with those rules, by counting GOBs and blocks; its addresses are hand-checked in the first test.
//
//   block-linear model: hand-checked addresses             16- and 8-byte elements, block heights 1,
//       2 and 16, a 3D surface with block depth 2, a layer stride (numbers worked out in comments);
//   block-linear model and library: tegra_swizzle vectors   the public vectors ($TEXDEC_CORPUS/
//       tegra_swizzle/block_linear): the model deswizzles every *_tiled.bin to its linear .bin
//       (BC1/BC3/BC7 2D, the 4-byte-element 16^3 and 33^3 3D index volumes), and both backends
//       decode each BC *_tiled.bin as BLOCK_LINEAR to the bytes of its linear .bin;
//   block-linear equals linear: every family with block heights 1-32 and depths 1-4 on both backends
//       random blocks of every family (BC1-3, BC4/5, BC6H, BC7, ETC2, EAC, ASTC 2D and 3D), block
//       heights 1-32, block depths 1, 2, 4 (3D footprints, and 2D formats with depth > 1; ASTC 3D
//       also 8, 16, 32), layer strides, tall extents spanning several rows of the tallest GOB blocks,
//       odd extents, source rows and
//       image heights past the extent, source offsets (odd ones included): swizzled by the model,
//       decoded as BLOCK_LINEAR with exactly the bytes the model says the job needs, equal to the
//       linear decode of the same blocks, on a GPU context and a CPU context (both opened here);
//   block-linear: several regions in one record call      a BC7 texture with 4 mips x 3 layers laid
//       out with texdec_block_linear_get_level's offsets, block heights and layer stride (its level
//       sizes checked against the model's surfaces): one region per mip level (layer_count 3) into
//       a buffer (also in chunks of 4096 and 100 texels, so that dispatches start inside a GOB
//       block) and into a 2D array image target (also in chunks of 1000 texels);
//   block-linear: depth slices and tall GOB blocks in record calls   ASTC 3x3x3 / 4x4x4 and BC1
//       regions with extent.depth > 1, BC4 and ASTC 3x3x3 regions with layer_count > 1 and no
//       layer stride (block depths 2 and 4), BC1 with block height 32 over 1029 rows, into a
//       buffer, whole and in chunks;
//   block-linear: 2D array layers layer_stride apart   host jobs on both backends with strides
//       one layer + 4, 36, 512, 4108 bytes; a record region with layer_count 4 and a stride;
//   block-linear: texdec_decode streamed in small parts    TEXDEC_DEBUG_STAGING_PART_BYTES cuts a
//       block-linear job into slices, rows and columns of blocks (once through device-local staging);
//   block-linear: bad layouts are refused with a message   every rule of texdec_source_layout_info,
//       and the exact source size, on both backends (host jobs) and on the record path.
#include <catch2/catch.hpp>
#include <texdec/texdec.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/external_setup.h"
#include "gpu/gpu_fixture.h"
#include "support/astc_block_builder.h"
#include "support/corpus_files.h"
#include "support/format_info.h"
#include "support/job_builder.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

uint64_t div_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// ---- the model --------------------------------------------------------------------------------

// A block-linear surface of `width` x `height` x `depth` elements of `elem_bytes` bytes each.
struct BlSurface {
    uint32_t elem_bytes = 16;
    uint32_t width = 1, height = 1, depth = 1;   // elements per row, rows per slice, slices
    uint32_t block_height = 1, block_depth = 1;  // GOBs
    uint64_t layer_stride = 0;                   // 0: slices go through block_depth; else bytes between slices
};

constexpr uint64_t kGobBytes = 512;  // 64 bytes x 8 rows

// Byte (x, y) of one GOB, x < 64 bytes, y < 8 rows (TRM).
uint64_t gob_byte(uint64_t x, uint64_t y) {
    return (x / 32) * 256 + (y / 2) * 64 + ((x % 32) / 16) * 32 + (y % 2) * 16 + x % 16;
}

uint64_t gobs_per_row(const BlSurface& s) { return div_up(uint64_t(s.width) * s.elem_bytes, 64); }
uint64_t block_rows(const BlSurface& s) { return div_up(s.height, uint64_t(8) * s.block_height); }
uint64_t block_bytes(const BlSurface& s) { return kGobBytes * s.block_height * s.block_depth; }
// One group of block_depth slices (one layer when layer_stride is set).
uint64_t slice_group_bytes(const BlSurface& s) { return gobs_per_row(s) * block_rows(s) * block_bytes(s); }

// Byte offset of element (ex, ey, ez) from the surface's start.
uint64_t bl_offset(const BlSurface& s, uint64_t ex, uint64_t ey, uint64_t ez) {
    const uint64_t x = ex * s.elem_bytes;  // byte column
    const uint64_t gob_x = x / 64, gob_y = ey / 8;
    const uint64_t block_x = gob_x;  // a block is one GOB wide
    const uint64_t block_y = gob_y / s.block_height;
    const uint64_t gob_in_block_y = gob_y % s.block_height;
    const uint64_t in_gob = gob_byte(x % 64, ey % 8);
    if (s.layer_stride) {  // each slice a surface of its own (block_depth 1)
        const uint64_t block_index = block_y * gobs_per_row(s) + block_x;
        return ez * s.layer_stride + block_index * block_bytes(s) + gob_in_block_y * kGobBytes + in_gob;
    }
    const uint64_t block_z = ez / s.block_depth;
    const uint64_t block_index = (block_z * block_rows(s) + block_y) * gobs_per_row(s) + block_x;
    const uint64_t gob_in_block =
        (ez % s.block_depth) * s.block_height + gob_in_block_y;  // stacked H high, then D deep
    return block_index * block_bytes(s) + gob_in_block * kGobBytes + in_gob;
}

// The whole padded surface: every block of every slice.
uint64_t bl_surface_bytes(const BlSurface& s) {
    if (s.layer_stride) return (s.depth - 1) * s.layer_stride + slice_group_bytes(s);
    return div_up(s.depth, s.block_depth) * slice_group_bytes(s);
}

// Bytes from the surface's start to the end of the farthest element of the ex x ey x ez corner
// (what a job of that extent reads), found by visiting every element.
uint64_t bl_bytes_needed(const BlSurface& s, uint64_t ex, uint64_t ey, uint64_t ez) {
    uint64_t end = 0;
    for (uint64_t z = 0; z < ez; ++z)
        for (uint64_t y = 0; y < ey; ++y)
            for (uint64_t x = 0; x < ex; ++x) end = std::max(end, bl_offset(s, x, y, z) + s.elem_bytes);
    return end;
}

// Linear elements (rows of s.width, slices of s.height rows) -> the block-linear surface; the
// padding between them holds random junk (a wrong address reads junk, not zeros).
std::vector<uint8_t> bl_swizzle(const BlSurface& s, const uint8_t* linear, uint64_t junk_seed) {
    std::vector<uint8_t> out(bl_surface_bytes(s));
    SplitMix64 rng(junk_seed);
    for (auto& b : out) b = uint8_t(rng.next());
    std::vector<bool> written(out.size(), false);
    bool inside = true, distinct = true;
    for (uint64_t z = 0; z < s.depth; ++z)
        for (uint64_t y = 0; y < s.height; ++y)
            for (uint64_t x = 0; x < s.width; ++x) {
                const uint64_t at = bl_offset(s, x, y, z);
                if (at + s.elem_bytes > out.size()) {
                    inside = false;
                    continue;
                }
                distinct = distinct && !written[at];  // the model never maps two elements to one place
                written[at] = true;
                std::memcpy(out.data() + at, linear + ((z * s.height + y) * s.width + x) * s.elem_bytes, s.elem_bytes);
            }
    REQUIRE(inside);
    REQUIRE(distinct);
    return out;
}

// The block-linear surface -> linear elements.
std::vector<uint8_t> bl_deswizzle(const BlSurface& s, const uint8_t* tiled, size_t tiled_size) {
    std::vector<uint8_t> out(size_t(s.width) * s.height * s.depth * s.elem_bytes);
    bool inside = true;
    for (uint64_t z = 0; z < s.depth; ++z)
        for (uint64_t y = 0; y < s.height; ++y)
            for (uint64_t x = 0; x < s.width; ++x) {
                const uint64_t at = bl_offset(s, x, y, z);
                if (at + s.elem_bytes > tiled_size) {
                    inside = false;
                    continue;
                }
                std::memcpy(out.data() + ((z * s.height + y) * s.width + x) * s.elem_bytes, tiled + at, s.elem_bytes);
            }
    REQUIRE(inside);
    return out;
}

// ---- helpers ------------------------------------------------------------------------------------

// The layout struct as texdec.hpp fills it (so its helper is exercised too).
texdec_source_layout_info block_linear(uint32_t block_height, uint32_t block_depth = 1, uint64_t layer_stride = 0) {
    const texdec_source_layout_info info = texdec::block_linear_layout(block_height, block_depth, layer_stride);
    CHECK(info.type == TEXDEC_STRUCTURE_TYPE_SOURCE_LAYOUT_INFO);
    CHECK(info.next == nullptr);
    CHECK(info.layout == TEXDEC_SOURCE_LAYOUT_BLOCK_LINEAR);
    return info;
}

std::string joined(std::vector<std::string> v) {
    std::string all;
    for (auto& e : v) all += (all.empty() ? "" : "; ") + e;
    return all;
}

// `count` blocks of `fi`: random bits (every pattern is a defined BC / ETC2 / EAC block); ASTC
// legal random blocks from the block builder (random bits would be nearly all error blocks, which
// decode alike wherever they are read from).
std::vector<uint8_t> random_blocks_of(const texdec_format_info& fi, size_t count, uint64_t seed) {
    std::vector<uint8_t> out(count * fi.bytes_per_block);
    SplitMix64 rng(seed);
    if (fi.family != TEXDEC_FAMILY_ASTC) {
        for (size_t i = 0; i < out.size(); i += 8) {
            const uint64_t v = rng.next();
            std::memcpy(out.data() + i, &v, 8);
        }
        return out;
    }
    const bool is3d = fi.block_depth > 1;
    const std::vector<uint32_t> modes = is3d
                                            ? astc_legal_block_modes_3d(fi.block_width, fi.block_height, fi.block_depth)
                                            : astc_legal_block_modes_2d(fi.block_width, fi.block_height);
    for (size_t i = 0; i < count; ++i) {
        const auto spec =
            is3d ? astc_random_legal_spec_3d(modes, fi.block_width, fi.block_height, fi.block_depth, {}, rng)
                 : astc_random_legal_spec(modes, fi.block_width, fi.block_height, {}, rng);
        REQUIRE(spec);
        const AstcBlock b =
            is3d ? astc_build_random_block_3d(*spec, fi.block_width, fi.block_height, fi.block_depth, rng)
                 : astc_build_random_block(*spec, fi.block_width, fi.block_height, rng);
        std::memcpy(out.data() + i * 16, b.data(), 16);
    }
    return out;
}

// Where two byte vectors first differ, for a message ("" when equal).
std::string first_difference(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, uint32_t texel) {
    if (got.size() != want.size())
        return "sizes differ: " + std::to_string(got.size()) + " vs " + std::to_string(want.size());
    size_t diffs = 0, first = SIZE_MAX;
    for (size_t i = 0; i < got.size(); ++i)
        if (got[i] != want[i]) {
            if (first == SIZE_MAX) first = i;
            ++diffs;
        }
    if (first == SIZE_MAX) return "";
    std::ostringstream os;
    os << diffs << " bytes differ; first at byte " << first << " (texel " << first / texel << "): got 0x" << std::hex
       << int(got[first]) << ", expected 0x" << int(want[first]);
    return os.str();
}

// A texdec_decode on `ctx` (no mirror: each test opens both backends itself); the status, the
// messages logged, and a silent validation layer.
texdec_status decode_on(OwnContext& ctx, const texdec_host_job& job, std::string* errors = nullptr) {
    const texdec_status s = texdec_decode(ctx.get(), &job);
    check_no_validation_messages(ctx.log(), "texdec_decode");
    const std::string e = joined(ctx.log().take_errors());
    if (errors) *errors = e;
    return s;
}

// Both backends' own contexts, opened explicitly (not through the mirror of TEXDEC_BACKEND).
struct BothBackends {
    std::unique_ptr<OwnContext> gpu, cpu;
    bool open() {
        gpu = OwnContext::open(Backend::gpu);
        if (!gpu) return false;
        cpu = OwnContext::open(Backend::cpu);
        REQUIRE(cpu);
        REQUIRE(texdec_context_backend(cpu->get()) == TEXDEC_BACKEND_CPU);
        REQUIRE(texdec_context_backend(gpu->get()) == TEXDEC_BACKEND_GPU);
        return true;
    }
    void close() {
        gpu->close_and_check();
        cpu->close_and_check();
    }
};

// ---- one equality case ------------------------------------------------------------------------

struct EqCase {
    texdec_format format;
    texdec_output output;
    uint32_t w, h, d;           // texels (d: slices of a 2D format, or texel depth of a 3D footprint)
    uint32_t row_length = 0;    // texels, 0 = w
    uint32_t image_height = 0;  // texels, 0 = h
    uint32_t block_height = 1, block_depth = 1;
    uint32_t layer_stride_extra = 0;  // > 0: layer_stride = one layer's surface + this (multiple of 4)
    size_t src_offset = 0;            // bytes of junk before the source's first byte (host pointer offset)
};

std::string describe(const EqCase& c) {
    texdec_format_info fi{};
    texdec_format_get_info(c.format, &fi);
    std::ostringstream os;
    os << fi.name << " " << texdec_output_name(c.output) << " " << c.w << "x" << c.h << "x" << c.d << " row_length "
       << c.row_length << " image_height " << c.image_height << " block " << c.block_height << "x" << c.block_depth
       << " GOBs, layer_stride extra " << c.layer_stride_extra << ", src offset " << c.src_offset;
    return os.str();
}

// The case's source surface for the model: its row length and image height in blocks, its GOBs
// and its layer stride.
BlSurface surface_of(const EqCase& c, const texdec_format_info& fi) {
    const uint32_t rl = c.row_length ? c.row_length : c.w, ih = c.image_height ? c.image_height : c.h;
    BlSurface s;
    s.elem_bytes = fi.bytes_per_block;
    s.width = uint32_t(div_up(rl, fi.block_width));
    s.height = uint32_t(div_up(ih, fi.block_height));
    s.depth = uint32_t(div_up(c.d, fi.block_depth));
    s.block_height = c.block_height;
    s.block_depth = c.block_depth;
    if (c.layer_stride_extra) s.layer_stride = slice_group_bytes(s) + c.layer_stride_extra;
    return s;
}

// Decodes the case's random blocks laid out linearly and laid out block-linear by the model, on
// both backends: every texel byte of all four decodes (and of the destination's padding) is equal.
// Returns the number of texels compared.
size_t check_equal_case(BothBackends& ctx, const EqCase& c, uint64_t seed) {
    INFO(describe(c));
    const texdec_format_info fi = format_info(c.format);
    const uint32_t texel = texel_size(c.format, c.output);
    const BlSurface s = surface_of(c, fi);
    const std::vector<uint8_t> blocks = random_blocks_of(fi, size_t(s.width) * s.height * s.depth, seed);

    // Linear source at an offset, junk before it.
    std::vector<uint8_t> linear_src(c.src_offset + blocks.size(), 0xA5);
    std::memcpy(linear_src.data() + c.src_offset, blocks.data(), blocks.size());
    // Block-linear source: exactly the bytes the job needs (the model's answer), junk before.
    const std::vector<uint8_t> surface = bl_swizzle(s, blocks.data(), seed ^ 0x5EED);
    const uint64_t needed =
        bl_bytes_needed(s, div_up(c.w, fi.block_width), div_up(c.h, fi.block_height), div_up(c.d, fi.block_depth));
    REQUIRE(needed <= surface.size());
    std::vector<uint8_t> bl_src(c.src_offset + needed, 0x3C);
    std::memcpy(bl_src.data() + c.src_offset, surface.data(), needed);

    const texdec_source_layout_info layout = block_linear(c.block_height, c.block_depth, s.layer_stride);
    uint64_t dst_bytes = 0;
    REQUIRE(texdec_decoded_size(c.format, c.output, c.w, c.h, c.d, &dst_bytes) == TEXDEC_SUCCESS);

    std::vector<uint8_t> results[2][2];  // [backend][linear, block-linear]
    OwnContext* contexts[2] = {ctx.gpu.get(), ctx.cpu.get()};
    for (int b = 0; b < 2; ++b) {
        INFO("backend " << (b == 0 ? "GPU" : "CPU"));
        for (int bl = 0; bl < 2; ++bl) {
            std::vector<uint8_t>& out = results[b][bl];
            out.assign(dst_bytes, 0xEE);
            const std::vector<uint8_t>& src = bl ? bl_src : linear_src;
            texdec_host_job job = JobBuilder(c.format, c.output, c.w, c.h, c.d)
                                      .blocks(src.data() + c.src_offset, src.size() - c.src_offset)
                                      .texels(out)
                                      .source_rows(c.row_length, c.image_height);
            if (bl) job.next = &layout;
            std::string errors;
            const texdec_status st = decode_on(*contexts[b], job, &errors);
            INFO((bl ? "block-linear" : "linear") << " decode: " << texdec_status_string(st) << " " << errors);
            REQUIRE(st == TEXDEC_SUCCESS);
        }
        const std::string diff = first_difference(results[b][1], results[b][0], texel);
        INFO("block-linear vs linear: " << diff);
        CHECK(diff.empty());
    }
    const std::string backends = first_difference(results[1][0], results[0][0], texel);
    INFO("CPU vs GPU (linear): " << backends);
    CHECK(backends.empty());
    return size_t(c.w) * c.h * c.d;
}

// ---- corpus -----------------------------------------------------------------------------------

std::vector<uint8_t> read_file(const std::string& path, bool* ok) {
    std::ifstream f(path, std::ios::binary);
    *ok = bool(f);
    if (!f) return {};
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

// The vectors and their parameters, from the corpus README (width x height x depth in elements,
// element bytes, block height / depth in GOBs).
struct TegraVector {
    const char* name;
    uint32_t w, h, d, elem_bytes, block_height, block_depth;
    texdec_format format;  // UNDEFINED: not a compressed format (the RGBA8 index volumes)
};
const TegraVector kTegraVectors[] = {
    {"64_bc7", 16, 16, 1, 16, 2, 1, TEXDEC_FORMAT_BC7_UNORM},
    {"128_bc1", 32, 32, 1, 8, 4, 1, TEXDEC_FORMAT_BC1_RGBA_UNORM},
    {"128_bc3", 32, 32, 1, 16, 4, 1, TEXDEC_FORMAT_BC3_UNORM},
    {"128_bc7", 32, 32, 1, 16, 4, 1, TEXDEC_FORMAT_BC7_UNORM},
    {"256_bc7", 64, 64, 1, 16, 8, 1, TEXDEC_FORMAT_BC7_UNORM},
    {"320_bc7", 80, 80, 1, 16, 8, 1, TEXDEC_FORMAT_BC7_UNORM},
    {"512_bc7", 128, 128, 1, 16, 16, 1, TEXDEC_FORMAT_BC7_UNORM},
    {"16_16_16_rgba", 16, 16, 16, 4, 1, 16, TEXDEC_FORMAT_UNDEFINED},
    {"33_33_33_rgba", 33, 33, 33, 4, 1, 16, TEXDEC_FORMAT_UNDEFINED},
};

// ---- record path ------------------------------------------------------------------------------

std::string take_errors(ExternalSetup& setup) { return joined(setup.context_log.take_errors()); }

// texdec_record_regions of `job` into `cmd`, REQUIREd to succeed (the library's messages in the
// failure).
void record_ok(ExternalSetup& setup, VkCommandBuffer cmd, const texdec_regions_job& job) {
    const texdec_status st = texdec_record_regions(setup.ctx, cmd, &job);
    INFO("texdec_record_regions: " << texdec_status_string(st) << " " << take_errors(setup));
    REQUIRE(st == TEXDEC_SUCCESS);
}

// A host read barrier, submit and wait; the validation layer must have stayed silent (`what`
// names the step).
void submit_checked(ExternalSetup& setup, VkCommandBuffer cmd, const char* what) {
    host_read_barrier(cmd);
    setup.device->submit_and_wait(cmd);
    check_no_validation_messages(setup.device->log(), what);
}

// texdec_decode of linear blocks (w x h x d, tight) on the setup's context; REQUIREs success.
std::vector<uint8_t> linear_decode(ExternalSetup& setup, texdec_format format, texdec_output output,
                                   const std::vector<uint8_t>& blocks, uint32_t w, uint32_t h, uint32_t d) {
    uint64_t size = 0;
    REQUIRE(texdec_decoded_size(format, output, w, h, d, &size) == TEXDEC_SUCCESS);
    std::vector<uint8_t> texels(size);
    const texdec_host_job job = JobBuilder(format, output, w, h, d).blocks(blocks).texels(texels);
    const texdec_status st = texdec_decode(setup.ctx, &job);
    INFO("reference texdec_decode: " << texdec_status_string(st) << " " << take_errors(setup));
    REQUIRE(st == TEXDEC_SUCCESS);
    return texels;
}

// A block-linear texture (mips x layers) of `format`, laid out by texdec_block_linear_get_level's
// offsets and the model's swizzle, with the linear blocks of each level (layers one after another).
struct BlTexture {
    texdec_block_linear_texture desc{};
    std::vector<texdec_block_linear_level> levels;
    std::vector<std::vector<uint8_t>> linear;  // per level: layer 0's blocks, then layer 1's ...
    std::vector<uint8_t> memory;               // the whole texture
};

BlTexture make_bl_texture(texdec_format format, uint32_t w, uint32_t h, uint32_t mips, uint32_t layers,
                          uint32_t block_height, uint64_t seed) {
    const texdec_format_info fi = format_info(format);
    BlTexture t;
    t.desc.format = format;
    t.desc.width = w, t.desc.height = h, t.desc.depth = 1;
    t.desc.mip_levels = mips, t.desc.array_layers = layers;
    t.desc.block_height = block_height, t.desc.block_depth = 1;
    for (uint32_t m = 0; m < mips; ++m) {
        texdec_block_linear_level level{};
        REQUIRE(texdec_block_linear_get_level(&t.desc, m, &level) == TEXDEC_SUCCESS);
        t.levels.push_back(level);
    }
    const uint64_t total = t.levels[0].texture_size;
    SplitMix64 rng(seed);
    t.memory.resize(total);
    for (auto& b : t.memory) b = uint8_t(rng.next());
    for (uint32_t m = 0; m < mips; ++m) {
        const texdec_block_linear_level& L = t.levels[m];
        INFO("mip " << m << ": " << L.width << "x" << L.height << " at " << L.offset << ", " << L.size
                    << " bytes, block height " << L.layout.block_height << ", layer stride " << L.layout.layer_stride);
        REQUIRE(L.layout.type == TEXDEC_STRUCTURE_TYPE_SOURCE_LAYOUT_INFO);
        REQUIRE(L.layout.layout == TEXDEC_SOURCE_LAYOUT_BLOCK_LINEAR);
        REQUIRE(L.layout.block_depth == 1);
        BlSurface s;
        s.elem_bytes = fi.bytes_per_block;
        s.width = uint32_t(div_up(L.width, fi.block_width));
        s.height = uint32_t(div_up(L.height, fi.block_height));
        s.depth = 1;
        s.block_height = L.layout.block_height;
        // The level's size is whole blocks of GOBs of its block height: the model's surface.
        CHECK(L.size == bl_surface_bytes(s));
        if (m + 1 < mips) CHECK(L.offset + L.size <= t.levels[m + 1].offset);
        if (layers > 1) {
            REQUIRE(L.layout.layer_stride >= t.levels[mips - 1].offset + t.levels[mips - 1].size);
        }
        std::vector<uint8_t> all;
        for (uint32_t layer = 0; layer < layers; ++layer) {
            const std::vector<uint8_t> blocks =
                random_blocks_of(fi, size_t(s.width) * s.height, seed + m * 131 + layer * 7919);
            const std::vector<uint8_t> surface = bl_swizzle(s, blocks.data(), seed + 17 * m + layer);
            const uint64_t at = L.offset + layer * L.layout.layer_stride;
            REQUIRE(at + surface.size() <= t.memory.size());
            std::memcpy(t.memory.data() + at, surface.data(), surface.size());
            all.insert(all.end(), blocks.begin(), blocks.end());
        }
        t.linear.push_back(std::move(all));
    }
    return t;
}

}  // namespace

// ---- 1. the model, by hand -----------------------------------------------------------------------

TEST_CASE("block-linear model: hand-checked addresses", "[block_linear]") {
    SECTION("16-byte blocks, block height 2") {
        // 16 blocks a row = 256 bytes = 4 GOBs a row; 40 rows; a block is 2 GOBs = 1024 bytes.
        BlSurface s;
        s.elem_bytes = 16, s.width = 16, s.height = 40, s.block_height = 2;
        CHECK(bl_offset(s, 0, 0, 0) == 0);
        CHECK(bl_offset(s, 1, 0, 0) == 32);     // x = 16 bytes: ((16 % 32) / 16) * 32 = 32
        CHECK(bl_offset(s, 2, 0, 0) == 256);    // x = 32: (32 / 32) * 256
        CHECK(bl_offset(s, 3, 0, 0) == 288);    // x = 48: 256 + 32
        CHECK(bl_offset(s, 4, 0, 0) == 1024);   // x = 64: the next GOB column = the next block, 512 * H * D
        CHECK(bl_offset(s, 0, 1, 0) == 16);     // (y % 2) * 16
        CHECK(bl_offset(s, 0, 2, 0) == 64);     // (y / 2) * 64
        CHECK(bl_offset(s, 0, 3, 0) == 80);     // 64 + 16
        CHECK(bl_offset(s, 0, 7, 0) == 208);    // 3 * 64 + 16
        CHECK(bl_offset(s, 0, 8, 0) == 512);    // the block's second GOB
        CHECK(bl_offset(s, 0, 16, 0) == 4096);  // the next row of blocks: 4 blocks of 1024 bytes
        // x = 80 bytes: block column 1, 16 bytes into the GOB -> 32; y = 17: block row 1, its first
        // GOB, row 1 of it -> 16. (1 * 4 + 1) * 1024 + 32 + 16.
        CHECK(bl_offset(s, 5, 17, 0) == 5168);
        CHECK(bl_surface_bytes(s) == 3 * 4 * 1024);  // ceil(40 / 16) = 3 rows of 4 blocks
    }
    SECTION("8-byte blocks, block height 1") {
        // 20 blocks a row = 160 bytes = 3 GOBs; a block is one GOB (512 bytes).
        BlSurface s;
        s.elem_bytes = 8, s.width = 20, s.height = 9, s.block_height = 1;
        CHECK(bl_offset(s, 1, 0, 0) == 8);     // x = 8: x % 16
        CHECK(bl_offset(s, 2, 0, 0) == 32);    // x = 16
        CHECK(bl_offset(s, 3, 0, 0) == 40);    // x = 24: 32 + 8
        CHECK(bl_offset(s, 4, 0, 0) == 256);   // x = 32
        CHECK(bl_offset(s, 7, 0, 0) == 296);   // x = 56: 256 + 32 + 8
        CHECK(bl_offset(s, 8, 0, 0) == 512);   // x = 64: the next GOB
        CHECK(bl_offset(s, 0, 8, 0) == 1536);  // the next row of GOBs: 3 * 512
        CHECK(bl_offset(s, 9, 9, 0) ==
              2072);  // x = 72 -> GOB 1, byte 8; y = 9 -> GOB row 1, row 1: (3 + 1) * 512 + 8 + 16
        CHECK(bl_bytes_needed(s, 20, 9, 1) == bl_offset(s, 19, 8, 0) + 8);
        // The last element: x = 152 -> GOB 2, byte 24 -> 32 + 8; y = 8 -> row of GOBs 1, row 0:
        // (3 + 2) * 512 + 40 = 2600, ending at 2608.
        CHECK(bl_bytes_needed(s, 20, 9, 1) == 2608);
    }
    SECTION("block height 16") {
        // 4 blocks of 16 bytes = one GOB a row; a block is 16 GOBs = 8192 bytes, 128 rows high.
        BlSurface s;
        s.elem_bytes = 16, s.width = 4, s.height = 300, s.block_height = 16;
        CHECK(bl_offset(s, 0, 8, 0) == 512);
        CHECK(bl_offset(s, 0, 120, 0) == 15 * 512);
        CHECK(bl_offset(s, 0, 128, 0) == 8192);  // the second block row
        CHECK(bl_offset(s, 3, 257, 0) == 2 * 8192 + 256 + 32 + 16);
        CHECK(bl_surface_bytes(s) == 3 * 8192);  // ceil(300 / 128) = 3
    }
    SECTION("3D: 16-byte blocks, block height 2, block depth 2") {
        // 8 blocks a row = 128 bytes = 2 GOBs; 20 rows -> ceil(20 / 16) = 2 rows of blocks; a block
        // is 2 x 2 GOBs = 2048 bytes; a group of 2 slices is 2 x 2 blocks = 8192 bytes.
        BlSurface s;
        s.elem_bytes = 16, s.width = 8, s.height = 20, s.depth = 5, s.block_height = 2, s.block_depth = 2;
        CHECK(bl_offset(s, 4, 0, 0) == 2048);   // the next block column
        CHECK(bl_offset(s, 0, 16, 0) == 4096);  // the next row of blocks: 2 blocks
        CHECK(bl_offset(s, 0, 0, 1) == 1024);   // slice 1: the GOBs after slice 0's 2 (H) GOBs
        CHECK(bl_offset(s, 0, 8, 1) == 1536);   // slice 1's second GOB: GOB 1 * 2 + 1
        CHECK(bl_offset(s, 0, 0, 2) == 8192);   // slice 2: the next group of block_depth slices
        CHECK(bl_offset(s, 5, 17, 3) == 8192 + 3 * 2048 + 1024 + 32 + 16);  // block (1, 1) of group 1, slice 1 in it
        CHECK(bl_surface_bytes(s) == 3 * 8192);                             // ceil(5 / 2) groups
    }
    SECTION("layer stride") {
        BlSurface s;
        s.elem_bytes = 8, s.width = 10, s.height = 10, s.depth = 3, s.block_height = 1, s.layer_stride = 10004;
        // 80 bytes a row = 2 GOBs; 2 rows of GOBs: a layer is 2048 bytes, layers 10004 apart.
        CHECK(slice_group_bytes(s) == 2048);
        CHECK(bl_offset(s, 0, 0, 1) == 10004);
        // x = 72 bytes: GOB column 1, byte 8; y = 9: GOB row 1, row 1 of it -> 16.
        CHECK(bl_offset(s, 9, 9, 2) == 20008 + (1 * 2 + 1) * 512 + 8 + 16);
        CHECK(bl_surface_bytes(s) == 20008 + 2048);
    }
}

// ---- 2. the public tegra_swizzle vectors -----------------------------------------------------------

TEST_CASE("block-linear model and library: tegra_swizzle vectors", "[block_linear][corpus][gpu]") {
    const std::string root = corpus_root();
    if (root.empty()) return;  // skipped loudly
    const std::string dir = root + "/tegra_swizzle/block_linear/";
    BothBackends ctx;
    if (!ctx.open()) return;
    size_t files = 0, model_checked = 0, decoded = 0;
    for (const TegraVector& v : kTegraVectors) {
        INFO("vector " << v.name << " (" << v.w << "x" << v.h << "x" << v.d << ", " << v.elem_bytes << " B, block "
                       << v.block_height << "x" << v.block_depth << ")");
        bool ok_tiled = false, ok_linear = false;
        const std::vector<uint8_t> tiled = read_file(dir + v.name + "_tiled.bin", &ok_tiled);
        const std::vector<uint8_t> linear = read_file(dir + v.name + ".bin", &ok_linear);
        if (!ok_tiled || !ok_linear)
            FAIL("TEXDEC_CORPUS is set but " << dir << v.name << (ok_tiled ? ".bin" : "_tiled.bin") << " is missing");
        files += 2;
        BlSurface s;
        s.elem_bytes = v.elem_bytes, s.width = v.w, s.height = v.h, s.depth = v.d;
        s.block_height = v.block_height, s.block_depth = v.block_depth;
        REQUIRE(linear.size() == size_t(v.w) * v.h * v.d * v.elem_bytes);
        REQUIRE(tiled.size() >= bl_surface_bytes(s));
        // The linear file is the tiled file's first surface, deswizzled.
        const std::vector<uint8_t> model = bl_deswizzle(s, tiled.data(), tiled.size());
        const std::string diff = first_difference(model, linear, v.elem_bytes);
        INFO("model deswizzle vs the linear file: " << diff);
        CHECK(diff.empty());
        ++model_checked;
        if (v.format == TEXDEC_FORMAT_UNDEFINED) {
            // The index volumes: one file counts 0, 1, 2, ... and the other holds, per element, the
            // index of its twin; which one is which (the README says the 33^3 linear file holds tiled
            // indices) does not matter to the check above. The counting one must count, or the check
            // would be vacuous.
            std::vector<uint32_t> a(linear.size() / 4), b(tiled.size() / 4);
            std::memcpy(a.data(), linear.data(), linear.size());
            std::memcpy(b.data(), tiled.data(), b.size() * 4);
            bool a_counts = true, b_counts = true;
            for (size_t i = 0; i < a.size(); ++i) a_counts = a_counts && a[i] == i;
            for (size_t i = 0; i < bl_surface_bytes(s) / 4; ++i) b_counts = b_counts && b[i] == i;
            CHECK((a_counts || b_counts));
            continue;
        }
        // The library: the tiled file decoded as BLOCK_LINEAR equals the linear file decoded.
        const texdec_source_layout_info layout = block_linear(v.block_height, v.block_depth);
        const uint32_t tw = v.w * 4, th = v.h * 4;
        for (OwnContext* c : {ctx.gpu.get(), ctx.cpu.get()}) {
            INFO("backend " << (c == ctx.gpu.get() ? "GPU" : "CPU"));
            std::vector<uint8_t> from_linear(size_t(tw) * th * 4, 0x11), from_tiled(size_t(tw) * th * 4, 0x22);
            std::string e1, e2;
            REQUIRE(decode_on(*c, JobBuilder(v.format, TEXDEC_OUTPUT_RGBA8, tw, th).blocks(linear).texels(from_linear),
                              &e1) == TEXDEC_SUCCESS);
            const texdec_status st = decode_on(
                *c, JobBuilder(v.format, TEXDEC_OUTPUT_RGBA8, tw, th).blocks(tiled).texels(from_tiled).next(&layout),
                &e2);
            INFO(e2);
            REQUIRE(st == TEXDEC_SUCCESS);
            const std::string d2 = first_difference(from_tiled, from_linear, 4);
            INFO("library decode of the tiled file vs the linear file: " << d2);
            CHECK(d2.empty());
            ++decoded;
        }
    }
    WARN("tegra_swizzle block-linear vectors: " << files << " files read, " << model_checked
                                                << " tiled/linear pairs deswizzled by the model, " << decoded
                                                << " BC decodes (GPU + CPU) compared");
    CHECK(model_checked == std::size(kTegraVectors));
    ctx.close();
}

// ---- 3. the equality matrix -----------------------------------------------------------------------

TEST_CASE("block-linear equals linear: every family with block heights 1-32 and depths 1-4 on both backends",
          "[block_linear][gpu]") {
    BothBackends ctx;
    if (!ctx.open()) return;
    struct Fmt {
        texdec_format format;
        texdec_output output;
    };
    // One or two formats per family, outputs varied (the decoders are those of the linear path).
    const Fmt formats_2d[] = {
        {TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8},
        {TEXDEC_FORMAT_BC3_SRGB, TEXDEC_OUTPUT_RGBA16F},
        {TEXDEC_FORMAT_BC4_UNORM, TEXDEC_OUTPUT_NATIVE},
        {TEXDEC_FORMAT_BC5_SNORM, TEXDEC_OUTPUT_RGBA16F},
        {TEXDEC_FORMAT_BC6H_SFLOAT, TEXDEC_OUTPUT_RGBA16F},
        {TEXDEC_FORMAT_BC7_SRGB, TEXDEC_OUTPUT_RGBA8},
        {TEXDEC_FORMAT_ETC2_R8G8B8A1_UNORM, TEXDEC_OUTPUT_RGBA8},
        {TEXDEC_FORMAT_ETC2_R8G8B8A8_SRGB, TEXDEC_OUTPUT_RGBA8},
        {TEXDEC_FORMAT_EAC_R11_SNORM, TEXDEC_OUTPUT_NATIVE},
        {TEXDEC_FORMAT_EAC_R11G11_UNORM, TEXDEC_OUTPUT_RGBA16F},
        {TEXDEC_FORMAT_ASTC_6x5_UNORM, TEXDEC_OUTPUT_RGBA8},
        {TEXDEC_FORMAT_ASTC_4x4_SFLOAT, TEXDEC_OUTPUT_RGBA16F},
        {TEXDEC_FORMAT_ASTC_12x10_SRGB, TEXDEC_OUTPUT_RGBA8},
    };
    const Fmt formats_3d[] = {
        {TEXDEC_FORMAT_ASTC_3x3x3_UNORM, TEXDEC_OUTPUT_RGBA8},
        {TEXDEC_FORMAT_ASTC_5x4x4_SFLOAT, TEXDEC_OUTPUT_RGBA16F},
    };
    const uint32_t heights[] = {1, 2, 4, 8, 16, 32};
    const uint32_t depths[] = {1, 2, 4};
    std::vector<EqCase> cases;
    uint32_t n = 0;
    auto offset = [&] { return size_t(4) * (n % 5) + (n % 7 == 3 ? 1 : 0) + 64 * (n % 3); };  // odd ones too
    for (const Fmt& f : formats_2d) {
        for (uint32_t i = 0; i < 6; ++i, ++n) {
            const uint32_t bh = heights[i];
            // A 2D extent that is no multiple of a block or a GOB, rows and image height past it.
            cases.push_back({f.format, f.output, 37, 23, 1, 45, 30, bh, 1, 0, offset()});
            // Slices of a 2D format through block_depth (a host job's depth), a wide row.
            cases.push_back({f.format, f.output, 131, 9, 3, 139, 12, bh, depths[i % 3], 0, offset() + 8});
            // Layers layer_stride apart (stride not a GOB multiple on some).
            if (i % 2 == 0)
                cases.push_back({f.format, f.output, 29, 17, 3, 0, 20, bh, 1, i == 2 ? 36u : 1024u, offset()});
        }
    }
    // Tall extents that span several rows of the tallest GOB blocks.
    cases.push_back({TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8, 37, 4 * 8 * 32 + 5, 1, 0, 0, 32, 1, 0, 20});
    cases.push_back({TEXDEC_FORMAT_BC7_UNORM, TEXDEC_OUTPUT_RGBA8, 21, 4 * 8 * 16 * 2 + 9, 2, 24, 0, 16, 2, 0, 4});
    cases.push_back({TEXDEC_FORMAT_EAC_R11_UNORM, TEXDEC_OUTPUT_NATIVE, 300, 4 * 8 * 8 + 1, 1, 0, 0, 8, 1, 0, 12});
    for (const Fmt& f : formats_3d) {
        for (uint32_t bh : heights)
            for (uint32_t bd : depths) {
                ++n;
                // Block slices through block_depth: 13x11x7, and deeper for depth 4 (several groups).
                cases.push_back({f.format, f.output, 13, 11, bd == 4 ? 25u : 7u, 16, 14, bh, bd, 0, offset()});
            }
    }
    // ASTC 3D with the tall block height spanning several rows of GOB blocks.
    cases.push_back({TEXDEC_FORMAT_ASTC_3x3x3_SRGB, TEXDEC_OUTPUT_RGBA8, 7, 3 * 8 * 2 * 2 + 2, 7, 0, 0, 2, 2, 0, 8});
    // Deeper blocks than the matrix's 1-4 GOBs: 20 block slices in groups of 8, 16 and 32.
    for (uint32_t bd : {8u, 16u, 32u})
        cases.push_back({TEXDEC_FORMAT_ASTC_3x3x3_UNORM, TEXDEC_OUTPUT_RGBA8, 8, 7, 60, 0, 0, 1, bd, 0, 4});

    size_t texels = 0, i = 0;
    for (const EqCase& c : cases) texels += check_equal_case(ctx, c, test_seed() + 1000 * i++);
    WARN("block-linear vs linear: " << cases.size() << " cases, " << texels
                                    << " texels each decoded 4 times (GPU and CPU)");
    ctx.close();
}

// ---- 4. regions in one record call ------------------------------------------------------------------

TEST_CASE("block-linear: several regions in one record call", "[block_linear][regions][gpu]") {
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    const texdec_format format = TEXDEC_FORMAT_BC7_UNORM;
    const texdec_output output = TEXDEC_OUTPUT_RGBA8;
    const uint32_t mips = 4, layers = 3, texel = 4;
    // 100 x 70: block heights 4 (level 0), then smaller where the levels are short.
    const BlTexture tex = make_bl_texture(format, 100, 70, mips, layers, 4, test_seed() ^ 0xB1);
    // The source buffer: the texture 260 bytes in.
    const VkDeviceSize base = 260;  // 4-aligned, not 16-aligned
    HostBuffer src = dev.create_buffer(base + tex.memory.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    std::memset(src.mapped, 0x77, base);
    std::memcpy(src.mapped + base, tex.memory.data(), tex.memory.size());
    std::vector<std::vector<uint8_t>> refs;
    for (uint32_t m = 0; m < mips; ++m)
        refs.push_back(
            linear_decode(setup, format, output, tex.linear[m], tex.levels[m].width, tex.levels[m].height, layers));

    std::vector<texdec_source_layout_info> layouts;
    for (const auto& L : tex.levels) layouts.push_back(L.layout);
    std::vector<texdec_region> regions(mips);
    for (uint32_t m = 0; m < mips; ++m) {
        texdec_region& r = regions[m];
        r.next = &layouts[m];
        r.src_offset = base + tex.levels[m].offset;
        r.layer_count = layers;
        r.extent = {tex.levels[m].width, tex.levels[m].height, 1};
    }

    SECTION("into a buffer, whole and in chunks that start inside GOB blocks") {
        // Each level's layers tightly at its own offset, 64 canary bytes between levels.
        std::vector<VkDeviceSize> at;
        size_t total = 64;
        for (uint32_t m = 0; m < mips; ++m) {
            at.push_back(total);
            total += refs[m].size() + 64;
        }
        for (uint32_t max_texels : {0u, 4096u, 100u}) {
            INFO("max_texels_per_dispatch " << max_texels);
            for (uint32_t m = 0; m < mips; ++m) regions[m].dst_offset = at[m];
            HostBuffer dst = dev.create_buffer(total, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
            fill_canary(dst.mapped, total);
            std::vector<uint8_t> expected(total);
            fill_canary(expected.data(), total);
            for (uint32_t m = 0; m < mips; ++m) std::memcpy(expected.data() + at[m], refs[m].data(), refs[m].size());
            VkCommandBuffer cmd = dev.begin_commands();
            const texdec_regions_job job = RegionsJobBuilder(format, output, src.buffer, src.size, regions.data(), mips)
                                               .into_buffer(dst.buffer, total)
                                               .max_texels_per_dispatch(max_texels);
            record_ok(setup, cmd, job);
            submit_checked(setup, cmd, "record into a buffer");
            const std::vector<uint8_t> got(dst.mapped, dst.mapped + total);
            const std::string diff = first_difference(got, expected, texel);
            INFO("buffer vs linear decodes (+ canary between): " << diff);
            CHECK(diff.empty());
            dev.destroy(dst);
        }
    }
    SECTION("into a 2D array image target") {
        // Level m's 3 layers at x = sum of the earlier levels' widths + 3 each, y = 1.
        std::vector<int32_t> xs;
        uint32_t iw = 0;
        for (uint32_t m = 0; m < mips; ++m) {
            xs.push_back(int32_t(iw + 3));
            iw += tex.levels[m].width + 3;
        }
        const uint32_t ih = tex.levels[0].height + 2;
        for (uint32_t m = 0; m < mips; ++m) regions[m].offset = {xs[m], 1, 0};
        for (uint32_t max_texels : {0u, 1000u}) {
            INFO("max_texels_per_dispatch " << max_texels);
            VkCommandBuffer cmd = dev.begin_commands();
            CanaryImage im = create_canary_image(dev, cmd, VK_FORMAT_R8G8B8A8_UNORM, iw, ih, layers, texel);
            const texdec_regions_job job = RegionsJobBuilder(format, output, src.buffer, src.size, regions.data(), mips)
                                               .into_image(image_target(setup.ctx, im.image))
                                               .max_texels_per_dispatch(max_texels);
            record_ok(setup, cmd, job);
            record_readback(cmd, im);
            submit_checked(setup, cmd, "record into an image");
            std::vector<uint8_t> expected(im.canary.mapped, im.canary.mapped + im.bytes);
            for (uint32_t m = 0; m < mips; ++m) {
                const uint32_t w = tex.levels[m].width, h = tex.levels[m].height;
                for (uint32_t l = 0; l < layers; ++l)
                    for (uint32_t y = 0; y < h; ++y)
                        std::memcpy(expected.data() + ((size_t(l) * ih + 1 + y) * iw + xs[m]) * texel,
                                    refs[m].data() + ((size_t(l) * h + y) * w) * texel, size_t(w) * texel);
            }
            const std::vector<uint8_t> got(im.readback.mapped, im.readback.mapped + im.bytes);
            const std::string diff = first_difference(got, expected, texel);
            INFO("image vs linear decodes (+ canary around): " << diff);
            CHECK(diff.empty());
            destroy(dev, im);
        }
    }
    dev.destroy(src);
    setup.close();
}

TEST_CASE("block-linear: depth slices and tall GOB blocks in record calls", "[block_linear][regions][gpu]") {
    // Regions with extent.depth > 1 (a 3D footprint's block slices; a 2D format's slices) whose
    // source slices go through block_depth, into a buffer: whole, and in chunks of a few blocks (a
    // chunk then starts inside a GOB block, in x, y and z).
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    struct Case3d {
        texdec_format format;
        texdec_output output;
        uint32_t w, h, d, block_height, block_depth;
        std::vector<uint32_t> max_texels;
        bool as_layers = false;  // the slices as layer_count (layer_stride 0: through block_depth too)
    };
    const Case3d cases[] = {
        {TEXDEC_FORMAT_ASTC_3x3x3_UNORM, TEXDEC_OUTPUT_RGBA8, 13, 11, 10, 2, 2, {0, 27 * 5, 27 * 33}},
        {TEXDEC_FORMAT_ASTC_4x4x4_SFLOAT, TEXDEC_OUTPUT_RGBA16F, 18, 70, 13, 1, 4, {0, 64 * 7}},
        {TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8, 45, 30, 5, 1, 4, {0, 16 * 5, 16 * 50}},
        {TEXDEC_FORMAT_BC4_SNORM, TEXDEC_OUTPUT_NATIVE, 37, 23, 5, 2, 2, {0, 16 * 20}, true},
        // 2D, block height 32: several rows of the tallest GOB blocks, chunks of rows and of columns.
        {TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8, 37, 4 * 8 * 32 + 5, 1, 32, 1, {0, 4096, 16 * 7}},
        {TEXDEC_FORMAT_ASTC_3x3x3_SRGB, TEXDEC_OUTPUT_RGBA8, 10, 8, 11, 4, 2, {0, 27 * 7}, true},
    };
    for (const Case3d& c : cases) {
        const texdec_format_info fi = format_info(c.format);
        INFO(fi.name << " " << c.w << "x" << c.h << "x" << c.d << (c.as_layers ? " (layer_count)" : "") << ", block "
                     << c.block_height << "x" << c.block_depth << " GOBs");
        const uint32_t texel = texel_size(c.format, c.output);
        BlSurface s;
        s.elem_bytes = fi.bytes_per_block;
        s.width = uint32_t(div_up(c.w, fi.block_width));
        s.height = uint32_t(div_up(c.h, fi.block_height));
        s.depth = uint32_t(div_up(c.d, fi.block_depth));
        s.block_height = c.block_height, s.block_depth = c.block_depth;
        const std::vector<uint8_t> blocks =
            random_blocks_of(fi, size_t(s.width) * s.height * s.depth, test_seed() ^ c.w);
        const std::vector<uint8_t> surface = bl_swizzle(s, blocks.data(), c.h);
        const uint64_t needed = bl_bytes_needed(s, s.width, s.height, s.depth);
        const VkDeviceSize at = 132;
        HostBuffer src = dev.create_buffer(at + needed, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        std::memset(src.mapped, 0x99, at);
        std::memcpy(src.mapped + at, surface.data(), needed);
        const std::vector<uint8_t> ref = linear_decode(setup, c.format, c.output, blocks, c.w, c.h, c.d);
        const texdec_source_layout_info layout = block_linear(c.block_height, c.block_depth);
        texdec_region r{};
        r.next = &layout;
        r.src_offset = at;
        r.extent = {c.w, c.h, c.as_layers ? 1 : c.d};
        r.layer_count = c.as_layers ? c.d : 0;
        for (uint32_t max_texels : c.max_texels) {
            INFO("max_texels_per_dispatch " << max_texels);
            // The word holding the last texel lies inside dst_size (1-byte texels: rounded up).
            const size_t dst_size = (ref.size() + 3) / 4 * 4;
            HostBuffer dst = dev.create_buffer(dst_size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
            std::memset(dst.mapped, 0xEE, dst_size);
            VkCommandBuffer cmd = dev.begin_commands();
            const texdec_regions_job job = RegionsJobBuilder(c.format, c.output, src.buffer, at + needed, &r)
                                               .into_buffer(dst.buffer, dst_size)
                                               .max_texels_per_dispatch(max_texels);
            record_ok(setup, cmd, job);
            submit_checked(setup, cmd, "record depth slices into a buffer");
            const std::string diff =
                first_difference(std::vector<uint8_t>(dst.mapped, dst.mapped + ref.size()), ref, texel);
            INFO("record path block-linear vs linear decode: " << diff);
            CHECK(diff.empty());
            for (size_t k = ref.size(); k < dst_size; ++k) CHECK(dst.mapped[k] == 0xEE);  // bytes past the last texel
            dev.destroy(dst);
        }
        dev.destroy(src);
    }
    setup.close();
}

// ---- 4b. texdec_decode streamed in parts ---------------------------------------------------------

TEST_CASE("block-linear: texdec_decode streamed in small parts", "[block_linear][gpu]") {
    // Cases decoded once on a normal GPU context and on contexts whose staging parts are small
    // (TEXDEC_DEBUG_STAGING_PART_BYTES, read at context creation): whole block slices, block rows,
    // block columns, single blocks. Every decode equals the linear decode of the same blocks.
    struct StreamCase {
        EqCase c;
        std::vector<const char*> parts;
    };
    const std::vector<StreamCase> cases = {
        // BC1 197 x 150 x 3, block height 4 (rows of GOB blocks 32 block rows high), block depth 2.
        {{TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8, 197, 150, 3, 205, 152, 4, 2, 0, 12},
         {"150000", "40000", "3000", "200"}},
        // Layers with a stride.
        {{TEXDEC_FORMAT_BC7_UNORM, TEXDEC_OUTPUT_RGBA8, 90, 70, 3, 0, 0, 2, 1, 516, 4}, {"50000", "9000", "1500"}},
        // ASTC 3D, block depth 2.
        {{TEXDEC_FORMAT_ASTC_4x4x4_UNORM, TEXDEC_OUTPUT_RGBA8, 30, 26, 22, 0, 0, 1, 2, 0, 8}, {"40000", "6000", "800"}},
    };
    for (const StreamCase& sc : cases) {
        const EqCase& c = sc.c;
        INFO(describe(c));
        const texdec_format_info fi = format_info(c.format);
        const BlSurface s = surface_of(c, fi);
        const std::vector<uint8_t> blocks =
            random_blocks_of(fi, size_t(s.width) * s.height * s.depth, test_seed() ^ 0x57);
        std::vector<uint8_t> surface = bl_swizzle(s, blocks.data(), 99);
        surface.insert(surface.begin(), c.src_offset, 0x42);
        const texdec_source_layout_info layout = block_linear(c.block_height, c.block_depth, s.layer_stride);
        uint64_t dst_bytes = 0;
        REQUIRE(texdec_decoded_size(c.format, c.output, c.w, c.h, c.d, &dst_bytes) == TEXDEC_SUCCESS);
        std::vector<uint8_t> reference(dst_bytes, 0xEE);
        {
            auto ctx = OwnContext::open(Backend::gpu);
            if (!ctx) return;
            REQUIRE(decode_on(*ctx, JobBuilder(c.format, c.output, c.w, c.h, c.d)
                                        .blocks(blocks)
                                        .texels(reference)
                                        .source_rows(c.row_length, c.image_height)) == TEXDEC_SUCCESS);
            ctx->close_and_check();
        }
        std::vector<const char*> parts = sc.parts;
        parts.insert(parts.begin(), nullptr);  // the default: one submission
        // The last part size once more through the discrete GPUs' device-local staging
        // (TEXDEC_DEBUG_DEVICE_STAGING: lavapipe's memory is unified).
        parts.push_back(parts.back());
        for (size_t k = 0; k < parts.size(); ++k) {
            const char* part = parts[k];
            const bool device_staging = k + 1 == parts.size();
            INFO("TEXDEC_DEBUG_STAGING_PART_BYTES " << (part ? part : "(default)")
                                                    << (device_staging ? ", TEXDEC_DEBUG_DEVICE_STAGING=1" : ""));
            if (part) setenv("TEXDEC_DEBUG_STAGING_PART_BYTES", part, 1);
            if (device_staging) setenv("TEXDEC_DEBUG_DEVICE_STAGING", "1", 1);
            auto ctx = OwnContext::open(Backend::gpu);
            if (part) unsetenv("TEXDEC_DEBUG_STAGING_PART_BYTES");
            if (device_staging) unsetenv("TEXDEC_DEBUG_DEVICE_STAGING");
            if (!ctx) return;
            std::vector<uint8_t> out(dst_bytes, 0xEE);
            const texdec_host_job job = JobBuilder(c.format, c.output, c.w, c.h, c.d)
                                            .blocks(surface.data() + c.src_offset, surface.size() - c.src_offset)
                                            .texels(out)
                                            .source_rows(c.row_length, c.image_height)
                                            .next(&layout);
            uint64_t host = 0, device = 0;
            REQUIRE(texdec_decode_scratch_size(ctx->get(), &job, &host, &device) == TEXDEC_SUCCESS);
            INFO("staging " << host << " host bytes");
            if (part) CHECK(host < surface.size() + dst_bytes);  // really cut into parts
            std::string errors;
            const texdec_status st = decode_on(*ctx, job, &errors);
            INFO(texdec_status_string(st) << " " << errors);
            REQUIRE(st == TEXDEC_SUCCESS);
            const std::string diff = first_difference(out, reference, texel_size(c.format, c.output));
            INFO("streamed block-linear vs linear: " << diff);
            CHECK(diff.empty());
            ctx->close_and_check();
        }
    }
}

// ---- 5. layer stride -------------------------------------------------------------------------------

TEST_CASE("block-linear: 2D array layers layer_stride apart", "[block_linear][gpu]") {
    // Host jobs (depth = layers) on both backends; the record path's layer_count with a stride is in
    // "several regions in one record call" (the stride of a mip chain) and here into a buffer.
    BothBackends ctx;
    if (!ctx.open()) return;
    size_t i = 0;
    for (uint32_t extra : {4u, 36u, 512u, 4096u + 12u})
        for (uint32_t bh : {1u, 4u, 16u}) {  // (i once per case: it was read and incremented unsequenced)
            check_equal_case(ctx,
                             {TEXDEC_FORMAT_BC3_UNORM, TEXDEC_OUTPUT_RGBA8, 45, 37, 4, 52, 40, bh, 1, extra, 4 * i},
                             test_seed() + 77 * i);
            ++i;
        }
    ctx.close();

    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    // One region, 4 layers of a 2D BC5 array, layer_stride one layer + 2052 bytes, into a buffer.
    const texdec_format format = TEXDEC_FORMAT_BC5_UNORM;
    const texdec_output output = TEXDEC_OUTPUT_NATIVE;
    const texdec_format_info fi = format_info(format);
    const uint32_t w = 50, h = 35, layers = 4, texel = texel_size(format, output);
    BlSurface s;
    s.elem_bytes = fi.bytes_per_block, s.width = 13, s.height = 9, s.depth = layers, s.block_height = 2;
    s.layer_stride = slice_group_bytes(s) + 2052;
    const std::vector<uint8_t> blocks = random_blocks_of(fi, size_t(s.width) * s.height * layers, test_seed() ^ 0x1A);
    const std::vector<uint8_t> surface = bl_swizzle(s, blocks.data(), 5);
    const VkDeviceSize at = 1028;
    const uint64_t needed = bl_bytes_needed(s, s.width, s.height, layers);
    HostBuffer src = dev.create_buffer(at + needed, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    std::memcpy(src.mapped + at, surface.data(), needed);
    const std::vector<uint8_t> ref = linear_decode(setup, format, output, blocks, w, h, layers);
    const texdec_source_layout_info layout = block_linear(2, 1, s.layer_stride);
    texdec_region r{};
    r.next = &layout;
    r.src_offset = at;
    r.layer_count = layers;
    r.extent = {w, h, 1};
    HostBuffer dst = dev.create_buffer(ref.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    std::memset(dst.mapped, 0xEE, ref.size());
    VkCommandBuffer cmd = dev.begin_commands();
    const texdec_regions_job job =
        RegionsJobBuilder(format, output, src.buffer, at + needed, &r).into_buffer(dst.buffer, ref.size());
    record_ok(setup, cmd, job);
    host_read_barrier(cmd);
    dev.submit_and_wait(cmd);
    const std::string diff = first_difference(std::vector<uint8_t>(dst.mapped, dst.mapped + ref.size()), ref, texel);
    INFO("layers with a stride, record path: " << diff);
    CHECK(diff.empty());
    dev.destroy(dst);
    dev.destroy(src);
    setup.close();
}

// ---- 6. bad input ----------------------------------------------------------------------------------

TEST_CASE("block-linear: bad layouts are refused with a message", "[block_linear][gpu]") {
    BothBackends ctx;
    if (!ctx.open()) return;
    const texdec_format format = TEXDEC_FORMAT_BC1_RGBA_UNORM;
    const uint32_t w = 40, h = 36, d = 2;  // 10 x 9 blocks, 80 bytes a row (2 GOBs), 2 slices
    BlSurface s;
    s.elem_bytes = 8, s.width = 10, s.height = 9, s.depth = d, s.block_height = 2;
    const uint64_t layer = slice_group_bytes(s);  // 2 GOB columns x 1 row of 2-GOB blocks = 2048
    REQUIRE(layer == 2048);
    std::vector<uint8_t> src(size_t(1) << 18, 0x5A);  // more than any case below needs
    std::vector<uint8_t> dst(size_t(w) * h * d * 4);

    struct Bad {
        const char* what;
        texdec_source_layout_info info;
        texdec_format format;
        texdec_status status;
        const char* message;  // a word the message must hold
    };
    texdec_source_layout_info linear_with_height{};
    linear_with_height.type = TEXDEC_STRUCTURE_TYPE_SOURCE_LAYOUT_INFO;
    linear_with_height.layout = TEXDEC_SOURCE_LAYOUT_LINEAR;
    linear_with_height.block_height = 2;
    texdec_source_layout_info linear_with_stride = linear_with_height;
    linear_with_stride.block_height = 0;
    linear_with_stride.layer_stride = 4096;
    texdec_source_layout_info unknown_layout = block_linear(2);
    unknown_layout.layout = texdec_source_layout(2);
    texdec_source_layout_info huge_layout = block_linear(2);
    huge_layout.layout = texdec_source_layout(0x7FFFFFFF);
    const Bad bads[] = {
        {"block_height 0", block_linear(0), format, TEXDEC_ERROR_INVALID_LAYOUT, "block_height"},
        {"block_height 3", block_linear(3), format, TEXDEC_ERROR_INVALID_LAYOUT, "block_height"},
        {"block_height 64", block_linear(64), format, TEXDEC_ERROR_INVALID_LAYOUT, "block_height"},
        {"block_depth 0", block_linear(2, 0), format, TEXDEC_ERROR_INVALID_LAYOUT, "block_depth"},
        {"block_depth 3", block_linear(2, 3), format, TEXDEC_ERROR_INVALID_LAYOUT, "block_depth"},
        {"block_depth 64", block_linear(2, 64), format, TEXDEC_ERROR_INVALID_LAYOUT, "block_depth"},
        {"layer_stride not a multiple of 4", block_linear(2, 1, layer + 2), format, TEXDEC_ERROR_INVALID_LAYOUT,
         "layer_stride"},
        {"layer_stride with block_depth 2", block_linear(2, 2, layer * 2), format, TEXDEC_ERROR_INVALID_LAYOUT,
         "layer_stride"},
        {"layer_stride smaller than a layer", block_linear(2, 1, layer - 4), format, TEXDEC_ERROR_INVALID_LAYOUT,
         "layer_stride"},
        {"layer_stride with a 3D footprint", block_linear(2, 1, 1 << 20), TEXDEC_FORMAT_ASTC_4x4x4_UNORM,
         TEXDEC_ERROR_INVALID_LAYOUT, "layer_stride"},
        {"LINEAR with block_height", linear_with_height, format, TEXDEC_ERROR_INVALID_LAYOUT, "LINEAR"},
        {"LINEAR with layer_stride", linear_with_stride, format, TEXDEC_ERROR_INVALID_LAYOUT, "LINEAR"},
        {"unknown layout value 2", unknown_layout, format, TEXDEC_ERROR_INVALID_LAYOUT, "layout"},
        {"unknown layout value 0x7FFFFFFF", huge_layout, format, TEXDEC_ERROR_INVALID_LAYOUT, "layout"},
    };
    // An unknown structure in the job's chain, and one chained behind the layout info.
    struct Unknown {
        texdec_structure_type type;
        const void* next;
    };
    const Unknown unknown{texdec_structure_type(0x54449999), nullptr};
    texdec_source_layout_info chained = block_linear(2);
    chained.next = &unknown;

    for (OwnContext* c : {ctx.gpu.get(), ctx.cpu.get()}) {
        INFO("backend " << (c == ctx.gpu.get() ? "GPU" : "CPU"));
        for (const Bad& b : bads) {
            INFO(b.what);
            const uint32_t depth = b.format == format ? d : 4;
            std::vector<uint8_t> out(size_t(w) * h * depth * 4);
            std::string errors;
            const texdec_status st = decode_on(
                *c, JobBuilder(b.format, TEXDEC_OUTPUT_RGBA8, w, h, depth).blocks(src).texels(out).next(&b.info),
                &errors);
            INFO("status " << texdec_status_string(st) << ", message: " << errors);
            CHECK(st == b.status);
            CHECK(errors.find(b.message) != std::string::npos);
        }
        for (const void* chain : {static_cast<const void*>(&unknown), static_cast<const void*>(&chained)}) {
            INFO((chain == &unknown ? "unknown structure type in the job's chain"
                                    : "unknown structure behind the layout info"));
            std::string errors;
            const texdec_status st = decode_on(
                *c, JobBuilder(format, TEXDEC_OUTPUT_RGBA8, w, h, d).blocks(src).texels(dst).next(chain), &errors);
            INFO("status " << texdec_status_string(st) << ", message: " << errors);
            CHECK(st == TEXDEC_ERROR_INVALID_ARGUMENT);
            CHECK_FALSE(errors.empty());
        }
        // The source size: exactly the model's bytes needed decodes; one byte less is refused.
        for (uint32_t bh : {1u, 2u, 32u})
            for (uint32_t bd : {1u, 2u}) {
                BlSurface t = s;
                t.block_height = bh, t.block_depth = bd;
                const uint64_t needed = bl_bytes_needed(t, t.width, t.height, d);
                INFO("block " << bh << "x" << bd << " GOBs: the job needs " << needed << " bytes");
                REQUIRE(needed <= src.size());
                const texdec_source_layout_info info = block_linear(bh, bd);
                std::string errors;
                CHECK(decode_on(*c,
                                JobBuilder(format, TEXDEC_OUTPUT_RGBA8, w, h, d)
                                    .blocks(src.data(), needed)
                                    .texels(dst)
                                    .next(&info),
                                &errors) == TEXDEC_SUCCESS);
                INFO(errors);
                const texdec_status st = decode_on(*c,
                                                   JobBuilder(format, TEXDEC_OUTPUT_RGBA8, w, h, d)
                                                       .blocks(src.data(), needed - 1)
                                                       .texels(dst)
                                                       .next(&info),
                                                   &errors);
                INFO("one byte short: " << texdec_status_string(st) << ", message: " << errors);
                CHECK(st == TEXDEC_ERROR_SOURCE_TOO_SMALL);
                CHECK_FALSE(errors.empty());
            }
        // A surface whose size does not fit 64 bits: source rows of 2^32 - 16 texels (2^30 BC1
        // blocks, 2^27 GOB columns of 32-GOB blocks of 2^14 bytes: 2^41 bytes a row of blocks) and
        // images of 2^32 - 16 rows (2^22 rows of blocks): 2^63 bytes a slice, so slice 2 starts at 2^64.
        {
            const texdec_source_layout_info info = block_linear(32, 1);
            std::string errors;
            const texdec_status st = decode_on(*c,
                                               JobBuilder(format, TEXDEC_OUTPUT_RGBA8, 8, 8, 3)
                                                   .blocks(src)
                                                   .texels(dst)
                                                   .source_rows(0xFFFFFFF0u, 0xFFFFFFF0u)
                                                   .next(&info),
                                               &errors);
            INFO("a 2^64-byte surface: " << texdec_status_string(st) << ", message: " << errors);
            CHECK(st == TEXDEC_ERROR_SIZE_OVERFLOW);
            CHECK_FALSE(errors.empty());
        }
        // A layer stride: the last layer's last block ends the source.
        {
            BlSurface t = s;
            t.layer_stride = layer + 1000;
            const uint64_t needed = bl_bytes_needed(t, t.width, t.height, d);
            CHECK(needed == layer + 1000 + bl_offset(t, 9, 8, 0) + 8);
            const texdec_source_layout_info info = block_linear(2, 1, t.layer_stride);
            CHECK(decode_on(*c, JobBuilder(format, TEXDEC_OUTPUT_RGBA8, w, h, d)
                                    .blocks(src.data(), needed)
                                    .texels(dst)
                                    .next(&info)) == TEXDEC_SUCCESS);
            CHECK(decode_on(*c, JobBuilder(format, TEXDEC_OUTPUT_RGBA8, w, h, d)
                                    .blocks(src.data(), needed - 1)
                                    .texels(dst)
                                    .next(&info)) == TEXDEC_ERROR_SOURCE_TOO_SMALL);
        }
    }
    ctx.close();

    // The record path checks the same rules per region, and records nothing.
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    HostBuffer sbuf = dev.create_buffer(src.size() + 1024, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    HostBuffer dbuf = dev.create_buffer(dst.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    auto record = [&](const void* chain, VkDeviceSize src_offset, VkDeviceSize src_size, uint32_t layers,
                      std::string* errors) {
        texdec_region regions[2]{};
        regions[0].extent = {8, 8, 1};  // a good region first: the bad one is region 1
        regions[1].next = chain;
        regions[1].src_offset = src_offset;
        regions[1].layer_count = layers;
        regions[1].extent = {w, h, 1};
        VkCommandBuffer cmd = dev.begin_commands();
        const texdec_regions_job job = RegionsJobBuilder(format, TEXDEC_OUTPUT_RGBA8, sbuf.buffer, src_size, regions, 2)
                                           .into_buffer(dbuf.buffer, dst.size());
        const texdec_status st = texdec_record_regions(setup.ctx, cmd, &job);
        dev.submit_and_wait(cmd);
        *errors = take_errors(setup);
        return st;
    };
    for (const Bad& b : bads) {
        if (b.format != format) continue;
        INFO("record path: " << b.what);
        std::string errors;
        const texdec_status st = record(&b.info, 0, sbuf.size, d, &errors);
        INFO("status " << texdec_status_string(st) << ", message: " << errors);
        CHECK(st == b.status);
        CHECK(errors.find("region 1") != std::string::npos);
    }
    {
        std::string errors;
        CHECK(record(&unknown, 0, sbuf.size, d, &errors) == TEXDEC_ERROR_INVALID_ARGUMENT);
        CHECK_FALSE(errors.empty());
    }
    for (uint32_t bh : {2u, 16u}) {
        BlSurface t = s;
        t.block_height = bh;
        const uint64_t needed = bl_bytes_needed(t, t.width, t.height, d);
        const VkDeviceSize at = 516;
        INFO("record path, block height " << bh << ": the region needs " << needed << " bytes from " << at);
        const texdec_source_layout_info info = block_linear(bh);
        std::string errors;
        CHECK(record(&info, at, at + needed, d, &errors) == TEXDEC_SUCCESS);
        INFO(errors);
        CHECK(record(&info, at, at + needed - 1, d, &errors) == TEXDEC_ERROR_SOURCE_TOO_SMALL);
        CHECK_FALSE(errors.empty());
    }
    check_no_validation_messages(dev.log(), "bad block-linear regions");
    dev.destroy(sbuf);
    dev.destroy(dbuf);
    setup.close();
}

// texdec_block_linear_get_level ([block_linear][levels]): where each mip level of a Tegra X1
// block-linear texture lies (texdec.h "source layouts", docs/BLOCK_LINEAR.md).
//   - Texture sizes of shipped games (Smash Ultimate .nutexb footers) as ScanMountGoat/tegra_swizzle's
//     unit tests record them, and the per-level block heights its author determined by hand from
//     those files: independent facts about real data, not outputs of any decoder.
//   - Levels worked out by hand from the rules (the arithmetic is in the comments), including the
//     points where Ryujinx, yuzu and tegra_swizzle disagree (docs/BLOCK_LINEAR.md says which rule
//     texdec follows and why).
//   - Every error status.
//   - End to end: mip-chained textures (2 layers; and a 3D texture) swizzled by this file's own
//     implementation of the Tegra X1 address formula (checked first against tegra_swizzle's
//     vectors when TEXDEC_CORPUS is set) at the offsets the helper returns, each level decoded
//     through the texdec_source_layout_info the helper filled, on a CPU context and on the GPU
//     path (mirrored on the CPU backend by the fixture), equal to the linear decode of the same
//     blocks; and through texdec_record_regions with one region per level (docs/BLOCK_LINEAR.md's
//     example).
#include <catch2/catch.hpp>

#include <texdec/texdec.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "gpu/external_setup.h"
#include "gpu/gpu_fixture.h"
#include "support/corpus_files.h"
#include "support/cpu_context.h"
#include "support/job_builder.h"

using namespace texdec_test;

namespace {

struct BlockFormat {
    texdec_format format;
    uint32_t bw, bh, bd, bytes;  // footprint in texels, bytes per block
};
constexpr BlockFormat kBc1{TEXDEC_FORMAT_BC1_RGBA_UNORM, 4, 4, 1, 8};
constexpr BlockFormat kBc4{TEXDEC_FORMAT_BC4_UNORM, 4, 4, 1, 8};
constexpr BlockFormat kBc7{TEXDEC_FORMAT_BC7_UNORM, 4, 4, 1, 16};
constexpr BlockFormat kAstc4x4x4{TEXDEC_FORMAT_ASTC_4x4x4_UNORM, 4, 4, 4, 16};

uint32_t div_up(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// The level-0 block height that the tools which made the games' files picked from the height in
// compressed blocks (tegra_swizzle's block_height_mip0, tegra_swizzle/src/blockheight.rs, ported
// from Nintendo's driver code by gdkchan): a fact about how those files were laid out, passed to
// the helper as the descriptor's block height.
uint32_t recommended_block_height(uint32_t rows) {
    const uint32_t r = rows + rows / 2;
    return r >= 128 ? 16 : r >= 64 ? 8 : r >= 32 ? 4 : r >= 16 ? 2 : 1;
}

texdec_block_linear_texture make_texture(const BlockFormat& f, uint32_t w, uint32_t h, uint32_t d, uint32_t levels,
                                         uint32_t layers, uint32_t block_height, uint32_t block_depth = 1) {
    texdec_block_linear_texture t{};
    t.format = f.format;
    t.width = w, t.height = h, t.depth = d;
    t.mip_levels = levels;
    t.array_layers = layers;
    t.block_height = block_height;
    t.block_depth = block_depth;
    return t;
}

texdec_block_linear_level get_level(const texdec_block_linear_texture& t, uint32_t level) {
    texdec_block_linear_level out{};
    INFO("level " << level);
    REQUIRE(texdec_block_linear_get_level(&t, level, &out) == TEXDEC_SUCCESS);
    return out;
}

// Every level of `t`: CHECKs what must hold between levels whatever the rules (levels follow one
// another; one texture size and layer stride; the layout struct filled as texdec.h says).
std::vector<texdec_block_linear_level> all_levels(const texdec_block_linear_texture& t) {
    std::vector<texdec_block_linear_level> levels;
    for (uint32_t l = 0; l < t.mip_levels; ++l) levels.push_back(get_level(t, l));
    for (uint32_t l = 0; l < t.mip_levels; ++l) {
        INFO("level " << l);
        const texdec_block_linear_level& v = levels[l];
        CHECK(v.offset == (l == 0 ? 0 : levels[l - 1].offset + levels[l - 1].size));
        CHECK(v.texture_size == levels[0].texture_size);
        CHECK(v.layout.type == TEXDEC_STRUCTURE_TYPE_SOURCE_LAYOUT_INFO);
        CHECK(v.layout.next == nullptr);
        CHECK(v.layout.layout == TEXDEC_SOURCE_LAYOUT_BLOCK_LINEAR);
        CHECK(v.layout.layer_stride == (t.array_layers > 1 ? levels[0].layout.layer_stride : 0));
        CHECK(v.width == std::max(1u, t.width >> l));
        CHECK(v.height == std::max(1u, t.height >> l));
        CHECK(v.depth == std::max(1u, t.depth >> l));
    }
    const uint64_t layer = levels.back().offset + levels.back().size;
    if (t.array_layers > 1) {
        CHECK(levels[0].layout.layer_stride >= layer);
        CHECK(levels[0].texture_size == levels[0].layout.layer_stride * t.array_layers);
    } else {
        CHECK(levels[0].texture_size == layer);
    }
    return levels;
}

}  // namespace

// ---- sizes of shipped games' textures -------------------------------------------------------

// ScanMountGoat/tegra_swizzle, tegra_swizzle/src/surface.rs (tests swizzle_surface_nutexb_length,
// swizzle_surface_arrays_mipmaps_length, swizzle_surface_arrays_no_mipmaps_length) and
// tegra_swizzle/src/arrays.rs (tests layer_sizes_mipmaps, layer_sizes_no_mipmaps): "Sizes and
// parameters taken from Smash Ultimate nutexb files ... The swizzled size is taken from the footer."
// Every compressed (4x4 blocks of 8 or 16 bytes) case is here; 8-byte blocks are given as BC1, 16-byte
// ones as BC7 (the layout depends only on the footprint and the block bytes). Left out: the
// uncompressed cases (R8G8B8A8 and 16-byte 1x1 texels: 16x16 x6 -> 6144, 256x256 x6 -> 1572864,
// 64x64 x6 -> 98304, 64x64 16-byte x6 -> 393216, 128x32 8 mips -> 24064, 4x24 -> 2048): no texdec
// format has a 1x1 footprint, and a 4x4 format with the same bytes is not the same layout.
TEST_CASE("block-linear levels: texture sizes of shipped games (tegra_swizzle's nutexb footers)",
          "[block_linear][levels]") {
    struct GameCase {
        uint32_t width, height, block_bytes, mips, layers;
        uint64_t swizzled_size;
    };
    const GameCase cases[] = {
        // surface.rs swizzle_surface_nutexb_length (one layer)
        {100, 100, 8, 7, 1, 12800},
        {1028, 256, 16, 11, 1, 360960},
        {1536, 1024, 16, 11, 1, 2099712},
        {180, 180, 8, 8, 1, 35328},
        {2048, 1344, 16, 12, 1, 4546048},
        {256, 32, 16, 9, 1, 17920},
        {320, 128, 16, 9, 1, 58368},
        {340, 340, 8, 9, 1, 125440},
        {400, 400, 8, 9, 1, 147968},
        {512, 384, 16, 10, 1, 351744},
        {640, 640, 8, 10, 1, 440832},
        {64, 512, 8, 10, 1, 26624},
        {800, 400, 8, 10, 1, 280064},
        {8192, 2048, 16, 1, 1, 16777216},
        // surface.rs swizzle_surface_arrays_mipmaps_length = arrays.rs layer_sizes_mipmaps (6 layers: cube maps)
        {128, 128, 16, 8, 6, 147456},
        {16, 16, 16, 5, 6, 15360},
        {256, 256, 16, 9, 6, 540672},
        {288, 288, 16, 9, 6, 1204224},
        {512, 512, 16, 10, 6, 2113536},
        {64, 64, 16, 7, 6, 49152},
        // surface.rs swizzle_surface_arrays_no_mipmaps_length = arrays.rs layer_sizes_no_mipmaps
        {16, 16, 8, 1, 6, 3072},
        {2048, 2048, 16, 1, 6, 25165824},
    };
    for (const GameCase& c : cases) {
        const BlockFormat& f = c.block_bytes == 8 ? kBc1 : kBc7;
        const uint32_t bh = recommended_block_height(div_up(c.height, 4));
        INFO(c.width << "x" << c.height << ", " << c.block_bytes << "-byte blocks, " << c.mips << " mips, " << c.layers
                     << " layers, block height " << bh);
        const auto levels = all_levels(make_texture(f, c.width, c.height, 1, c.mips, c.layers, bh));
        CHECK(levels[0].texture_size == c.swizzled_size);
        // The recommended block height never shrinks at level 0 (rows * 1.5 >= 8 * bh means rows > 4 * bh).
        CHECK(levels[0].layout.block_height == bh);
    }
}

// tegra_swizzle/src/blockheight.rs, tests block_heights_mip0_bcn and mip_block_heights_bcn: "This test
// data is based on nutexb textures in Smash Ultimate. Expected block heights were determined
// manually." Each row: level 0's height and a level's height in texels (BC, 4x4 blocks), and that
// level's block height in GOBs (level 0's is the recommended one).
TEST_CASE("block-linear levels: per-level block heights of shipped games (tegra_swizzle)", "[block_linear][levels]") {
    // Triples: level 0's height, the level's height (texels), the level's block height (GOBs); first
    // block_heights_mip0_bcn (level 0), then mip_block_heights_bcn (later levels).
    const uint32_t table[] = {
        36,   36,   1,  40,   40,   1,  48,   48,   2,  64,   64,  2,  72,   72,  2,  80,   80,  2,  84,   84,  2,
        96,   96,   4,  100,  100,  4,  120,  120,  4,  124,  124, 4,  128,  128, 4,  132,  132, 4,  140,  140, 4,
        168,  168,  4,  176,  176,  8,  180,  180,  8,  184,  184, 8,  192,  192, 8,  200,  200, 8,  220,  220, 8,
        256,  256,  8,  260,  260,  8,  292,  292,  8,  300,  300, 8,  320,  320, 8,  340,  340, 8,  360,  360, 16,
        384,  384,  16, 400,  400,  16, 500,  500,  16, 560,  560, 16, 640,  640, 16, 720,  720, 16, 768,  768, 16,
        1088, 1088, 16, 1152, 1152, 16, 1408, 1408, 16, 48,   24,  1,  64,   32,  1,  72,   36,  2,  80,   40,  2,
        84,   42,   2,  96,   48,   2,  100,  50,   2,  128,  64,  2,  140,  70,  4,  168,  84,  4,  180,  90,  4,
        184,  92,   4,  192,  96,   4,  200,  100,  4,  220,  110, 4,  256,  128, 4,  260,  130, 8,  300,  150, 8,
        320,  160,  8,  360,  180,  8,  384,  192,  8,  400,  200, 8,  500,  250, 8,  560,  280, 16, 640,  320, 16,
        720,  360,  16, 768,  384,  16, 1088, 544,  16, 1152, 576, 16, 1408, 704, 16, 100,  25,  1,  140,  35,  2,
        300,  75,   4,  320,  80,   4,  360,  90,   4,  560,  140, 8,  640,  160, 8,  720,  180, 8,  768,  192, 8,
        1088, 272,  16, 1152, 288,  16, 1408, 352,  16, 100,  12,  1,  140,  17,  1,  300,  37,  2,  320,  40,  2,
        360,  45,   2,  560,  70,   4,  640,  80,   4,  720,  90,  4,  768,  96,  4,  1088, 136, 8,  1152, 144, 8,
        1408, 176,  8,  300,  18,   1,  320,  20,   1,  360,  22,  1,  560,  35,  2,  640,  40,  2,  720,  45,  2,
        768,  48,   2,  1088, 68,   4,  1152, 72,   4,  1408, 88,  4,  640,  20,  1};
    for (size_t i = 0; i < std::size(table); i += 3) {
        const struct { uint32_t mip0_height, level_height, block_height; } r{table[i], table[i + 1], table[i + 2]};
        uint32_t level = 0;
        while ((r.mip0_height >> level) > r.level_height) ++level;
        REQUIRE((r.mip0_height >> level) == r.level_height);  // the rows are whole mip levels
        const uint32_t bh = recommended_block_height(div_up(r.mip0_height, 4));
        INFO("height " << r.mip0_height << ", level " << level << " (" << r.level_height
                       << " texels), level 0 block height " << bh);
        const texdec_block_linear_level v =
            get_level(make_texture(kBc7, 64, r.mip0_height, 1, level + 1, 1, bh), level);
        CHECK(v.layout.block_height == r.block_height);
        CHECK(v.layout.block_depth == 1);
    }
}

// ---- levels worked out by hand --------------------------------------------------------------

TEST_CASE("block-linear levels: a 256x256 BC7 mip chain with block height 16, by hand", "[block_linear][levels]") {
    // A level's block height halves while its rows (compressed blocks) <= 8 * half of it; a level takes
    // ceil(row bytes / 64) x ceil(rows / (8 * bh)) blocks of 512 * bh bytes.
    //   L0 256x256: 64x64 blocks. bh 16: 64 <= 64 -> 8; 64 <= 32 no -> bh 8 (level 0 shrinks too).
    //      1024 bytes/row = 16 GOBs; ceil(64 / 64) = 1 row of blocks: 16 * 1 * 4096 = 65536 at 0
    //   L1 128x128: 32x32. 32 <= 64 -> 8, 32 <= 32 -> 4, 32 <= 16 no -> bh 4. 512 B = 8 GOBs: 8 * 2048 = 16384 at 65536
    //   L2 64x64: 16x16. -> bh 2 (16 <= 16; 16 <= 8 no). 4 GOBs: 4 * 1024 = 4096 at 81920
    //   L3 32x32: 8x8. 8 <= 8 -> bh 1. 2 GOBs: 1024 at 86016
    //   L4 16x16: 4x4 -> 1 GOB: 512 at 87040; L5 8x8: 512 at 87552; L6 4x4: 512 at 88064; L7 2x2: 512 at 88576;
    //   L8 1x1: 512 at 89088. Layer: 89600 bytes.
    // Two layers: the stride rounds 89600 up to level 0's (adjusted) block, 512 * 8 = 4096: 22 * 4096 = 90112
    // (the same as tegra_swizzle's 540672 / 6 for this texture with its recommended block height 8).
    struct Expect {
        uint64_t offset, size;
        uint32_t bh;
    };
    const Expect expect[] = {{0, 65536, 8},   {65536, 16384, 4}, {81920, 4096, 2}, {86016, 1024, 1}, {87040, 512, 1},
                             {87552, 512, 1}, {88064, 512, 1},   {88576, 512, 1},  {89088, 512, 1}};
    for (uint32_t layers : {1u, 2u}) {
        INFO(layers << " layer(s)");
        const auto levels = all_levels(make_texture(kBc7, 256, 256, 1, 9, layers, 16));
        for (uint32_t l = 0; l < 9; ++l) {
            INFO("level " << l);
            CHECK(levels[l].offset == expect[l].offset);
            CHECK(levels[l].size == expect[l].size);
            CHECK(levels[l].layout.block_height == expect[l].bh);
            CHECK(levels[l].layout.block_depth == 1);
        }
        CHECK(levels[0].layout.layer_stride == (layers == 2 ? 90112u : 0u));
        CHECK(levels[0].texture_size == (layers == 2 ? 2 * 90112u : 89600u));
    }
}

TEST_CASE("block-linear levels: the layer stride aligns to level 0's block measured in block rows",
          "[block_linear][levels]") {
    // 64x64 BC7, block height 16 (more than the texture needs), 3 levels, 2 layers.
    //   L0 16x16 blocks: 16 <= 64 -> 8, <= 32 -> 4, <= 16 -> 2, <= 8 no: bh 2. 256 B = 4 GOBs: 4 * 1024 = 4096
    //   L1 8x8: bh 1, 2 GOBs: 1024 at 4096.   L2 4x4: bh 1, 1 GOB: 512 at 5120.   Layer: 5632.
    // Stride: level 0's adjusted block is 2 GOBs = 1024 bytes: 5632 -> 6144. Ryujinx (SizeCalculator
    // AlignLayerSize: DivRoundUp(height, blockHeight)), Mesa's nouveau and NVK (NIL: level 0's clamped
    // tiling) measure level 0 in block rows as here. yuzu (AlignLayerSize: AlignUp(size.height,
    // tile_size_y)) and tegra_swizzle (align_layer_size(.., height, ..)) compare the height in texels
    // (64 <= 64 -> 8, 64 <= 32 no: bh 8, 4096 bytes), which would give 8192; docs/BLOCK_LINEAR.md.
    const auto levels = all_levels(make_texture(kBc7, 64, 64, 1, 3, 2, 16));
    CHECK(levels[0].layout.block_height == 2);
    CHECK(levels[0].size == 4096);
    CHECK(levels[1].offset == 4096);
    CHECK(levels[1].size == 1024);
    CHECK(levels[2].offset == 5120);
    CHECK(levels[2].size == 512);
    CHECK(levels[0].layout.layer_stride == 6144);
    CHECK(levels[0].texture_size == 12288);
}

TEST_CASE("block-linear levels: 3D textures shrink the block depth like the block height", "[block_linear][levels]") {
    SECTION("BC4 32x32x12, block height 2, block depth 16, 3 levels") {
        //   L0 8x8x12 blocks: rows 8 -> bh 1 (8 <= 8); slices 12 <= 8 no -> bd 16. 64 B = 1 GOB;
        //      ceil(8 / 8) = 1 row; ceil(12 / 16) = 1 slab: 1 * 1 * 1 * 512 * 1 * 16 = 8192 at 0
        //   L1 4x4x6: bh 1; 6 <= 8 -> 8, 6 <= 4 no: bd 8: 512 * 8 = 4096 at 8192
        //   L2 2x2x3: bh 1; 3 <= 4 -> 4, 3 <= 2 no: bd 4: 2048 at 12288. Texture: 14336 (one "layer": no stride).
        const auto levels = all_levels(make_texture(kBc4, 32, 32, 12, 3, 1, 2, 16));
        const uint64_t offsets[] = {0, 8192, 12288}, sizes[] = {8192, 4096, 2048};
        const uint32_t depths[] = {16, 8, 4};
        for (uint32_t l = 0; l < 3; ++l) {
            INFO("level " << l);
            CHECK(levels[l].offset == offsets[l]);
            CHECK(levels[l].size == sizes[l]);
            CHECK(levels[l].layout.block_height == 1);
            CHECK(levels[l].layout.block_depth == depths[l]);
            CHECK(levels[l].layout.layer_stride == 0);
        }
        CHECK(levels[0].texture_size == 14336);
    }
    SECTION("BC4 8x8x12, block depth 16, 4 levels: several halvings in one level") {
        //   L0 2x2x12: bd 16 (12 <= 8 no): 512 * 16 = 8192.  L1 1x1x6: bd 8: 4096 at 8192.
        //   L2 1x1x3: bd 4: 2048 at 12288.  L3 1x1x1: 1 <= 2 -> 2, 1 <= 1 -> 1: bd 1 (two halvings;
        //   Ryujinx since PR #5220 halves the depth at most once per level, giving 2): 512 at 14336.
        const auto levels = all_levels(make_texture(kBc4, 8, 8, 12, 4, 1, 1, 16));
        CHECK(levels[3].layout.block_depth == 1);
        CHECK(levels[3].offset == 14336);
        CHECK(levels[3].size == 512);
        CHECK(levels[0].texture_size == 14848);
    }
    SECTION("BC4 16x16x4 with block depth 16: level 0 shrinks too") {
        // 4x4x4 blocks: 4 <= 8 -> 8, 4 <= 4 -> 4, 4 <= 2 no: bd 4. 32 B = 1 GOB: 512 * 4 = 2048. (Ryujinx
        // keeps level 0's block depth, for views of one slice of a larger 3D texture; docs/BLOCK_LINEAR.md.)
        const auto levels = all_levels(make_texture(kBc4, 16, 16, 4, 1, 1, 1, 16));
        CHECK(levels[0].layout.block_depth == 4);
        CHECK(levels[0].size == 2048);
    }
    SECTION("ASTC 4x4x4 16x16x16, block depth 4, 2 levels: depth counted in block slices") {
        //   L0 4x4x4 blocks: rows 4 -> bh 1; slices 4 <= 2 no -> bd 4. 64 B = 1 GOB: 512 * 4 = 2048.
        //   L1 8x8x8 texels = 2x2x2 blocks: 2 <= 2 -> bd 2, 2 <= 1 no: 512 * 2 = 1024 at 2048.
        const auto levels = all_levels(make_texture(kAstc4x4x4, 16, 16, 16, 2, 1, 1, 4));
        CHECK(levels[0].layout.block_depth == 4);
        CHECK(levels[0].size == 2048);
        CHECK(levels[1].layout.block_depth == 2);
        CHECK(levels[1].size == 1024);
        CHECK(levels[0].texture_size == 3072);
    }
}

// ---- errors ---------------------------------------------------------------------------------

TEST_CASE("block-linear levels: error statuses", "[block_linear][levels]") {
    const texdec_block_linear_texture good = make_texture(kBc7, 256, 256, 1, 9, 6, 16);
    texdec_block_linear_level out{};
    REQUIRE(texdec_block_linear_get_level(&good, 8, &out) == TEXDEC_SUCCESS);
    CHECK(texdec_block_linear_get_level(nullptr, 0, &out) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_block_linear_get_level(&good, 0, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    auto with = [&](auto change) {
        texdec_block_linear_texture t = good;
        change(t);
        return texdec_block_linear_get_level(&t, 0, &out);
    };
    const int dummy = 0;
    CHECK(with([&](auto& t) { t.next = &dummy; }) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(with([](auto& t) { t.format = static_cast<texdec_format>(0x7FFF0000); }) == TEXDEC_ERROR_UNKNOWN_FORMAT);
    CHECK(with([](auto& t) { t.width = 0; }) == TEXDEC_ERROR_INVALID_EXTENT);
    CHECK(with([](auto& t) { t.height = 0; }) == TEXDEC_ERROR_INVALID_EXTENT);
    CHECK(with([](auto& t) { t.depth = 0; }) == TEXDEC_ERROR_INVALID_EXTENT);
    CHECK(with([](auto& t) { t.mip_levels = 0; }) == TEXDEC_ERROR_INVALID_EXTENT);
    CHECK(with([](auto& t) { t.mip_levels = 33; }) == TEXDEC_ERROR_INVALID_EXTENT);
    CHECK(with([](auto& t) { t.array_layers = 0; }) == TEXDEC_ERROR_INVALID_EXTENT);
    CHECK(texdec_block_linear_get_level(&good, 9, &out) == TEXDEC_ERROR_INVALID_EXTENT);  // level == mip_levels
    CHECK(texdec_block_linear_get_level(&good, UINT32_MAX, &out) == TEXDEC_ERROR_INVALID_EXTENT);
    for (uint32_t bad : {0u, 3u, 6u, 64u, 0x80000000u}) {
        INFO("block height / depth " << bad);
        CHECK(with([&](auto& t) { t.block_height = bad; }) == TEXDEC_ERROR_INVALID_LAYOUT);
        CHECK(with([&](auto& t) { t.block_depth = bad; }) == TEXDEC_ERROR_INVALID_LAYOUT);
    }
    CHECK(with([](auto& t) { t.block_height = 32; }) == TEXDEC_SUCCESS);
    CHECK(with([](auto& t) { t.block_depth = 32; }) == TEXDEC_SUCCESS);
    CHECK(with([](auto& t) { t.depth = 2; }) == TEXDEC_ERROR_INVALID_LAYOUT);  // 3D with 6 layers
    CHECK(with([](auto& t) { t.depth = 2, t.array_layers = 1; }) == TEXDEC_SUCCESS);
    // A 3D footprint is a 3D texture even at depth 1: no layers (a layer_stride with such a format is
    // refused by the source layout, so the helper must not hand one out).
    CHECK(with([](auto& t) { t.format = TEXDEC_FORMAT_ASTC_4x4x4_UNORM, t.depth = 1; }) == TEXDEC_ERROR_INVALID_LAYOUT);
    CHECK(with([](auto& t) { t.format = TEXDEC_FORMAT_ASTC_4x4x4_UNORM, t.array_layers = 1; }) == TEXDEC_SUCCESS);
    // Sizes past 64 bits: one level of 2^30 x 2^30 BC7 blocks is 2^64 bytes; 262144 x 262144 BC7 is
    // 2^36 bytes a layer, times 2^28 layers is 2^64; a 3D ASTC 4x4x4 texture of 2^32 - 1 texels a side.
    CHECK(with([](auto& t) { t.width = t.height = UINT32_MAX, t.mip_levels = 1, t.array_layers = 1; }) ==
          TEXDEC_ERROR_SIZE_OVERFLOW);
    CHECK(with([](auto& t) { t.width = t.height = 262144, t.mip_levels = 1, t.array_layers = 0x10000000u; }) ==
          TEXDEC_ERROR_SIZE_OVERFLOW);
    CHECK(with([](auto& t) {
              t.format = TEXDEC_FORMAT_ASTC_4x4x4_UNORM;
              t.width = t.height = t.depth = UINT32_MAX, t.mip_levels = 1, t.array_layers = 1;
          }) == TEXDEC_ERROR_SIZE_OVERFLOW);
    // Just below: 2^27 layers = 2^63 bytes.
    CHECK(with([](auto& t) { t.width = t.height = 262144, t.mip_levels = 1, t.array_layers = 0x08000000u; }) ==
          TEXDEC_SUCCESS);
    CHECK(out.texture_size == (uint64_t(1) << 63));
}

// ---- end to end -----------------------------------------------------------------------------

namespace {

// Byte (x, y) of a GOB (x < 64, y < 8): texdec.h "source layouts" (the Tegra X1 TRM's formula).
uint64_t gob_offset(uint64_t x, uint64_t y) {
    return (x / 32) * 256 + (y / 2) * 64 + ((x % 32) / 16) * 32 + (y % 2) * 16 + x % 16;
}

// Byte offset of element (bx, by, bz) of a block-linear surface of cols x rows x (any) elements of
// `bytes` bytes with blocks of H x D GOBs: texdec.h's formula, written out independently of
// src/record.cpp and shaders/common/layout.glsl.
uint64_t element_offset(uint32_t bx, uint32_t by, uint32_t bz, uint32_t cols, uint32_t rows, uint32_t bytes, uint32_t H,
                        uint32_t D) {
    const uint64_t gobs_x = div_up(cols * bytes, 64), block_rows = div_up(rows, 8 * H), block = 512ull * H * D;
    const uint64_t x = uint64_t(bx) * bytes;
    return ((bz / D) * block_rows + by / (8 * H)) * gobs_x * block + (x / 64) * block + (bz % D) * 512ull * H +
           ((by / 8) % H) * 512 + gob_offset(x % 64, by % 8);
}

std::vector<uint8_t> read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    INFO(path);
    REQUIRE(in);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

// The test's own swizzle (above) against tegra_swizzle's vectors: every element of the linear file
// is where the formula puts it in the tiled file (2D BC surfaces and the 3D 33x33x33 one, block depth 16).
TEST_CASE("block-linear levels: the test's swizzle matches tegra_swizzle's vectors", "[block_linear][levels][corpus]") {
    const std::string root = corpus_root();
    if (root.empty()) return;
    struct Vector {
        const char* name;
        uint32_t cols, rows, slices, bytes, H, D;
    };
    // Parameters from the corpus README (tegra_swizzle @ 6fb9dfe).
    const Vector vectors[] = {{"64_bc7", 16, 16, 1, 16, 2, 1},        {"128_bc1", 32, 32, 1, 8, 4, 1},
                              {"128_bc3", 32, 32, 1, 16, 4, 1},       {"128_bc7", 32, 32, 1, 16, 4, 1},
                              {"256_bc7", 64, 64, 1, 16, 8, 1},       {"320_bc7", 80, 80, 1, 16, 8, 1},
                              {"512_bc7", 128, 128, 1, 16, 16, 1},    {"16_16_16_rgba", 16, 16, 16, 4, 1, 16},
                              {"33_33_33_rgba", 33, 33, 33, 4, 1, 16}};
    uint64_t elements = 0;
    for (const Vector& v : vectors) {
        INFO(v.name);
        const std::string dir = root + "/tegra_swizzle/block_linear/";
        const std::vector<uint8_t> linear = read_file(dir + v.name + ".bin"),
                                   tiled = read_file(dir + v.name + "_tiled.bin");
        REQUIRE(linear.size() == uint64_t(v.cols) * v.rows * v.slices * v.bytes);
        uint64_t mismatches = 0;
        for (uint32_t z = 0; z < v.slices; ++z)
            for (uint32_t y = 0; y < v.rows; ++y)
                for (uint32_t x = 0; x < v.cols; ++x) {
                    const uint64_t at = element_offset(x, y, z, v.cols, v.rows, v.bytes, v.H, v.D);
                    const uint64_t from = ((uint64_t(z) * v.rows + y) * v.cols + x) * v.bytes;
                    REQUIRE(at + v.bytes <= tiled.size());
                    if (std::memcmp(&tiled[at], &linear[from], v.bytes) != 0) ++mismatches;
                    ++elements;
                }
        CHECK(mismatches == 0);
    }
    WARN("tegra_swizzle vectors checked: " << std::size(vectors) << " surfaces, " << elements << " elements");
}

namespace {

// A block-linear texture built by the test: random blocks per layer and level (tight, linear) and
// the same blocks swizzled at the helper's offsets into a buffer of texture_size bytes that starts
// as filler.
struct BuiltTexture {
    texdec_block_linear_texture desc{};
    std::vector<texdec_block_linear_level> levels;
    std::vector<std::vector<uint8_t>> linear;  // per level: every layer's (or the 3D level's) blocks, tight
    std::vector<uint8_t> tiled;
};

BuiltTexture build(const BlockFormat& f, uint32_t w, uint32_t h, uint32_t d, uint32_t mips, uint32_t layers,
                   uint32_t bh, uint32_t bd, uint32_t seed) {
    BuiltTexture b;
    b.desc = make_texture(f, w, h, d, mips, layers, bh, bd);
    b.levels = all_levels(b.desc);
    b.tiled.assign(b.levels[0].texture_size, 0xA5);
    std::mt19937 rng(seed);
    const uint64_t stride = b.levels[0].layout.layer_stride;
    for (uint32_t l = 0; l < mips; ++l) {
        const texdec_block_linear_level& v = b.levels[l];
        const uint32_t cols = div_up(v.width, f.bw), rows = div_up(v.height, f.bh), slices = div_up(v.depth, f.bd);
        std::vector<uint8_t>& lin = b.linear.emplace_back(size_t(cols) * rows * slices * layers * f.bytes);
        for (auto& byte : lin) byte = uint8_t(rng());
        for (uint32_t layer = 0; layer < layers; ++layer)
            for (uint32_t z = 0; z < slices; ++z)
                for (uint32_t y = 0; y < rows; ++y)
                    for (uint32_t x = 0; x < cols; ++x) {
                        const uint64_t at =
                            element_offset(x, y, z, cols, rows, f.bytes, v.layout.block_height, v.layout.block_depth);
                        // Every block lies inside its level as the helper sized it.
                        REQUIRE(at + f.bytes <= v.size);
                        const uint64_t from = (((uint64_t(layer) * slices + z) * rows + y) * cols + x) * f.bytes;
                        std::memcpy(&b.tiled[v.offset + layer * stride + at], &lin[from], f.bytes);
                    }
    }
    return b;
}

using DecodeFn = texdec_status (*)(void*, const texdec_host_job&);

// Each level decoded from the tiled texture through the helper's layout, and from its linear blocks.
void decode_levels_and_compare(const BuiltTexture& b, const BlockFormat& f, void* ctx, DecodeFn decode) {
    const uint32_t layers = b.desc.array_layers;
    for (uint32_t l = 0; l < b.desc.mip_levels; ++l) {
        INFO("level " << l);
        const texdec_block_linear_level& v = b.levels[l];
        const uint32_t slices = layers > 1 ? layers : v.depth;  // a 2D level's layers are the job's slices
        texdec_host_job job{};
        job.format = f.format;
        job.output = TEXDEC_OUTPUT_RGBA8;
        job.width = v.width, job.height = v.height, job.depth = slices;
        std::vector<uint8_t> tiled_out(size_t(v.width) * v.height * slices * 4, 0x11);
        std::vector<uint8_t> linear_out(tiled_out.size(), 0x22);

        job.next = &v.layout;
        job.src = b.tiled.data() + v.offset;
        job.src_size = b.tiled.size() - v.offset;
        job.dst = tiled_out.data();
        job.dst_size = tiled_out.size();
        REQUIRE(decode(ctx, job) == TEXDEC_SUCCESS);

        job.next = nullptr;
        job.src = b.linear[l].data();
        job.src_size = b.linear[l].size();
        job.dst = linear_out.data();
        REQUIRE(decode(ctx, job) == TEXDEC_SUCCESS);
        const auto diff = std::mismatch(tiled_out.begin(), tiled_out.end(), linear_out.begin());
        INFO("first differing byte: " << (diff.first - tiled_out.begin()) << " of " << tiled_out.size());
        CHECK(diff.first == tiled_out.end());
    }
}

struct Case {
    const char* name;
    const BlockFormat* format;
    uint32_t w, h, d, mips, layers, bh, bd;
};
// BC1 72x40, 2 layers, 5 levels, block height 4: level 0 (10 rows) uses 2 GOBs, 18 blocks a row =
// 144 bytes = 3 GOBs (the last partly filled). BC7 200x136, 2 layers, 4 levels, block height 2: 3 rows
// of blocks at level 0, 13 GOBs a row; level 3 drops to 1 GOB. BC4 3D 24x16x10, 3 levels, block
// height 2, block depth 8: block depths 8, 8, 2.
const Case kCases[] = {{"BC1 72x40, 2 layers, 5 levels", &kBc1, 72, 40, 1, 5, 2, 4, 1},
                       {"BC7 200x136, 2 layers, 4 levels", &kBc7, 200, 136, 1, 4, 2, 2, 1},
                       {"BC4 3D 24x16x10, 3 levels", &kBc4, 24, 16, 10, 3, 1, 2, 8}};

}  // namespace

TEST_CASE("block-linear levels: mip chains decode at the helper's offsets (CPU context)",
          "[block_linear][levels][cpu]") {
    MessageLog log;
    texdec_context* ctx = create_cpu_context(log);
    for (const Case& c : kCases) {
        INFO(c.name);
        const BuiltTexture b = build(*c.format, c.w, c.h, c.d, c.mips, c.layers, c.bh, c.bd, 23);
        decode_levels_and_compare(b, *c.format, ctx, [](void* context, const texdec_host_job& job) {
            return texdec_decode(static_cast<texdec_context*>(context), &job);
        });
    }
    texdec_context_destroy(ctx);
    const auto errors = log.take_errors();
    CHECK(errors.empty());
}

TEST_CASE("block-linear levels: mip chains decode at the helper's offsets (GPU, mirrored on the CPU)",
          "[block_linear][levels][gpu]") {
    auto own = OwnContext::open(Backend::gpu);
    if (!own) return;
    for (const Case& c : kCases) {
        INFO(c.name);
        const BuiltTexture b = build(*c.format, c.w, c.h, c.d, c.mips, c.layers, c.bh, c.bd, 29);
        decode_levels_and_compare(b, *c.format, own.get(), [](void* context, const texdec_host_job& job) {
            return static_cast<OwnContext*>(context)->decode(job);
        });
    }
    own->close_and_check();
}

// The record path as docs/BLOCK_LINEAR.md's example drives it: one texdec_record_regions call with
// a region per level (src_offset = the level's offset, layer_count = the layers, next = the helper's
// layout) into a buffer, each level's texels equal to texdec_decode of its linear blocks.
TEST_CASE("block-linear levels: one region per level in one record call", "[block_linear][levels][gpu][regions]") {
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    for (const Case& c : kCases) {
        INFO(c.name);
        const BuiltTexture b = build(*c.format, c.w, c.h, c.d, c.mips, c.layers, c.bh, c.bd, 31);
        HostBuffer src = dev.create_buffer(b.tiled.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        std::memcpy(src.mapped, b.tiled.data(), b.tiled.size());
        std::vector<texdec_region> regions(c.mips);
        std::vector<VkDeviceSize> dst_offsets(c.mips);
        VkDeviceSize dst_size = 0;
        for (uint32_t l = 0; l < c.mips; ++l) {
            const texdec_block_linear_level& v = b.levels[l];
            texdec_region& r = regions[l];
            r.next = &v.layout;
            r.src_offset = v.offset;
            r.layer_count = c.layers;
            r.extent = {v.width, v.height, v.depth};
            r.dst_offset = dst_offsets[l] = dst_size;
            dst_size += uint64_t(v.width) * v.height * v.depth * c.layers * 4;
        }
        HostBuffer dst = dev.create_buffer(dst_size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        std::memset(dst.mapped, 0x5A, dst_size);
        texdec_record_barriers barriers{};
        barriers.src_stage_mask = VK_PIPELINE_STAGE_HOST_BIT;
        barriers.src_access_mask = VK_ACCESS_HOST_WRITE_BIT;
        barriers.dst_stage_mask = VK_PIPELINE_STAGE_HOST_BIT;
        barriers.dst_access_mask = VK_ACCESS_HOST_READ_BIT;
        const texdec_regions_job job =
            RegionsJobBuilder(c.format->format, TEXDEC_OUTPUT_RGBA8, src.buffer, b.tiled.size(), regions.data(), c.mips)
                .into_buffer(dst.buffer, dst_size)
                .barriers(&barriers);
        VkCommandBuffer cmd = dev.begin_commands();
        REQUIRE(texdec_record_regions(setup.ctx, cmd, &job) == TEXDEC_SUCCESS);
        dev.submit_and_wait(cmd);
        check_no_validation_messages(dev.log(), "record_regions");
        for (uint32_t l = 0; l < c.mips; ++l) {
            INFO("level " << l);
            const texdec_block_linear_level& v = b.levels[l];
            texdec_host_job host{};
            host.format = c.format->format;
            host.output = TEXDEC_OUTPUT_RGBA8;
            host.width = v.width, host.height = v.height, host.depth = c.layers > 1 ? c.layers : v.depth;
            host.src = b.linear[l].data();
            host.src_size = b.linear[l].size();
            std::vector<uint8_t> expected(size_t(v.width) * v.height * host.depth * 4);
            host.dst = expected.data();
            host.dst_size = expected.size();
            REQUIRE(texdec_decode(setup.ctx, &host) == TEXDEC_SUCCESS);
            const uint8_t* got = dst.mapped + dst_offsets[l];
            const auto diff = std::mismatch(expected.begin(), expected.end(), got);
            INFO("first differing byte: " << (diff.first - expected.begin()) << " of " << expected.size());
            CHECK(diff.first == expected.end());
        }
        dev.destroy(src);
        dev.destroy(dst);
    }
    setup.close();
}

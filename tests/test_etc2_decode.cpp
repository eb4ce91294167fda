// ETC2 colour formats (RGB8 incl. ETC1 data, RGB8A1 punch-through, RGBA8 with EAC alpha; UNORM and
// sRGB) against Mesa's desktop GL decoder (oracles/mesa_gl_oracle.h), tolerance 0 (docs/EXACTNESS.md
// "ETC1, ETC2 ..."). Mesa returns the 8-bit result v (sRGB bytes encoded); texdec's RGBA8 must be
// v, its RGBA16F the half nearest to v / 255 (bit patterns), NATIVE = RGBA8.
//
//   random:     random_block_count() blocks per format (>= 1,000,000 by default; the ASan run
//               lowers TEXDEC_TEST_RANDOM_BLOCKS), in chunks of 64 rows of 1024 blocks. 3 in 8
//               blocks are uniformly random bits; the others have their mode forced (individual,
//               T, H, planar, differential) with every other bit random.
//   boundaries: every (base, delta) pair of the R, G and B mode-selection fields (the T, H and
//               planar overflow boundaries) with bit 33 = 0 and 1 (punch-through: the missing
//               individual mode), H blocks with base colour 1 = / < / > base colour 2 (the
//               distance index's low bit), every mode with all pixel indices 2 (punch-through
//               transparency) and 0..3, planar blocks whose plane clamps below 0 and above 255.
//   spec:       the planar-mode worked example of the spec, texel by texel.
//   images:     the record path into storage images (RGBA8 through an R8G8B8A8_UNORM view, sRGB
//               formats included; RGBA16F): 37 x 23 texels at (3, 5) of layer 1, partial edge
//               blocks, every mode forced, a canary around the texels.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstring>
#include <functional>
#include <sstream>

#include "gpu/external_setup.h"
#include "gpu/gpu_fixture.h"
#include "oracles/astc_expected.h"  // half_from_unorm8
#include "oracles/mesa_gl_oracle.h"
#include "support/bc_formats.h"
#include "support/compare.h"     // fill_canary
#include "support/decode_and_compare.h"  // compare_rgba8_outputs
#include "support/etc_words.h"
#include "support/job_builder.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

struct Etc2Format {
    texdec_format format;
    const char* name;
    bool punch;       // RGB8A1: bit 33 is the opaque bit
    bool eac_alpha;   // RGBA8: 16-byte blocks, EAC alpha first
};
constexpr Etc2Format kFormats[] = {
    {TEXDEC_FORMAT_ETC2_R8G8B8_UNORM, "etc2-r8g8b8-unorm", false, false},
    {TEXDEC_FORMAT_ETC2_R8G8B8_SRGB, "etc2-r8g8b8-srgb", false, false},
    {TEXDEC_FORMAT_ETC2_R8G8B8A1_UNORM, "etc2-r8g8b8a1-unorm", true, false},
    {TEXDEC_FORMAT_ETC2_R8G8B8A1_SRGB, "etc2-r8g8b8a1-srgb", true, false},
    {TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM, "etc2-r8g8b8a8-unorm", false, true},
    {TEXDEC_FORMAT_ETC2_R8G8B8A8_SRGB, "etc2-r8g8b8a8-srgb", false, true},
};
const Etc2Format& format_of(texdec_format f) {
    for (const Etc2Format& e : kFormats)
        if (e.format == f) return e;
    throw std::logic_error("not an ETC2 colour format");
}

// Random bits, then the mode forced: individual (RGB8: D = 0; RGB8A1 has none: differential),
// differential (redrawn until every sum is in range), T/H/planar (select_mode).
EtcWord forced(SplitMix64& rng, EtcMode mode, bool punch) {
    EtcWord v = rng.next();
    switch (mode) {
    case EtcMode::individual:
        if (!punch) return v & ~(EtcWord{1} << 33);
        [[fallthrough]];
    case EtcMode::differential:
        if (!punch) v |= EtcWord{1} << 33;
        while (etc_mode_of(v, punch) != EtcMode::differential) v = etc_set_field(v, 40, 24, rng.next());
        return v;
    default:
        if (!etc_select_mode(v, mode, punch)) throw std::logic_error("select_mode failed");
        return v;
    }
}

// One block of `f`: the colour word, and for RGBA8 an EAC alpha word first.
void append_block(std::vector<uint8_t>& out, const Etc2Format& f, EtcWord colour, EtcWord alpha) {
    if (f.eac_alpha) etc_append_word(out, alpha);
    etc_append_word(out, colour);
}

// Decodes `blocks` (blocks_x x blocks_y blocks) with texdec (RGBA8, RGBA16F, NATIVE) and Mesa and
// counts the channels that differ.
void compare_with_mesa(OwnContext& ctx, const Etc2Format& f, const std::vector<uint8_t>& blocks, uint32_t blocks_x,
                       uint32_t blocks_y, bool with_native_output, Mismatch& m) {
    const uint32_t width = blocks_x * 4, height = blocks_y * 4;
    const size_t block_bytes = f.eac_alpha ? 16 : 8;
    REQUIRE(blocks.size() == size_t(blocks_x) * blocks_y * block_bytes);
    const std::vector<uint8_t> mesa = mesa_gl_decode_etc(f.format, width, height, blocks.data(), blocks.size());
    const std::vector<int> oracle(mesa.begin(), mesa.end());
    compare_rgba8_outputs(ctx, f.format, blocks, block_bytes, width, height, oracle, "Mesa", with_native_output, m);
}

constexpr uint32_t kRowBlocks = 1024;   // blocks per row
constexpr uint32_t kChunkRows = 64;     // rows per chunk: 65,536 blocks

void random_test(texdec_format format) {
    const Etc2Format& f = format_of(format);
    auto ctx = OwnContext::open();
    if (!ctx) return;
    const uint64_t seed = test_seed();
    const size_t total = random_block_count();
    INFO(f.name << ", seed " << seed << " (TEXDEC_TEST_SEED changes it), " << total << " blocks");
    SplitMix64 rng(seed ^ 0xE7C2 ^ (uint64_t(format) << 32));
    Mismatch m;
    const auto start = std::chrono::steady_clock::now();
    const EtcMode kForced[5] = {EtcMode::individual, EtcMode::t, EtcMode::h, EtcMode::planar, EtcMode::differential};
    size_t done = 0;
    bool first = true;
    while (done < total) {
        const uint32_t rows = uint32_t(std::min<size_t>(kChunkRows, (total - done) / kRowBlocks));
        std::vector<uint8_t> blocks;
        blocks.reserve(size_t(rows) * kRowBlocks * 16);
        for (size_t i = 0; i < size_t(rows) * kRowBlocks; ++i) {
            const uint32_t kind = uint32_t(i % 8);
            const EtcWord colour = kind < 3 ? rng.next() : forced(rng, kForced[kind - 3], f.punch);
            append_block(blocks, f, colour, rng.next());
        }
        compare_with_mesa(*ctx, f, blocks, kRowBlocks, rows, first, m);
        first = false;
        done += size_t(rows) * kRowBlocks;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    INFO(done << " blocks in " << seconds << " s; first mismatch: " << m.first);
    CHECK(m.count == 0);
    WARN(f.name << ": " << done << " random blocks vs Mesa in " << seconds << " s, " << m.count << " mismatches");
    ctx->close_and_check();
}

// The hand-built colour words (see the top of this file).
std::vector<EtcWord> boundary_words(bool punch, uint64_t seed) {
    SplitMix64 rng(seed ^ 0xB0DA);
    std::vector<EtcWord> out;
    const EtcWord fills[3] = {0, ~EtcWord{0}, 0};
    // Every (base, delta) of each mode-selection field, the other two fields in range.
    for (int channel = 0; channel < 3; ++channel)
        for (int base = 0; base < 32; ++base)
            for (int delta = 0; delta < 8; ++delta)
                for (int bit33 = 0; bit33 < 2; ++bit33)
                    for (int fill = 0; fill < 3; ++fill) {
                        EtcWord v = fill == 2 ? rng.next() : fills[fill];
                        for (int other = 0; other < 3; ++other) {  // 16 + 0: in range
                            v = etc_set_field(v, 59 - 8 * other, 5, 16);
                            v = etc_set_field(v, 56 - 8 * other, 3, 0);
                        }
                        v = etc_set_field(v, 59 - 8 * channel, 5, uint64_t(base));
                        v = etc_set_field(v, 56 - 8 * channel, 3, uint64_t(delta));
                        v = etc_set_field(v, 33, 1, uint64_t(bit33));
                        out.push_back(v);
                    }
    // H mode: base colours equal, one apart either way, random; distance bits all 4 values.
    for (int rel = 0; rel < 4; ++rel)
        for (int d = 0; d < 4; ++d)
            for (int op = 0; op < 2; ++op)
                for (int rep = 0; rep < 8; ++rep) {
                    EtcWord v = rng.next();
                    const uint64_t c2 = rng.next() & 0xFFF;  // R2 G2 B2
                    uint64_t c1 = c2;
                    if (rel == 1 && c2 < 0xFFF) c1 = c2 + 1;
                    if (rel == 2 && c2 > 0) c1 = c2 - 1;
                    if (rel == 3) c1 = rng.next() & 0xFFF;
                    const int r1 = int(c1 >> 8), g1 = int((c1 >> 4) & 15), b1 = int(c1 & 15);
                    v = etc_set_field(v, 59, 4, uint64_t(r1));
                    v = etc_set_field(v, 56, 3, uint64_t(g1 >> 1));
                    v = etc_set_field(v, 52, 1, uint64_t(g1 & 1));
                    v = etc_set_field(v, 51, 1, uint64_t(b1 >> 3));
                    v = etc_set_field(v, 47, 3, uint64_t(b1 & 7));
                    v = etc_set_field(v, 35, 12, c2);
                    v = etc_set_field(v, 34, 1, uint64_t(d >> 1));
                    v = etc_set_field(v, 32, 1, uint64_t(d & 1));
                    v = etc_set_field(v, 33, 1, uint64_t(op));
                    if (etc_select_mode(v, EtcMode::h, punch)) out.push_back(v);
                }
    // Every mode with every pixel index the same (index 2: punch-through transparency), opaque 0/1.
    const EtcMode modes[5] = {EtcMode::individual, EtcMode::differential, EtcMode::t, EtcMode::h, EtcMode::planar};
    for (EtcMode mode : modes)
        for (int index = 0; index < 4; ++index)
            for (int op = 0; op < 2; ++op)
                for (int rep = 0; rep < 4; ++rep) {
                    EtcWord v = forced(rng, mode, punch);
                    if (punch) {
                        v = etc_set_field(v, 33, 1, uint64_t(op));
                        if (etc_mode_of(v, punch) != mode && !(mode == EtcMode::individual)) continue;
                    }
                    if (mode != EtcMode::planar)
                        v = etc_set_field(v, 0, 32, (index & 2 ? 0xFFFF0000u : 0) | (index & 1 ? 0xFFFFu : 0));
                    out.push_back(v);
                }
    // Planar blocks whose plane leaves [0, 255] at the far corner: O = 0, H = V = max, and back.
    for (int dir = 0; dir < 2; ++dir)
        for (int rep = 0; rep < 16; ++rep) {
            EtcWord v = rng.next();
            const uint64_t o6 = dir ? 63 : 0, o7 = dir ? 127 : 0, e6 = dir ? 0 : 63, e7 = dir ? 0 : 127;
            v = etc_set_field(v, 57, 6, o6);  // R
            v = etc_set_field(v, 56, 1, o7 >> 6);
            v = etc_set_field(v, 49, 6, o7 & 63);  // G
            v = etc_set_field(v, 48, 1, o6 >> 5);
            v = etc_set_field(v, 43, 2, (o6 >> 3) & 3);
            v = etc_set_field(v, 39, 3, o6 & 7);  // B
            v = etc_set_field(v, 34, 5, e6 >> 1);
            v = etc_set_field(v, 32, 1, e6 & 1);                    // Rh
            v = etc_set_field(v, 25, 7, e7);                        // Gh
            v = etc_set_field(v, 19, 6, e6);                        // Bh
            v = etc_set_field(v, 13, 6, e6);                        // Rv
            v = etc_set_field(v, 6, 7, e7);                         // Gv
            v = etc_set_field(v, 0, 6, e6);                         // Bv
            if (rep >= 8) v = etc_set_field(v, 0, 32, rng.next());  // partly random plane
            if (etc_select_mode(v, EtcMode::planar, punch)) out.push_back(v);
        }
    return out;
}

}  // namespace

TEST_CASE("etc2: random blocks match Mesa (ETC2_R8G8B8_UNORM)", "[etc2][random][gpu]") { random_test(TEXDEC_FORMAT_ETC2_R8G8B8_UNORM); }
TEST_CASE("etc2: random blocks match Mesa (ETC2_R8G8B8_SRGB)", "[etc2][random][gpu]") { random_test(TEXDEC_FORMAT_ETC2_R8G8B8_SRGB); }
TEST_CASE("etc2: random blocks match Mesa (ETC2_R8G8B8A1_UNORM)", "[etc2][random][gpu]") { random_test(TEXDEC_FORMAT_ETC2_R8G8B8A1_UNORM); }
TEST_CASE("etc2: random blocks match Mesa (ETC2_R8G8B8A1_SRGB)", "[etc2][random][gpu]") { random_test(TEXDEC_FORMAT_ETC2_R8G8B8A1_SRGB); }
TEST_CASE("etc2: random blocks match Mesa (ETC2_R8G8B8A8_UNORM)", "[etc2][random][gpu]") { random_test(TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM); }
TEST_CASE("etc2: random blocks match Mesa (ETC2_R8G8B8A8_SRGB)", "[etc2][random][gpu]") { random_test(TEXDEC_FORMAT_ETC2_R8G8B8A8_SRGB); }

TEST_CASE("etc2: mode-boundary blocks (T/H/planar overflow, H ordering, punch-through) match Mesa", "[etc2][gpu]") {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    for (const Etc2Format& f : kFormats) {
        INFO(f.name);
        SplitMix64 rng(test_seed() ^ 0xA1FA);
        const std::vector<EtcWord> words = boundary_words(f.punch, test_seed());
        std::vector<uint8_t> blocks;
        size_t n = 0;
        for (EtcWord w : words) {
            append_block(blocks, f, w, rng.next());
            ++n;
        }
        while (n % 256) {
            append_block(blocks, f, rng.next(), rng.next());
            ++n;
        }
        INFO(words.size() << " boundary blocks");
        Mismatch m;
        compare_with_mesa(*ctx, f, blocks, 256, uint32_t(n / 256), true, m);
        INFO("first mismatch: " << m.first);
        CHECK(m.count == 0);
    }
    ctx->close_and_check();
}

TEST_CASE("etc2: the spec's planar-mode example", "[etc2][gpu]") {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    EtcWord v = etc_spec_planar_example();
    REQUIRE(etc_select_mode(v, EtcMode::planar, false));
    const auto& expected = kEtcSpecPlanarTexels;  // the spec's table
    std::vector<uint8_t> block;
    etc_append_word(block, v);
    std::vector<uint8_t> out(64);
    const texdec_host_job job =
        JobBuilder(TEXDEC_FORMAT_ETC2_R8G8B8_UNORM, TEXDEC_OUTPUT_RGBA8, 4, 4).blocks(block).texels(out);
    REQUIRE(ctx->decode(job) == TEXDEC_SUCCESS);
    const std::vector<uint8_t> mesa = mesa_gl_decode_etc(TEXDEC_FORMAT_ETC2_R8G8B8_UNORM, 4, 4, block.data(), 8);
    for (int i = 0; i < 16; ++i) {
        INFO("texel " << i);
        for (int c = 0; c < 3; ++c) {
            CHECK(out[size_t(4 * i + c)] == expected[i][c]);
            CHECK(mesa[size_t(4 * i + c)] == expected[i][c]);
        }
        CHECK(out[size_t(4 * i + 3)] == 255);
    }
    ctx->close_and_check();
}

TEST_CASE("etc2: record path into RGBA8 and RGBA16F storage images matches Mesa", "[etc2][external][gpu]") {
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    constexpr uint32_t kW = 37, kH = 23, kBx = (kW + 3) / 4, kBy = (kH + 3) / 4, kX0 = 3, kY0 = 5, kLayer = 1;
    constexpr uint32_t iw = kW + kX0 + 2, ih = kH + kY0 + 1, layers = 2;
    const EtcMode modes[5] = {EtcMode::individual, EtcMode::differential, EtcMode::t, EtcMode::h, EtcMode::planar};
    for (const Etc2Format& f : kFormats) {
        INFO(f.name);
        SplitMix64 rng(test_seed() ^ 0x1A6E ^ uint64_t(f.format));
        std::vector<uint8_t> blocks;
        for (uint32_t i = 0; i < kBx * kBy; ++i) append_block(blocks, f, forced(rng, modes[i % 5], f.punch), rng.next());
        const std::vector<uint8_t> mesa = mesa_gl_decode_etc(f.format, kBx * 4, kBy * 4, blocks.data(), blocks.size());
        StagedSource src = create_staged_source(dev, blocks);
        VkCommandBuffer cmd = dev.begin_commands();
        record_upload(cmd, src);
        std::vector<ImageTarget> targets;
        for (bool half : {false, true}) {
            const VkFormat format = half ? VK_FORMAT_R16G16B16A16_SFLOAT : VK_FORMAT_R8G8B8A8_UNORM;
            RecordJob job{.format = f.format,
                          .output = half ? TEXDEC_OUTPUT_RGBA16F : TEXDEC_OUTPUT_RGBA8,
                          .barriers = true,
                          .width = kW,
                          .height = kH,
                          .depth = 1,
                          .src_buffer = src.buffer.buffer,
                          .src_size = blocks.size()};
            targets.push_back(
                record_to_canary_image(setup, cmd, job, format, iw, ih, layers, half ? 8 : 4, kX0, kY0, kLayer));
        }
        host_read_barrier(cmd);
        dev.submit_and_wait(cmd);
        check_no_validation_messages(dev.log(), "recording and running the ETC2 image decodes");
        for (ImageTarget& t : targets) {
            const bool half = t.output == TEXDEC_OUTPUT_RGBA16F;
            size_t mismatches = 0;
            std::string first;
            const size_t clobbered =
                visit_window(t.image, kX0, kY0, kLayer, kW, kH, [&](uint32_t x, uint32_t y, const uint8_t* texel) {
                    const size_t m = (size_t(y) * kBx * 4 + x) * 4;
                    for (uint32_t c = 0; c < 4; ++c) {
                        uint16_t got = texel[c], want = mesa[m + c];
                        if (half) {
                            std::memcpy(&got, texel + 2 * c, 2);
                            want = half_from_unorm8(mesa[m + c]);
                        }
                        if (got != want && mismatches++ == 0) {
                            std::ostringstream o;
                            o << "texel (" << x << "," << y << ") channel " << c << ": texdec " << got << " Mesa "
                              << want;
                            first = o.str();
                        }
                    }
                });
            INFO((half ? "RGBA16F" : "RGBA8") << " image: " << mismatches << " mismatches, first: " << first << "; "
                                              << clobbered << " canary texels changed");
            CHECK(mismatches == 0);
            CHECK(clobbered == 0);
            destroy(dev, t.image);
        }
        destroy(dev, src);
    }
    setup.close();
}

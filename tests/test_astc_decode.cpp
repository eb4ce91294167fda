// Acceptance tests of the ASTC 2D LDR / sRGB decoder (TEXDEC_FORMAT_ASTC_<W>x<H>_UNORM / _SRGB),
// through the public one-call API only (texdec_decode), tolerance 0, every one of the 14 2D
// footprints, both profiles, outputs RGBA8, RGBA16F and NATIVE (= RGBA8 for these formats):
//
//   expected values: oracles/astc_expected.h (libastcenc 4.2, modelled per docs/EXACTNESS.md:
//     RGBA8 = decode_unorm8; linear RGBA16F = astcenc's FP16 with the HDR-endpoint partitions
//     set to (1.0, 0, 1.0, 1.0); sRGB RGBA16F = half(v/255) of the RGBA8 bytes, error texels
//     magenta (1.0, 0, 1.0, 1.0), never NaN, as KDFS "ASTC error colors" gives for the sRGB
//     operation mode where astcenc 4.2 gives 0xFFFF); Mesa GL (oracles/mesa_gl_oracle.h) as a second oracle for RGBA8, except
//     void extents with reserved bits != 11b, which Mesa decodes (docs/EXACTNESS.md: astcenc is right).
//
//   ASTC astcenc CLI images: <profile>      (a) a procedural 131x97 image encoded by the astcenc CLI
//                                               (-cl / -cs, -medium) at every footprint;
//   ASTC random blocks: <WxH>               (b) astc_random_block_count() blocks per footprint and
//                                               profile (default 200,704): 5/8 uniformly random
//                                               128-bit patterns (nearly all error blocks), 3/16 a
//                                               legal block mode with random bits above, 1/16 a
//                                               legal one-partition mode with an HDR endpoint mode,
//                                               1/16 built by the block builder, 1/16 void extents;
//                                               RGBA8 and RGBA16F on every block, NATIVE and Mesa
//                                               on the first 32,768 (lavapipe run time);
//   ASTC structured blocks: <WxH>           (c) blocks from support/astc_block_builder: every legal
//                                               block mode of the footprint (each with several
//                                               partitionings and CEMs), every CEM 0..15 with 1..4
//                                               partitions in both CEM encodings, every partition
//                                               seed for 2, 3 and 4 partitions, dual plane with
//                                               each CCS, void extents (legal LDR, HDR, bad
//                                               reserved bits, min >= max, all-ones), and illegal
//                                               blocks (grid too large, weight bit counts out of
//                                               24..96, > 64 weights, dual plane with 4
//                                               partitions, > 18 colour values, too few colour bits);
//   ASTC extents and source row length: <profile>
//                                               13x11, 1x1 and (2w+3)x(h+1) extents per footprint,
//                                               the last with a source row length past the extent
//                                               and a padded destination row pitch.
//
// On a mismatch every test prints the first mismatching blocks (hex), the texel, expected and
// actual values, and how many texels/blocks differ.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/gpu_fixture.h"
#include "oracles/astc_expected.h"
#include "oracles/astcenc_oracle.h"
#include "oracles/mesa_gl_oracle.h"
#include "support/astc_block_builder.h"
#include "support/astc_random_blocks.h"
#include "support/astc_test_support.h"
#include "support/compare.h"  // canary bytes
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

constexpr texdec_output kOutputs[] = {TEXDEC_OUTPUT_RGBA8, TEXDEC_OUTPUT_RGBA16F, TEXDEC_OUTPUT_NATIVE};

const char* output_name(texdec_output o) {
    return o == TEXDEC_OUTPUT_RGBA8 ? "RGBA8" : o == TEXDEC_OUTPUT_RGBA16F ? "RGBA16F" : "NATIVE";
}

// Compares one decoded output with an expectation texel by texel; records the first few
// mismatching blocks. `expected` is tight (w x h texels of texel_bytes).
// `skip_block(bx, by)`: blocks not vouched for by this expectation (Mesa's known quirk).
template <typename Skip>
void compare(AstcComparison& cmp, const AstcSourceImage& img, const std::vector<uint8_t>& tight,
             const std::vector<AstcBlockKind>& kinds, const uint8_t* actual, size_t row_pitch, const uint8_t* expected,
             unsigned texel_bytes, Skip skip_block) {
    const AstcFootprint fp = img.fp;
    for (unsigned by = 0; by < img.block_rows(); ++by)
        for (unsigned bx = 0; bx < img.block_cols(); ++bx) {
            if (skip_block(bx, by)) continue;
            bool block_differs = false;
            for (unsigned y = 0; y < fp.y; ++y)
                for (unsigned x = 0; x < fp.x; ++x) {
                    const unsigned ix = bx * fp.x + x, iy = by * fp.y + y;
                    if (ix >= img.w || iy >= img.h) continue;
                    ++cmp.texels;
                    const uint8_t* a = actual + iy * row_pitch + size_t(ix) * texel_bytes;
                    const uint8_t* e = expected + (size_t(iy) * img.w + ix) * texel_bytes;
                    if (std::memcmp(a, e, texel_bytes) == 0) continue;
                    ++cmp.mismatching_texels;
                    if (!block_differs && cmp.examples.size() < 8) {
                        const size_t bi = size_t(by) * img.block_cols() + bx;
                        std::ostringstream os;
                        os << cmp.label << ": block (" << bx << "," << by << ") " << astc_hex(&tight[bi * 16])
                           << astc_kind_name(kinds[bi]) << ": texel (" << x << "," << y << ") expected "
                           << astc_texel_string(e, texel_bytes) << " actual " << astc_texel_string(a, texel_bytes);
                        cmp.examples.push_back(os.str());
                    }
                    block_differs = true;
                }
            cmp.mismatching_blocks += block_differs;
        }
}

// texdec_decode of `img` into a canary-filled buffer with row pitch w * texel + extra_row_bytes,
// 256 guard bytes after it. REQUIREs success; CHECKs that no byte outside the texels changed.
std::vector<uint8_t> texdec_decode_image(OwnContext& ctx, AstcProfile profile, const AstcSourceImage& img,
                                         texdec_output output, size_t extra_row_bytes, size_t* row_pitch_out) {
    const texdec_format format = astc_texdec_format(img.fp, profile);
    uint32_t texel_bytes = 0;
    REQUIRE(texdec_output_texel_size(format, output, &texel_bytes) == TEXDEC_SUCCESS);
    REQUIRE(texel_bytes == (output == TEXDEC_OUTPUT_RGBA16F ? 8u : 4u));
    *row_pitch_out = size_t(img.w) * texel_bytes + extra_row_bytes;
    return astc_decode_padded(
        ctx, format, output, img, texel_bytes, extra_row_bytes,
        std::string(astc_profile_name(profile)) + " " + astc_fp_name(img.fp) + ", " + output_name(output));
}

struct CheckOptions {
    bool mesa = false;    // also compare RGBA8 with Mesa GL
    bool native = true;   // also decode NATIVE (must equal RGBA8 byte for byte)
    size_t extra_row_bytes = 0;
};

// Decodes `img` with every output and compares: RGBA8 and NATIVE with the astcenc model (and Mesa
// when asked), RGBA16F with the astcenc model, NATIVE with RGBA8 byte for byte.
AstcExpected check_image(OwnContext& ctx, AstcProfile profile, const AstcSourceImage& img, const std::string& what,
                         const CheckOptions& opt) {
    const std::vector<uint8_t> tight = img.tight();
    AstcExpected exp = astc_expected_outputs(profile, img.fp, img.w, img.h, tight.data(), tight.size());

    for (const auto& a : exp.anomalies) UNSCOPED_INFO("astcenc anomaly: " << a);
    CHECK(exp.anomalies.empty());
    const std::string prefix = what + " " + astc_profile_name(profile) + " " + astc_fp_name(img.fp) + " " +
                               std::to_string(img.w) + "x" + std::to_string(img.h);
    const size_t blocks = exp.kind.size();
    auto none = [](unsigned, unsigned) { return false; };
    std::vector<uint8_t> rgba8;
    size_t rgba8_pitch = 0;
    for (texdec_output output : kOutputs) {
        if (output == TEXDEC_OUTPUT_NATIVE && !opt.native) continue;
        size_t pitch = 0;
        const std::vector<uint8_t> got = texdec_decode_image(ctx, profile, img, output, opt.extra_row_bytes, &pitch);
        const unsigned tb = output == TEXDEC_OUTPUT_RGBA16F ? 8 : 4;
        AstcComparison c{prefix + " " + output_name(output) + " vs astcenc"};
        const uint8_t* expected = output == TEXDEC_OUTPUT_RGBA16F ? reinterpret_cast<const uint8_t*>(exp.rgba16f.data())
                                                                  : exp.rgba8.data();
        compare(c, img, tight, exp.kind, got.data(), pitch, expected, tb, none);
        astc_report(c, blocks);
        if (output == TEXDEC_OUTPUT_RGBA8) {
            rgba8 = got, rgba8_pitch = pitch;
            if (opt.mesa) {
                const std::vector<uint8_t> mesa =
                    mesa_gl_decode_astc_rgba8(profile, img.fp, img.w, img.h, tight.data(), tight.size());
                AstcComparison m{prefix + " RGBA8 vs Mesa GL"};
                // docs/EXACTNESS.md: Mesa decodes void extents whose reserved bits are not 11b (error blocks).
                compare(m, img, tight, exp.kind, got.data(), pitch, mesa.data(), 4, [&](unsigned bx, unsigned by) {
                    const uint8_t* b = &tight[(size_t(by) * img.block_cols() + bx) * 16];
                    return astc_is_void_extent(b) && !astc_void_extent_reserved_ok(b);
                });
                astc_report(m, blocks);
            }
        }
        if (output == TEXDEC_OUTPUT_NATIVE) {
            bool same = true;
            for (unsigned y = 0; y < img.h && same; ++y)
                same = std::memcmp(&got[y * pitch], &rgba8[y * rgba8_pitch], size_t(img.w) * 4) == 0;
            INFO(prefix << ": NATIVE must equal RGBA8 byte for byte");
            CHECK(same);
        }
    }
    return exp;
}

void check_format_outputs(AstcFootprint fp, AstcProfile profile) {
    const texdec_format format = astc_texdec_format(fp, profile);
    texdec_format_info info{};
    REQUIRE(texdec_format_get_info(format, &info) == TEXDEC_SUCCESS);
    INFO(info.name);
    CHECK(info.block_width == fp.x);
    CHECK(info.block_height == fp.y);
    CHECK(info.family == TEXDEC_FAMILY_ASTC);
    CHECK(bool(info.flags & TEXDEC_FORMAT_FLAG_SRGB) == (profile == AstcProfile::ldr_srgb));
    CHECK((info.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED) != 0);
    VkFormat vk = VK_FORMAT_UNDEFINED;
    REQUIRE(texdec_output_vk_format(format, TEXDEC_OUTPUT_NATIVE, &vk) == TEXDEC_SUCCESS);
    CHECK(vk == (profile == AstcProfile::ldr ? VK_FORMAT_R8G8B8A8_UNORM : VK_FORMAT_R8G8B8A8_SRGB));
    REQUIRE(texdec_output_vk_format(format, TEXDEC_OUTPUT_RGBA8, &vk) == TEXDEC_SUCCESS);
    CHECK(vk == (profile == AstcProfile::ldr ? VK_FORMAT_R8G8B8A8_UNORM : VK_FORMAT_R8G8B8A8_SRGB));
    REQUIRE(texdec_output_vk_format(format, TEXDEC_OUTPUT_RGBA16F, &vk) == TEXDEC_SUCCESS);
    CHECK(vk == VK_FORMAT_R16G16B16A16_SFLOAT);
}

// ---- (b) random blocks ----------------------------------------------------------------------

void run_random_blocks(AstcFootprint fp) {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    bool use_mesa = false;
    if (!astc_mesa_ready_or_waived(use_mesa)) return;
    const size_t count = astc_random_block_count();
    INFO("seed " << test_seed() << " (TEXDEC_TEST_SEED changes it), " << count
                 << " blocks per profile (TEXDEC_TEST_RANDOM_BLOCKS scales it)");
    const std::vector<uint32_t> modes = astc_legal_block_modes_2d(fp.x, fp.y);
    REQUIRE(!modes.empty());
    constexpr unsigned kBlocksX = 256, kChunkRows = 128;  // 32,768 blocks per decode
    for (AstcProfile profile : {AstcProfile::ldr, AstcProfile::ldr_srgb}) {
        SplitMix64 rng(astc_fp_seed(fp, uint64_t(profile) + 0x5A5A0000));
        const std::vector<uint8_t> all = astc_random_ldr_test_blocks(fp, modes, count, rng);
        AstcStats stats;
        const unsigned rows = unsigned(count / kBlocksX);
        for (unsigned row = 0; row < rows; row += kChunkRows) {
            const AstcSourceImage img = astc_block_rows_image(fp, all, kBlocksX, row, std::min(kChunkRows, rows - row));
            CheckOptions opt;
            // astcenc on every block for RGBA8 and RGBA16F; Mesa and NATIVE (the same bytes as RGBA8
            // for these formats, checked in full by the other ASTC tests) on the first 32,768 blocks,
            // to keep the run time on lavapipe modest.
            opt.native = row == 0;
            opt.mesa = use_mesa && row == 0;
            stats.add(check_image(*ctx, profile, img, "random blocks", opt));
        }
        std::printf("[astc random] %s %-5s: %zu blocks: %zu error, %zu legal void extents, %zu with an HDR endpoint "
                    "mode (%zu mixed with LDR partitions), %zu decoded normally\n",
                    astc_profile_name(profile), astc_fp_name(fp).c_str(), stats.blocks, stats.error,
                    stats.void_extents, stats.hdr, stats.mixed,
                    stats.blocks - stats.error - stats.void_extents - stats.hdr);
        CHECK(stats.blocks == count);
        CHECK(stats.error > count / 2);                                    // mostly error blocks
        CHECK(stats.blocks - stats.error - stats.void_extents > count / 16);  // a real share decodes
        CHECK(stats.void_extents > 0);
        CHECK(stats.hdr > 0);
    }
    ctx->close_and_check();
}

// ---- (c) structured blocks ------------------------------------------------------------------

AstcStructuredSet build_structured(AstcFootprint fp, SplitMix64& rng) {
    AstcStructuredSet set;
    const std::vector<uint32_t> modes = astc_legal_block_modes_2d(fp.x, fp.y);
    set.legal_modes = modes.size();
    auto add_spec = [&](const std::optional<AstcBlockSpec>& spec, const std::string& g) {
        if (!spec) return false;
        const AstcBlock b = astc_build_random_block(*spec, fp.x, fp.y, rng);
        set.add(b, 0, g);
        if (spec->partitions == 1) set.cems_single.insert(spec->cem[0]);
        else if (spec->shared_cem) set.cems_shared_form.insert(spec->cem[0]);
        else for (unsigned p = 0; p < spec->partitions; ++p) set.cems_per_partition_form.insert(spec->cem[p]);
        if (spec->partitions > 1) set.seeds[spec->partitions].insert(spec->partition_seed);
        if (astc_parse_block_mode_2d(spec->block_mode)->dual_plane) set.ccs_seen.insert(spec->ccs);
        const AstcBlockPlan plan = astc_plan_block(*spec, fp.x, fp.y);
        set.colour_levels.insert(plan.colour_range.levels());
        set.weight_ranges.insert(plan.mode.weight_range);
        return true;
    };
    // 1. Every legal block mode (weight grid that fits, every weight range, dual plane on/off):
    //    one partition with CEM 0 (always legal: the widest colour range), then random
    //    partitionings and CEMs, then every CCS for dual-plane modes.
    for (uint32_t mode : modes) {
        AstcSpecRequest one;
        one.block_mode = int(mode), one.partitions = 1, one.cem = 0;
        REQUIRE(add_spec(astc_random_legal_spec(modes, fp.x, fp.y, one, rng), "block mode, CEM 0"));
        ++set.modes_covered;
        for (int k = 0; k < 3; ++k) {
            AstcSpecRequest any;
            any.block_mode = int(mode);
            add_spec(astc_random_legal_spec(modes, fp.x, fp.y, any, rng, 64), "block mode, random partitioning");
        }
        if (astc_parse_block_mode_2d(mode)->dual_plane)
            for (int ccs = 0; ccs < 4; ++ccs) {
                AstcSpecRequest dual;
                dual.block_mode = int(mode), dual.ccs = ccs;
                add_spec(astc_random_legal_spec(modes, fp.x, fp.y, dual, rng, 64), "block mode, dual plane CCS");
            }
    }
    // 2. Every CEM with 1..4 partitions, in both multi-partition encodings.
    for (const AstcSpecRequest& q : astc_cem_partition_requests(12))
        add_spec(astc_random_legal_spec(modes, fp.x, fp.y, q, rng), "CEM x partitions");
    // 3. Every partition seed for 2, 3 and 4 partitions.
    for (int partitions = 2; partitions <= 4; ++partitions)
        for (int seed = 0; seed < 1024; ++seed) {
            AstcSpecRequest q;
            q.partitions = partitions, q.seed = seed;
            add_spec(astc_random_legal_spec(modes, fp.x, fp.y, q, rng), "partition seed");
        }
    // 4. Dual plane, every CCS, 1..3 partitions.
    for (int ccs = 0; ccs < 4; ++ccs)
        for (int partitions = 1; partitions <= 3; ++partitions)
            for (int k = 0; k < 16; ++k) {
                AstcSpecRequest q;
                q.dual_plane = 1, q.ccs = ccs, q.partitions = partitions;
                add_spec(astc_random_legal_spec(modes, fp.x, fp.y, q, rng), "dual plane CCS");
            }
    // 5. Void extents.
    static const uint16_t kColours[] = {0x0000, 0xFFFF, 0x8000, 0x7FFF, 0x00FF, 0xFF00, 0x8080, 0x0080, 0xFF7F, 0x0001};
    auto random_colour = [&](AstcVoidExtent& v) {
        for (auto& c : v.rgba) c = rng.next() % 2 ? kColours[rng.next() % 10] : uint16_t(rng.next());
    };
    for (int k = 0; k < 96; ++k) {  // legal LDR, constant colour (all-ones coordinates)
        AstcVoidExtent v;
        random_colour(v);
        set.add(astc_build_void_extent(v), 0, "void extent: all-ones");
    }
    for (int k = 0; k < 64; ++k) {  // legal LDR with a real extent (min < max)
        AstcVoidExtent v;
        random_colour(v);
        v.min_s = unsigned(rng.next() % 0x1FFF), v.max_s = v.min_s + 1 + unsigned(rng.next() % (0x1FFF - v.min_s));
        v.min_t = unsigned(rng.next() % 0x1FFF), v.max_t = v.min_t + 1 + unsigned(rng.next() % (0x1FFF - v.min_t));
        if (k == 0) v.min_s = v.min_t = 0, v.max_s = v.max_t = 0x1FFF;
        set.add(astc_build_void_extent(v), 0, "void extent: min < max");
    }
    for (int k = 0; k < 32; ++k) {  // HDR flag: error colour in an LDR profile
        AstcVoidExtent v;
        v.hdr = true;
        random_colour(v);
        if (k % 2) v.min_s = 10, v.max_s = 20, v.min_t = 0, v.max_t = 5;
        set.add(astc_build_void_extent(v), 1, "void extent: HDR");
    }
    for (unsigned reserved = 0; reserved < 3; ++reserved)  // reserved bits != 11b: error
        for (int k = 0; k < 8; ++k) {
            AstcVoidExtent v;
            v.reserved = reserved;
            v.hdr = k == 7;
            random_colour(v);
            if (k % 2) v.min_s = 1, v.max_s = 2, v.min_t = 3, v.max_t = 4;
            set.add(astc_build_void_extent(v), 1, "void extent: reserved bits");
        }
    for (int k = 0; k < 40; ++k) {  // min >= max on some axis (not all all-ones): error
        AstcVoidExtent v;
        random_colour(v);
        v.min_s = 100, v.max_s = 200, v.min_t = 300, v.max_t = 400;
        switch (k % 5) {
        case 0: v.max_s = v.min_s; break;
        case 1: v.max_t = v.min_t - 1; break;
        case 2: v.min_s = v.max_s = 0x1FFF; break;                       // s all-ones, t a real extent
        case 3: v.min_s = v.max_s = v.min_t = 0x1FFF; v.max_t = 0x1FFE; break;
        default: v.min_s = 0x1FFF, v.max_s = 0, v.min_t = 0, v.max_t = 0x1FFF; break;
        }
        set.add(astc_build_void_extent(v), 1, "void extent: min >= max");
    }
    // 6. Illegal blocks: every parseable block mode that does not fit the footprint (grid too
    //    large, > 64 weights, weight bits outside 24..96), with weights written where they fit;
    //    reserved block modes; dual plane with 4 partitions; too many colour values; too few
    //    colour bits.
    for (uint32_t mode = 0; mode < 2048; ++mode) {
        const auto m = astc_parse_block_mode_2d(mode);
        if (m && astc_block_mode_fits(*m, fp.x, fp.y)) continue;
        AstcBlock b;
        if (m) {
            AstcBlockSpec s;
            s.block_mode = mode;
            s.partitions = 1 + unsigned(rng.next() % (m->dual_plane ? 3 : 4));
            s.partition_seed = unsigned(rng.next() % 1024);
            const unsigned cem = unsigned(rng.next() % 16);
            for (auto& c : s.cem) c = cem;
            const unsigned levels = astc_weight_range(m->weight_range).levels();
            s.weights.resize(astc_weight_count(*m));
            for (auto& w : s.weights) w = unsigned(rng.next() % levels);
            b = astc_build_block(s, fp.x, fp.y, &rng, true);
            set.add(b, 1, "illegal: block mode does not fit");
        } else if (mode != 0x1FC && (mode & 0x1FF) != 0x1FC) {
            b = astc_random_bits_block(rng);
            set_block_bits(b.data(), 0, 11, mode);
            set.add(b, 1, "illegal: reserved block mode");
        }
    }
    for (int k = 0; k < 64; ++k) {
        // Dual plane with 4 partitions.
        AstcSpecRequest q;
        q.dual_plane = 1, q.partitions = 3;
        auto spec = astc_random_legal_spec(modes, fp.x, fp.y, q, rng);
        if (spec) {
            spec->partitions = 4;
            spec->cem[3] = spec->cem[0];
            if (!spec->shared_cem) spec->cem[3] = spec->cem[0];
            const AstcBlockPlan plan = astc_plan_block(*spec, fp.x, fp.y);
            REQUIRE(!plan.legal);
            set.add(astc_build_block(*spec, fp.x, fp.y, &rng, true), 1, "illegal: dual plane, 4 partitions");
        }
        // More than 18 colour values (3 or 4 partitions of class 3 / 2), or too few colour bits.
        AstcBlockSpec s;
        s.block_mode = modes[rng.next() % modes.size()];
        s.partitions = 3 + unsigned(rng.next() % 2);
        s.partition_seed = unsigned(rng.next() % 1024);
        const unsigned cem = (s.partitions == 3 ? 12 : 8) + unsigned(rng.next() % 4);
        for (auto& c : s.cem) c = cem;
        if (astc_parse_block_mode_2d(s.block_mode)->dual_plane) s.partitions = 3, s.cem[0] = s.cem[1] = s.cem[2] = 12;
        const AstcBlockPlan plan = astc_plan_block(s, fp.x, fp.y);
        REQUIRE(!plan.legal);
        set.add(astc_build_block(s, fp.x, fp.y, &rng, true), 1, "illegal: too many colour values");
    }
    {
        // Too few colour bits: the mode with the most weight bits, 2 partitions of CEM 12 (16 values).
        uint32_t widest = modes[0];
        for (uint32_t m : modes)
            if (astc_weight_bits(*astc_parse_block_mode_2d(m)) > astc_weight_bits(*astc_parse_block_mode_2d(widest)))
                widest = m;
        for (int k = 0; k < 16; ++k) {
            AstcBlockSpec s;
            s.block_mode = widest;
            s.partitions = 2;
            s.partition_seed = unsigned(rng.next() % 1024);
            s.cem[0] = s.cem[1] = 12 + unsigned(k % 2);
            const AstcBlockPlan plan = astc_plan_block(s, fp.x, fp.y);
            if (plan.legal) break;  // the footprint's widest mode still leaves room: nothing to add
            set.add(astc_build_block(s, fp.x, fp.y, &rng, true), 1, "illegal: too few colour bits");
        }
    }
    return set;
}

void run_structured_blocks(AstcFootprint fp) {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    bool use_mesa = false;
    if (!astc_mesa_ready_or_waived(use_mesa)) return;
    INFO("seed " << test_seed() << " (TEXDEC_TEST_SEED changes it)");
    SplitMix64 rng(astc_fp_seed(fp, 0x57C0));
    AstcStructuredSet set = build_structured(fp, rng);
    // Coverage of the set itself.
    CHECK(set.modes_covered == set.legal_modes);
    CHECK(set.cems_single.size() == 16);
    CHECK(set.cems_shared_form.size() == 16);
    CHECK(set.cems_per_partition_form.size() == 16);
    for (int p = 2; p <= 4; ++p) CHECK(set.seeds[p].size() == 1024);
    CHECK(set.ccs_seen.size() == 4);
    CHECK(set.weight_ranges.size() == kAstcWeightRangeCount);                  // 0..1 up to 0..31
    CHECK(set.colour_levels.size() == astc_colour_ranges_descending().size());  // 0..5 up to 0..255
    // Pad to whole rows of 64 blocks with CEM-0 blocks of the first mode.
    constexpr unsigned kBlocksX = 64;
    while (set.blocks.size() % kBlocksX) set.add(set.blocks.front(), -1, "padding");
    AstcSourceImage img;
    img.fp = fp;
    img.w = kBlocksX * fp.x;
    img.h = unsigned(set.blocks.size() / kBlocksX) * fp.y;
    for (const auto& b : set.blocks) img.data.insert(img.data.end(), b.begin(), b.end());
    for (AstcProfile profile : {AstcProfile::ldr, AstcProfile::ldr_srgb}) {
        CheckOptions opt;
        opt.mesa = use_mesa;
        const AstcExpected exp = check_image(*ctx, profile, img, "structured blocks", opt);
        // The builder's idea of legality agrees with astcenc (an oracle-side sanity check that the
        // structured blocks are what they claim to be).
        size_t disagree = 0;
        std::vector<std::string> examples;
        for (size_t i = 0; i < set.blocks.size(); ++i) {
            if (set.expect_error[i] < 0) continue;
            const bool error = exp.kind[i] == AstcBlockKind::error;
            if (error != (set.expect_error[i] == 1)) {
                if (++disagree <= 6)
                    examples.push_back(set.group[i] + ": " + astc_hex(set.blocks[i].data()) + " builder says " +
                                       (set.expect_error[i] ? "error" : "legal") + ", astcenc " + (error ? "error" : "decodes"));
            }
        }
        for (const auto& e : examples) UNSCOPED_INFO(e);
        INFO(astc_profile_name(profile) << " " << astc_fp_name(fp) << ": builder legality vs astcenc, " << disagree
                                        << " disagree");
        CHECK(disagree == 0);
        std::printf("[astc structured] %s %-5s: %zu blocks (%zu legal block modes): %zu error, %zu legal void "
                    "extents, %zu with an HDR endpoint mode (%zu mixed)\n",
                    astc_profile_name(profile), astc_fp_name(fp).c_str(), set.blocks.size(), set.legal_modes,
                    exp.error_blocks, exp.void_extents, exp.hdr_endpoint_blocks, exp.mixed_hdr_ldr_blocks);
        CHECK(exp.hdr_endpoint_blocks > 0);
        CHECK(exp.mixed_hdr_ldr_blocks > 0);
    }
    ctx->close_and_check();
}

// ---- (a) images encoded by the astcenc CLI --------------------------------------------------

void run_cli_images(AstcProfile profile) {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    bool use_mesa = false;
    if (!astc_mesa_ready_or_waived(use_mesa)) return;
    constexpr unsigned kW = 131, kH = 97;
    const std::vector<AstcEncoded> encoded = astcenc_cli_encode_all(profile, kW, kH, "-medium");
    const auto& fps = astc_2d_footprints();
    for (size_t i = 0; i < fps.size(); ++i) {
        INFO(astc_profile_name(profile) << " " << astc_fp_name(fps[i]));
        check_format_outputs(fps[i], profile);
        REQUIRE(encoded[i].error.empty());
        REQUIRE(encoded[i].w == kW);
        REQUIRE(encoded[i].h == kH);
        AstcSourceImage img;
        img.fp = fps[i];
        img.w = kW, img.h = kH;
        img.data = encoded[i].blocks;
        CheckOptions opt;
        opt.mesa = use_mesa;
        const AstcExpected exp = check_image(*ctx, profile, img, "astcenc CLI image", opt);
        CHECK(exp.error_blocks == 0);
        CHECK(exp.hdr_endpoint_blocks == 0);
    }
    ctx->close_and_check();
}

// ---- extents and layouts --------------------------------------------------------------------

void run_extents(AstcProfile profile) {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    bool use_mesa = false;
    if (!astc_mesa_ready_or_waived(use_mesa)) return;
    INFO("seed " << test_seed());
    for (const AstcFootprint& fp : astc_2d_footprints()) {
        SplitMix64 rng(astc_fp_seed(fp, 0xED6E + unsigned(profile)));
        const std::vector<uint32_t> modes = astc_legal_block_modes_2d(fp.x, fp.y);
        for (const AstcExtentCase& c : astc_extent_cases(fp)) {
            // Mostly legal builder blocks (real colours at the edges), some void extents and random patterns.
            const AstcSourceImage img = astc_extent_image(fp, c, [&] {
                const unsigned r = unsigned(rng.next() % 8);
                if (r < 5) return astc_random_legal_block(fp, modes, {}, rng);
                if (r == 5) return astc_build_void_extent(astc_random_void_extent(rng));
                return astc_random_bits_block(rng);
            });
            CheckOptions opt;
            opt.mesa = use_mesa;
            opt.extra_row_bytes = c.extra_row_bytes;
            INFO("extent " << c.w << "x" << c.h << ", source row length " << c.row_length << ", destination row padding "
                           << c.extra_row_bytes);
            check_image(*ctx, profile, img, "extent", opt);
        }
    }
    ctx->close_and_check();
}

}  // namespace

TEST_CASE("ASTC astcenc CLI images: LDR", "[astc][gpu]") { run_cli_images(AstcProfile::ldr); }
TEST_CASE("ASTC astcenc CLI images: sRGB", "[astc][gpu]") { run_cli_images(AstcProfile::ldr_srgb); }

TEST_CASE("ASTC extents and source row length: LDR", "[astc][gpu]") { run_extents(AstcProfile::ldr); }
TEST_CASE("ASTC extents and source row length: sRGB", "[astc][gpu]") { run_extents(AstcProfile::ldr_srgb); }

#define ASTC_FOOTPRINT_TESTS(X, Y)                                                                                  \
    TEST_CASE("ASTC random blocks: " #X "x" #Y, "[astc][gpu][random]") { run_random_blocks(astc_footprint(X, Y)); } \
    TEST_CASE("ASTC structured blocks: " #X "x" #Y, "[astc][gpu]") { run_structured_blocks(astc_footprint(X, Y)); }

TEXDEC_ASTC_2D_FOOTPRINTS(ASTC_FOOTPRINT_TESTS)

// Acceptance tests of the ASTC 2D HDR decoder (TEXDEC_FORMAT_ASTC_<W>x<H>_SFLOAT: the HDR operation
// mode, every block decoded to FP16), through the public one-call API (texdec_decode), every one
// of the 14 2D footprints, outputs RGBA16F and NATIVE (= RGBA16F for these formats, byte for byte).
//
//   expected values: libastcenc 4.2 in the HDR profile (ASTCENC_PRF_HDR, oracles/astcenc_oracle.h),
//     its FP16 output bit for bit, tolerance 0. What 4.2 gives there (measured) is what the spec
//     defines: HDR endpoint modes 2, 3, 7, 11, 14, 15 ("HDR Endpoint Decoding", the pseudo-log
//     interpolation of "Weight Application" with +Inf/NaN -> 0x7BFF), LDR endpoint modes and LDR
//     void extents as decode_float16 (UNORM16 -> FP16 round-to-zero, 0xFFFF -> 1.0), mode 14's
//     LDR alpha in an HDR block, HDR void extents' FP16 values as stored, and 0xFFFF in all four
//     channels for invalid blocks. One case the spec leaves undefined (Inf/NaN in an HDR void
//     extent): 4.2 returns the values as stored, except that signalling NaNs come back quiet
//     (bit 9 set); texdec does the same, and the structured test holds every such value.
//
//   ASTC HDR astcenc CLI images: ...        a procedural 131x97 OpenEXR image (support/astcenc_cli.h)
//                                            encoded by the astcenc CLI at every footprint with -ch
//                                            (HDR RGB, LDR alpha: mode 14) and -cH (HDR RGBA:
//                                            modes 2, 3, 7, 11, 15), -medium;
//   ASTC HDR random blocks: <WxH>            astc_random_block_count() blocks (200,704 by default,
//                                            like the LDR tests): 1/4 uniformly random bits, 1/8 a
//                                            legal block mode with random bits above, 1/4 a legal
//                                            one-partition mode with an HDR endpoint mode and random
//                                            values, 1/4 built by the block builder (any endpoint
//                                            modes / an HDR one for partition 0, 1..4 partitions,
//                                            dual plane), 1/8 void extents (HDR with random and
//                                            special FP16 colours, LDR, bad ones);
//   ASTC HDR structured blocks: <WxH>        every HDR endpoint mode with every value of its mode
//                                            fields (mode 3's M, mode 7's modeval, modes 11/14/15's
//                                            major component x bit mode, mode 15's alpha mode) and
//                                            both endpoint orders of mode 2, at colour range 0..255
//                                            (random, all-zero and all-one other bits); every
//                                            endpoint mode 0..15 with 1..4 partitions in both CEM
//                                            forms at random ranges (HDR and LDR partitions mixed);
//                                            dual plane with each CCS for each HDR mode; HDR void
//                                            extents holding every special FP16 value (+-0,
//                                            subnormals, +-max, +-Inf, quiet and signalling NaNs)
//                                            in every channel; LDR void extents in the HDR profile;
//                                            bad void extents (reserved bits, min >= max) with
//                                            either range flag; error blocks (reserved and
//                                            unfitting block modes, dual plane with 4 partitions,
//                                            too many colour values);
//   ASTC HDR extents and source row length   13x11, 1x1 and (2w+3)x(h+1) extents per footprint, the
//                                            last with a source row length past the extent and a
//                                            padded destination row pitch;
//   ASTC HDR record path                     texdec_record_regions on the test's own device: 2 slices,
//                                            a source offset, row length and image height past the
//                                            extent, into a buffer (padded rows and slices) and into
//                                            an R16G16B16A16_SFLOAT 2D-array storage image at an
//                                            origin from layer 1, one command buffer per footprint;
//                                            the image holds whatever NaN the driver's float -> half
//                                            conversion gives where a NaN is expected, any NaN is
//                                            accepted there (the buffer must hold the exact bits);
//   ASTC HDR formats: outputs                the -sfloat rows: NATIVE = R16G16B16A16_SFLOAT (8 bytes),
//                                            RGBA8 refused with TEXDEC_ERROR_UNSUPPORTED_OUTPUT.
//
// On a mismatch every test prints the first mismatching blocks (hex), the texel, expected and
// actual FP16 bits, and how many texels/blocks differ.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <future>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/external_setup.h"
#include "gpu/gpu_fixture.h"
#include "oracles/astcenc_oracle.h"
#include "support/astc_block_builder.h"
#include "support/astc_random_blocks.h"
#include "support/astc_test_support.h"
#include "support/astcenc_cli.h"
#include "support/compare.h"  // canary bytes
#include "support/job_builder.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

// FP16 values an HDR void extent must pass through (or, for signalling NaNs, make quiet).
constexpr uint16_t kSpecialHalves[] = {
    0x0000, 0x8000,          // +-0
    0x0001, 0x03FF, 0x8001,  // subnormals
    0x0400, 0x3C00, 0xBC00,  // smallest normal, +-1
    0x7BFF, 0xFBFF,          // +-max
    0x7C00, 0xFC00,          // +-Inf
    0x7E00, 0xFE00, 0x7FFF, 0xFFFF,  // quiet NaNs
    0x7C01, 0x7D55, 0xFC01, 0xFDFF,  // signalling NaNs
};

uint16_t random_half(SplitMix64& rng) {
    const unsigned k = unsigned(rng.next() % 4);
    return k == 0 ? kSpecialHalves[rng.next() % std::size(kSpecialHalves)] : uint16_t(rng.next());
}

AstcVoidExtent random_void_extent(SplitMix64& rng, bool hdr) {
    AstcVoidExtent v;
    v.hdr = hdr;
    const unsigned r = unsigned(rng.next() % 16);
    if (r < 2) v.reserved = unsigned(rng.next() % 3);  // bad reserved bits: error
    if (r >= 2 && r < 6) {                              // real extents (min < max, mostly)
        v.min_s = unsigned(rng.next() % 0x1FFF), v.max_s = unsigned(rng.next() % 0x2000);
        v.min_t = unsigned(rng.next() % 0x1FFF), v.max_t = unsigned(rng.next() % 0x2000);
    }
    for (auto& c : v.rgba) c = hdr ? random_half(rng) : astc_random_void_extent_channel(rng);
    return v;
}

// ---- decoding and comparing -----------------------------------------------------------------

// texdec_decode of `img` (RGBA16F or NATIVE) into a canary-filled buffer with row pitch
// w * 8 + extra_row_bytes and 256 guard bytes; REQUIREs success, CHECKs that nothing outside the
// texels changed. Returns the texels tightly packed (w * h * 4 halves).
std::vector<uint16_t> texdec_decode_hdr(OwnContext& ctx, const AstcSourceImage& img, texdec_output output,
                                        size_t extra_row_bytes = 0) {
    const texdec_format format = astc_texdec_format(img.fp, AstcProfile::hdr);
    const size_t row_pitch = size_t(img.w) * 8 + extra_row_bytes;
    const std::vector<uint8_t> dst = astc_decode_padded(
        ctx, format, output, img, 8, extra_row_bytes,
        astc_fp_name(img.fp) + " sfloat, " + (output == TEXDEC_OUTPUT_NATIVE ? "NATIVE" : "RGBA16F"));
    std::vector<uint16_t> out(size_t(img.w) * img.h * 4);
    for (unsigned y = 0; y < img.h; ++y) std::memcpy(&out[size_t(y) * img.w * 4], &dst[y * row_pitch], size_t(img.w) * 8);
    return out;
}

std::string halves(const uint16_t* p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%04x,%04x,%04x,%04x", p[0], p[1], p[2], p[3]);
    return buf;
}

// Compares decoded texels with the expectation (both tight, w * h * 4 halves), block by block.
void compare(const std::string& label, const AstcSourceImage& img, const std::vector<uint8_t>& tight,
             const std::vector<uint16_t>& expected, const std::vector<uint16_t>& actual) {
    size_t texels = 0, bad_texels = 0, bad_blocks = 0;
    std::vector<std::string> examples;
    const AstcFootprint fp = img.fp;
    for (unsigned by = 0; by < img.block_rows(); ++by)
        for (unsigned bx = 0; bx < img.block_cols(); ++bx) {
            bool differs = false;
            for (unsigned y = 0; y < fp.y; ++y)
                for (unsigned x = 0; x < fp.x; ++x) {
                    const unsigned ix = bx * fp.x + x, iy = by * fp.y + y;
                    if (ix >= img.w || iy >= img.h) continue;
                    ++texels;
                    const size_t t = (size_t(iy) * img.w + ix) * 4;
                    if (std::memcmp(&expected[t], &actual[t], 8) == 0) continue;
                    ++bad_texels;
                    if (!differs && examples.size() < 8) {
                        std::ostringstream os;
                        os << label << ": block (" << bx << "," << by << ") "
                           << astc_hex(&tight[(size_t(by) * img.block_cols() + bx) * 16]) << ": texel (" << x << "," << y
                           << ") expected " << halves(&expected[t]) << " actual " << halves(&actual[t]);
                        examples.push_back(os.str());
                    }
                    differs = true;
                }
            bad_blocks += differs;
        }
    for (const auto& e : examples) {
        UNSCOPED_INFO(e);
        std::printf("MISMATCH %s\n", e.c_str());
    }
    CHECK(texels == size_t(img.w) * img.h);
    INFO(label << ": " << bad_texels << " of " << texels << " texels differ, in " << bad_blocks << " of "
               << size_t(img.block_cols()) * img.block_rows() << " blocks");
    CHECK(bad_texels == 0);
}

struct CheckResult {
    std::vector<uint16_t> expected;
    size_t error_blocks = 0;  // blocks whose every texel is 0xFFFF x 4 in astcenc's output
};

// Decodes `img` as RGBA16F (and NATIVE, which must give the same bytes) and compares with astcenc.
CheckResult check_image(OwnContext& ctx, const AstcSourceImage& img, const std::string& what, bool native = true,
                        size_t extra_row_bytes = 0) {
    const std::vector<uint8_t> tight = img.tight();
    CheckResult r;
    r.expected = astcenc_decode_f16(AstcProfile::hdr, img.fp, img.w, img.h, 1, tight.data(), tight.size());
    const std::string prefix = what + " " + astc_fp_name(img.fp) + " " + std::to_string(img.w) + "x" + std::to_string(img.h);
    const std::vector<uint16_t> got = texdec_decode_hdr(ctx, img, TEXDEC_OUTPUT_RGBA16F, extra_row_bytes);
    compare(prefix + " RGBA16F vs astcenc", img, tight, r.expected, got);
    if (native) {
        const std::vector<uint16_t> nat = texdec_decode_hdr(ctx, img, TEXDEC_OUTPUT_NATIVE, extra_row_bytes);
        INFO(prefix << ": NATIVE must equal RGBA16F byte for byte");
        CHECK(nat == got);
    }
    for (unsigned by = 0; by < img.block_rows(); ++by)
        for (unsigned bx = 0; bx < img.block_cols(); ++bx) {
            const size_t t = ((size_t(by) * img.fp.y) * img.w + size_t(bx) * img.fp.x) * 4;  // first texel
            bool all = true;
            for (int c = 0; c < 4; ++c) all &= r.expected[t + c] == 0xFFFF;
            r.error_blocks += all;
        }
    return r;
}

AstcSourceImage image_of_blocks(AstcFootprint fp, const std::vector<AstcBlock>& blocks, unsigned blocks_x) {
    AstcSourceImage img;
    img.fp = fp;
    img.w = blocks_x * fp.x;
    img.h = unsigned((blocks.size() + blocks_x - 1) / blocks_x) * fp.y;
    for (size_t i = 0; i < size_t(img.block_cols()) * img.block_rows(); ++i) {
        const AstcBlock& b = blocks[i < blocks.size() ? i : 0];  // pad with the first block
        img.data.insert(img.data.end(), b.begin(), b.end());
    }
    return img;
}

// ---- (a) images encoded by the astcenc CLI --------------------------------------------------

void run_cli_images(bool hdr_alpha) {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    const std::string why = astcenc_cli_unavailable_reason();
    INFO(why);
    REQUIRE(why.empty());
    constexpr unsigned kW = 131, kH = 97;
    AstcTempDir dir;
    const auto exr = dir.path / "hdr.exr";
    REQUIRE(write_procedural_exr(exr, kW, kH) == "");
    const auto& fps = astc_2d_footprints();
    std::vector<std::future<std::string>> jobs;
    for (size_t i = 0; i < fps.size(); ++i)
        jobs.push_back(std::async(std::launch::async, [&, i] {
            return astcenc_cli_encode_hdr(hdr_alpha, exr, dir.path / (astc_fp_name(fps[i]) + ".astc"), fps[i], "-medium");
        }));
    for (auto& j : jobs) {
        const std::string e = j.get();
        INFO(e);
        REQUIRE(e.empty());
    }
    std::set<unsigned> cems;
    size_t void_extents = 0, hdr_void_extents = 0;
    for (size_t i = 0; i < fps.size(); ++i) {
        INFO((hdr_alpha ? "-cH " : "-ch ") << astc_fp_name(fps[i]));
        const AstcFileContents f = read_astc_file(dir.path / (astc_fp_name(fps[i]) + ".astc"));
        REQUIRE(f.error.empty());
        REQUIRE((f.w == kW && f.h == kH && f.d == 1));
        AstcSourceImage img;
        img.fp = fps[i];
        img.w = kW, img.h = kH;
        img.data = f.blocks;
        const CheckResult r = check_image(*ctx, img, hdr_alpha ? "astcenc -cH image" : "astcenc -ch image");
        CHECK(r.error_blocks == 0);
        for (size_t b = 0; b < img.data.size(); b += 16) {
            const AstcBlockSummary s = astcenc_block_summary(AstcProfile::hdr, fps[i], &img.data[b]);
            if (s.is_constant) {
                ++void_extents;
                hdr_void_extents += astc_get_bits(&img.data[b], 9, 1);
            }
            for (unsigned p = 0; p < s.partition_count && p < 4; ++p) cems.insert(s.cem[p]);
        }
    }
    std::string used;
    for (unsigned c : cems) used += " " + std::to_string(c);
    std::printf("[astc hdr cli] %s: endpoint modes used:%s; %zu void extents (%zu HDR)\n", hdr_alpha ? "-cH" : "-ch",
                used.c_str(), void_extents, hdr_void_extents);
    // What each encoder is expected to exercise (measured with astcenc 4.2 on this image).
    INFO("endpoint modes used:" << used);
    if (hdr_alpha) {
        for (unsigned c : {2u, 3u, 7u, 11u, 15u}) CHECK(cems.count(c));
    } else {
        for (unsigned c : {3u, 7u, 11u, 14u}) CHECK(cems.count(c));
    }
    CHECK(hdr_void_extents > 0);
    ctx->close_and_check();
}

// ---- (b) random blocks ----------------------------------------------------------------------

void run_random_blocks(AstcFootprint fp) {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    const size_t count = astc_random_block_count();
    INFO("seed " << test_seed() << " (TEXDEC_TEST_SEED changes it), " << count
                 << " blocks (TEXDEC_TEST_RANDOM_BLOCKS scales it)");
    const std::vector<uint32_t> modes = astc_legal_block_modes_2d(fp.x, fp.y);
    REQUIRE(!modes.empty());
    SplitMix64 rng(astc_fp_seed(fp, 0x4D12A000));
    std::vector<uint8_t> all(count * 16);
    size_t hdr_built = 0, hdr_one_partition = 0, void_hdr = 0;
    for (size_t i = 0; i < count; ++i) {
        AstcBlock b = astc_random_bits_block(rng);
        const unsigned r = unsigned(rng.next() % 16);
        if (r >= 4 && r < 6) {
            astc_set_random_mode(b, modes, rng);  // legal mode, random above
        } else if (r >= 6 && r < 10) {
            astc_set_one_partition_hdr_mode(b, modes, rng);  // the colour values are random bits
            ++hdr_one_partition;
        } else if (r >= 10 && r < 14) {
            AstcSpecRequest q;
            if (r >= 12) q.cem = int(kAstcHdrCems[rng.next() % 6]), ++hdr_built;
            b = astc_random_legal_block(fp, modes, q, rng);
        } else if (r >= 14) {
            const bool hdr = r == 14 || rng.next() % 2;
            void_hdr += hdr;
            b = astc_build_void_extent(random_void_extent(rng, hdr));
        }
        std::memcpy(&all[i * 16], b.data(), 16);
    }
    constexpr unsigned kBlocksX = 256, kChunkRows = 128;  // 32,768 blocks per decode
    const unsigned rows = unsigned(count / kBlocksX);
    size_t errors = 0;
    for (unsigned row = 0; row < rows; row += kChunkRows) {
        const AstcSourceImage img = astc_block_rows_image(fp, all, kBlocksX, row, std::min(kChunkRows, rows - row));
        // NATIVE (the same pipeline as RGBA16F for these formats) on the first 32,768 blocks only.
        errors += check_image(*ctx, img, "random blocks", row == 0).error_blocks;
    }
    std::printf("[astc hdr random] %-5s: %zu blocks: %zu error (0xFFFF x 4), %zu one-partition HDR-mode patterns, "
                "%zu builder blocks with an HDR mode, %zu HDR void extents\n",
                astc_fp_name(fp).c_str(), count, errors, hdr_one_partition, hdr_built, void_hdr);
    CHECK(errors > count / 8);            // a good share of error blocks ...
    CHECK(errors < count - count / 4);    // ... and a good share that decodes
    ctx->close_and_check();
}

// ---- (c) structured blocks ------------------------------------------------------------------

struct StructuredSet {
    std::vector<AstcBlock> blocks;
    std::vector<int> expect_error;  // 1: the spec makes it an error block, 0: it decodes, -1: either
    std::vector<std::string> group;
    std::map<unsigned, std::set<unsigned>> fields_seen;  // HDR CEM -> field combinations at range 0..255
    std::set<unsigned> mode2_orders;                     // 0: v1 >= v0, 1: v1 < v0
    std::set<std::pair<unsigned, unsigned>> cem_partitions;
    std::set<unsigned> hdr_ccs;
    size_t mixed_hdr_ldr = 0;
    std::set<uint16_t> hdr_void_halves;
    void add(const AstcBlock& b, int err, const std::string& g) {
        blocks.push_back(b), expect_error.push_back(err), group.push_back(g);
    }
};

// The field combination of an HDR mode's values, as one number (see AstcHdrField).
unsigned hdr_fields(unsigned cem, const unsigned* v) {
    switch (cem) {
    case 2: return v[1] < v[0] ? 1u : 0u;
    case 3: return astc_hdr_field(AstcHdrField::mode3_m, v);
    case 7: return astc_hdr_field(AstcHdrField::mode7_modeval, v);
    case 11:
    case 14:
        return astc_hdr_field(AstcHdrField::mode11_majcomp, v) << 3 | astc_hdr_field(AstcHdrField::mode11_mode, v);
    default:  // 15
        return (astc_hdr_field(AstcHdrField::mode11_majcomp, v) << 3 | astc_hdr_field(AstcHdrField::mode11_mode, v)) << 2 |
               astc_hdr_field(AstcHdrField::mode15_alpha_mode, v);
    }
}
unsigned hdr_field_combinations(unsigned cem) { return cem == 2 ? 2 : cem == 3 ? 2 : cem == 7 ? 16 : cem == 15 ? 128 : 32; }

// Writes combination `k` (as hdr_fields numbers it) into the values of an HDR mode.
void set_hdr_fields(unsigned cem, unsigned k, unsigned* v) {
    switch (cem) {
    case 2:
        if ((v[1] < v[0]) != (k == 1)) std::swap(v[0], v[1]);
        if (k == 1 && v[0] == v[1]) {  // equal values are order 0: make v1 < v0
            if (v[0] == 255) --v[1];
            else ++v[0];
        }
        break;
    case 3: astc_set_hdr_field(AstcHdrField::mode3_m, v, k); break;
    case 7: astc_set_hdr_field(AstcHdrField::mode7_modeval, v, k); break;
    case 11:
    case 14:
        astc_set_hdr_field(AstcHdrField::mode11_majcomp, v, k >> 3);
        astc_set_hdr_field(AstcHdrField::mode11_mode, v, k & 7);
        break;
    default:
        astc_set_hdr_field(AstcHdrField::mode11_majcomp, v, k >> 5);
        astc_set_hdr_field(AstcHdrField::mode11_mode, v, (k >> 2) & 7);
        astc_set_hdr_field(AstcHdrField::mode15_alpha_mode, v, k & 3);
        break;
    }
}

StructuredSet build_structured(AstcFootprint fp, SplitMix64& rng) {
    StructuredSet set;
    const std::vector<uint32_t> modes = astc_legal_block_modes_2d(fp.x, fp.y);
    auto record_spec = [&](const AstcBlockSpec& spec, const AstcBlockPlan& plan) {
        bool hdr = false, ldr = false;
        for (unsigned p = 0; p < spec.partitions; ++p) {
            const unsigned cem = spec.cem[p];
            (astc_cem_is_hdr_mode(cem) ? hdr : ldr) = true;
            set.cem_partitions.insert({cem, spec.partitions});
        }
        set.mixed_hdr_ldr += hdr && ldr;
        if (hdr && plan.mode.dual_plane) set.hdr_ccs.insert(spec.ccs);
        if (plan.colour_range.levels() == 256 && spec.partitions == 1 && astc_cem_is_hdr_mode(spec.cem[0])) {
            set.fields_seen[spec.cem[0]].insert(hdr_fields(spec.cem[0], spec.colours.data()));
            if (spec.cem[0] == 2) set.mode2_orders.insert(hdr_fields(2, spec.colours.data()));
        }
    };
    // Builds a block from `spec` with random weights and the given colour values (random when empty).
    auto add_spec = [&](AstcBlockSpec spec, std::vector<unsigned> colours, const std::string& g) {
        const AstcBlockPlan plan = astc_plan_block(spec, fp.x, fp.y);
        REQUIRE(plan.legal);
        const unsigned levels = astc_weight_range(plan.mode.weight_range).levels();
        spec.weights.resize(plan.weight_count);
        for (auto& w : spec.weights) w = unsigned(rng.next() % levels);
        if (colours.empty()) {
            colours.resize(plan.colour_value_count);
            for (auto& c : colours) c = unsigned(rng.next() % plan.colour_range.levels());
        }
        REQUIRE(colours.size() == plan.colour_value_count);
        spec.colours = colours;
        record_spec(spec, plan);
        set.add(astc_build_block(spec, fp.x, fp.y, &rng), 0, g);
    };

    // 1. Every HDR endpoint mode with every combination of its mode fields, colour range 0..255
    //    (one partition): random other bits, then all zero, then all one (clamps and saturation).
    for (unsigned cem : kAstcHdrCems) {
        AstcSpecRequest q;
        q.partitions = 1, q.cem = int(cem), q.colour_levels = 256;
        for (unsigned k = 0; k < hdr_field_combinations(cem); ++k)
            for (int variant = 0; variant < 5; ++variant) {
                const auto spec = astc_random_legal_spec(modes, fp.x, fp.y, q, rng, 4000);
                REQUIRE(spec);
                std::vector<unsigned> v(astc_cem_value_count(cem));
                for (auto& x : v) x = variant == 3 ? 0u : variant == 4 ? 255u : unsigned(rng.next() % 256);
                set_hdr_fields(cem, k, v.data());
                add_spec(*spec, v, "HDR mode fields, range 0..255");
            }
    }
    // 2. Every endpoint mode (HDR and LDR) with 1..4 partitions in both CEM forms, random ranges.
    for (const AstcSpecRequest& q : astc_cem_partition_requests(8)) {
        const auto spec = astc_random_legal_spec(modes, fp.x, fp.y, q, rng);
        if (spec) add_spec(*spec, {}, "CEM x partitions");
    }
    // 3. Dual plane with each HDR mode and each CCS (the alpha plane of modes 14 and 15 included).
    for (unsigned cem : kAstcHdrCems)
        for (int ccs = 0; ccs < 4; ++ccs)
            for (int k = 0; k < 4; ++k) {
                AstcSpecRequest q;
                q.cem = int(cem), q.dual_plane = 1, q.ccs = ccs;
                const auto spec = astc_random_legal_spec(modes, fp.x, fp.y, q, rng);
                if (spec) add_spec(*spec, {}, "dual plane, HDR mode");
            }
    // 4. Void extents. HDR: every special half in every channel (all-ones coordinates and real
    //    extents), and random halves.
    for (size_t s = 0; s < std::size(kSpecialHalves); ++s)
        for (unsigned channel = 0; channel < 4; ++channel) {
            AstcVoidExtent v;
            v.hdr = true;
            for (auto& c : v.rgba) c = random_half(rng);
            v.rgba[channel] = kSpecialHalves[s];
            if (s % 2) v.min_s = 5, v.max_s = 0x1FFE, v.min_t = 0, v.max_t = 3;
            for (uint16_t c : v.rgba) set.hdr_void_halves.insert(c);
            set.add(astc_build_void_extent(v), 0, "void extent: HDR");
        }
    for (int k = 0; k < 32; ++k) {  // LDR void extents: decode_float16 in the HDR profile
        AstcVoidExtent v;
        for (auto& c : v.rgba) c = rng.next() % 4 == 0 ? (rng.next() % 2 ? 0xFFFF : 0) : uint16_t(rng.next());
        if (k % 2) v.min_s = 0, v.max_s = 1, v.min_t = 7, v.max_t = 0x1FFF;
        set.add(astc_build_void_extent(v), 0, "void extent: LDR");
    }
    for (unsigned reserved = 0; reserved < 3; ++reserved)  // reserved bits != 11b: error
        for (int k = 0; k < 8; ++k) {
            AstcVoidExtent v;
            v.reserved = reserved, v.hdr = k % 2;
            for (auto& c : v.rgba) c = uint16_t(rng.next());
            if (k >= 4) v.min_s = 1, v.max_s = 2, v.min_t = 3, v.max_t = 4;
            set.add(astc_build_void_extent(v), 1, "void extent: reserved bits");
        }
    for (int k = 0; k < 20; ++k) {  // min >= max on some axis (not all all-ones): error
        AstcVoidExtent v;
        v.hdr = k % 2;
        for (auto& c : v.rgba) c = uint16_t(rng.next());
        v.min_s = 100, v.max_s = 200, v.min_t = 300, v.max_t = 400;
        switch (k / 2 % 5) {
        case 0: v.max_s = v.min_s; break;
        case 1: v.max_t = v.min_t - 1; break;
        case 2: v.min_s = v.max_s = 0x1FFF; break;
        case 3: v.min_s = v.max_s = v.min_t = 0x1FFF, v.max_t = 0x1FFE; break;
        default: v.min_s = 0x1FFF, v.max_s = 0, v.min_t = 0, v.max_t = 0x1FFF; break;
        }
        set.add(astc_build_void_extent(v), 1, "void extent: min >= max");
    }
    // 5. Error blocks: block modes that do not fit the footprint or are reserved (with HDR endpoint
    //    modes where there is a CEM field), dual plane with 4 partitions, too many colour values.
    for (uint32_t mode = 0; mode < 2048; mode += 3) {
        const auto m = astc_parse_block_mode_2d(mode);
        if (m && astc_block_mode_fits(*m, fp.x, fp.y)) continue;
        if ((mode & 0x1FF) == 0x1FC) continue;  // void extent
        AstcBlock b = astc_random_bits_block(rng);
        set_block_bits(b.data(), 0, 11, mode);
        set_block_bits(b.data(), 11, 2, 0);
        set_block_bits(b.data(), 13, 4, kAstcHdrCems[rng.next() % 6]);
        set.add(b, 1, m ? "illegal: block mode does not fit" : "illegal: reserved block mode");
    }
    for (int k = 0; k < 24; ++k) {
        AstcSpecRequest q;
        q.dual_plane = 1, q.partitions = 3, q.cem = int(kAstcHdrCems[k % 6]), q.shared_cem = 1;
        auto spec = astc_random_legal_spec(modes, fp.x, fp.y, q, rng);
        if (spec) {
            spec->partitions = 4;
            REQUIRE(!astc_plan_block(*spec, fp.x, fp.y).legal);
            set.add(astc_build_block(*spec, fp.x, fp.y, &rng, true), 1, "illegal: dual plane, 4 partitions");
        }
        AstcBlockSpec s;  // 4 partitions of a class-3 HDR mode: 32 colour values
        s.block_mode = modes[rng.next() % modes.size()];
        s.partitions = 4;
        s.partition_seed = unsigned(rng.next() % 1024);
        for (auto& c : s.cem) c = k % 2 ? 14 : 15;
        if (astc_parse_block_mode_2d(s.block_mode)->dual_plane) s.partitions = 3;
        REQUIRE(!astc_plan_block(s, fp.x, fp.y).legal);
        set.add(astc_build_block(s, fp.x, fp.y, &rng, true), 1, "illegal: too many colour values");
    }
    return set;
}

void run_structured_blocks(AstcFootprint fp) {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    INFO("seed " << test_seed() << " (TEXDEC_TEST_SEED changes it)");
    SplitMix64 rng(astc_fp_seed(fp, 0x4D125700));
    const StructuredSet set = build_structured(fp, rng);
    // Coverage of the set itself.
    for (unsigned cem : kAstcHdrCems) {
        INFO("HDR endpoint mode " << cem);
        CHECK(set.fields_seen.count(cem));
        if (set.fields_seen.count(cem)) CHECK(set.fields_seen.at(cem).size() == hdr_field_combinations(cem));
    }
    CHECK(set.hdr_ccs.size() == 4);
    CHECK(set.mode2_orders.size() == 2);
    for (unsigned cem = 0; cem < 16; ++cem)
        for (unsigned p = 1; p <= 4; ++p) {
            // Fewest colour values with `cem` in partition 0: the others one class lower.
            const unsigned cls = astc_cem_class(cem), fewest = 2 * (cls + 1) + (p - 1) * 2 * std::max(cls, 1u);
            if (fewest > 18) continue;  // more than 18 values: no legal block has it
            INFO("CEM " << cem << " with " << p << " partitions");
            CHECK(set.cem_partitions.count({cem, p}));
        }
    CHECK(set.mixed_hdr_ldr > 0);
    for (uint16_t h : kSpecialHalves) CHECK(set.hdr_void_halves.count(h));

    const AstcSourceImage img = image_of_blocks(fp, set.blocks, 64);
    check_image(*ctx, img, "structured blocks");
    // The builder's idea of legality agrees with astcenc (the structured blocks are what they
    // claim to be).
    size_t disagree = 0, errors = 0, hdr_blocks = 0;
    std::vector<std::string> examples;
    for (size_t i = 0; i < set.blocks.size(); ++i) {
        const AstcBlockSummary s = astcenc_block_summary(AstcProfile::hdr, fp, set.blocks[i].data());
        errors += s.is_error;
        if (!s.is_error && !s.is_constant)
            for (unsigned p = 0; p < s.partition_count && p < 4; ++p)
                if (astc_cem_is_hdr_mode(s.cem[p])) {
                    ++hdr_blocks;
                    break;
                }
        if (set.expect_error[i] >= 0 && s.is_error != (set.expect_error[i] == 1) && ++disagree <= 6)
            examples.push_back(set.group[i] + ": " + astc_hex(set.blocks[i].data()) + " builder says " +
                               (set.expect_error[i] ? "error" : "legal") + ", astcenc " + (s.is_error ? "error" : "decodes"));
    }
    for (const auto& e : examples) UNSCOPED_INFO(e);
    INFO(astc_fp_name(fp) << ": builder legality vs astcenc, " << disagree << " disagree");
    CHECK(disagree == 0);
    std::printf("[astc hdr structured] %-5s: %zu blocks: %zu error, %zu with an HDR endpoint mode (%zu mixed with LDR "
                "partitions), %zu HDR void extents\n",
                astc_fp_name(fp).c_str(), set.blocks.size(), errors, hdr_blocks, set.mixed_hdr_ldr,
                size_t(std::count(set.group.begin(), set.group.end(), "void extent: HDR")));
    ctx->close_and_check();
}

// ---- extents and layouts --------------------------------------------------------------------

void run_extents() {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    INFO("seed " << test_seed());
    for (const AstcFootprint& fp : astc_2d_footprints()) {
        SplitMix64 rng(astc_fp_seed(fp, 0x4D12ED6E));
        const std::vector<uint32_t> modes = astc_legal_block_modes_2d(fp.x, fp.y);
        for (const AstcExtentCase& c : astc_extent_cases(fp)) {
            // Mostly legal blocks with an HDR endpoint mode for partition 0, some void extents and random bits.
            const AstcSourceImage img = astc_extent_image(fp, c, [&] {
                const unsigned r = unsigned(rng.next() % 8);
                AstcSpecRequest q;
                q.cem = int(kAstcHdrCems[rng.next() % 6]);
                if (r < 5) return astc_random_legal_block(fp, modes, q, rng);
                if (r == 5) return astc_build_void_extent(random_void_extent(rng, rng.next() % 2));
                return astc_random_bits_block(rng);
            });
            INFO("extent " << c.w << "x" << c.h << ", source row length " << c.row_length << ", destination row padding "
                           << c.extra_row_bytes);
            check_image(*ctx, img, "extent", true, c.extra_row_bytes);
        }
    }
    ctx->close_and_check();
}

// ---- the record path ------------------------------------------------------------------------

bool is_half_nan(uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x03FF) != 0; }

// A block for the record test: mostly legal blocks with an HDR endpoint mode for partition 0,
// HDR void extents (special values included), LDR builder blocks and random bits.
AstcBlock record_block(AstcFootprint fp, const std::vector<uint32_t>& modes, SplitMix64& rng) {
    const unsigned r = unsigned(rng.next() % 8);
    if (r == 0) return astc_random_bits_block(rng);
    if (r == 1) return astc_build_void_extent(random_void_extent(rng, rng.next() % 4 != 0));
    AstcSpecRequest q;
    if (r >= 3) q.cem = int(kAstcHdrCems[rng.next() % 6]);
    return astc_random_legal_block(fp, modes, q, rng);
}

void check_record_texels(const uint8_t* base, size_t row_pitch, size_t slice_pitch, const std::vector<std::vector<uint16_t>>& expected,
                         uint32_t w, uint32_t h, bool any_nan_ok, const std::string& where) {
    size_t mismatches = 0;
    std::string first;
    for (uint32_t z = 0; z < expected.size(); ++z)
        for (uint32_t y = 0; y < h; ++y)
            for (uint32_t x = 0; x < w; ++x)
                for (uint32_t c = 0; c < 4; ++c) {
                    uint16_t got;
                    std::memcpy(&got, base + z * slice_pitch + y * row_pitch + size_t(x) * 8 + 2 * c, 2);
                    const uint16_t want = expected[z][(size_t(y) * w + x) * 4 + c];
                    if (got == want || (any_nan_ok && is_half_nan(want) && is_half_nan(got))) continue;
                    if (mismatches++ == 0) {
                        char buf[96];
                        std::snprintf(buf, sizeof buf, "slice %u texel (%u,%u) channel %u: got %04x, expected %04x", z, x, y,
                                      c, got, want);
                        first = buf;
                    }
                }
    INFO(where << ": " << mismatches << " mismatching components; first: " << first);
    CHECK(mismatches == 0);
}

}  // namespace

TEST_CASE("ASTC HDR record path: buffer and storage-image destinations", "[astc][hdr][external][gpu][heavy]") {
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    constexpr uint32_t kSlices = 2, kFirstLayer = 1;
    constexpr int32_t x0 = 3, y0 = 5;
    REQUIRE(dev.format_supports(VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT));
    for (const AstcFootprint& fp : astc_2d_footprints()) {
        INFO("ASTC " << astc_fp_name(fp) << " sfloat");
        // Source: 2 slices of row_blocks x rows blocks after `offset` bytes; the extent's blocks in
        // the top-left corner, partial blocks at the right and bottom.
        const uint32_t w = 3 * fp.x + 1, h = 2 * fp.y + 3;
        const uint32_t row_length = w + 2 * fp.x, image_height = h + fp.y;
        const uint32_t row_blocks = (row_length + fp.x - 1) / fp.x, rows = (image_height + fp.y - 1) / fp.y;
        const size_t offset = 256, blocks = size_t(row_blocks) * rows * kSlices;
        std::vector<uint8_t> bytes(offset + blocks * 16 + 64);
        SplitMix64 rng(astc_fp_seed(fp, 0x4D12EC0D));
        for (uint8_t& b : bytes) b = uint8_t(rng.next());
        const std::vector<uint32_t> modes = astc_legal_block_modes_2d(fp.x, fp.y);
        for (size_t i = 0; i < blocks; ++i) {
            const AstcBlock b = record_block(fp, modes, rng);
            std::memcpy(&bytes[offset + i * 16], b.data(), 16);
        }
        std::vector<std::vector<uint16_t>> expected;
        const uint32_t bx = (w + fp.x - 1) / fp.x, by = (h + fp.y - 1) / fp.y;
        for (uint32_t z = 0; z < kSlices; ++z) {
            std::vector<uint8_t> tight;
            for (uint32_t y = 0; y < by; ++y)
                for (uint32_t x = 0; x < bx; ++x) {
                    const uint8_t* b = &bytes[offset + ((size_t(z) * rows + y) * row_blocks + x) * 16];
                    tight.insert(tight.end(), b, b + 16);
                }
            expected.push_back(astcenc_decode_f16(AstcProfile::hdr, fp, w, h, 1, tight.data(), tight.size()));
        }
        HostBuffer staging = dev.create_buffer(bytes.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
        std::memcpy(staging.mapped, bytes.data(), bytes.size());
        HostBuffer src = dev.create_buffer(bytes.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);

        RecordJob base{.format = astc_texdec_format(fp, AstcProfile::hdr),
                       .output = TEXDEC_OUTPUT_NATIVE,
                       .barriers = true,
                       .width = w,
                       .height = h,
                       .depth = kSlices,
                       .src_buffer = src.buffer,
                       .src_offset = offset,
                       .src_size = bytes.size() - offset,
                       .src_row_length = row_length,
                       .src_image_height = image_height};

        VkCommandBuffer cmd = dev.begin_commands();
        VkBufferCopy upload{0, 0, bytes.size()};
        vkCmdCopyBuffer(cmd, staging.buffer, src.buffer, 1, &upload);
        // Buffer destination (RGBA16F).
        TexelLayout layout;
        layout.offset = 64;
        layout.row_pitch = size_t(w + 3) * 8;
        layout.slice_pitch = layout.row_pitch * h + 5 * 8;
        const size_t dst_size = layout.slice_pitch * (kSlices - 1) + layout.row_pitch * (h - 1) + size_t(w) * 8;
        const size_t total = layout.offset + dst_size + 64;
        HostBuffer dst = dev.create_buffer(total, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
        fill_canary(dst.mapped, total);
        HostBuffer dst_readback = dev.create_buffer(total, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
        RecordJob job = base;
        job.output = TEXDEC_OUTPUT_RGBA16F;
        job.into_buffer(dst.buffer, layout.offset, dst_size, layout.row_pitch, layout.slice_pitch);
        REQUIRE(record_one(setup.ctx, cmd, &job) == TEXDEC_SUCCESS);
        VkBufferCopy copy{0, 0, total};
        vkCmdCopyBuffer(cmd, dst.buffer, dst_readback.buffer, 1, &copy);
        // Image destination (NATIVE = R16G16B16A16_SFLOAT).
        const uint32_t iw = w + x0 + 2, ih = h + y0 + 1, layers = kSlices + kFirstLayer + 1;
        TestImage image = dev.create_image(VK_FORMAT_R16G16B16A16_SFLOAT, iw, ih, layers,
                                           VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                           0, VK_FORMAT_R16G16B16A16_SFLOAT);
        const size_t image_bytes = size_t(iw) * ih * layers * 8;
        HostBuffer canary = dev.create_buffer(image_bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
        fill_canary(canary.mapped, image_bytes);
        HostBuffer image_readback = dev.create_buffer(image_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
        record_image_canary(cmd, image.image, canary, iw, ih, layers);
        job = base;
        job.dst_image = &image;
        job.dst_x = x0, job.dst_y = y0, job.dst_layer = kFirstLayer;
        REQUIRE(record_one(setup.ctx, cmd, &job) == TEXDEC_SUCCESS);
        record_image_readback(cmd, image.image, image_readback, iw, ih, layers);
        host_read_barrier(cmd);
        dev.submit_and_wait(cmd);
        check_no_validation_messages(dev.log(), "recording and running the ASTC HDR decodes");

        size_t clobbered = first_clobbered_byte(dst_readback.mapped, total, resolve(layout, 8, w, h), w, h, kSlices);
        INFO("buffer: first byte outside the texels that changed: " << clobbered_text(clobbered));
        CHECK(clobbered == SIZE_MAX);
        check_record_texels(dst_readback.mapped + layout.offset, layout.row_pitch, layout.slice_pitch, expected, w, h, false,
                            "buffer RGBA16F");
        TexelLayout image_layout;
        image_layout.row_pitch = size_t(iw) * 8;
        image_layout.slice_pitch = image_layout.row_pitch * ih;
        image_layout.offset = kFirstLayer * image_layout.slice_pitch + y0 * image_layout.row_pitch + x0 * 8;
        clobbered = first_clobbered_byte(image_readback.mapped, image_bytes, resolve(image_layout, 8, w, h), w, h, kSlices);
        INFO("image: first byte outside the texels that changed: " << clobbered_text(clobbered));
        CHECK(clobbered == SIZE_MAX);
        check_record_texels(image_readback.mapped + image_layout.offset, image_layout.row_pitch, image_layout.slice_pitch, expected,
                            w, h, true, "image NATIVE (R16G16B16A16_SFLOAT)");
        for (HostBuffer* b : {&staging, &src, &dst, &dst_readback, &canary, &image_readback}) dev.destroy(*b);
        dev.destroy(image);
    }
    setup.close();
}

TEST_CASE("ASTC HDR formats: NATIVE is RGBA16F and RGBA8 is refused", "[astc][hdr][gpu]") {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    for (const AstcFootprint& fp : astc_2d_footprints()) {
        const texdec_format format = astc_texdec_format(fp, AstcProfile::hdr);
        texdec_format_info info{};
        REQUIRE(texdec_format_get_info(format, &info) == TEXDEC_SUCCESS);
        INFO(info.name);
        CHECK((info.block_width == fp.x && info.block_height == fp.y && info.block_depth == 1));
        CHECK(std::string(info.name) == "astc-" + astc_fp_name(fp) + "-sfloat");
        CHECK((info.flags & TEXDEC_FORMAT_FLAG_HDR));
        CHECK((info.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED));
        VkFormat vk = VK_FORMAT_UNDEFINED;
        uint32_t bytes = 0;
        for (texdec_output output : {TEXDEC_OUTPUT_NATIVE, TEXDEC_OUTPUT_RGBA16F}) {
            REQUIRE(texdec_output_vk_format(format, output, &vk) == TEXDEC_SUCCESS);
            CHECK(vk == VK_FORMAT_R16G16B16A16_SFLOAT);
            REQUIRE(texdec_output_texel_size(format, output, &bytes) == TEXDEC_SUCCESS);
            CHECK(bytes == 8);
        }
        CHECK(texdec_output_vk_format(format, TEXDEC_OUTPUT_RGBA8, &vk) == TEXDEC_ERROR_UNSUPPORTED_OUTPUT);
        CHECK(texdec_output_texel_size(format, TEXDEC_OUTPUT_RGBA8, &bytes) == TEXDEC_ERROR_UNSUPPORTED_OUTPUT);
        uint64_t size = 0;
        CHECK(texdec_decoded_size(format, TEXDEC_OUTPUT_RGBA8, 4, 4, 1, &size) == TEXDEC_ERROR_UNSUPPORTED_OUTPUT);
        // texdec_decode refuses it too, with a message, and writes nothing.
        const std::vector<uint8_t> block(16, 0xFF);
        std::vector<uint8_t> dst(size_t(fp.x) * fp.y * 4, 0xA5);
        const texdec_host_job job = JobBuilder(format, TEXDEC_OUTPUT_RGBA8, fp.x, fp.y).blocks(block).texels(dst);
        CHECK(ctx->decode(job) == TEXDEC_ERROR_UNSUPPORTED_OUTPUT);
        CHECK(std::all_of(dst.begin(), dst.end(), [](uint8_t b) { return b == 0xA5; }));
        const std::vector<std::string> errors = ctx->log().take_errors();
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].find("not offered for " + std::string(info.name)) != std::string::npos);
    }
    ctx->close_and_check();
}

TEST_CASE("ASTC HDR astcenc CLI images: RGB with LDR alpha (-ch)", "[astc][hdr][gpu]") { run_cli_images(false); }
TEST_CASE("ASTC HDR astcenc CLI images: RGBA (-cH)", "[astc][hdr][gpu]") { run_cli_images(true); }
TEST_CASE("ASTC HDR extents and source row length", "[astc][hdr][gpu]") { run_extents(); }

#define ASTC_HDR_FOOTPRINT_TESTS(X, Y)                                            \
    TEST_CASE("ASTC HDR random blocks: " #X "x" #Y, "[astc][hdr][gpu][random]") { \
        run_random_blocks(astc_footprint(X, Y));                                  \
    }                                                                             \
    TEST_CASE("ASTC HDR structured blocks: " #X "x" #Y, "[astc][hdr][gpu]") {     \
        run_structured_blocks(astc_footprint(X, Y));                              \
    }

TEXDEC_ASTC_2D_FOOTPRINTS(ASTC_HDR_FOOTPRINT_TESTS)

// Acceptance tests of the ASTC 3D decoder (TEXDEC_FORMAT_ASTC_<W>x<H>x<D>_UNORM / _SRGB / _SFLOAT,
// the ten footprints of VK_EXT_texture_compression_astc_3d) and of 2D footprints on 3D images and
// arrays, tolerance 0, against libastcenc 4.2 decoding the same blocks as a 3D image (docs/EXACTNESS.md
// "ASTC"):
//
//   RGBA8 (and NATIVE = RGBA8): decode_unorm8 = min(255, floor(f16 * 256)) of astcenc's FP16
//     output (linear) or its U8 output (sRGB); error texels magenta;
//   RGBA16F: astcenc's FP16 output bit for bit (linear) or half(v / 255) of the sRGB bytes;
//     invalid blocks 0xFFFF x 4 (linear; sRGB: magenta (1.0, 0, 1.0, 1.0), KDFS "ASTC error
//     colors", where astcenc 4.2 gives 0xFFFF); texels of a partition with an HDR endpoint mode (1.0, 0, 1.0, 1.0)
//     (astcenc 4.2 decodes those; the spec gives the error colour: the model of the 2D tests,
//     astc_expected_outputs of src/reference/astc_reference.h, on astcenc's 3D decode);
//   -sfloat (HDR operation mode): RGBA16F = NATIVE = astcenc's FP16 output in its HDR profile bit
//     for bit (the model test_astc_hdr.cpp establishes for 2D); RGBA8 refused.
// Mesa cannot be a second oracle: GL exposes no 3D ASTC blocks (docs/EXACTNESS.md).
//
//   ASTC 3D random blocks: <WxHxD>      astc_random_block_count() blocks per footprint and profile
//                                        (200,704 by default): 5/8 uniformly random bits (nearly all
//                                        error blocks), 3/16 a legal 3D block mode with random bits
//                                        above, 1/16 a legal mode with an HDR endpoint mode, 1/16
//                                        built by the block builder, 1/16 3D void extents; every
//                                        output on the first 16,384, then RGBA16F (linear) or RGBA8
//                                        (sRGB) on every block;
//   ASTC 3D structured blocks: <WxHxD>  every legal 3D block mode of the footprint (several
//                                        partitionings and CEMs each, every CCS of dual-plane
//                                        modes), every CEM with 1..4 partitions in both CEM
//                                        encodings, every partition seed for 2, 3 and 4 partitions
//                                        (3D partition patterns), dual plane with every CCS, 3D void
//                                        extents (all-ones, min < max, HDR, min >= max on each axis,
//                                        partly all-ones), and illegal blocks (grid larger than the
//                                        footprint in each axis, > 64 weights, weight bits out of
//                                        24..96, reserved modes, dual plane with 4 partitions, > 18
//                                        colour values, too few colour bits);
//   ASTC 3D sfloat random blocks: ...   the same count in the HDR profile: 1/4 uniform bits, 1/8 a
//                                        legal mode with random bits, 1/4 a forced HDR endpoint mode,
//                                        1/4 builder blocks, 1/8 3D void extents (mostly HDR, with
//                                        special FP16 values: +-0, subnormals, +-max, +-Inf, NaNs);
//   ASTC 3D astcenc CLI images: <prof>  a procedural 37x29x11 volume encoded by `astcenc -zdim 11`
//                                        at every 3D footprint (extents not multiples of any);
//   ASTC 3D sfloat astcenc CLI images   a procedural 37x29x7 HDR volume (OpenEXR slices) encoded by
//                                        `astcenc -ch` / `-cH -zdim 7` at every 3D footprint;
//   ASTC 3D extents and source layout   13x11x7, 1x1x1 and (2w+3)x(h+1)x(2d+1) per footprint, the
//                                        last with a source row length and image height past the
//                                        extent and padded destination rows and slices;
//   ASTC 3D split into dispatches       a 6x6x6 volume of 2^24+ texels, which the library must
//                                        split into several dispatches along z;
//   ASTC 3D record path                 texdec_record_regions on an external device into buffers
//                                        (offset, row and slice pitch) and 3D storage images
//                                        (VK_IMAGE_TYPE_3D, view type 3D, an origin inside it), all
//                                        three profiles (buffers: the cubic footprints); 3D
//                                        destinations refused for other families;
//   ASTC 2D footprints on 3D images     2D footprints (4x4, 10x6, 12x12) with depth 5, all three
//                                        profiles, through the record path into a
//                                        3D image, a 2D array image and a buffer, compared with
//                                        astcenc decoding the whole volume with the 2D footprint;
//   ASTC 3D builder                     (no GPU) the block builder's 3D block-mode table against
//                                        astcenc_get_block_info, every mode of every 3D footprint.
// Every test prints the first mismatching blocks (hex) and counts on failure.
#include <catch2/catch.hpp>

#define ASTCENC_DYNAMIC_LIBRARY 1  // 4.2's header gives extern "C" linkage only with this
#include <astcenc.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/external_setup.h"
#include "gpu/gpu_fixture.h"
#include "oracles/astc_expected.h"  // AstcBlockKind, half_from_unorm8
#include "oracles/astcenc_oracle.h"
#include "support/astc_block_builder.h"
#include "support/astc_block_info.h"
#include "support/astc_random_blocks.h"
#include "support/astc_test_support.h"
#include "support/astcenc_cli.h"
#include "support/compare.h"  // canary bytes
#include "support/job_builder.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

// The 3D footprints in the order of the format enum (and of VK_EXT_texture_compression_astc_3d).
const std::vector<AstcFootprint>& footprints_3d() {
    static const std::vector<AstcFootprint> list = {{3, 3, 3}, {4, 3, 3}, {4, 4, 3}, {4, 4, 4}, {5, 4, 4},
                                                    {5, 5, 4}, {5, 5, 5}, {6, 5, 5}, {6, 6, 5}, {6, 6, 6}};
    return list;
}

AstcFootprint footprint_3d(unsigned x, unsigned y, unsigned z) {
    for (const auto& fp : footprints_3d())
        if (fp.x == x && fp.y == y && fp.z == z) return fp;
    throw std::invalid_argument("no such 3D footprint");
}

std::string fp_name(AstcFootprint fp) {
    return std::to_string(fp.x) + "x" + std::to_string(fp.y) + (fp.z > 1 ? "x" + std::to_string(fp.z) : "");
}

// The texdec format of a footprint (2D or 3D) and profile: UNORM, SRGB, SFLOAT in enum order.
texdec_format format_of(AstcFootprint fp, AstcProfile profile) {
    if (fp.z == 1) return astc_texdec_format(fp, profile);
    const auto& fps = footprints_3d();
    for (size_t i = 0; i < fps.size(); ++i)
        if (fps[i].x == fp.x && fps[i].y == fp.y && fps[i].z == fp.z)
            return texdec_format(TEXDEC_FORMAT_ASTC_3x3x3_UNORM + 3 * int(i) +
                                 (profile == AstcProfile::ldr_srgb ? 1 : profile == AstcProfile::hdr ? 2 : 0));
    throw std::invalid_argument("format_of: not an ASTC footprint: " + fp_name(fp));
}

const char* output_name(texdec_output o) {
    return o == TEXDEC_OUTPUT_RGBA8 ? "RGBA8" : o == TEXDEC_OUTPUT_RGBA16F ? "RGBA16F" : "NATIVE";
}


// ---- volumes of blocks and what the oracle says about them ----------------------------------

// The blocks of a w x h x d extent in a source layout (row length / image height in texels, like
// VkBufferImageCopy; 0 = the extent).
struct Volume {
    AstcFootprint fp;
    unsigned w = 0, h = 0, d = 0;
    unsigned row_length = 0, image_height = 0;
    std::vector<uint8_t> data;
    unsigned cols() const { return (w + fp.x - 1) / fp.x; }
    unsigned rows() const { return (h + fp.y - 1) / fp.y; }
    unsigned slices() const { return (d + fp.z - 1) / fp.z; }
    unsigned src_cols() const { return ((row_length ? row_length : w) + fp.x - 1) / fp.x; }
    unsigned src_rows() const { return ((image_height ? image_height : h) + fp.y - 1) / fp.y; }
    size_t src_blocks() const { return size_t(src_cols()) * src_rows() * slices(); }
    const uint8_t* block(unsigned bx, unsigned by, unsigned bz) const {
        return &data[((size_t(bz) * src_rows() + by) * src_cols() + bx) * 16];
    }
    // The blocks of the extent, tightly packed (what the oracle decodes).
    std::vector<uint8_t> tight() const {
        std::vector<uint8_t> out;
        out.reserve(size_t(cols()) * rows() * slices() * 16);
        for (unsigned bz = 0; bz < slices(); ++bz)
            for (unsigned by = 0; by < rows(); ++by) out.insert(out.end(), block(0, by, bz), block(0, by, bz) + size_t(cols()) * 16);
        return out;
    }
};

// docs/EXACTNESS.md's outputs from astcenc's decode of `tight` (any profile, 3D footprints and 2D footprints
// on volumes): astc_expected_outputs (src/reference/astc_reference.h), which the 2D tests and the
// CPU reference use too. The -sfloat formats: RGBA16F (= NATIVE) is astcenc 4.2's FP16 output in
// the HDR profile bit for bit (what test_astc_hdr.cpp establishes for 2D); RGBA8 is refused for them.
using Expected = AstcExpected;

Expected expected_outputs(AstcProfile profile, AstcFootprint fp, unsigned w, unsigned h, unsigned d,
                          const std::vector<uint8_t>& tight) {
    return astc_expected_outputs(profile, fp, w, h, d, tight.data(), tight.size());
}

// ---- decoding with texdec_decode and comparing --------------------------------------------

// Compares decoded texels (`actual`, with pitches) with tight expected texels: row by row, and
// texel by texel in rows that differ, naming the blocks.
void compare(AstcComparison& cmp, const Volume& v, const std::vector<AstcBlockKind>& kinds, const uint8_t* actual,
             size_t row_pitch, size_t slice_pitch, const uint8_t* expected, unsigned texel_bytes) {
    const AstcFootprint fp = v.fp;
    std::set<size_t> bad_blocks;
    for (unsigned iz = 0; iz < v.d; ++iz)
        for (unsigned iy = 0; iy < v.h; ++iy) {
            cmp.texels += v.w;
            const uint8_t* a_row = actual + iz * slice_pitch + iy * row_pitch;
            const uint8_t* e_row = expected + (size_t(iz) * v.h + iy) * v.w * texel_bytes;
            if (std::memcmp(a_row, e_row, size_t(v.w) * texel_bytes) == 0) continue;
            for (unsigned ix = 0; ix < v.w; ++ix) {
                const uint8_t* a = a_row + size_t(ix) * texel_bytes;
                const uint8_t* e = e_row + size_t(ix) * texel_bytes;
                if (std::memcmp(a, e, texel_bytes) == 0) continue;
                ++cmp.mismatching_texels;
                const unsigned bx = ix / fp.x, by = iy / fp.y, bz = iz / fp.z;
                const size_t bi = (size_t(bz) * v.rows() + by) * v.cols() + bx;
                if (bad_blocks.insert(bi).second && cmp.examples.size() < 8) {
                    std::ostringstream os;
                    os << cmp.label << ": block (" << bx << "," << by << "," << bz << ") "
                       << astc_hex(v.block(bx, by, bz)) << astc_kind_name(kinds[bi]) << ": texel (" << ix % fp.x << ","
                       << iy % fp.y << "," << iz % fp.z << ") expected " << astc_texel_string(e, texel_bytes)
                       << " actual " << astc_texel_string(a, texel_bytes);
                    cmp.examples.push_back(os.str());
                }
            }
        }
    cmp.mismatching_blocks = bad_blocks.size();
}

// The first byte of `bytes` outside the texel rows (w * texel_bytes from each row start) that no
// longer holds its canary, or SIZE_MAX. Only the gaps are read (support/compare.h's
// first_clobbered_byte reads every byte, which is most of the run time on big volumes).
size_t first_clobbered_gap_byte(const std::vector<uint8_t>& bytes, size_t row_bytes, size_t row_pitch, size_t slice_pitch,
                                unsigned h, unsigned d) {
    size_t from = 0;  // the first byte not yet checked
    auto check_until = [&](size_t end) {
        for (size_t i = from; i < end; ++i)
            if (bytes[i] != canary_byte(i)) return i;
        return SIZE_MAX;
    };
    for (unsigned z = 0; z < d; ++z)
        for (unsigned y = 0; y < h; ++y) {
            const size_t row = z * slice_pitch + y * row_pitch;
            if (const size_t c = check_until(row); c != SIZE_MAX) return c;
            from = row + row_bytes;
        }
    return check_until(bytes.size());
}

struct Decoded {
    std::vector<uint8_t> bytes;
    size_t row_pitch = 0, slice_pitch = 0;
};

// texdec_decode of `v` into a canary-filled buffer (rows and slices padded by the given bytes,
// 256 guard bytes after the last texel). REQUIREs success; CHECKs that no other byte changed.
Decoded decode_volume(OwnContext& ctx, AstcProfile profile, const Volume& v, texdec_output output,
                      size_t extra_row_bytes = 0, size_t extra_slice_bytes = 0) {
    const texdec_format format = format_of(v.fp, profile);
    uint32_t texel_bytes = 0;
    REQUIRE(texdec_output_texel_size(format, output, &texel_bytes) == TEXDEC_SUCCESS);
    Decoded out;
    out.row_pitch = size_t(v.w) * texel_bytes + extra_row_bytes;
    out.slice_pitch = out.row_pitch * v.h + extra_slice_bytes;
    const size_t size = out.slice_pitch * (v.d - 1) + out.row_pitch * (v.h - 1) + size_t(v.w) * texel_bytes;
    out.bytes.resize(size + 256);
    fill_canary(out.bytes.data(), out.bytes.size());
    const texdec_host_job job =
        JobBuilder(format, output, v.w, v.h, v.d)
            .blocks(v.data)
            .texels(out.bytes.data(), size)
            .source_rows(v.row_length, v.image_height)
            .pitches(extra_row_bytes ? out.row_pitch : 0, extra_slice_bytes ? out.slice_pitch : 0);
    const texdec_status status = ctx.decode(job);
    INFO("texdec_decode(" << astc_profile_name(profile) << " " << fp_name(v.fp) << ", " << output_name(output) << ", "
                          << v.w << "x" << v.h << "x" << v.d << ") returned " << texdec_status_string(status));
    REQUIRE(status == TEXDEC_SUCCESS);
    const size_t clobbered = first_clobbered_gap_byte(out.bytes, size_t(v.w) * texel_bytes, out.row_pitch, out.slice_pitch, v.h, v.d);
    INFO("first byte outside the texels that changed: " << clobbered_text(clobbered));
    CHECK(clobbered == SIZE_MAX);
    return out;
}

struct CheckOptions {
    bool rgba8 = true, rgba16f = true;
    bool native = true;  // also decode NATIVE (must equal RGBA8 byte for byte; needs rgba8)
    size_t extra_row_bytes = 0, extra_slice_bytes = 0;
};

// Decodes `v` with RGBA8, RGBA16F (and NATIVE) and compares with the oracle model.
Expected check_volume(OwnContext& ctx, AstcProfile profile, const Volume& v, const std::string& what,
                      const CheckOptions& opt = {}) {
    const Expected exp = expected_outputs(profile, v.fp, v.w, v.h, v.d, v.tight());
    for (const auto& a : exp.anomalies) UNSCOPED_INFO("astcenc anomaly: " << a);
    CHECK(exp.anomalies.empty());
    const std::string prefix = what + " " + astc_profile_name(profile) + " " + fp_name(v.fp) + " " + std::to_string(v.w) +
                               "x" + std::to_string(v.h) + "x" + std::to_string(v.d);
    const bool hdr = profile == AstcProfile::hdr;  // RGBA8 refused; NATIVE = RGBA16F
    Decoded rgba8, rgba16f;
    for (texdec_output output : {TEXDEC_OUTPUT_RGBA8, TEXDEC_OUTPUT_RGBA16F, TEXDEC_OUTPUT_NATIVE}) {
        if ((output == TEXDEC_OUTPUT_NATIVE && !(opt.native && (hdr ? opt.rgba16f : opt.rgba8))) ||
            (output == TEXDEC_OUTPUT_RGBA8 && (!opt.rgba8 || hdr)) || (output == TEXDEC_OUTPUT_RGBA16F && !opt.rgba16f))
            continue;
        Decoded got = decode_volume(ctx, profile, v, output, opt.extra_row_bytes, opt.extra_slice_bytes);
        const bool half = output == TEXDEC_OUTPUT_RGBA16F || (hdr && output == TEXDEC_OUTPUT_NATIVE);
        AstcComparison c{prefix + " " + output_name(output) + " vs astcenc"};
        compare(c, v, exp.kind, got.bytes.data(), got.row_pitch, got.slice_pitch,
                half ? reinterpret_cast<const uint8_t*>(exp.rgba16f.data()) : exp.rgba8.data(), half ? 8 : 4);
        astc_report(c, exp.kind.size());
        if (output == TEXDEC_OUTPUT_RGBA8) rgba8 = std::move(got);
        else if (output == TEXDEC_OUTPUT_RGBA16F) rgba16f = std::move(got);
        else {
            INFO(prefix << ": NATIVE must equal " << (hdr ? "RGBA16F" : "RGBA8") << " byte for byte");
            CHECK(got.bytes == (hdr ? rgba16f.bytes : rgba8.bytes));
        }
    }
    return exp;
}

void check_format_info(AstcFootprint fp, AstcProfile profile) {
    const texdec_format format = format_of(fp, profile);
    texdec_format_info info{};
    REQUIRE(texdec_format_get_info(format, &info) == TEXDEC_SUCCESS);
    INFO(info.name);
    CHECK(std::string(info.name) ==
          "astc-" + fp_name(fp) + (profile == AstcProfile::ldr ? "-unorm" : profile == AstcProfile::ldr_srgb ? "-srgb" : "-sfloat"));
    CHECK((info.block_width == fp.x && info.block_height == fp.y && info.block_depth == fp.z));
    CHECK(info.family == TEXDEC_FAMILY_ASTC);
    CHECK(bool(info.flags & TEXDEC_FORMAT_FLAG_SRGB) == (profile == AstcProfile::ldr_srgb));
    CHECK((info.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED) != 0);
    VkFormat vk = VK_FORMAT_UNDEFINED;
    if (profile == AstcProfile::hdr) {
        CHECK((info.flags & TEXDEC_FORMAT_FLAG_HDR) != 0);
        CHECK(texdec_output_vk_format(format, TEXDEC_OUTPUT_RGBA8, &vk) == TEXDEC_ERROR_UNSUPPORTED_OUTPUT);
        for (texdec_output o : {TEXDEC_OUTPUT_NATIVE, TEXDEC_OUTPUT_RGBA16F}) {
            REQUIRE(texdec_output_vk_format(format, o, &vk) == TEXDEC_SUCCESS);
            CHECK(vk == VK_FORMAT_R16G16B16A16_SFLOAT);
        }
        return;
    }
    for (texdec_output o : {TEXDEC_OUTPUT_NATIVE, TEXDEC_OUTPUT_RGBA8}) {
        REQUIRE(texdec_output_vk_format(format, o, &vk) == TEXDEC_SUCCESS);
        CHECK(vk == (profile == AstcProfile::ldr ? VK_FORMAT_R8G8B8A8_UNORM : VK_FORMAT_R8G8B8A8_SRGB));
    }
    REQUIRE(texdec_output_vk_format(format, TEXDEC_OUTPUT_RGBA16F, &vk) == TEXDEC_SUCCESS);
    CHECK(vk == VK_FORMAT_R16G16B16A16_SFLOAT);
}

// ---- random blocks ----------------------------------------------------------------------------

void run_random_blocks(AstcFootprint fp) {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    const size_t count = astc_random_block_count();
    INFO("seed " << test_seed() << " (TEXDEC_TEST_SEED changes it), " << count
                 << " blocks per profile (TEXDEC_TEST_RANDOM_BLOCKS scales it)");
    const std::vector<uint32_t> modes = astc_legal_block_modes_3d(fp.x, fp.y, fp.z);
    REQUIRE(!modes.empty());
    // 64 x 16 blocks per block slice; 16 block slices (16,384 blocks) per decode.
    constexpr unsigned kBlocksX = 64, kBlocksY = 16, kChunkSlices = 16;
    for (AstcProfile profile : {AstcProfile::ldr, AstcProfile::ldr_srgb}) {
        check_format_info(fp, profile);
        SplitMix64 rng(astc_fp_seed_3d(fp, uint64_t(profile) + 0x3D5A0000));
        const std::vector<uint8_t> all = astc_random_ldr_test_blocks(fp, modes, count, rng);
        AstcStats stats;
        const unsigned slices = unsigned(count / (kBlocksX * kBlocksY));
        for (unsigned s = 0; s < slices; s += kChunkSlices) {
            const unsigned n = std::min(kChunkSlices, slices - s);
            Volume v;
            v.fp = fp;
            v.w = kBlocksX * fp.x, v.h = kBlocksY * fp.y, v.d = n * fp.z;
            v.data.assign(all.begin() + size_t(s) * kBlocksX * kBlocksY * 16,
                          all.begin() + size_t(s + n) * kBlocksX * kBlocksY * 16);
            // Every output on the first 16,384 blocks; then the output that carries the most of
            // the decode (linear: RGBA16F, all 16 bits of the interpolation; sRGB: RGBA8, from
            // which its RGBA16F is defined), to keep lavapipe's time in bounds. The other tests
            // here compare every output on every block.
            CheckOptions opt;
            opt.rgba8 = s == 0 || profile == AstcProfile::ldr_srgb;
            opt.rgba16f = s == 0 || profile == AstcProfile::ldr;
            stats.add(check_volume(*ctx, profile, v, "random blocks", opt));
        }
        std::printf("[astc 3d random] %s %-5s: %zu blocks: %zu error, %zu legal void extents, %zu with an HDR endpoint "
                    "mode (%zu mixed with LDR partitions), %zu decoded normally\n",
                    astc_profile_name(profile), fp_name(fp).c_str(), stats.blocks, stats.error, stats.void_extents,
                    stats.hdr, stats.mixed, stats.blocks - stats.error - stats.void_extents - stats.hdr);
        CHECK(stats.blocks == count);
        CHECK(stats.error > count / 2);                                      // mostly error blocks
        CHECK(stats.blocks - stats.error - stats.void_extents > count / 16);  // a real share decodes
        CHECK(stats.void_extents > 0);
        CHECK(stats.hdr > 0);
    }
    ctx->close_and_check();
}

// The -sfloat formats: astc_random_block_count() blocks in the HDR profile (200,704 by default):
// 1/4 uniformly random bits, 1/8 a legal block mode with random bits above, 1/4 a legal
// one-partition mode with an HDR endpoint mode and random bits above, 1/4 builder blocks (random
// partitionings; partition 0's endpoint mode HDR in half of them), 1/8 3D void extents (HDR with
// random or special FP16 colours, LDR, bad). RGBA16F on every block, NATIVE on the first 16,384.
void run_random_blocks_hdr(AstcFootprint fp) {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    const size_t count = astc_random_block_count();
    INFO("seed " << test_seed() << ", " << count << " blocks (TEXDEC_TEST_RANDOM_BLOCKS scales it)");
    check_format_info(fp, AstcProfile::hdr);
    const std::vector<uint32_t> modes = astc_legal_block_modes_3d(fp.x, fp.y, fp.z);
    static const uint16_t kSpecialHalves[] = {0x0000, 0x8000, 0x0001, 0x03FF, 0x0400, 0x3C00, 0x7BFF, 0xFBFF,
                                              0x7C00, 0xFC00, 0x7E00, 0x7D00, 0xFE01, 0x7FFF, 0xFFFF, 0xBC00};
    SplitMix64 rng(astc_fp_seed_3d(fp, 0x4D53D));
    std::vector<uint8_t> all(count * 16);
    for (size_t i = 0; i < count; ++i) {
        AstcBlock b = astc_random_bits_block(rng);
        const unsigned r = unsigned(rng.next() % 8);
        if (r == 2) {
            astc_set_random_mode(b, modes, rng);
        } else if (r == 3 || r == 4) {
            astc_set_one_partition_hdr_mode(b, modes, rng);
        } else if (r == 5 || r == 6) {
            AstcSpecRequest q;
            if (rng.next() % 2) q.cem = int(kAstcHdrCems[rng.next() % 6]);
            b = astc_random_legal_block_3d(fp, modes, q, rng);
        } else if (r == 7) {
            AstcVoidExtent3d v = astc_random_void_extent_3d(rng);
            v.hdr = rng.next() % 4 != 0;
            for (auto& c : v.rgba) c = rng.next() % 4 ? uint16_t(rng.next()) : kSpecialHalves[rng.next() % 16];
            b = astc_build_void_extent_3d(v);
        }
        std::memcpy(&all[i * 16], b.data(), 16);
    }
    constexpr unsigned kBlocksX = 64, kBlocksY = 16, kChunkSlices = 16;
    AstcStats stats;
    const unsigned slices = unsigned(count / (kBlocksX * kBlocksY));
    for (unsigned z = 0; z < slices; z += kChunkSlices) {
        const unsigned n = std::min(kChunkSlices, slices - z);
        Volume v;
        v.fp = fp;
        v.w = kBlocksX * fp.x, v.h = kBlocksY * fp.y, v.d = n * fp.z;
        v.data.assign(all.begin() + size_t(z) * kBlocksX * kBlocksY * 16, all.begin() + size_t(z + n) * kBlocksX * kBlocksY * 16);
        CheckOptions opt;
        opt.native = z == 0;
        stats.add(check_volume(*ctx, AstcProfile::hdr, v, "random blocks", opt));
    }
    std::printf("[astc 3d random] HDR  %-5s: %zu blocks: %zu error, %zu void extents, %zu decoded from endpoints\n",
                fp_name(fp).c_str(), stats.blocks, stats.error, stats.void_extents, stats.blocks - stats.error - stats.void_extents);
    CHECK(stats.blocks == count);
    CHECK(stats.blocks - stats.error - stats.void_extents > count / 4);  // a real share decodes
    CHECK(stats.void_extents > count / 32);
    CHECK(stats.error > count / 8);
    ctx->close_and_check();
}

// ---- structured blocks ----------------------------------------------------------------------

AstcStructuredSet build_structured(AstcFootprint fp, SplitMix64& rng) {
    AstcStructuredSet set;
    const unsigned W = fp.x, H = fp.y, D = fp.z;
    const std::vector<uint32_t> modes = astc_legal_block_modes_3d(W, H, D);
    set.legal_modes = modes.size();
    auto add_spec = [&](const std::optional<AstcBlockSpec>& spec, const std::string& g) {
        if (!spec) return false;
        set.add(astc_build_random_block_3d(*spec, W, H, D, rng), 0, g);
        if (spec->partitions == 1) set.cems_single.insert(spec->cem[0]);
        else if (spec->shared_cem) set.cems_shared_form.insert(spec->cem[0]);
        else for (unsigned p = 0; p < spec->partitions; ++p) set.cems_per_partition_form.insert(spec->cem[p]);
        if (spec->partitions > 1) set.seeds[spec->partitions].insert(spec->partition_seed);
        const AstcBlockPlan plan = astc_plan_block_3d(*spec, W, H, D);
        if (plan.mode.dual_plane) set.ccs_seen.insert(spec->ccs);
        set.colour_levels.insert(plan.colour_range.levels());
        set.weight_ranges.insert(plan.mode.weight_range);
        return true;
    };
    // 1. Every legal 3D block mode: one partition with CEM 0, then random partitionings and CEMs,
    //    then every CCS for dual-plane modes.
    for (uint32_t mode : modes) {
        AstcSpecRequest one;
        one.block_mode = int(mode), one.partitions = 1, one.cem = 0;
        REQUIRE(add_spec(astc_random_legal_spec_3d(modes, W, H, D, one, rng), "block mode, CEM 0"));
        ++set.modes_covered;
        for (int k = 0; k < 3; ++k) {
            AstcSpecRequest any;
            any.block_mode = int(mode);
            add_spec(astc_random_legal_spec_3d(modes, W, H, D, any, rng, 64), "block mode, random partitioning");
        }
        if (astc_parse_block_mode_3d(mode)->dual_plane)
            for (int ccs = 0; ccs < 4; ++ccs) {
                AstcSpecRequest dual;
                dual.block_mode = int(mode), dual.ccs = ccs;
                add_spec(astc_random_legal_spec_3d(modes, W, H, D, dual, rng, 64), "block mode, dual plane CCS");
            }
    }
    // 2. Every CEM with 1..4 partitions, in both multi-partition encodings.
    for (const AstcSpecRequest& q : astc_cem_partition_requests(8))
        add_spec(astc_random_legal_spec_3d(modes, W, H, D, q, rng), "CEM x partitions");
    // 3. Every partition seed for 2, 3 and 4 partitions (the 3D partition patterns).
    for (int partitions = 2; partitions <= 4; ++partitions)
        for (int seed = 0; seed < 1024; ++seed) {
            AstcSpecRequest q;
            q.partitions = partitions, q.seed = seed;
            add_spec(astc_random_legal_spec_3d(modes, W, H, D, q, rng), "partition seed");
        }
    // 4. Dual plane, every CCS, 1..3 partitions.
    for (int ccs = 0; ccs < 4; ++ccs)
        for (int partitions = 1; partitions <= 3; ++partitions)
            for (int k = 0; k < 12; ++k) {
                AstcSpecRequest q;
                q.dual_plane = 1, q.ccs = ccs, q.partitions = partitions;
                add_spec(astc_random_legal_spec_3d(modes, W, H, D, q, rng), "dual plane CCS");
            }
    // 5. 3D void extents ("Void-Extent Blocks": six 9-bit coordinates, no reserved bits).
    static const uint16_t kColours[] = {0x0000, 0xFFFF, 0x8000, 0x7FFF, 0x00FF, 0xFF00, 0x8080, 0x0080, 0xFF7F, 0x0001};
    auto random_colour = [&](AstcVoidExtent3d& v) {
        for (auto& c : v.rgba) c = rng.next() % 2 ? kColours[rng.next() % 10] : uint16_t(rng.next());
    };
    auto add_void = [&](const AstcVoidExtent3d& v, const std::string& g) {
        const bool error = v.hdr || !astc_void_extent_3d_legal(v);
        set.add(astc_build_void_extent_3d(v), error ? 1 : 0, g);
    };
    for (int k = 0; k < 64; ++k) {  // legal LDR, constant colour (all-ones coordinates)
        AstcVoidExtent3d v;
        random_colour(v);
        add_void(v, "void extent: all-ones");
    }
    for (int k = 0; k < 64; ++k) {  // legal LDR with a real extent (min < max on every axis)
        AstcVoidExtent3d v;
        random_colour(v);
        unsigned* lo[3] = {&v.min_s, &v.min_t, &v.min_r};
        unsigned* hi[3] = {&v.max_s, &v.max_t, &v.max_r};
        for (int a = 0; a < 3; ++a) {
            *lo[a] = unsigned(rng.next() % 0x1FF);
            *hi[a] = *lo[a] + 1 + unsigned(rng.next() % (0x1FF - *lo[a]));
        }
        if (k == 0) v.min_s = v.min_t = v.min_r = 0, v.max_s = v.max_t = v.max_r = 0x1FF;
        add_void(v, "void extent: min < max");
    }
    for (int k = 0; k < 32; ++k) {  // HDR flag: the error colour in an LDR profile
        AstcVoidExtent3d v;
        v.hdr = true;
        random_colour(v);
        if (k % 2) v.min_s = 10, v.max_s = 20, v.min_t = 0, v.max_t = 5, v.min_r = 7, v.max_r = 8;
        add_void(v, "void extent: HDR");
    }
    for (int k = 0; k < 60; ++k) {  // min >= max on some axis, or only some coordinates all-ones: error
        AstcVoidExtent3d v;
        random_colour(v);
        v.min_s = 100, v.max_s = 200, v.min_t = 300, v.max_t = 400, v.min_r = 50, v.max_r = 60;
        switch (k % 10) {
        case 0: v.max_s = v.min_s; break;
        case 1: v.max_t = v.min_t - 1; break;
        case 2: v.max_r = v.min_r; break;
        case 3: v.max_r = 0, v.min_r = 0x1FF; break;
        case 4: v.min_s = v.max_s = 0x1FF; break;                                   // s all-ones, t and r real
        case 5: v.min_s = v.max_s = v.min_t = v.max_t = 0x1FF; break;               // r real
        case 6: v.min_s = v.max_s = v.min_t = v.max_t = v.min_r = 0x1FF, v.max_r = 0x1FE; break;
        case 7: v.min_s = v.max_s = v.min_t = v.max_t = v.max_r = 0x1FF, v.min_r = 0x1FE; break;  // r fine, s and t min == max
        case 8: v.min_r = v.max_r = 0x1FF; break;
        default: v.min_s = 0x1FF, v.max_s = 0, v.min_t = 0, v.max_t = 0x1FF, v.min_r = 0, v.max_r = 0x1FF; break;
        }
        REQUIRE(!astc_void_extent_3d_legal(v));
        add_void(v, "void extent: min >= max");
    }
    // 6. Illegal blocks: every parseable 3D block mode that does not fit the footprint (grid larger
    //    in some axis, > 64 weights, weight bits outside 24..96), with weights written where they
    //    fit; reserved block modes; dual plane with 4 partitions; too many colour values; too few
    //    colour bits.
    for (uint32_t mode = 0; mode < 2048; ++mode) {
        const auto m = astc_parse_block_mode_3d(mode);
        if (m && astc_block_mode_fits_3d(*m, W, H, D)) continue;
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
            const AstcBlockPlan plan = astc_plan_block_3d(s, W, H, D);
            REQUIRE(!plan.legal);
            set.illegal_reasons.insert(plan.why_illegal);
            set.add(astc_build_block_3d(s, W, H, D, &rng, true), 1, "illegal: block mode does not fit");
        } else if ((mode & 0x1FF) != 0x1FC) {
            AstcBlock b = astc_random_bits_block(rng);
            set_block_bits(b.data(), 0, 11, mode);
            set.add(b, 1, "illegal: reserved block mode");
        }
    }
    for (int k = 0; k < 48; ++k) {
        // Dual plane with 4 partitions.
        AstcSpecRequest q;
        q.dual_plane = 1, q.partitions = 3;
        auto spec = astc_random_legal_spec_3d(modes, W, H, D, q, rng);
        if (spec) {
            spec->partitions = 4;
            spec->cem[3] = spec->cem[0];
            const AstcBlockPlan plan = astc_plan_block_3d(*spec, W, H, D);
            REQUIRE(!plan.legal);
            set.add(astc_build_block_3d(*spec, W, H, D, &rng, true), 1, "illegal: dual plane, 4 partitions");
        }
        // More than 18 colour values (3 or 4 partitions of class 3 / 2).
        AstcBlockSpec s;
        s.block_mode = modes[rng.next() % modes.size()];
        s.partitions = 3 + unsigned(rng.next() % 2);
        s.partition_seed = unsigned(rng.next() % 1024);
        const unsigned cem = (s.partitions == 3 ? 12 : 8) + unsigned(rng.next() % 4);
        for (auto& c : s.cem) c = cem;
        if (astc_parse_block_mode_3d(s.block_mode)->dual_plane) s.partitions = 3, s.cem[0] = s.cem[1] = s.cem[2] = 12;
        const AstcBlockPlan plan = astc_plan_block_3d(s, W, H, D);
        REQUIRE(!plan.legal);
        set.add(astc_build_block_3d(s, W, H, D, &rng, true), 1, "illegal: too many colour values");
    }
    {
        // Too few colour bits: the mode with the most weight bits, 2 partitions of CEM 12/13 (16 values).
        uint32_t widest = modes[0];
        for (uint32_t m : modes)
            if (astc_weight_bits(*astc_parse_block_mode_3d(m)) > astc_weight_bits(*astc_parse_block_mode_3d(widest))) widest = m;
        for (int k = 0; k < 16; ++k) {
            AstcBlockSpec s;
            s.block_mode = widest;
            s.partitions = 2;
            s.partition_seed = unsigned(rng.next() % 1024);
            s.cem[0] = s.cem[1] = 12 + unsigned(k % 2);
            const AstcBlockPlan plan = astc_plan_block_3d(s, W, H, D);
            if (plan.legal) break;  // the widest mode still leaves room (the reason check above says so)
            set.illegal_reasons.insert(plan.why_illegal);
            set.add(astc_build_block_3d(s, W, H, D, &rng, true), 1, "illegal: too few colour bits");
        }
    }
    return set;
}

void run_structured_blocks(AstcFootprint fp) {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    INFO("seed " << test_seed() << " (TEXDEC_TEST_SEED changes it)");
    SplitMix64 rng(astc_fp_seed_3d(fp, 0x57C3D));
    AstcStructuredSet set = build_structured(fp, rng);
    // Coverage of the set itself.
    CHECK(set.modes_covered == set.legal_modes);
    CHECK(set.cems_single.size() == 16);
    CHECK(set.cems_shared_form.size() == 16);
    CHECK(set.cems_per_partition_form.size() == 16);
    for (int p = 2; p <= 4; ++p) CHECK(set.seeds[p].size() == 1024);
    CHECK(set.ccs_seen.size() == 4);
    CHECK(set.weight_ranges.size() == kAstcWeightRangeCount);
    CHECK(set.colour_levels.size() == astc_colour_ranges_descending().size());
    // Illegal blocks of every kind the footprint allows (the first reason of each block counts):
    // 6x6x6 admits every grid of the 3D table; a 3x3x3 grid holds at most 54 weights.
    std::vector<std::string> reasons = {"more than 96 weight bits", "fewer than 24 weight bits",
                                        "too few bits for the colour values"};
    if (!(fp.x == 6 && fp.y == 6 && fp.z == 6)) reasons.push_back("weight grid larger than the footprint");
    if (2 * fp.x * fp.y * fp.z > 64) reasons.push_back("more than 64 weights");
    for (const std::string& why : reasons) {
        INFO("illegal blocks of this kind: " << why);
        CHECK(set.illegal_reasons.count(why) == 1);
    }
    // Whole rows of 32 blocks, 8 rows per block slice; padded with copies of the first block.
    constexpr unsigned kBlocksX = 32, kBlocksY = 8;
    while (set.blocks.size() % (kBlocksX * kBlocksY)) set.add(set.blocks.front(), -1, "padding");
    Volume v;
    v.fp = fp;
    v.w = kBlocksX * fp.x, v.h = kBlocksY * fp.y;
    v.d = unsigned(set.blocks.size() / (kBlocksX * kBlocksY)) * fp.z;
    for (const auto& b : set.blocks) v.data.insert(v.data.end(), b.begin(), b.end());
    for (AstcProfile profile : {AstcProfile::ldr, AstcProfile::ldr_srgb}) {
        const Expected exp = check_volume(*ctx, profile, v, "structured blocks");
        // The builder's idea of legality agrees with astcenc (the blocks are what they claim to be).
        size_t disagree = 0;
        for (size_t i = 0; i < set.blocks.size(); ++i) {
            if (set.expect_error[i] < 0) continue;
            const bool error = exp.kind[i] == AstcBlockKind::error;
            if (error != (set.expect_error[i] == 1) && ++disagree <= 6)
                UNSCOPED_INFO(set.group[i] << ": " << astc_hex(set.blocks[i].data()) << " builder says "
                                           << (set.expect_error[i] ? "error" : "legal") << ", astcenc "
                                           << (error ? "error" : "decodes"));
        }
        INFO(astc_profile_name(profile) << " " << fp_name(fp) << ": builder legality vs astcenc, " << disagree << " disagree");
        CHECK(disagree == 0);
        std::printf("[astc 3d structured] %s %-5s: %zu blocks (%zu legal block modes): %zu error, %zu legal void "
                    "extents, %zu with an HDR endpoint mode (%zu mixed)\n",
                    astc_profile_name(profile), fp_name(fp).c_str(), set.blocks.size(), set.legal_modes, exp.error_blocks,
                    exp.void_extents, exp.hdr_endpoint_blocks, exp.mixed_hdr_ldr_blocks);
        CHECK(exp.hdr_endpoint_blocks > 0);
        CHECK(exp.mixed_hdr_ldr_blocks > 0);
    }
    ctx->close_and_check();
}

// ---- images encoded by the astcenc CLI ------------------------------------------------------

// Slice z of a procedural volume as a 32-bit TGA (top-left origin): gradients in x, y and z, hard
// edges that move with z, an alpha ramp, and random colours in one corner.
void write_volume_slice_tga(const std::filesystem::path& file, unsigned w, unsigned h, unsigned d, unsigned z) {
    std::vector<uint8_t> data(18, 0);
    data[2] = 2;
    data[12] = uint8_t(w), data[13] = uint8_t(w >> 8), data[14] = uint8_t(h), data[15] = uint8_t(h >> 8);
    data[16] = 32, data[17] = 0x28;
    SplitMix64 rng(1000 + z);
    for (unsigned y = 0; y < h; ++y)
        for (unsigned x = 0; x < w; ++x) {
            uint8_t r = uint8_t(x * 255 / (w - 1)), g = uint8_t(y * 255 / (h - 1));
            uint8_t b = uint8_t(((x + z) / 4 + (y / 3)) % 2 ? 40 + z * 200 / (d - 1) : 10);
            uint8_t a = uint8_t(255 - (x + y + 5 * z) * 2);
            if (x > w / 2 && y > h / 2 && z > d / 3) r = uint8_t(rng.next()), g = uint8_t(rng.next()), b = uint8_t(rng.next());
            if (y < 6) a = 255;
            data.push_back(b), data.push_back(g), data.push_back(r), data.push_back(a);
        }
    std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size()));
}

// The volume the astcenc CLI wrote to `file` (`encode_error`: what the encode reported, REQUIREd
// empty), REQUIREd to be of footprint fp and w x h x d texels.
Volume encoded_volume(const std::string& encode_error, const std::filesystem::path& file, AstcFootprint fp, unsigned w,
                      unsigned h, unsigned d) {
    INFO(encode_error);
    REQUIRE(encode_error.empty());
    AstcFileContents f = read_astc_file(file);
    INFO(f.error);
    REQUIRE(f.error.empty());
    REQUIRE((f.fp.x == fp.x && f.fp.y == fp.y && f.fp.z == fp.z));
    REQUIRE((f.w == w && f.h == h && f.d == d));
    Volume v;
    v.fp = fp;
    v.w = w, v.h = h, v.d = d;
    v.data = std::move(f.blocks);
    return v;
}

void run_cli_images(AstcProfile profile) {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    const std::string why = astcenc_cli_unavailable_reason();
    INFO(why);
    REQUIRE(why.empty());
    constexpr unsigned kW = 37, kH = 29, kD = 11;
    AstcTempDir dir;
    for (unsigned z = 0; z < kD; ++z) write_volume_slice_tga(dir.path / ("in_" + std::to_string(z) + ".tga"), kW, kH, kD, z);
    for (const AstcFootprint& fp : footprints_3d()) {
        INFO(astc_profile_name(profile) << " " << fp_name(fp));
        const auto file = dir.path / (fp_name(fp) + ".astc");
        const std::string error =
            astcenc_cli_encode(profile, dir.path / "in.tga", file, fp, "-medium -zdim " + std::to_string(kD));
        const Volume v = encoded_volume(error, file, fp, kW, kH, kD);
        const Expected exp = check_volume(*ctx, profile, v, "astcenc CLI volume");
        CHECK(exp.error_blocks == 0);
        CHECK(exp.hdr_endpoint_blocks == 0);
        std::printf("[astc 3d cli] %s %-5s: %zu blocks, %zu void extents\n", astc_profile_name(profile), fp_name(fp).c_str(),
                    exp.kind.size(), exp.void_extents);
    }
    ctx->close_and_check();
}

// The -sfloat formats: a procedural 37x29x7 HDR volume (one OpenEXR per slice, support/astcenc_cli.h)
// encoded by `astcenc -ch` (HDR RGB, LDR alpha) or `-cH` (HDR RGBA) with -zdim 7 at every 3D footprint.
void run_cli_images_hdr(bool hdr_alpha) {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    const std::string why = astcenc_cli_unavailable_reason();
    INFO(why);
    REQUIRE(why.empty());
    constexpr unsigned kW = 37, kH = 29, kD = 7;
    AstcTempDir dir;
    for (unsigned z = 0; z < kD; ++z) {
        const std::string error = write_procedural_exr(dir.path / ("in_" + std::to_string(z) + ".exr"), kW, kH, 500 + z);
        INFO(error);
        REQUIRE(error.empty());
    }
    for (const AstcFootprint& fp : footprints_3d()) {
        INFO((hdr_alpha ? "-cH " : "-ch ") << fp_name(fp));
        const auto file = dir.path / (fp_name(fp) + ".astc");
        const std::string error = astcenc_cli_encode_hdr(hdr_alpha, dir.path / "in.exr", file, fp, "-medium -zdim " + std::to_string(kD));
        const Volume v = encoded_volume(error, file, fp, kW, kH, kD);
        const Expected exp = check_volume(*ctx, AstcProfile::hdr, v, hdr_alpha ? "astcenc -cH volume" : "astcenc -ch volume");
        CHECK(exp.error_blocks == 0);
        // The encoder used HDR endpoint modes (an LDR profile decodes those texels as errors).
        const std::vector<uint8_t> ldr = astcenc_decode_unorm8(AstcProfile::ldr, fp, kW, kH, kD, v.data.data(), v.data.size());
        size_t error_texels = 0;
        for (size_t t = 0; t < ldr.size(); t += 4) error_texels += ldr[t] == 255 && ldr[t + 1] == 0 && ldr[t + 2] == 255 && ldr[t + 3] == 255;
        CHECK(error_texels > ldr.size() / 16);
    }
    ctx->close_and_check();
}

// ---- extents and source layouts ---------------------------------------------------------------

AstcBlock mixed_block(AstcFootprint fp, const std::vector<uint32_t>& modes, SplitMix64& rng) {
    const unsigned r = unsigned(rng.next() % 8);
    if (r < 5) return astc_random_legal_block_3d(fp, modes, {}, rng);
    if (r == 5) {
        if (fp.z > 1) return astc_build_void_extent_3d(astc_random_void_extent_3d(rng));
        AstcVoidExtent v;
        v.hdr = rng.next() % 4 == 0;
        for (auto& c : v.rgba) c = uint16_t(rng.next());
        return astc_build_void_extent(v);
    }
    return astc_random_bits_block(rng);
}

// A source of every block of the layout (also those past the extent): mostly legal blocks.
void fill_mixed(Volume& v, SplitMix64& rng) {
    const std::vector<uint32_t> modes = astc_legal_block_modes_3d(v.fp.x, v.fp.y, v.fp.z);
    v.data.clear();
    for (size_t i = 0; i < v.src_blocks(); ++i) {
        const AstcBlock b = mixed_block(v.fp, modes, rng);
        v.data.insert(v.data.end(), b.begin(), b.end());
    }
}

void run_extents(AstcProfile profile) {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    INFO("seed " << test_seed());
    for (const AstcFootprint& fp : footprints_3d()) {
        SplitMix64 rng(astc_fp_seed_3d(fp, 0xED3D + unsigned(profile)));
        struct Case {
            unsigned w, h, d, row_length, image_height;
            size_t extra_row_bytes, extra_slice_bytes;
        };
        const Case cases[] = {
            {13, 11, 7, 0, 0, 0, 0},
            {1, 1, 1, 0, 0, 0, 0},
            // Two more blocks per source row, one more block row per source slice.
            {2 * fp.x + 3, fp.y + 1, 2 * fp.z + 1, 2 * fp.x + 3 + 2 * fp.x, fp.y + 1 + fp.y, 24, 40},
        };
        for (const Case& c : cases) {
            Volume v;
            v.fp = fp;
            v.w = c.w, v.h = c.h, v.d = c.d, v.row_length = c.row_length, v.image_height = c.image_height;
            fill_mixed(v, rng);
            CheckOptions opt;
            opt.extra_row_bytes = c.extra_row_bytes, opt.extra_slice_bytes = c.extra_slice_bytes;
            INFO("extent " << c.w << "x" << c.h << "x" << c.d << ", source row length " << c.row_length << ", image height "
                           << c.image_height << ", destination padding " << c.extra_row_bytes << "/" << c.extra_slice_bytes);
            check_volume(*ctx, profile, v, "extent", opt);
        }
    }
    ctx->close_and_check();
}

// ---- the block builder's 3D tables against astcenc (no GPU) ---------------------------------

// Every 11-bit mode of every 3D footprint: a legal one (by the builder's 3D table) built with random
// partitionings and CEMs reads back with the builder's grid (W x H x D), weight and colour ranges,
// dual plane, CCS, partition count, seed and CEMs; every other one is an error block.
void run_builder_3d_check() {
    for (const AstcFootprint& fp : footprints_3d()) {
        INFO(fp_name(fp));
        AstcBlockInfoReader reader(fp);
        SplitMix64 rng(astc_fp_seed_3d(fp, 0xB3D));
        const std::vector<uint32_t> modes = astc_legal_block_modes_3d(fp.x, fp.y, fp.z);
        size_t checked = 0, errors_checked = 0, bad = 0;
        std::string first_bad;
        auto fail = [&](const AstcBlock& b, const std::string& what) {
            if (bad++ == 0) first_bad = astc_hex(b.data()) + ": " + what;
        };
        for (uint32_t mode = 0; mode < 2048; ++mode) {
            const auto m = astc_parse_block_mode_3d(mode);
            if (std::find(modes.begin(), modes.end(), mode) == modes.end()) {
                if ((mode & 0x1FF) == 0x1FC) continue;  // void extent
                AstcBlock b = astc_random_bits_block(rng);
                set_block_bits(b.data(), 0, 11, mode);
                if (!reader.read(b)->is_error_block) fail(b, "mode " + std::to_string(mode) + " is legal for astcenc");
                ++errors_checked;
                continue;
            }
            REQUIRE(m);
            for (int k = 0; k < 3; ++k) {
                AstcSpecRequest req;
                req.block_mode = int(mode);
                if (k == 0) req.partitions = 1, req.cem = 0;  // always legal
                const auto spec = astc_random_legal_spec_3d(modes, fp.x, fp.y, fp.z, req, rng);
                if (!spec) {
                    REQUIRE(k != 0);
                    continue;
                }
                const AstcBlockPlan plan = astc_plan_block_3d(*spec, fp.x, fp.y, fp.z);
                const AstcBlock b = astc_build_random_block_3d(*spec, fp.x, fp.y, fp.z, rng);
                const auto info = reader.read(b);
                ++checked;
                bool same = !info->is_error_block && !info->is_constant_block && info->partition_count == spec->partitions &&
                            info->is_dual_plane_block == m->dual_plane && info->weight_x == m->grid_w &&
                            info->weight_y == m->grid_h && info->weight_z == m->grid_d &&
                            info->weight_level_count == astc_weight_range(m->weight_range).levels() &&
                            info->color_level_count == plan.colour_range.levels();
                if (spec->partitions > 1) same = same && info->partition_index == spec->partition_seed;
                if (m->dual_plane) same = same && info->dual_plane_component == spec->ccs;
                for (unsigned p = 0; p < spec->partitions; ++p) same = same && info->color_endpoint_modes[p] == spec->cem[p];
                if (!same)
                    fail(b, "mode " + std::to_string(mode) + ": astcenc reads grid " + std::to_string(info->weight_x) + "x" +
                                std::to_string(info->weight_y) + "x" + std::to_string(info->weight_z) + ", builder " +
                                std::to_string(m->grid_w) + "x" + std::to_string(m->grid_h) + "x" + std::to_string(m->grid_d) +
                                (info->is_error_block ? " (astcenc: error block)" : ""));
            }
        }
        INFO(checked << " legal blocks and " << errors_checked << " other modes checked; " << bad
                     << " disagree; first: " << first_bad);
        CHECK(checked >= modes.size());
        CHECK(errors_checked > 0);
        CHECK(bad == 0);
    }
}

// ---- a volume split into several dispatches -------------------------------------------------

// A large volume of 6x6x6 blocks: 3 in 4 constant-colour void extents (cheap for the oracle), the
// rest random legal blocks, so each block slice differs from the next.
Volume large_6x6x6_volume(unsigned w, unsigned h, unsigned d, uint64_t salt) {
    const AstcFootprint fp = footprint_3d(6, 6, 6);
    SplitMix64 rng(astc_fp_seed_3d(fp, salt));
    const std::vector<uint32_t> modes = astc_legal_block_modes_3d(fp.x, fp.y, fp.z);
    Volume v;
    v.fp = fp;
    v.w = w, v.h = h, v.d = d;
    v.data.reserve(v.src_blocks() * 16);
    for (size_t i = 0; i < v.src_blocks(); ++i) {
        AstcBlock b;
        if (rng.next() % 4) {
            AstcVoidExtent3d e;
            for (auto& c : e.rgba) c = uint16_t(rng.next());
            b = astc_build_void_extent_3d(e);
        } else {
            b = astc_build_random_block_3d(*astc_random_legal_spec_3d(modes, fp.x, fp.y, fp.z, {}, rng), fp.x, fp.y, fp.z, rng);
        }
        v.data.insert(v.data.end(), b.begin(), b.end());
    }
    return v;
}

// 258^3 texels of 6x6x6 blocks (43^3 = 79,507 blocks, over 2^24 texels): the library's work cap
// (2^24 texels per dispatch) splits the job along z (record.cpp: 42 block slices, then 1).
void run_split_volume() {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    const Volume v = large_6x6x6_volume(258, 258, 258, 0xB16);
    REQUIRE(uint64_t(v.w) * v.h * v.d > (uint64_t(1) << 24));
    CheckOptions opt;  // RGBA8 only: 69 MB of texels (RGBA16F would double it and split the same way)
    opt.native = opt.rgba16f = false;
    check_volume(*ctx, AstcProfile::ldr, v, "split volume", opt);
    ctx->close_and_check();
}

// texdec_decode of a 2048 x 2048 x 6 volume of 6x6x6 blocks to RGBA16F: one block slice
// is 6 texel slices of 32 MiB, more than a 128 MiB maxStorageBufferRange can bind. Decoded twice:
// streamed through the default staging parts, and in one submission (TEXDEC_DEBUG_STAGING_PART_BYTES
// of 1 GiB), where the record path must cut each block slice into dispatches of a few texel
// slices. The validation layer (on in OwnContext) reports any descriptor range past the limit.
void run_wide_volume() {
    const Volume v = large_6x6x6_volume(2048, 2048, 6, 0x2048);
    const AstcFootprint fp = v.fp;
    CheckOptions opt;  // RGBA16F only: 192 MiB of texels
    opt.rgba8 = opt.native = false;
    for (const char* part_bytes : {static_cast<const char*>(nullptr), "1073741824"}) {
        if (part_bytes) setenv("TEXDEC_DEBUG_STAGING_PART_BYTES", part_bytes, 1);
        auto ctx = OwnContext::open(Backend::gpu);
        if (part_bytes) unsetenv("TEXDEC_DEBUG_STAGING_PART_BYTES");
        if (!ctx) return;
        uint64_t host = 0, device = 0;
        // scratch_size does not need the texels' pointer, only their size.
        const texdec_host_job job = JobBuilder(format_of(fp, AstcProfile::ldr), TEXDEC_OUTPUT_RGBA16F, v.w, v.h, v.d)
                                        .blocks(v.data.data(), v.data.size())
                                        .texels(nullptr, size_t(v.w) * v.h * v.d * 8);
        REQUIRE(texdec_decode_scratch_size(ctx->get(), &job, &host, &device) == TEXDEC_SUCCESS);
        INFO("staging " << host << " host bytes");
        if (part_bytes) CHECK(host >= v.data.size() + uint64_t(v.w) * v.h * v.d * 8);  // the whole job at once
        else CHECK(host <= uint64_t(128) << 20);                                      // two parts of at most 64 MiB
        check_volume(*ctx, AstcProfile::ldr, v, part_bytes ? "wide volume in one submission" : "wide volume streamed", opt);
        ctx->close_and_check();
    }
}

// ---- the record path: buffers, 3D images, 2D array images -----------------------------------

enum class Dst { buffer, image_array, image_3d };

const char* dst_name(Dst d) { return d == Dst::buffer ? "buffer" : d == Dst::image_array ? "2D array image" : "3D image"; }

uint32_t memory_type_for(VulkanTestDevice& dev, uint32_t type_bits) {
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(dev.physical_device(), &props);
    for (VkMemoryPropertyFlags want : {VkMemoryPropertyFlags(VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT), VkMemoryPropertyFlags(0)})
        for (uint32_t i = 0; i < props.memoryTypeCount; ++i)
            if ((type_bits & (1u << i)) && (props.memoryTypes[i].propertyFlags & want) == want) return i;
    return UINT32_MAX;
}

// A VK_IMAGE_TYPE_3D image with one 3D view of `view_format` (VulkanTestDevice::create_image makes
// 2D array images only).
TestImage create_image_3d(VulkanTestDevice& dev, VkFormat format, uint32_t w, uint32_t h, uint32_t d, VkImageUsageFlags usage,
                          VkImageCreateFlags flags, VkFormat view_format) {
    VkImageFormatProperties ifp{};
    const VkResult supported = vkGetPhysicalDeviceImageFormatProperties(dev.physical_device(), format, VK_IMAGE_TYPE_3D,
                                                                        VK_IMAGE_TILING_OPTIMAL, usage, flags, &ifp);
    INFO("3D image of format " << format << " with storage usage");
    REQUIRE(supported == VK_SUCCESS);
    REQUIRE(ifp.maxExtent.depth >= d);
    TestImage img;
    VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.flags = flags;
    ici.imageType = VK_IMAGE_TYPE_3D;
    ici.format = format;
    ici.extent = {w, h, d};
    ici.mipLevels = 1;
    ici.arrayLayers = 1;
    ici.samples = VK_SAMPLE_COUNT_1_BIT;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = usage;
    ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    REQUIRE(vkCreateImage(dev.device(), &ici, nullptr, &img.image) == VK_SUCCESS);
    img.info = ici;
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(dev.device(), img.image, &req);
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = memory_type_for(dev, req.memoryTypeBits);
    REQUIRE(mai.memoryTypeIndex != UINT32_MAX);
    REQUIRE(vkAllocateMemory(dev.device(), &mai, nullptr, &img.memory) == VK_SUCCESS);
    REQUIRE(vkBindImageMemory(dev.device(), img.image, img.memory, 0) == VK_SUCCESS);
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = img.image;
    vci.viewType = VK_IMAGE_VIEW_TYPE_3D;
    vci.format = view_format;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageViewUsageCreateInfo usage_info{VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO};
    if (view_format != format) {  // the sRGB image's UNORM storage view (see create_image)
        usage_info.usage = usage;
        vci.pNext = &usage_info;
    }
    REQUIRE(vkCreateImageView(dev.device(), &vci, nullptr, &img.view) == VK_SUCCESS);
    return img;
}

VkImageMemoryBarrier barrier_3d(VkImage image, VkImageLayout from, VkImageLayout to, VkAccessFlags src, VkAccessFlags dst) {
    VkImageMemoryBarrier ib{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    ib.srcQueueFamilyIndex = ib.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    ib.image = image;
    ib.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    ib.oldLayout = from, ib.newLayout = to, ib.srcAccessMask = src, ib.dstAccessMask = dst;
    return ib;
}

// record_image_canary / record_image_readback (gpu/external_setup.h) for a 3D image.
void record_canary_3d(VkCommandBuffer cmd, VkImage image, const HostBuffer& canary, uint32_t w, uint32_t h, uint32_t d) {
    VkImageMemoryBarrier ib = barrier_3d(image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT);
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1, &ib);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {w, h, d};
    vkCmdCopyBufferToImage(cmd, canary.buffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    ib = barrier_3d(image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL, VK_ACCESS_TRANSFER_WRITE_BIT,
                    VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT);
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, nullptr, 0, nullptr, 1, &ib);
}

void record_readback_3d(VkCommandBuffer cmd, VkImage image, const HostBuffer& readback, uint32_t w, uint32_t h, uint32_t d) {
    const VkImageMemoryBarrier ib = barrier_3d(image, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                               VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1, &ib);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {w, h, d};
    vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1, &region);
}

bool is_half_nan(uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x03FF) != 0; }

// One destination of a record job and where its texels land in its readback buffer.
struct Target {
    Dst dst;
    texdec_output output;
    uint32_t texel = 0;
    HostBuffer buffer, readback, canary;  // buffer: `buffer` is the destination; images: `canary`
    TestImage image;
    uint32_t iw = 0, ih = 0, id = 0;      // image extent (id: layers or depth)
    size_t origin = 0, row_pitch = 0, slice_pitch = 0, bytes = 0;  // texel (0,0,0) of the job in `readback`
    uint32_t w = 0, h = 0, d = 0;          // the job's extent
};

// Records the decode of `job_base` (source filled in) into a new destination of kind `dst`.
// A buffer destination's slice pitch is `slice_pitch` where given (a multiple of 8).
Target record_target(VulkanTestDevice& dev, texdec_context* ctx, VkCommandBuffer cmd, const RecordJob& job_base,
                     Dst dst, texdec_output output, size_t slice_pitch = 0) {
    Target t;
    t.dst = dst, t.output = output;
    t.w = job_base.width, t.h = job_base.height, t.d = job_base.depth;
    t.texel = output == TEXDEC_OUTPUT_RGBA16F ? 8 : 4;
    RecordJob job = job_base;
    job.output = output;
    if (dst == Dst::buffer) {
        t.origin = 64;
        t.row_pitch = size_t(t.w + 3) * t.texel;
        t.slice_pitch = slice_pitch ? slice_pitch : t.row_pitch * t.h + 5 * t.texel;
        const size_t dst_size = t.slice_pitch * (t.d - 1) + t.row_pitch * (t.h - 1) + size_t(t.w) * t.texel;
        t.bytes = t.origin + dst_size + 64;
        t.buffer = dev.create_buffer(t.bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
        fill_canary(t.buffer.mapped, t.bytes);
        t.readback = dev.create_buffer(t.bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
        job.into_buffer(t.buffer.buffer, t.origin, dst_size, t.row_pitch, t.slice_pitch);
        REQUIRE(record_one(ctx, cmd, &job) == TEXDEC_SUCCESS);
        VkBufferCopy copy{0, 0, t.bytes};
        vkCmdCopyBuffer(cmd, t.buffer.buffer, t.readback.buffer, 1, &copy);
        return t;
    }
    // Images: the extent at an origin inside a larger image, canary around it.
    const int32_t x0 = 3, y0 = 5;
    const uint32_t z0 = dst == Dst::image_3d ? 2 : 1;
    VkFormat vk_format = VK_FORMAT_UNDEFINED;
    REQUIRE(texdec_output_vk_format(job.format, output, &vk_format) == TEXDEC_SUCCESS);
    const StorageImageFormat sf = storage_image_format(dev, vk_format);
    t.iw = t.w + x0 + 2, t.ih = t.h + y0 + 1, t.id = t.d + z0 + 1;
    const VkImageUsageFlags usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    t.image = dst == Dst::image_3d ? create_image_3d(dev, vk_format, t.iw, t.ih, t.id, usage, sf.flags, sf.view)
                                   : dev.create_image(vk_format, t.iw, t.ih, t.id, usage, sf.flags, sf.view);
    t.row_pitch = size_t(t.iw) * t.texel;
    t.slice_pitch = t.row_pitch * t.ih;
    t.origin = z0 * t.slice_pitch + y0 * t.row_pitch + x0 * t.texel;
    t.bytes = t.slice_pitch * t.id;
    t.canary = dev.create_buffer(t.bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    fill_canary(t.canary.mapped, t.bytes);
    t.readback = dev.create_buffer(t.bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    if (dst == Dst::image_3d) record_canary_3d(cmd, t.image.image, t.canary, t.iw, t.ih, t.id);
    else record_image_canary(cmd, t.image.image, t.canary, t.iw, t.ih, t.id);
    REQUIRE(record_one(ctx, cmd, &job.into_image(&t.image, x0, y0, z0)) == TEXDEC_SUCCESS);
    if (dst == Dst::image_3d) record_readback_3d(cmd, t.image.image, t.readback, t.iw, t.ih, t.id);
    else record_image_readback(cmd, t.image.image, t.readback, t.iw, t.ih, t.id);
    return t;
}

// Compares a target's texels with the expectation (tolerance 0; an RGBA16F *image* may hold any
// NaN where a NaN is expected: the driver converts the shader's NaN, see test_astc_record.cpp),
// checks the canary around them, and frees the target.
void check_target(VulkanTestDevice& dev, Target& t, const Expected& exp, const std::string& what) {
    const bool half = t.output == TEXDEC_OUTPUT_RGBA16F, image = t.dst != Dst::buffer;
    INFO(what << ", " << dst_name(t.dst) << ", " << output_name(t.output));
    TexelLayout layout;
    layout.offset = t.origin, layout.row_pitch = t.row_pitch, layout.slice_pitch = t.slice_pitch;
    const size_t clobbered = first_clobbered_byte(t.readback.mapped, t.bytes, resolve(layout, t.texel, t.w, t.h), t.w, t.h, t.d);
    INFO("first byte outside the texels that changed: " << clobbered_text(clobbered));
    CHECK(clobbered == SIZE_MAX);
    size_t mismatches = 0;
    std::string first;
    for (uint32_t z = 0; z < t.d; ++z)
        for (uint32_t y = 0; y < t.h; ++y)
            for (uint32_t x = 0; x < t.w; ++x)
                for (uint32_t c = 0; c < 4; ++c) {
                    const size_t i = ((size_t(z) * t.h + y) * t.w + x) * 4 + c;
                    const uint8_t* texel = t.readback.mapped + t.origin + z * t.slice_pitch + y * t.row_pitch + size_t(x) * t.texel;
                    uint32_t got, want;
                    bool ok;
                    if (half) {
                        uint16_t h16;
                        std::memcpy(&h16, texel + 2 * c, 2);
                        got = h16, want = exp.rgba16f[i];
                        ok = got == want || (image && is_half_nan(uint16_t(want)) && is_half_nan(uint16_t(got)));
                    } else {
                        got = texel[c], want = exp.rgba8[i];
                        ok = got == want;
                    }
                    if (!ok && mismatches++ == 0)
                        first = "texel (" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ") channel " +
                                std::to_string(c) + ": got " + std::to_string(got) + ", expected " + std::to_string(want);
                }
    INFO(mismatches << " mismatching components; first: " << first);
    CHECK(mismatches == 0);
    dev.destroy(t.readback);
    if (t.dst == Dst::buffer) {
        dev.destroy(t.buffer);
    } else {
        dev.destroy(t.canary);
        dev.destroy(t.image);
    }
}

// One footprint and profile through the record path: a w x h x d extent from a source at an
// offset with a row length / image height past the extent, into every destination in `dsts`
// with RGBA8 and RGBA16F, all in one command buffer; compared with astcenc decoding the volume.
// `slice_pitch` (buffer destinations): the destination's slice pitch, 0 for a small one.
void record_case(ExternalSetup& setup, AstcFootprint fp, AstcProfile profile, unsigned w, unsigned h, unsigned d,
                 const std::vector<Dst>& dsts, size_t slice_pitch = 0) {
    const std::vector<texdec_output> outputs = profile == AstcProfile::hdr ? std::vector<texdec_output>{TEXDEC_OUTPUT_RGBA16F}
                                                                           : std::vector<texdec_output>{TEXDEC_OUTPUT_RGBA8, TEXDEC_OUTPUT_RGBA16F};
    VulkanTestDevice& dev = *setup.device;
    const std::string what = std::string(astc_profile_name(profile)) + " " + fp_name(fp) + " " + std::to_string(w) + "x" +
                             std::to_string(h) + "x" + std::to_string(d);
    INFO(what);
    SplitMix64 rng(astc_fp_seed_3d(fp, 0x7EC0 + unsigned(profile)));
    Volume v;
    v.fp = fp;
    v.w = w, v.h = h, v.d = d;
    v.row_length = w + 2 * fp.x, v.image_height = h + fp.y;
    fill_mixed(v, rng);
    const Expected exp = expected_outputs(profile, fp, w, h, d, v.tight());
    CHECK(exp.anomalies.empty());
    // The source buffer: 256 random bytes, then the blocks.
    const size_t offset = 256;
    std::vector<uint8_t> bytes(offset + v.data.size());
    for (size_t i = 0; i < offset; ++i) bytes[i] = uint8_t(rng.next());
    std::memcpy(&bytes[offset], v.data.data(), v.data.size());
    HostBuffer staging = dev.create_buffer(bytes.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    std::memcpy(staging.mapped, bytes.data(), bytes.size());
    HostBuffer src = dev.create_buffer(bytes.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);

    RecordJob base{.format = format_of(fp, profile),
                   .barriers = true,
                   .width = w,
                   .height = h,
                   .depth = d,
                   .src_buffer = src.buffer,
                   .src_offset = offset,
                   .src_size = v.data.size(),
                   .src_row_length = v.row_length,
                   .src_image_height = v.image_height};

    VkCommandBuffer cmd = dev.begin_commands();
    VkBufferCopy upload{0, 0, bytes.size()};
    vkCmdCopyBuffer(cmd, staging.buffer, src.buffer, 1, &upload);
    std::vector<Target> targets;
    for (Dst dst : dsts)
        for (texdec_output output : outputs) targets.push_back(record_target(dev, setup.ctx, cmd, base, dst, output, slice_pitch));
    host_read_barrier(cmd);
    dev.submit_and_wait(cmd);
    check_no_validation_messages(dev.log(), "recording and running the ASTC decodes");
    for (Target& t : targets) check_target(dev, t, exp, what);
    dev.destroy(staging);
    dev.destroy(src);
}

}  // namespace

TEST_CASE("ASTC 3D record path: buffer and 3D storage image destinations for every 3D footprint",
          "[astc][astc3d][external][gpu][heavy]") {
    ExternalSetup setup;
    if (!setup.open()) return;
    // 3D images for every footprint; buffers (the pipeline texdec_decode uses too, with the job's
    // offset and pitches here) for the four cubic footprints. Lavapipe compiles a pipeline per
    // footprint, profile, output and destination kind (slow under ASan).
    for (AstcProfile profile : {AstcProfile::ldr, AstcProfile::ldr_srgb, AstcProfile::hdr})
        for (const AstcFootprint& fp : footprints_3d()) {
            std::vector<Dst> dsts = {Dst::image_3d};
            if (fp.x == fp.y && fp.y == fp.z) dsts.push_back(Dst::buffer);  // 3x3x3, 4x4x4, 5x5x5, 6x6x6
            record_case(setup, fp, profile, 2 * fp.x + 1, fp.y + 2, 2 * fp.z + 1, dsts);
        }
    setup.close();
}

TEST_CASE("ASTC 2D footprints on 3D images and arrays: record path into 3D images and 2D arrays and buffers",
          "[astc][astc3d][external][gpu][heavy]") {
    ExternalSetup setup;
    if (!setup.open()) return;
    // Three of the 14 2D footprints (the largest tile, a non-square one, the smallest tile): every
    // 2D footprint goes through the same slice-by-slice path, and test_astc_record.cpp /
    // test_astc_hdr.cpp take each one into 2D arrays; lavapipe compiles a pipeline per case.
    const AstcFootprint footprints[] = {{4, 4, 1}, {10, 6, 1}, {12, 12, 1}};
    for (AstcProfile profile : {AstcProfile::ldr, AstcProfile::ldr_srgb, AstcProfile::hdr})
        for (const AstcFootprint& fp : footprints)
            record_case(setup, fp, profile, 2 * fp.x + 1, fp.y + 2, 5, {Dst::buffer, Dst::image_array, Dst::image_3d});
    setup.close();
}

// A buffer destination whose texel slices lie so far apart that one block slice of a 3D
// footprint (block_depth texel slices) spans more than maxStorageBufferRange: texdec must cut
// inside the block slice so that no descriptor range exceeds the limit (the validation layer
// reports any that does), and the texels must still be right. Slice pitches are chosen from the
// device's limit: just past it for 2 pitches (3x3x3: the 64 MiB pitch of a 128 MiB limit), room
// for 4 of 6 slices (6x6x6), and a pitch beyond the limit on its own (5x5x5: one slice per dispatch).
TEST_CASE("ASTC 3D record path: slice pitches past maxStorageBufferRange", "[astc][astc3d][external][gpu][heavy]") {
    ExternalSetup setup;
    if (!setup.open()) return;
    const uint64_t limit = setup.device->properties().limits.maxStorageBufferRange;
    INFO("maxStorageBufferRange " << limit);
    if (limit > (uint64_t(512) << 20)) {
        // A pitch past a multi-GiB range needs buffers of several GiB per case: the cut is then
        // exercised with the pitches of a 128 MiB device (still well-formed, larger than usual).
        WARN("maxStorageBufferRange is " << limit << ": these pitches do not reach it on this device");
    }
    const uint64_t range = std::min<uint64_t>(limit, uint64_t(128) << 20);
    struct Case {
        AstcFootprint fp;
        unsigned w, h, d;
        uint64_t pitch;
    };
    const Case cases[] = {
        {{3, 3, 3}, 7, 5, 4, range / 2 + 256},      // (3 - 1) pitches just over the range
        {{6, 6, 6}, 13, 7, 7, range * 3 / 10 / 8 * 8},  // 4 texel slices per dispatch, then 2, then 1
        {{5, 5, 5}, 6, 6, 2, range + 4096},         // one texel slice per dispatch
        {{4, 4, 4}, 9, 4, 6, range / 3 / 8 * 8 + 8},  // 3 and 1 texel slices, then 2
    };
    for (const Case& c : cases) record_case(setup, c.fp, AstcProfile::ldr, c.w, c.h, c.d, {Dst::buffer}, size_t(c.pitch));
    record_case(setup, cases[1].fp, AstcProfile::hdr, cases[1].w, cases[1].h, cases[1].d, {Dst::buffer}, size_t(cases[1].pitch));
    setup.close();
}

TEST_CASE("ASTC 3D builder: every 3D block mode read back by astcenc_get_block_info as built", "[astc-builder][astc3d]") {
    run_builder_3d_check();
}

TEST_CASE("ASTC 3D split into several dispatches: 258x258x258 texels of 6x6x6", "[astc][astc3d][gpu]") { run_split_volume(); }
TEST_CASE("ASTC 3D texdec_decode of 2048x2048x6 texels of 6x6x6 to RGBA16F within maxStorageBufferRange",
          "[astc][astc3d][gpu][heavy]") {
    run_wide_volume();
}

TEST_CASE("ASTC 3D astcenc CLI images: LDR", "[astc][astc3d][gpu]") { run_cli_images(AstcProfile::ldr); }
TEST_CASE("ASTC 3D astcenc CLI images: sRGB", "[astc][astc3d][gpu]") { run_cli_images(AstcProfile::ldr_srgb); }

TEST_CASE("ASTC 3D sfloat astcenc CLI images: -ch", "[astc][astc3d][gpu]") { run_cli_images_hdr(false); }
TEST_CASE("ASTC 3D sfloat astcenc CLI images: -cH", "[astc][astc3d][gpu]") { run_cli_images_hdr(true); }

TEST_CASE("ASTC 3D extents and source layout: LDR", "[astc][astc3d][gpu]") { run_extents(AstcProfile::ldr); }
TEST_CASE("ASTC 3D extents and source layout: sRGB", "[astc][astc3d][gpu]") { run_extents(AstcProfile::ldr_srgb); }

#define ASTC_3D_FOOTPRINT_TESTS(X, Y, Z)                                                                     \
    TEST_CASE("ASTC 3D random blocks: " #X "x" #Y "x" #Z, "[astc][astc3d][gpu][random]") {                 \
        run_random_blocks(footprint_3d(X, Y, Z));                                                            \
    }                                                                                                        \
    TEST_CASE("ASTC 3D structured blocks: " #X "x" #Y "x" #Z, "[astc][astc3d][gpu]") {                      \
        run_structured_blocks(footprint_3d(X, Y, Z));                                                        \
    }                                                                                                        \
    TEST_CASE("ASTC 3D sfloat random blocks: " #X "x" #Y "x" #Z, "[astc][astc3d][gpu][random]") {          \
        run_random_blocks_hdr(footprint_3d(X, Y, Z));                                                        \
    }

ASTC_3D_FOOTPRINT_TESTS(3, 3, 3)
ASTC_3D_FOOTPRINT_TESTS(4, 3, 3)
ASTC_3D_FOOTPRINT_TESTS(4, 4, 3)
ASTC_3D_FOOTPRINT_TESTS(4, 4, 4)
ASTC_3D_FOOTPRINT_TESTS(5, 4, 4)
ASTC_3D_FOOTPRINT_TESTS(5, 5, 4)
ASTC_3D_FOOTPRINT_TESTS(5, 5, 5)
ASTC_3D_FOOTPRINT_TESTS(6, 5, 5)
ASTC_3D_FOOTPRINT_TESTS(6, 6, 5)
ASTC_3D_FOOTPRINT_TESTS(6, 6, 6)

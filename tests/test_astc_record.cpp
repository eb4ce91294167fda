// ASTC through the record path, as an emulator uses it: texdec_record_regions into the test's own
// command buffer on the test's own device (validation layer with synchronization validation; any
// message fails), for every 2D footprint and both profiles (UNORM, sRGB), RGBA8 and RGBA16F, all
// recorded into ONE command buffer per footprint/profile after one upload:
//   - buffer destinations: texels at an offset, padded rows and slices;
//   - storage-image destinations: a 2D array image, texels at an origin (x0, y0) from layer 1
//     (sRGB: an R8G8B8A8_SRGB image with MUTABLE_FORMAT written through a UNORM view).
// The job has 2 slices, a source offset and a source row length / image height larger than the
// extent, and an extent that is not a multiple of the footprint. Blocks: legal blocks of random
// modes, partitionings and endpoint modes (tests/support/astc_block_builder.h), void extents and
// uniformly random bits (mostly illegal).
// Expected values: astc_expected_outputs (libastcenc 4.2 per docs/EXACTNESS.md), slice by slice, with
// tolerance 0, except one documented case: an RGBA16F *image* holds whatever NaN the driver's
// conversion of the shader's NaN gives, so where 0xFFFF (NaN) is expected any FP16 NaN is accepted
// there (the buffer destinations must hold 0xFFFF exactly; sRGB formats expect no NaN anywhere,
// their error colour is magenta). Bytes outside the texels hold a canary that must survive.
// "ASTC error colours: ...": one block of each error kind (reserved block mode, bad void extent,
// HDR void extent, HDR endpoint mode) in 2D and 3D sRGB and UNORM formats, every texel compared
// with the literal colour of the spec's table: buffer, 2D-array image and the CPU reference.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gpu/external_setup.h"
#include "oracles/astc_expected.h"
#include "reference/cpu_reference.h"
#include "support/astc_block_builder.h"
#include "support/astc_random_blocks.h"
#include "support/astc_test_support.h"
#include "support/compare.h"
#include "support/job_builder.h"
#include "support/random_blocks.h"
#include "support/record_compare.h"  // check_canary_around
#include "support/texel_walk.h"

using namespace texdec_test;

namespace {

constexpr uint32_t kSlices = 2;

// Source: `slices` slices of row_blocks x rows blocks, the extent's blocks in the top-left
// corner; the bytes before `offset` and the spare blocks are random too.
struct AstcSource : StagedSource {
    uint32_t width = 0, height = 0;                  // extent (texels)
    uint32_t row_length = 0, image_height = 0;       // texels
    uint32_t row_blocks = 0, rows = 0;               // per slice
    size_t offset = 256;
    std::vector<uint8_t> bytes;

    const uint8_t* block(uint32_t bx, uint32_t by, uint32_t z) const {
        return &bytes[offset + ((size_t(z) * rows + by) * row_blocks + bx) * 16];
    }
};

AstcBlock mixed_block(AstcFootprint fp, const std::vector<uint32_t>& modes, SplitMix64& rng) {
    const uint64_t pick = rng.next() % 8;
    if (pick == 0) return astc_random_bits_block(rng);  // mostly illegal blocks
    if (pick == 1) {  // void extent, constant colour (sometimes HDR, sometimes bad reserved bits)
        AstcVoidExtent v;
        v.hdr = rng.next() % 4 == 0;
        v.reserved = rng.next() % 4 == 0 ? unsigned(rng.next() % 3) : 3u;
        for (uint16_t& c : v.rgba) c = uint16_t(rng.next());
        return astc_build_void_extent(v);
    }
    return astc_random_legal_block(fp, modes, {}, rng);
}

AstcSource make_source(VulkanTestDevice& dev, AstcFootprint fp, uint64_t seed) {
    AstcSource s;
    s.width = 3 * fp.x + 1;  // partial last block column and row
    s.height = 2 * fp.y + 3;
    s.row_length = s.width + 2 * fp.x;
    s.image_height = s.height + fp.y;
    s.row_blocks = (s.row_length + fp.x - 1) / fp.x;
    s.rows = (s.image_height + fp.y - 1) / fp.y;
    const size_t blocks = size_t(s.row_blocks) * s.rows * kSlices;
    s.bytes.resize(s.offset + blocks * 16 + 64);
    SplitMix64 rng(seed);
    for (uint8_t& b : s.bytes) b = uint8_t(rng.next());
    const std::vector<uint32_t> modes = astc_legal_block_modes_2d(fp.x, fp.y);
    for (size_t i = 0; i < blocks; ++i) {
        const AstcBlock b = mixed_block(fp, modes, rng);
        std::memcpy(&s.bytes[s.offset + i * 16], b.data(), 16);
    }
    static_cast<StagedSource&>(s) = create_staged_source(dev, s.bytes);
    return s;
}

// What the oracle says for slice z: its blocks gathered tightly, decoded at the extent.
AstcExpected expected_slice(AstcProfile profile, AstcFootprint fp, const AstcSource& s, uint32_t z) {
    const uint32_t bx = (s.width + fp.x - 1) / fp.x, by = (s.height + fp.y - 1) / fp.y;
    std::vector<uint8_t> tight;
    for (uint32_t y = 0; y < by; ++y)
        for (uint32_t x = 0; x < bx; ++x) tight.insert(tight.end(), s.block(x, y, z), s.block(x, y, z) + 16);
    AstcExpected e = astc_expected_outputs(profile, fp, s.width, s.height, tight.data(), tight.size());
    CHECK(e.anomalies.empty());
    return e;
}

// Compares the texels at `base` (row / slice pitch in bytes) with the expected slices.
void check_texels(texdec_output output, const uint8_t* base, size_t row_pitch, size_t slice_pitch,
                  const std::vector<AstcExpected>& expected, uint32_t w, uint32_t h, bool any_nan_ok, const char* where) {
    const bool half = output == TEXDEC_OUTPUT_RGBA16F;
    const SliceTexels texels{base, row_pitch, slice_pitch, half};
    size_t mismatches = 0;
    std::string first;
    for_each_channel(w, h, kSlices, [&](uint32_t x, uint32_t y, uint32_t z, uint32_t c) {
        const size_t i = (size_t(y) * w + x) * 4 + c;
        const uint32_t got = texels.channel(x, y, z, c);
        const uint32_t want = half ? expected[z].rgba16f[i] : expected[z].rgba8[i];
        const bool ok = got == want || (half && any_nan_ok && want == 0xFFFF && is_half_nan(uint16_t(got)));
        if (!ok && mismatches++ == 0)
            first = "slice " + std::to_string(z) + " texel (" + std::to_string(x) + "," + std::to_string(y) +
                    ") channel " + std::to_string(c) + ": got " + std::to_string(got) + ", expected " +
                    std::to_string(want);
    });
    INFO(where << ": " << mismatches << " mismatching components; first: " << first);
    CHECK(mismatches == 0);
}

}  // namespace

TEST_CASE("ASTC record path: buffer and storage-image destinations, every 2D footprint, both profiles",
          "[astc][external][gpu][heavy]") {
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    const int32_t x0 = 3, y0 = 5;
    const uint32_t first_layer = 1;
    const texdec_output outputs[] = {TEXDEC_OUTPUT_RGBA8, TEXDEC_OUTPUT_RGBA16F};
    for (AstcProfile profile : {AstcProfile::ldr, AstcProfile::ldr_srgb})
        for (const AstcFootprint& fp : astc_2d_footprints()) {
            const texdec_format format = astc_texdec_format(fp, profile);
            INFO("ASTC " << astc_fp_name(fp) << " " << astc_profile_name(profile));
            AstcSource s = make_source(dev, fp, test_seed() + fp.x * 131 + fp.y * 7 + (profile == AstcProfile::ldr ? 0 : 1));
            const uint32_t w = s.width, h = s.height;
            std::vector<AstcExpected> expected;
            for (uint32_t z = 0; z < kSlices; ++z) expected.push_back(expected_slice(profile, fp, s, z));

            RecordJob base{.format = format,
                           .barriers = true,
                           .width = w,
                           .height = h,
                           .depth = kSlices,
                           .src_buffer = s.buffer.buffer,
                           .src_offset = s.offset,
                           .src_size = s.bytes.size() - s.offset,
                           .src_row_length = s.row_length,
                           .src_image_height = s.image_height};

            VkCommandBuffer cmd = dev.begin_commands();
            record_upload(cmd, s);

            std::vector<BufferTarget> buffers;
            std::vector<ImageTarget> images;
            for (texdec_output output : outputs) {
                const uint32_t texel = output == TEXDEC_OUTPUT_RGBA16F ? 8 : 4;
                RecordJob job = base;
                job.output = output;
                buffers.push_back(record_to_canary_buffer(setup, cmd, job, 64, texel));
                VkFormat vk_format = VK_FORMAT_UNDEFINED;
                REQUIRE(texdec_output_vk_format(format, output, &vk_format) == TEXDEC_SUCCESS);
                const uint32_t iw = w + x0 + 2, ih = h + y0 + 1, layers = kSlices + first_layer + 1;
                images.push_back(
                    record_to_canary_image(setup, cmd, job, vk_format, iw, ih, layers, texel, x0, y0, first_layer));
            }
            host_read_barrier(cmd);
            dev.submit_and_wait(cmd);
            check_no_validation_messages(dev.log(), "recording and running the ASTC decodes");

            // Buffers and images alike: the canary around the texels, then the texels.
            auto check = [&](texdec_output output, bool image, const uint8_t* bytes, size_t total,
                             const TexelLayout& tl) {
                const bool half = output == TEXDEC_OUTPUT_RGBA16F;
                const std::string where = std::string(image ? "image" : "buffer") + (half ? " RGBA16F" : " RGBA8");
                check_canary_around(bytes, total, tl, half ? 8 : 4, w, h, kSlices, where);
                check_texels(output, bytes + tl.offset, tl.row_pitch, tl.slice_pitch, expected, w, h, image,
                             where.c_str());
            };
            for (BufferTarget& b : buffers) {
                check(b.output, false, b.buffer.readback.mapped, b.buffer.total, b.buffer.layout);
                destroy(dev, b.buffer);
            }
            for (ImageTarget& im : images) {
                check(im.output, true, im.image.readback.mapped, im.image.bytes,
                      window_layout(im.image, x0, y0, first_layer));
                destroy(dev, im.image);
            }
            destroy(dev, s);
        }
    setup.close();
}

namespace {

// ---- the error colour of each operation mode, pinned by literal values ---------------------------
//
// KDFS "ASTC error colors": the sRGB operation mode's error colour is magenta (1.0, 0, 1.0, 1.0) for
// every decode mode, so RGBA16F of an -srgb format never holds NaN; linear LDR keeps
// the NaNs (0xFFFF x 4) for illegal blocks and HDR void extents and magenta for HDR-endpoint
// partitions (docs/EXACTNESS.md "ASTC"). libastcenc 4.2, the oracle, gives 0xFFFF x 4 for the first two
// in its LDR_SRGB profile too, so the values below are written out from the spec's table rather
// than taken from it; astcenc only confirms that each block is the kind of block it is meant to be.

constexpr uint16_t kHalfOne = 0x3C00;
constexpr uint16_t kMagenta16[4] = {kHalfOne, 0, kHalfOne, kHalfOne};
constexpr uint16_t kNaN16[4] = {0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF};
constexpr uint8_t kMagenta8[4] = {255, 0, 255, 255};

enum class ErrorCase { illegal_mode, bad_void_extent, hdr_void_extent, hdr_endpoints, ldr_void_extent };

const char* error_case_name(ErrorCase c) {
    switch (c) {
    case ErrorCase::illegal_mode: return "reserved block mode";
    case ErrorCase::bad_void_extent: return "void extent with min >= max";
    case ErrorCase::hdr_void_extent: return "HDR void extent";
    case ErrorCase::hdr_endpoints: return "one partition with HDR endpoint mode 15";
    case ErrorCase::ldr_void_extent: return "LDR void extent 0x8080 (control)";
    }
    return "";
}
constexpr ErrorCase kErrorCases[] = {ErrorCase::illegal_mode, ErrorCase::bad_void_extent, ErrorCase::hdr_void_extent,
                                     ErrorCase::hdr_endpoints, ErrorCase::ldr_void_extent};

AstcBlock error_case_block(ErrorCase c, AstcFootprint fp, SplitMix64& rng) {
    const bool three_d = fp.z > 1;
    AstcBlock b{};  // all zero: block mode 0 is reserved in the 2D and the 3D table
    switch (c) {
    case ErrorCase::illegal_mode: break;
    case ErrorCase::bad_void_extent:
        if (three_d) {
            AstcVoidExtent3d v;
            v.min_s = 7, v.max_s = 7, v.min_t = 0, v.max_t = 9, v.min_r = 0, v.max_r = 9;  // min_s == max_s
            b = astc_build_void_extent_3d(v);
        } else {
            AstcVoidExtent v;
            v.min_s = 7, v.max_s = 7, v.min_t = 0, v.max_t = 9;
            b = astc_build_void_extent(v);
        }
        break;
    case ErrorCase::hdr_void_extent:
    case ErrorCase::ldr_void_extent: {
        const bool hdr = c == ErrorCase::hdr_void_extent;
        const uint16_t colour = hdr ? 0x3800 : 0x8080;  // FP16 0.5 / UNORM16 0x8080
        if (three_d) {
            AstcVoidExtent3d v;
            v.hdr = hdr;
            for (uint16_t& x : v.rgba) x = colour;
            b = astc_build_void_extent_3d(v);
        } else {
            AstcVoidExtent v;
            v.hdr = hdr;
            for (uint16_t& x : v.rgba) x = colour;
            b = astc_build_void_extent(v);
        }
        break;
    }
    case ErrorCase::hdr_endpoints: {
        AstcSpecRequest request;
        request.partitions = 1, request.cem = 15, request.dual_plane = 0;
        if (three_d) {
            const auto spec = astc_random_legal_spec_3d(astc_legal_block_modes_3d(fp.x, fp.y, fp.z), fp.x, fp.y, fp.z,
                                                        request, rng);
            REQUIRE(spec);
            b = astc_build_random_block_3d(*spec, fp.x, fp.y, fp.z, rng);
        } else {
            const auto spec = astc_random_legal_spec(astc_legal_block_modes_2d(fp.x, fp.y), fp.x, fp.y, request, rng);
            REQUIRE(spec);
            b = astc_build_random_block(*spec, fp.x, fp.y, rng);
        }
        break;
    }
    }
    return b;
}

// The spec's value of every texel of a case. 0x8080 as UNORM16: decode_float16 = 32896 / 65536
// rounded toward zero = 0x3804; decode_unorm8 = 0x80; sRGB: byte 0x80, 128 / 255 -> 0x3804.
void error_case_expected(ErrorCase c, bool srgb, uint16_t f16[4], uint8_t u8[4]) {
    for (int i = 0; i < 4; ++i) {
        if (c == ErrorCase::ldr_void_extent) {
            f16[i] = 0x3804, u8[i] = 0x80;
            continue;
        }
        u8[i] = kMagenta8[i];
        const bool nan = !srgb && c != ErrorCase::hdr_endpoints;
        f16[i] = nan ? kNaN16[i] : kMagenta16[i];
    }
}

}  // namespace

TEST_CASE("ASTC error colours: sRGB RGBA16F is magenta, never NaN, linear keeps NaN (buffer and image, 2D and 3D)",
          "[astc][astc3d][external][gpu]") {
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    struct FormatCase {
        texdec_format format;
        AstcFootprint fp;
        bool srgb;
    };
    const FormatCase formats[] = {
        {TEXDEC_FORMAT_ASTC_6x6_SRGB, {6, 6, 1}, true},    {TEXDEC_FORMAT_ASTC_6x6_UNORM, {6, 6, 1}, false},
        {TEXDEC_FORMAT_ASTC_4x4x4_SRGB, {4, 4, 4}, true},  {TEXDEC_FORMAT_ASTC_4x4x4_UNORM, {4, 4, 4}, false},
        {TEXDEC_FORMAT_ASTC_3x3x3_SRGB, {3, 3, 3}, true},
    };
    constexpr uint32_t kCases = sizeof kErrorCases / sizeof kErrorCases[0];
    for (const FormatCase& f : formats) {
        const AstcFootprint fp = f.fp;
        const AstcProfile profile = f.srgb ? AstcProfile::ldr_srgb : AstcProfile::ldr;
        INFO("ASTC " << fp.x << "x" << fp.y << "x" << fp.z << (f.srgb ? " sRGB" : " UNORM"));
        // One block per case, side by side: w = kCases blocks, one block high and deep.
        const uint32_t w = kCases * fp.x, h = fp.y, d = fp.z;
        SplitMix64 rng(test_seed() ^ (fp.x * 1000 + fp.z * 10 + f.srgb));
        std::vector<uint8_t> blocks;
        for (ErrorCase c : kErrorCases) {
            const AstcBlock b = error_case_block(c, fp, rng);
            blocks.insert(blocks.end(), b.begin(), b.end());
        }
        // astcenc agrees that each block is what it is built to be.
        const AstcExpected oracle = astc_expected_outputs(profile, fp, w, h, d, blocks.data(), blocks.size());
        CHECK(oracle.anomalies.empty());
        REQUIRE(oracle.kind.size() == kCases);
        CHECK(oracle.kind[0] == AstcBlockKind::error);
        CHECK(oracle.kind[1] == AstcBlockKind::error);
        CHECK(oracle.kind[2] == AstcBlockKind::error);
        CHECK(oracle.kind[3] == AstcBlockKind::hdr_endpoint);
        CHECK(oracle.kind[4] == AstcBlockKind::void_extent);

        // The expected texels, from the spec's table (not from astcenc, not from texdec).
        std::vector<uint16_t> want16(size_t(w) * h * d * 4);
        std::vector<uint8_t> want8(want16.size());
        for (uint32_t z = 0; z < d; ++z)
            for (uint32_t y = 0; y < h; ++y)
                for (uint32_t x = 0; x < w; ++x) {
                    const size_t t = ((size_t(z) * h + y) * w + x) * 4;
                    error_case_expected(kErrorCases[x / fp.x], f.srgb, &want16[t], &want8[t]);
                }
        // The model the other ASTC tests and --verify use says the same.
        CHECK(oracle.rgba16f == want16);
        CHECK(oracle.rgba8 == want8);

        // The CPU reference (--verify).
        for (texdec_output output : {TEXDEC_OUTPUT_RGBA8, TEXDEC_OUTPUT_RGBA16F}) {
            const bool half = output == TEXDEC_OUTPUT_RGBA16F;
            std::vector<uint8_t> out(want16.size() * (half ? 2 : 1));
            texdec_host_job job = JobBuilder(f.format, output, w, h, d).blocks(blocks).texels(out);
            const texdec_reference::Result r = texdec_reference::decode(job);
            REQUIRE(r.status == TEXDEC_SUCCESS);
            std::vector<uint8_t> expected(out.size());
            if (half) std::memcpy(expected.data(), want16.data(), expected.size());  // little-endian host
            else expected = want8;
            INFO("CPU reference, output " << (half ? "RGBA16F" : "RGBA8"));
            CHECK(out == expected);
        }

        // The GPU: record into a buffer (RGBA8, RGBA16F) and into a 2D-array storage image
        // (RGBA16F, one layer per texel slice).
        HostBuffer staging = dev.create_buffer(blocks.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
        std::memcpy(staging.mapped, blocks.data(), blocks.size());
        HostBuffer src = dev.create_buffer(blocks.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
        RecordJob base{.format = f.format,
                       .barriers = true,
                       .width = w,
                       .height = h,
                       .depth = d,
                       .src_buffer = src.buffer,
                       .src_size = blocks.size()};
        VkCommandBuffer cmd = dev.begin_commands();
        VkBufferCopy upload{0, 0, blocks.size()};
        vkCmdCopyBuffer(cmd, staging.buffer, src.buffer, 1, &upload);
        HostBuffer dst8 = dev.create_buffer(want8.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
        HostBuffer dst16 = dev.create_buffer(want16.size() * 2, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
        for (HostBuffer* dst : {&dst8, &dst16}) {
            std::memset(dst->mapped, 0x5A, dst->size);
            RecordJob job = base;
            job.output = dst == &dst16 ? TEXDEC_OUTPUT_RGBA16F : TEXDEC_OUTPUT_RGBA8;
            job.dst_buffer = dst->buffer;
            job.dst_size = dst->size;
            REQUIRE(record_one(setup.ctx, cmd, &job) == TEXDEC_SUCCESS);
        }
        const VkFormat image_format = VK_FORMAT_R16G16B16A16_SFLOAT;
        REQUIRE(dev.format_supports(image_format, VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT));
        TestImage image = dev.create_image(image_format, w, h, d,
                                           VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
        HostBuffer canary = dev.create_buffer(want16.size() * 2, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
        fill_canary(canary.mapped, canary.size);
        HostBuffer readback = dev.create_buffer(want16.size() * 2, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
        record_image_canary(cmd, image.image, canary, w, h, d);
        RecordJob job = base;
        job.output = TEXDEC_OUTPUT_RGBA16F;
        job.dst_image = &image;
        REQUIRE(record_one(setup.ctx, cmd, &job) == TEXDEC_SUCCESS);
        record_image_readback(cmd, image.image, readback, w, h, d);
        host_read_barrier(cmd);
        dev.submit_and_wait(cmd);
        check_no_validation_messages(dev.log(), "recording and running the error-colour decodes");

        // Tolerance 0; the image may hold any NaN where 0xFFFF is expected (texdec.h: the image
        // store converts the NaN), but only in the linear format: sRGB expects no NaN at all.
        auto check_halves = [&](const uint8_t* bytes, bool image_dst) {
            const SliceTexels texels{bytes, size_t(w) * 8, size_t(w) * h * 8, true};
            size_t mismatches = 0;
            std::string first;
            for_each_channel(w, h, d, [&](uint32_t x, uint32_t y, uint32_t z, uint32_t c) {
                const size_t i = ((size_t(z) * h + y) * w + x) * 4 + c;
                const uint16_t got = uint16_t(texels.channel(x, y, z, c));
                const uint16_t want = want16[i];
                const bool ok = got == want || (image_dst && want == 0xFFFF && is_half_nan(got));
                if (!ok && mismatches++ == 0) {
                    char text[160];
                    std::snprintf(text, sizeof text, "%s: texel (%u,%u,%u) channel %u: got 0x%04X, expected 0x%04X",
                                  error_case_name(kErrorCases[x / fp.x]), x, y, z, c, got, want);
                    first = text;
                }
            });
            INFO((image_dst ? "image" : "buffer") << " RGBA16F: " << mismatches << " mismatching components; first: " << first);
            CHECK(mismatches == 0);
        };
        check_halves(dst16.mapped, false);
        check_halves(readback.mapped, true);
        {
            INFO("buffer RGBA8");
            CHECK(std::vector<uint8_t>(dst8.mapped, dst8.mapped + dst8.size) == want8);
        }
        for (HostBuffer* b : {&staging, &src, &dst8, &dst16, &canary, &readback}) dev.destroy(*b);
        dev.destroy(image);
    }
    setup.close();
}

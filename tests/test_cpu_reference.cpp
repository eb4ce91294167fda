// The CPU reference (src/reference, texdec_cpu_reference: what `astc-gpu-decode --verify` compares
// with) for BC1-BC7 and ASTC, through texdec_reference::decode only, tolerance 0:
//
//   BC1-BC5   every format x every output it offers x EXACT and IDEAL, random blocks
//             (support/random_blocks.h) against tests/oracles/reference.h: EXACT the rational
//             model, IDEAL libsquish (BC1-BC3) and libnvimage (unsigned; BC2/BC3 colour only where
//             nvtt 2.0.8 is right), SNORM the IDEAL integer model (docs/EXACTNESS.md);
//   BC6H, BC7 every format x output, random blocks (BC7: half with the mode forced, byte 0 = 0 too)
//             against lavapipe's native decode (oracles/lavapipe_native.h), converted as
//             test_bc6h_decode.cpp / test_bc7_decode.cpp do (BC6H half bits; BC7 v/255 -> v);
//   ASTC      every 2D and 3D footprint x profile x output, random blocks (uniform, legal block
//             modes with random bits, void extents) against astc_expected_outputs (what
//             test_astc_decode.cpp and test_astc_3d.cpp compare with);
//   and some cases also byte for byte against texdec_decode (the GPU) with the same job: one of
//   every BC format, one of every ASTC footprint (the output, rounding and profile rotate, so
//   each of them is covered). Not every case: each new (format, output) pipeline costs lavapipe
//   70-400 ms to compile, which for all 270 cases would be ~30 s of CPU time; the GPU's every
//   (format, output, rounding) is compared with these same oracles by the decoder tests anyway.
// Extents are odd (partial edge blocks; 3D ASTC partial in depth too); the cases rotate through
// layouts: tight; source row length and padded row pitch; one more slice (2D footprints: depth 2,
// decoded slice by slice; 3D ASTC: a third block slice) with source image height and padded slice
// pitch. Bytes outside the texels must keep their canary.
// Bad jobs: the same status as texdec_decode, a message, nothing written; unavailable_reason.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/gpu_fixture.h"
#include "oracles/astc_expected.h"
#include "oracles/lavapipe_native.h"
#include "oracles/reference.h"
#include "reference/cpu_reference.h"
#include "reference/exact_model.h"
#include "support/astc_block_builder.h"
#include "support/compare.h"
#include "support/job_builder.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

// Where one case's blocks and texels are. Pitches chosen per case (see the top of the file).
struct Geometry {
    uint32_t block_w = 4, block_h = 4, block_d = 1, block_bytes = 8;
    uint32_t width = 0, height = 0, depth = 1;
    uint32_t row_length = 0, image_height = 0;  // texels, 0 = extent
    size_t row_pitch = 0, slice_pitch = 0;      // bytes, 0 = tight
    uint32_t texel_bytes = 4;

    uint32_t cols() const { return (width + block_w - 1) / block_w; }
    uint32_t rows() const { return (height + block_h - 1) / block_h; }
    uint32_t slices() const { return (depth + block_d - 1) / block_d; }
    uint32_t src_cols() const { return ((row_length ? row_length : width) + block_w - 1) / block_w; }
    uint32_t src_rows() const { return ((image_height ? image_height : height) + block_h - 1) / block_h; }
    size_t src_blocks() const { return size_t(src_cols()) * src_rows() * slices(); }
    // Up to the end of the last block the extent needs (what texdec_decode requires).
    size_t src_bytes() const {
        return ((size_t(slices() - 1) * src_rows() + rows() - 1) * src_cols() + cols()) * block_bytes;
    }
    const uint8_t* block(const std::vector<uint8_t>& data, uint32_t bx, uint32_t by, uint32_t bz) const {
        return &data[((size_t(bz) * src_rows() + by) * src_cols() + bx) * block_bytes];
    }
    ResolvedTexelLayout texel_layout() const {
        return resolve(TexelLayout{0, row_pitch, slice_pitch}, texel_bytes, width, height);
    }
    size_t dst_bytes() const { return texel_layout().end(width, height, depth); }
    // The blocks of block slice bz, tightly packed (what the oracles decode).
    std::vector<uint8_t> tight_slice(const std::vector<uint8_t>& data, uint32_t bz) const {
        std::vector<uint8_t> out;
        for (uint32_t by = 0; by < rows(); ++by)
            out.insert(out.end(), block(data, 0, by, bz), block(data, 0, by, bz) + size_t(cols()) * block_bytes);
        return out;
    }
    // Texel (x, y, z) of an output laid out like this.
    const uint8_t* texel(const std::vector<uint8_t>& out, uint32_t x, uint32_t y, uint32_t z) const {
        const ResolvedTexelLayout L = texel_layout();
        return &out[z * L.slice_pitch + y * L.row_pitch + size_t(x) * L.texel_bytes];
    }
};

// Odd extents of `blocks_x` x `blocks_y` (x `blocks_z`) blocks, the last column 1 texel short and
// the last row 2 texels high (3D: the last block slice 1 texel short); layout variant 0 tight,
// 1 source row length + padded row pitch, 2 one more slice with source image height + padded
// slice pitch (and row length).
Geometry make_geometry(uint32_t block_w, uint32_t block_h, uint32_t block_d, uint32_t block_bytes, uint32_t texel_bytes,
                       uint32_t blocks_x, uint32_t blocks_y, uint32_t blocks_z, int variant) {
    Geometry g;
    g.block_w = block_w, g.block_h = block_h, g.block_d = block_d, g.block_bytes = block_bytes, g.texel_bytes = texel_bytes;
    g.width = blocks_x * block_w - (block_w > 1 ? 1 : 0);               // last column partial
    g.height = blocks_y * block_h - (block_h > 2 ? block_h - 2 : 0);    // last row 2 texels
    g.depth = block_d > 1 ? blocks_z * block_d - 1 : 1;
    if (variant >= 1) {
        g.row_length = g.width + 2 * block_w + 1;
        g.row_pitch = size_t(g.width) * texel_bytes + 12;
    }
    if (variant == 2) {
        g.depth = block_d > 1 ? g.depth + block_d : 2;
        g.image_height = g.height + block_h;
        g.slice_pitch = g.row_pitch * g.height + 20;
    }
    return g;
}

texdec_host_job make_job(texdec_format format, texdec_output output, texdec_bc_rounding rounding, const Geometry& g,
                         const std::vector<uint8_t>& blocks, std::vector<uint8_t>& texels) {
    return JobBuilder(format, output, g.width, g.height, g.depth)
        .blocks(blocks.data(), g.src_bytes())
        .texels(texels)
        .rounding(rounding)
        .source_rows(g.row_length, g.image_height)
        .pitches(g.row_pitch, g.slice_pitch);
}

struct Tally {
    size_t cases = 0, gpu_cases = 0, blocks = 0, mismatches = 0;
    std::vector<std::string> failures;  // the first few
    void fail(const std::string& what) {
        ++mismatches;
        if (failures.size() < 8) failures.push_back(what);
    }
};

// Decodes `job` with the CPU reference into a canary-filled buffer, whose padding must stay
// untouched, and returns it; with `with_gpu`, also with texdec_decode, which must give the same
// bytes (texels and untouched padding alike).
std::vector<uint8_t> decode_both(OwnContext& ctx, texdec_format format, texdec_output output, texdec_bc_rounding rounding,
                                 const Geometry& g, const std::vector<uint8_t>& blocks, const std::string& what,
                                 bool with_gpu, Tally& tally) {
    std::vector<uint8_t> cpu(g.dst_bytes()), gpu(g.dst_bytes());
    fill_canary(cpu.data(), cpu.size());
    fill_canary(gpu.data(), gpu.size());
    const texdec_reference::Result r = texdec_reference::decode(make_job(format, output, rounding, g, blocks, cpu));
    if (r.status != TEXDEC_SUCCESS) {
        tally.fail(what + ": CPU reference failed: " + r.message);
        return cpu;
    }
    if (with_gpu) {
        ++tally.gpu_cases;
        const texdec_status s = ctx.decode(make_job(format, output, rounding, g, blocks, gpu));
        if (s != TEXDEC_SUCCESS) tally.fail(what + ": texdec_decode failed: " + texdec_status_string(s));
        else if (cpu != gpu) {
            size_t i = 0;
            while (cpu[i] == gpu[i]) ++i;
            tally.fail(what + ": differs from texdec_decode at byte " + std::to_string(i));
        }
    }
    const size_t clobbered = first_clobbered_byte(cpu.data(), cpu.size(), g.texel_layout(), g.width, g.height, g.depth);
    if (clobbered != SIZE_MAX) tally.fail(what + ": CPU reference wrote outside the texels at byte " + std::to_string(clobbered));
    return cpu;
}

// Compares texel (x, y, z) of `out` with `expected` (texel_bytes bytes).
void compare_texel(const Geometry& g, const std::vector<uint8_t>& out, uint32_t x, uint32_t y, uint32_t z,
                   const uint8_t* expected, const std::string& what, Tally& tally) {
    const uint8_t* got = g.texel(out, x, y, z);
    if (std::memcmp(got, expected, g.texel_bytes) == 0) return;
    std::ostringstream s;
    s << what << ": texel (" << x << "," << y << "," << z << ") expected [" << hex_bytes(expected, g.texel_bytes)
      << "] got [" << hex_bytes(got, g.texel_bytes) << "]";
    tally.fail(s.str());
}

void report(const Tally& t, const char* what) {
    std::printf("[reference] %s: %zu cases (%zu also vs texdec_decode), %zu blocks compared with the oracle, %zu mismatches\n",
                what, t.cases, t.gpu_cases, t.blocks, t.mismatches);
    for (const auto& f : t.failures) UNSCOPED_INFO(f);
    CHECK(t.cases > 0);
    CHECK(t.gpu_cases > 0);
    CHECK(t.mismatches == 0);
}

std::string case_name(const char* format, texdec_output output, const char* rounding, int variant) {
    static const char* const layouts[] = {"tight", "row length + row pitch", "depth 2 + image height + slice pitch"};
    return std::string(format) + " " + output_name(output) + (rounding ? std::string(" ") + rounding : "") + " (" +
           layouts[variant] + ")";
}

// Random blocks per case: random_block_count() / 256 (4,100 by default; at least 1,024), the
// BC1-BC5 and BC6H formats with random_blocks(), which also plants the special endpoints.
uint32_t blocks_per_side() {
    const double n = std::max<double>(1024.0, double(random_block_count()) / 256.0);
    return uint32_t(std::ceil(std::sqrt(n)));
}

// ---- BC1-BC5 ------------------------------------------------------------------------------

TEST_CASE("cpu reference: BC1-BC5 every output and rounding vs squish nvimage and the models and texdec_decode",
          "[bc1-5][reference]") {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    const uint32_t side = blocks_per_side();
    Tally tally;
    int variant = 0, format_index = 0;
    for (const BcFormat& f : bc_formats()) {
        int case_index = 0;
        const int gpu_case = format_index++ % (f.is_signed ? 4 : 6);  // rotates over the outputs and roundings
        for (texdec_bc_rounding rounding : kBothRoundings)
            for (texdec_output output : kAllOutputs) {
                if (!output_offered(f, output)) continue;
                variant = (variant + 1) % 3;
                const bool with_gpu = case_index++ == gpu_case;
                const Geometry g = make_geometry(4, 4, 1, f.block_bytes, output_texel_bytes(f, output), side, side, 1, variant);
                const std::vector<uint8_t> blocks =
                    random_blocks(f, g.src_blocks(), test_seed() ^ (uint64_t(rounding) << 20) ^ (uint64_t(output) << 24));
                const std::string what = case_name(f.name, output, rounding_name(rounding), variant);
                const std::vector<uint8_t> out = decode_both(*ctx, f.format, output, rounding, g, blocks, what, with_gpu, tally);
                // Every oracle that decodes (format, rounding), primary first (docs/EXACTNESS.md).
                for (Oracle oracle : {Oracle::ExactModel, Oracle::Squish, Oracle::Nvimage, Oracle::IdealModel}) {
                    if (!oracle_supports(oracle, f, rounding)) continue;
                    if (oracle == Oracle::IdealModel && primary_oracle(f, rounding) != Oracle::IdealModel) continue;
                    BlockLayout bl;
                    bl.width = g.width, bl.height = g.height, bl.depth = g.depth;
                    bl.row_length = g.row_length, bl.image_height = g.image_height;
                    const CompareResult c = compare_with_oracle(f, rounding, oracle, blocks.data(), bl,
                                                                {{output, out.data(), {0, g.row_pitch, g.slice_pitch}}});
                    if (c.texels_checked == 0) tally.fail(what + ": nothing compared");
                    if (c.mismatches) tally.fail(what + ": " + std::to_string(c.mismatches) + " texels differ; " + c.first_mismatch);
                    if (oracle == primary_oracle(f, rounding)) tally.blocks += c.blocks;
                }
                ++tally.cases;
            }
    }
    report(tally, "BC1-BC5");
    ctx->close_and_check();
}

// ---- BC6H, BC7 ----------------------------------------------------------------------------

// BC7 blocks as test_bc7_decode.cpp draws them: half uniformly random, half with the mode forced
// (uniform over 0..7) or byte 0 = 0.
std::vector<uint8_t> random_bc7_blocks(size_t count, uint64_t seed) {
    SplitMix64 rng(seed ^ 0xBC7);
    std::vector<uint8_t> out(count * 16);
    for (size_t i = 0; i < count; ++i) {
        uint8_t* b = &out[i * 16];
        const uint64_t lo = rng.next(), hi = rng.next();
        std::memcpy(b, &lo, 8), std::memcpy(b + 8, &hi, 8);
        if (i % 2) continue;
        const unsigned mode = unsigned(rng.next() % 9);
        b[0] = mode == 8 ? 0 : uint8_t((b[0] << (mode + 1)) | (1u << mode));
    }
    return out;
}

TEST_CASE("cpu reference: BC6H and BC7 every output vs lavapipe and texdec_decode", "[reference]") {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    auto dev = VulkanTestDevice::open();
    if (!dev) return;
    const uint32_t side = blocks_per_side();
    Tally tally;
    int variant = 0;
    const bool nvidia = dev->properties().vendorID == 0x10DE;
    size_t nvidia_plus_zero = 0;
    std::vector<BcFormat> formats(bc6h_formats().begin(), bc6h_formats().end());
    formats.insert(formats.end(), bc7_formats().begin(), bc7_formats().end());
    for (size_t format_index = 0; format_index < formats.size(); ++format_index) {
        const BcFormat& f = formats[format_index];
        for (texdec_output output : kAllOutputs) {
            const bool bc6h = f.kind == BcKind::BC6H;
            if (bc6h && output == TEXDEC_OUTPUT_RGBA8) continue;  // not offered
            variant = (variant + 1) % 3;
            const bool with_gpu = output == kAllOutputs[(format_index + (bc6h ? 1 : 0)) % 3];
            const uint32_t texel_bytes = bc6h || output == TEXDEC_OUTPUT_RGBA16F ? 8 : 4;
            const Geometry g = make_geometry(4, 4, 1, 16, texel_bytes, side, side, 1, variant);
            const uint64_t seed = test_seed() ^ (uint64_t(output) << 24);
            const std::vector<uint8_t> blocks = bc6h ? random_blocks(f, g.src_blocks(), seed) : random_bc7_blocks(g.src_blocks(), seed);
            const std::string what = case_name(f.name, output, nullptr, variant);
            const std::vector<uint8_t> out =
                decode_both(*ctx, f.format, output, TEXDEC_BC_ROUNDING_EXACT, g, blocks, what, with_gpu, tally);
            for (uint32_t z = 0; z < g.depth; ++z) {
                const std::vector<uint8_t> tight = g.tight_slice(blocks, z);
                const std::vector<float> native = native_decode(*dev, f, tight.data(), g.width, g.height);
                check_no_validation_messages(dev->log(), "native decode");
                for (uint32_t y = 0; y < g.height; ++y)
                    for (uint32_t x = 0; x < g.width; ++x) {
                        const float* v = &native[(size_t(y) * g.width + x) * 4];
                        uint8_t expected[8];
                        for (int c = 0; c < 4; ++c) {
                            if (bc6h) {  // exact halves (alpha 1.0)
                                uint16_t h = exact_half_bits(v[c]);
                                // NVIDIA's native decode gives +0 where the spec (and the reference)
                                // give -0 for an SF16 interpolated -1 (test_bc6h_decode.cpp): that
                                // pair alone is counted and reported on an NVIDIA device, not failed.
                                const uint8_t* got = g.texel(out, x, y, z) + 2 * c;
                                if (nvidia && h == 0x0000 && got[0] == 0x00 && got[1] == 0x80)
                                    h = 0x8000, ++nvidia_plus_zero;
                                expected[2 * c] = uint8_t(h), expected[2 * c + 1] = uint8_t(h >> 8);
                                continue;
                            }
                            // lavapipe returns the BC7 byte v as v / 255.
                            const double scaled = double(v[c]) * 255.0;
                            const uint8_t byte = uint8_t(std::nearbyint(scaled));
                            if (!(std::fabs(scaled - byte) < 1e-3)) tally.fail(what + ": lavapipe value is not v/255");
                            if (texel_bytes == 4) {
                                expected[c] = byte;
                            } else {
                                const uint16_t h = half_from_unorm8(byte);
                                expected[2 * c] = uint8_t(h), expected[2 * c + 1] = uint8_t(h >> 8);
                            }
                        }
                        compare_texel(g, out, x, y, z, expected, what + " vs lavapipe", tally);
                    }
                tally.blocks += size_t(g.cols()) * g.rows();
            }
            ++tally.cases;
        }
    }
    if (nvidia_plus_zero)
        WARN("NVIDIA's native decode gives +0 where the spec gives -0 in " << nvidia_plus_zero << " channels");
    report(tally, "BC6H BC7");
    dev->close_and_check();
    ctx->close_and_check();
}

// ---- ASTC ---------------------------------------------------------------------------------

struct AstcFormatCase {
    texdec_format format;
    AstcFootprint fp;
    AstcProfile profile;
};

std::vector<AstcFormatCase> astc_formats(bool three_d) {
    std::vector<AstcFormatCase> out;
    for (int v = TEXDEC_FORMAT_ASTC_4x4_UNORM; v < TEXDEC_FORMAT_COUNT; ++v) {
        texdec_format_info info;
        REQUIRE(texdec_format_get_info(texdec_format(v), &info) == TEXDEC_SUCCESS);
        REQUIRE(info.family == TEXDEC_FAMILY_ASTC);
        if ((info.block_depth > 1) != three_d) continue;
        const AstcProfile profile = (info.flags & TEXDEC_FORMAT_FLAG_HDR)    ? AstcProfile::hdr
                                    : (info.flags & TEXDEC_FORMAT_FLAG_SRGB) ? AstcProfile::ldr_srgb
                                                                             : AstcProfile::ldr;
        out.push_back({texdec_format(v), {info.block_width, info.block_height, info.block_depth}, profile});
    }
    return out;
}

// 3/8 uniformly random (mostly error blocks), 1/2 a legal block mode with random bits above,
// 1/8 void extents with all-ones coordinates and random colours (HDR ones one time in four).
std::vector<uint8_t> random_astc_blocks(AstcFootprint fp, size_t count, uint64_t seed) {
    SplitMix64 rng(seed ^ (uint64_t(fp.x) << 48) ^ (uint64_t(fp.y) << 40) ^ (uint64_t(fp.z) << 32));
    const std::vector<uint32_t> modes =
        fp.z > 1 ? astc_legal_block_modes_3d(fp.x, fp.y, fp.z) : astc_legal_block_modes_2d(fp.x, fp.y);
    REQUIRE(!modes.empty());
    std::vector<uint8_t> out(count * 16);
    for (size_t i = 0; i < count; ++i) {
        uint8_t* b = &out[i * 16];
        const uint64_t lo = rng.next(), hi = rng.next();
        std::memcpy(b, &lo, 8), std::memcpy(b + 8, &hi, 8);
        const unsigned kind = unsigned(rng.next() % 8);
        if (kind >= 3 && kind < 7) {
            astc_set_bits(b, 0, 11, modes[rng.next() % modes.size()]);
        } else if (kind == 7) {
            for (int k = 0; k < 8; ++k) b[k] = 0xFF;         // coordinates all ones
            astc_set_bits(b, 0, 9, 0x1FC);                    // void extent
            astc_set_bits(b, 9, 1, rng.next() % 4 == 0);      // HDR
        }
    }
    return out;
}

void run_astc(bool three_d) {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    Tally tally;
    int variant = 0;
    size_t anomalies = 0, format_index = 0, error_blocks = 0, void_extents = 0, hdr_endpoint_blocks = 0;
    for (const AstcFormatCase& a : astc_formats(three_d)) {
        texdec_format_info info;
        REQUIRE(texdec_format_get_info(a.format, &info) == TEXDEC_SUCCESS);
        // Formats come as UNORM, SRGB, SFLOAT per footprint; one of them per footprint goes to the
        // GPU too, the profile rotating with the footprint and the output every three footprints
        // (ASTC pipelines are the slowest to compile: 100-400 ms each on lavapipe).
        const size_t footprint_index = format_index / 3;
        const bool gpu_format = format_index++ % 3 == footprint_index % 3;
        const texdec_output gpu_output = kAllOutputs[(footprint_index / 3) % 3];
        for (texdec_output output : kAllOutputs) {
            if (a.profile == AstcProfile::hdr && output == TEXDEC_OUTPUT_RGBA8) continue;  // not offered
            variant = (variant + 1) % 3;
            const bool with_gpu = gpu_format && (output == gpu_output || (a.profile == AstcProfile::hdr &&
                                                                          gpu_output == TEXDEC_OUTPUT_RGBA8 &&
                                                                          output == TEXDEC_OUTPUT_NATIVE));
            const uint32_t texel_bytes = a.profile == AstcProfile::hdr || output == TEXDEC_OUTPUT_RGBA16F ? 8 : 4;
            const Geometry g = three_d ? make_geometry(a.fp.x, a.fp.y, a.fp.z, 16, texel_bytes, 5, 4, 2, variant)
                                       : make_geometry(a.fp.x, a.fp.y, 1, 16, texel_bytes, 9, 7, 1, variant);
            const std::vector<uint8_t> blocks = random_astc_blocks(a.fp, g.src_blocks(), test_seed() ^ uint64_t(output));
            const std::string what = case_name(info.name, output, nullptr, variant);
            const std::vector<uint8_t> out =
                decode_both(*ctx, a.format, output, TEXDEC_BC_ROUNDING_EXACT, g, blocks, what, with_gpu, tally);
            // The oracle: the whole volume's blocks, tightly packed.
            std::vector<uint8_t> tight;
            for (uint32_t bz = 0; bz < g.slices(); ++bz) {
                const std::vector<uint8_t> s = g.tight_slice(blocks, bz);
                tight.insert(tight.end(), s.begin(), s.end());
            }
            const AstcExpected e = astc_expected_outputs(a.profile, a.fp, g.width, g.height, g.depth, tight.data(), tight.size());
            anomalies += e.anomalies.size();
            error_blocks += e.error_blocks, void_extents += e.void_extents, hdr_endpoint_blocks += e.hdr_endpoint_blocks;
            for (uint32_t z = 0; z < g.depth; ++z)
                for (uint32_t y = 0; y < g.height; ++y)
                    for (uint32_t x = 0; x < g.width; ++x) {
                        const size_t t = ((size_t(z) * g.height + y) * g.width + x) * 4;
                        uint8_t expected[8];
                        if (texel_bytes == 4) {
                            std::memcpy(expected, &e.rgba8[t], 4);
                        } else {
                            for (int c = 0; c < 4; ++c) expected[2 * c] = uint8_t(e.rgba16f[t + c]), expected[2 * c + 1] = uint8_t(e.rgba16f[t + c] >> 8);
                        }
                        compare_texel(g, out, x, y, z, expected, what + " vs astc_expected_outputs", tally);
                    }
            tally.blocks += tight.size() / 16;
            ++tally.cases;
        }
    }
    std::printf("[reference] ASTC %s blocks: %zu error blocks, %zu void extents, %zu with an HDR endpoint mode in LDR\n",
                three_d ? "3D" : "2D", error_blocks, void_extents, hdr_endpoint_blocks);
    CHECK(anomalies == 0);
    CHECK(error_blocks > 0);
    CHECK(void_extents > 0);
    CHECK(hdr_endpoint_blocks > 0);
    report(tally, three_d ? "ASTC 3D" : "ASTC 2D");
    ctx->close_and_check();
}

TEST_CASE("cpu reference: ASTC 2D footprints every profile and output vs astcenc and texdec_decode", "[reference]") {
    run_astc(false);
}

TEST_CASE("cpu reference: ASTC 3D footprints every profile and output vs astcenc and texdec_decode", "[reference]") {
    run_astc(true);
}

TEST_CASE("cpu reference: ASTC images wider than a band decode band by band like one astcenc call", "[reference]") {
    // decode_astc works in bands of whole block rows of about 2^22 texels: a 30000-texel-wide 12x12
    // image has 4.3 M texels per block row, so each row is a band: 25 rows make three bands, the
    // last one 1 texel high.
    const AstcFootprint fp{12, 12, 1};
    const uint32_t w = 30000, h = 25;
    const size_t count = size_t((w + 11) / 12) * ((h + 11) / 12);
    const std::vector<uint8_t> blocks = random_astc_blocks(fp, count, test_seed() ^ 0xBA4D);
    for (texdec_format format : {TEXDEC_FORMAT_ASTC_12x12_UNORM, TEXDEC_FORMAT_ASTC_12x12_SRGB}) {
        const bool srgb = format == TEXDEC_FORMAT_ASTC_12x12_SRGB;
        const texdec_output output = srgb ? TEXDEC_OUTPUT_RGBA16F : TEXDEC_OUTPUT_RGBA8;
        const uint32_t texel_bytes = srgb ? 8 : 4;
        INFO((srgb ? "sRGB RGBA16F" : "UNORM RGBA8"));
        std::vector<uint8_t> out(size_t(w) * h * texel_bytes);
        const texdec_host_job job = JobBuilder(format, output, w, h).blocks(blocks).texels(out);
        const texdec_reference::Result r = texdec_reference::decode(job);
        REQUIRE(r.status == TEXDEC_SUCCESS);
        const AstcExpected e =
            astc_expected_outputs(srgb ? AstcProfile::ldr_srgb : AstcProfile::ldr, fp, w, h, 1, blocks.data(), blocks.size());
        CHECK(e.anomalies.empty());
        std::vector<uint8_t> expected(out.size());
        if (!srgb) expected = e.rgba8;
        else
            for (size_t i = 0; i < e.rgba16f.size(); ++i)
                expected[2 * i] = uint8_t(e.rgba16f[i]), expected[2 * i + 1] = uint8_t(e.rgba16f[i] >> 8);
        CHECK(out == expected);
    }
}

// ---- bad jobs and what is available -------------------------------------------------------

TEST_CASE("cpu reference: bad jobs give texdec_decode's status and a message and write nothing", "[reference]") {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    const std::vector<uint8_t> blocks(4096, 0x55);
    struct Bad {
        const char* what;
        texdec_status status;
        void (*edit)(texdec_host_job&);
        const char* message;  // a part of the CPU reference's message, or nullptr
    };
    const Bad cases[] = {
        {"short blocks", TEXDEC_ERROR_SOURCE_TOO_SMALL, [](texdec_host_job& j) { j.src_size -= 1; }, "bytes of blocks"},
        {"zero width", TEXDEC_ERROR_INVALID_EXTENT, [](texdec_host_job& j) { j.width = 0; }, "empty"},
        {"zero height", TEXDEC_ERROR_INVALID_EXTENT, [](texdec_host_job& j) { j.height = 0; }, "empty"},
        {"zero depth", TEXDEC_ERROR_INVALID_EXTENT, [](texdec_host_job& j) { j.depth = 0; }, "empty"},
        {"unknown rounding", TEXDEC_ERROR_UNSUPPORTED_ROUNDING, [](texdec_host_job& j) { store_raw_enum(j.bc_rounding, 7); }, "rounding"},
        {"unknown format", TEXDEC_ERROR_UNKNOWN_FORMAT, [](texdec_host_job& j) { store_raw_enum(j.format, 100000); }, "not a texdec_format"},
        {"format 0", TEXDEC_ERROR_UNKNOWN_FORMAT, [](texdec_host_job& j) { j.format = TEXDEC_FORMAT_UNDEFINED; }, nullptr},
        {"unknown output", TEXDEC_ERROR_UNSUPPORTED_OUTPUT, [](texdec_host_job& j) { store_raw_enum(j.output, -1); }, "output"},
        {"RGBA8 of BC6H", TEXDEC_ERROR_UNSUPPORTED_OUTPUT,
         [](texdec_host_job& j) { j.format = TEXDEC_FORMAT_BC6H_UFLOAT; }, "bc6h-ufloat has no rgba8 output"},
        {"RGBA8 of ASTC sfloat", TEXDEC_ERROR_UNSUPPORTED_OUTPUT,
         [](texdec_host_job& j) { j.format = TEXDEC_FORMAT_ASTC_6x6_SFLOAT; }, "astc-6x6-sfloat has no rgba8 output"},
        {"short texels", TEXDEC_ERROR_DESTINATION_TOO_SMALL, [](texdec_host_job& j) { j.dst_size -= 1; }, "bytes of texels"},
        {"row pitch too small", TEXDEC_ERROR_INVALID_LAYOUT, [](texdec_host_job& j) { j.dst_row_pitch = 4 * j.width - 1; }, "row pitch"},
        {"slice pitch too small", TEXDEC_ERROR_INVALID_LAYOUT, [](texdec_host_job& j) { j.dst_slice_pitch = 8; }, "slice pitch"},
        {"row length too small", TEXDEC_ERROR_INVALID_LAYOUT, [](texdec_host_job& j) { j.src_row_length = j.width - 1; }, "row length"},
        {"image height too small", TEXDEC_ERROR_INVALID_LAYOUT, [](texdec_host_job& j) { j.src_image_height = 1; }, "image height"},
        {"NULL blocks", TEXDEC_ERROR_INVALID_ARGUMENT, [](texdec_host_job& j) { j.src = nullptr; }, "NULL"},
        {"NULL texels", TEXDEC_ERROR_INVALID_ARGUMENT, [](texdec_host_job& j) { j.dst = nullptr; }, "NULL"},
        {"source size overflow", TEXDEC_ERROR_SIZE_OVERFLOW,
         [](texdec_host_job& j) { j.width = j.height = j.depth = 0xFFFFFFFFu; }, "overflows"},
        {"destination size overflow", TEXDEC_ERROR_SIZE_OVERFLOW,
         [](texdec_host_job& j) { j.dst_row_pitch = size_t(1) << 62; }, "overflows"},
        {"short ASTC blocks", TEXDEC_ERROR_SOURCE_TOO_SMALL,
         [](texdec_host_job& j) { j.format = TEXDEC_FORMAT_ASTC_5x4_UNORM, j.src_size = 16 * 2 * 3 * 2 - 1; }, "bytes of blocks"},
    };
    for (const Bad& bad : cases) {
        INFO(bad.what);
        // A valid 10x9x2 BC1 RGBA8 job (3x3 blocks per slice), then the edit.
        std::vector<uint8_t> cpu(10 * 9 * 2 * 4), gpu(cpu.size());
        fill_canary(cpu.data(), cpu.size());
        fill_canary(gpu.data(), gpu.size());
        auto job_for = [&](std::vector<uint8_t>& texels) {
            texdec_host_job j = JobBuilder(TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8, 10, 9, 2)
                                    .blocks(blocks.data(), 3 * 3 * 2 * 8)
                                    .texels(texels);
            bad.edit(j);
            return j;
        };
        const texdec_reference::Result r = texdec_reference::decode(job_for(cpu));
        const texdec_status s = ctx->decode(job_for(gpu));
        CHECK(r.status == bad.status);
        CHECK(s == bad.status);
        CHECK(!r.message.empty());
        if (bad.message) CHECK_THAT(r.message, Catch::Contains(bad.message));
        for (size_t i = 0; i < cpu.size(); ++i)
            if (cpu[i] != canary_byte(i)) {
                FAIL_CHECK("the CPU reference wrote byte " << i << " of a job it refused");
                break;
            }
    }
    (void)ctx->log().take_errors();  // texdec_decode reported the refusals (expected)
    ctx->close_and_check();
}

TEST_CASE("cpu reference: unavailable_reason accepts what texdec_decode offers except NVIDIA rounding", "[reference]") {
    size_t accepted = 0;
    for (int v = 1; v < TEXDEC_FORMAT_COUNT; ++v) {
        const auto format = texdec_format(v);
        texdec_format_info info;
        REQUIRE(texdec_format_get_info(format, &info) == TEXDEC_SUCCESS);
        const bool bc1_5 = info.family == TEXDEC_FAMILY_BC1_3 || info.family == TEXDEC_FAMILY_BC4_5;
        for (texdec_output output : kAllOutputs) {
            VkFormat vk;
            const bool offered = texdec_output_vk_format(format, output, &vk) == TEXDEC_SUCCESS;
            for (texdec_bc_rounding rounding : {TEXDEC_BC_ROUNDING_EXACT, TEXDEC_BC_ROUNDING_IDEAL, TEXDEC_BC_ROUNDING_NVIDIA}) {
                INFO(info.name << " " << output_name(output) << " " << rounding_name(rounding));
                const std::string why = texdec_reference::unavailable_reason(format, output, rounding);
                const bool nvidia = bc1_5 && rounding == TEXDEC_BC_ROUNDING_NVIDIA;
                CHECK(why.empty() == (offered && !nvidia));
                if (offered && nvidia) CHECK(why == "no CPU reference for --bc-rounding nvidia yet");
                if (!offered) CHECK_THAT(why, Catch::Contains(info.name) && Catch::Contains("no"));
                accepted += why.empty();
            }
        }
    }
    CHECK(accepted > 300);
    texdec_format unknown;
    store_raw_enum(unknown, 4242);
    CHECK_THAT(texdec_reference::unavailable_reason(unknown, TEXDEC_OUTPUT_RGBA8, TEXDEC_BC_ROUNDING_EXACT),
               Catch::Contains("not a texdec_format"));
}

}  // namespace

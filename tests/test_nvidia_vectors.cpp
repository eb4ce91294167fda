// the NVIDIA BC rounding mode against texels captured from NVIDIA hardware (an H100).
// The vectors (tests/vectors/nvidia/*.tdv, tests/support/native_bc_vectors.h) are measurements
// of the hardware made by tests/capture_native_bc.cpp, not output of this library. Every texel of
// every captured set is compared, tolerance 0, for every output type:
//   RGBA8 and NATIVE   the byte NVIDIA stored when it wrote the fetched value into an 8-bit image
//                      (for BC1-BC3 that is also the fetched float v / 255);
//   RGBA16F            the half nearest to the fetched float (k / 65535, SNORM k / 32767),
//                      rounded by the tests' exact rational model (to_fp16), not by the shader.
// TEXDEC_NVIDIA_VECTORS=dir reads the vectors from dir instead (e.g. a fresh capture on the H100).
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "gpu/gpu_fixture.h"
#include "oracles/cpu_models.h"
#include "support/bc_formats.h"
#include "support/job_builder.h"
#include "support/native_bc_vectors.h"

using namespace texdec_test;

namespace {

std::string vectors_dir() {
    if (const char* dir = std::getenv("TEXDEC_NVIDIA_VECTORS")) return dir;
    return std::string(TEXDEC_SOURCE_DIR) + "/tests/vectors/nvidia";
}

NativeVectors load_vectors(const BcFormat& f) {
    const std::string path = vectors_dir() + "/" + native_vectors_file_name(f);
    std::ifstream in(path, std::ios::binary);
    INFO("vector file " << path);
    REQUIRE(in.good());
    const std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    NativeVectors v;
    std::string error;
    INFO("parse error: " << error);
    REQUIRE(read_native_vectors(file, v, error));
    return v;
}

// The expected bytes of one texel channel `c` of the output, from the captured readbacks.
struct Expected {
    uint8_t byte;     // RGBA8 / NATIVE
    uint16_t half;    // RGBA16F
};

Expected expected_channel(const BcFormat& f, const NativeVectors::Set& s, size_t texel_index, uint32_t c) {
    if (c >= f.channels) {  // channels the format lacks: (g, b) = 0, alpha = 1
        const bool one = c == 3;
        return {uint8_t(one ? (f.is_signed ? 127 : 255) : 0), uint16_t(one ? 0x3C00 : 0)};
    }
    const size_t i = texel_index * f.channels + c;
    const uint16_t k = s.values[i];
    const exact::Rational value = f.is_signed ? exact::Rational{int16_t(k), 32767} : exact::Rational{k, 65535};
    return {s.bytes[i], exact::to_fp16(value)};
}

void check_format(OwnContext& ctx, const BcFormat& f) {
    const NativeVectors vectors = load_vectors(f);
    INFO(f.name << ": vectors captured on " << vectors.device << " (driver " << vectors.driver << ")");
    REQUIRE(vectors.format == bc_unorm_twin(f).name);
    REQUIRE(vectors.channels == f.channels);
    const std::vector<CaptureSet> sets = capture_sets(f);
    REQUIRE(vectors.sets.size() == sets.size());

    const texdec_output outputs[3] = {TEXDEC_OUTPUT_RGBA8, TEXDEC_OUTPUT_NATIVE, TEXDEC_OUTPUT_RGBA16F};
    for (size_t si = 0; si < sets.size(); ++si) {
        const CaptureSet& set = sets[si];
        const NativeVectors::Set& captured = vectors.sets[si];
        INFO("set " << set.name);
        REQUIRE(captured.name == set.name);
        const size_t count = set.blocks.size() / f.block_bytes;
        REQUIRE(captured.blocks == count);
        REQUIRE(captured.checksum == fnv1a64(set.blocks.data(), set.blocks.size()));  // the captured blocks
        const uint32_t width = kCaptureWidth, height = capture_height(count);

        for (texdec_output output : outputs) {
            if (output == TEXDEC_OUTPUT_RGBA8 && f.is_signed) continue;  // not offered for SNORM
            uint32_t texel_bytes = 0;
            REQUIRE(texdec_output_texel_size(f.format, output, &texel_bytes) == TEXDEC_SUCCESS);
            std::vector<uint8_t> out(size_t(width) * height * texel_bytes);
            const texdec_host_job job = JobBuilder(f.format, output, width, height)
                                            .blocks(set.blocks)
                                            .texels(out)
                                            .rounding(TEXDEC_BC_ROUNDING_NVIDIA);
            REQUIRE(ctx.decode(job) == TEXDEC_SUCCESS);

            const bool half = output == TEXDEC_OUTPUT_RGBA16F;
            const uint32_t out_channels = half ? 4 : texel_bytes;  // NATIVE of BC4/BC5: R8 / RG8
            size_t mismatches = 0;
            std::string first;
            for (size_t b = 0; b < count; ++b)
                for (uint32_t t = 0; t < 16; ++t) {
                    const size_t p = capture_texel(b, t);
                    for (uint32_t c = 0; c < out_channels; ++c) {
                        const Expected e = expected_channel(f, captured, b * 16 + t, c);
                        const uint32_t got = half ? uint32_t(out[p * 8 + 2 * c] | out[p * 8 + 2 * c + 1] << 8)
                                                  : out[p * texel_bytes + c];
                        const uint32_t want = half ? e.half : e.byte;
                        if (got != want && mismatches++ == 0) {
                            char text[200];
                            std::snprintf(text, sizeof text, "block %zu texel %u channel %u: got 0x%x, hardware 0x%x (16-bit value %u)",
                                          b, t, c, got, want, c < f.channels ? captured.values[(b * 16 + t) * f.channels + c] : 0u);
                            first = text;
                        }
                    }
                }
            INFO("output " << (output == TEXDEC_OUTPUT_RGBA8 ? "RGBA8" : half ? "RGBA16F" : "NATIVE") << ": " << mismatches
                           << " channels differ; first: " << first);
            CHECK(mismatches == 0);
        }
    }
}

}  // namespace

TEST_CASE("nvidia vectors: the NVIDIA rounding mode equals NVIDIA hardware on every captured texel",
          "[bc1-5][nvidia][bc]") {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    for (const BcFormat& f : bc_formats()) {
        SECTION(f.name) { check_format(*ctx, f); }
    }
    ctx->close_and_check();
}

TEST_CASE("nvidia vectors: a damaged vector file is refused with a reason", "[bc1-5][nvidia]") {
    const NativeVectors good = load_vectors(bc_formats()[8]);  // bc4-unorm
    std::vector<uint8_t> file = write_native_vectors(good);
    REQUIRE(!file.empty());
    NativeVectors back;
    std::string error;
    REQUIRE(read_native_vectors(file, back, error));
    CHECK(back.sets.size() == good.sets.size());
    CHECK(back.sets[0].values == good.sets[0].values);
    CHECK(back.sets[0].bytes == good.sets[0].bytes);
    file.resize(file.size() / 2);
    CHECK_FALSE(read_native_vectors(file, back, error));
    CHECK_FALSE(error.empty());
}

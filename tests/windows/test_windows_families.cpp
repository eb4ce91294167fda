// Every format of every family on both paths, for the Windows slice (tests/windows), whose other
// files cover BC6H/BC7 (lavapipe), BC1-BC5 (the models), recording and bad inputs in depth:
//   - texdec_decode (GPU; the fixture mirrors every decode on the CPU backend, tolerance 0) equals
//     the CPU reference (texdec_cpu_reference: written from the spec, checked against libsquish,
//     libnvimage, lavapipe and Mesa GL in the Linux stages) for BC1-BC7, ETC2 and EAC, every
//     output and, for BC1-BC5, both rounding modes. This build has no ASTC reference (Debian has
//     no MinGW libastcenc): .ci/windows.sh compares the Windows CLI's ASTC texels, like every
//     other format's, with the Linux build's byte for byte.
//   - texdec_record_regions into a buffer and into a storage image gives texdec_decode's bytes.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "gpu/external_setup.h"
#include "gpu/gpu_fixture.h"
#include "reference/cpu_reference.h"
#include "support/job_builder.h"
#include "support/random_blocks.h"
#include "support/record_compare.h"

using namespace texdec_test;

namespace {

constexpr uint32_t kWidth = 37, kHeight = 21;  // not block multiples: partial blocks at both edges
const texdec_output kOutputs[] = {TEXDEC_OUTPUT_RGBA8, TEXDEC_OUTPUT_RGBA16F, TEXDEC_OUTPUT_NATIVE};

struct Variant {
    texdec_format format;
    texdec_format_info info;
    texdec_output output;
    uint32_t texel_bytes;
};

// Every implemented (format, output) pair.
std::vector<Variant> all_variants() {
    std::vector<Variant> list;
    for (uint32_t f = 0; f < TEXDEC_FORMAT_COUNT; ++f) {
        Variant v{};
        v.format = texdec_format(f);
        if (texdec_format_get_info(v.format, &v.info) != TEXDEC_SUCCESS ||
            !(v.info.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED))
            continue;
        for (texdec_output output : kOutputs) {
            v.output = output;
            if (texdec_output_texel_size(v.format, output, &v.texel_bytes) == TEXDEC_SUCCESS) list.push_back(v);
        }
    }
    return list;
}

bool has_bc_rounding(const texdec_format_info& info) {
    return info.family == TEXDEC_FAMILY_BC1_3 || info.family == TEXDEC_FAMILY_BC4_5;
}

size_t first_difference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
    for (size_t i = 0; i < a.size() && i < b.size(); ++i)
        if (a[i] != b[i]) return i;
    return a.size() == b.size() ? SIZE_MAX : std::min(a.size(), b.size());
}

}  // namespace

TEST_CASE("windows: every format and output: texdec_decode equals the CPU reference", "[windows][gpu]") {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    size_t compared = 0, astc_without_reference = 0;
    for (const Variant& v : all_variants()) {
        const std::vector<uint8_t> blocks =
            random_blocks_for(v.format, kWidth, kHeight, test_seed() + v.format * 7 + v.output);
        for (texdec_bc_rounding rounding : {TEXDEC_BC_ROUNDING_EXACT, TEXDEC_BC_ROUNDING_IDEAL}) {
            if (rounding == TEXDEC_BC_ROUNDING_IDEAL && !has_bc_rounding(v.info)) continue;
            INFO(v.info.name << ", output " << int(v.output) << ", rounding " << int(rounding));
            std::vector<uint8_t> texels(size_t(kWidth) * kHeight * v.texel_bytes, 0xAB);
            REQUIRE(
                ctx->decode(
                    JobBuilder(v.format, v.output, kWidth, kHeight).blocks(blocks).texels(texels).rounding(rounding)) ==
                TEXDEC_SUCCESS);
            const std::string unavailable = texdec_reference::unavailable_reason(v.format, v.output, rounding);
            if (!unavailable.empty()) {
                INFO(unavailable);
                REQUIRE(v.info.family == TEXDEC_FAMILY_ASTC);  // the only family without a reference here
                ++astc_without_reference;
                continue;
            }
            std::vector<uint8_t> expected(texels.size(), 0xCD);
            const texdec_reference::Result r = texdec_reference::decode(
                JobBuilder(v.format, v.output, kWidth, kHeight).blocks(blocks).texels(expected).rounding(rounding));
            INFO(r.message);
            REQUIRE(r.status == TEXDEC_SUCCESS);
            const size_t at = first_difference(texels, expected);
            INFO("first differing byte " << at << " (texel " << (at == SIZE_MAX ? at : at / v.texel_bytes) << ")");
            CHECK(at == SIZE_MAX);
            ++compared;
        }
    }
    WARN(compared << " decodes equal to the CPU reference; " << astc_without_reference
                  << " ASTC decodes compared with the CPU backend only (no libastcenc here)");
    CHECK(compared >= 40);
    ctx->close_and_check();
}

TEST_CASE("windows: every format and output: recorded into a buffer and an image equals texdec_decode",
          "[windows][external][gpu]") {
    ExternalSetup setup;
    if (!setup.open()) return;
    size_t images = 0;
    for (const Variant& v : all_variants()) {
        INFO(v.info.name << ", output " << int(v.output));
        const std::vector<uint8_t> blocks =
            random_blocks_for(v.format, kWidth, kHeight, test_seed() + v.format * 11 + v.output);
        const std::vector<uint8_t> decoded = decode_on_host(setup.ctx, v.format, v.output, blocks, kWidth, kHeight);
        CHECK(record_into_buffer(setup, v.format, v.output, blocks, kWidth, kHeight) == decoded);
        if (v.output != TEXDEC_OUTPUT_NATIVE) {  // RGBA8 / RGBA16F storage images (NATIVE: buffers)
            CHECK(record_into_image(setup, v.format, v.output, blocks, kWidth, kHeight) == decoded);
            ++images;
        }
    }
    CHECK(images >= 40);
    setup.close();
}

// Sanity check against the device's own BC decode (lavapipe on machines without a GPU): texdec's
// outputs in both rounding modes must lie within 2 LSB of it. Asserted on lavapipe only; other
// devices (NVIDIA) decode BC1-5 their own way and the test reports by how much (WARN). docs/EXACTNESS.md: lavapipe's BC1-5
// decode is an approximation (up to 2 LSB off), so this is not an exactness test; the exact ones
// are test_random_blocks / test_special_blocks. It catches gross errors (wrong channel order,
// wrong block addressing) with an oracle that shares no code with the others.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <sstream>

#include "gpu/gpu_fixture.h"
#include "oracles/lavapipe_native.h"
#include "support/job_builder.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

float half_to_float(uint16_t h) {
    const int sign = h >> 15, exponent = (h >> 10) & 31, mantissa = h & 1023;
    float v;
    if (exponent == 0) v = std::ldexp(float(mantissa), -24);
    else if (exponent == 31) v = mantissa ? NAN : INFINITY;
    else v = std::ldexp(float(mantissa + 1024), exponent - 25);
    return sign ? -v : v;
}

constexpr uint32_t kWidth = 2048, kHeight = 512;  // 65,536 blocks per format

}  // namespace

TEST_CASE("device-native BC decode agrees within 2 LSB (sanity)", "[bc1-5][native][gpu][heavy]") {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    auto dev = VulkanTestDevice::open();
    if (!dev) return;
    // docs/EXACTNESS.md gives the +-2 bound for lavapipe; on other devices the differences are reported.
    const bool is_lavapipe = std::strstr(dev->properties().deviceName, "llvmpipe") != nullptr;
    for (const BcFormat& f : bc_formats()) {
        INFO(f.name << " on " << dev->properties().deviceName);
        const size_t block_count = size_t(kWidth / 4) * (kHeight / 4);
        const std::vector<uint8_t> blocks = random_blocks(f, block_count, test_seed() + 99);
        const std::vector<float> native = native_decode(*dev, f, blocks.data(), kWidth, kHeight);
        check_no_validation_messages(dev->log(), "native decode");
        const float scale = f.is_signed ? 127.0f : 255.0f;
        for (texdec_bc_rounding rounding : kBothRoundings)
            for (texdec_output output : {TEXDEC_OUTPUT_NATIVE, TEXDEC_OUTPUT_RGBA16F}) {
                INFO(rounding_name(rounding) << " " << output_name(output));
                const uint32_t texel = output_texel_bytes(f, output);
                std::vector<uint8_t> texels(size_t(kWidth) * kHeight * texel);
                const texdec_host_job job =
                    JobBuilder(f.format, output, kWidth, kHeight).blocks(blocks).texels(texels).rounding(rounding);
                REQUIRE(ctx->decode(job) == TEXDEC_SUCCESS);
                const uint32_t channels = output == TEXDEC_OUTPUT_RGBA16F ? 4 : texel;  // NATIVE: 1 byte per channel
                size_t worst_count = 0;
                float worst = 0;
                std::string first;
                for (size_t i = 0; i < size_t(kWidth) * kHeight; ++i)
                    for (uint32_t c = 0; c < channels; ++c) {
                        // Both sides as 8-bit codes: round(f * 255), or round(f * 127) for SNORM.
                        const float reference = std::nearbyint(native[4 * i + c] * scale);
                        float ours;
                        if (output == TEXDEC_OUTPUT_RGBA16F) {
                            uint16_t h;
                            std::memcpy(&h, &texels[i * 8 + 2 * c], 2);
                            ours = std::nearbyint(half_to_float(h) * scale);
                        } else {
                            ours = f.is_signed ? float(int8_t(texels[i * texel + c])) : float(texels[i * texel + c]);
                        }
                        const float diff = std::fabs(ours - reference);
                        if (!(diff <= 2.0f)) {
                            if (worst_count++ == 0) {
                                std::ostringstream s;
                                s << "texel (" << i % kWidth << "," << i / kWidth << ") channel " << c << ": texdec " << ours
                                  << " native " << reference << " (8-bit codes)";
                                first = s.str();
                            }
                        }
                        worst = std::max(worst, diff);
                    }
                INFO("largest difference " << worst << " codes; first beyond 2: " << first);
                if (is_lavapipe) {
                    CHECK(worst_count == 0);
                } else if (worst_count) {
                    // Other drivers round BC1-5 their own way (NVIDIA: up to 7 codes for UNORM,
                    // and SNORM BC4/BC5 differ wholesale); only lavapipe's +-2 bound is known.
                    WARN("not asserted on " << dev->properties().deviceName << ": " << f.name << " "
                         << rounding_name(rounding) << " " << output_name(output) << ": " << worst_count
                         << " channels beyond 2 codes, largest " << worst << "; first: " << first);
                }
            }
    }
    dev->close_and_check();
    ctx->close_and_check();
}

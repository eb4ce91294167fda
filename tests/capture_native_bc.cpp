// The capture tool for the hardware BC1-BC5 vectors (tests/support/native_bc_vectors.h), hidden
// from the default run ([.capture]). On the GPU whose decode is wanted (an NVIDIA one for the
// NVIDIA rounding mode):
//   TEXDEC_CAPTURE_OUT=dir texdec_tests "[.capture]"       (TEXDEC_DEVICE=name picks the GPU)
// For each of bc1-rgb-unorm, bc1-rgba-unorm, bc2-unorm, bc3-unorm, bc4-unorm/-snorm and
// bc5-unorm/-snorm it uploads the capture sets as a native BC image, texelFetches every texel
// (tests/shaders/native_fetch.comp) as float and through RGBA8 UNORM / SNORM storage images, and
// writes both readbacks to dir/<format>.tdv. Copy those files to tests/vectors/nvidia/ to replace
// the committed ones. Every float must be a 16-bit value (k / 65535, SNORM k / 32767); where one
// is not, the test fails and also writes the floats (dir/<format>.<set>.f32) for study.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gpu/gpu_fixture.h"
#include "oracles/lavapipe_native.h"
#include "support/bc_formats.h"
#include "support/native_bc_vectors.h"

using namespace texdec_test;

namespace {

void write_file(const std::string& path, const void* data, size_t size) {
    FILE* out = std::fopen(path.c_str(), "wb");
    REQUIRE(out != nullptr);
    REQUIRE(std::fwrite(data, 1, size, out) == size);
    REQUIRE(std::fclose(out) == 0);
}

}  // namespace

TEST_CASE("capture: native BC1-BC5 decode of the vector sets", "[.capture]") {
    const char* out_dir = std::getenv("TEXDEC_CAPTURE_OUT");
    if (!out_dir) FAIL("set TEXDEC_CAPTURE_OUT to the directory the vector files go to");
    auto dev = VulkanTestDevice::open();
    if (!dev) return;
    const VkPhysicalDeviceProperties& props = dev->properties();
    char vendor[16], driver[16];
    std::snprintf(vendor, sizeof vendor, "0x%04x", props.vendorID);
    std::snprintf(driver, sizeof driver, "0x%08x", props.driverVersion);
    std::printf("capturing on %s (vendor %s, driver %s)\n", props.deviceName, vendor, driver);

    bool all_16_bit = true;
    for (const BcFormat& f : bc_formats()) {
        if (f.srgb) continue;  // fetched through the UNORM view: the same texels
        NativeVectors vectors;
        vectors.device = props.deviceName, vectors.vendor = vendor, vectors.driver = driver;
        vectors.format = f.name;
        vectors.channels = f.channels;
        const double scale = f.is_signed ? 32767.0 : 65535.0;
        for (const CaptureSet& set : capture_sets(f)) {
            const size_t count = set.blocks.size() / f.block_bytes;
            REQUIRE(count % kCaptureBlocksPerRow == 0);
            NativeBytes bytes;
            const std::vector<float> floats = native_decode(*dev, f, set.blocks.data(), kCaptureWidth, capture_height(count), &bytes);

            NativeVectors::Set out{set.name, count, fnv1a64(set.blocks.data(), set.blocks.size()), {}, {}};
            size_t not_16_bit = 0, eight_bit = 0;
            double worst = 0;
            for (size_t b = 0; b < count; ++b)
                for (uint32_t t = 0; t < 16; ++t) {
                    const size_t p = capture_texel(b, t);
                    for (uint32_t c = 0; c < f.channels; ++c) {
                        // k / 65535 in float, times 65535, is within 65535 * 2^-24 of k however the
                        // device divided; a value with more bits is at least ~1/4 away somewhere.
                        const double v = double(floats[4 * p + c]) * scale, k = std::nearbyint(v);
                        worst = std::max(worst, std::fabs(v - k));
                        if (std::fabs(v - k) > 0.01) ++not_16_bit;
                        out.values.push_back(uint16_t(int32_t(k)));
                        out.bytes.push_back(f.is_signed ? uint8_t(bytes.snorm8[4 * p + c]) : bytes.unorm8[4 * p + c]);
                        if (!f.is_signed && int32_t(k) % 257 == 0) ++eight_bit;
                    }
                }
            std::printf("%-16s %-10s %6zu blocks: %zu channels not a 16-bit value (worst %.4f)%s\n", f.name,
                        set.name.c_str(), count, not_16_bit, worst,
                        !f.is_signed && eight_bit == out.values.size() ? "; every one an 8-bit value" : "");
            if (not_16_bit) {
                all_16_bit = false;
                write_file(std::string(out_dir) + "/" + f.name + "." + set.name + ".f32", floats.data(), floats.size() * 4);
            }
            vectors.sets.push_back(std::move(out));
        }
        const std::vector<uint8_t> file = write_native_vectors(vectors);
        REQUIRE(!file.empty());
        write_file(std::string(out_dir) + "/" + native_vectors_file_name(f), file.data(), file.size());
        std::printf("%-16s -> %s (%zu bytes)\n", f.name, native_vectors_file_name(f).c_str(), file.size());
    }
    dev->close_and_check();
    CHECK(all_16_bit);
}

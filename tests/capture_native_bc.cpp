// The capture tool for the hardware BC1-BC5 vectors (tests/support/native_bc_vectors.h), hidden
// from the default run ([.capture]). On the GPU whose decode is wanted (an NVIDIA one for the
// NVIDIA rounding mode):
//   TEXDEC_CAPTURE_OUT=dir texdec_tests "[.capture]"       (TEXDEC_DEVICE=name picks the GPU)
// For each of bc1-rgb-unorm, bc1-rgba-unorm, bc2-unorm, bc3-unorm, bc4-unorm/-snorm and
// bc5-unorm/-snorm it uploads the capture sets as a native BC image, texelFetches every texel
// (tests/shaders/native_fetch.comp) as float and through RGBA8 UNORM / SNORM storage images, checks
// that the two readbacks agree (every float is exactly k/255, or k/127 for SNORM with -128 read
// as -1.0), and writes dir/<format>.tdv. Copy those files to tests/vectors/nvidia/ to replace the
// committed ones. When a float is not k/255 (a device that decodes with more than 8 bits), the
// test fails and also writes the floats (dir/<format>.<set>.f32) for study.
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

constexpr uint32_t kBlocksPerRow = 256;

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

    bool all_exact = true;
    for (const BcFormat& f : bc_formats()) {
        if (f.srgb) continue;  // fetched through the UNORM view: the same texels
        NativeVectors vectors;
        vectors.device = props.deviceName, vectors.vendor = vendor, vectors.driver = driver;
        vectors.format = f.name;
        vectors.channels = f.channels;
        vectors.float_note = f.is_signed ? "k/127 exactly (k = -128 read as -1.0)" : "k/255 exactly";
        for (const CaptureSet& set : capture_sets(f)) {
            const size_t count = set.blocks.size() / f.block_bytes;
            REQUIRE(count % kBlocksPerRow == 0);
            const uint32_t width = kBlocksPerRow * 4, height = uint32_t(count / kBlocksPerRow) * 4;
            NativeBytes bytes;
            const std::vector<float> floats = native_decode(*dev, f, set.blocks.data(), width, height, &bytes);

            NativeVectors::Set out{set.name, count, fnv1a64(set.blocks.data(), set.blocks.size()), {}};
            out.texels.reserve(count * 16 * f.channels);
            size_t inexact = 0;
            double worst = 0;
            for (size_t b = 0; b < count; ++b)
                for (uint32_t t = 0; t < 16; ++t) {
                    const size_t p = ((b / kBlocksPerRow) * 4 + t / 4) * width + (b % kBlocksPerRow) * 4 + t % 4;
                    for (uint32_t c = 0; c < f.channels; ++c) {
                        const float v = floats[4 * p + c];
                        double off;
                        if (f.is_signed) {
                            const int k = bytes.snorm8[4 * p + c];
                            out.texels.push_back(uint8_t(k));
                            off = std::fabs(double(v) * 127.0 - std::max(k, -127));
                        } else {
                            const int k = bytes.unorm8[4 * p + c];
                            out.texels.push_back(uint8_t(k));
                            off = std::fabs(double(v) * 255.0 - k);
                        }
                        // k/255 in float, times 255, is within a few 2^-24 * 255 of k however the
                        // device divided; a value with more than 8 bits (e.g. k/1023) or a conversion
                        // that did not round to nearest is at least 255/65535 away.
                        if (off > 1e-4) ++inexact;
                        worst = std::max(worst, off);
                    }
                }
            std::printf("%-16s %-10s %6zu blocks: %zu channels not k/%d (worst |v*%d - k| = %.6f)\n", f.name,
                        set.name.c_str(), count, inexact, f.is_signed ? 127 : 255, f.is_signed ? 127 : 255, worst);
            if (inexact) {
                all_exact = false;
                write_file(std::string(out_dir) + "/" + f.name + "." + set.name + ".f32", floats.data(), floats.size() * 4);
                write_file(std::string(out_dir) + "/" + f.name + "." + set.name + ".blocks", set.blocks.data(), set.blocks.size());
            }
            vectors.sets.push_back(std::move(out));
        }
        const std::vector<uint8_t> file = write_native_vectors(vectors);
        REQUIRE(!file.empty());
        write_file(std::string(out_dir) + "/" + native_vectors_file_name(f), file.data(), file.size());
        std::printf("%-16s -> %s (%zu bytes)\n", f.name, native_vectors_file_name(f).c_str(), file.size());
    }
    dev->close_and_check();
    CHECK(all_exact);
}

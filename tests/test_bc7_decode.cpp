// BC7 (UNORM, sRGB) against lavapipe's native decode, tolerance 0 (docs/EXACTNESS.md "BC6H (UF16, SF16)
// and BC7": lavapipe, DirectXTex and bcdec agree bit for bit). lavapipe's texelFetch returns the
// 8-bit result v as the float v / 255 (sRGB fetched through the UNORM view, so the bytes stay
// encoded); texdec's RGBA8 must be v and its RGBA16F the half nearest to v / 255 (bit patterns).
//
//   random:     >= 1,000,000 blocks per format, in chunks of 65,536 blocks; half uniformly random
//               bytes (mode 0 half the time, byte 0 = 0 once in 256), half with the mode drawn
//               uniformly from 0..7 (plus byte 0 = 0) and every other bit random;
//   structured: every mode, every partition shape of each mode, every rotation x index-selection
//               combination (modes 4, 5), every P-bit pattern of modes 0, 1, 3, 6, 7, mode byte 0,
//               each with random, all-zero and all-one remaining bits.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstring>

#include "gpu/gpu_fixture.h"
#include "oracles/lavapipe_native.h"
#include "support/decode_and_compare.h"  // compare_rgba8_outputs
#include "support/job_builder.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

// "Mode-dependent BPTC parameters" (the columns the tests need).
struct Bc7Mode {
    uint32_t subsets, partition_bits, rotation_bits, index_selection_bits, colour_bits, alpha_bits;
    uint32_t endpoint_pbits, shared_pbits;
};
constexpr Bc7Mode kModes[8] = {
    {3, 4, 0, 0, 4, 0, 1, 0}, {2, 6, 0, 0, 6, 0, 0, 1}, {3, 6, 0, 0, 5, 0, 0, 0}, {2, 6, 0, 0, 7, 0, 1, 0},
    {1, 0, 2, 1, 5, 6, 0, 0}, {1, 0, 2, 0, 7, 8, 0, 0}, {1, 0, 0, 0, 7, 7, 1, 0}, {2, 6, 0, 0, 5, 5, 1, 0},
};

using Block = std::array<uint8_t, 16>;

// Writes `count` bits of `value` at bit `pos` (LSB first, little-endian block).
void set_bits(Block& b, uint32_t pos, uint32_t count, uint32_t value) {
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t bit = pos + i;
        b[bit / 8] = uint8_t((b[bit / 8] & ~(1u << (bit % 8))) | (((value >> i) & 1u) << (bit % 8)));
    }
}

// A block of mode `mode` (0..7) with the other bits from `fill`.
Block with_mode(Block b, uint32_t mode) {
    set_bits(b, 0, mode + 1, 1u << mode);
    return b;
}

// Bit position of the fields after the mode ("Bit layout for BC7 modes").
uint32_t partition_pos(uint32_t mode) { return mode + 1; }
uint32_t rotation_pos(uint32_t mode) { return partition_pos(mode) + kModes[mode].partition_bits; }
uint32_t index_selection_pos(uint32_t mode) { return rotation_pos(mode) + kModes[mode].rotation_bits; }
uint32_t pbit_pos(uint32_t mode) {
    const Bc7Mode& m = kModes[mode];
    return index_selection_pos(mode) + m.index_selection_bits + 6 * m.subsets * m.colour_bits + 2 * m.subsets * m.alpha_bits;
}
uint32_t pbit_count(uint32_t mode) {
    const Bc7Mode& m = kModes[mode];
    return m.endpoint_pbits ? 2 * m.subsets : m.shared_pbits ? m.subsets : 0;
}

Block random_block(SplitMix64& rng) {
    Block b;
    const uint64_t lo = rng.next(), hi = rng.next();
    std::memcpy(b.data(), &lo, 8);
    std::memcpy(b.data() + 8, &hi, 8);
    return b;
}

void append(std::vector<uint8_t>& out, const Block& b) { out.insert(out.end(), b.begin(), b.end()); }

// Decodes `blocks` (width x height texels) with texdec (RGBA8, RGBA16F, NATIVE) and with lavapipe,
// and counts the channels that differ. lavapipe returns v / 255 (float); a channel that is not
// counts as a mismatch and is not compared.
void compare_with_native(OwnContext& ctx, VulkanTestDevice& dev, const BcFormat& f, const std::vector<uint8_t>& blocks,
                         uint32_t width, uint32_t height, bool with_native_output, Mismatch& m) {
    const std::vector<float> native = native_decode(dev, f, blocks.data(), width, height);
    check_no_validation_messages(dev.log(), "native decode");
    std::vector<int> oracle(native.size());
    for (size_t k = 0; k < native.size(); ++k) {
        const double reference = double(native[k]) * 255.0;
        const uint32_t v = uint32_t(std::nearbyint(reference));
        oracle[k] = int(v);
        if (!(std::fabs(reference - v) < 1e-3) || v > 255) {
            m.add("lavapipe (not v/255)", k / 4, width, uint32_t(k % 4), 0, "lavapipe", reference, blocks, 16);
            oracle[k] = -1;
        }
    }
    compare_rgba8_outputs(ctx, f.format, blocks, 16, width, height, oracle, "lavapipe", with_native_output, m);
}

constexpr uint32_t kChunkBlocksX = 256, kChunkBlocksY = 256;  // 65,536 blocks per chunk
constexpr uint32_t kChunks = 16;                               // 1,048,576 blocks per format

void random_test(texdec_format format) {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    auto dev = VulkanTestDevice::open();
    if (!dev) return;
    const BcFormat* f = nullptr;
    for (const BcFormat& g : bc7_formats())
        if (g.format == format) f = &g;
    REQUIRE(f);
    const uint64_t seed = test_seed();
    INFO(f->name << ", seed " << seed << " (TEXDEC_TEST_SEED changes it)");
    SplitMix64 rng(seed ^ 0xBC7);
    Mismatch m;
    const auto start = std::chrono::steady_clock::now();
    for (uint32_t chunk = 0; chunk < kChunks; ++chunk) {
        std::vector<uint8_t> blocks;
        blocks.reserve(size_t(kChunkBlocksX) * kChunkBlocksY * 16);
        for (uint32_t i = 0; i < kChunkBlocksX * kChunkBlocksY; ++i) {
            Block b = random_block(rng);
            if (chunk % 2 == 1) {  // mode drawn uniformly from 0..7, or byte 0 = 0 (index 8)
                const uint32_t mode = uint32_t(rng.next() % 9);
                if (mode == 8) b[0] = 0;
                else b = with_mode(b, mode);
            }
            append(blocks, b);
        }
        compare_with_native(*ctx, *dev, *f, blocks, kChunkBlocksX * 4, kChunkBlocksY * 4, chunk == 0, m);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    INFO(kChunks * kChunkBlocksX * kChunkBlocksY << " blocks in " << seconds << " s; first mismatch: " << m.first);
    CHECK(m.count == 0);
    dev->close_and_check();
    ctx->close_and_check();
}

// The structured blocks: every mode x shape x rotation x index selection x P-bit pattern, each
// with random, all-zero and all-one remaining bits; then byte 0 = 0 blocks.
std::vector<uint8_t> structured_blocks(uint64_t seed, size_t* count) {
    SplitMix64 rng(seed ^ 0x57C7);
    std::vector<uint8_t> out;
    for (uint32_t mode = 0; mode < 8; ++mode) {
        const Bc7Mode& m = kModes[mode];
        for (uint32_t shape = 0; shape < (1u << m.partition_bits); ++shape)
            for (uint32_t rotation = 0; rotation < (1u << m.rotation_bits); ++rotation)
                for (uint32_t selection = 0; selection < (1u << m.index_selection_bits); ++selection)
                    for (uint32_t pbits = 0; pbits < (1u << pbit_count(mode)); ++pbits)
                        for (uint32_t fill = 0; fill < 4; ++fill) {
                            Block b = fill == 0 ? Block{} : fill == 1 ? Block{} : random_block(rng);
                            if (fill == 1) b.fill(0xFF);
                            b = with_mode(b, mode);
                            set_bits(b, partition_pos(mode), m.partition_bits, shape);
                            set_bits(b, rotation_pos(mode), m.rotation_bits, rotation);
                            set_bits(b, index_selection_pos(mode), m.index_selection_bits, selection);
                            set_bits(b, pbit_pos(mode), pbit_count(mode), pbits);
                            append(out, b);
                        }
    }
    for (int i = 0; i < 64; ++i) {  // reserved: byte 0 = 0, the rest anything
        Block b = i == 0 ? Block{} : random_block(rng);
        b[0] = 0;
        append(out, b);
    }
    *count = out.size() / 16;
    while ((out.size() / 16) % 256) append(out, random_block(rng));  // whole rows of 256 blocks
    return out;
}

}  // namespace

TEST_CASE("bc7: random blocks match lavapipe (BC7_UNORM)", "[bc7][random][gpu][heavy]") {
    random_test(TEXDEC_FORMAT_BC7_UNORM);
}
TEST_CASE("bc7: random blocks match lavapipe (BC7_SRGB)", "[bc7][random][gpu][heavy]") {
    random_test(TEXDEC_FORMAT_BC7_SRGB);
}

TEST_CASE("bc7: structured blocks (every mode, shape, rotation x index selection, P-bits, mode byte 0) match lavapipe",
          "[bc7][gpu]") {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    auto dev = VulkanTestDevice::open();
    if (!dev) return;
    size_t count = 0;
    const std::vector<uint8_t> blocks = structured_blocks(test_seed(), &count);
    const uint32_t rows = uint32_t(blocks.size() / 16 / 256);
    INFO(count << " structured blocks");
    for (const BcFormat& f : bc7_formats()) {
        INFO(f.name);
        Mismatch m;
        compare_with_native(*ctx, *dev, f, blocks, 256 * 4, rows * 4, true, m);
        INFO("first mismatch: " << m.first);
        CHECK(m.count == 0);
    }
    // Mode byte 0 decodes to (0, 0, 0, 0) whatever lavapipe does (docs/EXACTNESS.md).
    Block reserved{};
    reserved.fill(0xA5);
    reserved[0] = 0;
    std::vector<uint8_t> out(16 * 4, 0xEE);
    const texdec_host_job job =
        JobBuilder(TEXDEC_FORMAT_BC7_UNORM, TEXDEC_OUTPUT_RGBA8, 4, 4).blocks(reserved.data(), 16).texels(out);
    REQUIRE(ctx->decode(job) == TEXDEC_SUCCESS);
    CHECK(out == std::vector<uint8_t>(64, 0));
    dev->close_and_check();
    ctx->close_and_check();
}

// Hand-built blocks for every case docs/EXACTNESS.md lists, in both rounding modes and all outputs,
// compared with the oracles (tolerance 0); plus a few blocks whose expected texels are worked
// out by hand in the comments, so that the oracles themselves are pinned too.
//   - BC1 colour: c0 == c1 (all 65536 values); every red, green and blue endpoint pair in the
//     3-colour mode (c0 < c1) and the 4-colour mode; every 3-colour tie pair (R/B: a + b = 31,
//     G: a + b in {21, 63, 105}); code 3 = (0,0,0,0) in RGBA, opaque black in RGB.
//   - BC2/BC3 colour from the same colour halves: always 4-colour, even when c0 <= c1.
//   - BC2 alpha: every 4-bit value. BC3 alpha, BC4, BC5: every (red0, red1) byte pair with every
//     code, unsigned and signed (so -128 and the (-127, -128) comparison).
//   - sRGB BC1-BC3 in EXACT mode: RGBA16F is the RGBA8 byte v as v/255 (not the real value),
//     against the rational model's byte directly.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "gpu/gpu_fixture.h"
#include "oracles/cpu_models.h"
#include "support/compare.h"
#include "support/decode_and_compare.h"
#include "support/job_builder.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

// Codes 0, 1, 2, 3 along rows 0-1 and 3, 2, 1, 0 along rows 2-3: every code in every block.
constexpr uint8_t kColourCodes[4] = {0xE4, 0xE4, 0x1B, 0x1B};

void push_colour(std::vector<uint8_t>& out, unsigned c0, unsigned c1) {
    const uint8_t half[8] = {uint8_t(c0), uint8_t(c0 >> 8), uint8_t(c1), uint8_t(c1 >> 8),
                             kColourCodes[0], kColourCodes[1], kColourCodes[2], kColourCodes[3]};
    out.insert(out.end(), half, half + 8);
}

unsigned rgb565(unsigned r, unsigned g, unsigned b) { return (r << 11) | (g << 5) | b; }

// The BC1 colour halves (8 bytes each) of all the colour cases.
std::vector<uint8_t> colour_cases() {
    std::vector<uint8_t> out;
    for (unsigned c = 0; c < 65536; ++c) push_colour(out, c, c);  // c0 == c1
    for (unsigned k = 0; k < 64 * 64; ++k) {
        // Every green pair, with every blue pair along the way; red 0 < 31 forces c0 < c1
        // (3-colour), red 31 > 0 forces c0 > c1 (4-colour).
        const unsigned g0 = k >> 6, g1 = k & 63, b0 = (k >> 5) & 31, b1 = k & 31;
        push_colour(out, rgb565(0, g0, b0), rgb565(31, g1, b1));
        push_colour(out, rgb565(31, g0, b0), rgb565(0, g1, b1));
    }
    for (unsigned k = 0; k < 32 * 32; ++k) {
        // Every red pair; equal reds let green decide the mode, both ways.
        const unsigned r0 = k >> 5, r1 = k & 31;
        push_colour(out, rgb565(r0, 0, k & 31), rgb565(r1, 63, (k >> 5) & 31));
        push_colour(out, rgb565(r0, 63, k & 31), rgb565(r1, 0, (k >> 5) & 31));
    }
    // Every 3-colour tie pair, in the 3-colour mode: R and B pairs sum to 31, G pairs to 21, 63, 105.
    const unsigned green_sums[3] = {21, 63, 105};
    for (unsigned s : green_sums)
        for (unsigned g0 = (s > 63 ? s - 63 : 0); g0 <= (s < 63 ? s : 63); ++g0)
            for (unsigned r0 = 0; r0 < 32; ++r0) {
                const unsigned b0 = (r0 * 7 + g0) & 31;
                unsigned a = rgb565(r0, g0, b0), b = rgb565(31 - r0, s - g0, 31 - b0);
                if (a > b) std::swap(a, b);  // c0 < c1 (never equal: 31 is odd)
                push_colour(out, a, b);
            }
    return out;
}

// A BC4-style channel half: endpoints r0, r1 and codes 0..7, then 7..0.
void push_channel(std::vector<uint8_t>& out, uint8_t r0, uint8_t r1) {
    uint64_t bits = 0;
    for (int t = 0; t < 16; ++t) bits |= uint64_t(t < 8 ? t : 15 - t) << (3 * t);
    out.push_back(r0);
    out.push_back(r1);
    for (int i = 0; i < 6; ++i) out.push_back(uint8_t(bits >> (8 * i)));
}

// Every (red0, red1) byte pair.
std::vector<uint8_t> channel_cases() {
    std::vector<uint8_t> out;
    for (unsigned k = 0; k < 65536; ++k) push_channel(out, uint8_t(k >> 8), uint8_t(k));
    return out;
}

// Whole blocks of `f` from colour halves / channel halves.
std::vector<uint8_t> special_blocks(const BcFormat& f) {
    std::vector<uint8_t> blocks;
    if (is_bc1_family(f.kind)) return colour_cases();
    if (f.kind == BcKind::BC2 || f.kind == BcKind::BC3) {
        const std::vector<uint8_t> colours = colour_cases();
        const std::vector<uint8_t> channels = channel_cases();
        const size_t n = colours.size() / 8;
        for (size_t i = 0; i < std::max(n, channels.size() / 8); ++i) {
            if (f.kind == BcKind::BC2) {
                // Every 4-bit alpha value in every block, rotated per block.
                for (int j = 0; j < 8; ++j) {
                    const unsigned lo = (2 * j + i) & 15, hi = (2 * j + 1 + i) & 15;
                    blocks.push_back(uint8_t(lo | (hi << 4)));
                }
            } else {
                const size_t c = i % (channels.size() / 8);
                blocks.insert(blocks.end(), channels.begin() + 8 * c, channels.begin() + 8 * c + 8);
            }
            const size_t c = i % n;
            blocks.insert(blocks.end(), colours.begin() + 8 * c, colours.begin() + 8 * c + 8);
        }
        return blocks;
    }
    const std::vector<uint8_t> channels = channel_cases();
    const size_t n = channels.size() / 8;
    for (size_t i = 0; i < n; ++i) {
        blocks.insert(blocks.end(), channels.begin() + 8 * i, channels.begin() + 8 * i + 8);
        if (f.kind == BcKind::BC5) {
            // Green: another permutation of all pairs (odd multiplier), so R and G differ.
            const size_t j = (i * 40503u + 12345u) % n;
            blocks.insert(blocks.end(), channels.begin() + 8 * j, channels.begin() + 8 * j + 8);
        }
    }
    return blocks;
}

void run_special_block_test(texdec_format format) {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    const BcFormat& f = bc_format(format);
    std::vector<uint8_t> blocks = special_blocks(f);
    uint32_t width, height;
    pad_to_rows(f, blocks, 256, &width, &height);
    for (texdec_bc_rounding rounding : kBothRoundings)
        decode_and_compare_all_outputs(*ctx, f, rounding, blocks, width, height, "hand-built blocks");
    ctx->close_and_check();
}

// Decodes one 4x4 block; returns the 16 texels of `output`.
std::vector<uint8_t> decode_one_block(OwnContext& ctx, texdec_format format, texdec_bc_rounding rounding,
                                      texdec_output output, const std::vector<uint8_t>& block) {
    const BcFormat& f = bc_format(format);
    std::vector<uint8_t> texels(16 * output_texel_bytes(f, output) + 64);
    fill_canary(texels.data(), texels.size());
    const texdec_host_job job = JobBuilder(format, output, 4, 4)
                                    .blocks(block)
                                    .texels(texels.data(), 16 * output_texel_bytes(f, output))
                                    .rounding(rounding);
    REQUIRE(ctx.decode(job) == TEXDEC_SUCCESS);
    for (size_t i = job.dst_size; i < texels.size(); ++i) REQUIRE(texels[i] == canary_byte(i));
    texels.resize(job.dst_size);
    return texels;
}

std::vector<uint8_t> rgba8_rows(std::initializer_list<std::array<uint8_t, 4>> row) {
    std::vector<uint8_t> out;
    for (int y = 0; y < 4; ++y)
        for (const auto& t : row) out.insert(out.end(), t.begin(), t.end());
    return out;
}

std::vector<uint8_t> halves(std::initializer_list<uint16_t> values) {
    std::vector<uint8_t> out;
    for (uint16_t v : values) {
        out.push_back(uint8_t(v));
        out.push_back(uint8_t(v >> 8));
    }
    return out;
}

}  // namespace

// docs/EXACTNESS.md "Output types": RGBA16F of an sRGB format is the encoded byte v of its RGBA8 result
// as v/255, in every rounding mode, EXACT included (where a UNORM format's RGBA16F is the spec's
// real value instead). Expected values straight from the rational model: the UNORM twin's EXACT
// decode gives the byte v (exact::to_unorm8 of the real value) and the real value's FP16; the
// sRGB RGBA16F must be exact::to_fp16(v / 255), and the blocks must include texels where that
// differs from the real value's FP16, or the test could not tell the two readings apart.
TEST_CASE("sRGB BC1-BC3 RGBA16F is the RGBA8 byte v as v/255 in EXACT mode", "[bc1-5][special][gpu]") {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    for (texdec_format format :
         {TEXDEC_FORMAT_BC1_RGB_SRGB, TEXDEC_FORMAT_BC1_RGBA_SRGB, TEXDEC_FORMAT_BC2_SRGB, TEXDEC_FORMAT_BC3_SRGB}) {
        const BcFormat& f = bc_format(format);
        const BcFormat& twin = bc_unorm_twin(f);
        INFO(f.name);
        REQUIRE(twin.format != f.format);
        std::vector<uint8_t> blocks = special_blocks(f);
        const std::vector<uint8_t> random = random_blocks(f, 16384, test_seed() ^ 0x5AB5);
        blocks.insert(blocks.end(), random.begin(), random.end());
        uint32_t width, height;
        pad_to_rows(f, blocks, 256, &width, &height);
        const size_t texels = size_t(width) * height;
        std::vector<uint8_t> rgba8(texels * 4), rgba16f(texels * 8);
        for (texdec_output output : {TEXDEC_OUTPUT_RGBA8, TEXDEC_OUTPUT_RGBA16F}) {
            std::vector<uint8_t>& dst = output == TEXDEC_OUTPUT_RGBA8 ? rgba8 : rgba16f;
            const texdec_host_job job =
                JobBuilder(format, output, width, height).blocks(blocks).texels(dst).rounding(TEXDEC_BC_ROUNDING_EXACT);
            REQUIRE(ctx->decode(job) == TEXDEC_SUCCESS);
        }
        size_t mismatches = 0, differs_from_real = 0;
        std::string first;
        const uint32_t blocks_x = width / 4;
        for (size_t b = 0; b < blocks.size() / f.block_bytes; ++b) {
            ReferenceBlock model;
            reference_decode(twin, TEXDEC_BC_ROUNDING_EXACT, Oracle::ExactModel, &blocks[b * f.block_bytes], &model);
            for (int t = 0; t < 16; ++t) {
                const size_t x = (b % blocks_x) * 4 + t % 4, y = (b / blocks_x) * 4 + t / 4, i = y * width + x;
                for (int c = 0; c < 4; ++c) {
                    const int v = model.texel[t].v8[c];
                    const uint16_t want = exact::to_fp16({v, 255});
                    const uint16_t got = uint16_t(rgba16f[8 * i + 2 * c] | (rgba16f[8 * i + 2 * c + 1] << 8));
                    differs_from_real += want != model.texel[t].f16[c];
                    if ((got != want || rgba8[4 * i + c] != v) && mismatches++ == 0)
                        first = "texel (" + std::to_string(x) + "," + std::to_string(y) + ") channel " + std::to_string(c) +
                                ": byte " + std::to_string(v) + " -> expected half " + std::to_string(want) + ", got " +
                                std::to_string(got) + " (RGBA8 " + std::to_string(rgba8[4 * i + c]) + ")";
                }
            }
        }
        INFO(texels << " texels, " << mismatches << " channels differ; first: " << first << "; " << differs_from_real
                    << " channels where v/255 differs from the real value");
        CHECK(mismatches == 0);
        CHECK(differs_from_real > 0);
    }
    ctx->close_and_check();
}

#define SPECIAL_BLOCK_TEST(FORMAT)                                      \
    TEST_CASE("hand-built blocks: " #FORMAT, "[bc1-5][special][gpu]") { \
        run_special_block_test(TEXDEC_FORMAT_##FORMAT);                 \
    }

SPECIAL_BLOCK_TEST(BC1_RGB_UNORM)
SPECIAL_BLOCK_TEST(BC1_RGB_SRGB)
SPECIAL_BLOCK_TEST(BC1_RGBA_UNORM)
SPECIAL_BLOCK_TEST(BC1_RGBA_SRGB)
SPECIAL_BLOCK_TEST(BC2_UNORM)
SPECIAL_BLOCK_TEST(BC2_SRGB)
SPECIAL_BLOCK_TEST(BC3_UNORM)
SPECIAL_BLOCK_TEST(BC3_SRGB)
SPECIAL_BLOCK_TEST(BC4_UNORM)
SPECIAL_BLOCK_TEST(BC4_SNORM)
SPECIAL_BLOCK_TEST(BC5_UNORM)
SPECIAL_BLOCK_TEST(BC5_SNORM)

TEST_CASE("smoke: own context decodes one block", "[smoke][gpu]") {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    // c0 = 0xF800 (red 31) > c1 = 0x001F (blue 31): 4 colours; codes 0 in every texel -> red.
    const std::vector<uint8_t> block = {0x00, 0xF8, 0x1F, 0x00, 0, 0, 0, 0};
    CHECK(decode_one_block(*ctx, TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_BC_ROUNDING_EXACT, TEXDEC_OUTPUT_RGBA8, block) ==
          rgba8_rows({{255, 0, 0, 255}, {255, 0, 0, 255}, {255, 0, 0, 255}, {255, 0, 0, 255}}));
    ctx->close_and_check();
}

TEST_CASE("hand-worked blocks: values computed by hand from the spec", "[bc1-5][special][gpu]") {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    const auto EXACT = TEXDEC_BC_ROUNDING_EXACT, IDEAL = TEXDEC_BC_ROUNDING_IDEAL;
    const auto RGBA8 = TEXDEC_OUTPUT_RGBA8, HALF = TEXDEC_OUTPUT_RGBA16F, NATIVE = TEXDEC_OUTPUT_NATIVE;
    // c0 = black (0x0000) < c1 = white (0xFFFF): BC1 3-colour. Codes 0, 1, 2, 3 in every row.
    const std::vector<uint8_t> bw = {0x00, 0x00, 0xFF, 0xFF, 0xE4, 0xE4, 0xE4, 0xE4};

    SECTION("BC1 3-colour midpoint tie and punch-through") {
        // EXACT midpoint: (0 + 31) / 62 * 255 = 127.5 -> 128 (tie up), G (0 + 63) / 126 * 255 = 127.5 -> 128.
        CHECK(decode_one_block(*ctx, TEXDEC_FORMAT_BC1_RGBA_UNORM, EXACT, RGBA8, bw) ==
              rgba8_rows({{0, 0, 0, 255}, {255, 255, 255, 255}, {128, 128, 128, 255}, {0, 0, 0, 0}}));
        // IDEAL midpoint: (0 + 255) / 2 = 127 truncated.
        CHECK(decode_one_block(*ctx, TEXDEC_FORMAT_BC1_RGBA_UNORM, IDEAL, RGBA8, bw) ==
              rgba8_rows({{0, 0, 0, 255}, {255, 255, 255, 255}, {127, 127, 127, 255}, {0, 0, 0, 0}}));
        // RGB: code 3 is opaque black.
        CHECK(decode_one_block(*ctx, TEXDEC_FORMAT_BC1_RGB_UNORM, EXACT, NATIVE, bw) ==
              rgba8_rows({{0, 0, 0, 255}, {255, 255, 255, 255}, {128, 128, 128, 255}, {0, 0, 0, 255}}));
        CHECK(decode_one_block(*ctx, TEXDEC_FORMAT_BC1_RGB_SRGB, IDEAL, RGBA8, bw) ==
              rgba8_rows({{0, 0, 0, 255}, {255, 255, 255, 255}, {127, 127, 127, 255}, {0, 0, 0, 255}}));
        // RGBA16F EXACT: the real value 0.5 = 0x3800; IDEAL: 127/255 -> 0x37F8.
        std::vector<uint8_t> row = halves({0, 0, 0, 0x3C00, 0x3C00, 0x3C00, 0x3C00, 0x3C00, 0x3800, 0x3800, 0x3800, 0x3C00, 0, 0, 0, 0});
        std::vector<uint8_t> expected;
        for (int y = 0; y < 4; ++y) expected.insert(expected.end(), row.begin(), row.end());
        CHECK(decode_one_block(*ctx, TEXDEC_FORMAT_BC1_RGBA_UNORM, EXACT, HALF, bw) == expected);
        row = halves({0, 0, 0, 0x3C00, 0x3C00, 0x3C00, 0x3C00, 0x3C00, 0x37F8, 0x37F8, 0x37F8, 0x3C00, 0, 0, 0, 0});
        expected.clear();
        for (int y = 0; y < 4; ++y) expected.insert(expected.end(), row.begin(), row.end());
        CHECK(decode_one_block(*ctx, TEXDEC_FORMAT_BC1_RGBA_UNORM, IDEAL, HALF, bw) == expected);
        // sRGB RGBA16F (docs/EXACTNESS.md): the encoded byte v as v/255: 128/255 -> 0x3804.
        row = halves({0, 0, 0, 0x3C00, 0x3C00, 0x3C00, 0x3C00, 0x3C00, 0x3804, 0x3804, 0x3804, 0x3C00, 0, 0, 0, 0});
        expected.clear();
        for (int y = 0; y < 4; ++y) expected.insert(expected.end(), row.begin(), row.end());
        CHECK(decode_one_block(*ctx, TEXDEC_FORMAT_BC1_RGBA_SRGB, EXACT, HALF, bw) == expected);
    }

    SECTION("BC1 endpoints: round(c * 255 / 31), not bit replication, in EXACT") {
        // c0 = red 3 (0x1800) > c1 = 0: 4 colours. EXACT red: 3 * 255 / 31 = 24.68 -> 25,
        // (2*3 + 0) / 93 * 255 = 16.45 -> 16, (3 + 0) / 93 * 255 = 8.23 -> 8. IDEAL: 24, 16, 8.
        const std::vector<uint8_t> block = {0x00, 0x18, 0x00, 0x00, 0xE4, 0xE4, 0xE4, 0xE4};
        CHECK(decode_one_block(*ctx, TEXDEC_FORMAT_BC1_RGB_UNORM, EXACT, RGBA8, block) ==
              rgba8_rows({{25, 0, 0, 255}, {0, 0, 0, 255}, {16, 0, 0, 255}, {8, 0, 0, 255}}));
        CHECK(decode_one_block(*ctx, TEXDEC_FORMAT_BC1_RGB_UNORM, IDEAL, RGBA8, block) ==
              rgba8_rows({{24, 0, 0, 255}, {0, 0, 0, 255}, {16, 0, 0, 255}, {8, 0, 0, 255}}));
    }

    SECTION("BC2 colour is 4-colour although c0 < c1; every alpha nibble") {
        // Alpha nibbles 0..15 in texel order -> 17 * t. Colour: black/white, 4 colours:
        // (2*0 + 31) / 93 * 255 = 85 exactly, (0 + 62) / 93 * 255 = 170 exactly (both modes).
        std::vector<uint8_t> block = {0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE};
        block.insert(block.end(), bw.begin(), bw.end());
        std::vector<uint8_t> expected;
        const uint8_t grey[4] = {0, 255, 85, 170};
        for (int t = 0; t < 16; ++t) {
            const uint8_t g = grey[t % 4];
            expected.insert(expected.end(), {g, g, g, uint8_t(17 * t)});
        }
        for (auto rounding : {EXACT, IDEAL}) {
            CHECK(decode_one_block(*ctx, TEXDEC_FORMAT_BC2_UNORM, rounding, RGBA8, block) == expected);
            CHECK(decode_one_block(*ctx, TEXDEC_FORMAT_BC2_SRGB, rounding, NATIVE, block) == expected);
        }
        // RGBA16F EXACT of texel 2: 1/3 -> 0x3555; texel 3: 2/3 -> 0x3955; alpha 2/15, 3/15 = 0.2.
        const auto half = decode_one_block(*ctx, TEXDEC_FORMAT_BC2_UNORM, EXACT, HALF, block);
        CHECK(std::vector<uint8_t>(half.begin() + 16, half.begin() + 32) ==
              halves({0x3555, 0x3555, 0x3555, 0x3044, 0x3955, 0x3955, 0x3955, 0x3266}));
    }

    SECTION("BC4 unsigned: 8-value interpolants round (EXACT) or truncate (IDEAL)") {
        // red0 = 200 > red1 = 10; codes 0..7 then 7..0. (6*200 + 10)/7 = 172.86, (5*200 + 20)/7 =
        // 145.71, 118.57, 91.43, 64.29, (200 + 60)/7 = 37.14.
        std::vector<uint8_t> block;
        push_channel(block, 200, 10);
        const std::vector<uint8_t> exact = {200, 10, 173, 146, 119, 91, 64, 37};
        const std::vector<uint8_t> ideal = {200, 10, 172, 145, 118, 91, 64, 37};
        auto both_orders = [](const std::vector<uint8_t>& v) {
            std::vector<uint8_t> out(v);
            out.insert(out.end(), v.rbegin(), v.rend());
            return out;
        };
        CHECK(decode_one_block(*ctx, TEXDEC_FORMAT_BC4_UNORM, EXACT, NATIVE, block) == both_orders(exact));
        CHECK(decode_one_block(*ctx, TEXDEC_FORMAT_BC4_UNORM, IDEAL, NATIVE, block) == both_orders(ideal));
        const auto rgba = decode_one_block(*ctx, TEXDEC_FORMAT_BC4_UNORM, EXACT, RGBA8, block);
        CHECK(std::vector<uint8_t>(rgba.begin(), rgba.begin() + 12) ==
              std::vector<uint8_t>({200, 0, 0, 255, 10, 0, 0, 255, 173, 0, 0, 255}));
        // RGBA16F: 1210/1785 = 0.67787 -> 0x396C (EXACT); 172/255 -> 0x3965 (IDEAL).
        const auto h_exact = decode_one_block(*ctx, TEXDEC_FORMAT_BC4_UNORM, EXACT, HALF, block);
        const auto h_ideal = decode_one_block(*ctx, TEXDEC_FORMAT_BC4_UNORM, IDEAL, HALF, block);
        CHECK(std::vector<uint8_t>(h_exact.begin() + 16, h_exact.begin() + 24) == halves({0x396C, 0, 0, 0x3C00}));
        CHECK(std::vector<uint8_t>(h_ideal.begin() + 16, h_ideal.begin() + 24) == halves({0x3965, 0, 0, 0x3C00}));
    }

    SECTION("BC4 signed: -128 is -1.0, (-127, -128) is the 8-value mode, -1.0 is written -127") {
        for (auto rounding : {EXACT, IDEAL}) {
            INFO(rounding_name(rounding));
            std::vector<uint8_t> block;
            push_channel(block, 0x81, 0x80);  // -127 > -128: 8 values, all -1.0
            CHECK(decode_one_block(*ctx, TEXDEC_FORMAT_BC4_SNORM, rounding, NATIVE, block) == std::vector<uint8_t>(16, 0x81));
            const auto h = decode_one_block(*ctx, TEXDEC_FORMAT_BC4_SNORM, rounding, HALF, block);
            for (int t = 0; t < 16; ++t)
                CHECK(std::vector<uint8_t>(h.begin() + 8 * t, h.begin() + 8 * t + 8) == halves({0xBC00, 0, 0, 0x3C00}));
            block.clear();
            push_channel(block, 0x80, 0x81);  // -128 <= -127: 6 values; code 6 = -1.0, code 7 = +1.0
            std::vector<uint8_t> six = {0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x7F};
            std::vector<uint8_t> expected(six);
            expected.insert(expected.end(), six.rbegin(), six.rend());
            CHECK(decode_one_block(*ctx, TEXDEC_FORMAT_BC4_SNORM, rounding, NATIVE, block) == expected);
        }
        // red0 = 127 > red1 = -128 (= -127): code 2 (6*127 - 127)/7 = 90.71, code 7 -90.71:
        // EXACT 91 / -91 (0xA5); IDEAL truncates toward zero: 90 / -90 (0xA6).
        std::vector<uint8_t> block;
        push_channel(block, 0x7F, 0x80);
        const auto exact = decode_one_block(*ctx, TEXDEC_FORMAT_BC4_SNORM, EXACT, NATIVE, block);
        const auto ideal = decode_one_block(*ctx, TEXDEC_FORMAT_BC4_SNORM, IDEAL, NATIVE, block);
        CHECK(exact[0] == 0x7F);
        CHECK(exact[1] == 0x81);
        CHECK(exact[2] == 91);
        CHECK(exact[7] == 0xA5);
        CHECK(ideal[1] == 0x81);
        CHECK(ideal[2] == 90);
        CHECK(ideal[7] == 0xA6);
    }

    SECTION("BC5 signed: (r, g) with missing channels 0 and alpha 1") {
        std::vector<uint8_t> block;
        push_channel(block, 0x80, 0x80);  // red: all -1.0 (6-value mode, codes 0..6 -> -1.0, 7 -> +1.0)
        push_channel(block, 0x40, 0x40);  // green: 64 / 127; 6-value mode: code 6 -1.0, code 7 +1.0
        const auto native = decode_one_block(*ctx, TEXDEC_FORMAT_BC5_SNORM, EXACT, NATIVE, block);
        CHECK(native[0] == 0x81);
        CHECK(native[1] == 0x40);
        CHECK(native[2 * 6 + 1] == 0x81);
        CHECK(native[2 * 7 + 0] == 0x7F);
        CHECK(native[2 * 7 + 1] == 0x7F);
        const auto h = decode_one_block(*ctx, TEXDEC_FORMAT_BC5_SNORM, EXACT, HALF, block);
        // 64/127 = 0.503937 -> 0x3808 (0.50390625; next 0x3809 = 0.50439 is farther).
        CHECK(std::vector<uint8_t>(h.begin(), h.begin() + 8) == halves({0xBC00, 0x3808, 0, 0x3C00}));
    }
    ctx->close_and_check();
}

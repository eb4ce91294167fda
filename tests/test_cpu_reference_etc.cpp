// The CPU reference decoders for ETC2 and EAC (src/reference/etc.cpp; `astc-gpu-decode
// --verify` uses them) against Mesa's desktop GL decoder (docs/EXACTNESS.md "ETC1, ETC2 ... EAC"),
// tolerance 0, for every format and every output it offers; and against texdec_decode's bytes.
// The test walks the blocks itself (decode_etc2_block / decode_eac_block per 4x4 block, each
// written to a scratch block with a canary behind it).
//
// Expected bytes come from Mesa: ETC2 RGBA8 and NATIVE = Mesa's RGBA8, RGBA16F = the half nearest
// v / 255; EAC NATIVE = Mesa's 16-bit values, RGBA16F = the half nearest x / 2047 or x / 1023,
// RGBA8 (unsigned) = round(x * 255 / 2047) with ties up, x the 11-bit value under Mesa's 16 bits;
// missing channels (r, 0, 0, 1) / (r, g, 0, 1). The halves are computed here through the
// compiler's _Float16 from a double (exact: x / 2047, x / 1023, v / 255 are never within 2^-40
// of a half-way point), not through exact_model's to_fp16, which the reference uses.
//
// Blocks per format: random_block_count() / 16 random ones (65,600 by default; 3 in 8 uniform
// bits, the others with the colour mode forced), then structured ones:
//   ETC2 colour: every table-codeword pair x flip in individual and differential mode; every
//     (base, delta) of the R, G and B mode-selection fields with bit 33 = 0 and 1 (the T, H and
//     planar overflow boundaries, and the missing individual mode of punch-through); T with every
//     distance index, H with every (da, db) and base colour 1 = / > / < base colour 2; planar planes
//     clamping below 0 and above 255; every mode with all pixel indices 0, 1, 2 (punch-through
//     transparency with opaque bit 0) or 3; each with opaque bit 0 and 1 for RGB8A1.
//   EAC (RGBA8's alpha, R11, RG11): 12 base codewords (incl. 0, 255 and signed -128, -127, 127) x
//     every multiplier 0..15 (0: x1/8 for R11, x0 for RGBA8 alpha) x every table 0..15, each block's
//     16 pixel indices covering 0..7 twice.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iterator>
#include <sstream>

#include "gpu/gpu_fixture.h"
#include "oracles/mesa_gl_oracle.h"
#include "reference/block_decoders.h"
#include "support/bc_formats.h"  // hex_bytes, output_name
#include "support/etc_words.h"
#include "support/job_builder.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

struct Format {
    texdec_format format;
    const char* name;
    bool eac;          // EAC R11 / RG11 (else ETC2 colour)
    bool punch;        // ETC2 RGB8A1: bit 33 is the opaque bit
    bool eac_alpha;    // ETC2 RGBA8: an EAC alpha word first
    uint32_t channels; // EAC: 1 or 2
    bool is_signed;    // EAC signed
    uint32_t block_bytes() const { return eac ? 8 * channels : eac_alpha ? 16 : 8; }
};
constexpr Format kEtc2Formats[] = {
    {TEXDEC_FORMAT_ETC2_R8G8B8_UNORM, "etc2-r8g8b8-unorm", false, false, false, 0, false},
    {TEXDEC_FORMAT_ETC2_R8G8B8_SRGB, "etc2-r8g8b8-srgb", false, false, false, 0, false},
    {TEXDEC_FORMAT_ETC2_R8G8B8A1_UNORM, "etc2-r8g8b8a1-unorm", false, true, false, 0, false},
    {TEXDEC_FORMAT_ETC2_R8G8B8A1_SRGB, "etc2-r8g8b8a1-srgb", false, true, false, 0, false},
    {TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM, "etc2-r8g8b8a8-unorm", false, false, true, 0, false},
    {TEXDEC_FORMAT_ETC2_R8G8B8A8_SRGB, "etc2-r8g8b8a8-srgb", false, false, true, 0, false},
};
constexpr Format kEacFormats[] = {
    {TEXDEC_FORMAT_EAC_R11_UNORM, "eac-r11-unorm", true, false, false, 1, false},
    {TEXDEC_FORMAT_EAC_R11_SNORM, "eac-r11-snorm", true, false, false, 1, true},
    {TEXDEC_FORMAT_EAC_R11G11_UNORM, "eac-r11g11-unorm", true, false, false, 2, false},
    {TEXDEC_FORMAT_EAC_R11G11_SNORM, "eac-r11g11-snorm", true, false, false, 2, true},
};

std::vector<texdec_output> outputs_of(const Format& f) {
    if (f.eac && f.is_signed) return {TEXDEC_OUTPUT_RGBA16F, TEXDEC_OUTPUT_NATIVE};  // no RGBA8 for SNORM
    return {TEXDEC_OUTPUT_RGBA8, TEXDEC_OUTPUT_RGBA16F, TEXDEC_OUTPUT_NATIVE};
}
uint32_t texel_bytes(const Format& f, texdec_output output) {
    if (output == TEXDEC_OUTPUT_RGBA16F) return 8;
    if (output == TEXDEC_OUTPUT_NATIVE && f.eac) return 2 * f.channels;  // R16 / R16G16
    return 4;
}

// ---- expected values from Mesa's bytes ----

uint16_t half_bits(double v) {
    const _Float16 h = static_cast<_Float16>(v);
    uint16_t bits;
    std::memcpy(&bits, &h, 2);
    return bits;
}
void put16(uint8_t* p, uint16_t v) {
    p[0] = uint8_t(v & 0xFF);
    p[1] = uint8_t(v >> 8);
}

// The bytes `output` must hold for an image Mesa decoded to `mesa` (its GL_RGBA bytes for ETC2,
// its 16-bit values for EAC).
std::vector<uint8_t> expected_from_mesa(const Format& f, texdec_output output, const std::vector<uint8_t>& mesa, size_t texels) {
    const uint32_t tb = texel_bytes(f, output);
    std::vector<uint8_t> out(texels * tb);
    if (!f.eac) {
        if (output != TEXDEC_OUTPUT_RGBA16F) return mesa;  // RGBA8, NATIVE: v itself
        for (size_t i = 0; i < texels * 4; ++i) put16(&out[2 * i], half_bits(mesa[i] / 255.0));
        return out;
    }
    if (output == TEXDEC_OUTPUT_NATIVE) return mesa;  // R16 / RG16: Mesa's bit-replicated values
    for (size_t i = 0; i < texels; ++i)
        for (uint32_t c = 0; c < 4; ++c) {
            int x = 0;  // the 11-bit value: the replication keeps it in the top bits
            if (c < f.channels) {
                uint16_t v;
                std::memcpy(&v, &mesa[2 * (f.channels * i + c)], 2);
                const int s = f.is_signed ? int(int16_t(v)) : int(v);
                x = s < 0 ? -((-s) >> 5) : s >> 5;
            }
            if (output == TEXDEC_OUTPUT_RGBA16F) {
                const uint16_t h = c >= f.channels ? (c == 3 ? 0x3C00 : 0) : half_bits(x / (f.is_signed ? 1023.0 : 2047.0));
                put16(&out[8 * i + 2 * c], h);
            } else {  // RGBA8, unsigned: round(x * 255 / 2047), ties up
                out[4 * i + c] = c >= f.channels ? (c == 3 ? 255 : 0) : uint8_t((510 * x + 2047) / 4094);
            }
        }
    return out;
}

// ---- the reference, block by block ----

// A blocks_x x blocks_y image of `f` decoded by the CPU reference into `output`. Each block goes
// to a scratch area followed by a canary, which must stay intact.
std::vector<uint8_t> reference_decode(const Format& f, texdec_output output, const std::vector<uint8_t>& blocks,
                                      uint32_t blocks_x, uint32_t blocks_y, size_t& overruns) {
    const uint32_t tb = texel_bytes(f, output), width = 4 * blocks_x;
    std::vector<uint8_t> image(size_t(width) * 4 * blocks_y * tb);
    constexpr size_t kCanary = 16;
    std::vector<uint8_t> scratch(16 * tb + kCanary);
    for (uint32_t by = 0; by < blocks_y; ++by)
        for (uint32_t bx = 0; bx < blocks_x; ++bx) {
            const uint8_t* block = &blocks[(size_t(by) * blocks_x + bx) * f.block_bytes()];
            std::memset(scratch.data(), 0xA5, scratch.size());
            if (f.eac) texdec_reference::detail::decode_eac_block(f.format, output, block, scratch.data());
            else texdec_reference::detail::decode_etc2_block(f.format, output, block, scratch.data());
            for (size_t k = 16 * tb; k < scratch.size(); ++k) overruns += scratch[k] != 0xA5;
            for (uint32_t y = 0; y < 4; ++y)
                std::memcpy(&image[((size_t(by) * 4 + y) * width + 4 * bx) * tb], &scratch[4 * y * tb], 4 * tb);
        }
    return image;
}

std::vector<uint8_t> gpu_decode(OwnContext& ctx, const Format& f, texdec_output output, const std::vector<uint8_t>& blocks,
                                uint32_t width, uint32_t height) {
    return ctx.decode_tight(f.format, output, blocks, width, height, texel_bytes(f, output), 0xEE);
}

struct Tally {
    size_t mismatches_mesa = 0, mismatches_gpu = 0, overruns = 0;
    std::string first;
};

// Decodes `blocks` (rows of `row_blocks` blocks) with the reference and texdec_decode in `output`
// and counts the texels where the reference differs from Mesa's answer `mesa` or from texdec.
Tally compare(OwnContext& ctx, const Format& f, texdec_output output, const std::vector<uint8_t>& blocks,
              uint32_t row_blocks, const std::vector<uint8_t>& mesa) {
    Tally tally;
    const uint32_t blocks_y = uint32_t(blocks.size() / f.block_bytes() / row_blocks);
    const uint32_t width = 4 * row_blocks, height = 4 * blocks_y;
    const size_t texels = size_t(width) * height;
    const std::vector<uint8_t> want = expected_from_mesa(f, output, mesa, texels);
    const std::vector<uint8_t> ours = reference_decode(f, output, blocks, row_blocks, blocks_y, tally.overruns);
    const std::vector<uint8_t> gpu = gpu_decode(ctx, f, output, blocks, width, height);
    REQUIRE(ours.size() == want.size());
    REQUIRE(ours.size() == gpu.size());
    const uint32_t tb = texel_bytes(f, output);
    for (size_t i = 0; i < texels; ++i) {
        const bool bad_mesa = std::memcmp(&ours[i * tb], &want[i * tb], tb) != 0;
        const bool bad_gpu = std::memcmp(&ours[i * tb], &gpu[i * tb], tb) != 0;
        tally.mismatches_mesa += bad_mesa;
        tally.mismatches_gpu += bad_gpu;
        if ((bad_mesa || bad_gpu) && tally.first.empty()) {
            const size_t x = i % width, y = i / width, block = (y / 4) * row_blocks + x / 4;
            std::ostringstream s;
            s << "texel (" << x << "," << y << "): reference " << hex_bytes(&ours[i * tb], tb) << " Mesa-derived "
              << hex_bytes(&want[i * tb], tb) << " texdec_decode " << hex_bytes(&gpu[i * tb], tb) << "; block "
              << hex_bytes(&blocks[block * f.block_bytes()], f.block_bytes());
            tally.first = s.str();
        }
    }
    return tally;
}

// ---- ETC2 colour words (the spec's int64bit, bit 63 = MSB of byte q0) ----

// Sets the bits a mode leaves unused ('.' in layouts (d), (e), (g)) so that `v` decodes in `mode`,
// keeping every bit the mode uses. Individual / differential: bit 33 (RGB8) and, for differential,
// redrawn delta fields. `op` is bit 33 for punch-through.
bool force_mode(EtcWord& v, EtcMode mode, bool punch, int op, SplitMix64& rng) {
    if (punch) v = etc_set_field(v, 33, 1, uint64_t(op));
    if (mode == EtcMode::individual) {
        if (punch) return false;
        v = etc_set_field(v, 33, 1, 0);
        return true;
    }
    if (!punch) v = etc_set_field(v, 33, 1, 1);
    if (mode == EtcMode::differential) {
        for (int tries = 0; tries < 1000 && etc_mode_of(v, punch) != EtcMode::differential; ++tries)
            v = etc_set_field(v, 40, 24, rng.next());
        return etc_mode_of(v, punch) == EtcMode::differential;
    }
    return etc_select_mode(v, mode, punch);  // T, H, planar
}

// The structured colour words (see the top of this file).
std::vector<EtcWord> structured_colour_words(bool punch, SplitMix64& rng) {
    std::vector<EtcWord> out;
    const int ops = punch ? 2 : 1;
    auto add = [&](EtcWord v, EtcMode mode, int op) {
        if (force_mode(v, mode, punch, op, rng)) out.push_back(v);
    };
    for (int op = 0; op < ops; ++op) {
        // Individual and differential: every table codeword pair, both flips.
        for (EtcMode mode : {EtcMode::individual, EtcMode::differential})
            for (int tables = 0; tables < 64; ++tables)
                for (int flip = 0; flip < 2; ++flip) {
                    EtcWord v =
                        etc_set_field(etc_set_field(rng.next(), 34, 6, uint64_t(tables)), 32, 1, uint64_t(flip));
                    add(v, mode, op);
                }
        // T: every distance index (da at 35..34, db at 32).
        for (int d = 0; d < 8; ++d)
            for (int rep = 0; rep < 4; ++rep)
                add(etc_set_field(etc_set_field(rng.next(), 34, 2, uint64_t(d >> 1)), 32, 1, uint64_t(d & 1)),
                    EtcMode::t, op);
        // H: every (da, db), base colour 1 equal to / one above / one below / unrelated to colour 2.
        for (int rel = 0; rel < 4; ++rel)
            for (int d = 0; d < 4; ++d)
                for (int rep = 0; rep < 4; ++rep) {
                    EtcWord v = rng.next();
                    const uint64_t c2 = rng.next() & 0xFFF;  // R2 G2 B2, bits 46..35
                    uint64_t c1 = c2;
                    if (rel == 1 && c2 < 0xFFF) c1 = c2 + 1;
                    if (rel == 2 && c2 > 0) c1 = c2 - 1;
                    if (rel == 3) c1 = rng.next() & 0xFFF;
                    const uint64_t g1 = (c1 >> 4) & 15, b1 = c1 & 15;
                    v = etc_set_field(v, 59, 4, c1 >> 8);
                    v = etc_set_field(v, 56, 3, g1 >> 1);
                    v = etc_set_field(v, 52, 1, g1 & 1);
                    v = etc_set_field(v, 51, 1, b1 >> 3);
                    v = etc_set_field(v, 47, 3, b1 & 7);
                    v = etc_set_field(v, 35, 12, c2);
                    v = etc_set_field(v, 34, 1, uint64_t(d >> 1));
                    v = etc_set_field(v, 32, 1, uint64_t(d & 1));
                    add(v, EtcMode::h, op);
                }
        // Planar: O = 0 with H = V = max, and the reverse (the plane clamps at both ends), then random.
        for (int dir = 0; dir < 3; ++dir)
            for (int rep = 0; rep < 8; ++rep) {
                EtcWord v = rng.next();
                if (dir < 2) {
                    const uint64_t o6 = dir ? 63 : 0, o7 = dir ? 127 : 0, e6 = dir ? 0 : 63, e7 = dir ? 0 : 127;
                    v = etc_set_field(v, 57, 6, o6);
                    v = etc_set_field(v, 56, 1, o7 >> 6);
                    v = etc_set_field(v, 49, 6, o7 & 63);
                    v = etc_set_field(v, 48, 1, o6 >> 5);
                    v = etc_set_field(v, 43, 2, (o6 >> 3) & 3);
                    v = etc_set_field(v, 39, 3, o6 & 7);
                    v = etc_set_field(v, 34, 5, e6 >> 1);
                    v = etc_set_field(v, 32, 1, e6 & 1);
                    v = etc_set_field(v, 0, 32, (e7 << 25) | (e6 << 19) | (e6 << 13) | (e7 << 6) | e6);
                }
                add(v, EtcMode::planar, op);
            }
        // Every mode with all 16 pixel indices equal (index 2 with Op 0: transparent black).
        for (EtcMode mode : {EtcMode::individual, EtcMode::differential, EtcMode::t, EtcMode::h, EtcMode::planar})
            for (int index = 0; index < 4; ++index)
                for (int rep = 0; rep < 2; ++rep) {
                    EtcWord v = rng.next();
                    if (mode != EtcMode::planar)
                        v = etc_set_field(v, 0, 32, (index & 2 ? 0xFFFF0000u : 0) | (index & 1 ? 0xFFFFu : 0));
                    add(v, mode, op);
                }
    }
    // Every (base, delta) of each mode-selection field, the other two in range, bit 33 both ways.
    for (int channel = 0; channel < 3; ++channel)
        for (int base = 0; base < 32; ++base)
            for (int delta = 0; delta < 8; ++delta)
                for (int bit33 = 0; bit33 < 2; ++bit33) {
                    EtcWord v = rng.next();
                    for (int other = 0; other < 3; ++other)
                        v = etc_set_field(etc_set_field(v, 59 - 8 * other, 5, 16), 56 - 8 * other, 3, 0);
                    v = etc_set_field(v, 59 - 8 * channel, 5, uint64_t(base));
                    v = etc_set_field(v, 56 - 8 * channel, 3, uint64_t(delta));
                    out.push_back(etc_set_field(v, 33, 1, uint64_t(bit33)));
                }
    return out;
}

// An EAC word: base codeword, multiplier, table; pixel k's 3-bit index = (k + shift) % 8.
EtcWord eac_word(uint8_t base, uint32_t multiplier, uint32_t table, uint32_t shift) {
    EtcWord v = (EtcWord(base) << 56) | (EtcWord(multiplier) << 52) | (EtcWord(table) << 48);
    for (uint32_t k = 0; k < 16; ++k) v |= EtcWord((k + shift) % 8) << (45 - 3 * k);
    return v;
}
std::vector<EtcWord> structured_eac_words(SplitMix64& rng) {
    // Unsigned bytes; signed they are 0, 1, 2, 16, 127, -128 (acts as -127), -127, -64, -3, -2, -1;
    // the last one is drawn at random per block.
    const uint8_t bases[] = {0x00, 0x01, 0x02, 0x10, 0x7F, 0x80, 0x81, 0xC0, 0xFD, 0xFE, 0xFF};
    std::vector<EtcWord> out;
    for (size_t b = 0; b <= std::size(bases); ++b)
        for (uint32_t multiplier = 0; multiplier < 16; ++multiplier)
            for (uint32_t table = 0; table < 16; ++table)
                for (uint32_t shift : {0u, 3u})
                    out.push_back(eac_word(b < std::size(bases) ? bases[b] : uint8_t(rng.next()), multiplier, table, shift));
    return out;
}

constexpr uint32_t kRowBlocks = 256;

// Random blocks then structured ones for `f`, padded with random blocks to whole rows.
std::vector<uint8_t> test_blocks(const Format& f, SplitMix64& rng, size_t random_count) {
    std::vector<uint8_t> blocks;
    const EtcMode kForced[5] = {EtcMode::individual, EtcMode::differential, EtcMode::t, EtcMode::h, EtcMode::planar};
    for (size_t i = 0; i < random_count; ++i) {
        if (f.eac) {
            for (uint32_t c = 0; c < f.channels; ++c) etc_append_word(blocks, rng.next());
            continue;
        }
        if (f.eac_alpha) etc_append_word(blocks, rng.next());
        EtcWord colour = rng.next();
        if (i % 8 >= 3) force_mode(colour, kForced[(i % 8) - 3], f.punch, int(rng.next() & 1), rng);
        etc_append_word(blocks, colour);
    }
    if (f.eac) {
        const std::vector<EtcWord> words = structured_eac_words(rng);
        for (size_t i = 0; i < words.size(); ++i) {
            etc_append_word(blocks, words[i]);
            if (f.channels == 2) etc_append_word(blocks, words[(i * 7 + 11) % words.size()]);  // green differs from red
        }
    } else {
        const std::vector<EtcWord> colours = structured_colour_words(f.punch, rng);
        const std::vector<EtcWord> alphas = structured_eac_words(rng);
        const size_t n = f.eac_alpha ? std::max(colours.size(), alphas.size()) : colours.size();
        for (size_t i = 0; i < n; ++i) {
            if (f.eac_alpha) etc_append_word(blocks, alphas[i % alphas.size()]);
            etc_append_word(blocks, colours[i % colours.size()]);
        }
    }
    while (blocks.size() / f.block_bytes() % kRowBlocks)
        for (uint32_t w = 0; w < f.block_bytes() / 8; ++w) etc_append_word(blocks, rng.next());
    return blocks;
}

void run(const Format* formats, size_t count, uint64_t salt) {
    const std::string unavailable = mesa_gl_etc_unavailable_reason();
    INFO("Mesa GL: " << unavailable);
    REQUIRE(unavailable.empty());
    auto ctx = OwnContext::open();
    if (!ctx) return;
    const size_t random_count = random_block_count() / 16;
    const auto start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < count; ++i) {
        const Format& f = formats[i];
        SplitMix64 rng(test_seed() ^ salt ^ (uint64_t(f.format) << 32));
        const std::vector<uint8_t> blocks = test_blocks(f, rng, random_count);
        const size_t block_count = blocks.size() / f.block_bytes();
        const uint32_t width = 4 * kRowBlocks, height = uint32_t(4 * block_count / kRowBlocks);
        const std::vector<uint8_t> mesa = mesa_gl_decode_etc(f.format, width, height, blocks.data(), blocks.size());
        for (texdec_output output : outputs_of(f)) {
            INFO(f.name << " " << output_name(output) << ", seed " << test_seed() << " (TEXDEC_TEST_SEED changes it)");
            const Tally tally = compare(*ctx, f, output, blocks, kRowBlocks, mesa);
            INFO("first mismatch: " << tally.first);
            CHECK(tally.mismatches_mesa == 0);
            CHECK(tally.mismatches_gpu == 0);
            CHECK(tally.overruns == 0);
            WARN(f.name << " " << output_name(output) << ": " << block_count << " blocks (" << random_count
                        << " random), texels differing from Mesa " << tally.mismatches_mesa << ", from texdec_decode "
                        << tally.mismatches_gpu);
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    WARN(seconds << " s");
    ctx->close_and_check();
}

}  // namespace

TEST_CASE("cpu reference: ETC2 blocks match Mesa GL and texdec_decode in every output", "[reference][etc2][gpu]") {
    run(kEtc2Formats, std::size(kEtc2Formats), 0x4EF2);
}

TEST_CASE("cpu reference: EAC blocks match Mesa GL and texdec_decode in every output", "[reference][eac][gpu]") {
    run(kEacFormats, std::size(kEacFormats), 0x4EAC);
}

// Worked examples of the spec, decoded by the reference alone (no oracle needed).
TEST_CASE("cpu reference: the spec's ETC2 and EAC worked examples", "[reference][etc2][eac]") {
    const Format& rgb8 = kEtc2Formats[0];
    auto decode8 = [](const Format& f, EtcWord w) {
        std::vector<uint8_t> block, out(64);
        etc_append_word(block, w);
        texdec_reference::detail::decode_etc2_block(f.format, TEXDEC_OUTPUT_RGBA8, block.data(), out.data());
        return out;
    };
    SECTION("planar: origin (12 64 62) h (50 5 37) v (40 112 45)") {
        EtcWord v = etc_spec_planar_example();
        SplitMix64 rng(1);
        REQUIRE(force_mode(v, EtcMode::planar, false, 1, rng));
        const auto& expected = kEtcSpecPlanarTexels;
        const std::vector<uint8_t> out = decode8(rgb8, v);
        for (int i = 0; i < 16; ++i) {
            INFO("texel " << i);
            CHECK(std::vector<int>{out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3]} ==
                  std::vector<int>{expected[i][0], expected[i][1], expected[i][2], 255});
        }
    }
    SECTION("T and H: base colours (13 1 8) and (4 12 13) with distance index 5") {
        // T: paint colours (221, 17, 136), (100, 236, 253), (68, 204, 221), (36, 172, 189).
        // Pixel k = 4x + y gets index x (MSBs at 16 + k, LSBs at k).
        EtcWord t = etc_word({{59, 2, 13 >> 2},
                              {56, 2, 13 & 3},
                              {52, 4, 1},
                              {48, 4, 8},
                              {36, 12, 0x4CD},
                              {34, 2, 5 >> 1},
                              {32, 1, 5 & 1},
                              {0, 32, 0xFF00F0F0u}});
        SplitMix64 rng(2);
        REQUIRE(force_mode(t, EtcMode::t, false, 1, rng));
        const int t_paint[4][3] = {{221, 17, 136}, {100, 236, 253}, {68, 204, 221}, {36, 172, 189}};
        std::vector<uint8_t> out = decode8(rgb8, t);
        for (int y = 0; y < 4; ++y)
            for (int x = 0; x < 4; ++x)
                for (int c = 0; c < 3; ++c) CHECK(int(out[size_t(4 * (4 * y + x) + c)]) == t_paint[x][c]);
        // H: (253, 49, 168), (189, 0, 104), (100, 236, 253), (36, 172, 189); da = 1, db = 0, and
        // base colour 1 >= base colour 2 gives the LSB 1.
        EtcWord h = etc_word({{59, 4, 13},
                              {56, 3, 1 >> 1},
                              {52, 1, 1 & 1},
                              {51, 1, 8 >> 3},
                              {47, 3, 8 & 7},
                              {35, 12, 0x4CD},
                              {34, 1, 1},
                              {32, 1, 0},
                              {0, 32, 0xFF00F0F0u}});
        REQUIRE(force_mode(h, EtcMode::h, false, 1, rng));
        const int h_paint[4][3] = {{253, 49, 168}, {189, 0, 104}, {100, 236, 253}, {36, 172, 189}};
        out = decode8(rgb8, h);
        for (int y = 0; y < 4; ++y)
            for (int x = 0; x < 4; ++x)
                for (int c = 0; c < 3; ++c) CHECK(int(out[size_t(4 * (4 * y + x) + c)]) == h_paint[x][c]);
    }
    SECTION("EAC: base 103 table 13 index 3 gives 668 or 818 and signed 60 gives 320 or 470 and RGBA8 alpha 83 or 103") {
        auto native = [](texdec_format format, EtcWord w) {
            std::vector<uint8_t> block, out(32);
            etc_append_word(block, w);
            texdec_reference::detail::decode_eac_block(format, TEXDEC_OUTPUT_NATIVE, block.data(), out.data());
            return uint16_t(out[0] | (out[1] << 8));
        };
        auto all_index = [](uint8_t base, uint32_t multiplier, uint32_t table, uint32_t index) {
            EtcWord v = (EtcWord(base) << 56) | (EtcWord(multiplier) << 52) | (EtcWord(table) << 48);
            for (uint32_t k = 0; k < 16; ++k) v |= EtcWord(index) << (45 - 3 * k);
            return v;
        };
        // 16-bit forms: unsigned (x << 5) | (x >> 6); the spec's signed 470 -> 15054.
        CHECK(native(TEXDEC_FORMAT_EAC_R11_UNORM, all_index(103, 2, 13, 3)) == ((668 << 5) | (668 >> 6)));
        CHECK(native(TEXDEC_FORMAT_EAC_R11_UNORM, all_index(103, 0, 13, 3)) == ((818 << 5) | (818 >> 6)));
        CHECK(native(TEXDEC_FORMAT_EAC_R11_SNORM, all_index(60, 2, 13, 3)) == ((320 << 5) + (320 >> 5)));
        CHECK(native(TEXDEC_FORMAT_EAC_R11_SNORM, all_index(60, 0, 13, 3)) == 15054);
        CHECK(native(TEXDEC_FORMAT_EAC_R11_SNORM, all_index(0x80, 0, 13, 4)) == uint16_t(-((1016 << 5) + (1016 >> 5))));  // -128 as -127
        // "Format RGBA ETC2": 103 - 10 * 2 = 83; multiplier 0 multiplies by 0.
        for (uint32_t multiplier : {2u, 0u}) {
            std::vector<uint8_t> block, out(64);
            etc_append_word(block, all_index(103, multiplier, 13, 3));
            etc_append_word(block, 0);
            texdec_reference::detail::decode_etc2_block(TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM, TEXDEC_OUTPUT_RGBA8, block.data(), out.data());
            for (int i = 0; i < 16; ++i) CHECK(int(out[size_t(4 * i + 3)]) == (multiplier ? 83 : 103));
        }
    }
}

// EAC R11 / RG11 (unsigned, signed) against Mesa's desktop GL decode, tolerance 0
// (docs/EXACTNESS.md "ETC1, ETC2 ... EAC R11 / RG11"): Mesa is read back as GL_UNSIGNED_SHORT / GL_SHORT,
// which gives the 11-bit result x extended to 16 bits by bit replication (KDFS "Format Unsigned
// R11 EAC": (x << 5) + (x >> 6); "Format Signed R11 EAC": sign * ((|x| << 5) + (|x| >> 5))).
//   NATIVE (R16 / RG16 UNORM / SNORM) must equal those 16-bit values;
//   RGBA16F must be the half nearest to x / 2047 (unsigned) or x / 1023 (signed), (r, 0, 0, 1) /
//   (r, g, 0, 1), as bit patterns; RGBA8 (unsigned only) round(x * 255 / 2047) with ties up,
//   with x recovered from the oracle's 16-bit value (x = v >> 5 unsigned, sign * (|v| >> 5) signed).
//
//   random: random_block_count() blocks per format (1,049,600 unless TEXDEC_TEST_RANDOM_BLOCKS
//           says otherwise), in chunks of 1024 x 64 blocks; uniformly random bytes, one block in
//           eight with base / multiplier forced to an edge (0, 255 / -128, -127, 127, multiplier 0);
//   hand-built: every base codeword of interest x multiplier 0..15 x table 0..15, each block's 16
//           pixel indices covering 0..7 twice, so every (table, modifier, multiplier) is decoded;
//           the results must include the clamps (0 and 2047; -1023 and 1023) and signed base -128;
//   images: the record path into storage images (NATIVE R16 / R16G16 UNORM / SNORM, RGBA16F, RGBA8
//           for the unsigned formats): 37 x 23 texels at (3, 5) of layer 1, partial edge blocks,
//           a canary around the texels.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <unistd.h>
#include <cstring>
#include <sstream>

#include "gpu/external_setup.h"
#include "gpu/gpu_fixture.h"
#include "oracles/mesa_gl_oracle.h"
#include "support/compare.h"  // fill_canary
#include "support/job_builder.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

struct EacFormat {
    texdec_format format;
    const char* name;
    uint32_t channels;     // 1 or 2
    bool is_signed;
    uint32_t block_bytes() const { return 8 * channels; }
};

const EacFormat kFormats[] = {
    {TEXDEC_FORMAT_EAC_R11_UNORM, "eac-r11-unorm", 1, false},
    {TEXDEC_FORMAT_EAC_R11_SNORM, "eac-r11-snorm", 1, true},
    {TEXDEC_FORMAT_EAC_R11G11_UNORM, "eac-r11g11-unorm", 2, false},
    {TEXDEC_FORMAT_EAC_R11G11_SNORM, "eac-r11g11-snorm", 2, true},
};

const EacFormat& eac_format(texdec_format f) {
    for (const EacFormat& e : kFormats)
        if (e.format == f) return e;
    FAIL("not an EAC format");
    return kFormats[0];
}

// The oracle: w*h*channels 16-bit values (two's complement for the signed formats).
std::vector<uint16_t> oracle16(const EacFormat& f, uint32_t w, uint32_t h, const std::vector<uint8_t>& blocks) {
    const std::vector<uint8_t> bytes = mesa_gl_decode_etc(f.format, w, h, blocks.data(), blocks.size());
    REQUIRE(bytes.size() == size_t(w) * h * f.channels * 2);
    std::vector<uint16_t> out(bytes.size() / 2);
    std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
}

// The 11-bit value behind a bit-replicated 16-bit one (the replication keeps x in the top bits).
int eleven_bits(const EacFormat& f, uint16_t v) {
    if (!f.is_signed) return v >> 5;
    const int s = int16_t(v);
    return s < 0 ? -((-s) >> 5) : s >> 5;
}
uint16_t sixteen_bits(const EacFormat& f, int x) {
    if (!f.is_signed) return uint16_t((x << 5) | (x >> 6));
    const int m = x < 0 ? -x : x;
    const int e = (m << 5) | (m >> 5);
    return uint16_t(x < 0 ? -e : e);
}

// Half bits of num / den (0 <= num <= den), round to nearest, ties to even. Only normal results
// and zero occur here (num / den >= 1/2047 > 2^-14).
uint16_t half_from_ratio(uint64_t num, uint64_t den) {
    if (num == 0) return 0;
    int e = 0;
    while ((num << 20) < (den << (20 + e))) --e;  // num / den >= 2^e
    const uint64_t scaled = num << (10 - e);      // significand * den
    uint64_t q = scaled / den;
    const uint64_t r = scaled % den;
    if (2 * r > den || (2 * r == den && (q & 1))) ++q;
    if (q == 2048) q = 1024, ++e;
    return uint16_t((unsigned(e + 15) << 10) | unsigned(q - 1024));
}
uint16_t expected_half(const EacFormat& f, int x) {
    if (!f.is_signed) return half_from_ratio(uint64_t(x), 2047);
    const uint16_t h = half_from_ratio(uint64_t(x < 0 ? -x : x), 1023);
    return x < 0 ? uint16_t(h | 0x8000u) : h;
}
uint8_t expected_unorm8(int x) { return uint8_t((510 * x + 2047) / 4094); }  // round(x * 255 / 2047), ties up
constexpr uint16_t kHalfOne = 0x3C00;

struct Result {
    size_t mismatches = 0;
    std::string first;
    int min_value = 1 << 20, max_value = -(1 << 20);
};

std::vector<uint8_t> decode(OwnContext& ctx, const EacFormat& f, texdec_output output, uint32_t texel_bytes, uint32_t w,
                            uint32_t h, const std::vector<uint8_t>& blocks) {
    return ctx.decode_tight(f.format, output, blocks, w, h, texel_bytes, 0xEE);
}

// Decodes `blocks` (w x h texels) with texdec in every offered output and with Mesa, and counts
// the channels that differ.
void compare(OwnContext& ctx, const EacFormat& f, uint32_t w, uint32_t h, const std::vector<uint8_t>& blocks, Result& res) {
    const size_t texels = size_t(w) * h;
    const uint32_t ch = f.channels;
    const std::vector<uint16_t> ref = oracle16(f, w, h, blocks);
    REQUIRE(ref.size() == texels * ch);
    const std::vector<uint8_t> native = decode(ctx, f, TEXDEC_OUTPUT_NATIVE, 2 * ch, w, h, blocks);
    const std::vector<uint8_t> f16 = decode(ctx, f, TEXDEC_OUTPUT_RGBA16F, 8, w, h, blocks);
    std::vector<uint8_t> u8;
    if (!f.is_signed) u8 = decode(ctx, f, TEXDEC_OUTPUT_RGBA8, 4, w, h, blocks);
    auto report = [&](size_t i, uint32_t c, const char* what, long ours, long theirs) {
        if (res.mismatches++ == 0) {
            const size_t bx = (i % w) / 4, by = (i / w) / 4;
            const size_t block = by * (w / 4) + bx;
            std::ostringstream s;
            s << what << " texel (" << i % w << "," << i / w << ") channel " << c << ": texdec " << ours << " expected "
              << theirs << "; block " << hex_bytes(&blocks[block * f.block_bytes()], f.block_bytes());
            res.first = s.str();
        }
    };
    for (size_t i = 0; i < texels; ++i) {
        for (uint32_t c = 0; c < 4; ++c) {
            uint16_t half;
            std::memcpy(&half, &f16[8 * i + 2 * c], 2);
            if (c >= ch) {  // (r, 0, 0, 1) / (r, g, 0, 1)
                const uint16_t want = c == 3 ? kHalfOne : 0;
                if (half != want) report(i, c, "RGBA16F (missing channel)", half, want);
                if (!u8.empty() && u8[4 * i + c] != (c == 3 ? 255 : 0)) report(i, c, "RGBA8 (missing channel)", u8[4 * i + c], c == 3 ? 255 : 0);
                continue;
            }
            const uint16_t v = ref[ch * i + c];
            const int x = eleven_bits(f, v);
            if (sixteen_bits(f, x) != v) {  // the oracle itself must be a bit replication
                report(i, c, "Mesa (not bit-replicated)", v, sixteen_bits(f, x));
                continue;
            }
            res.min_value = std::min(res.min_value, x);
            res.max_value = std::max(res.max_value, x);
            uint16_t ours;
            std::memcpy(&ours, &native[2 * (ch * i + c)], 2);
            if (ours != v) report(i, c, "NATIVE", ours, v);
            if (half != expected_half(f, x)) report(i, c, "RGBA16F (bits)", half, expected_half(f, x));
            if (!u8.empty() && u8[4 * i + c] != expected_unorm8(x)) report(i, c, "RGBA8", u8[4 * i + c], expected_unorm8(x));
        }
    }
}

constexpr uint32_t kChunkBlocksX = 1024, kChunkRows = 64;  // 65,536 blocks per chunk

void random_test(texdec_format format) {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    const std::string unavailable = mesa_gl_etc_unavailable_reason();
    INFO("Mesa GL: " << unavailable << mesa_gl_description());
    REQUIRE(unavailable.empty());
    const EacFormat& f = eac_format(format);
    const uint64_t seed = test_seed();
    const size_t total = random_block_count();  // a multiple of 1024
    INFO(f.name << ", seed " << seed << " (TEXDEC_TEST_SEED changes it)");
    SplitMix64 rng(seed ^ 0xEAC0 ^ (uint64_t(format) << 32));
    Result res;
    const auto start = std::chrono::steady_clock::now();
    for (size_t done = 0; done < total;) {
        const uint32_t rows = uint32_t(std::min<size_t>(kChunkRows, (total - done) / kChunkBlocksX));
        const size_t count = size_t(rows) * kChunkBlocksX;
        std::vector<uint8_t> blocks(count * f.block_bytes());
        for (size_t i = 0; i < blocks.size(); i += 8) {
            const uint64_t v = rng.next();
            std::memcpy(&blocks[i], &v, 8);
            if (rng.next() % 8 == 0) {  // an edge base codeword and/or multiplier 0
                static const uint8_t kBases[] = {0x00, 0xFF, 0x80, 0x81, 0x7F, 0x01};
                const uint64_t pick = rng.next();
                if (pick & 1) blocks[i] = kBases[(pick >> 1) % 6];
                if (pick & 16) blocks[i + 1] &= 0x0F;  // multiplier 0
            }
        }
        compare(*ctx, f, kChunkBlocksX * 4, rows * 4, blocks, res);
        done += count;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    INFO(total << " blocks in " << seconds << " s; first mismatch: " << res.first);
    CHECK(res.mismatches == 0);
    ctx->close_and_check();
}

// One 8-byte channel block: base, multiplier, table, pixel k's index = (k + shift) % 8.
void put_block(uint8_t* out, uint8_t base, uint32_t multiplier, uint32_t table, uint32_t shift) {
    out[0] = base;
    out[1] = uint8_t((multiplier << 4) | table);
    uint64_t indices = 0;  // 48 bits, pixel a (k = 0) in bits 47..45
    for (uint32_t k = 0; k < 16; ++k) indices |= uint64_t((k + shift) % 8) << (45 - 3 * k);
    for (uint32_t b = 0; b < 6; ++b) out[2 + b] = uint8_t(indices >> (40 - 8 * b));
}

}  // namespace

TEST_CASE("eac: random blocks match Mesa GL (EAC_R11_UNORM)", "[eac][random][gpu]") { random_test(TEXDEC_FORMAT_EAC_R11_UNORM); }
TEST_CASE("eac: random blocks match Mesa GL (EAC_R11_SNORM)", "[eac][random][gpu]") { random_test(TEXDEC_FORMAT_EAC_R11_SNORM); }
TEST_CASE("eac: random blocks match Mesa GL (EAC_R11G11_UNORM)", "[eac][random][gpu]") { random_test(TEXDEC_FORMAT_EAC_R11G11_UNORM); }
TEST_CASE("eac: random blocks match Mesa GL (EAC_R11G11_SNORM)", "[eac][random][gpu]") { random_test(TEXDEC_FORMAT_EAC_R11G11_SNORM); }

TEST_CASE("eac: hand-built blocks (every table x multiplier incl. 0, edge bases, clamps) match Mesa GL", "[eac][gpu]") {
    auto ctx = OwnContext::open();
    if (!ctx) return;
    const std::string unavailable = mesa_gl_etc_unavailable_reason();
    INFO("Mesa GL: " << unavailable);
    REQUIRE(unavailable.empty());
    // Unsigned bytes; for the signed formats the same bytes are two's complement: 0x80 = -128
    // (acts as -127), 0x81 = -127, 0xFF = -1, 0x7F = 127.
    const uint8_t bases[] = {0x00, 0x01, 0x02, 0x10, 0x7F, 0x80, 0x81, 0xC0, 0xFD, 0xFE, 0xFF};
    std::vector<uint8_t> channel_blocks;  // 8 bytes each
    for (uint8_t base : bases)
        for (uint32_t multiplier = 0; multiplier < 16; ++multiplier)
            for (uint32_t table = 0; table < 16; ++table)
                for (uint32_t shift : {0u, 3u}) {
                    uint8_t b[8];
                    put_block(b, base, multiplier, table, shift);
                    channel_blocks.insert(channel_blocks.end(), b, b + 8);
                }
    const size_t count = channel_blocks.size() / 8;  // 11 * 16 * 16 * 2 = 5632 = 22 rows of 256
    REQUIRE(count % 256 == 0);
    for (const EacFormat& f : kFormats) {
        INFO(f.name);
        std::vector<uint8_t> blocks;
        for (size_t i = 0; i < count; ++i) {
            blocks.insert(blocks.end(), &channel_blocks[8 * i], &channel_blocks[8 * i + 8]);
            if (f.channels == 2) {  // green: another block of the list, so the two channels differ
                const size_t j = (i * 7 + 11) % count;
                blocks.insert(blocks.end(), &channel_blocks[8 * j], &channel_blocks[8 * j + 8]);
            }
        }
        Result res;
        compare(*ctx, f, 256 * 4, uint32_t(count / 256) * 4, blocks, res);
        INFO("first mismatch: " << res.first);
        CHECK(res.mismatches == 0);
        // The clamps were reached.
        CHECK(res.min_value == (f.is_signed ? -1023 : 0));
        CHECK(res.max_value == (f.is_signed ? 1023 : 2047));
    }

    // Values from the spec's worked examples and the -128 rule, checked directly.
    struct Case {
        texdec_format format;
        uint8_t base;
        uint32_t multiplier, table;
        uint32_t index;  // the same index in all 16 pixels
        int expected;    // 11-bit value
    };
    const Case cases[] = {
        {TEXDEC_FORMAT_EAC_R11_UNORM, 103, 2, 13, 3, 668},  // "Format Unsigned R11 EAC": 828 - 160
        {TEXDEC_FORMAT_EAC_R11_UNORM, 103, 0, 13, 3, 818},  // multiplier 0: 828 - 10
        {TEXDEC_FORMAT_EAC_R11_UNORM, 255, 1, 15, 7, 2047}, // 2044 + 64 clamps
        {TEXDEC_FORMAT_EAC_R11_UNORM, 0, 15, 0, 3, 0},      // 4 - 1800 clamps
        {TEXDEC_FORMAT_EAC_R11_SNORM, 60, 2, 13, 3, 320},   // "Format Signed R11 EAC": 480 - 160
        {TEXDEC_FORMAT_EAC_R11_SNORM, 60, 0, 13, 3, 470},   // multiplier 0: 480 - 10
        {TEXDEC_FORMAT_EAC_R11_SNORM, 0x80, 0, 13, 4, -1016},  // -128 acts as -127: -1016 + 0
        {TEXDEC_FORMAT_EAC_R11_SNORM, 0x80, 1, 13, 7, -944},   // -1016 + 72
        {TEXDEC_FORMAT_EAC_R11_SNORM, 0x80, 15, 0, 3, -1023},  // clamps
        {TEXDEC_FORMAT_EAC_R11_SNORM, 127, 15, 0, 7, 1023},    // 1016 + 1680 clamps
    };
    for (const Case& c : cases) {
        const EacFormat& f = eac_format(c.format);
        INFO(f.name << " base " << int(c.base) << " multiplier " << c.multiplier << " table " << c.table << " index " << c.index);
        std::vector<uint8_t> block(8);
        put_block(block.data(), c.base, c.multiplier, c.table, 0);
        for (uint32_t b = 2; b < 8; ++b) block[b] = 0;
        uint64_t indices = 0;
        for (uint32_t k = 0; k < 16; ++k) indices |= uint64_t(c.index) << (45 - 3 * k);
        for (uint32_t b = 0; b < 6; ++b) block[2 + b] = uint8_t(indices >> (40 - 8 * b));
        const std::vector<uint8_t> native = decode(*ctx, f, TEXDEC_OUTPUT_NATIVE, 2, 4, 4, block);
        const std::vector<uint16_t> ref = oracle16(f, 4, 4, block);
        for (uint32_t t = 0; t < 16; ++t) {
            uint16_t ours;
            std::memcpy(&ours, &native[2 * t], 2);
            CHECK(ours == sixteen_bits(f, c.expected));
            CHECK(ref[t] == sixteen_bits(f, c.expected));
        }
    }
    // The spec's 16-bit examples: 668 -> 21386 (unsigned), 470 -> 15054 (signed).
    CHECK(sixteen_bits(kFormats[0], 668) == 21386);
    CHECK(sixteen_bits(kFormats[1], 470) == 15054);
    ctx->close_and_check();
}

TEST_CASE("eac: outputs offered (NATIVE = R16/RG16 UNORM/SNORM, RGBA16F, RGBA8 unsigned only)", "[eac]") {
    for (const EacFormat& f : kFormats) {
        INFO(f.name);
        texdec_format_info info{};
        REQUIRE(texdec_format_get_info(f.format, &info) == TEXDEC_SUCCESS);
        CHECK((info.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED) != 0);
        VkFormat vk = VK_FORMAT_UNDEFINED;
        REQUIRE(texdec_output_vk_format(f.format, TEXDEC_OUTPUT_NATIVE, &vk) == TEXDEC_SUCCESS);
        const VkFormat want = f.channels == 2 ? (f.is_signed ? VK_FORMAT_R16G16_SNORM : VK_FORMAT_R16G16_UNORM)
                                              : (f.is_signed ? VK_FORMAT_R16_SNORM : VK_FORMAT_R16_UNORM);
        CHECK(vk == want);
        REQUIRE(texdec_output_vk_format(f.format, TEXDEC_OUTPUT_RGBA16F, &vk) == TEXDEC_SUCCESS);
        CHECK(vk == VK_FORMAT_R16G16B16A16_SFLOAT);
        const texdec_status rgba8 = texdec_output_vk_format(f.format, TEXDEC_OUTPUT_RGBA8, &vk);
        if (f.is_signed) CHECK(rgba8 == TEXDEC_ERROR_UNSUPPORTED_OUTPUT);
        else CHECK((rgba8 == TEXDEC_SUCCESS && vk == VK_FORMAT_R8G8B8A8_UNORM));
    }
}

TEST_CASE("eac: record path into R16/RG16 (UNORM, SNORM), RGBA16F and RGBA8 storage images matches Mesa GL",
          "[eac][external][gpu]") {
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    constexpr uint32_t kW = 37, kH = 23, kBx = (kW + 3) / 4, kBy = (kH + 3) / 4, kX0 = 3, kY0 = 5, kLayer = 1;
    constexpr uint32_t iw = kW + kX0 + 2, ih = kH + kY0 + 1, layers = 2;
    for (const EacFormat& f : kFormats) {
        INFO(f.name);
        SplitMix64 rng(test_seed() ^ 0xEAC1 ^ uint64_t(f.format));
        std::vector<uint8_t> blocks(size_t(kBx) * kBy * f.block_bytes());
        for (size_t i = 0; i < blocks.size(); i += 8) {
            const uint64_t v = rng.next();
            std::memcpy(&blocks[i], &v, 8);
            if (i % 64 == 0) blocks[i] = 0x80;  // signed -128 now and then
            if (i % 48 == 8) blocks[i + 1] &= 0x0F;  // multiplier 0
        }
        const std::vector<uint16_t> mesa = oracle16(f, kBx * 4, kBy * 4, blocks);
        StagedSource src = create_staged_source(dev, blocks);
        VkCommandBuffer cmd = dev.begin_commands();
        record_upload(cmd, src);
        std::vector<ImageTarget> targets;
        for (texdec_output output : {TEXDEC_OUTPUT_NATIVE, TEXDEC_OUTPUT_RGBA16F, TEXDEC_OUTPUT_RGBA8}) {
            if (output == TEXDEC_OUTPUT_RGBA8 && f.is_signed) continue;
            VkFormat format = VK_FORMAT_UNDEFINED;
            REQUIRE(texdec_output_vk_format(f.format, output, &format) == TEXDEC_SUCCESS);
            const uint32_t texel = output == TEXDEC_OUTPUT_NATIVE    ? 2 * f.channels
                                   : output == TEXDEC_OUTPUT_RGBA16F ? 8
                                                                     : 4;
            RecordJob job{.format = f.format,
                          .output = output,
                          .barriers = true,
                          .width = kW,
                          .height = kH,
                          .depth = 1,
                          .src_buffer = src.buffer.buffer,
                          .src_size = blocks.size()};
            targets.push_back(record_to_canary_image(setup, cmd, job, format, iw, ih, layers, texel, kX0, kY0, kLayer));
        }
        host_read_barrier(cmd);
        dev.submit_and_wait(cmd);
        check_no_validation_messages(dev.log(), "recording and running the EAC image decodes");
        for (ImageTarget& t : targets) {
            size_t mismatches = 0;
            std::string first;
            const size_t clobbered =
                visit_window(t.image, kX0, kY0, kLayer, kW, kH, [&](uint32_t x, uint32_t y, const uint8_t* texel) {
                    const size_t m = (size_t(y) * kBx * 4 + x) * f.channels;
                    const uint32_t channels = t.output == TEXDEC_OUTPUT_NATIVE ? f.channels : 4;
                    for (uint32_t c = 0; c < channels; ++c) {
                        const int value = c < f.channels ? eleven_bits(f, mesa[m + c]) : 0;
                        uint32_t got = 0, want = 0;
                        if (t.output == TEXDEC_OUTPUT_RGBA8) {
                            got = texel[c];
                            want = c < f.channels ? expected_unorm8(value) : c == 3 ? 255 : 0;
                        } else {
                            uint16_t g;
                            std::memcpy(&g, texel + 2 * c, 2);
                            got = g;
                            want = t.output == TEXDEC_OUTPUT_NATIVE ? mesa[m + c]
                                   : c < f.channels                 ? expected_half(f, value)
                                   : c == 3                         ? kHalfOne
                                                                    : 0;
                        }
                        if (got != want && mismatches++ == 0) {
                            std::ostringstream o;
                            o << "texel (" << x << "," << y << ") channel " << c << ": texdec " << got << " expected "
                              << want;
                            first = o.str();
                        }
                    }
                });
            INFO(output_name(t.output) << " image: " << mismatches << " mismatches, first: " << first << "; " << clobbered
                                       << " canary texels changed");
            CHECK(mismatches == 0);
            CHECK(clobbered == 0);
            destroy(dev, t.image);
        }
        destroy(dev, src);
    }
    setup.close();
}

namespace {

// Sets an environment variable for one scope.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const std::string& value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old, had_ = true;
        setenv(name, value.c_str(), 1);
    }
    ~ScopedEnv() {
        if (had_) setenv(name_, old_.c_str(), 1);
        else unsetenv(name_);
    }

private:
    const char* name_;
    std::string old_;
    bool had_ = false;
};

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

// The replay of recorded Mesa answers (oracles/recorded_digests.h), which the H100 run relies on:
// it must give back Mesa's bytes when texdec agrees with them and refuse a digest that differs or
// an input that was not recorded.
TEST_CASE("Mesa replay: a recorded answer is accepted only when texdec's decode has its digest", "[eac][etc][gpu]") {
    if (mesa_gl_etc_replaying()) {
        WARN("TEXDEC_MESA_ETC_REPLAY is set: this test needs live Mesa to record; it checks nothing here");
        SUCCEED();
        return;
    }
    const std::string unavailable = mesa_gl_etc_unavailable_reason();
    INFO("Mesa GL: " << unavailable);
    REQUIRE(unavailable.empty());
    const std::string dir = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp");
    const std::string good = dir + "/texdec_replay_good_" + std::to_string(getpid());
    const std::string bad = dir + "/texdec_replay_bad_" + std::to_string(getpid());
    std::remove(good.c_str());
    SplitMix64 rng(test_seed() ^ 0x5E9A);
    std::vector<uint8_t> blocks(16 * 16 * 16);  // 16 x 16 RG11 blocks
    for (size_t i = 0; i < blocks.size(); i += 8) {
        const uint64_t v = rng.next();
        std::memcpy(&blocks[i], &v, 8);
    }
    const texdec_format format = TEXDEC_FORMAT_EAC_R11G11_SNORM;
    std::vector<uint8_t> live;
    {
        ScopedEnv record("TEXDEC_MESA_ETC_RECORD", good);
        live = mesa_gl_decode_etc(format, 64, 64, blocks.data(), blocks.size());
    }
    const std::string line = read_text(good);
    REQUIRE(line.size() == 16 + 1 + 16 + 1 + 16 + 1);
    std::string changed = line;
    changed[20] = changed[20] == '0' ? '1' : '0';  // one hex digit of the first digest
    std::ofstream(bad) << changed;
    {
        ScopedEnv replay("TEXDEC_MESA_ETC_REPLAY", good);
        CHECK(mesa_gl_etc_unavailable_reason().empty());
        CHECK(mesa_gl_decode_etc(format, 64, 64, blocks.data(), blocks.size()) == live);
        std::vector<uint8_t> other = blocks;
        other[5] ^= 1;  // not recorded
        CHECK_THROWS_WITH(mesa_gl_decode_etc(format, 64, 64, other.data(), other.size()),
                          Catch::Contains("no recorded answer"));
        CHECK_THROWS_WITH(mesa_gl_decode_etc(format, 32, 128, blocks.data(), blocks.size()),
                          Catch::Contains("no recorded answer"));  // the extent is part of the key
    }
    {
        ScopedEnv replay("TEXDEC_MESA_ETC_REPLAY", bad);
        CHECK_THROWS_WITH(mesa_gl_decode_etc(format, 64, 64, blocks.data(), blocks.size()),
                          Catch::Contains("differs from Mesa's recorded answer"));
    }
    std::remove(good.c_str());
    std::remove(bad.c_str());
}

// astc-gpu-decode, run as a program: raw mode for every BC1-BC5 format, output type and rounding
// mode on random blocks with an extent that is not a block multiple, compared with the oracles
// (tolerance 0); the bundled sample .dds to PNG compared with the EXACT model; exit codes for
// malformed input. ASTC: .astc files made by the astcenc CLI (several footprints, -cl and -cs) to
// PNG and raw, a 2D footprint with several slices, the bundled sample .astc, raw mode for every 2D
// ASTC format (encoded, mutated, random and void-extent blocks), all against libastcenc
// (astcenc_decode_unorm8); malformed .astc files; the .astc parser itself on every truncation
// and header mutation. The CLI uses its own device (validation is checked by the other tests).
#include <catch2/catch.hpp>

#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/wait.h>
#include <vector>

#include "astc_file.h"  // src/cli: the parser is also tested directly
#include "gpu/gpu_fixture.h"
#include "oracles/astcenc_oracle.h"
#include "oracles/exact_model.h"
#include "oracles/reference.h"
#include "support/astcenc_cli.h"
#include "support/bc_formats.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

// TEXDEC_CLI / TEXDEC_SAMPLE override the build-time paths (for running the binary elsewhere).
std::string env_or(const char* name, const char* fallback) {
    const char* v = std::getenv(name);
    return v && *v ? v : fallback;
}
const std::string kCli = env_or("TEXDEC_CLI", TEXDEC_CLI_PATH);
const std::string kSample = env_or("TEXDEC_SAMPLE", TEXDEC_SOURCE_DIR "/samples/sample-bc3.dds");
const std::string kAstcSample = env_or("TEXDEC_ASTC_SAMPLE", TEXDEC_SOURCE_DIR "/samples/sample-astc-6x6.astc");

std::string temp_dir() {
    static const std::string dir = [] {
        char pattern[] = "/tmp/texdec_cli_test_XXXXXX";
        const char* made = mkdtemp(pattern);
        REQUIRE(made != nullptr);
        return std::string(made);
    }();
    return dir;
}

// Runs a shell command; returns its exit code.
int run(const std::string& command) {
    const int status = std::system((command + " 2>" + temp_dir() + "/stderr.txt").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string last_stderr() {
    std::ifstream in(temp_dir() + "/stderr.txt");
    return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<uint8_t> read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void write_file(const std::string& path, const uint8_t* data, size_t size) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
}

// A GPU test through the CLI: fails without a device unless TEXDEC_ALLOW_NO_DEVICE=1.
bool cli_has_device() {
    if (run(kCli + " list-devices >/dev/null") == 0 && last_stderr().empty()) return true;
    fail_or_skip_for_missing_device("astc-gpu-decode list-devices failed: " + last_stderr());
    return false;
}

}  // namespace

TEST_CASE("CLI raw mode: every BC1-BC5 format, output and rounding matches the oracles", "[cli][gpu]") {
    if (!cli_has_device()) return;
    constexpr uint32_t kWidth = 253, kHeight = 61;  // 64 x 16 blocks, partial last column and row
    constexpr uint32_t kBlocksX = 64, kBlocksY = 16;
    for (const BcFormat& f : bc_formats()) {
        const std::vector<uint8_t> blocks = random_blocks(f, kBlocksX * kBlocksY, test_seed() + 7);
        const std::string in = temp_dir() + "/" + f.name + ".bin";
        write_file(in, blocks.data(), blocks.size());
        for (texdec_bc_rounding rounding : kBothRoundings)
            for (texdec_output output : kAllOutputs) {
                INFO(f.name << " " << rounding_name(rounding) << " " << output_name(output));
                const std::string out = temp_dir() + "/out.raw";
                std::remove(out.c_str());
                const std::string command = kCli + " decode --format " + f.name + " --extent 253x61 --output " +
                                            (output == TEXDEC_OUTPUT_RGBA8 ? "rgba8" : output == TEXDEC_OUTPUT_RGBA16F ? "rgba16f" : "native") +
                                            " --bc-rounding " + (rounding == TEXDEC_BC_ROUNDING_EXACT ? "exact" : "ideal") +
                                            " " + in + " " + out;
                const int code = run(command);
                if (output == TEXDEC_OUTPUT_RGBA8 && f.is_signed) {  // refused, as a usage error
                    CHECK(code == 2);
                    continue;
                }
                INFO(command << "\n" << last_stderr());
                REQUIRE(code == 0);
                const uint32_t texel = output_texel_bytes(f, output);
                const std::vector<uint8_t> texels = read_file(out);
                REQUIRE(texels.size() == size_t(kWidth) * kHeight * texel);
                const Oracle oracle = primary_oracle(f, rounding);
                size_t mismatches = 0;
                std::string first;
                for (uint32_t b = 0; b < kBlocksX * kBlocksY; ++b) {
                    ReferenceBlock ref;
                    reference_decode(f, rounding, oracle, &blocks[size_t(b) * f.block_bytes], &ref);
                    const uint32_t mask = output_byte_mask(f, output, ref.channel_mask);
                    for (uint32_t t = 0; t < 16; ++t) {
                        const uint32_t x = (b % kBlocksX) * 4 + t % 4, y = (b / kBlocksX) * 4 + t / 4;
                        if (x >= kWidth || y >= kHeight) continue;
                        uint8_t want[8];
                        pack_reference_texel(f, output, ref.texel[t], want);
                        const uint8_t* got = &texels[(size_t(y) * kWidth + x) * texel];
                        for (uint32_t i = 0; i < texel; ++i)
                            if ((mask >> i & 1) && want[i] != got[i]) {
                                if (mismatches++ == 0)
                                    first = "texel (" + std::to_string(x) + "," + std::to_string(y) + "): expected " +
                                            hex_bytes(want, texel) + " got " + hex_bytes(got, texel);
                                break;
                            }
                    }
                }
                INFO("oracle " << oracle_name(oracle) << "; first mismatch: " << first);
                CHECK(mismatches == 0);
            }
    }
}

TEST_CASE("CLI: the bundled sample .dds decodes to a PNG equal to the EXACT model", "[cli][gpu]") {
    if (!cli_has_device()) return;
    const std::string png = temp_dir() + "/sample.png";
    REQUIRE(run(kCli + " decode " + kSample + " " + png) == 0);
    CHECK(last_stderr().find("device: ") != std::string::npos);  // the device used is printed
    int w = 0, h = 0, n = 0;
    stbi_uc* pixels = stbi_load(png.c_str(), &w, &h, &n, 4);
    REQUIRE(pixels != nullptr);
    REQUIRE((w == 256 && h == 256));
    // A legacy DDS header (DXT5 = bc3-unorm) is 128 bytes; the level-0 blocks follow.
    const std::vector<uint8_t> dds = read_file(kSample);
    REQUIRE(dds.size() >= 128 + 64 * 64 * 16);
    const BcFormat& f = bc_format(TEXDEC_FORMAT_BC3_UNORM);
    size_t mismatches = 0;
    for (uint32_t b = 0; b < 64 * 64; ++b) {
        ReferenceBlock ref;
        reference_decode(f, TEXDEC_BC_ROUNDING_EXACT, Oracle::ExactModel, &dds[128 + size_t(b) * 16], &ref);
        for (uint32_t t = 0; t < 16; ++t) {
            const uint32_t x = (b % 64) * 4 + t % 4, y = (b / 64) * 4 + t / 4;
            for (int c = 0; c < 4; ++c)
                if (pixels[(size_t(y) * 256 + x) * 4 + c] != ref.texel[t].v8[c]) ++mismatches;
        }
    }
    stbi_image_free(pixels);
    CHECK(mismatches == 0);
}

TEST_CASE("CLI: malformed input gets exit code 3 and a message, bad usage 2", "[cli]") {
    const std::vector<uint8_t> dds = read_file(kSample);
    REQUIRE(dds.size() > 200);
    const std::string truncated = temp_dir() + "/truncated.dds";
    write_file(truncated, dds.data(), 200);
    CHECK(run(kCli + " decode " + truncated + " " + temp_dir() + "/t.png") == 3);
    CHECK(last_stderr().find("truncated") != std::string::npos);
    CHECK(run(kCli + " decode --format bc9-unorm --extent 4x4 " + truncated + " " + temp_dir() + "/t.raw") == 2);
    CHECK(run(kCli + " decode --format bc1-rgb-unorm --extent 0x4 " + truncated + " " + temp_dir() + "/t.raw") != 0);
    CHECK(run(kCli + " frobnicate") == 2);
}

// ---- ASTC ------------------------------------------------------------------------------------

namespace {

const char* profile_flag(AstcProfile p) { return p == AstcProfile::ldr ? "ldr" : "srgb"; }
std::string fp_text(AstcFootprint fp) { return std::to_string(fp.x) + "x" + std::to_string(fp.y); }
std::string astc_format_name(AstcFootprint fp, AstcProfile p) {
    return "astc-" + fp_text(fp) + (p == AstcProfile::ldr ? "-unorm" : "-srgb");
}

void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) { write_file(path, bytes.data(), bytes.size()); }

// The astcenc CLI must be there: FAIL (or a loud SKIP with TEXDEC_ALLOW_NO_DEVICE=1) otherwise.
bool astcenc_cli_ready() {
    const std::string why = astcenc_cli_unavailable_reason();
    if (why.empty()) return true;
    fail_or_skip_for_missing_device(why);
    return false;
}

// `astcenc -cl|-cs IN OUT WxH -fast`, then the file read back (the .astc exactly as the encoder wrote it).
AstcFileContents encode_with_astcenc(AstcProfile profile, const std::string& in, const std::string& out,
                                     AstcFootprint fp) {
    REQUIRE(astcenc_cli_encode(profile, in, out, fp, "-fast") == "");
    AstcFileContents file = read_astc_file(out);
    REQUIRE(file.error == "");
    REQUIRE((file.fp.x == fp.x && file.fp.y == fp.y && file.fp.z == 1 && file.d == 1));
    return file;
}

// Compares RGBA8 texels (w x h x d, x fastest) with the oracle's; returns the number of differing
// texels and describes the first (texel, block index and block bits) in `first`.
size_t compare_astc_rgba8(const uint8_t* got, const std::vector<uint8_t>& want, AstcFootprint fp, unsigned w, unsigned h,
                          unsigned d, const std::vector<uint8_t>& blocks, std::string& first) {
    size_t mismatches = 0;
    const unsigned bw = (w + fp.x - 1) / fp.x, bh = (h + fp.y - 1) / fp.y;
    for (unsigned z = 0; z < d; ++z)
        for (unsigned y = 0; y < h; ++y)
            for (unsigned x = 0; x < w; ++x) {
                const size_t t = ((size_t(z) * h + y) * w + x) * 4;
                if (std::equal(want.begin() + t, want.begin() + t + 4, got + t)) continue;
                if (mismatches++ == 0) {
                    const size_t b = (size_t(z / fp.z) * bh + y / fp.y) * bw + x / fp.x;
                    first = "texel (" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) +
                            "): expected " + hex_bytes(&want[t], 4) + " got " + hex_bytes(got + t, 4) + "; block " +
                            std::to_string(b) + " = " + hex_bytes(&blocks[b * 16], 16);
                }
            }
    return mismatches;
}

// Reads a PNG written by the CLI as RGBA8; REQUIREs its size.
std::vector<uint8_t> load_png_rgba8(const std::string& path, unsigned w, unsigned h) {
    int pw = 0, ph = 0, n = 0;
    stbi_uc* pixels = stbi_load(path.c_str(), &pw, &ph, &n, 4);
    REQUIRE(pixels != nullptr);
    std::vector<uint8_t> out(pixels, pixels + size_t(pw) * ph * 4);
    stbi_image_free(pixels);
    INFO(path << " is " << pw << "x" << ph);
    REQUIRE((unsigned(pw) == w && unsigned(ph) == h));
    return out;
}

bool is_implemented(texdec_format format) {
    texdec_format_info info{};
    return texdec_format_get_info(format, &info) == TEXDEC_SUCCESS && (info.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED);
}

}  // namespace

TEST_CASE("CLI: .astc files from the astcenc CLI decode to PNGs equal to libastcenc", "[cli][gpu][astc]") {
    if (!cli_has_device() || !astcenc_cli_ready()) return;
    constexpr unsigned kW = 37, kH = 29;  // a partial last block column and row for every footprint but 4x4's row
    const std::string tga = temp_dir() + "/astc_in.tga";
    write_procedural_tga(tga, kW, kH);
    const AstcFootprint footprints[] = {{4, 4}, {5, 4}, {6, 6}, {8, 5}, {10, 8}, {12, 12}};
    for (AstcProfile profile : {AstcProfile::ldr, AstcProfile::ldr_srgb})
        for (AstcFootprint fp : footprints) {
            const std::string name = astc_format_name(fp, profile);
            INFO(name);
            const std::string astc = temp_dir() + "/" + name + ".astc", png = temp_dir() + "/" + name + ".png";
            const AstcFileContents file = encode_with_astcenc(profile, tga, astc, fp);
            REQUIRE((file.w == kW && file.h == kH));
            std::remove(png.c_str());
            const std::string command = kCli + " decode --profile " + profile_flag(profile) + " " + astc + " " + png;
            const int code = run(command);
            INFO(command << "\n" << last_stderr());
            REQUIRE(code == 0);
            CHECK(last_stderr().find("decoded " + name + " ") != std::string::npos);  // the format the profile picked
            const std::vector<uint8_t> got = load_png_rgba8(png, kW, kH);
            const std::vector<uint8_t> want =
                astcenc_decode_unorm8(profile, fp, kW, kH, 1, file.blocks.data(), file.blocks.size());
            std::string first;
            const size_t mismatches = compare_astc_rgba8(got.data(), want, fp, kW, kH, 1, file.blocks, first);
            INFO("first mismatch: " << first);
            CHECK(mismatches == 0);
        }
}

TEST_CASE("CLI: .astc to raw rgba16f equals libastcenc (decode_float16, for sRGB byte / 255)", "[cli][gpu][astc]") {
    if (!cli_has_device() || !astcenc_cli_ready()) return;
    constexpr unsigned kW = 37, kH = 29;
    const std::string tga = temp_dir() + "/astc16_in.tga";
    write_procedural_tga(tga, kW, kH);
    const AstcFootprint fp{6, 5};
    for (AstcProfile profile : {AstcProfile::ldr, AstcProfile::ldr_srgb}) {
        const std::string name = astc_format_name(fp, profile);
        INFO(name);
        const std::string astc = temp_dir() + "/" + name + "_16.astc", raw = temp_dir() + "/" + name + "_16.raw";
        const AstcFileContents file = encode_with_astcenc(profile, tga, astc, fp);
        std::remove(raw.c_str());
        const std::string command =
            kCli + " decode --output rgba16f --profile " + profile_flag(profile) + " " + astc + " " + raw;
        const int code = run(command);
        INFO(command << "\n" << last_stderr());
        REQUIRE(code == 0);
        const std::vector<uint8_t> got = read_file(raw);
        REQUIRE(got.size() == size_t(kW) * kH * 8);
        std::vector<uint16_t> want;
        if (profile == AstcProfile::ldr) {
            want = astcenc_decode_f16(profile, fp, kW, kH, 1, file.blocks.data(), file.blocks.size());
        } else {  // ORACLES.md: RGBA16F of an sRGB format is the encoded byte v as v / 255
            for (uint8_t v : astcenc_decode_unorm8(profile, fp, kW, kH, 1, file.blocks.data(), file.blocks.size()))
                want.push_back(exact::to_fp16({v, 255}));
        }
        size_t mismatches = 0;
        std::string first;
        for (size_t i = 0; i < want.size(); ++i) {
            const uint16_t g = uint16_t(got[2 * i] | got[2 * i + 1] << 8);
            if (g != want[i] && mismatches++ == 0)
                first = "texel (" + std::to_string(i / 4 % kW) + "," + std::to_string(i / 4 / kW) + ") channel " +
                        std::to_string(i % 4) + ": expected " + std::to_string(want[i]) + " got " + std::to_string(g);
        }
        INFO("first mismatch: " << first);
        CHECK(mismatches == 0);
    }
}

TEST_CASE("CLI: a .astc file with a 2D footprint and 3 slices: raw holds every slice, the PNG stacks them",
          "[cli][gpu][astc]") {
    if (!cli_has_device() || !astcenc_cli_ready()) return;
    constexpr unsigned kW = 23, kH = 15, kD = 3;
    const AstcFootprint fp{5, 5};
    // A 23x45 image encoded at 5x5 is 3 block rows per 15 texel rows: its blocks are, unchanged,
    // those of three different 23x15 slices, slice after slice. The file says 23x15x3 and ends
    // with 5 stray bytes (ignored, with a warning).
    const std::string tga = temp_dir() + "/slices.tga", tall = temp_dir() + "/slices_2d.astc";
    write_procedural_tga(tga, kW, kH * kD);
    const AstcFileContents encoded = encode_with_astcenc(AstcProfile::ldr_srgb, tga, tall, fp);
    const std::vector<uint8_t>& blocks = encoded.blocks;
    std::vector<uint8_t> bytes = astc_file_header(fp, kW, kH, kD);
    bytes.insert(bytes.end(), blocks.begin(), blocks.end());
    for (uint8_t stray : {1, 2, 3, 4, 5}) bytes.push_back(stray);
    const std::string astc = temp_dir() + "/slices.astc", raw = temp_dir() + "/slices.raw", png = temp_dir() + "/slices.png";
    write_bytes(astc, bytes);
    std::vector<uint8_t> want;  // each slice decoded by the oracle on its own
    const size_t slice_bytes = astc_encoded_size(fp, kW, kH, 1);
    for (unsigned z = 0; z < kD; ++z) {
        const std::vector<uint8_t> s = astcenc_decode_unorm8(AstcProfile::ldr_srgb, fp, kW, kH, 1,
                                                             &blocks[z * slice_bytes], slice_bytes);
        want.insert(want.end(), s.begin(), s.end());
    }

    std::remove(raw.c_str());
    int code = run(kCli + " decode --profile srgb " + astc + " " + raw);
    INFO(last_stderr());
    REQUIRE(code == 0);
    CHECK(last_stderr().find("5 bytes after its last block") != std::string::npos);
    const std::vector<uint8_t> got_raw = read_file(raw);
    REQUIRE(got_raw.size() == size_t(kW) * kH * kD * 4);
    std::string first;
    const size_t raw_mismatches = compare_astc_rgba8(got_raw.data(), want, fp, kW, kH, kD, blocks, first);
    {
        INFO("raw, first mismatch: " << first);
        CHECK(raw_mismatches == 0);
    }

    std::remove(png.c_str());
    code = run(kCli + " decode --profile srgb " + astc + " " + png);
    INFO(last_stderr());
    REQUIRE(code == 0);
    CHECK(last_stderr().find("3 slices stacked top to bottom") != std::string::npos);
    const std::vector<uint8_t> got_png = load_png_rgba8(png, kW, kH * kD);
    const size_t png_mismatches = compare_astc_rgba8(got_png.data(), want, fp, kW, kH, kD, blocks, first);
    INFO("png, first mismatch: " << first);
    CHECK(png_mismatches == 0);
}

TEST_CASE("CLI: the bundled sample .astc decodes to PNGs equal to libastcenc (srgb, and ldr by default)",
          "[cli][gpu][astc]") {
    if (!cli_has_device()) return;
    const AstcFootprint fp{6, 6};
    const AstcFileContents file = read_astc_file(kAstcSample);
    REQUIRE(file.error == "");
    REQUIRE((file.fp.x == 6 && file.fp.y == 6 && file.fp.z == 1 && file.w == 100 && file.h == 100 && file.d == 1));
    for (AstcProfile profile : {AstcProfile::ldr_srgb, AstcProfile::ldr}) {
        const std::string png = temp_dir() + "/sample_astc.png";
        std::remove(png.c_str());
        // No --profile at all for ldr: it is the default.
        const std::string command = kCli + " decode " + (profile == AstcProfile::ldr ? "" : "--profile srgb ") +
                                    kAstcSample + " " + png;
        const int code = run(command);
        INFO(command << "\n" << last_stderr());
        REQUIRE(code == 0);
        CHECK(last_stderr().find(std::string("decoded ") + astc_format_name(fp, profile) + " 100x100x1") !=
              std::string::npos);
        const std::vector<uint8_t> got = load_png_rgba8(png, 100, 100);
        const std::vector<uint8_t> want =
            astcenc_decode_unorm8(profile, fp, 100, 100, 1, file.blocks.data(), file.blocks.size());
        std::string first;
        const size_t mismatches = compare_astc_rgba8(got.data(), want, fp, 100, 100, 1, file.blocks, first);
        INFO("first mismatch: " << first);
        CHECK(mismatches == 0);
    }
}

TEST_CASE("CLI raw mode: every 2D ASTC format (unorm, srgb) matches libastcenc on encoded, mutated, random and "
          "void-extent blocks",
          "[cli][gpu][astc]") {
    if (!cli_has_device() || !astcenc_cli_ready()) return;
    constexpr unsigned kBlocksX = 8, kBlocksY = 4;  // 32 blocks: 10 encoded, 10 mutated, 8 random, 4 void extents
    const std::string tga = temp_dir() + "/raw_in.tga";
    write_procedural_tga(tga, 64, 48, 99);
    SplitMix64 rng(test_seed() + 33);
    for (AstcFootprint fp : astc_2d_footprints()) {
        INFO(fp_text(fp));
        const AstcFileContents encoded =
            encode_with_astcenc(AstcProfile::ldr, tga, temp_dir() + "/raw_" + fp_text(fp) + ".astc", fp);
        const size_t encoded_blocks = encoded.blocks.size() / 16;
        std::vector<uint8_t> blocks(size_t(kBlocksX) * kBlocksY * 16);
        for (unsigned b = 0; b < kBlocksX * kBlocksY; ++b) {
            uint8_t* block = &blocks[size_t(b) * 16];
            const uint8_t* source = &encoded.blocks[(rng.next() % encoded_blocks) * 16];
            if (b < 10) {  // as encoded
                std::copy(source, source + 16, block);
            } else if (b < 20) {  // block mode and partition count (bits 0-12) kept, random bits above
                for (int i = 0; i < 16; ++i) block[i] = uint8_t(rng.next());
                block[0] = source[0];
                block[1] = uint8_t((source[1] & 0x1F) | (block[1] & 0xE0));
            } else if (b < 28) {  // uniformly random (mostly error blocks)
                for (int i = 0; i < 16; ++i) block[i] = uint8_t(rng.next());
            } else {  // LDR void extent, reserved bits 11b, no extent coordinates, random colour
                const uint8_t head[8] = {0xFC, 0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
                std::copy(head, head + 8, block);
                for (int i = 8; i < 16; ++i) block[i] = uint8_t(rng.next());
            }
        }
        // Not a block multiple where the footprint allows (the last column and row are partial).
        const unsigned w = kBlocksX * fp.x - (fp.x > 4 ? 3 : 1), h = kBlocksY * fp.y - 2;
        const std::string in = temp_dir() + "/raw_" + fp_text(fp) + ".bin";
        write_bytes(in, blocks);
        for (AstcProfile profile : {AstcProfile::ldr, AstcProfile::ldr_srgb}) {
            const std::string name = astc_format_name(fp, profile);
            const std::string out = temp_dir() + "/raw_out.raw";
            std::remove(out.c_str());
            const std::string command = kCli + " decode --format " + name + " --extent " + std::to_string(w) + "x" +
                                        std::to_string(h) + " --output rgba8 " + in + " " + out;
            const int code = run(command);
            INFO(command << "\n" << last_stderr());
            REQUIRE(code == 0);
            const std::vector<uint8_t> got = read_file(out);
            REQUIRE(got.size() == size_t(w) * h * 4);
            const std::vector<uint8_t> want = astcenc_decode_unorm8(profile, fp, w, h, 1, blocks.data(), blocks.size());
            std::string first;
            const size_t mismatches = compare_astc_rgba8(got.data(), want, fp, w, h, 1, blocks, first);
            INFO("first mismatch: " << first);
            CHECK(mismatches == 0);
        }
    }
}

TEST_CASE("CLI: malformed .astc files get exit code 3 and a message naming the problem", "[cli][astc]") {
    const AstcFootprint fp{8, 8};
    std::vector<uint8_t> good = astc_file_header(fp, 17, 17, 1);  // 3 x 3 blocks
    good.resize(16 + 9 * 16, 0x55);
    struct Case {
        const char* name;
        std::vector<uint8_t> bytes;
        const char* message;
    };
    auto with = [&](std::initializer_list<std::pair<size_t, uint8_t>> edits, size_t size = 0) {
        std::vector<uint8_t> b = good;
        for (auto [at, value] : edits) b.at(at) = value;
        if (size) b.resize(size);
        return b;
    };
    const Case cases[] = {
        {"empty", {}, "is empty"},
        {"bad magic", with({{3, 0x5D}}), "nor an .astc file"},
        {"short header", with({}, 10), "shorter than the 16-byte .astc header"},
        {"unknown footprint 7x7", with({{4, 7}, {5, 7}}), "unknown ASTC footprint 7x7x1"},
        {"2D footprint with block_z 2", with({{6, 2}}), "unknown ASTC footprint 8x8x2"},
        {"3D footprint 7x7x7", with({{4, 7}, {5, 7}, {6, 7}}), "unknown ASTC footprint 7x7x7"},
        {"zero width", with({{7, 0}}), "zero dimension"},
        {"zero depth", with({{13, 0}}), "zero dimension"},
        {"truncated by one byte", with({}, good.size() - 1), "truncated"},
        {"truncated header only", with({}, 16), "truncated"},
        {"size overflow", with({{4, 4}, {5, 4}, {7, 0xFF}, {8, 0xFF}, {9, 0xFF}, {10, 0xFF}, {11, 0xFF}, {12, 0xFF},
                                {13, 0xFF}, {14, 0xFF}, {15, 0xFF}}),
         "more block data than 64 bits can count"},
    };
    for (const Case& c : cases) {
        INFO(c.name);
        const std::string in = temp_dir() + "/bad.astc";
        write_bytes(in, c.bytes);
        const int code = run(kCli + " decode --profile srgb " + in + " " + temp_dir() + "/bad.png");
        INFO(last_stderr());
        CHECK(code == 3);
        CHECK(last_stderr().find(c.message) != std::string::npos);
    }
    // Usage errors around --profile and the container.
    const std::string astc = temp_dir() + "/good.astc";
    write_bytes(astc, good);
    CHECK(run(kCli + " decode --profile srgb " + kSample + " " + temp_dir() + "/t.png") == 2);  // a DDS file
    CHECK(last_stderr().find("--profile applies to .astc files only") != std::string::npos);
    CHECK(run(kCli + " decode --profile linear " + astc + " " + temp_dir() + "/t.png") == 2);
    CHECK(last_stderr().find("unknown --profile 'linear'") != std::string::npos);
    CHECK(run(kCli + " decode --profile srgb --format astc-8x8-srgb --extent 17x17 " + astc + " " + temp_dir() +
              "/t.raw") == 2);
    CHECK(run(kCli + " decode --extent 17x17 " + astc + " " + temp_dir() + "/t.png") == 2);
    CHECK(run(kCli + " list-devices --profile srgb") == 2);
    // The container is chosen by magic bytes: a .astc file named .dds is still read as .astc.
    const std::string misnamed = temp_dir() + "/really_astc.dds";
    write_bytes(misnamed, with({}, 16 + 8 * 16));  // truncated: the .astc parser must be the one that says so
    CHECK(run(kCli + " decode " + misnamed + " " + temp_dir() + "/t.png") == 3);
    CHECK(last_stderr().find("the header describes 17x17x1 texels in 8x8x1 blocks") != std::string::npos);
}

TEST_CASE("CLI: .astc formats the library does not implement are refused clearly (3D footprints, --profile hdr)",
          "[cli][gpu][astc]") {
    if (!cli_has_device()) return;
    struct Case {
        AstcFootprint fp;
        const char* profile;
        texdec_format format;
        const char* name;
    };
    const Case cases[] = {
        {{3, 3, 3}, "ldr", TEXDEC_FORMAT_ASTC_3x3x3_UNORM, "astc-3x3x3-unorm"},
        {{6, 6, 6}, "srgb", TEXDEC_FORMAT_ASTC_6x6x6_SRGB, "astc-6x6x6-srgb"},
        {{6, 6, 1}, "hdr", TEXDEC_FORMAT_ASTC_6x6_SFLOAT, "astc-6x6-sfloat"},
    };
    for (const Case& c : cases) {
        INFO(c.name);
        // 7x7x7 texels of void-extent blocks (opaque grey).
        std::vector<uint8_t> bytes = astc_file_header(c.fp, 7, 7, 7);
        const size_t n = astc_encoded_size(c.fp, 7, 7, 7) / 16;
        for (size_t b = 0; b < n; ++b)
            for (uint8_t v : {0xFC, 0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0x80, 0, 0x80, 0, 0x80, 0xFF, 0xFF})
                bytes.push_back(v);
        const std::string in = temp_dir() + "/unimpl.astc", out = temp_dir() + "/unimpl.raw";
        write_bytes(in, bytes);
        const int code = run(kCli + " decode --profile " + c.profile + " " + in + " " + out);
        INFO(last_stderr());
        if (is_implemented(c.format)) {
            CHECK(code == 0);  // once the library decodes it; what it decodes is tested elsewhere
        } else {
            CHECK(code == 1);
            CHECK(last_stderr().find(std::string(c.name) + " is not implemented") != std::string::npos);
        }
    }
}

TEST_CASE(".astc parser: every truncation and every header byte value, no crash, the right error", "[cli][astc]") {
    // A valid 2D file and a valid 3D-footprint file.
    for (const AstcFootprint fp : {AstcFootprint{10, 6, 1}, AstcFootprint{4, 4, 3}}) {
        std::vector<uint8_t> file = astc_file_header(fp, 21, 13, 5);
        file.resize(16 + astc_encoded_size(fp, 21, 13, 5), 0xA5);
        const auto parsed = astc_file::parse(file);
        REQUIRE(std::holds_alternative<astc_file::Texture>(parsed));
        const auto& tex = std::get<astc_file::Texture>(parsed);
        CHECK((tex.block_x == fp.x && tex.block_y == fp.y && tex.block_z == fp.z));
        CHECK((tex.width == 21 && tex.height == 13 && tex.depth == 5));
        CHECK((tex.data_offset == 16 && tex.data_size == file.size() - 16 && tex.trailing_bytes == 0));
        texdec_format_info info{};
        REQUIRE(texdec_format_get_info(tex.format(astc_file::Profile::Srgb), &info) == TEXDEC_SUCCESS);
        CHECK((info.block_width == fp.x && info.block_height == fp.y && info.block_depth == fp.z));
        CHECK((info.flags & TEXDEC_FORMAT_FLAG_SRGB));
        REQUIRE(texdec_format_get_info(tex.format(astc_file::Profile::Hdr), &info) == TEXDEC_SUCCESS);
        CHECK((info.flags & TEXDEC_FORMAT_FLAG_HDR));
        REQUIRE(texdec_format_get_info(tex.format(astc_file::Profile::Ldr), &info) == TEXDEC_SUCCESS);
        CHECK(!(info.flags & (TEXDEC_FORMAT_FLAG_HDR | TEXDEC_FORMAT_FLAG_SRGB)));

        // Every shorter file is an error (TooSmall below 16 bytes, Truncated from 16 on); a copy
        // of exactly that size, so ASan sees any read past the end.
        for (size_t size = 0; size < file.size(); ++size) {
            const std::vector<uint8_t> part(file.begin(), file.begin() + size);
            const auto r = astc_file::parse(part);
            REQUIRE(std::holds_alternative<astc_file::Error>(r));
            CHECK(std::get<astc_file::Error>(r).code ==
                  (size < 16 ? astc_file::ErrorCode::TooSmall : astc_file::ErrorCode::Truncated));
        }
        // Trailing bytes are counted, not an error.
        std::vector<uint8_t> longer = file;
        longer.resize(file.size() + 7, 0);
        const auto r = astc_file::parse(longer);
        REQUIRE(std::holds_alternative<astc_file::Texture>(r));
        CHECK(std::get<astc_file::Texture>(r).trailing_bytes == 7);

        // Every value of every header byte: a texture, or an error whose message is not empty;
        // whatever is accepted describes blocks inside the file.
        for (size_t at = 0; at < 16; ++at)
            for (unsigned v = 0; v < 256; ++v) {
                std::vector<uint8_t> m = file;
                m[at] = uint8_t(v);
                const auto p = astc_file::parse(m);
                if (const auto* e = std::get_if<astc_file::Error>(&p)) {
                    CHECK(!e->message.empty());
                    if (at < 4 && v != file[at]) CHECK(e->code == astc_file::ErrorCode::BadMagic);
                } else {
                    const auto& t = std::get<astc_file::Texture>(p);
                    CHECK(t.data_offset + t.data_size + t.trailing_bytes == m.size());
                    uint64_t need = 0;
                    REQUIRE(texdec_encoded_size(t.format(astc_file::Profile::Ldr), t.width, t.height, t.depth, &need) ==
                            TEXDEC_SUCCESS);
                    CHECK(need == t.data_size);
                }
            }
    }
    // block_z 0 reads as a 2D footprint (as astcenc reads it).
    std::vector<uint8_t> z0 = astc_file_header({6, 6, 1}, 6, 6, 1);
    z0[6] = 0;
    z0.resize(32, 0);
    const auto r = astc_file::parse(z0);
    REQUIRE(std::holds_alternative<astc_file::Texture>(r));
    CHECK(std::get<astc_file::Texture>(r).block_z == 1);
}

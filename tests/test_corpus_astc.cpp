// Real ASTC files nobody on this project made: piglit's khr_texture_compression_astc corpus
// (mesa3d/piglit tests/spec). Data only, never committed: the test
// reads it from $TEXDEC_CORPUS/piglit/khr_texture_compression_astc (TEXDEC_CORPUS=<corpus folder>
// here). Without TEXDEC_CORPUS the test says so loudly and is reported as skipped (exit code 77),
// never as passed; with it, every file must be there and the test says how many it checked.
//
// What is checked, per profile (ldrl = linear LDR, ldrs = sRGB, hdr), for the 14 2D footprints,
// 2D (8 mip levels) and sliced 3D (2D blocks on a 160x106x8 texture, 3 levels), and the 2D arrays
// (5x5, 12x12: 2 layers, 8 levels, no expected files): every level of every file is parsed by the
// CLI's KTX 1 parser (src/io/ktx.cpp) and decoded by the library (its own context, validation on):
//   - hdr: GL's enum says GL_COMPRESSED_RGBA_ASTC_*; decoded as astc-*-sfloat to RGBA16F and
//     compared with libastcenc's FP16 output in the HDR profile (tolerance 0, all four channels)
//     and with piglit's expected RGB16F file (tolerance 0, R G B).
//   - ldrl / ldrs: decoded to RGBA8 and compared with libastcenc's decode_unorm8 (the project's
//     oracle, tolerance 0); piglit's expected files come from a 2015 astcenc whose 8-bit output
//     was not yet decode_unorm8, so against them every channel must be within 1 (ldrl: RGB, the
//     file has no alpha; ldrs: RGBA), and the number of channels that differ is reported.
// One CLI run per profile on a corpus file (level 1, --profile hdr for the hdr file) checks the
// CLI's KTX path against the same expected files.
#include <catch2/catch.hpp>

#include <tinyexr.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include <texdec/texdec.h>

#include "gpu/gpu_fixture.h"
#include "ktx.h"  // src/io's KTX 1 parser
#include "oracles/astcenc_oracle.h"
#include "support/corpus_files.h"
#include "support/job_builder.h"

using namespace texdec_test;

namespace {

const char* kCorpusSubdir = "piglit/khr_texture_compression_astc";

// The corpus folder, or "" (after a loud skip) when TEXDEC_CORPUS is not set.
std::string corpus_dir() {
    const char* root = std::getenv("TEXDEC_CORPUS");
    if (!root || !*root) {
        skip_loudly("TEXDEC_CORPUS is not set: the piglit ASTC corpus was NOT checked (0 files). Set "
                    "TEXDEC_CORPUS to the corpus folder (the one holding piglit/khr_texture_compression_astc)");
        return "";
    }
    const std::string dir = std::string(root) + "/" + kCorpusSubdir;
    INFO("TEXDEC_CORPUS=" << root);
    REQUIRE(std::filesystem::is_directory(dir + "/compressed"));
    return dir;
}

std::vector<uint8_t> read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    INFO(path);
    REQUIRE(in.good());
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}


enum class Profile { ldrl, ldrs, hdr };
const char* profile_dir(Profile p) { return p == Profile::ldrl ? "ldrl" : p == Profile::ldrs ? "ldrs" : "hdr"; }

struct Tally {
    size_t files = 0, expected_files = 0, surfaces = 0, texels = 0;
    size_t off_by_one = 0;  // LDR channels 1 away from piglit's expected file (allowed)
};

// Decodes every level of one corpus file and compares it (see the top of the file). `expected`
// is empty for the arrays.
void check_file(OwnContext& ctx, Profile profile, const std::string& file, const std::string& expected_path,
                Tally& tally) {
    INFO(file);
    const std::vector<uint8_t> bytes = read_file(file);
    const ktx::ParseResult parsed = ktx::parse(bytes);
    if (const auto* e = std::get_if<ktx::Error>(&parsed)) FAIL("KTX parser: " << e->message);
    const ktx::Texture& tex = std::get<ktx::Texture>(parsed);
    texdec_format_info info{};
    REQUIRE(texdec_format_get_info(tex.format, &info) == TEXDEC_SUCCESS);
    REQUIRE(info.family == TEXDEC_FAMILY_ASTC);
    REQUIRE(bool(info.flags & TEXDEC_FORMAT_FLAG_SRGB) == (profile == Profile::ldrs));
    // GL says RGBA or SRGB8_ALPHA8, never HDR: the folder says it (the CLI's --profile hdr).
    const texdec_format format = profile == Profile::hdr ? texdec_format(tex.format + 2) : tex.format;
    REQUIRE(texdec_format_get_info(format, &info) == TEXDEC_SUCCESS);
    const AstcFootprint fp{info.block_width, info.block_height, info.block_depth};
    const AstcProfile oracle_profile = profile == Profile::ldrl   ? AstcProfile::ldr
                                       : profile == Profile::ldrs ? AstcProfile::ldr_srgb
                                                                  : AstcProfile::hdr;
    ExpectedImage expected;
    if (!expected_path.empty()) {
        expected = read_expected_ktx1(expected_path);
        REQUIRE((expected.width == tex.width && expected.height == tex.height && expected.depth == tex.depth));
        REQUIRE(expected.levels.size() == tex.mip_levels);
        REQUIRE(expected.bytes_per_channel == (profile == Profile::hdr ? 2u : 1u));
        ++tally.expected_files;
    }
    ++tally.files;
    const texdec_output output = profile == Profile::hdr ? TEXDEC_OUTPUT_RGBA16F : TEXDEC_OUTPUT_RGBA8;
    const uint32_t texel_bytes = profile == Profile::hdr ? 8 : 4;
    for (uint32_t level = 0; level < tex.mip_levels; ++level) {
        INFO("mip level " << level);
        // Every layer of the level as slices (the layers' blocks are contiguous in a 2D array).
        const ktx::Surface& first = tex.surface(0, level);
        const uint32_t w = first.width, h = first.height, d = first.depth * tex.layers;
        const size_t size = first.size * tex.layers;
        REQUIRE(tex.surface(tex.layers - 1, level).offset == first.offset + first.size * (tex.layers - 1));
        const uint8_t* blocks = bytes.data() + first.offset;
        std::vector<uint8_t> got(size_t(w) * h * d * texel_bytes);
        const texdec_host_job job = JobBuilder(format, output, w, h, d).blocks(blocks, size).texels(got);
        const texdec_status status = ctx.decode(job);
        INFO(info.name << " " << w << "x" << h << "x" << d << ": " << texdec_status_string(status));
        REQUIRE(status == TEXDEC_SUCCESS);
        const size_t n = size_t(w) * h * d;
        ++tally.surfaces;
        tally.texels += n;
        size_t oracle_mismatches = 0, expected_mismatches = 0;
        std::string first_oracle, first_expected;
        if (profile == Profile::hdr) {
            const std::vector<uint16_t> want = astcenc_decode_f16(oracle_profile, fp, w, h, d, blocks, size);
            for (size_t i = 0; i < n * 4; ++i) {
                const uint16_t g = uint16_t(got[2 * i] | got[2 * i + 1] << 8);
                if (g != want[i] && oracle_mismatches++ == 0)
                    first_oracle = "texel " + std::to_string(i / 4) + " channel " + std::to_string(i % 4) + ": want " +
                                   std::to_string(want[i]) + " got " + std::to_string(g);
                if (expected.levels.empty() || i % 4 == 3) continue;
                const uint8_t* e = &expected.levels[level][(i / 4 * 3 + i % 4) * 2];
                const uint16_t x = uint16_t(e[0] | e[1] << 8);
                if (g != x && expected_mismatches++ == 0)
                    first_expected = "texel " + std::to_string(i / 4) + " channel " + std::to_string(i % 4) +
                                     ": piglit " + std::to_string(x) + " got " + std::to_string(g);
            }
        } else {
            const std::vector<uint8_t> want = astcenc_decode_unorm8(oracle_profile, fp, w, h, d, blocks, size);
            for (size_t i = 0; i < n * 4; ++i) {
                if (got[i] != want[i] && oracle_mismatches++ == 0)
                    first_oracle = "texel " + std::to_string(i / 4) + " channel " + std::to_string(i % 4) + ": want " +
                                   std::to_string(want[i]) + " got " + std::to_string(got[i]);
                if (expected.levels.empty() || (expected.channels == 3 && i % 4 == 3)) continue;
                const int x = expected.levels[level][i / 4 * expected.channels + i % 4];
                const int diff = std::abs(int(got[i]) - x);
                tally.off_by_one += diff == 1;
                if (diff > 1 && expected_mismatches++ == 0)
                    first_expected = "texel " + std::to_string(i / 4) + " channel " + std::to_string(i % 4) +
                                     ": piglit " + std::to_string(x) + " got " + std::to_string(got[i]);
            }
        }
        INFO("libastcenc: first mismatch " << first_oracle);
        CHECK(oracle_mismatches == 0);
        INFO("piglit's expected file: first mismatch " << first_expected);
        CHECK(expected_mismatches == 0);
    }
}

int run(const std::string& command, const std::string& log) {
    const int status = std::system((command + " >" + log + " 2>&1").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// One corpus file through the CLI (mip level 1) against piglit's expected file.
void check_cli(Profile profile, const std::string& dir) {
    const std::string cli = [] {
        const char* v = std::getenv("TEXDEC_CLI");
        return std::string(v && *v ? v : TEXDEC_CLI_PATH);
    }();
    const std::string in = dir + "/compressed/2D/" + profile_dir(profile) + "/waffles-8x6.ktx";
    const ExpectedImage expected = read_expected_ktx1(dir + "/decompressed/2D/" + profile_dir(profile) + "/waffles-8x6.ktx");
    const std::string tmp = std::filesystem::temp_directory_path().string() + "/texdec_corpus_" +
                            std::to_string(getpid()) + "_" + profile_dir(profile);
    const std::string out = tmp + (profile == Profile::hdr ? ".exr" : ".raw"), log = tmp + ".log";
    const std::string command = cli + " decode --level 1 " + (profile == Profile::hdr ? "--profile hdr " : "") + in +
                                " " + out;
    const int code = run(command, log);
    std::ifstream log_in(log);
    INFO(command << "\n" << std::string(std::istreambuf_iterator<char>(log_in), {}));
    REQUIRE(code == 0);
    const uint32_t w = 80, h = 53;
    size_t mismatches = 0;
    if (profile == Profile::hdr) {
        EXRVersion version;
        EXRHeader header;
        InitEXRHeader(&header);
        const char* err = nullptr;
        REQUIRE(ParseEXRVersionFromFile(&version, out.c_str()) == TINYEXR_SUCCESS);
        REQUIRE(ParseEXRHeaderFromFile(&header, &version, out.c_str(), &err) == TINYEXR_SUCCESS);
        EXRImage image;
        InitEXRImage(&image);
        REQUIRE(LoadEXRImageFromFile(&image, &header, out.c_str(), &err) == TINYEXR_SUCCESS);
        REQUIRE((image.width == int(w) && image.height == int(h) && header.num_channels == 4));
        // Channels are stored sorted by name: A, B, G, R.
        for (size_t t = 0; t < size_t(w) * h; ++t)
            for (int c = 0; c < 3; ++c) {
                uint16_t g;
                std::memcpy(&g, image.images[3 - c] + t * 2, 2);
                const uint8_t* e = &expected.levels[1][(t * 3 + c) * 2];
                mismatches += g != uint16_t(e[0] | e[1] << 8);
            }
        FreeEXRImage(&image);
        FreeEXRHeader(&header);
    } else {
        std::ifstream raw(out, std::ios::binary);
        const std::vector<uint8_t> got(std::istreambuf_iterator<char>(raw), {});
        REQUIRE(got.size() == size_t(w) * h * 4);
        for (size_t t = 0; t < size_t(w) * h; ++t)
            for (uint32_t c = 0; c < expected.channels; ++c)
                mismatches += std::abs(int(got[t * 4 + c]) - int(expected.levels[1][t * expected.channels + c])) > 1;
    }
    std::remove(out.c_str());
    std::remove(log.c_str());
    CHECK(mismatches == 0);
}

void check_profile(Profile profile) {
    const std::string dir = corpus_dir();
    if (dir.empty()) return;
    auto ctx = OwnContext::open();
    if (!ctx) return;
    Tally tally;
    const auto& footprints = astc_2d_footprints();
    REQUIRE(footprints.size() == 14);
    for (const char* dim : {"2D", "SLICED3D"})
        for (const AstcFootprint& fp : footprints) {
            const std::string name = "waffles-" + std::to_string(fp.x) + "x" + std::to_string(fp.y) + ".ktx";
            const std::string sub = std::string(dim) + "/" + profile_dir(profile) + "/" + name;
            check_file(*ctx, profile, dir + "/compressed/" + sub, dir + "/decompressed/" + sub, tally);
        }
    for (const char* name : {"waffles-5x5.ktx", "waffles-12x12.ktx"})
        check_file(*ctx, profile, dir + "/compressed/2D/" + profile_dir(profile) + "/array/" + name, "", tally);
    ctx->close_and_check();
    check_cli(profile, dir);
    const std::string summary = std::string("piglit ASTC corpus, ") + profile_dir(profile) + ": checked " +
                                std::to_string(tally.files) + " files (" + std::to_string(tally.expected_files) +
                                " with expected outputs), " + std::to_string(tally.surfaces) + " mip levels, " +
                                std::to_string(tally.texels) + " texels" +
                                (profile == Profile::hdr ? std::string()
                                                         : "; " + std::to_string(tally.off_by_one) +
                                                               " channels 1 away from piglit's 2015 expected values");
    std::fprintf(stderr, "%s\n", summary.c_str());
    WARN(summary);
    // 14 footprints x (2D + sliced 3D), + 2 arrays; 8 + 3 levels per footprint, 8 per array.
    CHECK(tally.files == 30);
    CHECK(tally.expected_files == 28);
    CHECK(tally.surfaces == 14 * (8 + 3) + 2 * 8);
}

}  // namespace

TEST_CASE("corpus: piglit ASTC ldrl (linear LDR) equals libastcenc and is within 1 of piglit",
          "[corpus][gpu][astc][heavy]") {
    check_profile(Profile::ldrl);
}

TEST_CASE("corpus: piglit ASTC ldrs (sRGB) equals libastcenc and is within 1 of piglit", "[corpus][gpu][astc][heavy]") {
    check_profile(Profile::ldrs);
}

TEST_CASE("corpus: piglit ASTC hdr (sfloat) equals libastcenc and piglit bit for bit", "[corpus][gpu][astc][heavy]") {
    check_profile(Profile::hdr);
}

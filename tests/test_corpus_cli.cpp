// Real files: every texture file in the shared test corpus ($TEXDEC_CORPUS) that holds a format
// texdec decodes goes through astc-gpu-decode (batches over the corpus folders, every mip level,
// --verify on: each texel also equals the CPU reference of docs/EXACTNESS.md), and where the corpus has an
// expected output the result matches it under docs/EXACTNESS.md's rules:
//   - piglit ETC1 / ETC2 colour mip chains: RGBA8, exact (ETC1 and RGB formats: R, G, B).
//   - piglit ETC2 R11 / RG11: piglit stores 8-bit values; they are the top byte of the 16-bit
//     bit-replicated EAC value (measured: 0 of 2048 differ), so NATIVE >> 8 is compared, exact.
//   - ETCPACK .ktx / .pkm vs its decompressed PPM / PGM / TGA: colour RGB(A) 8-bit exact; EAC 16-bit
//     exact (signed stored as value + 32768).
//   - piglit ASTC (2D and sliced 3D, every footprint and level): hdr (--profile hdr) RGB16F bit for
//     bit; ldrl / ldrs within 1 of piglit's 2015 8-bit files (docs/EXACTNESS.md), exact vs libastcenc via
//     --verify.
//   - astc-encoder's Test/Data: LDR / LDRS 1x1 and the 8x8 tile vs their PNGs, exact.
//   - bcdec's BC1-BC7 DDS files (no expected outputs): --verify, every texel equal to the CPU reference.
// Files that are not decodable (uncompressed DDS / KTX, the deliberately malformed .astc files)
// must fail with exit code 3 and a message; everything else must decode with no error.
// Data only, never committed: read from $TEXDEC_CORPUS; without it the tests skip loudly.
#include <catch2/catch.hpp>

#include <stb/stb_image.h>  // implemented in test_cli.cpp

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/gpu_fixture.h"
#include "support/cli_runner.h"
#include "support/corpus_files.h"

using namespace texdec_test;

namespace {

namespace fs = std::filesystem;

std::string out_dir(const std::string& name) { return fresh_cli_dir("corpus_" + name); }

// Runs the CLI; REQUIREs the exit code; returns stderr.
std::string cli_expect(const std::string& args, int code) {
    const int got = run_cli_command(cli_path() + " " + args);
    const std::string err = last_cli_stderr();
    INFO(args << "\n" << err);
    REQUIRE(got == code);
    return err;
}

// "[N/M] input: ...; verify: 0 of T texels differ ..." lines: every decoded file verified.
void check_all_verified(const std::string& err, size_t files) {
    size_t verified = 0;
    for (size_t at = 0; (at = err.find("verify: 0 of ", at)) != std::string::npos; ++at) ++verified;
    INFO(err);
    CHECK(verified == files);
}

struct Compare {
    size_t channels = 0, differ = 0, off_by_one = 0;
    std::string first;
    void add(int got, int want, const std::string& where, int allowed = 0) {
        ++channels;
        const int d = std::abs(got - want);
        if (d == 1) ++off_by_one;
        if (d > allowed && differ++ == 0)
            first = where + ": got " + std::to_string(got) + " expected " + std::to_string(want);
    }
};

std::string level_file(const std::string& dir, const std::string& stem, uint32_t level, const char* ext) {
    return dir + "/" + stem + "-mip" + std::to_string(level) + "." + ext;
}

}  // namespace

TEST_CASE("corpus CLI: every texture file decodes in one batch and only the undecodable ones fail",
          "[corpus][cli][gpu][heavy]") {
    const std::string corpus = corpus_root();
    if (corpus.empty() || !cli_has_device()) return;
    const std::string out = out_dir("all");
    // .ktx2 output keeps every level, layer and face: every surface of every file is decoded.
    const int code = run_cli_command(cli_path() + " decode -r --jobs 2 --to ktx2 --out-dir " + out + " --json=" + out +
                                     "/r.json " + corpus);
    const std::string err = last_cli_stderr();
    INFO(err);
    CHECK(code == 3);  // the malformed and uncompressed files below
    const std::vector<JsonFileStatus> statuses = read_json_statuses(out + "/r.json");
    const std::vector<std::string> must_fail = {
        "astcenc_testdata/Test/Data/negative_block_size.astc", "astcenc_testdata/Test/Data/negative_huge.astc",
        "astcenc_testdata/Test/Data/negative_magic.astc",      "astcenc_testdata/Test/Data/negative_overflow.astc",
        "astcenc_testdata/Test/Data/negative_short.astc",      "astcenc_testdata/Test/Data/Tiles/ldr.dds",
        "astcenc_testdata/Test/Data/Tiles/ldr.ktx"};
    size_t ok = 0, failed = 0;
    for (const JsonFileStatus& s : statuses) {
        const std::string rel = fs::relative(s.input, corpus).string();
        INFO(rel << ": " << s.status << " " << s.message);
        // The expected outputs themselves (uncompressed KTX files) are refused too, by name.
        const bool uncompressed = rel.find("decompressed") != std::string::npos;
        const bool expect_failure = uncompressed || std::find(must_fail.begin(), must_fail.end(), rel) != must_fail.end();
        if (uncompressed) CHECK(s.message.find("an uncompressed texture, not block-compressed") != std::string::npos);
        if (expect_failure) {
            CHECK(s.status == "failed");
            CHECK(s.exit_code == 3);
            CHECK_FALSE(s.message.empty());
            failed += s.status == "failed";
        } else {
            CHECK(s.status == "ok");
            ok += s.status == "ok";
        }
    }
    // Files that are no texture container at all (PNG, EXR, PPM, ...) are skipped, not failed.
    const std::string summary = "corpus through the CLI: " + std::to_string(ok) + " texture files decoded (every level, "
                                "layer and face), " + std::to_string(failed) + " undecodable files (malformed, or uncompressed "
                                "expected outputs) refused with exit code 3";
    std::fprintf(stderr, "%s\n", summary.c_str());
    WARN(summary);
    CHECK(ok + failed == statuses.size());
    CHECK(ok >= 141);  // every compressed file of the corpus as gathered (2026-11)
}

TEST_CASE("corpus CLI: piglit ETC1 and ETC2 and EAC mip chains equal piglit's expected files",
          "[corpus][cli][gpu][etc][heavy]") {
    const std::string corpus = corpus_root();
    if (corpus.empty() || !cli_has_device()) return;
    const std::string gles = corpus + "/piglit/gles-3.0", etc1 = corpus + "/piglit/oes_compressed_etc1_rgb8_texture";
    const std::string colour = out_dir("piglit_etc"), eac = out_dir("piglit_eac");
    std::string inputs;
    for (const char* f : {"rgb8", "rgb8-pt-alpha1", "rgba8", "srgb8", "srgb8-alpha8", "srgb8-pt-alpha1"})
        inputs += " " + gles + "/waffles-compressed-etc2-" + f + "-64x32-miptree.ktx";
    inputs += " " + etc1 + "/waffles-compressed-etc1-64x32-miptree.ktx";
    check_all_verified(cli_expect("decode --verify --level all --output rgba8 --to raw --out-dir " + colour + inputs, 0), 7);
    check_all_verified(cli_expect("decode --verify --level all --output native --to raw --out-dir " + eac + " " + gles +
                                      "/waffles-compressed-etc2-r11-64x32-miptree.ktx " + gles +
                                      "/waffles-compressed-etc2-rg11-64x32-miptree.ktx",
                                  0),
                       2);
    Compare cmp;
    size_t levels = 0;
    auto check_file = [&](const std::string& stem, const std::string& expected_path, const std::string& dir,
                          int channels /* 1, 2: EAC; 3, 4: colour */) {
        const ExpectedImage expected = read_expected_ktx1(expected_path);
        REQUIRE(expected.levels.size() == 7);
        for (uint32_t l = 0; l < expected.levels.size(); ++l) {
            const std::vector<uint8_t> got = read_binary_file(level_file(dir, stem, l, "raw"));
            const size_t texels = expected.levels[l].size() / expected.channels;
            const size_t got_bytes_per_texel = channels <= 2 ? 2 * size_t(channels) : 4;
            REQUIRE(got.size() == texels * got_bytes_per_texel);
            ++levels;
            for (size_t t = 0; t < texels; ++t)
                for (int c = 0; c < std::min(channels <= 2 ? 3 : channels, int(expected.channels)); ++c) {
                    int value;
                    if (channels <= 2) {  // the top byte of the 16-bit value; R11 grey-replicated, RG11 blue 0
                        const int src = channels == 1 ? 0 : c;
                        value = c < channels || channels == 1 ? got[(t * channels + src) * 2 + 1] : 0;
                    } else {
                        value = got[t * 4 + c];
                    }
                    cmp.add(value, expected.levels[l][t * expected.channels + c],
                            stem + " level " + std::to_string(l) + " texel " + std::to_string(t) + " channel " +
                                std::to_string(c));
                }
        }
    };
    for (const char* f : {"rgb8", "rgb8-pt-alpha1", "rgba8", "srgb8", "srgb8-alpha8", "srgb8-pt-alpha1"}) {
        const std::string stem = std::string("waffles-compressed-etc2-") + f + "-64x32-miptree";
        const bool rgb_only = std::string(f) == "rgb8" || std::string(f) == "srgb8";
        check_file(stem, gles + "/waffles-decompressed-etc2-" + f + "-64x32-miptree.ktx", colour, rgb_only ? 3 : 4);
    }
    check_file("waffles-compressed-etc1-64x32-miptree", etc1 + "/waffles-decompressed-rgb-64x32-miptree.ktx", colour, 3);
    check_file("waffles-compressed-etc2-r11-64x32-miptree", gles + "/waffles-decompressed-etc2-r11-64x32-miptree.ktx", eac, 1);
    check_file("waffles-compressed-etc2-rg11-64x32-miptree", gles + "/waffles-decompressed-etc2-rg11-64x32-miptree.ktx", eac, 2);
    INFO("first difference: " << cmp.first);
    CHECK(cmp.differ == 0);
    CHECK(levels == 9 * 7);
    WARN("piglit ETC corpus through the CLI: 9 files, " << levels << " mip levels, " << cmp.channels
                                                         << " channels compared, " << cmp.differ << " differ");
}

TEST_CASE("corpus CLI: ETCPACK .ktx and .pkm files equal ETCPACK's decompressed images",
          "[corpus][cli][gpu][etc][heavy]") {
    const std::string corpus = corpus_root();
    if (corpus.empty() || !cli_has_device()) return;
    const std::string vectors = corpus + "/etcpack/testing/testvectors_correct";
    Compare cmp;
    size_t files = 0;
    for (const char* container : {"ktx", "pkm"}) {
        const std::string colour = out_dir(std::string("etcpack_colour_") + container);
        const std::string eac = out_dir(std::string("etcpack_eac_") + container);
        std::string colour_inputs, eac_inputs;
        size_t colour_count = 0, eac_count = 0;
        for (const auto& entry : fs::directory_iterator(vectors + "/" + container)) {
            const std::string name = entry.path().string();
            if (name.find("_EAC") != std::string::npos) {
                eac_inputs += " " + name;
                ++eac_count;
            } else {
                colour_inputs += " " + name;
                ++colour_count;
            }
        }
        REQUIRE(colour_count == 7);
        REQUIRE(eac_count == 8);
        check_all_verified(cli_expect("decode --verify --output rgba8 --to raw --out-dir " + colour + colour_inputs, 0), 7);
        check_all_verified(cli_expect("decode --verify --output native --to raw --out-dir " + eac + eac_inputs, 0), 8);
        for (const auto& entry : fs::directory_iterator(vectors + "/" + container)) {
            const std::string stem = entry.path().stem().string();
            const bool is_eac = stem.find("_EAC") != std::string::npos;
            const bool is_signed = stem.find("SIGNED") != std::string::npos;
            const int eac_channels = stem.find("RG11") != std::string::npos ? 2 : 1;
            const std::string expected_dir = vectors + "/" + container + "_decompressed/" + stem;
            const PnmImage expected = read_expected_image(expected_dir);
            const std::vector<uint8_t> got = read_binary_file((is_eac ? eac : colour) + "/" + stem + ".raw");
            const size_t texels = size_t(expected.width) * expected.height;
            INFO(stem << " expected " << expected.path);
            REQUIRE(got.size() == texels * (is_eac ? 2 * eac_channels : 4));
            ++files;
            for (size_t t = 0; t < texels; ++t) {
                if (is_eac) {
                    for (int c = 0; c < eac_channels; ++c) {
                        const int raw = got[(t * eac_channels + c) * 2] | got[(t * eac_channels + c) * 2 + 1] << 8;
                        const int value = is_signed ? int(int16_t(raw)) + 32768 : raw;
                        cmp.add(value, expected.sample(t, c), stem + " texel " + std::to_string(t));
                    }
                } else {
                    for (uint32_t c = 0; c < expected.channels; ++c)
                        cmp.add(got[t * 4 + c], expected.sample(t, c), stem + " texel " + std::to_string(t));
                }
            }
        }
    }
    INFO("first difference: " << cmp.first);
    CHECK(cmp.differ == 0);
    CHECK(files == 30);
    WARN("ETCPACK vectors through the CLI: " << files << " files (.ktx and .pkm), " << cmp.channels
                                             << " channels compared, " << cmp.differ << " differ");
}

TEST_CASE("corpus CLI: piglit ASTC files (2D and sliced 3D and arrays) equal piglit's expected files",
          "[corpus][cli][gpu][astc][heavy]") {
    const std::string corpus = corpus_root();
    if (corpus.empty() || !cli_has_device()) return;
    const std::string base = corpus + "/piglit/khr_texture_compression_astc";
    Compare ldr, hdr;
    size_t files = 0, levels = 0;
    for (const char* dim : {"2D", "SLICED3D"})
        for (const char* profile : {"ldrl", "ldrs", "hdr"}) {
            const bool is_hdr = std::string(profile) == "hdr";
            const std::string in = base + "/compressed/" + dim + "/" + profile;
            const std::string out = out_dir(std::string("piglit_astc_") + dim + "_" + profile);
            const std::string args = std::string("decode --verify --level all --to raw --output ") +
                                     (is_hdr ? "rgba16f --profile hdr" : "rgba8") + " --out-dir " + out + " " + in;
            const std::string err = cli_expect(args, 0);
            check_all_verified(err, 14);
            for (const auto& entry : fs::directory_iterator(in)) {
                if (!entry.is_regular_file()) continue;
                const std::string stem = entry.path().stem().string();
                const ExpectedImage expected =
                    read_expected_ktx1(base + "/decompressed/" + dim + "/" + profile + "/" + stem + ".ktx");
                ++files;
                for (uint32_t l = 0; l < expected.levels.size(); ++l) {
                    const std::vector<uint8_t> got = read_binary_file(level_file(out, stem, l, "raw"));
                    const size_t texels = expected.levels[l].size() / (expected.channels * expected.bytes_per_channel);
                    INFO(stem << " level " << l);
                    REQUIRE(got.size() == texels * (is_hdr ? 8 : 4));
                    ++levels;
                    for (size_t t = 0; t < texels; ++t)
                        for (uint32_t c = 0; c < expected.channels; ++c) {
                            const std::string where = std::string(dim) + "/" + profile + "/" + stem + " level " +
                                                      std::to_string(l) + " texel " + std::to_string(t);
                            if (is_hdr) {
                                const uint8_t* e = &expected.levels[l][(t * expected.channels + c) * 2];
                                hdr.add(got[t * 8 + c * 2] | got[t * 8 + c * 2 + 1] << 8, e[0] | e[1] << 8, where);
                            } else {
                                ldr.add(got[t * 4 + c], expected.levels[l][t * expected.channels + c], where, 1);
                            }
                        }
                }
            }
        }
    // The 2D arrays have no expected files: decoded (every level and layer) and verified. The ldrl
    // and ldrs folders hold files of the same names, so each goes to its own --out-dir (one batch
    // would give two inputs one output name, which the CLI refuses).
    for (const char* profile : {"ldrl", "ldrs"}) {
        const std::string arrays = out_dir(std::string("piglit_astc_arrays_") + profile);
        check_all_verified(cli_expect("decode --verify --level all --layer all --to raw --out-dir " + arrays + " " +
                                          base + "/compressed/2D/" + profile + "/array",
                                      0),
                           2);
    }
    INFO("hdr first difference: " << hdr.first);
    CHECK(hdr.differ == 0);
    INFO("ldr first difference beyond 1: " << ldr.first);
    CHECK(ldr.differ == 0);
    CHECK(files == 2 * 3 * 14);
    WARN("piglit ASTC through the CLI: " << files << " files, " << levels << " levels; hdr: " << hdr.channels
                                         << " channels bit for bit; ldr: " << ldr.channels << " channels, "
                                         << ldr.off_by_one << " of them 1 away from piglit's 2015 values (allowed)");
}

TEST_CASE("corpus CLI: astc-encoder's test data equals its PNG and EXR files", "[corpus][cli][gpu][astc][heavy]") {
    const std::string corpus = corpus_root();
    if (corpus.empty() || !cli_has_device()) return;
    const std::string data = corpus + "/astcenc_testdata/Test/Data";
    const std::string out = out_dir("astcenc_data");
    struct Case {
        const char* astc;
        const char* flag;
        const char* expected;
    };
    Compare cmp;
    for (const Case& c : {Case{"LDR-A-1x1.astc", "-dl", "LDR-A-1x1.png"}, Case{"LDRS-A-1x1.astc", "-ds", "LDRS-A-1x1.png"},
                          Case{"Tiles/ldr.astc", "-dl", "Tiles/ldr.png"}}) {
        const std::string raw = out + "/" + fs::path(c.astc).stem().string() + ".raw";
        check_all_verified(cli_expect(std::string(c.flag) + " --verify --output rgba8 " + data + "/" + c.astc + " " + raw, 0), 1);
        int w = 0, h = 0, n = 0;
        unsigned char* png = stbi_load((data + "/" + c.expected).c_str(), &w, &h, &n, 4);
        REQUIRE(png != nullptr);
        const std::vector<uint8_t> got = read_binary_file(raw);
        REQUIRE(got.size() == size_t(w) * h * 4);
        for (size_t i = 0; i < got.size(); ++i) cmp.add(got[i], png[i], std::string(c.astc) + " byte " + std::to_string(i));
        stbi_image_free(png);
    }
    // HDR files: decoded with -dh and verified against libastcenc, texel for texel (docs/EXACTNESS.md: its
    // FP16 output is exact).
    check_all_verified(cli_expect("-dh --verify " + data + "/Tiles/hdr.astc " + out + "/hdr.exr", 0), 1);
    check_all_verified(cli_expect("-dh --verify " + data + "/HDR-A-1x1.astc " + out + "/hdr1.exr", 0), 1);
    INFO("first difference: " << cmp.first);
    CHECK(cmp.differ == 0);
    WARN("astc-encoder test data through the CLI: 3 LDR files equal their PNGs (" << cmp.channels
                                                                                 << " channels); 2 HDR files verified");
}

TEST_CASE("corpus CLI: bcdec's BC1-BC7 DDS files (no expected outputs) equal the CPU reference",
          "[corpus][cli][gpu][bc][heavy]") {
    const std::string corpus = corpus_root();
    if (corpus.empty() || !cli_has_device()) return;
    // Every output type through --verify: rgba16f to .exr (every format has it), native to .raw.
    const std::string images = corpus + "/bcdec/test_images";
    check_all_verified(cli_expect("decode --verify --to exr --out-dir " + out_dir("bcdec_exr") + " " + images, 0), 7);
    check_all_verified(cli_expect("decode --verify --to raw --out-dir " + out_dir("bcdec_raw") + " " + images, 0), 7);
    WARN("bcdec corpus through the CLI: 7 DDS files (BC1, BC2, BC3, BC4, BC5, BC6H signed, BC7), rgba16f and native, "
         "0 texels differ from the CPU reference");
}

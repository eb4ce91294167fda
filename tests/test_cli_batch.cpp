// astc-gpu-decode as people use it on many files: surface selection (--level, --layer,
// --face, --slice, N or all, and the output names 'all' gives), .ktx2 output of a whole cube map,
// batches (directories, @listfiles, --out-dir, --jobs, -r, name collisions, one bad file among
// good ones, the summary and --json), --verify (a match, and a planted mismatch), info, the
// astcenc-style -dl/-ds/-dh shortcuts and every exit code.
// Expected texels come from the EXACT model (src/reference/exact_model, the rational spec
// formula): every surface is a solid BC1 colour of its own, so a wrong pick shows.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "oracles/cpu_models.h"
#include "support/cli_runner.h"
#include "support/container_files.h"

using namespace texdec_test;

namespace {

namespace fs = std::filesystem;

// Surface s: a BC1 block whose two endpoints are the same 565 colour, all indices 0.
uint16_t colour565(uint32_t s) { return uint16_t(((3 * s + 1) % 32) << 11 | ((5 * s + 2) % 64) << 5 | ((7 * s + 3) % 32)); }

std::vector<uint8_t> solid_blocks(uint32_t s, size_t blocks) {
    std::vector<uint8_t> bytes;
    const uint16_t c = colour565(s);
    for (size_t i = 0; i < blocks; ++i) bytes.insert(bytes.end(), {uint8_t(c), uint8_t(c >> 8), uint8_t(c), uint8_t(c >> 8), 0, 0, 0, 0});
    return bytes;
}

// Surfaces first, first + 1, ..., first + count - 1 one after another, `blocks` blocks each.
std::vector<uint8_t> solid_surfaces(uint32_t first, uint32_t count, size_t blocks) {
    std::vector<uint8_t> bytes;
    for (uint32_t s = first; s < first + count; ++s) {
        const auto surface = solid_blocks(s, blocks);
        bytes.insert(bytes.end(), surface.begin(), surface.end());
    }
    return bytes;
}

// The RGBA8 texel of surface s (EXACT rounding: round(c * 255 / 31), the spec's c / 31).
std::vector<uint8_t> expected_texel(uint32_t s) {
    const uint16_t c = colour565(s);
    auto channel = [](unsigned v, unsigned bits) { return exact::to_unorm8(exact::bc1_channel(v, v, bits, 0, false)); };
    return {channel(c >> 11, 5), channel((c >> 5) & 63, 6), channel(c & 31, 5), 255};
}

// Checks a raw RGBA8 output: `texels` texels, all of surface s.
void check_solid(const std::string& path, uint32_t s, size_t texels) {
    INFO(path << " should hold surface " << s);
    const std::vector<uint8_t> bytes = read_binary_file(path);
    REQUIRE(bytes.size() == texels * 4);
    const std::vector<uint8_t> want = expected_texel(s);
    size_t wrong = 0;
    for (size_t i = 0; i < texels; ++i) wrong += !std::equal(want.begin(), want.end(), bytes.begin() + i * 4);
    CHECK(wrong == 0);
}

std::string dir(const std::string& name) { return fresh_cli_dir(name); }


// An 8x8 BC1 cube map with 2 mip levels: surface (face f, level l) = f * 2 + l. DDS stores each
// face's mip chain in turn.
std::string write_cube_dds(const std::string& folder) {
    std::vector<uint8_t> data;
    for (uint32_t f = 0; f < 6; ++f)
        for (uint32_t l = 0; l < 2; ++l) {
            const auto blocks = solid_blocks(f * 2 + l, l == 0 ? 4 : 1);
            data.insert(data.end(), blocks.begin(), blocks.end());
        }
    LegacyDdsHeader h{{'D', 'X', 'T', '1'}, 8, 8};
    h.mip_count = 2;
    h.caps2 = 0x200 | 0xFC00;  // DDSCAPS2_CUBEMAP and all six faces
    const std::string path = folder + "/cube.dds";
    write_binary_file(path, legacy_dds(h, data));
    return path;
}

// An 8x4x3 BC1 volume: slice z = surface 20 + z.
std::string write_volume_dds(const std::string& folder) {
    LegacyDdsHeader h{{'D', 'X', 'T', '1'}, 8, 4};
    h.depth = 3;
    h.caps2 = 0x200000;  // DDSCAPS2_VOLUME
    const std::string path = folder + "/volume.dds";
    write_binary_file(path, legacy_dds(h, solid_surfaces(20, 3, 2)));
    return path;
}

// An 8x8 KTX 2 BC1 array of 3 layers: layer n = surface 30 + n.
std::string write_array_ktx2(const std::string& folder) {
    const Ktx2File file = ktx2_bytes(ktx2_spec(TEXDEC_FORMAT_BC1_RGBA_UNORM, 8, 8, 0, 3), {solid_surfaces(30, 3, 4)});
    const std::string path = folder + "/array.ktx2";
    write_binary_file(path, file.bytes);
    return path;
}

uint32_t le32(const std::vector<uint8_t>& b, size_t at) {
    return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}
uint64_t le64(const std::vector<uint8_t>& b, size_t at) { return le32(b, at) | uint64_t(le32(b, at + 4)) << 32; }

bool json_is_valid(const std::string& path) {
    return std::system(("python3 -m json.tool " + path + " >/dev/null").c_str()) == 0;
}

}  // namespace

TEST_CASE("CLI selection: --level --face --layer --slice N or all pick the right surfaces and name the outputs",
          "[cli][gpu][select]") {
    if (!cli_has_device()) return;
    const std::string d = dir("select");
    const std::string cube = write_cube_dds(d), volume = write_volume_dds(d), array = write_array_ktx2(d);

    // Every level of every face: out-mipL-faceF.raw.
    REQUIRE(run_cli("decode --output rgba8 --level all --face all " + cube + " " + d + "/out.raw") == 0);
    for (uint32_t l = 0; l < 2; ++l)
        for (uint32_t f = 0; f < 6; ++f)
            check_solid(d + "/out-mip" + std::to_string(l) + "-face" + std::to_string(f) + ".raw", f * 2 + l, l ? 16 : 64);
    // One surface by number: no suffix.
    REQUIRE(run_cli("decode --output rgba8 --level 1 --face 3 " + cube + " " + d + "/one.raw") == 0);
    check_solid(d + "/one.raw", 3 * 2 + 1, 16);
    // Default: level 0 of face 0, and a note naming the other surfaces.
    REQUIRE(run_cli("decode --output rgba8 " + cube + " " + d + "/default.raw") == 0);
    check_solid(d + "/default.raw", 0, 64);
    CHECK(contains(last_cli_stderr(), "2 mip level(s)"));

    // Slices of a volume: all (one file each), one, and the default (every slice in one file).
    REQUIRE(run_cli("decode --output rgba8 --slice all " + volume + " " + d + "/vol.raw") == 0);
    for (uint32_t z = 0; z < 3; ++z) check_solid(d + "/vol-slice" + std::to_string(z) + ".raw", 20 + z, 32);
    REQUIRE(run_cli("decode --output rgba8 --slice 2 " + volume + " " + d + "/slice2.raw") == 0);
    check_solid(d + "/slice2.raw", 22, 32);
    REQUIRE(run_cli("decode --output rgba8 " + volume + " " + d + "/whole.raw") == 0);
    const std::vector<uint8_t> whole = read_binary_file(d + "/whole.raw");
    REQUIRE(whole.size() == 3 * 32 * 4);
    for (uint32_t z = 0; z < 3; ++z) CHECK(std::vector<uint8_t>(whole.begin() + z * 128, whole.begin() + z * 128 + 4) == expected_texel(20 + z));

    // Layers of a KTX 2 array, to PNG (read back as the raw bytes would be: 8-bit RGBA).
    REQUIRE(run_cli("decode --output rgba8 --layer all " + array + " " + d + "/arr.raw") == 0);
    for (uint32_t n = 0; n < 3; ++n) check_solid(d + "/arr-layer" + std::to_string(n) + ".raw", 30 + n, 64);
    REQUIRE(run_cli("decode --layer 1 " + array + " " + d + "/layer1.png") == 0);
    CHECK(fs::exists(d + "/layer1.png"));

    // Out of range: exit code 2, a message naming how many there are.
    CHECK(run_cli("decode --level 2 " + cube + " " + d + "/x.raw") == 2);
    CHECK(contains(last_cli_stderr(), "--level 2: the file has 2 mip levels (0 to 1)"));
    CHECK(run_cli("decode --face 6 " + cube + " " + d + "/x.raw") == 2);
    CHECK(run_cli("decode --slice 3 " + volume + " " + d + "/x.raw") == 2);
    CHECK(contains(last_cli_stderr(), "--slice 3: level 0 has 3 slice(s)"));
    CHECK(run_cli("decode --layer x " + array + " " + d + "/x.raw") == 2);
    CHECK(run_cli("decode --slice all " + cube + " " + d + "/x.ktx2") == 2);
    CHECK_FALSE(fs::exists(d + "/x.raw"));
}

TEST_CASE("CLI .ktx2 output: a whole cube map with its mips in one file, the texels of every face and level",
          "[cli][gpu][ktx2out]") {
    if (!cli_has_device()) return;
    const std::string d = dir("ktx2out");
    const std::string cube = write_cube_dds(d);
    REQUIRE(run_cli("decode " + cube + " " + d + "/cube.ktx2") == 0);
    const std::vector<uint8_t> k = read_binary_file(d + "/cube.ktx2");
    REQUIRE(k.size() > 80 + 2 * 24);
    CHECK(le32(k, 12) == 37);  // VK_FORMAT_R8G8B8A8_UNORM: BC1's native output
    CHECK(le32(k, 20) == 8);
    CHECK(le32(k, 24) == 8);
    CHECK(le32(k, 28) == 0);  // pixelDepth: 2D
    CHECK(le32(k, 32) == 0);  // layerCount: not an array
    CHECK(le32(k, 36) == 6);  // faceCount
    CHECK(le32(k, 40) == 2);  // levelCount
    CHECK(le32(k, 44) == 0);  // no supercompression
    for (uint32_t l = 0; l < 2; ++l) {
        const uint64_t offset = le64(k, 80 + 24 * l), length = le64(k, 88 + 24 * l);
        const uint32_t texels = l ? 16 : 64;
        REQUIRE(length == 6 * texels * 4);
        REQUIRE(offset + length <= k.size());
        for (uint32_t f = 0; f < 6; ++f) {
            INFO("level " << l << " face " << f);
            const std::vector<uint8_t> want = expected_texel(f * 2 + l);
            for (uint32_t t = 0; t < texels; ++t)
                REQUIRE(std::equal(want.begin(), want.end(), k.begin() + std::ptrdiff_t(offset + (f * texels + t) * 4)));
        }
    }
    // --face 2 --level 1: a one-face, one-level file.
    REQUIRE(run_cli("decode --face 2 --level 1 " + cube + " " + d + "/face2.ktx2") == 0);
    const std::vector<uint8_t> one = read_binary_file(d + "/face2.ktx2");
    REQUIRE(one.size() > 104);
    CHECK(le32(one, 20) == 4);
    CHECK(le32(one, 36) == 1);
    CHECK(le32(one, 40) == 1);
}

TEST_CASE("CLI batch: a directory with a bad file among good ones and @listfile and -r and --jobs and --json",
          "[cli][gpu][batch]") {
    if (!cli_has_device()) return;
    const std::string in = dir("batch_in");
    fs::create_directories(in + "/sub");
    fs::copy_file(cli_sample_bc3(), in + "/good1.dds");
    fs::copy_file(cli_sample_astc(), in + "/good2.astc");
    fs::copy_file(cli_sample_bc3(), in + "/sub/good3.dds");
    std::vector<uint8_t> bad = read_binary_file(cli_sample_bc3());
    bad.resize(bad.size() / 2);  // truncated: an input error
    write_binary_file(in + "/bad.dds", bad);
    write_binary_file(in + "/notes.txt", {'h', 'i', '\n'});  // not a texture file: skipped

    // The reference outputs, one file at a time.
    const std::string ref = dir("batch_ref");
    REQUIRE(run_cli("decode " + in + "/good1.dds " + ref + "/good1.png") == 0);
    REQUIRE(run_cli("decode " + in + "/good2.astc " + ref + "/good2.png") == 0);

    for (const char* jobs : {"1", "3"}) {
        INFO("--jobs " << jobs);
        const std::string out = dir(std::string("batch_out") + jobs);
        const int code =
            run_cli(std::string("decode --jobs ") + jobs + " --out-dir " + out + " --json=" + out + "/r.json " + in);
        const std::string err = last_cli_stderr();
        INFO(err);
        CHECK(code == 3);  // bad.dds, the only failure
        CHECK(read_binary_file(out + "/good1.png") == read_binary_file(ref + "/good1.png"));
        CHECK(read_binary_file(out + "/good2.png") == read_binary_file(ref + "/good2.png"));
        CHECK_FALSE(fs::exists(out + "/bad.png"));
        CHECK_FALSE(fs::exists(out + "/sub"));  // not recursive
        CHECK(contains(err, "2 of 3 file(s) decoded, 1 failed, 1 skipped (not texture files)"));
        CHECK(contains(err, "bad.dds"));
        CHECK(contains(err, "[3/3]"));  // plain progress lines: stderr is not a terminal
        REQUIRE(json_is_valid(out + "/r.json"));
        const std::string json = read_text(out + "/r.json");
        CHECK(contains(json, "\"status\": \"failed\""));
        CHECK(contains(json, "\"exit_code\": 3"));
        CHECK(contains(json, "\"format\": \"bc3-unorm\""));
        CHECK(contains(json, "\"format\": \"astc-6x6-unorm\""));
        CHECK(contains(json, "notes.txt"));
        CHECK(contains(json, "\"device\": "));
        CHECK(contains(json, "\"gpu_ms\": "));
    }

    // -r: subfolders too, written below --out-dir at the same relative path.
    const std::string rec = dir("batch_rec");
    CHECK(run_cli("decode -r --out-dir " + rec + " " + in) == 3);
    CHECK(read_binary_file(rec + "/sub/good3.png") == read_binary_file(ref + "/good1.png"));

    // @listfile: comments, blank lines; two inputs named alike keep their whole names; --to.
    const std::string list = cli_temp_dir() + "/list.txt";
    const std::string text = "# inputs\n\n" + in + "/good1.dds\n" + in + "/sub/good3.dds\r\n  " + in + "/good2.astc\n";
    write_binary_file(list, std::vector<uint8_t>(text.begin(), text.end()));
    const std::string lst = dir("batch_list");
    REQUIRE(run_cli("decode --to raw --out-dir " + lst + " @" + list) == 0);
    CHECK(fs::exists(lst + "/good1.raw"));
    CHECK(fs::exists(lst + "/good3.raw"));
    CHECK(fs::exists(lst + "/good2.raw"));
    const std::string same = dir("batch_same");
    fs::copy_file(cli_sample_bc3(), same + "/a.dds");
    fs::copy_file(cli_sample_astc(), same + "/a.astc");
    const std::string same_out = dir("batch_same_out");
    REQUIRE(run_cli("decode --out-dir " + same_out + " " + same + "/a.dds " + same + "/a.astc") == 0);
    CHECK(read_binary_file(same_out + "/a.dds.png") == read_binary_file(ref + "/good1.png"));
    CHECK(read_binary_file(same_out + "/a.astc.png") == read_binary_file(ref + "/good2.png"));

    // Usage: several inputs need --out-dir; --to needs --out-dir; a list that does not exist is exit 3.
    CHECK(run_cli("decode " + in + "/good1.dds " + in + "/good2.astc " + rec + "/x.png") == 2);
    CHECK(run_cli("decode --to png " + in + "/good1.dds " + rec + "/x.png") == 2);
    CHECK(run_cli("decode " + in + " " + rec + "/x.png") == 2);
    CHECK(run_cli("decode --out-dir " + rec + " @" + cli_temp_dir() + "/no-such-list.txt") == 3);
}

TEST_CASE("CLI --verify: 0 mismatches on real files and a planted mismatch reported with its texel and PSNR",
          "[cli][gpu][verify]") {
    if (!cli_has_device()) return;
    const std::string d = dir("verify");
    REQUIRE(run_cli("decode --verify " + cli_sample_bc3() + " " + d + "/a.png") == 0);
    CHECK(contains(last_cli_stderr(), "verify: 0 of 65536 texels differ from the CPU reference"));
    REQUIRE(run_cli("decode --verify -ds " + cli_sample_astc() + " " + d + "/b.png") == 0);
    CHECK(contains(last_cli_stderr(), "verify: 0 of"));
    REQUIRE(run_cli("decode --verify --bc-rounding ideal --output rgba16f " + cli_sample_bc3() + " " + d + "/c.exr") ==
            0);

    // TEXDEC_CLI_VERIFY_FAULT=N flips the lowest bit of texel N of the GPU's output.
    const int code = run_cli_command("TEXDEC_CLI_VERIFY_FAULT=5 " + cli_path() + " decode --verify --json=" + d +
                                     "/v.json " + cli_sample_bc3() + " " + d + "/d.png");
    const std::string err = last_cli_stderr();
    INFO(err);
    CHECK(code == 5);
    CHECK(contains(err, "1 of 65536 texels differ from the CPU reference"));
    CHECK(contains(err, "texel (5, 0, 0)"));
    CHECK(contains(err, "PSNR "));
    REQUIRE(json_is_valid(d + "/v.json"));
    const std::string json = read_text(d + "/v.json");
    CHECK(contains(json, "\"mismatched_texels\": 1"));
    CHECK(contains(json, "\"status\": \"mismatch\""));
}

TEST_CASE("CLI info: container and format and levels and faces without a device and as JSON", "[cli][info]") {
    const std::string d = dir("info");
    const std::string cube = write_cube_dds(d), array = write_array_ktx2(d);
    // No Vulkan device is needed: point the loader at no driver at all.
    REQUIRE(run_cli_command("VK_ICD_FILENAMES=/nonexistent.json " + cli_path() + " info " + cube + " " + array + " > " +
                            d + "/info.txt") == 0);
    const std::string text = read_text(d + "/info.txt");
    INFO(text);
    CHECK(contains(text, "container:    DDS (FourCC 'DXT1')"));
    CHECK(contains(text, "format:       bc1-rgba-unorm"));
    CHECK(contains(text, "levels:       2"));
    CHECK(contains(text, "faces:        6 (cube map)"));
    CHECK(contains(text, "container:    KTX 2.0"));
    CHECK(contains(text, "layers:       3 (array)"));
    REQUIRE(run_cli_command(cli_path() + " info --json " + cube + " > " + d + "/info.json") == 0);
    REQUIRE(json_is_valid(d + "/info.json"));
    write_binary_file(d + "/junk.bin", {1, 2, 3, 4, 5});
    CHECK(run_cli_command(cli_path() + " info " + d + "/junk.bin > /dev/null") == 3);
    CHECK(contains(last_cli_stderr(), "first bytes (01 02 03 04 05)"));
}

TEST_CASE("CLI: -dl -ds -dh equal --profile and every exit code is the documented one", "[cli][gpu][exitcodes]") {
    if (!cli_has_device()) return;
    const std::string d = dir("codes");
    const std::string astc = cli_sample_astc();
    REQUIRE(run_cli("-ds " + astc + " " + d + "/s1.png") == 0);
    REQUIRE(run_cli("decode --profile srgb " + astc + " " + d + "/s2.png") == 0);
    CHECK(read_binary_file(d + "/s1.png") == read_binary_file(d + "/s2.png"));
    REQUIRE(run_cli("-dl " + astc + " " + d + "/l1.png") == 0);
    REQUIRE(run_cli("decode " + astc + " " + d + "/l2.png") == 0);
    CHECK(read_binary_file(d + "/l1.png") == read_binary_file(d + "/l2.png"));
    REQUIRE(run_cli("-dh " + astc + " " + d + "/h.exr") == 0);
    CHECK(run_cli("-ds --profile ldr " + astc + " " + d + "/x.png") == 2);

    CHECK(run_cli("decode " + cli_sample_bc3() + " " + d + "/ok.tga") == 0);  // 0
    CHECK(run_cli("decode --bc-rounding nvidia " + cli_sample_bc3() + " " + d + "/n.png") == 0);
    CHECK(run_cli("decode --verify --bc-rounding nvidia " + cli_sample_bc3() + " " + d + "/n.png") ==
          2);  // no CPU reference yet
    CHECK(run_cli("--device no-such-device decode " + cli_sample_bc3() + " " + d + "/n.png") == 1);  // 1
    CHECK(run_cli("decode --no-such-option a b") == 2);                                              // 2
    CHECK(run_cli("decode " + cli_sample_bc3() + " " + d + "/x.jpg") == 2);
    CHECK(run_cli("decode " + d + "/missing.dds " + d + "/x.png") == 3);                 // 3
    CHECK(run_cli("decode " + cli_sample_bc3() + " " + d + "/no/such/dir/x.png") == 4);  // 4
    CHECK(run_cli_command("TEXDEC_CLI_VERIFY_FAULT=0 " + cli_path() + " decode --verify " + cli_sample_bc3() + " " + d +
                          "/v.png") == 5);  // 5
    // Raw mode on a file that has a container header: decoded as asked, with a warning.
    CHECK(run_cli("decode --format bc3-unorm --extent 256x256 " + cli_sample_bc3() + " " + d + "/raw.raw") == 0);
    CHECK(contains(last_cli_stderr(), "it starts with a DDS header, but --format reads it as raw blocks"));
    // Options of another command: exit 2, naming the commands that take them.
    CHECK(run_cli("info --output rgba8 " + cli_sample_bc3()) == 2);
    CHECK(contains(last_cli_stderr(), "option --output applies to 'decode' and 'bench' only"));
    CHECK(run_cli("formats --verify") == 2);
    CHECK(contains(last_cli_stderr(), "option --verify applies to 'decode' only"));
    REQUIRE(run_cli_command(cli_path() + " --help > " + d + "/help.txt") == 0);
    const std::string help = read_text(d + "/help.txt");
    for (const char* line : {"  0  success", "  1  decode or device error", "  2  usage error", "  3  input file error",
                             "  4  output file error", "  5  --verify found texels"})
        CHECK(contains(help, line));
}

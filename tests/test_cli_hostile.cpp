// astc-gpu-decode against files and names a hostile user picks (issue 34, items 3-6):
//   3. DDS cube maps whose faces are not square are refused at parse time, as KTX and KTX 2 refuse
//      them (legacy and DX10 headers), with the same message and the input error (exit code 3);
//   4. the parsers' own tables count against --max-memory: a 64 MiB DX10 DDS of 8 M layers (and a
//      KTX 1 of 6 M array faces) is refused before its surface table is allocated, the table is part
//      of the memory a decode reserves, and a KTX 2 whose header claims millions of surfaces in a
//      few hundred bytes costs no per-surface memory at all (peak resident memory measured);
//   5. --json is JSON whatever the file names: invalid UTF-8 and control characters are escaped as
//      --help says, the exact bytes recoverable (parsed with python3's strict json module);
//   6. messages and help: encode time of every writer in -v / --json, the KTX 2 DFD's sample count
//      and channel ids checked like its other fields, formats texdec cannot decode named from one
//      table (DXGI, Direct3D FourCCs, vkFormats, GL enums), --threads / --device refusals.
// The CLI runs with --backend cpu where a decode is needed, so no Vulkan device is involved.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <tuple>
#include <vector>

#include "dds.h"
#include "ktx.h"
#include "ktx2.h"
#include "support/cli_runner.h"
#include "support/container_files.h"

using namespace texdec_test;

namespace {

namespace fs = std::filesystem;

std::string dir(const std::string& name) { return fresh_cli_dir("hostile-" + name); }

// A file of `size` bytes that starts with `head` and is zeros (a hole) after it.
void write_sparse(const std::string& path, const std::vector<uint8_t>& head, uint64_t size) {
    write_binary_file(path, head);
    fs::resize_file(path, size);
}

constexpr uint32_t kDxgiBc1Unorm = 71;
constexpr uint32_t kGlRgbaDxt1 = 0x83F1;  // GL_COMPRESSED_RGBA_S3TC_DXT1_EXT

}  // namespace

// ---- item 3 ------------------------------------------------------------------------------------

TEST_CASE("DDS cube maps whose faces are not square are refused like KTX's, legacy and DX10 headers",
          "[cli][dds][issue34]") {
    const std::vector<uint8_t> faces(6 * 2 * 8, 0x55);  // six 8x4 BC1 faces of 2 blocks
    const std::vector<uint8_t> legacy = legacy_dds({{'D', 'X', 'T', '1'}, 8, 4, 0, 0, 0x200 | 0xFC00}, faces);
    const std::vector<uint8_t> dx10 = dx10_dds({kDxgiBc1Unorm, 8, 4, 1, 1, 3, 0x4 /* TEXTURECUBE */, 1}, faces);
    // KTX 1's refusal of the same cube map: the message DDS must give too.
    const auto ktx_parsed = ktx::parse(ktx_bytes({kGlRgbaDxt1, 8, 4, 0, 0, 6}, {{16, faces}}, false));
    REQUIRE(std::holds_alternative<ktx::Error>(ktx_parsed));
    const std::string ktx_message = std::get<ktx::Error>(ktx_parsed).message;
    CHECK(ktx_message == "cube map faces of 8x4 are not square");
    const std::string d = dir("cube");
    for (const auto& [name, bytes] : {std::pair{"legacy", legacy}, std::pair{"DX10", dx10}}) {
        INFO(name << " header");
        const auto parsed = dds::parse(bytes);
        REQUIRE(std::holds_alternative<dds::Error>(parsed));
        CHECK(std::get<dds::Error>(parsed).code == dds::ErrorCode::UnsupportedLayout);
        CHECK(std::get<dds::Error>(parsed).message == ktx_message);
        // The .ktx2 output that used to fail after decoding everything (exit 4): an input error now.
        write_binary_file(d + "/cube.dds", bytes);
        CHECK(run_cli("--backend cpu decode " + d + "/cube.dds " + d + "/cube.ktx2") == 3);
        CHECK(contains(last_cli_stderr(), "'" + d + "/cube.dds': cube map faces of 8x4 are not square"));
        CHECK(!fs::exists(d + "/cube.ktx2"));
        CHECK(run_cli("info " + d + "/cube.dds >/dev/null") == 3);
    }
    // Square cube maps still parse, with both headers.
    const std::vector<uint8_t> square(6 * 8, 0x55);
    CHECK(std::holds_alternative<dds::Texture>(
        dds::parse(legacy_dds({{'D', 'X', 'T', '1'}, 4, 4, 0, 0, 0xFE00}, square))));
    CHECK(std::holds_alternative<dds::Texture>(dds::parse(dx10_dds({kDxgiBc1Unorm, 4, 4, 1, 1, 3, 0x4, 1}, square))));
}

// ---- item 4 ------------------------------------------------------------------------------------

TEST_CASE("Parsers build their surface tables only within the limit they are given", "[cli][dds][ktx][issue34]") {
    // 65536 layers of one 4x4 BC1 block: the data is there (512 KiB), the table is 65536 entries.
    const uint32_t layers = 65536;
    const std::vector<uint8_t> blocks(size_t(layers) * 8, 0);
    const std::vector<uint8_t> dds_file = dx10_dds({kDxgiBc1Unorm, 4, 4, 1, 1, 3, 0, layers}, blocks);
    const uint64_t dds_table = uint64_t(layers) * sizeof(dds::Surface);
    const auto refused = dds::parse_limited(dds_file, dds_table - 1);
    REQUIRE(std::holds_alternative<dds::Error>(refused));
    CHECK(std::get<dds::Error>(refused).code == dds::ErrorCode::TableTooLarge);
    CHECK(contains(std::get<dds::Error>(refused).message,
                   "the header describes 65536 surfaces (65536 layer(s) x 1 mip level(s)): the table of them needs " +
                       std::to_string(dds_table) + " bytes, more than the " + std::to_string(dds_table - 1) +
                       " bytes of memory allowed"));
    CHECK(std::holds_alternative<dds::Texture>(dds::parse_limited(dds_file, dds_table)));
    // Truncated data is reported as such, whatever the limit.
    const std::vector<uint8_t> cut(dds_file.begin(), dds_file.end() - 1);
    const auto truncated = dds::parse_limited(cut, 1);
    REQUIRE(std::holds_alternative<dds::Error>(truncated));
    CHECK(std::get<dds::Error>(truncated).code == dds::ErrorCode::Truncated);

    // KTX 1: a cube array of 8192 elements (49152 faces), 2 levels of one 4x4 BC1 block each.
    const uint32_t elements = 8192, faces = 6;
    const std::vector<uint8_t> level(size_t(elements) * faces * 8, 0);
    const std::vector<uint8_t> ktx_file =
        ktx_bytes({kGlRgbaDxt1, 4, 4, 0, elements, faces, 2},
                  {{uint32_t(level.size()), level}, {uint32_t(level.size()), level}}, false);
    const uint64_t per_level = uint64_t(elements) * faces * sizeof(ktx::Surface);
    const auto ktx_refused = ktx::parse_limited(ktx_file, 2 * per_level - 1);
    REQUIRE(std::holds_alternative<ktx::Error>(ktx_refused));
    CHECK(std::get<ktx::Error>(ktx_refused).code == ktx::ErrorCode::TableTooLarge);
    CHECK(contains(std::get<ktx::Error>(ktx_refused).message, "the header describes 98304 surfaces up to mip level 1"));
    CHECK(std::holds_alternative<ktx::Texture>(ktx::parse_limited(ktx_file, 2 * per_level)));
}

TEST_CASE("CLI --max-memory counts the parsers' surface tables: 8 M DDS layers, 6 M KTX faces refused under 100M",
          "[cli][safety][issue34]") {
    const std::string d = dir("tables");
    // The issue's file: a 64 MiB DX10 DDS of 8 M layers of one 4x4 BC1 block (zeros: a hole).
    const uint32_t dds_layers = 1u << 23;
    write_sparse(d + "/layers.dds", dx10_dds({kDxgiBc1Unorm, 4, 4, 1, 1, 3, 0, dds_layers}, {}),
                 148 + uint64_t(dds_layers) * 8);
    // KTX 1: 2^20 array elements of cube maps (6 M faces) of one 4x4 BC1 block: 48 MiB of data.
    const uint32_t elements = 1u << 20;
    const uint32_t ktx_level = elements * 6 * 8;
    write_sparse(d + "/faces.ktx", ktx_bytes({kGlRgbaDxt1, 4, 4, 0, elements, 6, 1}, {{ktx_level, {}}}, false),
                 64 + 4 + uint64_t(ktx_level));
    for (const auto& [file, surfaces] : {std::pair{"layers.dds", dds_layers}, std::pair{"faces.ktx", elements * 6}}) {
        INFO(file);
        for (const char* output : {"out.png", "out.ktx2"}) {
            long peak_kib = 0;
            const int code = run_cli_measured("exec " + cli_path() + " --backend cpu decode --max-memory 100M " + d +
                                                  "/" + file + " " + d + "/" + output,
                                              peak_kib);
            const std::string err = last_cli_stderr();
            INFO(err);
            INFO("peak resident memory: " << peak_kib << " KiB");
            CHECK(code == 3);
            CHECK(contains(err, "the header describes " + std::to_string(surfaces) + " surfaces"));
            CHECK(contains(err, "(the memory limit: 104857600 bytes (100.0 MiB), --max-memory 100M)"));
            CHECK(peak_kib > 0);
            CHECK(peak_kib < 100 * 1024);
            CHECK(!fs::exists(d + "/" + output));
        }
    }

    // A table that fits is still part of what the decode reserves: 65536 layers (a 2.5 MiB table,
    // 512 KiB of blocks) under 3M: refused, the table named; under 4M: decoded.
    const uint32_t layers = 65536;
    write_binary_file(d + "/array.dds",
                      dx10_dds({kDxgiBc1Unorm, 4, 4, 1, 1, 3, 0, layers}, std::vector<uint8_t>(size_t(layers) * 8, 0)));
    CHECK(run_cli("--backend cpu decode --max-memory 3M " + d + "/array.dds " + d + "/array.png") == 3);
    CHECK(contains(last_cli_stderr(), " + surface table 2.5 MiB + "));
    CHECK(!fs::exists(d + "/array.png"));
    CHECK(run_cli("--backend cpu decode --max-memory 4M " + d + "/array.dds " + d + "/array.png") == 0);
    CHECK(fs::exists(d + "/array.png"));
}

TEST_CASE("CLI: a KTX 2 header claiming 6 M surfaces per level in a few hundred bytes costs no per-surface memory",
          "[cli][safety][ktx2][issue34]") {
    const std::string d = dir("ktx2-table");
    // 2^20 cube-array elements (6 M faces) x 3 levels of 4x4 BC1, Zstandard: each level's stream is a
    // few bytes, its uncompressedByteLength what 6 M blocks need (only a decode inflates, and checks, it).
    const uint32_t elements = 1u << 20;
    Ktx2Spec spec = ktx2_spec(TEXDEC_FORMAT_BC1_RGBA_UNORM, 4, 4, 0, elements, 6, 3, 2);
    Ktx2File file =
        ktx2_bytes(spec, {std::vector<uint8_t>(8, 0), std::vector<uint8_t>(8, 0), std::vector<uint8_t>(8, 0)});
    for (size_t l = 0; l < 3; ++l) put_u64(file.bytes, 80 + 24 * l + 16, uint64_t(elements) * 6 * 8);
    write_binary_file(d + "/claims.ktx2", file.bytes);
    long peak_kib = 0;
    const int code = run_cli_measured("exec " + cli_path() + " info " + d + "/claims.ktx2 >/dev/null", peak_kib);
    INFO(last_cli_stderr());
    INFO("peak resident memory of info: " << peak_kib << " KiB");
    CHECK(code == 0);
    CHECK(peak_kib > 0);
    CHECK(peak_kib < 64 * 1024);  // was about 300 MiB: 18 M surface entries of 16 bytes
    // Decoding it finds the streams wrong (input error), with the memory still small.
    const int decoded = run_cli_measured(
        "exec " + cli_path() + " --backend cpu decode --max-memory 100M " + d + "/claims.ktx2 " + d + "/out.png",
        peak_kib);
    INFO(last_cli_stderr());
    CHECK(decoded == 3);
    CHECK(contains(last_cli_stderr(), "Zstandard frame of mip level 0 holds 8 bytes"));
    CHECK(peak_kib < 100 * 1024);
}

// ---- item 5 ------------------------------------------------------------------------------------

namespace {

// Checks `json_path` with python3's json module reading the file as strict UTF-8 (raw invalid bytes
// fail there), every string re-encoded as strict UTF-8 (a lone surrogate escape fails there), and
// then that the paths it names, decoded as --help says (NAME_base64 where present), are exactly
// `expected` (one path a line in expected_path, as bytes). `kind`: "decode" or "info".
bool json_names_exact_paths(const std::string& json_path, const std::string& expected_path, const std::string& kind,
                            const std::string& out_dir) {
    const std::string script = json_path + ".py";
    std::string text =
        "import base64, json, os, sys\n"
        "doc = json.load(open(sys.argv[1], encoding='utf-8', errors='strict'))\n"
        "def walk(v):\n"
        "    if isinstance(v, str): v.encode('utf-8', 'strict')\n"
        "    elif isinstance(v, list): [walk(x) for x in v]\n"
        "    elif isinstance(v, dict): [walk(k) or walk(x) for k, x in v.items()]\n"
        "walk(doc)\n"
        "def exact(obj, name):\n"
        "    if name + '_base64' in obj: return base64.b64decode(obj[name + '_base64'], validate=True)\n"
        "    return obj[name].encode('utf-8')\n"
        "want = set(open(sys.argv[2], 'rb').read().split(b'\\0')) - {b''}\n"
        "got = set(exact(f, 'input') for f in doc['files'])\n"
        "assert got == want, (got, want)\n"
        "if sys.argv[3] == 'decode':\n"
        "    for f in doc['files']:\n"
        "        assert f['status'] == 'ok', f\n"
        "        for o in f['outputs']:\n"
        "            p = exact(o, 'path')\n"
        "            assert os.path.isfile(p), p\n"
        "            assert os.path.dirname(p) == sys.argv[4].encode(), p\n"
        "    skipped = doc['skipped']\n"
        "    raw = doc.get('skipped_base64', [None] * len(skipped))\n"
        "    names = [base64.b64decode(r) if r else s.encode('utf-8') for s, r in zip(skipped, raw)]\n"
        "    assert names == [os.path.join(os.path.dirname(next(iter(want))), b'junk\\xff.txt')], names\n"
        "print('ok', len(doc['files']))\n";
    write_binary_file(script, std::vector<uint8_t>(text.begin(), text.end()));
    return std::system(
               ("python3 " + script + " " + json_path + " " + expected_path + " " + kind + " " + out_dir).c_str()) == 0;
}

}  // namespace

TEST_CASE("CLI --json is JSON for any file name: invalid UTF-8 and control characters escaped, bytes recoverable",
          "[cli][json][issue34]") {
    const std::string d = dir("json-names");
    const std::string in = d + "/in", out = d + "/out";
    fs::create_directories(in);
    const std::vector<uint8_t> dds = legacy_dds({{'D', 'X', 'T', '1'}, 4, 4}, std::vector<uint8_t>(8, 0x33));
    // Latin-1 bytes, a lone continuation byte, a truncated sequence, an encoded surrogate, an
    // overlong '/', then newline, quote, backslash, tab, escape and DEL; and a valid UTF-8 name.
    const std::vector<std::string> names = {"caf\xe9-\x80-\xe2\x82.dds", "sur\xed\xa0\x80-\xc0\xaf.dds",
                                            "nl\nq\"b\\t\tesc\x1b"
                                            "del\x7f.dds",
                                            "\xc3\xa9t\xc3\xa9-\xf0\x9f\x98\x80.dds"};
    std::string expected;
    for (const std::string& name : names) {
        write_binary_file(in + "/" + name, dds);
        expected += in + "/" + name + '\0';
    }
    write_binary_file(d + "/expected.bin", std::vector<uint8_t>(expected.begin(), expected.end()));
    write_binary_file(in + "/junk\xff.txt", {'h', 'i', '\n'});  // skipped: not a texture file

    CHECK(run_cli("--backend cpu decode --out-dir " + out + " --json=" + d + "/decode.json " + in) == 0);
    INFO(last_cli_stderr());
    CHECK(json_names_exact_paths(d + "/decode.json", d + "/expected.bin", "decode", out));
    // Standard output too, and `info --json`.
    CHECK(run_cli("--backend cpu decode --out-dir " + out + " --json " + in + " > " + d + "/stdout.json") == 0);
    CHECK(json_names_exact_paths(d + "/stdout.json", d + "/expected.bin", "decode", out));
    std::string args;
    for (const std::string& name : names) args += " '" + in + "/" + name + "'";
    CHECK(run_cli("info --json=" + d + "/info.json" + args) == 0);
    CHECK(json_names_exact_paths(d + "/info.json", d + "/expected.bin", "info", ""));
    // What the text says: U+FFFD for each byte that is not UTF-8, the control characters escaped,
    // the valid name as is (and no _base64 twin for it).
    const std::string text = read_text(d + "/info.json");
    CHECK(contains(text, "caf\\ufffd-\\ufffd-\\ufffd\\ufffd.dds"));
    CHECK(contains(text, "sur\\ufffd\\ufffd\\ufffd-\\ufffd\\ufffd.dds"));
    CHECK(contains(text, "nl\\nq\\\"b\\\\t\\tesc\\u001bdel\x7f.dds\""));
    CHECK(contains(text, "\xc3\xa9t\xc3\xa9-\xf0\x9f\x98\x80.dds\","));
}

// ---- item 6 ------------------------------------------------------------------------------------

namespace {

// "#define NAME 0x1234" and "NAME = 1234," lines of a system header: name -> value.
std::map<std::string, uint32_t> header_values(const std::string& path) {
    std::map<std::string, uint32_t> values;
    std::ifstream in(path);
    const std::regex define(R"(^#define\s+(GL_\w+)\s+(0x[0-9A-Fa-f]+)\s*$)"),
        enumerator(R"(^\s+(VK_FORMAT_\w+) = (\d+),)");
    std::smatch m;
    for (std::string line; std::getline(in, line);)
        if (std::regex_search(line, m, define) || std::regex_search(line, m, enumerator))
            values[m[1]] = uint32_t(std::stoul(m[2], nullptr, 0));
    return values;
}

}  // namespace

TEST_CASE("CLI -v and --json give the encode time of every writer (TGA, EXR, HDR, KTX 2 as PNG)",
          "[cli][json][issue34]") {
    const std::string d = dir("encode");
    std::vector<uint8_t> blocks(128 * 128 * 8);
    for (size_t i = 0; i < blocks.size(); ++i) blocks[i] = uint8_t(i * 131 + (i >> 7));
    write_binary_file(d + "/in.dds", legacy_dds({{'D', 'X', 'T', '1'}, 512, 512}, blocks));
    for (const char* kind : {"png", "tga", "exr", "hdr", "ktx2"}) {
        INFO(kind);
        const std::string out = d + "/out." + kind;
        REQUIRE(run_cli("--backend cpu -v decode --json=" + d + "/r.json " + d + "/in.dds " + out) == 0);
        const std::string err = last_cli_stderr();
        INFO(err);
        CHECK(contains(err, ", encode "));
        CHECK((!contains(err, ", encode 0.0 ms") || std::string(kind) == "ktx2"));  // -v: one decimal
        const std::string check =
            "import json, sys\n"
            "p = json.load(open(sys.argv[1]))['files'][0]['phases']\n"
            "assert p['encode_ms'] > 0 and p['write_ms'] > 0, p\n";
        write_binary_file(d + "/check.py", std::vector<uint8_t>(check.begin(), check.end()));
        CHECK(std::system(("python3 " + d + "/check.py " + d + "/r.json").c_str()) == 0);
    }
}

TEST_CASE("KTX2 DFD: the sample count and channel ids are checked like every other field (warnings)",
          "[cli][ktx2][issue34]") {
    // Every format's DFD as KTX-Software writes it: no warning.
    for (int f = TEXDEC_FORMAT_BC1_RGB_UNORM; f <= TEXDEC_FORMAT_ASTC_6x6x6_SFLOAT; ++f) {
        texdec_format_info info{};
        if (texdec_format_get_info(texdec_format(f), &info) != TEXDEC_SUCCESS) continue;
        INFO(info.name);
        const Ktx2Spec spec = ktx2_spec(texdec_format(f), info.block_width, info.block_height,
                                        info.block_depth > 1 ? info.block_depth : 0);
        const auto parsed = ktx2::parse(ktx2_bytes(spec, {std::vector<uint8_t>(info.bytes_per_block, 0)}).bytes);
        REQUIRE(std::holds_alternative<ktx2::Texture>(parsed));
        CHECK(std::get<ktx2::Texture>(parsed).warnings.empty());
    }
    struct Case {
        texdec_format format;
        std::vector<uint32_t> channels;
        const char* warning;  // nullptr: none
    };
    const Case cases[] = {
        {TEXDEC_FORMAT_BC3_UNORM, {0}, "the DFD's basic block has 1 sample(s), but bc3-unorm data is described by 2"},
        {TEXDEC_FORMAT_BC1_RGBA_UNORM,
         {0},
         "the DFD's samples have channelId 0, but bc1-rgba-unorm data has channelId 1"},
        {TEXDEC_FORMAT_BC5_UNORM,
         {0, 0},
         "the DFD's samples have channelId 0, 0, but bc5-unorm data has channelId 0, 1"},
        {TEXDEC_FORMAT_ASTC_4x4_UNORM, {0, 15}, "has 2 sample(s), but astc-4x4-unorm data is described by 1"},
        {TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM, {2, 15}, nullptr},  // order is the bit layout's, not checked
        {TEXDEC_FORMAT_ETC2_R8G8B8A1_UNORM, {2, 15}, nullptr},  // KTX-Software 4.3+
        {TEXDEC_FORMAT_ETC2_R8G8B8A1_UNORM, {2}, nullptr},      // older writers
        {TEXDEC_FORMAT_ETC2_R8G8B8A1_UNORM, {0}, "channelId 0, but etc2-r8g8b8a1-unorm data has channelId 2 or 2, 15"},
        {TEXDEC_FORMAT_ETC2_R8G8B8_UNORM,
         {},
         "the DFD's samples have channelId 0, but etc2-r8g8b8-unorm data has channelId 2"},
    };
    const std::string d = dir("dfd");
    for (const Case& c : cases) {
        texdec_format_info info{};
        REQUIRE(texdec_format_get_info(c.format, &info) == TEXDEC_SUCCESS);
        INFO(info.name << " with " << c.channels.size() << " sample(s)");
        Ktx2Spec spec = ktx2_spec(c.format, 8, 8);
        spec.channels = c.channels;
        const std::vector<uint8_t> bytes = ktx2_bytes(spec, {std::vector<uint8_t>(4 * info.bytes_per_block, 0)}).bytes;
        const auto parsed = ktx2::parse(bytes);
        REQUIRE(std::holds_alternative<ktx2::Texture>(parsed));  // a warning, never a refusal
        const std::vector<std::string>& warnings = std::get<ktx2::Texture>(parsed).warnings;
        if (!c.warning) {
            CHECK(warnings.empty());
            continue;
        }
        REQUIRE(warnings.size() == 1);
        CHECK(contains(warnings[0], c.warning));
        CHECK(contains(warnings[0], "decoded as vkFormat"));
        write_binary_file(d + "/f.ktx2", bytes);
        CHECK(run_cli("info " + d + "/f.ktx2 >/dev/null") == 0);
        CHECK(contains(last_cli_stderr(), c.warning));
    }
    // A block size that is not 24 + 16 per sample.
    const Ktx2File file = ktx2_bytes(ktx2_spec(TEXDEC_FORMAT_BC7_UNORM, 4, 4), {std::vector<uint8_t>(16, 0)});
    std::vector<uint8_t> odd = file.bytes;
    put_u32(odd, file.dfd_offset + 8, 2u | 36u << 16);
    const auto parsed = ktx2::parse(odd);
    REQUIRE(std::holds_alternative<ktx2::Texture>(parsed));
    const std::vector<std::string>& warnings = std::get<ktx2::Texture>(parsed).warnings;
    REQUIRE(warnings.size() == 2);  // and the sample count that leaves (0)
    CHECK(contains(warnings[0], "descriptorBlockSize 36 of the DFD's basic block is not 24 bytes plus 16 per sample"));
    CHECK(contains(warnings[1], "the DFD's basic block has 0 sample(s), but bc7-unorm data is described by 1"));
}

TEST_CASE("Formats texdec cannot decode are named, and why, in every container (one table)", "[cli][names][issue34]") {
    const std::string why_uncompressed =
        "an uncompressed format; texdec decodes block-compressed formats only "
        "(BC1-BC7, ETC1/ETC2/EAC and ASTC)";
    const std::string why_bc = "a block-compressed format texdec does not decode";
    const auto dds_message = [](const std::vector<uint8_t>& bytes) {
        const auto r = dds::parse(bytes);
        return std::holds_alternative<dds::Error>(r) ? std::get<dds::Error>(r).message : std::string("(parsed)");
    };
    const std::vector<uint8_t> block(16, 0);
    // DXGI numbers beyond the common eight.
    CHECK(dds_message(dx10_dds({10, 4, 4}, block)) ==
          "DXGI format 10 (DXGI_FORMAT_R16G16B16A16_FLOAT) is " + why_uncompressed);
    CHECK(dds_message(dx10_dds({26, 4, 4}, block)) ==
          "DXGI format 26 (DXGI_FORMAT_R11G11B10_FLOAT) is " + why_uncompressed);
    CHECK(contains(dds_message(dx10_dds({45, 4, 4}, block)),
                   "(DXGI_FORMAT_D24_UNORM_S8_UINT) is a depth/stencil format"));
    CHECK(contains(dds_message(dx10_dds({103, 4, 4}, block)), "(DXGI_FORMAT_NV12) is a video (YUV) or palette format"));
    CHECK(
        contains(dds_message(dx10_dds({115, 4, 4}, block)), "(DXGI_FORMAT_B4G4R4A4_UNORM) is an uncompressed format"));
    CHECK(
        contains(dds_message(dx10_dds({191, 4, 4}, block)), "(DXGI_FORMAT_A4B4G4R4_UNORM) is an uncompressed format"));
    // NVTT's unused ASTC values: no contradiction with the range.
    CHECK(dds_message(dx10_dds({136, 4, 4}, block)) ==
          "DXGI format 136 is no format: NVTT's ASTC values run in fours from 133, TYPELESS, UNORM and UNORM_SRGB of "
          "each footprint, and 136 is the unused fourth of the ASTC_4X4 run (133-135)");
    CHECK(contains(dds_message(dx10_dds({188, 4, 4}, block)),
                   "188 is the unused fourth of the ASTC_12X12 run (185-187)"));
    CHECK(dds_message(dx10_dds({250, 4, 4}, block)) ==
          "DXGI format 250 is no DXGI_FORMAT value this tool knows (it reads BC1-BC7, 70-84 and 94-99, and the ASTC "
          "values NVTT writes, 133-187)");
    // Direct3D 9 formats in a legacy header's FourCC field.
    const auto d3d = [&](uint32_t code) {
        std::vector<uint8_t> bytes = legacy_dds({{'D', 'X', 'T', '1'}, 4, 4}, block);
        put_u32(bytes, 4 + 80, code);
        return dds_message(bytes);
    };
    const char* d3d_names[] = {"D3DFMT_R16F",    "D3DFMT_G16R16F",       "D3DFMT_A16B16G16R16F", "D3DFMT_R32F",
                               "D3DFMT_G32R32F", "D3DFMT_A32B32G32R32F", "D3DFMT_CxV8U8"};
    for (uint32_t code = 111; code <= 117; ++code) {
        char fourcc[40];
        std::snprintf(fourcc, sizeof fourcc, "FourCC 0x%08X (%u) is ", code, code);
        CHECK(d3d(code) == fourcc + std::string(d3d_names[code - 111]) + ", " + why_uncompressed);
    }
    CHECK(contains(d3d(36), "is D3DFMT_A16B16G16R16, an uncompressed format"));
    CHECK(contains(d3d('Y' | 'U' << 8 | 'Y' << 16 | '2' << 24), "FourCC 'YUY2' is D3DFMT_YUY2, a video (YUV)"));
    CHECK(contains(d3d('A' | 'B' << 8 | 'C' << 16 | 'D' << 24), "unknown FourCC 'ABCD' (known: "));

    // KTX 1 and KTX 2: the numbers come from the system's GL and Vulkan headers.
    std::map<std::string, uint32_t> gl = header_values("/usr/include/GLES2/gl2ext.h");
    for (const char* header : {"/usr/include/GL/glext.h", "/usr/include/GL/gl.h"})
        for (const auto& [name, value] : header_values(header)) gl.emplace(name, value);
    for (const char* name :
         {"GL_COMPRESSED_SRGB_ALPHA_PVRTC_2BPPV1_EXT", "GL_COMPRESSED_SRGB_ALPHA_PVRTC_4BPPV1_EXT",
          "GL_COMPRESSED_SRGB_PVRTC_2BPPV1_EXT", "GL_COMPRESSED_RGB_PVRTC_4BPPV1_IMG",
          "GL_COMPRESSED_RGBA_PVRTC_2BPPV2_IMG", "GL_COMPRESSED_SRGB_ALPHA_PVRTC_4BPPV2_IMG", "GL_ATC_RGB_AMD",
          "GL_ATC_RGBA_INTERPOLATED_ALPHA_AMD", "GL_3DC_XY_AMD", "GL_COMPRESSED_LUMINANCE_LATC1_EXT",
          "GL_COMPRESSED_SIGNED_LUMINANCE_ALPHA_LATC2_EXT", "GL_COMPRESSED_RGB_FXT1_3DFX", "GL_RGBA8",
          "GL_SRGB8_ALPHA8", "GL_RGBA16F", "GL_RGBA32F", "GL_R11F_G11F_B10F", "GL_RGB9_E5"}) {
        INFO(name);
        REQUIRE(gl.count(name) == 1);
        const auto r = ktx::parse(ktx_bytes({gl[name], 8, 8}, {{32, std::vector<uint8_t>(32, 0)}}, false));
        REQUIRE(std::holds_alternative<ktx::Error>(r));
        char number[16];
        std::snprintf(number, sizeof number, "0x%04X", gl[name]);
        CHECK(std::get<ktx::Error>(r).message ==
              "glInternalFormat " + std::string(number) + " (" + name + ") is " +
                  (std::string(name).find("COMPRESSED") != std::string::npos || contains(name, "_AMD")
                       ? why_bc
                       : why_uncompressed) +
                  (contains(name, "COMPRESSED") || contains(name, "_AMD")
                       ? " (it decodes BC1-BC7, ETC1/ETC2/EAC and ASTC)"
                       : ""));
    }
    size_t named = 0;
    for (const auto& [name, value] : header_values("/usr/include/vulkan/vulkan_core.h")) {
        if (value == 0 || texdec_format_from_vk(VkFormat(value)) != TEXDEC_FORMAT_UNDEFINED) continue;
        if (contains(name, "_KHR") || contains(name, "_EXT")) continue;  // aliases
        INFO(name << " = " << value);
        Ktx2Spec spec = ktx2_spec(TEXDEC_FORMAT_BC7_UNORM, 4, 4);
        spec.vk_format = value;
        const auto r = ktx2::parse(ktx2_bytes(spec, {std::vector<uint8_t>(16, 0)}).bytes);
        REQUIRE(std::holds_alternative<ktx2::Error>(r));
        const std::string message = std::get<ktx2::Error>(r).message;
        const std::string shown = name == "VK_FORMAT_R16G16_S10_5_NV" ? "VK_FORMAT_R16G16_SFIXED5_NV" : name;
        CHECK(contains(message, "vkFormat " + std::to_string(value) + " (" + shown + ") is "));
        named += contains(message, " (" + shown + ") is ");
    }
    CHECK(named > 170);
    // Through the CLI (info and decode say the same).
    const std::string d = dir("names");
    Ktx2Spec ycbcr = ktx2_spec(TEXDEC_FORMAT_BC7_UNORM, 4, 4);
    ycbcr.vk_format = 1000156000;
    for (const auto& [file, bytes, message] :
         {std::tuple{"a.dds", dx10_dds({26, 4, 4}, block),
                     "DXGI format 26 (DXGI_FORMAT_R11G11B10_FLOAT) is an uncompressed"},
          std::tuple{"b.dds", legacy_dds({{'q', 0, 0, 0}, 4, 4}, block),
                     "(113) is D3DFMT_A16B16G16R16F, an uncompressed"},
          std::tuple{
              "c.ktx", ktx_bytes({0x8A57, 8, 8}, {{32, std::vector<uint8_t>(32, 0)}}, false),
              "glInternalFormat 0x8A57 (GL_COMPRESSED_SRGB_ALPHA_PVRTC_4BPPV1_EXT) is a block-compressed format"},
          std::tuple{"d.ktx2", ktx2_bytes(ycbcr, {std::vector<uint8_t>(16, 0)}).bytes,
                     "vkFormat 1000156000 (VK_FORMAT_G8B8G8R8_422_UNORM) is a video (YUV) or palette format"}}) {
        INFO(file);
        write_binary_file(d + "/" + file, bytes);
        CHECK(run_cli(std::string("info ") + d + "/" + file + " >/dev/null") == 3);
        CHECK(contains(last_cli_stderr(), message));
        CHECK(run_cli(std::string("--backend cpu decode ") + d + "/" + file + " " + d + "/out.png") == 3);
        CHECK(contains(last_cli_stderr(), message));
    }
    // Newer than the headers here: VK_KHR_maintenance5's formats.
    for (const auto& [value, name] :
         {std::pair{1000470000u, "VK_FORMAT_A1B5G5R5_UNORM_PACK16"}, std::pair{1000470001u, "VK_FORMAT_A8_UNORM"}}) {
        Ktx2Spec spec = ktx2_spec(TEXDEC_FORMAT_BC7_UNORM, 4, 4);
        spec.vk_format = value;
        const auto r = ktx2::parse(ktx2_bytes(spec, {std::vector<uint8_t>(16, 0)}).bytes);
        REQUIRE(std::holds_alternative<ktx2::Error>(r));
        CHECK(std::get<ktx2::Error>(r).message ==
              "vkFormat " + std::to_string(value) + " (" + name + ") is " + why_uncompressed);
    }
}

TEST_CASE("CLI --help lists every DDS FourCC and DXGI range the parser reads", "[cli][names][issue34]") {
    const std::string d = dir("help");
    REQUIRE(run_cli("--help > " + d + "/help.txt") == 0);
    const std::string help = read_text(d + "/help.txt");
    const std::string dds = help.substr(help.find("  .dds "), help.find("  .ktx ") - help.find("  .dds "));
    for (const char* code : {"DXT1", "DXT2", "DXT3", "DXT4", "DXT5", "ATI1", "BC4U", "BC4S", "ATI2", "BC5U",
                             "BC5S", "RXGB", "ETC ", "ETC1", "ETC2", "ETCA", "ETCP", "ETCS", "ETCT", "ETCU"}) {
        INFO(code);
        std::vector<uint8_t> bytes =
            legacy_dds({{code[0], code[1], code[2], code[3]}, 4, 4}, std::vector<uint8_t>(16, 0));
        CHECK(std::holds_alternative<dds::Texture>(dds::parse(bytes)));
        CHECK(contains(dds, code[3] == ' ' ? "'ETC '" : code));
    }
    CHECK(contains(dds, "133-187"));
    CHECK(contains(dds, "70-84, 94-99"));
    CHECK(std::holds_alternative<dds::Texture>(dds::parse(dx10_dds({187, 12, 12}, std::vector<uint8_t>(16, 0)))));
}

TEST_CASE("CLI refuses --threads on the GPU backend and an empty --device, as it refuses --device on the CPU backend",
          "[cli][issue34]") {
    const std::string d = dir("threads");
    write_binary_file(d + "/in.dds", legacy_dds({{'D', 'X', 'T', '1'}, 4, 4}, std::vector<uint8_t>(8, 0)));
    const std::string files = " " + d + "/in.dds " + d + "/out.png";
    for (const auto& [args, source] : {std::pair{"--backend gpu --threads 2 decode", "--backend gpu"},
                                       std::pair{"--device 0 --threads 2 decode", "--device"},
                                       std::pair{"--threads 2 decode", "TEXDEC_BACKEND=gpu"}}) {
        INFO(args);
        CHECK(run_cli_command("TEXDEC_BACKEND=gpu " + cli_path() + " " + args + files) == 2);
        CHECK(contains(last_cli_stderr(), std::string("--threads sets the CPU backend's threads; ") + source +
                                              " decodes on a Vulkan device, which has none to set"));
        CHECK(!fs::exists(d + "/out.png"));
    }
    for (const char* empty : {"--device ''", "--device=", "--device= --backend gpu"}) {
        INFO(empty);
        CHECK(run_cli(std::string(empty) + " decode" + files) == 2);
        CHECK(contains(last_cli_stderr(), "--device '' names no device"));
        CHECK(!fs::exists(d + "/out.png"));
    }
    // The CPU backend still takes --threads.
    CHECK(run_cli("--backend cpu --threads 2 decode" + files) == 0);
}

#include "corpus_files.h"

#include <catch2/catch.hpp>

#include <stb/stb_image.h>  // implemented in test_cli.cpp

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "gpu/gpu_fixture.h"
#include "support/cli_runner.h"

namespace texdec_test {
namespace {

uint32_t le32(const std::vector<uint8_t>& b, size_t at) {
    return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}

}  // namespace

std::string corpus_root() {
    const char* root = std::getenv("TEXDEC_CORPUS");
    if (!root || !*root) {
        skip_loudly(
            "TEXDEC_CORPUS is not set: the corpus was NOT checked (0 files). Set TEXDEC_CORPUS to the "
            "corpus folder (the shared test corpus of real files)");
        return "";
    }
    INFO("TEXDEC_CORPUS=" << root);
    REQUIRE(std::filesystem::is_directory(std::string(root) + "/piglit"));
    return root;
}

ExpectedImage read_expected_ktx1(const std::string& path) {
    const std::vector<uint8_t> b = read_binary_file(path);
    INFO(path);
    REQUIRE(b.size() >= 64);
    REQUIRE(le32(b, 12) == 0x04030201u);
    ExpectedImage e;
    const uint32_t gl_type = le32(b, 16), gl_format = le32(b, 24);
    REQUIRE((gl_type == 0x1401 || gl_type == 0x140B));      // GL_UNSIGNED_BYTE, GL_HALF_FLOAT
    REQUIRE((gl_format == 0x1907 || gl_format == 0x1908));  // GL_RGB, GL_RGBA
    e.bytes_per_channel = gl_type == 0x1401 ? 1 : 2;
    e.channels = gl_format == 0x1907 ? 3 : 4;
    e.width = le32(b, 36), e.height = le32(b, 40), e.depth = std::max(1u, le32(b, 44));
    REQUIRE((le32(b, 48) == 0 && le32(b, 52) == 1));
    const uint32_t levels = std::max(1u, le32(b, 56));
    size_t at = 64 + size_t(le32(b, 60));
    for (uint32_t l = 0; l < levels; ++l) {
        const uint32_t w = std::max(1u, e.width >> l), h = std::max(1u, e.height >> l), d = std::max(1u, e.depth >> l);
        const size_t row = size_t(w) * e.channels * e.bytes_per_channel, padded = (row + 3) / 4 * 4;
        REQUIRE(at + 4 <= b.size());
        const uint32_t image_size = le32(b, at);
        at += 4;
        // KTX 1 pads rows to 4 bytes; piglit's ETC files (RGB, small mips) were written without it.
        const size_t stride = image_size == row * h * d ? row : padded;
        REQUIRE(image_size == stride * h * d);
        REQUIRE(at + image_size <= b.size());
        std::vector<uint8_t> level;
        for (size_t r = 0; r < size_t(h) * d; ++r)
            level.insert(level.end(), b.begin() + at + r * stride, b.begin() + at + r * stride + row);
        e.levels.push_back(std::move(level));
        at += (image_size + 3) / 4 * 4;
    }
    return e;
}

PnmImage read_expected_image(const std::string& stem) {
    PnmImage image;
    for (const char* ext : {".ppm", ".pgm", ".tga"})
        if (std::filesystem::exists(stem + ext)) image.path = stem + ext;
    INFO(stem);
    REQUIRE_FALSE(image.path.empty());
    if (image.path.size() > 4 && image.path.compare(image.path.size() - 4, 4, ".tga") == 0) {
        int w = 0, h = 0, n = 0;
        unsigned char* pixels = stbi_load(image.path.c_str(), &w, &h, &n, 0);
        REQUIRE(pixels != nullptr);
        image.width = uint32_t(w), image.height = uint32_t(h), image.channels = uint32_t(n);
        image.samples.assign(pixels, pixels + size_t(w) * h * n);
        stbi_image_free(pixels);
        return image;
    }
    const std::vector<uint8_t> b = read_binary_file(image.path);
    // Header: magic, width, height, maxval, separated by whitespace, then one whitespace byte.
    size_t at = 0;
    auto token = [&] {
        while (at < b.size() && std::isspace(b[at])) ++at;
        std::string t;
        while (at < b.size() && !std::isspace(b[at])) t += char(b[at++]);
        return t;
    };
    const std::string magic = token();
    REQUIRE((magic == "P5" || magic == "P6"));
    image.channels = magic == "P5" ? 1 : 3;
    image.width = uint32_t(std::stoul(token()));
    image.height = uint32_t(std::stoul(token()));
    const unsigned maxval = unsigned(std::stoul(token()));
    REQUIRE((maxval == 255 || maxval == 65535));
    ++at;
    const size_t count = size_t(image.width) * image.height * image.channels, bytes = maxval == 255 ? 1 : 2;
    REQUIRE(at + count * bytes <= b.size());
    for (size_t i = 0; i < count; ++i)
        image.samples.push_back(bytes == 1 ? b[at + i] : b[at + 2 * i] << 8 | b[at + 2 * i + 1]);
    return image;
}

std::vector<JsonFileStatus> read_json_statuses(const std::string& json_path) {
    // Python's json module turns the results into tab-separated lines (the tests have no JSON parser).
    const std::string tsv = json_path + ".tsv";
    const std::string script =
        "import json,sys\n"
        "for f in json.load(open(sys.argv[1]))['files']:\n"
        "    print('\\t'.join([f['input'], f['status'], str(f['exit_code']), f.get('message','').replace('\\t',' ').replace('\\n',' ')]))\n";
    const std::string script_path = json_path + ".py";
    write_binary_file(script_path, std::vector<uint8_t>(script.begin(), script.end()));
    REQUIRE(std::system(("python3 " + script_path + " " + json_path + " > " + tsv).c_str()) == 0);
    std::ifstream in(tsv);
    std::vector<JsonFileStatus> statuses;
    for (std::string line; std::getline(in, line);) {
        std::istringstream fields(line);
        JsonFileStatus s;
        std::string code;
        std::getline(fields, s.input, '\t');
        std::getline(fields, s.status, '\t');
        std::getline(fields, code, '\t');
        std::getline(fields, s.message, '\t');
        s.exit_code = std::atoi(code.c_str());
        statuses.push_back(s);
    }
    REQUIRE_FALSE(statuses.empty());
    return statuses;
}

}  // namespace texdec_test

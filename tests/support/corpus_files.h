// Reading the shared corpus of real files from the tests: where it is ($TEXDEC_CORPUS), piglit's uncompressed
// KTX 1 expected files, ETCPACK's PPM / PGM / TGA expected images, and the per-file statuses of
// astc-gpu-decode's --json output.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace texdec_test {

// $TEXDEC_CORPUS, or "" after skip_loudly() when it is not set (the caller returns).
std::string corpus_root();

// An uncompressed KTX 1.1 file as piglit's expected outputs are: little-endian, GL_RGB or GL_RGBA,
// GL_UNSIGNED_BYTE or GL_HALF_FLOAT, one array element, one face. Rows are padded to 4 bytes (KTX 1's
// GL_UNPACK_ALIGNMENT) or, where imageSize says so, not; `levels` holds them unpadded: x fastest,
// then y, then z.
struct ExpectedImage {
    uint32_t channels = 0, bytes_per_channel = 0;
    uint32_t width = 0, height = 0, depth = 1;
    std::vector<std::vector<uint8_t>> levels;
};
ExpectedImage read_expected_ktx1(const std::string& path);

// A binary PPM (P6) / PGM (P5) with maxval 255 or 65535 (16-bit big-endian samples), or a TGA (via
// stb_image, its own channel count): samples as ints, row-major from the top.
struct PnmImage {
    std::string path;
    uint32_t width = 0, height = 0, channels = 0;
    std::vector<int> samples;
    int sample(size_t texel, uint32_t channel) const { return samples[texel * channels + channel]; }
};
// `stem` + ".ppm", ".pgm" or ".tga", whichever exists.
PnmImage read_expected_image(const std::string& stem);

// Per input of an astc-gpu-decode --json file: status ("ok", "failed", "mismatch"), exit code, message.
struct JsonFileStatus {
    std::string input, status, message;
    int exit_code = 0;
};
std::vector<JsonFileStatus> read_json_statuses(const std::string& json_path);

}  // namespace texdec_test

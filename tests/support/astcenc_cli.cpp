#include "support/astcenc_cli.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include <tinyexr.h>

#include "support/container_files.h"  // astc_file_bytes
#include "support/random_blocks.h"  // SplitMix64

namespace texdec_test {

std::string astcenc_cli_unavailable_reason() {
    if (std::system("command -v astcenc >/dev/null 2>&1") != 0)
        return "the astcenc CLI is not installed (Debian package astcenc)";
    return {};
}

void write_procedural_tga(const std::filesystem::path& file, unsigned w, unsigned h, uint64_t seed) {
    std::vector<uint8_t> data(18, 0);
    data[2] = 2;  // uncompressed true colour
    data[12] = uint8_t(w), data[13] = uint8_t(w >> 8), data[14] = uint8_t(h), data[15] = uint8_t(h >> 8);
    data[16] = 32, data[17] = 0x28;  // 8 alpha bits, top-left origin
    SplitMix64 rng(seed);
    for (unsigned y = 0; y < h; ++y)
        for (unsigned x = 0; x < w; ++x) {
            uint8_t r = uint8_t(x * 255 / (w > 1 ? w - 1 : 1)), g = uint8_t(y * 255 / (h > 1 ? h - 1 : 1));
            uint8_t b = uint8_t(((x / 7) + (y / 5)) % 2 ? 230 : 20), a = uint8_t(255 - (x + y) * 2);
            if (x > w * 2 / 3 && y > h * 11 / 20)  // 61x47: x > 40, y > 25
                r = uint8_t(rng.next()), g = uint8_t(rng.next()), b = uint8_t(rng.next());
            if (y < 10) a = 255;
            data.push_back(b), data.push_back(g), data.push_back(r), data.push_back(a);  // BGRA
        }
    std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size()));
}

std::string write_procedural_exr(const std::filesystem::path& file, unsigned w, unsigned h, uint64_t seed) {
    std::vector<float> rgba(size_t(w) * h * 4);
    SplitMix64 rng(seed);
    auto uniform = [&] { return float(rng.next() >> 40) / float(1u << 24); };  // [0, 1)
    for (unsigned y = 0; y < h; ++y)
        for (unsigned x = 0; x < w; ++x) {
            float* p = &rgba[(size_t(y) * w + x) * 4];
            const float base = std::exp2(-12.0f + 27.0f * float(x) / float(w > 1 ? w - 1 : 1));
            const float fy = float(y) / float(h > 1 ? h - 1 : 1);
            if (fy < 0.2f) {  // grey
                p[0] = p[1] = p[2] = base;
            } else if (fy < 0.45f) {  // colour ramps
                const float t = (fy - 0.2f) / 0.25f;
                p[0] = base * (1 + 2 * t), p[1] = base * (1 - 0.8f * t), p[2] = base * 0.3f * (1 + t);
            } else if (fy < 0.6f) {  // hard edges
                p[0] = (x / 5 + y / 3) % 2 ? base * 8 : base * 0.01f;
                p[1] = p[0] * 0.5f;
                p[2] = (x / 7) % 2 ? p[0] : p[0] * 0.001f;
            } else if (x < w / 3) {  // constant colour
                p[0] = 3.5f, p[1] = 0.25f, p[2] = 100.0f;
            } else {  // noise
                for (int c = 0; c < 3; ++c) p[c] = uniform() < 0.05f ? 0.0f : std::exp2(-14.0f + 30.0f * uniform());
            }
            p[3] = x < w / 3 ? 1.0f : x < 2 * w / 3 ? fy : std::exp2(-4.0f + 10.0f * fy);
        }
    const char* err = nullptr;
    if (SaveEXR(rgba.data(), int(w), int(h), 4, 1, file.string().c_str(), &err) < 0) {
        std::string why = "tinyexr SaveEXR(" + file.string() + ") failed: " + (err ? err : "?");
        if (err) FreeEXRErrorMessage(err);
        return why;
    }
    return {};
}

namespace {

std::string run_encoder(const char* flag, const std::filesystem::path& in, const std::filesystem::path& out,
                        AstcFootprint fp, const std::string& extra) {
    char size[32];  // snprintf: GCC 12 warns falsely (-Wrestrict) on "x" + std::to_string(...)
    if (fp.z > 1)
        std::snprintf(size, sizeof size, "%ux%ux%u", fp.x, fp.y, fp.z);
    else
        std::snprintf(size, sizeof size, "%ux%u", fp.x, fp.y);
    std::string cmd = "astcenc ";
    cmd += std::string(flag) + " '" + in.string() + "' '" + out.string() + "' " + size + " " + extra + " -silent >/dev/null 2>&1";
    if (std::system(cmd.c_str()) != 0) return "astcenc CLI failed: " + cmd;
    return {};
}

}  // namespace

std::string astcenc_cli_encode(AstcProfile profile, const std::filesystem::path& in, const std::filesystem::path& out,
                               AstcFootprint fp, const std::string& extra) {
    return run_encoder(profile == AstcProfile::ldr ? "-cl" : profile == AstcProfile::ldr_srgb ? "-cs" : "-cH", in, out, fp,
                       extra);
}

std::string astcenc_cli_encode_hdr(bool hdr_alpha, const std::filesystem::path& in, const std::filesystem::path& out,
                                   AstcFootprint fp, const std::string& extra) {
    return run_encoder(hdr_alpha ? "-cH" : "-ch", in, out, fp, extra);
}

AstcFileContents read_astc_file(const std::filesystem::path& file) {
    AstcFileContents e;
    std::ifstream in(file, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.size() < 16 || bytes[0] != 0x13 || bytes[1] != 0xAB || bytes[2] != 0xA1 || bytes[3] != 0x5C) {
        e.error = "bad .astc file " + file.string();
        return e;
    }
    e.fp = {bytes[4], bytes[5], bytes[6] ? bytes[6] : 1u};
    e.w = bytes[7] | bytes[8] << 8 | bytes[9] << 16;
    e.h = bytes[10] | bytes[11] << 8 | bytes[12] << 16;
    e.d = bytes[13] | bytes[14] << 8 | bytes[15] << 16;
    e.blocks.assign(bytes.begin() + 16, bytes.end());
    if (e.blocks.size() != astc_encoded_size(e.fp, e.w, e.h, e.d)) e.error = "wrong block count in " + file.string();
    return e;
}

std::vector<uint8_t> astc_file_header(AstcFootprint fp, unsigned w, unsigned h, unsigned d) {
    return astc_file_bytes(fp.x, fp.y, fp.z, w, h, d, {});
}

}  // namespace texdec_test

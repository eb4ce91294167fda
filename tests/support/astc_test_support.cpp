#include "astc_test_support.h"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <future>
#include <stdexcept>

#include "../gpu/gpu_fixture.h"
#include "../oracles/mesa_gl_oracle.h"
#include "astcenc_cli.h"
#include "random_blocks.h"

namespace texdec_test {

const char* astc_profile_name(AstcProfile p) { return p == AstcProfile::ldr ? "LDR" : p == AstcProfile::ldr_srgb ? "sRGB" : "HDR"; }

std::string astc_fp_name(AstcFootprint fp) { return std::to_string(fp.x) + "x" + std::to_string(fp.y); }

std::string astc_hex(const uint8_t* b, size_t n) {
    std::string s;
    char buf[4];
    for (size_t i = 0; i < n; ++i) {
        std::snprintf(buf, sizeof buf, "%02x", b[i]);
        s += buf;
    }
    return s;
}


texdec_format astc_texdec_format(AstcFootprint fp, AstcProfile profile) {
    const auto& fps = astc_2d_footprints();
    for (size_t i = 0; i < fps.size(); ++i)
        if (fps[i].x == fp.x && fps[i].y == fp.y && fp.z == 1)
            // The enum lists each 2D footprint as UNORM, SRGB, SFLOAT, in spec order.
            return texdec_format(TEXDEC_FORMAT_ASTC_4x4_UNORM + 3 * int(i) +
                                 (profile == AstcProfile::ldr_srgb ? 1 : profile == AstcProfile::hdr ? 2 : 0));
    throw std::invalid_argument("astc_texdec_format: not a 2D ASTC footprint: " + astc_fp_name(fp));
}

bool astc_mesa_ready() {
    const std::string why = mesa_gl_astc_unavailable_reason();
    if (why.empty()) return true;
    fail_or_skip_for_missing_device("Mesa GL ASTC oracle unavailable: " + why +
                                    " (needs libegl1, libegl-mesa0, libgl1-mesa-dri)");
    return false;
}

bool astc_mesa_ready_or_waived(bool& use_mesa) {
    use_mesa = mesa_gl_astc_unavailable_reason().empty();
    if (use_mesa) return true;
    const char* waive = std::getenv("TEXDEC_WAIVE_MESA_ORACLE");
    if (waive && std::string(waive) == "1") {
        WARN("TEXDEC_WAIVE_MESA_ORACLE=1: Mesa GL is unavailable (" << mesa_gl_astc_unavailable_reason()
                                                                     << "); comparing with libastcenc only");
        return true;
    }
    return astc_mesa_ready();
}

// ---- the astcenc CLI ------------------------------------------------------------------------

AstcTempDir::AstcTempDir() {
    std::string templ = (std::filesystem::temp_directory_path() / "texdec_astc_XXXXXX").string();
    if (!mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
    path = templ;
}

AstcTempDir::~AstcTempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
}

std::vector<AstcEncoded> astcenc_cli_encode_all(AstcProfile profile, unsigned w, unsigned h, const std::string& extra) {
    const auto& fps = astc_2d_footprints();
    std::vector<AstcEncoded> out(fps.size());
    const std::string why = astcenc_cli_unavailable_reason();
    if (!why.empty()) {
        for (auto& e : out) e.error = why;
        return out;
    }
    AstcTempDir dir;
    const auto input = dir.path / "in.tga";
    write_procedural_tga(input, w, h);
    std::vector<std::future<AstcEncoded>> jobs;
    for (size_t i = 0; i < fps.size(); ++i)
        jobs.push_back(std::async(std::launch::async, [&, i] {
            const auto file = dir.path / (std::string(astc_profile_name(profile)) + astc_fp_name(fps[i]) + ".astc");
            AstcEncoded e;
            e.error = astcenc_cli_encode(profile, input, file, fps[i], extra);
            if (!e.error.empty()) return e;
            AstcFileContents f = read_astc_file(file);
            e.error = f.error;
            if (e.error.empty() && (f.fp.x != fps[i].x || f.fp.y != fps[i].y || f.fp.z != 1 || f.d != 1))
                e.error = "unexpected footprint or depth in " + file.string();
            e.w = f.w, e.h = f.h, e.blocks = std::move(f.blocks);
            return e;
        }));
    for (size_t i = 0; i < fps.size(); ++i) out[i] = jobs[i].get();
    return out;
}

}  // namespace texdec_test

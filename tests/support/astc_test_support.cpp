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
#include "compare.h"  // canary bytes
#include "job_builder.h"
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


std::vector<uint8_t> AstcSourceImage::tight() const {
    std::vector<uint8_t> out;
    out.reserve(size_t(block_cols()) * block_rows() * 16);
    for (unsigned by = 0; by < block_rows(); ++by) {
        const uint8_t* row = &data[size_t(by) * blocks_per_row() * 16];
        out.insert(out.end(), row, row + size_t(block_cols()) * 16);
    }
    return out;
}

AstcSourceImage astc_block_rows_image(AstcFootprint fp, const std::vector<uint8_t>& blocks, unsigned blocks_x,
                                      unsigned first_row, unsigned rows) {
    AstcSourceImage img;
    img.fp = fp;
    img.w = blocks_x * fp.x;
    img.h = rows * fp.y;
    img.data.assign(blocks.begin() + size_t(first_row) * blocks_x * 16,
                    blocks.begin() + size_t(first_row + rows) * blocks_x * 16);
    return img;
}

std::vector<uint8_t> astc_decode_padded(OwnContext& ctx, texdec_format format, texdec_output output,
                                        const AstcSourceImage& img, uint32_t texel_bytes, size_t extra_row_bytes,
                                        const std::string& what) {
    const size_t row_pitch = size_t(img.w) * texel_bytes + extra_row_bytes;
    const size_t size = row_pitch * (img.h - 1) + size_t(img.w) * texel_bytes;
    std::vector<uint8_t> dst(size + 256);
    fill_canary(dst.data(), dst.size());
    const texdec_host_job job = JobBuilder(format, output, img.w, img.h)
                                    .blocks(img.data)
                                    .texels(dst.data(), size)
                                    .source_rows(img.row_length)
                                    .pitches(extra_row_bytes ? row_pitch : 0);
    const texdec_status status = ctx.decode(job);
    INFO("texdec_decode(" << what << ", " << img.w << "x" << img.h << ") returned " << texdec_status_string(status));
    REQUIRE(status == TEXDEC_SUCCESS);
    size_t clobbered = SIZE_MAX;
    for (size_t i = 0; i < dst.size() && clobbered == SIZE_MAX; ++i) {
        const bool texel = i < size && (i % row_pitch) < size_t(img.w) * texel_bytes;
        if (!texel && dst[i] != canary_byte(i)) clobbered = i;
    }
    INFO("first byte outside the texels that changed: " << clobbered_text(clobbered));
    CHECK(clobbered == SIZE_MAX);
    return dst;
}

void astc_report(const AstcComparison& cmp, size_t blocks) {
    CHECK(cmp.texels > 0);
    for (const auto& e : cmp.examples) {
        UNSCOPED_INFO(e);
        std::printf("MISMATCH %s\n", e.c_str());
    }
    INFO(cmp.label << ": " << cmp.mismatching_texels << " of " << cmp.texels << " texels differ, in "
                   << cmp.mismatching_blocks << " of " << blocks << " blocks");
    CHECK(cmp.mismatching_texels == 0);
}

const char* astc_kind_name(AstcBlockKind k) {
    switch (k) {
    case AstcBlockKind::normal: return "";
    case AstcBlockKind::error: return " (error block)";
    case AstcBlockKind::void_extent: return " (void extent)";
    case AstcBlockKind::hdr_endpoint: return " (HDR endpoint mode)";
    }
    return "";
}

std::string astc_texel_string(const uint8_t* p, unsigned texel_bytes) {
    std::string s;
    char buf[8];
    for (int c = 0; c < 4; ++c) {
        if (texel_bytes == 4) std::snprintf(buf, sizeof buf, "%u", p[c]);
        else std::snprintf(buf, sizeof buf, "%04x", unsigned(p[2 * c] | p[2 * c + 1] << 8));
        s += (c ? "," : "") + std::string(buf);
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

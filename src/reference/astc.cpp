// decode_astc: an ASTC job through libastcenc 4.2, corrected per docs/EXACTNESS.md "ASTC"
// (astc_expected_outputs in astc_reference.h does the decoding and the corrections).
#include <algorithm>

#include "reference/astc_reference.h"
#include "reference/block_decoders.h"

namespace texdec_reference::detail {

Result decode_astc(const texdec_host_job& job, const JobGeometry& g) {
    const AstcProfile profile = (g.info.flags & TEXDEC_FORMAT_FLAG_HDR)    ? AstcProfile::hdr
                                : (g.info.flags & TEXDEC_FORMAT_FLAG_SRGB) ? AstcProfile::ldr_srgb
                                                                           : AstcProfile::ldr;
    const AstcFootprint fp{g.info.block_width, g.info.block_height, g.info.block_depth};
    // Bands of whole block rows of about 2^22 texels, so that a large image never needs more than
    // some tens of MiB at once (astcenc's output and the corrected outputs are several copies).
    const uint64_t texels_per_block_row = uint64_t(job.width) * fp.y * fp.z;
    const uint64_t band_rows = std::max<uint64_t>(1, (uint64_t(1) << 22) / texels_per_block_row);
    std::vector<uint8_t> halves;
    for (uint64_t bz = 0; bz < g.blocks_z; ++bz)
        for (uint64_t by = 0; by < g.blocks_y; by += band_rows) {
            const uint64_t rows = std::min(band_rows, g.blocks_y - by);
            const auto height = uint32_t(std::min<uint64_t>(rows * fp.y, job.height - by * fp.y));
            const auto depth = uint32_t(std::min<uint64_t>(fp.z, job.depth - bz * fp.z));
            const std::vector<uint8_t> blocks = gather_blocks(job, g, bz, by, rows);
            // Throws std::runtime_error on an astcenc failure; decode() turns that into a Result.
            const AstcExpected out = astc_expected_outputs(profile, fp, job.width, height, depth, blocks.data(), blocks.size());
            if (g.texel_bytes == 4) {  // RGBA8, and NATIVE of the LDR formats (R8G8B8A8 UNORM / SRGB)
                scatter_texels(job, g, by * fp.y, bz * fp.z, height, depth, out.rgba8.data());
                continue;
            }
            // RGBA16F, and NATIVE of the sfloat formats: the halves, little-endian.
            halves.resize(out.rgba16f.size() * 2);
            for (size_t i = 0; i < out.rgba16f.size(); ++i) {
                halves[2 * i] = uint8_t(out.rgba16f[i]);
                halves[2 * i + 1] = uint8_t(out.rgba16f[i] >> 8);
            }
            scatter_texels(job, g, by * fp.y, bz * fp.z, height, depth, halves.data());
        }
    return {TEXDEC_SUCCESS, {}};
}

}  // namespace texdec_reference::detail

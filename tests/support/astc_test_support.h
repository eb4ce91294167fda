// Helpers shared by the ASTC decoder tests (test_astc_builder.cpp, test_astc_decode.cpp): names,
// hex dumps, block bits, the Mesa-present check, and the astcenc CLI (support/astcenc_cli.h)
// encoding the procedural test image at every 2D footprint.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <texdec/texdec.h>

#include "../oracles/astc_expected.h"  // AstcBlockKind, AstcExpected
#include "../oracles/astcenc_oracle.h"
#include "astc_block_builder.h"

namespace texdec_test {

class OwnContext;

// The 14 2D footprints, for test lists generated per footprint: FOOTPRINT(x, y) each.
// clang-format off
#define TEXDEC_ASTC_2D_FOOTPRINTS(FOOTPRINT)                                                                    \
    FOOTPRINT(4, 4) FOOTPRINT(5, 4) FOOTPRINT(5, 5) FOOTPRINT(6, 5) FOOTPRINT(6, 6) FOOTPRINT(8, 5) FOOTPRINT(8, 6) \
    FOOTPRINT(8, 8) FOOTPRINT(10, 5) FOOTPRINT(10, 6) FOOTPRINT(10, 8) FOOTPRINT(10, 10) FOOTPRINT(12, 10)      \
    FOOTPRINT(12, 12)
// clang-format on

const char* astc_profile_name(AstcProfile p);     // "LDR" / "sRGB" / "HDR"
std::string astc_fp_name(AstcFootprint fp);       // "6x6"
std::string astc_hex(const uint8_t* b, size_t n = 16);

inline uint32_t block_bits(const uint8_t* block, unsigned first, unsigned count) {
    return astc_get_bits(block, first, count);
}
inline void set_block_bits(uint8_t* block, unsigned first, unsigned count, uint32_t value) {
    astc_set_bits(block, first, count, value);
}
inline bool astc_is_void_extent(const uint8_t* block) { return block_bits(block, 0, 9) == 0x1FC; }
inline bool astc_void_extent_reserved_ok(const uint8_t* block) { return block_bits(block, 10, 2) == 3; }

// Blocks of a 2D extent in a source layout (row length in texels, like
// VkBufferImageCopy::bufferRowLength).
struct AstcSourceImage {
    AstcFootprint fp;
    unsigned w = 0, h = 0;
    unsigned row_length = 0;  // 0 = w
    std::vector<uint8_t> data;
    unsigned blocks_per_row() const { return ((row_length ? row_length : w) + fp.x - 1) / fp.x; }
    unsigned block_cols() const { return (w + fp.x - 1) / fp.x; }
    unsigned block_rows() const { return (h + fp.y - 1) / fp.y; }
    // The blocks of the extent, tightly packed (what the oracles decode).
    std::vector<uint8_t> tight() const;
};

// Block rows [first_row, first_row + rows) of `blocks` (rows of blocks_x 16-byte blocks) as an
// image of blocks_x x rows whole blocks: the chunks of the random-block tests.
AstcSourceImage astc_block_rows_image(AstcFootprint fp, const std::vector<uint8_t>& blocks, unsigned blocks_x,
                                      unsigned first_row, unsigned rows);

// texdec_decode of `img` as `format` to `output` into a canary-filled buffer with row pitch
// w * texel_bytes + extra_row_bytes and 256 guard bytes after it. REQUIREs success (`what` names
// the decode in the message); CHECKs that no byte outside the texels changed. Returns the buffer.
std::vector<uint8_t> astc_decode_padded(OwnContext& ctx, texdec_format format, texdec_output output,
                                        const AstcSourceImage& img, uint32_t texel_bytes, size_t extra_row_bytes,
                                        const std::string& what);

// ---- comparing decoded texels with an expectation ----

// What one decoded output differs in from its expectation; the first few mismatches named.
struct AstcComparison {
    std::string label;
    size_t texels = 0, mismatching_texels = 0, mismatching_blocks = 0;
    std::vector<std::string> examples;
};
// CHECKs that texels were compared and none differed; prints and INFOs the examples.
void astc_report(const AstcComparison& cmp, size_t blocks);
// A block's kind for a mismatch message: "" for a normal block, else " (error block)", ...
const char* astc_kind_name(AstcBlockKind k);
// A texel for a mismatch message: RGBA8 as decimal bytes, else four halves in hex.
std::string astc_texel_string(const uint8_t* p, unsigned texel_bytes);

// The block kinds of the expectations of several decodes, summed.
struct AstcStats {
    size_t blocks = 0, error = 0, void_extents = 0, hdr = 0, mixed = 0;
    void add(const AstcExpected& e) {
        blocks += e.kind.size(), error += e.error_blocks, void_extents += e.void_extents, hdr += e.hdr_endpoint_blocks,
            mixed += e.mixed_hdr_ldr_blocks;
    }
};

// The structured-block sets of the LDR tests (2D and 3D): each block, whether the spec makes it
// an error block, its group's name, and what the set covers.
struct AstcStructuredSet {
    std::vector<AstcBlock> blocks;
    std::vector<int> expect_error;  // 1: the spec makes it an error block (in LDR), 0: it decodes, -1: either
    std::vector<std::string> group;
    std::set<unsigned> cems_per_partition_form, cems_shared_form, cems_single;
    std::set<unsigned> seeds[5];
    std::set<unsigned> ccs_seen;
    std::set<unsigned> colour_levels, weight_ranges;  // quantisation ranges used by legal blocks
    std::set<std::string> illegal_reasons;            // 3D: why the builder's plans were illegal
    size_t legal_modes = 0, modes_covered = 0;
    void add(const AstcBlock& b, int err, const std::string& g) {
        blocks.push_back(b), expect_error.push_back(err), group.push_back(g);
    }
};

// The texdec format of a 2D footprint and profile (UNORM for linear LDR, SRGB for sRGB, SFLOAT for HDR).
texdec_format astc_texdec_format(AstcFootprint fp, AstcProfile profile);

// Mesa must be there: FAILs the test (or a loud SKIP with TEXDEC_ALLOW_NO_DEVICE=1) otherwise.
bool astc_mesa_ready();

// For GPU tests that use Mesa as a SECOND oracle: true when the test may go on, with `use_mesa`
// saying whether to compare with Mesa. Mesa missing FAILs as above, unless TEXDEC_WAIVE_MESA_ORACLE=1
// (for the GPU machine, which cannot carry Mesa's LLVM): then a WARN says so and the test goes on
// with the astcenc comparisons only. Mesa vs astcenc agreement is proven where Mesa exists.
bool astc_mesa_ready_or_waived(bool& use_mesa);

// A temporary directory, removed with everything in it.
struct AstcTempDir {
    std::filesystem::path path;
    AstcTempDir();
    ~AstcTempDir();
    AstcTempDir(const AstcTempDir&) = delete;
    AstcTempDir& operator=(const AstcTempDir&) = delete;
};

struct AstcEncoded {
    unsigned w = 0, h = 0;
    std::vector<uint8_t> blocks;
    std::string error;  // empty on success
};

// Encodes the procedural w x h image of support/astcenc_cli.h at every 2D footprint (index =
// astc_2d_footprints()) with the astcenc CLI, `-cl` (LDR) or `-cs` (sRGB), with `extra` options
// ("-fast", "-medium", ...), in parallel. A missing CLI or a failed run is reported in each
// entry's `error`.
std::vector<AstcEncoded> astcenc_cli_encode_all(AstcProfile profile, unsigned w, unsigned h,
                                                const std::string& extra = "-fast");

}  // namespace texdec_test

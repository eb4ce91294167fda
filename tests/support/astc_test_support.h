// Helpers shared by the ASTC decoder tests (test_astc_builder.cpp, test_astc_decode.cpp): names,
// hex dumps, block bits, the Mesa-present check, and the astcenc CLI (support/astcenc_cli.h)
// encoding the procedural test image at every 2D footprint.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <texdec/texdec.h>

#include "../oracles/astcenc_oracle.h"
#include "astc_block_builder.h"

namespace texdec_test {

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

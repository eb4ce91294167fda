// What texdec must output for 2D ASTC LDR (UNORM) and sRGB, per ../shared/ORACLES.md, computed
// from libastcenc 4.2 (oracles/astcenc_oracle.h) in one pass per image:
//
//   RGBA8 (and NATIVE, which is RGBA8 for these formats): decode_unorm8.
//     linear LDR  min(255, floor(f16 * 256)) of astcenc's FP16 output;
//     sRGB        astcenc's U8 output (the encoded sRGB bytes);
//     error texels (invalid blocks, HDR void extents, texels of HDR-endpoint partitions):
//                 magenta (255, 0, 255, 255).
//   RGBA16F:
//     linear LDR  astcenc's FP16 output bit for bit (decode_float16), except texels of partitions
//                 with an HDR endpoint mode: (1.0, 0, 1.0, 1.0) = 0x3C00, 0, 0x3C00, 0x3C00 (4.2
//                 decodes them; the spec and astcenc >= 5 give the error colour). Invalid blocks
//                 and HDR void extents: 0xFFFF in all four channels (astcenc 4.2 gives exactly
//                 that; checked, see `anomalies`).
//     sRGB        the encoded byte v of the RGBA8 result as the FP16 nearest to v/255 (ties to
//                 even; half_from_unorm8), every channel including alpha. Error texels follow the
//                 linear rule, not half(255,0,255,255): 0xFFFF x 4 for invalid blocks and HDR void
//                 extents, (1.0, 0, 1.0, 1.0) for HDR-endpoint partitions. (Choice made for the
//                 ASTC issue: the error colour is a property of the decode, not of the sRGB bytes,
//                 so it is the same in both profiles; for the HDR-endpoint case the two readings
//                 agree anyway, since half(255/255) = 1.0.)
//   "Invalid" is read from astcenc's FP16 output of the same profile (all four channels NaN),
//   which for 4.2 covers reserved block modes, illegal encodings, bad void extents (reserved bits
//   != 11b, min >= max) and HDR void extents in an LDR profile.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "astcenc_oracle.h"

namespace texdec_test {

// The FP16 nearest to v/255, ties to even, computed with exact integer arithmetic (no floating
// point): 0 -> 0x0000, 255 -> 0x3C00. v/255 is never a tie (255 is odd).
uint16_t half_from_unorm8(uint8_t v);

enum class AstcBlockKind : uint8_t {
    normal = 0,         // decoded colours
    error = 1,          // astcenc: all texels NaN (invalid block, bad or HDR void extent)
    void_extent = 2,    // a legal LDR void extent (constant colour)
    hdr_endpoint = 3,   // at least one partition with an HDR endpoint mode (those texels: error colour)
};

struct AstcExpected {
    std::vector<uint8_t> rgba8;      // w*h*4
    std::vector<uint16_t> rgba16f;   // w*h*4
    std::vector<AstcBlockKind> kind;  // per block (x fastest)
    size_t error_blocks = 0, void_extents = 0, hdr_endpoint_blocks = 0, mixed_hdr_ldr_blocks = 0;
    // Things astcenc 4.2 did that the model above assumes it never does (NaN texels that are not
    // 0xFFFF x 4, blocks only partly NaN, sRGB error texels whose U8 is not magenta). Tests CHECK
    // that this stays empty.
    std::vector<std::string> anomalies;
};

// `blocks`: the tightly packed blocks of a w x h 2D image (ceil(w/fp.x) x ceil(h/fp.y) blocks).
AstcExpected astc_expected_outputs(AstcProfile profile, AstcFootprint fp, unsigned w, unsigned h,
                                   const uint8_t* blocks, size_t size);

}  // namespace texdec_test

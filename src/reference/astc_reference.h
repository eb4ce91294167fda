// ASTC through ARM's libastcenc 4.2 (Debian's libastcenc-dev), corrected as docs/EXACTNESS.md "ASTC"
// says. Used by decode_astc (the CPU reference) and, as their oracle, by the tests
// (tests/oracles/astcenc_oracle.h and astc_expected.h know these functions by the same names).
//
// What is exact in astcenc 4.2 (measured, docs/EXACTNESS.md):
//   - the FP16 output (ASTCENC_TYPE_F16) for LDR and HDR, 2D and 3D;
//   - decode_unorm8 of linear LDR = min(255, floor(f16 * 256)) of that FP16 output;
//   - the U8 output for LDR_SRGB (matches astcenc 5.6 and Mesa).
// What is NOT usable / wrong in 4.2:
//   - the U8 output for *linear* LDR is off by one in 2-15 % of components (fixed in 4.7): never
//     used here for linear LDR;
//   - a partition whose colour endpoint mode is HDR (CEM 2, 3, 7, 11, 14, 15) in an LDR profile:
//     the spec (and astcenc >= 5, and Mesa) give the error colour, 4.2 decodes it (0x3BF8 / 254).
//     `hdr_endpoint_texels_in_ldr` finds those texels and the functions below overwrite them
//     with magenta, per partition (texels of the block's LDR partitions keep their value, as Mesa
//     does for RGBA8, measured by tests/test_astc_oracles.cpp);
//   - error colours: 4.2's FP16 output is already 0xFFFF (NaN) in all four channels for invalid
//     blocks (bad block mode, bad void extent, too many bits, ...) and for HDR void extents in an
//     LDR profile, as docs/EXACTNESS.md wants for linear LDR RGBA16F (measured); decode_unorm8_from_f16
//     turns such texels into magenta (255, 0, 255, 255). Only the HDR-endpoint partitions are
//     wrong in FP16: astcenc_decode_f16_spec writes (1.0, 0, 1.0, 1.0) = 0x3C00, 0, 0x3C00, 0x3C00
//     there. In the LDR_SRGB profile 4.2 gives the same NaNs, but the spec's sRGB error colour is
//     magenta in every decode mode: astc_expected_outputs writes (1.0, 0, 1.0, 1.0) instead.
//
// HDR profile (AstcProfile::hdr = ASTCENC_PRF_HDR, the -sfloat formats): 4.2's FP16 output is the
// spec's decode_float16 in the HDR operation mode (HDR endpoint modes, HDR void extents, LDR
// endpoint modes and void extents as UNORM16 -> FP16 round-to-zero), 0xFFFF in all four channels
// for invalid blocks; an HDR void extent's FP16 values come back bit for bit except signalling
// NaNs, which come back quiet (bit 9 set; the spec leaves Inf/NaN there undefined). See
// tests/test_astc_hdr.cpp. The LDR-only functions below throw for it.
//
// Contexts are cached per (profile, footprint) (creating one costs 6-25 ms) and used under a
// per-context mutex, with astcenc_decompress_reset before every image: safe from any thread.
// Every failure (short input, bad footprint, astcenc error) throws std::runtime_error with a clear
// message (decode_astc turns it into a Result).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "reference/half.h"

namespace texdec_reference {

enum class AstcProfile { ldr, ldr_srgb, hdr };

struct AstcFootprint {
    unsigned x = 4, y = 4, z = 1;
};

// The 14 2D footprints of the ASTC spec, in spec (and GL enum) order.
const std::vector<AstcFootprint>& astc_2d_footprints();

// Number of bytes of tightly packed 16-byte blocks for an extent (x fastest, then y, then z).
size_t astc_encoded_size(AstcFootprint fp, unsigned w, unsigned h, unsigned d);

// libastcenc's FP16 output: w*h*d*4 half-float bit patterns (RGBA, x fastest, then y, then z).
// Any profile.
std::vector<uint16_t> astcenc_decode_f16(AstcProfile profile, AstcFootprint fp, unsigned w, unsigned h, unsigned d,
                                         const uint8_t* data, size_t size);

// libastcenc's U8 output (w*h*d*4 bytes) in the LDR_SRGB profile, the only one where it is right.
std::vector<uint8_t> astcenc_decode_u8_srgb(AstcFootprint fp, unsigned w, unsigned h, unsigned d, const uint8_t* data,
                                            size_t size);

// decode_float16 as docs/EXACTNESS.md defines RGBA16F for linear LDR: astcenc_decode_f16 (0xFFFF in all
// four channels for invalid blocks and HDR void extents) with the texels of HDR-endpoint
// partitions set to magenta (0x3C00, 0, 0x3C00, 0x3C00). Linear LDR only (throws for sRGB: its
// RGBA16F is defined from the RGBA8 bytes, see astc_expected_outputs).
std::vector<uint16_t> astcenc_decode_f16_spec(AstcProfile profile, AstcFootprint fp, unsigned w, unsigned h,
                                              unsigned d, const uint8_t* data, size_t size);

// min(255, floor(f * 256)) of one FP16 value (negative / NaN -> 0, +inf -> 255).
uint8_t unorm8_from_f16(uint16_t half_bits);
// Per RGBA texel: magenta where any channel is NaN (astcenc's error texels), else unorm8_from_f16.
std::vector<uint8_t> decode_unorm8_from_f16(const std::vector<uint16_t>& f16);

// decode_unorm8 as the spec defines it, from astcenc 4.2: linear LDR from the FP16 path, sRGB from
// the U8 path; then texels of HDR-endpoint partitions (4.2's bug) set to magenta (255, 0, 255, 255).
// LDR profiles only (decode_unorm8 is invalid in the HDR operation mode): throws for hdr.
std::vector<uint8_t> astcenc_decode_unorm8(AstcProfile profile, AstcFootprint fp, unsigned w, unsigned h, unsigned d,
                                           const uint8_t* data, size_t size);

// What astcenc_get_block_info says about one block.
struct AstcBlockSummary {
    bool is_error = false;
    bool is_constant = false;  // void extent
    unsigned partition_count = 0;
    unsigned cem[4] = {0, 0, 0, 0};
    std::vector<uint8_t> partition_of_texel;  // texel_count entries (x fastest, then y, then z)
};
AstcBlockSummary astcenc_block_summary(AstcProfile profile, AstcFootprint fp, const uint8_t block[16]);

bool astc_cem_is_hdr(unsigned cem);  // 2, 3, 7, 11, 14, 15

// For a block astcenc parses as valid (not an error, not a void extent): one flag per texel of the
// footprint, set where the texel's partition has an HDR endpoint mode. Empty when no partition
// does. Both profiles are LDR here, so any such texel is an error texel per the spec. Throws for hdr.
std::vector<bool> hdr_endpoint_texels_in_ldr(AstcProfile profile, AstcFootprint fp, const uint8_t block[16]);

// ---- every output of an image in one pass ----------------------------------------------------
//
//   RGBA8 (and NATIVE, which is RGBA8 for the LDR formats): decode_unorm8.
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
//                 even; half_from_unorm8), every channel including alpha. Every error texel
//                 (invalid blocks, HDR void extents, HDR-endpoint partitions) is magenta
//                 (1.0, 0, 1.0, 1.0) = 0x3C00, 0, 0x3C00, 0x3C00, never NaN: the spec's table
//                 ("ASTC error colors") gives magenta in sRGB operation mode for every decode
//                 mode. astcenc 4.2's FP16 output has 0xFFFF x 4 there; the model
//                 replaces it. This is also half(255,0,255,255), so RGBA16F == RGBA8 / 255.
//     HDR         (the -sfloat formats, RGBA16F = NATIVE) astcenc's FP16 output in the HDR profile
//                 bit for bit; no RGBA8 (rgba8 stays empty).
//   "Invalid" is read from astcenc's FP16 output of the same profile (all four channels NaN at the
//   block's first texel; in HDR, not a void extent), which for 4.2 covers reserved block modes,
//   illegal encodings, bad void extents (reserved bits != 11b, min >= max) and HDR void extents
//   in an LDR profile.

enum class AstcBlockKind : uint8_t {
    normal = 0,         // decoded colours
    error = 1,          // astcenc: all texels NaN (invalid block, bad or HDR void extent)
    void_extent = 2,    // a legal void extent (constant colour)
    hdr_endpoint = 3,   // at least one partition with an HDR endpoint mode (those texels: error colour)
};

struct AstcExpected {
    std::vector<uint8_t> rgba8;       // w*h*d*4 (empty for hdr)
    std::vector<uint16_t> rgba16f;    // w*h*d*4
    std::vector<AstcBlockKind> kind;  // per block (x fastest, then y, then z)
    size_t error_blocks = 0, void_extents = 0, hdr_endpoint_blocks = 0, mixed_hdr_ldr_blocks = 0;
    // Things astcenc 4.2 did that the model above assumes it never does (NaN texels that are not
    // 0xFFFF x 4, blocks only partly NaN, sRGB error texels whose U8 is not magenta). Tests CHECK
    // that this stays empty.
    std::vector<std::string> anomalies;
};

// `blocks`: the tightly packed blocks of a w x h x d image (2D footprints with d > 1: d slices,
// each its own blocks, slice after slice). Any profile.
AstcExpected astc_expected_outputs(AstcProfile profile, AstcFootprint fp, unsigned w, unsigned h, unsigned d,
                                   const uint8_t* blocks, size_t size);

// The 2D form the 2D tests use: fp.z must be 1, profile LDR or sRGB (throws otherwise).
AstcExpected astc_expected_outputs(AstcProfile profile, AstcFootprint fp, unsigned w, unsigned h,
                                   const uint8_t* blocks, size_t size);

}  // namespace texdec_reference

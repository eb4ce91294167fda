// ASTC oracle #1: ARM's libastcenc (Debian's 4.2.0), per ORACLES.md "ASTC".
//
// What is exact in astcenc 4.2 (measured, ORACLES.md):
//   - the FP16 output (ASTCENC_TYPE_F16) for LDR and HDR, 2D and 3D;
//   - decode_unorm8 of linear LDR = min(255, floor(f16 * 256)) of that FP16 output;
//   - the U8 output for LDR_SRGB (matches astcenc 5.6 and Mesa).
// What is NOT usable / wrong in 4.2:
//   - the U8 output for *linear* LDR is off by one in 2-15 % of components (fixed in 4.7): never
//     used here for linear LDR;
//   - a partition whose colour endpoint mode is HDR (CEM 2, 3, 7, 11, 14, 15) in an LDR profile:
//     the spec (and astcenc >= 5, and Mesa) give the error colour, 4.2 decodes it (0x3BF8 / 254).
//     `hdr_endpoint_texels_in_ldr` finds those texels and `astcenc_decode_unorm8` overwrites them
//     with magenta (see the .cpp for the measured granularity);
//   - error colours: 4.2's FP16 output is already 0xFFFF (NaN) in all four channels for invalid
//     blocks (bad block mode, bad void extent, too many bits, ...) and for HDR void extents in an
//     LDR profile, as ORACLES.md wants for RGBA16F (measured); decode_unorm8_from_f16 turns such
//     texels into magenta (255, 0, 255, 255). Only the HDR-endpoint partitions are wrong in FP16.
//     astcenc_decode_f16_spec models them: astcenc_decode_f16 with (1.0, 0, 1.0, 1.0) = 0x3C00, 0,
//     0x3C00, 0x3C00 written into every texel hdr_endpoint_texels_in_ldr flags (per partition:
//     texels of the block's LDR partitions keep their value, as Mesa does for RGBA8, measured by
//     test_astc_oracles.cpp).
//
// HDR profile (AstcProfile::hdr = ASTCENC_PRF_HDR, the -sfloat formats): astcenc_decode_f16 only;
// 4.2's FP16 output there is the spec's decode_float16 in the HDR operation mode (HDR endpoint
// modes, HDR void extents, LDR endpoint modes and void extents as UNORM16 -> FP16 round-to-zero),
// 0xFFFF in all four channels for invalid blocks; an HDR void extent's FP16 values come back bit
// for bit except signalling NaNs, which come back quiet (bit 9 set; the spec leaves Inf/NaN
// there undefined). See tests/test_astc_hdr.cpp. The LDR-only functions below throw for it.
//
// Contexts are cached per (profile, footprint) (creating one costs 6-25 ms) and used under a
// per-context mutex, with astcenc_decompress_reset before every image: safe from any thread.
// Every failure (short input, bad footprint, astcenc error) throws std::runtime_error with a clear
// message, which Catch2 reports as a test failure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace texdec_test {

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

// libastcenc's U8 output (w*h*d*4 bytes). Correct for LDR_SRGB only; throws for linear LDR (4.2's
// linear U8 path is wrong, see above).
std::vector<uint8_t> astcenc_decode_u8_srgb(AstcFootprint fp, unsigned w, unsigned h, unsigned d, const uint8_t* data,
                                            size_t size);

// decode_float16 as ORACLES.md defines RGBA16F for linear LDR, from astcenc 4.2: astcenc_decode_f16
// (0xFFFF in all four channels for invalid blocks and HDR void extents) with the texels of
// HDR-endpoint partitions set to magenta (0x3C00, 0, 0x3C00, 0x3C00). Linear LDR only (throws for
// sRGB: its RGBA16F is defined from the RGBA8 bytes, see oracles/astc_expected.h).
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

}  // namespace texdec_test

// Inside texdec_cpu_reference: one function per format family that decodes ONE block straight
// into the job's output type (docs/EXACTNESS.md "Output types"). cpu_reference.cpp checks the job, walks
// the blocks, clips partial edge blocks and handles pitches; ASTC decodes whole images through
// libastcenc (astc.cpp) and uses the driver's gather_blocks / scatter_texels for the layout.
#pragma once

#include <cstdint>
#include <vector>

#include <texdec/texdec.h>

#include "reference/cpu_reference.h"

namespace texdec_reference::detail {

// Each writes block_width * block_height texels (x fastest, then y), texel_bytes each, where
// texel_bytes is the size of texdec_output_vk_format(format, output). `block` holds
// bytes_per_block bytes. Only called with (format, output, rounding) that unavailable_reason()
// accepted.
void decode_bc1_5_block(texdec_format format, texdec_output output, texdec_bc_rounding rounding,
                        const uint8_t* block, uint8_t* texels);
void decode_bc6h_block(texdec_format format, texdec_output output, const uint8_t* block, uint8_t* texels);
void decode_bc7_block(texdec_format format, texdec_output output, const uint8_t* block, uint8_t* texels);
void decode_etc2_block(texdec_format format, texdec_output output, const uint8_t* block, uint8_t* texels);
void decode_eac_block(texdec_format format, texdec_output output, const uint8_t* block, uint8_t* texels);

// A job the driver has checked, with every layout quantity resolved (0 = default applied) and
// known not to overflow; src_size and dst_size are large enough for it.
struct JobGeometry {
    texdec_format_info info;
    uint32_t texel_bytes;                 // of the job's output
    uint64_t blocks_x, blocks_y, blocks_z; // blocks covering the extent (2D footprints: z = depth)
    uint64_t src_row_bytes;                // between block rows in job.src
    uint64_t src_slice_bytes;              // between block slices in job.src
    uint64_t row_pitch, slice_pitch;       // destination
};

// Block rows [first_row, first_row + rows) of block slice `slice`, tightly packed (x fastest).
std::vector<uint8_t> gather_blocks(const texdec_host_job& job, const JobGeometry& geometry, uint64_t slice,
                                   uint64_t first_row, uint64_t rows);

// Writes a box of job.width x height x depth tightly packed texels (texel_bytes each) whose first
// texel is (0, y0, z0) into job.dst with the job's pitches; bytes between rows and slices are
// not touched.
void scatter_texels(const texdec_host_job& job, const JobGeometry& geometry, uint64_t y0, uint64_t z0, uint32_t height,
                    uint32_t depth, const uint8_t* tight);

// ETC2 and EAC blocks: "Format RGB ETC2"'s int64bit = q0 q1 ... q7, q0 the most significant byte,
// and the `count` bits of it from bit `low` up.
inline uint64_t etc_int64bit(const uint8_t* q) {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | q[i];
    return v;
}
inline int etc_bits(uint64_t word, int low, int count) { return int((word >> low) & ((uint64_t{1} << count) - 1)); }

// ASTC (2D and 3D, LDR, sRGB, HDR): the whole job through libastcenc (astc_reference.h).
Result decode_astc(const texdec_host_job& job, const JobGeometry& geometry);

}  // namespace texdec_reference::detail

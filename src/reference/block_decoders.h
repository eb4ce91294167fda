// Inside texdec_cpu_reference: one function per format family that decodes ONE block straight
// into the job's output type (ORACLES.md "Output types"). cpu_reference.cpp walks the blocks,
// clips partial edge blocks and handles pitches; ASTC decodes whole images through libastcenc.
#pragma once

#include <cstdint>

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

// ASTC (2D and 3D, LDR, sRGB, HDR): the whole job through libastcenc.
Result decode_astc(const texdec_host_job& job);

}  // namespace texdec_reference::detail

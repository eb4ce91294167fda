// One region recorded with texdec_record_regions on a test device, and the same blocks through
// texdec_decode, for tests that need "the record call works" as an exact comparison (the one-call
// path is proven against the oracles elsewhere; tolerance 0 here).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpu/external_setup.h"

namespace texdec_test {

// `bytes` pseudo-random bytes (every bit pattern is a block texdec decodes to something defined).
std::vector<uint8_t> random_bytes(size_t bytes, uint64_t seed);

// Blocks of a w x h extent of `format`, random.
std::vector<uint8_t> random_blocks_for(texdec_format format, uint32_t w, uint32_t h, uint64_t seed);

// texdec_decode of the blocks (w x h, tight rows); REQUIREs success.
std::vector<uint8_t> decode_on_host(texdec_context* ctx, texdec_format format, texdec_output output,
                                    const std::vector<uint8_t>& blocks, uint32_t w, uint32_t h);

// texdec_record_regions of the blocks into a buffer (library barriers), submitted and read back
// with tight rows; REQUIREs success and a silent validation layer.
std::vector<uint8_t> record_into_buffer(ExternalSetup& setup, texdec_format format, texdec_output output,
                                        const std::vector<uint8_t>& blocks, uint32_t w, uint32_t h);

// The same into a new 2D image target (one mip, one layer) of the output's VkFormat (sRGB with
// MUTABLE_FORMAT + EXTENDED_USAGE), the caller's barriers, read back tightly.
std::vector<uint8_t> record_into_image(ExternalSetup& setup, texdec_format format, texdec_output output,
                                       const std::vector<uint8_t>& blocks, uint32_t w, uint32_t h);

// CHECKs that no byte of a readback (`total` bytes from `bytes`) outside the w x h x d texels laid
// out as `layout` changed; `where` names the destination in the message.
void check_canary_around(const uint8_t* bytes, size_t total, const TexelLayout& layout, uint32_t texel, uint32_t w,
                         uint32_t h, uint32_t d, const std::string& where);

// A w x h 2D image of `format` with STORAGE and transfer usage (sRGB: MUTABLE_FORMAT +
// EXTENDED_USAGE), optimal tiling, one mip and layer.
VkImageCreateInfo storage_image_info(VkFormat format, uint32_t w, uint32_t h);

}  // namespace texdec_test

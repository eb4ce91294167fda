// ASTC oracle #1: ARM's libastcenc (Debian's 4.2.0), per docs/EXACTNESS.md "ASTC". The astcenc wrapper and
// its measured 4.2 corrections live in src/reference/astc_reference.h (the CPU reference for
// `astc-gpu-decode --verify` decodes ASTC through it too); the tests know them by these names.
// Every failure (short input, bad footprint, astcenc error) throws std::runtime_error with a clear
// message, which Catch2 reports as a test failure.
#pragma once

#include "reference/astc_reference.h"

namespace texdec_test {

using texdec_reference::AstcBlockSummary;
using texdec_reference::AstcFootprint;
using texdec_reference::AstcProfile;
using texdec_reference::astc_2d_footprints;
using texdec_reference::astc_cem_is_hdr;
using texdec_reference::astc_encoded_size;
using texdec_reference::astcenc_block_summary;
using texdec_reference::astcenc_decode_f16;
using texdec_reference::astcenc_decode_f16_spec;
using texdec_reference::astcenc_decode_u8_srgb;
using texdec_reference::astcenc_decode_unorm8;
using texdec_reference::decode_unorm8_from_f16;
using texdec_reference::hdr_endpoint_texels_in_ldr;
using texdec_reference::unorm8_from_f16;

}  // namespace texdec_test

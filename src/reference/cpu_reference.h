// CPU reference decoders (internal library texdec_cpu_reference): decode a texdec_host_job on the
// CPU, texel for texel what docs/EXACTNESS.md says texdec_decode must return, for `astc-gpu-decode
// --verify` and the tests. Written from the Khronos Data Format Specification, never from the
// shaders; each family is checked in the tests against its independent oracle (docs/EXACTNESS.md):
//   BC1-BC5   exact_model (EXACT) / ideal_model (IDEAL)   checked vs libsquish, libnvimage
//   BC6H, BC7 bptc.cpp                                     checked vs lavapipe's native decode
//   ETC2, EAC etc.cpp                                      checked vs Mesa GL
//   ASTC      libastcenc 4.2 (F16 output; its known 4.2 quirks corrected as docs/EXACTNESS.md says)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <texdec/texdec.h>

namespace texdec_reference {

struct Result {
    texdec_status status;  // TEXDEC_SUCCESS, or why nothing (or not everything) was decoded
    std::string message;   // names the problem; empty on success
};

// Empty when decode() can produce this (format, output, rounding); otherwise why not, e.g.
// "no CPU reference for --bc-rounding nvidia yet" or "bc6h-ufloat has no rgba8 output". The
// rounding only matters for BC1-BC5 (as in texdec_decode); values outside the enums are refused.
std::string unavailable_reason(texdec_format format, texdec_output output, texdec_bc_rounding rounding);

// Decodes `job` as texdec_decode would, into job.dst (same layout, same output type; row_pitch,
// slice_pitch, src_row_length and src_image_height are honoured like texdec_decode does;
// only the texels inside the extent are written). A job texdec_decode refuses gets the same
// status here (checked in the same order) with a message, and nothing is written; NVIDIA
// rounding of BC1-BC5 gets TEXDEC_ERROR_UNSUPPORTED_ROUNDING. timeout_ns is ignored. Thread-safe.
Result decode(const texdec_host_job& job);

}  // namespace texdec_reference

// What a correct decoder returns for one block, per docs/EXACTNESS.md: which oracle decodes which
// (format, rounding mode), and how the decoded values become each output type.
//
//   EXACT            exact_model (rational spec formula), for every format.
//   IDEAL BC1-BC3    libsquish (primary; right for BC2/BC3 colour) and libnvimage (BC1; BC2/BC3
//                    alpha, and colour only where c0 > c1, because nvtt 2.0.8 wrongly uses the
//                    3-colour mode for BC2/BC3 colour when c0 <= c1).
//   IDEAL BC4/BC5    libnvimage (unsigned); ideal_model for SNORM (no packaged decoder has it).
//
// Output rules (docs/EXACTNESS.md "Output types"; src/reference/bc1_5.h applies them to every oracle's
// 8-bit results, the same rules the CPU reference uses):
//   RGBA8    the 8-bit result, missing channels (r, 0, 0, 255) / (r, g, 0, 255), RGB alpha 255.
//   RGBA16F  EXACT: the spec's real value rounded to FP16 (ties to even); IDEAL: v / 255, SNORM
//            max(v, -127) / 127; sRGB formats: the encoded byte v as v / 255 in both modes (every
//            channel; see kSrgbHalfIsByteOver255). Missing channels 0, alpha 1.0.
//   NATIVE   R8 / RG8 (UNORM or SNORM, -1.0 = -127) for BC4 / BC5, RGBA8 otherwise.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../support/bc_formats.h"
#include "reference/bc1_5.h"

namespace texdec_test {

// docs/EXACTNESS.md: "RGBA16F of an sRGB format is the encoded byte v as v/255". The header's RGBA16F
// text ("BC1-5 EXACT: the spec's real value itself") does not single out sRGB; docs/EXACTNESS.md does,
// so for sRGB formats RGBA16F is v / 255 of the RGBA8 result, in every channel (alpha too), in
// both rounding modes. (For IDEAL the two readings agree; for EXACT they differ.)
constexpr bool kSrgbHalfIsByteOver255 = true;

enum class Oracle {
    ExactModel,  // tests/oracles/exact_model: EXACT mode
    Squish,      // libsquish: IDEAL BC1-BC3
    Nvimage,     // libnvimage: IDEAL BC1-BC5 unsigned (BC2/BC3 colour only where c0 > c1)
    IdealModel,  // tests/oracles/ideal_model: IDEAL, the only oracle for SNORM
};

const char* oracle_name(Oracle oracle);

// The oracle docs/EXACTNESS.md names first for (format, rounding).
Oracle primary_oracle(const BcFormat& format, texdec_bc_rounding rounding);

// Whether `oracle` can decode (format, rounding) at all.
bool oracle_supports(Oracle oracle, const BcFormat& format, texdec_bc_rounding rounding);

// v8: the 8-bit result (UNORM 0..255, SNORM -127..127); f16: the RGBA16F result (FP16 bits).
using ReferenceTexel = texdec_reference::bc1_5::Texel;

struct ReferenceBlock {
    ReferenceTexel texel[16];  // row-major 4x4
    uint32_t channel_mask;     // bit c set: the oracle vouches for channel c of every texel
};

// Decodes one block with `oracle`. The rounding mode must be one the oracle supports.
void reference_decode(const BcFormat& format, texdec_bc_rounding rounding, Oracle oracle,
                      const uint8_t* block, ReferenceBlock* out);

// Writes the bytes that `output` holds for `texel` (output_texel_bytes(format, output) bytes).
void pack_reference_texel(const BcFormat& format, texdec_output output, const ReferenceTexel& texel,
                          uint8_t* bytes);

// Which bytes of a packed output texel belong to the channels in `channel_mask`.
uint32_t output_byte_mask(const BcFormat& format, texdec_output output, uint32_t channel_mask);

}  // namespace texdec_test

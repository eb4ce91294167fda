// BC1-BC5 (s3tc.txt, rgtc.txt) decoded by the EXACT and IDEAL models (exact_model.h, ideal_model.h)
// and turned into output texels by docs/EXACTNESS.md "Output types". Shared by decode_bc1_5_block (the
// CPU reference) and the tests' oracle glue (tests/oracles/reference.cpp), which feeds the 8-bit
// results of libsquish / libnvimage through the same output rules: the rules are the contract,
// the decoders stay independent.
#pragma once

#include <cstdint>

#include <texdec/texdec.h>

namespace texdec_reference::bc1_5 {

enum class Kind { BC1_RGB, BC1_RGBA, BC2, BC3, BC4, BC5 };

struct Layout {
    Kind kind;
    bool srgb;
    bool is_signed;  // BC4 / BC5 SNORM
};

// The layout of a BC1-BC5 format; false for any other format.
bool layout_of(texdec_format format, Layout* layout);

// 1 (BC4), 2 (BC5), 3 (BC1 RGB) or 4.
unsigned channel_count(Kind kind);

// One texel: the 8-bit result (UNORM 0..255, SNORM -127..127) and the RGBA16F result (FP16 bits).
struct Texel {
    int16_t v8[4];
    uint16_t f16[4];
};

// Decodes one block (row-major 4x4) with the EXACT (exact_model) or IDEAL (ideal_model) model and
// applies apply_output_rules. `rounding` must be EXACT or IDEAL.
void decode_model(const Layout& layout, texdec_bc_rounding rounding, const uint8_t* block, Texel out[16]);

// RGBA16F of an IDEAL 8-bit result v: v/255, SNORM max(v, -127)/127 (nearest FP16).
uint16_t ideal_half(bool is_signed, int v);

// The rules that do not depend on the decoder: channels the format lacks are (r, 0, 0, 1) /
// (r, g, 0, 1) / alpha 1; sRGB formats' RGBA16F is the encoded byte v as v/255 in every channel,
// in both rounding modes (docs/EXACTNESS.md: "RGBA16F of an sRGB format is the encoded byte v as v/255").
void apply_output_rules(const Layout& layout, Texel out[16]);

// Bytes of one output texel: RGBA8 4, RGBA16F 8, NATIVE R8 / RG8 for BC4 / BC5, RGBA8 otherwise.
uint32_t texel_bytes(const Layout& layout, texdec_output output);

// Writes texel_bytes(layout, output) bytes: RGBA16F the four halves (little-endian), RGBA8 and
// NATIVE the 8-bit values (SNORM as two's complement bytes; -1.0 is -127).
void pack(const Layout& layout, texdec_output output, const Texel& texel, uint8_t* bytes);

}  // namespace texdec_reference::bc1_5

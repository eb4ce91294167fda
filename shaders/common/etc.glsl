// The ETC tables (ETC2, EAC) and the EAC channel decoder shared by etc2.comp (RGBA8 alpha) and
// eac.comp (R11, RG11). KDFS "ETC2 Compressed Texture Image Formats".
// The tables live in the context's table texel buffer (binding TEXDEC_BINDING_TABLES) from
// TEXDEC_ETC_LUT_BASE on, built by src/luts.cpp from luts/etc_tables.h. Needs "interface.h" first.
//
// Blocks: the spec reads a 64-bit half-block as the big-endian integer of bytes q0..q7. Loaded as
// two little-endian words w (w.x = q0..q3), etc_be(w) gives that integer as uvec2(bits 63..32,
// bits 31..0). Texels are numbered as the spec's pixels a..p: k = 4 * x + y (column-major).
#ifndef TEXDEC_COMMON_ETC_GLSL
#define TEXDEC_COMMON_ETC_GLSL

layout(set = 0, binding = TEXDEC_BINDING_TABLES) uniform usamplerBuffer etc_tables;

uint etc_lut_word(uint i) {
    return texelFetch(etc_tables, int(TEXDEC_ETC_LUT_BASE + i)).x;
}

// "ETC2 intensity modifier sets": the modifier a 2-bit pixel index (MSB << 1 | LSB) selects from
// the table of `codeword` (0..7).
int etc_modifier(uint codeword, uint pixel_index) {
    return int(etc_lut_word(TEXDEC_ETC_LUT_MODIFIERS + 4u * codeword + pixel_index));
}

// "Distance table for ETC2 `T' and `H' modes".
int etc_distance(uint index) {
    return int(etc_lut_word(TEXDEC_ETC_LUT_DISTANCES + index));
}

// "Intensity modifier sets for RGBA ETC2 alpha component" (EAC too): table index 0..15, 3-bit
// pixel index 0..7.
int eac_modifier(uint table, uint pixel_index) {
    return int(etc_lut_word(TEXDEC_ETC_LUT_EAC + 8u * table + pixel_index));
}

// The spec's int64bit of an 8-byte half-block loaded as little-endian words: (bits 63..32, 31..0).
uvec2 etc_be(uvec2 w) {
    uvec2 b = ((w & 0x00FF00FFu) << 8u) | ((w >> 8u) & 0x00FF00FFu);
    return ((b << 16u) | (b >> 16u)).xy;
}

// ---- EAC channel (alpha of ETC2 RGBA8; R11 / RG11) ------------------------------------------------
// Header, bits 63..48 of int64bit: base codeword (63..56), multiplier (55..52), table index (51..48).
uint eac_base(uvec2 be) { return be.x >> 24u; }
uint eac_multiplier(uvec2 be) { return (be.x >> 20u) & 0xFu; }
uint eac_table(uvec2 be) { return (be.x >> 16u) & 0xFu; }

// The 3-bit pixel index of pixel k (a = 0 .. p = 15): bits 47 - 3k .. 45 - 3k, MSB first.
uint eac_pixel_index(uvec2 be, uint k) {
    uint pos = 45u - 3u * k;  // lowest bit of the index in int64bit
    if (pos >= 32u) return (be.x >> (pos - 32u)) & 7u;
    if (pos <= 29u) return (be.y >> pos) & 7u;
    return ((be.y >> pos) | (be.x << (32u - pos))) & 7u;  // straddles bit 32 (pos 30, 31)
}

// EAC R11 / RG11: the 11-bit value of `modifier` in the half-block `be` ("Unsigned R11 EAC simple":
// clamp2(base * 8 + 4 + modifier * multiplier * 8), 0..2047; "Signed R11 EAC simple": clamp2(base * 8
// + modifier * multiplier * 8), -1023..1023, base two's complement with -128 treated as -127). A
// multiplier of 0 acts as 1/8 ("... simpler"): the modifier is added unscaled.
int eac_r11_value(uvec2 be, int modifier, bool is_signed) {
    int multiplier = int(eac_multiplier(be));
    int scaled = multiplier == 0 ? modifier : modifier * multiplier * 8;
    if (is_signed) return clamp(max(int(be.x) >> 24, -127) * 8 + scaled, -1023, 1023);
    return clamp(int(eac_base(be)) * 8 + 4 + scaled, 0, 2047);
}

// What eac_channel computes.
const uint EAC_ALPHA8 = 0u;      // ETC2 RGBA8 alpha: clamp255(base + modifier * multiplier), 0..255
                                 // (multiplier 0 stays 0: "produce 0 x modifier = 0")
const uint EAC_R11_UNSIGNED = 1u;  // EAC R11 unsigned: 11-bit value 0..2047 (eac.comp)
const uint EAC_R11_SIGNED = 2u;    // EAC R11 signed: -1023..1023 (eac.comp)

// The decoded value of pixel k of the EAC half-block `be` (etc_be of its words).
int eac_channel(uvec2 be, uint k, uint kind) {
    int modifier = eac_modifier(eac_table(be), eac_pixel_index(be, k));
    int multiplier = int(eac_multiplier(be));
    if (kind == EAC_ALPHA8) {
        // "ETC2 base": clamp255(base codeword + modifier x multiplier).
        return clamp(int(eac_base(be)) + modifier * multiplier, 0, 255);
    }
    return eac_r11_value(be, modifier, kind == EAC_R11_SIGNED);
}

#endif

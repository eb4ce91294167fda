// ETC2 / EAC lookup tables: pure functions (no Vulkan, no global mutable state) returning the tables
// of the Khronos Data Format Specification, chapter "ETC2 Compressed Texture Image Formats".
// Table names below are that chapter's.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace texdec::luts {

// "ETC2 intensity modifier sets for `individual' and `differential' modes": row = table codeword
// (0..7), columns in the spec's order [-b, -a, +a, +b]. Also ETC1's table.
const std::array<std::array<int, 4>, 8>& etc_intensity_modifiers();

// The modifier a 2-bit pixel index selects from row `codeword` ("Mapping from pixel index values to
// modifier values for RGB ETC2 compressed textures": 00 -> +a, 01 -> +b, 10 -> -a, 11 -> -b).
// Throws std::out_of_range outside codeword 0..7, index 0..3.
int etc_modifier(int codeword, int pixel_index);

// "Distance table for ETC2 `T' and `H' modes": distance index (0..7) -> d.
const std::array<int, 8>& etc_distances();

// "Intensity modifier sets for RGBA ETC2 alpha component" (shared by EAC R11/RG11): row = table
// index (0..15), column = 3-bit pixel index (0..7), in the spec's left-to-right order.
const std::array<std::array<int, 8>, 16>& eac_modifiers();

// All ETC/EAC tables in the layout of shaders/interface.h (TEXDEC_ETC_LUT_*, offsets relative to
// TEXDEC_ETC_LUT_BASE), TEXDEC_ETC_LUT_WORDS words, signed entries as two's-complement uint32:
//   [TEXDEC_ETC_LUT_MODIFIERS + 4 * codeword + pixel_index]  etc_modifier(codeword, pixel_index)
//   [TEXDEC_ETC_LUT_DISTANCES + index]                       etc_distances()[index]
//   [TEXDEC_ETC_LUT_EAC + 8 * table + pixel_index]           eac_modifiers()[table][pixel_index]
std::vector<uint32_t> etc_lut_words();

}  // namespace texdec::luts

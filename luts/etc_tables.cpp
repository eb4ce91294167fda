// ETC2 / EAC tables, typed in from the Khronos Data Format Specification, chapter "ETC2 Compressed
// Texture Image Formats". See etc_tables.h.
#include "luts/etc_tables.h"

#include <stdexcept>

#include "shaders/interface.h"

namespace texdec::luts {

const std::array<std::array<int, 4>, 8>& etc_intensity_modifiers() {
    // Table "ETC2 intensity modifier sets for `individual' and `differential' modes".
    static constexpr std::array<std::array<int, 4>, 8> kTable = {{
        {-8, -2, 2, 8},
        {-17, -5, 5, 17},
        {-29, -9, 9, 29},
        {-42, -13, 13, 42},
        {-60, -18, 18, 60},
        {-80, -24, 24, 80},
        {-106, -33, 33, 106},
        {-183, -47, 47, 183},
    }};
    return kTable;
}

int etc_modifier(int codeword, int pixel_index) {
    if (codeword < 0 || codeword > 7 || pixel_index < 0 || pixel_index > 3)
        throw std::out_of_range("etc_modifier: codeword 0..7, pixel index 0..3");
    // "Mapping from pixel index values to modifier values": 00 +a, 01 +b, 10 -a, 11 -b.
    static constexpr int kColumn[4] = {2, 3, 1, 0};
    return etc_intensity_modifiers()[size_t(codeword)][size_t(kColumn[pixel_index])];
}

const std::array<int, 8>& etc_distances() {
    // Table "Distance table for ETC2 `T' and `H' modes".
    static constexpr std::array<int, 8> kTable = {3, 6, 11, 16, 23, 32, 41, 64};
    return kTable;
}

const std::array<std::array<int, 8>, 16>& eac_modifiers() {
    // Table "Intensity modifier sets for RGBA ETC2 alpha component".
    static constexpr std::array<std::array<int, 8>, 16> kTable = {{
        {-3, -6, -9, -15, 2, 5, 8, 14},
        {-3, -7, -10, -13, 2, 6, 9, 12},
        {-2, -5, -8, -13, 1, 4, 7, 12},
        {-2, -4, -6, -13, 1, 3, 5, 12},
        {-3, -6, -8, -12, 2, 5, 7, 11},
        {-3, -7, -9, -11, 2, 6, 8, 10},
        {-4, -7, -8, -11, 3, 6, 7, 10},
        {-3, -5, -8, -11, 2, 4, 7, 10},
        {-2, -6, -8, -10, 1, 5, 7, 9},
        {-2, -5, -8, -10, 1, 4, 7, 9},
        {-2, -4, -8, -10, 1, 3, 7, 9},
        {-2, -5, -7, -10, 1, 4, 6, 9},
        {-3, -4, -7, -10, 2, 3, 6, 9},
        {-1, -2, -3, -10, 0, 1, 2, 9},
        {-4, -6, -8, -9, 3, 5, 7, 8},
        {-3, -5, -7, -9, 2, 4, 6, 8},
    }};
    return kTable;
}

std::vector<uint32_t> etc_lut_words() {
    std::vector<uint32_t> w(TEXDEC_ETC_LUT_WORDS, 0);
    for (int c = 0; c < 8; ++c)
        for (int i = 0; i < 4; ++i) w[size_t(TEXDEC_ETC_LUT_MODIFIERS + 4 * c + i)] = uint32_t(etc_modifier(c, i));
    for (int i = 0; i < 8; ++i) w[size_t(TEXDEC_ETC_LUT_DISTANCES + i)] = uint32_t(etc_distances()[size_t(i)]);
    for (int t = 0; t < 16; ++t)
        for (int i = 0; i < 8; ++i) w[size_t(TEXDEC_ETC_LUT_EAC + 8 * t + i)] = uint32_t(eac_modifiers()[size_t(t)][size_t(i)]);
    return w;
}

}  // namespace texdec::luts

// ETC2 colour words as the spec writes them (int64bit: bit 63 = MSB of byte q0), for the tests
// that build blocks by hand (test_etc2_decode.cpp, test_cpu_reference_etc.cpp).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

namespace texdec_test {

using EtcWord = uint64_t;

enum class EtcMode { individual, differential, t, h, planar };

inline int etc_field(EtcWord v, int low, int bits) { return int((v >> low) & ((EtcWord{1} << bits) - 1)); }
inline EtcWord etc_set_field(EtcWord v, int low, int bits, uint64_t value) {
    const EtcWord mask = ((EtcWord{1} << bits) - 1) << low;
    return (v & ~mask) | ((EtcWord(value) << low) & mask);
}
// A word with each {low bit, bits, value} field set, in order, over `v`.
struct EtcField {
    int low, bits;
    uint64_t value;
};
inline EtcWord etc_word(std::initializer_list<EtcField> fields, EtcWord v = 0) {
    for (const EtcField& f : fields) v = etc_set_field(v, f.low, f.bits, f.value);
    return v;
}

inline int etc_signed3(int v) { return v >= 4 ? v - 8 : v; }

// "Location of bits for mode selection" (a): bit 33 = D (0: individual), or Op with punch-through
// (no individual mode); then the first of R + Rd, G + Gd, B + Bd outside [0, 31] picks T, H, planar.
inline EtcMode etc_mode_of(EtcWord v, bool punch) {
    if (!punch && !etc_field(v, 33, 1)) return EtcMode::individual;
    if (unsigned(etc_field(v, 59, 5) + etc_signed3(etc_field(v, 56, 3))) > 31) return EtcMode::t;
    if (unsigned(etc_field(v, 51, 5) + etc_signed3(etc_field(v, 48, 3))) > 31) return EtcMode::h;
    if (unsigned(etc_field(v, 43, 5) + etc_signed3(etc_field(v, 40, 3))) > 31) return EtcMode::planar;
    return EtcMode::differential;
}

// T, H or planar: sets the bits the mode does not use for its colours ('.' in the layouts (d),
// (e), (g); an encoder sets them to select the mode), and for RGB8 D = 1, so that `v` decodes in
// `mode` keeping every bit the mode uses. False if no setting does.
inline bool etc_select_mode(EtcWord& v, EtcMode mode, bool punch) {
    std::vector<int> free_bits;
    if (mode == EtcMode::t) free_bits = {63, 62, 61, 58};
    if (mode == EtcMode::h) free_bits = {63, 55, 54, 53, 50};
    if (mode == EtcMode::planar) free_bits = {63, 55, 47, 46, 45, 42};
    if (!punch) v = etc_set_field(v, 33, 1, 1);
    for (uint32_t combo = 0; combo < (1u << free_bits.size()); ++combo) {
        EtcWord w = v;
        for (size_t i = 0; i < free_bits.size(); ++i) w = etc_set_field(w, free_bits[i], 1, (combo >> i) & 1);
        if (etc_mode_of(w, punch) == mode) {
            v = w;
            return true;
        }
    }
    return false;
}

inline void etc_append_word(std::vector<uint8_t>& out, EtcWord v) {
    for (int i = 7; i >= 0; --i) out.push_back(uint8_t(v >> (8 * i)));
}

// The spec's planar worked example: "the origin (R, G, B) is encoded as the 6-7-6-bit value
// (12, 64, 62) ... (Rh, Gh, Bh) = (50, 5, 37) and (Rv, Gv, Bv) = (40, 112, 45)", before the
// mode-selection bits are set; and the spec's table of its texel colours, rows y = 0..3, x = 0..3.
inline EtcWord etc_spec_planar_example() {
    // RO; GO in two parts; BO in three; RH in two; GH; BH; RV; GV; BV.
    return etc_word({{57, 6, 12},
                     {56, 1, 64 >> 6},
                     {49, 6, 64 & 63},
                     {48, 1, 62 >> 5},
                     {43, 2, (62 >> 3) & 3},
                     {39, 3, 62 & 7},
                     {34, 5, 50 >> 1},
                     {32, 1, 50 & 1},
                     {25, 7, 5},
                     {19, 6, 37},
                     {13, 6, 40},
                     {6, 7, 112},
                     {0, 6, 45}});
}
inline constexpr uint8_t kEtcSpecPlanarTexels[16][3] = {
    {48, 129, 251},  {87, 99, 226},   {126, 70, 201},  {164, 40, 175},  {77, 153, 234},  {115, 123, 209},
    {154, 94, 183},  {193, 64, 158},  {105, 177, 217}, {144, 147, 191}, {183, 118, 166}, {221, 88, 141},
    {134, 201, 199}, {172, 171, 174}, {211, 142, 149}, {250, 112, 124},
};

}  // namespace texdec_test

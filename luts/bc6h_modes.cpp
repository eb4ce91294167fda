// BC6H mode descriptions, typed from the Khronos Data Format Specification, "BPTC Compressed Texture
// Image Formats", section "BC6H"; see bc6h_modes.h.
//
// The field lists are kept in the spec's own notation so that they can be read against the table
// "Block descriptions for BC6H block modes (LSB..MSB)" line by line; everything else (bit
// positions, runs for the shader) is derived from them. tests/test_bc6h_modes.cpp checks the
// derivation against the spec's second form of the same data, the tables "Interpretation of
// lower/upper bits for BC6H block modes".
#include "luts/bc6h_modes.h"

#include <stdexcept>
#include <string>

#include "shaders/interface.h"

namespace texdec::luts {
namespace {

// "Endpoint and partition parameters for BPTC block modes", rows in table order.
constexpr std::array<Bc6hMode, kBc6hModeCount> kModes = {{
    {0, 2, true, 5, 10, {5, 5, 5}, 3},
    {1, 2, true, 5, 7, {6, 6, 6}, 3},
    {2, 5, true, 5, 11, {5, 4, 4}, 3},
    {6, 5, true, 5, 11, {4, 5, 4}, 3},
    {10, 5, true, 5, 11, {4, 4, 5}, 3},
    {14, 5, true, 5, 9, {5, 5, 5}, 3},
    {18, 5, true, 5, 8, {6, 5, 5}, 3},
    {22, 5, true, 5, 8, {5, 6, 5}, 3},
    {26, 5, true, 5, 8, {5, 5, 6}, 3},
    {30, 5, false, 5, 6, {6, 6, 6}, 3},
    {3, 5, false, 0, 10, {10, 10, 10}, 4},
    {7, 5, true, 0, 11, {9, 9, 9}, 4},
    {11, 5, true, 0, 12, {8, 8, 8}, 4},
    {15, 5, true, 0, 16, {4, 4, 4}, 4},
}};

// "Block descriptions for BC6H block modes (LSB..MSB)", same order. v:a..b is v^a..b^, v:a is v^a^.
constexpr std::string_view kDescriptions[kBc6hModeCount] = {
    // 0
    "M:1..0 G2:4 B2:4 B3:4 R0:9..0 G0:9..0 B0:9..0 R1:4..0 G3:4 G2:3..0 G1:4..0 B3:0 G3:3..0 B1:4..0 "
    "B3:1 B2:3..0 R2:4..0 B3:2 R3:4..0 B3:3 PB:4..0",
    // 1
    "M:1..0 G2:5 G3:4 G3:5 R0:6..0 B3:0 B3:1 B2:4 G0:6..0 B2:5 B3:2 G2:4 B0:6..0 B3:3 B3:5 B3:4 "
    "R1:5..0 G2:3..0 G1:5..0 G3:3..0 B1:5..0 B2:3..0 R2:5..0 R3:5..0 PB:4..0",
    // 2
    "M:4..0 R0:9..0 G0:9..0 B0:9..0 R1:4..0 R0:10 G2:3..0 G1:3..0 G0:10 B3:0 G3:3..0 B1:3..0 B0:10 "
    "B3:1 B2:3..0 R2:4..0 B3:2 R3:4..0 B3:3 PB:4..0",
    // 6
    "M:4..0 R0:9..0 G0:9..0 B0:9..0 R1:3..0 R0:10 G3:4 G2:3..0 G1:4..0 G0:10 G3:3..0 B1:3..0 B0:10 "
    "B3:1 B2:3..0 R2:3..0 B3:0 B3:2 R3:3..0 G2:4 B3:3 PB:4..0",
    // 10
    "M:4..0 R0:9..0 G0:9..0 B0:9..0 R1:3..0 R0:10 B2:4 G2:3..0 G1:3..0 G0:10 B3:0 G3:3..0 B1:4..0 "
    "B0:10 B2:3..0 R2:3..0 B3:1 B3:2 R3:3..0 B3:4 B3:3 PB:4..0",
    // 14
    "M:4..0 R0:8..0 B2:4 G0:8..0 G2:4 B0:8..0 B3:4 R1:4..0 G3:4 G2:3..0 G1:4..0 B3:0 G3:3..0 B1:4..0 "
    "B3:1 B2:3..0 R2:4..0 B3:2 R3:4..0 B3:3 PB:4..0",
    // 18
    "M:4..0 R0:7..0 G3:4 B2:4 G0:7..0 B3:2 G2:4 B0:7..0 B3:3 B3:4 R1:5..0 G2:3..0 G1:4..0 B3:0 "
    "G3:3..0 B1:4..0 B3:1 B2:3..0 R2:5..0 R3:5..0 PB:4..0",
    // 22
    "M:4..0 R0:7..0 B3:0 B2:4 G0:7..0 G2:5 G2:4 B0:7..0 G3:5 B3:4 R1:4..0 G3:4 G2:3..0 G1:5..0 "
    "G3:3..0 B1:4..0 B3:1 B2:3..0 R2:4..0 B3:2 R3:4..0 B3:3 PB:4..0",
    // 26
    "M:4..0 R0:7..0 B3:1 B2:4 G0:7..0 B2:5 G2:4 B0:7..0 B3:5 B3:4 R1:4..0 G3:4 G2:3..0 G1:4..0 B3:0 "
    "G3:3..0 B1:5..0 B2:3..0 R2:4..0 B3:2 R3:4..0 B3:3 PB:4..0",
    // 30
    "M:4..0 R0:5..0 G3:4 B3:0 B3:1 B2:4 G0:5..0 G2:5 B2:5 B3:2 G2:4 B0:5..0 G3:5 B3:3 B3:5 B3:4 "
    "R1:5..0 G2:3..0 G1:5..0 G3:3..0 B1:5..0 B2:3..0 R2:5..0 R3:5..0 PB:4..0",
    // 3
    "M:4..0 R0:9..0 G0:9..0 B0:9..0 R1:9..0 G1:9..0 B1:9..0",
    // 7
    "M:4..0 R0:9..0 G0:9..0 B0:9..0 R1:8..0 R0:10 G1:8..0 G0:10 B1:8..0 B0:10",
    // 11
    "M:4..0 R0:9..0 G0:9..0 B0:9..0 R1:7..0 R0:10..11 G1:7..0 G0:10..11 B1:7..0 B0:10..11",
    // 15
    "M:4..0 R0:9..0 G0:9..0 B0:9..0 R1:3..0 R0:10..15 G1:3..0 G0:10..15 B1:3..0 B0:10..15",
};

void check_ordinal(int ordinal) {
    if (ordinal < 0 || ordinal >= kBc6hModeCount) throw std::out_of_range("BC6H mode ordinal out of range");
}

int parse_number(std::string_view s) {
    if (s.empty()) throw std::invalid_argument("BC6H description: empty number");
    int n = 0;
    for (char c : s) {
        if (c < '0' || c > '9') throw std::invalid_argument("BC6H description: bad number " + std::string(s));
        n = n * 10 + (c - '0');
    }
    return n;
}

// "R0:9..0" -> {0, 9, 0}; "PB:4..0" -> {12, 4, 0}; "M:1..0" -> {13, 1, 0}.
Bc6hField parse_field(std::string_view token) {
    const size_t colon = token.find(':');
    if (colon == std::string_view::npos) throw std::invalid_argument("BC6H description: no ':' in " + std::string(token));
    const std::string_view name = token.substr(0, colon), bits = token.substr(colon + 1);
    int value;
    if (name == "M") {
        value = kBc6hValueMode;
    } else if (name == "PB") {
        value = kBc6hValuePartition;
    } else {
        const std::string_view channels = "RGB";
        if (name.size() != 2 || channels.find(name[0]) == std::string_view::npos || name[1] < '0' || name[1] > '3')
            throw std::invalid_argument("BC6H description: bad value name " + std::string(name));
        value = 3 * (name[1] - '0') + int(channels.find(name[0]));
    }
    const size_t dots = bits.find("..");
    const int a = parse_number(bits.substr(0, dots));
    const int b = dots == std::string_view::npos ? a : parse_number(bits.substr(dots + 2));
    return Bc6hField{uint8_t(value), uint8_t(a), uint8_t(b)};
}

}  // namespace

const std::array<Bc6hMode, kBc6hModeCount>& bc6h_modes() { return kModes; }

int bc6h_mode_for_low_bits(uint32_t low5) {
    const uint32_t number = (low5 & 3u) < 2u ? (low5 & 3u) : (low5 & 31u);
    for (int i = 0; i < kBc6hModeCount; ++i)
        if (kModes[size_t(i)].number == number) return i;
    return -1;  // 19, 23, 27, 31
}

std::string_view bc6h_block_description(int ordinal) {
    check_ordinal(ordinal);
    return kDescriptions[ordinal];
}

std::vector<Bc6hField> bc6h_fields(int ordinal) {
    const std::string_view text = bc6h_block_description(ordinal);
    std::vector<Bc6hField> fields;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find(' ', pos);
        if (end == std::string_view::npos) end = text.size();
        if (end > pos) fields.push_back(parse_field(text.substr(pos, end - pos)));
        pos = end + 1;
    }
    return fields;
}

std::vector<Bc6hBitSource> bc6h_header_bit_sources(int ordinal) {
    std::vector<Bc6hBitSource> bits;
    for (const Bc6hField& f : bc6h_fields(ordinal)) {
        // First block bit -> value bit b, last -> value bit a.
        const int step = f.a >= f.b ? 1 : -1;
        for (int v = f.b;; v += step) {
            bits.push_back(Bc6hBitSource{f.value, uint8_t(v)});
            if (v == f.a) break;
        }
    }
    return bits;
}

std::vector<uint32_t> bc6h_lut_words() {
    std::vector<uint32_t> w(TEXDEC_BPTC_LUT_BC6H_WORDS, 0);
    for (int ordinal = 0; ordinal < kBc6hModeCount; ++ordinal) {
        const Bc6hMode& m = kModes[size_t(ordinal)];
        uint32_t runs = 0, bit = 0;
        for (const Bc6hField& f : bc6h_fields(ordinal)) {
            const uint32_t length = uint32_t(f.a >= f.b ? f.a - f.b : f.b - f.a) + 1;
            if (f.value != kBc6hValueMode) {
                const uint32_t low = f.a < f.b ? f.a : f.b;
                w[TEXDEC_BPTC_LUT_BC6H_RUNS - TEXDEC_BPTC_LUT_BC6H_MODES + uint32_t(ordinal) * TEXDEC_BPTC_LUT_BC6H_MAX_RUNS + runs] =
                    uint32_t{f.value} | (bit << 4) | (low << 11) | (length << 15) | (uint32_t{f.a < f.b} << 20);
                ++runs;
            }
            bit += length;
        }
        if (runs > TEXDEC_BPTC_LUT_BC6H_MAX_RUNS) throw std::logic_error("BC6H: more runs than the table holds");
        const uint32_t word = uint32_t{m.endpoint_bits} | (uint32_t{m.delta_bits[0]} << 5) |
                              (uint32_t{m.delta_bits[1]} << 9) | (uint32_t{m.delta_bits[2]} << 13) |
                              (uint32_t{m.transformed} << 17) | (uint32_t{m.partition_bits != 0} << 18) |
                              (runs << 19) | (uint32_t(ordinal) << 24) | (1u << 31);
        for (uint32_t low5 = 0; low5 < 32; ++low5)
            if (bc6h_mode_for_low_bits(low5) == ordinal) w[low5] = word;
    }
    return w;
}

}  // namespace texdec::luts

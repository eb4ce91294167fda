#include "astc_hdr_scan.h"

#include <vector>

#include "luts/astc_tables.h"

namespace astc_hdr_scan {
namespace {

// Bits [first, first + count) of the block, bit 0 = the lowest bit of byte 0; count <= 32.
uint32_t bits(const uint8_t* block, unsigned first, unsigned count) {
    uint64_t window = 0;  // the bytes holding the field (at most 5 for 32 bits at any offset)
    const unsigned byte = first >> 3;
    for (unsigned i = 0; i < 5 && byte + i < 16; ++i) window |= uint64_t(block[byte + i]) << (8 * i);
    return uint32_t((window >> (first & 7)) & ((uint64_t(1) << count) - 1));
}

bool is_hdr_cem(uint32_t cem) { return cem == 2 || cem == 3 || cem == 7 || cem == 11 || cem == 14 || cem == 15; }

// "Void-Extent Blocks": the HDR flag, on a void extent that is legal (else it is an error block
// in both profiles). 2D: bits 10..11 must be 11, then four 13-bit coordinates; 3D: six 9-bit ones.
// Coordinates are all ones (no extent) or min < max on every axis.
bool is_hdr_void_extent(const uint8_t* block, bool is_3d) {
    if (!bits(block, 9, 1)) return false;
    const unsigned width = is_3d ? 9 : 13, first = is_3d ? 10 : 12, axes = is_3d ? 3 : 2;
    if (!is_3d && bits(block, 10, 2) != 3) return false;
    const uint32_t all_ones = (1u << width) - 1;
    bool none = true, ordered = true;
    for (unsigned a = 0; a < axes; ++a) {
        const uint32_t lo = bits(block, first + 2 * a * width, width), hi = bits(block, first + (2 * a + 1) * width, width);
        none = none && lo == all_ones && hi == all_ones;
        ordered = ordered && lo < hi;
    }
    return none || ordered;
}

// The block-mode part: `mode` is decode_block_mode of the block's 11 mode bits for its footprint.
bool is_hdr(const uint8_t* block, const texdec::luts::BlockMode& mode, bool is_3d) {
    using texdec::luts::BlockModeKind;
    if (mode.kind == BlockModeKind::void_extent) return is_hdr_void_extent(block, is_3d);
    if (mode.kind != BlockModeKind::weights) return false;
    const uint32_t partitions = bits(block, 11, 2) + 1;
    if (mode.dual_plane && partitions == 4) return false;
    uint32_t cem[4] = {0, 0, 0, 0};
    int config_bits = 17;
    if (partitions == 1) {
        cem[0] = bits(block, 13, 4);
    } else if (bits(block, 23, 2) == 0) {
        // One CEM for every partition, in bits 25..28.
        for (uint32_t p = 0; p < partitions; ++p) cem[p] = bits(block, 25, 4);
        config_bits = 29;
    } else {
        // Selector = base class + 1, then one class bit per partition, then two mode bits per
        // partition: the first 6 bits of that field are bits 23..28, the other 3N - 4 sit
        // directly below the weights.
        const unsigned extra = 3 * partitions - 4;
        const unsigned below = 128 - mode.weight_bits - extra;
        const uint32_t field = bits(block, 23, 6) | bits(block, below, extra) << 6;
        const uint32_t base = (field & 3) - 1;
        for (uint32_t p = 0; p < partitions; ++p)
            cem[p] = (base + ((field >> (2 + p)) & 1)) << 2 | ((field >> (2 + partitions + 2 * p)) & 3);
        config_bits = 25 + 3 * int(partitions);
    }
    if (mode.dual_plane) config_bits += 2;
    uint32_t values = 0;
    bool hdr = false;
    for (uint32_t p = 0; p < partitions; ++p) {
        values += 2 * ((cem[p] >> 2) + 1);
        hdr = hdr || is_hdr_cem(cem[p]);
    }
    if (!hdr || values > 18) return false;
    // "Illegal Encodings": too few bits left for the colour values.
    return texdec::luts::color_range_for(values, 128 - config_bits - int(mode.weight_bits)) >= 0;
}

}  // namespace

bool is_hdr_block(const uint8_t* block, uint32_t bw, uint32_t bh, uint32_t bd) {
    return is_hdr(block, texdec::luts::decode_block_mode(bits(block, 0, 11), bw, bh, bd), bd > 1);
}

Count count(std::span<const uint8_t> blocks, uint32_t bw, uint32_t bh, uint32_t bd) {
    Count c;
    if (blocks.size() < 16) return c;
    // Every block mode of the footprint decoded once (2048), not once per block.
    std::vector<texdec::luts::BlockMode> modes(2048);
    for (uint32_t m = 0; m < 2048; ++m) modes[m] = texdec::luts::decode_block_mode(m, bw, bh, bd);
    for (size_t at = 0; at + 16 <= blocks.size(); at += 16) {
        const uint8_t* block = blocks.data() + at;
        ++c.blocks;
        c.hdr += is_hdr(block, modes[block[0] | (block[1] & 7u) << 8], bd > 1);
    }
    return c;
}

}  // namespace astc_hdr_scan

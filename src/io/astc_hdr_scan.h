// Finds ASTC blocks that only the HDR profile decodes: blocks whose colour endpoint modes include
// an HDR mode (2, 3, 7, 11, 14, 15) and HDR void extents. The LDR and sRGB profiles decode those
// to the error colour (magenta), so a file of HDR data read as astc-*-unorm / -srgb comes out
// magenta; the CLI counts them on the CPU (cheap: no texel is decoded) to say so and name the fix.
// Written from the Khronos Data Format Specification's ASTC chapter ("Block Mode", "Color Endpoint
// Mode", "Data Size Determination", "Void-Extent Blocks", "Illegal Encodings"); block modes are
// decoded by luts/astc_tables (decode_block_mode, color_range_for).
#pragma once

#include <cstdint>
#include <span>

namespace astc_hdr_scan {

struct Count {
    uint64_t blocks = 0;  // blocks looked at
    uint64_t hdr = 0;     // of them: legal blocks with an HDR endpoint mode, and HDR void extents
};

// True if the 16-byte block is a legal block that uses an HDR endpoint mode in any partition, or
// a legal void extent with the HDR flag (bit 9). Illegal blocks are error blocks in every profile
// and are not counted. Footprint bw x bh x bd (bd 1 for 2D footprints).
bool is_hdr_block(const uint8_t* block, uint32_t bw, uint32_t bh, uint32_t bd);

// Counts every whole 16-byte block of `blocks`.
Count count(std::span<const uint8_t> blocks, uint32_t bw, uint32_t bh, uint32_t bd);

// "Mostly": at least half of the blocks (the CLI warns from there; fewer HDR blocks leave a picture
// that is mostly right and shows its magenta patches for what they are).
inline bool mostly_hdr(const Count& c) { return c.blocks > 0 && c.hdr * 2 >= c.blocks; }

}  // namespace astc_hdr_scan

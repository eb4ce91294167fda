// Hardware BC1-BC5 test vectors: the texels a GPU's own BC decoder returned for a fixed list of
// blocks (the NVIDIA rounding mode is proven against vectors captured on an H100).
//
// The blocks are not stored: capture_sets() generates them (exhaustive endpoint sweeps + random
// blocks), and each set's FNV-1a checksum in the file says they are still the captured ones.
// What is stored is the measurement, two readbacks of every channel of every texel:
//   - the float texelFetch returned, as a 16-bit value: UNORM k with float = k / 65535, SNORM k
//     with float = k / 32767 (the capture checks that every float is one; NVIDIA returns BC1-BC3
//     as 8-bit values, k = 257 v, and BC4/BC5 with 16 bits);
//   - the byte the device wrote when it stored that float into an RGBA8 UNORM (SNORM) image.
//
// File (tests/vectors/nvidia/<format>.tdv): one Zstandard frame holding
//   a text header, lines "key: value", ended by an empty line:
//     texdec native BC vectors: 2
//     device: <VkPhysicalDeviceProperties::deviceName>
//     vendor: 0x10de   driver: 0x...   (the raw VkPhysicalDeviceProperties fields)
//     format: <texdec format name>
//     channels: <n>                   (channels per texel below: R, RG, RGB or RGBA)
//     values: 16-bit | 257 x byte     (the second: every float was the byte v as v / 255, so the
//                                       16-bit values are left out of the body)
//     set: <name> <blocks> <fnv1a64 of the blocks, hex>      (one line per set, in body order)
//   then the body: per set, per block, 16 texels (t = 4y + x) x channels bytes (the 8-bit
//   readback; SNORM two's complement), then (values: 16-bit) 16 x channels 16-bit little-endian
//   values (the float readback; SNORM two's complement). Each byte is stored as the difference (mod 256) from the
//   byte one block earlier in the same set (0 before the first block): Zstandard compresses that well.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bc_formats.h"

namespace texdec_test {

struct CaptureSet {
    std::string name;
    std::vector<uint8_t> blocks;  // tightly packed blocks of the format
};

// The blocks captured for `format` (a BC1-BC5 format; sRGB formats have the UNORM ones' sets):
//   BC1, BC2, BC3 colour: "colour-4" (red endpoint 0 > red endpoint 1: 4-colour mode), "colour-3"
//     (red 0 < red 1: 3-colour mode for BC1; BC2/BC3 must still decode 4 colours), "red-equal"
//     (equal red: green and blue decide the mode). In each, green runs over every 6-bit endpoint
//     pair and blue over every 5-bit pair (4 times); each block row uses codes 0, 1, 2, 3.
//   BC2 alpha: texel t of block i has alpha code (t + i) mod 16.
//   BC3 alpha, BC4: "pairs": every (e0, e1) byte pair, one per block, codes 0..7 in every row pair;
//     BC3's colour blocks cycle through colour-4 and colour-3.
//   BC5: "pairs": red (e0, e1) = every byte pair, green the swapped pair, green codes reversed.
//   every format: "random": 2048 random blocks (tests/support/random_blocks.h, seed 10).
std::vector<CaptureSet> capture_sets(const BcFormat& format);

uint64_t fnv1a64(const uint8_t* data, size_t size);

struct NativeVectors {
    std::string device, vendor, driver, format;
    uint32_t channels = 0;
    struct Set {
        std::string name;
        size_t blocks = 0;
        uint64_t checksum = 0;
        std::vector<uint8_t> bytes;      // blocks x 16 x channels: the 8-bit readback
        std::vector<uint16_t> values;    // blocks x 16 x channels: the float readback as 16 bits
    };
    std::vector<Set> sets;
};

// Serialise / parse a vector file (the layout above). read_native_vectors returns false and
// sets `error` on a malformed file.
std::vector<uint8_t> write_native_vectors(const NativeVectors& vectors);
bool read_native_vectors(const std::vector<uint8_t>& file, NativeVectors& vectors, std::string& error);

// The file name of a format's vectors: "<name>.tdv" (sRGB formats use their UNORM twin's).
std::string native_vectors_file_name(const BcFormat& format);

// How a set is laid out as an image, for the capture and for the library's decode: rows of
// kCaptureBlocksPerRow blocks. Texel t (= 4y + x) of block b is texel capture_texel(b, t).
constexpr uint32_t kCaptureBlocksPerRow = 256;
constexpr uint32_t kCaptureWidth = kCaptureBlocksPerRow * 4;
inline uint32_t capture_height(size_t blocks) { return uint32_t((blocks + kCaptureBlocksPerRow - 1) / kCaptureBlocksPerRow) * 4; }
inline size_t capture_texel(size_t block, uint32_t t) {
    return ((block / kCaptureBlocksPerRow) * 4 + t / 4) * size_t(kCaptureWidth) + (block % kCaptureBlocksPerRow) * 4 + t % 4;
}

}  // namespace texdec_test

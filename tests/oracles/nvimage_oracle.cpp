#include "nvimage_oracle.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

// libnvimage's block classes are declared in nvimage_decl.h (minimal, layout-compatible
// declarations written from the exported symbols that `nm -DC libnvimage.so` lists, e.g.
// nv::BlockDXT1::decodeBlock(nv::ColorBlock*) const = _ZNK2nv9BlockDXT111decodeBlockEPNS_10ColorBlockE).
// nv::ColorBlock is 16 Color32 texels, row-major, each stored as the bytes B, G, R, A (measured by
// decoding known blocks). decode_checked() below verifies on every call that nothing past those
// 64 bytes is written, so a wrong size assumption cannot pass silently.
#include "nvimage_decl.h"

static_assert(sizeof(nv::BlockDXT1) == 8 && sizeof(nv::BlockDXT3) == 16 && sizeof(nv::BlockATI2) == 16,
              "the block classes are the raw compressed bytes");

namespace texdec_test::nvimage {
namespace {

constexpr size_t kColorBlockBytes = 64;
constexpr size_t kGuardBytes = 64;
constexpr uint8_t kGuard = 0xA5;

// Decodes into a 64-byte BGRA ColorBlock followed by guard bytes; aborts if the guard changed.
template <typename Block>
void decode_checked(const uint8_t* raw, uint8_t bgra[kColorBlockBytes]) {
    Block block;
    std::memcpy(block.bytes, raw, sizeof block.bytes);
    alignas(16) uint8_t storage[kColorBlockBytes + kGuardBytes];
    std::memset(storage, kGuard, sizeof storage);
    block.decodeBlock(reinterpret_cast<nv::ColorBlock*>(storage));
    for (size_t i = kColorBlockBytes; i < sizeof storage; ++i)
        if (storage[i] != kGuard) {
            std::fprintf(stderr, "nvimage_oracle: nv::ColorBlock is larger than 64 bytes; fix the declarations\n");
            std::abort();
        }
    std::memcpy(bgra, storage, kColorBlockBytes);
}

// Decodes one colour block with `Block` and reorders nv::ColorBlock's B, G, R, A bytes to RGBA.
template <typename Block>
void decode_rgba(const uint8_t* block, uint8_t rgba[64]) {
    uint8_t bgra[64];
    decode_checked<Block>(block, bgra);
    for (int t = 0; t < 16; ++t) {
        rgba[4 * t + 0] = bgra[4 * t + 2];
        rgba[4 * t + 1] = bgra[4 * t + 1];
        rgba[4 * t + 2] = bgra[4 * t + 0];
        rgba[4 * t + 3] = bgra[4 * t + 3];
    }
}

}  // namespace

void decode_dxt1(const uint8_t block[8], uint8_t rgba[64]) { decode_rgba<nv::BlockDXT1>(block, rgba); }

void decode_dxt3(const uint8_t block[16], uint8_t rgba[64]) { decode_rgba<nv::BlockDXT3>(block, rgba); }

void decode_dxt5(const uint8_t block[16], uint8_t rgba[64]) { decode_rgba<nv::BlockDXT5>(block, rgba); }

// BlockATI1 writes the value to R, G and B (alpha 255); BlockATI2 writes x to R and y to G.
void decode_ati1(const uint8_t block[8], uint8_t red[16]) {
    uint8_t bgra[64];
    decode_checked<nv::BlockATI1>(block, bgra);
    for (int t = 0; t < 16; ++t) red[t] = bgra[4 * t + 2];
}

void decode_ati2(const uint8_t block[16], uint8_t red[16], uint8_t green[16]) {
    uint8_t bgra[64];
    decode_checked<nv::BlockATI2>(block, bgra);
    for (int t = 0; t < 16; ++t) {
        red[t] = bgra[4 * t + 2];
        green[t] = bgra[4 * t + 1];
    }
}

}  // namespace texdec_test::nvimage

// Declarations for the block decoders inside libnvimage (Debian's libnvtt-dev, nvtt 2.0.8).
// The package ships only nvtt.h (the compressor API), but the block classes' decodeBlock methods
// are exported (`nm -DC libnvimage.so`). These declarations only have to produce the same mangled
// names and the same object layout (plain bytes: 8 per 64-bit block, 16 per 128-bit block;
// ColorBlock = 16 Color32 texels, each stored as bytes B, G, R, A).
#pragma once
#include <cstdint>

namespace nv {
struct ColorBlock {
    uint8_t bgra[16][4];
};
struct BlockDXT1 {
    uint8_t bytes[8];
    void decodeBlock(ColorBlock* block) const;
};
struct BlockDXT3 {
    uint8_t bytes[16];
    void decodeBlock(ColorBlock* block) const;
};
struct BlockDXT5 {
    uint8_t bytes[16];
    void decodeBlock(ColorBlock* block) const;
};
struct BlockATI1 {
    uint8_t bytes[8];
    void decodeBlock(ColorBlock* block) const;
};
struct BlockATI2 {
    uint8_t bytes[16];
    void decodeBlock(ColorBlock* block) const;
};
}  // namespace nv

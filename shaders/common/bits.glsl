// Bit-field helpers for blocks read as little-endian 32-bit words.
#ifndef TEXDEC_COMMON_BITS_GLSL
#define TEXDEC_COMMON_BITS_GLSL

// Bits [offset, offset + count) of the 64-bit little-endian value words.x | words.y << 32.
// 1 <= count <= 32, offset + count <= 64; the field may straddle the two words.
uint texdec_bits64(uvec2 words, uint offset, uint count) {
    if (offset >= 32u) return bitfieldExtract(words.y, int(offset - 32u), int(count));
    uint low = words.x >> offset;
    uint high = offset == 0u ? 0u : words.y << (32u - offset);  // a shift by 32 is undefined
    return bitfieldExtract(low | high, 0, int(count));
}

// Bits [offset, offset + count) of a 128-bit block read as four little-endian words (bit 0 = bit 0
// of words.x). 0 <= count <= 32, offset + count <= 128; the field may straddle two words.
uint texdec_bits128(uvec4 words, uint offset, uint count) {
    // Selects instead of words[i]: a dynamically indexed vector may be spilled to local memory.
    uint word = offset >> 5u, shift = offset & 31u;
    uint w0 = word == 0u ? words.x : word == 1u ? words.y : word == 2u ? words.z : words.w;
    uint w1 = word == 0u ? words.y : word == 1u ? words.z : word == 2u ? words.w : 0u;
    uint high = shift != 0u ? w1 << (32u - shift) : 0u;  // a shift by 32 is undefined
    return bitfieldExtract((w0 >> shift) | high, 0, int(count));
}

// Byte `index` (0..3) of a word as an unsigned value, or as a two's complement value.
uint texdec_byte(uint word, uint index) {
    return bitfieldExtract(word, int(index * 8u), 8);
}
int texdec_signed_byte(uint word, uint index) {
    return bitfieldExtract(int(word), int(index * 8u), 8);  // sign-extends
}

#endif

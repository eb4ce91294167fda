// Reading one 8- or 16-byte block with as few loads as its alignment allows.
//
// The source binding is bound at an offset aligned to minStorageBufferOffsetAlignment (at least
// 4), and pc.src_base_word and the row and slice strides are plain word counts, so a block is
// only known to be 4-byte aligned. Two more declarations of TEXDEC_BINDING_SRC view the same bytes
// as 8- and 16-byte words: a block is read through the widest view its first word index is a
// multiple of, word by word otherwise. Every path reads the same bytes of a read-only buffer,
// so the aliasing cannot change a result.
#ifndef TEXDEC_COMMON_LOAD_BLOCK_GLSL
#define TEXDEC_COMMON_LOAD_BLOCK_GLSL

#include "layout.glsl"

layout(std430, set = 0, binding = TEXDEC_BINDING_SRC) readonly buffer SrcVec2 {
    uvec2 src_vec2[];
};
layout(std430, set = 0, binding = TEXDEC_BINDING_SRC) readonly buffer SrcVec4 {
    uvec4 src_vec4[];
};

// The 8-byte block whose first word is src_words[first_word], as little-endian words.
uvec2 texdec_load_block_8(uint first_word) {
    if ((first_word & 1u) == 0u) return src_vec2[first_word >> 1u];
    return uvec2(src_words[first_word], src_words[first_word + 1u]);
}

// The 16-byte block whose first word is src_words[first_word], as little-endian words.
uvec4 texdec_load_block_16(uint first_word) {
    if ((first_word & 3u) == 0u) return src_vec4[first_word >> 2u];
    if ((first_word & 1u) == 0u) return uvec4(src_vec2[first_word >> 1u], src_vec2[(first_word >> 1u) + 1u]);
    return uvec4(src_words[first_word], src_words[first_word + 1u], src_words[first_word + 2u],
                 src_words[first_word + 3u]);
}

#endif

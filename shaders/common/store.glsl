// Writing decoded texels (as channel codes, see common/encode.glsl) to the destination.
//
// Buffer destination: texel (x, y, z) of the chunk starts at byte
//   pc.dst_base_byte + z * pc.dst_slice_pitch + y * pc.dst_row_pitch + x * TEXEL_BYTES
// little-endian. Texels of 4 or 8 bytes are word-aligned (the host guarantees it). 1- and
// 2-byte texels (R8, RG8, R16) can share a word with other invocations' texels or with caller
// bytes outside the extent, so words this invocation does not own whole are merged with
// atomicAnd/atomicOr, which change only our bytes.
//
// A run of 4 texels of 4 or 8 bytes (one block row of RGBA8 or RGBA16F) that lies wholly inside
// the extent at a 16-byte aligned address is written with 16-byte stores instead, through a
// second declaration of the destination binding (dst_vec4). Texels that wide are never shared
// between invocations and never read back (only the narrow path's atomics read), so writing
// them through either declaration gives the same bytes.
//
// Image destination: imageStore of the channel values as vec4 at (dst_x + x, dst_y + y,
// dst_layer + z) (layer, or depth slice of a 3D view); the view's format
// (TEXDEC_DST_IMAGE_FORMAT) matches STORE. STORE_SWIZZLE moves the channels first, for images
// whose bytes hold them in another order than the view (B8G8R8A8 through an R8G8B8A8_UNORM view).
#ifndef TEXDEC_COMMON_STORE_GLSL
#define TEXDEC_COMMON_STORE_GLSL

#include "layout.glsl"
#include "encode.glsl"

const uint TEXEL_BYTES = STORE == TEXDEC_STORE_RGBA16F ? 8u
                       : (STORE == TEXDEC_STORE_RGBA8 || STORE == TEXDEC_STORE_RG16) ? 4u
                       : STORE == TEXDEC_STORE_R8 ? 1u
                       : 2u;  // RG8, R16
const bool STORE_IS_16BIT_INT = STORE == TEXDEC_STORE_R16 || STORE == TEXDEC_STORE_RG16;

// The little-endian bytes of one texel: .x = bytes 0..3, .y = bytes 4..7 (RGBA16F only).
uvec2 texdec_pack_texel(uvec4 c) {
    switch (STORE) {
    case TEXDEC_STORE_RGBA8:   return uvec2(c.r | (c.g << 8u) | (c.b << 16u) | (c.a << 24u), 0u);
    case TEXDEC_STORE_RGBA16F: return uvec2(c.r | (c.g << 16u), c.b | (c.a << 16u));
    case TEXDEC_STORE_RG8:     return uvec2(c.r | (c.g << 8u), 0u);
    case TEXDEC_STORE_RG16:    return uvec2(c.r | (c.g << 16u), 0u);
    default:                   return uvec2(c.r, 0u);  // R8, R16
    }
}

// The channel codes of a texel from its bytes (the inverse of texdec_pack_texel for the channels
// STORE holds; the others come back as 0).
uvec4 texdec_unpack_texel(uvec2 t) {
    switch (STORE) {
    case TEXDEC_STORE_RGBA8:   return uvec4(t.x & 0xFFu, (t.x >> 8u) & 0xFFu, (t.x >> 16u) & 0xFFu, t.x >> 24u);
    case TEXDEC_STORE_RGBA16F: return uvec4(t.x & 0xFFFFu, t.x >> 16u, t.y & 0xFFFFu, t.y >> 16u);
    case TEXDEC_STORE_RG8:     return uvec4(t.x & 0xFFu, (t.x >> 8u) & 0xFFu, 0u, 0u);
    case TEXDEC_STORE_RG16:    return uvec4(t.x & 0xFFFFu, t.x >> 16u, 0u, 0u);
    default:                   return uvec4(t.x, 0u, 0u, 0u);  // R8, R16
    }
}

#ifdef TEXDEC_DST_IMAGE_FORMAT

// The vec4 whose conversion to the image's format gives back exactly the codes: halves are
// exactly representable in fp32; n / 255 (or n / 127, n / 65535 ...) converts back to n.
vec4 texdec_image_value(uvec4 codes) {
    if (STORE_SWIZZLE == TEXDEC_STORE_SWIZZLE_BGRA) codes = codes.bgra;  // view channel 0 = the image's B byte
    if (STORE_IS_HALF)
        return vec4(unpackHalf2x16(codes.x).x, unpackHalf2x16(codes.y).x,
                    unpackHalf2x16(codes.z).x, unpackHalf2x16(codes.w).x);
    if (STORE_IS_16BIT_INT)
        return IS_SIGNED ? vec4(bitfieldExtract(ivec4(codes), 0, 16)) / 32767.0 : vec4(codes) / 65535.0;
    return IS_SIGNED ? vec4(bitfieldExtract(ivec4(codes), 0, 8)) / 127.0 : vec4(codes) / 255.0;
}

#else

// The destination as 16-byte words (see the top of this file).
layout(std430, set = 0, binding = TEXDEC_BINDING_DST) writeonly buffer DstVec4 {
    uvec4 dst_vec4[];
};

// Writes the bytes of `value` selected by `mask` into word `word`, leaving the others alone.
void texdec_merge_word(uint word, uint value, uint mask) {
    if (mask == 0u) return;
    if (mask == 0xFFFFFFFFu) {
        dst_words[word] = value;  // every byte is ours: no other invocation touches this word
    } else {
        atomicAnd(dst_words[word], ~mask);
        atomicOr(dst_words[word], value & mask);
    }
}

// Writes `count` (0..8) bytes, bytes.x first, at byte address `address` (any alignment).
void texdec_write_bytes(uint address, uvec2 bytes, uint count) {
    uvec2 mask = uvec2(count >= 4u ? 0xFFFFFFFFu : (1u << (8u * count)) - 1u,
                       count >= 8u ? 0xFFFFFFFFu : count > 4u ? (1u << (8u * (count - 4u))) - 1u : 0u);
    uint word = address >> 2u;
    uint shift = (address & 3u) * 8u;
    if (shift == 0u) {
        texdec_merge_word(word, bytes.x, mask.x);
        texdec_merge_word(word + 1u, bytes.y, mask.y);
    } else {  // the 8 bytes straddle three words
        uint back = 32u - shift;
        texdec_merge_word(word, bytes.x << shift, mask.x << shift);
        texdec_merge_word(word + 1u, (bytes.x >> back) | (bytes.y << shift),
                          (mask.x >> back) | (mask.y << shift));
        texdec_merge_word(word + 2u, bytes.y >> back, mask.y >> back);
    }
}

#endif

// Stores the 4 horizontally adjacent texels starting at chunk texel `first` (x, y, z), left to
// right, each given as its bytes (texdec_pack_texel). Only texels inside the extent
// (x < pc.width, y < pc.height) are written; the caller guarantees first.x < pc.width.
void texdec_store_4_packed(uvec3 first, uvec2 texels[4]) {
    if (first.y >= pc.height) return;
    uint count = min(4u, pc.width - first.x);
#ifdef TEXDEC_DST_IMAGE_FORMAT
    ivec3 origin = ivec3(pc.dst_x, pc.dst_y, pc.dst_layer) + ivec3(first);
    // Loops over all 4 with a test rather than up to `count`: a constant trip count unrolls, so
    // texels[] is only indexed by constants and stays in registers.
    for (uint i = 0u; i < 4u; ++i)
        if (i < count) imageStore(dst_image, origin + ivec3(int(i), 0, 0), texdec_image_value(texdec_unpack_texel(texels[i])));
#else
    uint address = pc.dst_base_byte + first.z * pc.dst_slice_pitch + first.y * pc.dst_row_pitch
                 + first.x * TEXEL_BYTES;
    if (TEXEL_BYTES >= 4u) {  // whole, aligned words
        // The whole run inside the extent and 16-byte aligned: one or two 16-byte stores, so a
        // subgroup writes whole contiguous rows rather than every fourth word.
        if (count == 4u && (address & 15u) == 0u) {
            uint quad = address >> 4u;
            if (TEXEL_BYTES == 8u) {
                dst_vec4[quad] = uvec4(texels[0], texels[1]);
                dst_vec4[quad + 1u] = uvec4(texels[2], texels[3]);
            } else {
                dst_vec4[quad] = uvec4(texels[0].x, texels[1].x, texels[2].x, texels[3].x);
            }
            return;
        }
        uint word = address >> 2u;
        for (uint i = 0u; i < 4u; ++i) {  // constant trip count, as above
            if (i >= count) break;
            if (TEXEL_BYTES == 8u) {
                dst_words[word + 2u * i] = texels[i].x;
                dst_words[word + 2u * i + 1u] = texels[i].y;
            } else {
                dst_words[word + i] = texels[i].x;
            }
        }
    } else {  // 1- or 2-byte texels: gather the run's 4 or 8 bytes, then merge them in
        uvec2 bytes;
        if (TEXEL_BYTES == 1u) {
            bytes = uvec2(texels[0].x | (texels[1].x << 8u) | (texels[2].x << 16u) | (texels[3].x << 24u), 0u);
        } else {
            bytes = uvec2(texels[0].x | (texels[1].x << 16u), texels[2].x | (texels[3].x << 16u));
        }
        texdec_write_bytes(address, bytes, count * TEXEL_BYTES);
    }
#endif
}

// texdec_store_4_packed for texels given as channel codes, left to right.
void texdec_store_4_texels(uvec3 first, uvec4 codes[4]) {
    uvec2 texels[4];
    for (uint i = 0u; i < 4u; ++i) texels[i] = texdec_pack_texel(codes[i]);
    texdec_store_4_packed(first, texels);
}

// Stores one texel at chunk texel `pos` (x, y, z) inside the extent. Texels of 4 or 8 bytes only
// (RGBA8, RGBA16F, RG16): whole aligned words, no other invocation shares them.
void texdec_store_texel(uvec3 pos, uvec4 codes) {
#ifdef TEXDEC_DST_IMAGE_FORMAT
    imageStore(dst_image, ivec3(pc.dst_x, pc.dst_y, pc.dst_layer) + ivec3(pos), texdec_image_value(codes));
#else
    uint word = (pc.dst_base_byte + pos.z * pc.dst_slice_pitch + pos.y * pc.dst_row_pitch + pos.x * TEXEL_BYTES) >> 2u;
    uvec2 texel = texdec_pack_texel(codes);
    dst_words[word] = texel.x;
    if (TEXEL_BYTES == 8u) dst_words[word + 1u] = texel.y;
#endif
}

#endif

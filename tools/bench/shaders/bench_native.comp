// astc-gpu-decode bench: the native path. texelFetch from a sampled image of the compressed
// VkFormat (the driver/hardware decodes), stored to a buffer in the same layout and texel format
// as texdec's output (rows of `width` texels, tightly packed).
//
// Each invocation covers TX x TY texels (TX along a row). STORE: 0 RGBA8, 1 RGBA16F, 2 R8,
// 3 RG8 (4, 8, 1, 2 bytes per texel); SIGNED packs SNORM. TX is a multiple of the texels per
// uvec4 (16 / bytes per texel: uvec4 stores), or 1 for 4- and 8-byte texels (word stores).
// The host picks shapes whose TX and TY divide the extent.
#version 450
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const uint TX = 1u;
layout(constant_id = 3) const uint TY = 1u;
layout(constant_id = 4) const uint STORE = 0u;
layout(constant_id = 5) const uint SIGNED = 0u;

layout(set = 0, binding = 0) uniform texture2D image;
layout(std430, set = 0, binding = 1) writeonly buffer Dst { uint dst[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Dst4 { uvec4 dst4[]; };

layout(push_constant) uniform Params {
    uint width;
    uint height;
    uint row_words;  // output words per row
} pc;

const uint TEXEL_BYTES = STORE == 0u ? 4u : STORE == 1u ? 8u : STORE == 2u ? 1u : 2u;
const uint TEXELS_PER_VEC4 = 16u / TEXEL_BYTES;

uint pack4(vec4 v) { return SIGNED != 0u ? packSnorm4x8(v) : packUnorm4x8(v); }
vec4 fetch(ivec2 p) { return texelFetch(image, p, 0); }

// Output word j (counted from texel p) of a row.
uint word_at(ivec2 p, uint j) {
    if (STORE == 0u) return pack4(fetch(p + ivec2(j, 0)));
    if (STORE == 1u) {
        const vec4 t = fetch(p + ivec2(j / 2u, 0));
        return (j & 1u) == 0u ? packHalf2x16(t.xy) : packHalf2x16(t.zw);
    }
    if (STORE == 2u)
        return pack4(vec4(fetch(p + ivec2(4u * j, 0)).r, fetch(p + ivec2(4u * j + 1u, 0)).r,
                          fetch(p + ivec2(4u * j + 2u, 0)).r, fetch(p + ivec2(4u * j + 3u, 0)).r));
    return pack4(vec4(fetch(p + ivec2(2u * j, 0)).rg, fetch(p + ivec2(2u * j + 1u, 0)).rg));
}

void main() {
    const uint x0 = gl_GlobalInvocationID.x * TX, y0 = gl_GlobalInvocationID.y * TY;
    if (x0 >= pc.width || y0 >= pc.height) return;
    for (uint dy = 0u; dy < TY; ++dy) {
        const ivec2 p = ivec2(x0, y0 + dy);
        const uint word0 = (y0 + dy) * pc.row_words + x0 * TEXEL_BYTES / 4u;
        if (TX % TEXELS_PER_VEC4 == 0u) {
            for (uint q = 0u; q < TX / TEXELS_PER_VEC4; ++q) {
                const ivec2 pq = p + ivec2(q * TEXELS_PER_VEC4, 0);
                dst4[word0 / 4u + q] = uvec4(word_at(pq, 0u), word_at(pq, 1u), word_at(pq, 2u), word_at(pq, 3u));
            }
        } else {
            for (uint j = 0u; j < TX * TEXEL_BYTES / 4u; ++j) dst[word0 + j] = word_at(p, j);
        }
    }
}

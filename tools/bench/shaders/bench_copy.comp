// astc-gpu-decode bench: the memory-bound ceiling. Reads every word of the block data once and
// writes every byte of the output once, with no decoding: the least DRAM traffic any decoder that
// reads these blocks and writes this output can have. The input words are mixed into the stored
// values so the loads stay live.
//
// WORDS: output words per invocation: 1 (word stores) or a multiple of 4 (uvec4 stores).
// GROUP: invocations per workgroup (64 or 256). WORDS 1 with GROUP 64 is the shape of a decoder
// with one invocation per RGBA8 texel in 64-invocation workgroups (texdec's ASTC decoder today).
// INTERLEAVED 0: each invocation writes WORDS consecutive words and reads the input words that
//   correspond to them (output word o <-> input word o * num / den);
// INTERLEAVED 1: a workgroup's invocations write consecutive uvec4s (store k of invocation t at
//   group_base + k * GROUP + t) and read the group's input words with a stride of GROUP (every
//   access of a subgroup is contiguous).
#version 450
layout(local_size_x_id = 2) in;
layout(constant_id = 0) const uint WORDS = 4u;
layout(constant_id = 1) const uint INTERLEAVED = 0u;
layout(constant_id = 2) const uint GROUP = 256u;

layout(std430, set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Dst { uvec4 dst[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Dst1 { uint dst1[]; };

layout(push_constant) uniform Params {
    uint out_vec4s;  // uvec4s of output in this dispatch (the output is a whole number of them)
    uint in_words;   // words of input in this dispatch
    uint num;        // input word of output word o: o * num / den (num = bytes per block,
    uint den;        //   den = output bytes per block)
    uint groups_x;   // workgroups per row of the dispatch grid
} pc;

void main() {
    const uint group = gl_WorkGroupID.y * pc.groups_x + gl_WorkGroupID.x;
    const uint lid = gl_LocalInvocationID.x;
    uint acc = 0u;
    if (WORDS == 1u) {
        const uint o = group * GROUP + lid;
        if (o >= pc.out_vec4s * 4u) return;
        const uint i0 = o * pc.num / pc.den, i1 = min(((o + 1u) * pc.num + pc.den - 1u) / pc.den, pc.in_words);
        for (uint i = i0; i < i1; ++i) acc ^= src[i];
        dst1[o] = acc ^ o;
        return;
    }
    const uint VEC = WORDS / 4u;
    const uint group_vec0 = group * GROUP * VEC;
    if (group_vec0 >= pc.out_vec4s) return;
    if (INTERLEAVED == 0u) {
        const uint v0 = group_vec0 + lid * VEC;
        if (v0 >= pc.out_vec4s) return;
        const uint o0 = v0 * 4u, o1 = min(v0 + VEC, pc.out_vec4s) * 4u;
        const uint i0 = o0 * pc.num / pc.den, i1 = min((o1 * pc.num + pc.den - 1u) / pc.den, pc.in_words);
        for (uint i = i0; i < i1; ++i) acc ^= src[i];
        for (uint k = 0u; k < VEC; ++k)
            if (v0 + k < pc.out_vec4s) dst[v0 + k] = uvec4(acc) ^ uvec4(v0 + k, k, lid, group);
    } else {
        const uint o0 = group_vec0 * 4u, o1 = min(group_vec0 + GROUP * VEC, pc.out_vec4s) * 4u;
        const uint i0 = o0 * pc.num / pc.den, i1 = min((o1 * pc.num + pc.den - 1u) / pc.den, pc.in_words);
        for (uint i = i0 + lid; i < i1; i += GROUP) acc ^= src[i];
        for (uint k = 0u; k < VEC; ++k) {
            const uint v = group_vec0 + k * GROUP + lid;
            if (v < pc.out_vec4s) dst[v] = uvec4(acc) ^ uvec4(v, k, lid, group);
        }
    }
}

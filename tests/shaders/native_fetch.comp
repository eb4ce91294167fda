// Native-decode oracle: texelFetch from a sampled image of a BC VkFormat (decoded by the
// driver) into a storage buffer of vec4, texel (x, y) of layer z at ((z * height) + y) * width + x,
// and the same vec4 through imageStore into an RGBA8 UNORM and an RGBA8 SNORM storage image: the
// device's own float -> 8-bit conversion (the "read back as UNORM8" of the NVIDIA capture).
#version 450
layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;
layout(set = 0, binding = 0) uniform sampler2DArray compressed;
layout(set = 0, binding = 1, std430) writeonly buffer Texels { vec4 texels[]; };
layout(set = 0, binding = 2, rgba8) uniform writeonly image2DArray unorm8;
layout(set = 0, binding = 3, rgba8_snorm) uniform writeonly image2DArray snorm8;
layout(push_constant) uniform Extent { uint width; uint height; uint layers; } extent;

void main() {
    uvec3 p = gl_GlobalInvocationID;
    if (p.x >= extent.width || p.y >= extent.height || p.z >= extent.layers) return;
    vec4 texel = texelFetch(compressed, ivec3(p), 0);
    texels[(p.z * extent.height + p.y) * extent.width + p.x] = texel;
    imageStore(unorm8, ivec3(p), texel);
    imageStore(snorm8, ivec3(p), texel);
}

// Lavapipe-native oracle: texelFetch from a sampled image of a BC VkFormat (decoded by the
// driver) into a storage buffer of vec4, texel (x, y) of layer z at ((z * height) + y) * width + x.
#version 450
layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;
layout(set = 0, binding = 0) uniform sampler2DArray compressed;
layout(set = 0, binding = 1, std430) writeonly buffer Texels { vec4 texels[]; };
layout(push_constant) uniform Extent { uint width; uint height; uint layers; } extent;

void main() {
    uvec3 p = gl_GlobalInvocationID;
    if (p.x >= extent.width || p.y >= extent.height || p.z >= extent.layers) return;
    texels[(p.z * extent.height + p.y) * extent.width + p.x] = texelFetch(compressed, ivec3(p), 0);
}

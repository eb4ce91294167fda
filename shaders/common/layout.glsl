// Resources and thread -> block mapping shared by every decoder shader.
// Needs "interface.h" included first (the shader does it). One invocation decodes one 4x4 block
// (BC, ETC); a shader that defines TEXDEC_ASTC_TILED before including this works on tiles of
// blocks in TEXDEC_ASTC_GROUP_SIZE-invocation workgroups instead (ASTC).
#ifndef TEXDEC_COMMON_LAYOUT_GLSL
#define TEXDEC_COMMON_LAYOUT_GLSL

#ifdef TEXDEC_ASTC_TILED
layout(local_size_x = TEXDEC_ASTC_GROUP_SIZE, local_size_y = 1, local_size_z = 1) in;
#else
layout(local_size_x = TEXDEC_WORKGROUP_X, local_size_y = 1, local_size_z = 1) in;
#endif

// Specialization constants (ids and values in interface.h). Being constants, every branch on
// them folds away when the pipeline is created.
layout(constant_id = TEXDEC_SC_VARIANT) const uint VARIANT = 0u;    // per-shader variant
layout(constant_id = TEXDEC_SC_SIGNED) const uint SIGNED = 0u;      // 1: SNORM / signed format
layout(constant_id = TEXDEC_SC_STORE) const uint STORE = 0u;        // TEXDEC_STORE_*
layout(constant_id = TEXDEC_SC_ROUNDING) const uint ROUNDING = 0u;  // TEXDEC_ROUNDING_*
layout(constant_id = TEXDEC_SC_SRGB) const uint SRGB = 0u;          // 1: sRGB format
layout(constant_id = TEXDEC_SC_STORE_SWIZZLE) const uint STORE_SWIZZLE = 0u;  // TEXDEC_STORE_SWIZZLE_* (image stores)

const bool IS_SIGNED = SIGNED != 0u;
const bool ROUND_IDEAL = ROUNDING == TEXDEC_ROUNDING_IDEAL;
const bool ROUND_NVIDIA = ROUNDING == TEXDEC_ROUNDING_NVIDIA;  // neither: EXACT

layout(push_constant) uniform PushBlock {
    TexdecPushConstants pc;
};

// The compressed blocks, as little-endian 32-bit words (byte 0 of a block = bits 0..7 of its
// first word).
layout(std430, set = 0, binding = TEXDEC_BINDING_SRC) readonly buffer Src {
    uint src_words[];
};

// The decoded texels: a buffer of words (atomics are needed for 1- and 2-byte texels), or a
// storage image whose format the build names (-DTEXDEC_DST_IMAGE_FORMAT=rgba8 ...): a 2D array
// view, or with -DTEXDEC_DST_IMAGE_3D a 3D view (a core Vulkan storage descriptor of a 3D image
// must be a 3D view), whose depth slices take the place of the layers: both are addressed with
// the same ivec3.
#ifdef TEXDEC_DST_IMAGE_FORMAT
#ifdef TEXDEC_DST_IMAGE_3D
layout(set = 0, binding = TEXDEC_BINDING_DST, TEXDEC_DST_IMAGE_FORMAT) writeonly uniform image3D dst_image;
#else
layout(set = 0, binding = TEXDEC_BINDING_DST, TEXDEC_DST_IMAGE_FORMAT) writeonly uniform image2DArray dst_image;
#endif
#else
layout(std430, set = 0, binding = TEXDEC_BINDING_DST) buffer Dst {
    uint dst_words[];
};
#endif

// The block of this invocation: (column, row, slice) relative to the chunk. False when the
// block lies wholly outside the extent (the dispatch is rounded up to whole workgroups).
bool texdec_block_coords(out uvec3 block) {
    block = gl_GlobalInvocationID;
    return block.x * 4u < pc.width && block.y * 4u < pc.height && block.z < pc.depth;
}

// Index into src_words of the first word of a block of `words_per_block` words.
uint texdec_src_block_word(uvec3 block, uint words_per_block) {
    if (pc.src_layout == 0u)
        return pc.src_base_word + block.z * pc.src_slice_words + block.y * pc.src_row_words
             + block.x * words_per_block;
    // Block-linear (Tegra X1 TRM, "Block Linear"; texdec.h "source layouts"), from the GOB block
    // that holds the chunk's first block. Coordinates wrap modulo 2^32 like the host's sums:
    // the result is exact because the true address lies inside the bound range.
    const uint h = TEXDEC_FIELD(pc.src_layout, TEXDEC_SRC_GOB_HEIGHT_LOG2);
    const uint d = TEXDEC_FIELD(pc.src_layout, TEXDEC_SRC_GOB_DEPTH_LOG2);
    const uint xb = (block.x + TEXDEC_FIELD(pc.src_block_origin, TEXDEC_SRC_ORIGIN_X)) * (words_per_block * 4u);
    const uint y = block.y + TEXDEC_FIELD(pc.src_block_origin, TEXDEC_SRC_ORIGIN_Y);
    const uint z = block.z + TEXDEC_FIELD(pc.src_block_origin, TEXDEC_SRC_ORIGIN_Z);
    // The GOB swizzle: byte (x, y) of a 64-byte x 8-row GOB (in words: every term is a multiple of 4).
    const uint in_gob = ((xb & 32u) << 3u) | ((y & 6u) << 5u) | ((xb & 16u) << 1u) | ((y & 1u) << 4u) | (xb & 15u);
    return pc.src_base_word + (z >> d) * pc.src_slice_words + (y >> (3u + h)) * pc.src_row_words
         + ((xb >> 6u) << (7u + h + d)) + ((z & ((1u << d) - 1u)) << (7u + h))
         + (((y >> 3u) & ((1u << h) - 1u)) << 7u) + (in_gob >> 2u);
}

#endif

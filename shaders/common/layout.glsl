// Resources and thread -> block mapping shared by every decoder shader.
// Needs "interface.h" included first (the shader does it). One invocation decodes one 4x4 block
// (BC, ETC); a shader that defines TEXDEC_ASTC_TILED before including this works on tiles of
// blocks in workgroups of TEXDEC_ASTC_GROUP_SIZE or _FAST invocations instead (ASTC).
#ifndef TEXDEC_COMMON_LAYOUT_GLSL
#define TEXDEC_COMMON_LAYOUT_GLSL

#ifdef TEXDEC_ASTC_TILED
layout(local_size_x = TEXDEC_ASTC_GROUP_SIZE, local_size_y = 1, local_size_z = 1) in;
layout(local_size_x_id = TEXDEC_SC_GROUP_SIZE) in;  // the host picks 256 or 512 (interface.h)
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
    TexdecPushConstants push;  // read by texdec_begin() alone
};

// A batched dispatch's region table (interface.h, TexdecPushConstants::batch_slices): entries of
// TEXDEC_PUSH_CONSTANT_WORDS words, each a TexdecPushConstants. Bound as words, not as an array of
// the struct: the table starts at any multiple of 4 bytes of the caller's scratch
// (texdec_regions_scratch_info), so an entry need not start on a multiple of 64 bytes of the
// bound range; texdec_region_entry() reads one back into the struct.
layout(std430, set = 0, binding = TEXDEC_BINDING_REGIONS) readonly buffer Regions {
    uint region_words[];
};

// The region-table entry at word w: member k of the struct is word k (interface.h asserts that
// on the C++ side; GLSL's constructor takes the members in order and refuses another count or
// type, so a change of the struct fails to compile here).
TexdecPushConstants texdec_region_entry(uint w) {
    return TexdecPushConstants(region_words[w], region_words[w + 1u], region_words[w + 2u], region_words[w + 3u],
                               region_words[w + 4u], region_words[w + 5u], region_words[w + 6u],
                               region_words[w + 7u], region_words[w + 8u], int(region_words[w + 9u]),
                               int(region_words[w + 10u]), int(region_words[w + 11u]), region_words[w + 12u],
                               region_words[w + 13u], region_words[w + 14u], region_words[w + 15u]);
}

// This workgroup's parameters and its workgroup id within its chunk: set by texdec_begin(), which
// every shader's main() calls first (texdec_block_coords does it). One dispatch of one chunk takes
// them from the push constants; a batched dispatch (several regions in one workgroup grid) from
// the workgroup's entry of the region table. The rest of the shader reads `pc` and
// `texdec_group` only, never the push constants or gl_WorkGroupID.
TexdecPushConstants pc;
uvec3 texdec_group;
// One block per invocation (BC, ETC): a workgroup covers 2^texdec_row_log2 blocks of a row times
// TEXDEC_WORKGROUP_X >> texdec_row_log2 rows: one row of 64 for one chunk; batched dispatches of
// narrow regions take narrower, taller shapes (interface.h, batch_slices) so that no lanes idle.
uint texdec_row_log2;

void texdec_begin() {
    if (push.batch_slices == 0u) {
        pc = push;
        texdec_group = gl_WorkGroupID;
        texdec_row_log2 = 6u;  // log2(TEXDEC_WORKGROUP_X)
        return;
    }
    const uint region = gl_WorkGroupID.z / push.batch_slices;
    texdec_row_log2 = push.src_row_words;
    pc = texdec_region_entry(push.src_base_word + TEXDEC_PUSH_CONSTANT_WORDS * region);
    pc.batch_slices = 0u;
    texdec_group = uvec3(gl_WorkGroupID.xy, gl_WorkGroupID.z - region * push.batch_slices);
}

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

// Calls texdec_begin(); then the block of this invocation: (column, row, slice) relative to the
// chunk. False when the block lies wholly outside the extent (the dispatch is rounded up to whole
// workgroups; a batched dispatch to its largest region).
bool texdec_block_coords(out uvec3 block) {
    texdec_begin();
    const uint lane = gl_LocalInvocationID.x, row_mask = (1u << texdec_row_log2) - 1u;
    block = uvec3((texdec_group.x << texdec_row_log2) + (lane & row_mask),
                  texdec_group.y * (TEXDEC_WORKGROUP_X >> texdec_row_log2) + (lane >> texdec_row_log2), texdec_group.z);
    return block.x * 4u < pc.width && block.y * 4u < pc.height && block.z < pc.depth;
}

// Index into src_words of the first word of a block of `words_per_block` words.
uint texdec_src_block_word(uvec3 block, uint words_per_block) {
    if (pc.src_layout == 0u)
        return pc.src_base_word + block.z * pc.src_slice_words + block.y * pc.src_row_words
             + block.x * words_per_block;
    // Block-linear (Tegra X1 TRM, "Block Linear"; texdec.h "source layouts"), from the GOB block
    // that holds the chunk's first block: the GPU twin of texdec::block_linear::block_offset
    // (src/common/block_linear_address.h, which the host and the tool use), in words. Coordinates wrap modulo 2^32 like the host's sums:
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

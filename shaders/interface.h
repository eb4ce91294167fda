// Shared by the C++ library and every GLSL decoder: bindings, push-constant layout, constants.
// Included from GLSL (where TEXDEC_GLSL is defined by the build) and from C++.
#ifndef TEXDEC_SHADERS_INTERFACE_H
#define TEXDEC_SHADERS_INTERFACE_H

// Descriptor set 0 (pushed with VK_KHR_push_descriptor).
#define TEXDEC_BINDING_SRC 0        // storage buffer: the blocks, read as uint words
#define TEXDEC_BINDING_DST 1        // storage buffer (buffer variant) or storage image (image variant)
#define TEXDEC_BINDING_LUT 2        // storage buffer: the context's shared lookup tables (ASTC)
#define TEXDEC_BINDING_FOOTPRINT_LUT 3  // storage buffer: tables of one block footprint (ASTC)
#define TEXDEC_BINDING_TABLES 4          // uniform texel buffer (R32_UINT): the BPTC tables (BC6H, BC7)
                                        // followed by the ETC tables (ETC2, EAC), one buffer per context
// Storage buffer: a batched dispatch's region table (TexdecPushConstants entries in the caller's
// scratch); in other dispatches any storage buffer (never read).
#define TEXDEC_BINDING_REGIONS 5

// Workgroup: one thread per block, TEXDEC_WORKGROUP_X blocks of one block row per workgroup.
// 64 stays far inside the guaranteed maxComputeWorkGroupInvocations (128).
#define TEXDEC_WORKGROUP_X 64
// ASTC: a workgroup of TEXDEC_ASTC_GROUP_SIZE invocations decodes a tile of blocks of one block
// slice, TILE_BLOCKS_X x TILE_BLOCKS_Y blocks: about 32 texels wide, and about 32 texel rows
// (2D) or 32 texel rows x slices (3D), so a tile holds ~1024 texels whatever the footprint.
// Macros (not functions) so that GLSL evaluates them on specialization constants and C++ on
// the footprint: both sides get the same tile. The invocations per workgroup are a
// specialization constant (TEXDEC_SC_GROUP_SIZE): TEXDEC_ASTC_GROUP_SIZE, the least the decoder
// needs (the host checks maxComputeWorkGroupInvocations against it), or TEXDEC_ASTC_GROUP_SIZE_FAST
// on GPUs that offer it: 512 invocations (2 texels each) ran 6-14 % faster than 256 on an NVIDIA
// H100, the block-level steps of a tile spread over twice the invocations
// (docs/bench/astc_h100_2026-11-26*); on lavapipe (a CPU device) 512 was slower, so CPU devices
// keep 256.
#define TEXDEC_ASTC_GROUP_SIZE 256
#define TEXDEC_ASTC_GROUP_SIZE_FAST 512
#define TEXDEC_ASTC_TILE_BLOCKS_X(bw) ((32u + (bw) - 1u) / (bw))
#define TEXDEC_ASTC_TILE_BLOCKS_Y(bh, bd) ((bh) * (bd) >= 32u ? 1u : 32u / ((bh) * (bd)))
// Stored weights of one block, at most: 64, and 2 per texel (a grid is never larger than its block).
#define TEXDEC_ASTC_MAX_WEIGHTS(texels) (2u * (texels) < 64u ? 2u * (texels) : 64u)
// Shared-memory array sizes of astc.comp; the host checks every footprint's tile against them.
#define TEXDEC_ASTC_TILE_MAX_BLOCKS 64
#define TEXDEC_ASTC_TILE_MAX_WEIGHTS 2304
// Bytes of shared memory astc.comp declares (its s_* arrays; keep in sync): 22856, more than the
// 16 KiB Vulkan guarantees, so the host checks maxComputeSharedMemorySize.
#define TEXDEC_ASTC_SHARED_BYTES                                                                           \
    (4 * (TEXDEC_ASTC_LUT_COLOUR_UNQ + 4 * TEXDEC_ASTC_TILE_MAX_BLOCKS + 3 * TEXDEC_ASTC_TILE_MAX_BLOCKS + \
          TEXDEC_ASTC_TILE_MAX_WEIGHTS + 18 * (TEXDEC_ASTC_TILE_MAX_BLOCKS + 1) + 16 * TEXDEC_ASTC_TILE_MAX_BLOCKS))

// What one output texel looks like in memory (chosen on the host from format + output type).
#define TEXDEC_STORE_RGBA8 0    // 4 bytes R,G,B,A (UNORM / sRGB bytes)
#define TEXDEC_STORE_RGBA16F 1  // 8 bytes, 4 x IEEE half
#define TEXDEC_STORE_R8 2       // 1 byte (UNORM or two's-complement SNORM)
#define TEXDEC_STORE_RG8 3      // 2 bytes
#define TEXDEC_STORE_R16 4      // 2 bytes (EAC NATIVE, later)
#define TEXDEC_STORE_RG16 5     // 4 bytes (EAC NATIVE, later)

// Channel order of an image store (specialization constant TEXDEC_SC_STORE_SWIZZLE; image
// variants only). The storage view is always of the output's own format (the shader's SPIR-V
// Image Format names it); a target image whose channels lie in another order in memory is
// written through that view with the channels moved to where its bytes go.
#define TEXDEC_STORE_SWIZZLE_NONE 0  // channel i -> view channel i
#define TEXDEC_STORE_SWIZZLE_BGRA 1  // R <-> B: B8G8R8A8 images written through an R8G8B8A8_UNORM view

// BC rounding modes (same values as texdec_bc_rounding).
#define TEXDEC_ROUNDING_EXACT 0
#define TEXDEC_ROUNDING_IDEAL 1
#define TEXDEC_ROUNDING_NVIDIA 2

// Variants of bc1_3.comp (specialization constant TEXDEC_SC_VARIANT).
#define TEXDEC_BC1_RGB 0   // BC1, index 3 of 3-colour mode = opaque black
#define TEXDEC_BC1_RGBA 1  // BC1, index 3 of 3-colour mode = transparent black
#define TEXDEC_BC2 2
#define TEXDEC_BC3 3
// Variants of bc4_5.comp.
#define TEXDEC_BC4 0
#define TEXDEC_BC5 1
// Variants of eac.comp.
#define TEXDEC_EAC_R11 0   // one 64-bit block: red
#define TEXDEC_EAC_RG11 1  // two: red, then green
// Variants of etc2.comp.
#define TEXDEC_ETC2_RGB8 0    // ETC2 RGB8 (and ETC1): 8-byte blocks, alpha 1
#define TEXDEC_ETC2_RGB8A1 1  // punch-through alpha: bit 33 is the opaque bit, no individual mode
#define TEXDEC_ETC2_RGBA8 2   // 16-byte blocks: EAC alpha (8 bytes) then RGB8 colour (8 bytes)
// Variants of astc.comp: the operation mode (KDFS "sRGB, Linear LDR and HDR Operation Modes").
#define TEXDEC_ASTC_LDR 0  // -unorm / -srgb formats: HDR endpoint modes and HDR void extents are errors
#define TEXDEC_ASTC_HDR 1  // -sfloat formats: HDR operation mode, every block to FP16

// Specialization constant ids (every decoder shader declares these).
#define TEXDEC_SC_VARIANT 0   // per-shader variant (table above)
#define TEXDEC_SC_SIGNED 1    // 1 for SNORM / signed formats
#define TEXDEC_SC_STORE 2     // TEXDEC_STORE_*
#define TEXDEC_SC_ROUNDING 3  // TEXDEC_ROUNDING_*
#define TEXDEC_SC_SRGB 4      // 1 for sRGB formats: RGBA16F is then the 8-bit result v as v/255
#define TEXDEC_SC_BLOCK_W 5   // block footprint (ASTC; the BC/ETC shaders ignore it)
#define TEXDEC_SC_BLOCK_H 6
#define TEXDEC_SC_BLOCK_D 7
#define TEXDEC_SC_STORE_SWIZZLE 8  // TEXDEC_STORE_SWIZZLE_* (image variants)
#define TEXDEC_SC_GROUP_SIZE 9     // ASTC: invocations per workgroup (TEXDEC_ASTC_GROUP_SIZE or _FAST)

// ASTC lookup tables (built by src/luts.cpp from luts/astc_tables.h), as uint words.
// Shared tables (binding TEXDEC_BINDING_LUT), one entry per word:
#define TEXDEC_ASTC_LUT_TRITS 0           // [256]: packed T -> t0 | t1 << 2 | t2 << 4 | t3 << 6 | t4 << 8
#define TEXDEC_ASTC_LUT_QUINTS 256        // [128]: packed Q -> q0 | q1 << 3 | q2 << 6
#define TEXDEC_ASTC_LUT_WEIGHT_UNQ 384    // [12 * 32]: [range * 32 + value] -> 0..64
#define TEXDEC_ASTC_LUT_COLOUR_UNQ 768    // [21 * 256]: [range * 256 + value] -> 0..255
#define TEXDEC_ASTC_LUT_COLOUR_RANGE 6144  // [16 * 128]: [(values / 2 - 1) * 128 + remaining bits] -> range or 0xFF
#define TEXDEC_ASTC_LUT_WORDS 8192
// The ISE range table (range 0 = 0..1, 1 = 0..2, ... 20 = 0..255) as constants the shader reads
// without memory: bits per value n in 4-bit fields (8 ranges per word), and the trit / quint
// ranges as bit masks. src/luts.cpp checks them against luts/astc_tables.h kIseRanges at compile time.
#define TEXDEC_ASTC_ISE_BITS_0_7 0x21310201u
#define TEXDEC_ASTC_ISE_BITS_8_15 0x46435324u
#define TEXDEC_ASTC_ISE_BITS_16_20 0x00086575u
#define TEXDEC_ASTC_ISE_TRIT_RANGES 0x92492u
#define TEXDEC_ASTC_ISE_QUINT_RANGES 0x49248u
// Footprint tables (binding TEXDEC_BINDING_FOOTPRINT_LUT):
//   [2048] block mode -> a block mode word (TEXDEC_ASTC_MODE_* fields below);
//   then for 2, 3 and 4 partitions: 1024 seeds x ceil(texels / 16) words, 2 bits per texel
//   (texel t = x + w * (y + h * z) in bits 2 * (t % 16) of word t / 16).
#define TEXDEC_ASTC_LUT_MODES 0
#define TEXDEC_ASTC_LUT_PARTITIONS 2048

// Packed words: field F of a word is its bits F_SHIFT .. F_SHIFT + F_WIDTH - 1. TEXDEC_FIELD reads
// it, TEXDEC_FIELD_PUT places a value that fits it (GLSL and C++ alike; F is a name prefix).
#define TEXDEC_FIELD(word, F) (((word) >> F##_SHIFT) & ((1u << F##_WIDTH) - 1u))
#define TEXDEC_FIELD_PUT(value, F) ((value) << F##_SHIFT)

// Block mode word ("Block Mode"; src/luts.cpp packs it, astc.comp reads it).
#define TEXDEC_ASTC_MODE_GRID_W_SHIFT 0u  // weight grid width
#define TEXDEC_ASTC_MODE_GRID_W_WIDTH 4u
#define TEXDEC_ASTC_MODE_GRID_H_SHIFT 4u  // height
#define TEXDEC_ASTC_MODE_GRID_H_WIDTH 4u
#define TEXDEC_ASTC_MODE_GRID_D_SHIFT 8u  // depth
#define TEXDEC_ASTC_MODE_GRID_D_WIDTH 4u
#define TEXDEC_ASTC_MODE_WEIGHT_RANGE_SHIFT 12u  // ISE range of the weights
#define TEXDEC_ASTC_MODE_WEIGHT_RANGE_WIDTH 4u
#define TEXDEC_ASTC_MODE_DUAL_PLANE_SHIFT 16u
#define TEXDEC_ASTC_MODE_DUAL_PLANE_WIDTH 1u
#define TEXDEC_ASTC_MODE_WEIGHT_BITS_SHIFT 17u  // bits of the weight stream
#define TEXDEC_ASTC_MODE_WEIGHT_BITS_WIDTH 8u
// The kind: TEXDEC_ASTC_MODE_ERROR / WEIGHTS / VOID_EXTENT (the other fields 0 unless WEIGHTS).
#define TEXDEC_ASTC_MODE_KIND_SHIFT 25u
#define TEXDEC_ASTC_MODE_KIND_WIDTH 7u
#define TEXDEC_ASTC_MODE_ERROR 0u
#define TEXDEC_ASTC_MODE_WEIGHTS 1u
#define TEXDEC_ASTC_MODE_VOID_EXTENT 2u

// astc.comp's per-block state word (s_state), written by its step 1 and read by the later steps.
#define TEXDEC_ASTC_STATE_KIND_SHIFT 0u  // BLOCK_* of astc.comp
#define TEXDEC_ASTC_STATE_KIND_WIDTH 2u
#define TEXDEC_ASTC_STATE_PARTITIONS_SHIFT 2u  // partitions - 1
#define TEXDEC_ASTC_STATE_PARTITIONS_WIDTH 2u
#define TEXDEC_ASTC_STATE_SEED_SHIFT 4u  // partition pattern seed
#define TEXDEC_ASTC_STATE_SEED_WIDTH 10u
#define TEXDEC_ASTC_STATE_CCS_SHIFT 14u  // dual-plane channel
#define TEXDEC_ASTC_STATE_CCS_WIDTH 2u
#define TEXDEC_ASTC_STATE_HDR_SHIFT 16u  // a bit per partition whose endpoint mode is HDR
#define TEXDEC_ASTC_STATE_HDR_WIDTH 4u
#define TEXDEC_ASTC_STATE_HDR_ALPHA_SHIFT 20u  // (HDR variant) a bit per partition whose alpha is HDR too
#define TEXDEC_ASTC_STATE_HDR_ALPHA_WIDTH 4u

// astc.comp's per-block colour word (s_colour).
#define TEXDEC_ASTC_COLOUR_CEMS_SHIFT 0u  // endpoint modes, 4 bits per partition
#define TEXDEC_ASTC_COLOUR_CEMS_WIDTH 16u
#define TEXDEC_ASTC_COLOUR_VALUE_COUNT_SHIFT 16u
#define TEXDEC_ASTC_COLOUR_VALUE_COUNT_WIDTH 5u
#define TEXDEC_ASTC_COLOUR_RANGE_SHIFT 21u  // ISE range of the colour values
#define TEXDEC_ASTC_COLOUR_RANGE_WIDTH 5u
#define TEXDEC_ASTC_COLOUR_START_SHIFT 26u  // first bit of the colour values
#define TEXDEC_ASTC_COLOUR_START_WIDTH 6u

// BPTC tables (BC6H, BC7), built by src/luts.cpp from luts/bptc_tables.h into one uniform texel
// buffer per context (KDFS "BPTC Compressed Texture Image Formats"), one uint per entry:
#define TEXDEC_BPTC_LUT_PARTITIONS2 0   // [64] 2-subset shape -> subset of texel i (i = 4y + x) in bits 2i..2i+1
#define TEXDEC_BPTC_LUT_PARTITIONS3 64  // [64] 3-subset shapes, same encoding
#define TEXDEC_BPTC_LUT_ANCHORS 128     // [64] shape -> 2-subset second anchor | 3-subset second << 8 | 3-subset third << 16
#define TEXDEC_BPTC_LUT_WEIGHTS2 192    // [4]  2-bit index -> weight (0..64)
#define TEXDEC_BPTC_LUT_WEIGHTS3 196    // [8]  3-bit index -> weight
#define TEXDEC_BPTC_LUT_WEIGHTS4 204    // [16] 4-bit index -> weight
#define TEXDEC_BPTC_LUT_BC6H_MODES 256  // BC6H mode descriptions as data (layout: luts/bc6h_modes.h):
                                        // [32] low 5 block bits -> mode word (0: reserved mode)
#define TEXDEC_BPTC_LUT_BC6H_RUNS 288   // [14 * 32] per mode, its header fields as runs of block bits
#define TEXDEC_BPTC_LUT_BC6H_MAX_RUNS 32
#define TEXDEC_BPTC_LUT_BC6H_WORDS (TEXDEC_BPTC_LUT_BC6H_RUNS + 14 * TEXDEC_BPTC_LUT_BC6H_MAX_RUNS - TEXDEC_BPTC_LUT_BC6H_MODES)
#define TEXDEC_BPTC_LUT_WORDS (TEXDEC_BPTC_LUT_BC6H_MODES + TEXDEC_BPTC_LUT_BC6H_WORDS)  // 736, the whole table

// ETC tables (ETC2, EAC), built by src/luts.cpp from luts/etc_tables.h (KDFS "ETC2 Compressed Texture
// Image Formats") and appended to the BPTC tables in the same uniform texel buffer (binding
// TEXDEC_BINDING_TABLES): ETC word i is texel TEXDEC_ETC_LUT_BASE + i. Signed entries are two's
// complement (read them with int()). Offsets below are relative to TEXDEC_ETC_LUT_BASE.
#define TEXDEC_ETC_LUT_BASE TEXDEC_BPTC_LUT_WORDS
#define TEXDEC_ETC_LUT_MODIFIERS 0   // [8 * 4] "ETC2 intensity modifier sets": [4 * table codeword + 2-bit pixel index]
                                     // -> modifier (pixel index 0: +a, 1: +b, 2: -a, 3: -b)
#define TEXDEC_ETC_LUT_DISTANCES 32  // [8] "Distance table for ETC2 `T' and `H' modes": distance index -> d
#define TEXDEC_ETC_LUT_EAC 40        // [16 * 8] "Intensity modifier sets for RGBA ETC2 alpha component"
                                     // (EAC too): [8 * table index + 3-bit pixel index] -> modifier
#define TEXDEC_ETC_LUT_WORDS 168
#define TEXDEC_TABLES_WORDS (TEXDEC_ETC_LUT_BASE + TEXDEC_ETC_LUT_WORDS)  // the whole table buffer

// Block-linear sources (Tegra X1 GOBs; texdec.h "source layouts"): TexdecPushConstants::src_layout
// and src_block_origin. With a block-linear source the dispatch addresses blocks from the GOB block
// that holds the chunk's first block: src_base_word points at that block's word minus the
// in-block offset of src_block_origin, src_row_words is a row of GOB blocks and src_slice_words a
// group of block-depth slices (or an array layer).
#define TEXDEC_SRC_BLOCK_LINEAR_SHIFT 0u
#define TEXDEC_SRC_BLOCK_LINEAR_WIDTH 1u
#define TEXDEC_SRC_GOB_HEIGHT_LOG2_SHIFT 4u  // log2 of the block height in GOBs (0..5)
#define TEXDEC_SRC_GOB_HEIGHT_LOG2_WIDTH 3u
#define TEXDEC_SRC_GOB_DEPTH_LOG2_SHIFT 8u  // log2 of the block depth in GOBs (0..5)
#define TEXDEC_SRC_GOB_DEPTH_LOG2_WIDTH 3u
#define TEXDEC_SRC_ORIGIN_X_SHIFT 0u  // compressed blocks into the GOB row (< 64 / block bytes)
#define TEXDEC_SRC_ORIGIN_X_WIDTH 8u
#define TEXDEC_SRC_ORIGIN_Y_SHIFT 8u  // block rows into the GOB block (< 8 * block height)
#define TEXDEC_SRC_ORIGIN_Y_WIDTH 8u
#define TEXDEC_SRC_ORIGIN_Z_SHIFT 16u  // block slices into the GOB block (< block depth)
#define TEXDEC_SRC_ORIGIN_Z_WIDTH 8u

#ifdef TEXDEC_GLSL
#define TEXDEC_UINT uint
#define TEXDEC_INT int
#else
#include <cstddef>
#include <cstdint>
#define TEXDEC_UINT uint32_t
#define TEXDEC_INT int32_t
namespace texdec::shader {
#endif

// Push constants of one dispatch (one chunk of the job), and the entries of a batched dispatch's
// region table (batch_slices). 64 bytes; guaranteed limit is 128.
// The dispatch covers block columns [0, gl_NumWorkGroups.x * 64) and block rows
// [0, gl_NumWorkGroups.y) of the chunk; the chunk's origin is texel (0, chunk_y0, chunk_z0)
// of the job, where the descriptors' offsets already point.
struct TexdecPushConstants {
    TEXDEC_UINT src_base_word;    // word index (into the bound range) of the chunk's first block
    TEXDEC_UINT src_row_words;    // words between block rows in the source
    TEXDEC_UINT src_slice_words;  // words between block slices (3D footprints)
    TEXDEC_UINT width;            // texels per row inside the extent
    TEXDEC_UINT height;           // texel rows in this chunk (the last block row may be partial)
    TEXDEC_UINT depth;            // texel slices in this chunk
    TEXDEC_UINT dst_base_byte;    // buffer: byte offset (into the bound range) of the chunk origin
    TEXDEC_UINT dst_row_pitch;    // buffer: bytes between texel rows
    TEXDEC_UINT dst_slice_pitch;  // buffer: bytes between texel slices
    TEXDEC_INT dst_x;             // image: texel coordinate of the chunk origin
    TEXDEC_INT dst_y;
    TEXDEC_INT dst_layer;         // image: array layer of the chunk's first slice
    TEXDEC_UINT dst_z_skip;       // 3D footprints: texel slices of the chunk's block slice before the
                                  // chunk (a chunk cut inside one block slice); 0 otherwise
    TEXDEC_UINT src_layout;       // 0: linear source; else TEXDEC_SRC_BLOCK_LINEAR with the block's
                                  // GOBs (TEXDEC_SRC_GOB_*_LOG2 fields)
    TEXDEC_UINT src_block_origin;  // block-linear: where the chunk's first block lies inside its
                                   // GOB block (TEXDEC_SRC_ORIGIN_* fields, in compressed blocks)
    // 0: this dispatch decodes the one chunk described here. n > 0: a batched dispatch (several
    // regions, one workgroup grid each): the workgroup's region is the 16-word entry at word
    // src_base_word + 16 * (gl_WorkGroupID.z / n) of the region table (TEXDEC_BINDING_REGIONS),
    // gl_WorkGroupID.z % n its block slice; the entry holds that region's fields as its own
    // dispatch would push them (batch_slices 0). src_row_words here is log2 of the blocks of a row
    // one workgroup covers (one block per invocation: 2^k x 64 / 2^k blocks; 6 in a dispatch of one
    // chunk); the other fields are unused. Read through layout.glsl's texdec_begin() only.
    TEXDEC_UINT batch_slices;
};

// Words of TexdecPushConstants (and of a region-table entry): member k is word k, which
// layout.glsl's texdec_region_entry() relies on.
#define TEXDEC_PUSH_CONSTANT_WORDS 16u

#ifndef TEXDEC_GLSL
static_assert(sizeof(TexdecPushConstants) == 64, "push constants must stay 64 bytes");
// Every member is one 4-byte word, so (with the size above) member k lies at byte 4k.
static_assert(sizeof(TexdecPushConstants) == 4 * TEXDEC_PUSH_CONSTANT_WORDS && alignof(TexdecPushConstants) == 4 &&
                  offsetof(TexdecPushConstants, dst_x) == 4 * 9 &&
                  offsetof(TexdecPushConstants, dst_z_skip) == 4 * 12 &&
                  offsetof(TexdecPushConstants, batch_slices) == 4 * 15,
              "a region-table entry is the struct's members, one word each, in order (layout.glsl)");
}  // namespace texdec::shader
#endif

#endif

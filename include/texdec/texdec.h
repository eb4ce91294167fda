/*
 * texdec — decode block-compressed GPU textures with Vulkan compute shaders, or on the host's
 * cores (the CPU backend, texdec_backend_info).
 *
 * This header is the whole public API. It is plain C (C99) and includes only
 * <vulkan/vulkan_core.h>, so it works with volk and VK_NO_PROTOTYPES: the library never
 * calls a Vulkan function it did not load through a vkGetInstanceProcAddr it was given
 * (or, for texdec_context_create, one it found by loading the system Vulkan loader).
 *
 * Two tiers, one contract:
 *   texdec_decode()         blocks in host memory -> texels in caller-owned host memory.
 *                           Uploads, records, submits, waits (with a timeout), reads back.
 *   texdec_record_regions() records the decode of regions (shaped like VkBufferImageCopy)
 *                           into the caller's VkCommandBuffer, writing a VkBuffer or a
 *                           VkImage (texdec_image_target). Never submits, never waits,
 *                           allocates nothing per call.
 *
 * Exactness: every format and output type is bit-exact against a named reference decoder
 * outside texdec, tested with tolerance 0. docs/EXACTNESS.md is the contract in full (per format
 * the exact result and its reference, the ASTC error colours, how each value becomes an output
 * texel); in short:
 *   BC1-BC5  the spec defines real values and no rounding, so the rounding is yours to choose
 *            (texdec_bc_rounding): EXACT (default: nearest, ties up; the Direct3D reference),
 *            IDEAL (bit-replicated endpoints, truncating 8-bit interpolation: nvtt, libsquish),
 *            NVIDIA (what NVIDIA GPUs return, from vectors captured on an H100).
 *   BC6H, BC7, ETC1/ETC2, EAC, ASTC (LDR, sRGB and HDR; 2D and 3D footprints): integer-exact in
 *            the spec, nothing to choose. Every bit pattern decodes to something defined: ASTC
 *            error blocks give the spec's error colour (magenta, or NaN in RGBA16F of the
 *            -unorm and -sfloat formats).
 *   Outputs (texdec_output): RGBA8 the 8-bit result (sRGB bytes stay encoded; refused for SNORM,
 *            BC6H and ASTC sfloat); RGBA16F the exact value rounded to the nearest FP16; NATIVE
 *            the smallest uncompressed format that holds it exactly (texdec_output_vk_format()).
 *   ASTC needs 22,856 bytes of compute shared memory and 256 invocations per workgroup, else
 *   TEXDEC_ERROR_MISSING_FEATURE (texdec_query_support says so before you decode).
 *
 * Memory layout (host and buffer outputs): texels of a row tightly packed, x fastest, then rows
 * (dst_row_pitch bytes apart), then slices (dst_slice_pitch bytes apart), little-endian. Block
 * data: blocks in block order, x fastest, then y, then z, unless src_row_length /
 * src_image_height (in texels, like VkBufferImageCopy) say otherwise. Extents need not be
 * multiples of the block size; only texels inside the extent are written.
 *
 * Errors are values: every function returns a texdec_status; texdec_status_string() names it,
 * and the optional message callback receives a sentence that names the problem (for every
 * failure a context, or a create info with a callback, can report: a NULL required pointer
 * included).
 * No global mutable state; a context may be used from several threads at once (which calls may
 * block, and how to record without ever compiling: "prepare ahead" in the record section).
 *
 * Structs (the one extensibility rule, as Vulkan's pNext): every struct you pass to texdec
 * begins with `next`: NULL, or a chain of extension structs, each beginning with a 32-bit type
 * (a VkStructureType where a Vulkan struct is accepted, such as VkImageFormatListCreateInfo on
 * texdec_image_target_create_info) and its own next pointer. A type texdec does not accept there
 * is refused with TEXDEC_ERROR_INVALID_ARGUMENT and a message naming it, never ignored. Layouts
 * never change within a major version (additions arrive as extension structs; docs/abi.md), and
 * zero is the default of every member: zero-initialize ({0} / {}) and set what you need. The
 * structs texdec only fills (texdec_format_info, texdec_texel_format_info, texdec_memory_usage,
 * texdec_decode_timing, texdec_support, texdec_block_linear_level) have no `next`: texdec writes
 * all of them (you need not initialize them), and later versions add queries rather than grow them.
 * Lifetimes: texdec reads a struct you pass (and everything it points to) only during the call,
 * except where a member says otherwise (image targets and contexts keep Vulkan handles, not your
 * structs). Vulkan handles you pass must stay valid until the GPU work that uses them completes.
 * Enums are 32-bit; every enum has a _MAX_ENUM value of 0x7FFFFFFF. Values outside the enum
 * are refused (TEXDEC_ERROR_UNKNOWN_FORMAT, INVALID_ARGUMENT, ...), never undefined behaviour.
 */
#ifndef TEXDEC_H
#define TEXDEC_H

#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The one place texdec's version is written: CMakeLists.txt reads it from here for the project,
 * the package version file, texdec.pc and the shared library's SONAME (libtexdec.so.MAJOR).
 * Within a major version the ABI only grows (docs/abi.md); tools/abi-check.sh enforces it. */
#define TEXDEC_VERSION_MAJOR 1
#define TEXDEC_VERSION_MINOR 5
#define TEXDEC_VERSION_PATCH 0
#define TEXDEC_VERSION ((TEXDEC_VERSION_MAJOR << 16) | (TEXDEC_VERSION_MINOR << 8) | TEXDEC_VERSION_PATCH)

#if defined(TEXDEC_STATIC)
#define TEXDEC_API
#elif defined(_WIN32)
#ifdef TEXDEC_BUILDING
#define TEXDEC_API __declspec(dllexport)
#else
#define TEXDEC_API __declspec(dllimport)
#endif
#else
#define TEXDEC_API __attribute__((visibility("default")))
#endif

/* The TEXDEC_VERSION the library was built as (compare with the header's to detect a mismatch). */
TEXDEC_API uint32_t texdec_version(void);

/* ---- status -------------------------------------------------------------------------------- */

typedef enum texdec_status {
    TEXDEC_SUCCESS = 0,
    TEXDEC_ERROR_INVALID_ARGUMENT = 1,      /* a required pointer is NULL, a struct is malformed */
    TEXDEC_ERROR_UNKNOWN_FORMAT = 2,        /* the value is not a texdec_format */
    TEXDEC_ERROR_UNSUPPORTED_FORMAT = 3,    /* a known format this version cannot decode yet */
    TEXDEC_ERROR_UNSUPPORTED_OUTPUT = 4,    /* the output type is not offered for this format */
    TEXDEC_ERROR_UNSUPPORTED_ROUNDING = 5,  /* unknown or not yet implemented BC rounding mode */
    TEXDEC_ERROR_INVALID_EXTENT = 6,        /* width, height or depth is zero */
    TEXDEC_ERROR_SIZE_OVERFLOW = 7,         /* a size computed from the job does not fit (64 bits,
                                               an offset plus a size included), or (record calls)
                                               one block row of a buffer destination, or two rows
                                               of GOB blocks of a block-linear source, need more
                                               than maxStorageBufferRange */
    TEXDEC_ERROR_SOURCE_TOO_SMALL = 8,      /* the block data is shorter than the job needs */
    TEXDEC_ERROR_DESTINATION_TOO_SMALL = 9, /* the texel destination is smaller than needed */
    TEXDEC_ERROR_INVALID_LAYOUT = 10,       /* row length / pitch too small, misaligned offset */
    TEXDEC_ERROR_NO_DEVICE = 11,            /* no Vulkan loader, instance or usable device */
    TEXDEC_ERROR_MISSING_FEATURE = 12,      /* the device lacks an extension/feature texdec needs */
    TEXDEC_ERROR_VULKAN = 13,               /* a Vulkan call failed (the message names it) */
    TEXDEC_ERROR_OUT_OF_MEMORY = 14,        /* host or device memory allocation failed */
    TEXDEC_ERROR_TIMEOUT = 15,              /* the GPU did not finish within the job's timeout */
    TEXDEC_ERROR_DEVICE_LOST = 16,          /* VK_ERROR_DEVICE_LOST */
    TEXDEC_ERROR_INVALID_DESTINATION = 17,  /* destination kind/view unusable for this output */
    TEXDEC_ERROR_NOT_READY = 18,            /* the variant's pipeline or tables are not created yet:
                                               texdec_variant_ready's answer, or a record call with
                                               TEXDEC_RECORD_FAIL_IF_NOT_READY (nothing recorded) */
    TEXDEC_ERROR_WRONG_BACKEND = 19,        /* the call needs a GPU context (recording, image
                                               targets, image variants) and got a CPU one */
    /* texdec_file.h (libtexdec_file, since 1.5.0); texdec_file_problem says exactly what: */
    TEXDEC_ERROR_MALFORMED_FILE = 20,   /* a texture file contradicts its container's rules
                                               (header, sizes, truncation, a bad stream) */
    TEXDEC_ERROR_UNSUPPORTED_FILE = 21, /* a texture file texdec does not read (unknown
                                               container, uncompressed or unknown format, 1D,
                                               3D arrays, an unknown supercompression) */
    TEXDEC_ERROR_BASIS_UNIVERSAL = 22,  /* Basis Universal data (BasisLZ/ETC1S, UASTC):
                                               transcode it first */
    TEXDEC_ERROR_FILE_IO = 23,          /* a file could not be opened or read (the message
                                               has the system's reason) */
    TEXDEC_STATUS_MAX_ENUM = 0x7FFFFFFF
} texdec_status;

/* A short constant English name of the status ("source data too small"); never NULL. */
TEXDEC_API const char* texdec_status_string(texdec_status status);

/* ---- formats ------------------------------------------------------------------------------- */

/* Names follow VkFormat: TEXDEC_FORMAT_BC1_RGB_UNORM is VK_FORMAT_BC1_RGB_UNORM_BLOCK and
 * "bc1-rgb-unorm" on the command line. ASTC 3D formats follow VK_EXT_texture_compression_astc_3d. */
typedef enum texdec_format {
    TEXDEC_FORMAT_UNDEFINED = 0,
    /* BC (S3TC, RGTC, BPTC) */
    TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_FORMAT_BC1_RGB_SRGB,
    TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_FORMAT_BC1_RGBA_SRGB,
    TEXDEC_FORMAT_BC2_UNORM, TEXDEC_FORMAT_BC2_SRGB,
    TEXDEC_FORMAT_BC3_UNORM, TEXDEC_FORMAT_BC3_SRGB,
    TEXDEC_FORMAT_BC4_UNORM, TEXDEC_FORMAT_BC4_SNORM,
    TEXDEC_FORMAT_BC5_UNORM, TEXDEC_FORMAT_BC5_SNORM,
    TEXDEC_FORMAT_BC6H_UFLOAT, TEXDEC_FORMAT_BC6H_SFLOAT,
    TEXDEC_FORMAT_BC7_UNORM, TEXDEC_FORMAT_BC7_SRGB,
    /* ETC2 / EAC */
    TEXDEC_FORMAT_ETC2_R8G8B8_UNORM, TEXDEC_FORMAT_ETC2_R8G8B8_SRGB,
    TEXDEC_FORMAT_ETC2_R8G8B8A1_UNORM, TEXDEC_FORMAT_ETC2_R8G8B8A1_SRGB,
    TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM, TEXDEC_FORMAT_ETC2_R8G8B8A8_SRGB,
    TEXDEC_FORMAT_EAC_R11_UNORM, TEXDEC_FORMAT_EAC_R11_SNORM,
    TEXDEC_FORMAT_EAC_R11G11_UNORM, TEXDEC_FORMAT_EAC_R11G11_SNORM,
    /* ASTC 2D */
    TEXDEC_FORMAT_ASTC_4x4_UNORM, TEXDEC_FORMAT_ASTC_4x4_SRGB, TEXDEC_FORMAT_ASTC_4x4_SFLOAT,
    TEXDEC_FORMAT_ASTC_5x4_UNORM, TEXDEC_FORMAT_ASTC_5x4_SRGB, TEXDEC_FORMAT_ASTC_5x4_SFLOAT,
    TEXDEC_FORMAT_ASTC_5x5_UNORM, TEXDEC_FORMAT_ASTC_5x5_SRGB, TEXDEC_FORMAT_ASTC_5x5_SFLOAT,
    TEXDEC_FORMAT_ASTC_6x5_UNORM, TEXDEC_FORMAT_ASTC_6x5_SRGB, TEXDEC_FORMAT_ASTC_6x5_SFLOAT,
    TEXDEC_FORMAT_ASTC_6x6_UNORM, TEXDEC_FORMAT_ASTC_6x6_SRGB, TEXDEC_FORMAT_ASTC_6x6_SFLOAT,
    TEXDEC_FORMAT_ASTC_8x5_UNORM, TEXDEC_FORMAT_ASTC_8x5_SRGB, TEXDEC_FORMAT_ASTC_8x5_SFLOAT,
    TEXDEC_FORMAT_ASTC_8x6_UNORM, TEXDEC_FORMAT_ASTC_8x6_SRGB, TEXDEC_FORMAT_ASTC_8x6_SFLOAT,
    TEXDEC_FORMAT_ASTC_8x8_UNORM, TEXDEC_FORMAT_ASTC_8x8_SRGB, TEXDEC_FORMAT_ASTC_8x8_SFLOAT,
    TEXDEC_FORMAT_ASTC_10x5_UNORM, TEXDEC_FORMAT_ASTC_10x5_SRGB, TEXDEC_FORMAT_ASTC_10x5_SFLOAT,
    TEXDEC_FORMAT_ASTC_10x6_UNORM, TEXDEC_FORMAT_ASTC_10x6_SRGB, TEXDEC_FORMAT_ASTC_10x6_SFLOAT,
    TEXDEC_FORMAT_ASTC_10x8_UNORM, TEXDEC_FORMAT_ASTC_10x8_SRGB, TEXDEC_FORMAT_ASTC_10x8_SFLOAT,
    TEXDEC_FORMAT_ASTC_10x10_UNORM, TEXDEC_FORMAT_ASTC_10x10_SRGB, TEXDEC_FORMAT_ASTC_10x10_SFLOAT,
    TEXDEC_FORMAT_ASTC_12x10_UNORM, TEXDEC_FORMAT_ASTC_12x10_SRGB, TEXDEC_FORMAT_ASTC_12x10_SFLOAT,
    TEXDEC_FORMAT_ASTC_12x12_UNORM, TEXDEC_FORMAT_ASTC_12x12_SRGB, TEXDEC_FORMAT_ASTC_12x12_SFLOAT,
    /* ASTC 3D (VK_EXT_texture_compression_astc_3d) */
    TEXDEC_FORMAT_ASTC_3x3x3_UNORM, TEXDEC_FORMAT_ASTC_3x3x3_SRGB, TEXDEC_FORMAT_ASTC_3x3x3_SFLOAT,
    TEXDEC_FORMAT_ASTC_4x3x3_UNORM, TEXDEC_FORMAT_ASTC_4x3x3_SRGB, TEXDEC_FORMAT_ASTC_4x3x3_SFLOAT,
    TEXDEC_FORMAT_ASTC_4x4x3_UNORM, TEXDEC_FORMAT_ASTC_4x4x3_SRGB, TEXDEC_FORMAT_ASTC_4x4x3_SFLOAT,
    TEXDEC_FORMAT_ASTC_4x4x4_UNORM, TEXDEC_FORMAT_ASTC_4x4x4_SRGB, TEXDEC_FORMAT_ASTC_4x4x4_SFLOAT,
    TEXDEC_FORMAT_ASTC_5x4x4_UNORM, TEXDEC_FORMAT_ASTC_5x4x4_SRGB, TEXDEC_FORMAT_ASTC_5x4x4_SFLOAT,
    TEXDEC_FORMAT_ASTC_5x5x4_UNORM, TEXDEC_FORMAT_ASTC_5x5x4_SRGB, TEXDEC_FORMAT_ASTC_5x5x4_SFLOAT,
    TEXDEC_FORMAT_ASTC_5x5x5_UNORM, TEXDEC_FORMAT_ASTC_5x5x5_SRGB, TEXDEC_FORMAT_ASTC_5x5x5_SFLOAT,
    TEXDEC_FORMAT_ASTC_6x5x5_UNORM, TEXDEC_FORMAT_ASTC_6x5x5_SRGB, TEXDEC_FORMAT_ASTC_6x5x5_SFLOAT,
    TEXDEC_FORMAT_ASTC_6x6x5_UNORM, TEXDEC_FORMAT_ASTC_6x6x5_SRGB, TEXDEC_FORMAT_ASTC_6x6x5_SFLOAT,
    TEXDEC_FORMAT_ASTC_6x6x6_UNORM, TEXDEC_FORMAT_ASTC_6x6x6_SRGB, TEXDEC_FORMAT_ASTC_6x6x6_SFLOAT,
    TEXDEC_FORMAT_COUNT,  /* formats this header knows; grows when a 1.x release adds formats, so
                             a newer library may return values at or above it */
    TEXDEC_FORMAT_MAX_ENUM = 0x7FFFFFFF /* any 32-bit value may be passed: unknown ones are refused */
} texdec_format;

typedef enum texdec_family {
    TEXDEC_FAMILY_BC1_3 = 0, /* BC1, BC2, BC3 */
    TEXDEC_FAMILY_BC4_5 = 1, /* BC4, BC5 */
    TEXDEC_FAMILY_BC6H = 2,
    TEXDEC_FAMILY_BC7 = 3,
    TEXDEC_FAMILY_ETC2 = 4,  /* ETC1/ETC2 colour (+ EAC alpha for RGBA8) */
    TEXDEC_FAMILY_EAC = 5,   /* EAC R11 / RG11 */
    TEXDEC_FAMILY_ASTC = 6,
    TEXDEC_FAMILY_MAX_ENUM = 0x7FFFFFFF
} texdec_family;

enum texdec_format_flag_bits {
    TEXDEC_FORMAT_FLAG_SRGB = 1u << 0,        /* values are sRGB-encoded */
    TEXDEC_FORMAT_FLAG_SIGNED = 1u << 1,      /* SNORM or signed float */
    TEXDEC_FORMAT_FLAG_HDR = 1u << 2,         /* float data (BC6H, ASTC sfloat) */
    TEXDEC_FORMAT_FLAG_ALPHA = 1u << 3,       /* has an alpha channel */
    TEXDEC_FORMAT_FLAG_IMPLEMENTED = 1u << 4, /* this build decodes it */
    TEXDEC_FORMAT_FLAG_BITS_MAX_ENUM = 0x7FFFFFFF
};

typedef struct texdec_format_info {
    texdec_format format;
    const char* name;          /* "bc1-rgb-unorm" */
    texdec_family family;
    uint32_t block_width, block_height, block_depth; /* texels */
    uint32_t bytes_per_block;  /* 8 or 16 */
    uint32_t channels;         /* 1 (R), 2 (RG), 3 (RGB) or 4 (RGBA) */
    uint32_t flags;            /* texdec_format_flag_bits */
    VkFormat vk_format;        /* the compressed VkFormat */
} texdec_format_info;

/* Fills *info. TEXDEC_ERROR_UNKNOWN_FORMAT for values outside the enum. Works for formats
 * not implemented yet (flags lacks TEXDEC_FORMAT_FLAG_IMPLEMENTED). */
TEXDEC_API texdec_status texdec_format_get_info(texdec_format format, texdec_format_info* info);
/* Lower-case command-line name ("bc3-srgb", "astc-6x6-unorm"); TEXDEC_FORMAT_UNDEFINED if unknown. */
TEXDEC_API texdec_format texdec_format_from_name(const char* name);
/* The texdec_format of a compressed VkFormat; TEXDEC_FORMAT_UNDEFINED if none. */
TEXDEC_API texdec_format texdec_format_from_vk(VkFormat vk_format);

/* ---- outputs ------------------------------------------------------------------------------- */

typedef enum texdec_output {
    TEXDEC_OUTPUT_RGBA8 = 0,
    TEXDEC_OUTPUT_RGBA16F = 1,
    TEXDEC_OUTPUT_NATIVE = 2,
    TEXDEC_OUTPUT_MAX_ENUM = 0x7FFFFFFF
} texdec_output;

typedef enum texdec_bc_rounding {
    TEXDEC_BC_ROUNDING_EXACT = 0, /* default: spec value rounded to nearest, ties up (D3D) */
    TEXDEC_BC_ROUNDING_IDEAL = 1, /* bit replication + truncating interpolation (nvtt, squish) */
    TEXDEC_BC_ROUNDING_NVIDIA = 2, /* what NVIDIA hardware returns (measured on an H100) */
    TEXDEC_BC_ROUNDING_MAX_ENUM = 0x7FFFFFFF
} texdec_bc_rounding;

/* The uncompressed VkFormat that `output` of `format` produces (R8G8B8A8_SRGB for sRGB RGBA8).
 * Returns UNKNOWN_FORMAT / UNSUPPORTED_OUTPUT as texdec_decode would. */
TEXDEC_API texdec_status texdec_output_vk_format(texdec_format format, texdec_output output,
                                                 VkFormat* vk_format);
/* Bytes of one output texel (4 for RGBA8, 8 for RGBA16F, 1/2/4 for NATIVE R8/RG8/...). */
TEXDEC_API texdec_status texdec_output_texel_size(texdec_format format, texdec_output output,
                                                  uint32_t* bytes);
/* Bytes of tightly packed compressed data for an extent (width x height x depth texels). */
TEXDEC_API texdec_status texdec_encoded_size(texdec_format format, uint32_t width, uint32_t height,
                                             uint32_t depth, uint64_t* bytes);
/* Bytes of tightly packed decoded texels for an extent (row pitch = width * texel size). */
TEXDEC_API texdec_status texdec_decoded_size(texdec_format format, texdec_output output,
                                             uint32_t width, uint32_t height, uint32_t depth,
                                             uint64_t* bytes);

/* "rgba8", "rgba16f", "native" (the CLI's --output names); NULL for values outside the enum. */
TEXDEC_API const char* texdec_output_name(texdec_output output);
/* "exact", "ideal", "nvidia" (the CLI's --bc-rounding names); NULL for values outside the enum. */
TEXDEC_API const char* texdec_bc_rounding_name(texdec_bc_rounding rounding);

/* What an uncompressed VkFormat that texdec writes holds: every texdec_output_vk_format answer and
 * every image format texdec_image_target_create takes (its table below). */
typedef enum texdec_texel_format_flag_bits {
    TEXDEC_TEXEL_FORMAT_SIGNED = 0x1, /* SNORM channels */
    TEXDEC_TEXEL_FORMAT_HALF = 0x2,   /* 16-bit float channels */
    TEXDEC_TEXEL_FORMAT_SRGB = 0x4,   /* sRGB-encoded colour channels */
    TEXDEC_TEXEL_FORMAT_BGRA = 0x8,   /* B8G8R8A8: red and blue swapped in memory */
    TEXDEC_TEXEL_FORMAT_FLAG_BITS_MAX_ENUM = 0x7FFFFFFF
} texdec_texel_format_flag_bits;

typedef struct texdec_texel_format_info { /* output only: no next */
    uint32_t channels;                    /* 1, 2 or 4 */
    uint32_t channel_bytes;               /* 1 or 2 */
    uint32_t texel_bytes;                 /* channels * channel_bytes */
    uint32_t flags;                       /* texdec_texel_format_flag_bits */
    VkFormat linear_format;               /* the non-sRGB twin (R8G8B8A8_UNORM for R8G8B8A8_SRGB); itself if not sRGB */
    VkFormat srgb_format;                 /* the sRGB twin (itself for an sRGB format); VK_FORMAT_UNDEFINED if none */
} texdec_texel_format_info;

/* Fills *info for a VkFormat texdec writes. TEXDEC_ERROR_UNKNOWN_FORMAT for any other VkFormat,
 * TEXDEC_ERROR_INVALID_ARGUMENT for a NULL info. */
TEXDEC_API texdec_status texdec_texel_format_get_info(VkFormat format, texdec_texel_format_info* info);

/* ---- context ------------------------------------------------------------------------------- */

typedef struct texdec_context texdec_context;

typedef enum texdec_message_severity {
    TEXDEC_MESSAGE_INFO = 0, /* e.g. the device chosen; TEXDEC_ERROR_NOT_READY of a record
                                   call (once per variant) */
    TEXDEC_MESSAGE_WARNING = 1,
    TEXDEC_MESSAGE_ERROR = 2,      /* the detail behind a non-success status (except
                                   TEXDEC_ERROR_NOT_READY of a record call: an INFO) */
    TEXDEC_MESSAGE_VALIDATION = 3, /* a Vulkan validation-layer message (own context with
                                      TEXDEC_CONTEXT_VALIDATION) */
    TEXDEC_MESSAGE_SEVERITY_MAX_ENUM = 0x7FFFFFFF
} texdec_message_severity;

/* Called on the thread that hit the condition; may be called from several threads at once. */
typedef void (*texdec_message_callback)(texdec_message_severity severity, const char* message,
                                        void* user_data);

enum texdec_context_flag_bits {
    /* Own context only: enable VK_LAYER_KHRONOS_validation and report its messages through the
     * message callback as TEXDEC_MESSAGE_VALIDATION. Fails with NO_DEVICE if the layer is absent.
     * Synchronization validation is on too (VK_EXT_validation_features, where the layer has it). */
    TEXDEC_CONTEXT_VALIDATION = 1u << 0,
    TEXDEC_CONTEXT_FLAG_BITS_MAX_ENUM = 0x7FFFFFFF
};

/* ---- backends ------------------------------------------------------------------------------
 *
 * A context decodes on a GPU through Vulkan (TEXDEC_BACKEND_GPU, lavapipe included) or on the
 * host's cores (TEXDEC_BACKEND_CPU). The default (no texdec_backend_info chained, or a NULL info)
 * is TEXDEC_BACKEND_AUTO: a GPU that is not of type VK_PHYSICAL_DEVICE_TYPE_CPU, else the CPU
 * backend, as astc-gpu-decode picks (since 1.5.0; before, the default was GPU, which took a
 * software rasterizer such as lavapipe on a machine without a GPU: 30x slower than the CPU
 * backend). Chain a texdec_backend_info with TEXDEC_BACKEND_GPU to get a Vulkan device whatever
 * its type. Both give the same bytes for every job: every format, output type, BC rounding mode
 * and layout (the tests compare them, and each against the independent oracles of
 * docs/EXACTNESS.md).
 *
 * A CPU context serves the one-call path: texdec_decode, texdec_decode_timed,
 * texdec_decode_scratch_size, the memory queries, texdec_prepare / texdec_variant_ready /
 * texdec_query_support of buffer variants, and every function that takes no context. It needs no
 * Vulkan loader or device at all. What needs a VkDevice (texdec_record_regions,
 * texdec_image_target_create, image variants) returns TEXDEC_ERROR_WRONG_BACKEND with a message,
 * whatever its other arguments (a NULL command buffer, job or info included).
 * On a CPU context:
 *   - texdec_decode splits the job into block rows and decodes them on the context's threads
 *     (the calling thread takes part); concurrent calls on one context share the threads and are
 *     safe. timeout_ns is not used (the call returns when the texels are written).
 *   - texdec_decode_timed: total_ns, prepare_ns (checks) and submit_wait_ns (the decode on the
 *     threads, first task to last) are measured; gpu_timestamps and the other fields are 0.
 *   - texdec_decode_scratch_size answers 0 and 0 (the CPU decodes straight into job->dst; each
 *     task uses a scratch tile of at most 64 KiB); texdec_context_memory_usage answers 0 in every
 *     field (the CPU decoders' tables, a few KiB per ASTC footprint, are not counted);
 *     texdec_context_release_staging does nothing and succeeds.
 *   - texdec_prepare and texdec_variant_ready of a buffer variant succeed where the CPU backend
 *     decodes the format (prepare builds its tables); texdec_query_support answers for the CPU
 *     backend (image destinations: WRONG_BACKEND, reason TEXDEC_SUPPORT_REASON_DESTINATION).
 *   - texdec_context_device_name names the CPU backend and its thread count.
 */
typedef enum texdec_backend {
    TEXDEC_BACKEND_GPU = 0,  /* Vulkan, any device type (lavapipe included) */
    TEXDEC_BACKEND_CPU = 1,  /* the host's cores; no Vulkan needed */
    TEXDEC_BACKEND_AUTO = 2, /* own contexts, and the default: a GPU that is not of type
                                VK_PHYSICAL_DEVICE_TYPE_CPU (lavapipe, SwiftShader) where one is
                                usable, else the CPU backend */
    TEXDEC_BACKEND_MAX_ENUM = 0x7FFFFFFF
} texdec_backend;

/* The `type` of texdec's own extension structs (values far from VkStructureType's). */
typedef enum texdec_structure_type {
    TEXDEC_STRUCTURE_TYPE_BACKEND_INFO = 0x54440001,         /* texdec_backend_info */
    TEXDEC_STRUCTURE_TYPE_SOURCE_LAYOUT_INFO = 0x54440002,   /* texdec_source_layout_info */
    TEXDEC_STRUCTURE_TYPE_REGIONS_SCRATCH_INFO = 0x54440003, /* texdec_regions_scratch_info */
    TEXDEC_STRUCTURE_TYPE_MAX_ENUM = 0x7FFFFFFF
} texdec_structure_type;

/* A caller-supplied scheduler for the CPU backend (emulators with a job system of their own):
 * run task(task_data, i) once for every i in [0, task_count), on any threads and in any order,
 * and return when every call has returned. Calling them one after another on the calling thread
 * is correct (just not parallel). May be called from several threads at once (one per
 * texdec_decode running on the context).
 * texdec checks what the hook does: a call with an index outside [0, task_count) and a second
 * call of an index are ignored (nothing outside the job is read or written, no task runs twice),
 * and the decode then fails with TEXDEC_ERROR_INVALID_ARGUMENT and an ERROR message naming
 * run_tasks and the index; so does a hook that returns with tasks not run (the message says how
 * many), even though the tasks that did run wrote their texels (the destination is then partly
 * written, as after any failed texdec_decode). Calls after the hook has returned cannot be
 * checked: they are undefined behaviour. */
typedef void (*texdec_task_function)(void* task_data, uint32_t task_index);
typedef void (*texdec_run_tasks_function)(void* user_data, uint32_t task_count, texdec_task_function task,
                                          void* task_data);

/* Chained on texdec_context_create_info::next of texdec_context_create (own contexts). Without
 * it a context is TEXDEC_BACKEND_AUTO (since 1.5.0; it was TEXDEC_BACKEND_GPU). */
typedef struct texdec_backend_info {
    texdec_structure_type type; /* TEXDEC_STRUCTURE_TYPE_BACKEND_INFO */
    const void* next;           /* NULL */
    texdec_backend backend;
    /* CPU backend: threads that decode one call, the calling thread included (0 = the number the
     * hardware runs at once, at most 1024). The context starts cpu_threads - 1 threads of its own
     * and ends them in texdec_context_destroy; with run_tasks it starts none and cuts each job into
     * about 4 * cpu_threads tasks for it. At most 1024: a larger value is refused at once
     * (TEXDEC_ERROR_INVALID_ARGUMENT and a message, before any thread starts; AUTO too). */
    uint32_t cpu_threads;
    texdec_run_tasks_function run_tasks; /* optional, CPU backend; kept (with its user data) until
                                             the context is destroyed */
    void* run_tasks_user_data;
} texdec_backend_info;

typedef struct texdec_context_create_info {
    /* NULL, or a texdec_backend_info (texdec_context_create only: an external context is a GPU
     * context). */
    const void* next;
    uint32_t flags;                             /* texdec_context_flag_bits */
    /* Optional; used for every Vulkan object. The struct is copied; its functions and
     * pUserData must stay valid until the context is destroyed. */
    const VkAllocationCallbacks* allocator;
    /* Optional; must belong to the device used and outlive the context (texdec uses it
     * whenever it creates a pipeline, and never destroys it), and not be created with
     * VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT: texdec may create pipelines from
     * several threads at once. */
    VkPipelineCache pipeline_cache;
    /* Own context only: which device. NULL = the TEXDEC_DEVICE environment variable, else the
     * first discrete GPU, then integrated, virtual, CPU (lavapipe). A decimal index into
     * vkEnumeratePhysicalDevices or a case-insensitive substring of the device name. An index
     * or name that matches no usable device gives TEXDEC_ERROR_NO_DEVICE. Read during the call. */
    const char* device_selector;
    /* Optional; kept (with user_data) and called until the context is destroyed. */
    texdec_message_callback message_callback;
    void* user_data;
    /* The most texels one dispatch may decode (0 = 2^24 = 16,777,216): larger jobs and regions
     * are split into several dispatches, so that no single dispatch runs long enough to trip a
     * GPU watchdog (at the default: about 30 us on an H100 for BC1, 0.4 ms for ASTC 4x4). A
     * job may set its own (texdec_regions_job::max_texels_per_dispatch). Counted in whole
     * blocks, at least one block per dispatch. */
    uint32_t max_texels_per_dispatch;
} texdec_context_create_info;

/* `info` may be NULL (all defaults). The backend is AUTO unless a texdec_backend_info says
 * otherwise (a zero-initialized info, or NULL, decodes on a real GPU where there is one, else on
 * the CPU backend). GPU backend: creates an instance and device of its own (loading
 * libvulkan.so.1 at run time). The chosen device is reported through the message callback (INFO)
 * and texdec_context_device_name. Only devices with Vulkan 1.1, a compute queue and
 * VK_KHR_push_descriptor are chosen. The instance enables VK_EXT_debug_utils wherever the loader
 * offers it (see "Debugging" below). CPU backend: loads nothing; allocator, pipeline_cache,
 * device_selector, max_texels_per_dispatch and TEXDEC_CONTEXT_VALIDATION are not used. AUTO: as
 * GPU with the device_selector's choice, but a device of CPU type, no Vulkan loader or no usable
 * device gives a CPU context instead (an INFO message says which and why); so a device_selector
 * (or TEXDEC_DEVICE) naming lavapipe gives the CPU backend under AUTO: chain TEXDEC_BACKEND_GPU
 * to decode on a CPU-type Vulkan device. */
TEXDEC_API texdec_status texdec_context_create(const texdec_context_create_info* info,
                                               texdec_context** out_context);

/* The caller's device. Requirements on it:
 *   - Vulkan 1.1 or later.
 *   - VK_KHR_push_descriptor enabled (NVIDIA, AMD, Intel, Mesa have it) to record or decode:
 *     texdec binds its descriptors with vkCmdPushDescriptorSetKHR. A device without it still
 *     gives a context (a WARNING message says so), so that you can ask and fall back instead of
 *     failing: texdec_query_support answers TEXDEC_ERROR_MISSING_FEATURE with
 *     TEXDEC_SUPPORT_REASON_PUSH_DESCRIPTOR for every variant, and texdec_prepare, the record
 *     calls and texdec_decode return TEXDEC_ERROR_MISSING_FEATURE with a message naming the
 *     extension; image targets, the format functions and the memory queries work. texdec
 *     sees the extension through vkGetDeviceProcAddr(device, "vkCmdPushDescriptorSetKHR"),
 *     which Vulkan defines as NULL unless the device enabled it.
 *   - queue_family_index supports compute. `queue` is used only by texdec_decode(); it may be
 *     VK_NULL_HANDLE if you only record. Vulkan requires external synchronization of a queue:
 *     give lock_queue/unlock_queue if other threads submit to it too.
 * Functions are loaded through get_instance_proc_addr (and vkGetDeviceProcAddr obtained from it);
 * the library makes no link-time Vulkan calls. VK_EXT_debug_utils is used when the instance
 * enabled it (see "Debugging" below); nothing needs to be said about it.
 * Every handle and function here is kept by the context and must stay valid until it is destroyed. */
typedef struct texdec_external_device {
    const void* next;                            /* NULL */
    PFN_vkGetInstanceProcAddr get_instance_proc_addr;
    VkInstance instance;
    VkPhysicalDevice physical_device;
    VkDevice device;
    uint32_t queue_family_index;
    VkQueue queue;                               /* optional, for texdec_decode */
    /* Optional, but both or neither: one without the other is refused (INVALID_ARGUMENT and a
     * message naming the missing one), as it would leave the queue locked after the first
     * submission. texdec calls lock_queue, then unlock_queue, around each vkQueueSubmit. */
    void (*lock_queue)(void* user_data);
    void (*unlock_queue)(void* user_data);
    void* queue_user_data;
} texdec_external_device;

TEXDEC_API texdec_status texdec_context_create_external(const texdec_context_create_info* info,
                                                        const texdec_external_device* device,
                                                        texdec_context** out_context);

/* Debugging (VK_EXT_debug_utils). Where the context's instance has the extension, texdec
 *   - labels what it records: everything one texdec_record_regions call
 *     records (barriers included) lies inside vkCmdBeginDebugUtilsLabelEXT ..
 *     vkCmdEndDebugUtilsLabelEXT, named "texdec <format> -> <store> <destination>, <n> region(s)"
 *     ("texdec astc-6x6-srgb -> rgba8 image, 3 regions"; the store is rgba8, rgba16f, r8, rg8,
 *     r16 or rg16); each command buffer texdec_decode submits is labelled
 *     "texdec_decode <format> -> <store>, WxHxD texels at (x, y, z)" around that label;
 *   - names its own objects with vkSetDebugUtilsObjectNameEXT, all starting with "texdec":
 *     pipelines ("texdec astc-6x6 ldr -> rgba8 buffer", "texdec bc1-rgba exact -> rgba16f
 *     image"), set and pipeline layouts, the pipeline cache it creates, lookup-table buffers,
 *     their memory and view, texdec_decode's staging buffers, command pool, command buffers,
 *     fences and query pool, the image target views ("texdec image target mip 0
 *     (VK_FORMAT_R8G8B8A8_UNORM 2D-array view)"), and an own context's device and queue.
 * So RenderDoc's event tree shows where texdec worked, and a validation message about texdec's
 * work carries the label (VkDebugUtilsMessengerCallbackDataEXT::pCmdBufLabels) and the names
 * (pObjects[i].pObjectName). Labels are balanced within each call, so your own labels around a
 * texdec call nest.
 * Own contexts enable VK_EXT_debug_utils whenever the loader (or the validation layer) offers it.
 * External contexts use it when the instance you created enabled it: texdec loads the
 * extension's commands through your get_instance_proc_addr, which returns NULL for a command of
 * an instance extension the instance did not enable (the Vulkan spec's vkGetInstanceProcAddr
 * table, "any other case, not covered above: NULL"; the Khronos loader checks the instance's
 * enabled extensions for each VK_EXT_debug_utils command). Without it texdec records exactly the
 * same commands minus the labels and names nothing. */

/* Waits for nothing: the caller must not destroy a context while GPU work it recorded is pending.
 * Not allowed (undefined behaviour, as for Vulkan handles): destroying a context twice, destroying
 * it while another thread is still inside a texdec call with it, and using it (or an image target
 * created from it) afterwards. NULL is ignored. Destroy image targets before their context. */
TEXDEC_API void texdec_context_destroy(texdec_context* context);

/* The VkPhysicalDeviceProperties::deviceName of the context's device ("CPU backend, 16 threads"
 * on a CPU context); valid while it lives. */
TEXDEC_API const char* texdec_context_device_name(const texdec_context* context);

/* TEXDEC_BACKEND_GPU or TEXDEC_BACKEND_CPU: what the context decodes on (AUTO resolved at
 * creation). TEXDEC_BACKEND_MAX_ENUM for NULL. */
TEXDEC_API texdec_backend texdec_context_backend(const texdec_context* context);

/* Memory the context holds (bytes), for the one-call path's staging and the lookup tables. */
typedef struct texdec_memory_usage {
    uint64_t staging_host_bytes;    /* host-visible upload + readback buffers of texdec_decode */
    uint64_t staging_device_bytes;  /* their device-local twins (discrete GPUs only) */
    uint64_t table_bytes;           /* lookup tables (ASTC per footprint, BPTC/ETC), created on first use */
    uint32_t pipelines;             /* compute pipelines created so far */
} texdec_memory_usage;

/* Fills *usage. Thread-safe. */
TEXDEC_API texdec_status texdec_context_memory_usage(texdec_context* context, texdec_memory_usage* usage);

/* Frees the one-call path's staging buffers (texdec_decode grows them to the largest job seen and
 * keeps them). The next texdec_decode creates them again. Waits for a texdec_decode running on
 * another thread; returns TEXDEC_ERROR_TIMEOUT (and frees nothing) if an earlier timed-out
 * submission is still executing. */
TEXDEC_API texdec_status texdec_context_release_staging(texdec_context* context);

/* Enumerates the physical devices the own-context path would see (index, name, type as
 * VkPhysicalDeviceType) by calling `callback` for each; for `astc-gpu-decode list-devices`. */
typedef void (*texdec_device_callback)(uint32_t index, const char* name, VkPhysicalDeviceType type,
                                       uint32_t api_version, void* user_data);
TEXDEC_API texdec_status texdec_enumerate_devices(texdec_device_callback callback, void* user_data);

/* ---- source layouts: linear or Tegra block-linear -------------------------------------------
 *
 * Where a job's compressed blocks are. LINEAR (the default) addresses them as
 * vkCmdCopyBufferToImage does: rows of src_row_length texels, slices of src_image_height rows.
 * BLOCK_LINEAR is the NVIDIA Tegra X1 layout (what a Nintendo Switch title's textures are in, and
 * what a Switch emulator holds), described in the Tegra X1 Technical Reference Manual, "Block
 * Linear" surfaces. The element is one compressed block (8 or 16 bytes):
 *   - a GOB ("group of bytes") is 64 bytes x 8 rows = 512 bytes; byte (x, y) of a GOB (x < 64
 *     bytes, y < 8 rows) is at (x / 32) * 256 + (y / 2) * 64 + ((x % 32) / 16) * 32 + (y % 2) * 16
 *     + x % 16;
 *   - a block is block_height x block_depth GOBs stacked vertically, then in depth (the GOB below
 *     follows the one above, the next slice's GOBs follow them): 512 * block_height *
 *     block_depth bytes;
 *   - a surface is rows of blocks: ceil(row bytes / 64) blocks per row, where row bytes = the
 *     source row length in compressed blocks x bytes per block; ceil(rows / (8 * block_height))
 *     rows of blocks per block_depth slices (rows = the source image height in compressed blocks);
 *     then the next block_depth slices.
 * So compressed block (bx, by, bz) of a surface, at byte x = bx * bytes per block, is at
 *     ((bz / D) * ceil(rows / (8 * H)) + by / (8 * H)) * ceil(row bytes / 64) * 512 * H * D
 *   + (x / 64) * 512 * H * D  +  (bz % D) * 512 * H  +  ((by / 8) % H) * 512
 *   + the GOB's byte offset of (x % 64, by % 8)
 * with H = block_height, D = block_depth (in GOBs). Block (0, 0, 0) of a region (or host job) is
 * block (0, 0, 0) of the surface that starts at its source offset; src_row_length and
 * src_image_height (0 = the extent's) give the surface's width and height in texels, as for linear
 * sources (give the width the surface was laid out for: e.g. a texture descriptor's width aligned
 * for its "tile width spacing" where it has one). Depth: block slices of a 3D texture (and the
 * ASTC 3D footprints' block slices) use block_depth; the array layers of a 2D texture are surfaces
 * of their own, layer_stride bytes apart.
 *
 * What an emulator fills from a guest texture descriptor (Maxwell TIC): layout = BLOCK_LINEAR when
 * the descriptor's memory layout is block-linear (else LINEAR), block_height = 1 << its GOBs-per-
 * block-in-Y field, block_depth = 1 << its GOBs-per-block-in-Z field; then one region per mip
 * level, with that level's offset and block height/depth and the layer stride, which the
 * descriptor does not hold (the hardware computes it): texdec_block_linear_get_level() computes
 * them (mip levels use smaller blocks where the level is small). A texture a game rendered into
 * uses its render target's array pitch as the layer stride (docs/BLOCK_LINEAR.md).
 *
 * The source bytes a block-linear job needs run from its offset to the end of the last block it
 * reads (not the whole padded surface). Sources of both layouts decode to the same texels on both
 * backends; the GPU decoders read block-linear sources directly (no copy, no extra pass).
 */
typedef enum texdec_source_layout {
    TEXDEC_SOURCE_LAYOUT_LINEAR = 0,       /* rows and slices, like VkBufferImageCopy (default) */
    TEXDEC_SOURCE_LAYOUT_BLOCK_LINEAR = 1, /* Tegra X1 GOBs, see above */
    TEXDEC_SOURCE_LAYOUT_MAX_ENUM = 0x7FFFFFFF
} texdec_source_layout;

/* Chained on texdec_region::next (one region) or texdec_host_job::next (one texdec_decode job);
 * without it a source is LINEAR. Checked with the job: TEXDEC_ERROR_INVALID_LAYOUT (and a
 * message) for a block height or depth that is not 1, 2, 4, 8, 16 or 32, a layer_stride that is
 * not a multiple of 4 or smaller than one layer's surface, a layer_stride with block_depth above 1
 * or with a 3D block format, an unknown layout value, and LINEAR with any other field not 0. */
typedef struct texdec_source_layout_info {
    texdec_structure_type type; /* TEXDEC_STRUCTURE_TYPE_SOURCE_LAYOUT_INFO */
    const void* next;           /* NULL */
    texdec_source_layout layout;
    uint32_t block_height; /* BLOCK_LINEAR: GOBs per block vertically (1, 2, 4, 8, 16, 32) */
    uint32_t block_depth;  /* BLOCK_LINEAR: GOBs per block in depth (1 ... 32; 1 for 2D) */
    /* BLOCK_LINEAR, 2D formats: bytes from one array layer's surface to the next (a region's
     * layer_count layers; a host job's depth slices). 0 = the slices are depth slices of one
     * surface (with block_depth 1 that is layers of one mip level each, packed). */
    uint64_t layer_stride;
} texdec_source_layout_info;

/* A block-linear texture as its descriptor gives it: every mip level and layer in one piece of
 * memory, layer 0's levels first (level 0, 1, ...), then layer 1's, and so on. */
typedef struct texdec_block_linear_texture {
    const void* next; /* NULL */
    texdec_format format;
    uint32_t width, height, depth; /* level 0 in texels; depth 1 unless 3D */
    uint32_t mip_levels;           /* 1 ... 32 */
    uint32_t array_layers;         /* 1 or more (6 per cube); 1 for a 3D texture */
    uint32_t block_height;         /* level 0's, in GOBs (1, 2, 4, 8, 16, 32) */
    uint32_t block_depth;          /* level 0's, in GOBs (1 ... 32; 1 unless 3D) */
} texdec_block_linear_texture;

/* Where one mip level of a block-linear texture is. */
typedef struct texdec_block_linear_level {
    uint64_t offset;               /* bytes from the texture's start to this level of layer 0 (layer n:
                                 + n * layout.layer_stride) */
    uint64_t size;                 /* bytes of this level in one layer (whole blocks of GOBs) */
    uint64_t texture_size;         /* bytes of the whole texture, every layer and level */
    uint32_t width, height, depth; /* this level's extent in texels */
    /* Ready to chain on the level's texdec_region::next: BLOCK_LINEAR, this level's block height
     * and depth, and the layer stride (0 for a single layer or a 3D texture). Its `next` is NULL. */
    texdec_source_layout_info layout;
} texdec_block_linear_level;

/* Computes where mip level `level` of `texture` lies, as the Tegra X1 lays the texture out: a
 * level's block height (depth) halves while the level's height in compressed blocks is at most
 * 8 * half of it (its depth in block slices at most half of it), at every level, level 0
 * included; a level takes whole blocks of GOBs; with more than one layer, the layer stride is the
 * sum of the levels rounded up to a whole block of level 0's (halved) size, and a single layer is
 * not padded (the rules of Mesa's NVK image layout and yuzu's texture cache, tested against
 * texture sizes from shipped games; Ryujinx differs for 3D block depths in rare cases; see
 * docs/BLOCK_LINEAR.md). Sparse textures ("tile width spacing") are not covered. Thread-safe, no
 * context. TEXDEC_ERROR_INVALID_ARGUMENT for NULL pointers or a next chain, UNKNOWN_FORMAT,
 * INVALID_EXTENT for a zero extent, mip_levels or array_layers, mip_levels above 32, or a level
 * past mip_levels, INVALID_LAYOUT for a block height / depth that is not a power of two up to 32,
 * or a 3D texture (depth > 1, or a 3D block footprint such as ASTC 3x3x3) with layers,
 * SIZE_OVERFLOW if a size does not fit 64 bits. */
TEXDEC_API texdec_status texdec_block_linear_get_level(const texdec_block_linear_texture* texture, uint32_t level,
                                                       texdec_block_linear_level* out);

/* ---- one-call decode (host memory) ---------------------------------------------------------- */

/* Names used throughout (host jobs, regions, record jobs): src_* is the compressed blocks, laid
 * out in texels like VkBufferImageCopy (src_row_length, src_image_height; 0 = the extent's);
 * dst_* is the decoded texels, laid out in bytes (dst_row_pitch, dst_slice_pitch; 0 = tight);
 * *_size is the number of bytes texdec may touch. */
typedef struct texdec_host_job {
    const void* next; /* NULL or a texdec_source_layout_info */
    texdec_format format;
    texdec_output output;
    texdec_bc_rounding bc_rounding;
    uint32_t width, height, depth;  /* extent in texels; depth = slices (1 for a 2D image) */
    const void* src;                /* compressed blocks */
    size_t src_size;                /* bytes readable at `src` */
    uint32_t src_row_length;        /* texels per source row (0 = width); like bufferRowLength */
    uint32_t src_image_height;      /* texel rows per source slice (0 = height) */
    void* dst;                      /* caller-owned destination texels */
    size_t dst_size;                /* bytes writable at `dst` */
    size_t dst_row_pitch;           /* bytes between rows (0 = width * texel size) */
    size_t dst_slice_pitch;         /* bytes between slices (0 = dst_row_pitch * height) */
    uint64_t timeout_ns;            /* per GPU submission (a large job is several; see
                                       texdec_decode); 0 = 10 seconds */
} texdec_host_job;

/* The staging memory texdec_decode() needs for this job (scratch of the one-call path; the
 * record path needs none): host-visible bytes (upload of the blocks + readback of the texels)
 * and, on discrete GPUs, as many device-local bytes. A job whose blocks and texels fit in 64 MiB
 * of staging needs exactly that; a larger job is streamed through two sets of at most 64 MiB
 * each, so the staging never exceeds 128 MiB host-visible (+ as much device-local) whatever the
 * job's size. The context keeps staging at the largest size any call needed
 * (texdec_context_memory_usage tells, texdec_context_release_staging frees). The blocks are
 * staged as the job reads them: a source's row length and image height cost no staging (a job of
 * a few blocks whose rows are 2^26 texels apart stages those blocks; linear sources, and
 * block-linear ones whose rows of GOB blocks are too long for one storage buffer range, are
 * staged block row after block row), so every job the CPU backend decodes, texdec_decode on a GPU
 * context decodes too. Checks the job like texdec_decode (except the dst pointer). */
TEXDEC_API texdec_status texdec_decode_scratch_size(texdec_context* context, const texdec_host_job* job,
                                                    uint64_t* host_bytes, uint64_t* device_bytes);

/* Decodes on the context's device and waits. Only bytes of texels inside the extent are written
 * (padding between rows is left untouched). Any job whose blocks and texels fit in host memory
 * decodes: a job above 64 MiB of staging is cut into parts (whole block slices, else block rows,
 * else block columns), each decoded by its own submission; the host copies the next part in
 * and the previous part out while the GPU decodes one (two sets of staging buffers). The
 * timeout applies to each submission's wait, not to the whole job. On failure the texels may be
 * partly written. Thread-safe; concurrent calls share staging memory and run one after another.
 * Host copies (GPU contexts): the blocks into the upload buffer and the texels out of the readback
 * buffer are split across up to min(hardware threads, 16) threads, the calling thread included
 * (copies under 1 MiB per thread use fewer); the context starts the other threads on its first
 * copy large enough to split and joins them in texdec_context_destroy. They run only inside a
 * texdec_decode call; the calls' serialization above makes them one pool per context, whatever the
 * number of calling threads. Any dst alignment: texdec writes into job->dst with the CPU, never
 * through an imported or mapped pointer. */
TEXDEC_API texdec_status texdec_decode(texdec_context* context, const texdec_host_job* job);

/* Where the time of one texdec_decode_timed() call went, in nanoseconds (for benchmarks and
 * profiling; `astc-gpu-decode bench` prints it). Host times come from a monotonic clock; gpu_*
 * times from Vulkan timestamp queries on the context's queue. A streamed job (see texdec_decode)
 * sums each field over its parts (the host copies one part while the GPU works on another, so the
 * gpu_* fields overlap the host ones). The GPU's clocks show in gpu_decode_ns: a GPU
 * that was idle runs at its idle clocks until it has been busy for a while (an NVIDIA H100 drops
 * from 1980 to 345 MHz within a second of idling and needs some 200 ms of work to come back), so
 * a compute-bound decode (ASTC) timed after an idle spell can take 5x as long as a warm one. */
typedef struct texdec_decode_timing {
    uint32_t gpu_timestamps;    /* out: 1 if the gpu_* fields were measured; 0 if the queue
                                   family has no timestamps (timestampValidBits 0): they are 0 */
    uint64_t total_ns;          /* the whole call */
    uint64_t prepare_ns;        /* checks, waiting for an earlier timed-out call, growing the
                                   staging buffers (first calls), recording the command buffer */
    uint64_t upload_copy_ns;    /* host: copying the blocks into the mapped upload buffer */
    uint64_t submit_wait_ns;    /* host: vkQueueSubmit until the fence is signalled */
    uint64_t readback_copy_ns;  /* host: copying the texels from the mapped readback buffer into
                                   job->dst (with the job's pitches) */
    uint64_t gpu_upload_ns;     /* device: upload buffer -> device-local buffer copy of the blocks
                                   (0 where the decode reads the upload buffer directly: unified
                                   memory) */
    uint64_t gpu_decode_ns;     /* device: the decode dispatches */
    uint64_t gpu_readback_ns;   /* device: device-local texels -> readback buffer copy (0 on
                                   unified memory) */
} texdec_decode_timing;

/* texdec_decode() that also measures where the time goes. `timing` may be NULL (then this is
 * texdec_decode). On failure the timing fields are unspecified. Adds four timestamp writes to the
 * command buffer; otherwise the work is the same as texdec_decode's. */
TEXDEC_API texdec_status texdec_decode_timed(texdec_context* context, const texdec_host_job* job,
                                             texdec_decode_timing* timing);

/* ---- record into the caller's command buffer ------------------------------------------------ */

/* What a record call writes: one of your buffers, or one of your images through a
 * texdec_image_target (2D / 2D array, or 3D). Pipelines differ by destination kind, so a
 * texdec_variant names one. */
typedef enum texdec_destination_kind {
    TEXDEC_DESTINATION_BUFFER = 0,    /* a VkBuffer with STORAGE_BUFFER usage */
    TEXDEC_DESTINATION_IMAGE = 1,     /* a 2D (array) image target */
    TEXDEC_DESTINATION_IMAGE_3D = 2,  /* a 3D image target */
    TEXDEC_DESTINATION_MAX_ENUM = 0x7FFFFFFF
} texdec_destination_kind;

/* texdec_regions_job::flags. */
enum texdec_record_flag_bits {
    /* Never compile or create tables while recording: if the variant's pipeline or lookup tables
     * do not exist yet, return TEXDEC_ERROR_NOT_READY (an expected answer: an INFO message names
     * the variant, the first time only for each variant),
     * record nothing and create nothing. See "prepare ahead" below. */
    TEXDEC_RECORD_FAIL_IF_NOT_READY = 1u << 0,
    TEXDEC_RECORD_FLAG_BITS_MAX_ENUM = 0x7FFFFFFF
};

/* ---- prepare ahead: recording that never compiles --------------------------------------------
 *
 * Each decoder variant (texdec_variant: format, output, BC rounding, destination kind, image
 * format) has its own compute pipeline; ASTC (per block footprint), BC6H/BC7 and ETC2/EAC also
 * read lookup tables that are created once per context. A record call creates what its variant
 * lacks, so the first record call of a variant compiles (tens of milliseconds on lavapipe; on a
 * GPU, less with a warm VkPipelineCache) and allocates the tables. texdec_prepare creates them
 * ahead; texdec_variant_ready tells whether that has happened.
 *
 * Threads. Every function that takes a context may be called from any thread at once
 * (texdec_context_destroy excepted). No lock is held while texdec compiles or builds a table: a
 * record call (or texdec_variant_ready) of a variant that exists only takes a short lock to find
 * it, so it never waits for a compile or table creation on another thread, in the same context
 * or not. A thread that needs a variant which another thread is compiling right now waits for
 * that compile instead of compiling it twice (with TEXDEC_RECORD_FAIL_IF_NOT_READY it does not
 * wait: the variant is not ready). Each variant exists once per context.
 * What blocks: texdec_prepare, and a record call of a variant that does not exist yet (without
 * TEXDEC_RECORD_FAIL_IF_NOT_READY), for as long as the compile takes; texdec_decode until the GPU
 * is done (texdec_decode calls on one context run one after another);
 * texdec_context_release_staging for a running texdec_decode. texdec has no threads of its own:
 * nothing is compiled in the background unless you call texdec_prepare on a thread of yours.
 *
 * The emulator pattern (a frame must never stall on a compile):
 *   - at load time, on a worker thread: texdec_prepare(ctx, n, variants) with every variant the
 *     title may use (e.g. each ASTC footprint it ships, into the image formats it decodes to);
 *   - on the render thread, record with job.flags = TEXDEC_RECORD_FAIL_IF_NOT_READY; on
 *     TEXDEC_ERROR_NOT_READY (nothing was recorded) draw this frame with a fallback (a placeholder,
 *     the previous contents, a CPU decode), hand the variant to the worker (texdec_prepare of that
 *     one variant) and record the decode in a later frame;
 *   - texdec_variant_ready asks the same question without a job (e.g. before queueing work).
 */

/* One decoder variant: what a pipeline (and its lookup tables) is created for. texdec_prepare
 * creates variants ahead of recording; the capability query answers whether one can work. */
typedef struct texdec_variant {
    const void* next;                    /* NULL (no extension struct is defined for it yet) */
    texdec_format format;
    texdec_output output;
    texdec_bc_rounding bc_rounding;      /* BC1-BC5 select a pipeline per mode; for other formats
                                            any valid value gives the same variant */
    texdec_destination_kind destination; /* buffer, 2D (array) image target, 3D image target */
    VkFormat image_format;               /* image destinations: the target image's VkFormat
                                            (texdec_image_target_create_info::format), or
                                            VK_FORMAT_UNDEFINED for texdec_output_vk_format's;
                                            buffer destinations: VK_FORMAT_UNDEFINED */
} texdec_variant;

/* Creates, now, on the calling thread, the pipeline and lookup tables of every variant, so that
 * decoding them (texdec_record_regions; texdec_decode uses the buffer variants) compiles nothing and creates no tables. Callable from any thread, also while other threads record with the context
 * (they never wait for it). Variants that exist already are skipped; listing one twice is fine.
 * Every variant is checked before anything is created: INVALID_ARGUMENT (next not NULL, variants
 * NULL with variant_count > 0), UNKNOWN_FORMAT, UNSUPPORTED_FORMAT, UNSUPPORTED_OUTPUT,
 * UNSUPPORTED_ROUNDING, INVALID_DESTINATION (an unknown destination kind, an image_format for a
 * buffer destination, an image_format that cannot hold the output: the target rules of
 * texdec_image_target_create), each with a message naming the variant's index. Then the variants
 * are created in order; a creation failure (MISSING_FEATURE, OUT_OF_MEMORY, VULKAN) returns at
 * once, keeping the variants created before it. variant_count 0 does nothing. */
TEXDEC_API texdec_status texdec_prepare(texdec_context* context, uint32_t variant_count, const texdec_variant* variants);

/* TEXDEC_SUCCESS if recording this variant would neither compile nor create tables,
 * TEXDEC_ERROR_NOT_READY (no message) if it would. Checks the variant as texdec_prepare does
 * (same statuses); MISSING_FEATURE for a variant the device can never run. Creates nothing,
 * takes two short locks, never waits for a compile: cheap enough to call per texture. A variant
 * stays ready until the context is destroyed. */
TEXDEC_API texdec_status texdec_variant_ready(texdec_context* context, const texdec_variant* variant);

/* ---- capabilities: ask before you fail -------------------------------------------------------- */

/* Why a variant cannot be decoded on a context (texdec_support::reasons). Each names a rule that
 * the failing call applies too, with the status that call returns. */
typedef enum texdec_support_reason_bits {
    /* The variant itself: */
    TEXDEC_SUPPORT_REASON_FORMAT = 1u << 0,       /* not a texdec_format (UNKNOWN_FORMAT), or not
                                                     implemented in this version (UNSUPPORTED_FORMAT) */
    TEXDEC_SUPPORT_REASON_ROUNDING = 1u << 1,     /* not a texdec_bc_rounding (UNSUPPORTED_ROUNDING) */
    TEXDEC_SUPPORT_REASON_OUTPUT = 1u << 2,       /* the output is not offered for the format, e.g.
                                                     RGBA8 of BC6H (UNSUPPORTED_OUTPUT) */
    TEXDEC_SUPPORT_REASON_DESTINATION = 1u << 3,  /* not a texdec_destination_kind, or an image_format
                                                     image targets do not take or that this output does
                                                     not write (INVALID_DESTINATION) */
    /* The device (MISSING_FEATURE; the numbers are in texdec_support): */
    TEXDEC_SUPPORT_REASON_PUSH_DESCRIPTOR = 1u << 4,  /* VK_KHR_push_descriptor is not enabled on the
                                                         device: nothing can be recorded */
    TEXDEC_SUPPORT_REASON_SHARED_MEMORY = 1u << 5,    /* maxComputeSharedMemorySize is below what the
                                                         decoder uses (ASTC: 22,856 bytes) */
    TEXDEC_SUPPORT_REASON_INVOCATIONS = 1u << 6,      /* maxComputeWorkGroupInvocations or
                                                         maxComputeWorkGroupSize[0] is below the
                                                         decoder's workgroup (ASTC: 256) */
    TEXDEC_SUPPORT_REASON_TABLES = 1u << 7,           /* BC6H, BC7, ETC2, EAC: no R32_UINT uniform texel
                                                         buffer of the tables' 904 texels (Vulkan
                                                         guarantees both; checked anyway) */
    TEXDEC_SUPPORT_REASON_STORAGE_IMAGE_FORMAT = 1u << 8, /* image destinations: storage_format lacks
                                                             VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT */
    TEXDEC_SUPPORT_REASON_MAX_ENUM = 0x7FFFFFFF
} texdec_support_reason_bits;
typedef uint32_t texdec_support_reasons;

/* The answer of texdec_query_support. The numbers are filled whenever the format is known, so
 * a supported variant shows its margin too. */
typedef struct texdec_support {
    texdec_support_reasons reasons;    /* 0: supported; else every rule the variant breaks */
    uint32_t shared_memory_needed;     /* bytes of compute shared memory the decoder uses (0: none) */
    uint32_t shared_memory_offered;    /* maxComputeSharedMemorySize */
    uint32_t invocations_needed;       /* invocations of one workgroup of the decoder */
    uint32_t invocations_offered;      /* min(maxComputeWorkGroupInvocations, maxComputeWorkGroupSize[0]) */
    /* Image destinations: the format texdec's storage view of the image has (image_format, or its
     * UNORM twin for sRGB), and that format's optimalTilingFeatures on this device. Buffer
     * destinations: VK_FORMAT_UNDEFINED and 0. */
    VkFormat storage_format;
    VkFormatFeatureFlags storage_format_features;
} texdec_support;

/* Can this context decode `variant`, and if not, why? Returns TEXDEC_SUCCESS or the status the
 * work would fail with on this context, and fills *support (reasons and numbers). The status is
 * that of the first problem in this order: rounding, format, output (as texdec_decode checks
 * them), destination (kind, image format, its storage feature, a decoder for it), then what the
 * decoder needs of the device; `reasons` has a bit for every problem found. A variant
 * answered TEXDEC_SUCCESS records and decodes (job-specific checks aside: sizes, layouts, the
 * target's extent); one answered otherwise fails in texdec_prepare, the record calls and
 * texdec_decode (buffer variants), or texdec_image_target_create (the storage format), with the
 * same status and the sentence the message callback also gets here (as TEXDEC_MESSAGE_ERROR).
 * The rules are the ones those calls apply, evaluated on facts gathered once at context creation
 * (device limits, push descriptors, the format properties of the storage formats texdec writes):
 * no pipeline is compiled and nothing is allocated. Thread-safe.
 * Image destinations are asked for VK_IMAGE_TILING_OPTIMAL (texdec_image_target_create checks a
 * linear image's linearTilingFeatures instead). For buffer destinations image_format is ignored.
 * INVALID_ARGUMENT for a NULL pointer or a non-NULL next in either struct. */
TEXDEC_API texdec_status texdec_query_support(texdec_context* context, const texdec_variant* variant,
                                              texdec_support* support);

/* ---- the upload plan: native, or decode, and the image to create (since 1.5.0) ----------------
 *
 * An engine's loader holds a compressed texture and a device that will sample it. Either the
 * device samples the format (upload the blocks as they are), or texdec decodes them: on the GPU
 * into your image (texdec_image_target_create + texdec_record_regions), or into host memory and
 * you copy the texels. texdec_plan_upload answers which, and with which VkImageCreateInfo: the
 * image's format, type, flags and usage, and the VkImageFormatListCreateInfo an image target
 * needs (the rules of texdec_image_target_create's table below). It takes a texdec_format, not a
 * file: a loader with its own parser asks it too (texdec_file_plan_upload of texdec_file.h fills
 * the info from a file). The encoder issues add a third answer (TEXDEC_UPLOAD_ENCODE_*).
 * texdec calls no Vulkan function it was not given: the device's format properties come through
 * the vkGetPhysicalDeviceFormatProperties your loader loaded (or a GPU context's own).
 */

/* What to do with a compressed texture on a device. */
typedef enum texdec_upload_action {
    /* The device samples the format: copy the blocks into an image of image_format
     * (vkCmdCopyBufferToImage from texdec_file_read_blocks' layout, texdec_file_buffer_copies). */
    TEXDEC_UPLOAD_NATIVE = 0,
    /* Decode on the GPU into an image of image_format: texdec_image_target_create, then
     * texdec_record_regions (texdec_file_record for a whole file). Only with a GPU context whose
     * device is the one that samples. */
    TEXDEC_UPLOAD_DECODE_RECORD = 1,
    /* Decode into host memory (texdec_decode; texdec_file_decode for a whole file), then copy the
     * texels into an image of image_format: a CPU context, or no context (backend AUTO: make
     * one), or a GPU context that cannot record for this device or format. */
    TEXDEC_UPLOAD_DECODE_HOST = 2,
    /* Reserved for the encoder issues: TEXDEC_UPLOAD_ENCODE_RECORD = 3, TEXDEC_UPLOAD_ENCODE_HOST = 4
     * (block_format then names the target format). */
    TEXDEC_UPLOAD_ACTION_MAX_ENUM = 0x7FFFFFFF
} texdec_upload_action;

enum texdec_plan_flag_bits {
    /* Never answer NATIVE (tests; a driver you do not trust with a format). */
    TEXDEC_PLAN_FORCE_DECODE = 1u << 0,
    /* Decode to four channels: RGBA8 where the format offers it, else RGBA16F. Without it the
     * output is NATIVE, the smallest format holding the exact value, which samples as the
     * compressed image would (R8 for BC4: (r, 0, 0, 1)). */
    TEXDEC_PLAN_OUTPUT_RGBA = 1u << 1,
    /* Answer DECODE_HOST rather than DECODE_RECORD on a GPU context (no STORAGE usage on your
     * image, one more copy). */
    TEXDEC_PLAN_PREFER_HOST = 1u << 2,
    TEXDEC_PLAN_FLAG_BITS_MAX_ENUM = 0x7FFFFFFF
};

/* Why the answer is not NATIVE (texdec_upload_plan::reasons), and why not DECODE_RECORD. */
typedef enum texdec_plan_reason_bits {
    TEXDEC_PLAN_REASON_FORCED = 1u << 0,              /* TEXDEC_PLAN_FORCE_DECODE */
    TEXDEC_PLAN_REASON_NO_DEVICE = 1u << 1,           /* no physical device to ask (CPU or no context, and
                                                       physical_device NULL) */
    TEXDEC_PLAN_REASON_FEATURE_NOT_ENABLED = 1u << 2, /* your device did not enable textureCompressionBC /
                                                         ETC2 / ASTC_LDR / ASTC HDR / ASTC 3D */
    TEXDEC_PLAN_REASON_FORMAT_FEATURES = 1u << 3,     /* optimalTilingFeatures lack format_features,
                                                       TRANSFER_DST, or a feature `usage` needs (STORAGE:
                                                       STORAGE_IMAGE, TRANSFER_SRC: TRANSFER_SRC, ...) */
    TEXDEC_PLAN_REASON_IMAGE_LIMITS = 1u << 4,        /* vkGetPhysicalDeviceImageFormatProperties refuses
                                                       the image (or its extent, levels, layers) */
    /* Not DECODE_RECORD (so DECODE_HOST): */
    TEXDEC_PLAN_REASON_HOST_PREFERRED = 1u << 8,  /* TEXDEC_PLAN_PREFER_HOST */
    TEXDEC_PLAN_REASON_OTHER_DEVICE = 1u << 9,    /* the context's device is not physical_device */
    TEXDEC_PLAN_REASON_STORAGE_FORMAT = 1u << 10, /* the storage view's format lacks STORAGE_IMAGE */
    TEXDEC_PLAN_REASON_DECODER = 1u << 11,        /* texdec_query_support refuses the image variant
                                                       (e.g. ASTC's shared memory) */
    TEXDEC_PLAN_REASON_BITS_MAX_ENUM = 0x7FFFFFFF
} texdec_plan_reason_bits;

typedef struct texdec_upload_plan_info {
    const void* next; /* NULL */
    uint32_t flags;   /* texdec_plan_flag_bits */
    /* Optional: the context that would decode. NULL: the plan names no backend (a decode is
     * DECODE_HOST with backend AUTO). */
    texdec_context* context;
    /* The device that samples the image, and the function your loader got for it
     * (vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceFormatProperties")); both or neither.
     * Neither: a GPU context's physical device and its loaded function; with a CPU context or no
     * context, NATIVE is never answered (REASON_NO_DEVICE). */
    VkPhysicalDevice physical_device;
    PFN_vkGetPhysicalDeviceFormatProperties get_format_properties;
    /* Optional (with physical_device; INVALID_ARGUMENT without): with it, the native image
     * (format, type, tiling OPTIMAL, usage, flags) is checked against maxExtent, maxMipLevels and
     * maxArrayLayers where extent is not 0 x 0 x 0. Without physical_device, a GPU context's own
     * vkGetPhysicalDeviceImageFormatProperties is used. */
    PFN_vkGetPhysicalDeviceImageFormatProperties get_image_format_properties;
    /* What your VkDevice enabled (the VkPhysicalDeviceFeatures given to vkCreateDevice): a format
     * is native only if its feature is enabled (textureCompressionBC, ETC2, ASTC_LDR), for ASTC
     * sfloat also astc_hdr_enabled (textureCompressionASTC_HDR), for the ASTC 3D formats also
     * astc_3d_enabled (VK_EXT_texture_compression_astc_3d). Format properties alone cannot say:
     * they describe the physical device, not what your device enabled. NULL: nothing enabled. */
    const VkPhysicalDeviceFeatures* enabled_features;
    VkBool32 astc_hdr_enabled;
    VkBool32 astc_3d_enabled;
    texdec_format format;
    /* What you need of the image. usage 0 = VK_IMAGE_USAGE_SAMPLED_BIT (NATIVE only where the
     * format has the features each usage bit needs: SAMPLED_IMAGE, STORAGE_IMAGE, COLOR_ATTACHMENT,
     * DEPTH_STENCIL_ATTACHMENT, TRANSFER_SRC, TRANSFER_DST); format_features 0 =
     * VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT (add SAMPLED_IMAGE_FILTER_LINEAR_BIT to require linear
     * filtering: an ASTC HDR or BC6H image may lack it, a decoded RGBA16F one rarely does);
     * image_flags: yours (VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT for a cube map), kept. */
    VkImageUsageFlags usage;
    VkFormatFeatureFlags format_features;
    VkImageCreateFlags image_flags;
    /* The image: extent of level 0 (0 x 0 x 0: not checked against the device; else every member
     * at least 1, INVALID_EXTENT if not), levels, layers (0 means 1). The image is 3D when
     * extent.depth > 1 or the format has a 3D footprint (ASTC 3x3x3 ...); a 3D image has one layer
     * (INVALID_ARGUMENT for array_layers above 1). */
    VkExtent3D extent;
    uint32_t mip_levels;
    uint32_t array_layers;
} texdec_upload_plan_info;

/* The answer (filled by texdec: no next). image_* are the VkImageCreateInfo members to create
 * the image with (tiling OPTIMAL, and your extent, levels, layers); with view_format_count > 0,
 * chain a VkImageFormatListCreateInfo of view_formats (and give the same structure to
 * texdec_image_target_create). */
typedef struct texdec_upload_plan {
    texdec_upload_action action;
    uint32_t reasons;               /* texdec_plan_reason_bits: why not NATIVE (and not RECORD) */
    texdec_backend backend;         /* DECODE_*: GPU or CPU (the context's), AUTO without context, CPU
                                      where a GPU context cannot decode the format at all
                                      (REASON_DECODER: make a CPU context); NATIVE:
                                      TEXDEC_BACKEND_MAX_ENUM */
    texdec_output output;           /* DECODE_*: what to decode to; NATIVE: TEXDEC_OUTPUT_MAX_ENUM */
    texdec_format block_format;     /* NATIVE: the format; DECODE_*: TEXDEC_FORMAT_UNDEFINED */
    VkImageType image_type;         /* 2D or 3D */
    VkFormat image_format;          /* NATIVE: the compressed VkFormat; DECODE_*: texdec_output_vk_format */
    VkImageCreateFlags image_flags; /* yours, plus DECODE_RECORD's MUTABLE_FORMAT where texdec's storage
                                       view format differs from image_format (texdec.h's image target
                                       table), and EXTENDED_USAGE where the device cannot store
                                       image_format itself (sRGB formats) */
    VkImageUsageFlags image_usage;  /* yours, plus TRANSFER_DST (NATIVE, DECODE_HOST) or STORAGE
                                      (DECODE_RECORD) */
    VkFormat storage_format;        /* DECODE_RECORD: texdec's storage view format; else UNDEFINED */
    uint32_t view_format_count;     /* 0 or 2 (image_format, storage_format) */
    VkFormat view_formats[4];
} texdec_upload_plan;

/* Answers how to get `info->format` into an image the device samples. Nothing is created and no
 * pipeline compiled; the Vulkan calls are info's get_* functions (or the context's), so it is
 * cheap enough per texture and thread-safe. Order: NATIVE if nothing in reasons' first group
 * applies; else DECODE_RECORD if the context is a GPU context of that device and the image
 * variant is supported (texdec_query_support's rules, asked silently) with the storage format's
 * STORAGE_IMAGE feature; else DECODE_HOST. `reasons` has every rule of the first group that
 * applies, with one exception: format (and image format) properties are asked only where the
 * format's feature is enabled (a format of an extension the device lacks is not valid to ask
 * about), so FORMAT_FEATURES and IMAGE_LIMITS never come with NO_DEVICE or
 * FEATURE_NOT_ENABLED. The second group is evaluated for a GPU context only, when the answer is
 * a decode. A NATIVE answer has reasons 0.
 * Statuses: INVALID_ARGUMENT (NULL pointers, next not NULL, physical_device without
 * get_format_properties or the reverse, get_image_format_properties without physical_device,
 * an unknown flag, a 3D image with layers), INVALID_EXTENT (an extent with some members 0),
 * UNKNOWN_FORMAT / UNSUPPORTED_FORMAT, UNSUPPORTED_OUTPUT (no output of the format fits
 * TEXDEC_PLAN_OUTPUT_RGBA: never today); on any failure *plan is not written. Messages go to
 * info->context's callback where there is a context. A decode answered here works: its
 * failures are those of the jobs (sizes, device loss). The decoded image's own format features
 * (e.g. linear filtering of RGBA16F) are not asked. */
TEXDEC_API texdec_status texdec_plan_upload(const texdec_upload_plan_info* info, texdec_upload_plan* plan);

/* ---- copy-shaped jobs: many regions in one call, straight into your VkImage ------------------ */

/* Your VkImage, described once so that texdec can check it and write any of its mip levels.
 * texdec cannot query how an image was created: give the values of its VkImageCreateInfo.
 *
 * Image formats texdec writes, the outputs that write each, and the storage view texdec creates:
 *   format                              outputs (texdec_output_vk_format)     storage view
 *   R8G8B8A8_UNORM                      R8G8B8A8_UNORM or _SRGB (RGBA8, and    R8G8B8A8_UNORM
 *   R8G8B8A8_SRGB                       NATIVE of the other LDR formats)       R8G8B8A8_UNORM
 *   A8B8G8R8_UNORM_PACK32               as R8G8B8A8 (the same bytes: R in      R8G8B8A8_UNORM
 *   A8B8G8R8_SRGB_PACK32                bits 0..7 of a little-endian word)     R8G8B8A8_UNORM
 *   B8G8R8A8_UNORM                      as R8G8B8A8; texdec stores R and B     R8G8B8A8_UNORM
 *   B8G8R8A8_SRGB                       swapped, so each byte lands in place   R8G8B8A8_UNORM
 *   R16G16B16A16_SFLOAT                 R16G16B16A16_SFLOAT (RGBA16F; NATIVE   R16G16B16A16_SFLOAT
 *                                       of BC6H and ASTC HDR)
 *   R8_UNORM R8_SNORM R8G8_UNORM        the same format (NATIVE of BC4/BC5)    the image's format
 *   R8G8_SNORM
 *   R16_UNORM R16_SNORM R16G16_UNORM    the same format (NATIVE of EAC)        the image's format
 *   R16G16_SNORM
 * The sRGB/UNORM twins take the same outputs: the bytes are the same (an sRGB format's RGBA8 output
 * is its encoded bytes; a UNORM format's RGBA8 into an _SRGB image is read back as sRGB-encoded).
 * Other formats are refused: *_UINT / *_SINT / *_SCALED (texdec's outputs are normalized colours,
 * not integers), R8_SRGB / R8G8_SRGB (no 1- or 2-channel output is sRGB-encoded), and the rest
 * (no output has their bytes).
 * The storage view is always of the output's own format because texdec's shaders declare that
 * format for their storage image (Vulkan pairs each SPIR-V Image Format with one VkFormat), which
 * works alike on every device; a format-less declaration would need
 * shaderStorageImageWriteWithoutFormat, which not every device has.
 *
 * What the image needs (texdec_image_target_create checks each and names what is missing):
 *   - usage includes VK_IMAGE_USAGE_STORAGE_BIT (texdec writes with imageStore);
 *   - a format of the table above, and jobs whose output writes it (checked when recording);
 *   - where the storage view's format differs from the image's (every sRGB, A8B8G8R8 and B8G8R8A8
 *     format): VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT, and where the device cannot store the image's
 *     own format (sRGB formats on most devices, B8G8R8A8 on some), also
 *     VK_IMAGE_CREATE_EXTENDED_USAGE_BIT so that STORAGE usage is valid on it (Vulkan 1.1:
 *     "usage ... supported by at least one format the image can be viewed as");
 *   - an image created with a VkImageFormatListCreateInfo (viewFormatCount > 0) has the storage
 *     view's format in its list (e.g. {A8B8G8R8_SRGB_PACK32, R8G8B8A8_UNORM}). Chain that same
 *     structure to `next` here and texdec checks it; a list lets a driver keep optimizations
 *     (compression) that MUTABLE_FORMAT alone may cost;
 *   - the storage view's format supports VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT for `tiling`
 *     (texdec_query_support asks this for optimal tiling). That format feature is the whole
 *     rule: R8/R8G8 (BC4/BC5 NATIVE) and R16/R16G16 (EAC NATIVE) belong to the formats that
 *     shaderStorageImageExtendedFormats guarantees, but the device feature need not be enabled
 *     (the SPIR-V capability StorageImageExtendedFormats is core Vulkan 1.0);
 *   - image_type 2D (array layers allowed) or 3D (array_layers 1).
 * The target holds one storage VkImageView per mip level (2D_ARRAY over all layers, or 3D, of the
 * storage view format above, with VkImageViewUsageCreateInfo usage STORAGE), created here with the
 * context's allocator: that is the only allocation; recording into the target allocates nothing.
 * Destroy the target before the image, after the GPU work that uses it.
 * A target is immutable: any thread may record with it. */
typedef struct texdec_image_target texdec_image_target;

typedef struct texdec_image_target_create_info {
    const void* next;           /* NULL, or the VkImageFormatListCreateInfo the image was created
                                   with (read during the call only); any other structure:
                                   TEXDEC_ERROR_INVALID_ARGUMENT */
    VkImage image;
    VkImageType image_type;     /* VK_IMAGE_TYPE_2D or VK_IMAGE_TYPE_3D */
    VkFormat format;            /* VkImageCreateInfo::format */
    VkImageCreateFlags flags;   /* VkImageCreateInfo::flags */
    VkImageUsageFlags usage;    /* VkImageCreateInfo::usage */
    VkImageTiling tiling;       /* VkImageCreateInfo::tiling (0 = OPTIMAL) */
    VkExtent3D extent;          /* mip level 0 */
    uint32_t mip_levels;
    uint32_t array_layers;
} texdec_image_target_create_info;

/* TEXDEC_ERROR_INVALID_DESTINATION (with a message naming it) for an image texdec cannot write:
 * no STORAGE usage, a format not in the table above, MUTABLE_FORMAT or EXTENDED_USAGE missing
 * where needed, a format list without the storage view's format, a 3D image with layers, more
 * than 32 mip levels; TEXDEC_ERROR_MISSING_FEATURE if the device cannot store the view's format;
 * TEXDEC_ERROR_INVALID_ARGUMENT for a NULL image, an unknown structure in `next`, a tiling other
 * than VK_IMAGE_TILING_OPTIMAL or VK_IMAGE_TILING_LINEAR (DRM format modifier images are not
 * taken), and a description no image can have on the device: an extent edge above
 * maxImageDimension2D / maxImageDimension3D (or the maxExtent of the device's
 * VkImageFormatProperties for the image's format, type, tiling, usage and flags, where it
 * answers), above INT32_MAX, array_layers above maxImageArrayLayers (or maxArrayLayers), or
 * more mip levels than the extent has (floor(log2(largest edge)) + 1) or maxMipLevels allows. */
TEXDEC_API texdec_status texdec_image_target_create(texdec_context* context,
                                                    const texdec_image_target_create_info* info,
                                                    texdec_image_target** out_target);
TEXDEC_API void texdec_image_target_destroy(texdec_context* context, texdec_image_target* target);

/* One region, shaped like VkBufferImageCopy: where its blocks are in the source buffer, and where
 * its texels go. Texel (x, y) of slice s of the region decodes from the blocks as
 * vkCmdCopyBufferToImage would address them in a compressed image: block rows of
 * src_row_length texels, slices (3D depth slices, then array layers) of src_image_height rows.
 * Extents need not be multiples of the block size anywhere (a mip level's edge, or any partial
 * region): texels outside the extent are never written. */
typedef struct texdec_region {
    const void* next; /* NULL or a texdec_source_layout_info (block-linear sources) */
    /* source */
    VkDeviceSize src_offset;     /* bytes into src_buffer; multiple of 4 */
    uint32_t src_row_length;     /* texels (0 = extent.width), like bufferRowLength */
    uint32_t src_image_height;   /* texels (0 = extent.height), like bufferImageHeight */
    /* image destination (texdec_regions_job::dst_image) */
    uint32_t mip_level;
    uint32_t base_array_layer;   /* 2D images; 0 for 3D images */
    uint32_t layer_count;        /* 2D images: layers written (0 means 1); 3D images: 1. With a
                                    3D block format (ASTC 3x3x3 ...), layer_count slices of one
                                    3D texture go to consecutive layers. 0xFFFFFFFF
                                    (VK_REMAINING_ARRAY_LAYERS) and a base_array_layer +
                                    layer_count above 0xFFFFFFFF are refused (INVALID_ARGUMENT);
                                    layers past an image target's: INVALID_DESTINATION. Both are
                                    checked before the source and destination sizes */
    VkOffset3D offset;           /* texel offset in the mip level; any value (no block
                                    alignment needed); z: first depth slice of a 3D image, 0 for 2D */
    VkExtent3D extent;           /* texels; depth: slices of a 3D image, 1 for 2D images */
    /* buffer destination (texdec_regions_job::dst_buffer); the texel layout of texdec_decode.
     * Offset and pitches are multiples of 4 for texels of 4 or 8 bytes, of the texel size for
     * 1- and 2-byte texels (the shader writes words, atomically where a word is shared; the word
     * holding the last texel must lie inside dst_size). */
    VkDeviceSize dst_offset;     /* bytes into dst_buffer */
    VkDeviceSize dst_row_pitch;  /* bytes between rows (0 = extent.width * texel size) */
    VkDeviceSize dst_slice_pitch; /* bytes between slices or layers (0 = dst_row_pitch *
                                     extent.height) */
} texdec_region;

/* texdec_record_barriers::flags: queue family ownership transfers (VK_SHARING_MODE_EXCLUSIVE
 * resources used on another queue family). */
enum texdec_barrier_flag_bits {
    /* The before-barrier acquires the source buffer and the destination (buffer, or every layer
     * of each mip level written) from src_queue_family_index: the acquire half of a transfer
     * whose release you recorded on that family. */
    TEXDEC_BARRIER_ACQUIRE = 1u << 0,
    /* The after-barrier releases the destination to dst_queue_family_index; record the matching
     * acquire on that family. */
    TEXDEC_BARRIER_RELEASE = 1u << 1,
    TEXDEC_BARRIER_FLAG_BITS_MAX_ENUM = 0x7FFFFFFF
};

/* Barriers the record call adds around its dispatches: one vkCmdPipelineBarrier before them and
 * one after, with your stages, accesses, layouts and queue families. With barriers (non-NULL),
 * both are always recorded; nothing is ever left out silently (a layout transition least of all).
 * Without (NULL), texdec records no barrier: every layer of each mip level written must be in
 * VK_IMAGE_LAYOUT_GENERAL when the commands execute, and the synchronization is yours.
 *
 * Before the decode:
 *   src_stage_mask, src_access_mask  your earlier work on the source buffer and the destination
 *       (e.g. TRANSFER / TRANSFER_WRITE after your upload copy), made visible to the decode.
 *       0 when nothing earlier on the GPU touched them (data the host wrote before vkQueueSubmit is
 *       visible through the submission itself): the barrier then waits on
 *       VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT with no access, and still transitions the layouts.
 *   old_layout  image targets: every mip level a region writes moves, all its layers (texdec's
 *       storage view of a level spans them, and Vulkan wants the whole view in the descriptor's
 *       layout), from old_layout to VK_IMAGE_LAYOUT_GENERAL. Give the level's real layout to
 *       keep the layers you do not write; VK_IMAGE_LAYOUT_UNDEFINED (0) discards their contents.
 *   src_queue_family_index  with TEXDEC_BARRIER_ACQUIRE: the family that released them.
 * After the decode:
 *   dst_stage_mask, dst_access_mask  your later reads of the texels (e.g. FRAGMENT_SHADER /
 *       SHADER_READ, or TRANSFER / TRANSFER_READ). 0 when nothing later in this queue reads them
 *       (you wait on a fence, or release them): VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, no access;
 *       the layout transition still happens.
 *   new_layout  image subresources move from GENERAL to new_layout (VK_IMAGE_LAYOUT_UNDEFINED (0)
 *       here means: stay in GENERAL).
 *   dst_queue_family_index  with TEXDEC_BARRIER_RELEASE: the family that acquires them next.
 * Queue family indices are used only with their flag; without, no ownership changes.
 *
 * The values are checked before anything is recorded; TEXDEC_ERROR_INVALID_ARGUMENT (and a
 * message naming the member and the value) for:
 *   - a stage mask bit that is not one of Vulkan 1.0's VkPipelineStageFlagBits or the ray tracing
 *     (VK_PIPELINE_STAGE_RAY_TRACING_SHADER_BIT_KHR), task or mesh shader stage; graphics stages
 *     (vertex input ... color attachment output, ALL_GRAPHICS, task, mesh) on a context whose queue
 *     family has no graphics;
 *   - an access mask bit that is not one of Vulkan 1.0's VkAccessFlagBits, or (with a non-zero
 *     stage mask) an access none of the mask's stages performs (the Vulkan spec's "supported access
 *     types": e.g. COLOR_ATTACHMENT_WRITE needs COLOR_ATTACHMENT_OUTPUT, SHADER_READ a shader
 *     stage, TRANSFER_READ TRANSFER; MEMORY_READ/WRITE and ALL_COMMANDS go with anything);
 *   - a layout outside: UNDEFINED, GENERAL, COLOR_ATTACHMENT_OPTIMAL, SHADER_READ_ONLY_OPTIMAL,
 *     TRANSFER_SRC_OPTIMAL, TRANSFER_DST_OPTIMAL, PREINITIALIZED (old_layout only), READ_ONLY_OPTIMAL,
 *     ATTACHMENT_OPTIMAL, PRESENT_SRC_KHR, SHARED_PRESENT_KHR (depth/stencil layouts are not a colour
 *     image's; other extensions' layouts are not taken), checked for buffer destinations too; and
 *     for image targets a layout whose use the image's usage lacks (COLOR_ATTACHMENT_OPTIMAL and
 *     ATTACHMENT_OPTIMAL: COLOR_ATTACHMENT; SHADER_READ_ONLY_OPTIMAL: SAMPLED or INPUT_ATTACHMENT;
 *     READ_ONLY_OPTIMAL: those or TRANSFER_SRC; TRANSFER_SRC/DST_OPTIMAL: TRANSFER_SRC/DST).
 * What texdec cannot see stays yours: the features and extensions a value needs enabled on your
 * device (READ_ONLY_OPTIMAL and ATTACHMENT_OPTIMAL: synchronization2; PRESENT_SRC_KHR:
 * VK_KHR_swapchain; SHARED_PRESENT_KHR: VK_KHR_shared_presentable_image; geometry and tessellation
 * stages: their features; the ray tracing, task and mesh stages: their extensions). */
typedef struct texdec_record_barriers {
    const void* next;                   /* NULL */
    uint32_t flags;                     /* texdec_barrier_flag_bits */
    VkPipelineStageFlags src_stage_mask;
    VkAccessFlags src_access_mask;
    VkImageLayout old_layout;
    uint32_t src_queue_family_index;
    VkPipelineStageFlags dst_stage_mask;
    VkAccessFlags dst_access_mask;
    VkImageLayout new_layout;
    uint32_t dst_queue_family_index;
} texdec_record_barriers;

/* A record call: the decode of many regions of one format into one destination. */
typedef struct texdec_regions_job {
    const void* next; /* NULL or a texdec_regions_scratch_info (batching) */
    texdec_format format;
    texdec_output output;
    texdec_bc_rounding bc_rounding;
    uint32_t flags;                   /* texdec_record_flag_bits: 0 or TEXDEC_RECORD_FAIL_IF_NOT_READY */
    VkBuffer src_buffer;              /* STORAGE_BUFFER usage */
    VkDeviceSize src_size;            /* bytes of src_buffer texdec may read (from offset 0);
                                         VK_WHOLE_SIZE is refused (INVALID_ARGUMENT) */
    /* Exactly one destination: */
    const texdec_image_target* dst_image;
    VkBuffer dst_buffer;              /* STORAGE_BUFFER usage */
    VkDeviceSize dst_size;            /* bytes of dst_buffer texdec may write (from offset 0);
                                         VK_WHOLE_SIZE is refused (INVALID_ARGUMENT) */
    uint32_t region_count;
    const texdec_region* regions;
    const texdec_record_barriers* barriers;  /* optional (NULL: no barriers) */
    uint32_t max_texels_per_dispatch;        /* 0 = the context's (see texdec_context_create_info) */
} texdec_regions_job;

/* Records the decode of every region into `cmd` (a compute-capable command buffer in the
 * recording state, from a pool of the context's queue family), for one region, a whole mip chain
 * or an array in one call. Never submits, never waits:
 *   - every region is checked first; on any error nothing is recorded. Statuses:
 *     INVALID_ARGUMENT (NULL regions, region_count 0, depth and layers both above 1, a next
 *     that is not one texdec_regions_scratch_info, a scratch too small, an unknown flag,
 *     barrier values texdec_record_barriers refuses, layer_count 0xFFFFFFFF, src_size or
 *     dst_size VK_WHOLE_SIZE),
 *     INVALID_DESTINATION (not exactly one destination, a region outside its mip level or
 *     layers, an output the target's format does not hold), SOURCE_TOO_SMALL /
 *     DESTINATION_TOO_SMALL (past src_size / dst_size), INVALID_LAYOUT, SIZE_OVERFLOW (an offset
 *     plus a size that wraps 64 bits; a buffer destination's block row, dst_row_pitch x block
 *     height, or two rows of GOB blocks of a block-linear source wider than
 *     maxStorageBufferRange; a linear source's row length and image height never are: a stride
 *     past the range gives dispatches of one block row, a row past it is cut into columns), and
 *     the format/output statuses of texdec_decode;
 *   - the variant (format, output, rounding, destination kind, the target's format) is created
 *     if it does not exist yet, which compiles; with TEXDEC_RECORD_FAIL_IF_NOT_READY it is not:
 *     TEXDEC_ERROR_NOT_READY, nothing recorded (see "prepare ahead");
 *   - one vkCmdBindPipeline per call; one vkCmdPushDescriptorSetKHR and one vkCmdPushConstants
 *     per dispatch, and a region is one dispatch unless it has more texels than
 *     max_texels_per_dispatch or breaks a device limit (maxComputeWorkGroupCount,
 *     maxStorageBufferRange: every buffer range a dispatch binds is at most that, 3D footprints
 *     and large slice pitches included), when it is split into chunks of whole block rows (or
 *     slices, or a few texel slices of a 3D block); with a texdec_regions_scratch_info chained on
 *     next, many small regions share one dispatch (see "many small regions" below);
 *   - two dispatches of one call that write the same mip level of the image (or overlapping
 *     bytes of the buffer) are separated by a compute-to-compute barrier (SHADER_WRITE ->
 *     SHADER_WRITE), so that the synchronization validation layer sees no write-after-write
 *     hazard; regions of distinct mip levels need none;
 *   - state changed in `cmd`: the bound compute pipeline, descriptor set 0 of the compute bind
 *     point (pushed), the push constants (bytes 0..63); nothing else (no dynamic state, no
 *     graphics state). Rebind your own compute state afterwards.
 * Thread-safe for distinct command buffers. */
TEXDEC_API texdec_status texdec_record_regions(texdec_context* context, VkCommandBuffer cmd,
                                               const texdec_regions_job* job);

/* ---- many small regions: batched dispatches (since 1.4.0) -------------------------------------
 *
 * One dispatch per region costs far more than a small region's texels: a 64x64 region is a few
 * workgroups, far too few to fill a GPU, and every dispatch has a fixed cost on the GPU. With a
 * scratch buffer chained on texdec_regions_job::next, texdec_record_regions decodes many regions
 * in one dispatch: each region's parameters (what its own dispatch would push as push constants,
 * 64 bytes) go to a table in your scratch buffer, and the dispatch's workgroups find their region
 * in it. Why your buffer: the record path allocates nothing per call and a context records from
 * many threads into many command buffers, so a table the context owned would be rewritten under
 * command buffers still pending; memory you own has the lifetime you give it (as VMA or
 * meshoptimizer take caller-owned memory). How texdec fills it: vkCmdUpdateBuffer in your command
 * buffer (a transfer write), then a barrier TRANSFER_WRITE -> COMPUTE_SHADER SHADER_READ, then the
 * dispatches (recorded even when texdec_regions_job::barriers is NULL: it orders texdec's own
 * writes). Nothing is written by the host, nothing is mapped.
 *
 * Which regions share a dispatch (the others are recorded one dispatch per region as before,
 * with the same results): regions of one mip level (image targets; each level has its own storage
 * view) or of the buffer, each decoded in one dispatch of at most 4096 workgroups (2048 x 2048
 * texels and below; larger regions fill the GPU alone), up to 1024 regions per dispatch, whose
 * buffer ranges fit one descriptor (maxStorageBufferRange), and whose destinations do not overlap
 * (texel rectangles of the level; byte spans from a region's first to its last byte of the
 * buffer): a region that overlaps an earlier one of its batch starts the next batch, which the
 * write-after-write barrier of texdec_record_regions orders after it, so the later region's texels
 * win as they do without batching. Regions of one batch may come in any order and sizes; the
 * dispatch's grid is its largest region's, and a batch ends where that would waste more than
 * twice the workgroups it uses (plus 4096).
 *
 * Your part: the buffer has VK_BUFFER_USAGE_STORAGE_BUFFER_BIT and TRANSFER_DST_BIT; size at least
 * texdec_regions_scratch_size() bytes from offset (a multiple of 4). Like a destination, the
 * range must not be in use by other GPU work while this call's commands run: give record calls
 * that may run at the same time (other command buffers, or later in this one without a barrier)
 * distinct ranges, or order them: with texdec_regions_job::barriers, its before-barrier also waits
 * (src_stage_mask, e.g. COMPUTE_SHADER after an earlier decode that read the same scratch) before
 * the TRANSFER write. Too small: TEXDEC_ERROR_INVALID_ARGUMENT, nothing recorded. */
typedef struct texdec_regions_scratch_info {
    texdec_structure_type type; /* TEXDEC_STRUCTURE_TYPE_REGIONS_SCRATCH_INFO */
    const void* next;           /* NULL */
    VkBuffer buffer;            /* STORAGE_BUFFER and TRANSFER_DST usage */
    VkDeviceSize offset;        /* bytes into buffer; multiple of 4 */
    VkDeviceSize size;          /* bytes usable from offset */
} texdec_regions_scratch_info;

/* The scratch bytes texdec_record_regions needs for `job` (its regions and destination): 64 bytes
 * per region today (TEXDEC_REGIONS_SCRATCH_BYTES_PER_REGION); ask rather than compute, later
 * versions may need less. Needs region_count only (the regions are not checked here: the record
 * call does). TEXDEC_ERROR_INVALID_ARGUMENT for NULL arguments. */
#define TEXDEC_REGIONS_SCRATCH_BYTES_PER_REGION 64u
TEXDEC_API texdec_status texdec_regions_scratch_size(const texdec_context* context, const texdec_regions_job* job,
                                                     VkDeviceSize* out_bytes);

#ifdef __cplusplus
}
#endif
#endif /* TEXDEC_H */

/*
 * texdec_file — texture files for engine loaders: open a .ktx2, .ktx, .dds, .pkm or .astc file
 * from memory, ask what it holds and where every surface's blocks are, undo KTX 2
 * supercompression into your memory, map the format numbers the containers use, and decode the
 * whole texture (every level, layer, face and slice) in one call or into an image target.
 * Since texdec 1.5.0. docs/FILE_API.md has the design notes (the choices, what each part is built
 * from, how it is tested).
 *
 * Its own library: libtexdec_file (CMake target texdec::file, pkg-config texdec-file), linking
 * libtexdec, zlib and libzstd. Why not part of libtexdec: libtexdec links nothing but the C++
 * runtime and loads Vulkan at run time, and emulators embed it (add_subdirectory, a static
 * libtexdec.a, a DLL beside a C# or Rust program); they parse their guests' textures themselves
 * and want neither zlib and libzstd in their link line and licence list nor a file parser's
 * attack surface in their process. Engines that read files link one more library
 * (target_link_libraries(app texdec::file) brings texdec::texdec along). libtexdec_file calls
 * libtexdec through texdec.h only (as src/io does today), so the two version together: one
 * TEXDEC_VERSION, one package, SONAME libtexdec_file.so.1, its own ABI baseline
 * (abi/libtexdec_file.so.1.abi) under the rules of docs/abi.md.
 *
 * Conventions are texdec.h's: every function returns a texdec_status (the new ones, 20-23, are
 * texdec.h's too: MALFORMED_FILE, UNSUPPORTED_FILE, BASIS_UNIVERSAL, FILE_IO); structs you pass
 * begin with `next` and are zero-initialized for the defaults; structs texdec only fills have no
 * `next`; memory is yours (sizes first, then the call that writes); no global state; a
 * texdec_file is immutable once open, so any thread may query or decode from it at once.
 * Messages: the sentence behind every failure, and the file's warnings and notes, go to the open
 * info's callback (texdec_message_callback), naming the field ("imageSize of mip level 2 is 64,
 * but 16x16 of bc1-rgba-unorm needs 128 bytes").
 *
 * Files are recognised by their first bytes, never by a name: KTX 2 (supercompression none,
 * Zstandard, zlib), KTX 1.1 (little- and big-endian), DDS (legacy FourCCs, DX10 headers with
 * BC1-BC7 and NVTT's ASTC DXGI values, cube maps, arrays, volumes), PKM (ETC1/ETC2/EAC) and
 * .astc (2D and 3D footprints). Basis Universal data (KTX 2 with BasisLZ, ETC1S or UASTC) is
 * recognised and refused with TEXDEC_ERROR_BASIS_UNIVERSAL: transcode it first (Basis
 * Universal's transcoder to BC7/ASTC, then texdec if the device lacks that).
 *
 * Parsing allocates O(mip levels), never per surface: where each surface lies is computed from
 * the header and the level index (a header may describe 6 x 2^20 layers in a few bytes). Bytes
 * the header describes are checked to lie in the file before anything is sized from them, and a
 * supercompressed level is checked to be able to inflate to its stated size before a byte is
 * written (zlib: deflate's 1032:1 limit; Zstandard: the frame's declared size and
 * ZSTD_decompressBound), so no file makes texdec allocate or write more than its header states.
 */
#ifndef TEXDEC_FILE_H
#define TEXDEC_FILE_H

#include "texdec.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(TEXDEC_STATIC)
#define TEXDEC_FILE_API
#elif defined(_WIN32)
#ifdef TEXDEC_FILE_BUILDING
#define TEXDEC_FILE_API __declspec(dllexport)
#else
#define TEXDEC_FILE_API __declspec(dllimport)
#endif
#else
#define TEXDEC_FILE_API __attribute__((visibility("default")))
#endif

/* The upload plan (texdec_plan_upload, texdec_upload_plan_info, texdec_upload_plan) is
 * libtexdec's: texdec.h, "upload plan". texdec_file_plan_upload fills its info from a file. */

/* ==== item 1: files ============================================================================ */

typedef struct texdec_file texdec_file;

typedef enum texdec_file_container {
    TEXDEC_FILE_CONTAINER_KTX2 = 0,
    TEXDEC_FILE_CONTAINER_KTX = 1, /* KTX 1.1 */
    TEXDEC_FILE_CONTAINER_DDS = 2,
    TEXDEC_FILE_CONTAINER_PKM = 3,
    TEXDEC_FILE_CONTAINER_ASTC = 4, /* ARM's .astc */
    TEXDEC_FILE_CONTAINER_MAX_ENUM = 0x7FFFFFFF
} texdec_file_container;

typedef enum texdec_file_supercompression {
    TEXDEC_FILE_SUPERCOMPRESSION_NONE = 0,
    TEXDEC_FILE_SUPERCOMPRESSION_ZSTD = 2, /* KTX 2 supercompressionScheme values */
    TEXDEC_FILE_SUPERCOMPRESSION_ZLIB = 3,
    TEXDEC_FILE_SUPERCOMPRESSION_MAX_ENUM = 0x7FFFFFFF
} texdec_file_supercompression;

/* How ASTC data is meant: .astc files cannot say; KTX 1 and DDS (NVTT) say linear or sRGB but
 * not LDR or HDR. DEFAULT (0): as the file says, and .astc as LDR (astc-*-unorm). */
typedef enum texdec_astc_profile {
    TEXDEC_ASTC_PROFILE_DEFAULT = 0,
    TEXDEC_ASTC_PROFILE_LDR = 1,  /* astc-WxH-unorm */
    TEXDEC_ASTC_PROFILE_SRGB = 2, /* astc-WxH-srgb */
    TEXDEC_ASTC_PROFILE_HDR = 3,  /* astc-WxH-sfloat */
    TEXDEC_ASTC_PROFILE_MAX_ENUM = 0x7FFFFFFF
} texdec_astc_profile;

/* What exactly is wrong with a file texdec_file_open refused (texdec_file_open_info::problem),
 * for programs and tests that tell cases apart; the status is the coarse answer and the message
 * names the field. Values are stable (ABI); a later version may add some. */
typedef enum texdec_file_problem {
    /* opened, or a failure not of the file (OUT_OF_MEMORY, FILE_IO, INVALID_ARGUMENT): */
    TEXDEC_FILE_PROBLEM_NONE = 0,
    /* TEXDEC_ERROR_UNSUPPORTED_FILE: */
    TEXDEC_FILE_PROBLEM_UNKNOWN_CONTAINER = 1, /* no magic of a container texdec reads */
    TEXDEC_FILE_PROBLEM_NOT_COMPRESSED = 2,    /* an uncompressed pixel format */
    TEXDEC_FILE_PROBLEM_UNKNOWN_FOURCC = 3,    /* DDS FourCC texdec does not map */
    TEXDEC_FILE_PROBLEM_UNKNOWN_DXGI_FORMAT = 4,
    TEXDEC_FILE_PROBLEM_UNKNOWN_GL_INTERNAL_FORMAT = 5,
    TEXDEC_FILE_PROBLEM_UNKNOWN_FORMAT = 6,               /* vkFormat / PKM code texdec does not decode */
    TEXDEC_FILE_PROBLEM_UNSUPPORTED_LAYOUT = 7,           /* 1D, 3D array, 3D cube, partial cube */
    TEXDEC_FILE_PROBLEM_UNSUPPORTED_SUPERCOMPRESSION = 8, /* unknown scheme, or no Zstandard in this build */
    /* TEXDEC_ERROR_BASIS_UNIVERSAL: */
    TEXDEC_FILE_PROBLEM_BASIS_UNIVERSAL = 9,
    /* TEXDEC_ERROR_MALFORMED_FILE: */
    TEXDEC_FILE_PROBLEM_TOO_SMALL = 10,         /* shorter than its header / level index */
    TEXDEC_FILE_PROBLEM_BAD_HEADER = 11,        /* a field wrong or inconsistent with another */
    TEXDEC_FILE_PROBLEM_BAD_VERSION = 12,       /* PKM version */
    TEXDEC_FILE_PROBLEM_BAD_ENDIANNESS = 13,    /* KTX 1 endianness field */
    TEXDEC_FILE_PROBLEM_UNKNOWN_FOOTPRINT = 14, /* .astc footprint that does not exist */
    TEXDEC_FILE_PROBLEM_INVALID_EXTENT = 15,    /* zero or absurd extent, levels, layers */
    TEXDEC_FILE_PROBLEM_SIZE_OVERFLOW = 16,
    TEXDEC_FILE_PROBLEM_BAD_IMAGE_SIZE = 17,  /* KTX 1 imageSize */
    TEXDEC_FILE_PROBLEM_BAD_TYPE_SIZE = 18,   /* KTX 2 typeSize */
    TEXDEC_FILE_PROBLEM_BAD_INDEX = 19,       /* KTX 2 DFD / KVD / SGD range */
    TEXDEC_FILE_PROBLEM_BAD_LEVEL_INDEX = 20, /* KTX 2 level index entry */
    TEXDEC_FILE_PROBLEM_TRUNCATED = 21,       /* ends before the data its header describes */
    /* a level that does not inflate to its size (found by texdec_file_read_*, the decode jobs): */
    TEXDEC_FILE_PROBLEM_BAD_SUPERCOMPRESSED_DATA = 22,
    TEXDEC_FILE_PROBLEM_MAX_ENUM = 0x7FFFFFFF
} texdec_file_problem;

enum texdec_file_open_flag_bits {
    /* Copy the bytes: the file then owns them and `data` may go away after the call. Without it,
     * texdec_file_open keeps a pointer: your bytes must stay valid and unchanged until
     * texdec_file_destroy (a mapped file, an asset bundle's buffer: no copy). */
    TEXDEC_FILE_OPEN_COPY = 1u << 0,
    TEXDEC_FILE_OPEN_FLAG_BITS_MAX_ENUM = 0x7FFFFFFF
};

typedef struct texdec_file_open_info {
    const void* next; /* NULL */
    uint32_t flags;   /* texdec_file_open_flag_bits */
    /* Non-DEFAULT: ASTC data of any container is decoded as this profile (a KTX 2 vkFormat
     * included: an INFO message notes the change, the facts get TEXDEC_FILE_FACT_PROFILE_CHOSEN);
     * a file that is not ASTC ignores it (INFO message). */
    texdec_astc_profile astc_profile;
    /* Optional; called during texdec_file_open (the refusal: ERROR; the file disagreeing with
     * itself, e.g. a KTX 2 DFD that vkFormat overrules: WARNING; trailing bytes, the profile:
     * INFO) and kept for the file's later calls (texdec_file_read_*, the jobs): must stay valid
     * until texdec_file_destroy. */
    texdec_message_callback message_callback;
    void* user_data;
    /* Optional, written during the call: TEXDEC_FILE_PROBLEM_NONE on success. */
    texdec_file_problem* problem;
} texdec_file_open_info;

/* Parses `size` bytes at `data` (info may be NULL: defaults, no messages). The container is found
 * from the first bytes. Statuses: MALFORMED_FILE, UNSUPPORTED_FILE, BASIS_UNIVERSAL (each with a
 * problem and a message naming the field), OUT_OF_MEMORY, INVALID_ARGUMENT (NULL data with size
 * > 0, NULL out_file, unknown flags or profile). An empty input is MALFORMED_FILE (TOO_SMALL).
 * Supercompressed levels are not inflated here: texdec_file_read_* check each stream when it is
 * read (a Zstandard file in a build without libzstd, the Windows DLL's, is refused here:
 * UNSUPPORTED_FILE, UNSUPPORTED_SUPERCOMPRESSION). Bytes after the data the header describes are
 * allowed (trailing_bytes, an INFO; KTX 2: after the level that ends last). On INVALID_ARGUMENT
 * and OUT_OF_MEMORY *problem is NONE; *out_file is NULL after any failure. */
TEXDEC_FILE_API texdec_status texdec_file_open(const texdec_file_open_info* info, const void* data, size_t size,
                                               texdec_file** out_file);

/* texdec_file_open of a file's contents: `path` is UTF-8 (on Windows too). The file is mapped
 * read-only where the system can (pages are read when a query or a decode touches them), else
 * read; either way the texdec_file owns it (TEXDEC_FILE_OPEN_COPY is implied and ignored).
 * TEXDEC_ERROR_FILE_IO (the message has the system's reason) when it cannot be opened or read.
 * The file must not change while open (a mapping would show the change). */
TEXDEC_FILE_API texdec_status texdec_file_open_path(const texdec_file_open_info* info, const char* path,
                                                    texdec_file** out_file);

/* NULL is ignored. Not while another thread uses the file. */
TEXDEC_FILE_API void texdec_file_destroy(texdec_file* file);

/* ---- queries ---------------------------------------------------------------------------------- */

enum texdec_file_layout_flag_bits {
    TEXDEC_FILE_ARRAY = 1u << 0,  /* the file says array (KTX layerCount > 0, DDS DX10 arraySize >1,
                                     even of 1 element in KTX) */
    TEXDEC_FILE_CUBE = 1u << 1,   /* six faces per layer (+X -X +Y -Y +Z -Z, Vulkan's layer order) */
    TEXDEC_FILE_VOLUME = 1u << 2, /* levels have depth: a 3D texture (or a .astc stack of slices) */
    TEXDEC_FILE_LAYOUT_FLAG_BITS_MAX_ENUM = 0x7FFFFFFF
};

/* What the file states, and what it cannot (texdec_file_info::facts). */
enum texdec_file_fact_bits {
    /* The file states whether colours are sRGB-encoded (everything but .astc; a 1-2 channel or
     * float format has no sRGB variant, and says so by being it). */
    TEXDEC_FILE_FACT_COLOR_SPACE_STATED = 1u << 0,
    /* The file states LDR or HDR: every non-ASTC format; ASTC in KTX 2 only (.astc, KTX 1 and DDS
     * cannot: GL's and NVTT's ASTC numbers say linear or sRGB, not the profile). */
    TEXDEC_FILE_FACT_RANGE_STATED = 1u << 1,
    /* open_info's astc_profile chose the format (it differs from what the header names). */
    TEXDEC_FILE_FACT_PROFILE_CHOSEN = 1u << 2,
    /* DDS 'RXGB' (Doom 3 / NVTT normal maps): DXT5 blocks with red in alpha. texdec decodes the
     * blocks as bc3-unorm and never swaps: swap red and alpha yourself (a VkImageView component
     * mapping r = A, a = R, or after a host decode), as NVTT's and FFmpeg's readers do. */
    TEXDEC_FILE_FACT_SWAP_RED_ALPHA = 1u << 3,
    /* DDS 'DXT2' / 'DXT4': premultiplied alpha (the blocks decode as BC2 / BC3). */
    TEXDEC_FILE_FACT_PREMULTIPLIED_ALPHA = 1u << 4,
    /* KTX 2 with the DFD disagreeing with vkFormat (vkFormat decides; WARNING messages say how). */
    TEXDEC_FILE_FACT_DFD_DISAGREES = 1u << 5,
    /* The orientation member holds what KTXorientation states (KTX 1 and 2). Without it: the
     * container's convention (DDS, PKM, .astc: first row at the top). */
    TEXDEC_FILE_FACT_ORIENTATION_STATED = 1u << 6,
    /* The key-value data has an entry texdec could not read (key_value_count lists the entries
     * before it; a WARNING names the offset and the field). The blocks are unaffected. */
    TEXDEC_FILE_FACT_KEY_VALUE_DAMAGED = 1u << 7,
    TEXDEC_FILE_FACT_BITS_MAX_ENUM = 0x7FFFFFFF
};

/* texdec_file_info::orientation: the KTXorientation value's letters ("rd", "rdi", "S=r,T=d" in
 * KTX 1) as bits; 0 is right, down, in (first texel at the top left, first slice nearest). */
enum texdec_file_orientation_bits {
    TEXDEC_FILE_ORIENTATION_X_LEFT = 1u << 0, /* 'l' */
    TEXDEC_FILE_ORIENTATION_Y_UP = 1u << 1,   /* 'u': the first row is the bottom one (GL style) */
    TEXDEC_FILE_ORIENTATION_Z_OUT = 1u << 2,  /* 'o' */
    TEXDEC_FILE_ORIENTATION_BITS_MAX_ENUM = 0x7FFFFFFF
};

/* What a file holds. Strings are the file's (valid until texdec_file_destroy). */
typedef struct texdec_file_info {
    texdec_file_container container;
    texdec_format format;           /* after astc_profile */
    VkFormat vk_format;             /* the compressed VkFormat of `format` (texdec_format_info's) */
    uint32_t header_format;         /* the number the header has: vkFormat, DXGI_FORMAT (DX10), FourCC
                                        (legacy DDS, little-endian as stored), glInternalFormat, PKM
                                        format code; .astc: 0 */
    const char* header_format_text; /* "DXGI 98 (BC7_UNORM)", "glInternalFormat 0x9274
                                        (GL_COMPRESSED_RGB8_ETC2)", "footprint 6x6, profile ldr
                                        (default; the file cannot say)" */
    texdec_file_supercompression supercompression;
    uint32_t width, height, depth; /* level 0 in texels (depth 1 unless TEXDEC_FILE_VOLUME) */
    uint32_t levels;               /* mip levels the file holds (>= 1) */
    uint32_t layers;               /* array layers (>= 1), faces not counted */
    uint32_t faces;                /* 1, or 6 for a cube map */
    uint32_t layout_flags;         /* texdec_file_layout_flag_bits */
    uint32_t facts;                /* texdec_file_fact_bits */
    uint32_t orientation;          /* texdec_file_orientation_bits (with FACT_ORIENTATION_STATED) */
    uint32_t key_value_count;      /* KTX 1 / KTX 2 key-value entries (texdec_file_get_key_value) */
    uint64_t surface_count;        /* levels * layers * faces */
    uint64_t file_size;
    uint64_t trailing_bytes; /* after the data the header describes (ignored) */
    uint64_t blocks_size;    /* bytes texdec_file_read_blocks writes (every level, see below) */
} texdec_file_info;

/* Fills *info. INVALID_ARGUMENT for NULL pointers. */
TEXDEC_FILE_API texdec_status texdec_file_get_info(const texdec_file* file, texdec_file_info* info);

/* One surface: a mip level of one layer's face, all its depth slices. */
typedef struct texdec_file_surface {
    uint32_t level, layer, face;
    uint32_t width, height, depth; /* texels */
    /* Where its blocks are, as the file stores them (blocks x fastest, then y, then z):
     * supercompression NONE: bytes from the start of the file (of `data`); ZSTD / ZLIB: bytes from
     * the start of its level's inflated data (texdec_file_read_level). */
    uint64_t offset;
    uint64_t size;          /* bytes of blocks */
    uint64_t slice_size;    /* bytes of one slice of blocks (block_depth texel slices);
                                       slice s at offset + s * slice_size */
    uint64_t packed_offset; /* where texdec_file_read_blocks puts it */
} texdec_file_surface;

/* Surfaces in the order the file stores them: index 0 is the first surface in the file (KTX 2:
 * the level the file places first, smallest levels usually; KTX 1: level 0, layer by layer, face
 * by face; DDS: layer 0's levels, then layer 1's, ...). Writes `count` surfaces from `first`;
 * first + count past surface_count: INVALID_ARGUMENT, nothing written. */
TEXDEC_FILE_API texdec_status texdec_file_get_surfaces(const texdec_file* file, uint64_t first, uint32_t count,
                                                       texdec_file_surface* surfaces);
/* The surface of (level, layer, face); INVALID_ARGUMENT past the file's levels, layers or faces. */
TEXDEC_FILE_API texdec_status texdec_file_get_surface(const texdec_file* file, uint32_t level, uint32_t layer,
                                                      uint32_t face, texdec_file_surface* surface);

/* One key-value entry, pointing into the file's bytes (valid until texdec_file_destroy). KTX's
 * keys are NUL-terminated UTF-8; values are bytes (KTXorientation's, KTXwriter's are
 * NUL-terminated strings, counted in value_size). KTX 1 big-endian files: values as stored. */
typedef struct texdec_file_key_value {
    const char* key;
    const void* value;
    uint32_t value_size;
} texdec_file_key_value;

/* Entry `index` (< key_value_count, in file order); INVALID_ARGUMENT past it. */
TEXDEC_FILE_API texdec_status texdec_file_get_key_value(const texdec_file* file, uint32_t index,
                                                        texdec_file_key_value* entry);
/* The first entry with `key` (exact bytes); TEXDEC_ERROR_INVALID_ARGUMENT for NULL pointers,
 * TEXDEC_SUCCESS with entry->key NULL when absent. */
TEXDEC_FILE_API texdec_status texdec_file_find_key_value(const texdec_file* file, const char* key,
                                                         texdec_file_key_value* entry);

/* ---- blocks into your memory ---------------------------------------------------------------
 *
 * The packed layout (texdec_file_read_blocks; texdec_file_surface::packed_offset): level 0 first,
 * each level starting at a multiple of 16 bytes; inside a level, layer by layer, face by face,
 * each surface's blocks as the file stores them (so the slices of a 2D array level, or a cube's
 * faces, are contiguous: one VkBufferImageCopy or one texdec_region per level). It is the same
 * for every container, and what vkCmdCopyBufferToImage of a compressed image and texdec's
 * regions read. Inflating writes straight into your memory: nothing is allocated.
 */

/* Bytes of level `level` in the packed layout (every layer and face). */
TEXDEC_FILE_API texdec_status texdec_file_level_size(const texdec_file* file, uint32_t level, uint64_t* bytes);

/* Writes level `level`'s blocks (packed, as above, from dst) into dst_size bytes at dst,
 * inflating a supercompressed level. DESTINATION_TOO_SMALL (nothing written) below
 * texdec_file_level_size; MALFORMED_FILE (problem BAD_SUPERCOMPRESSED_DATA, through the message
 * callback) for a stream that does not inflate to exactly its size: dst is then partly written;
 * UNSUPPORTED_FILE for Zstandard in a build without libzstd. Thread-safe. */
TEXDEC_FILE_API texdec_status texdec_file_read_level(const texdec_file* file, uint32_t level, void* dst,
                                                     size_t dst_size);

/* Every level (texdec_file_info::blocks_size bytes): the packed layout at dst. Statuses as
 * texdec_file_read_level; the padding between levels is written as zeros. */
TEXDEC_FILE_API texdec_status texdec_file_read_blocks(const texdec_file* file, void* dst, size_t dst_size);

/* ---- format numbers of the containers (no file needed) --------------------------------------
 *
 * VkFormat both ways is texdec.h's: texdec_format_from_vk, texdec_format_info::vk_format.
 * A from_* function returns TEXDEC_FORMAT_UNDEFINED for a number texdec does not decode; a to_*
 * function returns 0 (DXGI_FORMAT_UNKNOWN, no GL enum) for a format the scheme has no number for
 * (ETC2/EAC in DXGI; ASTC HDR in GL, see below) or a value outside texdec_format. Each pair is
 * the same table the parsers use, so from(to(f)) == f wherever to(f) != 0, except where noted.
 */

/* DXGI_FORMAT: BC1-BC7 (70-84, 94-99; TYPELESS reads as UNORM, BC6H_TYPELESS as UF16) and the
 * ASTC values NVTT writes (133-187: per footprint TYPELESS, UNORM, UNORM_SRGB; TYPELESS reads as
 * UNORM). to_dxgi gives the UNORM / UNORM_SRGB / UF16 / SF16 value, NVTT's for ASTC LDR and
 * sRGB, 0 for ASTC sfloat (DXGI has no HDR ASTC: from_dxgi of an ASTC value then gives -unorm)
 * and for ETC2/EAC. BC1_RGB formats give BC1_UNORM (DXGI has one BC1), which reads back as
 * bc1-rgba-*: the one pair where from(to(f)) != f. */
TEXDEC_FILE_API texdec_format texdec_format_from_dxgi(uint32_t dxgi_format);
TEXDEC_FILE_API uint32_t texdec_format_to_dxgi(texdec_format format);

/* A legacy DDS FourCC, as the 32-bit little-endian number the header stores ('DXT5' =
 * 0x35545844): DXT1-5, ATI1/ATI2, BC4U/S, BC5U/S, RXGB, and Compressonator's / Tacent's ETC
 * codes (dds.cpp's table). No to_ function: DX10 headers are what writers should use. */
TEXDEC_FILE_API texdec_format texdec_format_from_dds_fourcc(uint32_t fourcc);

/* glInternalFormat (KTX 1, GL): S3TC (+ EXT_texture_sRGB), RGTC, BPTC, ETC1, ETC2/EAC, ASTC
 * (KHR 2D, OES 3D). GL's ASTC enums say linear or sRGB, not LDR or HDR: from_gl gives -unorm
 * or -srgb, to_gl of astc-*-sfloat gives the linear enum (from(to(f)) is then -unorm), and
 * GL_ETC1_RGB8_OES reads as etc2-r8g8b8-unorm (to_gl gives GL_COMPRESSED_RGB8_ETC2). */
TEXDEC_FILE_API texdec_format texdec_format_from_gl_internal_format(uint32_t gl_internal_format);
TEXDEC_FILE_API uint32_t texdec_format_to_gl_internal_format(texdec_format format);

/* ASTC footprint (block_z 1 for 2D; the 14 2D and 10 3D footprints) and profile (DEFAULT reads as
 * LDR) -> the format; UNDEFINED for a footprint that does not exist. to_astc_footprint:
 * INVALID_ARGUMENT for NULL pointers, UNKNOWN_FORMAT for a non-ASTC or unknown format. */
TEXDEC_FILE_API texdec_format texdec_format_from_astc_footprint(uint32_t block_x, uint32_t block_y, uint32_t block_z,
                                                                texdec_astc_profile profile);
TEXDEC_FILE_API texdec_status texdec_format_to_astc_footprint(texdec_format format, uint32_t* block_x,
                                                              uint32_t* block_y, uint32_t* block_z,
                                                              texdec_astc_profile* profile);

/* ---- item 2 for files: the plan of a whole file ------------------------------------------------ */

/* texdec_plan_upload with `info`'s device, context, flags, usage and features, and the file's
 * format, extent, levels and layers (layers * faces), plus VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT for a
 * cube map. info's format, extent, mip_levels and array_layers are ignored (may be 0).
 * UNSUPPORTED_FILE (*plan not written) for a 3D footprint with layers or faces: no image holds it
 * (texdec_file_buffer_copies). */
TEXDEC_FILE_API texdec_status texdec_file_plan_upload(const texdec_file* file, const texdec_upload_plan_info* info,
                                                      texdec_upload_plan* plan);

/* ---- item 3: whole-texture jobs ----------------------------------------------------------------
 *
 * The texel layout of texdec_file_decode (and of a DECODE_HOST upload): the packed layout's
 * order with texels for blocks. Level base_level first, each level at a multiple of 16 bytes;
 * inside a level, layer by layer, face by face, the surface's depth slices, each slice's rows
 * tightly packed (row pitch = width x texel size, slice pitch = row pitch x height, surface
 * pitch = slice pitch x depth). texdec_file_get_texel_layout gives each level's numbers, so
 * texel (x, y, z) of surface (level, layer, face) is at
 *   level.offset + (layer * faces + face) * level.surface_pitch + z * level.slice_pitch
 *   + y * level.row_pitch + x * texel size.
 * It is vkCmdCopyBufferToImage's layout (bufferRowLength 0): texdec_file_buffer_copies makes
 * one VkBufferImageCopy per level for it.
 */
typedef struct texdec_file_level_layout {
    uint64_t offset;        /* bytes from the start of the layout to this level */
    uint64_t size;          /* bytes of the level (every layer and face) */
    uint64_t row_pitch;     /* texel layouts: bytes per row; packed blocks: bytes per block row */
    uint64_t slice_pitch;   /* bytes per depth slice (packed blocks: per block slice) */
    uint64_t surface_pitch; /* bytes per surface (layer x face) */
    uint64_t total_size;    /* bytes of the whole layout (levels base_level .. base_level + count) */
} texdec_file_level_layout;

/* Which layout a layout / copy query describes. */
typedef enum texdec_file_data {
    TEXDEC_FILE_DATA_BLOCKS = 0, /* the packed blocks (texdec_file_read_blocks): NATIVE uploads */
    TEXDEC_FILE_DATA_TEXELS = 1, /* decoded texels of an output (texdec_file_decode): DECODE_HOST */
    TEXDEC_FILE_DATA_MAX_ENUM = 0x7FFFFFFF
} texdec_file_data;

/* Level `level`'s place in a layout of levels base_level .. base_level + level_count - 1
 * (level_count 0: to the last level). `output` is read for TEXDEC_FILE_DATA_TEXELS only.
 * INVALID_ARGUMENT for levels outside the file, UNSUPPORTED_OUTPUT as texdec_decoded_size,
 * SIZE_OVERFLOW if the layout does not fit 64 bits. */
TEXDEC_FILE_API texdec_status texdec_file_get_layout(const texdec_file* file, texdec_file_data data,
                                                     texdec_output output, uint32_t base_level, uint32_t level_count,
                                                     uint32_t level, texdec_file_level_layout* layout);

/* The VkBufferImageCopy of each level of a layout (as texdec_file_get_layout's), starting at
 * buffer_offset in your buffer (a multiple of 16): imageSubresource aspect COLOR, the level as
 * mipLevel (minus base_level when image_base_level_zero is set: a smaller image without the top
 * levels), every layer x face as layers 0.., imageExtent the level's. Sizes first: copies NULL
 * writes *count (the levels); else *count must be at least that (INVALID_ARGUMENT, nothing
 * written, if not) and is set to it. A buffer_offset that is not a multiple of 16:
 * INVALID_LAYOUT; one whose layout wraps 64 bits: SIZE_OVERFLOW (nothing written). A 3D file
 * (TEXDEC_FILE_VOLUME, or a 3D footprint) gives layerCount 1 and the level's depth. A 3D
 * footprint with layers or faces (a KTX 2 array or cube map of ASTC 3x3x3 ...) fits no image (a
 * 3D image has one layer): UNSUPPORTED_FILE, here, in texdec_file_make_regions, texdec_file_record
 * and texdec_file_plan_upload; texdec_file_decode decodes it. */
TEXDEC_FILE_API texdec_status texdec_file_buffer_copies(const texdec_file* file, texdec_file_data data,
                                                        texdec_output output, uint32_t base_level, uint32_t level_count,
                                                        VkBool32 image_base_level_zero, VkDeviceSize buffer_offset,
                                                        uint32_t* count, VkBufferImageCopy* copies);

/* One call, every surface: texdec_decode of each level into caller memory (the layout above). */
typedef struct texdec_file_decode_job {
    const void* next; /* NULL */
    texdec_output output;
    texdec_bc_rounding bc_rounding;
    uint32_t base_level;  /* first level decoded (a loader skipping the top levels) */
    uint32_t level_count; /* 0: to the last level */
    void* dst;            /* the texel layout of these levels */
    size_t dst_size;      /* at least texdec_file_level_layout::total_size */
    /* Optional scratch for levels that are not contiguous blocks in memory (supercompressed,
     * and DDS arrays and cube maps, whose file order is layer-major): at least
     * texdec_file_decode_scratch_size bytes. NULL: texdec allocates that much during the call. */
    void* scratch;
    size_t scratch_size;
    uint64_t timeout_ns; /* per submission, as texdec_host_job::timeout_ns */
} texdec_file_decode_job;

/* Bytes of scratch texdec_file_decode uses for `job` (its levels): the largest level that must be
 * gathered or inflated first, 0 when every level is read where it lies. */
TEXDEC_FILE_API texdec_status texdec_file_decode_scratch_size(const texdec_file* file,
                                                              const texdec_file_decode_job* job, uint64_t* bytes);

/* Decodes levels base_level .. of every layer, face and slice on the context (GPU or CPU), one
 * texdec_decode per level, texels bit-exact as texdec_decode's (the same jobs). Checks everything
 * before decoding: INVALID_ARGUMENT (NULL, next, levels outside the file, a scratch too small),
 * DESTINATION_TOO_SMALL, the format / output / rounding statuses of texdec_decode; then
 * MALFORMED_FILE for a level that does not inflate (the levels before it are written), and
 * texdec_decode's device statuses. Thread-safe (texdec_decode's rules). */
TEXDEC_FILE_API texdec_status texdec_file_decode(texdec_context* context, const texdec_file* file,
                                                 const texdec_file_decode_job* job);

/* The record path, every surface: the regions of levels base_level .. into an image target. */
typedef struct texdec_file_record_job {
    const void* next;     /* NULL or a texdec_regions_scratch_info (passed on) */
    texdec_output output; /* the plan's */
    texdec_bc_rounding bc_rounding;
    uint32_t flags; /* texdec_record_flag_bits */
    uint32_t base_level;
    uint32_t level_count; /* 0: to the last level */
    /* Your buffer holding the packed blocks of these levels (texdec_file_read_blocks, or
     * read_level at each level's texdec_file_get_layout(BLOCKS) offset) from src_offset, a
     * multiple of 16; STORAGE_BUFFER usage. */
    VkBuffer src_buffer;
    VkDeviceSize src_offset;
    VkDeviceSize src_size;                  /* bytes of src_buffer texdec may read, from offset 0 */
    const texdec_image_target* dst_image;   /* created from the plan: the file's extent from
                                             image_base_level (below), its layers x faces */
    uint32_t image_base_level;              /* the image's level that file level base_level goes to */
    const texdec_record_barriers* barriers; /* optional, as texdec_regions_job::barriers */
} texdec_file_record_job;

/* The regions texdec_file_record records (one per level: every layer x face, or the depth of a
 * 3D level), for a texdec_regions_job of your own. Sizes first: regions NULL writes *count; else
 * *count must be at least that (INVALID_ARGUMENT, nothing written, if not) and is set to it.
 * Each region: src_offset = job->src_offset + the level's texdec_file_get_layout(BLOCKS) offset,
 * row length and image height 0, mip_level image_base_level + (level - base_level), layers 0 ..
 * layers x faces - 1 (a 3D file: layer_count 1, the level's depth). INVALID_ARGUMENT for levels
 * outside the file, INVALID_LAYOUT for a src_offset that is not a multiple of 16, SIZE_OVERFLOW
 * where an offset wraps, UNSUPPORTED_FILE for a 3D footprint with layers or faces
 * (texdec_file_buffer_copies). Only base_level, level_count, src_offset and image_base_level are read. */
TEXDEC_FILE_API texdec_status texdec_file_make_regions(const texdec_file* file, const texdec_file_record_job* job,
                                                       uint32_t* count, texdec_region* regions);

/* texdec_record_regions of texdec_file_make_regions' regions: the statuses, the commands and the
 * state it changes are texdec_record_regions' (WRONG_BACKEND on a CPU context, before any other
 * check, whatever the command buffer), plus texdec_file_make_regions'. Allocates nothing
 * (at most 32 regions, on the stack). Thread-safe for distinct command buffers. */
TEXDEC_FILE_API texdec_status texdec_file_record(texdec_context* context, VkCommandBuffer cmd, const texdec_file* file,
                                                 const texdec_file_record_job* job);

#ifdef __cplusplus
}
#endif
#endif /* TEXDEC_FILE_H */

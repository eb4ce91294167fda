// The format table and everything derived from it (output formats, sizes, shader choice).
#pragma once
#include <texdec/texdec.h>

#include <cstdint>

#include "enum_bits.h"

namespace texdec {

struct FormatEntry {
    texdec_format format;
    const char* name;
    texdec_family family;
    uint8_t block_width, block_height, block_depth;
    uint8_t bytes_per_block;
    uint8_t channels;
    uint32_t flags;
    VkFormat vk_format;
    const char* vk_name;      // "VK_FORMAT_BC7_UNORM_BLOCK" (vk_format_name)
    uint32_t shader_variant;  // TEXDEC_BC1_RGB ..., TEXDEC_ASTC_LDR/HDR (meaning depends on the family's shader)
};

// nullptr for values outside the enum. Takes the raw value: callers may pass any 32-bit value.
const FormatEntry* find_format(uint32_t format);

// THE texel-format table: every uncompressed VkFormat texdec writes (each output's VkFormat and
// each image format texdec_image_target_create takes), what its texels hold
// (texdec_texel_format_get_info), and how texdec writes an image of it.
struct TexelFormat {
    VkFormat format;
    const char* name;        // "VK_FORMAT_R8G8B8A8_SRGB" (vk_format_name)
    uint8_t channels;        // 1, 2 or 4
    uint8_t channel_bytes;   // 1 or 2
    uint32_t flags;          // texdec_texel_format_flag_bits
    VkFormat linear_format;  // the non-sRGB twin; itself if not sRGB
    VkFormat srgb_format;    // the sRGB twin (itself if sRGB); VK_FORMAT_UNDEFINED if none
    uint32_t store_kind;     // TEXDEC_STORE_* of the shaders that write its bytes
    // The format of the storage views texdec writes an image of this format through: the image
    // shaders' SPIR-V Image Format is compatible with this format alone (image_target.cpp says
    // why). Outputs whose VkFormat has this view format write images of this format.
    VkFormat view_format;

    uint32_t texel_bytes() const { return uint32_t(channels) * channel_bytes; }
    // TEXDEC_STORE_SWIZZLE_* of the image shaders (PipelineKey::store_swizzle).
    uint32_t store_swizzle() const;
};

// The row of `format`; nullptr for a VkFormat texdec does not write.
const TexelFormat* find_texel_format(VkFormat format);

// Every row, for the formats whose device properties a context gathers.
struct TexelFormatRows {
    const TexelFormat* begin_;
    const TexelFormat* end_;
    const TexelFormat* begin() const { return begin_; }
    const TexelFormat* end() const { return end_; }
};
TexelFormatRows texel_formats();


// How one output texel is stored, and its VkFormat, for (format, output).
struct OutputInfo {
    uint32_t store_kind;   // TEXDEC_STORE_*
    uint32_t texel_bytes;
    VkFormat vk_format;    // what texdec_output_vk_format reports
};

// The format a storage image of `format` is written through (the texel-format table's view
// format): storage images cannot be sRGB, so R8G8B8A8_SRGB is written through its UNORM twin (the
// same bytes). Formats outside the table as they are.
VkFormat storage_format(VkFormat format);

// ---- names for messages, labels and object names (all of them here) ----

// A texdec_output as messages name it: texdec_output_name's "rgba8", or "7 (not a texdec_output)"
// outside the enum.
struct OutputLabel {
    char text[48];
};
OutputLabel output_label(uint32_t output);
// The message for an output that `format_name` does not offer (resolve_output's
// UNSUPPORTED_OUTPUT): "output rgba8 is not offered for bc4-snorm (...)".
void refused_output_message(char* buf, size_t size, uint32_t output, const char* format_name);
// A store kind: "rgba8", "rg16", ... (TEXDEC_STORE_*; "?" for others).
const char* store_name(uint32_t store_kind);
// A destination kind: "buffer", "image", "3D image" (texdec_destination_kind).
const char* destination_name(uint32_t kind);

// A VkFormat's name for messages ("VK_FORMAT_A8B8G8R8_SRGB_PACK32"): the formats texdec deals
// with (the compressed formats of the table, the outputs, the image formats it writes) by name,
// any other as "VkFormat <n>". Use .text in the message's arguments (it lives to the end of the
// full expression).
struct VkFormatName {
    char text[48];
};
VkFormatName vk_format_name(VkFormat format);

// What a family's decoder shader does besides decoding: one row per texdec_family (formats.cpp),
// read by the record path, the pipelines and the capability checks instead of naming families.
// Which destinations and image formats a family writes is its lines of shaders/variants.h.
struct FamilyTraits {
    texdec_family family;
    bool takes_rounding;   // texdec_bc_rounding selects its result (BC1-BC5); else the key's rounding is 0
    bool reads_astc_luts;  // binds TEXDEC_BINDING_LUT and TEXDEC_BINDING_FOOTPRINT_LUT (per footprint)
    bool reads_tables;     // binds the BPTC/ETC table texel buffer (TEXDEC_BINDING_TABLES)
    // sRGB changes the decode itself (ASTC's endpoint expansion), so every output of an sRGB
    // format has its own pipeline; for the others only RGBA16F (v / 255 of the byte) does.
    bool srgb_in_decode;
    // A workgroup of group_size invocations decodes a tile of blocks through shared_bytes of
    // shared memory (ASTC: TEXDEC_ASTC_TILE_BLOCKS_X/Y per footprint); else one block per
    // invocation, TEXDEC_WORKGROUP_X per workgroup, no shared memory.
    bool tiles;
    uint32_t group_size;
    uint32_t shared_bytes;
    // NATIVE of its 1- and 2-channel formats: R/RG UNORM or SNORM of this many bytes per
    // channel (0: the family has none). Other formats: RGBA8 (LDR) or RGBA16F (HDR).
    uint8_t native_channel_bytes;
};

const FamilyTraits& family_traits(texdec_family family);  // the family of a table row: valid


// TEXDEC_SUCCESS, UNKNOWN_FORMAT, UNSUPPORTED_FORMAT (when require_implemented) or UNSUPPORTED_OUTPUT.
// Raw values, as find_format.
texdec_status resolve_output(uint32_t format, uint32_t output, bool require_implemented,
                             const FormatEntry** entry, OutputInfo* info);

}  // namespace texdec

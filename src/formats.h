// The format table and everything derived from it (output formats, sizes, shader choice).
#pragma once
#include <texdec/texdec.h>

#include <cstdint>

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
    uint32_t shader_variant;  // TEXDEC_BC1_RGB ... (meaning depends on the family's shader)
};

// nullptr for values outside the enum. Takes the raw value: callers may pass any 32-bit value.
const FormatEntry* find_format(uint32_t format);

// How one output texel is stored, and its VkFormat, for (format, output).
struct OutputInfo {
    uint32_t store_kind;   // TEXDEC_STORE_*
    uint32_t texel_bytes;
    VkFormat vk_format;    // what texdec_output_vk_format reports
};

// The format a storage image of `format` is written through: storage images cannot be sRGB, so
// R8G8B8A8_SRGB is written through its UNORM twin (the same bytes); others as they are.
constexpr VkFormat storage_format(VkFormat format) {
    return format == VK_FORMAT_R8G8B8A8_SRGB ? VK_FORMAT_R8G8B8A8_UNORM : format;
}

// A VkFormat's name for messages ("VK_FORMAT_A8B8G8R8_SRGB_PACK32"): the formats texdec deals
// with (the compressed formats of the table, the outputs, the image formats it writes) by name,
// any other as "VkFormat <n>". Use .text in the message's arguments (it lives to the end of the
// full expression).
struct VkFormatName {
    char text[48];
};
VkFormatName vk_format_name(VkFormat format);

// Families whose shaders read the BPTC/ETC table buffer (TEXDEC_BINDING_TABLES).
inline bool family_uses_tables(texdec_family family) {
    return family == TEXDEC_FAMILY_BC6H || family == TEXDEC_FAMILY_BC7 || family == TEXDEC_FAMILY_ETC2 ||
           family == TEXDEC_FAMILY_EAC;
}


// TEXDEC_SUCCESS, UNKNOWN_FORMAT, UNSUPPORTED_FORMAT (when require_implemented) or UNSUPPORTED_OUTPUT.
// Raw values, as find_format.
texdec_status resolve_output(uint32_t format, uint32_t output, bool require_implemented,
                             const FormatEntry** entry, OutputInfo* info);

}  // namespace texdec

// libtexdec_file: the format numbers of the containers (texdec_file.h, "format numbers of the
// containers"), from the tables the parsers use, so that a file and a mapping never disagree.
#include <texdec/texdec_file.h>

#include "astc_file.h"

extern "C" {

TEXDEC_FILE_API texdec_format texdec_format_from_astc_footprint(uint32_t block_x, uint32_t block_y, uint32_t block_z,
                                                                texdec_astc_profile profile) {
    astc_file::Profile p;
    switch (profile) {
    case TEXDEC_ASTC_PROFILE_DEFAULT:
    case TEXDEC_ASTC_PROFILE_LDR: p = astc_file::Profile::Ldr; break;
    case TEXDEC_ASTC_PROFILE_SRGB: p = astc_file::Profile::Srgb; break;
    case TEXDEC_ASTC_PROFILE_HDR: p = astc_file::Profile::Hdr; break;
    default: return TEXDEC_FORMAT_UNDEFINED;
    }
    return astc_file::footprint_format(block_x, block_y, block_z, p);
}

TEXDEC_FILE_API texdec_status texdec_format_to_astc_footprint(texdec_format format, uint32_t* block_x,
                                                              uint32_t* block_y, uint32_t* block_z,
                                                              texdec_astc_profile* profile) {
    if (!block_x || !block_y || !block_z || !profile) return TEXDEC_ERROR_INVALID_ARGUMENT;
    texdec_format_info info{};
    if (texdec_format_get_info(format, &info) != TEXDEC_SUCCESS || info.family != TEXDEC_FAMILY_ASTC)
        return TEXDEC_ERROR_UNKNOWN_FORMAT;
    *block_x = info.block_width;
    *block_y = info.block_height;
    *block_z = info.block_depth;
    *profile = (info.flags & TEXDEC_FORMAT_FLAG_HDR)    ? TEXDEC_ASTC_PROFILE_HDR
               : (info.flags & TEXDEC_FORMAT_FLAG_SRGB) ? TEXDEC_ASTC_PROFILE_SRGB
                                                        : TEXDEC_ASTC_PROFILE_LDR;
    return TEXDEC_SUCCESS;
}

}  // extern "C"

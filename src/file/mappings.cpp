// libtexdec_file: the format numbers of the containers (texdec_file.h, "format numbers of the
// containers"), from the tables the parsers use, so that a file and a mapping never disagree.
#include <texdec/texdec_file.h>

#include "astc_file.h"
#include "dds.h"
#include "ktx.h"

namespace {

// A value of texdec_format's enum (not UNDEFINED): the to_* functions answer 0 for anything else.
bool is_format(texdec_format format) {
    texdec_format_info info{};
    return format != TEXDEC_FORMAT_UNDEFINED && texdec_format_get_info(format, &info) == TEXDEC_SUCCESS;
}

}  // namespace

extern "C" {

TEXDEC_FILE_API texdec_format texdec_format_from_dxgi(uint32_t dxgi_format) {
    return dds::format_from_dxgi(dxgi_format);
}

TEXDEC_FILE_API uint32_t texdec_format_to_dxgi(texdec_format format) {
    return is_format(format) ? dds::dxgi_from_format(format) : 0;
}

TEXDEC_FILE_API texdec_format texdec_format_from_dds_fourcc(uint32_t fourcc) { return dds::format_from_fourcc(fourcc); }

TEXDEC_FILE_API texdec_format texdec_format_from_gl_internal_format(uint32_t gl_internal_format) {
    return ktx::format_from_gl(gl_internal_format);
}

TEXDEC_FILE_API uint32_t texdec_format_to_gl_internal_format(texdec_format format) {
    return is_format(format) ? ktx::gl_from_format(format) : 0;
}

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

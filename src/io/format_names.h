// The names of the formats texdec does not decode, in the four numbering schemes the containers
// use (one table, format_names.cpp), so a refusal names the format and says why instead of
// "unknown": DXGI_FORMAT values (DDS DX10 headers), Direct3D 9 D3DFMT codes and FourCCs (the
// FourCC field of a legacy DDS header), VkFormat values (KTX 2) and OpenGL internal formats (KTX 1).
// The formats texdec decodes are named by their parsers' own tables (dds.cpp, ktx.cpp, ktx2.cpp
// through texdec_format_from_vk).
#pragma once

#include <cstdint>
#include <string>

namespace format_names {

enum class Scheme { Dxgi, D3dFormat, VkFormat, GlInternalFormat };

enum class Kind {
    Uncompressed,     // texels stored as they are (R8G8B8A8, R16G16B16A16_FLOAT, ...)
    DepthStencil,     // depth and/or stencil
    Video,            // YUV, planar or palette formats
    BlockCompressed,  // compressed in blocks, but not a family texdec decodes (PVRTC, ATC, ...)
    NotAnImage        // a number the scheme uses for something that holds no texels
};

struct Name {
    const char* name;  // "DXGI_FORMAT_R16G16B16A16_FLOAT", "VK_FORMAT_G8B8G8R8_422_UNORM", ...
    Kind kind;
};

// The name of `number` in `scheme` (for VkFormat: a std::string built from the table's runs), or
// an empty name when the table does not know the number.
struct Found {
    std::string name;
    Kind kind = Kind::Uncompressed;
    bool found() const { return !name.empty(); }
};
Found find(Scheme scheme, uint32_t number);

// Why texdec does not decode a format of this kind: "an uncompressed format; texdec decodes
// block-compressed formats only (BC1-BC7, ETC1/ETC2/EAC and ASTC)".
const char* why_not(Kind kind);

}  // namespace format_names

// The one table of format names (format_names.h). Numbers from: Microsoft's DXGI_FORMAT enumeration
// (dxgiformat.h, microsoft/DirectX-Headers); Direct3D 9's D3DFORMAT (d3d9types.h: the float formats
// 111-116, which legacy DDS writers store as a number in the FourCC field, and the FourCC-coded
// video formats); Vulkan's VkFormat (vulkan_core.h, the extension values included:
// VK_KHR_sampler_ycbcr_conversion 1000156000-33, VK_IMG_format_pvrtc 1000054000-7,
// VK_EXT_ycbcr_2plane_444_formats 1000330000-3, VK_EXT_4444_formats 1000340000-1,
// VK_KHR_maintenance5 1000470000-1, VK_NV_optical_flow 1000464000); OpenGL's glext.h / gl2ext.h
// (IMG/EXT PVRTC, AMD ATC and 3DC, EXT LATC, 3DFX FXT1, and the common uncompressed sized formats).
// tests/test_cli_hostile.cpp checks the Vulkan and GL numbers against the system's headers.
#include "format_names.h"

#include <iterator>

namespace format_names {
namespace {

struct Entry {
    Scheme scheme;
    uint32_t number;
    const char* name;
    Kind kind;
};

constexpr Kind U = Kind::Uncompressed, DS = Kind::DepthStencil, V = Kind::Video, BC = Kind::BlockCompressed,
               N = Kind::NotAnImage;
constexpr Scheme X = Scheme::Dxgi, D9 = Scheme::D3dFormat, VK = Scheme::VkFormat, GL = Scheme::GlInternalFormat;

constexpr uint32_t fourcc(const char (&s)[5]) {
    return uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[1])) << 8 | uint32_t(uint8_t(s[2])) << 16 |
           uint32_t(uint8_t(s[3])) << 24;
}

// clang-format off
constexpr Entry kEntries[] = {
    // ---- DXGI_FORMAT (those texdec decodes, BC1-BC7 70-84 and 94-99, are dds.cpp's) ----
    {X, 0, "DXGI_FORMAT_UNKNOWN", N},
    {X, 1, "DXGI_FORMAT_R32G32B32A32_TYPELESS", U}, {X, 2, "DXGI_FORMAT_R32G32B32A32_FLOAT", U},
    {X, 3, "DXGI_FORMAT_R32G32B32A32_UINT", U},     {X, 4, "DXGI_FORMAT_R32G32B32A32_SINT", U},
    {X, 5, "DXGI_FORMAT_R32G32B32_TYPELESS", U},    {X, 6, "DXGI_FORMAT_R32G32B32_FLOAT", U},
    {X, 7, "DXGI_FORMAT_R32G32B32_UINT", U},        {X, 8, "DXGI_FORMAT_R32G32B32_SINT", U},
    {X, 9, "DXGI_FORMAT_R16G16B16A16_TYPELESS", U}, {X, 10, "DXGI_FORMAT_R16G16B16A16_FLOAT", U},
    {X, 11, "DXGI_FORMAT_R16G16B16A16_UNORM", U},   {X, 12, "DXGI_FORMAT_R16G16B16A16_UINT", U},
    {X, 13, "DXGI_FORMAT_R16G16B16A16_SNORM", U},   {X, 14, "DXGI_FORMAT_R16G16B16A16_SINT", U},
    {X, 15, "DXGI_FORMAT_R32G32_TYPELESS", U},      {X, 16, "DXGI_FORMAT_R32G32_FLOAT", U},
    {X, 17, "DXGI_FORMAT_R32G32_UINT", U},          {X, 18, "DXGI_FORMAT_R32G32_SINT", U},
    {X, 19, "DXGI_FORMAT_R32G8X24_TYPELESS", DS},   {X, 20, "DXGI_FORMAT_D32_FLOAT_S8X24_UINT", DS},
    {X, 21, "DXGI_FORMAT_R32_FLOAT_X8X24_TYPELESS", DS}, {X, 22, "DXGI_FORMAT_X32_TYPELESS_G8X24_UINT", DS},
    {X, 23, "DXGI_FORMAT_R10G10B10A2_TYPELESS", U}, {X, 24, "DXGI_FORMAT_R10G10B10A2_UNORM", U},
    {X, 25, "DXGI_FORMAT_R10G10B10A2_UINT", U},     {X, 26, "DXGI_FORMAT_R11G11B10_FLOAT", U},
    {X, 27, "DXGI_FORMAT_R8G8B8A8_TYPELESS", U},    {X, 28, "DXGI_FORMAT_R8G8B8A8_UNORM", U},
    {X, 29, "DXGI_FORMAT_R8G8B8A8_UNORM_SRGB", U},  {X, 30, "DXGI_FORMAT_R8G8B8A8_UINT", U},
    {X, 31, "DXGI_FORMAT_R8G8B8A8_SNORM", U},       {X, 32, "DXGI_FORMAT_R8G8B8A8_SINT", U},
    {X, 33, "DXGI_FORMAT_R16G16_TYPELESS", U},      {X, 34, "DXGI_FORMAT_R16G16_FLOAT", U},
    {X, 35, "DXGI_FORMAT_R16G16_UNORM", U},         {X, 36, "DXGI_FORMAT_R16G16_UINT", U},
    {X, 37, "DXGI_FORMAT_R16G16_SNORM", U},         {X, 38, "DXGI_FORMAT_R16G16_SINT", U},
    {X, 39, "DXGI_FORMAT_R32_TYPELESS", U},         {X, 40, "DXGI_FORMAT_D32_FLOAT", DS},
    {X, 41, "DXGI_FORMAT_R32_FLOAT", U},            {X, 42, "DXGI_FORMAT_R32_UINT", U},
    {X, 43, "DXGI_FORMAT_R32_SINT", U},             {X, 44, "DXGI_FORMAT_R24G8_TYPELESS", DS},
    {X, 45, "DXGI_FORMAT_D24_UNORM_S8_UINT", DS},   {X, 46, "DXGI_FORMAT_R24_UNORM_X8_TYPELESS", DS},
    {X, 47, "DXGI_FORMAT_X24_TYPELESS_G8_UINT", DS}, {X, 48, "DXGI_FORMAT_R8G8_TYPELESS", U},
    {X, 49, "DXGI_FORMAT_R8G8_UNORM", U},           {X, 50, "DXGI_FORMAT_R8G8_UINT", U},
    {X, 51, "DXGI_FORMAT_R8G8_SNORM", U},           {X, 52, "DXGI_FORMAT_R8G8_SINT", U},
    {X, 53, "DXGI_FORMAT_R16_TYPELESS", U},         {X, 54, "DXGI_FORMAT_R16_FLOAT", U},
    {X, 55, "DXGI_FORMAT_D16_UNORM", DS},           {X, 56, "DXGI_FORMAT_R16_UNORM", U},
    {X, 57, "DXGI_FORMAT_R16_UINT", U},             {X, 58, "DXGI_FORMAT_R16_SNORM", U},
    {X, 59, "DXGI_FORMAT_R16_SINT", U},             {X, 60, "DXGI_FORMAT_R8_TYPELESS", U},
    {X, 61, "DXGI_FORMAT_R8_UNORM", U},             {X, 62, "DXGI_FORMAT_R8_UINT", U},
    {X, 63, "DXGI_FORMAT_R8_SNORM", U},             {X, 64, "DXGI_FORMAT_R8_SINT", U},
    {X, 65, "DXGI_FORMAT_A8_UNORM", U},             {X, 66, "DXGI_FORMAT_R1_UNORM", U},
    {X, 67, "DXGI_FORMAT_R9G9B9E5_SHAREDEXP", U},   {X, 68, "DXGI_FORMAT_R8G8_B8G8_UNORM", V},
    {X, 69, "DXGI_FORMAT_G8R8_G8B8_UNORM", V},
    {X, 85, "DXGI_FORMAT_B5G6R5_UNORM", U},         {X, 86, "DXGI_FORMAT_B5G5R5A1_UNORM", U},
    {X, 87, "DXGI_FORMAT_B8G8R8A8_UNORM", U},       {X, 88, "DXGI_FORMAT_B8G8R8X8_UNORM", U},
    {X, 89, "DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM", U}, {X, 90, "DXGI_FORMAT_B8G8R8A8_TYPELESS", U},
    {X, 91, "DXGI_FORMAT_B8G8R8A8_UNORM_SRGB", U},  {X, 92, "DXGI_FORMAT_B8G8R8X8_TYPELESS", U},
    {X, 93, "DXGI_FORMAT_B8G8R8X8_UNORM_SRGB", U},
    {X, 100, "DXGI_FORMAT_AYUV", V}, {X, 101, "DXGI_FORMAT_Y410", V}, {X, 102, "DXGI_FORMAT_Y416", V},
    {X, 103, "DXGI_FORMAT_NV12", V}, {X, 104, "DXGI_FORMAT_P010", V}, {X, 105, "DXGI_FORMAT_P016", V},
    {X, 106, "DXGI_FORMAT_420_OPAQUE", V}, {X, 107, "DXGI_FORMAT_YUY2", V}, {X, 108, "DXGI_FORMAT_Y210", V},
    {X, 109, "DXGI_FORMAT_Y216", V}, {X, 110, "DXGI_FORMAT_NV11", V}, {X, 111, "DXGI_FORMAT_AI44", V},
    {X, 112, "DXGI_FORMAT_IA44", V}, {X, 113, "DXGI_FORMAT_P8", V}, {X, 114, "DXGI_FORMAT_A8P8", V},
    {X, 115, "DXGI_FORMAT_B4G4R4A4_UNORM", U},
    {X, 130, "DXGI_FORMAT_P208", V}, {X, 131, "DXGI_FORMAT_V208", V}, {X, 132, "DXGI_FORMAT_V408", V},
    {X, 189, "DXGI_FORMAT_SAMPLER_FEEDBACK_MIN_MIP_OPAQUE", N},
    {X, 190, "DXGI_FORMAT_SAMPLER_FEEDBACK_MIP_REGION_USED_OPAQUE", N},
    {X, 191, "DXGI_FORMAT_A4B4G4R4_UNORM", U},

    // ---- D3DFORMAT in a legacy DDS header's FourCC field ----
    {D9, 36, "D3DFMT_A16B16G16R16", U},   {D9, 110, "D3DFMT_Q16W16V16U16", U}, {D9, 111, "D3DFMT_R16F", U},
    {D9, 112, "D3DFMT_G16R16F", U},       {D9, 113, "D3DFMT_A16B16G16R16F", U}, {D9, 114, "D3DFMT_R32F", U},
    {D9, 115, "D3DFMT_G32R32F", U},       {D9, 116, "D3DFMT_A32B32G32R32F", U}, {D9, 117, "D3DFMT_CxV8U8", U},
    {D9, fourcc("UYVY"), "D3DFMT_UYVY", V}, {D9, fourcc("YUY2"), "D3DFMT_YUY2", V},
    {D9, fourcc("RGBG"), "D3DFMT_R8G8_B8G8", V}, {D9, fourcc("GRGB"), "D3DFMT_G8R8_G8B8", V},

    // ---- VkFormat: 1-130 are built from runs below; these are the rest texdec does not decode ----
    {VK, 1000054000, "VK_FORMAT_PVRTC1_2BPP_UNORM_BLOCK_IMG", BC}, {VK, 1000054001, "VK_FORMAT_PVRTC1_4BPP_UNORM_BLOCK_IMG", BC},
    {VK, 1000054002, "VK_FORMAT_PVRTC2_2BPP_UNORM_BLOCK_IMG", BC}, {VK, 1000054003, "VK_FORMAT_PVRTC2_4BPP_UNORM_BLOCK_IMG", BC},
    {VK, 1000054004, "VK_FORMAT_PVRTC1_2BPP_SRGB_BLOCK_IMG", BC},  {VK, 1000054005, "VK_FORMAT_PVRTC1_4BPP_SRGB_BLOCK_IMG", BC},
    {VK, 1000054006, "VK_FORMAT_PVRTC2_2BPP_SRGB_BLOCK_IMG", BC},  {VK, 1000054007, "VK_FORMAT_PVRTC2_4BPP_SRGB_BLOCK_IMG", BC},
    {VK, 1000156000, "VK_FORMAT_G8B8G8R8_422_UNORM", V},
    {VK, 1000156001, "VK_FORMAT_B8G8R8G8_422_UNORM", V},
    {VK, 1000156002, "VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM", V},
    {VK, 1000156003, "VK_FORMAT_G8_B8R8_2PLANE_420_UNORM", V},
    {VK, 1000156004, "VK_FORMAT_G8_B8_R8_3PLANE_422_UNORM", V},
    {VK, 1000156005, "VK_FORMAT_G8_B8R8_2PLANE_422_UNORM", V},
    {VK, 1000156006, "VK_FORMAT_G8_B8_R8_3PLANE_444_UNORM", V},
    {VK, 1000156007, "VK_FORMAT_R10X6_UNORM_PACK16", U},
    {VK, 1000156008, "VK_FORMAT_R10X6G10X6_UNORM_2PACK16", U},
    {VK, 1000156009, "VK_FORMAT_R10X6G10X6B10X6A10X6_UNORM_4PACK16", U},
    {VK, 1000156010, "VK_FORMAT_G10X6B10X6G10X6R10X6_422_UNORM_4PACK16", V},
    {VK, 1000156011, "VK_FORMAT_B10X6G10X6R10X6G10X6_422_UNORM_4PACK16", V},
    {VK, 1000156012, "VK_FORMAT_G10X6_B10X6_R10X6_3PLANE_420_UNORM_3PACK16", V},
    {VK, 1000156013, "VK_FORMAT_G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16", V},
    {VK, 1000156014, "VK_FORMAT_G10X6_B10X6_R10X6_3PLANE_422_UNORM_3PACK16", V},
    {VK, 1000156015, "VK_FORMAT_G10X6_B10X6R10X6_2PLANE_422_UNORM_3PACK16", V},
    {VK, 1000156016, "VK_FORMAT_G10X6_B10X6_R10X6_3PLANE_444_UNORM_3PACK16", V},
    {VK, 1000156017, "VK_FORMAT_R12X4_UNORM_PACK16", U},
    {VK, 1000156018, "VK_FORMAT_R12X4G12X4_UNORM_2PACK16", U},
    {VK, 1000156019, "VK_FORMAT_R12X4G12X4B12X4A12X4_UNORM_4PACK16", U},
    {VK, 1000156020, "VK_FORMAT_G12X4B12X4G12X4R12X4_422_UNORM_4PACK16", V},
    {VK, 1000156021, "VK_FORMAT_B12X4G12X4R12X4G12X4_422_UNORM_4PACK16", V},
    {VK, 1000156022, "VK_FORMAT_G12X4_B12X4_R12X4_3PLANE_420_UNORM_3PACK16", V},
    {VK, 1000156023, "VK_FORMAT_G12X4_B12X4R12X4_2PLANE_420_UNORM_3PACK16", V},
    {VK, 1000156024, "VK_FORMAT_G12X4_B12X4_R12X4_3PLANE_422_UNORM_3PACK16", V},
    {VK, 1000156025, "VK_FORMAT_G12X4_B12X4R12X4_2PLANE_422_UNORM_3PACK16", V},
    {VK, 1000156026, "VK_FORMAT_G12X4_B12X4_R12X4_3PLANE_444_UNORM_3PACK16", V},
    {VK, 1000156027, "VK_FORMAT_G16B16G16R16_422_UNORM", V},
    {VK, 1000156028, "VK_FORMAT_B16G16R16G16_422_UNORM", V},
    {VK, 1000156029, "VK_FORMAT_G16_B16_R16_3PLANE_420_UNORM", V},
    {VK, 1000156030, "VK_FORMAT_G16_B16R16_2PLANE_420_UNORM", V},
    {VK, 1000156031, "VK_FORMAT_G16_B16_R16_3PLANE_422_UNORM", V},
    {VK, 1000156032, "VK_FORMAT_G16_B16R16_2PLANE_422_UNORM", V},
    {VK, 1000156033, "VK_FORMAT_G16_B16_R16_3PLANE_444_UNORM", V},
    {VK, 1000330000, "VK_FORMAT_G8_B8R8_2PLANE_444_UNORM", V},
    {VK, 1000330001, "VK_FORMAT_G10X6_B10X6R10X6_2PLANE_444_UNORM_3PACK16", V},
    {VK, 1000330002, "VK_FORMAT_G12X4_B12X4R12X4_2PLANE_444_UNORM_3PACK16", V},
    {VK, 1000330003, "VK_FORMAT_G16_B16R16_2PLANE_444_UNORM", V},
    {VK, 1000340000, "VK_FORMAT_A4R4G4B4_UNORM_PACK16", U}, {VK, 1000340001, "VK_FORMAT_A4B4G4R4_UNORM_PACK16", U},
    {VK, 1000464000, "VK_FORMAT_R16G16_SFIXED5_NV", U},  // first named VK_FORMAT_R16G16_S10_5_NV
    {VK, 1000470000, "VK_FORMAT_A1B5G5R5_UNORM_PACK16", U}, {VK, 1000470001, "VK_FORMAT_A8_UNORM", U},  // _KHR before 1.4

    // ---- OpenGL internal formats (KTX 1) ----
    {GL, 0x8C00, "GL_COMPRESSED_RGB_PVRTC_4BPPV1_IMG", BC},  {GL, 0x8C01, "GL_COMPRESSED_RGB_PVRTC_2BPPV1_IMG", BC},
    {GL, 0x8C02, "GL_COMPRESSED_RGBA_PVRTC_4BPPV1_IMG", BC}, {GL, 0x8C03, "GL_COMPRESSED_RGBA_PVRTC_2BPPV1_IMG", BC},
    {GL, 0x9137, "GL_COMPRESSED_RGBA_PVRTC_2BPPV2_IMG", BC}, {GL, 0x9138, "GL_COMPRESSED_RGBA_PVRTC_4BPPV2_IMG", BC},
    {GL, 0x8A54, "GL_COMPRESSED_SRGB_PVRTC_2BPPV1_EXT", BC}, {GL, 0x8A55, "GL_COMPRESSED_SRGB_PVRTC_4BPPV1_EXT", BC},
    {GL, 0x8A56, "GL_COMPRESSED_SRGB_ALPHA_PVRTC_2BPPV1_EXT", BC},
    {GL, 0x8A57, "GL_COMPRESSED_SRGB_ALPHA_PVRTC_4BPPV1_EXT", BC},
    {GL, 0x93F0, "GL_COMPRESSED_SRGB_ALPHA_PVRTC_2BPPV2_IMG", BC},
    {GL, 0x93F1, "GL_COMPRESSED_SRGB_ALPHA_PVRTC_4BPPV2_IMG", BC},
    {GL, 0x8C92, "GL_ATC_RGB_AMD", BC}, {GL, 0x8C93, "GL_ATC_RGBA_EXPLICIT_ALPHA_AMD", BC},
    {GL, 0x87EE, "GL_ATC_RGBA_INTERPOLATED_ALPHA_AMD", BC},
    {GL, 0x87F9, "GL_3DC_X_AMD", BC}, {GL, 0x87FA, "GL_3DC_XY_AMD", BC},
    {GL, 0x8C70, "GL_COMPRESSED_LUMINANCE_LATC1_EXT", BC}, {GL, 0x8C71, "GL_COMPRESSED_SIGNED_LUMINANCE_LATC1_EXT", BC},
    {GL, 0x8C72, "GL_COMPRESSED_LUMINANCE_ALPHA_LATC2_EXT", BC},
    {GL, 0x8C73, "GL_COMPRESSED_SIGNED_LUMINANCE_ALPHA_LATC2_EXT", BC},
    {GL, 0x86B0, "GL_COMPRESSED_RGB_FXT1_3DFX", BC}, {GL, 0x86B1, "GL_COMPRESSED_RGBA_FXT1_3DFX", BC},
    {GL, 0x1907, "GL_RGB", U},   {GL, 0x1908, "GL_RGBA", U},  {GL, 0x1909, "GL_LUMINANCE", U},
    {GL, 0x190A, "GL_LUMINANCE_ALPHA", U}, {GL, 0x8229, "GL_R8", U}, {GL, 0x822B, "GL_RG8", U},
    {GL, 0x8051, "GL_RGB8", U},  {GL, 0x8058, "GL_RGBA8", U}, {GL, 0x8C41, "GL_SRGB8", U},
    {GL, 0x8C43, "GL_SRGB8_ALPHA8", U}, {GL, 0x822D, "GL_R16F", U}, {GL, 0x822F, "GL_RG16F", U},
    {GL, 0x881B, "GL_RGB16F", U}, {GL, 0x881A, "GL_RGBA16F", U}, {GL, 0x822E, "GL_R32F", U},
    {GL, 0x8230, "GL_RG32F", U}, {GL, 0x8815, "GL_RGB32F", U}, {GL, 0x8814, "GL_RGBA32F", U},
    {GL, 0x8C3D, "GL_RGB9_E5", U}, {GL, 0x8C3A, "GL_R11F_G11F_B10F", U}, {GL, 0x8059, "GL_RGB10_A2", U},
    {GL, 0x8D62, "GL_RGB565", U}, {GL, 0x8056, "GL_RGBA4", U}, {GL, 0x8057, "GL_RGB5_A1", U},
};
// clang-format on

// VkFormat 1-130 (core Vulkan 1.0): runs of one layout with several numeric types.
std::string core_vk_format(uint32_t f, Kind& kind) {
    static const char* kPacked[] = {"R4G4_UNORM_PACK8",      "R4G4B4A4_UNORM_PACK16", "B4G4R4A4_UNORM_PACK16",
                                    "R5G6B5_UNORM_PACK16",   "B5G6R5_UNORM_PACK16",   "R5G5B5A1_UNORM_PACK16",
                                    "B5G5R5A1_UNORM_PACK16", "A1R5G5B5_UNORM_PACK16"};  // 1..8
    static const char* kNorm8[] = {"UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT", "SRGB"};
    static const char* kNorm16[] = {"UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT", "SFLOAT"};
    static const char* kNorm10[] = {"UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT"};
    static const char* kInt[] = {"UINT", "SINT", "SFLOAT"};
    static const char* kDepth[] = {"B10G11R11_UFLOAT_PACK32",
                                   "E5B9G9R9_UFLOAT_PACK32",
                                   "D16_UNORM",
                                   "X8_D24_UNORM_PACK32",
                                   "D32_SFLOAT",
                                   "S8_UINT",
                                   "D16_UNORM_S8_UINT",
                                   "D24_UNORM_S8_UINT",
                                   "D32_SFLOAT_S8_UINT"};  // 122..130
    struct Run {
        uint32_t first;
        const char* layout;
        const char* const* types;
        uint32_t count;
    };
    static const Run kRuns[] = {
        {9, "R8", kNorm8, 7},
        {16, "R8G8", kNorm8, 7},
        {23, "R8G8B8", kNorm8, 7},
        {30, "B8G8R8", kNorm8, 7},
        {37, "R8G8B8A8", kNorm8, 7},
        {44, "B8G8R8A8", kNorm8, 7},
        {51, "A8B8G8R8", kNorm8, 7},
        {58, "A2R10G10B10", kNorm10, 6},
        {64, "A2B10G10R10", kNorm10, 6},
        {70, "R16", kNorm16, 7},
        {77, "R16G16", kNorm16, 7},
        {84, "R16G16B16", kNorm16, 7},
        {91, "R16G16B16A16", kNorm16, 7},
        {98, "R32", kInt, 3},
        {101, "R32G32", kInt, 3},
        {104, "R32G32B32", kInt, 3},
        {107, "R32G32B32A32", kInt, 3},
        {110, "R64", kInt, 3},
        {113, "R64G64", kInt, 3},
        {116, "R64G64B64", kInt, 3},
        {119, "R64G64B64A64", kInt, 3},
    };
    kind = Kind::Uncompressed;
    if (f >= 1 && f <= 8) return std::string("VK_FORMAT_") + kPacked[f - 1];
    for (const Run& r : kRuns)
        if (f >= r.first && f < r.first + r.count) {
            const bool packed = r.first >= 51 && r.first <= 64;  // A8B8G8R8, A2R10G10B10, A2B10G10R10
            return std::string("VK_FORMAT_") + r.layout + "_" + r.types[f - r.first] + (packed ? "_PACK32" : "");
        }
    if (f >= 122 && f <= 130) {
        if (f >= 124) kind = Kind::DepthStencil;
        return std::string("VK_FORMAT_") + kDepth[f - 122];
    }
    return "";
}

}  // namespace

Found find(Scheme scheme, uint32_t number) {
    Found found;
    if (scheme == Scheme::VkFormat) {
        found.name = core_vk_format(number, found.kind);
        if (found.found()) return found;
    }
    for (const Entry& e : kEntries)
        if (e.scheme == scheme && e.number == number) return {e.name, e.kind};
    return {};
}

const char* why_not(Kind kind) {
    switch (kind) {
    case Kind::Uncompressed:
        return "an uncompressed format; texdec decodes block-compressed formats only (BC1-BC7, ETC1/ETC2/EAC and ASTC)";
    case Kind::DepthStencil:
        return "a depth/stencil format; texdec decodes block-compressed formats only (BC1-BC7, ETC1/ETC2/EAC and "
               "ASTC)";
    case Kind::Video:
        return "a video (YUV) or palette format; texdec decodes block-compressed formats only (BC1-BC7, "
               "ETC1/ETC2/EAC and ASTC)";
    case Kind::BlockCompressed:
        return "a block-compressed format texdec does not decode (it decodes BC1-BC7, ETC1/ETC2/EAC and ASTC)";
    case Kind::NotAnImage: return "not a format of texels; texdec decodes BC1-BC7, ETC1/ETC2/EAC and ASTC";
    }
    return "a format texdec does not decode";
}

}  // namespace format_names

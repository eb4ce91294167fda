// DDS parser. Layout (Microsoft's "DDS" documentation): "DDS " magic, a 124-byte DDS_HEADER with
// a 32-byte DDS_PIXELFORMAT inside it, an optional 20-byte DDS_HEADER_DXT10 when the FourCC is
// "DX10", then the surfaces: for each array layer (or cube face), every mip level in turn; a
// volume's mip level holds all its slices.
#include "dds.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <optional>

#include "format_names.h"
#include "format_text.h"

namespace dds {
namespace {

using texdec_io::format_text;

constexpr size_t kMagicSize = 4;
constexpr size_t kHeaderSize = 124;
constexpr size_t kPixelFormatSize = 32;
constexpr size_t kDx10HeaderSize = 20;

// Byte offsets inside DDS_HEADER (which starts after the magic).
constexpr size_t kOffSize = 0, kOffHeight = 8, kOffWidth = 12, kOffDepth = 20, kOffMipCount = 24;
constexpr size_t kOffPfSize = 72, kOffPfFlags = 76, kOffPfFourCC = 80, kOffPfBitCount = 84;
constexpr size_t kOffCaps2 = 108;
// Byte offsets inside DDS_HEADER_DXT10.
constexpr size_t kOffDxgiFormat = 0, kOffDimension = 4, kOffMiscFlag = 8, kOffArraySize = 12;

constexpr uint32_t kPfFourCC = 0x4;
constexpr uint32_t kCaps2Cubemap = 0x200;
constexpr uint32_t kCaps2AllFaces = 0xFC00;  // +X -X +Y -Y +Z -Z
constexpr uint32_t kCaps2Volume = 0x200000;
constexpr uint32_t kDx10MiscTextureCube = 0x4;
constexpr uint32_t kDimension1D = 2, kDimension2D = 3, kDimension3D = 4;

constexpr uint32_t fourcc(const char (&s)[5]) {
    return uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[1])) << 8 | uint32_t(uint8_t(s[2])) << 16 |
           uint32_t(uint8_t(s[3])) << 24;
}

struct FourCCEntry {
    uint32_t code;
    texdec_format format;
};

// DXT1 is DXGI's BC1_UNORM, which has punch-through alpha: decoded as bc1-rgba (what Direct3D
// does; a header cannot say reliably whether the alpha was meant). DXT2/DXT4 are the
// premultiplied-alpha variants: the blocks decode the same, the texels stay premultiplied.
// RXGB (Doom 3 normal maps, written by NVTT): DXT5 blocks whose alpha holds red; NVTT's and
// FFmpeg's DDS readers decode DXT5 and swap red and alpha, and so does the CLI (after decoding).
// ETC in DDS has no Microsoft code; these are the FourCCs of AMD's Compressonator (its
// CMP_FOURCC_ETC_RGB 'ETC ', ETC2_RGB 'ETC2', ETC2_RGBA 'ETCA' with EAC alpha, ETC2_RGBA1 'ETCP'
// punch-through, and the sRGB 'ETCS', 'ETCT', 'ETCU') and of Tacent ('ETC1' as well). ETC1 data
// decodes as etc2-r8g8b8-unorm (every ETC1 block is an ETC2 block).
constexpr FourCCEntry kFourCCs[] = {
    {fourcc("DXT1"), TEXDEC_FORMAT_BC1_RGBA_UNORM}, {fourcc("DXT2"), TEXDEC_FORMAT_BC2_UNORM},
    {fourcc("DXT3"), TEXDEC_FORMAT_BC2_UNORM},      {fourcc("DXT4"), TEXDEC_FORMAT_BC3_UNORM},
    {fourcc("DXT5"), TEXDEC_FORMAT_BC3_UNORM},      {fourcc("ATI1"), TEXDEC_FORMAT_BC4_UNORM},
    {fourcc("BC4U"), TEXDEC_FORMAT_BC4_UNORM},      {fourcc("BC4S"), TEXDEC_FORMAT_BC4_SNORM},
    {fourcc("ATI2"), TEXDEC_FORMAT_BC5_UNORM},      {fourcc("BC5U"), TEXDEC_FORMAT_BC5_UNORM},
    {fourcc("BC5S"), TEXDEC_FORMAT_BC5_SNORM},      {fourcc("RXGB"), TEXDEC_FORMAT_BC3_UNORM},
    {fourcc("ETC "), TEXDEC_FORMAT_ETC2_R8G8B8_UNORM}, {fourcc("ETC1"), TEXDEC_FORMAT_ETC2_R8G8B8_UNORM},
    {fourcc("ETC2"), TEXDEC_FORMAT_ETC2_R8G8B8_UNORM}, {fourcc("ETCA"), TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM},
    {fourcc("ETCP"), TEXDEC_FORMAT_ETC2_R8G8B8A1_UNORM}, {fourcc("ETCS"), TEXDEC_FORMAT_ETC2_R8G8B8_SRGB},
    {fourcc("ETCT"), TEXDEC_FORMAT_ETC2_R8G8B8A8_SRGB}, {fourcc("ETCU"), TEXDEC_FORMAT_ETC2_R8G8B8A1_SRGB},
};

struct DxgiEntry {
    uint32_t code;
    const char* name;
    texdec_format format;
};

// Codes from Microsoft's DXGI_FORMAT enumeration (learn.microsoft.com, "DXGI_FORMAT enumeration
// (dxgiformat.h)"; the same numbers in microsoft/DirectX-Headers include/directx/dxgiformat.h):
// BC1-BC5 are 70-84, BC6H_TYPELESS/UF16/SF16 94-96, BC7_TYPELESS/UNORM/UNORM_SRGB 97-99.
// TYPELESS formats carry no interpretation; they are decoded as their UNORM variant, and
// BC6H_TYPELESS as UF16 (the header cannot say whether the data was encoded signed). The other
// DXGI formats are named by format_names.cpp, so a refusal says what the file holds.
constexpr DxgiEntry kDxgiFormats[] = {
    {70, "BC1_TYPELESS", TEXDEC_FORMAT_BC1_RGBA_UNORM},  {71, "BC1_UNORM", TEXDEC_FORMAT_BC1_RGBA_UNORM},
    {72, "BC1_UNORM_SRGB", TEXDEC_FORMAT_BC1_RGBA_SRGB}, {73, "BC2_TYPELESS", TEXDEC_FORMAT_BC2_UNORM},
    {74, "BC2_UNORM", TEXDEC_FORMAT_BC2_UNORM},          {75, "BC2_UNORM_SRGB", TEXDEC_FORMAT_BC2_SRGB},
    {76, "BC3_TYPELESS", TEXDEC_FORMAT_BC3_UNORM},       {77, "BC3_UNORM", TEXDEC_FORMAT_BC3_UNORM},
    {78, "BC3_UNORM_SRGB", TEXDEC_FORMAT_BC3_SRGB},      {79, "BC4_TYPELESS", TEXDEC_FORMAT_BC4_UNORM},
    {80, "BC4_UNORM", TEXDEC_FORMAT_BC4_UNORM},          {81, "BC4_SNORM", TEXDEC_FORMAT_BC4_SNORM},
    {82, "BC5_TYPELESS", TEXDEC_FORMAT_BC5_UNORM},       {83, "BC5_UNORM", TEXDEC_FORMAT_BC5_UNORM},
    {84, "BC5_SNORM", TEXDEC_FORMAT_BC5_SNORM},          {94, "BC6H_TYPELESS", TEXDEC_FORMAT_BC6H_UFLOAT},
    {95, "BC6H_UF16", TEXDEC_FORMAT_BC6H_UFLOAT},        {96, "BC6H_SF16", TEXDEC_FORMAT_BC6H_SFLOAT},
    {97, "BC7_TYPELESS", TEXDEC_FORMAT_BC7_UNORM},       {98, "BC7_UNORM", TEXDEC_FORMAT_BC7_UNORM},
    {99, "BC7_UNORM_SRGB", TEXDEC_FORMAT_BC7_SRGB},
};

// ASTC in DX10 headers: DXGI has no ASTC formats, but NVTT (and Tacent, Switch Toolbox) write the
// values once listed for them: per 2D footprint, in the order 4x4, 5x4, 5x5, 6x5, 6x6, 8x5, 8x6,
// 8x8, 10x5, 10x6, 10x8, 10x10, 12x10, 12x12 (texdec_format's order too), a run of four codes from
// 133: _TYPELESS, _UNORM, _UNORM_SRGB and an unused one. TYPELESS decodes as UNORM; there is no
// HDR value (--profile hdr decodes the data as astc-*-sfloat).
constexpr uint32_t kDxgiAstcFirst = 133;
constexpr uint32_t kDxgiAstcFootprints = 14;
constexpr const char* kAstcFootprintNames[kDxgiAstcFootprints] = {"4X4",  "5X4",  "5X5",   "6X5",   "6X6",
                                                                  "8X5",  "8X6",  "8X8",   "10X5",  "10X6",
                                                                  "10X8", "10X10", "12X10", "12X12"};
static_assert(TEXDEC_FORMAT_ASTC_12x12_UNORM == TEXDEC_FORMAT_ASTC_4x4_UNORM + 3 * (kDxgiAstcFootprints - 1),
              "texdec_format: three formats (UNORM, SRGB, SFLOAT) per 2D ASTC footprint, in DXGI's order");

// The NVTT ASTC value `code` as footprint index and variant (0 TYPELESS, 1 UNORM, 2 UNORM_SRGB).
bool dxgi_astc(uint32_t code, uint32_t& footprint, uint32_t& variant) {
    if (code < kDxgiAstcFirst || code >= kDxgiAstcFirst + 4 * kDxgiAstcFootprints) return false;
    footprint = (code - kDxgiAstcFirst) / 4;
    variant = (code - kDxgiAstcFirst) % 4;
    return variant < 3;
}

uint32_t read_u32(std::span<const uint8_t> bytes, size_t offset) {
    return uint32_t(bytes[offset]) | uint32_t(bytes[offset + 1]) << 8 | uint32_t(bytes[offset + 2]) << 16 |
           uint32_t(bytes[offset + 3]) << 24;
}

bool is_printable_fourcc(uint32_t code) {
    for (int i = 0; i < 4; ++i) {
        const uint8_t c = uint8_t(code >> (8 * i));
        if (c < 0x20 || c > 0x7E) return false;
    }
    return true;
}

// "FourCC 'DXT5'" when printable, else the number (some writers store a D3DFORMAT code there).
std::string describe_fourcc(uint32_t code) {
    char text[40];
    if (is_printable_fourcc(code))
        std::snprintf(text, sizeof text, "FourCC '%c%c%c%c'", char(code), char(code >> 8), char(code >> 16),
                      char(code >> 24));
    else
        std::snprintf(text, sizeof text, "FourCC 0x%08X (%u)", code, code);
    return text;
}

std::string describe_dxgi(uint32_t code) {
    char text[64];
    uint32_t footprint = 0, variant = 0;
    if (dxgi_astc(code, footprint, variant)) {
        static const char* kVariants[] = {"TYPELESS", "UNORM", "UNORM_SRGB"};
        std::snprintf(text, sizeof text, "DXGI format %u (NVTT's DXGI_FORMAT_ASTC_%s_%s)", code,
                      kAstcFootprintNames[footprint], kVariants[variant]);
        return text;
    }
    for (const DxgiEntry& e : kDxgiFormats)
        if (e.code == code) {
            std::snprintf(text, sizeof text, "DXGI format %u (DXGI_FORMAT_%s)", code, e.name);
            return text;
        }
    const format_names::Found name = format_names::find(format_names::Scheme::Dxgi, code);
    if (name.found()) return format_text("DXGI format %u (%s)", code, name.name.c_str());
    std::snprintf(text, sizeof text, "DXGI format %u", code);
    return text;
}

// The fields of both headers this parser uses, before interpretation.
struct RawHeader {
    uint32_t width, height, depth, mip_count;
    uint32_t pf_flags, pf_fourcc, pf_bit_count, caps2;
    bool dx10;
    uint32_t dxgi_format, dimension, misc_flag, array_size;
    size_t data_offset;
};

std::variant<RawHeader, Error> read_headers(std::span<const uint8_t> file) {
    if (file.size() < kMagicSize + kHeaderSize)
        return Error{ErrorCode::TooSmall, format_text("file is %zu bytes, shorter than the %zu-byte DDS header",
                                                      file.size(), kMagicSize + kHeaderSize)};
    if (!has_magic(file)) return Error{ErrorCode::BadMagic, format_text("not a DDS file (no \"DDS \" magic)")};
    const auto header = file.subspan(kMagicSize, kHeaderSize);
    if (read_u32(header, kOffSize) != kHeaderSize)
        return Error{ErrorCode::BadHeader,
                     format_text("DDS_HEADER size field is %u, expected 124", read_u32(header, kOffSize))};
    if (read_u32(header, kOffPfSize) != kPixelFormatSize)
        return Error{ErrorCode::BadHeader,
                     format_text("DDS_PIXELFORMAT size field is %u, expected 32", read_u32(header, kOffPfSize))};
    RawHeader raw{};
    raw.width = read_u32(header, kOffWidth);
    raw.height = read_u32(header, kOffHeight);
    raw.depth = read_u32(header, kOffDepth);
    raw.mip_count = read_u32(header, kOffMipCount);
    raw.pf_flags = read_u32(header, kOffPfFlags);
    raw.pf_fourcc = read_u32(header, kOffPfFourCC);
    raw.pf_bit_count = read_u32(header, kOffPfBitCount);
    raw.caps2 = read_u32(header, kOffCaps2);
    raw.data_offset = kMagicSize + kHeaderSize;
    raw.dx10 = (raw.pf_flags & kPfFourCC) && raw.pf_fourcc == fourcc("DX10");
    if (raw.dx10) {
        if (file.size() < raw.data_offset + kDx10HeaderSize)
            return Error{ErrorCode::TooSmall,
                         format_text("file is %zu bytes, too short for the DX10 header (%zu bytes)", file.size(),
                                     raw.data_offset + kDx10HeaderSize)};
        const auto dx10 = file.subspan(raw.data_offset, kDx10HeaderSize);
        raw.dxgi_format = read_u32(dx10, kOffDxgiFormat);
        raw.dimension = read_u32(dx10, kOffDimension);
        raw.misc_flag = read_u32(dx10, kOffMiscFlag);
        raw.array_size = read_u32(dx10, kOffArraySize);
        raw.data_offset += kDx10HeaderSize;
    }
    return raw;
}

std::variant<texdec_format, Error> legacy_format(const RawHeader& raw) {
    if (!(raw.pf_flags & kPfFourCC))
        return Error{ErrorCode::NotCompressed,
                     format_text("pixel format is uncompressed (%u bits per pixel, flags 0x%X), not block-compressed",
                                 raw.pf_bit_count, raw.pf_flags)};
    for (const FourCCEntry& e : kFourCCs)
        if (e.code == raw.pf_fourcc) return e.format;
    // Direct3D 9 formats some writers store in the FourCC field (the float formats 111-116 by number).
    const format_names::Found name = format_names::find(format_names::Scheme::D3dFormat, raw.pf_fourcc);
    if (name.found())
        return Error{ErrorCode::UnknownFourCC,
                     describe_fourcc(raw.pf_fourcc) + " is " + name.name + ", " + format_names::why_not(name.kind)};
    return Error{ErrorCode::UnknownFourCC,
                 "unknown " + describe_fourcc(raw.pf_fourcc) +
                     " (known: DXT1-DXT5, ATI1, ATI2, BC4U, BC4S, BC5U, BC5S, RXGB, 'ETC ', ETC1, ETC2, ETCA, ETCP, "
                     "ETCS, ETCT, ETCU, DX10)"};
}

std::variant<texdec_format, Error> dx10_format(const RawHeader& raw) {
    for (const DxgiEntry& e : kDxgiFormats)
        if (e.code == raw.dxgi_format) return e.format;
    uint32_t footprint = 0, variant = 0;
    if (dxgi_astc(raw.dxgi_format, footprint, variant))
        return texdec_format(TEXDEC_FORMAT_ASTC_4x4_UNORM + 3 * footprint + (variant == 2 ? 1 : 0));
    const uint32_t code = raw.dxgi_format;
    if (code >= kDxgiAstcFirst && code < kDxgiAstcFirst + 4 * kDxgiAstcFootprints)  // a run's unused fourth value
        return Error{ErrorCode::UnknownDxgiFormat,
                     format_text("DXGI format %u is no format: NVTT's ASTC values run in fours from %u, TYPELESS, "
                                 "UNORM and UNORM_SRGB of each footprint, and %u is the unused fourth of the "
                                 "ASTC_%s run (%u-%u)",
                                 code, kDxgiAstcFirst, code, kAstcFootprintNames[(code - kDxgiAstcFirst) / 4], code - 3,
                                 code - 1)};
    const format_names::Found name = format_names::find(format_names::Scheme::Dxgi, code);
    if (name.found())
        return Error{ErrorCode::UnknownDxgiFormat, describe_dxgi(code) + " is " + format_names::why_not(name.kind)};
    return Error{ErrorCode::UnknownDxgiFormat,
                 format_text("DXGI format %u is no DXGI_FORMAT value this tool knows (it reads BC1-BC7, 70-84 and "
                             "94-99, and the ASTC values NVTT writes, %u-%u)",
                             code, kDxgiAstcFirst, kDxgiAstcFirst + 4 * kDxgiAstcFootprints - 2)};
}

// Fills the extent, layer count and cube/volume flags of `tex` from the header.
std::optional<Error> read_layout(const RawHeader& raw, Texture& tex) {
    tex.width = raw.width;
    tex.height = raw.height;
    tex.depth = 1;
    tex.layers = 1;
    if (raw.dx10) {
        if (raw.dimension == kDimension1D)
            return Error{ErrorCode::UnsupportedLayout, format_text("1D textures cannot hold block-compressed data")};
        if (raw.dimension != kDimension2D && raw.dimension != kDimension3D)
            return Error{ErrorCode::BadHeader,
                         format_text("DX10 resource dimension %u is not 2 (1D), 3 (2D) or 4 (3D)", raw.dimension)};
        if (raw.array_size == 0) return Error{ErrorCode::InvalidExtent, format_text("DX10 array size is 0")};
        tex.is_volume = raw.dimension == kDimension3D;
        tex.is_cube = raw.dimension == kDimension2D && (raw.misc_flag & kDx10MiscTextureCube);
        if (tex.is_volume && raw.array_size != 1)
            return Error{ErrorCode::UnsupportedLayout,
                         format_text("volume texture arrays (array size %u) do not exist in DDS", raw.array_size)};
        if (tex.is_cube && raw.array_size > UINT32_MAX / 6)
            return Error{ErrorCode::InvalidExtent, format_text("cube array size %u is absurd", raw.array_size)};
        tex.layers = tex.is_cube ? raw.array_size * 6 : raw.array_size;
    } else {
        tex.is_volume = raw.caps2 & kCaps2Volume;
        tex.is_cube = raw.caps2 & kCaps2Cubemap;
        if (tex.is_cube) {
            const int faces = std::popcount(raw.caps2 & kCaps2AllFaces);
            if (faces != 6)
                return Error{ErrorCode::UnsupportedLayout,
                             format_text("partial cube map (%d of 6 faces) is not supported", faces)};
            tex.layers = 6;
        }
        if (tex.is_cube && tex.is_volume)
            return Error{ErrorCode::BadHeader, format_text("header claims both a cube map and a volume texture")};
    }
    // Writers store 0 (or garbage) in the depth field of 2D textures: only volumes read it.
    if (tex.is_volume) tex.depth = raw.depth;
    if (tex.width == 0 || tex.height == 0 || tex.depth == 0)
        return Error{ErrorCode::InvalidExtent,
                     format_text("extent %ux%ux%u has a zero dimension", tex.width, tex.height, tex.depth)};
    // Cube faces are square (Direct3D refuses other cube textures; KTX and KTX 2 say the same).
    return container::check_cube_extent(tex.width, tex.height, tex.depth, tex.is_cube, tex.is_volume);
}

std::optional<Error> read_mip_count(const RawHeader& raw, Texture& tex) {
    // 0 means "no mip chain"; the DDSD_MIPMAPCOUNT flag is unreliable, so the count alone decides.
    tex.mip_levels = raw.mip_count == 0 ? 1 : raw.mip_count;
    return container::check_mip_count("mip count", tex.mip_levels, tex.width, tex.height, tex.depth);
}

uint64_t div_round_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Bytes of one surface; cannot overflow: each side is <= container::kMaxDimension (2^20), so the product of
// the block counts is at most 2^56, times at most 16 bytes.
uint64_t surface_bytes(const texdec_format_info& info, uint32_t w, uint32_t h, uint32_t d) {
    return div_round_up(w, info.block_width) * div_round_up(h, info.block_height) *
           div_round_up(d, info.block_depth) * info.bytes_per_block;
}

std::optional<Error> build_surfaces(const RawHeader& raw, std::span<const uint8_t> file, uint64_t max_table_bytes,
                                    bool table, Texture& tex) {
    texdec_format_info info{};
    if (texdec_format_get_info(tex.format, &info) != TEXDEC_SUCCESS)
        return Error{ErrorCode::UnknownDxgiFormat, format_text("format %d has no texdec format info", int(tex.format))};
    uint64_t layer_bytes = 0;  // < 2^61 (a mip chain is less than twice level 0)
    tex.levels.reserve(tex.mip_levels);
    for (uint32_t level = 0; level < tex.mip_levels; ++level) {
        const uint32_t w = std::max(1u, tex.width >> level), h = std::max(1u, tex.height >> level),
                       d = std::max(1u, tex.depth >> level);
        const uint64_t bytes = surface_bytes(info, w, h, d);
        tex.levels.push_back(Level{w, h, d, layer_bytes, bytes});
        layer_bytes += bytes;
    }
    tex.data_offset = raw.data_offset;
    tex.layer_bytes = layer_bytes;
    const uint64_t available = file.size() - raw.data_offset;
    // Compared by division so that layers * layer_bytes cannot overflow.
    if (tex.layers > available / layer_bytes)
        return Error{
            ErrorCode::Truncated,
            format_text("data is truncated: the header describes %u layer(s) x %u mip level(s) of %s (%llu bytes "
                        "per layer), the file holds %llu bytes after the header",
                        tex.layers, tex.mip_levels, info.name, (unsigned long long)layer_bytes,
                        (unsigned long long)available)};
    if (!table) {
        tex.trailing_bytes = size_t(available - tex.layers * layer_bytes);
        return std::nullopt;
    }
    if (auto error = container::check_table_size(
            uint64_t(tex.layers) * tex.mip_levels, sizeof(Surface), max_table_bytes,
            format_text("surfaces (%u layer(s) x %u mip level(s))", tex.layers, tex.mip_levels)))
        return error;
    tex.surfaces.reserve(size_t(tex.layers) * tex.mip_levels);
    size_t offset = raw.data_offset;
    for (uint32_t layer = 0; layer < tex.layers; ++layer)
        for (uint32_t level = 0; level < tex.mip_levels; ++level) {
            Surface s{layer, level, std::max(1u, tex.width >> level), std::max(1u, tex.height >> level),
                      std::max(1u, tex.depth >> level), offset, 0};
            s.size = size_t(surface_bytes(info, s.width, s.height, s.depth));
            offset += s.size;
            tex.surfaces.push_back(s);
        }
    tex.trailing_bytes = file.size() - offset;
    return std::nullopt;
}

}  // namespace

texdec_format format_from_fourcc(uint32_t code) {
    for (const FourCCEntry& e : kFourCCs)
        if (e.code == code) return e.format;
    return TEXDEC_FORMAT_UNDEFINED;
}

texdec_format format_from_dxgi(uint32_t code) {
    for (const DxgiEntry& e : kDxgiFormats)
        if (e.code == code) return e.format;
    uint32_t footprint = 0, variant = 0;
    if (dxgi_astc(code, footprint, variant))
        return texdec_format(TEXDEC_FORMAT_ASTC_4x4_UNORM + 3 * footprint + (variant == 2 ? 1 : 0));
    return TEXDEC_FORMAT_UNDEFINED;
}

uint32_t dxgi_from_format(texdec_format format) {
    // DXGI has one BC1, with punch-through alpha.
    if (format == TEXDEC_FORMAT_BC1_RGB_UNORM) format = TEXDEC_FORMAT_BC1_RGBA_UNORM;
    if (format == TEXDEC_FORMAT_BC1_RGB_SRGB) format = TEXDEC_FORMAT_BC1_RGBA_SRGB;
    for (const DxgiEntry& e : kDxgiFormats)
        if (e.format == format && !std::strstr(e.name, "TYPELESS")) return e.code;
    const int32_t astc = int32_t(format) - int32_t(TEXDEC_FORMAT_ASTC_4x4_UNORM);
    if (astc >= 0 && astc < int32_t(3 * kDxgiAstcFootprints) && astc % 3 != 2)  // not sfloat: DXGI has no HDR ASTC
        return kDxgiAstcFirst + 4 * uint32_t(astc / 3) + 1 + uint32_t(astc % 3);
    return 0;
}

bool has_magic(std::span<const uint8_t> file) {
    return file.size() >= kMagicSize && file[0] == 'D' && file[1] == 'D' && file[2] == 'S' && file[3] == ' ';
}

namespace {
ParseResult parse_file(std::span<const uint8_t> file, uint64_t max_table_bytes, bool table);
}  // namespace

ParseResult parse(std::span<const uint8_t> file) { return parse_file(file, UINT64_MAX, true); }
ParseResult parse_limited(std::span<const uint8_t> file, uint64_t max_table_bytes) {
    return parse_file(file, max_table_bytes, true);
}
ParseResult parse_levels(std::span<const uint8_t> file) { return parse_file(file, UINT64_MAX, false); }

namespace {
ParseResult parse_file(std::span<const uint8_t> file, uint64_t max_table_bytes, bool table) {
    auto headers = read_headers(file);
    if (auto* error = std::get_if<Error>(&headers)) return *error;
    const RawHeader& raw = std::get<RawHeader>(headers);

    Texture tex{};
    tex.has_dx10_header = raw.dx10;
    auto format = raw.dx10 ? dx10_format(raw) : legacy_format(raw);
    if (auto* error = std::get_if<Error>(&format)) return *error;
    tex.format = std::get<texdec_format>(format);
    tex.container_format = raw.dx10 ? describe_dxgi(raw.dxgi_format) : describe_fourcc(raw.pf_fourcc);
    tex.swap_red_alpha = !raw.dx10 && raw.pf_fourcc == fourcc("RXGB");
    tex.premultiplied_alpha = !raw.dx10 && (raw.pf_fourcc == fourcc("DXT2") || raw.pf_fourcc == fourcc("DXT4"));
    tex.header_code = raw.dx10 ? raw.dxgi_format : raw.pf_fourcc;

    if (auto error = read_layout(raw, tex)) return *error;
    if (auto error = read_mip_count(raw, tex)) return *error;
    if (auto error = build_surfaces(raw, file, max_table_bytes, table, tex)) return *error;
    return tex;
}
}  // namespace

}  // namespace dds

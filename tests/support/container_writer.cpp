#include "support/container_writer.h"

#include "support/container_files.h"  // put_u32, put_u32_order, compress_level


#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace texdec_test::writer {

namespace {

void pad_to(std::vector<uint8_t>& b, uint64_t alignment) {
    while (b.size() % alignment) b.push_back(0);
}
void append(std::vector<uint8_t>& b, const std::vector<uint8_t>& more) { b.insert(b.end(), more.begin(), more.end()); }

texdec_format_info format_info(texdec_format f) {
    texdec_format_info info{};
    if (texdec_format_get_info(f, &info) != TEXDEC_SUCCESS)
        throw std::logic_error("container_writer: unknown format " + std::to_string(int(f)));
    return info;
}

bool is_astc(texdec_format f) { return f >= TEXDEC_FORMAT_ASTC_4x4_UNORM && f <= TEXDEC_FORMAT_ASTC_6x6x6_SFLOAT; }

uint32_t div_up(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// One surface of `s` at `offset` (the caller's frame).
Surface surface_at(const Shape& s, uint32_t level, uint32_t layer, uint32_t face, uint64_t offset) {
    Surface r;
    r.level = level, r.layer = layer, r.face = face;
    r.width = level_extent(s.width, level);
    r.height = level_extent(s.height, level);
    r.depth = level_extent(s.depth, level);
    r.offset = offset;
    r.size = surface_size(s, level);
    r.slice_size = slice_size(s, level);
    return r;
}

void check_shape(const Shape& s) {
    if (s.width == 0 || s.height == 0 || s.depth == 0 || s.levels == 0 || s.layers == 0 ||
        (s.faces != 1 && s.faces != 6) || s.levels > 16)
        throw std::logic_error("container_writer: bad shape");
}

}  // namespace

Blocks blocks_of(texdec_format format) {
    const texdec_format_info info = format_info(format);
    return {info.block_width, info.block_height, info.block_depth, info.bytes_per_block};
}

uint32_t level_extent(uint32_t extent, uint32_t level) { return std::max(1u, extent >> level); }

uint64_t slice_size(const Shape& s, uint32_t level) {
    const Blocks b = blocks_of(s.format);
    return uint64_t(div_up(level_extent(s.width, level), b.bw)) * div_up(level_extent(s.height, level), b.bh) * b.bytes;
}

uint64_t surface_size(const Shape& s, uint32_t level) {
    return slice_size(s, level) * div_up(level_extent(s.depth, level), blocks_of(s.format).bd);
}

bool is_volume(const Shape& s) { return s.depth > 1 || blocks_of(s.format).bd > 1; }

std::vector<uint8_t> surface_pattern(uint32_t level, uint32_t layer, uint32_t face, uint64_t size) {
    if (size % 8) throw std::logic_error("container_writer: surfaces are whole 8-byte blocks");
    std::vector<uint8_t> out(size);
    for (uint64_t unit = 0; unit < size / 8; ++unit) {
        uint8_t* p = out.data() + unit * 8;
        p[0] = uint8_t(0xC0 | level);
        p[1] = uint8_t(layer);
        p[2] = uint8_t(layer >> 8);
        p[3] = uint8_t(face);
        p[4] = uint8_t(unit);
        p[5] = uint8_t(unit >> 8);
        p[6] = uint8_t(unit >> 16);
        p[7] = uint8_t(p[0] ^ p[1] ^ p[2] ^ p[3] ^ p[4] ^ p[5] ^ p[6] ^ 0x5A);
    }
    return out;
}

std::vector<uint64_t> packed_level_offsets(const Shape& s) {
    std::vector<uint64_t> offsets;
    uint64_t at = 0;
    for (uint32_t l = 0; l < s.levels; ++l) {
        at = (at + 15) / 16 * 16;
        offsets.push_back(at);
        at += surface_size(s, l) * s.layers * s.faces;
    }
    return offsets;
}

uint64_t packed_total(const Shape& s) {
    return packed_level_offsets(s).back() + surface_size(s, s.levels - 1) * s.layers * s.faces;
}

std::vector<uint8_t> packed_level(const Shape& s, uint32_t level) {
    std::vector<uint8_t> out;
    for (uint32_t layer = 0; layer < s.layers; ++layer)
        for (uint32_t face = 0; face < s.faces; ++face)
            append(out, surface_pattern(level, layer, face, surface_size(s, level)));
    return out;
}

std::vector<uint8_t> packed_all(const Shape& s) {
    std::vector<uint8_t> out(packed_total(s), 0);
    const std::vector<uint64_t> offsets = packed_level_offsets(s);
    for (uint32_t l = 0; l < s.levels; ++l) {
        const std::vector<uint8_t> level = packed_level(s, l);
        std::copy(level.begin(), level.end(), out.begin() + ptrdiff_t(offsets[l]));
    }
    return out;
}

std::vector<KeyValue> default_key_values(const std::string& orientation) {
    const std::string writer = "texdec tests/support/container_writer";
    return {{"KTXorientation", std::vector<uint8_t>(orientation.c_str(), orientation.c_str() + orientation.size() + 1)},
            {"KTXwriter", std::vector<uint8_t>(writer.c_str(), writer.c_str() + writer.size() + 1)}};
}

// KTX 1.1 "Keys and values" / KTX 2.0 section "Key/Value Data": UInt32 keyAndValueByteSize, the
// key (UTF-8, NUL-terminated) and the value, then valuePadding to a multiple of 4.
std::vector<uint8_t> key_value_bytes(const std::vector<KeyValue>& entries, bool big_endian) {
    std::vector<uint8_t> out;
    for (const KeyValue& e : entries) {
        const size_t at = out.size();
        out.resize(at + 4);
        put_u32_order(out, at, uint32_t(e.key.size() + 1 + e.value.size()), big_endian);
        out.insert(out.end(), e.key.begin(), e.key.end());
        out.push_back(0);
        append(out, e.value);
        pad_to(out, 4);
    }
    return out;
}

// ---- KTX 2.0 ---------------------------------------------------------------------------------------

uint32_t vk_format_of(texdec_format f) {
    // VkFormat (Vulkan registry): BC1_RGB_UNORM_BLOCK 131 .. EAC_R11G11_SNORM_BLOCK 156 in texdec's
    // order; ASTC_4x4_UNORM_BLOCK 157, _SRGB 158 .. ASTC_12x12_SRGB_BLOCK 184; the SFLOAT blocks
    // (VK_EXT_texture_compression_astc_hdr) 1000066000 ..; the 3D ones
    // (VK_EXT_texture_compression_astc_3d) 1000288000 + 3 x footprint + (UNORM, SRGB, SFLOAT).
    if (f >= TEXDEC_FORMAT_BC1_RGB_UNORM && f <= TEXDEC_FORMAT_EAC_R11G11_SNORM)
        return 131u + uint32_t(f - TEXDEC_FORMAT_BC1_RGB_UNORM);
    if (f >= TEXDEC_FORMAT_ASTC_4x4_UNORM && f <= TEXDEC_FORMAT_ASTC_12x12_SFLOAT) {
        const uint32_t footprint = uint32_t(f - TEXDEC_FORMAT_ASTC_4x4_UNORM) / 3;
        const uint32_t kind = uint32_t(f - TEXDEC_FORMAT_ASTC_4x4_UNORM) % 3;
        return kind == 2 ? 1000066000u + footprint : 157u + 2 * footprint + kind;
    }
    if (f >= TEXDEC_FORMAT_ASTC_3x3x3_UNORM && f <= TEXDEC_FORMAT_ASTC_6x6x6_SFLOAT)
        return 1000288000u + uint32_t(f - TEXDEC_FORMAT_ASTC_3x3x3_UNORM);
    throw std::logic_error("container_writer: no vkFormat for format " + std::to_string(int(f)));
}

// container_files' compress_level, refusing a scheme it would copy through.
std::vector<uint8_t> supercompress(uint32_t scheme, const std::vector<uint8_t>& data) {
    if (scheme != 0 && scheme != 2 && scheme != 3)
        throw std::logic_error("container_writer: unknown supercompressionScheme");
    return compress_level(scheme, data);
}

namespace {

// Khronos Data Format Specification, "Basic descriptor block" and the BC/ETC/ASTC colour models
// (KHR_DF_MODEL_BC1A 128 .. BC7 134, ETC2 161, ASTC 162) with their channel ids: BC1A colour 0,
// alpha-present 1; BC2/BC3 alpha 15 and colour 0; BC4 0; BC5 red 0, green 1; ETC2 colour 2,
// alpha 15; EAC red 0, green 1; BC6H, BC7, ASTC one sample of channel 0. Qualifier bits of
// channelType: 0x40 signed, 0x80 float.
struct DfdModel {
    uint32_t model;
    std::vector<uint32_t> channels;  // in sample order
};

DfdModel dfd_model(texdec_format f) {
    switch (f) {
    case TEXDEC_FORMAT_BC1_RGB_UNORM:
    case TEXDEC_FORMAT_BC1_RGB_SRGB: return {128, {0}};
    case TEXDEC_FORMAT_BC1_RGBA_UNORM:
    case TEXDEC_FORMAT_BC1_RGBA_SRGB: return {128, {1}};
    case TEXDEC_FORMAT_BC2_UNORM:
    case TEXDEC_FORMAT_BC2_SRGB: return {129, {15, 0}};
    case TEXDEC_FORMAT_BC3_UNORM:
    case TEXDEC_FORMAT_BC3_SRGB: return {130, {15, 0}};
    case TEXDEC_FORMAT_BC4_UNORM:
    case TEXDEC_FORMAT_BC4_SNORM: return {131, {0}};
    case TEXDEC_FORMAT_BC5_UNORM:
    case TEXDEC_FORMAT_BC5_SNORM: return {132, {0, 1}};
    case TEXDEC_FORMAT_BC6H_UFLOAT:
    case TEXDEC_FORMAT_BC6H_SFLOAT: return {133, {0}};
    case TEXDEC_FORMAT_BC7_UNORM:
    case TEXDEC_FORMAT_BC7_SRGB: return {134, {0}};
    case TEXDEC_FORMAT_ETC2_R8G8B8_UNORM:
    case TEXDEC_FORMAT_ETC2_R8G8B8_SRGB:
    case TEXDEC_FORMAT_ETC2_R8G8B8A1_UNORM:
    case TEXDEC_FORMAT_ETC2_R8G8B8A1_SRGB: return {161, {2}};
    case TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM:
    case TEXDEC_FORMAT_ETC2_R8G8B8A8_SRGB: return {161, {15, 2}};
    case TEXDEC_FORMAT_EAC_R11_UNORM:
    case TEXDEC_FORMAT_EAC_R11_SNORM: return {161, {0}};
    case TEXDEC_FORMAT_EAC_R11G11_UNORM:
    case TEXDEC_FORMAT_EAC_R11G11_SNORM: return {161, {0, 1}};
    default: return {162, {0}};
    }
}

std::vector<uint8_t> dfd_bytes(texdec_format f, uint32_t scheme) {
    const texdec_format_info info = format_info(f);
    const DfdModel m = dfd_model(f);
    const uint32_t block_size = uint32_t(24 + 16 * m.channels.size());
    std::vector<uint8_t> d(4 + block_size, 0);
    put_u32(d, 0, uint32_t(d.size()));     // dfdTotalSize
    put_u32(d, 4, 0);                      // vendorId 0 (Khronos), descriptorType 0 (basic)
    put_u32(d, 8, 2u | block_size << 16);  // versionNumber 2 (KDFS 1.3), descriptorBlockSize
    d[12] = uint8_t(m.model);
    d[13] = 1;                                               // colorPrimaries BT709
    d[14] = (info.flags & TEXDEC_FORMAT_FLAG_SRGB) ? 2 : 1;  // transferFunction sRGB / linear
    d[15] = 0;                                               // flags: straight alpha
    d[16] = uint8_t(info.block_width - 1), d[17] = uint8_t(info.block_height - 1);
    d[18] = uint8_t(info.block_depth - 1), d[19] = 0;
    d[20] = scheme == 0 ? uint8_t(info.bytes_per_block) : 0;  // bytesPlane0: 0 when supercompressed
    const uint32_t bits = info.bytes_per_block * 8 / uint32_t(m.channels.size());
    uint32_t qualifiers = 0;
    if (info.flags & TEXDEC_FORMAT_FLAG_SIGNED) qualifiers |= 0x40;
    if (info.flags & TEXDEC_FORMAT_FLAG_HDR) qualifiers |= 0x80;
    for (size_t i = 0; i < m.channels.size(); ++i) {
        const size_t at = 4 + 24 + 16 * i;
        put_u32(d, at, uint32_t(i) * bits | (bits - 1) << 16 | (m.channels[i] | qualifiers) << 24);
        put_u32(d, at + 4, 0);  // samplePosition 0,0,0,0
        const bool is_signed = qualifiers & 0x40, is_float = qualifiers & 0x80;
        put_u32(d, at + 8, is_float ? (is_signed ? 0xBF800000u : 0) : (is_signed ? 0x80000000u : 0));
        put_u32(d, at + 12, is_float ? 0x3F800000u : (is_signed ? 0x7FFFFFFFu : 0xFFFFFFFFu));
    }
    return d;
}

}  // namespace

// KTX File Format Specification 2.0: "File Structure" (identifier, header, index, level index,
// DFD, KVD, SGD, mip level array), "Level Index" (level 0 first), "Mip Level Array" (levels
// stored from the smallest; each at lcm(texel block size, 4) without supercompression, 1 with),
// "Key/Value Data" (sorted by key).
Written write_ktx2(const Shape& s, uint32_t scheme, std::vector<KeyValue> kv) {
    check_shape(s);
    const Blocks blk = blocks_of(s.format);
    Written w;
    w.header_format = vk_format_of(s.format);
    std::sort(kv.begin(), kv.end(), [](const KeyValue& a, const KeyValue& b) { return a.key < b.key; });
    w.key_values = kv;
    std::vector<uint8_t>& b = w.bytes;
    b.assign(80 + 24 * size_t(s.levels), 0);
    const uint8_t id[12] = {0xAB, 0x4B, 0x54, 0x58, 0x20, 0x32, 0x30, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A};
    std::copy(id, id + 12, b.begin());
    put_u32(b, 12, w.header_format);
    put_u32(b, 16, 1);  // typeSize 1 for block-compressed formats
    put_u32(b, 20, s.width);
    put_u32(b, 24, s.height);
    put_u32(b, 28, is_volume(s) ? s.depth : 0);
    put_u32(b, 32, s.array ? s.layers : 0);
    put_u32(b, 36, s.faces);
    put_u32(b, 40, s.levels);
    put_u32(b, 44, scheme);
    const std::vector<uint8_t> dfd = dfd_bytes(s.format, scheme);
    put_u32(b, 48, uint32_t(b.size()));
    put_u32(b, 52, uint32_t(dfd.size()));
    append(b, dfd);
    const std::vector<uint8_t> kvd = key_value_bytes(kv, false);
    if (!kvd.empty()) {
        put_u32(b, 56, uint32_t(b.size()));
        put_u32(b, 60, uint32_t(kvd.size()));
        append(b, kvd);
    }
    // No supercompression global data: sgdByteOffset and sgdByteLength stay 0.
    const uint64_t alignment = scheme == 0 ? std::lcm(uint64_t(blk.bytes), uint64_t(4)) : 1;
    w.level_file_offset.assign(s.levels, 0);
    w.level_file_length.assign(s.levels, 0);
    for (uint32_t l = s.levels; l-- > 0;) {
        const std::vector<uint8_t> level = packed_level(s, l);  // layers, faces, slices: the KTX 2 order too
        const std::vector<uint8_t> stored = supercompress(scheme, level);
        pad_to(b, alignment);
        const uint64_t at = b.size();
        w.level_file_offset[l] = at;
        w.level_file_length[l] = stored.size();
        put_u64(b, 80 + 24 * size_t(l), at);
        put_u64(b, 80 + 24 * size_t(l) + 8, stored.size());
        put_u64(b, 80 + 24 * size_t(l) + 16, level.size());
        append(b, stored);
        for (uint32_t layer = 0; layer < s.layers; ++layer)
            for (uint32_t face = 0; face < s.faces; ++face) {
                const uint64_t inside = (uint64_t(layer) * s.faces + face) * surface_size(s, l);
                w.surfaces.push_back(surface_at(s, l, layer, face, scheme == 0 ? at + inside : inside));
            }
    }
    return w;
}

// ---- KTX 1.1 ---------------------------------------------------------------------------------------

uint32_t gl_internal_format_of(texdec_format f) {
    // OpenGL registry (glext.h, gl2ext.h): EXT_texture_compression_s3tc, EXT_texture_sRGB,
    // ARB_texture_compression_rgtc, ARB_texture_compression_bptc, ETC2/EAC (GL 4.3 / ES 3.0),
    // KHR_texture_compression_astc_ldr (2D; sRGB at 0x93D0), OES_texture_compression_astc (3D).
    static const uint32_t bc_etc[] = {0x83F0, 0x8C4C, 0x83F1, 0x8C4D, 0x83F2, 0x8C4E, 0x83F3, 0x8C4F, 0x8DBB,
                                      0x8DBC, 0x8DBD, 0x8DBE, 0x8E8F, 0x8E8E, 0x8E8C, 0x8E8D, 0x9274, 0x9275,
                                      0x9276, 0x9277, 0x9278, 0x9279, 0x9270, 0x9271, 0x9272, 0x9273};
    if (f >= TEXDEC_FORMAT_BC1_RGB_UNORM && f <= TEXDEC_FORMAT_EAC_R11G11_SNORM) return bc_etc[f - 1];
    if (f >= TEXDEC_FORMAT_ASTC_4x4_UNORM && f <= TEXDEC_FORMAT_ASTC_12x12_SFLOAT) {
        const uint32_t i = uint32_t(f - TEXDEC_FORMAT_ASTC_4x4_UNORM);
        return (i % 3 == 1 ? 0x93D0u : 0x93B0u) + i / 3;
    }
    if (f >= TEXDEC_FORMAT_ASTC_3x3x3_UNORM && f <= TEXDEC_FORMAT_ASTC_6x6x6_SFLOAT) {
        const uint32_t i = uint32_t(f - TEXDEC_FORMAT_ASTC_3x3x3_UNORM);
        return (i % 3 == 1 ? 0x93E0u : 0x93C0u) + i / 3;
    }
    throw std::logic_error("container_writer: no GL enum for format " + std::to_string(int(f)));
}

// KTX 1.1: identifier, 13 UInt32 header fields in the file's byte order (endianness 0x04030201
// as written), the key/value data, then per mip level imageSize and the images: array elements,
// faces, z slices, rows; cubePadding after each face of a non-array cube map, mipPadding after
// each level. imageSize is one face's bytes for a non-array cube map, else the whole level's.
Written write_ktx1(const Shape& s, bool big_endian, const std::vector<KeyValue>& kv) {
    check_shape(s);
    if (s.faces == 6 && s.depth > 1) throw std::logic_error("container_writer: KTX 1 3D cube");
    Written w;
    w.header_format = gl_internal_format_of(s.format);
    w.key_values = kv;
    std::vector<uint8_t>& b = w.bytes;
    b.assign(64, 0);
    const uint8_t id[12] = {0xAB, 0x4B, 0x54, 0x58, 0x20, 0x31, 0x31, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A};
    std::copy(id, id + 12, b.begin());
    const texdec_format_info info = format_info(s.format);
    const uint32_t base = info.channels == 1   ? 0x1903
                          : info.channels == 2 ? 0x8227
                          : info.channels == 3 ? 0x1907
                                               : 0x1908;
    const std::vector<uint8_t> kvd = key_value_bytes(kv, big_endian);
    const uint32_t fields[13] = {0x04030201,
                                 0,  // glType: 0 for compressed data
                                 1,  // glTypeSize
                                 0,  // glFormat
                                 w.header_format,
                                 base,  // glBaseInternalFormat (GL_RED, GL_RG, GL_RGB, GL_RGBA)
                                 s.width,
                                 s.height,
                                 s.depth > 1 ? s.depth : 0,
                                 s.array ? s.layers : 0,
                                 s.faces,
                                 s.levels,
                                 uint32_t(kvd.size())};
    for (int i = 0; i < 13; ++i) put_u32_order(b, 12 + 4 * size_t(i), fields[i], big_endian);
    append(b, kvd);
    const bool cube_not_array = s.faces == 6 && !s.array;
    for (uint32_t l = 0; l < s.levels; ++l) {
        const uint64_t surface = surface_size(s, l);
        const uint64_t image_size = cube_not_array ? surface : surface * s.layers * s.faces;
        const size_t at = b.size();
        b.resize(at + 4);
        put_u32_order(b, at, uint32_t(image_size), big_endian);
        for (uint32_t layer = 0; layer < s.layers; ++layer)
            for (uint32_t face = 0; face < s.faces; ++face) {
                w.surfaces.push_back(surface_at(s, l, layer, face, b.size()));
                append(b, surface_pattern(l, layer, face, surface));
                if (cube_not_array) pad_to(b, 4);  // cubePadding
            }
        pad_to(b, 4);  // mipPadding
    }
    return w;
}

// ---- DDS -------------------------------------------------------------------------------------------

// Microsoft: "DDS_HEADER structure" (dwSize 124, dwFlags CAPS|HEIGHT|WIDTH|PIXELFORMAT|MIPMAPCOUNT
// |LINEARSIZE [|DEPTH], dwPitchOrLinearSize = level 0's bytes, dwCaps TEXTURE [|COMPLEX|MIPMAP],
// dwCaps2 CUBEMAP|all six faces or VOLUME), "DDS_PIXELFORMAT" (size 32, DDPF_FOURCC),
// "DDS_HEADER_DXT10" (dxgiFormat, resourceDimension 3 = TEXTURE2D / 4 = TEXTURE3D, miscFlag
// 0x4 = TEXTURECUBE, arraySize = cubes for a cube map), and "Programming Guide for DDS", "DDS File
// Layout for Textures": each array element (each face of each cube) with its whole mip chain in turn.
Written write_dds(const Shape& s, const char (&fourcc)[5], uint32_t dxgi_format) {
    check_shape(s);
    const bool dx10 = std::string(fourcc) == "DX10";
    if (!dx10 && s.layers > 1) throw std::logic_error("container_writer: legacy DDS arrays");
    Written w;
    std::vector<uint8_t>& b = w.bytes;
    b.assign(128, 0);
    b[0] = 'D', b[1] = 'D', b[2] = 'S', b[3] = ' ';
    const bool volume = s.depth > 1;
    put_u32(b, 4, 124);
    put_u32(b, 8, 0x1 | 0x2 | 0x4 | 0x1000 | 0x20000 | 0x80000 | (volume ? 0x800000 : 0));
    put_u32(b, 12, s.height);
    put_u32(b, 16, s.width);
    put_u32(b, 20, uint32_t(surface_size(s, 0)));
    put_u32(b, 24, volume ? s.depth : 0);
    put_u32(b, 28, s.levels);
    put_u32(b, 76, 32);
    put_u32(b, 80, 0x4);  // DDPF_FOURCC
    std::copy(fourcc, fourcc + 4, b.begin() + 84);
    const bool complex = s.levels > 1 || s.faces == 6 || volume || s.layers > 1;
    put_u32(b, 108, 0x1000 | (complex ? 0x8 : 0) | (s.levels > 1 ? 0x400000 : 0));
    put_u32(b, 112, (s.faces == 6 ? 0x200 | 0xFC00 : 0) | (volume ? 0x200000 : 0));
    w.header_format = uint32_t(uint8_t(fourcc[0])) | uint32_t(uint8_t(fourcc[1])) << 8 |
                      uint32_t(uint8_t(fourcc[2])) << 16 | uint32_t(uint8_t(fourcc[3])) << 24;
    if (dx10) {
        b.resize(148, 0);
        put_u32(b, 128, dxgi_format);
        put_u32(b, 132, volume ? 4 : 3);
        put_u32(b, 136, s.faces == 6 ? 0x4 : 0);
        put_u32(b, 140, s.layers);
        put_u32(b, 144, 0);
        w.header_format = dxgi_format;
    }
    for (uint32_t layer = 0; layer < s.layers; ++layer)
        for (uint32_t face = 0; face < s.faces; ++face)
            for (uint32_t l = 0; l < s.levels; ++l) {
                w.surfaces.push_back(surface_at(s, l, layer, face, b.size()));
                append(b, surface_pattern(l, layer, face, surface_size(s, l)));
            }
    return w;
}

// ---- .pkm ------------------------------------------------------------------------------------------

// etcpack's 16-byte header: "PKM ", version "10" / "20", then big-endian UInt16 format code,
// extended (multiple of 4) width and height, original width and height.
Written write_pkm(const Shape& s, const char (&version)[3], uint32_t code) {
    check_shape(s);
    Written w;
    w.header_format = code;
    std::vector<uint8_t>& b = w.bytes;
    b.assign(16, 0);
    b[0] = 'P', b[1] = 'K', b[2] = 'M', b[3] = ' ', b[4] = uint8_t(version[0]), b[5] = uint8_t(version[1]);
    put_u16_be(b, 6, code);
    put_u16_be(b, 8, (s.width + 3) / 4 * 4);
    put_u16_be(b, 10, (s.height + 3) / 4 * 4);
    put_u16_be(b, 12, s.width);
    put_u16_be(b, 14, s.height);
    w.surfaces.push_back(surface_at(s, 0, 0, 0, b.size()));
    append(b, surface_pattern(0, 0, 0, surface_size(s, 0)));
    return w;
}

// ---- .astc -----------------------------------------------------------------------------------------

// astcenc's header: magic 0x5CA1AB13 (little-endian), block x, y, z (one byte each), then the
// x, y, z sizes in texels as 24-bit little-endian numbers; blocks follow x fastest, then y, then z.
Written write_astc(const Shape& s) {
    check_shape(s);
    if (!is_astc(s.format)) throw std::logic_error("container_writer: .astc of a non-ASTC format");
    const Blocks blk = blocks_of(s.format);
    Written w;
    std::vector<uint8_t>& b = w.bytes;
    b = {0x13, 0xAB, 0xA1, 0x5C, uint8_t(blk.bw), uint8_t(blk.bh), uint8_t(blk.bd)};
    for (const uint32_t v : {s.width, s.height, s.depth})
        for (int i = 0; i < 3; ++i) b.push_back(uint8_t(v >> (8 * i)));
    w.surfaces.push_back(surface_at(s, 0, 0, 0, b.size()));
    append(b, surface_pattern(0, 0, 0, surface_size(s, 0)));
    return w;
}

}  // namespace texdec_test::writer

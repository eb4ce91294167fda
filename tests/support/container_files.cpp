#include "support/container_files.h"

#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace texdec_test {

void put_u32(std::vector<uint8_t>& bytes, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes.at(at + i) = uint8_t(v >> (8 * i));
}
void put_u64(std::vector<uint8_t>& bytes, size_t at, uint64_t v) {
    put_u32(bytes, at, uint32_t(v));
    put_u32(bytes, at + 4, uint32_t(v >> 32));
}
void put_u16_be(std::vector<uint8_t>& bytes, size_t at, uint32_t v) {
    bytes.at(at) = uint8_t(v >> 8);
    bytes.at(at + 1) = uint8_t(v);
}
void put_u32_order(std::vector<uint8_t>& bytes, size_t at, uint32_t v, bool big_endian) {
    for (int i = 0; i < 4; ++i) bytes.at(at + i) = uint8_t(v >> (big_endian ? 24 - 8 * i : 8 * i));
}

// ---- DDS ----------------------------------------------------------------------------------------

namespace {

// DDS_HEADER (after the 4-byte magic) with DDS_PIXELFORMAT's FourCC set; the caller adds the rest.
std::vector<uint8_t> dds_header(uint32_t width, uint32_t height, uint32_t depth, uint32_t mip_count, uint32_t caps2,
                                const char (&fourcc)[4]) {
    std::vector<uint8_t> bytes(4 + 124, 0);
    bytes[0] = 'D', bytes[1] = 'D', bytes[2] = 'S', bytes[3] = ' ';
    const size_t d = 4;
    put_u32(bytes, d + 0, 124);
    // DDSD_CAPS HEIGHT WIDTH PIXELFORMAT MIPMAPCOUNT [DEPTH]
    put_u32(bytes, d + 4, 0x1 | 0x2 | 0x4 | 0x1000 | 0x20000 | (depth > 1 ? 0x800000 : 0));
    put_u32(bytes, d + 8, height);
    put_u32(bytes, d + 12, width);
    put_u32(bytes, d + 20, depth);
    put_u32(bytes, d + 24, mip_count);
    put_u32(bytes, d + 72, 32);   // DDS_PIXELFORMAT size
    put_u32(bytes, d + 76, 0x4);  // DDPF_FOURCC
    std::copy(fourcc, fourcc + 4, bytes.begin() + d + 80);
    // DDSCAPS_TEXTURE, plus COMPLEX and MIPMAP when there are several surfaces.
    put_u32(bytes, d + 104, 0x1000 | (mip_count > 1 || caps2 ? 0x8 : 0) | (mip_count > 1 ? 0x400000 : 0));
    put_u32(bytes, d + 108, caps2);
    return bytes;
}

}  // namespace

std::vector<uint8_t> dx10_dds(const Dx10Header& h, const std::vector<uint8_t>& data) {
    std::vector<uint8_t> bytes = dds_header(h.width, h.height, h.depth, h.mip_count, 0, {'D', 'X', '1', '0'});
    bytes.resize(4 + 124 + 20, 0);
    const size_t x = 4 + 124;  // DDS_HEADER_DXT10
    put_u32(bytes, x + 0, h.dxgi_format);
    put_u32(bytes, x + 4, h.dimension);
    put_u32(bytes, x + 8, h.misc_flag);
    put_u32(bytes, x + 12, h.array_size);
    bytes.insert(bytes.end(), data.begin(), data.end());
    return bytes;
}

std::vector<uint8_t> legacy_dds(const LegacyDdsHeader& h, const std::vector<uint8_t>& data) {
    std::vector<uint8_t> bytes = dds_header(h.width, h.height, h.depth, h.mip_count, h.caps2, h.fourcc);
    bytes.insert(bytes.end(), data.begin(), data.end());
    return bytes;
}

// ---- .pkm ---------------------------------------------------------------------------------------

std::vector<uint8_t> pkm_bytes(const char* version, uint32_t code, uint32_t padded_w, uint32_t padded_h,
                               uint32_t w, uint32_t h, const std::vector<uint8_t>& data) {
    std::vector<uint8_t> bytes(16, 0);
    bytes[0] = 'P', bytes[1] = 'K', bytes[2] = 'M', bytes[3] = ' ';
    bytes[4] = uint8_t(version[0]), bytes[5] = uint8_t(version[1]);
    put_u16_be(bytes, 6, code);
    put_u16_be(bytes, 8, padded_w);
    put_u16_be(bytes, 10, padded_h);
    put_u16_be(bytes, 12, w);
    put_u16_be(bytes, 14, h);
    bytes.insert(bytes.end(), data.begin(), data.end());
    return bytes;
}

// ---- KTX 1.1 ------------------------------------------------------------------------------------

std::vector<uint8_t> ktx_bytes(const KtxHeader& h, const std::vector<KtxLevel>& levels, bool big_endian,
                               const std::vector<uint8_t>& key_values) {
    static constexpr uint8_t kId[12] = {0xAB, 0x4B, 0x54, 0x58, 0x20, 0x31, 0x31, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A};
    std::vector<uint8_t> bytes(kId, kId + 12);
    bytes.resize(64, 0);
    const uint32_t fields[13] = {h.endianness, h.gl_type, 1, 0, h.gl_internal_format, 0x1908 /* GL_RGBA */,
                                 h.width, h.height, h.depth, h.array_elements, h.faces, h.mip_levels,
                                 uint32_t(key_values.size())};
    for (int i = 0; i < 13; ++i) put_u32_order(bytes, 12 + 4 * size_t(i), fields[i], big_endian);
    bytes.insert(bytes.end(), key_values.begin(), key_values.end());
    for (const KtxLevel& level : levels) {
        const size_t at = bytes.size();
        bytes.resize(at + 4);
        put_u32_order(bytes, at, level.image_size, big_endian);
        bytes.insert(bytes.end(), level.data.begin(), level.data.end());
    }
    return bytes;
}

std::vector<uint8_t> ktx_orientation_kv(bool big_endian) {
    const char text[] = "KTXorientation\0S=r,T=d";  // + the implicit terminating NUL
    std::vector<uint8_t> kv(4, 0);
    put_u32_order(kv, 0, uint32_t(sizeof text), big_endian);
    kv.insert(kv.end(), text, text + sizeof text);
    while (kv.size() % 4) kv.push_back(0);
    return kv;
}

// ---- KTX 2.0 ------------------------------------------------------------------------------------

// The Vulkan headers' numbers (BC1 RGB UNORM 131 .. EAC R11G11 SNORM 156 in one run; ASTC 4x4
// UNORM 157, +2 per footprint, SRGB +1; ASTC SFLOAT 1000066000 + footprint) and
// VK_EXT_texture_compression_astc_3d (1000288000 + 3 * footprint + {0 UNORM, 1 SRGB, 2 SFLOAT},
// footprints 3x3x3, 4x3x3, 4x4x3, 4x4x4, 5x4x4, 5x5x4, 5x5x5, 6x5x5, 6x6x5, 6x6x6).
static_assert(VK_FORMAT_BC1_RGB_UNORM_BLOCK == 131 && VK_FORMAT_BC7_SRGB_BLOCK == 146);
static_assert(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK == 147 && VK_FORMAT_EAC_R11G11_SNORM_BLOCK == 156);
static_assert(VK_FORMAT_ASTC_4x4_UNORM_BLOCK == 157 && VK_FORMAT_ASTC_12x12_SRGB_BLOCK == 184);
static_assert(VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK == 1000066000 && VK_FORMAT_ASTC_12x12_SFLOAT_BLOCK == 1000066013);
static_assert(TEXDEC_FORMAT_EAC_R11G11_SNORM - TEXDEC_FORMAT_BC1_RGB_UNORM == 25);
uint32_t vk_format_number(texdec_format f) {
    if (f >= TEXDEC_FORMAT_BC1_RGB_UNORM && f <= TEXDEC_FORMAT_EAC_R11G11_SNORM)
        return VK_FORMAT_BC1_RGB_UNORM_BLOCK + uint32_t(f - TEXDEC_FORMAT_BC1_RGB_UNORM);
    if (f >= TEXDEC_FORMAT_ASTC_4x4_UNORM && f <= TEXDEC_FORMAT_ASTC_12x12_SFLOAT) {
        const uint32_t footprint = uint32_t(f - TEXDEC_FORMAT_ASTC_4x4_UNORM) / 3, kind = (f - TEXDEC_FORMAT_ASTC_4x4_UNORM) % 3;
        return kind == 2 ? VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK + footprint : VK_FORMAT_ASTC_4x4_UNORM_BLOCK + 2 * footprint + kind;
    }
    if (!(f >= TEXDEC_FORMAT_ASTC_3x3x3_UNORM && f <= TEXDEC_FORMAT_ASTC_6x6x6_SFLOAT))
        throw std::logic_error("vk_format_number: no vkFormat for texdec format " + std::to_string(int(f)));
    return 1000288000u + uint32_t(f - TEXDEC_FORMAT_ASTC_3x3x3_UNORM);
}

uint32_t ktx2_color_model(texdec_format f) {
    // KHR_DF_MODEL_BC1A = 128 .. KHR_DF_MODEL_BC7 = 134, ETC2 = 161, ASTC = 162 (Khronos Data Format
    // Specification, "Model"); texdec_format lists BC1 (4 formats), then two per BC2..BC7.
    if (f >= TEXDEC_FORMAT_BC1_RGB_UNORM && f <= TEXDEC_FORMAT_BC1_RGBA_SRGB) return 128;
    if (f >= TEXDEC_FORMAT_BC2_UNORM && f <= TEXDEC_FORMAT_BC7_SRGB) return 129 + (f - TEXDEC_FORMAT_BC2_UNORM) / 2;
    if (f >= TEXDEC_FORMAT_ETC2_R8G8B8_UNORM && f <= TEXDEC_FORMAT_EAC_R11G11_SNORM) return 161;
    return 162;
}

std::vector<uint32_t> ktx2_channels(texdec_format f) {
    switch (f) {
    case TEXDEC_FORMAT_BC1_RGBA_UNORM:
    case TEXDEC_FORMAT_BC1_RGBA_SRGB: return {1};
    case TEXDEC_FORMAT_BC2_UNORM:
    case TEXDEC_FORMAT_BC2_SRGB:
    case TEXDEC_FORMAT_BC3_UNORM:
    case TEXDEC_FORMAT_BC3_SRGB: return {15, 0};
    case TEXDEC_FORMAT_BC5_UNORM:
    case TEXDEC_FORMAT_BC5_SNORM:
    case TEXDEC_FORMAT_EAC_R11G11_UNORM:
    case TEXDEC_FORMAT_EAC_R11G11_SNORM: return {0, 1};
    case TEXDEC_FORMAT_ETC2_R8G8B8_UNORM:
    case TEXDEC_FORMAT_ETC2_R8G8B8_SRGB:
    case TEXDEC_FORMAT_ETC2_R8G8B8A1_UNORM:
    case TEXDEC_FORMAT_ETC2_R8G8B8A1_SRGB: return {2};
    case TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM:
    case TEXDEC_FORMAT_ETC2_R8G8B8A8_SRGB: return {15, 2};
    default: return {0};
    }
}

Ktx2Spec ktx2_spec(texdec_format format, uint32_t w, uint32_t h, uint32_t d, uint32_t layer_count,
                   uint32_t face_count, uint32_t level_count, uint32_t scheme) {
    texdec_format_info info{};
    if (texdec_format_get_info(format, &info) != TEXDEC_SUCCESS)
        throw std::logic_error("ktx2_spec: unknown texdec format " + std::to_string(int(format)));
    Ktx2Spec s;
    s.vk_format = vk_format_number(format);
    s.width = w, s.height = h, s.depth = d, s.layer_count = layer_count, s.face_count = face_count;
    s.level_count = level_count, s.scheme = scheme;
    s.color_model = ktx2_color_model(format);
    s.transfer = (info.flags & TEXDEC_FORMAT_FLAG_SRGB) ? 2 : 1;
    s.block[0] = info.block_width, s.block[1] = info.block_height, s.block[2] = info.block_depth;
    s.bytes_plane0 = info.bytes_per_block;
    s.channels = ktx2_channels(format);
    return s;
}

std::vector<uint8_t> compress_level(uint32_t scheme, const std::vector<uint8_t>& data) {
    if (scheme == 2) {
        std::vector<uint8_t> out(ZSTD_compressBound(data.size()));
        const size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), 3);
        if (ZSTD_isError(n)) throw std::logic_error(std::string("ZSTD_compress: ") + ZSTD_getErrorName(n));
        out.resize(n);
        return out;
    }
    if (scheme == 3) {
        uLongf n = compressBound(uLong(data.size()));
        std::vector<uint8_t> out(n);
        if (compress2(out.data(), &n, data.data(), uLong(data.size()), 6) != Z_OK)
            throw std::logic_error("zlib compress2 failed");
        out.resize(n);
        return out;
    }
    return data;
}

std::vector<uint64_t> ktx2_level_bytes(texdec_format format, const Ktx2Spec& spec) {
    std::vector<uint64_t> sizes;
    const uint32_t layers = std::max(1u, spec.layer_count) * spec.face_count;
    for (uint32_t l = 0; l < std::max(1u, spec.level_count); ++l) {
        uint64_t image = 0;
        if (texdec_encoded_size(format, std::max(1u, spec.width >> l), std::max(1u, spec.height >> l),
                                std::max(1u, std::max(1u, spec.depth) >> l), &image) != TEXDEC_SUCCESS)
            throw std::logic_error("ktx2_level_bytes: no encoded size for texdec format " +
                                   std::to_string(int(format)));
        sizes.push_back(image * layers);
    }
    return sizes;
}

Ktx2File ktx2_bytes(const Ktx2Spec& spec, const std::vector<std::vector<uint8_t>>& levels) {
    Ktx2File f;
    const size_t n = std::max<size_t>(1, spec.level_count);
    if (levels.size() != n) throw std::logic_error("ktx2_bytes: one level of bytes per levelCount");
    std::vector<uint8_t>& b = f.bytes;
    b.assign(80 + 24 * n, 0);
    const uint8_t id[12] = {0xAB, 0x4B, 0x54, 0x58, 0x20, 0x32, 0x30, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A};
    std::copy(id, id + 12, b.begin());
    const uint32_t fields[9] = {spec.vk_format, spec.type_size,  spec.width,       spec.height, spec.depth,
                                spec.layer_count, spec.face_count, spec.level_count, spec.scheme};
    for (int i = 0; i < 9; ++i) put_u32(b, 12 + 4 * i, fields[i]);
    // DFD: dfdTotalSize, basic block header (vendor 0, type 0, version 2, size 24 + 16 per sample),
    // model, primaries 1 (BT.709), transfer, flags 0, block dimensions - 1, bytesPlane0..7, then the
    // samples: bitOffset, bitLength - 1, channelType; position 0; lower 0, upper 0xFFFFFFFF.
    const std::vector<uint32_t> channels = spec.channels.empty() ? std::vector<uint32_t>{0} : spec.channels;
    const uint32_t block_size = uint32_t(24 + 16 * channels.size());
    f.dfd_offset = b.size();
    f.dfd_length = 4 + block_size;
    b.resize(b.size() + f.dfd_length, 0);
    put_u32(b, f.dfd_offset, uint32_t(f.dfd_length));
    put_u32(b, f.dfd_offset + 8, 2u | block_size << 16);
    const uint32_t sample_bits = std::max<uint32_t>(8, spec.bytes_plane0 * 8 / uint32_t(channels.size()));
    for (size_t i = 0; i < channels.size(); ++i) {
        const size_t at = f.dfd_offset + 4 + 24 + 16 * i;
        put_u32(b, at, uint32_t(i) * sample_bits | (sample_bits - 1) << 16 | (channels[i] & 0xFF) << 24);
        put_u32(b, at + 12, 0xFFFFFFFFu);
    }
    b[f.dfd_offset + 12] = uint8_t(spec.color_model);
    b[f.dfd_offset + 13] = 1;
    b[f.dfd_offset + 14] = uint8_t(spec.transfer);
    for (int i = 0; i < 4; ++i) b[f.dfd_offset + 16 + i] = uint8_t(spec.block[i] - 1);
    b[f.dfd_offset + 20] = uint8_t(spec.bytes_plane0);
    put_u32(b, 48, uint32_t(f.dfd_offset));
    put_u32(b, 52, uint32_t(f.dfd_length));
    if (!spec.key_values.empty()) {
        put_u32(b, 56, uint32_t(b.size()));
        put_u32(b, 60, uint32_t(spec.key_values.size()));
        b.insert(b.end(), spec.key_values.begin(), spec.key_values.end());
    }
    f.level_offsets.assign(n, 0);
    f.level_lengths.assign(n, 0);
    for (size_t l = n; l-- > 0;) {
        const std::vector<uint8_t> stored = compress_level(spec.scheme, levels[l]);
        b.resize((b.size() + 15) / 16 * 16, 0);
        f.level_offsets[l] = b.size();
        f.level_lengths[l] = stored.size();
        put_u64(b, 80 + 24 * l, b.size());
        put_u64(b, 80 + 24 * l + 8, stored.size());
        put_u64(b, 80 + 24 * l + 16, levels[l].size());
        b.insert(b.end(), stored.begin(), stored.end());
    }
    return f;
}

// ---- .astc --------------------------------------------------------------------------------------

std::vector<uint8_t> astc_file_bytes(uint32_t block_x, uint32_t block_y, uint32_t block_z, uint32_t w, uint32_t h,
                                     uint32_t d, const std::vector<uint8_t>& blocks) {
    std::vector<uint8_t> bytes = {0x13, 0xAB, 0xA1, 0x5C, uint8_t(block_x), uint8_t(block_y), uint8_t(block_z)};
    for (uint32_t v : {w, h, d})
        for (int i = 0; i < 3; ++i) bytes.push_back(uint8_t(v >> (8 * i)));
    bytes.insert(bytes.end(), blocks.begin(), blocks.end());
    return bytes;
}

}  // namespace texdec_test

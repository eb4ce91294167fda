// Texture container files written field by field from the formats' own descriptions (never from
// src/cli's parsers): DDS (legacy FourCC and DX10 headers), .pkm, KTX 1.1, KTX 2.0 (with Zstandard
// / zlib supercompression) and .astc. Shared by the CLI tests (test_cli.cpp, test_cli_hdr3d.cpp),
// the truncation / corruption test (test_fuzz_regress.cpp) and the fuzzers' seed writer
// (tests/fuzz/write_seeds.cpp), so it uses no test framework: a bad argument throws
// std::logic_error (Catch2 reports it as a failure).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <texdec/texdec.h>

namespace texdec_test {

// Little-endian stores (bounds-checked).
void put_u32(std::vector<uint8_t>& bytes, size_t at, uint32_t v);
void put_u64(std::vector<uint8_t>& bytes, size_t at, uint64_t v);
void put_u16_be(std::vector<uint8_t>& bytes, size_t at, uint32_t v);
// A UInt32 in a KTX 1 file's byte order.
void put_u32_order(std::vector<uint8_t>& bytes, size_t at, uint32_t v, bool big_endian);

// ---- DDS (Microsoft's DDS_HEADER, DDS_PIXELFORMAT and DDS_HEADER_DXT10 layouts) ---------------

// A .dds file with a DX10 header, followed by `data`.
struct Dx10Header {
    uint32_t dxgi_format;
    uint32_t width, height;
    uint32_t depth = 1;
    uint32_t mip_count = 1;
    uint32_t dimension = 3;  // D3D10_RESOURCE_DIMENSION_TEXTURE2D
    uint32_t misc_flag = 0;
    uint32_t array_size = 1;
};
std::vector<uint8_t> dx10_dds(const Dx10Header& h, const std::vector<uint8_t>& data);

// A .dds file with a legacy FourCC pixel format ("DXT1", "ATI2", ...), followed by `data`.
// caps2: DDSCAPS2_CUBEMAP (0x200) | the six face bits (0xFC00), or DDSCAPS2_VOLUME (0x200000).
struct LegacyDdsHeader {
    char fourcc[4];
    uint32_t width, height;
    uint32_t depth = 0;
    uint32_t mip_count = 0;
    uint32_t caps2 = 0;
};
std::vector<uint8_t> legacy_dds(const LegacyDdsHeader& h, const std::vector<uint8_t>& data);

// ---- .pkm (etcpack's layout) ------------------------------------------------------------------

// "PKM ", version ("10" / "20"), then big-endian format code, padded width/height, active
// width/height, followed by `data`.
std::vector<uint8_t> pkm_bytes(const char* version, uint32_t code, uint32_t padded_w, uint32_t padded_h,
                               uint32_t w, uint32_t h, const std::vector<uint8_t>& data);

// ---- KTX 1.1 (identifier, 13 UInt32 fields in the file's byte order, key/value data, then per
// mip level a UInt32 imageSize and the data) ----------------------------------------------------

struct KtxHeader {
    uint32_t gl_internal_format;
    uint32_t width, height;
    uint32_t depth = 0;
    uint32_t array_elements = 0;
    uint32_t faces = 1;
    uint32_t mip_levels = 1;
    uint32_t gl_type = 0;
    uint32_t endianness = 0x04030201;
};

struct KtxLevel {
    uint32_t image_size;
    std::vector<uint8_t> data;  // written after imageSize as is (padding included by the caller)
};

std::vector<uint8_t> ktx_bytes(const KtxHeader& h, const std::vector<KtxLevel>& levels, bool big_endian,
                               const std::vector<uint8_t>& key_values = {});

// A KTXorientation pair: keyAndValueByteSize, "KTXorientation\0S=r,T=d\0", padding to 4.
std::vector<uint8_t> ktx_orientation_kv(bool big_endian);

// ---- KTX 2.0 ----------------------------------------------------------------------------------

// The vkFormat number of a texdec format, from the Vulkan headers and
// VK_EXT_texture_compression_astc_3d.
uint32_t vk_format_number(texdec_format f);

struct Ktx2Spec {
    uint32_t vk_format = 0, type_size = 1;
    uint32_t width = 0, height = 0, depth = 0, layer_count = 0, face_count = 1, level_count = 1;
    uint32_t scheme = 0;
    // The DFD's basic block.
    uint32_t color_model = 0, transfer = 1;
    uint32_t block[4] = {1, 1, 1, 1};  // texels
    uint32_t bytes_plane0 = 0;
    // One sample per entry, with that channelId (empty: one sample of channel 0).
    std::vector<uint32_t> channels;
    std::vector<uint8_t> key_values;  // kvdByteLength bytes
};

// The channelIds of a format's DFD samples, in KTX-Software's order (Khronos Data Format
// Specification, KHR_DF_CHANNEL_*): BC1 RGB 0, BC1 RGBA 1 (ALPHAPRESENT), BC2/BC3 15 then 0,
// BC4 0, BC5 0 and 1, BC6H/BC7 0, ETC2 RGB8 2, RGB8A1 2, RGBA8 15 then 2, EAC R11 0, RG11 0 and 1,
// ASTC 0.
std::vector<uint32_t> ktx2_channels(texdec_format format);

// The DFD colour model of a format's data (KHR_DF_MODEL_BC1A .. BC7, ETC2, ASTC).
uint32_t ktx2_color_model(texdec_format format);

// A spec whose DFD agrees with the format (colour model, block dimensions, bytesPlane0, sRGB
// transfer, samples).
Ktx2Spec ktx2_spec(texdec_format format, uint32_t w, uint32_t h, uint32_t d = 0, uint32_t layer_count = 0,
                   uint32_t face_count = 1, uint32_t level_count = 1, uint32_t scheme = 0);

// The uncompressed bytes of each level `spec` describes (all its layers and faces) for blocks of
// `format`, level 0 first (levelCount 0 counts as 1).
std::vector<uint64_t> ktx2_level_bytes(texdec_format format, const Ktx2Spec& spec);

struct Ktx2File {
    std::vector<uint8_t> bytes;
    size_t dfd_offset = 0, dfd_length = 0;
    std::vector<uint64_t> level_offsets, level_lengths;  // level 0 first
};

// Scheme 2: Zstandard (level 3), 3: zlib (level 6), else the data as is.
std::vector<uint8_t> compress_level(uint32_t scheme, const std::vector<uint8_t>& data);

// A KTX 2 file: header, level index, DFD (basic block with spec.channels' samples), key/value data, then the
// levels smallest first, each at a multiple of 16 bytes (the largest lcm(block, 4)), compressed as
// spec.scheme says. `levels` are the uncompressed level bytes, level 0 first.
Ktx2File ktx2_bytes(const Ktx2Spec& spec, const std::vector<std::vector<uint8_t>>& levels);

// ---- .astc (ARM's astcenc file) ---------------------------------------------------------------

// Magic 13 AB A1 5C, block x/y/z, x/y/z size as 24-bit little-endian, then `blocks`.
std::vector<uint8_t> astc_file_bytes(uint32_t block_x, uint32_t block_y, uint32_t block_z, uint32_t w, uint32_t h,
                                     uint32_t d, const std::vector<uint8_t>& blocks);

}  // namespace texdec_test

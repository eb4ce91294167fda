// KTX 2.0 parser (layout and what is validated in ktx2.h). DFD field positions are those of the
// Khronos Data Format Specification's basic descriptor block; colour model and transfer function
// values are its KHR_DF_MODEL_* / KHR_DF_TRANSFER_* enums.
// The DFD rule (ktx2.h has it whole): the DFD may veto only what decoding needs, and a vkFormat
// texdec decodes already says all of that, so every DFD field that disagrees with it, or cannot be
// read, is a warning (Texture::warnings), the same for every field; the DFD decides nothing except,
// with vkFormat 0, how the refusal names Basis Universal data.
#include "ktx2.h"

#include <algorithm>
#include <cstdio>
#include <new>
#include <numeric>
#include <optional>

#include <zlib.h>  // Debian's zlib1g-dev: supercompressionScheme 3
#if TEXDEC_IO_ZSTD
#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_decompressBound (exported by libzstd 1.4.0+; Debian 12 has 1.5.4)
#include <zstd.h>  // Debian's libzstd-dev: supercompressionScheme 2
#endif

#include "format_names.h"
#include "format_text.h"
#include "portable.h"

namespace ktx2 {
namespace {

using texdec_io::format_text;

constexpr uint8_t kIdentifier[kIdentifierSize] = {0xAB, 0x4B, 0x54, 0x58, 0x20, 0x32,
                                                  0x30, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A};
constexpr uint32_t kMaxLayers = 1u << 20;

// Data Format Descriptor values used here (KHR_DF_MODEL_*, KHR_DF_TRANSFER_*).
constexpr uint32_t kBasicBlockMinSize = 24;   // the basic block without samples
constexpr uint32_t kModelBc1a = 128, kModelBc2 = 129, kModelBc3 = 130, kModelBc4 = 131, kModelBc5 = 132;
constexpr uint32_t kModelBc6h = 133, kModelBc7 = 134;
constexpr uint32_t kModelEtc1 = 160, kModelEtc2 = 161, kModelAstc = 162;
// Basis Universal's models: ETC1S and UASTC are Khronos's; the UASTC HDR and XUASTC ones are the
// values Basis Universal's transcoder (basisu_transcoder.h, KTX2_KDF_DF_MODEL_*) reads.
constexpr uint32_t kModelEtc1s = 163, kModelUastc = 166, kModelUastcHdr4x4 = 167;
constexpr uint32_t kModelUastcHdr6x6i = 168, kModelXuastcLdr = 169;
constexpr uint32_t kTransferSrgb = 2;
// Basis Universal's supercompression schemes for its intermediates (KTX2_SS_UASTC_HDR_6x6I,
// KTX2_SS_XUASTC_LDR): not registered in the KTX 2 specification, which reserves them.
constexpr uint32_t kSchemeUastcHdr6x6i = 4, kSchemeXuastcLdr = 5;

uint32_t read_u32(std::span<const uint8_t> bytes, size_t offset) {
    return uint32_t(bytes[offset]) | uint32_t(bytes[offset + 1]) << 8 | uint32_t(bytes[offset + 2]) << 16 |
           uint32_t(bytes[offset + 3]) << 24;
}
uint64_t read_u64(std::span<const uint8_t> bytes, size_t offset) {
    return uint64_t(read_u32(bytes, offset)) | uint64_t(read_u32(bytes, offset + 4)) << 32;
}

uint64_t div_round_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// True if [offset, offset + length) lies inside a file of `size` bytes (no overflow).
bool in_file(uint64_t offset, uint64_t length, size_t size) { return offset <= size && length <= size - offset; }

struct Header {
    uint32_t vk_format, type_size, width, height, depth, layer_count, face_count, level_count, scheme;
    uint32_t dfd_offset, dfd_length, kvd_offset, kvd_length;
    uint64_t sgd_offset, sgd_length;
};

Header read_header(std::span<const uint8_t> file) {
    Header h;
    uint32_t* fields[] = {&h.vk_format, &h.type_size,  &h.width,       &h.height,     &h.depth,      &h.layer_count,
                          &h.face_count, &h.level_count, &h.scheme, &h.dfd_offset, &h.dfd_length, &h.kvd_offset,
                          &h.kvd_length};
    for (size_t i = 0; i < std::size(fields); ++i) *fields[i] = read_u32(file, kIdentifierSize + 4 * i);
    h.sgd_offset = read_u64(file, 64);
    h.sgd_length = read_u64(file, 72);
    return h;
}

// The first descriptor block of the DFD, as far as this parser looks at it.
struct BasicBlock {
    bool read = false;  // the DFD lies in the file and starts with a Khronos basic block
    uint32_t color_model, transfer;
    uint32_t block_dimension[4];  // texels (the stored value + 1)
    uint32_t bytes_plane0;
    uint32_t block_size;             // descriptorBlockSize: 24 bytes + 16 per sample
    std::vector<uint32_t> channels;  // each sample's channelId (its channelType's low 4 bits)
};

// Reads the DFD's basic block where it can; what stands in the way goes to `problems`.
BasicBlock read_dfd(std::span<const uint8_t> file, const Header& h, size_t index_end,
                    std::vector<std::string>& problems) {
    BasicBlock out{};
    if (h.dfd_length == 0) {
        problems.push_back("the file has no data format descriptor (dfdByteLength 0)");
        return out;
    }
    if (h.dfd_offset < index_end || !in_file(h.dfd_offset, h.dfd_length, file.size())) {
        problems.push_back(format_text("the data format descriptor (dfdByteOffset %u, dfdByteLength %u) is not "
                                       "between the level index (ends at %zu) and the end of the file (%zu bytes)",
                                       h.dfd_offset, h.dfd_length, index_end, file.size()));
        return out;
    }
    if (h.dfd_length < 4 + kBasicBlockMinSize) {
        problems.push_back(format_text("dfdByteLength is %u; a data format descriptor with its basic block needs at "
                                       "least %u bytes", h.dfd_length, 4 + kBasicBlockMinSize));
        return out;
    }
    if (h.dfd_offset % 4) problems.push_back(format_text("dfdByteOffset %u is not a multiple of 4", h.dfd_offset));
    const uint32_t total = read_u32(file, h.dfd_offset);
    if (total != h.dfd_length)
        problems.push_back(format_text("dfdTotalSize is %u, dfdByteLength %u: they must be equal", total, h.dfd_length));
    const size_t block = size_t(h.dfd_offset) + 4;
    const uint32_t word0 = read_u32(file, block), word1 = read_u32(file, block + 4);
    const uint32_t vendor = word0 & 0x1FFFF, type = word0 >> 17, block_size = word1 >> 16;
    if (vendor != 0 || type != 0) {
        problems.push_back(format_text("the DFD's first descriptor block is vendorId %u, descriptorType %u; KTX 2 "
                                       "needs the Khronos basic block (0, 0) first", vendor, type));
        return out;
    }
    if (block_size < kBasicBlockMinSize || block_size > h.dfd_length - 4) {
        problems.push_back(format_text("descriptorBlockSize %u of the DFD's basic block is not between %u and the %u "
                                       "bytes the DFD holds after dfdTotalSize", block_size, kBasicBlockMinSize,
                                       h.dfd_length - 4));
        return out;
    }
    out.read = true;
    out.color_model = file[block + 8];
    out.transfer = file[block + 10];
    for (int i = 0; i < 4; ++i) out.block_dimension[i] = uint32_t(file[block + 12 + i]) + 1;
    out.bytes_plane0 = file[block + 16];
    out.block_size = block_size;
    // Samples: 16 bytes each after the 24-byte header; channelType is the 4th byte of a sample.
    for (size_t at = kBasicBlockMinSize; at + 16 <= block_size; at += 16)
        out.channels.push_back(file[block + at + 3] & 0xF);
    return out;
}

// The Basis Universal codec a DFD colour model names, or nullptr.
const char* basis_codec(uint32_t model) {
    switch (model) {
    case kModelEtc1s: return "ETC1S";
    case kModelUastc: return "UASTC";
    case kModelUastcHdr4x4: return "UASTC HDR 4x4";
    case kModelUastcHdr6x6i: return "UASTC HDR 6x6 intermediate";
    case kModelXuastcLdr: return "XUASTC LDR intermediate";
    }
    return nullptr;
}

// Basis Universal data, named as such: the decoder would need a transcoder first. Named by the
// DFD's colour model where it has one (a BasisLZ file is ETC1S, or the UASTC HDR 6x6 intermediate
// of Basis Universal 1.60 / 2.0, which used scheme 1 before its own scheme 4).
std::optional<Error> refuse_basis(const Header& h, const BasicBlock& dfd) {
    const char* hint = "; transcode it to a GPU block format (BC7, BC6H, ASTC, ETC2) first";
    const char* codec = dfd.read ? basis_codec(dfd.color_model) : nullptr;
    if (h.scheme == uint32_t(Supercompression::BasisLZ)) {
        if (!codec || dfd.color_model == kModelEtc1s)
            return Error{ErrorCode::BasisUniversal,
                         format_text("supercompressionScheme 1 (BasisLZ: Basis Universal ETC1S) "
                                     "is not supported%s",
                                     hint)};
        return Error{ErrorCode::BasisUniversal,
                     format_text("supercompressionScheme 1 (BasisLZ) with DFD colour model %u "
                                 "(Basis Universal %s) is not supported%s",
                                 dfd.color_model, codec, hint)};
    }
    if ((h.scheme == kSchemeUastcHdr6x6i || h.scheme == kSchemeXuastcLdr) && codec)
        return Error{ErrorCode::BasisUniversal, format_text("supercompressionScheme %u with DFD colour model %u (Basis "
                                                            "Universal %s) is not supported%s",
                                                            h.scheme, dfd.color_model, codec, hint)};
    if (h.vk_format == 0 && codec)
        return Error{ErrorCode::BasisUniversal,
                     format_text("vkFormat 0 with DFD colour model %u (Basis Universal %s) is "
                                 "not supported%s",
                                 dfd.color_model, codec, hint)};
    return std::nullopt;
}

// The DFD colour model(s) a format's data has: KHR_DF_MODEL_BC1A..BC7, ETC2 (ETC1 too for ETC2
// RGB8, whose blocks ETC1 files hold), ASTC (UASTC HDR 4x4 too for ASTC 4x4 SFLOAT: its blocks
// are ASTC HDR blocks).
bool model_fits(uint32_t model, texdec_format f) {
    if (f >= TEXDEC_FORMAT_BC1_RGB_UNORM && f <= TEXDEC_FORMAT_BC1_RGBA_SRGB) return model == kModelBc1a;
    if (f == TEXDEC_FORMAT_BC2_UNORM || f == TEXDEC_FORMAT_BC2_SRGB) return model == kModelBc2;
    if (f == TEXDEC_FORMAT_BC3_UNORM || f == TEXDEC_FORMAT_BC3_SRGB) return model == kModelBc3;
    if (f == TEXDEC_FORMAT_BC4_UNORM || f == TEXDEC_FORMAT_BC4_SNORM) return model == kModelBc4;
    if (f == TEXDEC_FORMAT_BC5_UNORM || f == TEXDEC_FORMAT_BC5_SNORM) return model == kModelBc5;
    if (f == TEXDEC_FORMAT_BC6H_UFLOAT || f == TEXDEC_FORMAT_BC6H_SFLOAT) return model == kModelBc6h;
    if (f == TEXDEC_FORMAT_BC7_UNORM || f == TEXDEC_FORMAT_BC7_SRGB) return model == kModelBc7;
    if (f == TEXDEC_FORMAT_ETC2_R8G8B8_UNORM || f == TEXDEC_FORMAT_ETC2_R8G8B8_SRGB)
        return model == kModelEtc2 || model == kModelEtc1;
    if (f >= TEXDEC_FORMAT_ETC2_R8G8B8A1_UNORM && f <= TEXDEC_FORMAT_EAC_R11G11_SNORM) return model == kModelEtc2;
    if (f == TEXDEC_FORMAT_ASTC_4x4_SFLOAT) return model == kModelAstc || model == kModelUastcHdr4x4;
    return model == kModelAstc;
}

// The channelIds of the samples a DFD of this format has, sorted (Khronos Data Format
// Specification, the KHR_DF_CHANNEL_* of each compressed model; written as KTX-Software's
// createDFDCompressed writes them): BC1 RGB COLOR (0), BC1 RGBA ALPHAPRESENT (1), BC2 and BC3 COLOR
// and ALPHA (0, 15), BC4 DATA (0), BC5 RED and GREEN (0, 1), BC6H and BC7 COLOR (0), ETC1 COLOR (0),
// ETC2 RGB8 COLOR (2), ETC2 RGB8A1 COLOR (2; KTX-Software 4.3 and later add ALPHA, 15), ETC2 RGBA8
// COLOR and ALPHA (2, 15), EAC R11 RED (0), EAC RG11 RED and GREEN (0, 1), ASTC DATA (0).
std::vector<std::vector<uint32_t>> expected_channels(texdec_format f, uint32_t model) {
    if (f == TEXDEC_FORMAT_BC1_RGBA_UNORM || f == TEXDEC_FORMAT_BC1_RGBA_SRGB) return {{1}};
    if (f == TEXDEC_FORMAT_BC2_UNORM || f == TEXDEC_FORMAT_BC2_SRGB || f == TEXDEC_FORMAT_BC3_UNORM ||
        f == TEXDEC_FORMAT_BC3_SRGB)
        return {{0, 15}};
    if (f == TEXDEC_FORMAT_BC5_UNORM || f == TEXDEC_FORMAT_BC5_SNORM || f == TEXDEC_FORMAT_EAC_R11G11_UNORM ||
        f == TEXDEC_FORMAT_EAC_R11G11_SNORM)
        return {{0, 1}};
    if (f == TEXDEC_FORMAT_ETC2_R8G8B8_UNORM || f == TEXDEC_FORMAT_ETC2_R8G8B8_SRGB)
        return {{model == kModelEtc1 ? 0u : 2u}};
    if (f == TEXDEC_FORMAT_ETC2_R8G8B8A1_UNORM || f == TEXDEC_FORMAT_ETC2_R8G8B8A1_SRGB) return {{2}, {2, 15}};
    if (f == TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM || f == TEXDEC_FORMAT_ETC2_R8G8B8A8_SRGB) return {{2, 15}};
    return {{0}};  // BC1 RGB, BC4, BC6H, BC7, EAC R11, ASTC
}

std::string channel_list(const std::vector<uint32_t>& channels) {
    std::string text;
    for (size_t i = 0; i < channels.size(); ++i) text += (i ? ", " : "") + std::to_string(channels[i]);
    return text;
}

// Every field of the basic block checked against vkFormat alike: a disagreement is a warning
// (vkFormat decides), never a refusal.
void check_dfd_matches(const Header& h, const BasicBlock& dfd, const texdec_format_info& info,
                       std::vector<std::string>& problems) {
    if (!model_fits(dfd.color_model, info.format))
        problems.push_back(format_text("the DFD's colorModel is %u, which is not the model of vkFormat %u (%s)",
                                       dfd.color_model, h.vk_format, info.name));
    const bool srgb = info.flags & TEXDEC_FORMAT_FLAG_SRGB;
    if (srgb != (dfd.transfer == kTransferSrgb))
        problems.push_back(format_text("the DFD's transferFunction is %u, but vkFormat %u (%s) is %s", dfd.transfer,
                                       h.vk_format, info.name, srgb ? "sRGB (transfer 2)" : "not sRGB"));
    const uint32_t want[4] = {info.block_width, info.block_height, info.block_depth, 1};
    if (!std::equal(want, want + 4, dfd.block_dimension))
        problems.push_back(format_text("the DFD's texelBlockDimension is %ux%ux%ux%u, but vkFormat %u (%s) has "
                                       "%ux%ux%u blocks", dfd.block_dimension[0], dfd.block_dimension[1],
                                       dfd.block_dimension[2], dfd.block_dimension[3], h.vk_format, info.name,
                                       want[0], want[1], want[2]));
    // Supercompressed files may say 0 ("unsized"), as the spec required until 2025.
    const bool sized_ok = dfd.bytes_plane0 == info.bytes_per_block ||
                          (dfd.bytes_plane0 == 0 && h.scheme != uint32_t(Supercompression::None));
    if (!sized_ok)
        problems.push_back(format_text("the DFD's bytesPlane0 is %u, but a block of %s is %u bytes",
                                       dfd.bytes_plane0, info.name, info.bytes_per_block));
    // The samples: whole 16-byte samples, as many as the format has, with its channels.
    if ((dfd.block_size - kBasicBlockMinSize) % 16)
        problems.push_back(
            format_text("descriptorBlockSize %u of the DFD's basic block is not 24 bytes plus 16 per "
                        "sample",
                        dfd.block_size));
    const std::vector<std::vector<uint32_t>> expected = expected_channels(info.format, dfd.color_model);
    std::vector<uint32_t> got = dfd.channels;
    std::sort(got.begin(), got.end());
    if (std::find(expected.begin(), expected.end(), got) == expected.end()) {
        const std::vector<uint32_t>& want = expected.back();
        if (got.size() != want.size() && (expected.size() == 1 || got.size() != expected[0].size()))
            problems.push_back(format_text("the DFD's basic block has %zu sample(s), but %s data is described by %s%zu",
                                           got.size(), info.name, expected.size() > 1 ? "1 or " : "", want.size()));
        else
            problems.push_back(format_text("the DFD's samples have channelId %s, but %s data has channelId %s%s",
                                           channel_list(dfd.channels).c_str(), info.name,
                                           expected.size() > 1 ? (channel_list(expected[0]) + " or ").c_str() : "",
                                           channel_list(want).c_str()));
    }
}

std::optional<Error> read_layout(const Header& h, Texture& tex) {
    if (h.width == 0) return Error{ErrorCode::InvalidExtent, format_text("pixelWidth is 0")};
    if (h.height == 0)
        return Error{ErrorCode::UnsupportedLayout, format_text("pixelHeight 0 is a 1D texture, which cannot hold "
                                                               "block-compressed data")};
    tex.width = h.width;
    tex.height = h.height;
    tex.is_volume = h.depth > 0;
    tex.depth = tex.is_volume ? h.depth : 1;
    tex.layer_count = h.layer_count;
    tex.faces = h.face_count;
    if (tex.faces != 1 && tex.faces != 6)
        return Error{ErrorCode::UnsupportedLayout,
                     format_text("faceCount is %u; KTX 2 allows 1 or 6 (a cube map)", tex.faces)};
    tex.is_cube = tex.faces == 6;
    if (tex.is_volume && tex.layer_count > 0)
        return Error{ErrorCode::UnsupportedLayout,
                     format_text("3D array textures (pixelDepth %u, layerCount %u) are not "
                                 "supported",
                                 tex.depth, tex.layer_count)};
    if (auto error = container::check_cube_extent(tex.width, tex.height, tex.depth, tex.is_cube, tex.is_volume))
        return error;
    if (tex.layer_count > kMaxLayers)
        return Error{ErrorCode::InvalidExtent, format_text("layerCount %u is absurd", tex.layer_count)};
    tex.layers = std::max(1u, tex.layer_count) * tex.faces;
    tex.mip_levels = std::max(1u, h.level_count);
    return container::check_mip_count("levelCount", tex.mip_levels, tex.width, tex.height, tex.depth);
}

std::optional<Error> read_levels(std::span<const uint8_t> file, size_t index_end, const texdec_format_info& info,
                                 Texture& tex) {
    const uint64_t alignment = std::lcm(uint64_t(info.bytes_per_block), uint64_t(4));
    const bool plain = tex.supercompression == Supercompression::None;
    tex.levels.reserve(tex.mip_levels);
    for (uint32_t l = 0; l < tex.mip_levels; ++l) {
        Level level{};
        level.width = std::max(1u, tex.width >> l);
        level.height = std::max(1u, tex.height >> l);
        level.depth = std::max(1u, tex.depth >> l);
        const size_t entry = ktx2::kHeaderSize + size_t(l) * kLevelIndexEntrySize;
        level.byte_offset = read_u64(file, entry);
        level.byte_length = read_u64(file, entry + 8);
        level.uncompressed_byte_length = read_u64(file, entry + 16);
        // Each side <= 2^20 texels: the image fits easily; times the layers it might not.
        level.image_bytes = div_round_up(level.width, info.block_width) * div_round_up(level.height, info.block_height) *
                            div_round_up(level.depth, info.block_depth) * info.bytes_per_block;
        uint64_t level_bytes = 0;
        if (texdec::portable::mul_overflow(level.image_bytes, uint64_t(tex.layers), &level_bytes) ||
            level_bytes > SIZE_MAX)
            return Error{ErrorCode::InvalidExtent,
                         format_text("mip level %u of %u layer(s) describes more bytes than fit in "
                                     "memory",
                                     l, tex.layers)};
        if (level.uncompressed_byte_length != level_bytes)
            return Error{ErrorCode::BadLevelIndex,
                         format_text("uncompressedByteLength of mip level %u is %llu, but %ux%ux%u "
                                     "x %u layer(s)/face(s) of %s needs %llu bytes",
                                     l, (unsigned long long)level.uncompressed_byte_length, level.width, level.height,
                                     level.depth, tex.layers, info.name, (unsigned long long)level_bytes)};
        if (plain && level.byte_length != level_bytes)
            return Error{ErrorCode::BadLevelIndex,
                         format_text("byteLength of mip level %u is %llu; without supercompression "
                                     "it must equal uncompressedByteLength (%llu)",
                                     l, (unsigned long long)level.byte_length, (unsigned long long)level_bytes)};
        if (!plain && level.byte_length == 0)
            return Error{ErrorCode::BadLevelIndex, format_text("byteLength of mip level %u is 0", l)};
        if (level.byte_offset < index_end)
            return Error{ErrorCode::BadLevelIndex,
                         format_text("byteOffset %llu of mip level %u points into the header or "
                                     "the level index (which end at %zu)",
                                     (unsigned long long)level.byte_offset, l, index_end)};
        if (plain && level.byte_offset % alignment)
            return Error{ErrorCode::BadLevelIndex,
                         format_text("byteOffset %llu of mip level %u is not a multiple of %llu "
                                     "(lcm of the %u-byte block and 4)",
                                     (unsigned long long)level.byte_offset, l, (unsigned long long)alignment,
                                     info.bytes_per_block)};
        if (!in_file(level.byte_offset, level.byte_length, file.size()))
            return Error{ErrorCode::Truncated,
                         format_text("data is truncated: mip level %u is %llu bytes at offset %llu, "
                                     "the file is %zu bytes",
                                     l, (unsigned long long)level.byte_length, (unsigned long long)level.byte_offset,
                                     file.size())};
        tex.levels.push_back(level);
    }
    return std::nullopt;
}

}  // namespace

bool has_magic(std::span<const uint8_t> file) {
    return file.size() >= kIdentifierSize && std::equal(kIdentifier, kIdentifier + kIdentifierSize, file.begin());
}

ParseResult parse(std::span<const uint8_t> file) {
    if (file.size() < kHeaderSize)
        return Error{ErrorCode::TooSmall,
                     format_text("file is %zu bytes, shorter than the 80-byte KTX 2 header", file.size())};
    if (!has_magic(file))
        return Error{ErrorCode::BadMagic, format_text("not a KTX 2.0 file (no \"\\xABKTX 20\\xBB\" identifier)")};
    const Header h = read_header(file);
    if (h.level_count > 32)  // a level per bit of the largest side at most; checked again below
        return Error{ErrorCode::InvalidExtent, format_text("levelCount %u is absurd", h.level_count)};
    Texture tex{};
    if (auto error = read_layout(h, tex)) return *error;
    const size_t index_end = kHeaderSize + size_t(tex.mip_levels) * kLevelIndexEntrySize;
    if (file.size() < index_end)
        return Error{ErrorCode::TooSmall,
                     format_text("file is %zu bytes, shorter than the header and the level index of "
                                 "%u level(s) (%zu bytes)",
                                 file.size(), tex.mip_levels, index_end)};
    // The DFD: read as far as it can be, for the Basis Universal refusal and the warnings below.
    std::vector<std::string> dfd_problems;
    const BasicBlock dfd = read_dfd(file, h, index_end, dfd_problems);
    if (auto error = refuse_basis(h, dfd)) return *error;
    if (h.scheme > uint32_t(Supercompression::Zlib))
        return Error{ErrorCode::UnsupportedSupercompression,
                     format_text("unknown supercompressionScheme %u (supported: 0 "
                                 "none, 2 Zstandard, 3 zlib)",
                                 h.scheme)};

    tex.vk_format = h.vk_format;
    // VkFormat's enumerators end at VK_FORMAT_MAX_ENUM (0x7FFFFFFF): a larger number is no VkFormat,
    // and converting it to one is undefined behaviour (found by tests/fuzz/fuzz_ktx2).
    tex.format = h.vk_format <= 0x7FFFFFFFu ? texdec_format_from_vk(VkFormat(h.vk_format)) : TEXDEC_FORMAT_UNDEFINED;
    texdec_format_info info{};
    if (tex.format == TEXDEC_FORMAT_UNDEFINED || texdec_format_get_info(tex.format, &info) != TEXDEC_SUCCESS) {
        const format_names::Found name = format_names::find(format_names::Scheme::VkFormat, h.vk_format);
        if (name.found())
            return Error{ErrorCode::UnknownFormat, format_text("vkFormat %u (%s) is %s", h.vk_format, name.name.c_str(),
                                                               format_names::why_not(name.kind))};
        return Error{ErrorCode::UnknownFormat,
                     format_text("unknown vkFormat %u (known: the BC1-BC7, ETC2/EAC and ASTC "
                                 "block-compressed formats, incl. ASTC SFLOAT and the ASTC 3D _EXT formats)",
                                 h.vk_format)};
    }
    char name[96];
    std::snprintf(name, sizeof name, "vkFormat %u (%s)", h.vk_format, info.name);
    tex.container_format = name;
    if (h.type_size != 1)
        return Error{ErrorCode::BadTypeSize,
                     format_text("typeSize is %u; block-compressed formats have 1", h.type_size)};
    if (dfd.read) check_dfd_matches(h, dfd, info, dfd_problems);
    for (const std::string& problem : dfd_problems)
        tex.warnings.push_back(problem + " (decoded as vkFormat " + std::to_string(h.vk_format) + " says: " +
                               info.name + ")");
    tex.supercompression = Supercompression(h.scheme);

    if (h.kvd_length > 0 && (h.kvd_offset < index_end || !in_file(h.kvd_offset, h.kvd_length, file.size())))
        return Error{ErrorCode::BadIndex,
                     format_text("the key/value data (kvdByteOffset %u, kvdByteLength %u) is not "
                                 "between the level index (ends at %zu) and the end of the file (%zu bytes)",
                                 h.kvd_offset, h.kvd_length, index_end, file.size())};
    tex.key_value_bytes = h.kvd_length;
    tex.key_value_offset = h.kvd_length ? h.kvd_offset : 0;
    if (h.sgd_length > 0 && (h.sgd_offset < index_end || !in_file(h.sgd_offset, h.sgd_length, file.size())))
        return Error{
            ErrorCode::BadIndex,
            format_text("the supercompression global data (sgdByteOffset %llu, sgdByteLength "
                        "%llu) is not between the level index (ends at %zu) and the end of the file (%zu bytes)",
                        (unsigned long long)h.sgd_offset, (unsigned long long)h.sgd_length, index_end, file.size())};
    if (auto error = read_levels(file, index_end, info, tex)) return *error;
    return tex;
}

namespace {

// Before a supercompressed level is inflated (into memory sized from uncompressedByteLength, which
// a 200-byte file could set to gigabytes): can the stream inflate to that many bytes? (Seen in
// review; fuzz_ktx2's malloc limit reports it.)
std::optional<Error> check_stream(std::span<const uint8_t> stored, const Texture& tex, uint32_t level, size_t size) {
    if (tex.supercompression == Supercompression::Zstandard) {
#if !TEXDEC_IO_ZSTD  // a build without libzstd (the Windows cross-build: Debian has no mingw libzstd)
        (void)stored;
        (void)size;
        return Error{ErrorCode::UnsupportedSupercompression,
                     format_text("mip level %u is Zstandard-supercompressed: this build has no Zstandard "
                                 "(libzstd)",
                                 level)};
#else
        const unsigned long long declared = ZSTD_getFrameContentSize(stored.data(), stored.size());
        if (declared == ZSTD_CONTENTSIZE_ERROR)
            return Error{ErrorCode::BadSupercompressedData,
                         format_text("mip level %u is not a Zstandard frame", level)};
        if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != size)
            return Error{ErrorCode::BadSupercompressedData,
                         format_text("the Zstandard frame of mip level %u holds %llu "
                                     "bytes; uncompressedByteLength is %zu",
                                     level, declared, size)};
        // Walks every frame's block headers: the most the stream can hold (exact when sizes are declared).
        const unsigned long long bound = ZSTD_decompressBound(stored.data(), stored.size());
        if (bound == ZSTD_CONTENTSIZE_ERROR)
            return Error{ErrorCode::BadSupercompressedData,
                         format_text("mip level %u: Zstandard data is corrupt (its frames "
                                     "do not parse)",
                                     level)};
        if (bound < size)
            return Error{ErrorCode::BadSupercompressedData,
                         format_text("mip level %u: its %zu bytes of Zstandard data hold "
                                     "at most %llu bytes; uncompressedByteLength is %zu",
                                     level, stored.size(), bound, size)};
#endif
    } else if (size / 1032 > stored.size()) {
        // Deflate cannot exceed 1032:1 (zlib's "Technical Details": a 258-byte match in 2 bits).
        return Error{ErrorCode::BadSupercompressedData,
                     format_text("mip level %u: %zu bytes of zlib data cannot inflate to "
                                 "uncompressedByteLength %zu (deflate expands at most 1032 times)",
                                 level, stored.size(), size)};
    }
    return std::nullopt;
}

// Inflates the checked stream into exactly `size` bytes at `dst`.
std::optional<Error> inflate(std::span<const uint8_t> stored, const Texture& tex, uint32_t level, uint8_t* dst,
                             size_t size) {
    if (tex.supercompression == Supercompression::Zstandard) {
#if TEXDEC_IO_ZSTD
        const size_t got = ZSTD_decompress(dst, size, stored.data(), stored.size());
        if (ZSTD_isError(got))
            return Error{ErrorCode::BadSupercompressedData,
                         format_text("mip level %u: Zstandard data is corrupt (%s)", level, ZSTD_getErrorName(got))};
        if (got != size)
            return Error{ErrorCode::BadSupercompressedData, format_text("mip level %u inflates to %zu bytes; "
                                                                        "uncompressedByteLength is %zu",
                                                                        level, got, size)};
#else
        (void)stored;
        (void)dst;
        return Error{ErrorCode::UnsupportedSupercompression,
                     format_text("mip level %u is Zstandard-supercompressed: this build has no Zstandard "
                                 "(libzstd)",
                                 level)};
#endif
    } else {
        uLongf got = uLongf(size);
        const int status = uncompress(dst, &got, stored.data(), uLong(stored.size()));
        if (status != Z_OK)
            return Error{ErrorCode::BadSupercompressedData,
                         format_text("mip level %u: zlib data is corrupt or inflates to "
                                     "more than uncompressedByteLength (%zu bytes): %s",
                                     level, size, zError(status))};
        if (got != size)
            return Error{ErrorCode::BadSupercompressedData, format_text("mip level %u inflates to %lu bytes; "
                                                                        "uncompressedByteLength is %zu",
                                                                        level, (unsigned long)got, size)};
    }
    return std::nullopt;
}

}  // namespace

LevelResult level_data(std::span<const uint8_t> file, const Texture& tex, uint32_t level,
                       std::vector<uint8_t>& storage) {
    const Level& l = tex.levels.at(level);
    // parse() checked that the range is inside the file and that the sizes fit in size_t.
    const std::span<const uint8_t> stored = file.subspan(size_t(l.byte_offset), size_t(l.byte_length));
    if (tex.supercompression == Supercompression::None) return stored;
    const size_t size = size_t(l.uncompressed_byte_length);
    if (auto error = check_stream(stored, tex, level, size)) return *error;
    try {
        storage.resize(size);
    } catch (const std::bad_alloc&) {
        return Error{ErrorCode::InvalidExtent,
                     format_text("mip level %u inflates to %zu bytes: out of memory", level, size)};
    }
    if (auto error = inflate(stored, tex, level, storage.data(), size)) return *error;
    return std::span<const uint8_t>(storage.data(), size);
}

std::optional<Error> read_level(std::span<const uint8_t> file, const Texture& tex, uint32_t level,
                                std::span<uint8_t> dst) {
    const Level& l = tex.levels.at(level);
    const std::span<const uint8_t> stored = file.subspan(size_t(l.byte_offset), size_t(l.byte_length));
    const size_t size = size_t(l.uncompressed_byte_length);
    if (dst.size() < size)
        return Error{ErrorCode::InvalidExtent,
                     format_text("mip level %u needs %zu bytes; the destination has %zu", level, size, dst.size())};
    if (tex.supercompression == Supercompression::None) {
        std::copy(stored.begin(), stored.end(), dst.begin());
        return std::nullopt;
    }
    if (auto error = check_stream(stored, tex, level, size)) return error;
    return inflate(stored, tex, level, dst.data(), size);
}

const char* supercompression_name(uint32_t scheme) {
    switch (scheme) {
    case 0: return "none";
    case 1: return "BasisLZ";
    case 2: return "Zstandard";
    case 3: return "zlib";
    }
    return "unknown";
}

}  // namespace ktx2

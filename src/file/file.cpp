// libtexdec_file: open, queries, reads and format mappings (texdec_file.h items 1; the jobs are
// file_jobs.cpp's). Built over the container parsers of src/io, which keep their checks and
// messages; what is added here is the public shape: statuses and problem codes, per-level data
// from which every surface's range is computed (nothing per surface is stored: the DDS and KTX 1
// parsers' parse_levels keep O(mip levels)), the key-value entries, facts and orientation, and
// inflation of KTX 2 levels into the caller's memory.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include <texdec/texdec_file.h>

#include "astc_file.h"
#include "container.h"
#include "dds.h"
#include "file_internal.h"
#include "format_text.h"
#include "ktx.h"
#include "ktx2.h"
#include "pkm.h"
#include "platform.h"

using texdec_io::format_text;

namespace {

// One mip level: its extent and where its surfaces are. A surface (layer, face) is
// s = layer * faces + face; its blocks are at file_offset + s * surface_stride (DDS: data_offset
// + s * layer_bytes + offset in the layer, folded in the same two numbers), or, supercompressed, at
// s * surface_bytes in the inflated level.
struct Level {
    uint32_t width, height, depth;
    uint64_t surface_bytes;   // blocks of one surface
    uint64_t slice_bytes;     // blocks of one block slice
    uint64_t file_offset;     // surface 0 of the level (in the file; 0 when supercompressed)
    uint64_t surface_stride;  // from surface s to s + 1 in the file (or in the inflated level)
    uint64_t packed_offset;   // the level in the packed layout (a multiple of 16)
    uint64_t packed_size;     // surfaces * surface_bytes
};

struct Entry {
    const char* key;
    const uint8_t* value;
    uint32_t value_size;
};

}  // namespace

struct texdec_file {
    std::span<const uint8_t> bytes;
    std::vector<uint8_t> copy;            // TEXDEC_FILE_OPEN_COPY
    std::shared_ptr<const void> mapping;  // texdec_file_open_path
    texdec_message_callback callback = nullptr;
    void* user_data = nullptr;
    texdec_file_info info{};
    std::string header_text;
    texdec_format_info format{};
    std::vector<Level> levels;
    std::vector<uint32_t> file_order;   // levels in the order the file stores them (KTX 2)
    std::optional<ktx2::Texture> ktx2;  // for read_level's inflation
    std::vector<Entry> entries;
};

namespace texdec_file_internal {

std::span<const uint8_t> file_bytes(const texdec_file* file) { return file->bytes; }

void report(const texdec_file* file, texdec_message_severity severity, const char* message) {
    if (file && file->callback) file->callback(severity, message, file->user_data);
}

}  // namespace texdec_file_internal

namespace {

using texdec_file_internal::report;

constexpr uint64_t kLevelAlignment = 16;

// The status and problem of a parser's refusal (container::ErrorCode).
struct Refusal {
    texdec_status status;
    texdec_file_problem problem;
};

Refusal refusal(container::ErrorCode code) {
    using C = container::ErrorCode;
    switch (code) {
    case C::TooSmall: return {TEXDEC_ERROR_MALFORMED_FILE, TEXDEC_FILE_PROBLEM_TOO_SMALL};
    case C::BadMagic: return {TEXDEC_ERROR_UNSUPPORTED_FILE, TEXDEC_FILE_PROBLEM_UNKNOWN_CONTAINER};
    case C::BadHeader: return {TEXDEC_ERROR_MALFORMED_FILE, TEXDEC_FILE_PROBLEM_BAD_HEADER};
    case C::BadVersion: return {TEXDEC_ERROR_MALFORMED_FILE, TEXDEC_FILE_PROBLEM_BAD_VERSION};
    case C::BadEndianness: return {TEXDEC_ERROR_MALFORMED_FILE, TEXDEC_FILE_PROBLEM_BAD_ENDIANNESS};
    case C::NotCompressed: return {TEXDEC_ERROR_UNSUPPORTED_FILE, TEXDEC_FILE_PROBLEM_NOT_COMPRESSED};
    case C::UnknownFootprint: return {TEXDEC_ERROR_MALFORMED_FILE, TEXDEC_FILE_PROBLEM_UNKNOWN_FOOTPRINT};
    case C::UnknownFourCC: return {TEXDEC_ERROR_UNSUPPORTED_FILE, TEXDEC_FILE_PROBLEM_UNKNOWN_FOURCC};
    case C::UnknownDxgiFormat: return {TEXDEC_ERROR_UNSUPPORTED_FILE, TEXDEC_FILE_PROBLEM_UNKNOWN_DXGI_FORMAT};
    case C::UnknownInternalFormat:
        return {TEXDEC_ERROR_UNSUPPORTED_FILE, TEXDEC_FILE_PROBLEM_UNKNOWN_GL_INTERNAL_FORMAT};
    case C::UnknownFormat: return {TEXDEC_ERROR_UNSUPPORTED_FILE, TEXDEC_FILE_PROBLEM_UNKNOWN_FORMAT};
    case C::UnsupportedLayout: return {TEXDEC_ERROR_UNSUPPORTED_FILE, TEXDEC_FILE_PROBLEM_UNSUPPORTED_LAYOUT};
    case C::InvalidExtent: return {TEXDEC_ERROR_MALFORMED_FILE, TEXDEC_FILE_PROBLEM_INVALID_EXTENT};
    case C::SizeOverflow: return {TEXDEC_ERROR_MALFORMED_FILE, TEXDEC_FILE_PROBLEM_SIZE_OVERFLOW};
    case C::BadImageSize: return {TEXDEC_ERROR_MALFORMED_FILE, TEXDEC_FILE_PROBLEM_BAD_IMAGE_SIZE};
    case C::BasisUniversal: return {TEXDEC_ERROR_BASIS_UNIVERSAL, TEXDEC_FILE_PROBLEM_BASIS_UNIVERSAL};
    case C::UnsupportedSupercompression:
        return {TEXDEC_ERROR_UNSUPPORTED_FILE, TEXDEC_FILE_PROBLEM_UNSUPPORTED_SUPERCOMPRESSION};
    case C::BadTypeSize: return {TEXDEC_ERROR_MALFORMED_FILE, TEXDEC_FILE_PROBLEM_BAD_TYPE_SIZE};
    case C::BadIndex: return {TEXDEC_ERROR_MALFORMED_FILE, TEXDEC_FILE_PROBLEM_BAD_INDEX};
    case C::BadLevelIndex: return {TEXDEC_ERROR_MALFORMED_FILE, TEXDEC_FILE_PROBLEM_BAD_LEVEL_INDEX};
    case C::Truncated: return {TEXDEC_ERROR_MALFORMED_FILE, TEXDEC_FILE_PROBLEM_TRUNCATED};
    case C::BadSupercompressedData: return {TEXDEC_ERROR_MALFORMED_FILE, TEXDEC_FILE_PROBLEM_BAD_SUPERCOMPRESSED_DATA};
    // The parse_levels parsers keep no surface table: never answered; a size if it were.
    case C::TableTooLarge: return {TEXDEC_ERROR_MALFORMED_FILE, TEXDEC_FILE_PROBLEM_SIZE_OVERFLOW};
    }
    return {TEXDEC_ERROR_MALFORMED_FILE, TEXDEC_FILE_PROBLEM_BAD_HEADER};
}

// What texdec_file_open is building, and where its failure goes.
struct Opening {
    const texdec_file_open_info* info;
    texdec_file* file;

    void message(texdec_message_severity severity, const std::string& text) const {
        if (info && info->message_callback) info->message_callback(severity, text.c_str(), info->user_data);
    }
    texdec_status fail(texdec_status status, texdec_file_problem problem, const std::string& text) const {
        if (info && info->problem) *info->problem = problem;
        message(TEXDEC_MESSAGE_ERROR, text);
        return status;
    }
    texdec_status fail(const container::Error& error, const char* container) const {
        const Refusal r = refusal(error.code);
        return fail(r.status, r.problem, std::string(container) + ": " + error.message);
    }
};

uint64_t div_round_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Fills the per-level sizes from the extent (surface and slice bytes) of a level the parser placed.
Level make_level(const texdec_format_info& format, uint32_t w, uint32_t h, uint32_t d) {
    Level level{};
    level.width = w;
    level.height = h;
    level.depth = d;
    // No overflow: KTX, KTX 2 and DDS sides are <= 2^20 (the parsers' kMaxDimension); PKM's are
    // 16-bit; .astc sides reach 2^24, but its parser checked that the whole surface's bytes (this
    // product times the block slices) fit 64 bits and the file.
    level.slice_bytes =
        div_round_up(w, format.block_width) * div_round_up(h, format.block_height) * format.bytes_per_block;
    level.surface_bytes = level.slice_bytes * div_round_up(d, format.block_depth);
    return level;
}

// ---- key-value data (KTX 1.1 and KTX 2.0 "keyAndValueData") -------------------------------------
//
// Both specifications: a sequence of { UInt32 keyAndValueByteSize; Byte keyAndValue[size];
// valuePadding to a multiple of 4 }; keyAndValue is a NUL-terminated UTF-8 key followed by the value
// (KTX 1: the size field in the file's byte order). An entry that cannot be read ends the list with
// a warning; the blocks are unaffected.
void read_key_values(Opening& o, std::span<const uint8_t> kvd, bool big_endian) {
    texdec_file& file = *o.file;
    size_t at = 0;
    while (at < kvd.size()) {
        if (kvd.size() - at < 4) {
            o.message(TEXDEC_MESSAGE_WARNING,
                      format_text("key-value data: %zu byte(s) at offset %zu are too few for a keyAndValueByteSize",
                                  kvd.size() - at, at));
            file.info.facts |= TEXDEC_FILE_FACT_KEY_VALUE_DAMAGED;
            return;
        }
        uint32_t size =
            uint32_t(kvd[at]) | uint32_t(kvd[at + 1]) << 8 | uint32_t(kvd[at + 2]) << 16 | uint32_t(kvd[at + 3]) << 24;
        if (big_endian) size = (size >> 24) | ((size >> 8) & 0xFF00u) | ((size << 8) & 0xFF0000u) | (size << 24);
        at += 4;
        if (size > kvd.size() - at) {
            o.message(TEXDEC_MESSAGE_WARNING,
                      format_text("key-value data: keyAndValueByteSize %u at offset %zu runs past its end (%zu bytes)",
                                  size, at - 4, kvd.size()));
            file.info.facts |= TEXDEC_FILE_FACT_KEY_VALUE_DAMAGED;
            return;
        }
        const uint8_t* entry = kvd.data() + at;
        const void* nul = std::memchr(entry, 0, size);
        if (!nul) {
            o.message(TEXDEC_MESSAGE_WARNING,
                      format_text("key-value data: the key of the entry at offset %zu (keyAndValueByteSize %u) has "
                                  "no NUL terminator",
                                  at - 4, size));
            file.info.facts |= TEXDEC_FILE_FACT_KEY_VALUE_DAMAGED;
            return;
        }
        const size_t key_bytes = size_t(static_cast<const uint8_t*>(nul) - entry) + 1;
        file.entries.push_back(
            Entry{reinterpret_cast<const char*>(entry), entry + key_bytes, uint32_t(size - key_bytes)});
        at += size;
        const size_t padding = (4 - size % 4) % 4;  // valuePadding (the last one may be cut by the end)
        at += std::min(padding, kvd.size() - at);
    }
}

// KTXorientation: KTX 2 "rd", "rdi" (letters per axis); KTX 1 "S=r,T=d" or "S=r,T=d,R=i".
void read_orientation(Opening& o) {
    texdec_file& file = *o.file;
    for (const Entry& e : file.entries) {
        if (std::strcmp(e.key, "KTXorientation") != 0) continue;
        std::string value(reinterpret_cast<const char*>(e.value), e.value_size);
        value = value.substr(0, value.find('\0'));
        std::string letters;
        if (value.find('=') != std::string::npos) {
            for (size_t i = 0; i < value.size(); ++i)
                if (value[i] == '=' && i + 1 < value.size()) letters += value[i + 1];
        } else {
            letters = value;
        }
        uint32_t bits = 0;
        bool ok = !letters.empty() && letters.size() <= 3;
        static const char kPlain[] = "rdi", kFlipped[] = "luo";
        for (size_t axis = 0; ok && axis < letters.size(); ++axis) {
            if (letters[axis] == kFlipped[axis]) bits |= 1u << axis;
            else if (letters[axis] != kPlain[axis]) ok = false;
        }
        if (!ok) {
            o.message(TEXDEC_MESSAGE_WARNING,
                      "KTXorientation '" + value + "' is not a KTX orientation (r or l, d or u, i or o): ignored");
            return;
        }
        file.info.orientation = bits;
        file.info.facts |= TEXDEC_FILE_FACT_ORIENTATION_STATED;
        return;
    }
}

// ---- the containers -----------------------------------------------------------------------------

// What KTX 2, KTX 1 and DDS name alike: the format, the header's number and text, the extent of
// level 0 and the level count.
template <class Parsed>
void take_header(texdec_file& file, texdec_file_container container, const Parsed& tex, uint32_t header_format) {
    texdec_file_info& info = file.info;
    info.container = container;
    info.format = tex.format;
    info.header_format = header_format;
    file.header_text = tex.container_format;
    info.width = tex.width;
    info.height = tex.height;
    info.depth = tex.depth;
    info.levels = tex.mip_levels;
    texdec_format_get_info(tex.format, &file.format);
}

texdec_status open_ktx2(Opening& o) {
    texdec_file& file = *o.file;
    auto parsed = ktx2::parse(file.bytes);
    if (const auto* error = std::get_if<ktx2::Error>(&parsed)) return o.fail(*error, "KTX 2");
    ktx2::Texture& tex = std::get<ktx2::Texture>(parsed);
#if !TEXDEC_IO_ZSTD
    if (tex.supercompression == ktx2::Supercompression::Zstandard)
        return o.fail(TEXDEC_ERROR_UNSUPPORTED_FILE, TEXDEC_FILE_PROBLEM_UNSUPPORTED_SUPERCOMPRESSION,
                      "KTX 2: supercompressionScheme 2 (Zstandard): this build of libtexdec_file has no Zstandard "
                      "(libzstd)");
#endif
    take_header(file, TEXDEC_FILE_CONTAINER_KTX2, tex, tex.vk_format);
    texdec_file_info& info = file.info;
    info.supercompression = texdec_file_supercompression(tex.supercompression);
    info.faces = tex.faces;
    info.layers = tex.layers / tex.faces;
    if (tex.layer_count > 0) info.layout_flags |= TEXDEC_FILE_ARRAY;
    if (tex.is_cube) info.layout_flags |= TEXDEC_FILE_CUBE;
    if (tex.is_volume) info.layout_flags |= TEXDEC_FILE_VOLUME;
    if (!tex.warnings.empty()) info.facts |= TEXDEC_FILE_FACT_DFD_DISAGREES;
    for (const std::string& warning : tex.warnings) o.message(TEXDEC_MESSAGE_WARNING, "KTX 2: " + warning);
    const bool plain = tex.supercompression == ktx2::Supercompression::None;
    uint64_t end = 0;  // of the last level's data: what follows is trailing (the spec puts levels last)
    for (uint32_t l = 0; l < tex.mip_levels; ++l) {
        const ktx2::Level& src = tex.levels[l];
        Level level = make_level(file.format, src.width, src.height, src.depth);
        level.file_offset = plain ? src.byte_offset : 0;
        level.surface_stride = level.surface_bytes;
        file.levels.push_back(level);
        end = std::max(end, src.byte_offset + src.byte_length);
        file.file_order.push_back(l);
    }
    std::stable_sort(file.file_order.begin(), file.file_order.end(),
                     [&](uint32_t a, uint32_t b) { return tex.levels[a].byte_offset < tex.levels[b].byte_offset; });
    info.trailing_bytes = file.bytes.size() - end;
    if (tex.key_value_bytes)
        read_key_values(o, file.bytes.subspan(size_t(tex.key_value_offset), size_t(tex.key_value_bytes)), false);
    file.ktx2 = std::move(tex);
    return TEXDEC_SUCCESS;
}

texdec_status open_ktx(Opening& o) {
    texdec_file& file = *o.file;
    auto parsed = ktx::parse_levels(file.bytes);
    if (const auto* error = std::get_if<ktx::Error>(&parsed)) return o.fail(*error, "KTX 1.1");
    const ktx::Texture& tex = std::get<ktx::Texture>(parsed);
    take_header(file, TEXDEC_FILE_CONTAINER_KTX, tex, tex.gl_internal_format);
    texdec_file_info& info = file.info;
    info.faces = tex.faces;
    info.layers = tex.layers / tex.faces;
    if (tex.array_elements > 0) info.layout_flags |= TEXDEC_FILE_ARRAY;
    if (tex.is_cube) info.layout_flags |= TEXDEC_FILE_CUBE;
    if (tex.is_volume) info.layout_flags |= TEXDEC_FILE_VOLUME;
    info.trailing_bytes = tex.trailing_bytes;
    for (const ktx::Level& src : tex.levels) {
        Level level = make_level(file.format, src.width, src.height, src.depth);
        level.file_offset = src.offset;
        level.surface_stride = src.face_stride;
        file.levels.push_back(level);
    }
    if (tex.key_value_bytes)
        read_key_values(o, file.bytes.subspan(ktx::kHeaderSize, tex.key_value_bytes), tex.big_endian);
    return TEXDEC_SUCCESS;
}

texdec_status open_dds(Opening& o) {
    texdec_file& file = *o.file;
    auto parsed = dds::parse_levels(file.bytes);
    if (const auto* error = std::get_if<dds::Error>(&parsed)) return o.fail(*error, "DDS");
    const dds::Texture& tex = std::get<dds::Texture>(parsed);
    take_header(file, TEXDEC_FILE_CONTAINER_DDS, tex, tex.header_code);
    texdec_file_info& info = file.info;
    info.faces = tex.is_cube ? 6 : 1;
    info.layers = tex.layers / info.faces;
    if (info.layers > 1) info.layout_flags |= TEXDEC_FILE_ARRAY;
    if (tex.is_cube) info.layout_flags |= TEXDEC_FILE_CUBE;
    if (tex.is_volume) info.layout_flags |= TEXDEC_FILE_VOLUME;
    if (tex.swap_red_alpha) info.facts |= TEXDEC_FILE_FACT_SWAP_RED_ALPHA;
    if (tex.premultiplied_alpha) info.facts |= TEXDEC_FILE_FACT_PREMULTIPLIED_ALPHA;
    info.trailing_bytes = tex.trailing_bytes;
    for (const dds::Level& src : tex.levels) {
        Level level = make_level(file.format, src.width, src.height, src.depth);
        level.file_offset = tex.data_offset + src.offset_in_layer;
        level.surface_stride = tex.layer_bytes;
        file.levels.push_back(level);
    }
    return TEXDEC_SUCCESS;
}

// PKM and .astc: one surface.
void single_surface(texdec_file& file, uint32_t w, uint32_t h, uint32_t d, size_t offset, size_t trailing) {
    texdec_format_get_info(file.info.format, &file.format);
    Level level = make_level(file.format, w, h, d);
    level.file_offset = offset;
    level.surface_stride = level.surface_bytes;
    file.levels.push_back(level);
    file.info.width = w;
    file.info.height = h;
    file.info.depth = d;
    file.info.levels = 1;
    file.info.layers = 1;
    file.info.faces = 1;
    file.info.trailing_bytes = trailing;
}

texdec_status open_pkm(Opening& o) {
    texdec_file& file = *o.file;
    auto parsed = pkm::parse(file.bytes);
    if (const auto* error = std::get_if<pkm::Error>(&parsed)) return o.fail(*error, "PKM");
    const pkm::Texture& tex = std::get<pkm::Texture>(parsed);
    file.info.container = TEXDEC_FILE_CONTAINER_PKM;
    file.info.format = tex.format;
    file.info.header_format = tex.format_code;
    file.header_text = tex.container_format;
    single_surface(file, tex.width, tex.height, 1, tex.data_offset, tex.trailing_bytes);
    return TEXDEC_SUCCESS;
}

const char* profile_text(texdec_astc_profile profile) {
    return profile == TEXDEC_ASTC_PROFILE_SRGB ? "srgb" : profile == TEXDEC_ASTC_PROFILE_HDR ? "hdr" : "ldr";
}

texdec_status open_astc(Opening& o, texdec_astc_profile profile) {
    texdec_file& file = *o.file;
    auto parsed = astc_file::parse(file.bytes);
    if (const auto* error = std::get_if<astc_file::Error>(&parsed)) return o.fail(*error, ".astc");
    const astc_file::Texture& tex = std::get<astc_file::Texture>(parsed);
    file.info.container = TEXDEC_FILE_CONTAINER_ASTC;
    file.info.format = profile == TEXDEC_ASTC_PROFILE_SRGB  ? tex.srgb
                       : profile == TEXDEC_ASTC_PROFILE_HDR ? tex.sfloat
                                                            : tex.unorm;
    // The file names no profile: DEFAULT and LDR both read it as astc-*-unorm, so only SRGB and HDR
    // choose another format than the file would open as.
    if (profile == TEXDEC_ASTC_PROFILE_SRGB || profile == TEXDEC_ASTC_PROFILE_HDR)
        file.info.facts |= TEXDEC_FILE_FACT_PROFILE_CHOSEN;
    file.header_text =
        format_text("footprint %ux%u%s, profile %s%s", unsigned(tex.block_x), unsigned(tex.block_y),
                    tex.block_z > 1 ? format_text("x%u", unsigned(tex.block_z)).c_str() : "", profile_text(profile),
                    profile == TEXDEC_ASTC_PROFILE_DEFAULT ? " (default; the file cannot say)" : "");
    single_surface(file, tex.width, tex.height, tex.depth, tex.data_offset, tex.trailing_bytes);
    if (tex.depth > 1) file.info.layout_flags |= TEXDEC_FILE_VOLUME;
    return TEXDEC_SUCCESS;
}

// The ASTC format of `format`'s footprint for `profile` (the format itself when not ASTC).
texdec_format astc_twin(texdec_format format, texdec_astc_profile profile) {
    uint32_t x = 0, y = 0, z = 0;
    texdec_astc_profile own{};
    if (texdec_format_to_astc_footprint(format, &x, &y, &z, &own) != TEXDEC_SUCCESS) return format;
    return texdec_format_from_astc_footprint(x, y, z, profile);
}

// astc_profile on a container that names its format; then the facts of colour space and range.
void apply_profile_and_facts(Opening& o, texdec_astc_profile profile) {
    texdec_file& file = *o.file;
    texdec_file_info& info = file.info;
    const bool astc = file.format.family == TEXDEC_FAMILY_ASTC;
    if (info.container != TEXDEC_FILE_CONTAINER_ASTC && profile != TEXDEC_ASTC_PROFILE_DEFAULT) {
        if (!astc) {
            o.message(TEXDEC_MESSAGE_INFO, std::string("astc_profile ") + profile_text(profile) +
                                               " ignored: the file holds " + file.format.name + ", not ASTC");
        } else {
            const texdec_format chosen = astc_twin(info.format, profile);
            if (chosen != info.format) {
                texdec_format_info chosen_info{};
                texdec_format_get_info(chosen, &chosen_info);
                o.message(TEXDEC_MESSAGE_INFO, std::string("astc_profile ") + profile_text(profile) +
                                                   " overrides the format its header names (" + file.header_text +
                                                   ", " + file.format.name + "): decoded as " + chosen_info.name);
                info.format = chosen;
                file.format = chosen_info;
                info.facts |= TEXDEC_FILE_FACT_PROFILE_CHOSEN;
            }
        }
    }
    if (info.container != TEXDEC_FILE_CONTAINER_ASTC) info.facts |= TEXDEC_FILE_FACT_COLOR_SPACE_STATED;
    if (!astc || info.container == TEXDEC_FILE_CONTAINER_KTX2) info.facts |= TEXDEC_FILE_FACT_RANGE_STATED;
}

// The packed layout and the counts; false (with the message) if it does not fit 64 bits.
bool finish_layout(Opening& o) {
    texdec_file& file = *o.file;
    texdec_file_info& info = file.info;
    const uint64_t surfaces = uint64_t(info.layers) * info.faces;  // < 2^23 * 6
    uint64_t at = 0;
    for (Level& level : file.levels) {
        level.packed_offset = at;
        if (level.surface_bytes && surfaces > UINT64_MAX / level.surface_bytes) return false;
        level.packed_size = surfaces * level.surface_bytes;
        if (level.packed_size > UINT64_MAX - at) return false;
        at += level.packed_size;
        if (&level != &file.levels.back()) {
            if (at > UINT64_MAX - (kLevelAlignment - 1)) return false;
            at = (at + kLevelAlignment - 1) / kLevelAlignment * kLevelAlignment;
        }
    }
    info.blocks_size = at;
    info.surface_count = surfaces * info.levels;
    info.file_size = file.bytes.size();
    info.vk_format = file.format.vk_format;
    info.header_format_text = file.header_text.c_str();
    info.key_value_count = uint32_t(file.entries.size());
    return true;
}

const char* first_bytes_hex(std::span<const uint8_t> bytes, char (&text)[32]) {
    static const char* hex = "0123456789ABCDEF";
    size_t at = 0;
    for (size_t i = 0; i < std::min<size_t>(bytes.size(), 8); ++i) {
        if (i) text[at++] = ' ';
        text[at++] = hex[bytes[i] >> 4];
        text[at++] = hex[bytes[i] & 15];
    }
    text[at] = 0;
    return text;
}

texdec_status open_parsed(Opening& o) {
    const texdec_file_open_info* info = o.info;
    const texdec_astc_profile profile = info ? info->astc_profile : TEXDEC_ASTC_PROFILE_DEFAULT;
    const std::span<const uint8_t> bytes = o.file->bytes;
    if (bytes.empty())
        return o.fail(TEXDEC_ERROR_MALFORMED_FILE, TEXDEC_FILE_PROBLEM_TOO_SMALL, "the file is empty (0 bytes)");
    texdec_status status;
    if (ktx2::has_magic(bytes)) status = open_ktx2(o);
    else if (ktx::has_magic(bytes)) status = open_ktx(o);
    else if (dds::has_magic(bytes)) status = open_dds(o);
    else if (pkm::has_magic(bytes)) status = open_pkm(o);
    else if (astc_file::has_magic(bytes)) status = open_astc(o, profile);
    else {
        char text[32];
        return o.fail(TEXDEC_ERROR_UNSUPPORTED_FILE, TEXDEC_FILE_PROBLEM_UNKNOWN_CONTAINER,
                      std::string("not a texture file texdec reads: its first bytes (") + first_bytes_hex(bytes, text) +
                          ") are no KTX 2.0 (AB 4B 54 58 20 32 30 BB), KTX 1.1 (AB 4B 54 58 20 31 31 BB), DDS "
                          "(\"DDS \"), PKM (\"PKM \") or .astc (13 AB A1 5C) magic");
    }
    if (status != TEXDEC_SUCCESS) return status;
    apply_profile_and_facts(o, profile);
    read_orientation(o);
    if (!finish_layout(o))
        return o.fail(TEXDEC_ERROR_MALFORMED_FILE, TEXDEC_FILE_PROBLEM_SIZE_OVERFLOW,
                      "the blocks the header describes do not fit in 64 bits");
    if (o.file->info.trailing_bytes)
        o.message(TEXDEC_MESSAGE_INFO, format_text("%llu byte(s) after the data the header describes are ignored",
                                                   (unsigned long long)o.file->info.trailing_bytes));
    return TEXDEC_SUCCESS;
}

bool valid_open_info(const texdec_file_open_info* info) {
    if (!info) return true;
    return !info->next && !(info->flags & ~uint32_t(TEXDEC_FILE_OPEN_COPY)) &&
           uint32_t(info->astc_profile) <= uint32_t(TEXDEC_ASTC_PROFILE_HDR);
}

texdec_status invalid(const texdec_file_open_info* info, const char* text) {
    if (info && info->problem) *info->problem = TEXDEC_FILE_PROBLEM_NONE;
    if (info && info->message_callback) info->message_callback(TEXDEC_MESSAGE_ERROR, text, info->user_data);
    return TEXDEC_ERROR_INVALID_ARGUMENT;
}

// Takes a file whose bytes are set; on success *out_file owns it.
texdec_status finish_open(const texdec_file_open_info* info, std::unique_ptr<texdec_file> file,
                          texdec_file** out_file) {
    if (info) {
        file->callback = info->message_callback;
        file->user_data = info->user_data;
    }
    Opening o{info, file.get()};
    texdec_status status;
    try {
        status = open_parsed(o);
    } catch (const std::bad_alloc&) {
        return o.fail(TEXDEC_ERROR_OUT_OF_MEMORY, TEXDEC_FILE_PROBLEM_NONE, "out of memory while opening the file");
    }
    if (status != TEXDEC_SUCCESS) return status;
    if (info && info->problem) *info->problem = TEXDEC_FILE_PROBLEM_NONE;
    *out_file = file.release();
    return TEXDEC_SUCCESS;
}

// Copies surfaces s0 .. s0 + count - 1 of a level stored in the file into dst.
void copy_surfaces(const texdec_file& file, const Level& level, uint64_t surfaces, uint8_t* dst) {
    for (uint64_t s = 0; s < surfaces; ++s)
        std::memcpy(dst + s * level.surface_bytes, file.bytes.data() + level.file_offset + s * level.surface_stride,
                    size_t(level.surface_bytes));
}

texdec_status read_level_into(const texdec_file* file, uint32_t l, uint8_t* dst, size_t dst_size) {
    const Level& level = file->levels[l];
    if (dst_size < level.packed_size) {
        report(file, TEXDEC_MESSAGE_ERROR,
               format_text("mip level %u needs %llu bytes; the destination holds %zu", l,
                           (unsigned long long)level.packed_size, dst_size)
                   .c_str());
        return TEXDEC_ERROR_DESTINATION_TOO_SMALL;
    }
    if (file->ktx2) {
        if (auto error = ktx2::read_level(file->bytes, *file->ktx2, l, std::span<uint8_t>(dst, dst_size))) {
            const std::string text = "KTX 2: " + error->message;
            report(file, TEXDEC_MESSAGE_ERROR, text.c_str());
            return refusal(error->code).status;
        }
        return TEXDEC_SUCCESS;
    }
    copy_surfaces(*file, level, uint64_t(file->info.layers) * file->info.faces, dst);
    return TEXDEC_SUCCESS;
}

}  // namespace

extern "C" {

TEXDEC_FILE_API texdec_status texdec_file_open(const texdec_file_open_info* info, const void* data, size_t size,
                                               texdec_file** out_file) {
    if (!out_file) return invalid(info, "texdec_file_open: out_file is NULL");
    *out_file = nullptr;
    if (!data && size > 0) return invalid(info, "texdec_file_open: data is NULL with size > 0");
    if (!valid_open_info(info))
        return invalid(info, "texdec_file_open: open info has next != NULL, unknown flags or an unknown astc_profile");
    if (info && info->problem) *info->problem = TEXDEC_FILE_PROBLEM_NONE;  // until the file says otherwise
    std::unique_ptr<texdec_file> file(new (std::nothrow) texdec_file);
    if (!file) return TEXDEC_ERROR_OUT_OF_MEMORY;
    const auto* bytes = static_cast<const uint8_t*>(data);
    if (info && (info->flags & TEXDEC_FILE_OPEN_COPY) && size > 0) {
        try {
            file->copy.assign(bytes, bytes + size);
        } catch (const std::bad_alloc&) {
            return TEXDEC_ERROR_OUT_OF_MEMORY;
        }
        file->bytes = file->copy;
    } else {
        file->bytes = std::span<const uint8_t>(bytes, size);
    }
    return finish_open(info, std::move(file), out_file);
}

TEXDEC_FILE_API texdec_status texdec_file_open_path(const texdec_file_open_info* info, const char* path,
                                                    texdec_file** out_file) {
    if (!out_file) return invalid(info, "texdec_file_open_path: out_file is NULL");
    *out_file = nullptr;
    if (!path) return invalid(info, "texdec_file_open_path: path is NULL");
    if (!valid_open_info(info))
        return invalid(info,
                       "texdec_file_open_path: open info has next != NULL, unknown flags or an unknown astc_profile");
    if (info && info->problem) *info->problem = TEXDEC_FILE_PROBLEM_NONE;  // until the file says otherwise
    std::unique_ptr<texdec_file> file(new (std::nothrow) texdec_file);
    if (!file) return TEXDEC_ERROR_OUT_OF_MEMORY;
    auto io_error = [&](const std::string& text) {
        if (info && info->problem) *info->problem = TEXDEC_FILE_PROBLEM_NONE;
        if (info && info->message_callback) info->message_callback(TEXDEC_MESSAGE_ERROR, text.c_str(), info->user_data);
        return TEXDEC_ERROR_FILE_IO;
    };
    try {
        const std::string name(path);
        platform::Handle handle;
        if (const int error = platform::open_read(name, true, handle))
            return io_error("cannot open '" + name + "': " + platform::error_text(error));
        platform::FileInfo stat{};
        if (const int error = platform::stat(handle, stat)) {
            platform::close(handle);
            return io_error("cannot read '" + name + "': " + platform::error_text(error));
        }
        if (stat.kind != platform::Kind::Regular) {
            platform::close(handle);
            return io_error("cannot read '" + name + "': not a regular file");
        }
        if (stat.size > SIZE_MAX) {
            platform::close(handle);
            return io_error("cannot map '" + name + "': it is larger than the address space");
        }
        const uint64_t size = stat.size;
        int error = 0;
        const void* memory = size > 0 ? platform::map_read(handle, size, error) : nullptr;
        if (memory) {
            platform::close(handle);
            file->mapping = std::shared_ptr<const void>(memory, [size](const void* p) { platform::unmap(p, size); });
            file->bytes = std::span<const uint8_t>(static_cast<const uint8_t*>(memory), size_t(size));
        } else if (size > 0) {
            // Not mappable (a sysfs attribute, some network or FUSE file systems): read, as the
            // header says, up to the size stat gave or the end, whichever comes first.
            file->copy.resize(size_t(size));
            size_t total = 0;
            while (total < file->copy.size()) {
                size_t got = 0;
                if (const int read_error =
                        platform::read(handle, file->copy.data() + total, file->copy.size() - total, got)) {
                    platform::close(handle);
                    return io_error("cannot read '" + name + "' (mapping it failed: " + platform::error_text(error) +
                                    "): " + platform::error_text(read_error));
                }
                if (got == 0) break;
                total += got;
            }
            platform::close(handle);
            file->copy.resize(total);
            file->bytes = file->copy;
        } else {
            platform::close(handle);
        }
    } catch (const std::bad_alloc&) {
        return TEXDEC_ERROR_OUT_OF_MEMORY;
    }
    return finish_open(info, std::move(file), out_file);
}

TEXDEC_FILE_API void texdec_file_destroy(texdec_file* file) { delete file; }

TEXDEC_FILE_API texdec_status texdec_file_get_info(const texdec_file* file, texdec_file_info* info) {
    if (!file || !info) {
        report(file, TEXDEC_MESSAGE_ERROR, "texdec_file_get_info: info is NULL");
        return TEXDEC_ERROR_INVALID_ARGUMENT;
    }
    *info = file->info;
    return TEXDEC_SUCCESS;
}

}  // extern "C"

namespace {

// Every failure has its sentence (texdec_file.h, "Messages"), for the queries too: to the open
// info's callback when there is a file to find it through.
texdec_status invalid_query(const texdec_file* file, const std::string& text) {
    report(file, TEXDEC_MESSAGE_ERROR, text.c_str());
    return TEXDEC_ERROR_INVALID_ARGUMENT;
}

texdec_file_surface make_surface(const texdec_file& file, uint32_t l, uint32_t layer, uint32_t face) {
    const Level& level = file.levels[l];
    const uint64_t s = uint64_t(layer) * file.info.faces + face;
    texdec_file_surface surface{};
    surface.level = l;
    surface.layer = layer;
    surface.face = face;
    surface.width = level.width;
    surface.height = level.height;
    surface.depth = level.depth;
    surface.offset = level.file_offset + s * level.surface_stride;
    surface.size = level.surface_bytes;
    surface.slice_size = level.slice_bytes;
    surface.packed_offset = level.packed_offset + s * level.surface_bytes;
    return surface;
}

}  // namespace

extern "C" {

TEXDEC_FILE_API texdec_status texdec_file_get_surface(const texdec_file* file, uint32_t level, uint32_t layer,
                                                      uint32_t face, texdec_file_surface* surface) {
    if (!file || !surface) return invalid_query(file, "texdec_file_get_surface: surface is NULL");
    if (level >= file->info.levels || layer >= file->info.layers || face >= file->info.faces) {
        report(file, TEXDEC_MESSAGE_ERROR,
               format_text("texdec_file_get_surface: level %u, layer %u, face %u is outside the file's %u level(s), "
                           "%u layer(s), %u face(s)",
                           level, layer, face, file->info.levels, file->info.layers, file->info.faces)
                   .c_str());
        return TEXDEC_ERROR_INVALID_ARGUMENT;
    }
    *surface = make_surface(*file, level, layer, face);
    return TEXDEC_SUCCESS;
}

TEXDEC_FILE_API texdec_status texdec_file_get_surfaces(const texdec_file* file, uint64_t first, uint32_t count,
                                                       texdec_file_surface* surfaces) {
    if (!file || (!surfaces && count > 0))
        return invalid_query(file, "texdec_file_get_surfaces: surfaces is NULL with count > 0");
    const texdec_file_info& info = file->info;
    if (first > info.surface_count || count > info.surface_count - first) {
        report(file, TEXDEC_MESSAGE_ERROR,
               format_text("texdec_file_get_surfaces: first %llu + count %u is past the file's %llu surface(s)",
                           (unsigned long long)first, count, (unsigned long long)info.surface_count)
                   .c_str());
        return TEXDEC_ERROR_INVALID_ARGUMENT;
    }
    const uint64_t per_level = uint64_t(info.layers) * info.faces;
    for (uint32_t i = 0; i < count; ++i) {
        const uint64_t index = first + i;
        uint32_t level;
        uint64_t s;
        if (info.container == TEXDEC_FILE_CONTAINER_DDS) {  // layer-major: a layer's (face's) levels in turn
            s = index / info.levels;
            level = uint32_t(index % info.levels);
        } else {  // level-major (KTX 2: in the order the levels lie in the file)
            const uint64_t nth = index / per_level;
            level = file->file_order.empty() ? uint32_t(nth) : file->file_order[size_t(nth)];
            s = index % per_level;
        }
        surfaces[i] = make_surface(*file, level, uint32_t(s / info.faces), uint32_t(s % info.faces));
    }
    return TEXDEC_SUCCESS;
}

TEXDEC_FILE_API texdec_status texdec_file_get_key_value(const texdec_file* file, uint32_t index,
                                                        texdec_file_key_value* entry) {
    if (!file || !entry) return invalid_query(file, "texdec_file_get_key_value: entry is NULL");
    if (index >= file->entries.size())
        return invalid_query(
            file, format_text("texdec_file_get_key_value: entry %u; the file has %zu", index, file->entries.size()));
    const Entry& e = file->entries[index];
    *entry = texdec_file_key_value{e.key, e.value, e.value_size};
    return TEXDEC_SUCCESS;
}

TEXDEC_FILE_API texdec_status texdec_file_find_key_value(const texdec_file* file, const char* key,
                                                         texdec_file_key_value* entry) {
    if (!file || !key || !entry) return invalid_query(file, "texdec_file_find_key_value: key or entry is NULL");
    *entry = texdec_file_key_value{nullptr, nullptr, 0};
    for (const Entry& e : file->entries)
        if (std::strcmp(e.key, key) == 0) {
            *entry = texdec_file_key_value{e.key, e.value, e.value_size};
            break;
        }
    return TEXDEC_SUCCESS;
}

TEXDEC_FILE_API texdec_status texdec_file_level_size(const texdec_file* file, uint32_t level, uint64_t* bytes) {
    if (!file || !bytes) return invalid_query(file, "texdec_file_level_size: bytes is NULL");
    if (level >= file->info.levels)
        return invalid_query(
            file, format_text("texdec_file_level_size: level %u; the file has %u level(s)", level, file->info.levels));
    *bytes = file->levels[level].packed_size;
    return TEXDEC_SUCCESS;
}

TEXDEC_FILE_API texdec_status texdec_file_read_level(const texdec_file* file, uint32_t level, void* dst,
                                                     size_t dst_size) {
    if (!file || !dst) return invalid_query(file, "texdec_file_read_level: dst is NULL");
    if (level >= file->info.levels)
        return invalid_query(
            file, format_text("texdec_file_read_level: level %u; the file has %u level(s)", level, file->info.levels));
    return read_level_into(file, level, static_cast<uint8_t*>(dst), dst_size);
}

TEXDEC_FILE_API texdec_status texdec_file_read_blocks(const texdec_file* file, void* dst, size_t dst_size) {
    if (!file || !dst) return invalid_query(file, "texdec_file_read_blocks: dst is NULL");
    if (dst_size < file->info.blocks_size) {
        report(file, TEXDEC_MESSAGE_ERROR,
               format_text("texdec_file_read_blocks: the file's blocks are %llu bytes; the destination holds %zu",
                           (unsigned long long)file->info.blocks_size, dst_size)
                   .c_str());
        return TEXDEC_ERROR_DESTINATION_TOO_SMALL;
    }
    auto* out = static_cast<uint8_t*>(dst);
    uint64_t written = 0;
    for (uint32_t l = 0; l < file->info.levels; ++l) {
        const Level& level = file->levels[l];
        std::memset(out + written, 0, size_t(level.packed_offset - written));  // padding between levels
        const texdec_status status =
            read_level_into(file, l, out + level.packed_offset, size_t(file->info.blocks_size - level.packed_offset));
        if (status != TEXDEC_SUCCESS) return status;
        written = level.packed_offset + level.packed_size;
    }
    return TEXDEC_SUCCESS;
}

}  // extern "C"

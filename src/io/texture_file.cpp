#include "texture_file.h"

#include <new>

#include "dds.h"
#include "format_text.h"
#include "ktx.h"
#include "ktx2.h"
#include "pkm.h"

namespace texture_file {

// Where each surface's blocks are comes from the container's own description, never from a copy
// of it per surface: the parsers' tables (DDS, KTX 1) are the only per-surface memory parsing
// allocates (checked against OpenOptions::max_table_bytes before they are), and a KTX 2 level's
// surfaces are computed (a header may describe 6 x 2^20 layers of 21 levels in a few hundred bytes).
struct TextureFile::Impl {
    struct Range {
        size_t offset, size;  // in the file
    };
    std::span<const uint8_t> bytes;     // the file (a read-only mapping, see input_file.h)
    std::shared_ptr<const void> owner;  // keeps `bytes` alive
    std::optional<Range> single;        // .pkm, .astc, raw blocks: the one surface
    std::optional<dds::Texture> dds;    // surface(layer, level), layer = element * faces + face
    std::optional<ktx::Texture> ktx;    // the same
    // KTX 2: each level's data, found (and inflated) on first use.
    std::optional<ktx2::Texture> ktx2;
    std::vector<std::optional<std::span<const uint8_t>>> level_data;
    std::vector<std::vector<uint8_t>> inflated;
};

const char* container_name(Container container) {
    switch (container) {
    case Container::Dds: return "DDS";
    case Container::Ktx: return "KTX 1.1";
    case Container::Ktx2: return "KTX 2.0";
    case Container::Pkm: return "PKM";
    case Container::Astc: return ".astc";
    case Container::Raw: return "raw blocks";
    }
    return "?";
}

std::optional<Container> detect(std::span<const uint8_t> bytes) {
    if (dds::has_magic(bytes)) return Container::Dds;
    if (ktx::has_magic(bytes)) return Container::Ktx;
    if (ktx2::has_magic(bytes)) return Container::Ktx2;
    if (pkm::has_magic(bytes)) return Container::Pkm;
    if (astc_file::has_magic(bytes)) return Container::Astc;
    return std::nullopt;
}

bool has_known_magic(std::span<const uint8_t> bytes) { return detect(bytes).has_value(); }

std::variant<std::span<const uint8_t>, Error> TextureFile::blocks(uint32_t level, uint32_t layer, uint32_t face) {
    const std::span<const uint8_t> file(impl->bytes);
    const uint32_t surface_layer = layer * faces + face;
    if (impl->single) return file.subspan(impl->single->offset, impl->single->size);
    if (impl->dds) {
        const dds::Surface& s = impl->dds->surface(surface_layer, level);
        return file.subspan(s.offset, s.size);
    }
    if (impl->ktx) {
        const ktx::Surface& s = impl->ktx->surface(surface_layer, level);
        return file.subspan(s.offset, s.size);
    }
    std::optional<std::span<const uint8_t>>& data = impl->level_data[level];
    if (!data) {
        auto result = ktx2::level_data(impl->bytes, *impl->ktx2, level, impl->inflated[level]);
        if (const auto* error = std::get_if<ktx2::Error>(&result)) return Error{false, error->message};
        data = std::get<std::span<const uint8_t>>(result);
    }
    const size_t image_bytes = size_t(impl->ktx2->levels[level].image_bytes);  // parse() checked the level fits
    return data->subspan(image_bytes * surface_layer, image_bytes);
}

texdec_format profile_twin(texdec_format format, astc_file::Profile profile) {
    texdec_format_info info{};
    if (texdec_format_get_info(format, &info) != TEXDEC_SUCCESS) return TEXDEC_FORMAT_UNDEFINED;
    const std::string name = info.name;  // "astc-6x6-srgb": the profile is the last part
    const char* suffix = profile == astc_file::Profile::Hdr    ? "-sfloat"
                         : profile == astc_file::Profile::Srgb ? "-srgb"
                                                               : "-unorm";
    return texdec_format_from_name((name.substr(0, name.rfind('-')) + suffix).c_str());
}

namespace {

// --profile on a file whose container named its format (see OpenOptions): overrides an ASTC format,
// with a note when it changes it; on other formats a usage error, or ignored where it need not apply.
std::optional<Error> apply_profile(const OpenOptions& options, TextureFile& file) {
    if (!options.profile) return std::nullopt;
    const astc_file::Profile profile = *options.profile;
    const std::string flag = std::string("--profile ") + astc_file::profile_name(profile);
    texdec_format_info info{};
    texdec_format_get_info(file.format, &info);
    if (info.family != TEXDEC_FAMILY_ASTC) {
        const std::string text = std::string("--profile applies to ASTC data; this is a ") +
                                 container_name(file.container) + " file of " + info.name + ", which its header names";
        if (options.profile_must_apply) return Error{true, text};
        file.profile_ignored = text + ": " + flag + " ignored";
        return std::nullopt;
    }
    const texdec_format chosen = profile_twin(file.format, profile);
    if (chosen == file.format) return std::nullopt;
    // GL's ASTC enums say linear or sRGB but not LDR or HDR (that is the GL context's profile): hdr
    // on a linear KTX 1 enum is what --profile is for there, nothing to note.
    const bool was_ldr = !(info.flags & (TEXDEC_FORMAT_FLAG_HDR | TEXDEC_FORMAT_FLAG_SRGB));
    if (!(file.container == Container::Ktx && was_ldr && profile == astc_file::Profile::Hdr)) {
        texdec_format_info chosen_info{};
        texdec_format_get_info(chosen, &chosen_info);
        file.notes.push_back(flag + " overrides the format its header names (" + file.container_format + ", " +
                             info.name + "): decoded as " + chosen_info.name);
    }
    file.format = chosen;
    return std::nullopt;
}

void note_trailing(TextureFile& file, uint64_t bytes, const char* after) {
    file.trailing_bytes = bytes;
    if (bytes) file.notes.push_back(std::to_string(bytes) + " bytes after its " + after + " are ignored");
}

// What DDS, KTX 1 and KTX 2 textures all say of their layout; `faces` is 6 for a cube map, else 1.
template <class Texture>
void take_layout(TextureFile& file, const Texture& tex, uint32_t faces) {
    file.container_format = tex.container_format;
    file.format = tex.format;
    file.levels = tex.mip_levels;
    file.faces = faces;
    file.layers = tex.layers / faces;
    file.is_cube = tex.is_cube;
    file.is_volume = tex.is_volume;
}

// DDS and KTX 1 textures both answer surface(layer, level), layer = element * faces + face.
template <class Texture>
void fill_levels(TextureFile& file, const Texture& tex) {
    for (uint32_t level = 0; level < file.levels; ++level) {
        const auto& first = tex.surface(0, level);
        file.level_info.push_back({first.width, first.height, first.depth, first.size});
    }
    file.table_bytes = tex.surfaces.capacity() * sizeof(tex.surfaces[0]);
}

// A parser's refusal; a surface table over the memory limit names the limit too.
Error parse_error(const container::Error& error, const OpenOptions& options) {
    if (error.code == container::ErrorCode::TableTooLarge && !options.table_limit_source.empty())
        return Error{false, error.message + " (the memory limit: " + options.table_limit_source + ")"};
    return Error{false, error.message};
}

std::optional<Error> open_dds(TextureFile& file, const OpenOptions& options) {
    auto parsed = dds::parse_limited(file.impl->bytes, options.max_table_bytes);
    if (const auto* error = std::get_if<dds::Error>(&parsed)) return parse_error(*error, options);
    dds::Texture& tex = std::get<dds::Texture>(parsed);
    take_layout(file, tex, tex.is_cube ? 6 : 1);
    file.is_array = file.layers > 1;
    file.swap_red_alpha = tex.swap_red_alpha;
    note_trailing(file, tex.trailing_bytes, "last surface");
    fill_levels(file, tex);
    file.impl->dds = std::move(tex);
    return std::nullopt;
}

std::optional<Error> open_ktx(TextureFile& file, const OpenOptions& options) {
    auto parsed = ktx::parse_limited(file.impl->bytes, options.max_table_bytes);
    if (const auto* error = std::get_if<ktx::Error>(&parsed)) return parse_error(*error, options);
    ktx::Texture& tex = std::get<ktx::Texture>(parsed);
    take_layout(file, tex, tex.faces);
    file.is_array = tex.array_elements > 0;
    note_trailing(file, tex.trailing_bytes, "last mip level");
    fill_levels(file, tex);
    file.impl->ktx = std::move(tex);
    return std::nullopt;
}

std::optional<Error> open_ktx2(TextureFile& file, const OpenOptions& options) {
    auto parsed = ktx2::parse(file.impl->bytes);
    if (const auto* error = std::get_if<ktx2::Error>(&parsed)) return parse_error(*error, options);
    ktx2::Texture& tex = std::get<ktx2::Texture>(parsed);
    take_layout(file, tex, tex.faces);
    file.is_array = tex.layer_count > 0;
    file.warnings = tex.warnings;
    file.supercompression = ktx2::supercompression_name(uint32_t(tex.supercompression));
    for (uint32_t level = 0; level < file.levels; ++level) {
        const ktx2::Level& l = tex.levels[level];
        file.level_info.push_back({l.width, l.height, l.depth, l.image_bytes});
    }
    file.impl->level_data.resize(file.levels);
    file.impl->inflated.resize(file.levels);
    file.impl->ktx2 = std::move(tex);
    return std::nullopt;
}

std::optional<Error> open_pkm(TextureFile& file, const OpenOptions&) {
    auto parsed = pkm::parse(file.impl->bytes);
    if (const auto* error = std::get_if<pkm::Error>(&parsed)) return Error{false, error->message};
    const pkm::Texture& tex = std::get<pkm::Texture>(parsed);
    file.container_format = tex.container_format;
    file.format = tex.format;
    note_trailing(file, tex.trailing_bytes, "last block");
    file.level_info.push_back({tex.width, tex.height, 1, tex.data_size});
    file.impl->single = TextureFile::Impl::Range{tex.data_offset, tex.data_size};
    return std::nullopt;
}

// A .astc file: footprint and extent from its header, linear / sRGB / HDR from --profile (the file
// cannot say; default ldr). A 2D footprint with zsize > 1 is a stack of zsize slices.
std::optional<Error> open_astc(TextureFile& file, const OpenOptions& options) {
    auto parsed = astc_file::parse(file.impl->bytes);
    if (const auto* error = std::get_if<astc_file::Error>(&parsed)) return Error{false, error->message};
    const astc_file::Texture& tex = std::get<astc_file::Texture>(parsed);
    const astc_file::Profile profile = options.profile.value_or(astc_file::Profile::Ldr);
    file.format = tex.format(profile);
    // format_text, not operator+: GCC 12 warns (-Wrestrict, a false positive) on "x" + std::string.
    file.container_format = texdec_io::format_text(
        "footprint %ux%u%s, profile %s%s", unsigned(tex.block_x), unsigned(tex.block_y),
        tex.block_z > 1 ? texdec_io::format_text("x%u", unsigned(tex.block_z)).c_str() : "",
        astc_file::profile_name(profile), options.profile ? "" : " (default; the file cannot say)");
    file.is_volume = tex.depth > 1;
    note_trailing(file, tex.trailing_bytes, "last block");
    file.level_info.push_back({tex.width, tex.height, tex.depth, tex.data_size});
    file.impl->single = TextureFile::Impl::Range{tex.data_offset, tex.data_size};
    return std::nullopt;
}

TextureFile make_file(FileBytes&& input, Container container) {
    TextureFile file;
    file.container = container;
    file.file_bytes = input.data.size();
    file.impl = std::make_shared<TextureFile::Impl>();
    file.impl->bytes = input.data;
    file.impl->owner = std::move(input.owner);
    return file;
}

}  // namespace

std::string first_bytes(std::span<const uint8_t> bytes) {
    static const char* hex = "0123456789ABCDEF";
    std::string first;
    for (size_t i = 0; i < std::min<size_t>(bytes.size(), 8); ++i) {
        if (i) first += ' ';
        first += hex[bytes[i] >> 4];
        first += hex[bytes[i] & 15];
    }
    return first;
}

std::variant<TextureFile, Error> open(FileBytes input, const OpenOptions& options) {
    const std::span<const uint8_t> bytes = input.data;
    if (bytes.empty()) return Error{false, "the file is empty"};
    const std::optional<Container> container = detect(bytes);
    if (!container) {
        return Error{false, "not a texture file this tool reads: its first bytes (" + first_bytes(bytes) +
                                ") are no DDS (\"DDS \"), KTX 1.1, KTX 2.0, PKM (\"PKM \") or .astc (13 AB A1 5C) "
                                "magic; for raw blocks give --format and --extent"};
    }
    TextureFile file = make_file(std::move(input), *container);
    std::optional<Error> error;
    try {
        switch (*container) {
        case Container::Dds: error = open_dds(file, options); break;
        case Container::Ktx: error = open_ktx(file, options); break;
        case Container::Ktx2: error = open_ktx2(file, options); break;
        case Container::Pkm: error = open_pkm(file, options); break;
        case Container::Astc: error = open_astc(file, options); break;
        case Container::Raw: break;
        }
    } catch (const std::bad_alloc&) {
        return Error{false, "out of memory for the file's surface table"};
    }
    if (!error && *container != Container::Astc) error = apply_profile(options, file);
    if (error) return *error;
    return file;
}

std::variant<TextureFile, Error> open_raw(FileBytes input, texdec_format format, uint32_t width, uint32_t height,
                                          uint32_t depth, const std::string& block_linear) {
    const std::span<const uint8_t> bytes = input.data;
    uint64_t needed = 0;
    const texdec_status status = texdec_encoded_size(format, width, height, depth, &needed);
    if (status != TEXDEC_SUCCESS)
        return Error{true, std::string("the extent does not fit the format: ") + texdec_status_string(status)};
    if (!block_linear.empty()) needed = bytes.size();  // the library checks the block-linear surface
    if (bytes.size() < needed)
        return Error{false, "holds " + std::to_string(bytes.size()) + " bytes; the format and extent need " +
                                std::to_string(needed)};
    const std::optional<Container> header = detect(bytes);
    TextureFile file = make_file(std::move(input), Container::Raw);
    if (header)
        file.notes.push_back(std::string("it starts with a ") + container_name(*header) +
                             " header, but --format reads it as raw blocks (drop --format and --extent to use the "
                             "header)");
    texdec_format_info info{};
    texdec_format_get_info(format, &info);
    file.container_format = std::string("--format ") + info.name;
    if (!block_linear.empty()) file.container_format += " --block-linear " + block_linear;
    file.format = format;
    file.is_volume = depth > 1;
    note_trailing(file, file.file_bytes - needed, "last block");
    file.level_info.push_back({width, height, depth, needed});
    file.impl->single = TextureFile::Impl::Range{0, size_t(needed)};
    return file;
}

}  // namespace texture_file

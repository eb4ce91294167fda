#include "support/parser_checks.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <type_traits>
#include <variant>
#include <vector>

#include <texdec/texdec.h>

#include "astc_file.h"  // src/cli
#include "dds.h"
#include "ktx.h"
#include "ktx2.h"
#include "pkm.h"

namespace texdec_test {
namespace {

uint64_t sum_bytes(std::span<const uint8_t> bytes) {
    uint64_t sum = 0;
    const uint8_t* p = bytes.data();  // a plain loop: the Debug (ASan) build runs this a lot
    for (size_t i = 0, n = bytes.size(); i < n; ++i) sum += p[i];
    return sum;
}

// Keeps the first problem in `violation` and returns the condition, for `if (!ok(...)) return`.
// `what` is a string or a callable making one: only called when the condition fails (the checks
// run millions of times in test_fuzz_regress.cpp).
struct Checker {
    ParserCheck& out;
    template <class What>
    bool ok(bool condition, const What& what) {
        if (!condition && out.violation.empty()) {
            if constexpr (std::is_invocable_v<What>)
                out.violation = what();
            else
                out.violation = what;
        }
        return condition;
    }
};

// The parser's error: a message that says something, and a code the parser can name.
template <class Error>
void check_error(const Error& e, const char* code_name, ParserCheck& out) {
    out.error = e.message;
    Checker c{out};
    c.ok(!e.message.empty(), [&] { return std::string("error (") + code_name + ") with an empty message"; });
    c.ok(std::strcmp(code_name, "unknown error") != 0, [&] { return "error code out of the enum: " + e.message; });
}

// The bytes of an image of `format`: what every surface of that extent must hold.
bool encoded_size(texdec_format format, uint32_t w, uint32_t h, uint32_t d, uint64_t& bytes) {
    return texdec_encoded_size(format, w, h, d, &bytes) == TEXDEC_SUCCESS;
}

std::string describe(const char* what, uint64_t offset, uint64_t size, size_t file_size) {
    return std::string(what) + " at offset " + std::to_string(offset) + " of " + std::to_string(size) +
           " bytes; the file is " + std::to_string(file_size);
}

// A surface table (DDS, KTX 1): every surface inside the file, after the header, of the size its
// extent needs, in the order and count the parser promises.
template <class Texture>
void check_surfaces(const Texture& t, std::span<const uint8_t> file, size_t header_size, bool touch,
                    ParserCheck& out) {
    Checker c{out};
    texdec_format_info info{};
    if (!c.ok(texdec_format_get_info(t.format, &info) == TEXDEC_SUCCESS, "accepted with no texdec format")) return;
    if (!c.ok(!t.container_format.empty(), "accepted with an empty container_format")) return;
    if (!c.ok(t.mip_levels >= 1 && t.layers >= 1 && t.width >= 1 && t.height >= 1 && t.depth >= 1,
              "accepted with a zero extent, level or layer count"))
        return;
    if (!c.ok(t.surfaces.size() == size_t(t.layers) * t.mip_levels, [&] {
            return "surface table has " + std::to_string(t.surfaces.size()) + " entries for " +
                   std::to_string(t.layers) + " layer(s) x " + std::to_string(t.mip_levels) + " level(s)";
        }))
        return;
    out.surfaces = t.surfaces.size();
    size_t end = header_size;
    for (uint32_t layer = 0; layer < t.layers; ++layer)
        for (uint32_t level = 0; level < t.mip_levels; ++level) {
            const auto& s = t.surface(layer, level);
            if (!c.ok(s.layer == layer && s.level == level, "surface(layer, level) is another surface")) return;
            uint64_t want = 0;
            if (!c.ok(encoded_size(t.format, s.width, s.height, s.depth, want) && want == s.size,
                      [&] { return "surface size " + std::to_string(s.size) + " is not what its extent needs"; }))
                return;
            if (!c.ok(s.offset >= header_size && s.offset <= file.size() && s.size <= file.size() - s.offset,
                      [&] { return describe("surface", s.offset, s.size, file.size()); }))
                return;
            if (touch) out.checksum += sum_bytes(file.subspan(s.offset, s.size));
            end = std::max(end, s.offset + s.size);
        }
    c.ok(t.trailing_bytes <= file.size() - end, [&] {
        return "trailing_bytes " + std::to_string(t.trailing_bytes) + " overlaps the surfaces (last ends at " +
               std::to_string(end) + ")";
    });
}

// The parser's answer: its error checked (check_error), or the file marked parsed and its
// texture handed to `check`.
template <class Texture, class Error, class Check>
void on_parsed(const std::variant<Texture, Error>& result, ParserCheck& out, Check check) {
    if (const auto* e = std::get_if<Error>(&result)) return check_error(*e, container::error_code_name(e->code), out);
    out.parsed = true;
    check(std::get<Texture>(result));
}

// The blocks of a one-surface container (.pkm, .astc): right after the header, inside the file,
// the rest trailing bytes; then one surface, summed when `touch`.
template <class Texture>
void check_one_payload(const Texture& t, size_t header_size, std::span<const uint8_t> file, bool touch, Checker& c,
                       ParserCheck& out) {
    if (!c.ok(t.data_offset == header_size && t.data_size <= file.size() - t.data_offset &&
                  t.trailing_bytes == file.size() - t.data_offset - t.data_size,
              [&] { return describe("blocks", t.data_offset, t.data_size, file.size()); }))
        return;
    out.surfaces = 1;
    if (touch) out.checksum += sum_bytes(file.subspan(t.data_offset, t.data_size));
}

void check_dds(std::span<const uint8_t> file, bool touch, ParserCheck& out) {
    on_parsed(dds::parse(file), out, [&](const dds::Texture& t) {
        check_surfaces(t, file, t.has_dx10_header ? 4 + 124 + 20 : 4 + 124, touch, out);  // magic, DDS_HEADER, DXT10
    });
}

void check_ktx(std::span<const uint8_t> file, bool touch, ParserCheck& out) {
    on_parsed(ktx::parse(file), out, [&](const ktx::Texture& t) {
        Checker c{out};
        if (!c.ok(t.layers == std::max(1u, t.array_elements) * t.faces, "layers is not elements x faces")) return;
        check_surfaces(t, file, ktx::kHeaderSize + t.key_value_bytes, touch, out);
    });
}

void check_ktx2(std::span<const uint8_t> file, bool touch, ParserCheck& out) {
    on_parsed(ktx2::parse(file), out, [&](const ktx2::Texture& t) {
        Checker c{out};
        texdec_format_info info{};
        if (!c.ok(texdec_format_get_info(t.format, &info) == TEXDEC_SUCCESS, "accepted with no texdec format")) return;
        if (!c.ok(t.levels.size() == t.mip_levels && t.mip_levels >= 1 && t.layers >= 1, [&] {
                return "level table has " + std::to_string(t.levels.size()) + " entries for " +
                       std::to_string(t.mip_levels) + " level(s)";
            }))
            return;
        const size_t index_end = ktx2::kHeaderSize + t.levels.size() * ktx2::kLevelIndexEntrySize;
        out.surfaces = t.levels.size();
        for (uint32_t l = 0; l < t.mip_levels; ++l) {
            const ktx2::Level& level = t.levels[l];
            const auto name = [l] { return "level " + std::to_string(l); };
            uint64_t image = 0;
            if (!c.ok(
                    encoded_size(t.format, level.width, level.height, level.depth, image) && image == level.image_bytes,
                    [&] { return name() + ": image_bytes is not what its extent needs"; }))
                return;
            if (!c.ok(level.byte_offset >= index_end && level.byte_offset <= file.size() &&
                          level.byte_length <= file.size() - level.byte_offset,
                      [&] { return describe(name().c_str(), level.byte_offset, level.byte_length, file.size()); }))
                return;
            if (!c.ok(level.uncompressed_byte_length / t.layers == image &&
                          level.uncompressed_byte_length % t.layers == 0,
                      [&] { return name() + ": uncompressedByteLength is not layers x image_bytes"; }))
                return;
            const bool plain = t.supercompression == ktx2::Supercompression::None;
            if (!touch && !plain) continue;  // inflating is the expensive part: only when asked
            std::vector<uint8_t> storage;
            const ktx2::LevelResult data = ktx2::level_data(file, t, l, storage);
            if (const auto* e = std::get_if<ktx2::Error>(&data)) {
                if (!c.ok(!plain,
                          [&] { return name() + ": level_data failed on an uncompressed level: " + e->message; }))
                    return;
                if (!c.ok(!e->message.empty(), [&] { return name() + ": level_data error with an empty message"; }))
                    return;
                if (out.error.empty()) out.error = e->message;
                ++out.level_errors;
                continue;
            }
            const auto bytes = std::get<std::span<const uint8_t>>(data);
            if (!c.ok(bytes.size() == level.uncompressed_byte_length, [&] {
                    return name() + ": level_data gave " + std::to_string(bytes.size()) + " bytes, not " +
                           std::to_string(level.uncompressed_byte_length);
                }))
                return;
            if (plain && !c.ok(bytes.data() == file.data() + level.byte_offset,
                               [&] { return name() + ": level_data is not the file's bytes"; }))
                return;
            if (touch) out.checksum += sum_bytes(bytes);
        }
    });
}

void check_pkm(std::span<const uint8_t> file, bool touch, ParserCheck& out) {
    on_parsed(pkm::parse(file), out, [&](const pkm::Texture& t) {
        Checker c{out};
        uint64_t want = 0;
        if (!c.ok(t.width >= 1 && t.height >= 1 && t.width <= t.padded_width && t.height <= t.padded_height &&
                      encoded_size(t.format, t.padded_width, t.padded_height, 1, want) && want == t.data_size,
                  "extent or data_size inconsistent with the format"))
            return;
        check_one_payload(t, pkm::kHeaderSize, file, touch, c, out);
    });
}

void check_astc(std::span<const uint8_t> file, bool touch, ParserCheck& out) {
    on_parsed(astc_file::parse(file), out, [&](const astc_file::Texture& t) {
        Checker c{out};
        for (astc_file::Profile p : {astc_file::Profile::Ldr, astc_file::Profile::Srgb, astc_file::Profile::Hdr}) {
            texdec_format_info info{};
            if (!c.ok(texdec_format_get_info(t.format(p), &info) == TEXDEC_SUCCESS && info.block_width == t.block_x &&
                          info.block_height == t.block_y && info.block_depth == t.block_z,
                      [&] {
                          return std::string("profile ") + astc_file::profile_name(p) +
                                 " gives a format of another footprint";
                      }))
                return;
        }
        // The block count of the extent (a 2D footprint with depth > 1 is a stack of 2D slices).
        const uint64_t blocks = (uint64_t(t.width) + t.block_x - 1) / t.block_x *
                                ((uint64_t(t.height) + t.block_y - 1) / t.block_y) *
                                ((uint64_t(t.depth) + t.block_z - 1) / t.block_z);
        if (!c.ok(t.width >= 1 && t.height >= 1 && t.depth >= 1 && blocks * astc_file::kBlockBytes == t.data_size,
                  "data_size is not what the extent needs"))
            return;
        check_one_payload(t, astc_file::kHeaderSize, file, touch, c, out);
    });
}

}  // namespace

const char* container_name(Container c) {
    switch (c) {
    case Container::Dds: return "dds";
    case Container::Ktx: return "ktx";
    case Container::Ktx2: return "ktx2";
    case Container::Pkm: return "pkm";
    case Container::Astc: return "astc";
    }
    return "?";
}

std::optional<Container> container_from_extension(std::string_view extension) {
    if (!extension.empty() && extension[0] == '.') extension.remove_prefix(1);
    std::string lower(extension);
    for (char& ch : lower) ch = char(std::tolower(uint8_t(ch)));
    for (Container c : kAllContainers)
        if (lower == container_name(c)) return c;
    return std::nullopt;
}

ParserCheck check_parser(Container c, std::span<const uint8_t> file, bool touch_bytes) {
    ParserCheck out;
    switch (c) {
    case Container::Dds: check_dds(file, touch_bytes, out); break;
    case Container::Ktx: check_ktx(file, touch_bytes, out); break;
    case Container::Ktx2: check_ktx2(file, touch_bytes, out); break;
    case Container::Pkm: check_pkm(file, touch_bytes, out); break;
    case Container::Astc: check_astc(file, touch_bytes, out); break;
    }
    return out;
}

}  // namespace texdec_test

// One front end over the containers astc-gpu-decode reads (.dds, .ktx, .ktx2, .pkm, .astc, and raw
// blocks given --format / --extent): the container is found from the file's first bytes, never its
// name, and every file becomes the same thing: a format, levels x layers x faces surfaces, each a
// 2D image or a stack of depth slices, and the blocks of any surface.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include <texdec/texdec.h>

#include "astc_file.h"

namespace texture_file {

enum class Container { Dds, Ktx, Ktx2, Pkm, Astc, Raw };
const char* container_name(Container container);  // "DDS", "KTX 1.1", "KTX 2.0", "PKM", ".astc", "raw blocks"

struct Error {
    bool usage;           // a command-line problem (exit code 2), else a problem of the file (exit code 3)
    std::string message;  // names the problem (the caller prefixes the path)
};

struct LevelInfo {
    uint32_t width, height, depth;  // extent in texels (depth = slices of a volume or stack)
    uint64_t surface_bytes;         // blocks of one (layer, face) surface of this level
};

// --profile names how ASTC data is meant (ldr: astc-*-unorm, srgb: -srgb, hdr: -sfloat). A .astc
// file cannot say, so it picks the format; every other container's ASTC format (DDS, KTX, KTX 2)
// is overridden by it, with a note when that changes the format. On a file that is not ASTC it is
// a usage error, or (profile_must_apply false: a batch, `info`) ignored, and profile_ignored says so.
struct OpenOptions {
    std::optional<astc_file::Profile> profile;
    bool profile_must_apply = true;
    // The most the parser may allocate for its surface table (DDS and KTX 1 keep one entry per layer,
    // face and mip level; the other containers' tables are a few entries): a file asking for more is
    // refused (an input error naming both figures and table_limit_source, e.g. "--max-memory 100M").
    uint64_t max_table_bytes = UINT64_MAX;
    std::string table_limit_source;
};

// The format named like `format` for another profile, looked up by name in the format table:
// astc-6x6-srgb for hdr is astc-6x6-sfloat, bc7-srgb for ldr is bc7-unorm. TEXDEC_FORMAT_UNDEFINED
// where the table has none (bc6h-ufloat for ldr).
texdec_format profile_twin(texdec_format format, astc_file::Profile profile);

// A parsed file. Owns its bytes (and inflated KTX 2 levels); surfaces point into them.
class TextureFile {
public:
    Container container;
    std::string container_format;   // what the header said: "DXGI 98 (BC7_UNORM)", "vkFormat 157 (...)"
    std::string supercompression;   // KTX 2 only: "none", "Zstandard", "zlib"
    texdec_format format;
    uint32_t levels = 1;
    uint32_t layers = 1;            // array elements (1 when not an array)
    uint32_t faces = 1;             // 6 for a cube map
    bool is_array = false;
    bool is_cube = false;
    bool is_volume = false;         // levels have depth slices (a 3D texture, or a .astc / raw stack)
    uint64_t file_bytes = 0;
    uint64_t trailing_bytes = 0;    // bytes after the data the header describes (ignored)
    uint64_t table_bytes = 0;       // the parser's surface table, held while the file is open
    std::vector<LevelInfo> level_info;
    std::vector<std::string> notes;     // worth printing (e.g. trailing bytes, --profile overriding the header)
    std::vector<std::string> warnings;  // the file disagrees with itself (e.g. a KTX 2 DFD that vkFormat overrules)
    std::string profile_ignored;        // set when --profile was ignored (a batch, a format that is not ASTC): why
    // RXGB DDS files (DXT5 blocks with red stored in alpha): the decoded texels' first and last
    // channels are swapped back after decoding, as NVTT and FFmpeg read them.
    bool swap_red_alpha = false;

    // The blocks of one surface (all its depth slices). A view into the file, or into the inflated
    // level of a supercompressed KTX 2 file (inflated on first use). Errors: a stream that does not
    // inflate to its level's size.
    std::variant<std::span<const uint8_t>, Error> blocks(uint32_t level, uint32_t layer, uint32_t face);

    struct Impl;
    std::shared_ptr<Impl> impl;  // the bytes and the container's own description of its surfaces
};

// A file's bytes and what keeps them alive (input_file::map_texture_file: a read-only mapping,
// whose pages are read from disk only when a parser or a decode touches them).
struct FileBytes {
    std::span<const uint8_t> data;
    std::shared_ptr<const void> owner;
};

// Opens a file's bytes (container found from its magic). open_raw: the bytes are raw blocks (no
// container) of that format and extent (W, H, slices), linear (block_linear empty) or in the Tegra
// block-linear layout (block_linear: the --block-linear text, "16" or "4x2", for the description).
// A block-linear file's one surface is the whole file: how many bytes the layout needs is the
// library's check (TEXDEC_ERROR_SOURCE_TOO_SMALL when the decode is asked).
std::variant<TextureFile, Error> open(FileBytes bytes, const OpenOptions& options);
std::variant<TextureFile, Error> open_raw(FileBytes bytes, texdec_format format, uint32_t width, uint32_t height,
                                          uint32_t depth, const std::string& block_linear = {});

// True if the bytes start with the magic of a container open() reads.
bool has_known_magic(std::span<const uint8_t> bytes);
// The first (up to 8) bytes in hex, "44 44 53 20 ...", for messages about unknown files.
std::string first_bytes(std::span<const uint8_t> bytes);
// Which container the bytes' magic names (nullopt: none).
std::optional<Container> detect(std::span<const uint8_t> bytes);

}  // namespace texture_file

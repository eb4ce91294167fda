// astc-gpu-decode: decode block-compressed texture files on the GPU with texdec.
// Uses only the public C API (texdec.h). Argument parsing and the commands live here; the DDS,
// .astc, .pkm, KTX 1 and KTX 2 containers are in dds.cpp, astc_file.cpp, pkm.cpp, ktx.cpp and
// ktx2.cpp, the PNG/EXR/HDR/raw writers in image_write.cpp.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <texdec/texdec.h>

#include "astc_file.h"
#include "bench.h"
#include "dds.h"
#include "image_write.h"
#include "ktx.h"
#include "ktx2.h"
#include "pkm.h"

namespace {

constexpr const char* kToolName = "astc-gpu-decode";
#ifndef TEXDEC_CLI_VERSION
#define TEXDEC_CLI_VERSION "unknown"  // set by CMake from the project version
#endif

// Exit codes, documented in --help.
enum ExitCode : int {
    kExitOk = 0,
    kExitRuntime = 1,  // decode, device or library error
    kExitUsage = 2,    // bad command line
    kExitInput = 3,    // input file unreadable, malformed, truncated or of an unknown format
    kExitOutput = 4    // output file could not be written
};

// Thrown by the command code and caught in main(), which prints "astc-gpu-decode: error: MESSAGE".
struct CliError {
    ExitCode code;
    std::string message;
};

constexpr const char* kHelp =
    R"(astc-gpu-decode - decode block-compressed textures on the GPU (Vulkan compute) with texdec

Usage:
  astc-gpu-decode [--device SEL] [-v] decode [decode options] IN OUT
  astc-gpu-decode [--device SEL] [-v] bench [bench options]
  astc-gpu-decode list-devices
  astc-gpu-decode formats
  astc-gpu-decode --help | --version

Commands:
  decode IN OUT   Decode IN and write OUT.
                  IN is a .dds, .astc, .pkm, .ktx (KTX 1.1) or .ktx2 (KTX 2.0) file
                  (recognised by its magic bytes, whatever its name), or raw blocks when
                  --format is given. OUT is a .png (8-bit; 16-bit for native EAC R11/RG11
                  texels), an .exr (OpenEXR, half-float R, G, B, A), an .hdr (Radiance RGBE,
                  float R, G, B) or a .raw file (texels only).
  bench           Decode throughput on the device next to ceilings measured in the same run
                  (memory-bound copy, the native sampler where the device has the format, the
                  CPU reference), and the one-call path's end-to-end time. Prints a table.
  list-devices    The Vulkan devices texdec can use: index, name, type, Vulkan version.
  formats         Every format name with its block size, bytes per block, and whether this
                  build decodes it.

Global options:
  --device SEL    Device index (see list-devices) or a case-insensitive substring of its name.
                  Default: $TEXDEC_DEVICE, else the first discrete GPU, integrated, virtual,
                  then CPU (lavapipe). The device used is printed to stderr.
  -v, --verbose   Also print the library's informational messages.
  -h, --help      Show this help.
  --version       Show the version.

Decode options:
  --format NAME       IN holds raw blocks of format NAME (see 'formats'), tightly packed in
                      block order: x fastest, then y, then z. Requires --extent.
  --extent WxH[xD]    Extent in texels. For 2D formats D is a slice count: the blocks of each
                      slice are contiguous, slice after slice.
  --output TYPE       rgba8 | rgba16f | native (the smallest format holding the exact result:
                      R8 for BC4, RG8 for BC5, R16 for EAC R11, RG16 for EAC RG11, RGBA8 for
                      BC1-BC3, BC7, ETC2 and ASTC LDR/sRGB, RGBA16F for ASTC HDR and BC6H).
                      Default: rgba8 when the format offers it, else native, for PNG;
                      rgba16f for EXR and HDR (an .exr or .hdr takes nothing else; native
                      only where it is RGBA16F); native for raw output.
  --bc-rounding MODE  exact (default: the Direct3D reference result) | ideal (what nvtt,
                      libsquish and Pillow decode). BC1-BC5 only.
  --profile P         .astc input (the file does not say): ldr (default: linear LDR,
                      astc-WxH[xD]-unorm) | srgb (astc-WxH[xD]-srgb) | hdr
                      (astc-WxH[xD]-sfloat). Also ASTC .ktx input, whose GL format says
                      linear or sRGB but not LDR or HDR: hdr decodes GL_COMPRESSED_RGBA_ASTC_*
                      as sfloat. An error with a .dds, .pkm, .ktx2 or other .ktx input and
                      with --format (the format name says it: astc-6x6-srgb).
  --level N           .dds, .ktx and .ktx2 input: the mip level to decode (default 0).
  --layer N|all       .dds, .ktx and .ktx2 input: the array layer (or cube face, 6 per cube)
                      to decode (default 0); 'all' decodes every layer of the level as the
                      slices of one image (2D block formats and 2D images only).
  --timeout SEC       Give up if the device has not finished after SEC seconds (default 60).

Bench options:
  --format NAME       A format to measure; repeat for several. Default: those of bc1-rgba-unorm,
                      bc3-unorm, bc4-unorm, bc5-unorm, bc6h-ufloat, bc7-unorm, astc-4x4-unorm,
                      astc-6x6-unorm, astc-8x8-unorm, astc-12x12-unorm, astc-6x6-srgb that this
                      build decodes.
  --size WxH          Extent (default 8192x8192 on a GPU, 1024x1024 on a CPU device such as
                      lavapipe), rounded up to whole blocks per format (8196 for 6x6 and 12x12).
  --iterations N      Timed dispatches per measurement (default 30); median and best reported.
  --warmup-ms MS      Back-to-back dispatches before each measurement (default 300 on a GPU,
                      50 on a CPU device).
  --output TYPE       rgba8 (default where the format has it, else native) | rgba16f | native.
  --bc-rounding MODE  exact (default) | ideal.
  --json FILE         Also write every figure, the device, driver, date and command line as JSON.
  --validate          Run with VK_LAYER_KHRONOS_validation (synchronization validation too); any
                      message makes the exit code 1.
  The bench creates its own Vulkan device (--device / $TEXDEC_DEVICE select it) and times with
  timestamp queries. Data: a procedural image encoded by libastcenc -fastest (ASTC) or a min/max
  BC encoder, tiled to the extent ("real"), and random blocks ("random").

DDS input: legacy FourCC headers DXT1 (decoded as bc1-rgba-unorm, like Direct3D), DXT2/DXT3
(bc2-unorm), DXT4/DXT5 (bc3-unorm), ATI1/BC4U/BC4S (bc4), ATI2/BC5U/BC5S (bc5), and DX10 headers
with a DXGI BC format: BC1-BC5, BC6H_UF16 (bc6h-ufloat), BC6H_SF16 (bc6h-sfloat), BC7_UNORM
(bc7-unorm), BC7_UNORM_SRGB (bc7-srgb); TYPELESS decodes as UNORM (BC6H_TYPELESS as UF16).
Mip level 0 of the first layer (or face) is decoded unless --level / --layer say otherwise; a
volume texture's level gives all its slices. BC6H is HDR: decode it to .exr, .hdr or .raw, not
.png.

.astc input (astcenc's container: 16-byte header with the footprint and the extent, then the
blocks): every 2D footprint (4x4 .. 12x12) and the 3D ones (3x3x3 .. 6x6x6, decoded as
astc-WxHxD-*: xsize x ysize x zsize texels). A 2D footprint with zsize > 1 is zsize slices, all
decoded. Bytes after the last block are ignored (a warning says so). The profile comes from
--profile, never from the file: --profile hdr decodes HDR (and LDR) blocks as astc-*-sfloat, to
.exr, .hdr or .raw.

.pkm input (etcpack / etc1tool: "PKM " magic, version "10" = ETC1, "20" with a format code;
big-endian padded and active extents): ETC1 (decoded as etc2-r8g8b8-unorm, which ETC1 is a
subset of), ETC2 RGB8 / RGBA8 / RGB8A1 and their sRGB variants, EAC R11 / RG11 unsigned and
signed. The active extent is decoded.

.ktx input (KTX 1.1, little- or big-endian): glInternalFormat GL_ETC1_RGB8_OES, every ETC2/EAC
format (GL_COMPRESSED_RGB8_ETC2 .. GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC, GL_COMPRESSED_R11_EAC ..
GL_COMPRESSED_SIGNED_RG11_EAC), S3TC/DXT (incl. sRGB), RGTC, BPTC and ASTC (2D KHR and 3D OES;
GL_COMPRESSED_RGBA_ASTC_* as astc-*-unorm, SRGB8_ALPHA8 as astc-*-srgb). Key/value data is
skipped; mip level 0 of the first array element (or cube face) is decoded unless --level /
--layer say otherwise; a 3D texture's level gives all its slices. GL's ASTC formats do not say
LDR or HDR: --profile hdr decodes GL_COMPRESSED_RGBA_ASTC_* data as astc-*-sfloat. A wrong
endianness field, an uncompressed or unknown glInternalFormat, a 1D texture, a wrong imageSize or
truncated data is an input error (exit code 3).

.ktx2 input (KTX 2.0): vkFormat names the format: every BC1-BC7, ETC2/EAC and ASTC format,
ASTC 2D UNORM/SRGB/SFLOAT_BLOCK and the 3D ones of VK_EXT_texture_compression_astc_3d
(VK_FORMAT_ASTC_3x3x3_UNORM_BLOCK_EXT = 1000288000 .. 6x6x6_SFLOAT = 1000288029). 2D, 3D, array
and cube map textures with mip levels; supercompressionScheme 0 (none), 2 (Zstandard) and 3
(zlib): the chosen level is inflated first. Basis Universal (scheme 1 BasisLZ, or UASTC / ETC1S
data with vkFormat 0) is refused: transcode it to a GPU format first. The data format descriptor
must agree with vkFormat (block size, bytes per block, sRGB transfer); key/value data is skipped.
A malformed or inconsistent field, a level index that points outside the file, or a
supercompressed level that does not inflate to its uncompressedByteLength is an input error
(exit code 3).

Raw mode applies when --format is given (IN is raw blocks) or when OUT ends in .raw. A .raw
output holds the texels tightly packed, x fastest, then y, then z, little-endian: 4 bytes per
texel for rgba8, 8 (four halves) for rgba16f, the native format's size for native.

PNG output is 8-bit: RGBA8 texels as RGBA (sRGB formats keep their encoded bytes, as PNG
expects); native R8 as grey; native RG8 as RGB with blue 0; SNORM values -1..1 map to 0..255
(0 -> 128); rgba16f channels are clamped to 0..1 (colour channels of SNORM formats map from
-1..1). Native EAC output (R16 / RG16, e.g. --output native, the default for the signed EAC
formats) is written as a 16-bit PNG: R11 as 16-bit grey, RG11 as 16-bit RGB with blue 0, the
UNORM16 values as they are; SNORM -1..1 maps to 0..65535 (0 -> 32768). HDR formats (BC6H, ASTC
HDR) are refused for PNG (exit code 2): use .exr, .hdr or .raw.

EXR output (OpenEXR via libtinyexr, scanlines, ZIP): four HALF channels R, G, B, A holding the
RGBA16F texels bit for bit (sRGB formats keep their encoded values v/255, no EOTF; error colours
stay as decoded, including NaN). Any format with an rgba16f output can be written as .exr.

HDR output (Radiance RGBE via stb_image_write's stbi_write_hdr): the RGBA16F texels converted
from FP16 to float R, G, B; alpha is dropped. RGBE keeps an 8-bit mantissa per channel with a
shared exponent (lossy: about 1 % relative to the largest channel of a texel) and holds no
negative values, NaN or infinity: negatives and NaN (the error colour) become 0, +infinity 65504.
For the exact half bit patterns write .exr or .raw. Any format with an rgba16f output can be
written as .hdr.

Slices of a multi-slice image (a volume, a .astc file with zsize > 1, or --layer all) are
stacked top to bottom in a PNG, EXR or HDR: a W x H x D image gives a W x (H*D) image; a .raw
output holds every slice too.

Exit codes:
  0  success
  1  decode or device error (the library's status and message are printed), or a format
     this build does not implement yet
  2  usage error (bad command line)
  3  input file error (unreadable, malformed, truncated, unknown format in the file)
  4  output file error (cannot be written)

Examples:
  astc-gpu-decode decode samples/sample-bc3.dds sample.png
  astc-gpu-decode decode --profile srgb samples/sample-astc-6x6.astc sample.png
  astc-gpu-decode decode --format astc-8x5-unorm --extent 100x30 blocks.bin texels.raw
  astc-gpu-decode decode --output rgba16f --bc-rounding ideal texture.dds texels.raw
  astc-gpu-decode decode --format bc3-unorm --extent 256x128 blocks.bin texels.raw
  astc-gpu-decode decode sky-bc6h.dds sky.exr
  astc-gpu-decode decode --profile hdr sky-astc-6x6.astc sky.hdr
  astc-gpu-decode decode --profile srgb volume-astc-4x4x4.astc volume.png
  astc-gpu-decode decode --level 2 --layer all texture-array.ktx2 level2-layers.png
  astc-gpu-decode decode --output native heightmap-r11.ktx heightmap16.png
  astc-gpu-decode decode texture-etc2.pkm texture.png
  astc-gpu-decode decode --format bc7-srgb --extent 512x512 blocks.bin albedo.png
  astc-gpu-decode --device llvmpipe decode normals.dds normals.png
  astc-gpu-decode bench --format astc-6x6-unorm --format bc1-rgba-unorm --json bench.json
)";

// ---- command line ----------------------------------------------------------------------------

struct Options {
    std::string command;
    std::vector<std::string> positional;
    std::optional<std::string> device;
    std::optional<std::string> format;
    std::optional<std::string> extent;
    std::optional<std::string> output;
    std::optional<std::string> bc_rounding;
    std::optional<std::string> profile;
    std::optional<std::string> timeout;
    std::optional<std::string> level;
    std::optional<std::string> layer;
    // bench
    std::vector<std::string> formats;  // every --format, in order
    std::optional<std::string> size;
    std::optional<std::string> iterations;
    std::optional<std::string> warmup_ms;
    std::optional<std::string> json;
    bool validate = false;
    std::string command_line;
    bool verbose = false;
    bool help = false;
    bool version = false;
};

[[noreturn]] void usage_error(const std::string& message) {
    throw CliError{kExitUsage, message + " (see '" + kToolName + " --help')"};
}

// Options that take a value, and where each is stored.
std::optional<std::string>* value_slot(Options& options, std::string_view name) {
    if (name == "--device") return &options.device;
    if (name == "--format") return &options.format;
    if (name == "--extent") return &options.extent;
    if (name == "--output") return &options.output;
    if (name == "--bc-rounding") return &options.bc_rounding;
    if (name == "--profile") return &options.profile;
    if (name == "--timeout") return &options.timeout;
    if (name == "--level") return &options.level;
    if (name == "--layer") return &options.layer;
    if (name == "--size") return &options.size;
    if (name == "--iterations") return &options.iterations;
    if (name == "--warmup-ms") return &options.warmup_ms;
    if (name == "--json") return &options.json;
    return nullptr;
}

bool parse_flag(Options& options, std::string_view arg) {
    if (arg == "-h" || arg == "--help") return options.help = true;
    if (arg == "--version") return options.version = true;
    if (arg == "-v" || arg == "--verbose") return options.verbose = true;
    if (arg == "--validate") return options.validate = true;
    return false;
}

// Accepts "--name value" and "--name=value"; options may come before or after the command.
Options parse_command_line(int argc, char** argv) {
    Options options;
    for (int i = 0; i < argc; ++i) {
        if (i) options.command_line += ' ';
        options.command_line += argv[i];
    }
    bool options_ended = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        const bool is_option = !options_ended && arg.size() > 1 && arg[0] == '-';
        if (!is_option) {
            if (options.command.empty())
                options.command = arg;
            else
                options.positional.emplace_back(arg);
            continue;
        }
        if (arg == "--") {
            options_ended = true;
            continue;
        }
        if (parse_flag(options, arg)) continue;
        const size_t equals = arg.find('=');
        const std::string_view name = arg.substr(0, equals);
        std::optional<std::string>* slot = value_slot(options, name);
        if (!slot) usage_error("unknown option '" + std::string(arg) + "'");
        if (equals != std::string_view::npos) {
            *slot = std::string(arg.substr(equals + 1));
        } else {
            if (i + 1 >= argc) usage_error("option " + std::string(name) + " needs a value");
            *slot = argv[++i];
        }
        if (name == "--format") options.formats.push_back(**slot);
    }
    return options;
}

// Bench-only options given to another command are a mistake worth reporting.
void reject_bench_options(const Options& options) {
    const std::pair<const char*, const std::optional<std::string>*> bench_only[] = {
        {"--size", &options.size}, {"--iterations", &options.iterations},
        {"--warmup-ms", &options.warmup_ms}, {"--json", &options.json}};
    for (const auto& [name, value] : bench_only)
        if (value->has_value()) usage_error(std::string("option ") + name + " applies to 'bench' only");
    if (options.validate) usage_error("option --validate applies to 'bench' only");
}

// Decode-only options given to another command are a mistake worth reporting.
void reject_decode_options(const Options& options) {
    const std::pair<const char*, const std::optional<std::string>*> decode_only[] = {
        {"--format", &options.format},   {"--extent", &options.extent},
        {"--output", &options.output},   {"--bc-rounding", &options.bc_rounding},
        {"--profile", &options.profile}, {"--timeout", &options.timeout},
        {"--level", &options.level},     {"--layer", &options.layer},
    };
    for (const auto& [name, value] : decode_only)
        if (value->has_value()) usage_error(std::string("option ") + name + " applies to 'decode' only");
    reject_bench_options(options);
}

void expect_positional_count(const Options& options, size_t count, const char* what) {
    if (options.positional.size() != count)
        usage_error("'" + options.command + "' expects " + what + ", got " +
                    std::to_string(options.positional.size()) + " argument(s)");
}

std::optional<uint32_t> parse_u32(std::string_view text) {
    uint32_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
    return value;
}

struct Extent {
    uint32_t width, height, depth;
};

Extent parse_extent(const std::string& text) {
    std::vector<std::string_view> parts;
    std::string_view rest = text;
    for (size_t x; (x = rest.find_first_of("xX")) != std::string_view::npos; rest = rest.substr(x + 1))
        parts.push_back(rest.substr(0, x));
    parts.push_back(rest);
    if (parts.size() < 2 || parts.size() > 3) usage_error("--extent '" + text + "' is not WxH or WxHxD");
    uint32_t values[3] = {1, 1, 1};
    for (size_t i = 0; i < parts.size(); ++i) {
        const auto value = parse_u32(parts[i]);
        if (!value || *value == 0)
            usage_error("--extent '" + text + "': '" + std::string(parts[i]) + "' is not a positive integer");
        values[i] = *value;
    }
    return {values[0], values[1], values[2]};
}

texdec_format parse_format_name(const std::string& name) {
    const texdec_format format = texdec_format_from_name(name.c_str());
    if (format == TEXDEC_FORMAT_UNDEFINED)
        usage_error("unknown format '" + name + "' (run '" + kToolName + " formats' for the list)");
    return format;
}

texdec_output parse_output_type(const std::string& name) {
    if (name == "rgba8") return TEXDEC_OUTPUT_RGBA8;
    if (name == "rgba16f") return TEXDEC_OUTPUT_RGBA16F;
    if (name == "native") return TEXDEC_OUTPUT_NATIVE;
    usage_error("unknown --output '" + name + "' (rgba8, rgba16f or native)");
}

texdec_bc_rounding parse_bc_rounding(const std::string& name) {
    if (name == "exact") return TEXDEC_BC_ROUNDING_EXACT;
    if (name == "ideal") return TEXDEC_BC_ROUNDING_IDEAL;
    if (name == "nvidia") return TEXDEC_BC_ROUNDING_NVIDIA;  // reserved: the library says whether it has it
    usage_error("unknown --bc-rounding '" + name + "' (exact or ideal)");
}

astc_file::Profile parse_profile(const std::string& name) {
    if (name == "ldr") return astc_file::Profile::Ldr;
    if (name == "srgb") return astc_file::Profile::Srgb;
    if (name == "hdr") return astc_file::Profile::Hdr;
    usage_error("unknown --profile '" + name + "' (ldr, srgb or hdr)");
}

uint64_t parse_timeout_ns(const std::optional<std::string>& text) {
    if (!text) return 60ull * 1000 * 1000 * 1000;
    const auto seconds = parse_u32(*text);
    if (!seconds || *seconds == 0 || *seconds > 24 * 3600)
        usage_error("--timeout '" + *text + "' is not a number of seconds between 1 and 86400");
    return uint64_t(*seconds) * 1000 * 1000 * 1000;
}

// ---- library plumbing ------------------------------------------------------------------------

const char* output_name(texdec_output output) {
    switch (output) {
    case TEXDEC_OUTPUT_RGBA8: return "rgba8";
    case TEXDEC_OUTPUT_RGBA16F: return "rgba16f";
    case TEXDEC_OUTPUT_NATIVE: return "native";
    default: return "?";
    }
}

texdec_format_info format_info(texdec_format format) {
    texdec_format_info info{};
    texdec_format_get_info(format, &info);  // only called with formats the library named
    return info;
}

std::string status_text(texdec_status status) {
    return std::string(texdec_status_string(status)) + " [texdec status " + std::to_string(int(status)) + "]";
}

// Collects the library's messages: errors are kept for the failure report, warnings are
// printed at once, informational ones only with --verbose.
struct MessageLog {
    std::mutex mutex;
    std::vector<std::string> errors;
    bool verbose = false;

    static void callback(texdec_message_severity severity, const char* message, void* user_data) {
        auto* log = static_cast<MessageLog*>(user_data);
        std::lock_guard lock(log->mutex);
        switch (severity) {
        case TEXDEC_MESSAGE_ERROR: log->errors.emplace_back(message); break;
        case TEXDEC_MESSAGE_WARNING: std::fprintf(stderr, "texdec: warning: %s\n", message); break;
        case TEXDEC_MESSAGE_VALIDATION: std::fprintf(stderr, "texdec: validation: %s\n", message); break;
        case TEXDEC_MESSAGE_INFO:
            if (log->verbose) std::fprintf(stderr, "texdec: %s\n", message);
            break;
        }
    }

    // "what failed: status [texdec status N]: message; message"
    std::string describe_failure(const std::string& what, texdec_status status) {
        std::lock_guard lock(mutex);
        std::string text = what + ": " + status_text(status);
        for (size_t i = 0; i < errors.size(); ++i) text += (i == 0 ? ": " : "; ") + errors[i];
        errors.clear();
        return text;
    }
};

// Owns a texdec_context (the CLI keeps to the C API).
struct ContextHandle {
    texdec_context* context = nullptr;
    ~ContextHandle() { texdec_context_destroy(context); }
};

void create_context(const Options& options, MessageLog& log, ContextHandle& handle) {
    texdec_context_create_info info{};
    info.device_selector = options.device ? options.device->c_str() : nullptr;
    info.message_callback = &MessageLog::callback;
    info.user_data = &log;
    const texdec_status status = texdec_context_create(&info, &handle.context);
    if (status != TEXDEC_SUCCESS)
        throw CliError{kExitRuntime, log.describe_failure("cannot create a texdec context", status)};
    std::fprintf(stderr, "device: %s\n", texdec_context_device_name(handle.context));
}

// ---- files -----------------------------------------------------------------------------------

std::vector<uint8_t> read_input_file(const std::string& path) {
    FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) throw CliError{kExitInput, "cannot open '" + path + "': " + std::strerror(errno)};
    std::vector<uint8_t> bytes;
    uint8_t chunk[1 << 16];
    size_t got;
    try {
        while ((got = std::fread(chunk, 1, sizeof chunk, file)) > 0) bytes.insert(bytes.end(), chunk, chunk + got);
    } catch (const std::bad_alloc&) {
        std::fclose(file);
        throw CliError{kExitInput, "'" + path + "' is too large to read into memory"};
    }
    const bool failed = std::ferror(file);
    const int read_errno = errno;
    std::fclose(file);
    if (failed) throw CliError{kExitInput, "cannot read '" + path + "': " + std::strerror(read_errno)};
    return bytes;
}

bool ends_with_ignoring_case(std::string_view text, std::string_view suffix) {
    if (text.size() < suffix.size()) return false;
    return std::equal(suffix.begin(), suffix.end(), text.end() - suffix.size(),
                      [](char a, char b) { return std::tolower(uint8_t(a)) == std::tolower(uint8_t(b)); });
}

enum class OutputKind { Png, Exr, Hdr, Raw };

OutputKind output_kind(const std::string& path) {
    if (ends_with_ignoring_case(path, ".png")) return OutputKind::Png;
    if (ends_with_ignoring_case(path, ".exr")) return OutputKind::Exr;
    if (ends_with_ignoring_case(path, ".hdr")) return OutputKind::Hdr;
    if (ends_with_ignoring_case(path, ".raw")) return OutputKind::Raw;
    usage_error("output '" + path + "' must end in .png, .exr or .raw (images, texels), or .hdr (Radiance RGBE)");
}

// .exr and .hdr both take RGBA16F texels (an .hdr converts them to float RGB).
bool takes_rgba16f(OutputKind kind) { return kind == OutputKind::Exr || kind == OutputKind::Hdr; }
const char* output_kind_name(OutputKind kind) { return kind == OutputKind::Hdr ? ".hdr" : ".exr"; }

// ---- decode ----------------------------------------------------------------------------------

// What to decode: a format, an extent, and the blocks (pointing into the input file's bytes).
struct Source {
    texdec_format format;
    Extent extent;
    std::span<const uint8_t> blocks;
    std::vector<uint8_t> storage;  // owns the blocks when they are not the input file's bytes
};

Source raw_source(const Options& options, const std::string& path, std::span<const uint8_t> file) {
    if (!options.extent) usage_error("--format needs --extent WxH[xD]");
    if (options.level || options.layer) usage_error("--level and --layer apply to .dds, .ktx and .ktx2 inputs, not raw blocks");
    if (options.profile)
        usage_error("--profile applies to .astc files; with --format the format name says it (e.g. "
                    "astc-6x6-srgb)");
    const texdec_format format = parse_format_name(*options.format);
    const Extent extent = parse_extent(*options.extent);
    uint64_t needed = 0;
    const texdec_status status = texdec_encoded_size(format, extent.width, extent.height, extent.depth, &needed);
    if (status != TEXDEC_SUCCESS)
        usage_error("--extent " + *options.extent + " for " + *options.format + ": " + status_text(status));
    if (dds::has_magic(file))
        std::fprintf(stderr, "%s: warning: '%s' starts with a DDS header, but --format reads it as raw blocks\n",
                     kToolName, path.c_str());
    if (pkm::has_magic(file) || ktx::has_magic(file) || ktx2::has_magic(file))
        std::fprintf(stderr, "%s: warning: '%s' starts with a %s header, but --format reads it as raw blocks\n",
                     kToolName, path.c_str(), pkm::has_magic(file) ? ".pkm" : ktx::has_magic(file) ? "KTX" : "KTX 2");
    if (astc_file::has_magic(file))
        std::fprintf(stderr,
                     "%s: warning: '%s' starts with an .astc header, but --format reads it as raw blocks (drop "
                     "--format and --extent, and give --profile, to use the header)\n",
                     kToolName, path.c_str());
    if (file.size() < needed)
        throw CliError{kExitInput, "'" + path + "' holds " + std::to_string(file.size()) + " bytes; " +
                                       *options.format + " " + *options.extent + " needs " +
                                       std::to_string(needed) + " bytes"};
    if (file.size() > needed)
        std::fprintf(stderr, "%s: warning: '%s' has %llu bytes more than %s %s needs; they are ignored\n", kToolName,
                     path.c_str(), (unsigned long long)(file.size() - needed), options.format->c_str(),
                     options.extent->c_str());
    return {format, extent, file.first(size_t(needed)), {}};
}

// Which mip level and layers of a .dds, .ktx or .ktx2 input to decode (--level, --layer).
struct SurfacePick {
    uint32_t level = 0;
    uint32_t first_layer = 0;
    uint32_t layer_count = 1;
    bool chosen = false;  // --level or --layer given
};

SurfacePick pick_surfaces(const Options& options, const std::string& path, uint32_t levels, uint32_t layers,
                          const char* layer_word) {
    SurfacePick pick;
    pick.chosen = options.level || options.layer;
    if (options.level) {
        const auto level = parse_u32(*options.level);
        if (!level) usage_error("--level '" + *options.level + "' is not a mip level number");
        if (*level >= levels)
            usage_error("--level " + *options.level + ": '" + path + "' has " + std::to_string(levels) +
                        " mip level(s), 0 to " + std::to_string(levels - 1));
        pick.level = *level;
    }
    if (options.layer) {
        if (*options.layer == "all") {
            pick.layer_count = layers;
        } else {
            const auto layer = parse_u32(*options.layer);
            if (!layer) usage_error("--layer '" + *options.layer + "' is not a layer number or 'all'");
            if (*layer >= layers)
                usage_error("--layer " + *options.layer + ": '" + path + "' has " + std::to_string(layers) + " " +
                            layer_word + ", 0 to " + std::to_string(layers - 1));
            pick.first_layer = *layer;
        }
    }
    return pick;
}

void note_other_surfaces(const std::string& path, const SurfacePick& pick, uint32_t levels, uint32_t layers,
                         const char* layer_word) {
    if (!pick.chosen && (levels > 1 || layers > 1))
        std::fprintf(stderr, "%s: note: '%s' has %u mip level(s) and %u %s; decoding level 0 of the first "
                     "(--level N and --layer N|all choose others)\n",
                     kToolName, path.c_str(), levels, layers, layer_word);
}

// The picked layers of one mip level as one source: one layer as it is; several as the slices of
// a 2D image (a 2D block format decodes each slice's blocks in turn, so a layer is a slice).
Source stack_layers(texdec_format format, uint32_t width, uint32_t height, uint32_t depth,
                    const std::vector<std::span<const uint8_t>>& layers) {
    Source source{format, {width, height, depth * uint32_t(layers.size())}, layers.front(), {}};
    if (layers.size() == 1) return source;
    if (depth > 1 || format_info(format).block_depth > 1)
        usage_error("--layer all stacks the layers of 2D images as slices; with " +
                    std::string(format_info(format).name) + (depth > 1 ? " 3D images" : " (a 3D footprint)") +
                    " decode one --layer at a time");
    bool contiguous = true;
    size_t total = 0;
    for (size_t i = 0; i < layers.size(); ++i) {
        total += layers[i].size();
        if (i > 0 && layers[i].data() != layers[i - 1].data() + layers[i - 1].size()) contiguous = false;
    }
    if (contiguous) {
        source.blocks = std::span<const uint8_t>(layers.front().data(), total);
        return source;
    }
    try {
        source.storage.reserve(total);
    } catch (const std::bad_alloc&) {
        throw CliError{kExitRuntime, "out of host memory for " + std::to_string(total) + " bytes of blocks"};
    }
    for (const auto& layer : layers) source.storage.insert(source.storage.end(), layer.begin(), layer.end());
    source.blocks = source.storage;
    return source;
}

Source dds_source(const Options& options, const std::string& path, std::span<const uint8_t> file) {
    if (options.profile)
        usage_error("--profile applies to .astc files only (and to ASTC .ktx files); '" + path + "' is a DDS file, "
                    "whose header names its format");
    auto parsed = dds::parse(file);
    if (const auto* error = std::get_if<dds::Error>(&parsed))
        throw CliError{kExitInput, "'" + path + "': " + error->message};
    const dds::Texture& tex = std::get<dds::Texture>(parsed);
    const char* layer_word = tex.is_cube ? "cube face(s)" : "layer(s)";
    const SurfacePick pick = pick_surfaces(options, path, tex.mip_levels, tex.layers, layer_word);
    note_other_surfaces(path, pick, tex.mip_levels, tex.layers, layer_word);
    if (tex.trailing_bytes > 0)
        std::fprintf(stderr, "%s: warning: '%s' has %zu bytes after its last surface; they are ignored\n", kToolName,
                     path.c_str(), tex.trailing_bytes);
    std::vector<std::span<const uint8_t>> layers;
    for (uint32_t l = 0; l < pick.layer_count; ++l) {
        const dds::Surface& s = tex.surface(pick.first_layer + l, pick.level);
        layers.push_back(file.subspan(s.offset, s.size));
    }
    const dds::Surface& first = tex.surface(pick.first_layer, pick.level);
    return stack_layers(tex.format, first.width, first.height, first.depth, layers);
}

// A .astc file: the footprint and extent come from its header, linear/sRGB/HDR from --profile
// (default ldr: the file cannot say).
Source astc_source(const Options& options, const std::string& path, std::span<const uint8_t> file) {
    if (options.level || options.layer)
        usage_error("--level and --layer apply to .dds, .ktx and .ktx2 inputs; '" + path + "' is an .astc file (one "
                    "image)");
    const astc_file::Profile profile = options.profile ? parse_profile(*options.profile) : astc_file::Profile::Ldr;
    auto parsed = astc_file::parse(file);
    if (const auto* error = std::get_if<astc_file::Error>(&parsed))
        throw CliError{kExitInput, "'" + path + "': " + error->message};
    const astc_file::Texture& tex = std::get<astc_file::Texture>(parsed);
    if (tex.trailing_bytes > 0)
        std::fprintf(stderr, "%s: warning: '%s' has %zu bytes after its last block; they are ignored\n", kToolName,
                     path.c_str(), tex.trailing_bytes);
    return {tex.format(profile), {tex.width, tex.height, tex.depth}, file.subspan(tex.data_offset, tex.data_size), {}};
}

[[noreturn]] void profile_with_named_format(const std::string& path, const char* container) {
    usage_error(std::string("--profile applies to .astc files only (and to ASTC .ktx files); '") + path + "' is a " +
                container + " file, whose header names its format");
}

// A .pkm file (etcpack / etc1tool): one ETC1/ETC2/EAC image; the active extent is decoded.
Source pkm_source(const Options& options, const std::string& path, std::span<const uint8_t> file) {
    if (options.profile) profile_with_named_format(path, ".pkm");
    if (options.level || options.layer)
        usage_error("--level and --layer apply to .dds, .ktx and .ktx2 inputs; '" + path + "' is a .pkm file (one "
                    "image)");
    auto parsed = pkm::parse(file);
    if (const auto* error = std::get_if<pkm::Error>(&parsed))
        throw CliError{kExitInput, "'" + path + "': " + error->message};
    const pkm::Texture& tex = std::get<pkm::Texture>(parsed);
    if (tex.trailing_bytes > 0)
        std::fprintf(stderr, "%s: warning: '%s' has %zu bytes after its last block; they are ignored\n", kToolName,
                     path.c_str(), tex.trailing_bytes);
    return {tex.format, {tex.width, tex.height, 1}, file.subspan(tex.data_offset, tex.data_size), {}};
}

// GL's ASTC enums say linear or sRGB but not LDR or HDR (that is the GL context's profile), so a
// KTX 1 file's GL_COMPRESSED_RGBA_ASTC_* data is astc-*-unorm unless --profile hdr says sfloat.
texdec_format ktx_format_for_profile(const Options& options, const std::string& path, const ktx::Texture& tex) {
    if (!options.profile) return tex.format;
    const texdec_format_info info = format_info(tex.format);
    if (info.family != TEXDEC_FAMILY_ASTC) profile_with_named_format(path, "KTX");
    const astc_file::Profile profile = parse_profile(*options.profile);
    const bool srgb = info.flags & TEXDEC_FORMAT_FLAG_SRGB;
    if (srgb != (profile == astc_file::Profile::Srgb))
        usage_error("--profile " + *options.profile + " does not fit '" + path + "': its " + tex.container_format +
                    (srgb ? " is sRGB (--profile srgb, or none)" : " is linear: --profile ldr (the default) or hdr"));
    // UNORM, SRGB and SFLOAT are consecutive in texdec_format for every ASTC footprint.
    return profile == astc_file::Profile::Hdr ? texdec_format(tex.format + 2) : tex.format;
}

// A KTX 1.1 file: the picked mip level and layers (default: level 0 of the first array element or
// face); a 3D texture's level gives all its slices.
Source ktx_source(const Options& options, const std::string& path, std::span<const uint8_t> file) {
    auto parsed = ktx::parse(file);
    if (const auto* error = std::get_if<ktx::Error>(&parsed))
        throw CliError{kExitInput, "'" + path + "': " + error->message};
    const ktx::Texture& tex = std::get<ktx::Texture>(parsed);
    const texdec_format format = ktx_format_for_profile(options, path, tex);
    const char* layer_word = tex.is_cube ? "cube face(s)" : "array element(s)";
    const SurfacePick pick = pick_surfaces(options, path, tex.mip_levels, tex.layers, layer_word);
    note_other_surfaces(path, pick, tex.mip_levels, tex.layers, layer_word);
    if (tex.trailing_bytes > 0)
        std::fprintf(stderr, "%s: warning: '%s' has %zu bytes after its last mip level; they are ignored\n",
                     kToolName, path.c_str(), tex.trailing_bytes);
    std::vector<std::span<const uint8_t>> layers;
    for (uint32_t l = 0; l < pick.layer_count; ++l) {
        const ktx::Surface& s = tex.surface(pick.first_layer + l, pick.level);
        layers.push_back(file.subspan(s.offset, s.size));
    }
    const ktx::Surface& first = tex.surface(pick.first_layer, pick.level);
    return stack_layers(format, first.width, first.height, first.depth, layers);
}

// A KTX 2.0 file: vkFormat names the format (--profile is refused); the picked level is inflated
// first when the file is Zstandard- or zlib-supercompressed.
Source ktx2_source(const Options& options, const std::string& path, std::span<const uint8_t> file) {
    if (options.profile)
        usage_error("--profile applies to .astc files only (and to ASTC .ktx files); '" + path + "' is a KTX 2 file, "
                    "whose vkFormat names its format (UNORM, SRGB or SFLOAT)");
    auto parsed = ktx2::parse(file);
    if (const auto* error = std::get_if<ktx2::Error>(&parsed))
        throw CliError{kExitInput, "'" + path + "': " + error->message};
    const ktx2::Texture& tex = std::get<ktx2::Texture>(parsed);
    const char* layer_word = tex.is_cube ? "cube face(s)" : "layer(s)";
    const SurfacePick pick = pick_surfaces(options, path, tex.mip_levels, tex.layers, layer_word);
    note_other_surfaces(path, pick, tex.mip_levels, tex.layers, layer_word);
    std::vector<uint8_t> inflated;
    auto level = ktx2::level_data(file, tex, pick.level, inflated);
    if (const auto* error = std::get_if<ktx2::Error>(&level))
        throw CliError{kExitInput, "'" + path + "': " + error->message};
    const std::span<const uint8_t> data = std::get<std::span<const uint8_t>>(level);
    const ktx2::Level& l = tex.levels[pick.level];
    std::vector<std::span<const uint8_t>> layers;
    for (uint32_t i = 0; i < pick.layer_count; ++i)
        layers.push_back(data.subspan(size_t(l.image_bytes) * (pick.first_layer + i), size_t(l.image_bytes)));
    Source source = stack_layers(tex.format, l.width, l.height, l.depth, layers);
    if (!inflated.empty() && source.storage.empty()) source.storage = std::move(inflated);  // blocks point into it
    return source;
}

// Without --format, the container is chosen by the file's magic bytes, not by its name.
Source file_source(const Options& options, const std::string& path, std::span<const uint8_t> file) {
    if (options.extent) usage_error("--extent applies to raw blocks only (give --format too)");
    if (file.empty()) throw CliError{kExitInput, "'" + path + "' is empty"};
    if (dds::has_magic(file)) return dds_source(options, path, file);
    if (astc_file::has_magic(file)) return astc_source(options, path, file);
    if (pkm::has_magic(file)) return pkm_source(options, path, file);
    if (ktx::has_magic(file)) return ktx_source(options, path, file);
    if (ktx2::has_magic(file)) return ktx2_source(options, path, file);
    throw CliError{kExitInput, "'" + path + "' is neither a DDS file (no \"DDS \" magic), a .pkm file (no \"PKM "
                                            "\" magic), a KTX 1.1 file (no AB 4B 54 58 20 31 31 BB identifier), a "
                                            "KTX 2.0 file (no AB 4B 54 58 20 32 30 BB identifier) nor an .astc file "
                                            "(no 13 AB A1 5C magic); for raw blocks give --format and --extent"};
}

bool offers_output(texdec_format format, texdec_output output) {
    VkFormat ignored;
    return texdec_output_vk_format(format, output, &ignored) == TEXDEC_SUCCESS;
}

// An .exr holds RGBA16F halves: --output rgba16f, or native where native is RGBA16F (BC6H, ASTC HDR).
bool is_rgba16f(texdec_format format, texdec_output output) {
    VkFormat vk_format = VK_FORMAT_UNDEFINED;
    return texdec_output_vk_format(format, output, &vk_format) == TEXDEC_SUCCESS &&
           vk_format == VK_FORMAT_R16G16B16A16_SFLOAT;
}

[[noreturn]] void float_output_error(OutputKind kind, const std::string& output) {
    if (kind == OutputKind::Hdr)
        usage_error("an .hdr output is made from RGBA16F texels (as float R, G, B), not --output " + output +
                    "; drop --output (rgba16f is the default for .hdr) or write a .png or .raw");
    usage_error("an .exr output holds RGBA16F texels (half R, G, B, A), not --output " + output +
                "; drop --output (rgba16f is the default for .exr) or write a .png or .raw");
}

texdec_output choose_output(const Options& options, texdec_format format, OutputKind kind) {
    const texdec_format_info info = format_info(format);
    // A PNG would clip an HDR format to 0..1 and lose what makes it HDR: refused rather than guessed.
    if (kind == OutputKind::Png && (info.flags & TEXDEC_FORMAT_FLAG_HDR))
        usage_error(std::string(info.name) + " is an HDR format; a PNG (8-bit) cannot hold it: write an .exr "
                    "(RGBA16F halves) or a .raw output");
    if (takes_rgba16f(kind)) {
        const texdec_output output = options.output ? parse_output_type(*options.output) : TEXDEC_OUTPUT_RGBA16F;
        if (!is_rgba16f(format, output)) {
            if (output != TEXDEC_OUTPUT_RGBA16F) float_output_error(kind, *options.output);
            usage_error(std::string(info.name) + " has no rgba16f output, which an " + output_kind_name(kind) +
                        " output needs");
        }
        return output;
    }
    if (options.output) {
        const texdec_output output = parse_output_type(*options.output);
        if (!offers_output(format, output))
            usage_error(std::string(format_info(format).name) + " has no " + *options.output +
                        " output (signed and float formats have no rgba8; try rgba16f or native)");
        return output;
    }
    if (kind == OutputKind::Raw) return TEXDEC_OUTPUT_NATIVE;
    return offers_output(format, TEXDEC_OUTPUT_RGBA8) ? TEXDEC_OUTPUT_RGBA8 : TEXDEC_OUTPUT_NATIVE;
}

// Refuses before touching the device what this build cannot decode.
void require_implemented(texdec_format format) {
    const texdec_format_info info = format_info(format);
    if (!(info.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED))
        throw CliError{kExitRuntime, std::string(info.name) + " is not implemented in this build: " +
                                         status_text(TEXDEC_ERROR_UNSUPPORTED_FORMAT) +
                                         " (this build decodes the formats marked 'yes' in '" + kToolName +
                                         " formats')"};
}

std::vector<uint8_t> allocate_texels(const Source& source, texdec_output output) {
    uint64_t size = 0;
    const texdec_status status = texdec_decoded_size(source.format, output, source.extent.width,
                                                     source.extent.height, source.extent.depth, &size);
    if (status != TEXDEC_SUCCESS) throw CliError{kExitRuntime, "texdec_decoded_size: " + status_text(status)};
    if (size > SIZE_MAX) throw CliError{kExitRuntime, "decoded image does not fit in memory"};
    try {
        return std::vector<uint8_t>(size_t(size));
    } catch (const std::bad_alloc&) {
        throw CliError{kExitRuntime, "out of host memory for " + std::to_string(size) + " bytes of decoded texels"};
    }
}

void decode_on_device(texdec_context* context, MessageLog& log, const Source& source, texdec_output output,
                      texdec_bc_rounding rounding, uint64_t timeout_ns, std::vector<uint8_t>& texels) {
    texdec_host_job job{};
    job.format = source.format;
    job.output = output;
    job.bc_rounding = rounding;
    job.width = source.extent.width;
    job.height = source.extent.height;
    job.depth = source.extent.depth;
    job.blocks = source.blocks.data();
    job.blocks_size = source.blocks.size();
    job.texels = texels.data();
    job.texels_size = texels.size();
    job.timeout_ns = timeout_ns;
    const texdec_status status = texdec_decode(context, &job);
    if (status != TEXDEC_SUCCESS) throw CliError{kExitRuntime, log.describe_failure("decode failed", status)};
}

void write_output(const std::string& path, OutputKind kind, const Source& source, texdec_output output,
                  const std::vector<uint8_t>& texels) {
    image_write::WriteResult result;
    if (kind == OutputKind::Raw) {
        result = image_write::write_raw(path, texels);
    } else {
        VkFormat vk_format = VK_FORMAT_UNDEFINED;
        texdec_output_vk_format(source.format, output, &vk_format);
        const image_write::DecodedImage image{texels, source.extent.width, source.extent.height,
                                              source.extent.depth, vk_format};
        if (kind == OutputKind::Exr) {
            result = image_write::write_exr(path, image);
        } else if (kind == OutputKind::Hdr) {
            result = image_write::write_hdr(path, image);
        } else {
            // SNORM values map from -1..1 (HDR formats never get here: choose_output refuses them).
            const uint32_t flags = format_info(source.format).flags;
            const bool snorm = (flags & TEXDEC_FORMAT_FLAG_SIGNED) && !(flags & TEXDEC_FORMAT_FLAG_HDR);
            result = image_write::write_png(path, image, snorm);
        }
        if (result.ok && source.extent.depth > 1)
            std::fprintf(stderr, "%s: note: %u slices stacked top to bottom in '%s' (%ux%u pixels)\n", kToolName,
                         source.extent.depth, path.c_str(), source.extent.width,
                         source.extent.height * source.extent.depth);
    }
    if (!result.ok) throw CliError{kExitOutput, result.message};
}

int run_decode(const Options& options) {
    reject_bench_options(options);
    if (options.formats.size() > 1) usage_error("'decode' takes one --format");
    expect_positional_count(options, 2, "IN OUT");
    const std::string& in_path = options.positional[0];
    const std::string& out_path = options.positional[1];
    const OutputKind kind = output_kind(out_path);
    const texdec_bc_rounding rounding = options.bc_rounding ? parse_bc_rounding(*options.bc_rounding)
                                                            : TEXDEC_BC_ROUNDING_EXACT;
    const uint64_t timeout_ns = parse_timeout_ns(options.timeout);
    // Usage errors before reading files.
    if (options.output && parse_output_type(*options.output) == TEXDEC_OUTPUT_RGBA8 && takes_rgba16f(kind))
        float_output_error(kind, *options.output);
    if (options.profile) parse_profile(*options.profile);

    const std::vector<uint8_t> file = read_input_file(in_path);
    const Source source = options.format ? raw_source(options, in_path, file) : file_source(options, in_path, file);
    const texdec_output output = choose_output(options, source.format, kind);
    require_implemented(source.format);
    std::vector<uint8_t> texels = allocate_texels(source, output);

    MessageLog log;
    log.verbose = options.verbose;
    ContextHandle context;
    create_context(options, log, context);
    const auto start = std::chrono::steady_clock::now();
    decode_on_device(context.context, log, source, output, rounding, timeout_ns, texels);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    write_output(out_path, kind, source, output, texels);

    std::fprintf(stderr, "decoded %s %ux%ux%u (%s) in %.1f ms -> %s\n", format_info(source.format).name,
                 source.extent.width, source.extent.height, source.extent.depth, output_name(output), ms,
                 out_path.c_str());
    return kExitOk;
}

// ---- list-devices, formats -------------------------------------------------------------------

const char* device_type_name(VkPhysicalDeviceType type) {
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
    }
}

void print_device(uint32_t index, const char* name, VkPhysicalDeviceType type, uint32_t api_version, void* count) {
    ++*static_cast<uint32_t*>(count);
    std::printf("%-5u  %-14s  %u.%u.%-5u  %s\n", index, device_type_name(type), VK_API_VERSION_MAJOR(api_version),
                VK_API_VERSION_MINOR(api_version), VK_API_VERSION_PATCH(api_version), name);
}

int run_list_devices(const Options& options) {
    reject_decode_options(options);
    expect_positional_count(options, 0, "no arguments");
    std::printf("%-5s  %-14s  %-9s  %s\n", "index", "type", "vulkan", "name");
    uint32_t count = 0;
    const texdec_status status = texdec_enumerate_devices(&print_device, &count);
    if (status != TEXDEC_SUCCESS)
        throw CliError{kExitRuntime, "cannot enumerate Vulkan devices: " + status_text(status)};
    if (count == 0) throw CliError{kExitRuntime, "no Vulkan devices found (is mesa-vulkan-drivers installed?)"};
    return kExitOk;
}

std::string block_size_text(const texdec_format_info& info) {
    char text[40];  // snprintf rather than string concatenation: GCC 12 warns falsely (-Wrestrict) on that
    if (info.block_depth > 1)
        std::snprintf(text, sizeof text, "%ux%ux%u", info.block_width, info.block_height, info.block_depth);
    else
        std::snprintf(text, sizeof text, "%ux%u", info.block_width, info.block_height);
    return text;
}

int run_formats(const Options& options) {
    reject_decode_options(options);
    expect_positional_count(options, 0, "no arguments");
    std::printf("%-22s  %-6s  %-11s  %s\n", "format", "block", "bytes/block", "implemented");
    for (int f = TEXDEC_FORMAT_UNDEFINED + 1; f < TEXDEC_FORMAT_COUNT; ++f) {
        texdec_format_info info{};
        if (texdec_format_get_info(texdec_format(f), &info) != TEXDEC_SUCCESS) continue;
        std::printf("%-22s  %-6s  %-11u  %s\n", info.name, block_size_text(info).c_str(), info.bytes_per_block,
                    (info.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED) ? "yes" : "no");
    }
    return kExitOk;
}

// ---- bench -------------------------------------------------------------------------------------

int run_bench(const Options& options) {
    expect_positional_count(options, 0, "no arguments (options only)");
    if (options.extent) usage_error("option --extent applies to 'decode' only (bench takes --size)");
    if (options.profile) usage_error("option --profile applies to 'decode' only (bench takes --format astc-WxH-srgb)");
    if (options.timeout) usage_error("option --timeout applies to 'decode' only");
    if (options.level || options.layer) usage_error("options --level and --layer apply to 'decode' only");
    bench::Options b;
    for (const std::string& name : options.formats) {
        const texdec_format format = parse_format_name(name);
        if (!(format_info(format).flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED))
            usage_error(name + " is not implemented in this build (see '" + std::string(kToolName) + " formats')");
        const uint32_t family = format_info(format).family;
        if (family != TEXDEC_FAMILY_ASTC && family != TEXDEC_FAMILY_BC1_3 && family != TEXDEC_FAMILY_BC4_5 &&
            family != TEXDEC_FAMILY_BC6H && family != TEXDEC_FAMILY_BC7 && family != TEXDEC_FAMILY_ETC2 &&
            family != TEXDEC_FAMILY_EAC)
            usage_error("the bench has no block generator for " + name + " yet");
        if (format_info(format).block_depth > 1)
            usage_error("the bench has no 3D block generator for " + name + " yet");
        if (std::find(b.formats.begin(), b.formats.end(), format) == b.formats.end()) b.formats.push_back(format);
    }
    if (options.size) {
        const Extent e = parse_extent(*options.size);
        if (e.depth != 1) usage_error("--size takes WxH");
        if (e.width > 65536 || e.height > 65536) usage_error("--size: at most 65536x65536");
        b.width = e.width;
        b.height = e.height;
    }
    if (options.iterations) {
        const auto n = parse_u32(*options.iterations);
        if (!n || *n == 0 || *n > 100000) usage_error("--iterations '" + *options.iterations + "' is not a number from 1 to 100000");
        b.iterations = *n;
    }
    if (options.warmup_ms) {
        const auto n = parse_u32(*options.warmup_ms);
        if (!n || *n > 600000) usage_error("--warmup-ms '" + *options.warmup_ms + "' is not a number of milliseconds up to 600000");
        b.warmup_ms = *n;
    }
    if (options.output) {
        b.output = parse_output_type(*options.output);
        for (texdec_format f : b.formats.empty() ? bench::default_formats() : b.formats)
            if (!offers_output(f, *b.output))
                usage_error(std::string(format_info(f).name) + " has no " + *options.output + " output");
    }
    if (options.bc_rounding) {
        b.bc_rounding = parse_bc_rounding(*options.bc_rounding);
        if (b.bc_rounding == TEXDEC_BC_ROUNDING_NVIDIA) usage_error("--bc-rounding nvidia is not implemented yet");
    }
    if (options.json) b.json_path = *options.json;
    b.validate = options.validate;
    if (options.device) b.device_selector = *options.device;
    b.command_line = options.command_line;
    b.verbose = options.verbose;
    try {
        return bench::run(b);
    } catch (const std::runtime_error& e) {
        throw CliError{kExitRuntime, std::string("bench: ") + e.what()};
    }
}

int run(int argc, char** argv) {
    const Options options = parse_command_line(argc, argv);
    if (options.help) {
        std::fputs(kHelp, stdout);
        return kExitOk;
    }
    if (options.version) {
        const uint32_t library = texdec_version();
        std::printf("%s %s (texdec library %u.%u.%u)\n", kToolName, TEXDEC_CLI_VERSION, library >> 16,
                    (library >> 8) & 0xFF, library & 0xFF);
        return kExitOk;
    }
    if (options.command.empty()) usage_error("no command given");
    if (options.command == "decode") return run_decode(options);
    if (options.command == "bench") return run_bench(options);
    if (options.command == "list-devices") return run_list_devices(options);
    if (options.command == "formats") return run_formats(options);
    usage_error("unknown command '" + options.command + "'");
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const CliError& error) {
        std::fprintf(stderr, "%s: error: %s\n", kToolName, error.message.c_str());
        return error.code;
    } catch (const std::exception& error) {  // e.g. std::bad_alloc outside the places that expect it
        std::fprintf(stderr, "%s: error: %s\n", kToolName, error.what());
        return kExitRuntime;
    }
}

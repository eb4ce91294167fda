// astc-gpu-decode decode / info: one file or a batch (files, directories, @listfiles), surface
// selection (--level, --layer, --face, --slice), every output writer, --verify against the CPU
// reference, progress, a summary and --json results.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <new>
#include <thread>
#include <unistd.h>

#include "astc_hdr_scan.h"
#include "cli_common.h"
#include "image_write.h"
#include "input_file.h"
#include "json.h"
#include "reference/cpu_reference.h"
#include "safe_output.h"
#include "texture_file.h"

namespace cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// ---- output kinds ------------------------------------------------------------------------------

enum class OutputKind { Png, Tga, Exr, Hdr, Ktx2, Raw };

struct KindName {
    OutputKind kind;
    const char* extension;
};
constexpr KindName kKinds[] = {{OutputKind::Png, "png"}, {OutputKind::Tga, "tga"},   {OutputKind::Exr, "exr"},
                               {OutputKind::Hdr, "hdr"}, {OutputKind::Ktx2, "ktx2"}, {OutputKind::Raw, "raw"}};

const char* extension(OutputKind kind) {
    for (const KindName& k : kKinds)
        if (k.kind == kind) return k.extension;
    return "?";
}

std::optional<OutputKind> kind_from_extension(std::string_view name) {
    for (const KindName& k : kKinds)
        if (name == k.extension) return k.kind;
    return std::nullopt;
}

OutputKind kind_from_path(const std::string& path) {
    for (const KindName& k : kKinds)
        if (ends_with_ignoring_case(path, std::string(".") + k.extension)) return k.kind;
    usage_error("output '" + path + "' must end in .png or .tga (8-bit images; 16-bit PNG for native EAC), "
                ".exr (half floats), .hdr (Radiance RGBE), .ktx2 (uncompressed, every level and layer) or .raw "
                "(texels)");
}

// .exr and .hdr both take RGBA16F texels (an .hdr converts them to float RGB).
bool takes_rgba16f(OutputKind kind) { return kind == OutputKind::Exr || kind == OutputKind::Hdr; }
bool is_8bit_image(OutputKind kind) { return kind == OutputKind::Png || kind == OutputKind::Tga; }

bool is_rgba16f(texdec_format format, texdec_output output) {
    VkFormat vk_format = VK_FORMAT_UNDEFINED;
    return texdec_output_vk_format(format, output, &vk_format) == TEXDEC_SUCCESS &&
           vk_format == VK_FORMAT_R16G16B16A16_SFLOAT;
}

[[noreturn]] void float_output_error(OutputKind kind, const std::string& output) {
    if (kind == OutputKind::Hdr)
        usage_error("an .hdr output is made from RGBA16F texels (as float R, G, B), not --output " + output +
                    "; drop --output (rgba16f is the default for .hdr) or write a .png, .ktx2 or .raw");
    usage_error("an .exr output holds RGBA16F texels (half R, G, B, A), not --output " + output +
                "; drop --output (rgba16f is the default for .exr) or write a .png, .ktx2 or .raw");
}

// The output type for this format and kind: --output, else the kind's default (rgba8 where the
// format has it for 8-bit images, rgba16f for .exr / .hdr, native for .ktx2 and .raw).
texdec_output choose_output(const Options& options, texdec_format format, OutputKind kind) {
    const texdec_format_info info = format_info(format);
    // An 8-bit image would clip an HDR format to 0..1 and lose what makes it HDR: refused, not guessed.
    if (is_8bit_image(kind) && (info.flags & TEXDEC_FORMAT_FLAG_HDR))
        usage_error(std::string(info.name) + " is an HDR format; a ." + extension(kind) +
                    " (8-bit) cannot hold it: write an .exr, .hdr, .ktx2 or .raw output");
    if (takes_rgba16f(kind)) {
        const texdec_output output = options.output ? parse_output_type(*options.output) : TEXDEC_OUTPUT_RGBA16F;
        if (!is_rgba16f(format, output)) {
            if (output != TEXDEC_OUTPUT_RGBA16F) float_output_error(kind, *options.output);
            usage_error(std::string(info.name) + " has no rgba16f output, which an ." + extension(kind) +
                        " output needs");
        }
        return output;
    }
    if (options.output) {
        const texdec_output output = parse_output_type(*options.output);
        if (!offers_output(format, output))
            usage_error(std::string(info.name) + " has no " + *options.output +
                        " output (signed and float formats have no rgba8; try rgba16f or native)");
        return output;
    }
    if (kind == OutputKind::Raw || kind == OutputKind::Ktx2) return TEXDEC_OUTPUT_NATIVE;
    return offers_output(format, TEXDEC_OUTPUT_RGBA8) ? TEXDEC_OUTPUT_RGBA8 : TEXDEC_OUTPUT_NATIVE;
}

// ---- selection ---------------------------------------------------------------------------------

struct Selector {
    enum Kind { Default, Index, All } kind = Default;
    uint32_t index = 0;
    const char* option = "";  // "--level"
    const char* suffix = "";  // "-mip" (output names with 'all')
};

Selector parse_selector(const std::optional<std::string>& text, const char* option, const char* suffix) {
    Selector s;
    s.option = option;
    s.suffix = suffix;
    if (!text) return s;
    if (*text == "all") {
        s.kind = Selector::All;
        return s;
    }
    const auto index = parse_u32(*text);
    if (!index) usage_error(std::string(option) + " '" + *text + "' is not a number or 'all'");
    s.kind = Selector::Index;
    s.index = *index;
    return s;
}

struct Selection {
    Selector level, layer, face, slice;
};

Selection parse_selection(const Options& options) {
    return {parse_selector(options.level, "--level", "-mip"), parse_selector(options.layer, "--layer", "-layer"),
            parse_selector(options.face, "--face", "-face"), parse_selector(options.slice, "--slice", "-slice")};
}

// The indices a selector picks out of `count` (Default: the first, or all for a .ktx2 output).
std::vector<uint32_t> pick(const Selector& s, uint32_t count, bool default_all, const char* what) {
    if (s.kind == Selector::Index) {
        if (s.index >= count)
            usage_error(std::string(s.option) + " " + std::to_string(s.index) + ": the file has " +
                        std::to_string(count) + " " + what + (count == 1 ? "" : "s") + " (0 to " +
                        std::to_string(count - 1) + ")");
        return {s.index};
    }
    std::vector<uint32_t> all;
    const uint32_t n = (s.kind == Selector::All || default_all) ? count : 1;
    for (uint32_t i = 0; i < n; ++i) all.push_back(i);
    return all;
}

// "out.png" + "-mip2" -> "out-mip2.png"
std::string with_suffix(const std::string& path, const std::string& suffix) {
    if (suffix.empty()) return path;
    const size_t dot = path.rfind('.');
    const size_t slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return path + suffix;
    return path.substr(0, dot) + suffix + path.substr(dot);
}

// ---- verify ------------------------------------------------------------------------------------

float half_to_float(uint16_t h) {
    const int exponent = (h >> 10) & 31, mantissa = h & 1023;
    const float sign = (h & 0x8000) ? -1.0f : 1.0f;
    if (exponent == 31) return mantissa ? NAN : sign * INFINITY;
    if (exponent == 0) return sign * std::ldexp(float(mantissa), -24);
    return sign * std::ldexp(float(mantissa | 1024), exponent - 25);
}

// The channel values of one texel as floats (UNORM / SNORM normalised, halves as they are).
int texel_channels(VkFormat format, const uint8_t* t, float out[4]) {
    auto u16 = [&](int i) { return uint16_t(t[2 * i] | t[2 * i + 1] << 8); };
    switch (format) {
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_SRGB:
        for (int c = 0; c < 4; ++c) out[c] = t[c] / 255.0f;
        return 4;
    case VK_FORMAT_R8_UNORM:
    case VK_FORMAT_R8G8_UNORM:
        for (int c = 0; c < (format == VK_FORMAT_R8_UNORM ? 1 : 2); ++c) out[c] = t[c] / 255.0f;
        return format == VK_FORMAT_R8_UNORM ? 1 : 2;
    case VK_FORMAT_R8_SNORM:
    case VK_FORMAT_R8G8_SNORM:
        for (int c = 0; c < (format == VK_FORMAT_R8_SNORM ? 1 : 2); ++c)
            out[c] = std::max(int(int8_t(t[c])), -127) / 127.0f;
        return format == VK_FORMAT_R8_SNORM ? 1 : 2;
    case VK_FORMAT_R16_UNORM:
    case VK_FORMAT_R16G16_UNORM:
        for (int c = 0; c < (format == VK_FORMAT_R16_UNORM ? 1 : 2); ++c) out[c] = u16(c) / 65535.0f;
        return format == VK_FORMAT_R16_UNORM ? 1 : 2;
    case VK_FORMAT_R16_SNORM:
    case VK_FORMAT_R16G16_SNORM:
        for (int c = 0; c < (format == VK_FORMAT_R16_SNORM ? 1 : 2); ++c)
            out[c] = std::max(int(int16_t(u16(c))), -32767) / 32767.0f;
        return format == VK_FORMAT_R16_SNORM ? 1 : 2;
    case VK_FORMAT_R16G16B16A16_SFLOAT:
        for (int c = 0; c < 4; ++c) out[c] = half_to_float(u16(c));
        return 4;
    default: return 0;
    }
}

struct VerifyStats {
    bool ran = false;
    uint64_t texels = 0;
    uint64_t mismatched = 0;
    std::string first_mismatch;  // "level 0 layer 0 face 0 texel (3, 1, 0): GPU ... reference ..."
    double squared_error = 0;    // over finite channel pairs
    uint64_t channels = 0;
    double peak = 1.0;           // 1 for normalised outputs; the largest finite |reference| for HDR

    double psnr_db() const {
        if (squared_error == 0 || channels == 0) return INFINITY;
        return 10.0 * std::log10(peak * peak / (squared_error / double(channels)));
    }
};

std::string hex_bytes(const uint8_t* bytes, size_t n) {
    static const char* digits = "0123456789abcdef";
    std::string text;
    for (size_t i = 0; i < n; ++i) {
        text += digits[bytes[i] >> 4];
        text += digits[bytes[i] & 15];
    }
    return text;
}

// Compares the GPU texels of one surface with the CPU reference's.
void compare_texels(const std::vector<uint8_t>& gpu, const std::vector<uint8_t>& reference, size_t texel_bytes,
                    VkFormat vk_format, bool hdr, uint32_t width, uint32_t height, const std::string& where,
                    VerifyStats& stats) {
    const size_t count = gpu.size() / texel_bytes;
    stats.ran = true;
    stats.texels += count;
    for (size_t i = 0; i < count; ++i) {
        const uint8_t* g = gpu.data() + i * texel_bytes;
        const uint8_t* r = reference.data() + i * texel_bytes;
        float gv[4], rv[4];
        const int channels = texel_channels(vk_format, g, gv);
        texel_channels(vk_format, r, rv);
        for (int c = 0; c < channels; ++c) {
            if (!std::isfinite(rv[c])) continue;
            if (hdr) stats.peak = std::max(stats.peak, double(std::fabs(rv[c])));
            if (!std::isfinite(gv[c])) continue;
            const double d = double(gv[c]) - double(rv[c]);
            stats.squared_error += d * d;
            ++stats.channels;
        }
        if (std::memcmp(g, r, texel_bytes) == 0) continue;
        if (stats.mismatched++ == 0) {
            const size_t x = i % width, y = (i / width) % height, z = i / (size_t(width) * height);
            stats.first_mismatch = where + " texel (" + std::to_string(x) + ", " + std::to_string(y) + ", " +
                                   std::to_string(z) + "): GPU " + hex_bytes(g, texel_bytes) + ", reference " +
                                   hex_bytes(r, texel_bytes);
        }
    }
}

// TEXDEC_CLI_VERIFY_FAULT=N (tests only): flip the lowest bit of texel N of the first surface the
// GPU decoded, so the tests can see --verify report a planted mismatch.
std::optional<uint64_t> planted_fault() {
    const char* text = std::getenv("TEXDEC_CLI_VERIFY_FAULT");
    if (!text || !*text) return std::nullopt;
    return parse_u32(text);
}

// ---- one file ----------------------------------------------------------------------------------

struct OutputRecord {
    std::string path;
    uint32_t level, layer, face;
    int slice;  // -1: every slice of the level
    Extent extent;
};

struct FileResult {
    std::string input;
    int exit_code = kExitOk;
    std::string message;  // the error, when exit_code != 0
    bool opened = false;
    std::string container, container_format, format, output_type;
    Extent extent{0, 0, 0};
    uint32_t levels = 0, layers = 0, faces = 0;
    std::vector<OutputRecord> outputs;
    std::vector<std::string> notes;
    std::vector<std::string> warnings;  // printed as warnings, and in --json
    bool more_surfaces = false;         // a batch: the default selection left levels / layers / faces out
    std::string profile_ignored;        // a batch: why --profile did not apply
    // ASTC LDR / sRGB: decoded surfaces, those mostly of HDR blocks, and the HDR blocks in them.
    uint32_t astc_surfaces = 0, hdr_surfaces = 0;
    astc_hdr_scan::Count hdr_blocks;
    std::string hdr_where;              // the first mostly-HDR surface: "level 0 layer 0 face 0"
    uint64_t texels = 0;
    double gpu_ms = 0, wall_ms = 0;
    bool gpu_timed = true;
    VerifyStats verify;
};

// Everything the workers share (read-only, except the context, which is thread-safe).
struct Shared {
    const Options& options;
    Selection selection;
    texdec_bc_rounding rounding;
    uint64_t timeout_ns;
    std::optional<astc_file::Profile> profile;  // --profile (or -dl / -ds / -dh)
    std::optional<texdec_format> raw_format;
    Extent raw_extent{0, 0, 0};
    std::optional<OutputKind> fixed_kind;  // from OUT, or --to
    texdec_context* context = nullptr;
    MessageLog* log = nullptr;
    std::optional<uint64_t> fault;
    input_file::MemoryBudget* budget = nullptr;  // --max-memory, shared by the files in flight
};

struct Item {
    std::string input;
    std::string output;  // OUT, or out-dir path with the kind's extension ("" extension: chosen per file)
};

struct Surface {
    uint32_t level, layer, face;
    uint32_t width, height, depth;
    std::vector<uint8_t> texels;
};

// ASTC data read in the LDR or sRGB profile: counts the blocks only the HDR profile decodes (see
// astc_hdr_scan.h) in each surface, for hdr_warning().
void count_hdr_blocks(texdec_format format, std::span<const uint8_t> blocks, const std::string& where,
                      FileResult& result) {
    const texdec_format_info info = format_info(format);
    if (info.family != TEXDEC_FAMILY_ASTC || (info.flags & TEXDEC_FORMAT_FLAG_HDR)) return;
    const astc_hdr_scan::Count count =
        astc_hdr_scan::count(blocks, info.block_width, info.block_height, info.block_depth);
    ++result.astc_surfaces;
    if (!astc_hdr_scan::mostly_hdr(count)) return;
    if (result.hdr_surfaces++ == 0) result.hdr_where = where;
    result.hdr_blocks.blocks += count.blocks;
    result.hdr_blocks.hdr += count.hdr;
}

// When a decoded surface was mostly HDR blocks, the output is mostly error colour: says so and
// names the fix (the decode itself is right for the profile asked, so the exit code stays 0).
void hdr_warning(texdec_format format, FileResult& result) {
    if (result.hdr_surfaces == 0) return;
    const texdec_format_info info = format_info(format);
    const bool srgb = info.flags & TEXDEC_FORMAT_FLAG_SRGB;
    // UNORM, SRGB and SFLOAT are consecutive for every ASTC footprint.
    const texdec_format_info hdr = format_info(texdec_format(int(format) + (srgb ? 1 : 2)));
    const astc_hdr_scan::Count& c = result.hdr_blocks;
    const std::string where = result.hdr_surfaces == 1 && result.astc_surfaces == 1
                                  ? result.hdr_where
                                  : std::to_string(result.hdr_surfaces) + " of the " +
                                        std::to_string(result.astc_surfaces) + " decoded surfaces (first: " +
                                        result.hdr_where + ")";
    result.warnings.push_back("'" + result.input + "': " + std::to_string(c.hdr) + " of " + std::to_string(c.blocks) +
                              " ASTC blocks (" + std::to_string(c.hdr * 100 / c.blocks) + " %) of " + where +
                              " use HDR endpoint modes or are HDR void extents, which " + info.name + " (the " +
                              (srgb ? "sRGB" : "LDR") + " profile) decodes to the error colour (magenta): the data "
                              "is HDR; decode it with -dh (--profile hdr) as " + hdr.name);
}

// RXGB: the file's red is in the blocks' alpha and the other way round; swaps them back in texels
// of 4 channels (RGBA8, or RGBA16F halves).
void swap_red_alpha(texdec_format format, texdec_output output, std::vector<uint8_t>& texels) {
    uint32_t texel_bytes = 0;
    texdec_output_texel_size(format, output, &texel_bytes);
    const uint32_t channel = texel_bytes / 4;
    if (channel == 0 || texel_bytes % 4) return;
    for (size_t at = 0; at + texel_bytes <= texels.size(); at += texel_bytes)
        std::swap_ranges(texels.begin() + std::ptrdiff_t(at), texels.begin() + std::ptrdiff_t(at + channel),
                         texels.begin() + std::ptrdiff_t(at + 3 * channel));
}

// Decodes one surface (every slice) on the GPU, and on the CPU too with --verify.
Surface decode_surface(Shared& shared, texture_file::TextureFile& file, texdec_output output, uint32_t level,
                       uint32_t layer, uint32_t face, FileResult& result) {
    const texture_file::LevelInfo& info = file.level_info[level];
    Surface surface{level, layer, face, info.width, info.height, info.depth, {}};
    auto blocks = file.blocks(level, layer, face);
    if (const auto* error = std::get_if<texture_file::Error>(&blocks))
        throw CliError{kExitInput, "'" + result.input + "': " + error->message};
    const std::span<const uint8_t> data = std::get<std::span<const uint8_t>>(blocks);
    count_hdr_blocks(file.format, data, "level " + std::to_string(level) + " layer " + std::to_string(layer) +
                                            " face " + std::to_string(face), result);

    uint64_t size = 0;
    texdec_status status = texdec_decoded_size(file.format, output, info.width, info.height, info.depth, &size);
    if (status != TEXDEC_SUCCESS) throw CliError{kExitRuntime, "texdec_decoded_size: " + status_text(status)};
    try {
        surface.texels.resize(size_t(size));
    } catch (const std::bad_alloc&) {
        throw CliError{kExitRuntime, "out of host memory for " + std::to_string(size) + " bytes of decoded texels"};
    }
    texdec_host_job job{};
    job.format = file.format;
    job.output = output;
    job.bc_rounding = shared.rounding;
    job.width = info.width;
    job.height = info.height;
    job.depth = info.depth;
    job.src = data.data();
    job.src_size = data.size();
    job.dst = surface.texels.data();
    job.dst_size = surface.texels.size();
    job.timeout_ns = shared.timeout_ns;
    texdec_decode_timing timing{};
    status = texdec_decode_timed(shared.context, &job, &timing);
    if (status != TEXDEC_SUCCESS) throw CliError{kExitRuntime, shared.log->describe_failure("decode failed", status)};
    result.gpu_ms += double(timing.gpu_decode_ns) / 1e6;
    result.gpu_timed = result.gpu_timed && timing.gpu_timestamps;
    result.texels += uint64_t(info.width) * info.height * info.depth;

    if (shared.options.verify) {
        uint32_t texel_bytes = 0;
        texdec_output_texel_size(file.format, output, &texel_bytes);
        if (shared.fault && !result.verify.ran && *shared.fault < size / texel_bytes)
            surface.texels[size_t(*shared.fault) * texel_bytes] ^= 1;
        std::vector<uint8_t> reference(surface.texels.size());
        job.dst = reference.data();
        const texdec_reference::Result ref = texdec_reference::decode(job);
        if (ref.status != TEXDEC_SUCCESS)
            throw CliError{kExitRuntime, "--verify: the CPU reference failed: " + status_text(ref.status) + ": " +
                                             ref.message};
        VkFormat vk_format = VK_FORMAT_UNDEFINED;
        texdec_output_vk_format(file.format, output, &vk_format);
        const std::string where = "level " + std::to_string(level) + " layer " + std::to_string(layer) + " face " +
                                  std::to_string(face);
        compare_texels(surface.texels, reference, texel_bytes, vk_format,
                       format_info(file.format).flags & TEXDEC_FORMAT_FLAG_HDR, info.width, info.height, where,
                       result.verify);
    }
    if (file.swap_red_alpha) swap_red_alpha(file.format, output, surface.texels);
    return surface;
}

void check(const image_write::WriteResult& written) {
    if (!written.ok) throw CliError{written.same_as_input ? kExitUsage : kExitOutput, written.message};
}

// Writes one image file: a whole surface, or one slice of it (slice >= 0).
void write_image(OutputKind kind, const std::string& path, texdec_format format, VkFormat vk_format,
                 const Surface& surface, int slice) {
    std::span<const uint8_t> texels = surface.texels;
    uint32_t depth = surface.depth;
    if (slice >= 0) {
        const size_t slice_bytes = texels.size() / surface.depth;
        texels = texels.subspan(slice_bytes * size_t(slice), slice_bytes);
        depth = 1;
    }
    const image_write::DecodedImage image{texels, surface.width, surface.height, depth, vk_format};
    const uint32_t flags = format_info(format).flags;
    // SNORM values map from -1..1 (HDR formats never get here: choose_output refuses them).
    const bool snorm = (flags & TEXDEC_FORMAT_FLAG_SIGNED) && !(flags & TEXDEC_FORMAT_FLAG_HDR);
    switch (kind) {
    case OutputKind::Png: check(image_write::write_png(path, image, snorm)); break;
    case OutputKind::Tga: check(image_write::write_tga(path, image, snorm)); break;
    case OutputKind::Exr: check(image_write::write_exr(path, image)); break;
    case OutputKind::Hdr: check(image_write::write_hdr(path, image)); break;
    case OutputKind::Raw: check(image_write::write_raw(path, texels)); break;
    case OutputKind::Ktx2: break;  // written whole by write_ktx2_file
    }
}

std::vector<uint32_t> picked_slices(const Selector& slice, uint32_t depth, uint32_t level) {
    if (slice.kind == Selector::Default) return {};  // the whole level
    if (slice.kind == Selector::All) {
        std::vector<uint32_t> all(depth);
        for (uint32_t z = 0; z < depth; ++z) all[z] = z;
        return all;
    }
    if (slice.index >= depth)
        usage_error("--slice " + std::to_string(slice.index) + ": level " + std::to_string(level) + " has " +
                    std::to_string(depth) + " slice(s) (0 to " + std::to_string(depth - 1) + ")");
    return {slice.index};
}

std::string extent_text(const Extent& e) {
    return std::to_string(e.width) + "x" + std::to_string(e.height) + (e.depth > 1 ? "x" + std::to_string(e.depth) : "");
}

void process_file(Shared& shared, const Item& item, FileResult& result) {
    const Options& options = shared.options;
    texture_file::OpenOptions open_options;
    open_options.profile = shared.profile;
    open_options.profile_must_apply = !options.out_dir;  // in a batch, files that name their format ignore it
    texture_file::FileBytes bytes = input_file::map_texture_file(item.input);
    auto opened = shared.raw_format ? texture_file::open_raw(std::move(bytes), *shared.raw_format, shared.raw_extent.width,
                                                             shared.raw_extent.height, shared.raw_extent.depth)
                                    : texture_file::open(std::move(bytes), open_options);
    if (const auto* error = std::get_if<texture_file::Error>(&opened))
        throw CliError{error->usage ? kExitUsage : kExitInput, "'" + item.input + "': " + error->message};
    texture_file::TextureFile& file = std::get<texture_file::TextureFile>(opened);
    result.opened = true;
    result.container = texture_file::container_name(file.container);
    result.container_format = file.container_format;
    result.format = format_info(file.format).name;
    result.extent = {file.level_info[0].width, file.level_info[0].height, file.level_info[0].depth};
    result.levels = file.levels;
    result.layers = file.layers;
    result.faces = file.faces;
    for (const std::string& note : file.notes) result.notes.push_back("'" + item.input + "': " + note);
    for (const std::string& warning : file.warnings) result.warnings.push_back("'" + item.input + "': " + warning);
    result.profile_ignored = file.profile_ignored;

    // The kind: OUT's extension or --to, else png (exr for HDR formats).
    OutputKind kind = shared.fixed_kind.value_or(
        (format_info(file.format).flags & TEXDEC_FORMAT_FLAG_HDR) ? OutputKind::Exr : OutputKind::Png);
    const std::string base = shared.fixed_kind ? item.output : item.output + "." + extension(kind);
    const texdec_output output = choose_output(options, file.format, kind);
    result.output_type = output_name(output);
    const texdec_format_info info = format_info(file.format);
    if (!(info.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED))
        throw CliError{kExitRuntime, std::string(info.name) + " is not implemented in this build: " +
                                         status_text(TEXDEC_ERROR_UNSUPPORTED_FORMAT)};
    if (options.verify) {
        const std::string why = texdec_reference::unavailable_reason(file.format, output, shared.rounding);
        if (!why.empty()) throw CliError{kExitUsage, "--verify: " + why};
    }
    VkFormat vk_format = VK_FORMAT_UNDEFINED;
    texdec_output_vk_format(file.format, output, &vk_format);

    const Selection& sel = shared.selection;
    const bool ktx2 = kind == OutputKind::Ktx2;
    if (ktx2 && sel.slice.kind != Selector::Default)
        usage_error("--slice does not apply to a .ktx2 output, which keeps whole levels");
    const std::vector<uint32_t> levels = pick(sel.level, file.levels, ktx2, "mip level");
    const std::vector<uint32_t> layers = pick(sel.layer, file.layers, ktx2, "layer");
    const std::vector<uint32_t> faces = pick(sel.face, file.faces, ktx2, "face");
    const bool defaults = sel.level.kind == Selector::Default && sel.layer.kind == Selector::Default &&
                          sel.face.kind == Selector::Default;
    // In a batch most real files have mip chains: one line in the summary instead of one per file.
    if (!ktx2 && defaults && (file.levels > 1 || file.layers > 1 || file.faces > 1)) {
        if (options.out_dir) result.more_surfaces = true;
        else result.notes.push_back("'" + item.input + "' has " + std::to_string(file.levels) + " mip level(s), " +
                                    std::to_string(file.layers) + " layer(s) and " + std::to_string(file.faces) +
                                    " face(s); decoding level 0 of layer 0, face 0 (--level, --layer, --face N|all "
                                    "choose others)");
    }

    // The memory this file needs at its peak, against --max-memory, before anything is inflated or decoded.
    const input_file::MemoryNeed need = input_file::estimate_need(
        {&file, file.format, output, shared.rounding, levels, uint64_t(layers.size()) * faces.size(), options.verify,
         ktx2, kind == OutputKind::Raw || ktx2 ? 0u : 2u},
        shared.context);
    const input_file::MemoryBudget::Reservation reservation = shared.budget->reserve(item.input, need);

    if (ktx2) {
        // Every picked level, layer and face into one file, in KTX 2's level layout.
        std::vector<std::vector<uint8_t>> level_texels(levels.size());
        for (size_t li = 0; li < levels.size(); ++li) {
            for (uint32_t layer : layers)
                for (uint32_t face : faces) {
                    Surface s = decode_surface(shared, file, output, levels[li], layer, face, result);
                    level_texels[li].insert(level_texels[li].end(), s.texels.begin(), s.texels.end());
                }
        }
        image_write::Ktx2Texture texture{};
        texture.format = vk_format;
        const texture_file::LevelInfo& first = file.level_info[levels[0]];
        texture.width = first.width;
        texture.height = first.height;
        texture.depth = file.is_volume ? first.depth : 0;
        texture.layer_count = file.is_array && sel.layer.kind != Selector::Index ? uint32_t(layers.size()) : 0;
        texture.face_count = uint32_t(faces.size());
        for (const auto& texels : level_texels) texture.levels.emplace_back(texels);
        check(image_write::write_ktx2(base, texture));
        result.outputs.push_back({base, levels[0], layers[0], faces[0], -1, {first.width, first.height, first.depth}});
        return;
    }

    for (uint32_t level : levels)
        for (uint32_t layer : layers)
            for (uint32_t face : faces) {
                const Surface surface = decode_surface(shared, file, output, level, layer, face, result);
                std::string suffix;
                if (sel.level.kind == Selector::All) suffix += sel.level.suffix + std::to_string(level);
                if (sel.layer.kind == Selector::All) suffix += sel.layer.suffix + std::to_string(layer);
                if (sel.face.kind == Selector::All) suffix += sel.face.suffix + std::to_string(face);
                const std::vector<uint32_t> slices = picked_slices(sel.slice, surface.depth, level);
                if (slices.empty()) {
                    const std::string path = with_suffix(base, suffix);
                    write_image(kind, path, file.format, vk_format, surface, -1);
                    result.outputs.push_back({path, level, layer, face, -1, {surface.width, surface.height, surface.depth}});
                    if (surface.depth > 1 && kind != OutputKind::Raw)
                        result.notes.push_back(std::to_string(surface.depth) + " slices stacked top to bottom in '" +
                                               path + "' (" + std::to_string(surface.width) + "x" +
                                               std::to_string(surface.height * surface.depth) + " pixels)");
                    continue;
                }
                for (uint32_t z : slices) {
                    const std::string path = with_suffix(
                        base, suffix + (sel.slice.kind == Selector::All ? sel.slice.suffix + std::to_string(z) : ""));
                    write_image(kind, path, file.format, vk_format, surface, int(z));
                    result.outputs.push_back({path, level, layer, face, int(z), {surface.width, surface.height, 1}});
                }
            }
}

// ---- inputs ------------------------------------------------------------------------------------

struct Inputs {
    std::vector<std::string> files;
    std::vector<std::string> relative;  // per file: the path below its directory argument ("" for files)
    std::vector<std::string> skipped;   // directory entries that are not texture files
    std::vector<std::string> skipped_why;  // per skipped file: its first bytes; named like a texture file or not
    std::vector<bool> skipped_loud;     // named like a texture file (a damaged one?): always reported
};

// Empty if the file starts with a known magic (or cannot be read: the decode reports why), else
// why it is skipped.
std::string skip_reason(const fs::path& path, bool& named_like_texture) {
    FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) return "";
    uint8_t head[16];
    const size_t got = std::fread(head, 1, sizeof head, file);
    std::fclose(file);
    if (texture_file::has_known_magic({head, got})) return "";
    const std::string what = got ? "its first bytes (" + texture_file::first_bytes({head, got}) +
                                       ") are no DDS, KTX, KTX 2, PKM or .astc magic"
                                 : std::string("it is empty");
    named_like_texture = false;
    for (const char* ext : {".dds", ".ktx", ".ktx2", ".pkm", ".astc"})
        named_like_texture = named_like_texture || ends_with_ignoring_case(path.string(), ext);
    if (named_like_texture) return "named like a texture file, but " + what + " (damaged?)";
    return "not a texture file: " + what;
}

void add_directory(const std::string& dir, bool recursive, Inputs& inputs) {
    std::vector<fs::path> found;
    std::error_code error;
    auto add = [&](const fs::directory_entry& entry) {
        if (entry.is_regular_file(error)) found.push_back(entry.path());
    };
    if (recursive) {
        for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) add(*it);
    } else {
        for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) add(*it);
    }
    if (error) throw CliError{kExitInput, "cannot list directory '" + dir + "': " + error.message()};
    std::sort(found.begin(), found.end());
    for (const fs::path& path : found) {
        bool loud = false;
        if (std::string why = skip_reason(path, loud); !why.empty()) {
            inputs.skipped.push_back(path.string());
            inputs.skipped_why.push_back(why);
            inputs.skipped_loud.push_back(loud);
            continue;
        }
        inputs.files.push_back(path.string());
        inputs.relative.push_back(fs::relative(path, dir).string());
    }
}

void add_input(const std::string& arg, bool recursive, Inputs& inputs) {
    std::error_code error;
    if (fs::is_directory(arg, error)) return add_directory(arg, recursive, inputs);
    inputs.files.push_back(arg);
    inputs.relative.push_back("");
}

// @FILE: one input per line (files or directories); blank lines and lines starting with # skipped.
void add_list_file(const std::string& list, bool recursive, Inputs& inputs) {
    const std::string text = input_file::read_list_file(list);
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(start, end - start);
        start = end + 1;
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
        const size_t first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#') continue;
        add_input(line.substr(first), recursive, inputs);
    }
}

Inputs collect_inputs(const std::vector<std::string>& args, bool recursive) {
    Inputs inputs;
    for (const std::string& arg : args) {
        if (arg.size() > 1 && arg[0] == '@')
            add_list_file(arg.substr(1), recursive, inputs);
        else
            add_input(arg, recursive, inputs);
    }
    return inputs;
}

// The output path (without extension when the kind is chosen per file) of each input in --out-dir:
// DIR/<path below its directory argument, or the file name>, extension replaced. Two inputs that
// would share a name (a.dds and a.ktx) keep their whole file names instead (a.dds.png, a.ktx.png).
std::vector<std::string> out_dir_names(const Inputs& inputs, const std::string& dir, std::optional<OutputKind> kind) {
    std::vector<std::string> stems;
    for (size_t i = 0; i < inputs.files.size(); ++i) {
        fs::path rel = inputs.relative[i].empty() ? fs::path(inputs.files[i]).filename() : fs::path(inputs.relative[i]);
        stems.push_back((fs::path(dir) / rel.parent_path() / rel.stem()).string());
    }
    std::map<std::string, int> uses;
    for (const std::string& s : stems) ++uses[s];
    std::vector<std::string> names;
    for (size_t i = 0; i < stems.size(); ++i) {
        std::string name = stems[i];
        if (uses[name] > 1) {
            fs::path rel = inputs.relative[i].empty() ? fs::path(inputs.files[i]).filename() : fs::path(inputs.relative[i]);
            name = (fs::path(dir) / rel).string();
        }
        names.push_back(kind ? name + "." + extension(*kind) : name);
    }
    return names;
}

// ---- progress ----------------------------------------------------------------------------------

// Per-file lines, or on a terminal one progress line (bar, files, throughput, ETA) redrawn in place
// with messages printed above it.
class Reporter {
public:
    Reporter(size_t total, bool batch) : total_(total), batch_(batch), tty_(batch && isatty(fileno(stderr))) {}

    void print(const std::string& line) {
        std::lock_guard lock(mutex_);
        clear_bar();
        std::fprintf(stderr, "%s\n", line.c_str());
        draw_bar();
    }

    void file_done(const FileResult& r) {
        std::lock_guard lock(mutex_);
        ++done_;
        if (r.exit_code != kExitOk) ++failed_;
        texels_ += r.texels;
        clear_bar();
        for (const std::string& note : r.notes) std::fprintf(stderr, "%s: note: %s\n", kToolName, note.c_str());
        for (const std::string& warning : r.warnings)
            std::fprintf(stderr, "%s: warning: %s\n", kToolName, warning.c_str());
        if (r.exit_code != kExitOk) {
            // A batch numbers failed files too, so the count on the lines reaches the total.
            if (batch_)
                std::fprintf(stderr, "[%zu/%zu] %s: error: %s\n", done_, total_, kToolName, r.message.c_str());
            else
                std::fprintf(stderr, "%s: error: %s\n", kToolName, r.message.c_str());
        } else if (!tty_) {
            std::string outputs = r.outputs.size() == 1 ? r.outputs[0].path : std::to_string(r.outputs.size()) + " files";
            // The outputs' extent when they share one (one level picked), else the file's level 0.
            Extent e = r.outputs.empty() ? r.extent : r.outputs[0].extent;
            for (const OutputRecord& o : r.outputs)
                if (o.extent.width != e.width || o.extent.height != e.height || o.extent.depth != e.depth) e = r.extent;
            std::string line = r.format + " " + std::to_string(e.width) + "x" + std::to_string(e.height) + "x" +
                               std::to_string(e.depth) + " (" + r.output_type + ") in " +
                               fixed(r.wall_ms, 1) + " ms -> " + outputs;
            if (r.verify.ran) line += "; verify: " + verify_text(r.verify);
            if (batch_)
                std::fprintf(stderr, "[%zu/%zu] %s: %s\n", done_, total_, r.input.c_str(), line.c_str());
            else
                std::fprintf(stderr, "decoded %s\n", line.c_str());
        }
        draw_bar();
    }

    void finish() {
        std::lock_guard lock(mutex_);
        clear_bar();
    }

    static std::string fixed(double v, int digits) {
        char text[32];
        std::snprintf(text, sizeof text, "%.*f", digits, v);
        return text;
    }
    static std::string verify_text(const VerifyStats& v) {
        if (v.mismatched == 0) return "0 of " + std::to_string(v.texels) + " texels differ from the CPU reference";
        return std::to_string(v.mismatched) + " of " + std::to_string(v.texels) +
               " texels differ from the CPU reference, PSNR " + fixed(v.psnr_db(), 2) + " dB; first: " +
               v.first_mismatch;
    }

private:
    std::mutex mutex_;
    size_t total_, done_ = 0, failed_ = 0;
    uint64_t texels_ = 0;
    bool batch_, tty_;
    bool bar_shown_ = false;
    Clock::time_point start_ = Clock::now();

    void clear_bar() {
        if (bar_shown_) std::fputs("\r\033[K", stderr);
        bar_shown_ = false;
    }
    void draw_bar() {
        if (!tty_ || done_ == total_) return;
        const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
        constexpr int kWidth = 24;
        const int filled = int(kWidth * done_ / std::max<size_t>(total_, 1));
        std::string bar(size_t(filled), '#');
        bar.append(size_t(kWidth - filled), '.');
        std::string eta = "--:--";
        if (done_ > 0) {
            const int left = int(seconds / double(done_) * double(total_ - done_) + 0.5);
            char text[16];
            std::snprintf(text, sizeof text, "%d:%02d", left / 60, left % 60);
            eta = text;
        }
        std::fprintf(stderr, "[%s] %zu/%zu files, %zu failed, %s MTexel/s, ETA %s", bar.c_str(), done_, total_,
                     failed_, fixed(seconds > 0 ? double(texels_) / seconds / 1e6 : 0.0, 1).c_str(), eta.c_str());
        std::fflush(stderr);
        bar_shown_ = true;
    }
};

// ---- JSON --------------------------------------------------------------------------------------

void extent_json(Json& json, const char* name, const Extent& e) {
    json.key(name).begin_array().value(e.width).value(e.height).value(e.depth).end_array();
}

void file_json(Json& json, const FileResult& r, const std::string& device) {
    json.begin_object();
    json.field("input", r.input).field("device", device);
    json.field("status", r.exit_code == kExitOk ? "ok" : r.exit_code == kExitMismatch ? "mismatch" : "failed");
    json.field("exit_code", int(r.exit_code));
    if (r.exit_code != kExitOk) json.field("message", r.message);
    json.key("warnings").begin_array();
    for (const std::string& w : r.warnings) json.value(w);
    json.end_array();
    if (r.opened) {
        json.field("container", r.container).field("container_format", r.container_format).field("format", r.format);
        extent_json(json, "extent", r.extent);
        json.field("levels", r.levels).field("layers", r.layers).field("faces", r.faces);
    }
    if (!r.output_type.empty()) json.field("output_type", r.output_type);
    json.key("outputs").begin_array();
    for (const OutputRecord& o : r.outputs) {
        json.begin_object().field("path", o.path).field("level", o.level).field("layer", o.layer).field("face", o.face);
        if (o.slice >= 0)
            json.field("slice", o.slice);
        else
            json.key("slice").null();
        extent_json(json, "extent", o.extent);
        json.end_object();
    }
    json.end_array();
    json.field("texels", r.texels);
    if (r.gpu_timed)
        json.field("gpu_ms", r.gpu_ms);
    else
        json.key("gpu_ms").null();
    json.field("wall_ms", r.wall_ms);
    if (r.verify.ran) {
        json.key("verify").begin_object().field("texels", r.verify.texels).field("mismatched_texels", r.verify.mismatched);
        if (r.verify.mismatched)
            json.field("first_mismatch", r.verify.first_mismatch);
        else
            json.key("first_mismatch").null();
        json.field("psnr_db", r.verify.psnr_db());  // null when identical (infinite)
        json.end_object();
    }
    json.end_object();
}

// What a batch says once instead of for every file: files with more surfaces than the default
// selection decoded, and files --profile did not apply to.
void print_batch_notes(const std::vector<FileResult>& results, const Options& options) {
    size_t more = 0, ignored = 0;
    for (const FileResult& r : results) {
        more += r.more_surfaces;
        ignored += !r.profile_ignored.empty();
    }
    if (more)
        std::fprintf(stderr, "%s: note: %zu file(s) have more mip levels, layers or faces than the level 0, layer 0, "
                     "face 0 decoded by default (--level, --layer, --face N|all choose others; a .ktx2 output keeps "
                     "them all)\n", kToolName, more);
    if (ignored)
        std::fprintf(stderr, "%s: note: --profile %s ignored for %zu file(s) whose format is not ASTC (their headers "
                     "name it)\n", kToolName, options.profile ? options.profile->c_str() : "", ignored);
}

void write_json(const std::string& where, const std::string& text) {
    if (where == "-") {
        std::fwrite(text.data(), 1, text.size(), stdout);
        std::fputc('\n', stdout);
        std::fflush(stdout);
        return;
    }
    const safe_output::Result written = safe_output::write_file(where, text + "\n");
    if (!written.ok)
        throw CliError{written.same_as_input ? kExitUsage : kExitOutput, "cannot write the JSON results: " + written.message};
}

// No output may replace an input. Every input is protected (the writer refuses such an output at the
// last moment too: names with -mipN suffixes are known only then); the outputs named now are checked
// here, before anything is decoded or written.
void protect_inputs(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs) {
    for (const std::string& input : inputs) safe_output::protect_input(input);
    for (const std::string& output : outputs)
        if (const std::optional<std::string> input = safe_output::protected_input_at(output))
            throw CliError{kExitUsage, safe_output::same_file_message(output, *input)};
}


}  // namespace

int run_decode(const Options& options) {
    reject_options_not_for(options, "decode");
    if (options.formats.size() > 1) usage_error("'decode' takes one --format");
    Shared shared{options};
    shared.selection = parse_selection(options);
    shared.rounding = options.bc_rounding ? parse_bc_rounding(*options.bc_rounding) : TEXDEC_BC_ROUNDING_EXACT;
    shared.timeout_ns = parse_timeout_ns(options.timeout);
    shared.fault = planted_fault();
    if (options.profile) shared.profile = parse_profile(*options.profile);
    if (options.output) parse_output_type(*options.output);
    uint32_t jobs = std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
    if (options.jobs) {
        const auto n = parse_u32(*options.jobs);
        if (!n || *n == 0 || *n > 64) usage_error("--jobs '" + *options.jobs + "' is not a number from 1 to 64");
        jobs = *n;
    }
    input_file::MemoryBudget budget(input_file::memory_limit(options.max_memory));
    shared.budget = &budget;
    if (options.format) {
        if (!options.extent) usage_error("--format needs --extent WxH[xD]");
        if (options.profile)
            usage_error("--profile applies to .astc files; with --format the format name says it (e.g. astc-6x6-srgb)");
        shared.raw_format = parse_format_name(*options.format);
        const Extent e = parse_extent(*options.extent);
        shared.raw_extent = e;
    } else if (options.extent) {
        usage_error("--extent applies to raw blocks only (give --format too)");
    }

    // One IN OUT pair, or inputs (files, directories, @lists) into --out-dir.
    std::vector<Item> items;
    Inputs inputs;
    const bool batch = options.out_dir.has_value();
    if (!batch) {
        if (options.to) usage_error("--to applies with --out-dir (otherwise OUT's extension says the kind)");
        if (options.recursive) usage_error("--recursive applies with --out-dir");
        if (options.positional.size() != 2)
            usage_error("'decode' expects IN OUT, or inputs with --out-dir DIR; got " +
                        std::to_string(options.positional.size()) + " argument(s)");
        shared.fixed_kind = kind_from_path(options.positional[1]);
        std::error_code error;
        if (fs::is_directory(options.positional[0], error) || options.positional[0][0] == '@')
            usage_error("'" + options.positional[0] + "' names several inputs: give --out-dir DIR");
        items.push_back({options.positional[0], options.positional[1]});
    } else {
        if (options.positional.empty()) usage_error("'decode --out-dir' expects at least one input");
        if (options.to) {
            shared.fixed_kind = kind_from_extension(*options.to);
            if (!shared.fixed_kind) usage_error("--to '" + *options.to + "' is not png, tga, exr, hdr, ktx2 or raw");
        }
        inputs = collect_inputs(options.positional, options.recursive);
        if (inputs.files.empty())
            usage_error("no texture files among the inputs (" + std::to_string(inputs.skipped.size()) +
                        " skipped: not DDS, KTX, KTX 2, PKM or .astc files)");
        std::error_code error;
        fs::create_directories(*options.out_dir, error);
        if (error) throw CliError{kExitOutput, "cannot create --out-dir '" + *options.out_dir + "': " + error.message()};
        const std::vector<std::string> names = out_dir_names(inputs, *options.out_dir, shared.fixed_kind);
        for (size_t i = 0; i < inputs.files.size(); ++i) {
            items.push_back({inputs.files[i], names[i]});
            fs::create_directories(fs::path(names[i]).parent_path(), error);  // -r: the input's subfolder
            if (error) throw CliError{kExitOutput, "cannot create '" + fs::path(names[i]).parent_path().string() + "': " + error.message()};
        }
    }
    if (shared.fixed_kind && takes_rgba16f(*shared.fixed_kind) && options.output &&
        parse_output_type(*options.output) == TEXDEC_OUTPUT_RGBA8)
        float_output_error(*shared.fixed_kind, *options.output);
    {
        std::vector<std::string> input_paths, output_paths;
        for (const Item& item : items) {
            input_paths.push_back(item.input);
            if (shared.fixed_kind)
                output_paths.push_back(item.output);
            else  // the kind is chosen per file: png, or exr for HDR formats
                for (OutputKind k : {OutputKind::Png, OutputKind::Exr}) output_paths.push_back(item.output + "." + extension(k));
        }
        for (const std::string& arg : options.positional)
            if (batch && arg.size() > 1 && arg[0] == '@') input_paths.push_back(arg.substr(1));  // list files too
        if (options.json && *options.json != "-") output_paths.push_back(*options.json);
        protect_inputs(input_paths, output_paths);
        if (!batch) input_file::refuse_special_file(items[0].input);  // before a device is made
    }

    MessageLog log;
    log.verbose = options.verbose;
    shared.log = &log;
    ContextHandle context;
    create_context(options, log, context);
    shared.context = context.context;
    const std::string device = texdec_context_device_name(context.context);

    // Workers take the next file: reading, parsing and writing of some overlap the GPU work of others.
    std::vector<FileResult> results(items.size());
    Reporter reporter(items.size(), batch || items.size() > 1);
    // A texture-named file without a texture magic is likely damaged: always said; others with -v.
    for (size_t i = 0; i < inputs.skipped.size(); ++i)
        if (options.verbose || inputs.skipped_loud[i])
            reporter.print(std::string(kToolName) + (inputs.skipped_loud[i] ? ": warning: skipped '" : ": skipped '") +
                           inputs.skipped[i] + "': " + inputs.skipped_why[i]);
    const auto start = Clock::now();
    std::atomic<size_t> next{0};
    auto work = [&] {
        for (size_t i; (i = next.fetch_add(1)) < items.size();) {
            FileResult& r = results[i];
            r.input = items[i].input;
            const auto file_start = Clock::now();
            try {
                process_file(shared, items[i], r);
                if (r.hdr_surfaces) hdr_warning(texdec_format_from_name(r.format.c_str()), r);
                if (r.verify.ran && r.verify.mismatched) {
                    r.exit_code = kExitMismatch;
                    r.message = "'" + r.input + "': --verify: " + Reporter::verify_text(r.verify);
                }
            } catch (const CliError& error) {
                r.exit_code = error.code;
                r.message = error.message;
            } catch (const std::exception& error) {
                r.exit_code = kExitRuntime;
                r.message = "'" + r.input + "': " + error.what();
            }
            r.wall_ms = ms_since(file_start);
            reporter.file_done(r);
        }
    };
    std::vector<std::thread> threads;
    const size_t thread_count = std::min<size_t>(jobs, items.size());
    for (size_t t = 1; t < thread_count; ++t) threads.emplace_back(work);
    work();
    for (std::thread& t : threads) t.join();
    reporter.finish();
    const double wall_ms = ms_since(start);

    int exit_code = kExitOk;
    size_t failed = 0, outputs = 0, verified = 0;
    uint64_t texels = 0;
    for (const FileResult& r : results) {
        if (r.exit_code != kExitOk) {
            ++failed;
            if (exit_code == kExitOk) exit_code = r.exit_code;  // the first failed file, in input order
        }
        outputs += r.outputs.size();
        texels += r.texels;
        verified += r.verify.ran && r.verify.mismatched == 0;
    }
    if (batch || items.size() > 1) {
        std::string summary = std::to_string(items.size() - failed) + " of " + std::to_string(items.size()) +
                              " file(s) decoded";
        if (failed) summary += ", " + std::to_string(failed) + " failed";
        if (!inputs.skipped.empty()) summary += ", " + std::to_string(inputs.skipped.size()) + " skipped (not texture files)";
        summary += "; " + std::to_string(outputs) + " output file(s), " + Reporter::fixed(double(texels) / 1e6, 2) +
                   " MTexel in " + Reporter::fixed(wall_ms / 1000, 2) + " s";
        if (options.verify) summary += "; verify: " + std::to_string(verified) + " matched the CPU reference";
        std::fprintf(stderr, "%s: %s\n", kToolName, summary.c_str());
        print_batch_notes(results, options);
    }
    if (options.json) {
        Json json;
        json.begin_object().field("tool", kToolName).field("device", device);
        json.key("files").begin_array();
        for (const FileResult& r : results) file_json(json, r, device);
        json.end_array();
        json.key("skipped").begin_array();
        for (const std::string& s : inputs.skipped) json.value(s);
        json.end_array();
        json.key("summary").begin_object();
        json.field("files", uint64_t(items.size())).field("failed", uint64_t(failed));
        json.field("skipped", uint64_t(inputs.skipped.size())).field("outputs", uint64_t(outputs));
        json.field("texels", texels).field("wall_ms", wall_ms).field("exit_code", exit_code);
        json.end_object().end_object();
        write_json(*options.json, json.text());
    }
    return exit_code;
}

// ---- info --------------------------------------------------------------------------------------

int run_info(const Options& options) {
    if (options.positional.empty()) usage_error("'info' expects FILE...");
    reject_options_not_for(options, "info");
    texture_file::OpenOptions open_options;
    if (options.profile) open_options.profile = parse_profile(*options.profile);
    open_options.profile_must_apply = false;
    std::optional<texdec_format> raw_format;
    Extent raw_extent{0, 0, 0};
    if (options.format) {
        if (!options.extent) usage_error("--format needs --extent WxH[xD]");
        raw_format = parse_format_name(*options.format);
        raw_extent = parse_extent(*options.extent);
    }
    if (options.json && *options.json != "-") protect_inputs(options.positional, {*options.json});

    Json json;
    json.begin_object().field("tool", kToolName).key("files").begin_array();
    int exit_code = kExitOk;
    for (const std::string& path : options.positional) {
        json.begin_object().field("input", path);
        try {
            texture_file::FileBytes bytes = input_file::map_texture_file(path);
            auto opened = raw_format ? texture_file::open_raw(std::move(bytes), *raw_format, raw_extent.width,
                                                              raw_extent.height, raw_extent.depth)
                                     : texture_file::open(std::move(bytes), open_options);
            if (const auto* error = std::get_if<texture_file::Error>(&opened))
                throw CliError{error->usage ? kExitUsage : kExitInput, "'" + path + "': " + error->message};
            const texture_file::TextureFile& f = std::get<texture_file::TextureFile>(opened);
            const texdec_format_info info = format_info(f.format);
            const texdec_output output = offers_output(f.format, TEXDEC_OUTPUT_RGBA8) ? TEXDEC_OUTPUT_RGBA8 : TEXDEC_OUTPUT_NATIVE;
            json.field("status", "ok").field("container", texture_file::container_name(f.container));
            json.field("container_format", f.container_format);
            if (!f.supercompression.empty()) json.field("supercompression", f.supercompression);
            json.field("format", info.name).field("block", block_size_text(info)).field("bytes_per_block", info.bytes_per_block);
            json.field("implemented", bool(info.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED));
            extent_json(json, "extent", {f.level_info[0].width, f.level_info[0].height, f.level_info[0].depth});
            json.field("levels", f.levels).field("layers", f.layers).field("faces", f.faces);
            json.field("array", f.is_array).field("cube", f.is_cube).field("volume", f.is_volume);
            json.field("file_bytes", f.file_bytes).field("trailing_bytes", f.trailing_bytes);
            json.key("level_info").begin_array();
            if (!options.json) {
                std::printf("%s\n  container:    %s (%s)%s\n  format:       %s (%s blocks, %u bytes each)%s\n", path.c_str(),
                            texture_file::container_name(f.container), f.container_format.c_str(),
                            f.supercompression.empty() ? "" : (", supercompression " + f.supercompression).c_str(),
                            info.name, block_size_text(info).c_str(), info.bytes_per_block,
                            (info.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED) ? "" : " [not implemented in this build]");
                std::printf("  extent:       %s%s\n  levels:       %u\n  layers:       %u%s\n  faces:        %u%s\n",
                            extent_text({f.level_info[0].width, f.level_info[0].height, f.level_info[0].depth}).c_str(),
                            f.is_volume ? " (depth slices)" : "", f.levels, f.layers, f.is_array ? " (array)" : "",
                            f.faces, f.is_cube ? " (cube map)" : "");
                std::printf("  file size:    %llu bytes%s\n  level  extent          blocks/surface  bytes/surface   "
                            "decoded bytes/surface (%s)\n",
                            (unsigned long long)f.file_bytes,
                            f.trailing_bytes ? (" (" + std::to_string(f.trailing_bytes) + " trailing, ignored)").c_str() : "",
                            output_name(output));
            }
            for (uint32_t level = 0; level < f.levels; ++level) {
                const texture_file::LevelInfo& l = f.level_info[level];
                uint64_t decoded = 0;
                texdec_decoded_size(f.format, output, l.width, l.height, l.depth, &decoded);
                json.begin_object();
                extent_json(json, "extent", {l.width, l.height, l.depth});
                const uint64_t blocks = l.surface_bytes / info.bytes_per_block;
                json.field("surface_blocks", blocks).field("surface_bytes", l.surface_bytes);
                json.field("decoded_bytes", decoded).end_object();
                if (!options.json)
                    std::printf("  %-5u  %-14s  %-14llu  %-14llu  %llu\n", level,
                                extent_text({l.width, l.height, l.depth}).c_str(), (unsigned long long)blocks,
                                (unsigned long long)l.surface_bytes, (unsigned long long)decoded);
            }
            json.end_array();
            json.key("warnings").begin_array();
            for (const std::string& warning : f.warnings) json.value(warning);
            json.end_array();
            for (const std::string& note : f.notes)
                std::fprintf(stderr, "%s: note: '%s': %s\n", kToolName, path.c_str(), note.c_str());
            if (!f.profile_ignored.empty())
                std::fprintf(stderr, "%s: note: '%s': %s\n", kToolName, path.c_str(), f.profile_ignored.c_str());
            for (const std::string& warning : f.warnings)
                std::fprintf(stderr, "%s: warning: '%s': %s\n", kToolName, path.c_str(), warning.c_str());
        } catch (const CliError& error) {
            json.field("status", "failed").field("exit_code", int(error.code)).field("message", error.message);
            std::fprintf(stderr, "%s: error: %s\n", kToolName, error.message.c_str());
            if (exit_code == kExitOk) exit_code = error.code;
        }
        json.end_object();
    }
    json.end_array().field("exit_code", exit_code).end_object();
    if (options.json) write_json(*options.json, json.text());
    return exit_code;
}

}  // namespace cli

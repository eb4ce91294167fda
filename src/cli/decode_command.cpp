// astc-gpu-decode decode: one file or a batch (files, directories, @listfiles), surface selection
// (--level, --layer, --face, --slice), the output kinds and their writers, and the workers that
// decode files in parallel. The inputs, --verify and the report (progress, summary, --json) are
// decode_inputs.cpp, decode_verify.cpp and decode_report.cpp; `info` is info_command.cpp.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <future>
#include <new>
#include <thread>

#include "block_linear_layout.h"
#include "decode_command.h"
#include "image_write.h"
#include "input_file.h"
#include "platform.h"
#include "reference/cpu_reference.h"
#include "safe_output.h"
#include "io_test_hooks.h"
#include "texture_file.h"

namespace cli {

namespace fs = std::filesystem;

namespace {

double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// ---- output kinds ------------------------------------------------------------------------------

struct KindName {
    OutputKind kind;
    const char* extension;
};
constexpr KindName kKinds[] = {{OutputKind::Png, "png"}, {OutputKind::Tga, "tga"},   {OutputKind::Exr, "exr"},
                               {OutputKind::Hdr, "hdr"}, {OutputKind::Ktx2, "ktx2"}, {OutputKind::Raw, "raw"}};

}  // namespace

const char* extension(OutputKind kind) {
    for (const KindName& k : kKinds)
        if (k.kind == kind) return k.extension;
    return "?";
}

namespace {

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

// "out.png" + "-mip2" -> "out-mip2.png" (refuse_clashing_outputs knows this rule)
std::string with_suffix(const std::string& path, const std::string& suffix) {
    if (suffix.empty()) return path;
    const size_t dot = path.rfind('.');
    const size_t end = platform::directory_end(path);  // Windows: '\' too
    if (dot == std::string::npos || (end != std::string::npos && dot < end)) return path + suffix;
    return path.substr(0, dot) + suffix + path.substr(dot);
}

// What the selectors that are 'all' add to image names, in the order process_file adds them (none
// for a .ktx2 output, which keeps every surface in one file).
std::vector<std::string> output_suffixes(const Selection& sel, std::optional<OutputKind> kind) {
    if (kind == OutputKind::Ktx2) return {};
    std::vector<std::string> suffixes;
    for (const Selector* s : {&sel.level, &sel.layer, &sel.face, &sel.slice})
        if (s->kind == Selector::All) suffixes.push_back(s->suffix);
    return suffixes;
}

// ---- one file ----------------------------------------------------------------------------------

// Everything the workers share (read-only, except the context, which is thread-safe).
struct Shared {
    const Options& options;
    Selection selection;
    texdec_bc_rounding rounding;
    uint64_t timeout_ns;
    std::optional<astc_file::Profile> profile;  // --profile (or -dl / -ds / -dh)
    std::optional<texdec_format> raw_format;
    Extent raw_extent{0, 0, 0};
    std::optional<block_linear_layout::Gobs> block_linear;  // --block-linear (raw input only)
    texdec_source_layout_info source_layout{};              // its layout, chained on each job
    std::optional<OutputKind> fixed_kind;  // from OUT, or --to
    texdec_context* context = nullptr;
    const char* backend = "";  // what the context decodes on: "gpu" or "cpu"
    std::string device;        // its device name
    MessageLog* log = nullptr;
    std::optional<uint64_t> fault;
    input_file::MemoryBudget* budget = nullptr;  // --max-memory, shared by the files in flight
    image_write::PngOptions png;                 // TEXDEC_CLI_PNG_BAND_ROWS / _LEVEL (tests, measurements)
    // The context is created on its own thread while the first files are read and parsed: `context`,
    // `backend` and `device` are set (or `context_error`) before `context_ready` is.
    std::shared_future<void> context_ready;
    std::exception_ptr context_error;
};

// Thrown by wait_for_context when the context could not be created: the file is not reported
// (run_decode reports the context's error instead, as before any file was read).
struct NoContext {};

// Waits until the context exists (its wait counted in the file's phases).
void wait_for_context(Shared& shared, FileResult& result) {
    const auto start = Clock::now();
    shared.context_ready.wait();
    result.phases.context_wait += ms_since(start);
    if (shared.context_error) throw NoContext{};
}

struct Item {
    std::string input;
    std::string output;  // OUT, or out-dir path with the kind's extension ("" extension: chosen per file)
};

struct Surface {
    uint32_t level, layer, face;
    uint32_t width, height, depth;
    TexelBuffer texels;
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
    const texdec_format_info hdr = format_info(texture_file::profile_twin(format, astc_file::Profile::Hdr));
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
void swap_red_alpha(texdec_format format, texdec_output output, TexelBuffer& texels) {
    uint32_t texel_bytes = 0;
    texdec_output_texel_size(format, output, &texel_bytes);
    const uint32_t channel = texel_bytes / 4;
    if (channel == 0 || texel_bytes % 4) return;
    for (size_t at = 0; at + texel_bytes <= texels.size(); at += texel_bytes)
        std::swap_ranges(texels.begin() + std::ptrdiff_t(at), texels.begin() + std::ptrdiff_t(at + channel),
                         texels.begin() + std::ptrdiff_t(at + 3 * channel));
}

// A raw block-linear file shorter than its surface: an input error with the library's message.
[[noreturn]] void short_block_linear_file(Shared& shared, const std::string& input, texdec_status status) {
    throw CliError{kExitInput,
                   "'" + input + "': " +
                       shared.log->describe_failure("too short for its block-linear layout (--block-linear " +
                                                        block_linear_layout::text(*shared.block_linear) + ")",
                                                    status)};
}

// The job of one level's surface (format, output, rounding, extent and source layout): what the
// size check and the decode share.
texdec_host_job host_job(const Shared& shared, texdec_format format, texdec_output output,
                         const texture_file::LevelInfo& level) {
    texdec_host_job job{};
    if (shared.block_linear) job.next = &shared.source_layout;
    job.format = format;
    job.output = output;
    job.bc_rounding = shared.rounding;
    job.width = level.width;
    job.height = level.height;
    job.depth = level.depth;
    return job;
}

// Raw block-linear input: the library's size check of the surface, before any memory is
// reserved or texels allocated (texdec_decode_scratch_size checks the job as texdec_decode does).
void check_block_linear_size(Shared& shared, const texture_file::TextureFile& file, texdec_output output,
                             const std::string& input) {
    const texture_file::LevelInfo& level = file.level_info[0];
    static const uint8_t kNoBlocks = 0;
    texdec_host_job job = host_job(shared, file.format, output, level);
    job.src = &kNoBlocks;  // only the sizes matter to the query
    job.src_size = size_t(file.file_bytes);
    uint64_t texels = 0;
    if (texdec_decoded_size(file.format, output, level.width, level.height, level.depth, &texels) != TEXDEC_SUCCESS)
        return;  // the decode reports it
    job.dst_size = size_t(texels);
    uint64_t host = 0, device = 0;
    const texdec_status status = texdec_decode_scratch_size(shared.context, &job, &host, &device);
    if (status == TEXDEC_ERROR_SOURCE_TOO_SMALL) short_block_linear_file(shared, input, status);
    if (status != TEXDEC_SUCCESS) shared.log->describe_failure("", status);  // the decode reports it
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
    const std::string where =
        "level " + std::to_string(level) + " layer " + std::to_string(layer) + " face " + std::to_string(face);
    if (!shared.block_linear) count_hdr_blocks(file.format, data, where, result);  // block-linear: once decoded

    uint64_t size = 0;
    texdec_status status = texdec_decoded_size(file.format, output, info.width, info.height, info.depth, &size);
    if (status != TEXDEC_SUCCESS) throw CliError{kExitRuntime, "texdec_decoded_size: " + status_text(status)};
    const auto alloc_start = Clock::now();
    try {
        surface.texels.resize(size_t(size));
        result.phases.alloc += ms_since(alloc_start);
    } catch (const std::bad_alloc&) {
        throw CliError{kExitRuntime, "out of host memory for " + std::to_string(size) + " bytes of decoded texels"};
    }
    texdec_host_job job = host_job(shared, file.format, output, info);
    static const uint8_t kNoBlocks = 0;  // an empty file: the library's size check speaks, not a NULL check
    job.src = data.empty() ? &kNoBlocks : data.data();
    job.src_size = data.size();
    job.dst = surface.texels.data();
    job.dst_size = surface.texels.size();
    job.timeout_ns = shared.timeout_ns;
    texdec_decode_timing timing{};
    const auto decode_start = Clock::now();
    status = texdec_decode_timed(shared.context, &job, &timing);
    result.phases.decode += ms_since(decode_start);
    if (status == TEXDEC_ERROR_SOURCE_TOO_SMALL && shared.block_linear)
        short_block_linear_file(shared, result.input, status);
    if (status != TEXDEC_SUCCESS) throw CliError{kExitRuntime, shared.log->describe_failure("decode failed", status)};
    // Block-linear: the blocks in linear order, for the HDR scan and the CPU reference (which reads
    // linear blocks), gathered by block_linear_layout.cpp with the host's address
    // (src/common/block_linear_address.h): --verify of a GPU decode also checks the shader's twin
    // of it (layout.glsl); the tests check both against tegra_swizzle's vectors.
    std::vector<uint8_t> linear_blocks;
    if (shared.block_linear) {
        const block_linear_layout::Surface bl =
            block_linear_layout::surface_of(file.format, info.width, info.height, info.depth, *shared.block_linear);
        if (!block_linear_layout::deswizzle(data, bl, linear_blocks))
            throw CliError{kExitRuntime, "'" + result.input +
                                             "': the library decoded a block-linear surface that "
                                             "the tool's layout formula puts past the end of the file (a bug)"};
        count_hdr_blocks(file.format, linear_blocks, where, result);
    }
    result.gpu_ms += double(timing.gpu_decode_ns) / 1e6;
    Phases& phases = result.phases;
    phases.prepare += double(timing.prepare_ns) / 1e6;
    phases.upload_copy += double(timing.upload_copy_ns) / 1e6;
    phases.submit_wait += double(timing.submit_wait_ns) / 1e6;
    phases.readback_copy += double(timing.readback_copy_ns) / 1e6;
    phases.gpu_upload += double(timing.gpu_upload_ns) / 1e6;
    phases.gpu_decode += double(timing.gpu_decode_ns) / 1e6;
    phases.gpu_readback += double(timing.gpu_readback_ns) / 1e6;
    result.gpu_timed = result.gpu_timed && timing.gpu_timestamps;
    result.cpu_ms += double(timing.submit_wait_ns) / 1e6;
    result.texels += uint64_t(info.width) * info.height * info.depth;

    const auto verify_start = Clock::now();
    if (shared.options.verify) {
        uint32_t texel_bytes = 0;
        texdec_output_texel_size(file.format, output, &texel_bytes);
        if (shared.fault && !result.verify.ran && *shared.fault < size / texel_bytes)
            surface.texels[size_t(*shared.fault) * texel_bytes] ^= 1;
        std::vector<uint8_t> reference(surface.texels.size());
        job.dst = reference.data();
        if (shared.block_linear) {
            job.next = nullptr;
            job.src = linear_blocks.data();
            job.src_size = linear_blocks.size();
        }
        const texdec_reference::Result ref = texdec_reference::decode(job);
        if (ref.status != TEXDEC_SUCCESS)
            throw CliError{kExitRuntime, "--verify: the CPU reference failed: " + status_text(ref.status) + ": " +
                                             ref.message};
        VkFormat vk_format = VK_FORMAT_UNDEFINED;
        texdec_output_vk_format(file.format, output, &vk_format);
        compare_texels(shared.backend, surface.texels, reference, texel_bytes, vk_format,
                       format_info(file.format).flags & TEXDEC_FORMAT_FLAG_HDR, info.width, info.height, where,
                       result.verify);
        result.phases.verify += ms_since(verify_start);
    }
    if (file.swap_red_alpha) swap_red_alpha(file.format, output, surface.texels);
    return surface;
}

void check(const image_write::WriteResult& written, FileResult& result) {
    if (!written.ok) throw CliError{written.same_as_input ? kExitUsage : kExitOutput, written.message};
    result.phases.encode += written.encode_ms;
    result.phases.write += written.write_ms;
    result.phases.sync += written.sync_ms;
}

// Writes one image file: a whole surface, or one slice of it (slice >= 0).
void write_image(const Shared& shared, OutputKind kind, const std::string& path, texdec_format format,
                 VkFormat vk_format, const Surface& surface, int slice, FileResult& result) {
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
    case OutputKind::Png: check(image_write::write_png(path, image, snorm, shared.png), result); break;
    case OutputKind::Tga: check(image_write::write_tga(path, image, snorm), result); break;
    case OutputKind::Exr: check(image_write::write_exr(path, image), result); break;
    case OutputKind::Hdr: check(image_write::write_hdr(path, image), result); break;
    case OutputKind::Raw: check(image_write::write_raw(path, texels), result); break;
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


void process_file(Shared& shared, const Item& item, FileResult& result) {
    const Options& options = shared.options;
    texture_file::OpenOptions open_options;
    open_options.profile = shared.profile;
    open_options.profile_must_apply = !options.out_dir;  // in a batch, files that name their format ignore it
    open_options.max_table_bytes = shared.budget->limit().bytes;
    open_options.table_limit_source =
        input_file::size_text(shared.budget->limit().bytes) + ", " + shared.budget->limit().source;
    const auto read_start = Clock::now();
    texture_file::FileBytes bytes = input_file::map_texture_file(item.input);
    result.phases.read += ms_since(read_start);
    const auto parse_start = Clock::now();
    auto opened = shared.raw_format ? texture_file::open_raw(
                                          std::move(bytes), *shared.raw_format, shared.raw_extent.width,
                                          shared.raw_extent.height, shared.raw_extent.depth,
                                          shared.block_linear ? block_linear_layout::text(*shared.block_linear) : "")
                                    : texture_file::open(std::move(bytes), open_options);
    if (const auto* error = std::get_if<texture_file::Error>(&opened))
        throw CliError{error->usage ? kExitUsage : kExitInput, "'" + item.input + "': " + error->message};
    texture_file::TextureFile& file = std::get<texture_file::TextureFile>(opened);
    result.phases.parse += ms_since(parse_start);
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
    result.output_type = texdec_output_name(output);
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

    wait_for_context(shared, result);
    if (shared.block_linear) check_block_linear_size(shared, file, output, item.input);
    // The memory this file needs at its peak, against --max-memory, before anything is inflated or decoded.
    const input_file::MemoryNeed need = input_file::estimate_need(
        {&file, file.format, output, shared.rounding, levels, uint64_t(layers.size()) * faces.size(), options.verify,
         ktx2, kind == OutputKind::Raw || ktx2 ? 0u : 2u, shared.block_linear ? &shared.source_layout : nullptr},
        shared.context);
    const input_file::MemoryBudget::Reservation reservation = shared.budget->reserve(item.input, need);

    if (ktx2) {
        // Every picked level, layer and face into one file, in KTX 2's level layout.
        std::vector<TexelBuffer> level_texels(levels.size());
        for (size_t li = 0; li < levels.size(); ++li) {
            for (uint32_t layer : layers)
                for (uint32_t face : faces) {
                    Surface s = decode_surface(shared, file, output, levels[li], layer, face, result);
                    if (level_texels[li].empty()) level_texels[li] = std::move(s.texels);  // no copy of one surface
                    else level_texels[li].insert(level_texels[li].end(), s.texels.begin(), s.texels.end());
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
        check(image_write::write_ktx2(base, texture), result);
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
                    write_image(shared, kind, path, file.format, vk_format, surface, -1, result);
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
                    write_image(shared, kind, path, file.format, vk_format, surface, int(z), result);
                    result.outputs.push_back({path, level, layer, face, int(z), {surface.width, surface.height, 1}});
                }
            }
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
    // A bad --backend, $TEXDEC_BACKEND, --device or --threads: before any file is touched.
    const BackendChoice backend = parse_backend_choice(options);
    // --threads sets the CPU backend's threads; the GPU backend has none to set (as --device has no
    // meaning for the CPU backend). The bench takes both: its libastcenc reference uses --threads.
    if (options.threads && backend.backend == TEXDEC_BACKEND_GPU)
        usage_error("--threads sets the CPU backend's threads; " + backend.source +
                    " decodes on a Vulkan device, which has none to set (drop --threads, or use --backend cpu or "
                    "auto)");
    input_file::MemoryBudget budget(input_file::memory_limit(options.max_memory));
    shared.budget = &budget;
    // Test and measurement hooks: the PNG writer's band height and zlib level.
    if (const char* rows = TEXDEC_IO_TEST_HOOK("TEXDEC_CLI_PNG_BAND_ROWS"))
        shared.png.band_rows = uint32_t(std::atoi(rows));
    if (const char* level = TEXDEC_IO_TEST_HOOK("TEXDEC_CLI_PNG_LEVEL")) shared.png.level = std::atoi(level);
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
    if (options.block_linear) {
        if (!options.format)
            usage_error(
                "--block-linear applies to raw blocks (give --format and --extent); a .dds, .ktx, .ktx2, .pkm "
                "or .astc file is read as its header lays it out");
        auto gobs = block_linear_layout::parse(*options.block_linear);
        if (const auto* error = std::get_if<std::string>(&gobs))
            usage_error("--block-linear '" + *options.block_linear + "': " + *error);
        shared.block_linear = std::get<block_linear_layout::Gobs>(gobs);
        shared.source_layout = texdec::block_linear_layout(shared.block_linear->height, shared.block_linear->depth);
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
        if (fs::is_directory(platform::fs_path(options.positional[0]), error) || options.positional[0][0] == '@')
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
        const std::vector<std::string> names = out_dir_names(inputs, *options.out_dir, shared.fixed_kind);
        for (size_t i = 0; i < inputs.files.size(); ++i) items.push_back({inputs.files[i], names[i]});
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
        // No output replaces another: checked here, before anything is made; and as each is written.
        std::vector<PlannedOutput> planned;
        for (const Item& item : items) {
            if (shared.fixed_kind) planned.push_back({item.output, item.input});
            else
                for (OutputKind k : {OutputKind::Png, OutputKind::Exr})
                    planned.push_back({item.output + "." + extension(k), item.input});
        }
        if (options.json && *options.json != "-") planned.push_back({*options.json, ""});
        refuse_clashing_outputs(planned, output_suffixes(shared.selection, shared.fixed_kind));
        safe_output::refuse_rewriting_outputs(true);
        if (!batch) input_file::refuse_special_file(items[0].input);  // before a device is made
    }
    if (batch) {
        std::error_code error;
        fs::create_directories(platform::fs_path(*options.out_dir), error);
        if (error)
            throw CliError{kExitOutput, "cannot create --out-dir '" + *options.out_dir + "': " + error.message()};
        for (const Item& item : items) {
            const fs::path folder = platform::fs_path(item.output).parent_path();
            fs::create_directories(folder, error);  // -r: the input's subfolder
            if (error)
                throw CliError{kExitOutput, "cannot create '" + platform::utf8(folder) + "': " + error.message()};
        }
    }

    MessageLog log;
    log.verbose = options.verbose;
    shared.log = &log;
    // The device and context are made on their own thread while the workers read and parse the
    // first files (each waits for it before it needs the context).
    const auto start = Clock::now();  // the run's wall clock: the context and every file
    texdec::Context context;
    double context_ms = 0;
    std::promise<void> context_promise;
    shared.context_ready = context_promise.get_future().share();
    std::thread context_thread([&] {
        const auto context_start = Clock::now();
        try {
            context = create_context(options, log);
            shared.context = context.get();
            shared.backend = backend_name(texdec_context_backend(context.get()));
            shared.device = context.device_name();
        } catch (...) {
            shared.context_error = std::current_exception();
        }
        context_ms = ms_since(context_start);
        context_promise.set_value();
    });
    const std::string& device = shared.device;

    // Workers take the next file: reading, parsing and writing of some overlap the GPU work of others.
    std::vector<FileResult> results(items.size());
    Reporter reporter(items.size(), batch || items.size() > 1, options.verbose);
    // A texture-named file without a texture magic is likely damaged: always said; others with -v.
    for (size_t i = 0; i < inputs.skipped.size(); ++i)
        if (options.verbose || inputs.skipped_loud[i])
            reporter.print(std::string(kToolName) + (inputs.skipped_loud[i] ? ": warning: skipped '" : ": skipped '") +
                           inputs.skipped[i] + "': " + inputs.skipped_why[i]);
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
            } catch (const NoContext&) {
                return;  // run_decode reports the context's error
            } catch (const CliError& error) {
                r.exit_code = error.code;
                r.message = error.message;
            } catch (const std::exception& error) {
                r.exit_code = kExitRuntime;
                r.message = "'" + r.input + "': " + error.what();
            }
            r.wall_ms = ms_since(file_start);
            shared.context_ready.wait();  // a file that failed before it needed the context
            if (shared.context_error) return;
            r.backend = shared.backend;
            r.device = shared.device;
            r.gpu_timed = r.gpu_timed && r.backend == std::string("gpu");  // the CPU backend has no GPU time
            reporter.file_done(r);
        }
    };
    std::vector<std::thread> threads;
    const size_t thread_count = std::min<size_t>(jobs, items.size());
    for (size_t t = 1; t < thread_count; ++t) threads.emplace_back(work);
    work();
    for (std::thread& t : threads) t.join();
    context_thread.join();
    if (shared.context_error) std::rethrow_exception(shared.context_error);
    reporter.finish();
    if (options.verbose)
        std::fprintf(stderr, "%s: time: device and context %s ms (while the first files were read)\n", kToolName,
                     Reporter::fixed(context_ms, 1).c_str());
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
        json.begin_object().field("tool", kToolName).field("backend", shared.backend).field("device", device);
        json.field("context_ms", context_ms);
        json.key("files").begin_array();
        for (const FileResult& r : results) file_json(json, r);
        json.end_array();
        json.key("skipped").begin_array();
        for (const std::string& s : inputs.skipped) json.value(s);
        json.end_array();
        // Names that are not UTF-8: their bytes in base64, null for the others (see json.h).
        if (!std::all_of(inputs.skipped.begin(), inputs.skipped.end(), Json::valid_utf8)) {
            json.key("skipped_base64").begin_array();
            for (const std::string& s : inputs.skipped) Json::valid_utf8(s) ? json.null() : json.value(Json::base64(s));
            json.end_array();
        }
        json.key("summary").begin_object();
        json.field("files", uint64_t(items.size())).field("failed", uint64_t(failed));
        json.field("skipped", uint64_t(inputs.skipped.size())).field("outputs", uint64_t(outputs));
        json.field("texels", texels)
            .field("context_ms", context_ms)
            .field("wall_ms", wall_ms)
            .field("exit_code", exit_code);
        json.end_object().end_object();
        write_json(*options.json, json.text());
    }
    if (options.verbose) {  // after the report: destroying the device is part of the run's wall clock
        const auto destroy_start = Clock::now();
        context = texdec::Context();
        std::fprintf(stderr, "%s: time: destroying the context %s ms\n", kToolName,
                     Reporter::fixed(ms_since(destroy_start), 1).c_str());
    }
    return exit_code;
}

}  // namespace cli

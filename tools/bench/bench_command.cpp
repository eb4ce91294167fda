// astc-gpu-decode bench: checks the bench's command line and runs bench.cpp.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "bench.h"
#include "block_linear_layout.h"
#include "cli_common.h"
#include "input_file.h"
#include "texture_file.h"

namespace cli {
namespace {

// --input FILE: the blocks of its first surface (any container texture_file reads), checked to be
// a 2D texture of a format this build decodes.
bench::InputBlocks load_input(const std::string& path) {
    auto opened = texture_file::open(input_file::map_texture_file(path), texture_file::OpenOptions{});
    if (const auto* error = std::get_if<texture_file::Error>(&opened))
        throw CliError{error->usage ? kExitUsage : kExitInput, path + ": " + error->message};
    texture_file::TextureFile& file = std::get<texture_file::TextureFile>(opened);
    const texdec_format_info info = format_info(file.format);
    if (!(info.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED))
        throw CliError{kExitInput, path + ": " + info.name + " is not implemented in this build"};
    const texture_file::LevelInfo& level = file.level_info.at(0);
    if (info.block_depth > 1 || level.depth > 1)
        throw CliError{kExitInput,
                       path + ": the bench tiles 2D textures; this one has depth " + std::to_string(level.depth)};
    auto surface = file.blocks(0, 0, 0);
    if (const auto* error = std::get_if<texture_file::Error>(&surface))
        throw CliError{kExitInput, path + ": " + error->message};
    const std::span<const uint8_t> bytes = std::get<std::span<const uint8_t>>(surface);
    bench::InputBlocks in;
    in.path = path;
    in.format = file.format;
    in.width = level.width;
    in.height = level.height;
    in.bx = (level.width + info.block_width - 1) / info.block_width;
    in.by = (level.height + info.block_height - 1) / info.block_height;
    const uint64_t need = uint64_t(in.bx) * in.by * info.bytes_per_block;
    if (bytes.size() < need)
        throw CliError{kExitInput, path + ": its first surface has " + std::to_string(bytes.size()) +
                                       " bytes of blocks, " + std::to_string(need) + " expected"};
    in.blocks.assign(bytes.begin(), bytes.begin() + std::ptrdiff_t(need));
    in.description = std::string(texture_file::container_name(file.container)) +
                     (file.container_format.empty() ? "" : ", " + file.container_format) + ", " +
                     std::to_string(level.width) + "x" + std::to_string(level.height);
    return in;
}

// The value of `--option 'text'`: a number from `least` to `most`, else a usage error saying it
// "is not `what`".
uint32_t parse_bounded(const char* option, const std::string& text, uint32_t least, uint32_t most,
                       const std::string& what) {
    const auto n = parse_u32(text);
    if (!n || *n < least || *n > most) usage_error(std::string(option) + " '" + text + "' is not " + what);
    return *n;
}

}  // namespace

int run_bench(const Options& options) {
    expect_positional_count(options, 0, "no arguments (options only)");
    if (options.extent) usage_error("option --extent applies to 'decode' and 'info' only (bench takes --size)");
    if (options.profile)
        usage_error("option --profile applies to 'decode' and 'info' only (bench takes --format astc-WxH-srgb)");
    reject_options_not_for(options, "bench");
    if (options.json && *options.json == "-") usage_error("bench writes its table to stdout: give --json=FILE");
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
    if (options.input) {
        if (!b.formats.empty()) usage_error("--input gives the format (the file's): leave out --format");
        if (options.regions) usage_error("--input applies to the table, not to --regions");
        b.input = load_input(*options.input);
        b.formats.push_back(b.input->format);
    }
    if (options.size) {
        const Extent e = parse_extent(*options.size);
        if (e.depth != 1) usage_error("--size takes WxH");
        if (e.width > 65536 || e.height > 65536) usage_error("--size: at most 65536x65536");
        b.width = e.width;
        b.height = e.height;
    }
    if (options.iterations) {
        b.iterations = parse_bounded("--iterations", *options.iterations, 1, 100000, "a number from 1 to 100000");
    }
    if (options.warmup_ms) {
        b.warmup_ms =
            parse_bounded("--warmup-ms", *options.warmup_ms, 0, 600000, "a number of milliseconds up to 600000");
    }
    if (options.output) {
        b.output = parse_output_type(*options.output);
        for (texdec_format f : b.formats.empty() ? bench::default_formats() : b.formats)
            if (!offers_output(f, *b.output))
                usage_error(std::string(format_info(f).name) + " has no " + *options.output + " output");
    }
    if (options.block_linear) {
        if (*options.block_linear == "off" || *options.block_linear == "0") {
            b.block_linear_height = 0;
        } else {
            auto gobs = block_linear_layout::parse(*options.block_linear);
            if (const auto* error = std::get_if<std::string>(&gobs))
                usage_error("--block-linear '" + *options.block_linear + "': " + *error + ", or off");
            if (std::get<block_linear_layout::Gobs>(gobs).depth != 1)
                usage_error("--block-linear '" + *options.block_linear +
                            "': the bench's textures are 2D: give the block height H alone (or off)");
            b.block_linear_height = std::get<block_linear_layout::Gobs>(gobs).height;
        }
    }
    if (options.regions) {
        b.regions = parse_bounded("--regions", *options.regions, 1, 65536, "a number from 1 to 65536");
    }
    if (options.region_size) {
        if (!options.regions) usage_error("--region-size needs --regions N");
        const Extent e = parse_extent(*options.region_size);
        if (e.depth != 1 || e.width > 4096 || e.height > 4096)
            usage_error("--region-size takes WxH, at most 4096x4096");
        b.region_width = e.width;
        b.region_height = e.height;
    }
    if (options.bc_rounding) b.bc_rounding = parse_bc_rounding(*options.bc_rounding);
    if (options.json) b.json_path = *options.json;
    b.validate = options.validate;
    if (options.device) b.device_selector = *options.device;
    const BackendChoice backend = parse_backend_choice(options);
    b.backend = backend.backend;
    b.threads = backend.cpu_threads;
    if (options.validate && b.backend == TEXDEC_BACKEND_CPU)
        usage_error("--validate checks the Vulkan device; the CPU backend has none");
    b.command_line = options.command_line;
    b.verbose = options.verbose;
    try {
        return b.regions ? bench::run_regions(b) : bench::run(b);
    } catch (const std::runtime_error& e) {
        throw CliError{kExitRuntime, std::string("bench: ") + e.what()};
    }
}

}  // namespace cli

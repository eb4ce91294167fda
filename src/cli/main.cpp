// astc-gpu-decode: decode block-compressed texture files on the GPU with texdec.
// Uses only the public API (texdec.h, texdec.hpp). This file parses the command line and runs
// list-devices and formats; --help is help.cpp, decode is decode_command.cpp (over decode_inputs,
// decode_verify and decode_report), info is info_command.cpp, bench is bench/ (when built). The
// containers are texture_file.cpp (over dds.cpp, ktx.cpp, ktx2.cpp, pkm.cpp, astc_file.cpp), the
// writers image_write.cpp.
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <texdec/texdec.h>

#include "cli_common.h"
#include "platform.h"

namespace cli {
namespace {

#ifndef TEXDEC_CLI_VERSION
#define TEXDEC_CLI_VERSION "unknown"  // set by CMake from the project version
#endif

// ---- command line ----------------------------------------------------------------------------

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
    if (name == "--face") return &options.face;
    if (name == "--slice") return &options.slice;
    if (name == "--out-dir") return &options.out_dir;
    if (name == "--to") return &options.to;
    if (name == "--jobs") return &options.jobs;
    if (name == "--max-memory") return &options.max_memory;
    if (name == "--size") return &options.size;
    if (name == "--iterations") return &options.iterations;
    if (name == "--warmup-ms") return &options.warmup_ms;
    if (name == "--regions") return &options.regions;
    if (name == "--region-size") return &options.region_size;
    if (name == "--input") return &options.input;
    if (name == "--backend") return &options.backend;
    if (name == "--threads") return &options.threads;
    if (name == "--block-linear") return &options.block_linear;
    return nullptr;
}

// -dl / -ds / -dh: astcenc's decompress shortcuts, 'decode --profile ldr|srgb|hdr'.
const char* shortcut_profile(std::string_view arg) {
    if (arg == "-dl") return "ldr";
    if (arg == "-ds") return "srgb";
    if (arg == "-dh") return "hdr";
    return nullptr;
}

bool parse_flag(Options& options, std::string_view arg, const char*& shortcut) {
    if (arg == "-h" || arg == "--help") return options.help = true;
    if (arg == "--version") return options.version = true;
    if (arg == "-v" || arg == "--verbose") return options.verbose = true;
    if (arg == "--validate") return options.validate = true;
    if (arg == "--verify") return options.verify = true;
    if (arg == "-r" || arg == "--recursive") return options.recursive = true;
    if (arg == "--json") {
        options.json = "-";
        return true;
    }
    if (arg.substr(0, 7) == "--json=") {
        options.json = std::string(arg.substr(7));
        if (options.json->empty()) usage_error("--json= needs a file name (or give --json alone for standard output)");
        return true;
    }
    if (const char* profile = shortcut_profile(arg)) {
        if (options.profile && *options.profile != profile)
            usage_error(std::string(arg) + " and --profile " + *options.profile + " disagree");
        options.profile = profile;
        shortcut = profile;
        return true;
    }
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
    const char* shortcut_given = nullptr;  // the profile -dl / -ds / -dh named
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
        if (parse_flag(options, arg, shortcut_given)) continue;
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
        if (name == "--profile" && shortcut_given && *options.profile != shortcut_given)
            usage_error(std::string("--profile ") + *options.profile + std::string(" and -d") + shortcut_given[0] + " disagree");
    }
    // "-dl IN OUT": the first positional argument was taken for the command.
    if (shortcut_given && options.command != "decode") {
        if (!options.command.empty()) options.positional.insert(options.positional.begin(), options.command);
        options.command = "decode";
    }
    return options;
}

// ---- list-devices, formats -------------------------------------------------------------------


void print_device(uint32_t index, const char* name, VkPhysicalDeviceType type, uint32_t api_version, void* count) {
    ++*static_cast<uint32_t*>(count);
    std::printf("%-5u  %-14s  %u.%u.%-5u  %s\n", index, device_type_name(type), VK_API_VERSION_MAJOR(api_version),
                VK_API_VERSION_MINOR(api_version), VK_API_VERSION_PATCH(api_version), name);
}

int run_list_devices(const Options& options) {
    reject_options_not_for(options, options.command);
    expect_positional_count(options, 0, "no arguments");
    std::printf("%-5s  %-14s  %-9s  %s\n", "index", "type", "vulkan", "name");
    uint32_t count = 0;
    const texdec_status status = texdec_enumerate_devices(&print_device, &count);
    if (status != TEXDEC_SUCCESS)
        throw CliError{kExitRuntime, "cannot enumerate Vulkan devices: " + status_text(status)};
    if (count == 0) throw CliError{kExitRuntime, "no Vulkan devices found (is mesa-vulkan-drivers installed?)"};
    return kExitOk;
}

int run_formats(const Options& options) {
    reject_options_not_for(options, options.command);
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

int run(int argc, char** argv) {
    const Options options = parse_command_line(argc, argv);
    if (options.help) {
        std::fputs(help_text(), stdout);
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
    if (options.command == "info") return run_info(options);
    if (options.command == "bench") return run_bench(options);
    if (options.command == "list-devices") return run_list_devices(options);
    if (options.command == "formats") return run_formats(options);
    usage_error("unknown command '" + options.command + "'");
}

}  // namespace
}  // namespace cli

int main(int argc, char** argv) {
    try {
        // UTF-8 arguments (on Windows, from the UTF-16 command line: any file name works).
        std::vector<std::string> args = platform::utf8_arguments(argc, argv);
        std::vector<char*> pointers;
        for (std::string& arg : args) pointers.push_back(arg.data());
        pointers.push_back(nullptr);
        return cli::run(int(args.size()), pointers.data());
    } catch (const cli::CliError& error) {
        std::fprintf(stderr, "%s: error: %s\n", cli::kToolName, error.message.c_str());
        return error.code;
    } catch (const std::exception& error) {  // e.g. std::bad_alloc outside the places that expect it
        std::fprintf(stderr, "%s: error: %s\n", cli::kToolName, error.what());
        return cli::kExitRuntime;
    }
}

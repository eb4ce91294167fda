// What the commands of astc-gpu-decode share: exit codes, the error they throw, the parsed command
// line, small parsers, and the library plumbing (context, message log). main.cpp parses and
// dispatches; decode_command.cpp decodes (one file or a batch) and answers `info`.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <texdec/texdec.h>
#include <texdec/texdec.hpp>

#include "astc_file.h"

namespace cli {

constexpr const char* kToolName = "astc-gpu-decode";

// Exit codes, documented in --help and the README. With several inputs the exit code is that of
// the first file (in input order) that failed.
enum ExitCode : int {
    kExitOk = 0,
    kExitRuntime = 1,   // decode, device or library error
    kExitUsage = 2,     // bad command line
    kExitInput = 3,     // input file unreadable, malformed, truncated or of an unknown format
    kExitOutput = 4,    // output file could not be written
    kExitMismatch = 5   // --verify: the GPU result differs from the CPU reference
};

// Thrown by the command code and caught in main() (or per file in a batch), which prints
// "astc-gpu-decode: error: MESSAGE".
struct CliError {
    ExitCode code;
    std::string message;
};

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
    std::optional<std::string> face;
    std::optional<std::string> slice;
    std::optional<std::string> out_dir;
    std::optional<std::string> to;
    std::optional<std::string> jobs;
    std::optional<std::string> json;  // "-": standard output
    std::optional<std::string> max_memory;
    std::optional<std::string> backend;       // --backend gpu|cpu|auto (else $TEXDEC_BACKEND)
    std::optional<std::string> threads;       // --threads N: the CPU backend's (and the bench's libastcenc's)
    std::optional<std::string> block_linear;  // --block-linear H[xD]: raw input (decode), the bench's rows
    bool verify = false;
    bool recursive = false;
    // bench
    std::vector<std::string> formats;  // every --format, in order
    std::optional<std::string> size;
    std::optional<std::string> iterations;
    std::optional<std::string> warmup_ms;
    std::optional<std::string> regions;      // --regions N: the many-small-regions bench
    std::optional<std::string> region_size;  // --region-size WxH
    std::optional<std::string> input;        // --input FILE: the real blocks from a file
    bool validate = false;
    std::string command_line;
    bool verbose = false;
    bool help = false;
    bool version = false;
};

[[noreturn]] void usage_error(const std::string& message);

// A usage error for the first option given that `command` does not take ("option --level applies
// to 'decode' only"). One table for every command.
void reject_options_not_for(const Options& options, const std::string& command);

std::optional<uint32_t> parse_u32(std::string_view text);

struct Extent {
    uint32_t width, height, depth;
};
Extent parse_extent(const std::string& text);  // WxH or WxHxD, positive

texdec_format parse_format_name(const std::string& name);
texdec_output parse_output_type(const std::string& name);
texdec_bc_rounding parse_bc_rounding(const std::string& name);
astc_file::Profile parse_profile(const std::string& name);
uint64_t parse_timeout_ns(const std::optional<std::string>& text);

texdec_format_info format_info(texdec_format format);
std::string status_text(texdec_status status);
bool offers_output(texdec_format format, texdec_output output);
std::string block_size_text(const texdec_format_info& info);

// Collects the library's messages: errors are kept for the failure report, warnings are
// printed at once, informational ones only with --verbose.
struct MessageLog {
    std::mutex mutex;
    std::vector<std::string> errors;
    bool verbose = false;

    static void callback(texdec_message_severity severity, const char* message, void* user_data);
    // "what failed: status [texdec status N]: message; message"
    std::string describe_failure(const std::string& what, texdec_status status);
};

// The backend decode and bench run on: --backend, else gpu when --device names a device, else
// $TEXDEC_BACKEND, else auto. Usage errors for a bad value (naming where it came from), for
// --device with the CPU backend and for an empty --device.
struct BackendChoice {
    texdec_backend backend = TEXDEC_BACKEND_AUTO;
    uint32_t cpu_threads = 0;  // --threads (0: one per hardware thread)
    std::string source;        // what chose the backend: "--backend gpu", "--device", "TEXDEC_BACKEND=gpu", "default"
};
BackendChoice parse_backend_choice(const Options& options);

// "gpu", "cpu" or "auto".
const char* backend_name(texdec_backend backend);

// Creates the context on the backend parse_backend_choice() says (the GPU backend on the device
// --device / $TEXDEC_DEVICE selects); prints "device: NAME (gpu|cpu backend)" to stderr unless quiet.
texdec::Context create_context(const Options& options, MessageLog& log, bool quiet = false);

// "discrete-gpu", "integrated-gpu", "virtual-gpu", "cpu" or "other" (list-devices, the bench).
const char* device_type_name(VkPhysicalDeviceType type);

bool ends_with_ignoring_case(std::string_view text, std::string_view suffix);

// A usage error unless the command got `count` positional arguments (`what` says which).
void expect_positional_count(const Options& options, size_t count, const char* what);

// --help (help.cpp).
const char* help_text();

// The commands that live outside main.cpp.
int run_decode(const Options& options);
int run_info(const Options& options);
int run_bench(const Options& options);  // bench/bench_command.cpp, or bench_not_built.cpp

}  // namespace cli

#include "cli_common.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cli {

void usage_error(const std::string& message) {
    throw CliError{kExitUsage, message + " (see '" + kToolName + " --help')"};
}

void reject_options_not_for(const Options& options, const std::string& command) {
    struct Rule {
        const char* name;
        bool given;
        std::vector<const char*> commands;  // the commands that take it
    };
    const Rule rules[] = {
        {"--format", options.format.has_value(), {"decode", "info", "bench"}},
        {"--extent", options.extent.has_value(), {"decode", "info"}},
        {"--profile", options.profile.has_value(), {"decode", "info"}},
        {"--json", options.json.has_value(), {"decode", "info", "bench"}},
        {"--output", options.output.has_value(), {"decode", "bench"}},
        {"--bc-rounding", options.bc_rounding.has_value(), {"decode", "bench"}},
        {"--timeout", options.timeout.has_value(), {"decode"}},
        {"--level", options.level.has_value(), {"decode"}},
        {"--layer", options.layer.has_value(), {"decode"}},
        {"--face", options.face.has_value(), {"decode"}},
        {"--slice", options.slice.has_value(), {"decode"}},
        {"--out-dir", options.out_dir.has_value(), {"decode"}},
        {"--to", options.to.has_value(), {"decode"}},
        {"--jobs", options.jobs.has_value(), {"decode"}},
        {"--max-memory", options.max_memory.has_value(), {"decode"}},
        {"--backend", options.backend.has_value(), {"decode", "bench"}},
        {"--threads", options.threads.has_value(), {"decode", "bench"}},
        {"--block-linear", options.block_linear.has_value(), {"decode", "bench"}},
        {"--verify", options.verify, {"decode"}},
        {"--recursive", options.recursive, {"decode"}},
        {"--size", options.size.has_value(), {"bench"}},
        {"--iterations", options.iterations.has_value(), {"bench"}},
        {"--warmup-ms", options.warmup_ms.has_value(), {"bench"}},
        {"--regions", options.regions.has_value(), {"bench"}},
        {"--region-size", options.region_size.has_value(), {"bench"}},
        {"--input", options.input.has_value(), {"bench"}},
        {"--validate", options.validate, {"bench"}},
    };
    for (const Rule& rule : rules) {
        if (!rule.given || std::find(rule.commands.begin(), rule.commands.end(), command) != rule.commands.end())
            continue;
        std::string list;
        for (size_t i = 0; i < rule.commands.size(); ++i)
            list += std::string(i == 0 ? "" : i + 1 == rule.commands.size() ? " and " : ", ") + "'" + rule.commands[i] + "'";
        usage_error(std::string("option ") + rule.name + " applies to " + list + " only");
    }
}

std::optional<uint32_t> parse_u32(std::string_view text) {
    uint32_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
    return value;
}

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
    for (texdec_bc_rounding r : {TEXDEC_BC_ROUNDING_EXACT, TEXDEC_BC_ROUNDING_IDEAL, TEXDEC_BC_ROUNDING_NVIDIA})
        if (name == texdec_bc_rounding_name(r)) return r;
    usage_error("unknown --bc-rounding '" + name + "' (exact, ideal or nvidia)");
}

astc_file::Profile parse_profile(const std::string& name) {
    if (auto profile = astc_file::profile_from_name(name)) return *profile;
    usage_error("unknown --profile '" + name + "' (ldr, srgb or hdr)");
}

uint64_t parse_timeout_ns(const std::optional<std::string>& text) {
    if (!text) return 60ull * 1000 * 1000 * 1000;
    const auto seconds = parse_u32(*text);
    if (!seconds || *seconds == 0 || *seconds > 24 * 3600)
        usage_error("--timeout '" + *text + "' is not a number of seconds between 1 and 86400");
    return uint64_t(*seconds) * 1000 * 1000 * 1000;
}

texdec_format_info format_info(texdec_format format) {
    texdec_format_info info{};
    texdec_format_get_info(format, &info);  // only called with formats the library named
    return info;
}

std::string status_text(texdec_status status) {
    return std::string(texdec_status_string(status)) + " [texdec status " + std::to_string(int(status)) + "]";
}

bool offers_output(texdec_format format, texdec_output output) {
    VkFormat ignored;
    return texdec_output_vk_format(format, output, &ignored) == TEXDEC_SUCCESS;
}

std::string block_size_text(const texdec_format_info& info) {
    char text[40];  // snprintf rather than string concatenation: GCC 12 warns falsely (-Wrestrict) on that
    if (info.block_depth > 1)
        std::snprintf(text, sizeof text, "%ux%ux%u", info.block_width, info.block_height, info.block_depth);
    else
        std::snprintf(text, sizeof text, "%ux%u", info.block_width, info.block_height);
    return text;
}

void MessageLog::callback(texdec_message_severity severity, const char* message, void* user_data) {
    auto* log = static_cast<MessageLog*>(user_data);
    std::lock_guard lock(log->mutex);
    switch (severity) {
    case TEXDEC_MESSAGE_ERROR: log->errors.emplace_back(message); break;
    case TEXDEC_MESSAGE_WARNING: std::fprintf(stderr, "texdec: warning: %s\n", message); break;
    case TEXDEC_MESSAGE_VALIDATION: std::fprintf(stderr, "texdec: validation: %s\n", message); break;
    case TEXDEC_MESSAGE_INFO:
    default:
        if (log->verbose) std::fprintf(stderr, "texdec: %s\n", message);
        break;
    case TEXDEC_MESSAGE_SEVERITY_MAX_ENUM: break;
    }
}

std::string MessageLog::describe_failure(const std::string& what, texdec_status status) {
    std::lock_guard lock(mutex);
    std::string text = what + ": " + status_text(status);
    for (size_t i = 0; i < errors.size(); ++i) text += (i == 0 ? ": " : "; ") + errors[i];
    errors.clear();
    return text;
}

namespace {

std::optional<texdec_backend> backend_from_name(std::string_view name) {
    if (name == "gpu") return TEXDEC_BACKEND_GPU;
    if (name == "cpu") return TEXDEC_BACKEND_CPU;
    if (name == "auto") return TEXDEC_BACKEND_AUTO;
    return std::nullopt;
}

}  // namespace

BackendChoice parse_backend_choice(const Options& options) {
    BackendChoice choice;
    const char* env = std::getenv("TEXDEC_BACKEND");
    if (options.device && options.device->empty())
        usage_error(
            "--device '' names no device: give an index (see list-devices) or part of a device's name, or "
            "leave --device out for the default");
    choice.source = "default";
    if (options.backend) {
        const auto backend = backend_from_name(*options.backend);
        if (!backend) usage_error("unknown --backend '" + *options.backend + "' (gpu, cpu or auto)");
        choice.backend = *backend;
        choice.source = "--backend " + *options.backend;
    } else if (options.device) {
        // Naming a Vulkan device on the command line asks for the GPU backend, whatever the
        // environment's default says.
        choice.backend = TEXDEC_BACKEND_GPU;
        choice.source = "--device";
    } else if (env && *env) {
        const auto backend = backend_from_name(env);
        if (!backend)
            usage_error("unknown TEXDEC_BACKEND '" + std::string(env) + "' in the environment (gpu, cpu or auto)");
        choice.backend = *backend;
        choice.source = "TEXDEC_BACKEND=" + std::string(env);
    }
    if (options.device && choice.backend == TEXDEC_BACKEND_CPU)
        usage_error(
            "--device selects a Vulkan device; the CPU backend has none (drop --device, or give "
            "--backend gpu)");
    if (options.threads) {
        const auto n = parse_u32(*options.threads);
        if (!n || *n == 0 || *n > 1024)
            usage_error("--threads '" + *options.threads + "' is not a number from 1 to 1024");
        choice.cpu_threads = *n;
    }
    return choice;
}

const char* backend_name(texdec_backend backend) {
    switch (backend) {
    case TEXDEC_BACKEND_GPU: return "gpu";
    case TEXDEC_BACKEND_CPU: return "cpu";
    case TEXDEC_BACKEND_AUTO: return "auto";
    default: return "unknown";
    }
}

texdec::Context create_context(const Options& options, MessageLog& log, bool quiet) {
    const BackendChoice choice = parse_backend_choice(options);
    texdec_backend_info backend{};
    backend.type = TEXDEC_STRUCTURE_TYPE_BACKEND_INFO;
    backend.backend = choice.backend;
    backend.cpu_threads = choice.cpu_threads;
    texdec_context_create_info info{};
    info.next = &backend;
    info.device_selector = options.device ? options.device->c_str() : nullptr;
    info.message_callback = &MessageLog::callback;
    info.user_data = &log;
    texdec::Context context;
    const texdec_status status = texdec::Context::create(info, context);
    if (status != TEXDEC_SUCCESS)
        throw CliError{kExitRuntime, log.describe_failure(std::string("cannot create a texdec context (--backend ") +
                                                              backend_name(choice.backend) + ")",
                                                          status)};
    if (!quiet)
        std::fprintf(stderr, "device: %s (%s backend)\n", context.device_name(),
                     backend_name(texdec_context_backend(context.get())));
    return context;
}

const char* device_type_name(VkPhysicalDeviceType type) {
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
    }
}

bool ends_with_ignoring_case(std::string_view text, std::string_view suffix) {
    if (text.size() < suffix.size()) return false;
    return std::equal(suffix.begin(), suffix.end(), text.end() - suffix.size(),
                      [](char a, char b) { return std::tolower(uint8_t(a)) == std::tolower(uint8_t(b)); });
}

void expect_positional_count(const Options& options, size_t count, const char* what) {
    if (options.positional.size() != count)
        usage_error("'" + options.command + "' expects " + what + ", got " + std::to_string(options.positional.size()) +
                    " argument(s)");
}

}  // namespace cli

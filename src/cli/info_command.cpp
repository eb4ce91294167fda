// astc-gpu-decode info: container, format, extent, levels, layers, faces and sizes of each file,
// without decoding (no device needed).
#include <cstdio>

#include "decode_command.h"
#include "input_file.h"
#include "texture_file.h"

namespace cli {

int run_info(const Options& options) {
    if (options.positional.empty()) usage_error("'info' expects FILE...");
    reject_options_not_for(options, "info");
    texture_file::OpenOptions open_options;
    if (options.profile) open_options.profile = parse_profile(*options.profile);
    open_options.profile_must_apply = false;
    // A parser's surface table is held to the default memory limit (decode's --max-memory default).
    const input_file::MemoryLimit limit = input_file::memory_limit(std::nullopt);
    open_options.max_table_bytes = limit.bytes;
    open_options.table_limit_source = input_file::size_text(limit.bytes) + ", " + limit.source;
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
        json.begin_object().path_field("input", path);
        try {
            texture_file::FileBytes bytes = input_file::map_texture_file(path);
            auto opened = raw_format ? texture_file::open_raw(std::move(bytes), *raw_format, raw_extent.width,
                                                              raw_extent.height, raw_extent.depth)
                                     : texture_file::open(std::move(bytes), open_options);
            if (const auto* error = std::get_if<texture_file::Error>(&opened))
                throw CliError{error->usage ? kExitUsage : kExitInput, "'" + path + "': " + error->message};
            const texture_file::TextureFile& f = std::get<texture_file::TextureFile>(opened);
            const texdec_format_info info = format_info(f.format);
            const texdec_output output =
                offers_output(f.format, TEXDEC_OUTPUT_RGBA8) ? TEXDEC_OUTPUT_RGBA8 : TEXDEC_OUTPUT_NATIVE;
            json.field("status", "ok").field("container", texture_file::container_name(f.container));
            json.field("container_format", f.container_format);
            if (!f.supercompression.empty()) json.field("supercompression", f.supercompression);
            json.field("format", info.name)
                .field("block", block_size_text(info))
                .field("bytes_per_block", info.bytes_per_block);
            json.field("implemented", bool(info.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED));
            extent_json(json, "extent", {f.level_info[0].width, f.level_info[0].height, f.level_info[0].depth});
            json.field("levels", f.levels).field("layers", f.layers).field("faces", f.faces);
            json.field("array", f.is_array).field("cube", f.is_cube).field("volume", f.is_volume);
            json.field("file_bytes", f.file_bytes).field("trailing_bytes", f.trailing_bytes);
            json.key("level_info").begin_array();
            if (!options.json) {
                std::printf("%s\n  container:    %s (%s)%s\n  format:       %s (%s blocks, %u bytes each)%s\n",
                            path.c_str(), texture_file::container_name(f.container), f.container_format.c_str(),
                            f.supercompression.empty() ? "" : (", supercompression " + f.supercompression).c_str(),
                            info.name, block_size_text(info).c_str(), info.bytes_per_block,
                            (info.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED) ? "" : " [not implemented in this build]");
                std::printf("  extent:       %s%s\n  levels:       %u\n  layers:       %u%s\n  faces:        %u%s\n",
                            extent_text({f.level_info[0].width, f.level_info[0].height, f.level_info[0].depth}).c_str(),
                            f.is_volume ? " (depth slices)" : "", f.levels, f.layers, f.is_array ? " (array)" : "",
                            f.faces, f.is_cube ? " (cube map)" : "");
                std::printf(
                    "  file size:    %llu bytes%s\n  level  extent          blocks/surface  bytes/surface   "
                    "decoded bytes/surface (%s)\n",
                    (unsigned long long)f.file_bytes,
                    f.trailing_bytes ? (" (" + std::to_string(f.trailing_bytes) + " trailing, ignored)").c_str() : "",
                    texdec_output_name(output));
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

// astc-gpu-decode decode --out-dir: the inputs of a batch (files, directories, @LISTFILEs), the
// output name of each, and the checks that no output replaces an input or another output.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>

#include "decode_command.h"
#include "input_file.h"
#include "platform.h"
#include "safe_output.h"
#include "texture_file.h"

namespace cli {

namespace fs = std::filesystem;

namespace {

// Empty if the file starts with a known magic (or cannot be read: the decode reports why), else
// why it is skipped.
std::string skip_reason(const fs::path& path, bool& named_like_texture) {
    FILE* file = platform::open_stdio(platform::utf8(path), "rb");
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
        named_like_texture = named_like_texture || ends_with_ignoring_case(platform::utf8(path), ext);
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
        for (fs::recursive_directory_iterator it(platform::fs_path(dir), error), end; !error && it != end;
             it.increment(error))
            add(*it);
    } else {
        for (fs::directory_iterator it(platform::fs_path(dir), error), end; !error && it != end; it.increment(error))
            add(*it);
    }
    if (error) throw CliError{kExitInput, "cannot list directory '" + dir + "': " + error.message()};
    std::sort(found.begin(), found.end());
    for (const fs::path& path : found) {
        bool loud = false;
        if (std::string why = skip_reason(path, loud); !why.empty()) {
            inputs.skipped.push_back(platform::utf8(path));
            inputs.skipped_why.push_back(why);
            inputs.skipped_loud.push_back(loud);
            continue;
        }
        inputs.files.push_back(platform::utf8(path));
        inputs.relative.push_back(platform::utf8(fs::relative(path, platform::fs_path(dir))));
    }
}

void add_input(const std::string& arg, bool recursive, Inputs& inputs) {
    std::error_code error;
    if (fs::is_directory(platform::fs_path(arg), error)) return add_directory(arg, recursive, inputs);
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

}  // namespace

Inputs collect_inputs(const std::vector<std::string>& args, bool recursive) {
    Inputs inputs;
    for (const std::string& arg : args) {
        if (arg.size() > 1 && arg[0] == '@') add_list_file(arg.substr(1), recursive, inputs);
        else add_input(arg, recursive, inputs);
    }
    return inputs;
}

// The output path (without extension when the kind is chosen per file) of each input in --out-dir:
// DIR/<path below its directory argument, or the file name>, extension replaced. Two inputs that
// would share a name (a.dds and a.ktx) keep their whole file names instead (a.dds.png, a.ktx.png).
std::vector<std::string> out_dir_names(const Inputs& inputs, const std::string& dir, std::optional<OutputKind> kind) {
    std::vector<std::string> stems;
    for (size_t i = 0; i < inputs.files.size(); ++i) {
        fs::path rel = inputs.relative[i].empty() ? platform::fs_path(inputs.files[i]).filename()
                                                  : platform::fs_path(inputs.relative[i]);
        stems.push_back(platform::utf8(platform::fs_path(dir) / rel.parent_path() / rel.stem()));
    }
    std::map<std::string, int> uses;
    for (const std::string& s : stems) ++uses[s];
    std::vector<std::string> names;
    for (size_t i = 0; i < stems.size(); ++i) {
        std::string name = stems[i];
        if (uses[name] > 1) {
            fs::path rel = inputs.relative[i].empty() ? platform::fs_path(inputs.files[i]).filename()
                                                      : platform::fs_path(inputs.relative[i]);
            name = platform::utf8(platform::fs_path(dir) / rel);
        }
        names.push_back(kind ? name + "." + extension(*kind) : name);
    }
    return names;
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

namespace {

std::string described(const PlannedOutput& o) {
    return o.input.empty() ? "the --json file '" + o.path + "'" : "output '" + o.path + "' of input '" + o.input + "'";
}

[[noreturn]] void clash(const PlannedOutput& a, const PlannedOutput& b) {
    const bool json = a.input.empty() || b.input.empty();
    std::string message =
        !json && a.path == b.path
            ? "inputs '" + a.input + "' and '" + b.input + "' would both be decoded to '" + a.path + "'"
            : described(a) + " and " + described(b) + " are the same file" +
                  (a.path == b.path ? "" : " (the path spelled another way, a link to it, or a hard link)");
    message += ": refusing to let one output of the run replace another; ";
    message +=
        json ? "choose another --json file name" : "decode them in separate runs or into separate --out-dir folders";
    throw CliError{kExitUsage, message};
}

// The folder part of a place's path below its existing folder ("sub/a.png" -> "sub"), and the name.
std::pair<std::string, std::string> split_below(const std::string& below) {
    const size_t slash = below.rfind('/');
    if (slash == std::string::npos) return {"", below};
    return {below.substr(0, slash), below.substr(slash + 1)};
}

// Whether `name` is `base` with the suffixes inserted before its extension, each followed by digits
// (what process_file's with_suffix makes of it).
bool is_suffixed_name(const std::string& name, const std::string& base, const std::vector<std::string>& suffixes) {
    const size_t dot = base.rfind('.');
    const std::string stem = base.substr(0, dot), ext = dot == std::string::npos ? "" : base.substr(dot);
    if (name.size() < stem.size() + ext.size() || name.compare(0, stem.size(), stem) != 0 ||
        name.compare(name.size() - ext.size(), ext.size(), ext) != 0)
        return false;
    const std::string middle = name.substr(stem.size(), name.size() - stem.size() - ext.size());
    size_t at = 0;
    for (const std::string& suffix : suffixes) {
        const std::string key = platform::name_key(suffix);
        if (middle.compare(at, key.size(), key) != 0) return false;
        at += key.size();
        const size_t digits = at;
        while (at < middle.size() && middle[at] >= '0' && middle[at] <= '9') ++at;
        if (at == digits) return false;
    }
    return at == middle.size();
}

}  // namespace

void refuse_clashing_outputs(const std::vector<PlannedOutput>& outputs, const std::vector<std::string>& suffixes) {
    std::vector<safe_output::Place> places;
    for (const PlannedOutput& o : outputs) places.push_back(safe_output::place_of(o.path));
    // Outputs written under the names given: every image output without suffixes, and the --json
    // file. With suffixes, two image outputs' names differ exactly where their suffixed names do
    // (the suffixes are the same for every file, "-mip" and the like followed by digits): their
    // base names are compared.
    std::map<std::string, size_t> by_name;
    std::map<std::pair<uint64_t, uint64_t>, size_t> by_file;
    for (size_t i = 0; i < outputs.size(); ++i) {
        const safe_output::Place& p = places[i];
        if (p.in_place || (outputs[i].input.empty() && !suffixes.empty())) continue;
        const std::string name_key =
            (p.folder ? std::to_string(p.folder->device) + ":" + std::to_string(p.folder->inode) : std::string("?")) +
            ":" + p.below;
        if (const auto [at, added] = by_name.emplace(name_key, i); !added) clash(outputs[at->second], outputs[i]);
        if (p.file)
            if (const auto [at, added] = by_file.emplace(std::pair{p.file->device, p.file->inode}, i); !added)
                clash(outputs[at->second], outputs[i]);
    }
    if (suffixes.empty()) return;
    // The --json file against every name the suffixes make of an image output's name.
    for (size_t j = 0; j < outputs.size(); ++j) {
        if (!outputs[j].input.empty() || places[j].in_place) continue;
        const auto [json_folder, json_name] = split_below(places[j].below);
        for (size_t i = 0; i < outputs.size(); ++i) {
            if (outputs[i].input.empty() || places[i].folder != places[j].folder) continue;
            const auto [folder, name] = split_below(places[i].below);
            if (folder != json_folder || !is_suffixed_name(json_name, name, suffixes)) continue;
            std::string pattern;
            for (const std::string& suffix : suffixes) pattern += suffix + "<N>";
            const std::string& path = outputs[i].path;
            const size_t dot = path.rfind('.'), end = platform::directory_end(path);
            const std::string named = dot == std::string::npos || (end != std::string::npos && dot < end)
                                          ? path + pattern
                                          : path.substr(0, dot) + pattern + path.substr(dot);
            throw CliError{kExitUsage, "the --json file '" + outputs[j].path +
                                           "' has the name of an output of input '" + outputs[i].input + "' ('" +
                                           named +
                                           "': --level, --layer, --face or --slice all number them): refusing to let "
                                           "one output of the run replace another; choose another --json file name"};
        }
    }
}

}  // namespace cli

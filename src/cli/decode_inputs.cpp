// astc-gpu-decode decode --out-dir: the inputs of a batch (files, directories, @LISTFILEs), the
// output name of each, and the check that no output replaces an input.
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

}  // namespace cli

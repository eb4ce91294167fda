#include "cli_runner.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sys/wait.h>
#include <unistd.h>

#include "gpu/gpu_fixture.h"

namespace texdec_test {
namespace {

std::string env_or(const char* name, const char* fallback) {
    const char* v = std::getenv(name);
    return v && *v ? v : fallback;
}

}  // namespace

std::string cli_path() { return env_or("TEXDEC_CLI", TEXDEC_CLI_PATH); }
std::string cli_sample_bc3() { return env_or("TEXDEC_SAMPLE", TEXDEC_SOURCE_DIR "/samples/sample-bc3.dds"); }
std::string cli_sample_astc() { return env_or("TEXDEC_ASTC_SAMPLE", TEXDEC_SOURCE_DIR "/samples/sample-astc-6x6.astc"); }

std::string cli_temp_dir() {
    static const std::string dir = [] {
        char pattern[] = "/tmp/texdec_cli_run_XXXXXX";
        const char* made = mkdtemp(pattern);
        REQUIRE(made != nullptr);
        return std::string(made);
    }();
    return dir;
}

std::string fresh_cli_dir(const std::string& name) {
    const std::string d = cli_temp_dir() + "/" + name;
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    return d;
}

int run_cli_command(const std::string& command) {
    const int status = std::system((command + " 2>" + cli_temp_dir() + "/stderr.txt").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int run_cli(const std::string& args) { return run_cli_command(cli_path() + " " + args); }

void check_malformed_inputs(const std::vector<MalformedInput>& inputs, const std::string& path) {
    for (const MalformedInput& input : inputs) {
        INFO(input.name);
        write_binary_file(path, input.bytes);
        CHECK(run_cli("decode " + path + " " + cli_temp_dir() + "/malformed.png") == 3);
        INFO(last_cli_stderr());
        CHECK(last_cli_stderr().find(input.message) != std::string::npos);
    }
}

int run_cli_measured(const std::string& command, long& peak_kib) {
    const std::string report = cli_temp_dir() + "/rusage.txt";
    const std::string script =
        "import resource, subprocess, sys\n"
        "code = subprocess.run(sys.argv[1], shell=True).returncode\n"
        "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n";
    std::string quoted;  // the command as one shell word
    for (char c : command + " 2>" + cli_temp_dir() + "/stderr.txt")
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    REQUIRE(std::system(("python3 -c '" + script + "' '" + quoted + "' > " + report).c_str()) == 0);
    std::ifstream in(report);
    int code = -1;
    peak_kib = -1;
    REQUIRE(in >> code >> peak_kib);
    return code;
}

std::string last_cli_stderr() {
    std::ifstream in(cli_temp_dir() + "/stderr.txt");
    return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<uint8_t> read_binary_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void write_binary_file(const std::string& path, const std::vector<uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    REQUIRE(out.good());
}

bool cli_has_device() {
    if (run_cli_command(cli_path() + " list-devices >/dev/null") == 0 && last_cli_stderr().empty()) return true;
    fail_or_skip_for_missing_device("astc-gpu-decode list-devices failed: " + last_cli_stderr());
    return false;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

double bench_summary_value(const std::string& table, const std::string& measure) {
    const std::string start = "  " + measure + " ";
    for (size_t at = 0; (at = table.find(start, at)) != std::string::npos; ++at) {
        if (at != 0 && table[at - 1] != '\n') continue;
        const size_t end = table.find('\n', at);
        const std::string rest =
            table.substr(at + start.size(), end == std::string::npos ? end : end - at - start.size());
        char* after = nullptr;
        const double v = std::strtod(rest.c_str(), &after);
        if (after == rest.c_str()) return NAN;
        for (; *after; ++after)
            if (*after != ' ') return NAN;  // anything after the number: not a summary line
        return v;
    }
    return NAN;
}

std::string read_text(const std::string& path) {
    const std::vector<uint8_t> bytes = read_binary_file(path);
    return std::string(bytes.begin(), bytes.end());
}

std::string compact(const std::string& json) {
    std::string out;
    for (size_t i = 0; i < json.size(); ++i) {
        if (json[i] != '\n') {
            out += json[i];
            continue;
        }
        while (i + 1 < json.size() && json[i + 1] == ' ') ++i;
    }
    return out;
}

}  // namespace texdec_test

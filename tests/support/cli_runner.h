// Running astc-gpu-decode from the tests: its path (TEXDEC_CLI overrides the build's), a private
// temporary folder, a shell runner that keeps the command's stderr, and file helpers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace texdec_test {

std::string cli_path();            // $TEXDEC_CLI, else the one this build made
std::string cli_sample_bc3();      // $TEXDEC_SAMPLE, else samples/sample-bc3.dds
std::string cli_sample_astc();     // $TEXDEC_ASTC_SAMPLE, else samples/sample-astc-6x6.astc
std::string cli_temp_dir();        // made once per process (mkdtemp)
std::string fresh_cli_dir(const std::string& name);  // cli_temp_dir()/name, emptied and created

// Runs `command` through the shell with stderr kept for last_cli_stderr(); returns the exit code.
int run_cli_command(const std::string& command);
// run_cli_command(cli_path() + " " + args): the tool with `args`.
int run_cli(const std::string& args);
std::string last_cli_stderr();

// Runs `command` through the shell (its stderr kept for last_cli_stderr()) and returns its exit code;
// `peak_kib` gets the command's peak resident memory (KiB). A child forked from this process would
// count this process's memory too (the kernel keeps the pre-exec high-water mark), so a small python3
// runs it and reports RUSAGE_CHILDREN.
int run_cli_measured(const std::string& command, long& peak_kib);

std::vector<uint8_t> read_binary_file(const std::string& path);  // empty if missing
void write_binary_file(const std::string& path, const std::vector<uint8_t>& bytes);

// A file the tool must refuse as input: a name for the failure message, its bytes, and a part of
// the message the tool must print.
struct MalformedInput {
    const char* name;
    std::vector<uint8_t> bytes;
    const char* message;
};
// Writes each input to `path` in turn and CHECKs that `decode path cli_temp_dir()/malformed.png`
// exits with 3 (an input error) and prints its message.
void check_malformed_inputs(const std::vector<MalformedInput>& inputs, const std::string& path);

// True if the CLI finds a Vulkan device; otherwise fails the test (or skips loudly with
// TEXDEC_ALLOW_NO_DEVICE=1) and returns false.
bool cli_has_device();

// Small text helpers of the CLI tests.
bool contains(const std::string& text, const std::string& part);
std::string read_text(const std::string& path);  // the file's bytes as a string (empty if missing)
std::string compact(const std::string& json);    // line breaks and their indentation taken out
// The value the bench's summary prints for `measure` (a line "  <measure>   <value>"), or NaN if
// no such line or no number ("-").
double bench_summary_value(const std::string& table, const std::string& measure);

}  // namespace texdec_test

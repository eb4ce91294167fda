// What the decode and info commands of astc-gpu-decode share across their files: the output
// kinds, a file's results, --verify's statistics, the inputs of a batch, and the report.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "astc_hdr_scan.h"
#include "cli_common.h"
#include "json.h"
#include "texel_buffer.h"

namespace cli {

using Clock = std::chrono::steady_clock;

// ---- output kinds (decode_command.cpp) ---------------------------------------------------------

enum class OutputKind { Png, Tga, Exr, Hdr, Ktx2, Raw };
const char* extension(OutputKind kind);  // "png"

// ---- verify (decode_verify.cpp) ----------------------------------------------------------------

struct VerifyStats {
    bool ran = false;
    uint64_t texels = 0;
    uint64_t mismatched = 0;
    std::string first_mismatch;  // "level 0 layer 0 face 0 texel (3, 1, 0): GPU ... reference ..."
    double squared_error = 0;    // over finite channel pairs
    uint64_t channels = 0;
    double peak = 1.0;  // 1 for normalised outputs; the largest finite |reference| for HDR

    double psnr_db() const {
        if (squared_error == 0 || channels == 0) return INFINITY;
        return 10.0 * std::log10(peak * peak / (squared_error / double(channels)));
    }
};

// Compares the decoded texels of one surface (`backend`: "gpu" or "cpu") with the CPU reference's.
void compare_texels(const char* backend, std::span<const uint8_t> decoded, const std::vector<uint8_t>& reference,
                    size_t texel_bytes, VkFormat vk_format, bool hdr, uint32_t width, uint32_t height,
                    const std::string& where, VerifyStats& stats);

// TEXDEC_CLI_VERIFY_FAULT=N (tests only): flip the lowest bit of texel N of the first surface the
// GPU decoded, so the tests can see --verify report a planted mismatch.
std::optional<uint64_t> planted_fault();

// ---- one file's results ------------------------------------------------------------------------

struct OutputRecord {
    std::string path;
    uint32_t level, layer, face;
    int slice;  // -1: every slice of the level
    Extent extent;
};

// Where one file's wall-clock time went, in milliseconds, summed over its surfaces and outputs
// (-v prints it, --json gives it as "phases"; help.cpp documents the fields).
struct Phases {
    double read = 0;          // opening and mapping the input (its pages are read as the decode copies them)
    double parse = 0;         // the container's header, level index and (KTX 2) inflating
    double context_wait = 0;  // waiting for the device and context (created while the first files are read)
    double alloc = 0;         // allocating the decoded texels
    double decode = 0;        // texdec_decode_timed, the whole call; its parts below
    double prepare = 0, upload_copy = 0, submit_wait = 0, readback_copy = 0;
    double gpu_upload = 0, gpu_decode = 0, gpu_readback = 0;  // device timestamps (within submit_wait)
    double verify = 0;                                        // --verify: the CPU reference and the comparison
    double encode = 0;  // the output's bytes in memory (image_write::WriteResult::encode_ms says what per writer)
    double write = 0;   // writing them to the temporary file
    double sync = 0;    // fsync, close and rename over the output's name
};

struct FileResult {
    std::string input;
    int exit_code = kExitOk;
    std::string message;  // the error, when exit_code != 0
    bool opened = false;
    std::string container, container_format, format, output_type;
    Extent extent{0, 0, 0};
    uint32_t levels = 0, layers = 0, faces = 0;
    std::vector<OutputRecord> outputs;
    std::vector<std::string> notes;
    std::vector<std::string> warnings;  // printed as warnings, and in --json
    bool more_surfaces = false;         // a batch: the default selection left levels / layers / faces out
    std::string profile_ignored;        // a batch: why --profile did not apply
    // ASTC LDR / sRGB: decoded surfaces, those mostly of HDR blocks, and the HDR blocks in them.
    uint32_t astc_surfaces = 0, hdr_surfaces = 0;
    astc_hdr_scan::Count hdr_blocks;
    std::string hdr_where;  // the first mostly-HDR surface: "level 0 layer 0 face 0"
    uint64_t texels = 0;
    std::string backend, device;  // what decoded it: "gpu" or "cpu", and the context's device name
    double gpu_ms = 0, wall_ms = 0;
    bool gpu_timed = true;
    double cpu_ms = 0;  // CPU backend: the decode on its threads (texdec_decode_timing::submit_wait_ns)
    Phases phases;
    VerifyStats verify;
};

// ---- inputs (decode_inputs.cpp) ----------------------------------------------------------------

struct Inputs {
    std::vector<std::string> files;
    std::vector<std::string> relative;     // per file: the path below its directory argument ("" for files)
    std::vector<std::string> skipped;      // directory entries that are not texture files
    std::vector<std::string> skipped_why;  // per skipped file: its first bytes; named like a texture file or not
    std::vector<bool> skipped_loud;        // named like a texture file (a damaged one?): always reported
};

// Files, directories (-r: with subdirectories) and @LISTFILEs, in order; directory entries without a
// texture magic are skipped (and said why).
Inputs collect_inputs(const std::vector<std::string>& args, bool recursive);

// The output path (without extension when the kind is chosen per file) of each input in --out-dir.
std::vector<std::string> out_dir_names(const Inputs& inputs, const std::string& dir, std::optional<OutputKind> kind);

// Refuses (exit code 2) any output that is one of the inputs; protects the inputs from later writes.
void protect_inputs(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs);
// One output a run will write, for refuse_clashing_outputs: an image output (with --level, --layer,
// --face or --slice all, the name its outputs get their suffixes in), or the --json file.
struct PlannedOutput {
    std::string path;
    std::string input;  // what it is decoded from; "" for the --json file
};
// Refuses (exit code 2, naming both) two outputs that would be the same file (the same path spelled
// alike or not, links followed, hard links; names compared as the file system does), before anything
// is written. `suffixes`: what --level/--layer/--face/--slice all add to image names ("-mip",
// "-face", in that order, each followed by a number); then the image names themselves are not
// written, and the --json file is checked against every name the suffixes can make. Devices (written
// in place, never replaced) are left out.
void refuse_clashing_outputs(const std::vector<PlannedOutput>& outputs, const std::vector<std::string>& suffixes);

// ---- report (decode_report.cpp) ----------------------------------------------------------------

// Per-file lines, or on a terminal one progress line (bar, files, throughput, ETA) redrawn in place
// with messages printed above it.
class Reporter {
public:
    Reporter(size_t total, bool batch, bool verbose = false);

    void print(const std::string& line);
    void file_done(const FileResult& r);
    void finish();

    static std::string fixed(double v, int digits);
    static std::string verify_text(const VerifyStats& v);

private:
    std::mutex mutex_;
    size_t total_, done_ = 0, failed_ = 0;
    uint64_t texels_ = 0;
    bool batch_, tty_, verbose_;
    bool bar_shown_ = false;
    Clock::time_point start_ = Clock::now();

    void clear_bar();
    void draw_bar();
};

std::string extent_text(const Extent& e);  // "WxH" or "WxHxD"
void extent_json(Json& json, const char* name, const Extent& e);
void file_json(Json& json, const FileResult& r);
// -v's line of where a file's time went: "time: read 0.1 ms, parse ...".
std::string phases_text(const FileResult& r);
// What a batch says once instead of for every file.
void print_batch_notes(const std::vector<FileResult>& results, const Options& options);
// The --json text to FILE (atomically), or to standard output for "-".
void write_json(const std::string& where, const std::string& text);

}  // namespace cli

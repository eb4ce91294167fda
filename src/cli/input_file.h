// How astc-gpu-decode reads its inputs with bounded memory:
//   - A texture input must be a regular file: FIFOs, devices (/dev/zero), sockets and directories are
//     refused with a message naming what it is, before anything is read.
//   - The file is mapped read-only, not read: the parser touches the header first, and only the
//     pages of the blocks a decode needs are ever read from disk (`info` reads headers only; bytes
//     after the data the header describes are never read).
//   - Before a file's surfaces are inflated or decoded, the memory they will need (the described
//     input, the parser's surface table (refused while parsing, before it is allocated, when it
//     alone exceeds the limit), inflated supercompressed levels, decoded texels, the --verify reference, the writer's
//     copies and the one-call staging) is checked against a limit: --max-memory SIZE, by default half
//     of the smallest of physical memory, the cgroup's memory limit and the address-space limit
//     (ulimit -v). Files in flight at once (--jobs) share the limit.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <string>

#include <texdec/texdec.h>

#include "texture_file.h"

namespace input_file {

// Maps `path` (a regular file) read-only. Throws cli::CliError (exit code 3) naming the problem.
texture_file::FileBytes map_texture_file(const std::string& path);
// Refuses (as map_texture_file does) an existing `path` that is not a regular file, without opening
// it: a single decode checks its input before it makes a device.
void refuse_special_file(const std::string& path);

// The text of an @LISTFILE: a regular file, or a pipe or terminal (@/dev/stdin), at most 64 MiB.
std::string read_list_file(const std::string& path);

// "5368709120 bytes (5.0 GiB)"
std::string size_text(uint64_t bytes);

struct MemoryLimit {
    uint64_t bytes;
    std::string source;  // "--max-memory 64M", "default: half of physical memory (23.4 GiB)"
};
// --max-memory SIZE (bytes, or with K, M, G, T: binary units, "KiB" etc. also accepted), else the
// default above. A bad SIZE is a usage error.
MemoryLimit memory_limit(const std::optional<std::string>& option);

struct MemoryNeed {
    uint64_t input = 0, table = 0, inflated = 0, decoded = 0, verify = 0, writer = 0, staging = 0;
    uint64_t total() const;
    std::string text() const;  // "input 1.0 MiB + inflated levels 1.0 GiB + ..."
};

// What decoding `levels` (layer_faces surfaces each) of `file` to `output` needs at its peak.
// one_output_file: a .ktx2 output holds every picked surface at once (else one surface at a time);
// writer_copies: the buffers an image writer makes, in units of one surface's texels (2 for PNG,
// TGA, EXR and .hdr; 0 for .raw and .ktx2).
struct DecodePlan {
    const texture_file::TextureFile* file;
    texdec_format format;
    texdec_output output;
    texdec_bc_rounding rounding;
    std::span<const uint32_t> levels;
    uint64_t layer_faces;
    bool verify;
    bool one_output_file;
    uint32_t writer_copies;
    // Raw block-linear input: its texdec_source_layout_info (the staging query takes it), and the
    // copy of the blocks in linear order the tool makes (the HDR scan, --verify).
    const texdec_source_layout_info* source_layout = nullptr;
};
MemoryNeed estimate_need(const DecodePlan& plan, texdec_context* context);

// The limit shared by the files in flight.
class MemoryBudget {
public:
    explicit MemoryBudget(MemoryLimit limit) : limit_(std::move(limit)) {}
    const MemoryLimit& limit() const { return limit_; }

    // Held while a file is decoded.
    class Reservation {
    public:
        Reservation(MemoryBudget* budget, uint64_t bytes) : budget_(budget), bytes_(bytes) {}
        Reservation(Reservation&& other) noexcept : budget_(other.budget_), bytes_(other.bytes_) { other.budget_ = nullptr; }
        Reservation(const Reservation&) = delete;
        Reservation& operator=(const Reservation&) = delete;
        ~Reservation();

    private:
        MemoryBudget* budget_;
        uint64_t bytes_;
    };

    // Refuses (cli::CliError, exit code 3, both figures) a need above the limit; otherwise waits
    // until the files in flight leave room for it.
    Reservation reserve(const std::string& input, const MemoryNeed& need);

private:
    MemoryLimit limit_;
    std::mutex mutex_;
    std::condition_variable freed_;
    uint64_t in_use_ = 0;
};

}  // namespace input_file

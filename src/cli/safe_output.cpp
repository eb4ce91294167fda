#include "safe_output.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <utility>
#include <vector>

#include "platform.h"
#include "test_hooks.h"

namespace safe_output {
namespace {

// ---- protected inputs -----------------------------------------------------------------------

std::mutex g_inputs_mutex;
std::vector<std::pair<FileId, std::string>> g_inputs;

// ---- temporary files the signal handler removes ---------------------------------------------

// A fixed table (no allocation in the handler): state 0 free, 1 being filled, 2 a live temp file.
// Each worker writes one file at a time, so --jobs (at most 64) plus the JSON fit.
constexpr int kSlots = 80;
constexpr size_t kSlotPath = 4096;
struct Slot {
    std::atomic<int> state{0};
    char path[kSlotPath];
};
Slot g_slots[kSlots];

int register_temp(const std::string& path) {
    if (path.size() >= kSlotPath) return -1;
    for (int i = 0; i < kSlots; ++i) {
        int expected = 0;
        if (!g_slots[i].state.compare_exchange_strong(expected, 1)) continue;
        std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
        g_slots[i].state.store(2, std::memory_order_release);
        return i;
    }
    return -1;  // table full: the file is still written atomically, only not removed on a signal
}

void unregister_temp(int slot) {
    if (slot >= 0) g_slots[slot].state.store(0, std::memory_order_release);
}

// Called from a signal handler: only async-signal-safe calls here.
void remove_temps_for_signal() {
    for (Slot& slot : g_slots)
        if (slot.state.load(std::memory_order_acquire) == 2) platform::remove_in_cleanup(slot.path);
}

// ---- the test hook ----------------------------------------------------------------------------

enum class Fault { None, Write, Fsync, Rename, SigTerm, SigKill };

Fault fault() {
    static const Fault value = [] {
        const char* text = TEXDEC_TEST_HOOK("TEXDEC_CLI_WRITE_FAULT");
        if (!text) return Fault::None;
        const std::string_view t = text;
        if (t == "write") return Fault::Write;
        if (t == "fsync") return Fault::Fsync;
        if (t == "rename") return Fault::Rename;
        if (t == "sigterm") return Fault::SigTerm;
        if (t == "sigkill") return Fault::SigKill;
        return Fault::None;
    }();
    return value;
}

// ---- paths ------------------------------------------------------------------------------------

// The directory part (with its separator; empty for a name in the current directory) and the name.
std::string directory_part(const std::string& path) {
    const size_t end = platform::directory_end(path);
    return end == std::string::npos ? "" : path.substr(0, end);
}

std::string name_of(const std::string& path) { return path.substr(directory_part(path).size()); }

// For messages: "." for the current directory, "/" for the root, else without the last separator.
std::string directory_of(const std::string& path) {
    const std::string part = directory_part(path);
    return part.empty() ? "." : part.size() == 1 ? part : part.substr(0, part.size() - 1);
}

using platform::error_text;

// Writes every part; with a fault, stops after half of the bytes. 0 or the error. `writeback`: a
// regular file that will be fsync'ed: after each 32 MiB written, the kernel is asked to start
// writing them to the disk (sync_file_range, SYNC_FILE_RANGE_WRITE: asynchronous, advisory), so
// the disk works while the rest is written and the fsync waits for less (a 256 MiB output: its
// write + fsync took 200-240 ms on the H100 host, one after the other).
int write_all(platform::Handle file, std::span<const std::span<const uint8_t>> parts, bool writeback = false) {
    constexpr uint64_t kWritebackStep = uint64_t(32) << 20;
    uint64_t written = 0, flushed = 0;
    uint64_t total = 0;
    for (const auto& part : parts) total += part.size();
    const Fault f = fault();
    const bool halfway = f == Fault::Write || f == Fault::SigTerm || f == Fault::SigKill;
    uint64_t budget = halfway ? total / 2 : total;
    for (const auto& part : parts) {
        const uint8_t* p = part.data();
        size_t left = part.size();
        while (left > 0 && budget > 0) {
            const size_t chunk =
                size_t(std::min<uint64_t>({left, budget, writeback ? kWritebackStep : uint64_t(1) << 30}));
            size_t n = 0;
            if (const int error = platform::write(file, p, chunk, n)) return error;
            if (n == 0) return platform::kIoError;
            p += n;
            left -= n;
            budget -= uint64_t(n);
            written += uint64_t(n);
            if (writeback && written - flushed >= kWritebackStep) {
                platform::start_writeback(file, flushed, written - flushed);
                flushed = written;
            }
        }
        if (left > 0) break;  // the fault's halfway point
    }
    if (!halfway) return 0;
    if (f == Fault::SigTerm || f == Fault::SigKill) platform::simulate_kill(f == Fault::SigTerm);
    return platform::kNoSpace;
}

// An existing output that is not a regular file (/dev/null, a FIFO; Windows: NUL): written in place.
Result write_in_place(const std::string& path, std::span<const std::span<const uint8_t>> parts, bool truncate) {
    platform::Handle file;
    if (const int error = platform::open_write_existing(path, truncate, file))
        return {false, "cannot open '" + path + "' for writing: " + error_text(error)};
    const int written = write_all(file, parts);
    const int closed = platform::close(file);
    if (written || closed) return {false, "cannot write '" + path + "': " + error_text(written ? written : closed)};
    return {};
}

std::atomic<uint64_t> g_temp_counter{0};

}  // namespace

std::optional<FileId> file_id(const std::string& path) {
    const std::optional<platform::FileInfo> info = platform::stat(path);
    if (!info) return std::nullopt;
    return info->id;
}

void protect_input(const std::string& path) {
    const std::optional<FileId> id = file_id(path);
    if (!id) return;
    std::lock_guard lock(g_inputs_mutex);
    g_inputs.emplace_back(*id, path);
}

std::optional<std::string> protected_input_at(const std::string& path) {
    const std::optional<FileId> id = file_id(path);
    if (!id) return std::nullopt;
    std::lock_guard lock(g_inputs_mutex);
    for (const auto& [input_id, input] : g_inputs)
        if (input_id == *id) return input;
    return std::nullopt;
}

std::string same_file_message(const std::string& output, const std::string& input) {
    return "output '" + output + "' is the same file as input '" + input +
           "' (the same path, a link to it, or a hard link): refusing to overwrite an input; choose another "
           "output name";
}

void install_signal_handlers() { platform::install_interrupt_cleanup(remove_temps_for_signal); }

Result write_file(const std::string& path, std::span<const std::span<const uint8_t>> parts) {
    install_signal_handlers();
    if (const std::optional<std::string> input = protected_input_at(path))
        return {false, same_file_message(path, *input), true};

    const std::optional<platform::FileInfo> st = platform::stat(path);
    const bool exists = st.has_value();
    if (exists && st->kind == platform::Kind::Directory)
        return {false, "cannot write '" + path + "': it is a directory"};
    if (exists && st->kind != platform::Kind::Regular) return write_in_place(path, parts, false);

    std::string target;
    if (const int error = platform::resolve_links(path, target))
        return {false, "cannot write '" + path + "': " + error_text(error)};
    const std::string shown = target == path ? "'" + path + "'" : "'" + path + "' (a link to '" + target + "')";
    if (exists) {
        // /proc's links (/dev/stdout) may not name a path: replace only what the resolved path is.
        const std::optional<platform::FileInfo> resolved = platform::stat(target);
        if (!resolved || resolved->id != st->id) return write_in_place(path, parts, true);
        // A file the user may not write stays refused (the directory's permission would allow a rename).
        if (const int error = platform::check_writable(target))
            return {false, "cannot write " + shown + ": " + error_text(error)};
    }

    const auto started = std::chrono::steady_clock::now();
    const auto ms_since = [](std::chrono::steady_clock::time_point t) {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
    };
    const std::string name = name_of(target).substr(0, 200);  // the temp name must fit NAME_MAX
    std::string temp;
    platform::Handle file = platform::kNoFile;
    int error = 0;
    for (int attempt = 0; attempt < 100 && file == platform::kNoFile; ++attempt) {
        temp = directory_part(target) + "." + name + ".tmp-" + std::to_string(platform::process_id()) + "-" +
               std::to_string(g_temp_counter.fetch_add(1));
        error = platform::create_new(temp, file);
        if (error && !platform::already_exists(error)) break;
    }
    if (error)
        return {false, "cannot open " + shown + " for writing (a temporary file in '" + directory_of(target) +
                           "'): " + error_text(error)};
    const int slot = register_temp(temp);
    if (exists) platform::copy_mode(file, st->mode);  // the replaced file's permissions (best effort)

    error = write_all(file, parts, true);
    const double write_ms = ms_since(started);
    const auto sync_started = std::chrono::steady_clock::now();
    const char* step = "cannot write ";
    if (!error && (error = fault() == Fault::Fsync ? platform::kIoError : platform::flush_to_disk(file)))
        step = "cannot flush ";
    if (const int closed = platform::close(file); closed && !error) error = closed;
    if (!error && (error = fault() == Fault::Rename ? platform::kIoError : platform::replace(temp, target)))
        step = "cannot replace ";
    if (error) platform::remove(temp);  // the previous content of the output stays as it was
    unregister_temp(slot);            // after the rename: a signal in between unlinks a name now gone
    if (error) return {false, step + shown + ": " + error_text(error)};
    Result done;
    done.write_ms = write_ms;
    done.sync_ms = ms_since(sync_started);
    return done;
}

Result write_file(const std::string& path, std::string_view text) {
    const std::span<const uint8_t> whole(reinterpret_cast<const uint8_t*>(text.data()), text.size());
    return write_file(path, std::span(&whole, 1));
}

}  // namespace safe_output

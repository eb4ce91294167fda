#include "safe_output.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "platform.h"
#include "io_test_hooks.h"

namespace safe_output {
namespace {

// ---- protected inputs -----------------------------------------------------------------------

std::mutex g_inputs_mutex;
std::vector<std::pair<FileId, std::string>> g_inputs;

// ---- temporary files the interrupt cleanup removes -----------------------------------------
//
// A fixed table (the cleanup runs in a signal handler: no allocation, no lock). A slot is
//   0  free,
//   1  taken by a writer that is about to create its temporary file (or failed to),
//   2  naming a temporary file that exists (or was just renamed or removed by its writer),
//   3  taken by the cleanup, which removes the file; never given back (the process is ending).
// A writer, with the interrupting signals blocked in its thread (so that the cleanup never runs
// between its steps and waits on itself), takes a free slot (0 -> 1), reads g_stopping and creates
// the file only when it is not set (O_EXCL), then publishes the slot (1 -> 2) or frees it. The
// cleanup sets g_stopping first, then waits while slots are in state 1, then takes every slot in
// state 2 and removes its file. Both sides are sequentially consistent: a writer that read
// g_stopping unset had taken its slot before, so the cleanup sees that slot in state 1 and waits
// for the file; a writer that reads it set creates nothing. So no temporary file exists outside a
// slot, and none is created after the cleanup looked.
constexpr int kSlots = 128;  // a writer holds one slot at a time: --jobs (at most 64) plus the JSON fit
struct Slot {
    std::atomic<int> state{0};
    const char* path = nullptr;  // the writer's string: valid in states 1 (not read) to 3
};
Slot g_slots[kSlots];
std::atomic<int> g_stopping{0};
static_assert(std::atomic<int>::is_always_lock_free, "the cleanup runs in a signal handler");

// Takes a free slot (state 1) for `path`; the caller has the interrupts blocked.
Slot& take_slot(const std::string& path) {
    for (;;) {
        for (Slot& slot : g_slots) {
            int expected = 0;
            if (!slot.state.compare_exchange_strong(expected, 1)) continue;
            slot.path = path.c_str();
            return slot;
        }
        std::this_thread::yield();  // more writers than slots: one gives its slot back soon
    }
}

// After the file was renamed or removed. When the cleanup has taken the slot, it may still read the
// name: this thread waits for the process to end rather than free it.
void give_back(Slot& slot) {
    int expected = 2;
    if (!slot.state.compare_exchange_strong(expected, 0)) platform::wait_for_the_end();
}

// The interrupt cleanup (async-signal-safe). The first caller works; a second one (another signal
// on another thread) waits for the first to end the process.
void remove_temps_for_signal() {
    if (g_stopping.exchange(1) != 0) platform::wait_for_the_end();
    // A creation in flight ends within microseconds; 5 s for a file system that hangs.
    for (Slot& slot : g_slots)
        for (unsigned waited = 0; slot.state.load() == 1 && waited < 5000000; waited += 100)
            platform::pause_in_cleanup(100);
    for (Slot& slot : g_slots) {
        int expected = 2;
        if (slot.state.compare_exchange_strong(expected, 3)) platform::remove_in_cleanup(slot.path);
    }
}

// ---- the test hook ----------------------------------------------------------------------------

enum class Fault { None, Write, Fsync, Rename, SigTerm, SigKill };

Fault fault() {
    static const Fault value = [] {
        const char* text = TEXDEC_IO_TEST_HOOK("TEXDEC_CLI_WRITE_FAULT");
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

// ---- outputs this process wrote (refuse_rewriting_outputs) ------------------------------------

std::atomic<bool> g_refuse_rewrites{false};
std::mutex g_written_mutex;
std::map<std::pair<uint64_t, uint64_t>, std::string> g_written;  // file id -> the output's path

std::optional<std::string> written_at(const FileId& id) {
    std::lock_guard lock(g_written_mutex);
    const auto found = g_written.find({id.device, id.inode});
    if (found == g_written.end()) return std::nullopt;
    return found->second;
}

// The path without a trailing separator ("out/" -> "out"), the root kept.
std::string without_trailing_separator(std::string path) {
    while (path.size() > 1 && platform::directory_end(path) == path.size()) path.pop_back();
    return path;
}

}  // namespace

Place place_of(const std::string& path) {
    Place place;
    std::string target;
    if (platform::resolve_links(path, target)) target = path;  // the write reports the error
    if (const std::optional<platform::FileInfo> info = platform::stat(target)) {
        place.file = info->id;
        place.in_place = info->kind != platform::Kind::Regular && info->kind != platform::Kind::Directory;
    }
    // The deepest existing folder, and the components below it.
    std::vector<std::string> components = {name_of(target)};
    std::string folder = directory_part(target);
    for (;;) {
        if (const std::optional<platform::FileInfo> info = platform::stat(folder.empty() ? "." : folder)) {
            place.folder = info->id;
            break;
        }
        if (folder.empty()) break;
        const std::string trimmed = without_trailing_separator(folder);
        const size_t end = platform::directory_end(trimmed);
        if (trimmed.size() == folder.size() && end == trimmed.size()) break;  // a root that does not exist
        components.insert(components.begin(), end == std::string::npos ? trimmed : trimmed.substr(end));
        folder = end == std::string::npos ? "" : trimmed.substr(0, end);
    }
    std::vector<std::string> below;
    for (const std::string& c : components) {
        if (c.empty() || c == ".") continue;
        if (c == ".." && !below.empty() && below.back() != "..") below.pop_back();
        else below.push_back(platform::name_key(c));
    }
    if (!place.folder) place.below = platform::name_key(folder);
    for (const std::string& c : below) place.below += (place.below.empty() ? "" : "/") + c;
    return place;
}

bool same_place(const Place& a, const Place& b) {
    if (a.file && b.file && *a.file == *b.file) return true;
    return a.folder == b.folder && a.below == b.below;
}

void refuse_rewriting_outputs(bool on) { g_refuse_rewrites.store(on); }

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
        if (g_refuse_rewrites.load())
            if (const std::optional<std::string> earlier = written_at(st->id))
                return {false,
                        "output '" + path + "' is the same file as output '" + *earlier +
                            "', which this run wrote already (a link to it, a hard link, or a name that differs "
                            "only in case on a file system that ignores case): refusing to let one output replace "
                            "another; choose other output names",
                        true};
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
    Slot* slot = nullptr;
    {
        // The name is in the cleanup's table before the file exists (see take_slot).
        const platform::InterruptsBlocked blocked;
        for (int attempt = 0; attempt < 100 && file == platform::kNoFile; ++attempt) {
            temp = directory_part(target) + "." + name + ".tmp-" + std::to_string(platform::process_id()) + "-" +
                   std::to_string(g_temp_counter.fetch_add(1));
            if (!slot) slot = &take_slot(temp);
            slot->path = temp.c_str();
            if (g_stopping.load() != 0) {  // interrupted: create nothing more; the cleanup ends the process
                slot->state.store(0);
                platform::wait_for_the_end();
            }
            error = platform::create_new(temp, file);
            if (error && !platform::already_exists(error)) break;
        }
        slot->state.store(error ? 0 : 2);
    }
    if (error)
        return {false, "cannot open " + shown + " for writing (a temporary file in '" + directory_of(target) +
                           "'): " + error_text(error)};
    if (exists) platform::copy_mode(file, st->mode);  // the replaced file's permissions (best effort)

    error = write_all(file, parts, true);
    platform::FileInfo written{};  // its identity, kept by the rename
    const bool identified = !error && platform::stat(file, written) == 0;
    const double write_ms = ms_since(started);
    const auto sync_started = std::chrono::steady_clock::now();
    const char* step = "cannot write ";
    if (!error && (error = fault() == Fault::Fsync ? platform::kIoError : platform::flush_to_disk(file)))
        step = "cannot flush ";
    if (const int closed = platform::close(file); closed && !error) error = closed;
    if (!error && (error = fault() == Fault::Rename ? platform::kIoError : platform::replace(temp, target)))
        step = "cannot replace ";
    if (error) platform::remove(temp);  // the previous content of the output stays as it was
    give_back(*slot);                   // after the rename: a signal in between unlinks a name now gone
    if (error) return {false, step + shown + ": " + error_text(error)};
    if (identified && g_refuse_rewrites.load()) {
        std::lock_guard lock(g_written_mutex);
        g_written[{written.id.device, written.id.inode}] = path;
    }
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

#include "safe_output.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

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

void remove_temps_for_signal() {
    for (Slot& slot : g_slots)
        if (slot.state.load(std::memory_order_acquire) == 2) unlink(slot.path);
}

extern "C" void on_signal(int sig) {
    // Only async-signal-safe calls here.
    remove_temps_for_signal();
    if (sig == SIGBUS) {
        static const char kMessage[] =
            "astc-gpu-decode: error: an input file became shorter while it was being read (bus error on "
            "its mapping); unfinished outputs were removed\n";
        ssize_t ignored = write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
        (void)ignored;
        _exit(3);  // kExitInput
    }
    signal(sig, SIG_DFL);
    raise(sig);  // delivered when the handler returns: the run ends as killed by `sig`
}

// ---- the test hook ----------------------------------------------------------------------------

enum class Fault { None, Write, Fsync, Rename, SigTerm, SigKill };

Fault fault() {
    static const Fault value = [] {
        const char* text = std::getenv("TEXDEC_CLI_WRITE_FAULT");
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

std::string directory_of(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

std::string name_of(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Follows symbolic links from `path` to where they end (a path that may not exist yet). 0 or errno.
int resolve_links(const std::string& path, std::string& target) {
    target = path;
    for (int hops = 0; hops < 40; ++hops) {
        struct stat st;
        if (lstat(target.c_str(), &st) != 0) return errno == ENOENT ? 0 : errno;
        if (!S_ISLNK(st.st_mode)) return 0;
        char link[4096];
        const ssize_t n = readlink(target.c_str(), link, sizeof link);
        if (n < 0) return errno;
        if (size_t(n) >= sizeof link) return ENAMETOOLONG;
        const std::string next(link, size_t(n));
        // Relative to the link's directory ("out.png -> a.png" in the current one stays "a.png").
        target = next[0] == '/' || target.find('/') == std::string::npos ? next : directory_of(target) + "/" + next;
    }
    return ELOOP;
}

std::string error_text(int error) { return std::strerror(error); }

// Writes every part; with a fault, stops after half of the bytes. 0 or errno. `writeback`: a
// regular file that will be fsync'ed: after each 32 MiB written, the kernel is asked to start
// writing them to the disk (sync_file_range, SYNC_FILE_RANGE_WRITE: asynchronous, advisory), so
// the disk works while the rest is written and the fsync waits for less (a 256 MiB output: its
// write + fsync took 200-240 ms on the H100 host, one after the other).
int write_all(int fd, std::span<const std::span<const uint8_t>> parts, bool writeback = false) {
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
            const ssize_t n = write(fd, p, chunk);
            if (n < 0) {
                if (errno == EINTR) continue;
                return errno;
            }
            if (n == 0) return EIO;
            p += n;
            left -= size_t(n);
            budget -= uint64_t(n);
            written += uint64_t(n);
            if (writeback && written - flushed >= kWritebackStep) {
                sync_file_range(fd, off64_t(flushed), off64_t(written - flushed), SYNC_FILE_RANGE_WRITE);
                flushed = written;
            }
        }
        if (left > 0) break;  // the fault's halfway point
    }
    if (!halfway) return 0;
    if (f == Fault::SigTerm) raise(SIGTERM);
    if (f == Fault::SigKill) raise(SIGKILL);
    return ENOSPC;
}

// An existing output that is not a regular file (/dev/null, a FIFO): written in place.
Result write_in_place(const std::string& path, std::span<const std::span<const uint8_t>> parts, int flags) {
    const int fd = open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | flags);
    if (fd < 0) return {false, "cannot open '" + path + "' for writing: " + error_text(errno)};
    const int written = write_all(fd, parts);
    const int closed = close(fd) == 0 ? 0 : errno;
    if (written || closed) return {false, "cannot write '" + path + "': " + error_text(written ? written : closed)};
    return {};
}

std::atomic<uint64_t> g_temp_counter{0};

}  // namespace

std::optional<FileId> file_id(const std::string& path) {
    struct stat st;
    if (stat(path.c_str(), &st) != 0) return std::nullopt;
    return FileId{uint64_t(st.st_dev), uint64_t(st.st_ino)};
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

void install_signal_handlers() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction action {};
        action.sa_handler = on_signal;
        sigfillset(&action.sa_mask);  // no second handler while one removes the files
        for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
            struct sigaction old {};
            // A signal the caller ignores (nohup, a background job's SIGINT) stays ignored.
            if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
            sigaction(sig, &action, nullptr);
        }
        sigaction(SIGBUS, &action, nullptr);
        struct sigaction old {};
        if (sigaction(SIGXFSZ, nullptr, &old) == 0 && old.sa_handler == SIG_DFL) signal(SIGXFSZ, SIG_IGN);
    });
}

Result write_file(const std::string& path, std::span<const std::span<const uint8_t>> parts) {
    install_signal_handlers();
    if (const std::optional<std::string> input = protected_input_at(path))
        return {false, same_file_message(path, *input), true};

    struct stat st;
    const bool exists = stat(path.c_str(), &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) return {false, "cannot write '" + path + "': it is a directory"};
    if (exists && !S_ISREG(st.st_mode)) return write_in_place(path, parts, 0);

    std::string target;
    if (const int error = resolve_links(path, target))
        return {false, "cannot write '" + path + "': " + error_text(error)};
    const std::string shown = target == path ? "'" + path + "'" : "'" + path + "' (a link to '" + target + "')";
    if (exists) {
        // /proc's links (/dev/stdout) may not name a path: replace only what the resolved path is.
        struct stat resolved;
        if (stat(target.c_str(), &resolved) != 0 || resolved.st_dev != st.st_dev || resolved.st_ino != st.st_ino)
            return write_in_place(path, parts, O_TRUNC);
        // A file the user may not write stays refused (the directory's permission would allow a rename).
        if (access(target.c_str(), W_OK) != 0) return {false, "cannot write " + shown + ": " + error_text(errno)};
    }

    const auto started = std::chrono::steady_clock::now();
    const auto ms_since = [](std::chrono::steady_clock::time_point t) {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
    };
    const std::string directory = directory_of(target);
    const std::string name = name_of(target).substr(0, 200);  // the temp name must fit NAME_MAX
    std::string temp;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        temp = directory + "/." + name + ".tmp-" + std::to_string(getpid()) + "-" +
               std::to_string(g_temp_counter.fetch_add(1));
        fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0)
        return {false, "cannot open " + shown + " for writing (a temporary file in '" + directory +
                           "'): " + error_text(errno)};
    const int slot = register_temp(temp);
    if (exists) fchmod(fd, st.st_mode & 0777);  // the replaced file's permissions (best effort)

    int error = write_all(fd, parts, true);
    const double write_ms = ms_since(started);
    const auto sync_started = std::chrono::steady_clock::now();
    const char* step = "cannot write ";
    if (!error && (fault() == Fault::Fsync || fsync(fd) != 0)) {
        error = fault() == Fault::Fsync ? EIO : errno;
        step = "cannot flush ";
    }
    if (close(fd) != 0 && !error) error = errno;
    if (!error && (fault() == Fault::Rename || rename(temp.c_str(), target.c_str()) != 0)) {
        error = fault() == Fault::Rename ? EIO : errno;
        step = "cannot replace ";
    }
    if (error) unlink(temp.c_str());  // the previous content of the output stays as it was
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

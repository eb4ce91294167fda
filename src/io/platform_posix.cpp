// platform.h for Linux (POSIX calls; sync_file_range, madvise and the cgroup file are Linux's).
#include "platform.h"

#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <fstream>
#include <mutex>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace platform {

const int kNoSpace = ENOSPC;
const int kIoError = EIO;

std::string error_text(int error) { return std::strerror(error); }

// ---- process ----------------------------------------------------------------------------------

std::vector<std::string> utf8_arguments(int argc, char** argv) { return {argv, argv + argc}; }

unsigned long process_id() { return (unsigned long)getpid(); }

bool is_terminal(std::FILE* stream) { return isatty(fileno(stream)); }

namespace {

void (*g_cleanup)() = nullptr;

// The signals that interrupt a run: the cleanup removes the unfinished outputs, then the process ends
// killed by the same signal. SIGPIPE: a reader of the progress lines or of --json's standard output
// that goes away (`| head`) ends the run as before, without leaving its temporary files.
constexpr int kInterrupts[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

extern "C" void on_signal(int sig) {
    // Only async-signal-safe calls here. Every signal is blocked in this thread while it runs
    // (sa_mask); another thread may get a second one meanwhile: the cleanup lets one of them work.
    g_cleanup();
    if (sig == SIGBUS) {
        static const char kMessage[] =
            "astc-gpu-decode: error: an input file became shorter while it was being read (bus error on "
            "its mapping); unfinished outputs were removed\n";
        ssize_t ignored = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
        (void)ignored;
        _exit(3);  // kExitInput
    }
    signal(sig, SIG_DFL);
    raise(sig);  // delivered when the handler returns: the run ends as killed by `sig`
}

}  // namespace

// Also: SIGBUS (a mapped input file truncated while it is read) prints a message and exits with
// code 3, and SIGXFSZ is ignored (where not ignored already) so that a file-size limit is a write
// error rather than a kill.
void install_interrupt_cleanup(void (*cleanup)()) {
    static std::once_flag once;
    std::call_once(once, [cleanup] {
        g_cleanup = cleanup;
        struct sigaction action {};
        action.sa_handler = on_signal;
        sigfillset(&action.sa_mask);  // no second handler in this thread while one removes the files
        for (int sig : kInterrupts) {
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

static_assert(sizeof(sigset_t) <= 128, "InterruptsBlocked keeps a sigset_t");

InterruptsBlocked::InterruptsBlocked() {
    sigset_t block;
    sigemptyset(&block);
    for (int sig : kInterrupts) sigaddset(&block, sig);
    pthread_sigmask(SIG_BLOCK, &block, reinterpret_cast<sigset_t*>(saved_));
}

InterruptsBlocked::~InterruptsBlocked() { pthread_sigmask(SIG_SETMASK, reinterpret_cast<sigset_t*>(saved_), nullptr); }

void pause_in_cleanup(unsigned microseconds) {
    struct timespec wait {
        time_t(microseconds / 1000000), long(microseconds % 1000000) * 1000
    };
    nanosleep(&wait, nullptr);
}

void wait_for_the_end() {
    for (;;) pause_in_cleanup(1000000);
}

void simulate_kill(bool catchable) {
    raise(catchable ? SIGTERM : SIGKILL);
    _exit(1);  // not reached
}

// ---- memory -----------------------------------------------------------------------------------

namespace {

// The cgroup (v2) memory limit of this process, if it has one.
std::optional<uint64_t> cgroup_memory_limit() {
    std::string group = "/";
    std::ifstream self("/proc/self/cgroup");
    for (std::string line; std::getline(self, line);)
        if (line.rfind("0::", 0) == 0) group = line.substr(3);
    for (const std::string& dir : {"/sys/fs/cgroup" + group, std::string("/sys/fs/cgroup")}) {
        std::ifstream in(dir + "/memory.max");
        std::string text;
        if (!(in >> text)) continue;
        uint64_t value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (error == std::errc() && end == text.data() + text.size()) return value;
        return std::nullopt;  // "max"
    }
    return std::nullopt;
}

}  // namespace

MemoryCeiling memory_ceiling() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    MemoryCeiling ceiling{pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : uint64_t(8) << 30,
                          "physical memory"};
    if (const std::optional<uint64_t> cgroup = cgroup_memory_limit(); cgroup && *cgroup < ceiling.bytes)
        ceiling = {*cgroup, "the cgroup's memory limit"};
    struct rlimit rl {};
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && uint64_t(rl.rlim_cur) < ceiling.bytes)
        ceiling = {uint64_t(rl.rlim_cur), "the address-space limit (ulimit -v)"};
    return ceiling;
}

void* allocate_pages(size_t size) {
    constexpr size_t kHugePage = size_t(2) << 20;
    void* raw = mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return nullptr;
    // 2 MiB-aligned: trim the mapping's head and tail.
    const uintptr_t base = reinterpret_cast<uintptr_t>(raw);
    const uintptr_t start = (base + kHugePage - 1) / kHugePage * kHugePage;
    if (start > base) munmap(raw, start - base);
    if (base + kHugePage > start) munmap(reinterpret_cast<void*>(start + size), base + kHugePage - start);
    void* memory = reinterpret_cast<void*>(start);
    madvise(memory, size, MADV_HUGEPAGE);  // advisory: where THP is off it fails, and 4 KiB pages serve
    return memory;
}

void free_pages(void* memory, size_t bytes) { munmap(memory, bytes); }

// ---- paths ------------------------------------------------------------------------------------

std::filesystem::path fs_path(const std::string& utf8) { return std::filesystem::path(utf8); }

std::string utf8(const std::filesystem::path& path) { return path.string(); }

size_t directory_end(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? slash : slash + 1;
}

std::FILE* open_stdio(const std::string& path, const char* mode) { return std::fopen(path.c_str(), mode); }

// ---- files ------------------------------------------------------------------------------------

namespace {

FileInfo info_of(const struct stat& st) {
    const mode_t m = st.st_mode;
    const Kind kind = S_ISREG(m)    ? Kind::Regular
                      : S_ISDIR(m)  ? Kind::Directory
                      : S_ISFIFO(m) ? Kind::Fifo
                      : S_ISCHR(m)  ? Kind::CharDevice
                      : S_ISBLK(m)  ? Kind::BlockDevice
                      : S_ISSOCK(m) ? Kind::Socket
                                    : Kind::Other;
    return {kind, {uint64_t(st.st_dev), uint64_t(st.st_ino)}, uint64_t(st.st_size), uint32_t(m & 07777)};
}

int open_file(const std::string& path, int flags, Handle& file) {
    const int fd = open(path.c_str(), flags | O_NOCTTY | O_CLOEXEC, 0666);
    file = fd;
    return fd < 0 ? errno : 0;
}

}  // namespace

std::optional<FileInfo> stat(const std::string& path, int* error) {
    struct stat st;
    if (::stat(path.c_str(), &st) == 0) return info_of(st);
    if (error) *error = errno == ENOENT ? 0 : errno;
    return std::nullopt;
}

int stat(Handle file, FileInfo& info) {
    struct stat st;
    if (fstat(int(file), &st) != 0) return errno;
    info = info_of(st);
    return 0;
}

// O_NONBLOCK: opening a FIFO must not wait for a writer.
int open_read(const std::string& path, bool no_wait, Handle& file) {
    return open_file(path, O_RDONLY | (no_wait ? O_NONBLOCK : 0), file);
}

int open_write_existing(const std::string& path, bool truncate, Handle& file) {
    return open_file(path, O_WRONLY | (truncate ? O_TRUNC : 0), file);
}

int create_new(const std::string& path, Handle& file) { return open_file(path, O_WRONLY | O_CREAT | O_EXCL, file); }

bool already_exists(int error) { return error == EEXIST; }

int close(Handle file) { return ::close(int(file)) == 0 ? 0 : errno; }

int read(Handle file, void* data, size_t size, size_t& got) {
    for (;;) {
        const ssize_t n = ::read(int(file), data, size);
        if (n < 0 && errno == EINTR) continue;
        got = n < 0 ? 0 : size_t(n);
        return n < 0 ? errno : 0;
    }
}

int write(Handle file, const void* data, size_t size, size_t& written) {
    for (;;) {
        const ssize_t n = ::write(int(file), data, size);
        if (n < 0 && errno == EINTR) continue;
        written = n < 0 ? 0 : size_t(n);
        return n < 0 ? errno : 0;
    }
}

void start_writeback(Handle file, uint64_t offset, uint64_t size) {
    sync_file_range(int(file), off64_t(offset), off64_t(size), SYNC_FILE_RANGE_WRITE);
}

int flush_to_disk(Handle file) { return fsync(int(file)) == 0 ? 0 : errno; }

void copy_mode(Handle file, uint32_t mode) { fchmod(int(file), mode & 0777); }  // best effort

const void* map_read(Handle file, uint64_t size, int& error) {
    void* memory = mmap(nullptr, size_t(size), PROT_READ, MAP_PRIVATE, int(file), 0);
    error = errno;
    return memory == MAP_FAILED ? nullptr : memory;
}

void unmap(const void* memory, uint64_t size) { munmap(const_cast<void*>(memory), size_t(size)); }

int check_writable(const std::string& path) { return access(path.c_str(), W_OK) == 0 ? 0 : errno; }

std::string name_key(const std::string& name) { return name; }

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
        const size_t slash = target.find_last_of('/');
        target = next[0] == '/' || slash == std::string::npos ? next : target.substr(0, slash + 1) + next;
    }
    return ELOOP;
}

int replace(const std::string& from, const std::string& to) {
    return rename(from.c_str(), to.c_str()) == 0 ? 0 : errno;
}

int remove(const std::string& path) { return unlink(path.c_str()) == 0 ? 0 : errno; }

void remove_in_cleanup(const char* path) { unlink(path); }

}  // namespace platform

// The little of the operating system the CLI needs, for Linux (platform_posix.cpp) and Windows
// (platform_windows.cpp), so that the rest of the CLI has no #ifdef.
// Paths are UTF-8 std::string everywhere (on Windows converted to UTF-16 at these calls). Errors
// are the system's codes (errno on Linux, GetLastError() on Windows): 0 means success, and
// error_text() names them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace platform {

// An open file: a file descriptor on Linux, a HANDLE on Windows; kNoFile when none.
using Handle = intptr_t;
constexpr Handle kNoFile = -1;

extern const int kNoSpace;  // ENOSPC / ERROR_DISK_FULL: the write fault of the test hook
extern const int kIoError;  // EIO / ERROR_WRITE_FAULT: the fsync and rename faults
std::string error_text(int error);

// ---- process ----------------------------------------------------------------------------------

// The arguments as UTF-8 (Windows: from the UTF-16 command line, whatever the ANSI code page), and
// on Windows a UTF-8 console for the output (restored at exit).
std::vector<std::string> utf8_arguments(int argc, char** argv);
unsigned long process_id();
// A terminal that shows the progress bar (Windows: a console with VT processing).
bool is_terminal(std::FILE* stream);

// Removes unfinished outputs when the run is interrupted: `cleanup` is called from a signal
// handler (Linux: SIGINT, SIGTERM, SIGHUP, SIGPIPE and SIGBUS; only async-signal-safe work, on
// whichever thread the signal reached while the others go on) or from the console control
// handler's thread (Windows: Ctrl-C, Ctrl-Break, closing the console, logoff, shutdown), after which
// the process ends as it would have (killed by the signal; SIGBUS: exit code 3). Once per process.
void install_interrupt_cleanup(void (*cleanup)());
// While it lives, the calling thread does not run the interrupt cleanup: Linux blocks SIGINT,
// SIGTERM, SIGHUP and SIGPIPE in it (a signal sent meanwhile goes to another thread, or waits);
// Windows' console handler has a thread of its own, so nothing is needed there.
class InterruptsBlocked {
public:
    InterruptsBlocked();
    ~InterruptsBlocked();
    InterruptsBlocked(const InterruptsBlocked&) = delete;
    InterruptsBlocked& operator=(const InterruptsBlocked&) = delete;

private:
    alignas(8) unsigned char saved_[128];  // Linux: the thread's previous signal mask (a sigset_t)
};
// Waits about `microseconds` inside the cleanup (Linux: nanosleep, async-signal-safe).
void pause_in_cleanup(unsigned microseconds);
// Never returns: for a thread that must not go on because the cleanup is ending the process.
[[noreturn]] void wait_for_the_end();
// The test hook's killed run: `catchable` as SIGTERM (the cleanup runs) or Ctrl-C on Windows, else
// as SIGKILL (Windows: TerminateProcess).
[[noreturn]] void simulate_kill(bool catchable);

// ---- memory -----------------------------------------------------------------------------------

// The memory the process may use at most, and what sets it ("physical memory", "the cgroup's
// memory limit", ...).
struct MemoryCeiling {
    uint64_t bytes;
    std::string what;
};
MemoryCeiling memory_ceiling();

// Zero-filled pages, `bytes` a multiple of 2 MiB (Linux: at a 2 MiB boundary, transparent huge
// pages requested; Windows: VirtualAlloc); nullptr when there is no memory.
void* allocate_pages(size_t bytes);
void free_pages(void* memory, size_t bytes);

// ---- paths ------------------------------------------------------------------------------------

// std::filesystem::path from and to UTF-8 (Windows' narrow path functions use the ANSI code page).
std::filesystem::path fs_path(const std::string& utf8);
std::string utf8(const std::filesystem::path& path);
// Where a path's directory part ends: after the last separator ('/'; Windows also '\' and the
// drive's ':'), npos when it has none.
size_t directory_end(const std::string& path);
std::FILE* open_stdio(const std::string& path, const char* mode);

// ---- files ------------------------------------------------------------------------------------

struct FileId {  // Linux: device and inode; Windows: volume serial number and file index
    uint64_t device, inode;
    bool operator==(const FileId&) const = default;
};
enum class Kind { Regular, Directory, Fifo, CharDevice, BlockDevice, Socket, Other };
struct FileInfo {
    Kind kind;
    FileId id;
    uint64_t size;
    uint32_t mode;  // Linux: the permission bits; Windows: 0
};
// Links followed. nullopt when the path does not exist (or the link dangles), with `error` set
// when that is not the reason.
std::optional<FileInfo> stat(const std::string& path, int* error = nullptr);
int stat(Handle file, FileInfo& info);

// Opens for reading (`no_wait`: a FIFO does not wait for a writer), or an existing file (a device)
// for writing in place. 0 or the error.
int open_read(const std::string& path, bool no_wait, Handle& file);
int open_write_existing(const std::string& path, bool truncate, Handle& file);
// Creates `path`, which must not exist (else already_exists(error)), for writing.
int create_new(const std::string& path, Handle& file);
bool already_exists(int error);
int close(Handle file);
// Reads up to `size` bytes (0 at the end); writes some of `size` bytes. 0 or the error.
int read(Handle file, void* data, size_t size, size_t& got);
int write(Handle file, const void* data, size_t size, size_t& written);
// Asks for the bytes written so far to go to the disk now (advisory, Linux only), and waits until
// every byte is there (fsync, FlushFileBuffers).
void start_writeback(Handle file, uint64_t offset, uint64_t size);
int flush_to_disk(Handle file);
// The replaced file's permission bits (Linux; Windows keeps none).
void copy_mode(Handle file, uint32_t mode);

// Maps `size` bytes of `file` read-only; nullptr with `error` set when it cannot. The mapping does
// not need the handle afterwards.
const void* map_read(Handle file, uint64_t size, int& error);
void unmap(const void* memory, uint64_t size);

// 0 if the user may write `path` (an existing file), else the error.
int check_writable(const std::string& path);
// A file name as the file system compares names: Linux, the bytes as they are (names differ in
// case); Windows, upper-cased (NTFS and FAT ignore case).
std::string name_key(const std::string& name);
// Where symbolic links from `path` end (a path that may not exist yet). 0 or the error. Windows:
// the path itself (a link there is replaced by a file, not written through).
int resolve_links(const std::string& path, std::string& target);
// Renames `from` over `to` atomically, the rename on disk when it returns (Windows: MoveFileExW
// with MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH). 0 or the error.
int replace(const std::string& from, const std::string& to);
int remove(const std::string& path);
// remove() for the interrupt cleanup: Linux async-signal-safe (unlink).
void remove_in_cleanup(const char* path);

}  // namespace platform

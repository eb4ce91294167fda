// platform.h for Windows (Win32 calls, UTF-16 paths). Built by MinGW-w64; tested under Wine.
#include "platform.h"

#include <windows.h>

#include <io.h>
#include <shellapi.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>

namespace platform {

const int kNoSpace = ERROR_DISK_FULL;
const int kIoError = ERROR_IO_DEVICE;

namespace {

std::wstring wide(const std::string& text) {
    if (text.empty()) return {};
    const int n = MultiByteToWideChar(CP_UTF8, 0, text.data(), int(text.size()), nullptr, 0);
    std::wstring out(size_t(std::max(n, 0)), L'\0');
    MultiByteToWideChar(CP_UTF8, 0, text.data(), int(text.size()), out.data(), n);
    return out;
}

std::string narrow(const wchar_t* text, size_t size) {
    if (size == 0) return {};
    const int n = WideCharToMultiByte(CP_UTF8, 0, text, int(size), nullptr, 0, nullptr, nullptr);
    std::string out(size_t(std::max(n, 0)), '\0');
    WideCharToMultiByte(CP_UTF8, 0, text, int(size), out.data(), n, nullptr, nullptr);
    return out;
}

// The UTF-16 path for the W functions. A path of MAX_PATH characters or more gets the \\?\ prefix
// (made absolute first: under \\?\ Windows resolves neither "." nor ".." nor '/'), so long paths work
// without the system's long-path setting. std::filesystem (--out-dir's directories) does not do this:
// there, paths are limited to MAX_PATH.
std::wstring path_w(const std::string& utf8) {
    std::wstring path = wide(utf8);
    if (path.size() < MAX_PATH - 12 || path.rfind(L"\\\\?\\", 0) == 0) return path;  // 12: a file name in a directory
    const DWORD n = GetFullPathNameW(path.c_str(), 0, nullptr, nullptr);
    if (n == 0) return path;
    std::wstring full(n, L'\0');
    full.resize(GetFullPathNameW(path.c_str(), n, full.data(), nullptr));
    if (full.rfind(L"\\\\", 0) == 0) return L"\\\\?\\UNC\\" + full.substr(2);  // \\server\share
    return L"\\\\?\\" + full;
}

int last_error() { return int(GetLastError()); }

HANDLE handle(Handle file) { return reinterpret_cast<HANDLE>(file); }

int open_file(const std::string& path, DWORD access, DWORD share, DWORD disposition, DWORD flags, Handle& file) {
    const HANDLE h = CreateFileW(path_w(path).c_str(), access, share, nullptr, disposition, flags, nullptr);
    file = reinterpret_cast<Handle>(h);
    return h == INVALID_HANDLE_VALUE ? last_error() : 0;
}

constexpr DWORD kShareAll = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;

}  // namespace

std::string error_text(int error) {
    wchar_t text[512];
    DWORD n = FormatMessageW(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr, DWORD(error), 0, text,
                             512, nullptr);
    while (n > 0 && (text[n - 1] == L'\r' || text[n - 1] == L'\n' || text[n - 1] == L' ' || text[n - 1] == L'.')) --n;
    if (n == 0) return "Windows error " + std::to_string(error);
    return narrow(text, n);
}

// ---- process ----------------------------------------------------------------------------------

namespace {

UINT g_console_code_page = 0;

void restore_console() { SetConsoleOutputCP(g_console_code_page); }

}  // namespace

std::vector<std::string> utf8_arguments(int argc, char** argv) {
    // File names and messages are UTF-8: the console shows them as such (the code page is the
    // console's, shared with the shell: set back at exit).
    if ((g_console_code_page = GetConsoleOutputCP()) != 0 && g_console_code_page != CP_UTF8 &&
        SetConsoleOutputCP(CP_UTF8))
        std::atexit(restore_console);
    int count = 0;
    wchar_t** args = CommandLineToArgvW(GetCommandLineW(), &count);
    if (!args) return {argv, argv + argc};
    std::vector<std::string> out;
    for (int i = 0; i < count; ++i) out.push_back(narrow(args[i], wcslen(args[i])));
    LocalFree(args);
    return out;
}

unsigned long process_id() { return GetCurrentProcessId(); }

// The progress bar's escape sequences need the console's VT processing (Windows 10 and later; left
// on, as shells do): without it, no bar. _isatty() is also true for NUL, which has no console mode.
bool is_terminal(std::FILE* stream) {
    if (!_isatty(_fileno(stream))) return false;
    const HANDLE console = reinterpret_cast<HANDLE>(_get_osfhandle(_fileno(stream)));
    DWORD mode = 0;
    if (!GetConsoleMode(console, &mode)) return false;
    return (mode & ENABLE_VIRTUAL_TERMINAL_PROCESSING) ||
           SetConsoleMode(console, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING);
}

namespace {

void (*g_cleanup)() = nullptr;

// Runs on a thread of its own (not in a signal context). FALSE: the next handler, the system's,
// ends the process as the event would have.
BOOL WINAPI on_console_event(DWORD) {
    g_cleanup();
    return FALSE;
}

}  // namespace

// No SIGBUS counterpart: Windows does not let a mapped file be made shorter.
void install_interrupt_cleanup(void (*cleanup)()) {
    static std::once_flag once;
    std::call_once(once, [cleanup] {
        g_cleanup = cleanup;
        SetConsoleCtrlHandler(on_console_event, TRUE);
    });
}

// The console handler runs on a thread of its own, never in the middle of the caller's work.
InterruptsBlocked::InterruptsBlocked() : saved_{} {}
InterruptsBlocked::~InterruptsBlocked() = default;

void pause_in_cleanup(unsigned microseconds) { Sleep(DWORD((microseconds + 999) / 1000)); }

void wait_for_the_end() {
    for (;;) Sleep(INFINITE);
}

void simulate_kill(bool catchable) {
    if (catchable) {
        if (g_cleanup) g_cleanup();
        ExitProcess(STATUS_CONTROL_C_EXIT);  // as Ctrl-C ends a console program
    }
    TerminateProcess(GetCurrentProcess(), 1);
    ExitProcess(1);  // not reached
}

// ---- memory -----------------------------------------------------------------------------------

// Physical memory only: a job object's memory limit is not looked at.
MemoryCeiling memory_ceiling() {
    MEMORYSTATUSEX status{};
    status.dwLength = sizeof status;
    if (!GlobalMemoryStatusEx(&status)) return {uint64_t(8) << 30, "an assumed 8 GiB (physical memory unknown)"};
    return {status.ullTotalPhys, "physical memory"};
}

// VirtualAlloc's 64 KiB alignment: large pages would need a privilege users lack.
void* allocate_pages(size_t bytes) { return VirtualAlloc(nullptr, bytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE); }

void free_pages(void* memory, size_t) { VirtualFree(memory, 0, MEM_RELEASE); }

// ---- paths ------------------------------------------------------------------------------------

std::filesystem::path fs_path(const std::string& utf8) {
    return std::filesystem::path(std::u8string(utf8.begin(), utf8.end()));
}

std::string utf8(const std::filesystem::path& path) {
    const std::u8string text = path.u8string();
    return std::string(text.begin(), text.end());
}

size_t directory_end(const std::string& path) {
    const size_t at = path.find_last_of("/\\:");  // ':': "C:name" is in drive C's current directory
    return at == std::string::npos ? at : at + 1;
}

std::FILE* open_stdio(const std::string& path, const char* mode) {
    return _wfopen(path_w(path).c_str(), wide(mode).c_str());
}

// ---- files ------------------------------------------------------------------------------------

int stat(Handle file, FileInfo& info) {
    info = {Kind::Other, {0, 0}, 0, 0};
    switch (GetFileType(handle(file))) {
    case FILE_TYPE_DISK: break;
    case FILE_TYPE_CHAR: info.kind = Kind::CharDevice; return 0;  // NUL, CON
    case FILE_TYPE_PIPE: info.kind = Kind::Fifo; return 0;
    default: return 0;
    }
    BY_HANDLE_FILE_INFORMATION data;
    if (!GetFileInformationByHandle(handle(file), &data)) return last_error();
    info.kind = (data.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) ? Kind::Directory : Kind::Regular;
    // The 64-bit file index: unique on NTFS (ReFS has 128-bit ids; two files there could match).
    info.id = {data.dwVolumeSerialNumber, uint64_t(data.nFileIndexHigh) << 32 | data.nFileIndexLow};
    info.size = uint64_t(data.nFileSizeHigh) << 32 | data.nFileSizeLow;
    return 0;
}

std::optional<FileInfo> stat(const std::string& path, int* error) {
    // No access asked for: attributes only, whoever has the file open. BACKUP_SEMANTICS: directories.
    Handle file;
    int failed = open_file(path, 0, kShareAll, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, file);
    FileInfo info;
    if (!failed) {
        failed = stat(file, info);
        close(file);
        if (!failed) return info;
    }
    if (error) *error = failed == ERROR_FILE_NOT_FOUND || failed == ERROR_PATH_NOT_FOUND ? 0 : failed;
    return std::nullopt;
}

// BACKUP_SEMANTICS: a directory opens, and is refused as one.
int open_read(const std::string& path, bool, Handle& file) {
    return open_file(path, GENERIC_READ, kShareAll, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, file);
}

int open_write_existing(const std::string& path, bool truncate, Handle& file) {
    return open_file(path, GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE,
                     truncate ? TRUNCATE_EXISTING : OPEN_EXISTING, 0, file);
}

// FILE_SHARE_DELETE: the console handler can remove it while a worker still writes it.
int create_new(const std::string& path, Handle& file) {
    return open_file(path, GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_DELETE, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, file);
}

bool already_exists(int error) { return error == ERROR_FILE_EXISTS || error == ERROR_ALREADY_EXISTS; }

int close(Handle file) { return CloseHandle(handle(file)) ? 0 : last_error(); }

int read(Handle file, void* data, size_t size, size_t& got) {
    DWORD n = 0;
    const BOOL ok = ReadFile(handle(file), data, DWORD(std::min<size_t>(size, size_t(1) << 30)), &n, nullptr);
    got = n;
    if (!ok && GetLastError() == ERROR_BROKEN_PIPE) return 0;  // a pipe's writer closed it: the end
    return ok ? 0 : last_error();
}

int write(Handle file, const void* data, size_t size, size_t& written) {
    DWORD n = 0;
    const BOOL ok = WriteFile(handle(file), data, DWORD(std::min<size_t>(size, size_t(1) << 30)), &n, nullptr);
    written = n;
    return ok ? 0 : last_error();
}

void start_writeback(Handle, uint64_t, uint64_t) {}

int flush_to_disk(Handle file) { return FlushFileBuffers(handle(file)) ? 0 : last_error(); }

void copy_mode(Handle, uint32_t) {}

const void* map_read(Handle file, uint64_t size, int& error) {
    const HANDLE mapping = CreateFileMappingW(handle(file), nullptr, PAGE_READONLY, 0, 0, nullptr);
    if (!mapping) {
        error = last_error();
        return nullptr;
    }
    const void* view = MapViewOfFile(mapping, FILE_MAP_READ, 0, 0, SIZE_T(size));
    error = last_error();
    CloseHandle(mapping);  // the view keeps it
    return view;
}

void unmap(const void* memory, uint64_t) { UnmapViewOfFile(memory); }

int check_writable(const std::string& path) {
    const DWORD attributes = GetFileAttributesW(path_w(path).c_str());
    if (attributes == INVALID_FILE_ATTRIBUTES) return last_error();
    return (attributes & FILE_ATTRIBUTE_READONLY) ? ERROR_ACCESS_DENIED : 0;
}

// Upper case as the invariant locale has it (what NTFS's own case table holds for the names people use).
std::string name_key(const std::string& name) {
    const std::wstring w = wide(name);
    if (w.empty()) return name;
    const int n = LCMapStringEx(LOCALE_NAME_INVARIANT, LCMAP_UPPERCASE, w.c_str(), int(w.size()), nullptr, 0, nullptr,
                                nullptr, 0);
    if (n <= 0) return name;
    std::wstring upper(size_t(n), L'\0');
    LCMapStringEx(LOCALE_NAME_INVARIANT, LCMAP_UPPERCASE, w.c_str(), int(w.size()), upper.data(), n, nullptr, nullptr,
                  0);
    return narrow(upper.data(), upper.size());
}

int resolve_links(const std::string& path, std::string& target) {
    target = path;
    return 0;
}

int replace(const std::string& from, const std::string& to) {
    return MoveFileExW(path_w(from).c_str(), path_w(to).c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)
               ? 0
               : last_error();
}

int remove(const std::string& path) { return DeleteFileW(path_w(path).c_str()) ? 0 : last_error(); }

void remove_in_cleanup(const char* path) { DeleteFileW(path_w(path).c_str()); }

}  // namespace platform

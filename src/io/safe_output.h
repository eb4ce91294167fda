// How astc-gpu-decode writes files without ever losing a user's data.
// Every output (images, .ktx2, .raw, --json=FILE, the bench's JSON) goes through write_file():
//   - A regular file (new or existing) is written to a temporary file beside it (same directory,
//     ".NAME.tmp-PID-N"), flushed to disk (fsync; Windows: FlushFileBuffers), and renamed over NAME
//     (Windows: MoveFileExW) only when every byte was written: NAME holds its previous bytes or all
//     of the new ones, never a part. On any failure the temporary file is removed; SIGINT, SIGTERM,
//     SIGHUP and SIGPIPE remove it too (Windows: Ctrl-C, Ctrl-Break, closing the console), on
//     whichever thread they arrive while other threads write: a temporary file's name is in the
//     cleanup's table before the file is created, and none is created once the cleanup started
//     (see safe_output.cpp). SIGKILL cannot be caught: a killed run may leave the temporary file,
//     never a partial NAME.
//   - An output that is a symbolic link is written through: the link stays, its target is replaced
//     (as above, the temporary file beside the target). A dangling link creates its target.
//     (Linux; on Windows a link output is replaced by a file.)
//   - An existing output that is not a regular file (/dev/null, a FIFO, a terminal) is written in
//     place: it cannot be replaced, and a rename would swap a device for a file.
//   - An existing file the user may not write (no write permission; Windows: read-only) is
//     refused, as before; a replaced file keeps its permission bits (Linux).
//   - An output that is the same file (device and inode, links followed; Windows: volume serial
//     number and file index) as an input given to protect_input() is refused before anything is
//     written. Two outputs of one run that would be the same file are told apart by place_of()
//     before either is written (the CLI refuses them), and, after refuse_rewriting_outputs(), an
//     output that is the same file as one this process wrote already is refused too.
// No dependency on the rest of the CLI, so the tests can link it with image_write.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "platform.h"

namespace safe_output {

using FileId = platform::FileId;

// stat() of `path` (symbolic links followed); nullopt when it does not exist (or is a dangling link).
std::optional<FileId> file_id(const std::string& path);

// Inputs that no output may replace. Thread-safe; an input that does not exist is ignored.
void protect_input(const std::string& path);
// The protected input that `path` is the same file as, if any.
std::optional<std::string> protected_input_at(const std::string& path);
// "output 'OUT' is the same file as input 'IN' (...): refusing to overwrite an input"
std::string same_file_message(const std::string& output, const std::string& input);

// Where an output path lands, so that two outputs can be compared before either exists: the file
// it names when that exists (links followed, as protect_input()), else the deepest folder of its
// path that exists (links followed) and the rest of the path below it ("." and ".." taken out,
// names as the file system compares them: platform::name_key()). The last component's symbolic
// links are followed first (write_file() writes through them). An existing file that is not a
// regular file (/dev/null, a FIFO) is written in place, never replaced: `in_place`.
struct Place {
    std::optional<FileId> file;
    std::optional<FileId> folder;  // none: not even the path's first folder exists
    std::string below;             // "sub/a.png"; with no folder, the whole path
    bool in_place = false;
};
Place place_of(const std::string& path);
// The same file, or the same name in the same folder.
bool same_place(const Place& a, const Place& b);

// From now on (on = true), write_file() refuses an output that is the same file as one it wrote
// earlier in this process (a link or a hard link made since, or a name that differs only in case
// on a file system that ignores case), as a usage error: one output of a run never replaces
// another. The CLI's decode turns it on; off by default (tests write a file several times).
void refuse_rewriting_outputs(bool on);

struct Result {
    bool ok = true;
    std::string message;  // why it failed: names the file and the cause
    // Refused as a usage error: the output is a protected input, or (refuse_rewriting_outputs) an
    // output this process wrote already.
    bool same_as_input = false;
    double write_ms = 0;  // wall clock: opening the temporary file and writing every byte
    double sync_ms = 0;   // wall clock: fsync, close and rename
};

// Writes `parts`, one after the other, as the whole content of `path` (see above).
Result write_file(const std::string& path, std::span<const std::span<const uint8_t>> parts);
Result write_file(const std::string& path, std::string_view text);

// Installs the handlers that remove unfinished temporary files on SIGINT, SIGTERM, SIGHUP and SIGPIPE (where
// they are not ignored) and on SIGBUS (a mapped input file truncated while it is read: a message and
// exit code 3), and ignores SIGXFSZ (where not ignored already) so that a file-size limit is a write
// error rather than a kill; on Windows, the console control handler (platform.h). Called by
// write_file() and by the input reader; once per process.
void install_signal_handlers();

// Test hook (TEXDEC_CLI_WRITE_FAULT): "write" fails every write_file() with ENOSPC after half of
// its bytes reached the temporary file; "fsync" and "rename" fail those steps with EIO; "sigterm"
// and "sigkill" raise that signal after half of the bytes were written (a killed run; on Windows
// "sigterm" removes the temporary files and exits as Ctrl-C does, "sigkill" is TerminateProcess).
// Read once.

}  // namespace safe_output

// astc-gpu-decode never loses a user's data:
//   7. an output that is the same file as an input (same path, a symbolic or hard link, raw mode, a
//      batch's --out-dir / --to landing on an input, --json=FILE) is refused with exit code 2 and a
//      message naming both, before anything is written: the input's bytes stay as they were;
//   8. outputs are replaced atomically: a write that fails (a planted fault at every step of every
//      writer and of --json=FILE, a real file-size limit, SIGTERM, SIGKILL) leaves the previous
//      output byte-identical and no temporary file behind (SIGKILL: at most the temporary file);
//      symbolic-link outputs are written through, device outputs (/dev/null) written in place;
//   9. reads are bounded: /dev/zero and a FIFO are refused at once; `info` and `decode` do not read
//      what the header does not describe (peak memory of the run far below the file's size); a
//      1 MiB zlib KTX 2 that declares a 32768 x 32768 BC7 level is refused before anything is
//      allocated, with both figures (under a low address-space limit, too);
//  10. --verify's mismatch leaves the decoded output in place with exit code 5, as --help and the
//      README say.
// The planted faults come from TEXDEC_CLI_WRITE_FAULT (src/io/safe_output.h).
#include <catch2/catch.hpp>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <spawn.h>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include <zlib.h>

#include "support/cli_runner.h"
#include "support/container_files.h"

extern char** environ;

using namespace texdec_test;

namespace {

namespace fs = std::filesystem;

std::string dir(const std::string& name) { return fresh_cli_dir("safety-" + name); }

std::vector<uint8_t> bytes_of(const std::string& text) { return {text.begin(), text.end()}; }

// 16 x 16 BC1 blocks of varied colours (any bytes are valid BC1).
std::vector<uint8_t> bc1_blocks(size_t blocks) {
    std::vector<uint8_t> data(blocks * 8);
    for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(i * 37 + 11);
    return data;
}

// A 16 x 16 BC1 KTX 2 file.
std::string write_ktx2(const std::string& path) {
    write_binary_file(path, ktx2_bytes(ktx2_spec(TEXDEC_FORMAT_BC1_RGBA_UNORM, 16, 16), {bc1_blocks(16)}).bytes);
    return path;
}

// A 16 x 16 DXT1 .dds file.
std::string write_dds(const std::string& path) {
    write_binary_file(path, legacy_dds(LegacyDdsHeader{{'D', 'X', 'T', '1'}, 16, 16}, bc1_blocks(16)));
    return path;
}

// Temporary files the writer may have left in `folder` (".NAME.tmp-PID-N").
std::vector<std::string> temp_files(const std::string& folder) {
    std::vector<std::string> found;
    for (const auto& entry : fs::directory_iterator(folder))
        if (contains(entry.path().filename().string(), ".tmp-")) found.push_back(entry.path().string());
    return found;
}

// Runs `command` (through /bin/sh, `exec`ed so the shell's child is the command itself) and
// returns its wait status (to see a signal).
int spawn_and_wait(const std::string& command) {
    const std::string shell_command = "exec " + command;
    const char* argv[] = {"sh", "-c", shell_command.c_str(), nullptr};
    pid_t pid = 0;
    REQUIRE(posix_spawn(&pid, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ) == 0);
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    return status;
}

// Runs `command` and returns its exit code; `peak_kib` gets its peak resident memory. A child of
// this process would start from this process's memory (the kernel counts the pre-exec high-water
// mark), so a small python3 runs it and reports RUSAGE_CHILDREN.
int run_measured(const std::string& command, const std::string& folder, long& peak_kib) {
    const std::string report = folder + "/rusage.txt";
    const std::string script =
        "import resource, subprocess, sys\n"
        "code = subprocess.run(sys.argv[1], shell=True).returncode\n"
        "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n";
    std::string quoted;  // the command as one shell word
    for (char c : command) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    REQUIRE(std::system(("python3 -c '" + script + "' '" + quoted + "' > " + report).c_str()) == 0);
    std::ifstream in(report);
    int code = -1;
    REQUIRE(in >> code >> peak_kib);
    return code;
}

uint64_t number_after(const std::string& text, const std::string& before) {
    std::smatch m;
    const std::regex pattern(before + "([0-9]+) bytes");
    if (!std::regex_search(text, m, pattern)) return 0;
    return std::stoull(m[1].str());
}

// A zlib stream of `size` zero bytes made without holding them: a sync-flushed raw deflate of
// 16 MiB of zeros repeated (each copy starts with a literal 0, so any copy can follow another), a
// final empty block and the Adler-32 of the zeros (a = 1, b = size mod 65521).
std::vector<uint8_t> zlib_zeros(uint64_t size) {
    constexpr uint64_t kChunk = uint64_t(16) << 20;
    REQUIRE(size % kChunk == 0);
    std::vector<uint8_t> zeros(kChunk, 0), chunk(kChunk / 64);
    z_stream z{};
    REQUIRE(deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) == Z_OK);
    z.next_in = zeros.data();
    z.avail_in = uInt(zeros.size());
    z.next_out = chunk.data();
    z.avail_out = uInt(chunk.size());
    REQUIRE(deflate(&z, Z_SYNC_FLUSH) == Z_OK);
    REQUIRE(z.avail_in == 0);
    chunk.resize(chunk.size() - z.avail_out);
    deflateEnd(&z);
    std::vector<uint8_t> stream = {0x78, 0x9C};
    for (uint64_t i = 0; i < size / kChunk; ++i) stream.insert(stream.end(), chunk.begin(), chunk.end());
    const uint32_t adler = uint32_t(size % 65521) << 16 | 1;
    stream.insert(stream.end(), {0x03, 0x00, uint8_t(adler >> 24), uint8_t(adler >> 16), uint8_t(adler >> 8), uint8_t(adler)});
    return stream;
}

// A KTX 2 file of about 1 MiB: zlib supercompression, one 32768 x 32768 BC7 level (1 GiB of blocks
// once inflated, 4 GiB of RGBA8 texels once decoded).
std::string write_huge_zlib_ktx2(const std::string& path) {
    Ktx2File f = ktx2_bytes(ktx2_spec(TEXDEC_FORMAT_BC7_UNORM, 32768, 32768, 0, 0, 1, 1, 3), {{}});
    const std::vector<uint8_t> stream = zlib_zeros(uint64_t(1) << 30);
    f.bytes.resize(f.level_offsets[0]);
    f.bytes.insert(f.bytes.end(), stream.begin(), stream.end());
    put_u64(f.bytes, 80 + 8, stream.size());          // byteLength
    put_u64(f.bytes, 80 + 16, uint64_t(1) << 30);     // uncompressedByteLength
    REQUIRE(f.bytes.size() < (uint64_t(3) << 19));    // about 1 MiB
    write_binary_file(path, f.bytes);
    return path;
}

// A file of `size` bytes starting with `head`, the rest a hole (no disk, no page cache until read).
void write_sparse(const std::string& path, const std::vector<uint8_t>& head, uint64_t size) {
    write_binary_file(path, head);
    fs::resize_file(path, size);
}

}  // namespace

// ---- item 7 ----------------------------------------------------------------------------------

TEST_CASE("CLI refuses an output that is the same file as an input, before writing anything", "[cli][safety]") {
    const std::string d = dir("same");
    const std::string in = write_ktx2(d + "/x.ktx2");
    const std::vector<uint8_t> original = read_binary_file(in);
    REQUIRE(!original.empty());
    fs::create_symlink("x.ktx2", d + "/link.ktx2");
    fs::create_hard_link(in, d + "/hard.raw");
    const std::string blocks = d + "/blocks.raw";
    write_binary_file(blocks, bc1_blocks(16));
    const std::string dds = write_dds(d + "/y.dds");
    fs::create_directories(d + "/out");
    fs::create_symlink("../y.dds", d + "/out/z.raw");  // batch: input z.dds's output is a link to input y.dds
    const std::string z = write_dds(d + "/z.dds");
    fs::create_directories(d + "/only");
    const std::string only = write_ktx2(d + "/only/w.ktx2");

    struct Case {
        const char* what;
        std::string args;
        std::string output, input;  // both must be named
    };
    const std::vector<Case> cases = {
        {"the same path", "decode " + in + " " + in, in, in},
        {"a symbolic link to the input", "decode " + in + " " + d + "/link.ktx2", d + "/link.ktx2", in},
        {"a hard link to the input", "decode " + in + " " + d + "/hard.raw", d + "/hard.raw", in},
        {"raw mode, the same path", "decode --format bc1-rgba-unorm --extent 16x16 " + blocks + " " + blocks, blocks, blocks},
        {"--out-dir and --to landing on the input", "decode --out-dir " + d + " --to ktx2 " + in, d + "/x.ktx2", in},
        {"--out-dir with a directory input", "decode --out-dir " + d + "/only --to ktx2 " + d + "/only",
         d + "/only/w.ktx2", only},
        {"a batch output that is a link to another input", "decode --out-dir " + d + "/out --to raw " + z + " " + dds,
         d + "/out/z.raw", dds},
        {"--json=FILE on the input", "decode " + in + " " + d + "/new.png --json=" + in, in, in},
        {"info --json=FILE on the input", "info " + in + " --json=" + in, in, in},
    };
    for (const Case& c : cases) {
        INFO(c.what << ": " << c.args);
        const int code = run_cli(c.args);
        const std::string err = last_cli_stderr();
        INFO(err);
        CHECK(code == 2);
        CHECK(contains(err, "output '" + c.output + "' is the same file as input '" + c.input + "'"));
        CHECK(read_binary_file(in) == original);
        CHECK(read_binary_file(only) == original);
        CHECK(read_binary_file(blocks) == bc1_blocks(16));
        CHECK(read_binary_file(dds) == read_binary_file(z));  // y.dds untouched (z.dds has the same bytes)
        CHECK(!fs::exists(d + "/new.png"));                    // nothing written before the refusal
        CHECK(temp_files(d).empty());
    }
    CHECK(fs::is_symlink(d + "/link.ktx2"));
    CHECK(fs::is_symlink(d + "/out/z.raw"));
}

// ---- item 8 ----------------------------------------------------------------------------------

TEST_CASE("CLI writes every output atomically: a failed write keeps the old output, no temporary file", "[cli][safety][gpu]") {
    if (!cli_has_device()) return;
    const std::string d = dir("atomic");
    const std::string in = write_dds(d + "/in.dds");
    const std::vector<uint8_t> old_json = bytes_of("{\"old\": true}\n");
    // Every writer, then the fsync and rename steps; --json=FILE in every run.
    struct Case {
        std::string fault, extension, options;
    };
    std::vector<Case> cases;
    for (const char* ext : {"png", "tga", "exr", "hdr", "ktx2", "raw"}) cases.push_back({"write", ext, ""});
    cases.push_back({"fsync", "png", ""});
    cases.push_back({"rename", "raw", ""});
    cases.push_back({"fsync", "ktx2", ""});
    for (const Case& c : cases) {
        const std::string out = d + "/out." + c.extension, json = d + "/results.json";
        const std::vector<uint8_t> old = bytes_of("previous " + c.extension + " output");
        write_binary_file(out, old);
        write_binary_file(json, old_json);
        INFO(c.fault << " fault, ." << c.extension);
        const int code = run_cli_command("TEXDEC_CLI_WRITE_FAULT=" + c.fault + " " + cli_path() + " decode " +
                                         c.options + in + " " + out + " --json=" + json);
        const std::string err = last_cli_stderr();
        INFO(err);
        CHECK(code == 4);
        CHECK(contains(err, "'" + out + "'"));
        CHECK(contains(err, "cannot write the JSON results"));
        CHECK(read_binary_file(out) == old);
        CHECK(read_binary_file(json) == old_json);
        CHECK(temp_files(d).empty());
    }

    // Without a fault the output is replaced whole and keeps its permission bits.
    const std::string out = d + "/out.raw";
    write_binary_file(out, bytes_of("previous"));
    fs::permissions(out, fs::perms::owner_read | fs::perms::owner_write);
    REQUIRE(run_cli("decode " + in + " " + out) == 0);
    CHECK(read_binary_file(out).size() == 16 * 16 * 4);
    CHECK(fs::status(out).permissions() == (fs::perms::owner_read | fs::perms::owner_write));
    CHECK(temp_files(d).empty());
}

TEST_CASE("CLI outputs: a real file-size limit, SIGTERM and SIGKILL never leave a partial output", "[cli][safety][gpu]") {
    if (!cli_has_device()) return;
    const std::string d = dir("killed");
    // 64 x 64 texels of RGBA8: 16 KiB of raw texels, far above a 2-block file-size limit.
    const std::string in = d + "/in.dds";
    write_binary_file(in, legacy_dds(LegacyDdsHeader{{'D', 'X', 'T', '1'}, 64, 64}, bc1_blocks(256)));
    const std::string out = d + "/out.raw";
    const std::vector<uint8_t> old = bytes_of("previous output");
    // Writes `old` to `out`, then decodes `in` over it with TEXDEC_CLI_WRITE_FAULT=`fault`; the wait status.
    auto decode_with_fault = [&](const std::string& fault) {
        write_binary_file(out, old);
        return spawn_and_wait("env TEXDEC_CLI_WRITE_FAULT=" + fault + " " + cli_path() + " decode " + in + " " + out +
                              " 2>/dev/null");
    };

    SECTION("the file-size limit (ulimit -f) makes a write fail: EFBIG, not a kill") {
        write_binary_file(out, old);
        // No shader cache writes either (they would meet the same limit).
        const int code =
            run_cli_command("ulimit -f 2; MESA_SHADER_CACHE_DISABLE=true " + cli_path() + " decode " + in + " " + out);
        const std::string err = last_cli_stderr();
        INFO(err);
        CHECK(code == 4);
        CHECK(contains(err, "cannot write '" + out + "'"));
        CHECK(read_binary_file(out) == old);
        CHECK(temp_files(d).empty());
    }
    SECTION("SIGTERM halfway through a write: the temporary file is removed, the output unchanged") {
        const int status = decode_with_fault("sigterm");
        CHECK(WIFSIGNALED(status));
        CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM));
        CHECK(read_binary_file(out) == old);
        CHECK(temp_files(d).empty());
    }
    SECTION("SIGKILL halfway through a write: the output is unchanged (only the temporary file may stay)") {
        const int status = decode_with_fault("sigkill");
        CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL));
        CHECK(read_binary_file(out) == old);
        const std::vector<std::string> left = temp_files(d);
        CHECK(left.size() <= 1);
        for (const std::string& t : left) {
            CHECK(contains(t, "/.out.raw.tmp-"));
            CHECK(fs::file_size(t) == 16 * 1024 / 2);  // the half the fault wrote
            fs::remove(t);
        }
    }
}

TEST_CASE("CLI output links: written through, devices written in place, never replaced", "[cli][safety][gpu]") {
    if (!cli_has_device()) return;
    const std::string d = dir("links");
    const std::string in = write_dds(d + "/in.dds");
    fs::create_symlink("target.raw", d + "/link.raw");  // dangling: the decode creates the target
    REQUIRE(run_cli("decode " + in + " " + d + "/link.raw") == 0);
    CHECK(fs::is_symlink(d + "/link.raw"));
    CHECK(fs::file_size(d + "/target.raw") == 16 * 16 * 4);
    write_binary_file(d + "/target.raw", bytes_of("stale"));
    REQUIRE(run_cli("decode " + in + " " + d + "/link.raw") == 0);
    CHECK(fs::is_symlink(d + "/link.raw"));
    CHECK(fs::file_size(d + "/target.raw") == 16 * 16 * 4);
    // A device is written in place: /dev/null stays a character device.
    fs::create_symlink("/dev/null", d + "/null.raw");
    REQUIRE(run_cli("decode " + in + " " + d + "/null.raw") == 0);
    CHECK(fs::is_character_file("/dev/null"));
    CHECK(fs::is_symlink(d + "/null.raw"));
    // ... and its write errors are reported: /dev/full.
    fs::create_symlink("/dev/full", d + "/full.raw");
    CHECK(run_cli("decode " + in + " " + d + "/full.raw") == 4);
    CHECK(contains(last_cli_stderr(), "No space left on device"));
    CHECK(fs::is_character_file("/dev/full"));
    CHECK(temp_files(d).empty());
    CHECK(temp_files("/dev").empty());
}

// ---- item 9 ----------------------------------------------------------------------------------

TEST_CASE("CLI refuses /dev/zero, a FIFO and a directory as inputs, at once and with a message", "[cli][safety]") {
    const std::string d = dir("special");
    REQUIRE(mkfifo((d + "/fifo.dds").c_str(), 0600) == 0);  // nobody writes it: opening must not wait
    fs::create_directories(d + "/folder.dds");
    // A bounded address space too: reading /dev/zero until memory runs out must not hurt the machine.
#if defined(__SANITIZE_ADDRESS__)
    const std::string limit = "";
#else
    const std::string limit = "ulimit -v 4194304; ";
#endif
    struct Case {
        std::string input, kind;
    };
    // A single decode and info refuse them before a device is made; a batch fails that file.
    const bool device = cli_has_device();
    for (const Case& c : {Case{"/dev/zero", "a character device"}, Case{d + "/fifo.dds", "a FIFO (named pipe)"}}) {
        std::vector<std::string> runs = {"decode " + c.input + " " + d + "/out.png", "info " + c.input};
        if (device) runs.push_back("decode --out-dir " + d + "/batch " + c.input);
        for (const std::string& args : runs) {
            INFO(args);
            const int code = run_cli_command(limit + "timeout 30 " + cli_path() + " " + args);
            const std::string err = last_cli_stderr();
            INFO(err);
            CHECK(code == 3);
            CHECK(contains(err, "'" + c.input + "' is " + c.kind + ", not a regular file"));
        }
    }
    CHECK(run_cli("info " + d + "/folder.dds") == 3);
    CHECK(contains(last_cli_stderr(), "'" + d + "/folder.dds' is a directory, not a regular file"));
    CHECK(!fs::exists(d + "/out.png"));
}

TEST_CASE("CLI reads only what a file's header describes: info and decode of files with gigabytes unread", "[cli][safety]") {
    const std::string d = dir("bounded");
    // A header that describes 8 MiB of BC1 blocks (4096 x 4096), in a 1 GiB file that is a hole.
    const std::vector<uint8_t> header = legacy_dds(LegacyDdsHeader{{'D', 'X', 'T', '1'}, 4096, 4096}, {});
    write_sparse(d + "/big.dds", header, uint64_t(1) << 30);
    long peak_kib = 0;
    CHECK(run_measured("exec " + cli_path() + " info " + d + "/big.dds >/dev/null 2>&1", d, peak_kib) == 0);
    INFO("peak resident memory of info: " << peak_kib << " KiB");
    CHECK(peak_kib > 0);
    CHECK(peak_kib < 256 * 1024);

    // A small file with 2 GiB after its data: decoded, and the bytes after it never read.
    if (!cli_has_device()) return;
    std::vector<uint8_t> small = legacy_dds(LegacyDdsHeader{{'D', 'X', 'T', '1'}, 16, 16}, bc1_blocks(16));
    write_sparse(d + "/trailing.dds", small, uint64_t(2) << 30);
    const int code = run_measured(
        "exec " + cli_path() + " decode " + d + "/trailing.dds " + d + "/t.raw 2>" + d + "/err.txt", d, peak_kib);
    const std::vector<uint8_t> err = read_binary_file(d + "/err.txt");
    INFO(std::string(err.begin(), err.end()));
    INFO("peak resident memory of decode: " << peak_kib << " KiB");
    CHECK(code == 0);
    CHECK(fs::file_size(d + "/t.raw") == 16 * 16 * 4);
    CHECK(peak_kib < 1024 * 1024);
}

TEST_CASE("CLI refuses a 1 MiB zlib KTX 2 declaring a 32768x32768 BC7 level before allocating", "[cli][safety][gpu]") {
    if (!cli_has_device()) return;
    const std::string d = dir("memory");
    const std::string big = write_huge_zlib_ktx2(d + "/big.ktx2");
    const uint64_t inflated = uint64_t(1) << 30, decoded = uint64_t(4) << 30;

    // --max-memory: the message gives what the file needs and the limit.
    int code = run_cli("decode --max-memory 256M " + big + " " + d + "/out.png");
    std::string err = last_cli_stderr();
    INFO(err);
    CHECK(code == 3);
    CHECK(contains(err, "'" + big + "' needs "));
    CHECK(number_after(err, "needs ") >= inflated + decoded);
    CHECK(number_after(err, "memory limit of ") == uint64_t(256) << 20);
    CHECK(contains(err, "(--max-memory 256M)"));
    CHECK(contains(err, "inflated levels 1.0 GiB"));
    CHECK(contains(err, "decoded texels 4.0 GiB"));
    CHECK(!fs::exists(d + "/out.png"));
    // .raw and --verify change what is needed: no writer copies, one reference surface more.
    CHECK(run_cli("decode --max-memory 1G --verify " + big + " " + d + "/out.raw") == 3);
    CHECK(contains(last_cli_stderr(), "--verify reference 4.0 GiB"));
    CHECK(!contains(last_cli_stderr(), "writer"));

#if !defined(__SANITIZE_ADDRESS__)  // ASan reserves terabytes of address space: no RLIMIT_AS there
    // The default limit follows the address-space limit (half of it): under ulimit -v 2 GiB the file
    // is refused with a message, where an attempt to allocate would have failed with bad_alloc.
    code = run_cli_command("ulimit -v 2097152; " + cli_path() + " decode " + big + " " + d + "/out.png");
    err = last_cli_stderr();
    INFO(err);
    CHECK(code == 3);
    CHECK(number_after(err, "needs ") >= inflated + decoded);
    const uint64_t limit = number_after(err, "memory limit of ");
    CHECK(limit > 0);
    CHECK(limit <= uint64_t(1) << 30);
    CHECK(contains(err, "ulimit -v"));
    CHECK(!fs::exists(d + "/out.png"));
#endif
    // A bad SIZE is a usage error.
    CHECK(run_cli("decode --max-memory lots " + big + " " + d + "/out.png") == 2);
    CHECK(contains(last_cli_stderr(), "--max-memory 'lots' is not a size"));
    CHECK(run_cli("info --max-memory 1G " + big) == 2);
}

// ---- item 10 ---------------------------------------------------------------------------------

TEST_CASE("CLI --verify mismatch: the decoded output stays, exit code 5, as --help says", "[cli][safety][gpu]") {
    const std::string d = dir("verify");
    REQUIRE(run_cli_command(cli_path() + " --help > " + d + "/help.txt") == 0);
    const std::string help = read_text(d + "/help.txt");
    // The promise of --help (the README points to it): what is left behind on a mismatch.
    CHECK(contains(help, "On a mismatch the outputs are still written (the texels as decoded)"));

    if (!cli_has_device()) return;
    const std::string in = write_dds(d + "/in.dds"), out = d + "/out.raw", json = d + "/r.json";
    REQUIRE(run_cli("decode " + in + " " + d + "/clean.raw") == 0);
    const std::vector<uint8_t> clean = read_binary_file(d + "/clean.raw");
    const int code = run_cli_command("TEXDEC_CLI_VERIFY_FAULT=3 " + cli_path() + " decode --verify --json=" + json +
                                     " " + in + " " + out);
    INFO(last_cli_stderr());
    CHECK(code == 5);
    // The output holds what the GPU returned (the planted fault flipped bit 0 of texel 3).
    std::vector<uint8_t> want = clean;
    REQUIRE(want.size() == 16 * 16 * 4);
    want[3 * 4] ^= 1;
    CHECK(read_binary_file(out) == want);
    const std::string text = read_text(json);
    CHECK(contains(text, "\"status\": \"mismatch\""));
    CHECK(contains(text, out));
}

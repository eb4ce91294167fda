// astc-gpu-decode interrupted by real signals (issue 34, item 2): a batch of many small files decoded
// on the CPU backend with --jobs 8 and --jobs 1 gets SIGINT, SIGTERM or SIGHUP at a random moment of
// the run, over many runs; and a run whose stderr is a pipe gets SIGPIPE when the pipe's reader goes
// away. After every run no temporary file (".NAME.tmp-PID-N") may be left in the output folder,
// every output present must be whole, and the run must end as --help says an interrupted run ends:
// killed by that signal (its temporary files removed first).
#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <random>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "support/cli_runner.h"
#include "support/container_files.h"

extern char** environ;

using namespace texdec_test;

namespace {

namespace fs = std::filesystem;

constexpr uint32_t kSide = 32;                              // each input: 32 x 32 BC1 texels
constexpr size_t kInputs = 400;                             // files per batch
constexpr size_t kOutputBytes = size_t(kSide) * kSide * 4;  // one .raw RGBA8 output

// `count` 32 x 32 DXT1 files, each of its own bytes.
void write_inputs(const std::string& folder, size_t count) {
    for (size_t f = 0; f < count; ++f) {
        std::vector<uint8_t> blocks(size_t(kSide / 4) * (kSide / 4) * 8);
        for (size_t i = 0; i < blocks.size(); ++i) blocks[i] = uint8_t(i * 37 + f * 11 + 5);
        char name[32];
        std::snprintf(name, sizeof name, "/in%04zu.dds", f);
        write_binary_file(folder + name, legacy_dds(LegacyDdsHeader{{'D', 'X', 'T', '1'}, kSide, kSide}, blocks));
    }
}

// What a run left in `out`: temporary files, whole outputs, and outputs of another size.
struct Left {
    std::vector<std::string> temps, partial;
    size_t outputs = 0;
};

Left look_at(const std::string& out) {
    Left left;
    for (const auto& entry : fs::recursive_directory_iterator(out)) {
        const std::string name = entry.path().filename().string();
        if (name == "r.json") continue;  // --json=FILE: written at the end, checked by its temporary file only
        if (contains(name, ".tmp-")) left.temps.push_back(name);
        else if (entry.file_size() == kOutputBytes) ++left.outputs;
        else left.partial.push_back(name);
    }
    return left;
}

// Starts the CLI (no shell between: the signal goes to the tool itself) with the signals this test
// sends at their default action whatever this process inherited, stdout to /dev/null and stderr to
// /dev/null or to `stderr_fd`.
pid_t start_cli(const std::vector<std::string>& args, int stderr_fd = -1) {
    std::vector<std::string> all = {cli_path()};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    if (stderr_fd >= 0) posix_spawn_file_actions_adddup2(&actions, stderr_fd, 2);
    else posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t defaults, none;
    sigemptyset(&defaults);
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) sigaddset(&defaults, sig);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    pid_t pid = 0;
    const int error = posix_spawn(&pid, argv[0], &actions, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    REQUIRE(error == 0);
    return pid;
}

int wait_for(pid_t pid) {
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    return status;
}

std::string status_text(int status) {
    if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
    if (WIFEXITED(status)) return "exit code " + std::to_string(WEXITSTATUS(status));
    return "wait status " + std::to_string(status);
}

std::vector<std::string> batch_args(const std::string& in, const std::string& out, const char* jobs) {
    return {"decode", "--backend", "cpu", "--jobs", jobs, "--to", "raw", "--out-dir", out, "--json=" + out + "/r.json",
            in};
}

}  // namespace

TEST_CASE("CLI interrupted by SIGINT, SIGTERM, SIGHUP at random moments of a batch: no temporary file stays",
          "[cli][safety][interrupt]") {
    const std::string in = fresh_cli_dir("interrupt-in");
    // What --help promises, and what this test holds the tool to.
    REQUIRE(run_cli_command(cli_path() + " --help > " + in + "/help.txt") == 0);
    const std::string help = compact(read_text(in + "/help.txt"));
    CHECK(contains(help, "removes every one it made and ends killed by that signal"));
    CHECK(contains(help, "Interrupted by SIGINT (Ctrl-C), SIGTERM, SIGHUP or SIGPIPE"));
    write_inputs(in, kInputs);
    std::random_device seed_source;
    const uint32_t seed = seed_source();
    INFO("random seed " << seed);
    std::mt19937 random(seed);

    // {--jobs, runs}: a run takes 0.1 to 0.6 s on a 2-core machine (more while its disk is busy).
    for (const auto& [jobs, runs] : {std::pair{"8", 28}, std::pair{"1", 16}}) {
        const std::string out = fresh_cli_dir(std::string("interrupt-out") + jobs);
        // One whole run first: every output written, and how long a run takes.
        const auto started = std::chrono::steady_clock::now();
        const int whole = wait_for(start_cli(batch_args(in, out, jobs)));
        double run_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
        INFO("--jobs " << jobs << ": an uninterrupted run took " << run_ms << " ms");
        REQUIRE(status_text(whole) == "exit code 0");
        Left left = look_at(out);
        REQUIRE(left.outputs == kInputs);
        REQUIRE(left.temps.empty());

        int interrupted = 0, run = 0;
        std::vector<std::string> failures;
        // At most 10 s per --jobs (fsync is slow when the machine's disk is busy), at least 8 runs.
        const auto first = std::chrono::steady_clock::now();
        for (; run < runs && (run < 8 || std::chrono::steady_clock::now() - first < std::chrono::seconds(10)); ++run) {
            fs::remove_all(out);
            fs::create_directories(out);
            const int sig = run % 3 == 0 ? SIGINT : run % 3 == 1 ? SIGTERM : SIGHUP;
            // Anywhere from the start to near the end of a run (most moments fall among the writes).
            const double delay_ms = std::uniform_real_distribution<double>(0.02, 0.8)(random) * run_ms;
            const auto run_started = std::chrono::steady_clock::now();
            const pid_t pid = start_cli(batch_args(in, out, jobs));
            std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(delay_ms));
            kill(pid, sig);
            const int status = wait_for(pid);
            left = look_at(out);
            const bool killed = WIFSIGNALED(status) && WTERMSIG(status) == sig;
            const bool finished_first = WIFEXITED(status) && WEXITSTATUS(status) == 0 && left.outputs == kInputs;
            if (finished_first)  // runs got faster than the first (ctest -j ended other work): aim earlier
                run_ms =
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - run_started).count();
            interrupted += killed;
            std::string what = "run " + std::to_string(run) + ", signal " + std::to_string(sig) + " after " +
                               std::to_string(int(delay_ms)) + " ms: " + status_text(status) + ", " +
                               std::to_string(left.outputs) + " outputs";
            if (!killed && !finished_first) failures.push_back(what + ": not the interrupted run's status");
            for (const std::string& t : left.temps) failures.push_back(what + ": temporary file left: " + t);
            for (const std::string& p : left.partial) failures.push_back(what + ": output of another size: " + p);
        }
        INFO("--jobs " << jobs << ": " << interrupted << " of " << run << " runs ended by the signal");
        for (const std::string& f : failures) UNSCOPED_INFO(f);
        CHECK(failures.empty());
        CHECK(interrupted >= run / 2);  // most moments fell inside the runs (a loaded machine varies)
    }
}

TEST_CASE("CLI whose stderr pipe is closed mid-batch ends by SIGPIPE with no temporary file left",
          "[cli][safety][interrupt]") {
    const std::string in = fresh_cli_dir("sigpipe-in");
    write_inputs(in, kInputs);
    const std::string out = fresh_cli_dir("sigpipe-out");
    std::vector<std::string> failures;
    int piped = 0;
    for (int run = 0; run < 12; ++run) {
        fs::remove_all(out);
        fs::create_directories(out);
        int fds[2];
        REQUIRE(pipe2(fds, O_CLOEXEC) == 0);  // the tool holds only the write end (as its stderr)
        const pid_t pid = start_cli(batch_args(in, out, "8"), fds[1]);
        close(fds[1]);
        // The first progress lines, then the reader goes away (as `| head -3` does).
        char buffer[256];
        int lines = 0;
        while (lines < 3 + run % 4) {
            const ssize_t n = read(fds[0], buffer, sizeof buffer);
            if (n <= 0) break;
            for (ssize_t i = 0; i < n; ++i) lines += buffer[i] == '\n';
        }
        close(fds[0]);
        const int status = wait_for(pid);
        const Left left = look_at(out);
        const bool killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE;
        piped += killed;
        const std::string what = "run " + std::to_string(run) + ": " + status_text(status) + ", " +
                                 std::to_string(left.outputs) + " outputs";
        if (!killed && !(WIFEXITED(status) && left.outputs == kInputs))
            failures.push_back(what + ": not the status of a run whose stderr went away");
        for (const std::string& t : left.temps) failures.push_back(what + ": temporary file left: " + t);
        for (const std::string& p : left.partial) failures.push_back(what + ": output of another size: " + p);
    }
    for (const std::string& f : failures) UNSCOPED_INFO(f);
    CHECK(failures.empty());
    CHECK(piped >= 9);
}

// astc-gpu-decode never lets one output of a run replace another (issue 34, item 1): two batch inputs
// with one output name, an image output that is also the --json file (the same path, another
// spelling, a symbolic link, a hard link), a --json file named like one of --level all's outputs,
// the same input given twice. Each is refused with exit code 2 and a message naming both inputs or
// outputs, before anything is decoded or written (not even --out-dir is created). Names that differ
// only in case are different files on Linux and both written. And safe_output's last check, as the
// CLI turns it on: a write to a file the process already wrote is refused.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "safe_output.h"
#include "support/cli_runner.h"
#include "support/container_files.h"

using namespace texdec_test;

namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> bc1_blocks(size_t blocks, uint8_t seed) {
    std::vector<uint8_t> data(blocks * 8);
    for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(i * 37 + seed);
    return data;
}

// A 16 x 16 DXT1 file (`mips` levels: 16x16, 8x8, ...).
std::string write_dds(const std::string& path, uint8_t seed, uint32_t mips = 1) {
    LegacyDdsHeader h{{'D', 'X', 'T', '1'}, 16, 16};
    size_t blocks = 0;
    for (uint32_t l = 0, side = 16; l < mips; ++l, side /= 2) blocks += size_t((side + 3) / 4) * ((side + 3) / 4);
    if (mips > 1) h.mip_count = mips;
    write_binary_file(path, legacy_dds(h, bc1_blocks(blocks, seed)));
    return path;
}

// Every file below `folder`, as paths relative to it, sorted.
std::vector<std::string> listing(const std::string& folder) {
    std::vector<std::string> names;
    for (const auto& entry : fs::recursive_directory_iterator(folder))
        names.push_back(fs::relative(entry.path(), folder).string() +
                        (fs::is_symlink(entry.symlink_status()) ? "@" : ""));
    std::sort(names.begin(), names.end());
    return names;
}

std::vector<uint8_t> bytes_of(const std::string& text) { return {text.begin(), text.end()}; }

}  // namespace

TEST_CASE("CLI refuses two outputs of one run that are the same file, before anything is written",
          "[cli][safety][clash]") {
    const std::string d = fresh_cli_dir("clash");
    fs::create_directories(d + "/d1");
    fs::create_directories(d + "/d2");
    fs::create_directories(d + "/r1/sub");
    fs::create_directories(d + "/r2/sub");
    fs::create_directories(d + "/s");
    fs::create_directories(d + "/o");
    const std::string a1 = write_dds(d + "/d1/a.dds", 1), a2 = write_dds(d + "/d2/a.dds", 2);
    write_dds(d + "/r1/sub/t.dds", 3);
    write_dds(d + "/r2/sub/t.dds", 4);
    const std::string x = write_dds(d + "/x.dds", 5);
    const std::string mips = write_dds(d + "/mips.dds", 6, 3);
    // Three inputs of which two keep their whole names (a.dds, a.ktx) and the third's stem is that name.
    const std::string s1 = write_dds(d + "/s/a.dds", 7), s3 = write_dds(d + "/s/a.dds.ktx", 8);
    write_binary_file(d + "/s/a.ktx", bc1_blocks(4, 9));
    // Outputs that exist already, and links to them.
    const std::vector<uint8_t> old = bytes_of("previous output");
    write_binary_file(d + "/o/x.png", old);
    fs::create_symlink("x.png", d + "/o/link.json");           // a symbolic link to the image output
    fs::create_symlink("new.png", d + "/o/dangling.json");     // to an image output not written yet
    fs::create_hard_link(d + "/o/x.png", d + "/o/hard.json");  // a hard link to it
    fs::create_directories(d + "/o/sub");
    fs::create_directory_symlink("sub", d + "/o/sublink");  // another spelling of o/sub
    const std::vector<std::string> before = listing(d);
    // What --help promises.
    REQUIRE(run_cli_command(cli_path() + " --help > " + fresh_cli_dir("clash-help") + "/help.txt") == 0);
    const std::string help = compact(read_text(cli_temp_dir() + "/clash-help/help.txt"));
    CHECK(contains(help, "So are two outputs of one run that are the same file"));
    CHECK(contains(help, "refused before anything is written (exit code 2): no name is made up."));

    struct Case {
        const char* what;
        std::string args;
        std::vector<std::string> named;  // the message names each
    };
    const std::string out = d + "/out";  // never created: every case is refused before anything is written
    const std::vector<Case> cases = {
        {"two batch inputs with one file name",
         "decode --out-dir " + out + " " + a1 + " " + a2,
         {"inputs '" + a1 + "' and '" + a2 + "' would both be decoded to '" + out + "/a.dds.png'"}},
        {"two batch inputs with one file name, --to",
         "decode --to raw --out-dir " + out + " " + a1 + " " + a2,
         {"'" + a1 + "'", "'" + a2 + "'", "'" + out + "/a.dds.raw'"}},
        {"-r: two folders with the same relative path",
         "decode -r --to ktx2 --out-dir " + out + " " + d + "/r1 " + d + "/r2",
         {"'" + d + "/r1/sub/t.dds'", "'" + d + "/r2/sub/t.dds'", "'" + out + "/sub/t.dds.ktx2'"}},
        {"the same input twice", "decode --out-dir " + out + " " + x + " " + x, {"inputs '" + x + "' and '" + x + "'"}},
        {"a whole name that is another input's stem",
         "decode --to raw --out-dir " + out + " " + s1 + " " + d + "/s/a.ktx " + s3,
         {"'" + s1 + "'", "'" + s3 + "'", "'" + out + "/a.dds.raw'"}},
        {"a batch output that is also the --json file",
         "decode --to raw --out-dir " + out + " " + x + " --json=" + out + "/x.raw",
         {"output '" + out + "/x.raw' of input '" + x + "'", "the --json file '" + out + "/x.raw'"}},
        {"IN OUT with --json=OUT",
         "decode " + x + " " + d + "/o/new.png --json=" + d + "/o/new.png",
         {"output '" + d + "/o/new.png' of input '" + x + "'", "the --json file '" + d + "/o/new.png'"}},
        {"IN OUT with --json=OUT spelled another way",
         "decode " + x + " " + d + "/o/new.png --json=" + d + "/o/./../o//new.png",
         {"output '" + d + "/o/new.png' of input '" + x + "'", "the --json file '" + d + "/o/./../o//new.png'"}},
        {"through a linked folder",
         "decode " + x + " " + d + "/o/sub/y.png --json=" + d + "/o/sublink/y.png",
         {"'" + d + "/o/sub/y.png'", "'" + d + "/o/sublink/y.png'"}},
        {"a relative spelling",
         "decode " + x + " " + d + "/o/new.png --json=" + fs::relative(d + "/o/new.png").string(),
         {"'" + d + "/o/new.png'"}},
        {"--json a symbolic link to the image output",
         "decode " + x + " " + d + "/o/x.png --json=" + d + "/o/link.json",
         {"'" + d + "/o/x.png'", "'" + d + "/o/link.json'"}},
        {"--json a dangling link to the image output",
         "decode " + x + " " + d + "/o/new.png --json=" + d + "/o/dangling.json",
         {"'" + d + "/o/new.png'", "'" + d + "/o/dangling.json'"}},
        {"--json a hard link to the image output",
         "decode " + x + " " + d + "/o/x.png --json=" + d + "/o/hard.json",
         {"'" + d + "/o/x.png'", "'" + d + "/o/hard.json'"}},
        {"--json named like an output of --level all",
         "decode --level all " + mips + " " + d + "/o/m.png --json=" + d + "/o/m-mip1.png",
         {"the --json file '" + d + "/o/m-mip1.png'", "input '" + mips + "'", "'" + d + "/o/m-mip<N>.png'"}},
        {"--json named like an output of --level all --face all",
         "decode --level all --face all " + mips + " " + d + "/o/m.tga --json=" + d + "/o/m-mip0-face0.tga",
         {"the --json file '" + d + "/o/m-mip0-face0.tga'", "'" + d + "/o/m-mip<N>-face<N>.tga'"}},
    };
    for (const Case& c : cases) {
        INFO(c.what << ": " << c.args);
        const int code = run_cli_command(cli_path() + " --backend cpu " + c.args);
        const std::string err = last_cli_stderr();
        INFO(err);
        CHECK(code == 2);
        for (const std::string& part : c.named) CHECK(contains(err, part));
        CHECK(listing(d) == before);  // nothing written, no folder made
        CHECK(read_binary_file(d + "/o/x.png") == old);
    }

    // Not clashes: --level all's outputs beside a --json file with another suffix, or without digits;
    // names differing only in case (different files on Linux); distinct files in one folder.
    const std::string ok = fresh_cli_dir("clash-ok");
    REQUIRE(run_cli_command(cli_path() + " --backend cpu decode --level all " + mips + " " + ok +
                            "/m.png --json=" + ok + "/m-mipX.png") == 0);
    CHECK(fs::exists(ok + "/m-mip0.png"));
    CHECK(fs::exists(ok + "/m-mip2.png"));
    CHECK(fs::exists(ok + "/m-mipX.png"));
    REQUIRE(run_cli_command(cli_path() + " --backend cpu decode " + x + " " + ok + "/A.png --json=" + ok + "/a.png") ==
            0);
    CHECK(read_binary_file(ok + "/A.png").size() > 8);
    CHECK(read_text(ok + "/a.png").rfind("{", 0) == 0);  // the JSON
    REQUIRE(run_cli_command(cli_path() + " --backend cpu decode --out-dir " + ok + "/batch " + a1 + " " + x) == 0);
    CHECK(fs::exists(ok + "/batch/a.png"));
    CHECK(fs::exists(ok + "/batch/x.png"));
    // A device is written in place, never replaced: the image (through a link) and the JSON may both
    // go to /dev/null.
    fs::create_symlink("/dev/null", ok + "/null.png");
    CHECK(run_cli_command(cli_path() + " --backend cpu decode " + x + " " + ok + "/null.png --json=/dev/null") == 0);
    CHECK(fs::is_symlink(ok + "/null.png"));
}

TEST_CASE("safe_output: with rewrites refused, a file the process wrote is not replaced by another name for it",
          "[cli][safety][clash]") {
    const std::string d = fresh_cli_dir("clash-written");
    const std::string first = d + "/first.raw";
    struct Refusing {  // off again however the case ends: other cases write a file several times
        Refusing() { safe_output::refuse_rewriting_outputs(true); }
        ~Refusing() { safe_output::refuse_rewriting_outputs(false); }
    };
    std::optional<Refusing> refusing(std::in_place);
    const safe_output::Result wrote = safe_output::write_file(first, "first output");
    REQUIRE(wrote.ok);
    // Another name for the same file, made after it was written (on a file system that ignores
    // case, "FIRST.RAW" would be one): refused as a usage error, naming both.
    fs::create_hard_link(first, d + "/second.raw");
    fs::create_symlink("first.raw", d + "/third.raw");
    for (const std::string& other : {d + "/second.raw", d + "/third.raw"}) {
        INFO(other);
        const safe_output::Result again = safe_output::write_file(other, "second output");
        CHECK_FALSE(again.ok);
        CHECK(again.same_as_input);  // a usage error (exit code 2), as an output that is an input
        CHECK(contains(again.message, "'" + other + "'"));
        CHECK(contains(again.message, "'" + first + "'"));
        CHECK(read_text(first) == "first output");
    }
    refusing.reset();
    CHECK(safe_output::write_file(d + "/second.raw", "now allowed").ok);
}

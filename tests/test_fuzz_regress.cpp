// Truncated and corrupted versions of real texture files through the container parsers
// (src/cli: dds, ktx, ktx2, pkm, astc_file), in-process: each must be parsed with every surface
// inside the file or refused with a message naming the problem (the contract of
// support/parser_checks.h, the one the fuzzers in tests/fuzz check). Real files: the bundled
// samples (samples/*.dds, *.astc) and, when TEXDEC_CORPUS is set, every .dds / .ktx / .ktx2 /
// .pkm / .astc under it; plus the generated files of every layout (support/container_samples.h,
// also the fuzzers' seeds: the only KTX 2 files, as the corpus has none) and the inputs of past
// fuzzer findings. Per file: every truncation length (for files over 8 KiB: every length up to
// 4 KiB, 2048 spread over the rest and those around each surface's ends) and 2000 deterministic
// corruptions of 1-4 bytes (three in four in the first 512 bytes, where the headers are). Under
// AddressSanitizer the bytes past a truncation are poisoned, so a read beyond the given length is
// reported though the buffer is longer. Then a handful through the CLI: exit code 3, an "error:" line.
#include <catch2/catch.hpp>

#include <sanitizer/asan_interface.h>  // ASAN_(UN)POISON_MEMORY_REGION: no-ops without ASan

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "astc_file.h"  // src/cli
#include "dds.h"
#include "ktx.h"
#include "ktx2.h"
#include "pkm.h"
#include "support/cli_runner.h"
#include "support/container_samples.h"
#include "support/parser_checks.h"

using namespace texdec_test;

namespace {

// What the intact file must do: parse (every level's data too), be refused, or either (corpus
// files: some are uncompressed KTX files or deliberately malformed).
enum class Intact { Parses, Refused, Either };

struct InputFile {
    std::string name;  // path, or the generated file's name
    Container container;
    std::vector<uint8_t> bytes;
    Intact intact;
};

// The whole file, read at once (a byte iterator is slow in the Debug + ASan build).
std::vector<uint8_t> read_whole_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::vector<uint8_t> bytes(std::filesystem::file_size(path));
    in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(bytes.size()));
    REQUIRE(in.gcount() == std::streamsize(bytes.size()));
    return bytes;
}

uint64_t splitmix(uint64_t& state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// The bundled samples, then every container file under $TEXDEC_CORPUS (sorted, for a stable order).
std::vector<InputFile> real_files(size_t& corpus_files) {
    std::vector<InputFile> files;
    // The samples' paths honour $TEXDEC_SAMPLE / $TEXDEC_ASTC_SAMPLE (a binary run away from its tree).
    for (const std::string& path : {cli_sample_bc3(), cli_sample_astc()}) {
        files.push_back({path, *container_from_extension(std::filesystem::path(path).extension().string()),
                         read_whole_file(path), Intact::Parses});
        REQUIRE(files.back().bytes.size() > 1000);
    }
    corpus_files = 0;
    const char* corpus = std::getenv("TEXDEC_CORPUS");
    if (!corpus || !*corpus) return files;
    REQUIRE(std::filesystem::is_directory(corpus));
    std::vector<std::filesystem::path> paths;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(corpus))
        if (entry.is_regular_file() && container_from_extension(entry.path().extension().string()))
            paths.push_back(entry.path());
    std::sort(paths.begin(), paths.end());
    for (const auto& p : paths) {
        files.push_back({p.string(), *container_from_extension(p.extension().string()), read_whole_file(p), Intact::Either});
        ++corpus_files;
    }
    return files;
}

struct Tally {
    size_t files = 0, parsed_intact = 0, wrong_intact = 0, runs = 0, accepted = 0, refused = 0, violations = 0;
    std::map<std::string, size_t> files_per_container;
    std::vector<std::string> first_violations;  // up to 10, with the file and the change
};

// Runs the check on the first `length` bytes of `work` (whose bytes past `length` are poisoned
// under ASan) and records the outcome.
template <class Describe>  // () -> std::string naming the change; called only for a violation
void run_one(const InputFile& f, std::vector<uint8_t>& work, size_t length, bool touch, const Describe& change,
             Tally& tally) {
    ASAN_POISON_MEMORY_REGION(work.data() + length, work.size() - length);
    const ParserCheck r = check_parser(f.container, std::span<const uint8_t>(work.data(), length), touch);
    ASAN_UNPOISON_MEMORY_REGION(work.data() + length, work.size() - length);
    ++tally.runs;
    (r.parsed ? tally.accepted : tally.refused) += 1;
    if (!r.violation.empty()) {
        ++tally.violations;
        if (tally.first_violations.size() < 10)
            tally.first_violations.push_back(f.name + " (" + change() + "): " + r.violation);
    }
}

// The truncation lengths of a file: all of them for small files, else a dense sample.
std::vector<size_t> truncation_lengths(const InputFile& f) {
    const size_t n = f.bytes.size();
    std::set<size_t> lengths;
    if (n <= 8192) {
        for (size_t l = 0; l < n; ++l) lengths.insert(l);
        return {lengths.begin(), lengths.end()};
    }
    for (size_t l = 0; l <= 4096; ++l) lengths.insert(l);
    for (size_t i = 0; i < 2048; ++i) lengths.insert(4096 + (n - 4096) * i / 2048);
    // Around the ends of every surface the intact file has (where a check could be off by one).
    std::vector<size_t> ends;
    const std::span<const uint8_t> all(f.bytes);
    if (f.container == Container::Dds) {
        const dds::ParseResult r = dds::parse(all);
        if (const auto* t = std::get_if<dds::Texture>(&r))
            for (const auto& s : t->surfaces) ends.insert(ends.end(), {s.offset, s.offset + s.size});
    } else if (f.container == Container::Ktx) {
        const ktx::ParseResult r = ktx::parse(all);
        if (const auto* t = std::get_if<ktx::Texture>(&r))
            for (const auto& s : t->surfaces) ends.insert(ends.end(), {s.offset, s.offset + s.size});
    } else if (f.container == Container::Ktx2) {
        const ktx2::ParseResult r = ktx2::parse(all);
        if (const auto* t = std::get_if<ktx2::Texture>(&r))
            for (const auto& l : t->levels)
                ends.insert(ends.end(), {size_t(l.byte_offset), size_t(l.byte_offset + l.byte_length)});
    }
    for (size_t i = 0; i < ends.size() && i < 512; ++i)
        for (size_t e = ends[i] > 2 ? ends[i] - 2 : 0; e <= ends[i] + 2; ++e) lengths.insert(e);
    std::vector<size_t> out;
    for (size_t l : lengths)
        if (l < n) out.push_back(l);
    return out;
}

constexpr size_t kCorruptionsPerFile = 2000;
constexpr size_t kTouchLimit = 16 * 1024;  // bigger files: ranges compared, bytes not read (time under ASan)

void check_file(const InputFile& f, Tally& tally) {
    const bool touch = f.bytes.size() <= kTouchLimit;
    std::vector<uint8_t> work = f.bytes;
    const ParserCheck intact = check_parser(f.container, work, touch);
    const bool parsed = intact.parsed && intact.level_errors == 0;
    tally.parsed_intact += parsed;
    if (!intact.violation.empty()) {
        ++tally.violations;
        tally.first_violations.push_back(f.name + " (intact): " + intact.violation);
    }
    if ((f.intact == Intact::Parses && !parsed) || (f.intact == Intact::Refused && parsed)) {
        ++tally.wrong_intact;
        tally.first_violations.push_back(f.name + (parsed ? " parses, but must be refused" : " must parse: " + intact.error));
    }
    ++tally.files;
    ++tally.files_per_container[container_name(f.container)];
    for (size_t length : truncation_lengths(f))
        run_one(f, work, length, touch, [&] { return "cut to " + std::to_string(length); }, tally);
    if (work.empty()) return;
    uint64_t rng = 0xCBF29CE484222325ull;  // FNV-1a of the file name: the same corruptions on every machine
    for (char ch : std::filesystem::path(f.name).filename().string()) rng = (rng ^ uint8_t(ch)) * 0x100000001B3ull;
    const size_t header_span = std::min<size_t>(work.size(), 512);
    for (size_t i = 0; i < kCorruptionsPerFile; ++i) {
        const int bytes = 1 + int(splitmix(rng) % 4);
        size_t at[4];
        uint8_t old[4];
        for (int b = 0; b < bytes; ++b) {
            const uint64_t r = splitmix(rng);
            at[b] = (r & 3) ? size_t(r >> 8) % header_span : size_t(r >> 8) % work.size();
            old[b] = work[at[b]];
            work[at[b]] = uint8_t(r >> 2);  // may equal the old value: then only the others change
        }
        const auto change = [&] {
            std::string text = "corruption " + std::to_string(i) + ":";
            for (int b = 0; b < bytes; ++b) text += " [" + std::to_string(at[b]) + "]=" + std::to_string(work[at[b]]);
            return text;
        };
        run_one(f, work, work.size(), touch, change, tally);
        for (int b = bytes; b-- > 0;) work[at[b]] = old[b];
    }
    REQUIRE(work == f.bytes);
}

}  // namespace

TEST_CASE("fuzz regressions: truncated and corrupted real files get a parse or an error naming the problem",
          "[cli][fuzz-regress]") {
    size_t corpus_files = 0;
    std::vector<InputFile> files = real_files(corpus_files);
    const size_t real = files.size();
    const size_t generated = generated_container_samples().size(), findings = fuzz_finding_inputs().size();
    for (ContainerSample& s : generated_container_samples())
        files.push_back({s.name, s.container, std::move(s.bytes), Intact::Parses});
    for (ContainerSample& s : fuzz_finding_inputs())
        files.push_back({s.name, s.container, std::move(s.bytes), Intact::Refused});
    Tally tally;
    for (const InputFile& f : files) check_file(f, tally);
    std::string per_container;
    for (const auto& [name, count] : tally.files_per_container)
        per_container += (per_container.empty() ? "" : ", ") + std::to_string(count) + " " + name;
    const char* corpus = std::getenv("TEXDEC_CORPUS");
    const std::string summary =
        "fuzz-regress: " + std::to_string(tally.files) + " files (" + std::to_string(real - corpus_files) +
        " bundled samples, " + std::to_string(corpus_files) + " from TEXDEC_CORPUS" +
        (corpus && *corpus ? "=" + std::string(corpus) : std::string(" (NOT SET: no corpus file checked)")) + ", " +
        std::to_string(generated) + " generated, " + std::to_string(findings) + " past fuzzer findings; " +
        per_container + "; " +
        std::to_string(tally.parsed_intact) + " parse intact), " + std::to_string(tally.runs) +
        " truncations and corruptions: " + std::to_string(tally.accepted) + " parsed, " +
        std::to_string(tally.refused) + " refused with a message, " + std::to_string(tally.violations) + " violations";
    std::fprintf(stderr, "%s\n", summary.c_str());
    WARN(summary);
    for (const std::string& v : tally.first_violations) UNSCOPED_INFO(v);
    CHECK(tally.violations == 0);
    CHECK(tally.wrong_intact == 0);
}

// The CLI on a few of them: a truncated and a corrupted copy (both refused by the parser, checked
// first) of each bundled sample and of the first corpus file of each container that parses.
TEST_CASE("fuzz regressions: truncated and corrupted real files through the CLI get exit code 3 and an error line",
          "[cli][fuzz-regress]") {
    size_t corpus_files = 0;
    std::vector<InputFile> picked;
    std::set<Container> corpus_containers;
    for (InputFile& f : real_files(corpus_files)) {
        const bool corpus = f.intact == Intact::Either;
        if (corpus && (corpus_containers.count(f.container) || !check_parser(f.container, f.bytes, false).parsed))
            continue;
        if (corpus) corpus_containers.insert(f.container);
        picked.push_back(std::move(f));
    }
    size_t runs = 0;
    for (const InputFile& f : picked) {
        std::vector<std::vector<uint8_t>> variants;
        variants.emplace_back(f.bytes.begin(), f.bytes.begin() + f.bytes.size() / 2);
        // The first corruption of 1-4 header bytes (fixed seed) that the parser refuses.
        uint64_t rng = 0xC0FFEE;
        for (int tries = 0; tries < 1000; ++tries) {
            std::vector<uint8_t> bad = f.bytes;
            for (int b = 1 + int(splitmix(rng) % 4); b-- > 0;) {
                const uint64_t r = splitmix(rng);
                bad[size_t(r >> 8) % std::min<size_t>(bad.size(), 128)] = uint8_t(r);
            }
            if (!check_parser(f.container, bad, false).parsed) {
                variants.push_back(std::move(bad));
                break;
            }
        }
        REQUIRE(variants.size() == 2);
        for (size_t v = 0; v < variants.size(); ++v) {
            const ParserCheck in_process = check_parser(f.container, variants[v], false);
            REQUIRE(!in_process.parsed);
            const std::string in = cli_temp_dir() + "/fuzz-regress-" + std::to_string(runs) + "." + container_name(f.container);
            write_binary_file(in, variants[v]);
            INFO(f.name << (v == 0 ? " cut in half" : " corrupted") << ": the parser says: " << in_process.error);
            const int rc = run_cli_command(cli_path() + " decode " + in + " " + cli_temp_dir() + "/fuzz-regress.png");
            const std::string err = last_cli_stderr();
            INFO("CLI stderr: " << err);
            CHECK(rc == 3);
            CHECK(err.find("error: ") != std::string::npos);
            ++runs;
        }
    }
    const std::string summary = "fuzz-regress CLI: " + std::to_string(runs) + " runs on " + std::to_string(picked.size()) +
                                " real files (" + std::to_string(corpus_containers.size()) + " from TEXDEC_CORPUS)";
    std::fprintf(stderr, "%s\n", summary.c_str());
    WARN(summary);
}

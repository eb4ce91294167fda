// write_seeds DIR: writes the fuzzers' seed corpus, DIR/<container>/<name> for dds, ktx, ktx2, pkm
// and astc: small valid files of every layout and the inputs of past findings
// (support/container_samples.h). Each is checked first (the valid ones parse, the findings are
// refused), so a seed that is not what it should be fails here instead of weakening the fuzzing.
#include <cstdio>
#include <filesystem>
#include <vector>
#include <fstream>

#include "support/container_samples.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUT_DIR\n", argv[0]);
        return 2;
    }
    namespace fs = std::filesystem;
    int written = 0;
    std::vector<texdec_test::ContainerSample> seeds = texdec_test::generated_container_samples();
    const size_t valid = seeds.size();
    for (texdec_test::ContainerSample& s : texdec_test::fuzz_finding_inputs()) seeds.push_back(std::move(s));
    for (size_t i = 0; i < seeds.size(); ++i) {
        const texdec_test::ContainerSample& s = seeds[i];
        const texdec_test::ParserCheck check = texdec_test::check_parser(s.container, s.bytes);
        const bool parsed = check.parsed && !check.level_errors;
        if (!check.violation.empty() || parsed != (i < valid)) {
            std::fprintf(stderr, "write_seeds: %s %s: %s%s\n", s.name.c_str(),
                         i < valid ? "does not parse" : "(a past finding) is not refused", check.error.c_str(),
                         check.violation.c_str());
            return 1;
        }
        const fs::path dir = fs::path(argv[1]) / texdec_test::container_name(s.container);
        fs::create_directories(dir);
        std::ofstream out(dir / s.name, std::ios::binary);
        out.write(reinterpret_cast<const char*>(s.bytes.data()), std::streamsize(s.bytes.size()));
        if (!out) {
            std::fprintf(stderr, "write_seeds: cannot write %s\n", (dir / s.name).c_str());
            return 1;
        }
        ++written;
    }
    std::printf("write_seeds: %d seed files under %s\n", written, argv[1]);
    return 0;
}

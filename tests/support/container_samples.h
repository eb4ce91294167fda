// Small valid files of every container and the layouts each can hold (mips, arrays, cube maps,
// volumes, both KTX 1 byte orders, KTX 2 without supercompression and with Zstandard and zlib,
// .astc 2D / 3D footprints and stacked slices), written by support/container_files.h with
// deterministic random blocks. The fuzzers' seeds (tests/fuzz/write_seeds.cpp) and extra inputs of
// the truncation / corruption test (test_fuzz_regress.cpp), which checks that each one parses.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "support/parser_checks.h"

namespace texdec_test {

struct ContainerSample {
    std::string name;  // file name, with the container's extension
    Container container;
    std::vector<uint8_t> bytes;
};

std::vector<ContainerSample> generated_container_samples();

// The inputs of past findings (each fixed; see the parser's comment and its regression test; one
// found by fuzz_ktx2, two seen in review and confirmed by the fuzzers' malloc limit): files the
// parsers must refuse, quickly and without a big allocation. Also seeds, so every fuzzing run
// tries them again under libFuzzer's malloc limit.
std::vector<ContainerSample> fuzz_finding_inputs();

}  // namespace texdec_test

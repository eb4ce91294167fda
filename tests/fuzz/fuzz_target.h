// The body of every libFuzzer target in this folder: one container parser on the input, its
// contract checked by support/parser_checks.h (every reported surface read, so AddressSanitizer
// sees any range outside the input; a KTX 2 file's levels all inflated; an error must carry a
// message). A broken contract aborts, which libFuzzer reports as a crash with the input saved.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "support/parser_checks.h"

namespace texdec_fuzz {

inline volatile uint64_t checksum_sink;  // keeps the byte sums (the reads) from being optimised away

inline int run_one(texdec_test::Container container, const uint8_t* data, size_t size) {
    const texdec_test::ParserCheck r = texdec_test::check_parser(container, {data, size}, true);
    if (!r.violation.empty()) {
        std::fprintf(stderr, "%s parser broke its contract on a %zu-byte input: %s\n",
                     texdec_test::container_name(container), size, r.violation.c_str());
        std::abort();
    }
    checksum_sink = checksum_sink + r.checksum;
    return 0;
}

}  // namespace texdec_fuzz

#define TEXDEC_FUZZ_TARGET(CONTAINER)                                              \
    extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {     \
        return texdec_fuzz::run_one(texdec_test::Container::CONTAINER, data, size); \
    }

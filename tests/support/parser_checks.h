// The contract of src/cli's container parsers (dds, ktx, ktx2, pkm, astc_file), checked on any
// input: a parser either accepts the file and every surface / level it reports lies inside the
// file with the size its extent and format need (and a KTX 2 level inflates to that size or gives
// an error with a message), or it returns an error whose message names the problem. Shared by the
// libFuzzer targets (tests/fuzz/) and the truncation / corruption test (test_fuzz_regress.cpp).
// Needs only the parsers and the format table (src/formats.cpp), no device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace texdec_test {

enum class Container { Dds, Ktx, Ktx2, Pkm, Astc };
constexpr Container kAllContainers[] = {Container::Dds, Container::Ktx, Container::Ktx2, Container::Pkm,
                                        Container::Astc};

const char* container_name(Container c);  // "dds", "ktx", "ktx2", "pkm", "astc" (also the file extension)
std::optional<Container> container_from_extension(std::string_view extension);  // ".ktx2" -> Ktx2; case-insensitive

struct ParserCheck {
    bool parsed = false;     // the parser accepted the file
    std::string error;       // its message when it did not (or the first KTX 2 level error)
    std::string violation;   // how the parser broke its contract; empty when it kept it
    size_t surfaces = 0;     // surfaces (KTX 2: levels) it reported
    size_t level_errors = 0; // KTX 2: levels whose data did not inflate (each with a message)
    uint64_t checksum = 0;   // sum of every byte of every reported surface (with touch_bytes)
};

// Runs the parser for `c` on `file` and checks its contract. With touch_bytes, reads every byte of
// every surface it reports (so AddressSanitizer checks the ranges) and, for KTX 2, inflates every
// level; without, only the ranges are compared with the file's size (big files, many runs).
ParserCheck check_parser(Container c, std::span<const uint8_t> file, bool touch_bytes = true);

}  // namespace texdec_test

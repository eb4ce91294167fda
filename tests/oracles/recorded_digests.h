// Recorded oracle answers, for machines where an oracle cannot run (DESIGN.md, "Tests and CI": the
// H100 machine has no room for Mesa GL and its LLVM). Where the oracle runs, each answer's digest is
// recorded under a key made from the input; elsewhere the same test decodes with texdec and accepts
// texdec's bytes as the oracle's answer only if their digest equals the recorded one. Every comparison
// a test then makes against "the oracle" holds against the oracle's own bytes, up to a collision of
// a 128-bit digest (two independent 64-bit hashes).
//
// The file is text, one answer per line: "KEY DIGEST_A DIGEST_B" in hex. It is made by a test run
// and read by another one with the same TEXDEC_TEST_SEED and TEXDEC_TEST_RANDOM_BLOCKS; it is never
// committed (it is data about one run, not a test vector).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace texdec_test {

struct OracleDigest {
    uint64_t a = 0, b = 0;
    bool operator==(const OracleDigest& o) const { return a == o.a && b == o.b; }
};

// The key of an oracle input: `tag` (which oracle, which format, the extent) and the input bytes.
uint64_t oracle_input_key(const std::string& tag, const uint8_t* data, size_t size);
// The digest of an answer.
OracleDigest oracle_answer_digest(const uint8_t* data, size_t size);
std::string to_string(const OracleDigest& d);

// Appends one line to `path` (thread-safe within the process). Throws std::runtime_error when the
// file cannot be written.
void record_oracle_digest(const std::string& path, uint64_t key, const OracleDigest& digest);

// The recorded digest for `key` in `path` (loaded once per path). Throws std::runtime_error when the
// file cannot be read or is malformed; returns false when the key is not in it.
bool find_recorded_digest(const std::string& path, uint64_t key, OracleDigest* digest);
// Number of answers recorded in `path` (loads it); throws like find_recorded_digest.
size_t recorded_digest_count(const std::string& path);

}  // namespace texdec_test

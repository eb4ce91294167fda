// Deterministic pseudo-random BC blocks. Most blocks are uniformly random bytes (every bit pattern
// is a valid BC1-BC5 block); one in eight gets its endpoints from the cases docs/EXACTNESS.md asks every
// test to hit (c0 == c1, 3-colour tie pairs, BC4 -128 / -127 / extremes), so a million random
// blocks also exercise those many times over.
#pragma once

#include <cstdint>
#include <vector>

#include "bc_formats.h"

namespace texdec_test {

// The seed used by every random test: TEXDEC_TEST_SEED from the environment, else a fixed value.
uint64_t test_seed();

// How many random blocks the big random tests use: TEXDEC_TEST_RANDOM_BLOCKS from the environment
// (the ASan run of .ci/test.sh lowers it), else 1,049,600 = 1024 x 1025 (the acceptance minimum is
// 1,000,000; just over 2^20 blocks and, for RGBA16F, just over lavapipe's 128 MiB
// maxStorageBufferRange, so the library has to split the job into several dispatches).
// Always a multiple of 1024 (rows of 1024 blocks), at least 1024.
size_t random_block_count();

// `count` blocks of `format`, tightly packed.
std::vector<uint8_t> random_blocks(const BcFormat& format, size_t count, uint64_t seed);

// splitmix64: small, fast, and good enough to spread bits over blocks.
struct SplitMix64 {
    uint64_t state;
    explicit SplitMix64(uint64_t seed) : state(seed) {}
    uint64_t next() {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
};

}  // namespace texdec_test

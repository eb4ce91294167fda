#include "random_blocks.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace texdec_test {
namespace {

void put16(uint8_t* p, unsigned v) { p[0] = uint8_t(v); p[1] = uint8_t(v >> 8); }

// Overwrites the two 16-bit colour endpoints at p with a special case.
void special_colour_endpoints(uint8_t* p, SplitMix64& rng) {
    const uint64_t r = rng.next();
    const unsigned c0 = unsigned(r >> 16) & 0xFFFF;
    switch (r % 4) {
    case 0:  // c0 == c1
        put16(p, c0);
        put16(p + 2, c0);
        break;
    case 1:
    case 2: {  // a 3-colour tie pair in every channel: R and B sum to 31, G to 21, 63 or 105
        static const unsigned green_sums[3] = {21, 63, 105};
        const unsigned gs = green_sums[(r >> 40) % 3];
        const unsigned r0 = unsigned(r >> 8) & 31, b0 = unsigned(r >> 32) & 31;
        unsigned g0 = unsigned(r >> 48) & 63;
        if (gs == 21) g0 %= 22;
        if (gs == 105) g0 = 42 + g0 % 22;
        const unsigned a = (r0 << 11) | (g0 << 5) | b0;
        const unsigned b = ((31 - r0) << 11) | ((gs - g0) << 5) | (31 - b0);
        // Case 1 puts the smaller first (3-colour in BC1), case 2 the larger.
        const bool smaller_first = (r % 4) == 1;
        put16(p, (a < b) == smaller_first ? a : b);
        put16(p + 2, (a < b) == smaller_first ? b : a);
        break;
    }
    default:  // extremes: black / white / pure channels
        static const unsigned extremes[6] = {0x0000, 0xFFFF, 0xF800, 0x07E0, 0x001F, 0x0001};
        put16(p, extremes[(r >> 8) % 6]);
        put16(p + 2, extremes[(r >> 24) % 6]);
        break;
    }
}

// Overwrites the two endpoint bytes of a BC4-style channel at p.
void special_channel_endpoints(uint8_t* p, SplitMix64& rng) {
    // -128, -127, -1, 0, 1, 126, 127 as bytes, plus 128 and 255 (unsigned extremes).
    static const uint8_t values[] = {0x80, 0x81, 0xFF, 0x00, 0x01, 0x7E, 0x7F, 0xFE};
    const uint64_t r = rng.next();
    p[0] = values[r % sizeof values];
    p[1] = (r >> 8) % 4 == 0 ? p[0] : values[(r >> 16) % sizeof values];
}

}  // namespace

uint64_t test_seed() {
    if (const char* s = std::getenv("TEXDEC_TEST_SEED")) return std::strtoull(s, nullptr, 0);
    return 0x7E4DEC0001ull;
}

size_t random_block_count() {
    size_t n = 1024 * 1025;
    if (const char* s = std::getenv("TEXDEC_TEST_RANDOM_BLOCKS")) n = std::strtoull(s, nullptr, 0);
    return std::max<size_t>(1024, (n + 1023) / 1024 * 1024);
}

std::vector<uint8_t> random_blocks(const BcFormat& f, size_t count, uint64_t seed) {
    std::vector<uint8_t> data(count * f.block_bytes);
    SplitMix64 rng(seed ^ (uint64_t(f.format) << 40));
    for (size_t i = 0; i < data.size(); i += 8) {
        const uint64_t v = rng.next();
        std::memcpy(&data[i], &v, 8);
    }
    for (size_t b = 0; b < count; ++b) {
        if (rng.next() % 8 != 0) continue;
        uint8_t* p = &data[b * f.block_bytes];
        switch (f.kind) {
        case BcKind::BC1_RGB:
        case BcKind::BC1_RGBA: special_colour_endpoints(p, rng); break;
        case BcKind::BC2: special_colour_endpoints(p + 8, rng); break;
        case BcKind::BC3:
            special_channel_endpoints(p, rng);
            special_colour_endpoints(p + 8, rng);
            break;
        case BcKind::BC4: special_channel_endpoints(p, rng); break;
        case BcKind::BC5:
            special_channel_endpoints(p, rng);
            special_channel_endpoints(p + 8, rng);
            break;
        case BcKind::BC6H: case BcKind::BC7: break;  // every bit pattern is a block; reserved modes included
        }
    }
    return data;
}

}  // namespace texdec_test

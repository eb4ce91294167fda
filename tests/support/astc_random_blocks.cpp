
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "support/astc_random_blocks.h"
#include "support/astc_test_support.h"  // set_block_bits
#include "support/random_blocks.h"

namespace texdec_test {

size_t astc_random_block_count() {
    const size_t n = random_block_count() * 196 / 1025;
    return std::max<size_t>(1024, (n + 1023) / 1024 * 1024);
}

const AstcFootprint& astc_footprint(unsigned x, unsigned y) {
    for (const auto& fp : astc_2d_footprints())
        if (fp.x == x && fp.y == y) return fp;
    throw std::invalid_argument("no such footprint");
}

uint64_t astc_fp_seed(AstcFootprint fp, uint64_t salt) {
    return test_seed() ^ (uint64_t(fp.x) << 48) ^ (uint64_t(fp.y) << 40) ^ salt;
}

uint64_t astc_fp_seed_3d(AstcFootprint fp, uint64_t salt) { return astc_fp_seed(fp, salt) ^ (uint64_t(fp.z) << 32); }

AstcBlock astc_random_bits_block(SplitMix64& rng) {
    AstcBlock b;
    const uint64_t lo = rng.next(), hi = rng.next();
    std::memcpy(b.data(), &lo, 8), std::memcpy(b.data() + 8, &hi, 8);
    return b;
}

void astc_set_random_mode(AstcBlock& b, const std::vector<uint32_t>& modes, SplitMix64& rng) {
    set_block_bits(b.data(), 0, 11, modes[rng.next() % modes.size()]);
}

void astc_set_one_partition_hdr_mode(AstcBlock& b, const std::vector<uint32_t>& modes, SplitMix64& rng) {
    astc_set_random_mode(b, modes, rng);
    set_block_bits(b.data(), 11, 2, 0);
    set_block_bits(b.data(), 13, 4, kAstcHdrCems[rng.next() % 6]);
}

AstcBlock astc_random_legal_block(AstcFootprint fp, const std::vector<uint32_t>& modes, const AstcSpecRequest& request,
                                  SplitMix64& rng) {
    const auto spec = astc_random_legal_spec(modes, fp.x, fp.y, request, rng);
    REQUIRE(spec);
    return astc_build_random_block(*spec, fp.x, fp.y, rng);
}

AstcBlock astc_random_legal_block_3d(AstcFootprint fp, const std::vector<uint32_t>& modes,
                                     const AstcSpecRequest& request, SplitMix64& rng) {
    const auto spec = astc_random_legal_spec_3d(modes, fp.x, fp.y, fp.z, request, rng);
    REQUIRE(spec);
    return astc_build_random_block_3d(*spec, fp.x, fp.y, fp.z, rng);
}

uint16_t astc_random_void_extent_channel(SplitMix64& rng) {
    const unsigned k = unsigned(rng.next() % 8);
    return k == 0 ? 0 : k == 1 ? 0xFFFF : uint16_t(rng.next());
}

AstcVoidExtent astc_random_void_extent(SplitMix64& rng) {
    AstcVoidExtent v;
    const unsigned r = unsigned(rng.next() % 16);
    v.hdr = r == 0 || r == 1;
    v.reserved = r == 2 || r == 3 ? unsigned(rng.next() % 3) : 3u;
    if (r >= 4 && r < 8) {  // min < max, mostly
        v.min_s = unsigned(rng.next() % 0x1FFF), v.max_s = unsigned(rng.next() % 0x2000);
        v.min_t = unsigned(rng.next() % 0x1FFF), v.max_t = unsigned(rng.next() % 0x2000);
    }
    for (auto& c : v.rgba) c = astc_random_void_extent_channel(rng);
    return v;
}

AstcVoidExtent3d astc_random_void_extent_3d(SplitMix64& rng) {
    AstcVoidExtent3d v;
    const unsigned r = unsigned(rng.next() % 16);
    v.hdr = r < 2;
    if (r >= 4 && r < 8) {
        unsigned* c[6] = {&v.min_s, &v.max_s, &v.min_t, &v.max_t, &v.min_r, &v.max_r};
        for (unsigned* p : c) *p = unsigned(rng.next() % 0x200);
    } else if (r == 8) {
        v.min_r = unsigned(rng.next() % 0x1FF);
    }
    for (auto& c : v.rgba) c = astc_random_void_extent_channel(rng);
    return v;
}

AstcBlock astc_random_ldr_test_block(AstcFootprint fp, const std::vector<uint32_t>& modes, SplitMix64& rng) {
    const bool is_3d = fp.z > 1;
    AstcBlock b = astc_random_bits_block(rng);
    const unsigned r = unsigned(rng.next() % 16);
    if (r >= 10 && r <= 12) {
        astc_set_random_mode(b, modes, rng);
    } else if (r == 13) {
        astc_set_one_partition_hdr_mode(b, modes, rng);
    } else if (r == 14) {
        b = is_3d ? astc_random_legal_block_3d(fp, modes, {}, rng) : astc_random_legal_block(fp, modes, {}, rng);
    } else if (r == 15) {
        b = is_3d ? astc_build_void_extent_3d(astc_random_void_extent_3d(rng))
                  : astc_build_void_extent(astc_random_void_extent(rng));
    }
    return b;
}

std::vector<uint8_t> astc_random_ldr_test_blocks(AstcFootprint fp, const std::vector<uint32_t>& modes, size_t count,
                                                 SplitMix64& rng) {
    std::vector<uint8_t> out(count * 16);
    for (size_t i = 0; i < count; ++i) {
        const AstcBlock b = astc_random_ldr_test_block(fp, modes, rng);
        std::memcpy(&out[i * 16], b.data(), 16);
    }
    return out;
}

std::vector<AstcSpecRequest> astc_cem_partition_requests(int repeats) {
    std::vector<AstcSpecRequest> out;
    for (unsigned cem = 0; cem < 16; ++cem)
        for (int partitions = 1; partitions <= 4; ++partitions)
            for (int shared = 0; shared <= (partitions > 1 ? 1 : 0); ++shared)
                for (int k = 0; k < repeats; ++k) {
                    AstcSpecRequest q;
                    q.cem = int(cem), q.partitions = partitions, q.shared_cem = partitions > 1 ? shared : -1;
                    out.push_back(q);
                }
    return out;
}

std::vector<uint8_t> random_format_blocks(const texdec_format_info& info, size_t count, uint64_t seed) {
    SplitMix64 rng(seed);
    if (info.family == TEXDEC_FAMILY_ASTC) {
        const AstcFootprint fp{info.block_width, info.block_height, info.block_depth};
        const std::vector<uint32_t> modes =
            fp.z > 1 ? astc_legal_block_modes_3d(fp.x, fp.y, fp.z) : astc_legal_block_modes_2d(fp.x, fp.y);
        REQUIRE(!modes.empty());
        return astc_random_ldr_test_blocks(fp, modes, count, rng);
    }
    std::vector<uint8_t> out(count * info.bytes_per_block);
    for (size_t i = 0; i < out.size(); i += 8) {
        const uint64_t v = rng.next();
        std::memcpy(&out[i], &v, std::min<size_t>(8, out.size() - i));
    }
    return out;
}

std::vector<AstcExtentCase> astc_extent_cases(AstcFootprint fp) {
    return {
        {13, 11, 0, 0},
        {1, 1, 0, 0},
        {2 * fp.x + 3, fp.y + 1, 2 * fp.x + 3 + 2 * fp.x + 1, 24},  // two more blocks per source row
    };
}

}  // namespace texdec_test

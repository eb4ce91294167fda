// Random ASTC blocks shared by the decoder tests (test_astc_decode.cpp 2D LDR, test_astc_3d.cpp,
// test_astc_hdr.cpp, test_astc_record.cpp): seeds, counts, and the block mixes they draw from.
// Every function draws from `rng` in a fixed order, so a seed always gives the same blocks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <texdec/texdec.h>

#include "astc_block_builder.h"
#include "astc_test_support.h"  // AstcSourceImage

namespace texdec_test {

// The HDR colour endpoint modes (an error colour in an LDR profile).
inline constexpr unsigned kAstcHdrCems[] = {2, 3, 7, 11, 14, 15};

// Random blocks per footprint and profile: 200,704 (196 x 1024) by default, scaled with
// TEXDEC_TEST_RANDOM_BLOCKS like the BC tests (random_block_count(), default 1,049,600, so the
// ASan run's 65,536 gives 13,312 here). A multiple of 1024.
size_t astc_random_block_count();

// The 2D footprint x by y (throws if there is none).
const AstcFootprint& astc_footprint(unsigned x, unsigned y);

// TEXDEC_TEST_SEED mixed with the footprint and a per-test salt: x and y (2D tests), x, y and z
// (the 3D tests, whatever the footprint).
uint64_t astc_fp_seed(AstcFootprint fp, uint64_t salt);
uint64_t astc_fp_seed_3d(AstcFootprint fp, uint64_t salt);

// 128 uniformly random bits: mostly illegal blocks.
AstcBlock astc_random_bits_block(SplitMix64& rng);

// Sets bits 0..10 of `b` to one of `modes` (a legal block mode; the bits above stay as they are).
void astc_set_random_mode(AstcBlock& b, const std::vector<uint32_t>& modes, SplitMix64& rng);
// A legal mode, one partition and an HDR endpoint mode (kAstcHdrCems); the colour bits as they are.
void astc_set_one_partition_hdr_mode(AstcBlock& b, const std::vector<uint32_t>& modes, SplitMix64& rng);

// A legal block from the builder: a random legal spec (REQUIREd to exist) with `request` pinned.
AstcBlock astc_random_legal_block(AstcFootprint fp, const std::vector<uint32_t>& modes, const AstcSpecRequest& request,
                                  SplitMix64& rng);
AstcBlock astc_random_legal_block_3d(AstcFootprint fp, const std::vector<uint32_t>& modes,
                                     const AstcSpecRequest& request, SplitMix64& rng);

// A void-extent colour channel: 1/8 zero, 1/8 0xFFFF, the rest random.
uint16_t astc_random_void_extent_channel(SplitMix64& rng);
// A 2D void extent: 1/8 HDR (error in LDR), 1/8 bad reserved bits, 1/4 real coordinates.
AstcVoidExtent astc_random_void_extent(SplitMix64& rng);
// A 3D void extent: 1/8 HDR (error in LDR), 1/4 random coordinates (min >= max on some axis in
// most: error), 1/16 partly all-ones (error), the rest the constant-colour all-ones form.
AstcVoidExtent3d astc_random_void_extent_3d(SplitMix64& rng);

// The block mix of the LDR random-block tests, 3D when fp.z > 1: 10/16 random bits, 3/16 a legal
// mode with random bits above, 1/16 a legal one-partition HDR-mode pattern (error in LDR), 1/16
// a builder block, 1/16 a void extent.
AstcBlock astc_random_ldr_test_block(AstcFootprint fp, const std::vector<uint32_t>& modes, SplitMix64& rng);
// `count` blocks of that mix, packed (16 bytes each), drawn in order from `rng`.
std::vector<uint8_t> astc_random_ldr_test_blocks(AstcFootprint fp, const std::vector<uint32_t>& modes, size_t count,
                                                 SplitMix64& rng);

// The requests of the structured tests' "every CEM with 1..4 partitions, in both multi-partition
// encodings" group: CEM 0..15 x partitions 1..4 x (shared form, per-partition form; single
// partitions: neither), each `repeats` times in a row, in that order.
std::vector<AstcSpecRequest> astc_cem_partition_requests(int repeats);

// `count` random blocks of a format: ASTC blocks of the LDR test mix above (2D or 3D by the
// footprint), any other format uniformly random bytes (every bit pattern is a BC6H, BC7, ETC2 or
// EAC block). The CLI tests' input files.
std::vector<uint8_t> random_format_blocks(const texdec_format_info& info, size_t count, uint64_t seed);

// The extents of the 2D extent tests: odd, one texel, and a source row two blocks longer than
// the extent with a padded destination row.
struct AstcExtentCase {
    unsigned w, h, row_length;
    size_t extra_row_bytes;
};
std::vector<AstcExtentCase> astc_extent_cases(AstcFootprint fp);

// The source of an extent case: every block of its layout (those past the extent in each row
// too), each from make_block().
template <class MakeBlock>
AstcSourceImage astc_extent_image(AstcFootprint fp, const AstcExtentCase& c, MakeBlock make_block) {
    AstcSourceImage img;
    img.fp = fp;
    img.w = c.w, img.h = c.h, img.row_length = c.row_length;
    const size_t n = size_t(img.blocks_per_row()) * img.block_rows();
    for (size_t i = 0; i < n; ++i) {
        const AstcBlock b = make_block();
        img.data.insert(img.data.end(), b.begin(), b.end());
    }
    return img;
}

}  // namespace texdec_test

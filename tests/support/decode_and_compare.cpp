#include "decode_and_compare.h"

#include <catch2/catch.hpp>

#include "../oracles/reference.h"
#include "compare.h"
#include "job_builder.h"

namespace texdec_test {

void decode_and_compare_all_outputs(OwnContext& ctx, const BcFormat& f, texdec_bc_rounding rounding,
                                    const std::vector<uint8_t>& blocks, uint32_t width, uint32_t height,
                                    const char* what) {
    constexpr size_t kGuard = 256;
    INFO(what << ": " << f.name << " " << rounding_name(rounding) << ", " << width << " x " << height << " texels");
    std::vector<std::vector<uint8_t>> texels;
    std::vector<OutputUnderTest> outputs;
    for (texdec_output output : kAllOutputs) {
        if (!output_offered(f, output)) continue;
        INFO("output " << output_name(output));
        const size_t size = size_t(width) * height * output_texel_bytes(f, output);
        texels.emplace_back(size + kGuard);
        std::vector<uint8_t>& dst = texels.back();
        fill_canary(dst.data(), dst.size());
        const texdec_host_job job =
            JobBuilder(f.format, output, width, height).blocks(blocks).texels(dst.data(), size).rounding(rounding);
        REQUIRE(ctx.decode(job) == TEXDEC_SUCCESS);
        bool guard_intact = true;
        for (size_t i = size; i < dst.size(); ++i) guard_intact &= dst[i] == canary_byte(i);
        CHECK(guard_intact);
        outputs.push_back({output, dst.data(), {}});
    }
    BlockLayout layout;
    layout.width = width;
    layout.height = height;
    const Oracle primary = primary_oracle(f, rounding);
    TEXDEC_CHECK_MATCHES_ORACLE(compare_with_oracle(f, rounding, primary, blocks.data(), layout, outputs),
                                oracle_name(primary));
    if (primary != Oracle::Nvimage && oracle_supports(Oracle::Nvimage, f, rounding))
        TEXDEC_CHECK_MATCHES_ORACLE(compare_with_oracle(f, rounding, Oracle::Nvimage, blocks.data(), layout, outputs),
                                    oracle_name(Oracle::Nvimage));
}

void pad_to_rows(const BcFormat& f, std::vector<uint8_t>& blocks, uint32_t blocks_per_row, uint32_t* width,
                 uint32_t* height) {
    size_t count = blocks.size() / f.block_bytes;
    while (count % blocks_per_row) {
        blocks.insert(blocks.end(), blocks.begin(), blocks.begin() + f.block_bytes);
        ++count;
    }
    *width = blocks_per_row * 4;
    *height = uint32_t(count / blocks_per_row) * 4;
}

}  // namespace texdec_test

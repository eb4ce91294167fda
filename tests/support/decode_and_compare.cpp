#include "decode_and_compare.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <sstream>

#include "../oracles/astc_expected.h"  // half_from_unorm8
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

void Mismatch::add(const char* output, size_t i, uint32_t width, uint32_t channel, double ours, const char* oracle,
                   double theirs, const std::vector<uint8_t>& blocks, size_t block_bytes) {
    if (count++ != 0) return;
    const size_t block = (i / width / 4) * (width / 4) + (i % width) / 4;
    std::ostringstream s;
    s << output << " texel (" << i % width << "," << i / width << ") channel " << channel << ": texdec " << ours << " "
      << oracle << " " << theirs << "; block " << hex_bytes(&blocks[block * block_bytes], block_bytes);
    first = s.str();
}

void compare_rgba8_outputs(OwnContext& ctx, texdec_format format, const std::vector<uint8_t>& blocks,
                           size_t block_bytes, uint32_t width, uint32_t height, const std::vector<int>& oracle,
                           const char* oracle_name, bool with_native_output, Mismatch& m) {
    const size_t texels = size_t(width) * height;
    REQUIRE(oracle.size() == texels * 4);
    const std::vector<uint8_t> rgba8 = ctx.decode_tight(format, TEXDEC_OUTPUT_RGBA8, blocks, width, height, 4);
    const std::vector<uint8_t> rgba16f = ctx.decode_tight(format, TEXDEC_OUTPUT_RGBA16F, blocks, width, height, 8);
    auto report = [&](size_t i, uint32_t c, const char* output, double ours, double theirs) {
        m.add(output, i, width, c, ours, oracle_name, theirs, blocks, block_bytes);
    };
    for (size_t i = 0; i < texels; ++i)
        for (uint32_t c = 0; c < 4; ++c) {
            if (oracle[4 * i + c] < 0) continue;
            const uint8_t v = uint8_t(oracle[4 * i + c]);
            if (rgba8[4 * i + c] != v) report(i, c, "RGBA8", rgba8[4 * i + c], v);
            uint16_t h;
            std::memcpy(&h, &rgba16f[8 * i + 2 * c], 2);
            if (h != half_from_unorm8(v)) report(i, c, "RGBA16F (bits)", h, half_from_unorm8(v));
        }
    if (with_native_output) {  // NATIVE = RGBA8 (UNORM or sRGB bytes)
        const std::vector<uint8_t> nat = ctx.decode_tight(format, TEXDEC_OUTPUT_NATIVE, blocks, width, height, 4);
        if (nat != rgba8) report(0, 0, "NATIVE != RGBA8", 0, 0);
    }
}

}  // namespace texdec_test

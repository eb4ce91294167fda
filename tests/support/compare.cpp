#include "compare.h"

#include <climits>
#include <cstdint>
#include <sstream>

namespace texdec_test {

size_t BlockLayout::required_bytes(uint32_t block_bytes) const {
    const uint32_t bw = (width + 3) / 4, bh = (height + 3) / 4;
    return block_offset(bw - 1, bh - 1, depth - 1, block_bytes) + block_bytes;
}

ResolvedTexelLayout resolve(const TexelLayout& layout, uint32_t texel_bytes, uint32_t width, uint32_t height) {
    ResolvedTexelLayout r;
    r.offset = layout.offset;
    r.texel_bytes = texel_bytes;
    r.row_pitch = layout.row_pitch ? layout.row_pitch : size_t(width) * texel_bytes;
    r.slice_pitch = layout.slice_pitch ? layout.slice_pitch : r.row_pitch * height;
    return r;
}

CompareResult compare_with_oracle(const BcFormat& f, texdec_bc_rounding rounding, Oracle oracle, const uint8_t* blocks,
                                  const BlockLayout& bl, const std::vector<OutputUnderTest>& outputs) {
    CompareResult result;
    std::vector<ResolvedTexelLayout> layouts;
    for (const auto& o : outputs) layouts.push_back(resolve(o.layout, output_texel_bytes(f, o.output), bl.width, bl.height));
    const uint32_t bw = (bl.width + 3) / 4, bh = (bl.height + 3) / 4;
    ReferenceBlock ref;
    uint8_t expected[8];
    for (uint32_t z = 0; z < bl.depth; ++z)
        for (uint32_t by = 0; by < bh; ++by)
            for (uint32_t bx = 0; bx < bw; ++bx) {
                const uint8_t* block = blocks + bl.block_offset(bx, by, z, f.block_bytes);
                reference_decode(f, rounding, oracle, block, &ref);
                ++result.blocks;
                for (size_t o = 0; o < outputs.size(); ++o) {
                    const ResolvedTexelLayout& L = layouts[o];
                    const uint32_t mask = output_byte_mask(f, outputs[o].output, ref.channel_mask);
                    for (uint32_t ty = 0; ty < 4; ++ty) {
                        const uint32_t y = by * 4 + ty;
                        if (y >= bl.height) break;
                        for (uint32_t tx = 0; tx < 4; ++tx) {
                            const uint32_t x = bx * 4 + tx;
                            if (x >= bl.width) break;
                            const uint8_t* got = outputs[o].texels + L.offset + z * L.slice_pitch + y * L.row_pitch +
                                                 size_t(x) * L.texel_bytes;
                            pack_reference_texel(f, outputs[o].output, ref.texel[ty * 4 + tx], expected);
                            bool same = true;
                            for (uint32_t i = 0; i < L.texel_bytes; ++i)
                                if ((mask >> i & 1) && got[i] != expected[i]) same = false;
                            if (o == 0) ++result.texels_checked;
                            if (same) continue;
                            if (result.mismatches++ == 0) {
                                std::ostringstream s;
                                s << f.name << " " << rounding_name(rounding) << " " << output_name(outputs[o].output)
                                  << " vs " << oracle_name(oracle) << ": block (" << bx << "," << by << "," << z
                                  << ") bytes [" << hex_bytes(block, f.block_bytes) << "], texel (" << x << "," << y
                                  << "," << z << "): expected [" << hex_bytes(expected, L.texel_bytes) << "] got ["
                                  << hex_bytes(got, L.texel_bytes) << "] (byte mask 0x" << std::hex << mask << ")";
                                result.first_mismatch = s.str();
                            }
                        }
                    }
                }
            }
    return result;
}

void fill_canary(uint8_t* bytes, size_t size) {
    for (size_t i = 0; i < size; ++i) bytes[i] = canary_byte(i);
}

size_t first_clobbered_byte(const uint8_t* bytes, size_t size, const ResolvedTexelLayout& L, uint32_t width,
                            uint32_t height, uint32_t depth) {
    const size_t row_bytes = size_t(width) * L.texel_bytes;
    for (size_t p = 0; p < size; ++p) {
        if (bytes[p] == canary_byte(p)) continue;
        bool inside = false;
        if (p >= L.offset) {
            const size_t rel = p - L.offset;
            const size_t z = rel / L.slice_pitch, in_slice = rel % L.slice_pitch;
            const size_t y = in_slice / L.row_pitch, in_row = in_slice % L.row_pitch;
            inside = z < depth && y < height && in_row < row_bytes;
        }
        if (!inside) return p;
    }
    return SIZE_MAX;
}

}  // namespace texdec_test

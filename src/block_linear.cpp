// texdec_block_linear_get_level: where a mip level of a Tegra X1 block-linear texture lies (texdec.h
// "source layouts"). The rules are the hardware's as Mesa's NVK image layout (NIL, Tiling::clamp "done
// by the hardware at each LOD") and nouveau, and yuzu's and Ryujinx's texture caches describe them
// (facts, not code, carried over; docs/BLOCK_LINEAR.md cites them and says where they disagree):
//   - a level's block height (depth) in GOBs starts at the descriptor's and halves while the
//     level's height in compressed blocks is at most 8 * half of it (its depth in block slices at
//     most half of it), at every level, level 0 included (NIL, yuzu; Ryujinx keeps level 0's block
//     depth and halves it at most once per level, for views of one slice of a 3D texture);
//   - a level takes whole blocks of GOBs: ceil(row bytes / 64) x ceil(rows / 8H) x ceil(slices / D)
//     blocks of 512 * H * D bytes;
//   - a layer is its levels one after another, and the layer stride rounds that up to a whole
//     block of level 0's (adjusted) size, level 0 measured in block rows (NIL, nouveau, Ryujinx;
//     yuzu and tegra_swizzle compare its height in texels, which real files cannot tell apart).
// A 3D block footprint (ASTC 3x3x3 ...) makes a 3D texture: no array layers (the source layout
// refuses a layer_stride with such a format).
#include <texdec/texdec.h>

#include <algorithm>
#include <bit>

#include "enum_bits.h"
#include "formats.h"
#include "job.h"
#include "portable.h"

namespace {

using u128 = texdec::portable::U128;

uint64_t div_round_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// The GOB count that a level of `extent` units uses, from the descriptor's `gobs`: halved while the
// extent fits in half of it (`unit` extent units per GOB: 8 block rows, or 1 block slice).
uint32_t level_gobs(uint32_t gobs, uint64_t extent, uint64_t unit) {
    while (gobs > 1 && extent <= uint64_t(gobs / 2) * unit) gobs /= 2;
    return gobs;
}

}  // namespace

extern "C" TEXDEC_API texdec_status texdec_block_linear_get_level(const texdec_block_linear_texture* texture,
                                                                  uint32_t level, texdec_block_linear_level* out) {
    using namespace texdec;
    if (!texture || !out || texture->next) return TEXDEC_ERROR_INVALID_ARGUMENT;
    const FormatEntry* f = find_format(enum_bits(texture->format));
    if (!f) return TEXDEC_ERROR_UNKNOWN_FORMAT;
    const texdec_block_linear_texture& t = *texture;
    if (!t.width || !t.height || !t.depth || !t.mip_levels || t.mip_levels > 32 || !t.array_layers ||
        level >= t.mip_levels)
        return TEXDEC_ERROR_INVALID_EXTENT;
    if (!is_gob_count(t.block_height) || !is_gob_count(t.block_depth) ||
        ((t.depth > 1 || f->block_depth > 1) && t.array_layers > 1))
        return TEXDEC_ERROR_INVALID_LAYOUT;
    u128 layer = 0;  // bytes of one layer's levels
    texdec_block_linear_level result{};
    for (uint32_t l = 0; l < t.mip_levels; ++l) {
        const uint32_t w = std::max(1u, t.width >> l), h = std::max(1u, t.height >> l), d = std::max(1u, t.depth >> l);
        const uint64_t cols = div_round_up(w, f->block_width), rows = div_round_up(h, f->block_height),
                       slices = div_round_up(d, f->block_depth);
        const uint32_t gh = level_gobs(t.block_height, rows, 8), gd = level_gobs(t.block_depth, slices, 1);
        const u128 size = u128(div_round_up(cols * f->bytes_per_block, 64)) * div_round_up(rows, uint64_t(8) * gh) *
                          div_round_up(slices, gd) * (uint64_t(512) * gh * gd);
        if (l == level) {
            result.offset = uint64_t(layer);  // fits: checked below with the whole layer
            result.size = uint64_t(std::min<u128>(size, UINT64_MAX));
            result.width = w, result.height = h, result.depth = d;
            result.layout.type = TEXDEC_STRUCTURE_TYPE_SOURCE_LAYOUT_INFO;
            result.layout.layout = TEXDEC_SOURCE_LAYOUT_BLOCK_LINEAR;
            result.layout.block_height = gh;
            result.layout.block_depth = gd;
        }
        layer += size;
        if (layer > UINT64_MAX) return TEXDEC_ERROR_SIZE_OVERFLOW;
    }
    // Layers start on whole blocks of level 0's GOBs.
    const uint64_t rows0 = div_round_up(t.height, f->block_height), slices0 = div_round_up(t.depth, f->block_depth);
    const uint32_t shift = 9 + std::countr_zero(level_gobs(t.block_height, rows0, 8)) +
                           std::countr_zero(level_gobs(t.block_depth, slices0, 1));
    const u128 stride = (layer + (u128(1) << shift) - 1) >> shift << shift;
    const u128 total = t.array_layers > 1 ? stride * t.array_layers : layer;
    if (total > UINT64_MAX) return TEXDEC_ERROR_SIZE_OVERFLOW;
    result.texture_size = uint64_t(total);
    if (t.array_layers > 1) result.layout.layer_stride = uint64_t(stride);
    *out = result;
    return TEXDEC_SUCCESS;
}

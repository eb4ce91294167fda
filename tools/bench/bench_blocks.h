// Block data for the benchmark: a procedural test image encoded to the format (libastcenc for
// ASTC, small min/max encoders for BC1-BC7), tiled to the benchmark extent; and random blocks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <texdec/texdec.h>

namespace bench {

// A width x height RGBA8 image: smooth gradients, hard edges (discs, stripes, a checkerboard),
// and value noise, with an alpha channel of its own. Deterministic.
std::vector<uint8_t> procedural_image(uint32_t width, uint32_t height);

// Encodes `rgba` (width x height, multiples of the block size) to blocks of `format` in block
// order. ASTC: libastcenc at -fastest with `threads` threads. BC1-BC5: bounding-box endpoints and
// the nearest palette index (fast, not a quality encoder); BC6H and BC7: the same per mode, every
// mode tried, the least error kept (bench_bptc.h), BC6H from the 8-bit image. Throws
// std::runtime_error for formats it has no encoder for.
std::vector<uint8_t> encode_image(texdec_format format, const std::vector<uint8_t>& rgba, uint32_t width,
                                  uint32_t height, unsigned threads);

// Tiles a source grid of src_bx x src_by blocks to dst_bx x dst_by blocks.
std::vector<uint8_t> tile_blocks(const std::vector<uint8_t>& src, uint32_t bytes_per_block, uint32_t src_bx,
                                 uint32_t src_by, uint32_t dst_bx, uint32_t dst_by);

// `bytes` pseudo-random bytes (splitmix64 from `seed`).
std::vector<uint8_t> random_bytes(size_t bytes, uint64_t seed);

// "mode 1 30.2%, mode 6 41.0%, ...": the share of each BC7 / BC6H mode among `blocks` (16 bytes
// each); "" for other formats.
std::string mode_histogram(texdec_format format, const std::vector<uint8_t>& blocks);

// Real-image blocks for `format` covering bx x by blocks: a procedural image of at most
// 1024 x 1024 texels (rounded up to whole blocks) encoded and tiled.
std::vector<uint8_t> real_image_blocks(texdec_format format, uint32_t bx, uint32_t by, unsigned threads);

}  // namespace bench

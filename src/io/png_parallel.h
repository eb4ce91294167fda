// A PNG encoder that filters and compresses bands of rows on several threads (zlib), for
// write_png: the decoded image is in memory, so each band filters its first row against the
// previous band's last row, and each band is compressed as its own raw deflate segment that ends
// on a byte boundary (Z_SYNC_FLUSH; the last band Z_FINISH). The segments, behind one zlib header
// and followed by the Adler-32 of the whole filtered data (adler32_combine of the bands'), are one
// valid zlib stream (RFC 1950 / 1951), spread over IDAT chunks (one or more per band, each with
// its CRC-32), so the file is an ordinary non-interlaced PNG (ISO/IEC 15948) that any decoder reads.
// The same way pigz splits its input; no code of it is used.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace png_parallel {

struct Options {
    unsigned threads = 0;    // 0: std::thread::hardware_concurrency()
    uint32_t band_rows = 0;  // rows per band; 0: chosen from the image (see png_parallel.cpp)
    int level = -1;          // zlib level 1-9; -1: the measured default (png_parallel.cpp)
    int filter = -1;         // PNG filter 0-4 for every row, 5 adaptive per row; -1: the measured default
    int strategy = -1;       // zlib strategy (Z_DEFAULT_STRATEGY, Z_FILTERED, Z_RLE); -1: the default
};

// The image, rows top to bottom. Either `rows` points at every row in PNG sample layout
// (`row_bytes` apart, tightly packed), or `convert(first_row, count, out)` writes `count` rows
// from `first_row` on into `out`, `row_bytes` each (called from several threads at once).
struct Image {
    uint32_t width = 0, height = 0;
    int channels = 4;      // 1 grey, 2 grey + alpha, 3 RGB, 4 RGBA
    int bit_depth = 8;     // 8 or 16 (16-bit samples big-endian, as PNG stores them)
    size_t row_bytes = 0;  // width * channels * bit_depth / 8
    const uint8_t* rows = nullptr;
    std::function<void(uint32_t first_row, uint32_t count, uint8_t* out)> convert;
};

struct Encoded {
    bool ok = false;
    std::string error;
    std::vector<std::vector<uint8_t>> pieces;  // the file, in order (signature + IHDR, bands, trailer)
    uint64_t size() const {
        uint64_t total = 0;
        for (const auto& p : pieces) total += p.size();
        return total;
    }
};

// Encodes `image` (width and height 1 to 2^31 - 1). Fails (ok false, error set) only when memory
// or zlib fail.
Encoded encode(const Image& image, const Options& options = {});

// The band height encode() uses for `image` when options.band_rows is 0.
uint32_t auto_band_rows(const Image& image, unsigned threads);

}  // namespace png_parallel

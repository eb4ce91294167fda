#include "png_parallel.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <new>
#include <thread>

#include <zlib.h>  // Debian's zlib1g-dev: deflate, crc32, adler32, adler32_combine

namespace png_parallel {
namespace {

// The defaults, by measurement (2026-11-26, zlib 1.2.13, one thread of the shared 2-core
// development machine, so the times are relative only): RGBA8 decodes (astcenc -dl) of two
// 8192-wide strips of an ASTC 6x6 (-fastest) procedural image, one with strong grain noise
// (8192x1024) and one smooth with flat discs and stripes (8192x512); compressed size / raw size:
//                                noisy  smooth   time (relative to level 1 Up)
//   level 1, Up                  0.422  0.349    1.0
//   level 1, Paeth               0.444  0.356    1.1-1.2
//   level 1, Sub                 0.446  0.393    1.1
//   level 1, none                0.511  0.554    1.2-1.5
//   level 1, adaptive (libpng's minimum sum of absolute differences)
//                                0.480  0.356    1.5
//   Z_RLE, Up                    0.515  0.395    0.75-0.8
//   level 3, Paeth               0.435  0.347    1.6
//   level 6, Z_FILTERED, adaptive (libpng's defaults, the writer before)
//                                0.487  0.316    5.4-6.2
// Level 1 with Up on every row is the fastest but Z_RLE and within a few per cent of the
// smallest (level 6 saves 0-10 % for 5-6x the time), so it is the default. On the H100 host
// (16 threads, the whole 8192x8192 image; docs/bench/cli_h100_2026-11-26.txt): level 1 encodes
// in 358-399 ms to 104.4 MB, level 3 in 598 ms to 103.5 MB, level 6 in 1976 ms to 97.5 MB.
constexpr int kDefaultLevel = 1;
constexpr int kDefaultFilter = 2;  // Up
constexpr int kDefaultStrategy = Z_DEFAULT_STRATEGY;

// Bands: at least ~1 MiB of row data each (deflate restarts its window at each band: small bands
// cost compression), and about 4 per thread (so uneven bands still keep every thread busy).
constexpr size_t kMinBandBytes = size_t(1) << 20;
constexpr uint32_t kBandsPerThread = 4;

// IDAT chunks hold at most this much (the PNG limit is 2^31 - 1).
constexpr size_t kMaxChunk = size_t(1) << 30;

void put_u32_be(uint8_t* p, uint32_t v) {
    p[0] = uint8_t(v >> 24);
    p[1] = uint8_t(v >> 16);
    p[2] = uint8_t(v >> 8);
    p[3] = uint8_t(v);
}

// Appends one chunk: length, type, data, CRC-32 of type and data.
void append_chunk(std::vector<uint8_t>& out, const char type[4], const uint8_t* data, size_t size) {
    const size_t at = out.size();
    out.resize(at + 12 + size);
    uint8_t* p = out.data() + at;
    put_u32_be(p, uint32_t(size));
    std::memcpy(p + 4, type, 4);
    if (size) std::memcpy(p + 8, data, size);
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32_z(crc, p + 4, 4 + size);
    put_u32_be(p + 8 + size, uint32_t(crc));
}

uint8_t paeth(uint8_t a, uint8_t b, uint8_t c) {
    const int p = int(a) + int(b) - int(c);
    const int pa = std::abs(p - int(a)), pb = std::abs(p - int(b)), pc = std::abs(p - int(c));
    if (pa <= pb && pa <= pc) return a;
    return pb <= pc ? b : c;
}

// Filters one row (`filter` 0-4) into out[0] (the type byte) and out[1..]. `prior` is the row
// above (all zeros for the first row), `bpp` the bytes per complete pixel (at least 1).
void filter_row(int filter, const uint8_t* row, const uint8_t* prior, size_t n, size_t bpp, uint8_t* out) {
    out[0] = uint8_t(filter);
    uint8_t* f = out + 1;
    switch (filter) {
    case 0: std::memcpy(f, row, n); break;
    case 1:
        for (size_t i = 0; i < n; ++i) f[i] = uint8_t(row[i] - (i >= bpp ? row[i - bpp] : 0));
        break;
    case 2:
        for (size_t i = 0; i < n; ++i) f[i] = uint8_t(row[i] - prior[i]);
        break;
    case 3:
        for (size_t i = 0; i < n; ++i) f[i] = uint8_t(row[i] - ((i >= bpp ? row[i - bpp] : 0) + prior[i]) / 2);
        break;
    default:
        for (size_t i = 0; i < bpp && i < n; ++i) f[i] = uint8_t(row[i] - prior[i]);  // paeth(0, b, 0) = b
        for (size_t i = bpp; i < n; ++i) f[i] = uint8_t(row[i] - paeth(row[i - bpp], prior[i], prior[i - bpp]));
        break;
    }
}

// Adaptive: every filter, the one with the smallest sum of |signed byte| (libpng's heuristic).
void filter_row_adaptive(const uint8_t* row, const uint8_t* prior, size_t n, size_t bpp, uint8_t* out,
                         std::vector<uint8_t>& scratch) {
    scratch.resize(n + 1);
    uint64_t best = UINT64_MAX;
    for (int filter = 0; filter <= 4; ++filter) {
        filter_row(filter, row, prior, n, bpp, scratch.data());
        uint64_t sum = 0;
        for (size_t i = 1; i <= n; ++i) sum += uint64_t(std::abs(int(int8_t(scratch[i]))));
        if (sum < best) {
            best = sum;
            std::memcpy(out, scratch.data(), n + 1);
        }
    }
}

struct Band {
    std::vector<uint8_t> chunks;  // its IDAT chunk(s)
    uLong adler = 1;
    uint64_t filtered_bytes = 0;
};

// Per thread: the converted rows, the filtered rows and a deflate stream.
struct Worker {
    z_stream z{};
    bool z_ready = false;
    std::vector<uint8_t> source, filtered, compressed, scratch;
    ~Worker() {
        if (z_ready) deflateEnd(&z);
    }
};

}  // namespace

uint32_t auto_band_rows(const Image& image, unsigned threads) {
    threads = std::max(threads, 1u);
    const uint64_t rows = image.height;
    const uint64_t by_threads =
        (rows + uint64_t(threads) * kBandsPerThread - 1) / (uint64_t(threads) * kBandsPerThread);
    const uint64_t by_bytes = (kMinBandBytes + image.row_bytes - 1) / std::max<size_t>(image.row_bytes, 1);
    return uint32_t(std::clamp<uint64_t>(std::max(by_threads, by_bytes), 1, std::max<uint64_t>(rows, 1)));
}

Encoded encode(const Image& image, const Options& options) {
    Encoded result;
    const unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    const int level = options.level >= 1 && options.level <= 9 ? options.level : kDefaultLevel;
    const int fixed_filter = options.filter >= 0 && options.filter <= 5 ? options.filter : kDefaultFilter;
    const int strategy = options.strategy >= 0 ? options.strategy : kDefaultStrategy;
    const uint32_t band_rows = options.band_rows ? options.band_rows : auto_band_rows(image, threads);
    const uint32_t band_count = uint32_t((uint64_t(image.height) + band_rows - 1) / band_rows);
    const size_t n = image.row_bytes;
    const size_t bpp = std::max<size_t>(1, size_t(image.channels) * size_t(image.bit_depth) / 8);

    try {
        // Signature and IHDR.
        std::vector<uint8_t> head = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
        uint8_t ihdr[13];
        put_u32_be(ihdr, image.width);
        put_u32_be(ihdr + 4, image.height);
        ihdr[8] = uint8_t(image.bit_depth);
        static constexpr uint8_t kColourType[5] = {0, 0, 4, 2, 6};  // grey, grey + alpha, RGB, RGBA
        ihdr[9] = kColourType[std::clamp(image.channels, 1, 4)];
        ihdr[10] = ihdr[11] = ihdr[12] = 0;  // deflate, adaptive filtering, no interlace
        append_chunk(head, "IHDR", ihdr, sizeof ihdr);
        result.pieces.push_back(std::move(head));

        std::vector<Band> bands(band_count);
        std::atomic<uint32_t> next{0};
        std::atomic<bool> failed{false};
        std::mutex error_mutex;
        const auto fail = [&](const std::string& why) {
            std::lock_guard lock(error_mutex);
            if (!failed.exchange(true)) result.error = why;
        };

        const auto work = [&] {
            Worker w;
            try {
                if (deflateInit2(&w.z, level, Z_DEFLATED, -15, 9, strategy) != Z_OK) {
                    fail("zlib deflateInit2 failed");
                    return;
                }
                w.z_ready = true;
                for (uint32_t b; !failed && (b = next.fetch_add(1)) < band_count;) {
                    const uint32_t y0 = b * band_rows;
                    const uint32_t count = std::min<uint32_t>(band_rows, image.height - y0);
                    // The rows in sample layout, with the previous band's last row first (the prior
                    // of this band's first row).
                    const uint8_t* rows;
                    const uint8_t* prior0;
                    std::vector<uint8_t> zeros;
                    if (image.rows) {
                        rows = image.rows + size_t(y0) * n;
                        prior0 = y0 ? rows - n : nullptr;
                    } else {
                        const uint32_t first = y0 ? y0 - 1 : y0;
                        const uint32_t total = count + (y0 ? 1 : 0);
                        w.source.resize(size_t(total) * n);
                        image.convert(first, total, w.source.data());
                        rows = w.source.data() + (y0 ? n : 0);
                        prior0 = y0 ? w.source.data() : nullptr;
                    }
                    if (!prior0) {
                        zeros.assign(n, 0);
                        prior0 = zeros.data();
                    }
                    w.filtered.resize(size_t(count) * (n + 1));
                    for (uint32_t r = 0; r < count; ++r) {
                        const uint8_t* row = rows + size_t(r) * n;
                        const uint8_t* prior = r ? row - n : prior0;
                        uint8_t* out = w.filtered.data() + size_t(r) * (n + 1);
                        if (fixed_filter == 5) filter_row_adaptive(row, prior, n, bpp, out, w.scratch);
                        else filter_row(fixed_filter, row, prior, n, bpp, out);
                    }
                    Band& band = bands[b];
                    band.filtered_bytes = w.filtered.size();
                    band.adler = adler32_z(adler32(0L, Z_NULL, 0), w.filtered.data(), w.filtered.size());

                    // Raw deflate of the band; zlib's header leads band 0.
                    const bool last = b + 1 == band_count;
                    if (deflateReset(&w.z) != Z_OK) {
                        fail("zlib deflateReset failed");
                        return;
                    }
                    const size_t lead = b == 0 ? 2 : 0;
                    w.compressed.resize(lead + deflateBound(&w.z, uLong(w.filtered.size())) + 64);
                    if (b == 0) {
                        // CMF: deflate, 32 KiB window; FLG: FLEVEL by level, FCHECK so that
                        // (CMF * 256 + FLG) % 31 == 0, no dictionary (RFC 1950).
                        const unsigned flevel = level == 1 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
                        const unsigned cmf = 0x78, flg0 = flevel << 6;
                        w.compressed[0] = uint8_t(cmf);
                        w.compressed[1] = uint8_t(flg0 + (31 - (cmf * 256 + flg0) % 31) % 31);
                    }
                    w.z.next_in = w.filtered.data();
                    w.z.avail_in = 0;
                    size_t in_left = w.filtered.size(), produced = lead;
                    const int flush = last ? Z_FINISH : Z_SYNC_FLUSH;
                    for (;;) {
                        // avail_in is 32-bit: feed at most 1 GiB at a time.
                        if (w.z.avail_in == 0 && in_left) {
                            const size_t feed = std::min(in_left, kMaxChunk);
                            w.z.avail_in = uInt(feed);
                            in_left -= feed;
                        }
                        if (w.compressed.size() - produced < 64) w.compressed.resize(w.compressed.size() * 2);
                        const size_t room = std::min(w.compressed.size() - produced, kMaxChunk);
                        w.z.next_out = w.compressed.data() + produced;
                        w.z.avail_out = uInt(room);
                        const int status = deflate(&w.z, in_left ? Z_NO_FLUSH : flush);
                        produced += room - w.z.avail_out;
                        if (status == Z_STREAM_ERROR) {
                            fail("zlib deflate failed");
                            return;
                        }
                        if (in_left == 0 && w.z.avail_in == 0 && w.z.avail_out != 0 &&
                            (flush == Z_SYNC_FLUSH || status == Z_STREAM_END))
                            break;
                    }
                    // The band's IDAT chunk(s).
                    band.chunks.reserve(produced + 12 * (produced / kMaxChunk + 1));
                    for (size_t at = 0; at < produced; at += kMaxChunk)
                        append_chunk(band.chunks, "IDAT", w.compressed.data() + at, std::min(kMaxChunk, produced - at));
                }
            } catch (const std::bad_alloc&) {
                fail("out of memory");
            } catch (const std::exception& e) {
                fail(e.what());
            }
        };
        const unsigned thread_count = std::min<unsigned>(threads, band_count);
        std::vector<std::thread> pool;
        for (unsigned t = 1; t < thread_count; ++t) pool.emplace_back(work);
        work();
        for (std::thread& t : pool) t.join();
        if (failed) {
            result.pieces.clear();
            return result;
        }

        // Adler-32 of all the filtered data, from the bands' in order (RFC 1950: big-endian), in
        // an IDAT chunk of its own, then IEND.
        uLong adler = bands[0].adler;
        for (uint32_t b = 1; b < band_count; ++b)
            // The combination needs the second length modulo 65521 only (RFC 1950's BASE; zlib
            // reduces it first too): z_off_t is 32 bits on Windows, where adler32_combine64 is absent.
            adler = adler32_combine(adler, bands[b].adler, z_off_t(bands[b].filtered_bytes % 65521));
        for (Band& band : bands) result.pieces.push_back(std::move(band.chunks));
        std::vector<uint8_t> tail;
        uint8_t adler_be[4];
        put_u32_be(adler_be, uint32_t(adler));
        append_chunk(tail, "IDAT", adler_be, 4);
        append_chunk(tail, "IEND", nullptr, 0);
        result.pieces.push_back(std::move(tail));
        result.ok = true;
    } catch (const std::bad_alloc&) {
        result.pieces.clear();
        result.error = "out of memory";
    }
    return result;
}

}  // namespace png_parallel

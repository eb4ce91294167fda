#include "native_bc_vectors.h"

#include <zstd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "random_blocks.h"

namespace texdec_test {
namespace {

constexpr uint64_t kRandomSeed = 10;
constexpr size_t kRandomBlocks = 2048;
constexpr uint32_t kCodes0123 = 0xE4E4E4E4u;  // every row: codes 0, 1, 2, 3

void put16(uint8_t* p, uint32_t v) { p[0] = uint8_t(v), p[1] = uint8_t(v >> 8); }
void put32(uint8_t* p, uint32_t v) { put16(p, v), put16(p + 2, v >> 16); }

// The 64-bit BC4-style channel block (BC3 alpha, BC4, BC5 halves): endpoints, then 16 3-bit codes
// given as rows of 4 codes.
void put_channel_block(uint8_t* p, uint32_t e0, uint32_t e1, const uint32_t row_codes[4][4]) {
    p[0] = uint8_t(e0), p[1] = uint8_t(e1);
    uint64_t codes = 0;
    for (int t = 0; t < 16; ++t) codes |= uint64_t(row_codes[t / 4][t % 4]) << (3 * t);
    for (int b = 0; b < 6; ++b) p[2 + b] = uint8_t(codes >> (8 * b));
}

// Block i of a BC1-style colour sweep; `red_order`: +1 red e0 > e1, -1 red e0 < e1, 0 equal.
void put_colour_block(uint8_t* p, uint32_t i, int red_order) {
    const uint32_t g0 = (i >> 6) & 63, g1 = i & 63;  // every 6-bit pair once
    const uint32_t b0 = (i >> 5) & 31, b1 = i & 31;  // every 5-bit pair 4 times
    uint32_t r0, r1;
    if (red_order == 0) {
        r0 = r1 = (i * 7) & 31;
    } else {
        // The 496 pairs hi > lo, in turn.
        uint32_t k = i % 496, hi = 1;
        while (k >= hi) k -= hi, ++hi;
        r0 = red_order > 0 ? hi : k;
        r1 = red_order > 0 ? k : hi;
    }
    put16(p, r0 << 11 | g0 << 5 | b0);
    put16(p + 2, r1 << 11 | g1 << 5 | b1);
    put32(p + 4, kCodes0123);
}

std::vector<uint8_t> colour_sweep(const BcFormat& f, int red_order) {
    std::vector<uint8_t> out(4096 * f.block_bytes, 0);
    for (uint32_t i = 0; i < 4096; ++i) {
        uint8_t* p = &out[i * f.block_bytes];
        if (f.kind == BcKind::BC2)  // alpha code of texel t: (t + i) mod 16
            for (uint32_t t = 0; t < 16; t += 2) p[t / 2] = uint8_t(((t + i) & 15) | ((t + 1 + i) & 15) << 4);
        if (f.kind == BcKind::BC3) {  // alpha: a fixed 8-value block, codes 0..7
            const uint32_t codes[4][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 2, 3}, {4, 5, 6, 7}};
            put_channel_block(p, 200, 17, codes);
        }
        put_colour_block(p + f.block_bytes - 8, i, red_order);
    }
    return out;
}

std::vector<uint8_t> pair_sweep(const BcFormat& f) {
    static const uint32_t kForward[4][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 2, 3}, {4, 5, 6, 7}};
    static const uint32_t kReversed[4][4] = {{7, 6, 5, 4}, {3, 2, 1, 0}, {7, 6, 5, 4}, {3, 2, 1, 0}};
    std::vector<uint8_t> out(65536 * f.block_bytes, 0);
    for (uint32_t i = 0; i < 65536; ++i) {
        uint8_t* p = &out[i * f.block_bytes];
        const uint32_t e0 = i >> 8, e1 = i & 255;
        put_channel_block(p, e0, e1, kForward);
        if (f.kind == BcKind::BC5) put_channel_block(p + 8, e1, e0, kReversed);
        if (f.kind == BcKind::BC3) put_colour_block(p + 8, i & 4095, (i >> 12) % 3 == 0 ? 1 : (i >> 12) % 3 == 1 ? -1 : 0);
    }
    return out;
}

}  // namespace

std::vector<CaptureSet> capture_sets(const BcFormat& f) {
    std::vector<CaptureSet> sets;
    if (f.kind == BcKind::BC1_RGB || f.kind == BcKind::BC1_RGBA || f.kind == BcKind::BC2 || f.kind == BcKind::BC3) {
        sets.push_back({"colour-4", colour_sweep(f, 1)});
        sets.push_back({"colour-3", colour_sweep(f, -1)});
        sets.push_back({"red-equal", colour_sweep(f, 0)});
    }
    if (f.kind == BcKind::BC3 || f.kind == BcKind::BC4 || f.kind == BcKind::BC5) sets.push_back({"pairs", pair_sweep(f)});
    // sRGB formats: the UNORM twin's blocks (random_blocks seeds by format).
    sets.push_back({"random", random_blocks(bc_unorm_twin(f), kRandomBlocks, kRandomSeed)});
    return sets;
}

uint64_t fnv1a64(const uint8_t* data, size_t size) {
    uint64_t h = 0xCBF29CE484222325ull;
    for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 0x100000001B3ull;
    return h;
}

std::string native_vectors_file_name(const BcFormat& f) { return std::string(bc_unorm_twin(f).name) + ".tdv"; }

std::vector<uint8_t> write_native_vectors(const NativeVectors& v) {
    std::ostringstream header;
    header << "texdec native BC vectors: 2\n"
           << "device: " << v.device << "\n"
           << "vendor: " << v.vendor << "\n"
           << "driver: " << v.driver << "\n"
           << "format: " << v.format << "\n"
           << "channels: " << v.channels << "\n";
    // The 16-bit values say nothing the bytes do not when each is 257 times its byte (UNORM).
    bool eight_bit = v.format.find("snorm") == std::string::npos;
    for (const auto& s : v.sets)
        for (size_t i = 0; i < s.values.size() && eight_bit; ++i) eight_bit = s.values[i] == 257u * s.bytes[i];
    header << "values: " << (eight_bit ? "257 x byte" : "16-bit") << "\n";
    for (const auto& s : v.sets) {
        char line[160];
        std::snprintf(line, sizeof line, "set: %s %zu %016llx\n", s.name.c_str(), s.blocks, (unsigned long long)s.checksum);
        header << line;
    }
    header << "\n";
    const std::string text = header.str();
    std::vector<uint8_t> payload(text.begin(), text.end());
    const size_t stride = size_t(eight_bit ? 16 : 48) * v.channels;  // bytes per block
    for (const auto& s : v.sets) {
        std::vector<uint8_t> body;
        const size_t per_block = size_t(16) * v.channels;
        for (size_t b = 0; b < s.blocks; ++b) {
            body.insert(body.end(), s.bytes.begin() + b * per_block, s.bytes.begin() + (b + 1) * per_block);
            for (size_t i = b * per_block; i < (b + 1) * per_block && !eight_bit; ++i)
                body.push_back(uint8_t(s.values[i])), body.push_back(uint8_t(s.values[i] >> 8));
        }
        for (size_t i = 0; i < body.size(); ++i)
            payload.push_back(uint8_t(body[i] - (i >= stride ? body[i - stride] : 0)));
    }
    std::vector<uint8_t> file(ZSTD_compressBound(payload.size()));
    const size_t n = ZSTD_compress(file.data(), file.size(), payload.data(), payload.size(), 19);
    if (ZSTD_isError(n)) return {};
    file.resize(n);
    return file;
}

bool read_native_vectors(const std::vector<uint8_t>& file, NativeVectors& v, std::string& error) {
    const unsigned long long size = ZSTD_getFrameContentSize(file.data(), file.size());
    if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > (1ull << 30)) {
        error = "not a Zstandard frame with a known size";
        return false;
    }
    std::vector<uint8_t> payload(size);
    const size_t n = ZSTD_decompress(payload.data(), payload.size(), file.data(), file.size());
    if (ZSTD_isError(n) || n != size) {
        error = "Zstandard: cannot decompress";
        return false;
    }
    size_t pos = 0;
    bool magic = false, eight_bit = false;
    v = NativeVectors{};
    for (;;) {
        const auto newline = std::find(payload.begin() + pos, payload.end(), uint8_t('\n'));
        if (newline == payload.end()) {
            error = "header has no end";
            return false;
        }
        const std::string line(payload.begin() + pos, newline);
        pos = size_t(newline - payload.begin()) + 1;
        if (line.empty()) break;
        const size_t colon = line.find(": ");
        if (colon == std::string::npos) {
            error = "header line without 'key: value': " + line;
            return false;
        }
        const std::string key = line.substr(0, colon), value = line.substr(colon + 2);
        if (key == "texdec native BC vectors") magic = value == "2";
        else if (key == "device") v.device = value;
        else if (key == "vendor") v.vendor = value;
        else if (key == "driver") v.driver = value;
        else if (key == "format") v.format = value;
        else if (key == "values") eight_bit = value == "257 x byte";
        else if (key == "channels") v.channels = uint32_t(std::strtoul(value.c_str(), nullptr, 10));
        else if (key == "set") {
            NativeVectors::Set s;
            char name[64];
            unsigned long long checksum = 0;
            if (std::sscanf(value.c_str(), "%63s %zu %llx", name, &s.blocks, &checksum) != 3) {
                error = "bad set line: " + line;
                return false;
            }
            s.name = name, s.checksum = checksum;
            v.sets.push_back(std::move(s));
        }
    }
    if (!magic || v.channels < 1 || v.channels > 4) {
        error = "not a version 2 vector file with 1 to 4 channels";
        return false;
    }
    const size_t per_block = size_t(16) * v.channels, stride = (eight_bit ? 1 : 3) * per_block;
    for (auto& s : v.sets) {
        if (s.blocks > (payload.size() - pos) / stride) {
            error = "body shorter than the sets say";
            return false;
        }
        std::vector<uint8_t> body(s.blocks * stride);
        for (size_t i = 0; i < body.size(); ++i) body[i] = uint8_t(payload[pos + i] + (i >= stride ? body[i - stride] : 0));
        pos += body.size();
        s.bytes.resize(s.blocks * per_block);
        s.values.resize(s.blocks * per_block);
        for (size_t b = 0; b < s.blocks; ++b) {
            const uint8_t* block = &body[b * stride];
            for (size_t i = 0; i < per_block; ++i) {
                s.bytes[b * per_block + i] = block[i];
                s.values[b * per_block + i] = eight_bit ? uint16_t(257u * block[i])
                                                        : uint16_t(block[per_block + 2 * i] | block[per_block + 2 * i + 1] << 8);
            }
        }
    }
    if (pos != payload.size()) {
        error = "body longer than the sets say";
        return false;
    }
    return true;
}

}  // namespace texdec_test

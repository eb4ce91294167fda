// Block data for the benchmark (see bench_blocks.h). The BC and ETC encoders here are deliberately simple:
// the per-block bounding box of the colours (or of the channel) as endpoints, then the nearest
// palette entry per texel. That gives blocks with realistic endpoint and index statistics; it is
// not a quality encoder and nothing else uses it.
#include "bench_blocks.h"

#include "bench_bptc.h"

#include <astcenc.h>

#include "luts/etc_tables.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace bench {
namespace {

uint32_t hash32(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

// Smooth value noise in [0, 1) on a grid of `cell` texels.
float value_noise(uint32_t x, uint32_t y, uint32_t cell, uint32_t seed) {
    const uint32_t cx = x / cell, cy = y / cell;
    const float fx = float(x % cell) / float(cell), fy = float(y % cell) / float(cell);
    auto corner = [&](uint32_t i, uint32_t j) {
        return float(hash32((cx + i) * 73856093u ^ (cy + j) * 19349663u ^ seed) & 0xFFFF) / 65536.0f;
    };
    const float sx = fx * fx * (3 - 2 * fx), sy = fy * fy * (3 - 2 * fy);
    const float a = corner(0, 0) + (corner(1, 0) - corner(0, 0)) * sx;
    const float b = corner(0, 1) + (corner(1, 1) - corner(0, 1)) * sx;
    return a + (b - a) * sy;
}

uint8_t clamp_byte(float v) { return uint8_t(std::clamp(v + 0.5f, 0.0f, 255.0f)); }

// ---- BC encoders -------------------------------------------------------------------------------

struct Texel {
    int r, g, b, a;
};

void load_block(const std::vector<uint8_t>& rgba, uint32_t width, uint32_t bx, uint32_t by, Texel out[16]) {
    for (uint32_t y = 0; y < 4; ++y)
        for (uint32_t x = 0; x < 4; ++x) {
            const uint8_t* p = &rgba[((size_t(by) * 4 + y) * width + bx * 4 + x) * 4];
            out[y * 4 + x] = {p[0], p[1], p[2], p[3]};
        }
}

uint16_t pack565(int r, int g, int b) {
    return uint16_t(((r * 31 + 127) / 255) << 11 | ((g * 63 + 127) / 255) << 5 | ((b * 31 + 127) / 255));
}

Texel unpack565(uint16_t c) {
    const int r = c >> 11, g = (c >> 5) & 63, b = c & 31;
    return {(r << 3) | (r >> 2), (g << 2) | (g >> 4), (b << 3) | (b >> 2), 255};
}

// BC1 colour block (8 bytes), always in 4-colour mode (c0 > c1) or one colour (c0 == c1).
void encode_bc1_colour(const Texel t[16], uint8_t out[8]) {
    int lo[3] = {255, 255, 255}, hi[3] = {0, 0, 0};
    for (int i = 0; i < 16; ++i) {
        const int c[3] = {t[i].r, t[i].g, t[i].b};
        for (int k = 0; k < 3; ++k) lo[k] = std::min(lo[k], c[k]), hi[k] = std::max(hi[k], c[k]);
    }
    uint16_t c0 = pack565(hi[0], hi[1], hi[2]), c1 = pack565(lo[0], lo[1], lo[2]);
    if (c0 < c1) std::swap(c0, c1);
    uint32_t indices = 0;
    if (c0 != c1) {
        const Texel e0 = unpack565(c0), e1 = unpack565(c1);
        const Texel pal[4] = {e0,
                              e1,
                              {(2 * e0.r + e1.r) / 3, (2 * e0.g + e1.g) / 3, (2 * e0.b + e1.b) / 3, 255},
                              {(e0.r + 2 * e1.r) / 3, (e0.g + 2 * e1.g) / 3, (e0.b + 2 * e1.b) / 3, 255}};
        for (int i = 0; i < 16; ++i) {
            int best = 0, best_d = 1 << 30;
            for (int p = 0; p < 4; ++p) {
                const int dr = t[i].r - pal[p].r, dg = t[i].g - pal[p].g, db = t[i].b - pal[p].b;
                const int d = dr * dr + dg * dg + db * db;
                if (d < best_d) best_d = d, best = p;
            }
            indices |= uint32_t(best) << (2 * i);
        }
    }
    out[0] = uint8_t(c0), out[1] = uint8_t(c0 >> 8), out[2] = uint8_t(c1), out[3] = uint8_t(c1 >> 8);
    std::memcpy(out + 4, &indices, 4);  // little-endian host
}

// One BC4 channel block (8 bytes) in the 8-value mode (e0 > e1), or one value (e0 == e1).
// Signed: values are -127..127 stored as two's complement bytes.
void encode_bc4_channel(const int v[16], bool is_signed, uint8_t out[8]) {
    int lo = 255, hi = -255;
    for (int i = 0; i < 16; ++i) lo = std::min(lo, v[i]), hi = std::max(hi, v[i]);
    uint64_t indices = 0;
    if (hi != lo) {
        int pal[8] = {hi, lo};
        for (int k = 1; k < 7; ++k) pal[k + 1] = ((7 - k) * hi + k * lo) / 7;
        for (int i = 0; i < 16; ++i) {
            int best = 0, best_d = 1 << 30;
            for (int p = 0; p < 8; ++p) {
                const int d = std::abs(v[i] - pal[p]);
                if (d < best_d) best_d = d, best = p;
            }
            indices |= uint64_t(best) << (3 * i);
        }
    }
    out[0] = uint8_t(is_signed ? int8_t(hi) : hi);
    out[1] = uint8_t(is_signed ? int8_t(lo) : lo);
    for (int k = 0; k < 6; ++k) out[2 + k] = uint8_t(indices >> (8 * k));
}

void channel(const Texel t[16], int which, bool is_signed, int out[16]) {
    for (int i = 0; i < 16; ++i) {
        const int c = which == 0 ? t[i].r : which == 1 ? t[i].g : t[i].a;
        out[i] = is_signed ? std::max(c - 128, -127) : c;
    }
}

// Calls encode(texels, out) for every 4x4 block of the image (width and height multiples of 4),
// blocks in block order: the block walk the BC, BPTC and ETC encoders share.
template <class Encode>
std::vector<uint8_t> encode_blocks(const texdec_format_info& info, const std::vector<uint8_t>& rgba, uint32_t width,
                                   uint32_t height, Encode encode) {
    const uint32_t bx_count = width / 4, by_count = height / 4;
    std::vector<uint8_t> blocks(size_t(bx_count) * by_count * info.bytes_per_block);
    Texel t[16];
    for (uint32_t by = 0; by < by_count; ++by)
        for (uint32_t bx = 0; bx < bx_count; ++bx) {
            load_block(rgba, width, bx, by, t);
            encode(t, &blocks[(size_t(by) * bx_count + bx) * info.bytes_per_block]);
        }
    return blocks;
}

std::vector<uint8_t> encode_bc(const texdec_format_info& info, const std::vector<uint8_t>& rgba, uint32_t width,
                               uint32_t height) {
    const bool is_signed = info.flags & TEXDEC_FORMAT_FLAG_SIGNED;
    return encode_blocks(info, rgba, width, height, [&](const Texel t[16], uint8_t* out) {
        const auto bc4_channel = [&](int c, bool channel_signed, uint8_t* dst) {  // channel c as one BC4 block
            int v[16];
            channel(t, c, channel_signed, v);
            encode_bc4_channel(v, channel_signed, dst);
        };
        switch (info.format) {
        case TEXDEC_FORMAT_BC1_RGB_UNORM:
        case TEXDEC_FORMAT_BC1_RGB_SRGB:
        case TEXDEC_FORMAT_BC1_RGBA_UNORM:
        case TEXDEC_FORMAT_BC1_RGBA_SRGB: encode_bc1_colour(t, out); break;
        case TEXDEC_FORMAT_BC2_UNORM:
        case TEXDEC_FORMAT_BC2_SRGB:
            for (int i = 0; i < 16; i += 2)
                out[i / 2] = uint8_t((t[i].a * 15 + 127) / 255 | ((t[i + 1].a * 15 + 127) / 255) << 4);
            encode_bc1_colour(t, out + 8);
            break;
        case TEXDEC_FORMAT_BC3_UNORM:
        case TEXDEC_FORMAT_BC3_SRGB:
            bc4_channel(3, false, out);
            encode_bc1_colour(t, out + 8);
            break;
        case TEXDEC_FORMAT_BC4_UNORM:
        case TEXDEC_FORMAT_BC4_SNORM: bc4_channel(0, is_signed, out); break;
        case TEXDEC_FORMAT_BC5_UNORM:
        case TEXDEC_FORMAT_BC5_SNORM:
            bc4_channel(0, is_signed, out);
            bc4_channel(1, is_signed, out + 8);
            break;
        default: throw std::runtime_error(std::string("the benchmark has no encoder for ") + info.name);
        }
    });
}

// ---- BPTC encoders (bench_bptc.cpp) ----------------------------------------------------------

std::vector<uint8_t> encode_bptc(const texdec_format_info& info, const std::vector<uint8_t>& rgba, uint32_t width,
                                 uint32_t height) {
    return encode_blocks(info, rgba, width, height, [&](const Texel t[16], uint8_t* out) {
        int texels[16][4], rgb[16][3];
        for (int i = 0; i < 16; ++i) {
            texels[i][0] = rgb[i][0] = t[i].r, texels[i][1] = rgb[i][1] = t[i].g, texels[i][2] = rgb[i][2] = t[i].b;
            texels[i][3] = t[i].a;
        }
        if (info.family == TEXDEC_FAMILY_BC7) encode_bc7_block(texels, out);
        else encode_bc6h_block(rgb, info.flags & TEXDEC_FORMAT_FLAG_SIGNED, out);
    });
}

// ---- ETC2 / EAC encoders (KDFS "ETC2 Compressed Texture Image Formats") ------------------------
// Differential mode only for the colour (the two half-block averages, the delta clamped to the
// 3-bit range, the best intensity table per half), the best of the 16 EAC tables with a fitted
// multiplier for alpha and R11 / RG11: realistic index statistics, not a quality encoder.

// Texel (x, y) of the block's 16 pixel indices, column-major ("pixel index ... a, b, c, ... p").
int etc_pixel(int x, int y) { return x * 4 + y; }

uint64_t encode_etc_colour(const Texel t[16]) {
    const auto& tables = texdec::luts::etc_intensity_modifiers();  // [-b, -a, +a, +b]
    uint64_t best_word = 0;
    long best_error = -1;
    for (int flip = 0; flip < 2; ++flip) {
        // flip 0: halves are the left / right 2x4 columns; flip 1: top / bottom 4x2 rows.
        auto half_of = [&](int x, int y) { return flip ? (y >= 2) : (x >= 2); };
        int avg[2][3] = {};
        for (int y = 0; y < 4; ++y)
            for (int x = 0; x < 4; ++x) {
                const Texel& c = t[y * 4 + x];
                int* a = avg[half_of(x, y)];
                a[0] += c.r, a[1] += c.g, a[2] += c.b;
            }
        int base5[2][3], base8[2][3];
        for (int c = 0; c < 3; ++c) {
            base5[0][c] = std::clamp((avg[0][c] / 8 * 31 + 127) / 255, 0, 31);
            const int second = std::clamp((avg[1][c] / 8 * 31 + 127) / 255, 0, 31);
            base5[1][c] = base5[0][c] + std::clamp(second - base5[0][c], -4, 3);
            for (int h = 0; h < 2; ++h) base8[h][c] = (base5[h][c] << 3) | (base5[h][c] >> 2);
        }
        uint64_t word = uint64_t(flip) << 32 | uint64_t(1) << 33;  // differential
        for (int c = 0; c < 3; ++c) {
            word |= uint64_t(base5[0][c]) << (59 - 8 * c);
            word |= uint64_t((base5[1][c] - base5[0][c]) & 7) << (56 - 8 * c);
        }
        long error = 0;
        for (int h = 0; h < 2; ++h) {
            int best_table = 0;
            long best_half = -1;
            uint32_t best_indices = 0;  // MSBs << 16 | LSBs
            for (int table = 0; table < 8; ++table) {
                long e = 0;
                uint32_t indices = 0;
                for (int y = 0; y < 4; ++y)
                    for (int x = 0; x < 4; ++x) {
                        if (half_of(x, y) != h) continue;
                        const Texel& c = t[y * 4 + x];
                        long pixel_best = -1;
                        int pick = 0;
                        for (int column = 0; column < 4; ++column) {
                            const int m = tables[table][column];
                            long d = 0;
                            const int v[3] = {c.r, c.g, c.b};
                            for (int k = 0; k < 3; ++k) {
                                const int diff = std::clamp(base8[h][k] + m, 0, 255) - v[k];
                                d += diff * diff;
                            }
                            if (pixel_best < 0 || d < pixel_best) pixel_best = d, pick = column;
                        }
                        // Pixel index values: 00 +a, 01 +b, 10 -a, 11 -b; columns are -b, -a, +a, +b.
                        static const uint32_t kIndexOfColumn[4] = {3, 2, 0, 1};
                        const uint32_t index = kIndexOfColumn[pick];
                        const int k = etc_pixel(x, y);
                        indices |= ((index >> 1) << (16 + k)) | ((index & 1) << k);
                        e += pixel_best;
                    }
                if (best_half < 0 || e < best_half) best_half = e, best_table = table, best_indices = indices;
            }
            word |= uint64_t(best_table) << (37 - 3 * h);
            word |= best_indices;
            error += best_half;
        }
        if (best_error < 0 || error < best_error) best_error = error, best_word = word;
    }
    return best_word;
}

// One EAC channel block of 8-bit values v (alpha, or R11/RG11 through 8-bit data): base, multiplier,
// table, 16 3-bit indices. Signed: v is -127..127 and the base byte is two's complement.
uint64_t encode_eac_channel(const int v[16], bool is_signed) {
    const auto& tables = texdec::luts::eac_modifiers();
    const int lo = *std::min_element(v, v + 16), hi = *std::max_element(v, v + 16);
    const int base = (lo + hi + 1) >> 1;
    uint64_t best_word = 0;
    long best_error = -1;
    for (int table = 0; table < 16; ++table) {
        const int span = tables[table][7] - tables[table][3];  // largest minus smallest modifier
        const int multiplier = std::clamp((hi - lo + span / 2) / std::max(span, 1), 1, 15);
        uint64_t indices = 0;
        long error = 0;
        for (int y = 0; y < 4; ++y)
            for (int x = 0; x < 4; ++x) {
                const int value = v[y * 4 + x];
                long pixel_best = -1;
                int pick = 0;
                for (int i = 0; i < 8; ++i) {
                    const int d =
                        std::clamp(base + tables[table][i] * multiplier, is_signed ? -127 : 0, is_signed ? 127 : 255) -
                        value;
                    if (pixel_best < 0 || long(d) * d < pixel_best) pixel_best = long(d) * d, pick = i;
                }
                indices |= uint64_t(pick) << (45 - 3 * etc_pixel(x, y));
                error += pixel_best;
            }
        if (best_error < 0 || error < best_error) {
            best_error = error;
            best_word = uint64_t(uint8_t(base)) << 56 | uint64_t(multiplier) << 52 | uint64_t(table) << 48 | indices;
        }
    }
    return best_word;
}

void put_big_endian(uint8_t* out, uint64_t word) {
    for (int i = 0; i < 8; ++i) out[i] = uint8_t(word >> (56 - 8 * i));
}

std::vector<uint8_t> encode_etc(const texdec_format_info& info, const std::vector<uint8_t>& rgba, uint32_t width,
                                uint32_t height) {
    const bool is_signed = info.flags & TEXDEC_FORMAT_FLAG_SIGNED;
    return encode_blocks(info, rgba, width, height, [&](const Texel t[16], uint8_t* out) {
        int v[16];
        if (info.family == TEXDEC_FAMILY_ETC2) {
            if (info.bytes_per_block == 16) {  // RGBA8: EAC alpha first
                channel(t, 3, false, v);
                put_big_endian(out, encode_eac_channel(v, false));
                out += 8;
            }
            put_big_endian(out, encode_etc_colour(t));  // RGB8A1: "opaque" bit set, no punch-through
        } else {
            for (uint32_t c = 0; c < info.bytes_per_block / 8; ++c) {
                channel(t, int(c), is_signed, v);
                put_big_endian(out + 8 * c, encode_eac_channel(v, is_signed));
            }
        }
    });
}

// ---- ASTC through libastcenc ------------------------------------------------------------------

std::vector<uint8_t> encode_astc(const texdec_format_info& info, const std::vector<uint8_t>& rgba, uint32_t width,
                                 uint32_t height, unsigned threads) {
    const bool hdr = info.flags & TEXDEC_FORMAT_FLAG_HDR;
    const astcenc_profile profile = hdr                                      ? ASTCENC_PRF_HDR
                                    : (info.flags & TEXDEC_FORMAT_FLAG_SRGB) ? ASTCENC_PRF_LDR_SRGB
                                                                             : ASTCENC_PRF_LDR;
    astcenc_config config{};
    astcenc_error e = astcenc_config_init(profile, info.block_width, info.block_height, info.block_depth,
                                          ASTCENC_PRE_FASTEST, 0, &config);
    if (e != ASTCENC_SUCCESS)
        throw std::runtime_error(std::string("astcenc_config_init: ") + astcenc_get_error_string(e));
    astcenc_context* ctx = nullptr;
    threads = std::max(1u, threads);
    e = astcenc_context_alloc(&config, threads, &ctx);
    if (e != ASTCENC_SUCCESS)
        throw std::runtime_error(std::string("astcenc_context_alloc: ") + astcenc_get_error_string(e));
    const uint32_t bx = (width + info.block_width - 1) / info.block_width;
    const uint32_t by = (height + info.block_height - 1) / info.block_height;
    std::vector<uint8_t> blocks(size_t(bx) * by * 16);
    // HDR: the image's colours as floats, brightened up to 2^6 across the image (u + v) so the encoder
    // picks HDR endpoint modes; alpha stays 1.
    std::vector<float> hdr_texels;
    if (hdr) {
        hdr_texels.resize(rgba.size());
        for (uint32_t y = 0; y < height; ++y)
            for (uint32_t x = 0; x < width; ++x) {
                const size_t i = (size_t(y) * width + x) * 4;
                const float gain = std::exp2(6.0f * (float(x) / float(width) + float(y) / float(height)) / 2.0f);
                for (int c = 0; c < 3; ++c) hdr_texels[i + c] = float(rgba[i + c]) / 255.0f * gain;
                hdr_texels[i + 3] = 1.0f;
            }
    }
    void* slices[1] = {hdr ? static_cast<void*>(hdr_texels.data()) : const_cast<uint8_t*>(rgba.data())};
    astcenc_image image{width, height, 1, hdr ? ASTCENC_TYPE_F32 : ASTCENC_TYPE_U8, slices};
    const astcenc_swizzle swizzle{ASTCENC_SWZ_R, ASTCENC_SWZ_G, ASTCENC_SWZ_B, ASTCENC_SWZ_A};
    std::vector<astcenc_error> results(threads, ASTCENC_SUCCESS);
    std::vector<std::thread> workers;
    for (unsigned i = 0; i < threads; ++i)
        workers.emplace_back(
            [&, i] { results[i] = astcenc_compress_image(ctx, &image, &swizzle, blocks.data(), blocks.size(), i); });
    for (auto& w : workers) w.join();
    astcenc_context_free(ctx);
    for (astcenc_error r : results)
        if (r != ASTCENC_SUCCESS)
            throw std::runtime_error(std::string("astcenc_compress_image: ") + astcenc_get_error_string(r));
    return blocks;
}

}  // namespace

std::vector<uint8_t> procedural_image(uint32_t width, uint32_t height) {
    std::vector<uint8_t> rgba(size_t(width) * height * 4);
    const float pi = 3.14159265f;
    for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x) {
            const float u = float(x) / float(width), v = float(y) / float(height);
            // Smooth gradients.
            float r = 128 + 110 * std::sin(2 * pi * (1.5f * u + 0.3f * v));
            float g = 128 + 110 * std::cos(2 * pi * (2.0f * v - 0.7f * u));
            float b = 255 * u * (1 - v) + 40 * value_noise(x, y, 64, 7);
            float a = 255;
            // Hard edges: discs of flat colour, stripes, a checkerboard quadrant.
            for (uint32_t d = 0; d < 12; ++d) {
                const float cx = float(hash32(d * 2 + 1) % 1000) / 1000, cy = float(hash32(d * 2 + 2) % 1000) / 1000;
                const float rad = 0.03f + 0.08f * float(hash32(d + 100) % 100) / 100;
                if ((u - cx) * (u - cx) + (v - cy) * (v - cy) < rad * rad) {
                    const uint32_t c = hash32(d + 500);
                    r = float(c & 255), g = float((c >> 8) & 255), b = float((c >> 16) & 255);
                    if (d % 3 == 0) a = float(64 + (c >> 24) % 128);
                }
            }
            if (u > 0.55f && u < 0.75f && ((x / 6) % 2 == 0)) r = 255 - r, g = 255 - g;
            if (u < 0.4f && v > 0.6f && (((x / 16) + (y / 16)) % 2 == 0)) r *= 0.25f, g *= 0.25f, b = 255 - b;
            // Noise: fine grain everywhere, strong in a band (texture-like detail).
            const float grain = (float(hash32(x * 7919u + y * 104729u) & 255) - 127.5f) / 127.5f;
            const float amp = (v > 0.25f && v < 0.45f) ? 40.0f : 6.0f;
            r += amp * grain, g += amp * grain * 0.8f, b += amp * grain * 0.6f;
            // Alpha: opaque, a soft ramp in the upper right, the discs above.
            if (u > 0.7f && v < 0.3f) a = 255 * (1 - (u - 0.7f) / 0.3f * (0.3f - v) / 0.3f);
            uint8_t* p = &rgba[(size_t(y) * width + x) * 4];
            p[0] = clamp_byte(r), p[1] = clamp_byte(g), p[2] = clamp_byte(b), p[3] = clamp_byte(a);
        }
    return rgba;
}

std::vector<uint8_t> encode_image(texdec_format format, const std::vector<uint8_t>& rgba, uint32_t width,
                                  uint32_t height, unsigned threads) {
    texdec_format_info info{};
    if (texdec_format_get_info(format, &info) != TEXDEC_SUCCESS) throw std::runtime_error("unknown format");
    if (info.family == TEXDEC_FAMILY_ASTC && info.block_depth == 1)
        return encode_astc(info, rgba, width, height, threads);
    if (info.family == TEXDEC_FAMILY_BC1_3 || info.family == TEXDEC_FAMILY_BC4_5)
        return encode_bc(info, rgba, width, height);
    if (info.family == TEXDEC_FAMILY_BC6H || info.family == TEXDEC_FAMILY_BC7)
        return encode_bptc(info, rgba, width, height);
    if (info.family == TEXDEC_FAMILY_ETC2 || info.family == TEXDEC_FAMILY_EAC)
        return encode_etc(info, rgba, width, height);
    throw std::runtime_error(std::string("the benchmark has no encoder for ") + info.name + " yet");
}

std::vector<uint8_t> tile_blocks(const std::vector<uint8_t>& src, uint32_t bytes_per_block, uint32_t src_bx,
                                 uint32_t src_by, uint32_t dst_bx, uint32_t dst_by) {
    std::vector<uint8_t> dst(size_t(dst_bx) * dst_by * bytes_per_block);
    for (uint32_t y = 0; y < dst_by; ++y) {
        const uint8_t* src_row = &src[size_t(y % src_by) * src_bx * bytes_per_block];
        uint8_t* dst_row = &dst[size_t(y) * dst_bx * bytes_per_block];
        for (uint32_t x = 0; x < dst_bx; x += src_bx) {
            const uint32_t n = std::min(src_bx, dst_bx - x);
            std::memcpy(dst_row + size_t(x) * bytes_per_block, src_row, size_t(n) * bytes_per_block);
        }
    }
    return dst;
}

std::vector<uint8_t> random_bytes(size_t bytes, uint64_t seed) {
    std::vector<uint8_t> out((bytes + 7) / 8 * 8);
    uint64_t state = seed;
    for (size_t i = 0; i < out.size(); i += 8) {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        std::memcpy(&out[i], &z, 8);
    }
    out.resize(bytes);
    return out;
}

std::string mode_histogram(texdec_format format, const std::vector<uint8_t>& blocks) {
    texdec_format_info info{};
    if (texdec_format_get_info(format, &info) != TEXDEC_SUCCESS) return {};
    if (info.family != TEXDEC_FAMILY_BC7 && info.family != TEXDEC_FAMILY_BC6H) return {};
    std::map<int, size_t> count;  // mode number (-1: reserved) -> blocks
    const size_t n = blocks.size() / 16;
    for (size_t i = 0; i < n; ++i) {
        const uint8_t low = blocks[i * 16];
        int mode = -1;
        if (info.family == TEXDEC_FAMILY_BC7) {
            for (int m = 0; m < 8 && mode < 0; ++m)
                if ((low >> m) & 1) mode = m;
        } else {
            mode = (low & 3) < 2 ? (low & 3) : (low & 31);
            if (mode == 19 || mode == 23 || mode == 27 || mode == 31) mode = -1;
        }
        ++count[mode];
    }
    std::string text;
    for (const auto& [mode, k] : count) {
        char part[48];
        std::snprintf(part, sizeof part, "%s%s %.1f%%", text.empty() ? "" : ", ",
                      mode < 0 ? "reserved" : ("mode " + std::to_string(mode)).c_str(), 100.0 * double(k) / double(n));
        text += part;
    }
    return text;
}

std::vector<uint8_t> real_image_blocks(texdec_format format, uint32_t bx, uint32_t by, unsigned threads) {
    texdec_format_info info{};
    if (texdec_format_get_info(format, &info) != TEXDEC_SUCCESS) throw std::runtime_error("unknown format");
    // At most 1024 x 1024 texels of source image, in whole blocks.
    const uint32_t src_bx = std::min(bx, (1024 + info.block_width - 1) / info.block_width);
    const uint32_t src_by = std::min(by, (1024 + info.block_height - 1) / info.block_height);
    const uint32_t w = src_bx * info.block_width, h = src_by * info.block_height;
    const std::vector<uint8_t> blocks = encode_image(format, procedural_image(w, h), w, h, threads);
    return tile_blocks(blocks, info.bytes_per_block, src_bx, src_by, bx, by);
}

}  // namespace bench

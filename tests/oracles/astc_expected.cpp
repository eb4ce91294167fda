// See astc_expected.h.
#include "oracles/astc_expected.h"

#include <cstdio>
#include <stdexcept>

namespace texdec_test {

uint16_t half_from_unorm8(uint8_t v) {
    if (v == 0) return 0;
    // v/255 lies in [2^e, 2^(e+1)) with e = -8 .. 0: always a normal FP16 (e >= -14).
    int e = 0;
    while (uint64_t(v) << (-e) < 255) --e;  // v * 2^-e >= 255  <=>  v/255 >= 2^e
    // Significand with 10 fraction bits: q = v/255 * 2^(10 - e), rounded to nearest, ties to even.
    const uint64_t num = uint64_t(v) << (10 - e), den = 255;
    uint64_t q = num / den;
    const uint64_t r = num % den;
    if (2 * r > den || (2 * r == den && (q & 1))) ++q;
    if (q == 2048) q = 1024, ++e;  // rounded up to the next power of two
    if (q < 1024 || q > 2047) throw std::logic_error("half_from_unorm8: significand out of range");
    return uint16_t((unsigned(e + 15) << 10) | unsigned(q - 1024));
}

namespace {

bool is_nan(uint16_t h) { return (h & 0x7FFFu) > 0x7C00u; }

}  // namespace

AstcExpected astc_expected_outputs(AstcProfile profile, AstcFootprint fp, unsigned w, unsigned h, const uint8_t* data,
                                   size_t size) {
    if (fp.z != 1) throw std::runtime_error("astc_expected_outputs: 2D footprints only");
    if (profile == AstcProfile::hdr) throw std::runtime_error("astc_expected_outputs: LDR and sRGB only (HDR: test_astc_hdr.cpp)");
    const std::vector<uint16_t> f16 = astcenc_decode_f16(profile, fp, w, h, 1, data, size);
    std::vector<uint8_t> u8;
    if (profile == AstcProfile::ldr_srgb) u8 = astcenc_decode_u8_srgb(fp, w, h, 1, data, size);
    static std::array<uint16_t, 256> half_table = [] {
        std::array<uint16_t, 256> t{};
        for (unsigned v = 0; v < 256; ++v) t[v] = half_from_unorm8(uint8_t(v));
        return t;
    }();

    AstcExpected out;
    out.rgba8.resize(size_t(w) * h * 4);
    out.rgba16f.resize(size_t(w) * h * 4);
    const unsigned bw = (w + fp.x - 1) / fp.x, bh = (h + fp.y - 1) / fp.y;
    out.kind.resize(size_t(bw) * bh);
    auto anomaly = [&](const uint8_t* block, const std::string& what) {
        if (out.anomalies.size() < 20)
            out.anomalies.push_back(std::string(profile == AstcProfile::ldr ? "LDR " : "sRGB ") + std::to_string(fp.x) +
                                    "x" + std::to_string(fp.y) + " block " + [&] {
                                        std::string s;
                                        char b[4];
                                        for (int i = 0; i < 16; ++i) std::snprintf(b, sizeof b, "%02x", block[i]), s += b;
                                        return s;
                                    }() + ": " + what);
    };

    for (unsigned by = 0; by < bh; ++by)
        for (unsigned bx = 0; bx < bw; ++bx) {
            const uint8_t* block = data + (size_t(by) * bw + bx) * 16;
            // The block's first texel is always inside the extent.
            const size_t first = ((size_t(by) * fp.y) * w + size_t(bx) * fp.x) * 4;
            const bool error = is_nan(f16[first]);
            const bool void_extent = (block[0] | (block[1] & 1) << 8) == 0x1FC;
            std::vector<bool> hdr;
            if (!error && !void_extent) hdr = hdr_endpoint_texels_in_ldr(profile, fp, block);
            AstcBlockKind kind = error ? AstcBlockKind::error
                                 : void_extent ? AstcBlockKind::void_extent
                                 : !hdr.empty() ? AstcBlockKind::hdr_endpoint
                                                : AstcBlockKind::normal;
            out.kind[size_t(by) * bw + bx] = kind;
            out.error_blocks += kind == AstcBlockKind::error;
            out.void_extents += kind == AstcBlockKind::void_extent;
            if (kind == AstcBlockKind::hdr_endpoint) {
                ++out.hdr_endpoint_blocks;
                bool some_ldr = false;
                for (bool f : hdr) some_ldr |= !f;
                out.mixed_hdr_ldr_blocks += some_ldr;
            }
            for (unsigned y = 0; y < fp.y; ++y)
                for (unsigned x = 0; x < fp.x; ++x) {
                    const unsigned ix = bx * fp.x + x, iy = by * fp.y + y;
                    if (ix >= w || iy >= h) continue;
                    const size_t t = (size_t(iy) * w + ix) * 4;
                    uint8_t* o8 = &out.rgba8[t];
                    uint16_t* o16 = &out.rgba16f[t];
                    const bool nan = is_nan(f16[t]) || is_nan(f16[t + 1]) || is_nan(f16[t + 2]) || is_nan(f16[t + 3]);
                    if (nan != error) anomaly(block, "only some texels or channels are NaN in astcenc's FP16 output");
                    if (error) {
                        if (!(f16[t] == 0xFFFF && f16[t + 1] == 0xFFFF && f16[t + 2] == 0xFFFF && f16[t + 3] == 0xFFFF))
                            anomaly(block, "error texel whose FP16 is not 0xFFFF in all four channels");
                        if (!u8.empty() && !(u8[t] == 255 && u8[t + 1] == 0 && u8[t + 2] == 255 && u8[t + 3] == 255))
                            anomaly(block, "sRGB error texel whose U8 is not magenta");
                        o8[0] = 255, o8[1] = 0, o8[2] = 255, o8[3] = 255;
                        o16[0] = o16[1] = o16[2] = o16[3] = 0xFFFF;
                        continue;
                    }
                    if (!hdr.empty() && hdr[y * fp.x + x]) {
                        o8[0] = 255, o8[1] = 0, o8[2] = 255, o8[3] = 255;
                        o16[0] = 0x3C00, o16[1] = 0, o16[2] = 0x3C00, o16[3] = 0x3C00;
                        continue;
                    }
                    for (int c = 0; c < 4; ++c) {
                        if (profile == AstcProfile::ldr) {
                            o8[c] = unorm8_from_f16(f16[t + c]);
                            o16[c] = f16[t + c];
                        } else {
                            o8[c] = u8[t + c];
                            o16[c] = half_table[u8[t + c]];
                        }
                    }
                }
        }
    return out;
}

}  // namespace texdec_test

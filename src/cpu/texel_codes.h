// Channel codes and texel bytes for the CPU decoders: the C++ twins of shaders/common/fp16.glsl,
// encode.glsl and store.glsl's texdec_pack_texel, so that both backends round and pack the same
// way. A channel code is the bits one output channel stores: the byte (UNORM 0..255, SNORM two's
// complement) for 8-bit stores, the IEEE half bit pattern for RGBA16F, the 16-bit word for
// R16/RG16.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

#include "interface.h"

namespace texdec::cpu {

static_assert(std::endian::native == std::endian::little, "blocks and texels are read and written little-endian");

// The little-endian word of type T (uint32_t, uint64_t) at p, which need not be aligned.
template <typename T>
inline T load_le(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

constexpr uint32_t kHalfOne = 0x3C00u;
constexpr uint32_t kHalfSign = 0x8000u;
constexpr uint32_t kHalfInfinity = 0x7C00u;

// Half bits of num / den, correctly rounded (nearest, ties to even), for 0 <= num and
// 0 < den < 2^20 (fp16.glsl's texdec_half_from_ratio, step for step).
inline uint32_t half_from_ratio(uint32_t num, uint32_t den) {
    if (num == 0u) return 0u;
    int e = (31 - std::countl_zero(num)) - (31 - std::countl_zero(den));
    const bool below = e >= 0 ? num < (den << e) : (num << -e) < den;
    if (below) e -= 1;
    if (e > 15) return kHalfInfinity;
    const int shift = e < -14 ? 24 : (10 - e < 24 ? 10 - e : 24);
    uint32_t q, r, divisor = den;
    if (shift >= 0) {
        const uint32_t scaled = num << shift;
        q = scaled / den;
        r = scaled % den;
    } else {
        divisor = den << -shift;
        q = num / divisor;
        r = num % divisor;
    }
    uint32_t bits = e >= -14 ? (uint32_t(e + 15) << 10) + (q - 1024u) : q;
    const uint32_t twice_r = 2u * r;
    if (twice_r > divisor || (twice_r == divisor && (q & 1u) == 1u)) bits += 1u;
    return bits;
}

// Half bits of num / den for a signed num (0 < den < 2^20, |num| < 2^31). Zero is +0.
inline uint32_t half_from_signed_ratio(int32_t num, uint32_t den) {
    const uint32_t magnitude = half_from_ratio(uint32_t(num < 0 ? -int64_t(num) : num), den);
    return num < 0 ? (magnitude | kHalfSign) : magnitude;
}

// encode.glsl, with STORE_IS_HALF, IS_SIGNED and SRGB as arguments.
inline uint32_t code_one(bool half, bool is_signed) { return half ? kHalfOne : (is_signed ? 127u : 255u); }
inline uint32_t code_unorm8(bool half, uint32_t v) { return half ? half_from_ratio(v, 255u) : v; }
inline uint32_t code_snorm8(bool half, int32_t v) {
    return half ? half_from_signed_ratio(v < -127 ? -127 : v, 127u) : (uint32_t(v) & 0xFFu);
}
inline uint32_t code_unorm_ratio(bool half, bool srgb, uint32_t num, uint32_t den) {
    const uint32_t rounded = (510u * num + den) / (2u * den);
    if (half) return srgb ? half_from_ratio(rounded, 255u) : half_from_ratio(num, den);
    return rounded;
}
inline uint32_t code_snorm_ratio(bool half, int32_t num, uint32_t den) {
    if (half) return half_from_signed_ratio(num, den);
    const uint32_t abs_num = uint32_t(num < 0 ? -num : num);
    const int32_t magnitude = int32_t((254u * abs_num + den) / (2u * den));
    return uint32_t(num < 0 ? -magnitude : magnitude) & 0xFFu;
}

// store.glsl's texdec_pack_texel: writes one texel's bytes (little-endian) for a store kind.
inline void pack_texel(uint32_t store, const uint32_t c[4], uint8_t* out) {
    switch (store) {
    case TEXDEC_STORE_RGBA8: {
        const uint32_t w = c[0] | (c[1] << 8) | (c[2] << 16) | (c[3] << 24);
        std::memcpy(out, &w, 4);
        return;
    }
    case TEXDEC_STORE_RGBA16F: {
        const uint32_t w[2] = {c[0] | (c[1] << 16), c[2] | (c[3] << 16)};
        std::memcpy(out, w, 8);
        return;
    }
    case TEXDEC_STORE_RG8:
        out[0] = uint8_t(c[0]);
        out[1] = uint8_t(c[1]);
        return;
    case TEXDEC_STORE_RG16: {
        const uint32_t w = c[0] | (c[1] << 16);
        std::memcpy(out, &w, 4);
        return;
    }
    case TEXDEC_STORE_R16:
        out[0] = uint8_t(c[0]);
        out[1] = uint8_t(c[0] >> 8);
        return;
    default: out[0] = uint8_t(c[0]); return;  // R8
    }
}

// pack_texel with the store kind known at compile time, for decoders that template on it: one
// texel's bytes as an integer of the texel's size (little-endian), and where alpha sits in it.
template <uint32_t S>
struct Store;
template <>
struct Store<TEXDEC_STORE_RGBA8> {
    using T = uint32_t;
    static constexpr uint32_t kAlphaShift = 24;
    static T pack(uint32_t r, uint32_t g, uint32_t b, uint32_t a) { return r | (g << 8) | (b << 16) | (a << 24); }
};
template <>
struct Store<TEXDEC_STORE_RGBA16F> {
    using T = uint64_t;
    static constexpr uint32_t kAlphaShift = 48;
    static T pack(uint32_t r, uint32_t g, uint32_t b, uint32_t a) {
        return T(r) | (T(g) << 16) | (T(b) << 32) | (T(a) << 48);
    }
};
template <>
struct Store<TEXDEC_STORE_R8> {
    using T = uint8_t;
    static T pack(uint32_t r, uint32_t, uint32_t, uint32_t) { return T(r); }
};
template <>
struct Store<TEXDEC_STORE_RG8> {
    using T = uint16_t;
    static T pack(uint32_t r, uint32_t g, uint32_t, uint32_t) { return T(r | (g << 8)); }
};
template <>
struct Store<TEXDEC_STORE_R16> {
    using T = uint16_t;
    static T pack(uint32_t r, uint32_t, uint32_t, uint32_t) { return T(r); }
};
template <>
struct Store<TEXDEC_STORE_RG16> {
    using T = uint32_t;
    static T pack(uint32_t r, uint32_t g, uint32_t, uint32_t) { return r | (g << 16); }
};

// Writes one block row of four packed texels (any alignment).
template <typename T>
void store_row(uint8_t* dst, const T (&texels)[4]) {
    std::memcpy(dst, texels, sizeof texels);
}

}  // namespace texdec::cpu

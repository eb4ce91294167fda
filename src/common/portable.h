// Integer helpers that GCC and Clang have as builtins and MSVC lacks: checked 64-bit add and
// multiply, byte swaps, and 128-bit integers (U128 unsigned, I128 signed: the compiler's __int128
// where there is one, else a pair of 64-bit words with the same results). Header-only, no
// dependency: the library, the CPU backend, the reference decoders and the container code use it.
//
// TEXDEC_PORTABLE_SCALAR (defined before this header, or for a whole target) forces the portable
// branches on any compiler, so that they are built and tested on this machine too
// (tests/CMakeLists.txt: texdec_portable_tests).
#pragma once

#include <compare>
#include <cstdint>
#include <type_traits>

#if defined(__SIZEOF_INT128__) && !defined(TEXDEC_PORTABLE_SCALAR)
#define TEXDEC_HAVE_INT128 1
#else
#define TEXDEC_HAVE_INT128 0
#endif
#if (defined(__GNUC__) || defined(__clang__)) && !defined(TEXDEC_PORTABLE_SCALAR)
#define TEXDEC_HAVE_BUILTINS 1
#else
#define TEXDEC_HAVE_BUILTINS 0
#endif
#if defined(_MSC_VER) && !defined(__clang__) && !defined(TEXDEC_PORTABLE_SCALAR)
#include <stdlib.h>  // _byteswap_ulong, _byteswap_uint64
#define TEXDEC_HAVE_MSVC_BYTESWAP 1
#else
#define TEXDEC_HAVE_MSVC_BYTESWAP 0
#endif

namespace texdec::portable {

// a + b into *out (wrapped); true if it overflowed 64 bits.
inline bool add_overflow(uint64_t a, uint64_t b, uint64_t* out) {
#if TEXDEC_HAVE_BUILTINS
    return __builtin_add_overflow(a, b, out);
#else
    *out = a + b;
    return *out < a;
#endif
}

// a * b into *out (wrapped); true if it overflowed 64 bits.
inline bool mul_overflow(uint64_t a, uint64_t b, uint64_t* out) {
#if TEXDEC_HAVE_BUILTINS
    return __builtin_mul_overflow(a, b, out);
#else
    *out = a * b;
    return a != 0 && *out / a != b;
#endif
}

inline uint32_t byte_swap32(uint32_t v) {
#if TEXDEC_HAVE_BUILTINS
    return __builtin_bswap32(v);
#elif TEXDEC_HAVE_MSVC_BYTESWAP
    return _byteswap_ulong(v);
#else
    return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24);
#endif
}

inline uint64_t byte_swap64(uint64_t v) {
#if TEXDEC_HAVE_BUILTINS
    return __builtin_bswap64(v);
#elif TEXDEC_HAVE_MSVC_BYTESWAP
    return _byteswap_uint64(v);
#else
    return (uint64_t(byte_swap32(uint32_t(v))) << 32) | byte_swap32(uint32_t(v >> 32));
#endif
}

#if TEXDEC_HAVE_INT128
__extension__ typedef unsigned __int128 U128;
__extension__ typedef __int128 I128;
#else
// Unsigned 128-bit integer, arithmetic modulo 2^128, as unsigned __int128. Shifts by 128 or more
// give 0 (unsigned __int128 leaves them undefined; no caller makes one).
class U128 {
public:
    constexpr U128() = default;
    constexpr U128(uint64_t v) : lo_(v) {}  // NOLINT: implicit, as an integer promotes
    static constexpr U128 from_words(uint64_t hi, uint64_t lo) {
        U128 r;
        r.hi_ = hi, r.lo_ = lo;
        return r;
    }
    constexpr uint64_t hi() const { return hi_; }
    constexpr uint64_t lo() const { return lo_; }
    // The low bits, as a cast of unsigned __int128 gives them (bool: nonzero).
    template <class T>
    requires std::is_integral_v<T>
    explicit constexpr operator T() const {
        if constexpr (std::is_same_v<T, bool>) return (hi_ | lo_) != 0;
        else return static_cast<T>(lo_);
    }

    friend constexpr bool operator==(const U128&, const U128&) = default;
    friend constexpr std::strong_ordering operator<=>(const U128& a, const U128& b) {
        return a.hi_ != b.hi_ ? a.hi_ <=> b.hi_ : a.lo_ <=> b.lo_;
    }

    friend constexpr U128 operator~(const U128& a) { return from_words(~a.hi_, ~a.lo_); }
    friend constexpr U128 operator&(const U128& a, const U128& b) { return from_words(a.hi_ & b.hi_, a.lo_ & b.lo_); }
    friend constexpr U128 operator|(const U128& a, const U128& b) { return from_words(a.hi_ | b.hi_, a.lo_ | b.lo_); }
    friend constexpr U128 operator^(const U128& a, const U128& b) { return from_words(a.hi_ ^ b.hi_, a.lo_ ^ b.lo_); }
    friend constexpr U128 operator+(const U128& a, const U128& b) {
        const uint64_t lo = a.lo_ + b.lo_;
        return from_words(a.hi_ + b.hi_ + (lo < a.lo_ ? 1 : 0), lo);
    }
    friend constexpr U128 operator-(const U128& a, const U128& b) {
        return from_words(a.hi_ - b.hi_ - (a.lo_ < b.lo_ ? 1 : 0), a.lo_ - b.lo_);
    }
    friend constexpr U128 operator-(const U128& a) { return U128() - a; }
    friend constexpr U128 operator*(const U128& a, const U128& b) {
        U128 r = mul64(a.lo_, b.lo_);
        r.hi_ += a.hi_ * b.lo_ + a.lo_ * b.hi_;
        return r;
    }
    friend constexpr U128 operator<<(const U128& a, unsigned n) {
        if (n >= 128) return U128();
        if (n >= 64) return from_words(a.lo_ << (n - 64), 0);
        if (n == 0) return a;
        return from_words((a.hi_ << n) | (a.lo_ >> (64 - n)), a.lo_ << n);
    }
    friend constexpr U128 operator>>(const U128& a, unsigned n) {
        if (n >= 128) return U128();
        if (n >= 64) return U128(a.hi_ >> (n - 64));
        if (n == 0) return a;
        return from_words(a.hi_ >> n, (a.lo_ >> n) | (a.hi_ << (64 - n)));
    }
    // Quotient and remainder, shift and subtract (b != 0).
    static constexpr void divide(const U128& a, const U128& b, U128* quotient, U128* remainder) {
        U128 q, r;
        for (int i = 127; i >= 0; --i) {
            r = (r << 1) | ((a >> unsigned(i)) & U128(1));
            if (r >= b) {
                r = r - b;
                q = q | (U128(1) << unsigned(i));
            }
        }
        *quotient = q, *remainder = r;
    }
    friend constexpr U128 operator/(const U128& a, const U128& b) {
        if (a.hi_ == 0 && b.hi_ == 0) return U128(a.lo_ / b.lo_);
        U128 q, r;
        divide(a, b, &q, &r);
        return q;
    }
    friend constexpr U128 operator%(const U128& a, const U128& b) {
        if (a.hi_ == 0 && b.hi_ == 0) return U128(a.lo_ % b.lo_);
        U128 q, r;
        divide(a, b, &q, &r);
        return r;
    }

    constexpr U128& operator+=(const U128& b) { return *this = *this + b; }
    constexpr U128& operator-=(const U128& b) { return *this = *this - b; }
    constexpr U128& operator*=(const U128& b) { return *this = *this * b; }
    constexpr U128& operator/=(const U128& b) { return *this = *this / b; }
    constexpr U128& operator&=(const U128& b) { return *this = *this & b; }
    constexpr U128& operator|=(const U128& b) { return *this = *this | b; }
    constexpr U128& operator<<=(unsigned n) { return *this = *this << n; }
    constexpr U128& operator>>=(unsigned n) { return *this = *this >> n; }
    constexpr U128& operator++() { return *this = *this + 1; }
    constexpr U128& operator--() { return *this = *this - 1; }

    // The full product of two 64-bit words, from 32-bit halves.
    static constexpr U128 mul64(uint64_t a, uint64_t b) {
        const uint64_t a0 = uint32_t(a), a1 = a >> 32, b0 = uint32_t(b), b1 = b >> 32;
        const uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
        const uint64_t mid = (p00 >> 32) + uint32_t(p01) + uint32_t(p10);  // < 3 * 2^32
        return from_words(p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32), (mid << 32) | uint32_t(p00));
    }

private:
    uint64_t lo_ = 0, hi_ = 0;  // as unsigned __int128 lies in little-endian memory
};

// Signed 128-bit integer in two's complement, as __int128 (division truncates toward zero, the
// remainder takes the dividend's sign). Overflow wraps (where __int128's is undefined).
class I128 {
public:
    constexpr I128() = default;
    constexpr I128(int64_t v) : u_(U128::from_words(v < 0 ? ~uint64_t(0) : 0, uint64_t(v))) {}  // NOLINT: implicit
    template <class T>
    requires std::is_integral_v<T>
    explicit constexpr operator T() const { return static_cast<T>(u_); }

    friend constexpr bool operator==(const I128&, const I128&) = default;
    friend constexpr std::strong_ordering operator<=>(const I128& a, const I128& b) {
        return a.biased() <=> b.biased();
    }

    friend constexpr I128 operator-(const I128& a) { return bits(-a.u_); }
    friend constexpr I128 operator+(const I128& a, const I128& b) { return bits(a.u_ + b.u_); }
    friend constexpr I128 operator-(const I128& a, const I128& b) { return bits(a.u_ - b.u_); }
    friend constexpr I128 operator*(const I128& a, const I128& b) { return bits(a.u_ * b.u_); }
    friend constexpr I128 operator&(const I128& a, const I128& b) { return bits(a.u_ & b.u_); }
    friend constexpr I128 operator<<(const I128& a, int n) { return bits(a.u_ << unsigned(n)); }
    friend constexpr I128 operator/(const I128& a, const I128& b) {
        const I128 q = bits(a.magnitude() / b.magnitude());
        return a.negative() != b.negative() ? -q : q;
    }
    friend constexpr I128 operator%(const I128& a, const I128& b) {
        const I128 r = bits(a.magnitude() % b.magnitude());
        return a.negative() ? -r : r;
    }

    constexpr I128& operator+=(const I128& b) { return *this = *this + b; }
    constexpr I128& operator-=(const I128& b) { return *this = *this - b; }
    constexpr I128& operator*=(const I128& b) { return *this = *this * b; }
    constexpr I128& operator++() { return *this = *this + 1; }
    constexpr I128& operator--() { return *this = *this - 1; }

private:
    static constexpr I128 bits(const U128& u) {
        I128 r;
        r.u_ = u;
        return r;
    }
    constexpr bool negative() const { return (u_.hi() >> 63) != 0; }
    constexpr U128 magnitude() const { return negative() ? -u_ : u_; }
    // The value plus 2^127: unsigned order is then signed order.
    constexpr U128 biased() const { return U128::from_words(u_.hi() ^ (uint64_t(1) << 63), u_.lo()); }

    U128 u_;
};
#endif

// a * b + c into *out; false (and *out untouched) if it does not fit 64 bits.
inline bool mul_add_fits(uint64_t a, uint64_t b, uint64_t c, uint64_t* out) {
    const U128 v = U128(a) * b + c;
    if (v > UINT64_MAX) return false;
    *out = uint64_t(v);
    return true;
}

}  // namespace texdec::portable

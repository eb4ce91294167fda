#include "reference/half.h"

#include <stdexcept>

namespace texdec_reference {

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

}  // namespace texdec_reference

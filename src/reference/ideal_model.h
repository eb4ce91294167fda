// IDEAL rounding mode, as a small integer model of docs/EXACTNESS.md's definition:
//   endpoints bit-replicated: (c << 3) | (c >> 2) for 5 bits, (c << 2) | (c >> 4) for 6 bits;
//   interpolants (2a + b) / 3, (a + b) / 2, ((8 - i) a + (i - 1) b) / 7, ((6 - i) a + (i - 1) b) / 5
//   truncating, on the 8-bit values;
//   SNORM: -128 acts as -127 before interpolating, C++ division truncates toward zero, the
//   6-value mode's extra codes are -127 and 127; the mode choice compares the raw bytes.
//
// Why it exists: no packaged decoder decodes signed BC4/BC5 in the IDEAL way. nvtt 2.0.8 and
// libsquish 1.15 have no signed path at all, and Pillow 9.4's "BC5S" pixel format returns a lossy
// 8-bit remapping (measured: s -> about s/2 + 127 for endpoints, but -1.0/+1.0 -> 0/255 for the
// 6-value mode's extra codes), so it cannot give the signed bytes. For SNORM the tests therefore
// use this model as the oracle. Its unsigned half is checked against libnvimage and libsquish on
// every random block (test_oracles.cpp), so only the signed endpoint mapping and the division
// direction rest on the model alone; the hand-built tests pin those with values worked out by hand.
#pragma once

#include <cstdint>

namespace texdec_reference::ideal {

inline unsigned expand5(unsigned c) { return (c << 3) | (c >> 2); }
inline unsigned expand6(unsigned c) { return (c << 2) | (c >> 4); }

// One 8-bit channel of a BC1-style block; e0, e1 are raw endpoint codes of `bits` bits.
unsigned bc1_channel(unsigned e0, unsigned e1, unsigned bits, unsigned code, bool four_colours);

// BC3 alpha / BC4 / BC5 channel: raw endpoints (0..255, or -128..127 when is_signed), code 0..7.
// Returns 0..255, or -127..127 when signed.
int bc4_channel(int r0, int r1, unsigned code, bool is_signed);

}  // namespace texdec_reference::ideal

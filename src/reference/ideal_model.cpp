#include "ideal_model.h"

namespace texdec_reference::ideal {

unsigned bc1_channel(unsigned e0, unsigned e1, unsigned bits, unsigned code, bool four_colours) {
    const unsigned a = bits == 5 ? expand5(e0) : expand6(e0);
    const unsigned b = bits == 5 ? expand5(e1) : expand6(e1);
    switch (code) {
    case 0: return a;
    case 1: return b;
    case 2: return four_colours ? (2 * a + b) / 3 : (a + b) / 2;
    default: return four_colours ? (a + 2 * b) / 3 : 0;
    }
}

int bc4_channel(int r0, int r1, unsigned code, bool is_signed) {
    const int a = is_signed && r0 == -128 ? -127 : r0;
    const int b = is_signed && r1 == -128 ? -127 : r1;
    if (code == 0) return a;
    if (code == 1) return b;
    const int i = int(code);
    if (r0 > r1) return ((8 - i) * a + (i - 1) * b) / 7;  // truncates toward zero
    if (code <= 5) return ((6 - i) * a + (i - 1) * b) / 5;
    if (code == 6) return is_signed ? -127 : 0;
    return is_signed ? 127 : 255;
}

}  // namespace texdec_reference::ideal

// The ASTC footprint list and sizes of astc_reference.h, which need no libastcenc (built where it is
// absent too: the Windows cross-build's tests use them).
#include "reference/astc_reference.h"

namespace texdec_reference {

const std::vector<AstcFootprint>& astc_2d_footprints() {
    static const std::vector<AstcFootprint> list = {{4, 4, 1},  {5, 4, 1},   {5, 5, 1},   {6, 5, 1},  {6, 6, 1},
                                                    {8, 5, 1},  {8, 6, 1},   {8, 8, 1},   {10, 5, 1}, {10, 6, 1},
                                                    {10, 8, 1}, {10, 10, 1}, {12, 10, 1}, {12, 12, 1}};
    return list;
}

size_t astc_encoded_size(AstcFootprint fp, unsigned w, unsigned h, unsigned d) {
    return size_t((w + fp.x - 1) / fp.x) * ((h + fp.y - 1) / fp.y) * ((d + fp.z - 1) / fp.z) * 16;
}

}  // namespace texdec_reference

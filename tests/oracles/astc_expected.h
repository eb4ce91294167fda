// What texdec must output for ASTC, per docs/EXACTNESS.md, computed from libastcenc 4.2 in one
// pass per image: src/reference/astc_reference.h (astc_expected_outputs; its comment gives the
// rules for every profile and output). The CPU reference decodes ASTC through the same function;
// the tests know it and its types by these names.
#pragma once

#include "astcenc_oracle.h"
#include "reference/astc_reference.h"
#include "reference/half.h"

namespace texdec_test {

using texdec_reference::AstcBlockKind;
using texdec_reference::AstcExpected;
using texdec_reference::astc_expected_outputs;
using texdec_reference::half_from_unorm8;

}  // namespace texdec_test

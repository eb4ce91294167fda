// The BC1-BC5 rational (EXACT) and integer (IDEAL) models live in src/reference, where
// astc-gpu-decode --verify uses them too; the tests know them by their old short names.
#pragma once

#include "reference/exact_model.h"
#include "reference/ideal_model.h"

namespace texdec_test {
namespace exact = texdec_reference::exact;
namespace ideal = texdec_reference::ideal;
}  // namespace texdec_test

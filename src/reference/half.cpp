#include "reference/half.h"

#include "reference/exact_model.h"

namespace texdec_reference {

// The exact model's rational rounding (tests/test_astc_builder.cpp checks it by brute force).
uint16_t half_from_unorm8(uint8_t v) { return exact::to_fp16({int64_t(v), 255}); }

}  // namespace texdec_reference

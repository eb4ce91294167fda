// Job structs come from C callers, who may store any 32-bit value in an enum field: read the
// bits, not the enum (a C++ load of an out-of-range enum value is undefined behaviour). Shared by
// the library and the CPU reference (src/reference), which checks jobs as the library does.
#pragma once
#include <cstdint>
#include <cstring>

namespace texdec {

template <class Enum>
uint32_t enum_bits(const Enum& field) {
    static_assert(sizeof(Enum) == sizeof(uint32_t), "texdec enums are 32-bit");
    uint32_t bits;
    std::memcpy(&bits, &field, sizeof bits);
    return bits;
}

// The enum holding `bits` (a value checked to be in range, or one only passed on as bits).
template <class Enum>
Enum enum_from_bits(uint32_t bits) {
    static_assert(sizeof(Enum) == sizeof(uint32_t), "texdec enums are 32-bit");
    Enum e;
    std::memcpy(&e, &bits, sizeof e);
    return e;
}

}  // namespace texdec

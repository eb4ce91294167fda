// The public format facts most tests ask for, REQUIREd to succeed: a format's texdec_format_info
// and the bytes of one texel of an output.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>

#include <texdec/texdec.h>

namespace texdec_test {

inline texdec_format_info format_info(texdec_format format) {
    texdec_format_info info{};
    REQUIRE(texdec_format_get_info(format, &info) == TEXDEC_SUCCESS);
    return info;
}

inline uint32_t texel_size(texdec_format format, texdec_output output) {
    uint32_t bytes = 0;
    REQUIRE(texdec_output_texel_size(format, output, &bytes) == TEXDEC_SUCCESS);
    return bytes;
}

}  // namespace texdec_test

// printf-style formatting into a std::string, for the messages of the parsers and the bench: the
// compiler checks every message's arguments against its format.
#pragma once

#include <string>

#include "../printf_like.h"

namespace texdec_io {

TEXDEC_PRINTF_LIKE(1, 2) std::string format_text(const char* fmt, ...);

}  // namespace texdec_io

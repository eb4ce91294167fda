// printf-style formatting into a std::string, for the messages of the parsers and the bench: the
// compiler checks every message's arguments against its format.
#pragma once

#include <string>

namespace texdec_io {

[[gnu::format(printf, 1, 2)]] std::string format_text(const char* fmt, ...);

}  // namespace texdec_io

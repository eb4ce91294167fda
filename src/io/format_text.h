// printf-style formatting into a std::string, for the messages of the parsers and the bench: the
// compiler checks every message's arguments against its format.
#pragma once

#include <string>

// TEXDEC_IO_PRINTF_LIKE(format_index, first_argument_index): GCC and clang check the arguments of
// a printf-style function (MinGW: as GNU printf, which its C++ runtime prints through).
#if defined(__MINGW32__)
#define TEXDEC_IO_PRINTF_LIKE(f, a) __attribute__((format(gnu_printf, f, a)))
#elif defined(__GNUC__)
#define TEXDEC_IO_PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define TEXDEC_IO_PRINTF_LIKE(f, a)
#endif

namespace texdec_io {

TEXDEC_IO_PRINTF_LIKE(1, 2) std::string format_text(const char* fmt, ...);

}  // namespace texdec_io

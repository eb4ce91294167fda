#pragma once
// TEXDEC_PRINTF_LIKE(format_index, first_argument_index): lets GCC and clang check the arguments of a
// printf-style function. MinGW: the checks of GNU printf (gnu_printf), because its C++ runtime
// prints through MinGW's C99 printf (%zu, %llu), not Microsoft's, which plain "printf" describes.
#if defined(__MINGW32__)
#define TEXDEC_PRINTF_LIKE(format_index, first_argument) \
    __attribute__((format(gnu_printf, format_index, first_argument)))
#elif defined(__GNUC__) || defined(__clang__)
#define TEXDEC_PRINTF_LIKE(format_index, first_argument) __attribute__((format(printf, format_index, first_argument)))
#else
#define TEXDEC_PRINTF_LIKE(format_index, first_argument)
#endif

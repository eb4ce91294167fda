// Functions include/texdec/texdec_file.h declares that libtexdec_file may not define yet (issue 36
// lands in parts, on several branches): referenced weakly here, so texdec_tests links either way,
// and every case that needs one FAILs naming it where it is missing (never a skip). Remove a
// name once the library defines it everywhere.
#pragma once

#include <texdec/texdec_file.h>

#if defined(__GNUC__) && !defined(_WIN32)
#pragma weak texdec_file_get_surfaces
#pragma weak texdec_format_from_dxgi
#pragma weak texdec_format_to_dxgi
#pragma weak texdec_format_from_dds_fourcc
#pragma weak texdec_format_from_gl_internal_format
#pragma weak texdec_format_to_gl_internal_format
#define TEXDEC_FILE_API_DEFINED(fn) (&fn != nullptr)
#else
#define TEXDEC_FILE_API_DEFINED(fn) true
#endif

// FAILs (Catch2) when libtexdec_file lacks `fn`.
#ifdef FAIL
#define REQUIRE_FILE_API(fn)                                       \
    do {                                                           \
        if (!TEXDEC_FILE_API_DEFINED(fn))                          \
            FAIL("libtexdec_file does not define " #fn             \
                 ", which include/texdec/texdec_file.h declares: " \
                 "the library lags the header (the contract)");    \
    } while (0)
#endif

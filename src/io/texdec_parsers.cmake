# The container parsers' sources and their dependencies, shared by texdec_io (the CLI's, the tests'
# and the fuzzers' static library: src/io/texdec_io.cmake) and libtexdec_file (src/file): each
# target compiles them with its own options (the fuzzers instrument texdec_io's copy, the shared
# library hides its copy's C++ symbols), so neither needs the other. Defined once per build tree.
include_guard(GLOBAL)

set(TEXDEC_IO_DIR ${CMAKE_CURRENT_LIST_DIR})
# .astc, DDS, .pkm, KTX, KTX 2, what they share (container.cpp, format_names.cpp, format_text.cpp),
# and the operating system's side of files (platform.h: POSIX or Win32).
set(TEXDEC_PARSER_SOURCES
  ${TEXDEC_IO_DIR}/astc_file.cpp ${TEXDEC_IO_DIR}/dds.cpp ${TEXDEC_IO_DIR}/pkm.cpp ${TEXDEC_IO_DIR}/ktx.cpp
  ${TEXDEC_IO_DIR}/ktx2.cpp ${TEXDEC_IO_DIR}/container.cpp ${TEXDEC_IO_DIR}/format_names.cpp
  ${TEXDEC_IO_DIR}/format_text.cpp)
if(WIN32)
  set(TEXDEC_PLATFORM_SOURCE ${TEXDEC_IO_DIR}/platform_windows.cpp)
else()
  set(TEXDEC_PLATFORM_SOURCE ${TEXDEC_IO_DIR}/platform_posix.cpp)
endif()

find_package(PkgConfig)
# zlib (zlib1g-dev; libz-mingw-w64-dev for Windows): KTX 2 supercompression scheme 3 (and, in
# texdec_io, every .png and .exr output).
find_package(ZLIB REQUIRED)
# Zstandard (libzstd-dev): KTX 2 supercompression scheme 2. Debian has no mingw build of it: a build
# without it says so for such files (TEXDEC_IO_ZSTD=0).
if(PkgConfig_FOUND)
  pkg_check_modules(TEXDEC_IO_ZSTD IMPORTED_TARGET libzstd)
endif()
if(NOT TEXDEC_IO_ZSTD_FOUND AND NOT CMAKE_CROSSCOMPILING)
  message(FATAL_ERROR "libzstd not found (libzstd-dev)")
endif()

# Links a target compiling TEXDEC_PARSER_SOURCES to what they need (privately).
function(texdec_link_parser_dependencies target)
  target_link_libraries(${target} PRIVATE ZLIB::ZLIB $<BUILD_INTERFACE:texdec_common>)
  if(TEXDEC_IO_ZSTD_FOUND)
    target_link_libraries(${target} PRIVATE PkgConfig::TEXDEC_IO_ZSTD)
    target_compile_definitions(${target} PRIVATE TEXDEC_IO_ZSTD=1)
  else()
    target_compile_definitions(${target} PRIVATE TEXDEC_IO_ZSTD=0)
  endif()
  if(WIN32)
    target_link_libraries(${target} PRIVATE shell32)  # CommandLineToArgvW
  endif()
endfunction()

# texdec_io: the container library (src/io), compiled once for astc-gpu-decode, texdec_tests and the
# fuzzers: the container parsers (.astc, DDS, .pkm, KTX, KTX 2 and texture_file over them), the CPU
# scan of ASTC HDR blocks, the image writers with the atomic output they write through, and the
# operating system's side of files (platform.h; the CLI uses its process part too).
# Internal for now (never installed). It depends on no CLI code and no reference decoder; it calls
# texdec's public API (the format table) but links no texdec: whoever links it brings the library
# (the CLI the static one, the tests the shared one, the fuzzers src/formats.cpp).
# Included from src/cli, tests and tests/fuzz; defined once per build tree.
include_guard(GLOBAL)

include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/host_headers.cmake)
texdec_find_headers(STB_INCLUDE_DIR stb_image_write.h PATH_SUFFIXES stb)  # libstb-dev: header-only here
find_package(PkgConfig)
# zlib (zlib1g-dev; libz-mingw-w64-dev for Windows): every .png output (png_parallel.cpp: bands of
# rows on several threads), .exr output, and KTX 2 supercompression scheme 3.
find_package(ZLIB REQUIRED)
# Zstandard (libzstd-dev): KTX 2 supercompression scheme 2. Debian has no mingw build of it: a build
# without it says so for such files (TEXDEC_IO_ZSTD=0).
if(PkgConfig_FOUND)
  pkg_check_modules(TEXDEC_IO_ZSTD IMPORTED_TARGET libzstd)
endif()
if(NOT TEXDEC_IO_ZSTD_FOUND AND NOT CMAKE_CROSSCOMPILING)
  message(FATAL_ERROR "libzstd not found (libzstd-dev)")
endif()
# .exr output: tinyexr (libtinyexr-dev: a shared library); cross-compiling, its header's own
# implementation is compiled in (tinyexr_impl.cpp, over zlib).
find_package(tinyexr QUIET)
if(NOT TARGET tinyexr::tinyexr)
  texdec_find_headers(TEXDEC_TINYEXR_DIR tinyexr.h LINK tinyexr.h)
  add_library(texdec_tinyexr STATIC ${CMAKE_CURRENT_LIST_DIR}/tinyexr_impl.cpp)
  target_include_directories(texdec_tinyexr SYSTEM PUBLIC ${TEXDEC_TINYEXR_DIR})
  target_link_libraries(texdec_tinyexr PRIVATE ZLIB::ZLIB)
  add_library(tinyexr::tinyexr ALIAS texdec_tinyexr)
endif()

set(TEXDEC_IO_DIR ${CMAKE_CURRENT_LIST_DIR})
add_library(texdec_io STATIC
  ${TEXDEC_IO_DIR}/astc_file.cpp ${TEXDEC_IO_DIR}/dds.cpp ${TEXDEC_IO_DIR}/pkm.cpp ${TEXDEC_IO_DIR}/ktx.cpp
  ${TEXDEC_IO_DIR}/ktx2.cpp ${TEXDEC_IO_DIR}/texture_file.cpp ${TEXDEC_IO_DIR}/astc_hdr_scan.cpp
  ${TEXDEC_IO_DIR}/image_write.cpp ${TEXDEC_IO_DIR}/safe_output.cpp ${TEXDEC_IO_DIR}/format_text.cpp
  ${TEXDEC_IO_DIR}/container.cpp ${TEXDEC_IO_DIR}/png_parallel.cpp ${TEXDEC_IO_DIR}/format_names.cpp)
texdec_enable_test_hooks(texdec_io)  # safe_output.cpp's injected write faults
# The operating system's side (platform.h): POSIX (Linux) or Win32.
if(WIN32)
  target_sources(texdec_io PRIVATE ${TEXDEC_IO_DIR}/platform_windows.cpp)
  target_link_libraries(texdec_io PRIVATE shell32)  # CommandLineToArgvW
  # texdec's functions without __declspec(dllimport): these calls then link to the static library
  # (the CLI) and, through the import library's stubs, to the DLL (the tests) alike.
  target_compile_definitions(texdec_io PRIVATE TEXDEC_STATIC)
else()
  target_sources(texdec_io PRIVATE ${TEXDEC_IO_DIR}/platform_posix.cpp)
endif()
target_include_directories(texdec_io PUBLIC ${TEXDEC_IO_DIR} ${PROJECT_SOURCE_DIR}/include
  PRIVATE ${STB_INCLUDE_DIR})
target_link_libraries(texdec_io PUBLIC Vulkan::Headers
  PRIVATE texdec_common texdec_luts tinyexr::tinyexr ZLIB::ZLIB Threads::Threads)
if(TEXDEC_IO_ZSTD_FOUND)
  target_link_libraries(texdec_io PRIVATE PkgConfig::TEXDEC_IO_ZSTD)
  target_compile_definitions(texdec_io PRIVATE TEXDEC_IO_ZSTD=1)
else()
  target_compile_definitions(texdec_io PRIVATE TEXDEC_IO_ZSTD=0)
endif()
target_link_libraries(texdec_io PRIVATE texdec_warnings)
set_target_properties(texdec_io PROPERTIES POSITION_INDEPENDENT_CODE ON)

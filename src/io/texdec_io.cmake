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
# The parsers' sources and zlib / Zstandard: shared with libtexdec_file (src/file).
include(${CMAKE_CURRENT_LIST_DIR}/texdec_parsers.cmake)
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

add_library(texdec_io STATIC ${TEXDEC_PARSER_SOURCES} ${TEXDEC_PLATFORM_SOURCE}
  ${TEXDEC_IO_DIR}/texture_file.cpp ${TEXDEC_IO_DIR}/astc_hdr_scan.cpp
  ${TEXDEC_IO_DIR}/image_write.cpp ${TEXDEC_IO_DIR}/safe_output.cpp ${TEXDEC_IO_DIR}/png_parallel.cpp)
texdec_enable_test_hooks(texdec_io)  # safe_output.cpp's injected write faults
if(WIN32)
  # texdec's functions without __declspec(dllimport): these calls then link to the static library
  # (the CLI) and, through the import library's stubs, to the DLL (the tests) alike.
  target_compile_definitions(texdec_io PRIVATE TEXDEC_STATIC)
endif()
target_include_directories(texdec_io PUBLIC ${TEXDEC_IO_DIR} ${PROJECT_SOURCE_DIR}/include
  PRIVATE ${STB_INCLUDE_DIR})
target_link_libraries(texdec_io PUBLIC Vulkan::Headers
  PRIVATE texdec_common texdec_luts tinyexr::tinyexr ZLIB::ZLIB Threads::Threads)
texdec_link_parser_dependencies(texdec_io)
target_link_libraries(texdec_io PRIVATE texdec_warnings)
set_target_properties(texdec_io PROPERTIES POSITION_INDEPENDENT_CODE ON)

# texdec_io: the CLI's file side, compiled once for astc-gpu-decode, texdec_tests and the fuzzers:
# the container parsers (.astc, DDS, .pkm, KTX, KTX 2 and texture_file over them), the CPU scan of
# ASTC HDR blocks, and the image writers with the atomic output they write through.
# Internal (never installed). It calls texdec's format table but links no texdec: whoever links it
# brings the library (the CLI the static one, the tests the shared one, the fuzzers src/formats.cpp).
# Included from src/cli, tests and tests/fuzz; defined once per build tree.
include_guard(GLOBAL)

find_path(STB_INCLUDE_DIR stb_image_write.h PATH_SUFFIXES stb REQUIRED)  # libstb-dev: header-only here
find_package(tinyexr REQUIRED)  # libtinyexr-dev: .exr output (a shared library)
find_package(PkgConfig REQUIRED)
# KTX 2 supercompression: Zstandard (libzstd-dev) and zlib (zlib1g-dev); zlib also compresses every
# .png output (png_parallel.cpp: bands of rows on several threads).
pkg_check_modules(TEXDEC_IO_ZSTD REQUIRED IMPORTED_TARGET libzstd)
pkg_check_modules(TEXDEC_IO_ZLIB REQUIRED IMPORTED_TARGET zlib)

set(TEXDEC_IO_DIR ${CMAKE_CURRENT_LIST_DIR})
add_library(texdec_io STATIC
  ${TEXDEC_IO_DIR}/astc_file.cpp ${TEXDEC_IO_DIR}/dds.cpp ${TEXDEC_IO_DIR}/pkm.cpp ${TEXDEC_IO_DIR}/ktx.cpp
  ${TEXDEC_IO_DIR}/ktx2.cpp ${TEXDEC_IO_DIR}/texture_file.cpp ${TEXDEC_IO_DIR}/astc_hdr_scan.cpp
  ${TEXDEC_IO_DIR}/image_write.cpp ${TEXDEC_IO_DIR}/safe_output.cpp ${TEXDEC_IO_DIR}/format_text.cpp
  ${TEXDEC_IO_DIR}/container.cpp ${TEXDEC_IO_DIR}/png_parallel.cpp)
target_include_directories(texdec_io PUBLIC ${TEXDEC_IO_DIR} ${PROJECT_SOURCE_DIR}/include
  PRIVATE ${PROJECT_SOURCE_DIR}/src ${STB_INCLUDE_DIR})  # src: reference/half.h (header-only here)
target_link_libraries(texdec_io PUBLIC Vulkan::Headers
  PRIVATE texdec_luts tinyexr::tinyexr PkgConfig::TEXDEC_IO_ZSTD PkgConfig::TEXDEC_IO_ZLIB Threads::Threads)
target_link_libraries(texdec_io PRIVATE texdec_warnings)
set_target_properties(texdec_io PROPERTIES POSITION_INDEPENDENT_CODE ON)

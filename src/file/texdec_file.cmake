# libtexdec_file (texdec::file): the public container library of include/texdec/texdec_file.h.
# Its own shared library, not part of libtexdec (texdec_file.h says why): it links libtexdec (the
# format table, the decode jobs), zlib and libzstd. Built when texdec is the top-level project
# (TEXDEC_BUILD_FILE; embedders parse their own textures, and may turn it on). No static variant: the installed package then needs no
# zlib / Zstandard to be found by its users, and the Windows cross build makes libtexdec_file.dll
# (without Zstandard, which Debian has no mingw build of: scheme 2 files are UNSUPPORTED_FILE).
# It compiles the container parsers (src/io/texdec_parsers.cmake) itself, as texdec_io does: their
# C++ namespaces stay hidden inside the library.
include_guard(GLOBAL)

include(${PROJECT_SOURCE_DIR}/src/io/texdec_parsers.cmake)

set(TEXDEC_FILE_DIR ${CMAKE_CURRENT_LIST_DIR})
add_library(texdec_file SHARED ${TEXDEC_FILE_DIR}/file.cpp ${TEXDEC_FILE_DIR}/mappings.cpp ${TEXDEC_FILE_DIR}/file_jobs.cpp
  ${TEXDEC_PARSER_SOURCES} ${TEXDEC_PLATFORM_SOURCE})
add_library(texdec::file ALIAS texdec_file)
set_target_properties(texdec_file PROPERTIES OUTPUT_NAME texdec_file EXPORT_NAME file
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})
target_compile_definitions(texdec_file PRIVATE TEXDEC_FILE_BUILDING)
target_include_directories(texdec_file
  PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
  PRIVATE ${TEXDEC_IO_DIR} ${TEXDEC_FILE_DIR})
target_link_libraries(texdec_file PUBLIC texdec_shared PRIVATE $<BUILD_INTERFACE:texdec_warnings>)
texdec_link_parser_dependencies(texdec_file)
# Export texdec_file_* and texdec_format_{from,to}_* only (hidden visibility alone lets weak
# template instances of the standard headers through).
if(CMAKE_SYSTEM_NAME STREQUAL "Linux" OR CMAKE_SYSTEM_NAME MATCHES "BSD")
  target_link_options(texdec_file PRIVATE "LINKER:--version-script=${PROJECT_SOURCE_DIR}/cmake/texdec_file.map")
  set_property(TARGET texdec_file APPEND PROPERTY LINK_DEPENDS ${PROJECT_SOURCE_DIR}/cmake/texdec_file.map)
endif()
if(MINGW)
  target_link_options(texdec_file PRIVATE "LINKER:--output-def,${PROJECT_BINARY_DIR}/texdec_file.def")
endif()

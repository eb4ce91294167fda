# Cross-compiling texdec for 64-bit Windows from Debian with mingw-w64 (g++-mingw-w64-x86-64-posix):
#   cmake -S . -B build-windows -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake
# The "posix" compilers give std::thread and std::mutex (winpthreads). Programs and the DLL link the
# compiler's runtime (libgcc, libstdc++, winpthread) statically, so they need no DLL beside them but
# texdec's own (and Windows' vulkan-1.dll at run time, which texdec loads itself).
# Headers that only the build host has (Vulkan, volk, stb, Catch2, tinyexr: Debian ships no mingw
# build of them, and they are the same for every target) are found by cmake/host_headers.cmake.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(TEXDEC_MINGW_TRIPLET x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${TEXDEC_MINGW_TRIPLET}-gcc-posix)
set(CMAKE_CXX_COMPILER ${TEXDEC_MINGW_TRIPLET}-g++-posix)
set(CMAKE_RC_COMPILER ${TEXDEC_MINGW_TRIPLET}-windres)
set(CMAKE_FIND_ROOT_PATH /usr/${TEXDEC_MINGW_TRIPLET})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)  # glslangValidator runs on the build host
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# pkg-config: the target's .pc files only (zlib.pc of libz-mingw-w64-dev), never the host's.
set(ENV{PKG_CONFIG_LIBDIR} ${CMAKE_FIND_ROOT_PATH}/lib/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
set(ZLIB_USE_STATIC_LIBS ON)  # libz.a rather than zlib1.dll
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static")
# Where tests and samples run (cmake's CROSSCOMPILING_EMULATOR): Wine, which needs an X server
# for Vulkan (xvfb-run -a around ctest).
find_program(TEXDEC_WINE wine)
if(TEXDEC_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${TEXDEC_WINE})
endif()

# texdec_find_headers(<var> <header> [LINK <entry>...]): sets <var> to a folder holding <header>.
# Natively that is where find_path finds it. Cross-compiling (cmake/mingw-w64.cmake), a header only
# the build host has (Debian ships Vulkan, volk, stb, Catch2 and tinyexr headers for the host only)
# is linked into <build>/host-include/<var>/ instead: that folder holds just the LINKed entries
# (default: the header's first path component), because adding the host's /usr/include itself
# would put the host's C library headers in front of the target's.
include_guard(GLOBAL)

function(texdec_find_headers var header)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "LINK;PATH_SUFFIXES")
  find_path(${var} ${header} PATH_SUFFIXES ${arg_PATH_SUFFIXES})
  if(${var} OR NOT CMAKE_CROSSCOMPILING)
    if(NOT ${var})
      message(FATAL_ERROR "${header} not found (.ci/install-deps.sh lists the Debian packages)")
    endif()
    return()
  endif()
  find_path(host_dir ${header} PATHS /usr/include PATH_SUFFIXES ${arg_PATH_SUFFIXES}
    NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
  if(NOT host_dir)
    message(FATAL_ERROR "${header} not found for the target nor on the build host")
  endif()
  if(NOT host_dir STREQUAL "/usr/include")  # a folder of its own (/usr/include/stb): used as it is
    set(${var} ${host_dir} CACHE PATH "${header} (on the build host)" FORCE)
    unset(host_dir CACHE)
    return()
  endif()
  set(links ${arg_LINK})
  if(NOT links)
    string(REGEX REPLACE "/.*" "" links "${header}")
  endif()
  set(dir ${PROJECT_BINARY_DIR}/host-include/${var})
  file(MAKE_DIRECTORY ${dir})
  foreach(entry ${links})
    if(NOT EXISTS ${dir}/${entry})
      file(CREATE_LINK ${host_dir}/${entry} ${dir}/${entry} SYMBOLIC)
    endif()
  endforeach()
  unset(host_dir CACHE)
  set(${var} ${dir} CACHE PATH "${header} (linked from the build host)" FORCE)
endfunction()

# Answers whether an installed texdecConfigVersion.cmake accepts a find_package version request,
# as find_package would ask it (tests/package/run_consumer.sh).
# Usage: cmake -DVERSION_FILE=.../texdecConfigVersion.cmake -DREQUEST=1.0 -P check_version_file.cmake
# Prints "compatible" or "incompatible".
cmake_minimum_required(VERSION 3.18)
string(REGEX MATCH "^([0-9]+)\\.([0-9]+)" ok "${REQUEST}")
if(NOT ok)
  message(FATAL_ERROR "REQUEST must be MAJOR.MINOR, not '${REQUEST}'")
endif()
set(PACKAGE_FIND_NAME texdec)
set(PACKAGE_FIND_VERSION ${REQUEST})
set(PACKAGE_FIND_VERSION_MAJOR ${CMAKE_MATCH_1})
set(PACKAGE_FIND_VERSION_MINOR ${CMAKE_MATCH_2})
set(CMAKE_SIZEOF_VOID_P 8)
include(${VERSION_FILE})
if(PACKAGE_VERSION_COMPATIBLE AND NOT PACKAGE_VERSION_UNSUITABLE)
  message(STATUS "compatible")
else()
  message(STATUS "incompatible")
endif()

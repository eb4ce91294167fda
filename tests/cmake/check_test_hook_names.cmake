# Whether object files hold the names of texdec's test hooks (TEXDEC_DEBUG_*, TEXDEC_CLI_*: the
# environment variables of src/test_hooks.h). Run by the ctests "test hooks: ..." (tests/CMakeLists.txt).
#   cmake -DOBJECTS="a.o;b.o" -DEXPECT=none|some -P check_test_hook_names.cmake
# EXPECT=none: a build without tests must not read them, so no object may name one.
# EXPECT=some: the same sources built with the hooks do name them (the check can see them).
if(NOT DEFINED OBJECTS OR NOT DEFINED EXPECT)
  message(FATAL_ERROR "usage: cmake -DOBJECTS=... -DEXPECT=none|some -P check_test_hook_names.cmake")
endif()
set(found "")
foreach(object IN LISTS OBJECTS)
  file(STRINGS "${object}" names REGEX "TEXDEC_(DEBUG|CLI)_[A-Z0-9_]+")
  foreach(name IN LISTS names)
    string(REGEX MATCH "TEXDEC_(DEBUG|CLI)_[A-Z0-9_]+" name "${name}")
    get_filename_component(file "${object}" NAME)
    list(APPEND found "${file}: ${name}")
  endforeach()
endforeach()
list(LENGTH OBJECTS object_count)
if(EXPECT STREQUAL "none" AND found)
  list(JOIN found "\n  " text)
  message(FATAL_ERROR "test hook names compiled into a build without tests:\n  ${text}")
elseif(EXPECT STREQUAL "some" AND NOT found)
  message(FATAL_ERROR "no test hook name in ${object_count} objects built with TEXDEC_TEST_HOOKS=1: the check cannot see them")
endif()
list(LENGTH found found_count)
message(STATUS "${object_count} objects, ${found_count} test hook names (expected: ${EXPECT})")

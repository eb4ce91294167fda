# Runs one Catch2 test case of TEST_BINARY with no Vulkan driver visible to the loader and checks
# its exit status (EXPECT_EXIT: a number, or "nonzero") and output (EXPECT_REGEX).
# VK_ICD_FILENAMES / VK_DRIVER_FILES pointing at a file that does not exist leave the loader
# with no driver; ALLOW_NO_DEVICE=1 sets TEXDEC_ALLOW_NO_DEVICE=1.
set(env VK_ICD_FILENAMES=/nonexistent/texdec-no-driver.json VK_DRIVER_FILES=/nonexistent/texdec-no-driver.json)
if(ALLOW_NO_DEVICE)
  list(APPEND env TEXDEC_ALLOW_NO_DEVICE=1)
else()
  list(APPEND env --unset=TEXDEC_ALLOW_NO_DEVICE)
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env} ${TEST_BINARY} "${TEST_NAME}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
message("exit status: ${rc}")
if(EXPECT_EXIT STREQUAL "nonzero")
  if(rc EQUAL 0)
    message(FATAL_ERROR "expected the test to fail without a Vulkan device, but it passed")
  endif()
elseif(NOT rc EQUAL EXPECT_EXIT)
  message(FATAL_ERROR "expected exit status ${EXPECT_EXIT}, got ${rc}")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "expected the output to match '${EXPECT_REGEX}'")
endif()

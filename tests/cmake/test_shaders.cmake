# The test-only shaders (tests/shaders), compiled like the library's (glslangValidator -> a C header
# holding a uint32_t array spirv_<name>) into ${CMAKE_CURRENT_BINARY_DIR}/test_shaders: sets
# TEXDEC_TEST_SHADER_DIR and TEXDEC_TEST_SHADER_HEADERS. For tests/ and tests/windows.
set(TEXDEC_TEST_SHADER_DIR ${CMAKE_CURRENT_BINARY_DIR}/test_shaders)
set(TEXDEC_TEST_SHADER_HEADERS)
foreach(name native_fetch)
  set(out ${TEXDEC_TEST_SHADER_DIR}/${name}.h)
  set(src ${CMAKE_CURRENT_LIST_DIR}/../shaders/${name}.comp)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${TEXDEC_TEST_SHADER_DIR}
    COMMAND ${GLSLANG_VALIDATOR} -V --target-env vulkan1.1 --quiet --vn spirv_${name} -o ${out} ${src}
    DEPENDS ${src}
    COMMENT "glslangValidator tests/shaders/${name}.comp" VERBATIM)
  list(APPEND TEXDEC_TEST_SHADER_HEADERS ${out})
endforeach()

# Compiles a GLSL compute shader to SPIR-V (Vulkan 1.1) and wraps it in a C header.
# texdec_add_shader(NAME SOURCE [DEFINE ...]) appends the header to TEXDEC_SHADER_HEADERS.
function(texdec_add_shader name source)
  set(out ${CMAKE_BINARY_DIR}/shaders/${name}.h)
  set(defs -DTEXDEC_GLSL)
  foreach(d ${ARGN})
    list(APPEND defs -D${d})
  endforeach()
  file(GLOB common_glsl ${CMAKE_SOURCE_DIR}/shaders/common/*.glsl)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/shaders
    COMMAND ${GLSLANG_VALIDATOR} -V --target-env vulkan1.1 --quiet ${defs}
            -I${CMAKE_SOURCE_DIR}/shaders --vn spirv_${name} -o ${out}
            ${CMAKE_SOURCE_DIR}/shaders/${source}
    DEPENDS ${CMAKE_SOURCE_DIR}/shaders/${source} ${CMAKE_SOURCE_DIR}/shaders/interface.h ${common_glsl}
    COMMENT "glslangValidator ${source} -> ${name}.h" VERBATIM)
  set(TEXDEC_SHADER_HEADERS ${TEXDEC_SHADER_HEADERS} ${out} PARENT_SCOPE)
endfunction()

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

# texdec_add_shader_headers(TARGET OUT_DIR SOURCE_DIR NAME...): the standalone kernels of the bench
# and the tests (no includes, no defines): SOURCE_DIR/NAME.comp -> OUT_DIR/NAME.h holding the
# uint32_t array spirv_NAME. TARGET builds them all; add it as a dependency of their user.
function(texdec_add_shader_headers target out_dir source_dir)
  set(headers)
  foreach(name ${ARGN})
    set(out ${out_dir}/${name}.h)
    file(RELATIVE_PATH shown ${CMAKE_SOURCE_DIR} ${source_dir}/${name}.comp)
    add_custom_command(OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${out_dir}
      COMMAND ${GLSLANG_VALIDATOR} -V --target-env vulkan1.1 --quiet --vn spirv_${name} -o ${out}
              ${source_dir}/${name}.comp
      DEPENDS ${source_dir}/${name}.comp
      COMMENT "glslangValidator ${shown}" VERBATIM)
    list(APPEND headers ${out})
  endforeach()
  add_custom_target(${target} DEPENDS ${headers})
endfunction()

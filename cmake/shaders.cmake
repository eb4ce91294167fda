# Compiles a GLSL compute shader to SPIR-V (Vulkan 1.1) and wraps it in a C header.
# texdec_add_shader(NAME SOURCE [DEFINE ...]) appends the header to TEXDEC_SHADER_HEADERS.
# glslang writes the files the shader includes to a depfile, so editing any of them rebuilds it.
function(texdec_add_shader name source)
  set(out ${PROJECT_BINARY_DIR}/shaders/${name}.h)
  set(defs -DTEXDEC_GLSL)
  foreach(d ${ARGN})
    list(APPEND defs -D${d})
  endforeach()
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/shaders
    COMMAND ${GLSLANG_VALIDATOR} -V --target-env vulkan1.1 --quiet ${defs}
            -I${PROJECT_SOURCE_DIR}/shaders --vn spirv_${name} -o ${out} --depfile ${out}.d
            ${PROJECT_SOURCE_DIR}/shaders/${source}
    DEPENDS ${PROJECT_SOURCE_DIR}/shaders/${source}
    DEPFILE ${out}.d
    COMMENT "glslangValidator ${source} -> ${name}.h" VERBATIM)
  set(TEXDEC_SHADER_HEADERS ${TEXDEC_SHADER_HEADERS} ${out} PARENT_SCOPE)
endfunction()

# Every variant of shaders/variants.txt: compiles each, and sets TEXDEC_SHADER_TABLE to the lines of
# an X-macro, TEXDEC_SHADER_VARIANTS(X), with X(FAMILY, DESTINATION, VkFormat, spirv array) per
# variant (src/pipelines.cpp's shader table). A buffer line gives source_buffer; an image line
# source_image_fmt (2D-array views) and source_image3d_fmt (3D views).
function(texdec_add_variant_shaders list_file)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${list_file})
  file(STRINGS ${list_file} lines REGEX "^[A-Z]")
  set(table "#define TEXDEC_SHADER_VARIANTS(X)")
  foreach(line ${lines})
    string(REGEX REPLACE "[ \t]+" ";" fields "${line}")
    list(LENGTH fields n)
    list(GET fields 0 family)
    list(GET fields 1 source)
    if(n EQUAL 2)
      texdec_add_shader(${source}_buffer ${source}.comp)
      string(APPEND table " \\\n  X(${family}, BUFFER, UNDEFINED, spirv_${source}_buffer)")
    elseif(n EQUAL 4)
      list(GET fields 2 fmt)
      list(GET fields 3 vk)
      texdec_add_shader(${source}_image_${fmt} ${source}.comp TEXDEC_DST_IMAGE_FORMAT=${fmt})
      texdec_add_shader(${source}_image3d_${fmt} ${source}.comp TEXDEC_DST_IMAGE_FORMAT=${fmt} TEXDEC_DST_IMAGE_3D)
      string(APPEND table " \\\n  X(${family}, IMAGE, ${vk}, spirv_${source}_image_${fmt})"
                          " \\\n  X(${family}, IMAGE_3D, ${vk}, spirv_${source}_image3d_${fmt})")
    else()
      message(FATAL_ERROR "${list_file}: '${line}' is neither 'FAMILY source' nor 'FAMILY source glsl_format VkFormat'")
    endif()
  endforeach()
  set(TEXDEC_SHADER_HEADERS ${TEXDEC_SHADER_HEADERS} PARENT_SCOPE)
  set(TEXDEC_SHADER_TABLE "${table}\n" PARENT_SCOPE)
endfunction()

# texdec_add_shader_headers(TARGET OUT_DIR SOURCE_DIR NAME...): the standalone kernels of the bench
# and the tests (no includes, no defines): SOURCE_DIR/NAME.comp -> OUT_DIR/NAME.h holding the
# uint32_t array spirv_NAME. TARGET builds them all; add it as a dependency of their user.
function(texdec_add_shader_headers target out_dir source_dir)
  set(headers)
  foreach(name ${ARGN})
    set(out ${out_dir}/${name}.h)
    file(RELATIVE_PATH shown ${PROJECT_SOURCE_DIR} ${source_dir}/${name}.comp)
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

# ctest script: decode_to_png --srgb on the sample file, astcenc -ds on the same file, then the two
# PNGs compared pixel for pixel (tolerance 0). Arguments: SAMPLE ASTCENC PNG_EQUAL INPUT OUT_DIR.
if(NOT ASTCENC)
  message(FATAL_ERROR "the astcenc CLI is missing (Debian package astcenc): it is this test's oracle")
endif()
file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})
foreach(step "${SAMPLE};--srgb;${INPUT};${OUT_DIR}/texdec.png"
             "${ASTCENC};-ds;${INPUT};${OUT_DIR}/astcenc.png;-silent"
             "${PNG_EQUAL};${OUT_DIR}/texdec.png;${OUT_DIR}/astcenc.png")
  execute_process(COMMAND ${step} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${step}: ${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${step}")
  endif()
endforeach()

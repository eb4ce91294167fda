# Which headers each product outside the library includes (docs/DESIGN.md, "Around it"): every
# quoted #include of src/io, src/cli, tools/bench and tools/vk_app must name a header of an allowed place, so
# that none reaches into the library's internals (src/*.h) or the oracle from the container library.
#   cmake -DSOURCE_DIR=<repository> -P check_product_includes.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT DEFINED SOURCE_DIR)
  message(FATAL_ERROR "usage: cmake -DSOURCE_DIR=<repository> -P check_product_includes.cmake")
endif()
# product directory | the directories whose headers it may name (own directory first) | headers
# allowed by name beyond those (the bench's generated kernels and the shader interface that
# texdec-pipeline-stats reads; the library's device policy, which the application-side Vulkan
# helper tools/vk_app follows).
set(products "src/io|src/io,src/common" "src/cli|src/cli,src/io,src/common"
  "tools/bench|tools/bench,tools/vk_app,src/cli,src/io,src/common" "tools/vk_app|tools/vk_app")
set(extra_tools/bench "bench_copy.h;bench_native.h;interface.h")
set(extra_tools/vk_app "device_choice.h")
set(failures "")
set(checked 0)
foreach(product IN LISTS products)
  string(REPLACE "|" ";" parts "${product}")
  list(GET parts 0 dir)
  list(GET parts 1 allowed)
  string(REPLACE "," ";" allowed "${allowed}")
  file(GLOB files ${SOURCE_DIR}/${dir}/*.cpp ${SOURCE_DIR}/${dir}/*.h)
  foreach(file IN LISTS files)
    file(STRINGS ${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*$" "\\1" header "${line}")
      math(EXPR checked "${checked} + 1")
      set(ok FALSE)
      if(header MATCHES "^luts/[a-z_0-9]+\\.h$")  # the table generators (texdec_luts), anyone
        set(ok TRUE)
      elseif(header MATCHES "^reference/" AND NOT dir STREQUAL "src/io")  # --verify's oracle
        set(ok TRUE)
      elseif(header IN_LIST extra_${dir})
        set(ok TRUE)
      elseif(NOT header MATCHES "/")
        foreach(place IN LISTS allowed)
          if(EXISTS ${SOURCE_DIR}/${place}/${header})
            set(ok TRUE)
          endif()
        endforeach()
      endif()
      if(NOT ok)
        file(RELATIVE_PATH rel ${SOURCE_DIR} ${file})
        list(APPEND failures "${rel}: #include \"${header}\"")
      endif()
    endforeach()
  endforeach()
endforeach()
if(failures)
  list(JOIN failures "\n  " text)
  message(FATAL_ERROR "includes outside what the product may use (docs/DESIGN.md, \"Around it\"):\n  ${text}")
endif()
if(checked LESS 100)
  message(FATAL_ERROR "only ${checked} includes found: is the pattern still right?")
endif()
message(STATUS "${checked} quoted includes of src/io, src/cli, tools/bench and tools/vk_app: all allowed")

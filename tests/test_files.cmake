# Every source file of texdec_tests, once (tests/CMakeLists.txt). WINDOWS marks the ones the Windows
# cross-build's test program (tests/windows/CMakeLists.txt) builds too: the files whose oracles
# exist there (lavapipe, the CPU reference, the CPU backend) and that build with what Debian has
# for mingw-w64. Sets TEXDEC_TEST_SOURCES (all) and TEXDEC_WINDOWS_TEST_SOURCES (the marked ones),
# as paths relative to tests/.
set(texdec_test_source_list
  main.cpp WINDOWS
  oracles/nvimage_oracle.cpp
  oracles/squish_oracle.cpp
  oracles/reference.cpp WINDOWS
  oracles/lavapipe_native.cpp WINDOWS
  oracles/mesa_gl_oracle.cpp
  oracles/recorded_digests.cpp
  support/random_blocks.cpp WINDOWS
  support/native_bc_vectors.cpp
  support/astcenc_cli.cpp
  support/compare.cpp WINDOWS
  support/decode_and_compare.cpp WINDOWS
  gpu/gpu_fixture.cpp WINDOWS
  gpu/external_setup.cpp WINDOWS
  test_oracles.cpp
  test_format_table.cpp WINDOWS
  test_random_blocks.cpp WINDOWS
  test_special_blocks.cpp
  test_layouts.cpp WINDOWS
  test_bad_inputs.cpp WINDOWS
  test_external_context.cpp WINDOWS
  test_block_linear_levels.cpp           # texdec_block_linear_get_level: game sizes, hand-worked levels, mip chains decoded ([block_linear][levels])
  test_regions.cpp                       # texdec_record_regions / texdec_image_target against the one-call path ([regions])
  support/record_compare.cpp WINDOWS     # one region recorded vs texdec_decode, for the two below
  test_support.cpp WINDOWS               # texdec_query_support ([support])
  test_plan_upload.cpp WINDOWS           # texdec_plan_upload: native or decode, the image to create ([plan])
  test_debug_utils.cpp WINDOWS           # debug-utils labels and object names ([debug-utils])
  test_astc_record.cpp
  test_bptc_record.cpp WINDOWS
  test_lavapipe_native.cpp WINDOWS
  test_context.cpp WINDOWS
  test_memory.cpp WINDOWS                # memory usage, scratch size, release staging, texdec_prepare ([memory])
  test_prepare.cpp                       # texdec_prepare, texdec_variant_ready, FAIL_IF_NOT_READY, recording beside compiles ([prepare])
  test_large_jobs.cpp                    # texdec_decode streams jobs larger than its staging ([large])
  test_source_strides.cpp                # huge source row lengths / image heights decode alike on both backends ([layout])
  test_record_differential.cpp           # random record jobs and one-call jobs vs the CPU backend, canaries ([regions][random])
  capture_native_bc.cpp                  # the hardware vector capture ([.capture], run on an NVIDIA GPU)
  test_nvidia_vectors.cpp                # NVIDIA rounding mode vs the captured vectors ([nvidia])
  test_cli.cpp
  test_file_open.cpp                     # libtexdec_file's open, queries and reads vs texture_file::open ([file])
  test_cli_hdr3d.cpp
  support/container_files.cpp            # .dds/.pkm/KTX/KTX 2/.astc files written field by field
  support/container_samples.cpp          # small valid files of every layout; past fuzzer findings
  support/parser_checks.cpp              # the container parsers' contract (also checked by tests/fuzz)
  test_fuzz_regress.cpp                  # truncated and corrupted real files through the parsers and the CLI ([fuzz-regress])
  test_cli_batch.cpp                     # selection, batches, --verify, info, exit codes ([cli])
  test_cli_backend.cpp                   # --backend / TEXDEC_BACKEND: CPU backend = GPU bytes in raw mode, bench ([cli][cpu])
  test_cli_safety.cpp                    # outputs never replace inputs, atomic writes, bounded reads ([cli][safety])
  test_cli_hostile.cpp                   # issue 34 items 3-6: cube extents, table memory, JSON escaping, names ([cli][issue34])
  test_cli_clash.cpp                     # two outputs of one run that are the same file: refused before anything is written ([cli][safety][clash])
  test_cli_interrupt.cpp                 # real signals at random moments of batches: no temporary file left ([cli][safety][interrupt])
  test_cli_block_linear.cpp              # --block-linear raw input vs linear twins, errors, bench rows ([cli][block_linear])
  test_cpu_bc_etc.cpp WINDOWS            # the CPU backend's BC1-BC5, ETC2, EAC decoders vs the GPU shaders ([cpu][bc-etc])
  test_cli_realfiles.cpp                 # what files from other tools showed ([realfiles])
  support/cli_runner.cpp
  support/corpus_files.cpp
  test_corpus_cli.cpp                    # the whole corpus through the CLI ([corpus][cli])
  test_writers.cpp WINDOWS               # the .tga and .ktx2 writers read back ([cli][writers], no GPU)
  test_cli_png.cpp                       # the parallel PNG writer read back by libpng and stb_image; --json phases ([cli][png])
  test_corpus_astc.cpp
  test_astc_luts.cpp
  test_bc6h_modes.cpp
  test_bc6h_decode.cpp WINDOWS
  test_bptc_luts.cpp
  test_etc_luts.cpp
  test_etc2_decode.cpp
  test_bc7_decode.cpp WINDOWS
  test_cpu_bptc.cpp WINDOWS              # the CPU backend's BC6H and BC7 decoders vs the GPU path ([cpu][bptc])
  test_eac_decode.cpp
  test_cpu_reference_etc.cpp             # the ETC2/EAC CPU reference vs Mesa GL and texdec_decode ([reference])
  test_cpu_reference.cpp                 # the BC1-BC7 and ASTC CPU reference vs the oracles and texdec_decode ([reference])
  test_astc_oracles.cpp
  # ASTC 2D LDR/sRGB decoder acceptance (tests/README.md)
  support/astc_block_builder.cpp WINDOWS
  support/astc_test_support.cpp
  support/astc_random_blocks.cpp WINDOWS
  test_astc_builder.cpp
  test_astc_3d.cpp                       # ASTC 3D footprints and 2D footprints on 3D images
  test_astc_decode.cpp
  test_astc_hdr.cpp
  test_cpu_backend.cpp WINDOWS           # the CPU backend's creation, threads, hook, refusals, timing, memory ([cpu])
  test_cpu_astc.cpp WINDOWS              # the CPU backend's ASTC decoder against the GPU one ([cpu][astc])
  test_block_linear.cpp                  # block-linear (Tegra X1) sources vs a TRM model and linear decodes ([block_linear])
  test_decode_fuzz.cpp                   # fuzz_decode's random jobs on a GPU and a CPU context, compared ([fuzz-decode])
  fuzz/decode_jobs.cpp                   # the jobs and their checks (shared with tests/fuzz/fuzz_decode.cpp)
  test_threads.cpp                       # one context shared by 16 threads ([threads]; also texdec_thread_tests)
)
# texdec_file's tests (issue 36; tests/CMakeLists.txt adds them to texdec_tests with texdec::file):
set(TEXDEC_FILE_TEST_SOURCES
  support/container_writer.cpp           # whole .ktx2/.ktx/.dds/.pkm/.astc files of every shape, written from the specs
  test_file_containers.cpp               # every container x shape through texdec_file: info, ranges, order, packed layout ([file][containers])
  test_file_mappings.cpp                 # VkFormat / DXGI / FourCC / GL / ASTC footprint mappings both ways ([file][mappings])
  test_file_hostile.cpp                  # malformed, unsupported and hostile files: status, problem, the field named ([file][hostile])
  test_file_jobs.cpp                     # whole-texture jobs: layouts, copies, decode vs the reference, record path ([file][jobs])
)
set(TEXDEC_TEST_SOURCES)
set(TEXDEC_WINDOWS_TEST_SOURCES)
foreach(item IN LISTS texdec_test_source_list)
  if(item STREQUAL "WINDOWS")
    list(GET TEXDEC_TEST_SOURCES -1 last)
    list(APPEND TEXDEC_WINDOWS_TEST_SOURCES ${last})
  else()
    list(APPEND TEXDEC_TEST_SOURCES ${item})
  endif()
endforeach()

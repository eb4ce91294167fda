#!/usr/bin/env bash
# The README's "build and test" command: installs the Debian packages it needs, checks the format
# of the lines changed since .clang-format came (tools/format-check.sh), builds texdec with warnings
# as errors (TEXDEC_WERROR), checks the public ABI against the committed baseline
# (tools/abi-check.sh, docs/abi.md), runs every test (ctest) with the Vulkan validation layer on
# (every one-call decode also compared with the CPU backend), cross-builds for Windows and tests
# that under Wine (.ci/windows.sh), then rebuilds with AddressSanitizer + UBSan and runs the tests
# again on the CPU backend with fewer random blocks, then builds the [threads] tests with
# ThreadSanitizer and runs them, then builds the libFuzzer targets with clang (the container
# parsers, and the whole parse-decode-write pipeline) and runs each for 60 s
# (tests/fuzz/run_fuzzers.sh).
# Works on a GPU if present, else on lavapipe (mesa-vulkan-drivers).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

./.ci/install-deps.sh

# The shared test corpus (data only, never committed), where this checkout has it beside it: the
# [corpus] tests read it; without it they report themselves skipped, loudly.
if [ -z "${TEXDEC_CORPUS:-}" ] && [ -d ../shared/corpus/piglit ]; then
  export TEXDEC_CORPUS=$(cd ../shared/corpus && pwd)
fi
echo "TEXDEC_CORPUS=${TEXDEC_CORPUS:-(not set: the [corpus] tests are skipped)}"

echo "== format check (lines changed since .clang-format was added) =="
tools/format-check.sh

# The README's first command configures build/ without the tests (-DTEXDEC_BUILD_TESTS=OFF), and a
# newcomer runs this script next in the same clone: the configure below forces the tests and the
# CLI on whatever build/ holds, and every ctest run fails if it finds no test (--no-tests=error). On
# a clone without build/ (CI), build/ is first configured exactly as the README's first command
# configures it (its cmake configure step, read from README.md), so every CI run takes that path.
if [ ! -e build/CMakeCache.txt ]; then
  readme_configure=$(grep -o 'cmake -S \. -B build [^&]*' README.md | head -n 1)
  case "$readme_configure" in
    *TEXDEC_BUILD_TESTS=OFF*) ;;
    *) echo "README.md's first command no longer configures build/ without tests: update .ci/test.sh"; exit 1 ;;
  esac
  echo "== configure build/ as the README's first command does ($readme_configure) =="
  eval "$readme_configure" >/dev/null
  # ... and a library built that way is optimized (Release when no build type is given).
  grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' build/CMakeCache.txt ||
    { echo "the README's first command configures build/ without optimization"; exit 1; }
fi

echo "== build (RelWithDebInfo, warnings are errors) =="
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTEXDEC_WERROR=ON -DTEXDEC_BUILD_TESTS=ON -DTEXDEC_BUILD_CLI=ON >/dev/null
cmake --build build -j"$jobs"
echo "== ABI check (build/libtexdec.so.MAJOR against abi/libtexdec.so.MAJOR.abi) =="
tools/abi-check.sh
echo "== tests =="
ctest --test-dir build --output-on-failure --no-tests=error -j"$jobs"

# Windows: cross-built with mingw-w64, run under Wine on lavapipe, the CLI's raw output compared
# with this build's (.ci/windows.sh).
./.ci/windows.sh build/src/cli/astc-gpu-decode

echo "== build (ASan + UBSan) =="
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DTEXDEC_SANITIZE=ON -DTEXDEC_BUILD_TESTS=ON -DTEXDEC_BUILD_CLI=ON >/dev/null
cmake --build build-asan -j"$jobs"
echo "== tests under ASan + UBSan on the CPU backend (TEXDEC_BACKEND=cpu, TEXDEC_TEST_RANDOM_BLOCKS=65536) =="
# The one-call cases decode on the CPU backend and are compared with the oracles; the first stage
# compared every one of them with the GPU path, so the mirror is off here (TEXDEC_TEST_MIRROR=0).
# The GPU-only cases (recording, image targets, staging, device selection) still run on lavapipe.
# lavapipe's own leaks are not ours; ASan still checks every access texdec and the CLI make.
# Run in the first stage only (580 of the 2180 s of test time this stage took on lavapipe before):
#   "large job" (2 GiB of texels, checked texel by texel) and "ASTC 3D texdec_decode of 2048x2048x6"
#   (192 MiB); the [corpus] cases ("corpus ..."); the CLI's raw-mode sweeps ("CLI raw mode: every
#   BC1-BC5 / 2D ASTC ...", "CLI .exr: raw mode"); the big record-path cases ("ASTC record path",
#   "ASTC 3D record path", "ASTC HDR record path", "ASTC 2D footprints on 3D images ...: record
#   path", "external context: storage image destinations / block and texel offsets / a job larger
#   than one dispatch").
asan_first_stage_only="^large job|2048x2048x6|^corpus|^CLI raw mode: every (BC1-BC5|2D ASTC)|^CLI \.exr: raw mode"
# The CLI's GPU-vs-CPU raw-mode sweeps too: tests/test_cpu_*.cpp compare the same decoders here.
asan_first_stage_only+="|^CLI raw mode: the CPU backend gives the GPU's bytes"
asan_first_stage_only+="|^ASTC (3D |HDR )?record path|^ASTC 2D footprints on 3D images and arrays: record path"
asan_first_stage_only+="|^external context: (storage image destinations|block and texel offsets|a job larger than one dispatch)"
# Shaders against oracles, or oracles against each other, whose host side (the one-call path) the
# cases above and below run under ASan anyway (about 170 s of test time): the 512-invocation ASTC
# reruns, lavapipe's random BC6H/BC7 and BC1-5 sanity comparisons, the oracle agreement cases.
asan_first_stage_only+="|^512-invocation ASTC|random blocks (match|vs) lavapipe|^device-native BC decode|oracles agree"
# texdec built inside another project (two more builds of the library, not instrumented).
asan_first_stage_only+="|^package_(add_subdirectory|fetchcontent)$"
ASAN_OPTIONS=detect_leaks=0 TEXDEC_TEST_RANDOM_BLOCKS=65536 TEXDEC_BACKEND=cpu TEXDEC_TEST_MIRROR=0 \
  ctest --test-dir build-asan --output-on-failure --no-tests=error -j"$jobs" -E "$asan_first_stage_only"

echo "== build (ThreadSanitizer: the [threads] tests only) =="
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Debug -DTEXDEC_SANITIZE_THREAD=ON -DTEXDEC_BUILD_TESTS=ON >/dev/null
cmake --build build-tsan --target texdec_thread_tests -j"$jobs"
echo "== [threads] tests under ThreadSanitizer (GPU and CPU backends) =="
# The suppressions name only libraries built without TSan (the validation layer), never texdec.
# [threads] has the CPU backend's cases too: its pool shared by 16 calling threads, a run_tasks hook.
TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/tests/tsan_suppressions.txt" \
  build-tsan/tests/texdec_thread_tests "[threads]"

echo "== fuzz the container parsers and the pipeline (libFuzzer, clang 14: 60 s per target, 2 at a time) =="
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTEXDEC_WERROR=ON -DCMAKE_C_COMPILER=clang-14 \
  -DCMAKE_CXX_COMPILER=clang++-14 -DTEXDEC_FUZZ=ON -DTEXDEC_BUILD_TESTS=OFF -DTEXDEC_BUILD_CLI=OFF >/dev/null
cmake --build build-fuzz --target texdec_fuzzers -j"$jobs"
JOBS=2 tests/fuzz/run_fuzzers.sh 60 build-fuzz

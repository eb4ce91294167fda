#!/usr/bin/env bash
# The README's "build and test" command: installs the Debian packages it needs, checks the format
# of the lines changed since .clang-format came (tools/format-check.sh), builds texdec with warnings
# as errors (TEXDEC_WERROR), checks the public ABI against the committed baseline
# (tools/abi-check.sh, docs/abi.md), runs every test (ctest) with the Vulkan validation layer on
# (every one-call decode also compared with the CPU backend), cross-builds for Windows and tests
# that under Wine (.ci/windows.sh), then rebuilds with AddressSanitizer + UBSan and runs the tests
# again on the CPU backend with fewer random blocks, then builds the [threads] tests with
# ThreadSanitizer and runs them, then builds the libFuzzer targets with clang (the container
# parsers, the whole parse-decode-write pipeline, and random decode jobs on the CPU backend) and
# runs each for 45 s (tests/fuzz/run_fuzzers.sh).
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
# The cases labelled "heavy" ran in the first stage only (tests/CMakeLists.txt says which and why).
ASAN_OPTIONS=detect_leaks=0 TEXDEC_TEST_RANDOM_BLOCKS=65536 TEXDEC_BACKEND=cpu TEXDEC_TEST_MIRROR=0 \
  ctest --test-dir build-asan --output-on-failure --no-tests=error -j"$jobs" -LE heavy

echo "== build (ThreadSanitizer: the [threads] tests only) =="
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Debug -DTEXDEC_SANITIZE_THREAD=ON -DTEXDEC_BUILD_TESTS=ON >/dev/null
cmake --build build-tsan --target texdec_thread_tests -j"$jobs"
echo "== [threads] tests under ThreadSanitizer (GPU and CPU backends) =="
# The suppressions name only libraries built without TSan (the validation layer), never texdec.
# [threads] has the CPU backend's cases too: its pool shared by 16 calling threads, a run_tasks hook.
TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/tests/tsan_suppressions.txt" \
  build-tsan/tests/texdec_thread_tests "[threads]"

# Eight targets, two at a time: four rounds of 45 s (the six before fuzz_decode ran three rounds of 60 s).
echo "== fuzz the container parsers, the pipeline and the decoders (libFuzzer, clang 14: 45 s per target, 2 at a time) =="
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTEXDEC_WERROR=ON -DCMAKE_C_COMPILER=clang-14 \
  -DCMAKE_CXX_COMPILER=clang++-14 -DTEXDEC_FUZZ=ON -DTEXDEC_BUILD_TESTS=OFF -DTEXDEC_BUILD_CLI=OFF >/dev/null
cmake --build build-fuzz --target texdec_fuzzers -j"$jobs"
JOBS=2 tests/fuzz/run_fuzzers.sh 45 build-fuzz

#!/usr/bin/env bash
# CI's Windows stage (.ci/test.sh runs it after the Linux build): cross-builds texdec, the samples,
# astc-gpu-decode and the Windows test slice (tests/windows) with mingw-w64
# (cmake/mingw-w64.cmake), then runs them under Wine on lavapipe, which Wine's Vulkan reaches
# through the build host's loader (an X server is needed: xvfb-run). Fails on any failed build,
# sample, CLI decode or test, on any message of the validation layer, and on any byte of the
# Windows CLI's raw output that differs from the Linux CLI's (LINUX_CLI, every format).
# Usage: .ci/windows.sh [LINUX_CLI]   (default build/src/cli/astc-gpu-decode)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
linux_cli=$(realpath "${1:-build/src/cli/astc-gpu-decode}")
jobs=$(nproc)
out=build-windows

if [ -z "${TEXDEC_WINDOWS_BUILT:-}" ]; then
  echo "== Windows: cross-build (mingw-w64, Release, warnings are errors) =="
  cmake -S . -B $out -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake -DCMAKE_BUILD_TYPE=Release -DTEXDEC_WERROR=ON \
    -DTEXDEC_BUILD_BENCH=OFF -DTEXDEC_BUILD_TESTS=ON >/dev/null
  cmake --build $out -j"$jobs"
  # The DLL exports texdec_* and nothing else.
  exports=$(x86_64-w64-mingw32-objdump -p $out/bin/libtexdec.dll |
    awk '/\[Ordinal\/Name Pointer\] Table/ {t=1; next} t && NF == 0 {t=0} t {print $NF}')
  if [ -z "$exports" ] || echo "$exports" | grep -qv '^texdec_'; then
    echo "libtexdec.dll exports more than texdec_*:"; echo "$exports"; exit 1
  fi
  echo "libtexdec.dll exports $(echo "$exports" | wc -l) functions, all texdec_*"
  echo "== Windows: the installed package, consumed with find_package (shared and static) =="
  rm -rf $out/install && cmake --install $out --prefix $out/install >/dev/null
  for target in texdec texdec_static; do
    cmake -S tests/package/consumer -B $out/consumer-$target -DCMAKE_TOOLCHAIN_FILE="$root/cmake/mingw-w64.cmake" \
      -Dtexdec_DIR="$root/$out/install/lib/cmake/texdec" -DTEXDEC_TARGET=texdec::$target \
      -DVulkan_INCLUDE_DIR="$root/$out/host-include/Vulkan_INCLUDE_DIR" >/dev/null
    cmake --build $out/consumer-$target
  done
  cp $out/install/bin/libtexdec.dll $out/consumer-texdec/
  # The static consumer needs no texdec DLL (and no C++ runtime DLL: the toolchain links it in).
  if x86_64-w64-mingw32-objdump -p $out/consumer-texdec_static/consumer.exe | grep -i 'DLL Name: lib'; then
    echo "the static consumer imports the DLLs above"; exit 1
  fi
fi
# Wine's Vulkan needs an X server: run the rest inside one.
if [ -z "${DISPLAY:-}" ]; then
  TEXDEC_WINDOWS_BUILT=1 exec xvfb-run -a -s "-screen 0 320x240x24" "$0" "$linux_cli"
fi

export WINEPREFIX=$root/$out/wineprefix WINEDEBUG=-all
bin=$root/$out/bin
work=$root/$out/check
rm -rf "$work"; mkdir -p "$work"
mkdir -p "$WINEPREFIX"
wineserver -p  # one server for every run below, started first (starting Wine is the slow part)
wineboot -i >/dev/null 2>&1  # creates the prefix (the first run only)
trap 'wineserver -k || true' EXIT

# The validation layer: the build host's, which its loader inserts into every Vulkan instance
# of the Windows programs (Wine lists no layers to them). It logs to stdout; each run's output
# is checked for its messages. Information messages are on: the one each instance's creation
# prints proves that the layer ran.
cat > "$work/vk_layer_settings.txt" <<SETTINGS
khronos_validation.report_flags = info,warn,perf,error
khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG
khronos_validation.enables = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT
SETTINGS
export VK_LAYER_SETTINGS_PATH=$work/vk_layer_settings.txt VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation
export TEXDEC_TEST_VALIDATION=host  # the tests and the package consumer: do not ask for the layer by name

# run NAME PROGRAM ARGS...: runs a Windows program under Wine, its output in $work/NAME.log;
# fails on a non-zero exit or a validation message (unless MESSAGES_EXPECTED=1: a test that makes
# the layer report on purpose checks that its messenger got the message).
run() {
  local name=$1; shift
  local status=0
  wine "$@" >"$work/$name.log" 2>&1 || status=$?
  if [ $status -ne 0 ]; then
    tail -n 40 "$work/$name.log"; echo "FAILED: $name (exit status $status)"; return 1
  fi
  if [ "${MESSAGES_EXPECTED:-0}" != 1 ] && grep -E "Validation (Error|Warning|Performance Warning)" "$work/$name.log"; then
    echo "FAILED: $name: the validation layer reported the messages above"; return 1
  fi
  echo "ok: $name"
}

echo "== Windows: samples and the package's consumers =="
run consumer_shared "$root/$out/consumer-texdec/consumer.exe"
run consumer_static "$root/$out/consumer-texdec_static/consumer.exe"
cd "$work"
run sample_decode_blocks "$bin/decode_blocks.exe"
run sample_decode_to_png "$bin/decode_to_png.exe" "$root/samples/sample-astc-6x6.astc" decode_to_png.png
"$root/build/samples/decode_to_png" "$root/samples/sample-astc-6x6.astc" decode_to_png_linux.png >/dev/null
cmp decode_to_png.png decode_to_png_linux.png
run sample_record_into_app "$bin/record_into_app.exe"

echo "== Windows: astc-gpu-decode =="
cli=$bin/astc-gpu-decode.exe
# Every format, raw blocks in, raw texels out: the Windows CLI's bytes must be the Linux CLI's, on
# the GPU (lavapipe), and on the CPU backend with no Vulkan loader at all for every format but the
# ASTC footprints between the smallest and the largest (one Wine run each costs about 0.5 s; the
# Linux stages compare the two backends on every footprint). Random blocks: of every family's
# modes, partitions and error blocks alike.
python3 - <<'PY'
import random
rng = random.Random(25)
for name in ("blocks16", "blocks8"):
    size = 16 if name == "blocks16" else 8
    open(name + ".bin", "wb").write(bytes(rng.getrandbits(8) for _ in range(size * 1024)))
PY
formats=$("$linux_cli" formats | awk 'NR > 1 && $1 ~ /^(bc|etc|eac|astc)/ {print $1, $3}')
count=0 cpu_count=0
while read -r format bytes; do
  extent=40x24
  [[ $format =~ ^astc-[0-9]+x[0-9]+x[0-9]+ ]] && extent=12x12x6
  "$linux_cli" --backend gpu decode --format "$format" --extent $extent "blocks$bytes.bin" "$format.linux.raw" >/dev/null 2>&1
  wine "$cli" --backend gpu decode --format "$format" --extent $extent "blocks$bytes.bin" "$format.gpu.raw" >"$format.log" 2>&1 ||
    { cat "$format.log"; echo "FAILED: decode $format"; exit 1; }
  if [[ ! $format =~ ^astc- || $format =~ ^astc-(4x4|12x12|3x3x3|6x6x6)- ]]; then
    TEXDEC_DEBUG_VULKAN_LOADER='C:\nonexistent\vulkan-1.dll' wine "$cli" --backend cpu decode --format "$format" \
      --extent $extent "blocks$bytes.bin" "$format.cpu.raw" >>"$format.log" 2>&1 ||
      { cat "$format.log"; echo "FAILED: decode --backend cpu $format"; exit 1; }
    cmp "$format.cpu.raw" "$format.linux.raw"
    cpu_count=$((cpu_count + 1))
  fi
  if grep -E "Validation (Error|Warning|Performance Warning)" "$format.log"; then echo "FAILED: $format: validation"; exit 1; fi
  cmp "$format.gpu.raw" "$format.linux.raw"
  count=$((count + 1))
done <<< "$formats"
echo "ok: Windows raw output == Linux raw output, byte for byte: $count formats on the GPU, $cpu_count on the CPU backend"

# The bundled samples, to PNG and raw (raw compared with Linux), under a UTF-8 name.
cp "$root/samples/sample-bc3.dds" "tëxture ü.dds"
run cli_samples_png "$cli" --backend gpu decode --out-dir png-out "tëxture ü.dds" "$root/samples/sample-astc-6x6.astc"
ls "png-out/tëxture ü.png" png-out/sample-astc-6x6.png >/dev/null
for f in "tëxture ü.dds" "$root/samples/sample-astc-6x6.astc"; do
  base=$(basename "$f"); base=${base%.*}
  run "cli_raw_$base" "$cli" --backend gpu decode "$f" "$base.raw"
  "$linux_cli" --backend gpu decode "$f" "$base.linux.raw" >/dev/null 2>&1
  cmp "$base.raw" "$base.linux.raw"
done
# An existing output is replaced (atomically); an input named as the output is refused.
run cli_replace "$cli" decode "tëxture ü.dds" "png-out/tëxture ü.png"
if wine "$cli" decode "tëxture ü.dds" "tëxture ü.dds" >cli_refuse.log 2>&1; then
  echo "FAILED: the CLI wrote over its input"; exit 1
fi
cmp "tëxture ü.dds" "$root/samples/sample-bc3.dds"
echo "ok: cli refuses to write over its input"

echo "== Windows: the test slice (tests/windows) =="
# Two cases are about what Wine's Vulkan does not do: it ignores VkAllocationCallbacks, and it
# lists no layers (so TEXDEC_CONTEXT_VALIDATION cannot find the validation layer by name). Two
# make the layer report on purpose: they run alone, after the others. Left to the Linux stage (CI
# time): the +-2 sanity check of lavapipe's own BC1-5 decode, and the random BC6H/BC7 blocks vs
# lavapipe (here the structured ones, every mode and shape, are; the random ones are checked
# against the CPU reference by test_windows_families.cpp).
deliberate=("the validation messenger catches a deliberate error"
            "debug utils: a validation message inside a texdec dispatch carries texdec's label and names")
# A quarter of the random blocks of the Linux stages (which decode the full count with the same code).
TEXDEC_TEST_RANDOM_BLOCKS=262144 run tests "$bin/texdec_windows_tests.exe" -d yes \
  "~context: allocation callbacks are used and balanced" \
  "~context: TEXDEC_CONTEXT_VALIDATION really asks for the validation layer" "~[no-loader]" \
  "~${deliberate[0]}" "~${deliberate[1]}" "~device-native BC decode agrees within 2 LSB (sanity)" \
  "~bc7: random blocks match lavapipe*" "~bc6h: random blocks vs lavapipe*"
grep -q "createinstance-status-message" tests.log || { echo "FAILED: the validation layer did not run"; exit 1; }
grep -E "^(test cases|All tests passed)" tests.log
MESSAGES_EXPECTED=1 run tests_deliberate_messages "$bin/texdec_windows_tests.exe" "${deliberate[0]},${deliberate[1]}"
grep -E "^(test cases|All tests passed)" tests_deliberate_messages.log
TEXDEC_BACKEND=cpu TEXDEC_DEBUG_VULKAN_LOADER='C:\nonexistent\vulkan-1.dll' run tests_no_loader \
  "$bin/texdec_windows_tests.exe" "[no-loader]"
echo "== Windows: all passed =="

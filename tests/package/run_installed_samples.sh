#!/usr/bin/env bash
# package_installed_samples: samples/ as a project of its own, built against the INSTALLED package
# (find_package, as an application builds them), then run: decode_to_png's PNG equals astcenc's
# (samples/decode_to_png_test.cmake, tolerance 0), record_into_app and load_texture (texdec::file,
# on both bundled samples) check themselves with the validation layer (synchronization validation on).
# Usage: run_installed_samples.sh BUILD_DIR WORK_DIR SOURCE_DIR LIBDIR ASTCENC PNG_EQUAL [CONFIG]
set -euo pipefail
build=$1 work=$2 source=$3 libdir=$4 astcenc=$5 png_equal=$6 config=${7:-}
. "$(dirname "$0")/install_prefix.sh"  # fail, install_fresh
install_fresh "$build" "$work" "$config"
echo "== cmake -S samples against $prefix"
cmake -S "$source/samples" -B "$work/samples" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
  > "$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configuring samples/ alone"; }
found=$(sed -n 's/^texdec_DIR:PATH=//p' "$work/samples/CMakeCache.txt")
[ "$found" -ef "$prefix/$libdir/cmake/texdec" ] || fail "samples/ found texdec at '$found', not in $prefix"
cmake --build "$work/samples" -j2 > "$work/build.log" 2>&1 || { cat "$work/build.log"; fail "building samples/ alone"; }

echo "== decode_to_png (installed texdec) against astcenc -ds"
cmake -DSAMPLE="$work/samples/decode_to_png" -DASTCENC="$astcenc" -DPNG_EQUAL="$png_equal" \
  -DINPUT="$source/samples/sample-astc-6x6.astc" -DOUT_DIR="$work/png" -P "$source/samples/decode_to_png_test.cmake"
echo "== record_into_app (installed texdec), validation on"
out=$(VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation \
  VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT "$work/samples/record_into_app" 2>&1) ||
  { echo "$out"; fail "record_into_app"; }
echo "$out"
! grep -q "validation layer: off" <<<"$out" || fail "record_into_app ran without the validation layer"
for input in sample-bc3.dds sample-astc-6x6.astc; do
  echo "== load_texture $input (installed texdec::file), validation on"
  out=$(VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation \
    VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT \
    "$work/samples/load_texture" "$source/samples/$input" 2>&1) || { echo "$out"; fail "load_texture $input"; }
  echo "$out"
  ! grep -q "validation layer: off" <<<"$out" || fail "load_texture ran without the validation layer"
done
echo "package_installed_samples: passed"

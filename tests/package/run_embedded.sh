#!/usr/bin/env bash
# package_add_subdirectory / package_fetchcontent: builds tests/package/embed, a project that
# builds texdec from this source tree inside its own build (add_subdirectory or FetchContent from a
# local path), with the find_package calls of texdec's tests and CLI disabled (so only the library's
# own dependencies are used), then runs its consumer (BC1 texels computed from the spec, checked).
# Usage: run_embedded.sh MODE SOURCE_DIR WORK_DIR CC SHARED(ON|OFF)
# Exit 77 (skipped) only when the consumer reports no Vulkan device with TEXDEC_ALLOW_NO_DEVICE=1.
set -euo pipefail
mode=$1 source=$2 work=$3 cc=$4 shared=$5
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
disabled=()
for p in Catch2 astcenc tinyexr PNG ZLIB PkgConfig; do disabled+=("-DCMAKE_DISABLE_FIND_PACKAGE_$p=ON"); done
echo "== configure ($mode, BUILD_SHARED_LIBS=$shared; tests' and CLI's packages disabled)"
cmake -S "$source/tests/package/embed" -B "$work" -DCMAKE_C_COMPILER="$cc" -DTEXDEC_EMBED="$mode" \
  -DTEXDEC_SOURCE="$source" -DBUILD_SHARED_LIBS="$shared" -DCMAKE_BUILD_TYPE=Release "${disabled[@]}" \
  > "$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configure"; }
echo "== build"
cmake --build "$work" -j2 > "$work/build.log" 2>&1 || { tail -50 "$work/build.log"; fail "build"; }
# The library the consumer got: the one BUILD_SHARED_LIBS asked for.
if [ "$shared" = ON ]; then
  ldd "$work/consumer" | grep -q 'libtexdec\.so' || fail "consumer is not linked to libtexdec.so"
else
  ! ldd "$work/consumer" | grep -q 'libtexdec' || fail "consumer links a shared libtexdec; BUILD_SHARED_LIBS=OFF"
fi
echo "== run"
set +e
"$work/consumer"
rc=$?
set -e
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || fail "consumer exited with $rc"
echo "PASS: texdec embedded by $mode"

#!/usr/bin/env bash
# package_file_consumer: installs the build into a fresh prefix, builds file_consumer/ against the
# INSTALLED package (find_package(texdec) + texdec::file), and runs it over samples/, the files
# tests/tools/write_loader_files writes (ETC2, EAC, mips, arrays, cube maps, 3D, KTX 2 Zstandard
# and zlib) and, when TEXDEC_CORPUS is set, the real-file corpus: every file opened, planned and
# decoded whole on the CPU backend (and on the GPU where the plan records), equal byte for byte
# to the CLI's `decode --verify` output. Without TEXDEC_CORPUS it says so loudly and checks the rest.
# Usage: run_file_consumer.sh BUILD_DIR WORK_DIR CONSUMER_DIR LIBDIR CXX SANITIZER_FLAGS CLI WRITER SAMPLES_DIR [CONFIG]
set -euo pipefail
build=$1 work=$2 consumer_src=$3 libdir=$4 cxx=$5 san=$6 cli=$7 writer=$8 samples=$9 config=${10:-}
[ "$san" = none ] && san=
. "$(dirname "$0")/install_prefix.sh"  # fail, install_fresh
install_fresh "$build" "$work" "$config"
for f in include/texdec/texdec_file.h include/texdec/texdec_file.hpp; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
echo "== find_package(texdec) + texdec::file"
cmake -S "$consumer_src" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_CXX_FLAGS="$san" \
  -DCMAKE_EXE_LINKER_FLAGS="$san" > "$work/cmake.log" 2>&1 || { cat "$work/cmake.log"; fail "configuring the consumer"; }
found=$(sed -n 's/^texdec_DIR:PATH=//p' "$work/cmake/CMakeCache.txt")
[ "$found" -ef "$prefix/$libdir/cmake/texdec" ] || fail "find_package found texdec at '$found', not in $prefix"
cmake --build "$work/cmake" > "$work/build.log" 2>&1 || { cat "$work/build.log"; fail "building the consumer"; }

"$writer" "$work/files" > /dev/null || fail "write_loader_files"
dirs=("$samples" "$work/files")
if [ -n "${TEXDEC_CORPUS:-}" ]; then
  [ -d "$TEXDEC_CORPUS" ] || fail "TEXDEC_CORPUS=$TEXDEC_CORPUS is not a folder"
  dirs+=("$TEXDEC_CORPUS")
else
  echo "*** TEXDEC_CORPUS is not set: samples/ and the written files only, not the real-file corpus ***"
fi
mkdir -p "$work/out"
rc=0
"$work/cmake/file_consumer" "$cli" "$work/out" "${dirs[@]}" || rc=$?
[ $rc -eq 77 ] && echo "*** SKIPPED: no Vulkan device ***"
exit $rc

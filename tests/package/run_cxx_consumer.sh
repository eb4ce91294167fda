#!/usr/bin/env bash
# package_cxx17_wrapper / package_cxx20_wrapper: installs the build into a fresh prefix, then
# compiles consumer/cxx_consumer.cpp (texdec.hpp) against the INSTALLED package with
# -std=c++STD -Wall -Wextra -pedantic -Werror -Wshadow -Wconversion -Wsign-conversion and
# $(pkg-config --cflags --libs texdec), and runs it (validation layer on).
# Usage: run_cxx_consumer.sh BUILD_DIR WORK_DIR CONSUMER_DIR LIBDIR CXX STD SANITIZER_FLAGS [CONFIG]
# STD: 17 or 20. SANITIZER_FLAGS: what a sanitizer build's consumers need; "none" otherwise.
set -euo pipefail
build=$1 work=$2 consumer_src=$3 libdir=$4 cxx=$5 std=$6 san=$7 config=${8:-}
[ "$san" = none ] && san=
case $std in
17) cplusplus=201703L ;;
20) cplusplus=202002L ;;
*) echo "FAIL: STD must be 17 or 20, not '$std'" >&2; exit 1 ;;
esac
. "$(dirname "$0")/install_prefix.sh"  # fail, install_fresh
install_fresh "$build" "$work" "$config"
export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
cflags=$(pkg-config --cflags texdec) && libs=$(pkg-config --libs texdec) || fail "pkg-config texdec"

set -x
"$cxx" $san -std=c++"$std" -Wall -Wextra -pedantic -Werror -Wshadow -Wconversion -Wsign-conversion \
  -DTEXDEC_EXPECT_CPLUSPLUS="$cplusplus" -o "$work/cxx_consumer" "$consumer_src/cxx_consumer.cpp" $cflags $libs
set +x
rc=0
LD_LIBRARY_PATH="$prefix/$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$work/cxx_consumer" || rc=$?
[ $rc -eq 77 ] && echo "*** SKIPPED: no Vulkan device ***"
exit $rc

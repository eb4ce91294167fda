#!/usr/bin/env bash
# package_install_consumer: installs the build into a fresh prefix and builds + runs
# consumer/consumer.c against the INSTALLED package four ways:
#   find_package(texdec CONFIG) with texdec::texdec (shared) and texdec::texdec_static,
#   pkg-config texdec (shared), pkg-config texdec-static (the archive, named as a file);
# and consumer/file_open.c (C99) through pkg-config texdec-file: libtexdec_file installed with its
# SONAME, texdec-file.pc of the same version, texdec::file exported.
# Usage: run_consumer.sh BUILD_DIR WORK_DIR CONSUMER_DIR LIBDIR CC SANITIZER_FLAGS [CONFIG]
# SANITIZER_FLAGS: what a sanitizer build's consumers compile and link with; "none" otherwise.
# Exit 77 (skipped) only when the consumer reports no Vulkan device with TEXDEC_ALLOW_NO_DEVICE=1.
set -euo pipefail
build=$1 work=$2 consumer_src=$3 libdir=$4 cc=$5 san=$6 config=${7:-}
[ "$san" = none ] && san=
. "$(dirname "$0")/install_prefix.sh"  # fail, install_fresh
install_fresh "$build" "$work" "$config"
for f in include/texdec/texdec.h include/texdec/texdec.hpp "$libdir/libtexdec.a" "$libdir/libtexdec.so" \
         "$libdir/cmake/texdec/texdecConfig.cmake" "$libdir/cmake/texdec/texdecConfigVersion.cmake" \
         "$libdir/cmake/texdec/texdecTargets.cmake" "$libdir/pkgconfig/texdec.pc" \
         "$libdir/pkgconfig/texdec-static.pc"; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
soname=$(readelf -d "$prefix/$libdir/libtexdec.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ -n "$soname" ] && [ -e "$prefix/$libdir/$soname" ] || fail "soname link '$soname' not installed"
grep -q 'TEXDEC_STATIC' "$prefix/$libdir/cmake/texdec/texdecTargets.cmake" ||
  fail "the exported texdec::texdec_static lacks TEXDEC_STATIC"

# One version everywhere: the installed texdec.h's TEXDEC_VERSION_* (the source CMake reads), the
# SONAME (major only), texdec.pc and the CMake version file (SameMajorVersion).
major=$(sed -n 's/^#define TEXDEC_VERSION_MAJOR \([0-9]*\)$/\1/p' "$prefix/include/texdec/texdec.h")
minor=$(sed -n 's/^#define TEXDEC_VERSION_MINOR \([0-9]*\)$/\1/p' "$prefix/include/texdec/texdec.h")
patch=$(sed -n 's/^#define TEXDEC_VERSION_PATCH \([0-9]*\)$/\1/p' "$prefix/include/texdec/texdec.h")
version=$major.$minor.$patch
echo "texdec.h: version $version, soname $soname"
[ "$soname" = "libtexdec.so.$major" ] || fail "SONAME '$soname' is not libtexdec.so.$major"
pc_version=$(sed -n 's/^Version: //p' "$prefix/$libdir/pkgconfig/texdec.pc")
[ "$pc_version" = "$version" ] || fail "texdec.pc says Version: '$pc_version', texdec.h $version"
for request in "$major.0:compatible" "$major.$minor:compatible" "$major.$((minor + 1)):incompatible" \
               "$((major + 1)).0:incompatible" "$((major - 1)).1:incompatible"; do
  answer=$(cmake -DVERSION_FILE="$prefix/$libdir/cmake/texdec/texdecConfigVersion.cmake" -DREQUEST="${request%:*}" \
           -P "$(dirname "$0")/check_version_file.cmake" 2>&1 | sed -n 's/^-- //p')
  [ "$answer" = "${request#*:}" ] ||
    fail "find_package(texdec ${request%:*}) against $version: '$answer', expected ${request#*:}"
done

# run NAME BINARY: runs one consumer; 77 is passed on (skip), anything else non-zero fails.
run() {
  local name=$1 bin=$2 rc=0
  echo "== run $name"
  "$bin" || rc=$?
  [ $rc -eq 77 ] && { echo "*** SKIPPED: $name: no Vulkan device ***"; exit 77; }
  [ $rc -eq 0 ] || fail "$name exited with $rc"
}
# needs BINARY shared|static: the libtexdec dependency is the kind asked for, and nothing links
# libvulkan (the library loads it at run time).
needs() {
  local dyn
  dyn=$(readelf -d "$1" | grep NEEDED || true)
  if [ "$2" = shared ]; then grep -q "\[$soname\]" <<<"$dyn" || fail "$1 does not need $soname"
  else ! grep -q libtexdec <<<"$dyn" || fail "$1 (static) needs libtexdec.so"; fi
  ! grep -q libvulkan <<<"$dyn" || fail "$1 links libvulkan"
}

for kind in shared static; do
  target=texdec::texdec
  [ $kind = static ] && target=texdec::texdec_static
  echo "== find_package(texdec) + $target"
  cmake -S "$consumer_src" -B "$work/cmake_$kind" -DCMAKE_PREFIX_PATH="$prefix" -DTEXDEC_TARGET=$target \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_C_FLAGS="$san" -DCMAKE_EXE_LINKER_FLAGS="$san" > "$work/cmake_$kind.log" 2>&1 ||
    { cat "$work/cmake_$kind.log"; fail "configuring the consumer ($target)"; }
  found=$(sed -n 's/^texdec_DIR:PATH=//p' "$work/cmake_$kind/CMakeCache.txt")
  [ "$found" -ef "$prefix/$libdir/cmake/texdec" ] || fail "find_package found texdec at '$found', not in $prefix"
  cmake --build "$work/cmake_$kind" > "$work/build_$kind.log" 2>&1 ||
    { cat "$work/build_$kind.log"; fail "building the consumer ($target)"; }
  needs "$work/cmake_$kind/consumer" $kind
  run "cmake $target" "$work/cmake_$kind/consumer"
done

export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
cflags=$(pkg-config --cflags texdec) && libs=$(pkg-config --libs texdec) &&
  static_cflags=$(pkg-config --cflags texdec-static) && static_libs=$(pkg-config --libs texdec-static) ||
  fail "pkg-config texdec / texdec-static"
echo "pkg-config: cflags '$cflags' libs '$libs'; texdec-static: cflags '$static_cflags' libs '$static_libs'"
! grep -q -- -lvulkan <<<"$libs $static_libs" || fail "pkg-config --libs texdec[-static] adds -lvulkan"
for l in -ldl -lpthread; do grep -q -- "$l" <<<"$static_libs" || fail "pkg-config texdec-static lacks $l"; done
grep -q -- -DTEXDEC_STATIC <<<"$static_cflags" || fail "pkg-config --cflags texdec-static lacks -DTEXDEC_STATIC"
[ "$(pkg-config --modversion texdec-static)" = "$version" ] || fail "texdec-static.pc's version is not $version"

echo "== cc \$(pkg-config --cflags --libs texdec)"
"$cc" $san -std=c99 -Wall -Wextra -Werror -o "$work/pc_shared" "$consumer_src/consumer.c" $cflags $libs
needs "$work/pc_shared" shared
LD_LIBRARY_PATH="$prefix/$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" run "pkg-config shared" "$work/pc_shared"

# texdec-static names the archive itself: no libtexdec.so may be needed at run time (needs ... static).
echo "== cc \$(pkg-config --cflags --libs texdec-static)"
"$cc" $san -std=c99 -Wall -Wextra -Werror -DTEXDEC_EXPECT_STATIC -o "$work/pc_static" \
  "$consumer_src/consumer.c" $static_cflags $static_libs
needs "$work/pc_static" static
run "pkg-config static" "$work/pc_static"

echo "== cc \$(pkg-config --cflags --libs texdec-file)"
for f in "$libdir/libtexdec_file.so" "$libdir/pkgconfig/texdec-file.pc" include/texdec/texdec_file.h; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
file_soname=$(readelf -d "$prefix/$libdir/libtexdec_file.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$file_soname" = "libtexdec_file.so.$major" ] && [ -e "$prefix/$libdir/$file_soname" ] ||
  fail "libtexdec_file's SONAME '$file_soname' is not libtexdec_file.so.$major, or its link is not installed"
grep -q 'texdec::file' "$prefix/$libdir/cmake/texdec/texdecTargets.cmake" || fail "texdec::file is not exported"
[ "$(pkg-config --modversion texdec-file)" = "$version" ] || fail "texdec-file.pc's version is not $version"
file_cflags=$(pkg-config --cflags texdec-file) && file_libs=$(pkg-config --libs texdec-file) ||
  fail "pkg-config texdec-file"
"$cc" $san -std=c99 -Wall -Wextra -Werror -o "$work/pc_file" "$consumer_src/file_open.c" $file_cflags $file_libs
dyn=$(readelf -d "$work/pc_file" | grep NEEDED || true)
grep -q "\[$file_soname\]" <<<"$dyn" || fail "pc_file does not need $file_soname"
LD_LIBRARY_PATH="$prefix/$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" run "pkg-config texdec-file" "$work/pc_file"
echo "package_install_consumer: all five consumers passed"

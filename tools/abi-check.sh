#!/usr/bin/env bash
# ABI check (.ci/test.sh runs it after the first build; docs/abi.md): compares the public ABI of
# libtexdec.so and libtexdec_file.so (the exported texdec_* functions and the types of
# include/texdec they use) with the committed baselines of their major version,
# abi/libtexdec.so.MAJOR.abi and abi/libtexdec_file.so.MAJOR.abi. Exits 1 on any incompatible
# change (a removed function, a changed signature, struct layout or enumerator value); additions
# pass, with a reminder to record them in the baseline.
# Usage: tools/abi-check.sh [LIBRARY]
#   Without LIBRARY: both, build/libtexdec.so.MAJOR and build/libtexdec_file.so.MAJOR (rebuilt
#   first if out of date). LIBRARY: that one (its file name says which baseline). It needs debug
#   info (RelWithDebInfo or Debug). Needs abidw and abidiff (Debian: abigail-tools).
set -euo pipefail
. "$(dirname "$0")/abi-common.sh"

abi_one_library_or_each "$0" "$@"
[ -f "$baseline" ] || abi_fail "no baseline for major version $major (${baseline#$root/}).
  TEXDEC_VERSION_MAJOR moved: record the new major's ABI with tools/abi-update-baseline.sh and commit it."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
abi_dump "$lib" "$work/current.abi"

rc=0
abi_compare "$baseline" "$work/current.abi" "$work/report.txt" || rc=$?
case $rc in
0)
    if [ -s "$work/report.txt" ]; then
        cat "$work/report.txt"
        echo "abi-check: OK, compatible with ${baseline#$root/}; it adds the above."
        echo "  Record the additions (so that removing them later fails too): tools/abi-update-baseline.sh"
    else
        echo "abi-check: OK, $lib has the ABI of ${baseline#$root/}"
    fi
    ;;
1)
    cat "$work/report.txt" >&2
    cat >&2 <<MSG
abi-check: FAIL: the public ABI of $lib is incompatible with ${baseline#$root/}
  (texdec $major.x: see the report above). Within a major version the ABI may only grow
  (docs/abi.md). Restore what the report names, or, to break the ABI on purpose, raise
  TEXDEC_VERSION_MAJOR in include/texdec/texdec.h (the SONAME follows), rebuild and run
  tools/abi-update-baseline.sh: the baseline and the major version move together.
MSG
    exit 1
    ;;
*)
    cat "$work/report.txt" >&2
    abi_fail "abidiff could not compare ${baseline#$root/} with $lib"
    ;;
esac

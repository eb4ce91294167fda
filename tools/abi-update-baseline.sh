#!/usr/bin/env bash
# Records the public ABI of libtexdec.so and libtexdec_file.so as the baselines tools/abi-check.sh
# compares with (abi/libtexdec.so.MAJOR.abi, abi/libtexdec_file.so.MAJOR.abi; docs/abi.md). Refuses
# to move a baseline incompatibly: an ABI break needs a new major version, so the baseline of
# major N may only grow, and a break writes the baseline of the new major (after
# TEXDEC_VERSION_MAJOR was raised), removing the old one.
# Usage: tools/abi-update-baseline.sh [LIBRARY]   (LIBRARY as for tools/abi-check.sh: without it, both)
set -euo pipefail
. "$(dirname "$0")/abi-common.sh"

abi_one_library_or_each "$0" "$@"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
abi_dump "$lib" "$work/current.abi"

rel=${baseline#$root/}
if [ -f "$baseline" ]; then
    rc=0
    abi_compare "$baseline" "$work/current.abi" "$work/report.txt" || rc=$?
    case $rc in
    0) ;;
    1)
        cat "$work/report.txt" >&2
        abi_fail "refusing to update $rel: the change above breaks the ABI and TEXDEC_VERSION_MAJOR is still $major.
  Restore the ABI, or raise TEXDEC_VERSION_MAJOR in include/texdec/texdec.h, rebuild and run this again."
        ;;
    *)
        cat "$work/report.txt" >&2
        abi_fail "abidiff could not compare $rel with $lib"
        ;;
    esac
    if cmp -s "$baseline" "$work/current.abi"; then
        echo "abi-update-baseline: $rel is up to date"
        exit 0
    fi
    cat "$work/report.txt"
    cp "$work/current.abi" "$baseline"
    echo "abi-update-baseline: $rel updated (no incompatible change). Commit it."
    exit 0
fi

# A new major version: the older baselines go (git keeps them); a newer one means the major
# version went backwards.
old=()
for f in "$root"/abi/lib$name.so.*.abi; do
    [ -e "$f" ] || continue
    n=${f##*/lib$name.so.}
    n=${n%.abi}
    [[ $n =~ ^[0-9]+$ ]] || abi_fail "unexpected baseline name ${f#$root/}"
    [ "$n" -lt "$major" ] || abi_fail "${f#$root/} is newer than TEXDEC_VERSION_MAJOR $major"
    old+=("$f")
done
cp "$work/current.abi" "$baseline"
rm -f "${old[@]}"
echo "abi-update-baseline: wrote $rel for major version $major${old:+ (removed ${old[*]#$root/})}. Commit it."

# Shared by tools/abi-check.sh and tools/abi-update-baseline.sh (sourced, not run): where the
# baselines live, which library to read, and how its public ABI is dumped (docs/abi.md).
# Two libraries have an ABI: libtexdec (texdec.h) and libtexdec_file (texdec_file.h, since 1.5).
# The baseline of major version N is abi/libtexdec.so.N.abi and abi/libtexdec_file.so.N.abi
# (N = TEXDEC_VERSION_MAJOR in include/texdec/texdec.h, which is also the SONAMEs' number).

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
header=$root/include/texdec/texdec.h
suppressions=$root/abi/texdec.abignore

abi_fail() {
    echo "abi: FAIL: $*" >&2
    exit 1
}

for tool in abidw abidiff readelf; do
    command -v $tool >/dev/null ||
        abi_fail "$tool not found (Debian: apt-get install abigail-tools binutils; .ci/install-deps.sh does)"
done
major=$(sed -n 's/^#define TEXDEC_VERSION_MAJOR \([0-9][0-9]*\)$/\1/p' "$header")
[ -n "$major" ] || abi_fail "no '#define TEXDEC_VERSION_MAJOR <number>' line in $header"
abi_libraries="texdec texdec_file"  # the libraries with a baseline, by name

# abi_select NAME: sets $name (texdec or texdec_file), $soname, $baseline and $target (its CMake target).
abi_select() {
    name=$1
    case $name in
    texdec) target=texdec_shared ;;
    texdec_file) target=texdec_file ;;
    *) abi_fail "no ABI baseline for a library named '$name' (known: $abi_libraries)" ;;
    esac
    soname=lib$name.so.$major
    baseline=$root/abi/$soname.abi
}

# abi_name_of PATH: the library name of PATH (libtexdec_file.so.1 -> texdec_file).
abi_name_of() {
    local base=${1##*/}
    base=${base#lib}
    echo "${base%%.so*}"
}

# abi_library [PATH]: sets $lib (after abi_select). Without PATH: build/lib$name.so.MAJOR, brought
# up to date first (cmake --build build --target $target; a no-op when it is).
abi_library() {
    if [ -n "${1:-}" ]; then
        lib=$1
    else
        lib=$root/build/$soname
        [ -f "$root/build/CMakeCache.txt" ] ||
            abi_fail "build/ is not configured: cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo (or give the library's path)"
        cmake --build "$root/build" --target "$target" >&2 || abi_fail "building $target in build/"
    fi
    [ -f "$lib" ] || abi_fail "$lib not found (a build of $target for major $major names it so)"
}

# abi_one_library_or_each SCRIPT [PATH]: with PATH, selects that library (abi_select, abi_library);
# without, runs SCRIPT once per library (each built first) and exits with their combined status.
abi_one_library_or_each() {
    local script=$1 path each status=0
    if [ -n "${2:-}" ]; then
        abi_select "$(abi_name_of "$2")"
        abi_library "$2"
        return
    fi
    for each in $abi_libraries; do
        path=$(abi_select "$each" && abi_library && echo "$lib") || exit 1
        "$script" "$path" || status=1
    done
    exit $status
}

# abi_dump LIBRARY OUT: writes LIBRARY's public ABI as abixml: the exported texdec_* functions
# and the types of include/texdec they reach, nothing internal (texdec_context and texdec_file
# stay opaque).
abi_dump() {
    local so
    so=$(readelf -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
    [ "$so" = "$soname" ] || abi_fail "$1 has SONAME '$so' but texdec.h's TEXDEC_VERSION_MAJOR is $major ($soname): rebuild it"
    readelf -S --wide "$1" | grep -q '\.debug_info' ||
        abi_fail "$1 has no debug info, which abidw reads: build with -DCMAKE_BUILD_TYPE=RelWithDebInfo (or Debug)"
    abidw --headers-dir "$root/include/texdec" --drop-private-types --exported-interfaces-only \
        --no-show-locs --no-corpus-path --no-comp-dir-path --out-file "$2.tmp" "$1" ||
        abi_fail "abidw $1"
    # Source paths relative to the checkout (the compiler records them absolute, or relative to
    # the build directory under ccache), so that a baseline does not depend on where it was built.
    sed -e "s|path='$root/|path='|" -e "s|path='\(\.\./\)*|path='|" "$2.tmp" > "$2"
    rm -f "$2.tmp"
}

# abi_compare OLD NEW REPORT: 0 when NEW keeps OLD's ABI (it may add functions, types and
# enumerators), 1 when it breaks it, 2 when abidiff failed. REPORT gets abidiff's full report
# (additions included). Any change abidiff reports besides additions is a break: a removed
# function, a changed signature, a changed struct layout or enumerator value.
abi_compare() {
    local rc=0
    abidiff --suppressions "$suppressions" "$1" "$2" > "$3" 2>&1 || true
    abidiff --suppressions "$suppressions" --no-added-syms "$1" "$2" > /dev/null 2>&1 || rc=$?
    # abidiff's status bits: 1 error, 2 usage error, 4 ABI change, 8 incompatible change.
    if [ $((rc & 3)) -ne 0 ]; then return 2; fi
    if [ $rc -ne 0 ]; then return 1; fi
    return 0
}

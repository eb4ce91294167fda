#!/usr/bin/env bash
# package_symbols: what the libraries export.
#   libtexdec.so: dynamic symbols are exactly the TEXDEC_API functions texdec.h declares (none
#     missing, nothing else: hidden visibility + cmake/texdec.map), and it does not link libvulkan.
#   libtexdec.a: no vk*/volk*/PFN_* symbols (an app with its own volk must link cleanly), and every
#     strong global symbol is texdec_* or in C++ namespace texdec / struct texdec_* (no stray names).
#   libtexdec_file.so (when given): dynamic symbols are exactly the TEXDEC_FILE_API functions
#     texdec_file.h declares (cmake/texdec_file.map: none of libtexdec's, none of the parsers' C++
#     names), it links libtexdec.so.MAJOR and not libvulkan.
# Usage: check_symbols.sh NM READELF libtexdec.so libtexdec.a texdec.h [libtexdec_file.so texdec_file.h]
set -euo pipefail
nm=$1 readelf=$2 so=$3 archive=$4 header=$5 file_so=${6:-} file_header=${7:-}
status=0
fail() { echo "FAIL: $*" >&2; status=1; }

declared=$(grep -v '^#' "$header" | grep -o 'TEXDEC_API[^(]*(' | sed 's/($//; s/.*[ *]//' | sort -u)
exported=$("$nm" -D --defined-only "$so" | awk '{print $NF}' | sort -u)
[ -n "$declared" ] || fail "no TEXDEC_API declarations found in $header"
echo "libtexdec.so exports $(wc -l <<<"$exported") symbols; texdec.h declares $(wc -l <<<"$declared")"
extra=$(comm -13 <(echo "$declared") <(echo "$exported"))
missing=$(comm -23 <(echo "$declared") <(echo "$exported"))
[ -z "$extra" ] || fail "libtexdec.so exports symbols texdec.h does not declare:"$'\n'"$extra"
[ -z "$missing" ] || fail "texdec.h declares functions libtexdec.so does not export:"$'\n'"$missing"
! "$readelf" -d "$so" | grep NEEDED | grep -q libvulkan || fail "libtexdec.so links libvulkan"

globals=$("$nm" -g --defined-only "$archive" | awk 'NF == 3 {print $2, $3}')
vk=$(awk '{print $2}' <<<"$globals" | grep -E '^_?(vk|volk|PFN_)' | sort -u || true)
[ -z "$vk" ] || fail "libtexdec.a defines Vulkan/volk symbols:"$'\n'"$vk"
# Strong definitions (T, D, B, R). Itanium mangling: _ZN6texdec... is namespace texdec,
# _ZN14texdec_context... a member of struct texdec_context. An AddressSanitizer build adds an ODR
# indicator __odr_asan.NAME beside each global variable NAME: texdec's when NAME is.
stray=$(awk '$1 ~ /^[TDBR]$/ {print $2}' <<<"$globals" | sed 's/^__odr_asan\.//' |
        grep -vE '^texdec_|^_ZN6texdec|^_ZN[0-9]+texdec_|^_ZNK[0-9]+texdec_|^_ZNK6texdec' | sort -u || true)
[ -z "$stray" ] || fail "libtexdec.a defines global symbols outside texdec's names:"$'\n'"$stray"
echo "libtexdec.a: $(awk '$1 ~ /^[TDBR]$/' <<<"$globals" | wc -l) strong global definitions, all texdec's; no vk*/volk*"

if [ -n "$file_so" ]; then
  declared=$(grep -v '^#' "$file_header" | grep -o 'TEXDEC_FILE_API[^(]*(' | sed 's/($//; s/.*[ *]//' | sort -u)
  exported=$("$nm" -D --defined-only "$file_so" | awk '{print $NF}' | sort -u)
  [ -n "$declared" ] || fail "no TEXDEC_FILE_API declarations found in $file_header"
  echo "libtexdec_file.so exports $(wc -l <<<"$exported") symbols; texdec_file.h declares $(wc -l <<<"$declared")"
  extra=$(comm -13 <(echo "$declared") <(echo "$exported"))
  missing=$(comm -23 <(echo "$declared") <(echo "$exported"))
  [ -z "$extra" ] || fail "libtexdec_file.so exports symbols texdec_file.h does not declare:"$'\n'"$extra"
  [ -z "$missing" ] || fail "texdec_file.h declares functions libtexdec_file.so does not export:"$'\n'"$missing"
  needed=$("$readelf" -d "$file_so" | grep NEEDED || true)
  ! grep -q libvulkan <<<"$needed" || fail "libtexdec_file.so links libvulkan"
  soname=$("$readelf" -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
  grep -qF "[$soname]" <<<"$needed" || fail "libtexdec_file.so does not link $soname"
fi
exit $status

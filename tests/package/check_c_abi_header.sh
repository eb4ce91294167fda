#!/usr/bin/env bash
# c_abi_header: include/texdec/texdec.h and texdec_file.h compile as C99 and C11 (-Wall -Wextra
# -pedantic -Werror -Wstrict-prototypes; C11 also with VK_NO_PROTOTYPES) and as C++11, C++14,
# C++17 and C++20 (-Wall -Wextra -pedantic -Werror). The C99 compile proves the headers hold no
# C++; their only __cplusplus blocks must be the extern "C" guard.
# Usage: check_c_abi_header.sh CC CXX INCLUDE_DIR VULKAN_INCLUDE_DIR
set -euo pipefail
cc=$1 cxx=$2 inc=$3 vkinc=$4
dir=$(dirname "$0")
status=0
compile() {
  echo "$*"
  "$@" -I"$inc" -isystem "$vkinc" -fsyntax-only || { echo "FAIL: the line above" >&2; status=1; }
}
for src in "$dir/c_abi_header.c" "$dir/c_abi_file_header.c"; do
  compile "$cc" -x c -std=c99 -Wall -Wextra -pedantic -Werror -Wstrict-prototypes "$src"
  compile "$cc" -x c -std=c11 -Wall -Wextra -pedantic -Werror -Wstrict-prototypes -DVK_NO_PROTOTYPES "$src"
  for std in c++11 c++14 c++17 c++20; do
    compile "$cxx" -x c++ -std=$std -Wall -Wextra -pedantic -Werror "$src"
  done
done
# Lines inside "#ifdef __cplusplus" blocks: only the extern "C" guard is allowed.
for header in "$inc/texdec/texdec.h" "$inc/texdec/texdec_file.h"; do
  inside=$(awk '/^#ifdef __cplusplus/ {on = 1; next} on && /^#endif/ {on = 0; next} on {print}' "$header" |
           grep -vxE 'extern "C" \{|\}' || true)
  if [ -n "$inside" ]; then
    echo "FAIL: $(basename "$header") has C++-only lines besides the extern \"C\" guard:"$'\n'"$inside" >&2
    status=1
  fi
done
[ $status -eq 0 ] && echo "c_abi_header: texdec.h and texdec_file.h are plain C (C99, C11) and compile as C++11-C++20"
exit $status

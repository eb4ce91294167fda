#!/usr/bin/env bash
# c_abi_header: include/texdec/texdec.h compiles as C99 and C11 (-Wall -Wextra -pedantic -Werror
# -Wstrict-prototypes; C11 also with VK_NO_PROTOTYPES) and as C++11 and C++20 (-Wall -Wextra
# -pedantic -Werror). The C99 compile proves the header holds no C++; its only __cplusplus block
# must be the extern "C" guard.
# Usage: check_c_abi_header.sh CC CXX INCLUDE_DIR VULKAN_INCLUDE_DIR
set -euo pipefail
cc=$1 cxx=$2 inc=$3 vkinc=$4
src=$(dirname "$0")/c_abi_header.c
header=$inc/texdec/texdec.h
status=0
compile() {
  echo "$*"
  "$@" -I"$inc" -isystem "$vkinc" -fsyntax-only || { echo "FAIL: the line above" >&2; status=1; }
}
compile "$cc" -x c -std=c99 -Wall -Wextra -pedantic -Werror -Wstrict-prototypes "$src"
compile "$cc" -x c -std=c11 -Wall -Wextra -pedantic -Werror -Wstrict-prototypes -DVK_NO_PROTOTYPES "$src"
compile "$cxx" -x c++ -std=c++11 -Wall -Wextra -pedantic -Werror "$src"
compile "$cxx" -x c++ -std=c++20 -Wall -Wextra -pedantic -Werror "$src"
# Lines inside "#ifdef __cplusplus" blocks: only the extern "C" guard is allowed.
inside=$(awk '/^#ifdef __cplusplus/ {on = 1; next} on && /^#endif/ {on = 0; next} on {print}' "$header" |
         grep -vxE 'extern "C" \{|\}' || true)
if [ -n "$inside" ]; then
  echo "FAIL: texdec.h has C++-only lines besides the extern \"C\" guard:"$'\n'"$inside" >&2
  status=1
fi
[ $status -eq 0 ] && echo "c_abi_header: texdec.h is plain C (C99, C11) and compiles as C++11/C++20"
exit $status

#!/usr/bin/env bash
# Checks that the C/C++ lines changed since BASE follow .clang-format (clang-format 14, Debian's
# clang-format-14). BASE defaults to the commit that added .clang-format, so every line written since
# then is checked and older lines are left as they are (the tree was never reformatted wholesale).
#   tools/format-check.sh [BASE]        print what would change; exit 1 if anything would
#   tools/format-check.sh --fix [BASE]  reformat those lines in the working tree
set -euo pipefail
cd "$(dirname "$0")/.."
fix=0
if [ "${1:-}" = "--fix" ]; then fix=1; shift; fi
if [ -z "${1:-}" ] && [ "$(git rev-parse --is-shallow-repository)" = true ]; then
  # A shallow clone (CI systems often make one) lacks the commit that added .clang-format, and its
  # oldest commit would look like the one that added every file.
  echo "format check: SKIPPED: shallow clone (run tools/format-check.sh in a full clone, or pass BASE)" >&2
  exit 0
fi
base=${1:-$(git log --diff-filter=A --format=%H -- .clang-format | tail -n 1)}
if [ -z "$base" ] || ! git cat-file -e "$base^{commit}" 2>/dev/null; then
  echo "format check: no base commit (${1:-.clang-format is not in the history of this clone}): nothing checked" >&2
  exit 1
fi
args=(--binary clang-format-14 --extensions c,h,cpp,hpp)
if [ "$fix" = 1 ]; then
  git clang-format-14 "${args[@]}" "$base"
  exit 0
fi
diff=$(git clang-format-14 "${args[@]}" --diff "$base" || true)
case "$diff" in
  ""|"no modified files to format"*|"clang-format did not modify any files"*)
    echo "format check: lines changed since ${base:0:12} follow .clang-format"; exit 0 ;;
esac
printf '%s\n' "$diff"
echo "format check: the lines above do not follow .clang-format (fix: tools/format-check.sh --fix)" >&2
exit 1

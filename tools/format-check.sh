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
# The changed lines as git sees them with renames followed (-M), so a moved file is checked only
# where its lines changed (git clang-format would take every line of it as new), for the C/C++
# files tracked in the working tree (git add new files first).
changes() {
  git diff -M -U0 --no-color "$base" -- '*.c' '*.h' '*.cpp' '*.hpp'
}
if [ "$fix" = 1 ]; then
  changes | clang-format-diff-14 -p1 -i
  exit 0
fi
diff=$(changes | clang-format-diff-14 -p1)
if [ -z "$diff" ]; then
  echo "format check: lines changed since ${base:0:12} follow .clang-format"; exit 0
fi
printf '%s\n' "$diff"
echo "format check: the lines above do not follow .clang-format (fix: tools/format-check.sh --fix)" >&2
exit 1

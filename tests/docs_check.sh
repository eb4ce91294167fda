#!/usr/bin/env bash
# The docs test (ctest label "docs"; docs/DEVELOPING.md, "Docs"). Needs no build and no device.
#
#   tests/docs_check.sh paths [SOURCE_DIR]
#     Every repository path that README.md and docs/*.md name exists: tokens that start with a
#     folder of this repository (src/ tests/ docs/ samples/ include/ tools/ cmake/ .ci/ shaders/
#     luts/ abi/), in prose, backticks or code blocks, relative to the repository root; and every
#     relative markdown link, relative to the file that holds it. A token with a wildcard (*) must
#     match something; tokens with placeholders (<family>, {h,cpp}, ..., libtexdec.so.MAJOR) and
#     other projects' paths that the docs quote (other_projects below) are not checked.
#
#   tests/docs_check.sh env [SOURCE_DIR]
#     Every TEXDEC_* environment variable the code reads has a row in docs/DEVELOPING.md's
#     Environment table (a table row whose first cell names it in backticks), and every variable
#     of that table is still read. "Read": the name as the literal argument of getenv,
#     secure_getenv, TEXDEC_TEST_HOOK, user_setting or Rust's env::var in src/ include/ tests/
#     samples/ tools/; in a file that also reads a variable through a helper (getenv(name)), the
#     name as the literal first argument of any call there (the helper's), except setenv and
#     unsetenv; and $TEXDEC_* / ${TEXDEC_* in the shell scripts of .ci/ tests/ tools/ samples/.
set -euo pipefail

mode=${1:-}
root=${2:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

fail=0
problem() {
  echo "docs_check: $*" >&2
  fail=1
}

# Paths of other projects that the docs quote (docs/BLOCK_LINEAR.md's sources): not ours to check.
other_projects='^src/(nouveau|gallium|video_core|Ryujinx\.Graphics\.Texture)/'

check_paths() {
  local docs=(README.md docs/*.md)
  local checked=0
  local file
  for file in "${docs[@]}"; do
    local dir
    dir=$(dirname "$file")
    # Root-relative tokens: a repository folder at the start of a word (not after a letter, a
    # digit, / or . so that build/src/... and URLs are not taken).
    while IFS=: read -r line token; do
      while [[ $token =~ [.,:\;\)]$ ]]; do token=${token%?}; done
      token=${token#./}
      [[ -z $token || $token == *'<'* || $token == *'{'* || $token == *'...'* ]] && continue
      [[ $token =~ \.(MAJOR|MINOR|PATCH)(\.|$) ]] && continue   # libtexdec.so.MAJOR: a placeholder
      [[ $token =~ $other_projects ]] && continue
      checked=$((checked + 1))
      if [[ $token == *'*'* ]]; then
        compgen -G "$token" >/dev/null || problem "$file:$line: \`$token\` matches no file of the repository"
      elif [[ ! -e $token ]]; then
        problem "$file:$line: \`$token\` does not exist in the repository"
      fi
    done < <(grep -noE '(^|[^A-Za-z0-9_./~-])(\./)?(src|tests|docs|samples|include|tools|cmake|\.ci|shaders|luts|abi)/[A-Za-z0-9_./*<>{}+-]*' "$file" |
             sed -E 's/^([0-9]+):[^A-Za-z0-9_./~-]?/\1:/')
    # Markdown links and link definitions, relative to the file.
    while IFS=: read -r line target; do
      target=${target%%#*}
      [[ -z $target || $target == *://* || $target == mailto:* ]] && continue
      checked=$((checked + 1))
      if [[ ! -e $dir/$target ]]; then
        problem "$file:$line: link \`$target\` does not exist (relative to $dir/)"
      fi
    done < <({ grep -noE '\]\([^) ]+\)' "$file" | sed -E 's/^([0-9]+):\]\((.*)\)$/\1:\2/'
               grep -noE '^\[[^]]+\]: *[^ ]+' "$file" | sed -E 's/^([0-9]+):\[[^]]+\]: *(.*)$/\1:\2/'; } || true)
  done
  # A check that found nothing to check could not fail.
  if ((checked < 50)); then problem "only $checked paths found in ${docs[*]}: is the pattern still right?"; fi
  ((fail == 0)) && echo "docs_check: $checked paths and links named in ${docs[*]} exist"
}

# Prints "NAME<TAB>file:line" for every variable the code reads.
variables_read() {
  local code_dirs=(src include tests samples tools)
  local readers='(getenv|secure_getenv|TEXDEC_(IO_)?TEST_HOOK|user_setting|env::var)'
  local file
  while IFS= read -r -d '' file; do
    grep -noE "$readers"'[[:space:]]*\([[:space:]]*"TEXDEC_[A-Z0-9_]+"' "$file" |
      sed -E 's/^([0-9]+):.*"(TEXDEC_[A-Z0-9_]+)"$/\2\t'"${file//\//\\/}"':\1/' || true
    if grep -qE "$readers"'[[:space:]]*\([[:space:]]*[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\)' "$file"; then
      grep -noE '[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\([[:space:]]*"TEXDEC_[A-Z0-9_]+"' "$file" |
        grep -vE '^[0-9]+:(un)?setenv[[:space:]]*\(' |
        sed -E 's/^([0-9]+):.*"(TEXDEC_[A-Z0-9_]+)"$/\2\t'"${file//\//\\/}"':\1/' || true
    fi
  done < <(find "${code_dirs[@]}" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.hpp' \
             -o -name '*.rs' \) -print0)
  while IFS= read -r -d '' file; do
    grep -noE '\$\{?TEXDEC_[A-Z0-9_]+' "$file" |
      sed -E 's/^([0-9]+):\$\{?(TEXDEC_[A-Z0-9_]+)$/\2\t'"${file//\//\\/}"':\1/' || true
  done < <(find .ci tests tools samples -type f -name '*.sh' -print0)
  true  # grep finds nothing in most files
}

check_env() {
  local table=docs/DEVELOPING.md
  local read_vars documented
  read_vars=$(variables_read | sort -u -k1,1)
  # The public API's enumerators and macros are never environment variables (a message may quote one).
  local api
  api=$(sed -nE 's/^[[:space:]]*(#define[[:space:]]+)?(TEXDEC_[A-Z0-9_]+)([[:space:]]*[=,(]|[[:space:]]|$).*/\2/p' \
          include/texdec/*.h | sort -u)
  read_vars=$(awk -F'\t' 'NR == FNR { api[$1] = 1; next } !($1 in api)' <(echo "$api") <(echo "$read_vars"))
  documented=$(grep -E '^\|' "$table" | cut -d'|' -f2 | grep -oE '`TEXDEC_[A-Z0-9_]+' | tr -d '`' | sort -u)
  local n_read n_doc
  n_read=$(echo "$read_vars" | grep -c . || true)
  n_doc=$(echo "$documented" | grep -c . || true)
  if ((n_read < 10)); then problem "only $n_read variables found read by the code: is the pattern still right?"; fi
  local name where
  while IFS=$'\t' read -r name where; do
    [[ -z $name ]] && continue
    grep -qx "$name" <<<"$documented" ||
      problem "$name (read at $where) has no row in $table's Environment table"
  done <<<"$read_vars"
  while IFS= read -r name; do
    [[ -z $name ]] && continue
    cut -f1 <<<"$read_vars" | grep -qx "$name" ||
      problem "$name has a row in $table's Environment table, but no code reads it"
  done <<<"$documented"
  ((fail == 0)) && echo "docs_check: the $n_read TEXDEC_* variables the code reads are in $table, and no others"
}

case "$mode" in
  paths) check_paths ;;
  env) check_env ;;
  *) echo "usage: $0 paths|env [SOURCE_DIR]" >&2; exit 2 ;;
esac
exit $fail

#!/usr/bin/env bash
# Runs every libFuzzer target of the container parsers (fuzz_dds, fuzz_ktx, fuzz_ktx2, fuzz_pkm,
# fuzz_astc), fuzz_file (the public texdec_file library, any container), fuzz_pipeline (any
# container: parse, CPU decode, every writer) and fuzz_decode (random decode jobs and blocks on
# the CPU backend) for SECONDS each, JOBS at a time (default 2), and fails if any reports a
# crash, a leak, a sanitizer error, a timeout (> 10 s on one input) or an allocation over 2 GiB.
#
#   tests/fuzz/run_fuzzers.sh SECONDS [BUILD_DIR] [TARGET...]
#
# BUILD_DIR (default build-fuzz) is configured with clang and -DTEXDEC_FUZZ=ON and built with
# `--target texdec_fuzzers` (tests/README.md, "Fuzzing"). Each target starts from the seeds
# write_seeds makes, its dictionary (tests/fuzz/dict) and, when TEXDEC_CORPUS is set, the corpus
# files with its extension (read, never copied into the repository). fuzz_pipeline starts from every
# container's seeds, write_seeds' bigger pipeline seeds and every dictionary, with inputs up to
# 256 KiB (the parsers' targets: 16 KiB). fuzz_decode starts from write_seeds' decode/ jobs (a
# valid job of every format), with no dictionary and inputs up to a 32-byte job header + 4 KiB of
# blocks; it prints how its jobs ended (the share decoded, each refusal). New inputs go to
# BUILD_DIR/fuzz/<target>/corpus and stay there for the next run; a failing input is saved as
# BUILD_DIR/fuzz/<target>/crash-* (or leak-, timeout-, oom-) and its log is printed.
# Reproduce one with: BUILD_DIR/tests/fuzz/fuzz_ktx2 BUILD_DIR/fuzz/fuzz_ktx2/crash-...
set -uo pipefail
if [ $# -lt 1 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
  echo "usage: $0 SECONDS [BUILD_DIR] [TARGET...]   (targets: dds ktx ktx2 pkm astc file pipeline decode)" >&2
  exit 2
fi
seconds=$1
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${2:-build-fuzz}" 2>/dev/null && pwd) || { echo "run_fuzzers: no build dir '${2:-build-fuzz}'" >&2; exit 2; }
shift $(( $# >= 2 ? 2 : 1 ))
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(dds ktx ktx2 pkm astc file pipeline decode)
jobs=${JOBS:-2}
bin=$build/tests/fuzz
work=$build/fuzz

[ -x "$bin/write_seeds" ] || { echo "run_fuzzers: $bin/write_seeds missing: build the texdec_fuzzers target" >&2; exit 2; }
rm -rf "$work/seeds"
"$bin/write_seeds" "$work/seeds" || exit 1

# Leaks are reported (detect_leaks); UBSan findings abort (the targets are built with
# -fno-sanitize-recover=undefined) with a stack.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"

run_target() {
  local t=$1 dir=$work/fuzz_$1
  mkdir -p "$dir/corpus" "$dir/real"
  rm -f "$dir"/real/*
  local extensions=("$t") seeds=("$work/seeds/$t") dict="$here/dict/$t.dict" max_len=16384
  if [ "$t" = pipeline ]; then
    extensions=(dds ktx ktx2 pkm astc)
    seeds=("$work/seeds"/*/)
    dict=$dir/all.dict
    cat "$here"/dict/*.dict > "$dict"
    max_len=262144
  elif [ "$t" = file ]; then
    # texdec_file (the public container library): any container, from every container's seeds.
    extensions=(dds ktx ktx2 pkm astc)
    seeds=("$work/seeds"/file "$work/seeds"/dds "$work/seeds"/ktx "$work/seeds"/ktx2 "$work/seeds"/pkm
      "$work/seeds"/astc)
    dict=$dir/all.dict
    cat "$here"/dict/*.dict > "$dict"
  elif [ "$t" = decode ]; then
    extensions=()
    dict=
    max_len=4128
  fi
  if [ -n "${TEXDEC_CORPUS:-}" ]; then
    # Links to the corpus files with this extension (libFuzzer reads them; max_len cuts big ones).
    for ext in "${extensions[@]+"${extensions[@]}"}"; do
      find "$TEXDEC_CORPUS" -type f -iname "*.$ext" -print0 |
        while IFS= read -r -d '' f; do ln -sf "$f" "$dir/real/$(echo "$f" | md5sum | cut -c1-16).$ext"; done
    done
  fi
  local start=$SECONDS
  "$bin/fuzz_$t" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=$max_len \
    ${dict:+-dict="$dict"} -artifact_prefix="$dir/" -print_final_stats=1 \
    "$dir/corpus" "${seeds[@]}" "$dir/real" > "$dir/log.txt" 2>&1
  local rc=$?
  local execs
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log.txt" | tail -1)
  local corpus_size
  corpus_size=$(find "$dir/corpus" -type f | wc -l)
  echo "$rc ${execs:-?} $(( SECONDS - start )) $corpus_size" > "$dir/result"
}

echo "run_fuzzers: ${targets[*]} for ${seconds} s each, $jobs at a time (logs in $work/fuzz_*/log.txt)"
start=$SECONDS
running=0
for t in "${targets[@]}"; do
  [ -x "$bin/fuzz_$t" ] || { echo "run_fuzzers: $bin/fuzz_$t missing" >&2; exit 2; }
  rm -f "$work/fuzz_$t/result"
  run_target "$t" &
  running=$((running + 1))
  if [ $running -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
done
wait

failed=0
for t in "${targets[@]}"; do
  read -r rc execs secs corpus_size < "$work/fuzz_$t/result" || { rc=1; execs=?; secs=?; corpus_size=?; }
  if [ "$rc" -eq 0 ]; then
    echo "run_fuzzers: fuzz_$t: ok, $execs executions in $secs s, corpus $corpus_size inputs"
    grep '^fuzz_decode: [0-9]* jobs:' "$work/fuzz_$t/log.txt" | tail -1 | sed 's/^/run_fuzzers:   /'
  else
    failed=1
    echo "run_fuzzers: fuzz_$t: FAILED (exit code $rc) after $execs executions; its log ends:"
    grep -v '^#' "$work/fuzz_$t/log.txt" | tail -60
    ls "$work/fuzz_$t"/crash-* "$work/fuzz_$t"/leak-* "$work/fuzz_$t"/timeout-* "$work/fuzz_$t"/oom-* 2>/dev/null
  fi
done
echo "run_fuzzers: $(( SECONDS - start )) s in all"
exit $failed

#!/usr/bin/env bash
# Runs every Catch2 test case of a texdec_tests binary in its own process (what ctest does) and
# prints a summary. For machines without ctest's build tree, e.g. the H100 device machine, where
# NVIDIA's driver runs out of static TLS when one process creates and destroys dozens of
# instances. Usage: tests/run_each_case.sh path/to/texdec_tests [LOGDIR [CATCH_FILTER]]
# e.g. CATCH_FILTER='~[astc-oracle]' with TEXDEC_WAIVE_MESA_ORACLE=1 where Mesa GL is not available.
set -uo pipefail
bin=$1; logdir=${2:-/tmp/texdec_case_logs}; filter=${3:-}
mkdir -p "$logdir"
pass=0; fail=0; i=0
while IFS= read -r name; do
  [ -z "$name" ] && continue
  i=$((i + 1))
  if "$bin" "$name" >"$logdir/case_$i.log" 2>&1; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAILED: $name (log: $logdir/case_$i.log)"; tail -20 "$logdir/case_$i.log"
  fi
done < <("$bin" --list-test-names-only $filter)
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

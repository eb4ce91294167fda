#!/usr/bin/env bash
# rust_ffi_sample: compiles samples/rust/texdec_sample.rs with rustc (no cargo, no crates) against
# the build's libtexdec.so, then runs it with the C layout texdec_abi_layout prints (the program
# compares its #[repr(C)] declarations with it field by field before any call) and the validation
# layer on. The program checks the decoded texels itself.
# Usage: run_rust_sample.sh RUSTC LIBDIR ABI_LAYOUT_BINARY WORK_DIR SAMPLE_RS [PRELOAD]
# PRELOAD: a sanitizer runtime the instrumented library needs first (sanitizer builds only).
set -euo pipefail
rustc=$1 libdir=$2 layout_bin=$3 work=$4 sample=$5 preload=${6:-}
mkdir -p "$work"
"$rustc" --version
"$rustc" --edition 2021 -L "native=$libdir" -o "$work/texdec_sample" "$sample"
"$layout_bin" > "$work/c_layout.txt"
rc=0
env ${preload:+LD_PRELOAD="$preload"} LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  TEXDEC_SAMPLE_VALIDATION=1 "$work/texdec_sample" "$work/c_layout.txt" || rc=$?
[ $rc -eq 77 ] && echo "*** SKIPPED: no Vulkan device (TEXDEC_ALLOW_NO_DEVICE=1) ***"
exit $rc

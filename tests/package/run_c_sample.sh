#!/usr/bin/env bash
# sample_c_decode_blocks: runs samples/c/decode_blocks with the validation layer on and checks its
# exit status and the lines it prints. The texels are the BC spec's values for the sample's blocks
# (EXACT rounding, texdec.h), worked out by hand:
#   BC1 red (0xF800) / blue (0x001F), 4-colour mode: (2*255+0)/3 = 170, (255+2*0)/3 = 85.
#   BC3 alphas 255 / 0, 8-alpha mode: 6*255/7 = 218.57 -> 219, 5*255/7 = 182.14 -> 182 (IDEAL's
#   truncation would give 218, 182).
# Usage: run_c_sample.sh SAMPLE_BINARY
set -uo pipefail
rc=0
out=$(TEXDEC_SAMPLE_VALIDATION=1 "$1" 2>&1) || rc=$?
echo "$out"
[ $rc -eq 77 ] && { echo "*** SKIPPED: no Vulkan device (TEXDEC_ALLOW_NO_DEVICE=1) ***"; exit 77; }
[ $rc -eq 0 ] || { echo "FAIL: the sample exited with $rc" >&2; exit 1; }
status=0
while IFS= read -r line; do
  grep -qxF -- "$line" <<<"$out" || { echo "FAIL: missing output line: $line" >&2; status=1; }
done <<'EXPECTED'
texdec_context_create: success
bc1-rgba-unorm: success
  row 0: (255,0,0,255) (0,0,255,255) (170,0,85,255) (85,0,170,255)
  row 3: (255,0,0,255) (0,0,255,255) (170,0,85,255) (85,0,170,255)
bc3-unorm: success
  row 0: (0,255,0,255) (0,255,0,0) (0,255,0,219) (0,255,0,182)
  row 3: (0,255,0,255) (0,255,0,0) (0,255,0,219) (0,255,0,182)
bc3-unorm: source data too small
EXPECTED
exit $status

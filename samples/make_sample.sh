#!/usr/bin/env bash
# Regenerates the bundled sample textures:
#   samples/sample-bc3.dds       256x256 BC3 (DXT5 FourCC header, no mip levels), made with nvcompress
#   samples/sample-astc-6x6.astc 100x100 ASTC 6x6, sRGB (astcenc -cs), made with the astcenc CLI;
#                                100 is not a multiple of 6, so the last block column and row are partial
#
# The image is procedural (nothing taken from a corpus): a hue sweep with concentric rings, a
# checkerboard patch and white bars, with an alpha channel that fades towards the corners and
# has a hard-edged transparent hole, so colour and alpha both get exercised. The ASTC sample is
# the same picture drawn at 100x100 (every feature scaled).
#
# Dev-time tools only (not build dependencies), from Debian 12:
#   apt-get install -y python3-pil libnvtt-bin astcenc
# Usage: samples/make_sample.sh [bc3|astc|all]   (default all; run from anywhere; rewrites the files)
# The output is deterministic: re-running it gives the same bytes.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
which="${1:-all}"
case "$which" in bc3|astc|all) ;; *) echo "usage: $0 [bc3|astc|all]" >&2; exit 2 ;; esac
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

need() {
  command -v "$1" >/dev/null || { echo "make_sample: $1 is missing (apt-get install -y $2)" >&2; exit 1; }
}
need /usr/bin/python3 python3-pil
[ "$which" = astc ] || need nvcompress libnvtt-bin
[ "$which" = bc3 ] || need astcenc astcenc

# draw SIZE FILE: the procedural RGBA image at SIZE x SIZE, as a PNG. Feature positions are given
# for 256 and scaled (at 256 the arithmetic is exactly what made sample-bc3.dds).
# Debian's python3 (not a pyenv or venv one) is the one that has python3-pil.
draw() {
/usr/bin/python3 - "$1" "$2" <<'PY'
import colorsys, math, sys
from PIL import Image

SIZE = int(sys.argv[1])
s = SIZE / 256                                            # 1.0 for the BC3 sample
img = Image.new("RGBA", (SIZE, SIZE))
px = img.load()
centre = (SIZE - 1) / 2
for y in range(SIZE):
    for x in range(SIZE):
        dx, dy = x - centre, y - centre
        r = math.hypot(dx, dy)
        hue = (math.atan2(dy, dx) / (2 * math.pi)) % 1.0
        ring = 0.75 + 0.25 * math.cos(r / (6.0 * s))     # concentric rings: smooth gradients
        red, green, blue = colorsys.hsv_to_rgb(hue, 0.85, ring)
        if 16 * s <= x < 80 * s and 16 * s <= y < 80 * s and (int(x // (8 * s)) + int(y // (8 * s))) % 2:
            red = green = blue = 0.1                      # checkerboard: sharp edges
        if 176 * s <= y < 240 * s and int(x // (4 * s)) % 4 == 0:
            red = green = blue = 1.0                      # thin white bars
        alpha = max(0.0, min(1.0, 1.4 - r / centre))      # fades towards the corners
        if math.hypot(x - 190 * s, y - 66 * s) < 22 * s:
            alpha = 0.0                                   # hard-edged transparent hole
        px[x, y] = tuple(round(v * 255) for v in (red, green, blue, alpha))
img.save(sys.argv[2])
PY
}

if [ "$which" != astc ]; then
  out="$here/sample-bc3.dds"
  draw 256 "$tmp/sample-256.png"
  # -alpha: the alpha channel is transparency; -nomips: level 0 only (keeps the file small);
  # -nocuda: the same result on every machine.
  nvcompress -bc3 -alpha -nomips -nocuda "$tmp/sample-256.png" "$out" >/dev/null
  echo "make_sample: wrote $out ($(stat -c %s "$out") bytes)"
fi

if [ "$which" != bc3 ]; then
  out="$here/sample-astc-6x6.astc"
  draw 100 "$tmp/sample-100.png"
  # -cs: sRGB colour, linear alpha (decode it with --profile srgb); -medium: a fixed quality preset;
  # -j 1: one thread (the result does not depend on it, but nothing is left to chance).
  astcenc -cs "$tmp/sample-100.png" "$out" 6x6 -medium -j 1 -silent >/dev/null
  echo "make_sample: wrote $out ($(stat -c %s "$out") bytes)"
fi

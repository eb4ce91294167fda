#!/usr/bin/env bash
# Regenerates samples/sample-bc3.dds, the texture the README's first command decodes.
#
# The image is procedural (nothing taken from a corpus): a hue sweep with concentric rings, a
# checkerboard patch and white bars, with an alpha channel that fades towards the corners and
# has a hard-edged transparent hole, so both the BC3 colour and the BC3 alpha blocks get exercised.
# It is compressed to BC3 (DXT5 FourCC header, no mip levels) with nvcompress.
#
# Dev-time tools only (not build dependencies), from Debian 12:
#   apt-get install -y python3-pil libnvtt-bin
# Usage: samples/make_sample.sh            (run from anywhere; rewrites samples/sample-bc3.dds)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
out="$here/sample-bc3.dds"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

for tool in /usr/bin/python3 nvcompress; do
  command -v "$tool" >/dev/null || { echo "make_sample: $tool is missing (apt-get install -y python3-pil libnvtt-bin)" >&2; exit 1; }
done

# Debian's python3 (not a pyenv or venv one) is the one that has python3-pil.
/usr/bin/python3 - "$tmp/sample.png" <<'PY'
import colorsys, math, sys
from PIL import Image

SIZE = 256
img = Image.new("RGBA", (SIZE, SIZE))
px = img.load()
centre = (SIZE - 1) / 2
for y in range(SIZE):
    for x in range(SIZE):
        dx, dy = x - centre, y - centre
        r = math.hypot(dx, dy)
        hue = (math.atan2(dy, dx) / (2 * math.pi)) % 1.0
        ring = 0.75 + 0.25 * math.cos(r / 6.0)           # concentric rings: smooth gradients
        red, green, blue = colorsys.hsv_to_rgb(hue, 0.85, ring)
        if 16 <= x < 80 and 16 <= y < 80 and ((x // 8) + (y // 8)) % 2:
            red = green = blue = 0.1                      # checkerboard: sharp edges
        if 176 <= y < 240 and (x // 4) % 4 == 0:
            red = green = blue = 1.0                      # thin white bars
        alpha = max(0.0, min(1.0, 1.4 - r / centre))      # fades towards the corners
        if math.hypot(x - 190, y - 66) < 22:
            alpha = 0.0                                   # hard-edged transparent hole
        px[x, y] = tuple(round(v * 255) for v in (red, green, blue, alpha))
img.save(sys.argv[1])
PY

# -alpha: the alpha channel is transparency; -nomips: level 0 only (keeps the file small);
# -nocuda: the same result on every machine.
nvcompress -bc3 -alpha -nomips -nocuda "$tmp/sample.png" "$out" >/dev/null
echo "make_sample: wrote $out ($(stat -c %s "$out") bytes)"

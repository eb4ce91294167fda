#!/usr/bin/env bash
# After the device machine's prep script (it creates .gl/enter.sh): adds what the texdec tests need on the device machine
# (NVIDIA H100, no apt, no Vulkan loader). Run once from the project root, then build here, copy
# build/tests/texdec_tests, build/src/cli/astc-gpu-decode, build/libtexdec.so*,
# tests/run_each_case.sh and samples/sample-bc3.dds into an ignored folder (e.g. build-device/), carry
# [".gl", "build-device"] and run:
#   source .gl/enter.sh; export LD_LIBRARY_PATH=$PWD/build-device:$LD_LIBRARY_PATH \
#     TEXDEC_CLI=$PWD/build-device/astc-gpu-decode TEXDEC_SAMPLE=$PWD/build-device/sample-bc3.dds;
#   ./build-device/run_each_case.sh ./build-device/texdec_tests
# The Mesa GL oracle (libegl-mesa0, libgl1-mesa-dri + LLVM, too big to carry) is not on the device:
# tests that compare with it run here (lavapipe); on the device filter them out (see run_each_case.sh).
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
[ -f .gl/enter.sh ] || { echo "run the device machine's prep script first (no .gl/enter.sh)" >&2; exit 1; }
o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
# The NVIDIA Vulkan ICD loads libGLX_nvidia, which needs glvnd: these go to / like the loader.
(cd .gl && apt-get $o download libglvnd0 libglx0 libegl1 libgl1 libopengl0 libgles2 >/dev/null)
# Validation layer and the oracles' runtime libraries go to a private prefix (they could break /).
# libtinyexr1d is also what astc-gpu-decode links for .exr output (it needs only libz.so.1 and
# libstdc++ from the system, like libpng16-16). astc-gpu-decode links libpng16.so.16 for 16-bit
# .png output: libpng16-16 below carries it (whether the device image has its own is not relied on).
mkdir -p .gl/extra
(cd .gl/extra && apt-get $o download vulkan-validationlayers libnvtt2 libsquish0 libgomp1 libastcenc3d astcenc libtinyexr1d libstb0 libtiff6 \
  libjpeg62-turbo libpng16-16 libwebp7 libzstd1 liblzma5 libjbig0 libdeflate0 liblerc4 >/dev/null)
grep -q gl-extra .gl/enter.sh || cat >> .gl/enter.sh <<'EOS'
# texdec extras (validation layer, nvtt runtime and their libraries) go to a private prefix, not /
mkdir -p /tmp/gl-extra
for f in .gl/extra/*.deb; do dpkg -x "$f" /tmp/gl-extra; done
export LD_LIBRARY_PATH=/tmp/gl-extra/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export VK_LAYER_PATH=/tmp/gl-extra/usr/share/vulkan/explicit_layer.d
EOS
# The astcenc CLI (the ASTC tests encode images with it).
grep -q 'gl-extra/usr/bin' .gl/enter.sh || echo 'export PATH=/tmp/gl-extra/usr/bin:$PATH' >> .gl/enter.sh
ls -la .gl .gl/extra

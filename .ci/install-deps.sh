#!/usr/bin/env bash
# Installs the Debian 12 packages texdec needs to build, test and run (only the missing ones).
# Used by the README's commands and by .ci/run. Needs root or sudo.
set -euo pipefail
pkgs=(
  build-essential cmake pkg-config
  libvulkan-dev libvulkan-volk-dev glslang-tools spirv-tools libstb-dev catch2
  mesa-vulkan-drivers vulkan-validationlayers vulkan-tools
  libnvtt-dev libsquish-dev python3-pil libastcenc-dev libtinyexr-dev libpng-dev
  astcenc libegl-dev libgl-dev libegl-mesa0 libgl1-mesa-dri libzstd-dev zlib1g-dev
  rustc  # tests/package: rust_ffi_sample compiles samples/rust/texdec_sample.rs (no cargo)
  clang-14 libclang-rt-14-dev  # tests/fuzz: libFuzzer targets of the container parsers
  clang-format-14  # tools/format-check.sh: the lines each change touches follow .clang-format
  abigail-tools  # tools/abi-check.sh: abidw/abidiff against the committed ABI baseline (abi/)
  # .ci/windows.sh: the Windows cross-build (cmake/mingw-w64.cmake), run under Wine in an X server
  g++-mingw-w64-x86-64-posix libz-mingw-w64-dev wine wine64 xvfb xauth
)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then echo "install-deps: all packages present"; exit 0; fi
echo "install-deps: installing ${missing[*]}"
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo_cmd apt-get update -qq
$sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"

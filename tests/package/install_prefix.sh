# Sourced (not run) by the package tests of the INSTALLED package: run_consumer.sh,
# run_cxx_consumer.sh and run_installed_samples.sh. They set -euo pipefail themselves.

fail() { echo "FAIL: $*" >&2; exit 1; }

# install_fresh BUILD_DIR WORK_DIR [CONFIG]: empties WORK_DIR, then installs the build into
# WORK_DIR/prefix and sets $prefix to it (the log in WORK_DIR/install.log, printed on failure).
install_fresh() {
  local build=$1 work=$2 config=${3:-}
  prefix=$work/prefix
  rm -rf "$work"
  mkdir -p "$work"
  echo "== cmake --install $build --prefix $prefix"
  cmake --install "$build" --prefix "$prefix" ${config:+--config "$config"} > "$work/install.log" ||
    { cat "$work/install.log"; fail "cmake --install"; }
}

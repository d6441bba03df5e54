#!/usr/bin/env bash
# Quick start 1: installs what is missing, builds, and runs the demo (a window when a display is
# present, otherwise headless frames and a summary).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
# The scenes' maps: the data directory the build was configured with, unless the caller names one
# (murmur compiles in no path; --data-dir still overrides).
MURMUR_DATA_DIR="${MURMUR_DATA_DIR:-$(sed -n 's/^MURMUR_DATA_DIR:PATH=//p' build/CMakeCache.txt)}"
export MURMUR_DATA_DIR
exec ./build/murmur demo "$@"

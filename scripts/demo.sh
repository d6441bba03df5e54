#!/usr/bin/env bash
# Quick start 1: installs what is missing, builds, and runs the demo (a window when a display is
# present, otherwise headless frames and a summary).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# Only the demo's program, not the test suites and benchmarks (scripts/test.sh builds those).
if [[ ! -x build/murmur ]]; then
  # Measured: 144 s for a clean build of murmur alone on 2 cores, ccache off (README, Quick start).
  echo "demo: first build of murmur: about 2.5 minutes on 2 cores (less with more), seconds after that" >&2
fi
MURMUR_BUILD_TARGETS=murmur bash scripts/build.sh
exec ./build/murmur demo "$@"

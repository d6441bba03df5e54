#!/usr/bin/env bash
# Quick start 1: installs what is missing, builds, and runs the demo (a window when a display is
# present, otherwise headless frames and a summary).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# The demo's program and the benchmark it runs (`murmur bench`, the README's next section), not the
# test suites (scripts/test.sh builds those).
if [[ ! -x build/murmur ]]; then
  # The first build's time: README, Quick start.
  echo "demo: first build of murmur: about 2.5 minutes on 2 cores (less with more), seconds after that" >&2
fi
MURMUR_BUILD_TARGETS="murmur murmur_bench" bash scripts/build.sh
exec ./build/murmur demo "$@"

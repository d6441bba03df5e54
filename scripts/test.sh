#!/usr/bin/env bash
# Quick start 2: installs what is missing, builds, and runs every test (CPU, GL on the headless EGL
# context, the murmur command end to end).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# MovingAI's benchmark maps (third-party, README "Maps"): where CI keeps them, beside the clone. A
# MURMUR_DATA_DIR already set wins; set to a folder that is not there, their tests fail.
if [[ -z "${MURMUR_DATA_DIR:-}" && -d ../shared/data/movingai ]]; then
  MURMUR_DATA_DIR="$(cd ../shared/data && pwd)"
  export MURMUR_DATA_DIR
fi
bash scripts/build.sh
cd build
ctest --output-on-failure --timeout 600 -j"$(nproc)"

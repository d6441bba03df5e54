#!/usr/bin/env bash
# Quick start 2: installs what is missing, builds, and runs every test (CPU, GL on the headless EGL
# context, the murmur command end to end).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
source scripts/data-env.sh
bash scripts/build.sh
cd build
ctest --output-on-failure --timeout 600 -j"$(nproc)"

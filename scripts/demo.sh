#!/usr/bin/env bash
# Quick start 1: installs what is missing, builds, and runs the demo (a window when a display is
# present, otherwise headless frames and a summary).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
exec ./build/murmur demo "$@"

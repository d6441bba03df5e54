#!/usr/bin/env bash
# Configures and builds Murmur (Release) into build/. Extra arguments go to CMake's configure step.
# MURMUR_WARNINGS_AS_ERRORS=ON in the environment (CI sets it) makes warnings errors; off for users.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DMURMUR_WARNINGS_AS_ERRORS="${MURMUR_WARNINGS_AS_ERRORS:-OFF}" "$@"
cmake --build build -j"$(nproc)"

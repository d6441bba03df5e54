#!/usr/bin/env bash
# Configures and builds Murmur (Release) into build/. Extra arguments go to CMake's configure step.
# MURMUR_WARNINGS_AS_ERRORS=ON in the environment (CI sets it) makes warnings errors; off for users.
# MURMUR_DATA_DIR in the environment (a directory holding MovingAI's maps in movingai/) registers the
# tests that need them (README, Maps). MURMUR_BUILD_TARGETS limits the build to those targets
# (scripts/demo.sh); everything by default.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DMURMUR_WARNINGS_AS_ERRORS="${MURMUR_WARNINGS_AS_ERRORS:-OFF}" -DMURMUR_DATA_DIR="${MURMUR_DATA_DIR:-}" "$@"
# shellcheck disable=SC2086  # a list of target names
cmake --build build -j"$(nproc)" ${MURMUR_BUILD_TARGETS:+--target $MURMUR_BUILD_TARGETS}

#!/usr/bin/env bash
# Builds Murmur (Release, build/) if needed and runs `murmur bench` from the repository root, so
# that results land in bench/results/<device>/. Every argument goes to `murmur bench`:
#   scripts/bench.sh --quick            the reduced sweep
#   scripts/bench.sh --device 1         another EGL device (`build/murmur devices` lists them)
#   scripts/bench.sh --filter density/  one workload
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${MURMUR_BUILD_DIR:-build}"
if [[ ! -f "$build_dir/build.ninja" ]]; then
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$build_dir" --target murmur murmur_bench -j"$(nproc)"
exec "$build_dir/murmur" bench "$@"

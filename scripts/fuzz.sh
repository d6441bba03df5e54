#!/usr/bin/env bash
# The bounded fuzz run (.ci/run): builds the libFuzzer drivers of tests/fuzz with clang in
# build-fuzz/ and runs each for FUZZ_SECONDS (default 20) from its seed corpus in tests/data/fuzz/
# (new inputs go to a temporary directory, never into the repository). The state CSV and MovingAI
# drivers read each input from a regular file through the readers' file entry points
# (tests/fuzz/fuzz_input_file.hpp), so core::InputFile's checks and line-length limits are fuzzed
# too. A crash, a sanitizer report or a hang (over 10 s on one input) fails; libFuzzer then writes
# the input as crash-*/timeout-*. The frame driver draws on the headless EGL context (llvmpipe
# on CI) and reads the shipped scenes from scenes/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-20}
CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DMURMUR_FUZZ=ON -DMURMUR_WARNINGS_AS_ERRORS=OFF -DMURMUR_BUILD_TESTS=OFF -DMURMUR_BUILD_BENCH=OFF \
  -DMURMUR_BUILD_APP=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target murmur_fuzz_scene murmur_fuzz_state_csv murmur_fuzz_movingai \
  murmur_fuzz_frame

export ASAN_OPTIONS=detect_leaks=1
for parser in scene state_csv movingai frame; do
  scratch=$(mktemp -d)
  echo "fuzz: $parser for ${seconds} s"
  set +e
  build-fuzz/murmur_fuzz_$parser -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix=build-fuzz/ "$scratch" "tests/data/fuzz/$parser" >"build-fuzz/$parser.log" 2>&1
  status=$?
  set -e
  rm -rf "$scratch"
  if [ "$status" -ne 0 ]; then
    tail -n 60 "build-fuzz/$parser.log"
    echo "fuzz: $parser FAILED (exit $status); the input is in build-fuzz/"
    exit 1
  fi
  grep -E "^stat::number_of_executed_units|^Done" "build-fuzz/$parser.log" || true
done

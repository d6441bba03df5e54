#!/usr/bin/env bash
# Runs Murmur's benchmark suite and keeps its JSON as bench/results/<device-slug>/<date>.json.
#
#   scripts/bench.sh [--quick] [--device I] [--build-dir DIR] [--no-build] [murmur_bench flags...]
#
#   --quick          the reduced sweep (N up to 1M on the GPU, 10 minutes or less on llvmpipe)
#   --device I       the EGL device to benchmark (`murmur devices` lists them)
#   --build-dir DIR  where murmur_bench is built (default: build, or $MURMUR_BUILD_DIR)
#   --no-build       run the murmur_bench already built there
# Anything else goes to murmur_bench as is (e.g. --benchmark_filter=density/ or
# --benchmark_repetitions=5; later flags win over the defaults below).
#
# The device slug is the context's device_slug (from GL_RENDERER: llvmpipe, nvidia-h100-80gb-hbm3;
# cpu-<model> when no GL benchmark ran); the date is today's (UTC). An earlier result is never
# overwritten: a second run the same day is <date>-2.json, then -3, ... The JSON is written to a
# temporary file first, so an interrupted run leaves nothing under bench/results/.
# Render the report with: python3 bench/report.py bench/results/*/*.json --out bench/report
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir="${MURMUR_BUILD_DIR:-build}"
sweep=standard
build=1
pass=()
while (($#)); do
  case "$1" in
    --quick) sweep=quick ;;
    --device) pass+=(--device "$2"); shift ;;
    --device=*) pass+=("$1") ;;
    --build-dir) build_dir="$2"; shift ;;
    --build-dir=*) build_dir="${1#*=}" ;;
    --no-build) build=0 ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) pass+=("$1") ;;
  esac
  shift
done

if ((build)); then
  if [[ ! -f "$build_dir/build.ninja" && ! -f "$build_dir/Makefile" ]]; then
    cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release
  fi
  cmake --build "$build_dir" --target murmur_bench -j"$(nproc)"
fi
bench="$build_dir/murmur_bench"
[[ -x "$bench" ]] || { echo "bench.sh: no $bench (build it, or drop --no-build)" >&2; exit 2; }

# Medians of 3 repetitions, reported as aggregates only (mean, median, stddev, cv per benchmark).
# The repetitions are interleaved in random order across the whole run, so a burst of other load
# on the machine hits one repetition of a case rather than all three.
defaults=(--sweep "$sweep" --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
  --benchmark_enable_random_interleaving=true)

mkdir -p bench/results
tmp="$(mktemp bench/results/.run-XXXXXX)"
trap 'rm -f "$tmp"' EXIT
commit="$(git describe --always --dirty --tags 2>/dev/null || echo unknown)"
MURMUR_COMMIT="$commit" "$bench" "${defaults[@]}" --benchmark_out="$tmp" --benchmark_out_format=json \
  ${pass[@]+"${pass[@]}"}

slug="$(sed -n 's/^ *"device_slug": "\([^"]*\)".*/\1/p' "$tmp" | head -n 1)"
slug="${slug:-unknown}"
day="$(date -u +%Y-%m-%d)"
dir="bench/results/$slug"
mkdir -p "$dir"
out="$dir/$day.json"
k=2
# ln fails when the name exists, so two runs finishing at once cannot take the same name.
until ln "$tmp" "$out" 2>/dev/null; do
  out="$dir/$day-$k.json"
  k=$((k + 1))
done
rm -f "$tmp"
chmod a+r "$out"
trap - EXIT
echo "bench.sh: wrote $out"

#!/usr/bin/env bash
# What AMD's compiler makes of Murmur's shaders, without an AMD card: writes every program exactly
# as the flock pipeline and the renderer build it (murmur_shader_dump, needs an OpenGL context:
# llvmpipe will do), compiles each to Vulkan SPIR-V (glslangValidator -V) and through Mesa's RADV
# on a null device (RADV_FORCE_FAMILY) with ACO, and prints a Markdown table per target: VGPRs,
# SGPRs, spills, scratch, LDS, instructions, ACO's latency and inverse throughput estimates, and
# waves per SIMD (corrected for RADV 22.3 counting wave64 twice: bench/shader_stats/stats_table.py).
#
#   bash scripts/shader-stats.sh [--build DIR] [--shaders DIR] [--out FILE] [--check]
#
# --build: the build directory holding murmur_shader_dump and murmur_radv_stats (default build/);
# --shaders: read shaders from DIR first (e.g. shaders/ while editing: no rebuild needed);
# --out: also write the table to FILE (bench/results/shader-stats/README.md is the committed one);
# --check: exit 1 on any spill or scratch, or when flock/Step exceeds its budget (the ShaderStats
# test). Targets: navi21 (RDNA2) with wave64 (RADV's default for compute) and wave32, gfx1100
# (RDNA3) with wave32 (RADV_PERFTEST=cswave32,gewave32,pswave32 asks for wave32 in every stage).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build"
out=""
shaders=()
check=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$(cd "$2" && pwd)"; shift 2 ;;
    --shaders) shaders=("$(cd "$2" && pwd)"); shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --check) check=(--check); shift ;;
    *) echo "usage: shader-stats.sh [--build DIR] [--shaders DIR] [--out FILE] [--check]" >&2; exit 2 ;;
  esac
done
for tool in murmur_shader_dump murmur_radv_stats; do
  [ -x "$build/$tool" ] || { echo "shader-stats: $build/$tool missing (build it first)" >&2; exit 2; }
done
icd=$(ls /usr/share/vulkan/icd.d/radeon_icd.*.json 2>/dev/null | head -n1)
[ -n "$icd" ] || { echo "shader-stats: no RADV (install mesa-vulkan-drivers)" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$build/murmur_shader_dump" "$work/glsl" "${shaders[@]}"

# SPIR-V of every stage; locations of the varyings are left to glslang (GL matches them by name).
programs=()
while read -r kind first second; do
  for stage in $first ${second:-}; do
    mkdir -p "$(dirname "$work/spv/$stage")"
    glslangValidator -V --target-env vulkan1.3 --auto-map-locations -o "$work/spv/$stage.spv" \
      "$work/glsl/$stage" > "$work/glslang.log" || { cat "$work/glslang.log" >&2; exit 1; }
    # Checked before RADV sees it: a driver may crash on invalid SPIR-V rather than report it.
    spirv-val --target-env vulkan1.3 "$work/spv/$stage.spv"
  done
  if [ "$kind" = compute ]; then
    programs+=(--compute "$stage.spv")
  else
    programs+=(--graphics "$first.spv" "$second.spv")
  fi
done < "$work/glsl/programs.txt"

run() {  # target family perftest
  (cd "$work/spv" && VK_ICD_FILENAMES="$icd" RADV_FORCE_FAMILY="$2" RADV_PERFTEST="$3" \
     "$build/murmur_radv_stats" "${programs[@]}") > "$work/$1.tsv"
}
run navi21-wave64 navi21 ""
run navi21-wave32 navi21 cswave32,gewave32,pswave32
run gfx1100-wave32 gfx1100 cswave32,gewave32,pswave32

status=0
{
  echo "# Shader statistics (RADV, ACO; regenerate with scripts/shader-stats.sh --out this file)"
  echo
  echo "Mesa $(dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null || echo '?'), null devices (no card):"
  echo "compiler estimates, not measurements. Latency and inverse throughput are ACO's cycle"
  echo "estimates for one wave; waves/SIMD is corrected for RADV 22.3 counting wave64 twice."
  echo
  python3 "$root/bench/shader_stats/stats_table.py" "${check[@]}" \
    navi21-wave64="$work/navi21-wave64.tsv" navi21-wave32="$work/navi21-wave32.tsv" \
    gfx1100-wave32="$work/gfx1100-wave32.tsv" || status=$?
} > "$work/table.md"
cat "$work/table.md"
if [ -n "$out" ]; then
  mkdir -p "$(dirname "$out")"
  cp "$work/table.md" "$out"
fi
exit "$status"

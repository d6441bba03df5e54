#!/usr/bin/env bash
# The sanitizer job (.ci/run): builds only the core, sim, ai, world and api suites and the murmur command with
# AddressSanitizer and UndefinedBehaviorSanitizer (float-cast-overflow included, every report fatal)
# at -O1 in build-sanitize/, runs those suites (each in one shard a core), then replays every bad
# input of tests/data/bad/ through the command: each must end with exit code 2 and one line on
# stderr, and no report.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=Sanitize -DCMAKE_CXX_FLAGS_SANITIZE=-O1 \
  -DCMAKE_C_FLAGS_SANITIZE=-O1 -DMURMUR_SANITIZE=ON -DMURMUR_BUILD_BENCH=OFF >/dev/null
cmake --build build-sanitize -j"$(nproc)" --target murmur_core_tests murmur_sim_tests murmur_ai_tests murmur_world_tests \
  murmur_api_tests murmur
echo "sanitize: build took $((SECONDS - start)) s"

export ASAN_OPTIONS=abort_on_error=0:detect_leaks=1:exitcode=86
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=87
# A suite in as many shards as the machine has cores, side by side (googletest's sharding: each
# test in exactly one shard); each shard's output printed whole once all have ended, and the first
# failing shard's exit code kept.
sharded() {
  local shards logs=() pids=() status=0
  shards=$(nproc)
  for ((index = 0; index < shards; ++index)); do
    logs+=("$(mktemp)")
    GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$index "$@" >"${logs[index]}" 2>&1 &
    pids+=($!)
  done
  for ((index = 0; index < shards; ++index)); do
    wait "${pids[index]}" || { local code=$?; [ "$status" -ne 0 ] || status=$code; }
    cat "${logs[index]}"
    rm -f "${logs[index]}"
  done
  return "$status"
}
sharded build-sanitize/murmur_core_tests --gtest_brief=1
# Less summarising than simulating is a Release property; sanitizers slow the two unevenly. The
# grid-against-naive variants run every instruction set and thread count, 20 to 40 s each under the
# sanitizers: seven of the sixteen cover every code path they take (2D and 3D, wrap and contain,
# groups, the leader radius, the turn rate, the lab's units, coincident boids, a packed and a sparse
# flock, cohesion only without separation); the Release suite runs all sixteen.
left_out=(wrap3d_fov360_groups3 contain2d_fov180_groups2 wrap2d_fov300 contain3d_leader_radius_1_5R
  wrap3d_fov300_packed wrap3d_fov270_groups2_sparse contain2d_fov300_sparse contain3d_fov270_groups2_unsteered
  contain3d_fov360_unsteered_coincident_cohesion_only_without_separation)
sim_filter=-SparseSummary.AHundredThousandBoidRunSummarisesFasterThanItSimulates
for variant in "${left_out[@]}"; do sim_filter+=":Variants/GridEqualsNaive.*/$variant"; done
sharded build-sanitize/murmur_sim_tests --gtest_brief=1 --gtest_filter="$sim_filter"
# The tests of MovingAI's own maps read them from $MURMUR_DATA_DIR; without it they are left out, as
# CTest leaves them out (the ai suite's part of MURMUR_MOVINGAI_TESTS in tests/CMakeLists.txt).
source scripts/data-env.sh
if [[ -n "${MURMUR_DATA_DIR:-}" ]]; then
  sharded build-sanitize/murmur_ai_tests --gtest_brief=1
else
  sharded build-sanitize/murmur_ai_tests --gtest_brief=1 \
    --gtest_filter=-MovingAiMap.LoadsDataMap:MovingAiScenario.FindsTheMapBesideTheScenarioFile:MovingAiScenarios.*
fi
# The murmuration scene's 45 simulated seconds of 20,000 boids check behaviour over time (70 s in
# Release); the topological search it runs is covered under the sanitizers by the sim suite's
# topological tests, at a fraction of the time.
sharded build-sanitize/murmur_world_tests --gtest_brief=1 --gtest_filter=-MurmurationScene.OneThinFlockTurnsOverTheRoost
# The public API through libmurmur.so, its CPU cases (Mesa's GL driver is not built for the sanitizers).
sharded build-sanitize/murmur_api_tests --gtest_brief=1 \
  --gtest_filter=-Simulation.TwoGpu*:Simulation.AGpu*:Simulation.TheLogHook*:Simulation.Render*

# A bad input's command: scenes are run, state CSVs are given to --init, maps and scenarios to path.
failures=0
for file in tests/data/bad/*; do
  case "$file" in
    *.toml) args=(run --backend cpu --steps 3 --scene "$file") ;;
    *.csv) args=(run --backend cpu --steps 3 --scene scenes/free.toml --init "$file") ;;
    *.map) args=(path --map "$file" --from 0,0 --to 1,1) ;;
    *.scen) args=(path --scen "$file") ;;
    *) continue ;;
  esac
  set +e
  err=$(build-sanitize/murmur "${args[@]}" 2>&1 >/dev/null)
  code=$?
  set -e
  lines=$(printf '%s\n' "$err" | wc -l)
  if [ "$code" -ne 2 ] || [ "$lines" -ne 1 ]; then
    echo "sanitize: FAIL $file: exit code $code (expected 2), $lines line(s) on stderr:"
    printf '%s\n' "$err" | head -20
    failures=$((failures + 1))
  fi
done
echo "sanitize: replayed $(ls tests/data/bad | wc -l) bad inputs, $failures failure(s); $((SECONDS - start)) s in all"
[ "$failures" -eq 0 ]

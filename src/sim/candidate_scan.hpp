#pragma once
// The grid search's candidate test, on as many candidates at once as the CPU's vectors hold
// (Google Highway, dispatched at run time: one binary runs SSE2-only machines and uses SSE4, AVX2
// or AVX-512 where present). Each lane makes exactly the operations of the scalar test
// (sim::offset, then d.d = (dx dx + dy dy) + dz dz, compared with R^2), in the same order and with
// no fused multiply-add, so the boids it keeps and their offsets are bit-identical whatever the
// vector width; the caller folds them into the sums one by one, in slot order.
#include <cstdint>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

namespace murmur::sim {

// Reads may run this many floats past a run's end (the widest vector: AVX-512, 16 lanes); the
// position arrays carry that much padding of infinities past the last boid.
inline constexpr std::size_t kScanPadding = 16;

// Where scanCandidates writes: slots and offsets, each with room for (end - begin) + kScanPadding.
struct CandidateOut {
  std::uint32_t* slot;
  float* dx;
  float* dy;
  float* dz;
};

// The slots m in [begin, end) with d = p_m - p (folded to the minimum image of worldSize when
// `imaged`) and d.d < radius2, in increasing order, with their offsets; returns how many.
std::uint32_t scanCandidates(const float* x, const float* y, const float* z, std::uint32_t begin, std::uint32_t end,
                             glm::vec3 p, float radius2, bool imaged, glm::vec3 worldSize, CandidateOut out);

// The instruction set the scan dispatches to now ("AVX2", "SSE4", "EMU128", ...).
std::string simdTargetName();

// For tests and benchmarks: the instruction sets compiled into this binary that this CPU runs
// (Highway's target bits and names, widest first), and a way to make the scan use only one of
// them (0 restores the widest).
struct SimdTarget {
  std::int64_t bits;
  std::string name;
};
std::vector<SimdTarget> availableSimdTargets();
void forceSimdTarget(std::int64_t bits);

}  // namespace murmur::sim

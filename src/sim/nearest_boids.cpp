#include "sim/nearest_boids.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace murmur::sim {
namespace {

struct Candidate {
  float distance2;
  std::uint32_t id;
};

// The k best candidates of every (probe, group) so far, best first: a sorted insert into at most
// kMaxNearestBoids entries.
class Selection {
 public:
  Selection(std::size_t probes, std::uint32_t groups, std::uint32_t k)
      : out_(probes, groups, k), groups_(groups), k_(k), best_(out_.samples.size()) {}

  void offer(std::size_t probe, std::uint32_t group, Candidate candidate) {
    const std::size_t list = probe * groups_ + group;
    Candidate* best = best_.data() + list * k_;
    std::uint32_t& count = out_.counts[list];
    std::uint32_t at = count;
    while (at > 0 && closer(candidate, best[at - 1])) --at;
    if (at >= k_) return;
    for (std::uint32_t i = std::min(count, k_ - 1); i > at; --i) best[i] = best[i - 1];
    best[at] = candidate;
    if (count < k_) ++count;
  }

  NearestBoids report(const FlockState& now) {
    for (std::size_t list = 0; list < out_.counts.size(); ++list)
      for (std::uint32_t r = 0; r < out_.counts[list]; ++r) {
        const std::uint32_t id = best_[list * k_ + r].id;
        out_.samples[list * k_ + r] = BoidSample{id, now.position[id], now.velocity[id]};
      }
    return std::move(out_);
  }

 private:
  static bool closer(const Candidate& a, const Candidate& b) {
    return a.distance2 < b.distance2 || (a.distance2 == b.distance2 && a.id < b.id);
  }

  NearestBoids out_;  // the counts as they grow; the samples at the end
  std::uint32_t groups_;
  std::uint32_t k_;
  std::vector<Candidate> best_;
};

}  // namespace

NearestBoids::NearestBoids(std::size_t probes, std::uint32_t groupCount, std::uint32_t perList)
    : groups(groupCount), k(perList) {
  if (k < 1 || k > kMaxNearestBoids)
    throw std::invalid_argument("nearest boids: k = " + std::to_string(k) + " is outside 1.." +
                                std::to_string(kMaxNearestBoids));
  counts.assign(probes * groups, 0u);
  samples.resize(probes * groups * k);
}

std::span<const BoidSample> NearestBoids::of(std::size_t probe, std::uint32_t group) const {
  const std::size_t list = probe * groups + group;
  if (group >= groups || list >= counts.size()) return {};
  return std::span<const BoidSample>(samples).subspan(list * k, counts[list]);
}

CellBox probeCells(const GridSpec& grid, const BoidProbe& probe) {
  return {grid.cellCoord(probe.position - probe.radius), grid.cellCoord(probe.position + probe.radius)};
}

NearestBoids nearestBoids(const FlockState& now, std::span<const glm::vec3> selectBy,
                          std::span<const BoidProbe> probes, std::uint32_t k) {
  if (selectBy.size() != now.size())
    throw std::invalid_argument("nearestBoids: selectBy and the state differ in size");
  Selection selection(probes.size(), now.groups, k);
  for (std::size_t p = 0; p < probes.size(); ++p) {
    const float radius2 = probes[p].radius * probes[p].radius;
    for (std::uint32_t id = 0; id < now.size(); ++id) {
      const float distance2 = selectionDistance2(selectBy[id], probes[p].position);
      if (distance2 <= radius2) selection.offer(p, now.group[id], {distance2, id});
    }
  }
  return selection.report(now);
}

NearestBoids nearestBoids(const GridSpec& grid, const CellOrder& cells, std::span<const float> selectX,
                          std::span<const float> selectY, std::span<const float> selectZ,
                          std::span<const std::uint32_t> slotGroup, std::span<const std::uint32_t> slotId,
                          const FlockState& now, std::span<const BoidProbe> probes, std::uint32_t k) {
  Selection selection(probes.size(), now.groups, k);
  for (std::size_t p = 0; p < probes.size(); ++p) {
    const glm::vec3 position = probes[p].position;
    const float radius2 = probes[p].radius * probes[p].radius;
    const CellBox box = probeCells(grid, probes[p]);
    for (int z = box.first.z; z <= box.last.z; ++z)
      for (int y = box.first.y; y <= box.last.y; ++y) {
        // A row of cells along x is one run of slots.
        const std::uint32_t begin = cells.cellStart[grid.cellIndex({box.first.x, y, z})];
        const std::uint32_t end = cells.cellStart[grid.cellIndex({box.last.x, y, z}) + 1];
        for (std::uint32_t slot = begin; slot < end; ++slot) {
          const float distance2 = selectionDistance2({selectX[slot], selectY[slot], selectZ[slot]}, position);
          if (distance2 <= radius2) selection.offer(p, slotGroup[slot], {distance2, slotId[slot]});
        }
      }
  }
  return selection.report(now);
}

}  // namespace murmur::sim

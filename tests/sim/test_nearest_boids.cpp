// The nearest-boids query of the agents' perception (sim/nearest_boids.hpp): hand-computed answers,
// ties by id, and the grid search of CpuSimulator against the brute force.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "sim/builders.hpp"
#include "sim/cpu_simulator.hpp"
#include "sim/nearest_boids.hpp"

namespace murmur::sim {
namespace {

std::vector<std::uint32_t> ids(std::span<const BoidSample> samples) {
  std::vector<std::uint32_t> out;
  for (const BoidSample& s : samples) out.push_back(s.id);
  return out;
}

// Five boids of group 0 around the origin: one at 1, four at 2 (ids 1..4 in scrambled directions,
// equal squared distances to the bit), one of group 1 at 0.5; one at 5.
FlockState tiedFlock() {
  FlockState flock;
  flock.groups = 2;
  flock.position = {{0.0f, 0.0f, 2.0f}, {2.0f, 0.0f, 0.0f}, {-2.0f, 0.0f, 0.0f}, {0.0f, 0.0f, -2.0f},
                    {1.0f, 0.0f, 0.0f}, {0.0f, 0.5f, 0.0f}, {5.0f, 0.0f, 0.0f}};
  flock.velocity = {{1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {4, 0, 0}, {5, 0, 0}, {6, 0, 0}, {7, 0, 0}};
  flock.group = {0, 0, 0, 0, 0, 1, 0};
  return flock;
}

TEST(NearestBoids, HandComputedWithTiesBrokenById) {
  const FlockState flock = tiedFlock();
  const std::vector<BoidProbe> probes{{glm::vec3(0.0f), 3.0f}, {glm::vec3(0.0f), 1.0f}};
  const NearestBoids nearest = nearestBoids(flock, flock.position, probes, 3);
  EXPECT_EQ(ids(nearest.of(0, 0)),
            (std::vector<std::uint32_t>{4, 0, 1}));  // 1 away, then the lowest ids at 2
  EXPECT_EQ(ids(nearest.of(0, 1)), (std::vector<std::uint32_t>{5}));
  EXPECT_EQ(ids(nearest.of(1, 0)), (std::vector<std::uint32_t>{4}));  // exactly at the radius: in
  EXPECT_EQ(nearest.of(0, 0)[1], (BoidSample{0, {0.0f, 0.0f, 2.0f}, {1.0f, 0.0f, 0.0f}}));
  EXPECT_TRUE(nearest.of(2, 0).empty());  // no such probe
  EXPECT_TRUE(nearest.of(0, 2).empty());  // no such group
  // Reported from another state than the one that selects.
  FlockState later = flock;
  later.position[4] = {9.0f, 9.0f, 9.0f};
  later.velocity[4] = {0.0f, 1.0f, 0.0f};
  const NearestBoids moved = nearestBoids(later, flock.position, probes, 1);
  EXPECT_EQ(moved.of(0, 0)[0], (BoidSample{4, {9.0f, 9.0f, 9.0f}, {0.0f, 1.0f, 0.0f}}));
}

TEST(NearestBoids, RefusesKOutsideItsRange) {
  const FlockState flock = tiedFlock();
  EXPECT_THROW(nearestBoids(flock, flock.position, {}, 0), std::invalid_argument);
  EXPECT_THROW(nearestBoids(flock, flock.position, {}, kMaxNearestBoids + 1), std::invalid_argument);
}

TEST(NearestBoids, CpuSimulatorFindsNothingBeforeItsFirstStep) {
  const FlockState flock = tiedFlock();
  const CpuSimulator simulator(NeighbourSearch::Grid, 1);
  const NearestBoids nearest =
      simulator.nearestBoids(flock, std::vector<BoidProbe>{{glm::vec3(0.0f), 3.0f}}, 2);
  EXPECT_EQ(nearest, NearestBoids(1, 2, 2));
}

// The grid of the last step against the brute force over the positions that step started from, on
// random flocks (3D and 2D, contained and wrapped, both searches), with probes small and large, in
// and outside the world, and duplicated positions (ties by id through the grid).
TEST(NearestBoids, GridSearchEqualsBruteForce) {
  for (const int dims : {3, 2}) {
    for (const Boundary boundary : {Boundary::Contain, Boundary::Wrap}) {
      for (const NeighbourSearch search : {NeighbourSearch::Grid, NeighbourSearch::Naive}) {
        SCOPED_TRACE(testing::Message()
                     << "dims " << dims << " boundary " << int(boundary) << " search " << toString(search));
        Scene scene = defaultDensityScene(dims == 3 ? 3000 : 1500, dims);
        scene.groups = 3;
        scene.model.boundary = boundary;
        const ModelParams& params = scene.model;
        FlockState before = spawnFlock(scene);
        for (std::size_t i = 0; i < 40; ++i) {  // ties
          before.position[i + 40] = before.position[i];
          before.group[i + 40] = before.group[i];
        }
        const glm::vec3 mid = 0.5f * (params.worldMin + params.worldMax);
        const glm::vec3 size = params.worldSize();
        const std::vector<BoidProbe> probes{{before.position[0], 3.0f * params.perceptionRadius},
                                            {mid, 0.2f * size.x},
                                            {params.worldMin, 0.3f * size.x},
                                            {params.worldMax + glm::vec3(2.0f), 0.25f * size.x},
                                            {mid, 2.0f * size.x},
                                            {before.position[7], 0.0f}};
        CpuSimulator simulator(search, 2);
        FlockState now = before;
        simulator.step(params, {}, now);
        for (const std::uint32_t k : {1u, 4u, kMaxNearestBoids}) {
          const NearestBoids grid = simulator.nearestBoids(now, probes, k);
          const NearestBoids brute = nearestBoids(now, before.position, probes, k);
          EXPECT_EQ(grid, brute) << "k " << k;
          std::uint32_t full = 0, partial = 0;
          for (const std::uint32_t count : brute.counts) (count == k ? full : partial) += 1;
          EXPECT_GT(full, 0u);  // the test covers lists cut at k and lists with fewer boids
          if (k == kMaxNearestBoids) {
            EXPECT_GT(partial, 0u);
          }
        }
        // A resident flock's second step, whose sort starts from the first's cell order (the
        // slots' ids no longer the sort's indices), likewise.
        CpuSimulator resident(search, 2);
        resident.setState(before);
        resident.step(params, {});
        const FlockState between = resident.state();
        resident.step(params, {});
        const FlockState after = resident.state();
        for (const std::uint32_t k : {1u, 4u, kMaxNearestBoids})
          EXPECT_EQ(resident.nearestBoids(after, probes, k), nearestBoids(after, between.position, probes, k))
              << "k " << k;
      }
    }
  }
}

}  // namespace
}  // namespace murmur::sim

// The scene builders the benchmarks and tests share: the densities they promise, measured on the
// flocks they spawn (neighbours within R and candidates in the 27 neighbouring cells, by brute
// force over the grid), and seeded, deterministic spawning.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <glm/geometric.hpp>

#include "sim/builders.hpp"
#include "sim/grid.hpp"
#include "sim/rules.hpp"

namespace murmur::sim {
namespace {

struct Density {
  double neighbours = 0.0;  // mean boids within R (other than itself)
  double candidates = 0.0;  // mean boids in the neighbouring cells (itself included)
};

Density measure(const Scene& scene) {
  const FlockState flock = spawnFlock(scene);
  const GridSpec grid = makeGridSpec(scene.model);
  CellOrder cells;
  WorkerPool serial(1);
  cells.build(grid, flock.position, serial);
  const float r2 = scene.model.perceptionRadius * scene.model.perceptionRadius;
  const bool wrap = scene.model.boundary == Boundary::Wrap;
  std::uint64_t neighbours = 0, candidates = 0;
  for (std::size_t i = 0; i < flock.size(); ++i) {
    forEachNeighbourRange(grid, cells, grid.cellCoord(flock.position[i]), scene.model.dims,
                          [&](std::uint32_t begin, std::uint32_t end, bool) {
                            candidates += end - begin;
                            for (std::uint32_t s = begin; s < end; ++s) {
                              const std::uint32_t j = cells.order[s];
                              glm::vec3 d = flock.position[j] - flock.position[i];
                              if (wrap) d = minimumImage(d, scene.model.worldSize());
                              neighbours += j != i && glm::dot(d, d) < r2;
                            }
                          });
  }
  return {double(neighbours) / double(flock.size()), double(candidates) / double(flock.size())};
}

TEST(Builders, FixedNeighbourSceneHasTheRequestedNeighbours) {
  for (const int dims : {2, 3}) {
    const Density d = measure(fixedNeighbourScene(20000, 18.0f, dims));
    EXPECT_NEAR(d.neighbours, 18.0, 18.0 * 0.05) << dims << "D";
  }
}

TEST(Builders, FixedCandidateSceneHasTheRequestedCandidates) {
  const Density d = measure(fixedCandidateScene(20000, 200.0f));
  EXPECT_NEAR(d.candidates, 200.0, 200.0 * 0.15);
}

TEST(Builders, DefaultDensityKeepsDensityAndDefaultWorldKeepsTheWorld) {
  // The same density at any N: the mean neighbour count does not depend on N (within noise).
  const Density small = measure(defaultDensityScene(5000));
  const Density large = measure(defaultDensityScene(40000));
  EXPECT_NEAR(small.neighbours, large.neighbours, 0.15 * large.neighbours + 0.05);
  // The default world: density grows with N, about 8 times the neighbours for 8 times the boids.
  const Scene world = defaultWorldScene(40000);
  EXPECT_EQ(world.model.worldMin, ModelParams{}.worldMin);
  EXPECT_EQ(world.model.worldMax, ModelParams{}.worldMax);
  const double ratio =
      measure(defaultWorldScene(40000)).neighbours / measure(defaultWorldScene(5000)).neighbours;
  EXPECT_NEAR(ratio, 8.0, 1.0);
}

TEST(Builders, SpawnIsSeededAndInsideTheWorld) {
  Scene scene = defaultDensityScene(2000);
  scene.groups = 3;
  const FlockState a = spawnFlock(scene), b = spawnFlock(scene);
  EXPECT_EQ(a.position, b.position);
  EXPECT_EQ(a.velocity, b.velocity);
  scene.seed = 2;
  EXPECT_NE(spawnFlock(scene).position, a.position);
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a.group[i], i % 3);
    const float speed = glm::length(a.velocity[i]);
    EXPECT_GE(speed, scene.model.minSpeed - 1e-4f);
    EXPECT_LE(speed, scene.model.maxSpeed + 1e-4f);
    for (int k = 0; k < 3; ++k) {
      EXPECT_GE(a.position[i][k], scene.model.worldMin[k] + scene.model.margin);
      EXPECT_LE(a.position[i][k], scene.model.worldMax[k] - scene.model.margin);
    }
  }
}

}  // namespace
}  // namespace murmur::sim

namespace murmur::sim {
namespace {

// [sim] heading: every boid starts within about 30 degrees of it (a unit vector plus a random one
// of length 0.5: at most asin(0.5) = 30 degrees off); without it, headings point every way.
TEST(Builders, SpawnHeadingAlignsTheFlock) {
  Scene scene = defaultDensityScene(2000);
  const FlockState random = spawnFlock(scene);
  scene.spawnHeading = {0.0f, 0.0f, -4.0f};
  const FlockState aligned = spawnFlock(scene);
  EXPECT_EQ(aligned.position, random.position);
  double randomMin = 1.0;
  for (std::size_t i = 0; i < aligned.size(); ++i) {
    const glm::vec3 f = glm::normalize(aligned.velocity[i]);
    EXPECT_GE(-f.z, std::cos(30.0 * 3.14159265358979 / 180.0) - 1e-5) << i;
    EXPECT_FLOAT_EQ(glm::length(aligned.velocity[i]), glm::length(random.velocity[i])) << i;
    randomMin = std::min(randomMin, double(-glm::normalize(random.velocity[i]).z));
  }
  EXPECT_LT(randomMin, 0.0);
}

// A heading too short for float32 to square (1e-30: its length squared is 0) still gives its
// direction, not NaN velocities (the murmuration with heading = [1e-30, 0, 0] went non-finite).
TEST(Builders, ATinySpawnHeadingStillAligns) {
  Scene scene = defaultDensityScene(500);
  scene.spawnHeading = {1e-30f, 0.0f, 0.0f};
  const FlockState tiny = spawnFlock(scene);
  scene.spawnHeading = {1.0f, 0.0f, 0.0f};
  EXPECT_EQ(tiny.velocity, spawnFlock(scene).velocity);
  for (const glm::vec3& v : tiny.velocity)
    EXPECT_GE(glm::normalize(v).x, std::cos(30.0 * 3.14159265358979 / 180.0) - 1e-5);
}

// [sim] spawn_spacing: the sphere holds one boid per spacing^3, flattened to 0.4 of a thin world's
// extent. In a 1000 x 60 x 1000 world (y capped at 24), at spacing 1.4: 20,000 boids fill a ball of
// radius cbrt(20000 * 1.4^3 / (4/3 pi)) = 23.57 (under the cap); 100,000 need 40.3, so y stays at
// 24 and x, z grow to sqrt(100000 * 1.4^3 / (4/3 pi 24)) = 52.25. Every boid lies inside its
// ellipsoid; without a spacing the ball is 0.4 x the smallest extent, as before.
TEST(Builders, SpawnSpacingSizesTheBallByTheCount) {
  Scene scene;
  scene.model.worldMin = {-500.0f, 0.0f, -500.0f};
  scene.model.worldMax = {500.0f, 60.0f, 500.0f};
  scene.spawn = Spawn::Sphere;
  EXPECT_EQ(spawnBallRadii(scene), glm::vec3(24.0f));
  scene.spawnSpacing = 1.4f;
  scene.count = 20000;
  const glm::vec3 small = spawnBallRadii(scene);
  EXPECT_NEAR(small.x, 23.57, 0.01);
  EXPECT_EQ(small.y, small.x);
  EXPECT_EQ(small.z, small.x);
  scene.count = 100000;
  const glm::vec3 flat = spawnBallRadii(scene);
  EXPECT_FLOAT_EQ(flat.y, 24.0f);
  EXPECT_NEAR(flat.x, 52.25, 0.01);
  EXPECT_EQ(flat.z, flat.x);
  const FlockState flock = spawnFlock(scene);
  const glm::vec3 centre(0.0f, 30.0f, 0.0f);
  float reach = 0.0f;
  for (const glm::vec3& p : flock.position) reach = std::max(reach, glm::length((p - centre) / flat));
  EXPECT_LE(reach, 1.0f + 1e-5f);
  EXPECT_GT(reach, 0.99f) << "the ellipsoid is filled to its edge";
}

// The distance from c to the segment [a, b] in the x-z plane, by brute force over the segment's
// images in a wrapping 2D world (the test's own arithmetic, in double).
double pathDistance2d(const ModelParams& m, glm::vec3 c, glm::vec3 a, glm::vec3 b) {
  const glm::dvec3 size(m.worldSize());
  double best = 1e30;
  for (int sx = -1; sx <= 1; ++sx)
    for (int sz = -1; sz <= 1; ++sz)
      for (int k = 0; k <= 1000; ++k) {
        const glm::dvec3 q = glm::dvec3(a) + (glm::dvec3(b) - glm::dvec3(a)) * (k / 1000.0) +
                             glm::dvec3(sx * size.x, 0.0, sz * size.z);
        best = std::min(best, std::hypot(q.x - c.x, q.z - c.z));
      }
  return best;
}

// [random_obstacles]: count obstacles with radii in range, clear of each other (by the gap), of
// the scene's own obstacles and of a path, the same for the same seed and not for another.
TEST(Builders, RandomObstaclesAreClearOfEachOtherAndOfThePathAndSeeded) {
  Scene scene;
  scene.model.dims = 2;
  scene.model.boundary = Boundary::Wrap;
  scene.model.worldMin = {-60.0f, -5.0f, -60.0f};
  scene.model.worldMax = {60.0f, 5.0f, 60.0f};
  scene.obstacles = {{{0.0f, 0.0f, 0.0f}, 8.0f}};
  RandomObstacles spec;
  spec.count = 8;
  spec.seed = 3;
  spec.minRadius = 4.0f;
  spec.maxRadius = 6.0f;
  spec.gap = 3.0f;
  // A loop longer than half the world on each leg, crossing the seam's neighbourhood.
  spec.keepClear = {{{-40, 0, -40}, {40, 0, -40}, {40, 0, 40}, {-40, 0, 40}, {-40, 0, -40}}};
  const std::vector<Obstacle> placed = placeRandomObstacles(scene, spec);
  ASSERT_EQ(placed.size(), 8u);
  std::vector<Obstacle> all = scene.obstacles;
  all.insert(all.end(), placed.begin(), placed.end());
  const glm::vec3 size = scene.model.worldSize();
  for (std::size_t i = 1; i < all.size(); ++i) {
    const Obstacle& o = all[i];
    EXPECT_GE(o.radius, 4.0f);
    EXPECT_LE(o.radius, 6.0f);
    EXPECT_EQ(o.center.y, 0.0f);
    EXPECT_GE(o.center.x, -60.0f);
    EXPECT_LT(o.center.x, 60.0f);
    for (std::size_t j = 0; j < i; ++j) {
      const glm::vec3 d = minimumImage(all[j].center - o.center, size);
      EXPECT_GE(glm::length(d), o.radius + all[j].radius + spec.gap) << i << " and " << j;
    }
    const std::vector<glm::vec3>& loop = spec.keepClear[0];
    for (std::size_t k = 0; k + 1 < loop.size(); ++k)
      EXPECT_GE(pathDistance2d(scene.model, o.center, loop[k], loop[k + 1]), o.radius + spec.gap - 1e-3) << i;
  }
  const std::vector<Obstacle> again = placeRandomObstacles(scene, spec);
  ASSERT_EQ(again.size(), placed.size());
  for (std::size_t i = 0; i < placed.size(); ++i) EXPECT_EQ(again[i].center, placed[i].center);
  spec.seed = 4;
  EXPECT_NE(placeRandomObstacles(scene, spec)[0].center, placed[0].center);
  // No room: the obstacles that found a place, fewer than asked for.
  spec.count = 200;
  EXPECT_LT(placeRandomObstacles(scene, spec).size(), 200u);
}

// Containing: inside the containment band's inner edge; a sphere spawn: clear of the spawn ball.
TEST(Builders, RandomObstaclesStayInsideTheBandAndOutOfTheSpawnBall) {
  Scene scene;  // 200 x 100 x 200, margin 10, containing
  scene.spawn = Spawn::Sphere;
  RandomObstacles spec;
  spec.count = 12;
  spec.minRadius = 2.0f;
  spec.maxRadius = 5.0f;
  spec.gap = 1.0f;
  const std::vector<Obstacle> placed = placeRandomObstacles(scene, spec);
  ASSERT_EQ(placed.size(), 12u);
  const float ball = 0.4f * 100.0f;
  for (const Obstacle& o : placed) {
    for (int k = 0; k < 3; ++k) {
      EXPECT_GE(o.center[k] - o.radius, scene.model.worldMin[k] + scene.model.margin);
      EXPECT_LE(o.center[k] + o.radius, scene.model.worldMax[k] - scene.model.margin);
    }
    EXPECT_GE(glm::length(o.center), ball + o.radius + spec.gap);
  }
}

}  // namespace
}  // namespace murmur::sim

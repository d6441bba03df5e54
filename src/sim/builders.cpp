#include "sim/builders.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include <glm/geometric.hpp>

#include "sim/random.hpp"
#include "sim/rules.hpp"

namespace murmur::sim {
namespace {

// Uniform random direction: 3D by rejection from the cube (portable, no trig library differences
// beyond sqrt), 2D in the x-z plane.
glm::vec3 randomDirection(Pcg32& rng, int dims) {
  for (;;) {
    glm::vec3 d(rng.uniform(-1.0f, 1.0f), dims == 3 ? rng.uniform(-1.0f, 1.0f) : 0.0f,
                rng.uniform(-1.0f, 1.0f));
    const float len2 = glm::dot(d, d);
    if (len2 > 1e-4f && len2 <= 1.0f) return d / std::sqrt(len2);
  }
}

// A wrap-around world of `count` boids: a cube of the given side (in 2D a square, 2R high), every
// boid within R counting (fov 360, as in OpenSteer's boids plugin). The fixed-density benchmark
// scenes differ only in the side.
Scene wrapAroundBox(std::uint32_t count, int dims, float side) {
  Scene scene;
  scene.count = count;
  scene.model.dims = dims;
  scene.model.boundary = Boundary::Wrap;
  scene.model.fovDegrees = 360.0f;
  const float height = dims == 3 ? side : 2.0f * scene.model.perceptionRadius;
  scene.model.worldMin = glm::vec3(-0.5f * side, -0.5f * height, -0.5f * side);
  scene.model.worldMax = glm::vec3(0.5f * side, 0.5f * height, 0.5f * side);
  return scene;
}

}  // namespace

glm::vec3 spawnBallRadii(const Scene& scene) {
  const ModelParams& p = scene.model;
  const glm::vec3 extent = p.worldSize();
  // At most 0.4 of the world along each active axis: the ball is flattened where the world is thin.
  glm::vec3 cap = 0.4f * extent;
  if (p.dims == 2) cap.y = std::numeric_limits<float>::max();
  const float smallest = p.dims == 3 ? std::min({cap.x, cap.y, cap.z}) : std::min(cap.x, cap.z);
  if (scene.spawnSpacing <= 0.0f) return glm::vec3(smallest);
  // The volume (area in 2D) that holds the count at that spacing, as an ellipsoid whose capped axes
  // stay at their cap while the others grow alike (to their own caps at most).
  const double content = double(scene.count) * std::pow(double(scene.spawnSpacing), p.dims);
  const double unitBall = p.dims == 3 ? 4.0 / 3.0 * std::numbers::pi : std::numbers::pi;
  glm::vec3 radii(0.0f);
  bool capped[3] = {false, false, false};
  for (int round = 0; round < 3; ++round) {
    double fixedProduct = 1.0;
    int free = 0;  // 2D: x and z only
    for (int k : {0, 1, 2}) {
      if (p.dims == 2 && k == 1) continue;
      if (capped[k]) fixedProduct *= double(cap[k]); else ++free;
    }
    if (free == 0) break;
    const float radius = float(std::pow(content / (unitBall * fixedProduct), 1.0 / free));
    bool newlyCapped = false;
    for (int k : {0, 1, 2}) {
      if (p.dims == 2 && k == 1) continue;
      if (!capped[k] && radius > cap[k]) capped[k] = newlyCapped = true;
      radii[k] = capped[k] ? cap[k] : radius;
    }
    if (!newlyCapped) break;
  }
  return radii;
}

FlockState spawnFlock(const Scene& scene, const WallGrid* walls) {
  const ModelParams& p = scene.model;
  FlockState state;
  state.groups = scene.groups;
  state.resize(scene.count);
  Pcg32 rng(scene.seed);

  glm::vec3 lo = p.worldMin, hi = p.worldMax;
  if (p.boundary == Boundary::Contain) {
    lo += glm::vec3(p.margin);
    hi -= glm::vec3(p.margin);
  }
  const glm::vec3 centre = scene.spawnCenter.value_or(0.5f * (p.worldMin + p.worldMax));
  const glm::vec3 extent = p.worldSize();
  const glm::vec3 ballRadii = spawnBallRadii(scene);

  auto randomPosition = [&] {
    glm::vec3 pos;
    if (scene.spawn == Spawn::Sphere) {
      pos = centre + randomDirection(rng, p.dims) * ballRadii *
                         std::pow(rng.uniform(), 1.0f / static_cast<float>(p.dims));
    } else {
      pos = glm::vec3(rng.uniform(lo.x, hi.x), rng.uniform(lo.y, hi.y), rng.uniform(lo.z, hi.z));
      // uniform(lo, hi) can round up to hi; the torus is [lo, hi).
      if (p.boundary == Boundary::Wrap)
        for (int k = 0; k < 3; ++k)
          if (pos[k] >= p.worldMax[k]) pos[k] = p.worldMin[k];
    }
    if (p.dims == 2) pos.y = 0.0f;
    return pos;
  };
  auto insideObstacle = [&](glm::vec3 pos) {
    if (walls != nullptr && !walls->blocked.empty() && walls->blockedAt(pos)) return true;
    for (const Obstacle& o : scene.obstacles) {
      // Through the minimum image when wrapping: no boid starts in an obstacle's part across the seam.
      glm::vec3 a = wrapIntoWorld(p, o.center) - pos;
      if (p.boundary == Boundary::Wrap) a = minimumImage(a, extent);
      if (p.dims == 2) a.y = 0.0f;
      const float clear = o.radius + p.radius + p.perceptionRadius;
      if (glm::dot(a, a) < clear * clear) return true;
    }
    return false;
  };
  // Boids start at least R outside every obstacle's clearance, so that the avoidance rule sees the
  // obstacle before a boid is within stopping distance: positions are redrawn (a bounded number of
  // times, so a world full of obstacles still spawns) until they are clear.
  constexpr int kSpawnAttempts = 64;
  // A common heading: its unit vector plus a random one of this length, so boids start within
  // about 30 degrees of it.
  constexpr float kHeadingJitter = 0.5f;
  glm::vec3 heading = scene.spawnHeading;
  if (p.dims == 2) heading.y = 0.0f;
  if (heading != glm::vec3(0.0f)) heading = glm::normalize(heading);
  for (std::uint32_t i = 0; i < scene.count; ++i) {
    glm::vec3 pos = randomPosition();
    for (int attempt = 1; attempt < kSpawnAttempts && insideObstacle(pos); ++attempt) pos = randomPosition();
    const float speed = rng.uniform(p.minSpeed, p.maxSpeed);
    state.position[i] = pos;
    const glm::vec3 direction = randomDirection(rng, p.dims);
    state.velocity[i] = heading == glm::vec3(0.0f) ? direction * speed : glm::normalize(heading + kHeadingJitter * direction) * speed;
    state.group[i] = i % scene.groups;
  }
  return state;
}

StepInputs staticInputs(const Scene& scene, std::uint32_t groups) {
  StepInputs inputs;
  for (const Obstacle& o : scene.obstacles) {
    inputs.obstacleCenter.push_back(o.center);
    inputs.obstacleRadius.push_back(o.radius);
  }
  inputs.goal.assign(groups, std::nullopt);
  for (const Target& t : scene.targets)
    if (t.group < groups) inputs.goal[t.group] = t.position;
  inputs.predators = scene.predators;
  inputs.steering.assign(groups, GroupSteering{});
  for (const GroupSpec& spec : scene.groupSpecs)
    if (spec.group < groups) inputs.steering[spec.group] = spec.steering;
  return inputs;
}

Scene defaultDensityScene(std::uint32_t count, int dims) {
  Scene scene;
  scene.count = count;
  scene.model.dims = dims;
  const ModelParams defaults;
  // Boids spawn inside the containment band: scale that interior (180 x 80 x 180 for the default
  // 10,000), then put the band back around it, so the density is the same for every N.
  const glm::vec3 band(defaults.margin);
  const glm::vec3 interior = defaults.worldSize() - 2.0f * band;
  const float n = static_cast<float>(count) / 10000.0f;
  glm::vec3 half = 0.5f * interior * (dims == 3 ? std::cbrt(n) : std::sqrt(n)) + band;
  if (dims == 2) half.y = 0.5f * defaults.worldSize().y;  // y is inactive in 2D
  scene.model.worldMin = -half;
  scene.model.worldMax = half;
  return scene;
}

Scene fixedNeighbourScene(std::uint32_t count, float neighbours, int dims) {
  const float r = ModelParams{}.perceptionRadius;
  // density * (ball of radius R) = neighbours, with a cube (or square) world holding `count` boids;
  // never smaller than 2R per side (the minimum-image rule).
  const double ball = dims == 3 ? 4.0 / 3.0 * std::numbers::pi * r * r * r : std::numbers::pi * r * r;
  const double volume = static_cast<double>(count) * ball / static_cast<double>(neighbours);
  const float side = std::max(2.0f * r, static_cast<float>(dims == 3 ? std::cbrt(volume) : std::sqrt(volume)));
  return wrapAroundBox(count, dims, side);
}

Scene fixedCandidateScene(std::uint32_t count, float candidates, int dims) {
  const float r = ModelParams{}.perceptionRadius;
  const double neighbourhood = dims == 3 ? 27.0 : 9.0;  // cells around a boid, its own included
  const double cellsInWorld = neighbourhood * static_cast<double>(count) / static_cast<double>(candidates);
  const double perAxis = std::round(dims == 3 ? std::cbrt(cellsInWorld) : std::sqrt(cellsInWorld));
  const float cellWidth = r * (1.0f + 1e-4f);
  const float side = static_cast<float>(std::max(1.0, perAxis)) * cellWidth;
  return wrapAroundBox(count, dims, side);
}

Scene defaultWorldScene(std::uint32_t count, int dims) {
  Scene scene;
  scene.count = count;
  scene.model.dims = dims;
  return scene;
}

}  // namespace murmur::sim

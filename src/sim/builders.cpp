#include "sim/builders.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include <glm/geometric.hpp>

#include "core/output_path.hpp"
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

// The offset b - a, the minimum image when wrapping (y dropped in 2D).
glm::vec3 worldOffset(const ModelParams& p, glm::vec3 a, glm::vec3 b) {
  glm::vec3 d = b - a;
  if (p.boundary == Boundary::Wrap) d = minimumImage(d, p.worldSize());
  if (p.dims == 2) d.y = 0.0f;
  return d;
}

// The distance from point c to the segment [a, b], through the nearest image of the segment when
// wrapping (a leg of a course may be longer than half the world, so each of its images is tried).
float segmentDistance(const ModelParams& p, glm::vec3 c, glm::vec3 a, glm::vec3 b) {
  const glm::vec3 size = p.worldSize();
  const bool wrap = p.boundary == Boundary::Wrap;
  float best = std::numeric_limits<float>::infinity();
  for (int sx = -1; sx <= 1; ++sx)
    for (int sy = -1; sy <= 1; ++sy)
      for (int sz = -1; sz <= 1; ++sz) {
        if (!wrap && (sx != 0 || sy != 0 || sz != 0)) continue;
        if ((p.dims == 2 || !wrap) && sy != 0) continue;
        const glm::vec3 shift = glm::vec3(float(sx), float(sy), float(sz)) * size;
        glm::vec3 ab = b - a, ac = c - (a + shift);
        if (p.dims == 2) ab.y = ac.y = 0.0f;
        const float ab2 = glm::dot(ab, ab);
        const float t = ab2 > 0.0f ? std::clamp(glm::dot(ac, ab) / ab2, 0.0f, 1.0f) : 0.0f;
        best = std::min(best, glm::length(ac - t * ab));
      }
  return best;
}

// The centre of Spawn::Sphere's ball: sim.spawn_center, else the world's.
glm::vec3 spawnCentre(const Scene& scene) {
  return scene.spawnCenter.value_or(0.5f * (scene.model.worldMin + scene.model.worldMax));
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
      if (capped[k])
        fixedProduct *= double(cap[k]);
      else
        ++free;
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

std::vector<Obstacle> placeRandomObstacles(const Scene& scene, const RandomObstacles& spec) {
  const ModelParams& p = scene.model;
  const bool wrap = p.boundary == Boundary::Wrap;
  Pcg32 rng(spec.seed);
  std::vector<Obstacle> all = scene.obstacles, placed;
  // The spawn ball's farthest reach (its largest radius: an ellipsoid in a thin world).
  const glm::vec3 radii = spawnBallRadii(scene);
  const float ballReach = std::max({radii.x, p.dims == 3 ? radii.y : 0.0f, radii.z});
  // Whether an obstacle keeps spec.gap off everything placed before it, the paths and the spawn ball.
  const auto clear = [&](const Obstacle& o) {
    for (const Obstacle& other : all)
      if (glm::length(worldOffset(p, o.center, other.center)) < o.radius + other.radius + spec.gap)
        return false;
    for (const std::vector<glm::vec3>& path : spec.keepClear)
      for (std::size_t i = 0; i < path.size(); ++i)
        if (segmentDistance(p, o.center, path[i], path[std::min(i + 1, path.size() - 1)]) <
            o.radius + spec.gap)
          return false;
    return scene.spawn != Spawn::Sphere ||
           glm::length(worldOffset(p, o.center, spawnCentre(scene))) >= ballReach + o.radius + spec.gap;
  };
  for (std::uint32_t n = 0; n < spec.count; ++n) {
    bool found = false;
    for (int attempt = 0; attempt < kRandomObstacleTries && !found; ++attempt) {
      Obstacle o;
      o.radius = rng.uniform(spec.minRadius, spec.maxRadius);
      // Containing: the whole obstacle inside the containment band's inner edge.
      const float inset = wrap ? 0.0f : p.margin + o.radius;
      bool fits = true;
      for (int k = 0; k < 3; ++k) {
        const float lo = p.worldMin[k] + inset, hi = p.worldMax[k] - inset;
        o.center[k] = rng.uniform(lo, hi);
        fits = fits && (lo <= hi || (k == 1 && p.dims == 2));
      }
      if (p.dims == 2) o.center.y = 0.0f;
      o.center = wrapIntoWorld(p, o.center);
      found = fits && clear(o);
      if (found) {
        all.push_back(o);
        placed.push_back(o);
      }
    }
    if (!found) break;
  }
  return placed;
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
  const glm::vec3 centre = spawnCentre(scene);
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
  if (heading != glm::vec3(0.0f)) {
    // Too short for float32 to square (components of 1e-20 and below): scaled up first, only its
    // direction counts.
    if (!(glm::dot(heading, heading) >= std::numeric_limits<float>::min()))
      heading /= std::max({std::abs(heading.x), std::abs(heading.y), std::abs(heading.z)});
    heading = glm::normalize(heading);
  }
  for (std::uint32_t i = 0; i < scene.count; ++i) {
    if (i % 65536 == 0) core::throwIfStopRequested();
    glm::vec3 pos = randomPosition();
    for (int attempt = 1; attempt < kSpawnAttempts && insideObstacle(pos); ++attempt) pos = randomPosition();
    const float speed = rng.uniform(p.minSpeed, p.maxSpeed);
    state.position[i] = pos;
    const glm::vec3 direction = randomDirection(rng, p.dims);
    state.velocity[i] = heading == glm::vec3(0.0f)
                            ? direction * speed
                            : glm::normalize(heading + kHeadingJitter * direction) * speed;
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
  const float side =
      std::max(2.0f * r, static_cast<float>(dims == 3 ? std::cbrt(volume) : std::sqrt(volume)));
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

Scene packedFlockScene(std::uint32_t count) {
  Scene scene;
  scene.count = count;
  const float r = scene.model.perceptionRadius;
  scene.model.separationRadius = 0.25f * r;
  scene.model.fovDegrees = 300.0f;
  scene.spawn = Spawn::Sphere;
  scene.spawnSpacing = r * (1.4f / 6.0f);
  // The ball's radius for the count (spawnBallRadii), in a world too large to cap it; the world then
  // holds it clear of the containment band.
  const float provisional = 0.5f * float(count) * scene.spawnSpacing + r;
  scene.model.worldMin = glm::vec3(-provisional);
  scene.model.worldMax = glm::vec3(provisional);
  const float half = spawnBallRadii(scene).x * 1.25f + scene.model.margin + r;
  scene.model.worldMin = glm::vec3(-half);
  scene.model.worldMax = glm::vec3(half);
  return scene;
}

Scene defaultWorldScene(std::uint32_t count, int dims) {
  Scene scene;
  scene.count = count;
  scene.model.dims = dims;
  return scene;
}

}  // namespace murmur::sim

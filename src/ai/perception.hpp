#pragma once
// What the CPU agents perceive: sight (distance, view cone, clear line of sight past obstacle spheres
// and blocked navigation cells) and hearing (a loud enough source within hearing range by path, so
// that sound goes around walls, not through them). Pure functions of their arguments; hearing uses a
// PathFinder as scratch memory only.
//
// Units: positions in world units, angles in radians, speeds in units per second.
#include <cstdint>
#include <numbers>
#include <span>
#include <string_view>

#include <glm/vec3.hpp>

#include "ai/nav.hpp"
#include "sim/scene.hpp"

namespace murmur::ai {

// What stands between an observer and what it perceives.
struct PerceptionWorld {
  std::span<const sim::Obstacle> obstacles;  // spheres; circles in the x-z plane when dims == 2
  const GridMap* grid = nullptr;             // blocked cells are walls of any height; null: no grid
  GridPlacement placement;                   // where grid lies in the world
  std::uint32_t dims = 3;                    // 2: every y component is ignored (model.md's 2D world)
};

struct SightParams {
  float viewDistance = 30.0f;  // units, >= 0; a target at exactly this distance is seen
  float halfAngle =
      std::numbers::pi_v<float> / 3;  // radians, [0, pi]: half the cone's opening; pi: all round
};

enum class Sight : std::uint8_t {
  Seen,
  TooFar,       // farther than viewDistance
  OutsideCone,  // angle from the forward direction above halfAngle
  Occluded,     // an obstacle sphere or a blocked cell cuts the line of sight
};
std::string_view toString(Sight sight);

// Whether toTarget lies within halfAngle (radians) of forward: dot(forward, toTarget) >=
// |forward| |toTarget| cos(halfAngle), edges included. forward: non-zero. A zero toTarget is inside.
bool inViewCone(const glm::vec3& forward, const glm::vec3& toTarget, float halfAngle);

// Whether the segment a-b passes through the inside of the sphere (distance from the centre below the
// radius); a segment that only touches the surface does not.
bool segmentHitsSphere(const glm::vec3& a, const glm::vec3& b, const sim::Obstacle& sphere);

// Whether nothing in world blocks the segment a-b: no obstacle sphere (segmentHitsSphere) and, with a
// grid, no blocked cell (segmentClear: conservative at corners, outside the map blocks).
bool lineOfSightClear(const PerceptionWorld& world, const glm::vec3& a, const glm::vec3& b);

// Whether an observer at eye facing forward (non-zero) sees target: first the distance, then the
// cone, then the line of sight; the result names the first test that fails.
Sight see(const PerceptionWorld& world, const SightParams& params, const glm::vec3& eye,
          const glm::vec3& forward, const glm::vec3& target);

struct HearingParams {
  float loudSpeed = 4.0f;  // units/s, >= 0: a source moving faster than this makes noise
  float range = 25.0f;     // units, >= 0: the longest path along which noise is heard
};

enum class Hearing : std::uint8_t {
  Heard,
  TooQuiet,  // the source moves at loudSpeed or slower
  TooFar,    // no path of length <= range (walls in the way, or simply too far)
};
std::string_view toString(Hearing hearing);

// Whether a listener hears a source moving at sourceSpeed (units/s).
// With a grid (world.grid), the distance is the 8-connected A* path length between the cells holding
// listener and source (cell centres, so one cell of resolution), times the cell size; a listener or
// source in a blocked cell or outside the map hears / is heard by nothing. paths: a PathFinder on
// *world.grid (std::invalid_argument otherwise), used as scratch; the search stops at range, so it
// visits at most the cells within range. Without a grid the distance is the straight line and paths
// may be null. Heights (world y) do not count with a grid: paths run in the x-z plane.
Hearing hear(const PerceptionWorld& world, PathFinder* paths, const HearingParams& params,
             const glm::vec3& listener, const glm::vec3& source, float sourceSpeed);

}  // namespace murmur::ai

#pragma once
// How the director's agents find their way to a goal (ai/director.hpp): straight when the goal is in
// clear line of sight on the navigation grid, else along a smoothed A* path that is replanned as the
// goal moves.
#include <limits>
#include <optional>

#include <glm/vec3.hpp>

#include "ai/nav.hpp"
#include "ai/scene_agents.hpp"
#include "ai/steering.hpp"

namespace murmur::ai {

struct TravelParams {
  bool arriveAtEnd = false;  // stop on the goal (arrive) instead of running through it (seek)
  float slowRadius = 1.0f;   // units, > 0: arrive's slow-down radius at the goal
};

// One agent's path to its goal and when it was planned.
class RoutePlanner {
 public:
  // Drops the path and its goal, so that the next travel plans at once (a new state or waypoint).
  void forget();
  // Time passes: dt seconds toward the next allowed replan.
  void advance(double dt) { sincePlan_ += dt; }
  const PathFollower& path() const { return path_; }

  // The steering toward goal: `direct` (the action's own steering) when there is no grid or the goal
  // is in clear line of sight; else along an A* path (finder: on navigation's map), replanned when the
  // goal's cell changes or the next waypoint drops out of sight, at most every replanInterval seconds
  // (at once for a new goal when there is no path). A goal in a wall is replaced by the nearest free
  // cell. navigation: null for no grid (finder is then unused).
  glm::vec3 travel(const Vehicle& vehicle, const NavigationGrid* navigation, PathFinder* finder,
                   double replanInterval, const glm::vec3& goal, const glm::vec3& direct,
                   const TravelParams& params);

 private:
  void plan(const Vehicle& vehicle, const NavigationGrid& navigation, PathFinder& finder, Cell goalCell,
            const glm::vec3& goal);

  PathFollower path_;
  std::optional<Cell> plannedGoal_;  // the goal cell of the last plan; nullopt: plan at the next need
  double sincePlan_ = std::numeric_limits<double>::infinity();  // seconds since the last plan
};

}  // namespace murmur::ai

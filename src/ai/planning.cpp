#include "ai/planning.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <utility>
#include <vector>

namespace murmur::ai {
namespace {
// A path waypoint within this many cells counts as reached (the follower also passes on to the next
// one as soon as that one is in sight).
constexpr float kReachCells = 0.75f;
// Cells: how far from a goal that lies in a wall (a flock's centroid between two corridors) the planner
// looks for a free cell to plan to instead.
constexpr std::int32_t kGoalSearchRadius = 8;

// The passable cell nearest to cell (itself when passable) within kGoalSearchRadius rings; ties go to
// the first in scan order, so the choice is deterministic.
std::optional<Cell> nearestPassable(const GridMap& map, Cell cell) {
  if (map.passable(cell)) return cell;
  for (std::int32_t ring = 1; ring <= kGoalSearchRadius; ++ring) {
    std::optional<Cell> best;
    std::int32_t bestSquared = std::numeric_limits<std::int32_t>::max();
    for (std::int32_t dy = -ring; dy <= ring; ++dy) {
      for (std::int32_t dx = -ring; dx <= ring; ++dx) {
        if (std::max(std::abs(dx), std::abs(dy)) != ring) continue;
        const Cell candidate{cell.x + dx, cell.y + dy};
        const std::int32_t squared = dx * dx + dy * dy;
        if (squared < bestSquared && map.passable(candidate)) {
          best = candidate;
          bestSquared = squared;
        }
      }
    }
    if (best) return best;
  }
  return std::nullopt;
}
}  // namespace

void RoutePlanner::forget() {
  path_.clear();
  plannedGoal_.reset();
}

// Plans an A* path from the vehicle's cell to goalCell, smoothed with line of sight, as world waypoints:
// the vehicle's position, the kept cell centres, and the goal itself when it lies in goalCell. Heights
// (3D) go linearly from the vehicle's to the goal's along the waypoints. No path: the path is cleared.
void RoutePlanner::plan(const Vehicle& vehicle, const NavigationGrid& navigation, PathFinder& finder,
                        Cell goalCell, const glm::vec3& goal) {
  plannedGoal_ = goalCell;
  sincePlan_ = 0.0;
  path_.clear();
  const glm::vec3 position = vehicle.position;
  const Cell start = cellAt(navigation.placement, position);
  // Moves never enter blocked cells and starts are validated, so start is passable; a blocked start
  // would only make findPath report NoPath.
  const PathResult result = finder.findPath(start, goalCell, navigation.searchOptions());
  if (result.status == PathStatus::NoPath) return;
  const std::vector<Cell> cells = smoothPath(navigation.map, result.path);
  std::vector<glm::vec3> waypoints{position};
  const float steps = float(std::max<std::size_t>(cells.size() - 1, 1));
  for (std::size_t i = 1; i < cells.size(); ++i) {
    const float height = position.y + (goal.y - position.y) * (float(i) / steps);
    waypoints.push_back(centerOf(navigation.placement, cells[i], height));
  }
  if (result.status == PathStatus::Found && cellAt(navigation.placement, goal) == goalCell) {
    if (waypoints.size() > 1)
      waypoints.back() = goal;
    else
      waypoints.push_back(goal);
  }
  path_.assign(std::move(waypoints));
}

glm::vec3 RoutePlanner::travel(const Vehicle& vehicle, const NavigationGrid* grid, PathFinder* finder,
                               double replanInterval, const glm::vec3& goal, const glm::vec3& direct,
                               const TravelParams& params) {
  if (!grid) return direct;
  const NavigationGrid& navigation = *grid;
  const glm::vec3 position = vehicle.position;
  if (segmentClear(navigation.map, navigation.placement, position, goal)) {
    path_.clear();
    return direct;
  }
  const std::optional<Cell> goalCell = nearestPassable(navigation.map, cellAt(navigation.placement, goal));
  if (!goalCell) {
    path_.clear();
    return direct;
  }
  const bool due = sincePlan_ >= replanInterval;
  const bool newGoal = !plannedGoal_ || *plannedGoal_ != *goalCell;
  const bool replan =
      path_.active()
          ? due && (newGoal || !segmentClear(navigation.map, navigation.placement, position, path_.target()))
          : newGoal || due;
  if (replan) plan(vehicle, navigation, *finder, *goalCell, goal);
  if (!path_.active()) return direct;
  const PathFollowParams follow{kReachCells * navigation.placement.cellSize, params.slowRadius,
                                params.arriveAtEnd};
  return path_.steer(vehicle, follow, &navigation.map, navigation.placement);
}

}  // namespace murmur::ai

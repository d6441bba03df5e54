#include "ai/nav.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include <fmt/format.h>

namespace murmur::ai {

// ---- GridMap --------------------------------------------------------------------------------------

GridMap::GridMap(std::int32_t width, std::int32_t height, bool passable) : width_(width), height_(height) {
  if (width < 1 || height < 1 || width > kMaxSide || height > kMaxSide)
    throw std::invalid_argument(fmt::format("GridMap: size {}x{} outside 1..{}", width, height, kMaxSide));
  passable_.assign(static_cast<std::size_t>(width + 2) * static_cast<std::size_t>(height + 2), 0);
  moves_.assign(passable_.size(), 0);
  if (passable) {
    for (std::int32_t y = 0; y < height; ++y)
      std::fill_n(passable_.begin() + nodeIndex(Cell{0, y}), width, std::uint8_t{1});
    for (std::int32_t y = 0; y < height; ++y)
      for (std::int32_t x = 0; x < width; ++x) updateMoves(nodeIndex(Cell{x, y}));
  }
}

void GridMap::updateMoves(std::uint32_t node) {
  const Cell cell = nodeCell(node);
  unsigned moves = 0;
  for (unsigned m = 0; m < 8; ++m) {
    const Move& move = kMoves[m];
    const bool free =
        passable(Cell{cell.x + move.dx, cell.y + move.dy}) &&
        (move.dx == 0 || move.dy == 0 ||
         (passable(Cell{cell.x + move.dx, cell.y}) && passable(Cell{cell.x, cell.y + move.dy})));
    moves |= (free ? 1u : 0u) << m;
  }
  moves_[node] = static_cast<std::uint8_t>(moves);
}

void GridMap::setPassable(Cell cell, bool passable) {
  if (!contains(cell))
    throw std::out_of_range(
        fmt::format("GridMap: cell ({},{}) outside {}x{}", cell.x, cell.y, width_, height_));
  passable_[nodeIndex(cell)] = passable ? 1 : 0;
  // The cell's own moves do not depend on it, but those of its neighbours (and their diagonals
  // past it) do; the ring around the map has no moves to update.
  for (std::int32_t y = std::max(cell.y - 1, 0); y <= std::min(cell.y + 1, height_ - 1); ++y)
    for (std::int32_t x = std::max(cell.x - 1, 0); x <= std::min(cell.x + 1, width_ - 1); ++x)
      updateMoves(nodeIndex(Cell{x, y}));
}

std::size_t GridMap::passableCount() const {
  return static_cast<std::size_t>(std::count(passable_.begin(), passable_.end(), std::uint8_t{1}));
}

// ---- A* -------------------------------------------------------------------------------------------

namespace {
constexpr double kSqrt2 = std::numbers::sqrt2;

double estimate(Heuristic heuristic, std::int32_t dx, std::int32_t dy) {
  const double ax = std::abs(dx);
  const double ay = std::abs(dy);
  switch (heuristic) {
    case Heuristic::Manhattan:
      return ax + ay;
    case Heuristic::Octile:
      return std::max(ax, ay) + (kSqrt2 - 1.0) * std::min(ax, ay);
    case Heuristic::Euclidean:
      return std::sqrt(ax * ax + ay * ay);
  }
  return 0.0;
}

// Cost of each of kMoves: 1 orthogonal, sqrt(2) diagonal.
constexpr double kMoveCost[8] = {1.0, 1.0, 1.0, 1.0, kSqrt2, kSqrt2, kSqrt2, kSqrt2};
}  // namespace

bool isAdmissible(Heuristic heuristic, Connectivity connectivity) {
  return heuristic != Heuristic::Manhattan || connectivity == Connectivity::Four;
}

Heuristic defaultHeuristic(Connectivity connectivity) {
  return connectivity == Connectivity::Four ? Heuristic::Manhattan : Heuristic::Octile;
}

double heuristicDistance(Heuristic heuristic, Cell from, Cell to) {
  return estimate(heuristic, to.x - from.x, to.y - from.y);
}

namespace {
constexpr Heuristic kHeuristics[] = {Heuristic::Manhattan, Heuristic::Octile, Heuristic::Euclidean};
}  // namespace

std::string_view toString(Heuristic heuristic) {
  switch (heuristic) {
    case Heuristic::Manhattan:
      return "manhattan";
    case Heuristic::Octile:
      return "octile";
    case Heuristic::Euclidean:
      return "euclidean";
  }
  return "unknown";
}

std::optional<Heuristic> heuristicNamed(std::string_view name) {
  for (const Heuristic heuristic : kHeuristics)
    if (toString(heuristic) == name) return heuristic;
  return std::nullopt;
}

std::string heuristicNames() {
  std::string names;
  for (const Heuristic heuristic : kHeuristics) {
    if (!names.empty()) names += ", ";
    names += toString(heuristic);
  }
  return names;
}

std::string_view toString(PathStatus status) {
  switch (status) {
    case PathStatus::Found:
      return "found";
    case PathStatus::NoPath:
      return "no-path";
    case PathStatus::BudgetExhausted:
      return "budget-exhausted";
  }
  return "unknown";
}

SearchOptions searchOptions(Connectivity connectivity) {
  SearchOptions options;
  options.connectivity = connectivity;
  options.heuristic = defaultHeuristic(connectivity);
  return options;
}

PathFinder::PathFinder(const GridMap& map) : map_(map) {}

void PathFinder::beginQuery() {
  // The map may have been replaced by one of another size since the last query.
  if (nodes_.size() != map_.nodeCount()) {
    nodes_.assign(map_.nodeCount(), Node{0.0, 0, 0});
    heapIndex_.assign(map_.nodeCount(), 0);
    visitBase_ = 0;
  }
  visitBase_ += 2;
  if (visitBase_ == 0) {  // wrapped after 2^31 queries: old marks could alias the new ones
    for (Node& node : nodes_) node.visit = std::numeric_limits<std::uint32_t>::max();
    visitBase_ = 2;
  }
  open_.clear();
}

namespace {
// Open-list order in one integer comparison: f in fixed point (kFractionBits) in the high bits, and
// in the low kTieBits a tie-break that puts larger g (closer to the goal) first among equal f, which
// expands far fewer nodes where many share the optimal f (open areas). Fixed point also makes f
// values that should tie (sums of 1 and sqrt(2) in different orders) tie despite rounding. The
// order is exact to kKeyQuantum (about 1e-6 cells); paths found are shortest up to that rounding
// (distinct lengths on practical maps differ by far more, so there they are exactly shortest).
constexpr int kFractionBits = 20;
constexpr int kTieBits = 15;
constexpr double kTieScale = 8.0;  // tie-break resolution: 1/8 cell, saturating at g = 4096
constexpr std::uint64_t kTieMax = (std::uint64_t{1} << kTieBits) - 1;
constexpr double kKeyQuantum = 1.0 / double(std::uint64_t{1} << kFractionBits);  // cells
// f < 2^(64 - kFractionBits - kTieBits) cells: more than any path on a kMaxSide^2 map (sqrt(2) kMaxSide^2).
static_assert(double(std::uint64_t{1} << (64 - kFractionBits - kTieBits)) >
              1.5 * double(GridMap::kMaxSide) * double(GridMap::kMaxSide));

std::uint64_t openKey(double f, double g) {
  // Through int64: the conversion from double to unsigned costs a range check on x86.
  const auto fixedF = static_cast<std::uint64_t>(
      static_cast<std::int64_t>(f * double(std::uint64_t{1} << kFractionBits) + 0.5));
  const auto depth =
      static_cast<std::uint64_t>(static_cast<std::int64_t>(std::min(g * kTieScale, double(kTieMax))));
  return fixedF << kTieBits | (kTieMax - depth);
}

// The f a key was made from, to within kKeyQuantum.
double keyLength(std::uint64_t key) {
  return double(key >> kTieBits) * kKeyQuantum;
}
}  // namespace

void PathFinder::siftUp(std::uint32_t position) {
  const OpenEntry entry = open_[position];
  while (position > 0) {
    const std::uint32_t parent = (position - 1) / 2;
    if (entry.key >= open_[parent].key) break;
    open_[position] = open_[parent];
    heapIndex_[open_[position].node] = position;
    position = parent;
  }
  open_[position] = entry;
  heapIndex_[entry.node] = position;
}

void PathFinder::pushOpen(OpenEntry entry) {
  open_.push_back(entry);
  siftUp(static_cast<std::uint32_t>(open_.size() - 1));
}

PathFinder::OpenEntry PathFinder::popOpen() {
  const OpenEntry top = open_.front();
  nodes_[top.node].visit = visitBase_ + kClosed;
  const OpenEntry last = open_.back();
  open_.pop_back();
  const auto size = static_cast<std::uint32_t>(open_.size());
  if (size == 0) return top;
  // Bottom-up: move the hole at the root down to a leaf along the smaller children (one comparison
  // per level), then put the last entry there and sift it up (it rarely rises far: it came from the
  // bottom). The textbook sift-down compares with the moved entry at every level as well.
  std::uint32_t hole = 0;
  std::uint32_t child = 1;
  for (; child + 1 < size; child = 2 * hole + 1) {
    child += open_[child + 1].key < open_[child].key ? 1 : 0;
    open_[hole] = open_[child];
    heapIndex_[open_[hole].node] = hole;
    hole = child;
  }
  if (child < size) {  // the last inner node may have one child
    open_[hole] = open_[child];
    heapIndex_[open_[hole].node] = hole;
    hole = child;
  }
  open_[hole] = last;
  siftUp(hole);
  return top;
}

std::vector<Cell> PathFinder::tracePath(std::uint32_t node) const {
  // Two walks up the parents (the start is its own parent): count, then fill from the back, so that
  // the path is allocated once.
  std::size_t count = 1;
  for (std::uint32_t at = node; nodes_[at].parent != at; at = nodes_[at].parent) ++count;
  std::vector<Cell> path(count);
  for (std::uint32_t at = node; count > 0; at = nodes_[at].parent) path[--count] = map_.nodeCell(at);
  return path;
}

PathResult PathFinder::findPath(Cell start, Cell goal, const SearchOptions& options) {
  if (!map_.contains(start) || !map_.contains(goal))
    throw std::out_of_range(fmt::format("findPath: ({},{}) -> ({},{}) outside the {}x{} map", start.x,
                                        start.y, goal.x, goal.y, map_.width(), map_.height()));
  if (!isAdmissible(options.heuristic, options.connectivity))
    throw std::invalid_argument("findPath: the heuristic overestimates with this connectivity");
  if (!map_.passable(start) || !map_.passable(goal)) return PathResult{};
  // One instance per admissible pair, so that the inner loop has its rules as constants.
  const bool four = options.connectivity == Connectivity::Four;
  switch (options.heuristic) {
    case Heuristic::Manhattan:
      return search<Heuristic::Manhattan, Connectivity::Four>(start, goal, options);
    case Heuristic::Octile:
      return four ? search<Heuristic::Octile, Connectivity::Four>(start, goal, options)
                  : search<Heuristic::Octile, Connectivity::Eight>(start, goal, options);
    case Heuristic::Euclidean:
      return four ? search<Heuristic::Euclidean, Connectivity::Four>(start, goal, options)
                  : search<Heuristic::Euclidean, Connectivity::Eight>(start, goal, options);
  }
  throw std::logic_error("findPath: unknown heuristic");
}

template <Heuristic kHeuristic, Connectivity kConnectivity>
PathResult PathFinder::search(Cell start, Cell goal, const SearchOptions& options) {
  PathResult result;
  beginQuery();
  const std::uint32_t startNode = map_.nodeIndex(start);
  const std::uint32_t goalNode = map_.nodeIndex(goal);
  const auto stride = static_cast<std::int32_t>(map_.nodeStride());
  constexpr std::size_t kStepCount = kConnectivity == Connectivity::Four ? 4 : 8;
  // Node index offsets of the steps; the border ring is blocked, so a step from an in-map node
  // always lands inside the node array.
  std::uint32_t offsets[kStepCount];
  for (std::size_t s = 0; s < kStepCount; ++s)
    offsets[s] = static_cast<std::uint32_t>(kMoves[s].dy * stride + kMoves[s].dx);
  // Slack on maxLength so that a path of exactly maxLength is not lost to key rounding.
  const double lengthLimit = options.maxLength + kKeyQuantum;

  const double startH = estimate(kHeuristic, goal.x - start.x, goal.y - start.y);
  nodes_[startNode] = Node{0.0, startNode, visitBase_ + kOpen};
  pushOpen(OpenEntry{openKey(startH, 0.0), startNode, static_cast<std::uint16_t>(start.x),
                     static_cast<std::uint16_t>(start.y)});
  // The reached node closest to the goal by heuristic (ties: the cheaper one), for partial paths.
  std::uint32_t closestNode = startNode;
  double closestH = startH;

  while (!open_.empty()) {
    if (keyLength(open_.front().key) > lengthLimit) break;
    if (options.maxExpansions != 0 && result.expansions == options.maxExpansions) {
      result.status = PathStatus::BudgetExhausted;
      result.path = tracePath(closestNode);
      result.length = nodes_[closestNode].g;
      return result;
    }
    const OpenEntry top = popOpen();
    const std::uint32_t current = top.node;
    ++result.expansions;
    const double currentG = nodes_[current].g;
    if (current == goalNode) {
      result.status = PathStatus::Found;
      result.path = tracePath(goalNode);
      result.length = currentG;
      return result;
    }
    const Cell cell{top.x, top.y};
    // Passable neighbours, no corner cutting: precomputed by the map. Moves 0-3 are the orthogonal ones.
    unsigned allowed = map_.nodeMoves(current);
    if constexpr (kConnectivity == Connectivity::Four) allowed &= 0x0Fu;
    for (; allowed != 0; allowed &= allowed - 1) {
      const auto s = static_cast<std::size_t>(std::countr_zero(allowed));
      const std::uint32_t next = current + offsets[s];
      const double g = currentG + kMoveCost[s];
      const auto x = static_cast<std::uint16_t>(cell.x + kMoves[s].dx);
      const auto y = static_cast<std::uint16_t>(cell.y + kMoves[s].dy);
      Node& node = nodes_[next];
      const std::uint32_t visit = node.visit - visitBase_;
      if (visit != kOpen && visit != kClosed) {
        const double h = estimate(kHeuristic, goal.x - x, goal.y - y);
        node = Node{g, current, visitBase_ + kOpen};
        pushOpen(OpenEntry{openKey(g + h, g), next, x, y});
        if (h < closestH || (h == closestH && g < nodes_[closestNode].g)) {
          closestNode = next;
          closestH = h;
        }
      } else if (visit == kOpen && g < node.g) {
        // Decrease-key. A closed node is never reopened: the heuristics are consistent.
        open_[heapIndex_[next]].key = openKey(g + estimate(kHeuristic, goal.x - x, goal.y - y), g);
        node.g = g;
        node.parent = current;
        siftUp(heapIndex_[next]);
      }
    }
  }
  return result;  // NoPath
}

double pathLength(const std::vector<Cell>& path) {
  double length = 0.0;
  for (std::size_t i = 1; i < path.size(); ++i) {
    const double dx = path[i].x - path[i - 1].x;
    const double dy = path[i].y - path[i - 1].y;
    length += std::sqrt(dx * dx + dy * dy);  // a diagonal step gives exactly kSqrt2, as in the search
  }
  return length;
}

// ---- Line of sight and smoothing -----------------------------------------------------------------

bool lineOfSight(const GridMap& map, Cell a, Cell b) {
  if (!map.passable(a)) return false;
  const std::int64_t dx = std::abs(b.x - a.x);
  const std::int64_t dy = std::abs(b.y - a.y);
  const std::int32_t sx = b.x > a.x ? 1 : -1;
  const std::int32_t sy = b.y > a.y ? 1 : -1;
  Cell cell = a;
  // The segment between centres crosses vertical grid lines at t = (i + 1/2) / dx and horizontal ones
  // at t = (j + 1/2) / dy; comparing those in integers visits every cell it touches, in order.
  std::int64_t ix = 0;
  std::int64_t iy = 0;
  while (ix < dx || iy < dy) {
    const std::int64_t order = (1 + 2 * ix) * dy - (1 + 2 * iy) * dx;
    if (order == 0) {  // exactly through a corner: both cells beside it must be free
      if (!map.passable(Cell{cell.x + sx, cell.y}) || !map.passable(Cell{cell.x, cell.y + sy})) return false;
      cell.x += sx;
      cell.y += sy;
      ++ix;
      ++iy;
    } else if (order < 0) {
      cell.x += sx;
      ++ix;
    } else {
      cell.y += sy;
      ++iy;
    }
    if (!map.passable(cell)) return false;
  }
  return true;
}

std::vector<Cell> smoothPath(const GridMap& map, const std::vector<Cell>& path) {
  if (path.size() <= 2) return path;
  std::vector<Cell> smooth{path.front()};
  std::size_t anchor = 0;
  for (std::size_t i = 2; i < path.size(); ++i) {
    if (!lineOfSight(map, path[anchor], path[i])) {
      anchor = i - 1;
      smooth.push_back(path[anchor]);
    }
  }
  smooth.push_back(path.back());
  return smooth;
}

// ---- The grid in the world -----------------------------------------------------------------------

namespace {
// floor() to a cell coordinate, clamped so that far-away points stay representable (they are outside
// the map either way).
std::int32_t cellCoordinate(double gridUnits) {
  const double clamped =
      std::clamp(std::floor(gridUnits), -double(GridMap::kMaxSide) - 2.0, double(GridMap::kMaxSide) + 2.0);
  return static_cast<std::int32_t>(clamped);
}
}  // namespace

Cell cellAt(const GridPlacement& placement, const glm::vec3& position) {
  const glm::vec2 units = placement.gridUnits(position);
  return Cell{cellCoordinate(units.x), cellCoordinate(units.y)};
}

glm::vec3 centerOf(const GridPlacement& placement, Cell cell, float height) {
  return placement.centreOf(float(cell.x), float(cell.y), height);
}

bool segmentClear(const GridMap& map, const GridPlacement& placement, const glm::vec3& a,
                  const glm::vec3& b) {
  // Amanatides & Woo traversal in grid units (one unit per cell), from the end points' units as
  // cellAt computes them, so that the walk starts and ends in the cells cellAt names.
  const glm::vec2 unitsA = placement.gridUnits(a);
  const glm::vec2 unitsB = placement.gridUnits(b);
  const double u0 = unitsA.x, v0 = unitsA.y, u1 = unitsB.x, v1 = unitsB.y;
  Cell cell{cellCoordinate(u0), cellCoordinate(v0)};
  const Cell end{cellCoordinate(u1), cellCoordinate(v1)};
  if (!map.passable(cell) || !map.passable(end)) return false;

  const double du = u1 - u0;
  const double dv = v1 - v0;
  const std::int32_t su = du > 0.0 ? 1 : -1;
  const std::int32_t sv = dv > 0.0 ? 1 : -1;
  constexpr double kNever = std::numeric_limits<double>::infinity();
  // Segment parameter t in [0, 1] at which the next vertical / horizontal grid line is crossed.
  double nextU = du > 0.0 ? (cell.x + 1 - u0) / du : du < 0.0 ? (u0 - cell.x) / -du : kNever;
  double nextV = dv > 0.0 ? (cell.y + 1 - v0) / dv : dv < 0.0 ? (v0 - cell.y) / -dv : kNever;
  const double deltaU = du != 0.0 ? 1.0 / std::abs(du) : kNever;
  const double deltaV = dv != 0.0 ? 1.0 / std::abs(dv) : kNever;
  // Crossings this close in t count as one pass through a corner, so that rounding can never let
  // the walk slip diagonally between two blocked cells.
  constexpr double kCornerSlack = 1e-9;

  while (cell != end && std::min(nextU, nextV) <= 1.0) {
    if (std::abs(nextU - nextV) <= kCornerSlack) {
      if (!map.passable(Cell{cell.x + su, cell.y}) || !map.passable(Cell{cell.x, cell.y + sv})) return false;
      cell.x += su;
      cell.y += sv;
      nextU += deltaU;
      nextV += deltaV;
    } else if (nextU < nextV) {
      cell.x += su;
      nextU += deltaU;
    } else {
      cell.y += sv;
      nextV += deltaV;
    }
    if (!map.passable(cell)) return false;
  }
  return true;
}

}  // namespace murmur::ai

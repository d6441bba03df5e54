#pragma once
// Navigation on a grid: the map (passable / blocked cells), A* with 4- or 8-connectivity, and
// line-of-sight path smoothing. ai/movingai.hpp reads maps and scenarios from MovingAI files.
//
// Coordinates are cells: x is the column (0..width-1, left to right), y the row (0..height-1, top to
// bottom), as in MovingAI files. Lengths are in cells: an orthogonal step costs 1, a diagonal step
// sqrt(2). GridPlacement (sim/walls.hpp) puts a grid in the world (x-z plane) for the agents and
// perception.
//
// The search mirrors Recast/Detour's dtNavMeshQuery: a PathFinder owns a node pool sized to its map
// and is reused for many queries (a generation counter marks which nodes the current query touched,
// so a query never clears the pool); results carry an explicit status, and a query that runs out of
// budget returns the partial path to the node closest to the goal.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/walls.hpp"

namespace murmur::ai {

struct Cell {
  std::int32_t x = 0;  // column
  std::int32_t y = 0;  // row
  friend bool operator==(const Cell&, const Cell&) = default;
};

// The eight moves on the grid, in the order of GridMap::nodeMoves bits: the orthogonal ones first
// (+x, -x, +y, -y), then the diagonals (+x+y, -x+y, +x-y, -x-y).
struct Move {
  std::int32_t dx;
  std::int32_t dy;
};
inline constexpr Move kMoves[8] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}};

// A width x height grid of passable / blocked cells. Cells outside the map read as blocked.
//
// Storage has a one-cell blocked border around the map, so that every neighbour of an in-map cell
// has a valid node index and the search needs no bounds checks. Node indices (nodeIndex, nodeCell,
// nodeStride, nodeMoves) expose that layout to the search; other code should use cells.
class GridMap {
 public:
  // Cells per side: node indices fit 32 bits and coordinates 16.
  static constexpr std::int32_t kMaxSide = 1 << 14;

  GridMap() = default;
  // width, height: cells, 1..kMaxSide (std::invalid_argument otherwise); every cell starts passable
  // or blocked as given.
  GridMap(std::int32_t width, std::int32_t height, bool passable = true);

  std::int32_t width() const { return width_; }
  std::int32_t height() const { return height_; }
  bool contains(Cell cell) const { return cell.x >= 0 && cell.y >= 0 && cell.x < width_ && cell.y < height_; }
  // False outside the map.
  bool passable(Cell cell) const { return contains(cell) && passable_[nodeIndex(cell)] != 0; }
  // cell: inside the map (std::out_of_range otherwise).
  void setPassable(Cell cell, bool passable);
  std::size_t passableCount() const;

  // Node layout (see the class comment): (width + 2) x (height + 2) nodes, row-major.
  std::uint32_t nodeStride() const { return static_cast<std::uint32_t>(width_) + 2; }
  std::uint32_t nodeCount() const { return static_cast<std::uint32_t>(passable_.size()); }
  // cell: inside the map or on the border ring around it.
  std::uint32_t nodeIndex(Cell cell) const {
    return static_cast<std::uint32_t>(cell.y + 1) * nodeStride() + static_cast<std::uint32_t>(cell.x + 1);
  }
  Cell nodeCell(std::uint32_t node) const {
    return Cell{static_cast<std::int32_t>(node % nodeStride()) - 1,
                static_cast<std::int32_t>(node / nodeStride()) - 1};
  }
  // The moves out of a node that land on a passable cell, as bits in kMoves order; a diagonal move
  // also needs both orthogonal cells it passes to be passable (no corner cutting). Kept up to date
  // by setPassable, so that A* reads one byte per expansion instead of eight cells.
  std::uint8_t nodeMoves(std::uint32_t node) const { return moves_[node]; }

 private:
  void updateMoves(std::uint32_t node);

  std::int32_t width_ = 0;
  std::int32_t height_ = 0;
  std::vector<std::uint8_t> passable_;  // 1 passable, 0 blocked
  std::vector<std::uint8_t> moves_;     // nodeMoves per node
};

// ---- A* -------------------------------------------------------------------------------------------

enum class Connectivity : std::uint8_t {
  Four = 4,   // orthogonal moves, cost 1
  Eight = 8,  // plus diagonal moves, cost sqrt(2), only when both orthogonal cells passed are passable
};

enum class Heuristic : std::uint8_t {
  Manhattan,  // |dx| + |dy|: exact on an empty 4-connected grid; overestimates with diagonals
  Octile,     // max + (sqrt(2) - 1) min: exact on an empty 8-connected grid
  Euclidean,  // sqrt(dx^2 + dy^2): admissible for both, looser
};

// Admissible and consistent for this connectivity: A* with it returns shortest paths.
bool isAdmissible(Heuristic heuristic, Connectivity connectivity);
// The tightest admissible heuristic: Manhattan for Four, Octile for Eight.
Heuristic defaultHeuristic(Connectivity connectivity);
// Heuristic distance in cells between two cells.
double heuristicDistance(Heuristic heuristic, Cell from, Cell to);
// "manhattan", "octile", "euclidean": the names a user gives (`murmur path --heuristic`, a scene's
// [navigation] heuristic).
std::string_view toString(Heuristic heuristic);
// The heuristic of that name; nullopt for any other word.
std::optional<Heuristic> heuristicNamed(std::string_view name);
// The accepted names, comma separated, for error messages.
std::string heuristicNames();

enum class PathStatus : std::uint8_t {
  Found,            // path is a shortest path from start to goal (up to about 1e-6 cells of rounding)
  NoPath,           // the goal cannot be reached (or not within maxLength); path is empty
  BudgetExhausted,  // maxExpansions reached first; path leads to the reached node closest to the goal
};
std::string_view toString(PathStatus status);

struct SearchOptions {
  Connectivity connectivity = Connectivity::Eight;
  Heuristic heuristic = Heuristic::Octile;  // must be admissible for connectivity
  // Nodes expanded at most; 0: no limit.
  std::size_t maxExpansions = 0;
  // Longest path of interest, cells: a goal farther than this by path reports NoPath, and the search
  // stops as soon as it knows (hearing uses it to stay cheap). Infinity: no limit.
  double maxLength = std::numeric_limits<double>::infinity();
};

// Options with connectivity and its default heuristic.
SearchOptions searchOptions(Connectivity connectivity);

struct PathResult {
  PathStatus status = PathStatus::NoPath;
  // Cells from start to goal inclusive (Found), from start to the closest reached node
  // (BudgetExhausted), or empty (NoPath). A query with start == goal finds {start}.
  std::vector<Cell> path;
  double length = 0.0;         // cells, the cost of path
  std::size_t expansions = 0;  // nodes taken off the open list (the goal included)
};

// A* on one map. Owns the per-node search state (20 bytes per cell) and reuses it across queries;
// not thread-safe (use one PathFinder per thread). The map must outlive the PathFinder; it may
// change between queries (passability or even size).
//
// The open list is a binary heap with decrease-key (each node knows its heap position), ordered by
// one integer key per entry: f in fixed point, ties broken toward larger g.
class PathFinder {
 public:
  explicit PathFinder(const GridMap& map);

  const GridMap& map() const { return map_; }

  // Bytes a map of `cells` cells and a search on it take at most: the map's cell, its node, heap
  // position and a full open list's entry, per cell.
  static std::uint64_t bytesFor(std::uint64_t cells) {
    return cells * (1 + sizeof(Node) + sizeof(std::uint32_t) + sizeof(OpenEntry));
  }

  // Shortest path from start to goal. start and goal must be inside the map (std::out_of_range
  // otherwise); a blocked start or goal gives NoPath. The heuristic must be admissible for the
  // connectivity (std::invalid_argument otherwise).
  PathResult findPath(Cell start, Cell goal, const SearchOptions& options = {});

 private:
  struct Node {
    double g;              // cost from start, cells
    std::uint32_t parent;  // node index; the start is its own parent
    // What the current query knows of this node: visitBase_ + kOpen (in the open list), visitBase_
    // + kClosed (expanded); any other value was left by an earlier query and means "not reached".
    std::uint32_t visit;
  };
  struct OpenEntry {
    std::uint64_t key;   // openKey(f, g): smaller comes first
    std::uint32_t node;  // node index
    std::uint16_t x;     // the node's cell, so that a pop needs no division
    std::uint16_t y;
  };
  static constexpr std::uint32_t kOpen = 0;
  static constexpr std::uint32_t kClosed = 1;

  template <Heuristic kHeuristic, Connectivity kConnectivity>
  PathResult search(Cell start, Cell goal, const SearchOptions& options);
  void beginQuery();
  void pushOpen(OpenEntry entry);
  void siftUp(std::uint32_t position);
  OpenEntry popOpen();
  std::vector<Cell> tracePath(std::uint32_t node) const;

  const GridMap& map_;
  std::vector<Node> nodes_;
  // Per node: its position in open_, valid while the node is open in the current query. Apart
  // from nodes_ because the heap updates it at every move: a dense array keeps that in cache.
  std::vector<std::uint32_t> heapIndex_;
  std::vector<OpenEntry> open_;  // binary min-heap on key
  // Base of the current query's visit marks: advances by 2 per query (the generation counter).
  std::uint32_t visitBase_ = 0;
};

// Length in cells of a polyline through cell centres (any-angle segments count their Euclidean
// length).
double pathLength(const std::vector<Cell>& path);

// ---- Line of sight and smoothing -----------------------------------------------------------------

// Whether the straight segment between the centres of a and b crosses passable cells only. Conservative:
// every cell the segment touches must be passable, and where it passes exactly through a cell corner
// both cells beside the corner must be passable (no corner cutting). Cells outside the map block.
bool lineOfSight(const GridMap& map, Cell a, Cell b);

// String pulling: keeps the first and last cells and drops every intermediate cell that the previous
// kept cell can see past (lineOfSight to the next kept cell). path: a valid grid path (each step to
// one of the 8 neighbours, passable cells, no corner cutting: what findPath returns). The result is
// then never longer than path and its segments cross only passable cells.
std::vector<Cell> smoothPath(const GridMap& map, const std::vector<Cell>& path);

// ---- The grid in the world -----------------------------------------------------------------------

// Where a grid lies in the world (x-z plane): sim::GridPlacement, the rule the boids' walls use, so
// that an agent and a boid agree on the cell a point is in. Map column x runs along world x, map row
// y along world z.
using sim::GridPlacement;

// The cell holding a world point (may lie outside the map).
Cell cellAt(const GridPlacement& placement, const glm::vec3& position);
// The world point at the centre of a cell, at the given height (world y).
glm::vec3 centerOf(const GridPlacement& placement, Cell cell, float height = 0.0f);

// Whether the world segment from a to b, projected on the x-z plane, crosses passable cells only
// (same conservative rules as lineOfSight: corners touched exactly need both side cells free; cells
// outside the map block).
bool segmentClear(const GridMap& map, const GridPlacement& placement, const glm::vec3& a, const glm::vec3& b);

}  // namespace murmur::ai

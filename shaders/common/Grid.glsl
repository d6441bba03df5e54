// The uniform grid of sim::GridSpec (src/sim/grid.hpp, grid.cpp), function by function.
// Needs common/Params.glsl.

ivec3 cellCoord(vec3 p) {
  EXACT vec3 c = (p - P.gridOrigin.xyz) / P.gridCellSize.xyz;
  // Clamped after the conversion too: a non-finite position converts to anything.
  return clamp(ivec3(floor(c)), ivec3(0), P.gridCells.xyz - 1);
}

uint cellIndex(ivec3 c) { return uint((c.z * P.gridCells.y + c.y) * P.gridCells.x + c.x); }

// A run of consecutive cell coordinates [first, last] along one axis; `imaged` runs need the
// minimum image (see sim::CellRun).
struct CellRun {
  int first;
  int last;
  bool imaged;
};

struct AxisRuns {
  CellRun runs[2];
  int count;
};

AxisRuns neighbourRuns(int c, int cells, bool wrap) {
  AxisRuns axis;
  axis.runs[1] = CellRun(0, -1, false);
  if (!wrap) {
    axis.runs[0] = CellRun(max(c - 1, 0), min(c + 1, cells - 1), false);
    axis.count = 1;
    return axis;
  }
  if (cells <= 3) {  // every cell on this axis is a neighbour
    axis.runs[0] = CellRun(0, cells - 1, true);
    axis.count = 1;
    return axis;
  }
  bool smallAxis = cells < 5;
  if (c == 0) {
    axis.runs[0] = CellRun(0, 1, smallAxis);
    axis.runs[1] = CellRun(cells - 1, cells - 1, true);
    axis.count = 2;
  } else if (c == cells - 1) {
    axis.runs[0] = CellRun(0, 0, true);
    axis.runs[1] = CellRun(cells - 2, cells - 1, smallAxis);
    axis.count = 2;
  } else {
    axis.runs[0] = CellRun(c - 1, c + 1, smallAxis);
    axis.count = 1;
  }
  return axis;
}

// The cells of an axis's runs, run by run, as one list: how many, and the j-th with whether its run
// is imaged (the order sim::forEachNeighbourRange visits them in).
int axisCellCount(AxisRuns axis) {
  return axis.runs[0].last - axis.runs[0].first + 1 + axis.runs[1].last - axis.runs[1].first + 1;
}

int axisCell(AxisRuns axis, int j, out bool imaged) {
  int firstRun = axis.runs[0].last - axis.runs[0].first + 1;
  imaged = j < firstRun ? axis.runs[0].imaged : axis.runs[1].imaged;
  return j < firstRun ? axis.runs[0].first + j : axis.runs[1].first + j - firstRun;
}

// sim::RowReach: which rows (y, z) of the 3x3x3 block around p's cell c may hold a boid within the
// search radius (squared: searchRadius2), as a mask with bit 3 (dz + 1) + (dy + 1) for the row at
// c + (0, dy, dz): the gaps from p to the rows below and above on each axis, less a slack that float
// rounding of the cell bounds and of the offsets cannot cross, so that leaving out the other rows
// changes no result. (Rows across a wrap seam, imaged, are always kept by the caller.)
float rowGap(int axis, int c, vec3 p, bool above) {
  float size = P.gridCellSize[axis], origin = P.gridOrigin[axis], x = p[axis];
  float slack = 1e-5 * (abs(origin) + abs(x) + size);
  EXACT float lo = origin + float(c) * size;
  EXACT float gap = above ? lo + size - x - slack : x - lo - slack;
  return max(gap, 0.0);
}

uint reachableRows(ivec3 c, vec3 p, float searchRadius2, bool threeD) {
  float reach2 = searchRadius2 * 1.0001;
  vec3 gy = threeD ? vec3(rowGap(1, c.y, p, false), 0.0, rowGap(1, c.y, p, true)) : vec3(0.0);
  vec3 gz = vec3(rowGap(2, c.z, p, false), 0.0, rowGap(2, c.z, p, true));
  uint mask = 0u;
  for (int dz = 0; dz < 3; ++dz)
    for (int dy = 0; dy < 3; ++dy)
      if (!(gy[dy] * gy[dy] + gz[dz] * gz[dz] > reach2)) mask |= 1u << uint(3 * dz + dy);
  return mask;
}

// reachableRows made per cell, for the topological sweep (whose reach shrinks to a few units):
// the cells of the 3x3x3 block around c that may hold a boid within the reach (squared: reach2),
// as a mask with bit 3 (3 (dz + 1) + dy + 1) + dx + 1 for the cell at c + (dx, dy, dz). (Cells of
// imaged runs are always kept by the caller.)
uint reachableCells(ivec3 c, vec3 p, float reach2, bool threeD) {
  float limit = reach2 * 1.0001;
  vec3 gx = vec3(rowGap(0, c.x, p, false), 0.0, rowGap(0, c.x, p, true));
  vec3 gy = threeD ? vec3(rowGap(1, c.y, p, false), 0.0, rowGap(1, c.y, p, true)) : vec3(0.0);
  vec3 gz = vec3(rowGap(2, c.z, p, false), 0.0, rowGap(2, c.z, p, true));
  uint mask = 0u;
  for (int dz = 0; dz < 3; ++dz)
    for (int dy = 0; dy < 3; ++dy)
      for (int dx = 0; dx < 3; ++dx)
        if (!(gx[dx] * gx[dx] + gy[dy] * gy[dy] + gz[dz] * gz[dz] > limit)) mask |= 1u << uint(9 * dz + 3 * dy + dx);
  return mask;
}

// The rows (reachableRows' mask) that hold a cell of reachableCells' mask.
uint rowsOfCells(uint cells) {
  uint rows = 0u;
  for (int row = 0; row < 9; ++row)
    if ((cells >> uint(3 * row) & 7u) != 0u) rows |= 1u << uint(row);
  return rows;
}

// Whether row (y, z), not imaged, is in reachableRows' mask for the block around c.
bool rowReachable(uint mask, int y, int z, ivec3 c) {
  return (mask >> uint(3 * (z - c.z + 1) + y - c.y + 1) & 1u) != 0u;
}

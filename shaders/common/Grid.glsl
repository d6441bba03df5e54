// The uniform grid of sim::GridSpec (src/sim/grid.hpp, grid.cpp), function by function.
// Needs common/Params.glsl.

ivec3 cellCoord(vec3 p) {
  precise vec3 c = (p - P.gridOrigin.xyz) / P.gridCellSize.xyz;
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

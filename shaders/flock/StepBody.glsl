// The body of flock/Step.comp.glsl, flock/StepTopological.comp.glsl (TOPOLOGICAL 0 or 1), their
// turning variants flock/StepTurning.comp.glsl, flock/StepTopologicalTurning.comp.glsl (TURNING 1),
// flock/StepLab.comp.glsl (LAB 1: the flocking lab's units, common/LabModel.glsl) and the
// starlings' flock/StepStarling.comp.glsl, flock/StepTopologicalStarling.comp.glsl (STARLING 1,
// common/StarlingModel.glsl).
// Forces and integration, fused: one thread per boid in cell order (threads of a work group share
// neighbour cells, and each cell's boids are contiguous), neighbours visited run by run in the
// order of sim::forEachNeighbourRange and by id within a cell, as the CPU grid search does. The
// new state (positions, velocities with the leader flag in w) is written at the boid's sorted
// slot, so the flock stays in cell order between steps: the state's slots and this sort's ids
// (sortedIds, the pipeline's boidIds from now on) are the other half of the pair
// state -> sorted copy (Reorder) -> state (here), and no access of a step goes by id. Each boid's
// next cell is hashed and counted here too (see CellOf below).
layout(local_size_x = WORKGROUP_SIZE) in;
#include "common/Dispatch.glsl"
#include "common/Params.glsl"
#include "common/Grid.glsl"
#include "common/Rules.glsl"
#include "common/LabModel.glsl"

layout(std430, binding = BINDING_POSITIONS) writeonly buffer Positions { vec4 positions[]; };
layout(std430, binding = BINDING_VELOCITIES) writeonly buffer Velocities { vec4 velocities[]; };
layout(std430, binding = BINDING_CELL_STARTS) readonly buffer CellStarts { uint cellStarts[]; };
layout(std430, binding = BINDING_SORTED_IDS) readonly buffer SortedIds { uint sortedIds[]; };
layout(std430, binding = BINDING_SORTED_POSITIONS) readonly buffer SortedPositions { vec4 sortedPositions[]; };
layout(std430, binding = BINDING_SORTED_HEADINGS) readonly buffer SortedHeadings { vec4 sortedHeadings[]; };
// The metric pass without stored headings takes its own heading from its velocity (below); the
// block is volatile there so that the compiler loads the velocity again after the neighbour loop
// rather than holding it through the loop (navi21 wave64: 48 VGPRs, not 56).
#define OWN_HEADING_FROM_VELOCITY (!TURNING && !LAB && !STARLING && !TOPOLOGICAL)
#if OWN_HEADING_FROM_VELOCITY
layout(std430, binding = BINDING_SORTED_VELOCITIES) readonly volatile buffer SortedVelocities { vec4 sortedVelocities[]; };
#else
layout(std430, binding = BINDING_SORTED_VELOCITIES) readonly buffer SortedVelocities { vec4 sortedVelocities[]; };
#endif
// The next step's hash and count (grid/CellIndex, then grid/Count) of the positions written here,
// on this step's grid: the pipeline skips those two passes when the next step's grid is the same.
// cellCounts was cleared after this step's scan read it.
layout(std430, binding = BINDING_CELL_OF) writeonly buffer CellOf { uint cellOf[]; };
layout(std430, binding = BINDING_RANK_IN_CELL) writeonly buffer RankInCell { uint rankInCell[]; };
layout(std430, binding = BINDING_CELL_COUNTS) buffer CellCounts { uint cellCounts[]; };
#if TURNING || LAB || STARLING
// The stored headings in slot order (boids.turn_rate; the lab's units with their spin in w, the
// starlings with their bank):
// grid/ReorderTurning copied them into sortedHeadings; the new ones are written here, and what a
// renderer draws the bird along (the heading at the velocity's speed, the leader flag in w as in
// velocities).
layout(std430, binding = BINDING_HEADINGS) writeonly buffer Headings { vec4 headings[]; };
layout(std430, binding = BINDING_DRAWN_VELOCITIES) writeonly buffer DrawnVelocities { vec4 drawnVelocities[]; };
#endif

uint readId(uint slot) { return sortedIds[slot]; }
vec3 readHeading(uint slot) { return sortedHeadings[slot].xyz; }
vec3 readPosition(uint slot) { return sortedPositions[slot].xyz; }

void main() {
  uint s = globalInvocationIndex();
  if (s >= P.boidCount) return;
  vec4 own = sortedPositions[s];
#if OWN_HEADING_FROM_VELOCITY
  // norm(v) from the velocity, as grid/Reorder computed it for the neighbours (the same operations,
  // so the same bits in the exact arithmetic): 16 bytes a boid fewer than reading the sorted copy.
  vec3 ownHeading = heading(sortedVelocities[s].xyz);
#else
  vec3 ownHeading = sortedHeadings[s].xyz;
#endif
  // The velocity is read again after the neighbour loop, which does not need it: one register
  // fewer there for each component.
  BoidView self = BoidView(own.xyz, vec3(0.0), ownHeading, s, uint(own.w));

  NeighbourSums sums = noNeighbours();
  NeighbourConstants k = neighbourConstants();
  vec3 worldSize = P.worldSize.xyz;
  ivec3 c = cellCoord(self.position);
  bool gridWrap = P.wrap != 0u;
  // In 2D the y axis is inactive (one cell, every d.y = 0): it never needs the image.
  bool yWrap = gridWrap && P.dims == 3u;
#if TOPOLOGICAL
  // The topological sweep (as the CPU's, src/sim/neighbour_sweep.cpp): the own cell first, offered
  // to the K nearest and tested for the front cone, which usually fills both; then only the rows
  // and cells within the reach that leaves (which shrinks as nearer boids come), the own cell's
  // candidates not offered again. Which K are nearest depends on no order and the separation
  // still sums in slot order, so the result is the whole block's.
  uint ownCell = cellIndex(c);
  uint ownBegin = cellStarts[ownCell], ownEnd = cellStarts[ownCell + 1u];
  float reach2 = topologicalReach2(k, sums);
  for (uint m = ownBegin; m < ownEnd; ++m) {
    if (m == s) continue;
    vec4 other = sortedPositions[m];
    EXACT vec3 d = other.xyz - self.position;
    // The minimum image changes an offset within the cell only on a wrapped axis of one cell.
    if (gridWrap) d = minimumImage(d, worldSize);
    // Squared as accumulateNeighbour squares it (EXACT), so that no candidate it would take is left out.
    EXACT float d2 = dot3(d, d);
    if (d2 > reach2) continue;
    accumulateNeighbour(self, k, d, m, other.w == own.w, kAllButSeparation, sums);
    reach2 = topologicalReach2(k, sums);
  }
  uint cells = reachableCells(c, self.position, reach2, P.dims == 3u);
  uint rows = rowsOfCells(cells);
#else
  uint rows = reachableRows(c, self.position, k.searchRadius2, P.dims == 3u);
#endif
  // The block's runs of cells as one list of segments (a row's x runs within its row, rows by y
  // within z): two loops, not six, so that a wave's threads whose rows differ in length wait for
  // each other once per segment, not at every level of the nest. Each segment finds its runs again
  // from the cell coordinates (a few integer operations) rather than holding all three axes' runs
  // in registers through the candidate loop.
  int xRuns = neighbourRuns(c.x, P.gridCells.x, gridWrap).count;
  int yCells = axisCellCount(neighbourRuns(c.y, P.gridCells.y, yWrap));
  int segments = xRuns * yCells * axisCellCount(neighbourRuns(c.z, P.gridCells.z, gridWrap));
  for (int segment = 0; segment < segments; ++segment) {
    int row = segment / xRuns;
    bool yImaged, zImaged;
    int y = axisCell(neighbourRuns(c.y, P.gridCells.y, yWrap), row % yCells, yImaged);
    int z = axisCell(neighbourRuns(c.z, P.gridCells.z, gridWrap), row / yCells, zImaged);
    bool rowImaged = yImaged || zImaged;
    if (!rowImaged && !rowReachable(rows, y, z, c)) continue;  // wholly beyond the search radius
    AxisRuns xs = neighbourRuns(c.x, P.gridCells.x, gridWrap);
    CellRun run = segment == row * xRuns ? xs.runs[0] : xs.runs[1];
    bool imaged = run.imaged || rowImaged;
#if TOPOLOGICAL
    // A run not imaged holds c's column: its end cells wholly beyond the reach are left out.
    if (!imaged) {
      uint rowCells = cells >> uint(3 * (3 * (z - c.z + 1) + y - c.y + 1));
      if ((rowCells & 1u) == 0u) run.first = max(run.first, c.x);
      if ((rowCells & 4u) == 0u) run.last = min(run.last, c.x);
    }
    reach2 = topologicalReach2(k, sums);
#endif
    uint begin = cellStarts[cellIndex(ivec3(run.first, y, z))];
    uint end = cellStarts[cellIndex(ivec3(run.last, y, z)) + 1u];
    for (uint m = begin; m < end; ++m) {
      if (m == s) continue;
      vec4 other = sortedPositions[m];
      EXACT vec3 d = other.xyz - self.position;
      if (imaged) d = minimumImage(d, worldSize);
      // Groups compared as the floats they are stored as (exact below 2^24): no conversion.
#if TOPOLOGICAL
      EXACT float d2 = dot3(d, d);
      if (d2 > reach2) continue;
      bool offered = m >= ownBegin && m < ownEnd;
      accumulateNeighbour(self, k, d, m, other.w == own.w, offered ? kAllButNearest : kAllTerms, sums);
#else
      accumulateNeighbour(self, k, d, m, other.w == own.w, kAllTerms, sums);
#endif
    }
  }
  finishNeighbours(self, sums);
  self.velocity = sortedVelocities[s].xyz;
#if LAB
  // The lab's unit: its spin rides in the w of its stored heading.
  LabUnit next = stepLabUnit(self, sortedHeadings[s].w, sums);
#else
#if STARLING
  starlingBank = sortedHeadings[s].w;
#endif
  BoidUpdate next = stepBoid(self, sums);
#endif
  positions[s] = vec4(next.position, own.w);
  uint nextCell = cellIndex(cellCoord(next.position));
  cellOf[s] = nextCell;
  rankInCell[s] = atomicAdd(cellCounts[nextCell], 1u);
  // The leader flag rides in the w the velocity leaves free: no extra bytes a boid.
  float leader = P.needFront != 0u && !sums.frontOccupied ? 1.0 : 0.0;
  velocities[s] = vec4(next.velocity, leader);
#if TURNING || LAB || STARLING
#if LAB
  headings[s] = vec4(next.heading, next.spin);
#elif STARLING
  headings[s] = vec4(next.heading, starlingBank);
#else
  headings[s] = vec4(next.heading, 0.0);
#endif
  drawnVelocities[s] = vec4(next.heading * length3(next.velocity), leader);
#endif
}

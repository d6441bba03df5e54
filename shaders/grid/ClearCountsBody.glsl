// The grid's cell counts (cells + 1 words) set to zero, ITEMS quads of words a thread: by
// grid/ClearCounts after the scan has read them, before the force pass counts the next step's
// cells into them, and by grid/CellIndex before grid/Count counts a state that no force pass
// counted. Passes of our own rather than glClearNamedBufferData: on the H100 and the H200 alike
// that clear took about 0.13 ns a cell (31 GB/s; the count stage's time grew with the cells, not
// with the boids it counted: docs/gpu.md, "Clearing the counts"), by that rate 0.29 ms of
// `density`'s 0.47 ms force stage at 1M boids.
// Written 16 bytes at a time (a word at a time, llvmpipe's force stage took up to a quarter
// longer than with the clear it replaced): the buffer holds the cells + 1 words rounded up to whole
// quads.
layout(std430, binding = BINDING_CELL_COUNTS) writeonly buffer CellCounts { uvec4 cellCountQuads[]; };

void clearCellCounts(uint thread) {
  uint quads = (uint(P.gridCells.w) + 4u) / 4u;  // w: the cells in all
  uint first = thread * uint(ITEMS);
  for (int k = 0; k < ITEMS; ++k)
    if (first + uint(k) < quads) cellCountQuads[first + uint(k)] = uvec4(0u);
}

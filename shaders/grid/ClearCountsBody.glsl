// The grid's cell counts (cells + 1 words) set to zero, ITEMS quads of words a thread: by
// grid/ClearCounts after the scan has read them, before the force pass counts the next step's
// cells into them, and by grid/CellIndex before grid/Count counts a state that no force pass
// counted. Passes of our own rather than glClearNamedBufferData, which ran far below the memory's
// speed on the H100 and the H200 (docs/gpu.md, "Clearing the counts"). Written 16 bytes at a time
// (a word at a time made llvmpipe's force stage slower, same section): the buffer holds the
// cells + 1 words rounded up to whole quads. Thread i zeroes quads i, i + threads, i + 2 threads,
// ..., so that neighbouring threads store to neighbouring quads (whole memory sectors a store).
layout(std430, binding = BINDING_CELL_COUNTS) writeonly buffer CellCounts { uvec4 cellCountQuads[]; };

void clearCellCounts(uint thread) {
  uint quads = (uint(P.gridCells.w) + 4u) / 4u;  // w: the cells in all
  uint threads = (quads + uint(ITEMS) - 1u) / uint(ITEMS);
  if (thread >= threads) return;
  for (int k = 0; k < ITEMS; ++k) {
    uint quad = thread + uint(k) * threads;
    if (quad < quads) cellCountQuads[quad] = uvec4(0u);
  }
}

#pragma once
// The state CSV of design.md: header exactly `id,group,x,y,z,vx,vy,vz`, one row per boid in id
// order, floats printed round-trippable (%.9g).
#include <istream>
#include <string>

#include "sim/flock.hpp"
#include "sim/params.hpp"

namespace murmur::sim {

// Reads and validates a state file: header, 8 fields per row, ids 0..N-1 in order, groups
// 0..1023, finite numbers (velocity components within +-kMaxMagnitude), positions inside the world
// box (y = 0 in 2D). groups = max group + 1.
// Any problem: InputError naming file, line and column.
FlockState readStateCsv(const std::string& path, const ModelParams& params);
// The same for text read from `in`; path names it in messages.
FlockState parseStateCsv(std::istream& in, const std::string& path, const ModelParams& params);

// Writes atomically (sim/output_path.hpp: a uniquely named temporary file, then rename; only over
// a regular file or nothing): on failure no file is left behind and InputError names path.
void writeStateCsv(const std::string& path, const FlockState& state);

}  // namespace murmur::sim

#pragma once
// The state CSV of design.md: header exactly `id,group,x,y,z,vx,vy,vz`, one row per boid in id
// order, floats printed round-trippable (%.9g); a starling scene's adds a ninth column, `bank`
// (radians; docs/model.md, The starlings' flight).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <istream>
#include <string>

#include "sim/flock.hpp"
#include "sim/params.hpp"

namespace murmur::sim {

// Limits checked before and while reading (docs/model.md, Limits): the file's size, and a line's
// text without its ending.
inline constexpr std::uint64_t kMaxStateCsvBytes = std::uint64_t(16) << 30;  // 1e8 boids of up to ~128 bytes
inline constexpr std::size_t kMaxStateCsvLineBytes = 1024;

// Reads and validates a state file: header, 8 fields per row (9 with a starling's bank, within
// +-model.max_bank), ids 0..N-1 in order, groups 0..1023, finite numbers (velocity components
// within +-kMaxMagnitude), positions inside the world box (y = 0 in 2D). groups = max group + 1.
// Any problem: InputError naming file, line and column.
FlockState readStateCsv(const std::string& path, const ModelParams& params);
// The same for text read from `in`; path names it in messages.
FlockState parseStateCsv(std::istream& in, const std::string& path, const ModelParams& params);

// The most groups a state may hold (group ids below it).
inline constexpr std::uint32_t kMaxStateGroups = 1024;

// Checks a state made in memory as readStateCsv checks a file's rows: every boid's group below
// kMaxStateGroups, finite numbers, velocities within +-kMaxMagnitude, positions inside the world
// box (y = 0 in 2D), the arrays of one size; a starling's bank kept and checked where there is one a
// boid (every other attitude and the headings dropped). InputError naming `source` and "boid I:
// x"; groups set to max group + 1 (at least 1).
void checkState(FlockState& state, const ModelParams& params, const std::string& source);

// Writes the CSV text of state (header and rows) to file, as it is: no discipline of its own
// (writeStateCsv adds it); with units Starling and a bank a boid, the bank column too. Stops early
// when a stop was requested (SIGINT, SIGTERM). False when a write failed (errno says why) or it
// stopped.
bool writeStateCsvText(std::FILE* file, const FlockState& state, UnitModel units = UnitModel::Boids);

// Writes with the output discipline of core/output_path.hpp (a checked, flushed temporary renamed
// over path): InputError (naming option) when path is no writable regular file, OutputError when
// writing fails, StopRequested when a stop was requested meanwhile; path is left as it was.
void writeStateCsv(const std::string& path, const FlockState& state, const std::string& option = "",
                   UnitModel units = UnitModel::Boids);

}  // namespace murmur::sim

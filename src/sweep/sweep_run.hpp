#pragma once
// One plan of a sweep run to its files, and the sweep's index gathered from them (docs/sweeps.md).
// DIR/runs/<id>.json holds what the run measured and depends on nothing but the plan and the build,
// so it is the same bytes whoever ran it; DIR/runs/<id>.status.json says who, where, how long, and
// any error. Every file is written atomically (core/output_path.hpp).
#include <atomic>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "sweep/sweep_file.hpp"

namespace murmur::sweep {

// Where a runner runs its plans: the EGL device of the gpu backends (-1: the default one) and the
// threads of the cpu backends.
struct Runner {
  int device = -1;
  int threads = 1;
  int rank = 0;  // the MPI rank, 0 outside MPI
};

struct RunOutcome {
  bool ok = false;
  std::string error;  // when not ok
  double wallSeconds = 0.0;
  std::string device;  // the backend's device, in words
};

// The measures of each logged step, in the run file and runs.csv's columns.
const std::vector<std::string>& measureNames();

// Runs the plan and writes its files (a refused plan writes its status alone). StopRequested on a
// signal and when `cancel` is set (errors = fast), with no file of the run left; any other failure of
// the run is its outcome, recorded in its status file.
RunOutcome runPlan(const SweepFile& sweep, const Plan& plan, const Runner& runner,
                   const std::filesystem::path& dir, const std::vector<std::string>& dataDirs, bool force,
                   const std::atomic<bool>& cancel);

// Whether the plan's run file (and its dump and trajectory when logged) is complete in dir.
bool runComplete(const SweepFile& sweep, const Plan& plan, const std::filesystem::path& dir);

struct IndexCounts {
  std::size_t done = 0, failed = 0, missing = 0;
};

// Writes DIR/runs.csv and DIR/sweep.json from the files under DIR/runs.
IndexCounts writeIndex(const SweepFile& sweep, const Expansion& expansion, const std::filesystem::path& dir);

}  // namespace murmur::sweep

#pragma once
// Runs a sweep's plans on runners: threads of this process, each with its share of the cores and
// of the EGL devices, handed the next plan as they become free; across the ranks of an MPI job, rank
// 0 hands the plans to whichever rank's runner asks (docs/sweeps.md).
#include <atomic>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "sweep/sweep_file.hpp"
#include "sweep/sweep_run.hpp"

namespace murmur::sweep {

enum class ErrorLevel { Off, Slow, Fast };  // FLAME GPU 2's: ignore, exit 1 at the end, stop at once

struct PoolOptions {
  std::filesystem::path dir;
  std::vector<std::string> dataDirs;
  int jobs = 1;              // runners in this process
  std::vector<int> devices;  // EGL devices of the gpu runs, spread over the runners (empty: the default)
  int threads = 0;           // cpu threads of this process, shared by its runners (0: all)
  bool force = false;
  ErrorLevel errors = ErrorLevel::Slow;
};

struct Progress {
  std::size_t total = 0, done = 0, failed = 0, running = 0;
  double elapsedSeconds = 0.0, leftSeconds = -1.0;  // -1: not known yet
};

struct PoolResult {
  std::size_t done = 0, failed = 0;
  bool stoppedOnError = false;  // errors = fast
};

// Runs `todo` (indices into plans) on this process's runners, calling `progress` (from any thread,
// one call at a time) as runs end. StopRequested once they have stopped when a signal asked.
PoolResult runLocal(const SweepFile& sweep, const Expansion& expansion, const std::vector<std::size_t>& todo,
                    const PoolOptions& options, const std::function<void(const Progress&)>& progress);

// An MPI job of more than one rank (mpirun, with a build that has MPI): this process's rank and
// size, after MPI_Init. Outside one: rank 0 of 1, and MPI is not touched.
class MpiJob {
 public:
  MpiJob();
  ~MpiJob();
  MpiJob(const MpiJob&) = delete;
  MpiJob& operator=(const MpiJob&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }
  // As runLocal, over every rank: rank 0 hands out `todo` and reports progress; the others ask it.
  PoolResult run(const SweepFile& sweep, const Expansion& expansion, const std::vector<std::size_t>& todo,
                 const PoolOptions& options, const std::function<void(const Progress&)>& progress);
  // Whether this build can join an MPI job.
  static bool available();

 private:
  int rank_ = 0, size_ = 1;
  bool initialized_ = false;
};

}  // namespace murmur::sweep

#pragma once
// Progress on stderr for the commands that can run long (run, compare, the headless demo,
// path --scen). On a terminal: a live line, once the work has lasted a second (short runs show
// none), redrawn at most five times a second, finished with a newline at the last step. Otherwise
// (a log file, CI, a batch job): a line of its own every 5% of the work, at most one per interval
// (MURMUR_PROGRESS_EVERY seconds, default 10) and at least one per six intervals, from the first
// interval on. Both give the time left at the rate so far.
#include <chrono>
#include <cstdint>
#include <string>

namespace murmur::app {

class ProgressBar {
 public:
  // unit names what is counted ("step", "scenario"). InputError for a bad MURMUR_PROGRESS_EVERY.
  explicit ProgressBar(std::uint64_t total, std::string unit = "step");

  // done of total units; detail follows the count (e.g. "12 frames").
  void update(std::uint64_t done, const std::string& detail = {});

  // Erases the terminal's line before other output to it; the next update draws it again below.
  void clear();

 private:
  // elapsed and left: seconds.
  void drawLive(std::uint64_t done, const std::string& detail, double left);
  void printLine(std::uint64_t done, const std::string& detail, double elapsed, double left);

  std::uint64_t total_;
  std::string unit_;
  bool terminal_;
  double interval_;  // seconds: the first live line, the least between two lines of a log
  bool drawn_ = false;
  std::uint64_t lastDone_ = 0;  // the count of the last line printed to a log
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace murmur::app

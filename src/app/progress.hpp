#pragma once
// A progress line on stderr for the commands that can run long (run, compare, the headless demo):
// only on a terminal, only once the work has lasted a second (short runs show none), redrawn at most
// five times a second, finished with a newline at the last step.
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace murmur::app {

class ProgressBar {
 public:
  explicit ProgressBar(std::uint64_t total)
      : total_(total), enabled_(isatty(STDERR_FILENO) != 0 && total > 0), last_(std::chrono::steady_clock::now()) {}

  // done of total steps; detail follows the step count (e.g. "12 frames").
  void update(std::uint64_t done, const std::string& detail = {}) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    // The first line after a second, then one every 200 ms; the last one only when a line is shown.
    const auto wait = drawn_ ? std::chrono::milliseconds(200) : std::chrono::milliseconds(1000);
    if (now - last_ < wait && (done < total_ || !drawn_)) return;
    last_ = now;
    drawn_ = true;
    constexpr std::uint64_t kWidth = 30;
    const std::uint64_t filled = kWidth * done / total_;
    std::fprintf(stderr, "\r[%s%s] step %llu/%llu%s%s", std::string(filled, '#').c_str(),
                 std::string(kWidth - filled, '.').c_str(), static_cast<unsigned long long>(done),
                 static_cast<unsigned long long>(total_), detail.empty() ? "" : ", ", detail.c_str());
    if (done == total_) std::fprintf(stderr, "\n");
  }

 private:
  std::uint64_t total_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace murmur::app

#pragma once
// A progress line on stderr for long runs (murmur run, the headless demo): only on a terminal,
// redrawn at most five times a second, finished with a newline at the last step.
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace murmur::app {

class ProgressBar {
 public:
  // Shown only when stderr is a terminal and total >= minTotal (short runs need none).
  explicit ProgressBar(std::uint64_t total, std::uint64_t minTotal = 1)
      : total_(total), enabled_(isatty(STDERR_FILENO) != 0 && total >= minTotal && total > 0) {}

  // done of total steps; detail follows the step count (e.g. "12 frames").
  void update(std::uint64_t done, const std::string& detail = {}) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (done < total_ && now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
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
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace murmur::app

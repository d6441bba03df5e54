#pragma once
// A progress line on stderr for the commands that can run long (run, compare, the headless demo,
// path --scen):
// only on a terminal, only once the work has lasted a second (short runs show none), redrawn at most
// five times a second, with the time left at the rate so far, finished with a newline at the last step.
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

namespace murmur::app {

class ProgressBar {
 public:
  // unit names what is counted ("step", "scenario").
  explicit ProgressBar(std::uint64_t total, std::string unit = "step")
      : total_(total),
        unit_(std::move(unit)),
        enabled_(isatty(STDERR_FILENO) != 0 && total > 0),
        start_(std::chrono::steady_clock::now()),
        last_(start_) {}

  // done of total units; detail follows the step count (e.g. "12 frames").
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
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const auto left = static_cast<unsigned long long>(
        done > 0 ? elapsed / double(done) * double(total_ - done) + 0.5 : 0.0);
    // Padded: a shorter redraw must cover the end of the longer one before it.
    std::fprintf(stderr, "\r[%s%s] %s %llu/%llu, %llu:%02llu left%s%s   ", std::string(filled, '#').c_str(),
                 std::string(kWidth - filled, '.').c_str(), unit_.c_str(),
                 static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_), left / 60,
                 left % 60, detail.empty() ? "" : ", ", detail.c_str());
    if (done == total_) std::fprintf(stderr, "\n");
  }

  // Erases the bar before other output to the terminal; the next update draws it again below.
  void clear() {
    if (!enabled_ || !drawn_) return;
    std::fprintf(stderr, "\r%*s\r", 80, "");
    last_ = start_;
  }

 private:
  std::uint64_t total_;
  std::string unit_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace murmur::app

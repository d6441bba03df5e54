#include "app/progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/parse_number.hpp"

namespace murmur::app {
namespace {

constexpr double kLiveFirstSeconds = 1.0;
constexpr double kLiveRedrawSeconds = 0.2;
constexpr double kLogEverySeconds = 10.0;   // MURMUR_PROGRESS_EVERY's default
constexpr double kLogShare = 0.05;          // of the work between two lines of a log
constexpr double kLogQuietIntervals = 6.0;  // the most intervals without a line

double logInterval() {
  const char* text = std::getenv("MURMUR_PROGRESS_EVERY");
  if (text == nullptr) return kLogEverySeconds;
  const std::optional<double> seconds = core::parseNumber<double>(text);
  if (!seconds || !(*seconds >= 0.0 && *seconds <= 86400.0))
    throw InputError("", 0, "MURMUR_PROGRESS_EVERY",
                     fmt::format("'{}' is not a number of seconds in [0, 86400]", text));
  return *seconds;
}

std::string clock(double seconds) {
  const auto whole = static_cast<unsigned long long>(seconds + 0.5);
  return whole >= 3600 ? fmt::format("{}:{:02}:{:02}", whole / 3600, whole / 60 % 60, whole % 60)
                       : fmt::format("{}:{:02}", whole / 60, whole % 60);
}

}  // namespace

ProgressBar::ProgressBar(std::uint64_t total, std::string unit)
    : total_(total),
      unit_(std::move(unit)),
      terminal_(isatty(STDERR_FILENO) != 0),
      interval_(terminal_ ? kLiveFirstSeconds : logInterval()),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

void ProgressBar::update(std::uint64_t done, const std::string& detail) {
  if (total_ == 0) return;
  const auto now = std::chrono::steady_clock::now();
  const double sinceLast = std::chrono::duration<double>(now - last_).count();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double left = done > 0 ? elapsed / double(done) * double(total_ - done) : 0.0;  // at the rate so far
  if (terminal_) {
    // The first line after a second, then one every 200 ms; the last one only when a line is shown.
    const double wait = drawn_ ? kLiveRedrawSeconds : interval_;
    if (sinceLast < wait && (done < total_ || !drawn_)) return;
    last_ = now;
    drawn_ = true;
    drawLive(done, detail, left);
    return;
  }
  const bool last = done == total_ && drawn_ && lastDone_ < total_;
  const bool moved = double(done - lastDone_) >= kLogShare * double(total_);
  if (!last && !(sinceLast >= interval_ && (moved || sinceLast >= kLogQuietIntervals * interval_))) return;
  last_ = now;
  drawn_ = true;
  lastDone_ = done;
  printLine(done, detail, elapsed, left);
}

void ProgressBar::clear() {
  if (!terminal_ || !drawn_) return;
  std::fprintf(stderr, "\r%*s\r", 80, "");
  last_ = start_;
}

void ProgressBar::drawLive(std::uint64_t done, const std::string& detail, double left) {
  constexpr std::uint64_t kWidth = 30;
  const std::uint64_t filled = kWidth * done / total_;
  // Padded: a shorter redraw must cover the end of the longer one before it.
  std::fprintf(stderr, "\r[%s%s] %s %llu/%llu, %s left%s%s   ", std::string(filled, '#').c_str(),
               std::string(kWidth - filled, '.').c_str(), unit_.c_str(),
               static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_),
               clock(left).c_str(), detail.empty() ? "" : ", ", detail.c_str());
  if (done == total_) std::fprintf(stderr, "\n");
}

void ProgressBar::printLine(std::uint64_t done, const std::string& detail, double elapsed, double left) {
  std::fprintf(stderr, "[progress] %s %llu/%llu (%.0f%%), %s elapsed, %s left%s%s\n", unit_.c_str(),
               static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_),
               100.0 * double(done) / double(total_), clock(elapsed).c_str(), clock(left).c_str(),
               detail.empty() ? "" : ", ", detail.c_str());
  std::fflush(stderr);
}

}  // namespace murmur::app

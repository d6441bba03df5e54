#pragma once
// GPU time per named stage from timestamp queries (GL_TIMESTAMP, glQueryCounter): a stage's begin
// and end stamps are recorded in the command stream and read back later, when the GPU has passed
// them, so timing never stalls the pipeline. poll() collects what is ready; resolve() waits for
// everything (benchmarks). Stages may not nest; a stage begun twice per frame adds up per sample.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/gl_objects.hpp"

namespace murmur::gpu {

struct StageTime {
  std::string name;
  double firstMs = 0.0;  // the first sample since reset(): on a GPU driver, with its programs' builds
  double lastMs = 0.0;   // the most recent sample
  double totalMs = 0.0;  // over every sample since reset()
  std::uint64_t samples = 0;
  // Ran more than once: laterMeanMs() has samples to average.
  bool repeated() const { return samples > 1; }
  // The mean of the samples after the first: a driver builds a program at its first dispatch
  // (hundreds of ms on NVIDIA's), inside whichever stage's stamps are open (docs/gpu.md, Timings).
  double laterMeanMs() const {
    return repeated() ? (totalMs - firstMs) / static_cast<double>(samples - 1) : 0.0;
  }
};

class GpuTimer {
 public:
  // timestampBits from ContextInfo; 0 (no timer queries) makes a timer that records nothing.
  explicit GpuTimer(int timestampBits);

  bool supported() const { return supported_; }
  void begin(std::string_view stage);
  void end();

  void poll();     // never waits
  void resolve();  // waits for every pending stamp
  void reset();    // forgets the samples (pending stamps still land, as new samples)

  // In the order the stages were first begun.
  const std::vector<StageTime>& stages() const { return stages_; }
  const StageTime* stage(std::string_view name) const;

 private:
  struct Stamps {
    Query begin;
    Query end;
  };
  struct Pending {
    std::size_t stage;
    std::size_t stamps;
  };
  std::size_t stageIndex(std::string_view name);
  std::size_t acquireStamps();
  void record(const Pending& pending);

  bool supported_;
  std::vector<StageTime> stages_;
  std::vector<Stamps> stamps_;     // every pair ever made (reused through free_)
  std::vector<std::size_t> free_;  // indices into stamps_
  std::vector<Pending> pending_;   // in submission order: they complete in that order
  std::size_t pendingHead_ = 0;    // pending_[0, pendingHead_) are done
  bool open_ = false;
  Pending current_{};
};

// A named stage: a debug group for tools and a timer stage, closed at scope end.
class StageScope {
 public:
  StageScope(GpuTimer& timer, std::string_view name) : group_(name), timer_(timer) { timer_.begin(name); }
  StageScope(const StageScope&) = delete;
  StageScope& operator=(const StageScope&) = delete;
  ~StageScope() { timer_.end(); }

 private:
  DebugGroup group_;
  GpuTimer& timer_;
};

}  // namespace murmur::gpu

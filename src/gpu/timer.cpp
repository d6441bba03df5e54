#include "gpu/timer.hpp"

#include <cassert>

namespace murmur::gpu {

GpuTimer::GpuTimer(int timestampBits) : supported_(timestampBits > 0) {}

std::size_t GpuTimer::stageIndex(std::string_view name) {
  for (std::size_t i = 0; i < stages_.size(); ++i)
    if (stages_[i].name == name) return i;
  stages_.push_back(StageTime{std::string(name)});
  return stages_.size() - 1;
}

std::size_t GpuTimer::acquireStamps() {
  if (!free_.empty()) {
    const std::size_t index = free_.back();
    free_.pop_back();
    return index;
  }
  stamps_.push_back(Stamps{Query("stage begin", GL_TIMESTAMP), Query("stage end", GL_TIMESTAMP)});
  return stamps_.size() - 1;
}

void GpuTimer::begin(std::string_view stage) {
  assert(!open_ && "GPU timer stages do not nest");
  if (!supported_) return;
  open_ = true;
  current_ = Pending{stageIndex(stage), acquireStamps()};
  glQueryCounter(stamps_[current_.stamps].begin.id(), GL_TIMESTAMP);
}

void GpuTimer::end() {
  if (!supported_) return;
  assert(open_);
  open_ = false;
  glQueryCounter(stamps_[current_.stamps].end.id(), GL_TIMESTAMP);
  pending_.push_back(current_);
}

void GpuTimer::record(const Pending& pending) {
  const Stamps& stamps = stamps_[pending.stamps];
  const std::uint64_t begin = stamps.begin.result();
  const std::uint64_t end = stamps.end.result();
  const double ms = end > begin ? static_cast<double>(end - begin) * 1e-6 : 0.0;
  StageTime& stage = stages_[pending.stage];
  if (stage.samples == 0) stage.firstMs = ms;
  stage.lastMs = ms;
  stage.totalMs += ms;
  ++stage.samples;
  free_.push_back(pending.stamps);
}

void GpuTimer::poll() {
  while (pendingHead_ < pending_.size() && stamps_[pending_[pendingHead_].stamps].end.available())
    record(pending_[pendingHead_++]);
  // Drop the done prefix now and then (the GPU may stay a few frames behind for good).
  if (pendingHead_ == pending_.size() || pendingHead_ >= 64) {
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(pendingHead_));
    pendingHead_ = 0;
  }
}

void GpuTimer::resolve() {
  while (pendingHead_ < pending_.size()) record(pending_[pendingHead_++]);
  pending_.clear();
  pendingHead_ = 0;
}

void GpuTimer::reset() {
  for (StageTime& stage : stages_) stage = StageTime{stage.name};
}

const StageTime* GpuTimer::stage(std::string_view name) const {
  for (const StageTime& s : stages_)
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace murmur::gpu

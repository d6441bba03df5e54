#include "render/boid_buffers.hpp"

#include <glm/geometric.hpp>

#include "gpu/flock_pipeline.hpp"

namespace murmur::render {

BoidBuffers boidBuffers(gpu::FlockPipeline& pipeline) {
  BoidBuffers buffers;
  buffers.slot = pipeline.slotBuffer().id();
  buffers.position = pipeline.positionBuffer().id();
  buffers.velocity = pipeline.drawnVelocityBuffer().id();
  if (buffers.velocity != pipeline.velocityBuffer().id()) buffers.motion = pipeline.velocityBuffer().id();
  if (const gpu::Buffer* banks = pipeline.bankBuffer()) buffers.bank = banks->id();
  buffers.groupSource = GroupSource::PositionW;
  buffers.leaders = true;
  buffers.count = static_cast<std::uint32_t>(pipeline.size());
  return buffers;
}

void HostBoidBuffers::upload(const sim::FlockState& state, sim::UnitModel units) {
  const std::size_t n = state.size();
  hasLeaders_ = state.leader.size() == n && n > 0;
  staging_.resize(n);
  for (std::size_t i = 0; i < n; ++i) staging_[i] = glm::vec4(state.position[i], float(state.group[i]));
  position_.write(std::span<const glm::vec4>(staging_));
  // With a stored heading (boids.turn_rate, the lab's units) a bird is drawn along it, at its speed.
  const bool stored = state.heading.size() == n;
  for (std::size_t i = 0; i < n; ++i)
    staging_[i] = glm::vec4(stored ? state.heading[i] * glm::length(state.velocity[i]) : state.velocity[i],
                            hasLeaders_ ? float(state.leader[i]) : 0.0f);
  velocity_.write(std::span<const glm::vec4>(staging_));
  hasMotion_ = stored;
  if (stored) {
    for (std::size_t i = 0; i < n; ++i) staging_[i] = glm::vec4(state.velocity[i], 0.0f);
    motion_.write(std::span<const glm::vec4>(staging_));
  }
  hasBank_ = units == sim::UnitModel::Starling && state.attitude.size() == n && n > 0;
  if (hasBank_) {
    for (std::size_t i = 0; i < n; ++i) staging_[i] = glm::vec4(0.0f, 0.0f, 0.0f, state.attitude[i]);
    bank_.write(std::span<const glm::vec4>(staging_));
  }
  count_ = static_cast<std::uint32_t>(n);
}

BoidBuffers HostBoidBuffers::buffers() const {
  BoidBuffers out;
  out.position = position_.id();
  out.velocity = velocity_.id();
  if (hasMotion_) out.motion = motion_.id();
  if (hasBank_) out.bank = bank_.id();
  out.groupSource = GroupSource::PositionW;
  out.leaders = hasLeaders_;
  out.count = count_;
  return out;
}

}  // namespace murmur::render

#include "render/boid_buffers.hpp"

#include <cassert>

namespace murmur::render {

void HostBoidBuffers::upload(const sim::FlockState& state, std::span<const std::uint32_t> flags) {
  assert(flags.empty() || flags.size() == state.size());
  const std::size_t n = state.size();
  staging_.resize(n);
  for (std::size_t i = 0; i < n; ++i) staging_[i] = glm::vec4(state.position[i], float(state.group[i]));
  position_.write(std::span<const glm::vec4>(staging_));
  for (std::size_t i = 0; i < n; ++i) staging_[i] = glm::vec4(state.velocity[i], 0.0f);
  velocity_.write(std::span<const glm::vec4>(staging_));
  hasFlags_ = !flags.empty();
  if (hasFlags_) flags_.write(flags);
  count_ = static_cast<std::uint32_t>(n);
}

BoidBuffers HostBoidBuffers::buffers() const {
  BoidBuffers out;
  out.position = position_.id();
  out.velocity = velocity_.id();
  out.groupSource = GroupSource::PositionW;
  out.flags = hasFlags_ ? flags_.id() : 0;
  out.count = count_;
  return out;
}

}  // namespace murmur::render

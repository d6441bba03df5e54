#pragma once
// The flock as the renderer reads it: GL storage buffers that the vertex shaders index by boid,
// with no copy through the CPU. The GPU backend hands over the buffers its compute pipeline writes;
// for the CPU backends HostBoidBuffers uploads the state into buffers of this layout each frame.
//
// Layout (std430, what shaders/render/Boids.glsl declares):
//   position  vec4[count]  xyz: position in world units; w: the group as a float (GroupSource::
//                          PositionW, the layout of gpu::FlockPipeline and HostBoidBuffers) or free
//   velocity  vec4[count]  xyz: velocity in units/s (the bird flies along it; with boids.turn_rate
//                          the stored heading at the velocity's speed); w: the leader flag
//                          (1.0: an emergent leader, marked as BoidStyle::leaderMark says; 0.0 not)
//                          when `leaders` is set, else free
//   group     uint[count]  the boid's group (GroupSource::Buffer); optional
// Groups are coloured by render::groupColour; without a source every boid is in group 0.
//   slot      uint[count]  by boid id: the element of the arrays above that holds the boid
//                          (gpu::FlockPipeline keeps its flock in cell order); optional: without
//                          it boid i is element i of every array
// The arrays agree on the order of boids (a pipeline that reorders positions into cell order must
// reorder groups alike); the slots keep the boids' own order for drawing (which of two birds at one
// depth shows), wing beats and samples. Each array starts at
// its byte offset in its buffer; offsets must be multiples of GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT
// (ping-pong halves of one buffer qualify when each half is).
#include <cstdint>
#include <vector>

#include <glad/gl.h>
#include <glm/vec4.hpp>

#include "gpu/dynamic_buffer.hpp"
#include "sim/flock.hpp"
#include "sim/params.hpp"

namespace murmur::gpu {
class FlockPipeline;
}  // namespace murmur::gpu

namespace murmur::render {

enum class GroupSource : std::uint32_t { None = 0, Buffer = 1, PositionW = 2 };

struct BoidBuffers {
  GLuint position = 0;
  GLintptr positionOffset = 0;  // bytes
  GLuint velocity = 0;
  GLintptr velocityOffset = 0;
  GroupSource groupSource = GroupSource::None;
  GLuint group = 0;  // with GroupSource::Buffer
  GLintptr groupOffset = 0;
  bool leaders = false;  // velocity.w holds the leader flag (else no boid is drawn as a leader)
  // The velocity a boid moves with (xyz, vec4[count]) where `velocity` draws it along a stored heading
  // (boids.turn_rate, the lab's units): what its trail and velocity line show. 0: `velocity` is it.
  GLuint motion = 0;
  GLintptr motionOffset = 0;
  // A starling's bank, radians, in w (vec4[count]: the GPU's headings): its wings drawn tilted. 0:
  // every bird drawn level.
  GLuint bank = 0;
  GLintptr bankOffset = 0;
  GLuint slot = 0;  // uint by boid id: its element in the arrays above; 0: boid i is element i
  std::uint32_t count = 0;
};

// The GPU pipeline's own storage buffers, drawn with no copy: positions with the group in w,
// velocities with the leader flag in w, in slot order, and the slot of each boid
// (gpu/flock_layout.hpp; records the pass that maps the slots when the flock moved since). Ask
// again after every step: a step moves the boids to other slots.
BoidBuffers boidBuffers(gpu::FlockPipeline& pipeline);

// Buffers of the layout above filled from a CPU flock (the demo's cpu backends, tests, benches):
// groups in position.w and leader flags in velocity.w, as the GPU pipeline keeps them.
class HostBoidBuffers {
 public:
  // Leaders from state.leader (none when it is empty); a starling's bank from state.attitude when
  // the units are starlings.
  void upload(const sim::FlockState& state, sim::UnitModel units = sim::UnitModel::Boids);
  BoidBuffers buffers() const;

 private:
  std::vector<glm::vec4> staging_;  // the vec3 arrays widened to vec4
  gpu::DynamicBuffer position_{"boid positions (uploaded)"};
  gpu::DynamicBuffer velocity_{"boid velocities (uploaded)"};
  gpu::DynamicBuffer motion_{"boid motions (uploaded)"};  // with stored headings only
  gpu::DynamicBuffer bank_{"boid banks (uploaded)"};      // starlings only
  bool hasMotion_ = false;
  bool hasBank_ = false;
  std::uint32_t count_ = 0;
  bool hasLeaders_ = false;
};

}  // namespace murmur::render

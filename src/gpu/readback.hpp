#pragma once
// Results the CPU reads without stalling the GPU: the GPU copies them into a persistently mapped
// buffer and a fence follows the copies; the CPU reads them later (a step or a frame on), by when
// the GPU has long passed the fence, so that the read costs no wait. Only a read while the GPU is
// still short of the fence waits, as a counted blocking wait (gpu::blockingWaitCount).
//
// One request at a time: begin() starts the next (replacing one never read: the GPU writes it after
// the old one, the CPU reads neither in between), copy() records its copies, end() its fence.
#include <cstddef>
#include <string>
#include <utility>

#include "gpu/gl_objects.hpp"

namespace murmur::gpu {

class Readback {
 public:
  // label: names every buffer it allocates (labelObject).
  explicit Readback(std::string label) : label_(std::move(label)) {}

  // A request of `bytes`. The buffer grows, half as large again, when it is too small (a request
  // not yet read is lost then; the new one replaces it anyway).
  void begin(std::size_t bytes);
  // Records a copy of `bytes` of source from sourceOffset to offset in the request (after the
  // writes to source: glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT) first).
  void copy(const Buffer& source, std::size_t sourceOffset, std::size_t offset, std::size_t bytes) const;
  // The fence after the request's copies.
  void end();

  // A request was made since the last read().
  bool pending() const { return pending_; }
  // The GPU has passed the request's fence: read() will not wait. Never waits.
  bool ready() const { return fence_.passed(); }
  // The request's bytes, valid until the next begin(); waits for the fence first when the GPU has
  // not passed it (a counted blocking wait). Then no longer pending.
  const std::byte* read();

 private:
  std::string label_;
  Buffer buffer_;
  const std::byte* mapped_ = nullptr;
  Fence fence_;
  bool pending_ = false;
};

}  // namespace murmur::gpu

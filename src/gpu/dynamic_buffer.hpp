#pragma once
// A GL buffer that grows on demand: immutable storage, reallocated half as large again when a size
// outgrows it (the contents are then lost), never shrunk, so that a size that creeps up reallocates
// rarely. The one growth rule of the buffers rewritten from the CPU (per-frame flock uploads, overlay
// geometry, the step inputs) and of the nearest-boids query's buffers.
#include <cstddef>
#include <span>
#include <string>
#include <utility>

#include "gpu/gl_objects.hpp"

namespace murmur::gpu {

class DynamicBuffer {
 public:
  // label: names every buffer it allocates (labelObject).
  explicit DynamicBuffer(std::string label) : label_(std::move(label)) {}

  // The buffer, at least `bytes` large.
  const Buffer& reserve(std::size_t bytes) {
    if (!buffer_ || buffer_.size() < bytes) buffer_ = Buffer(label_, bytes + bytes / 2);
    return buffer_;
  }
  template <class T>
  void write(std::span<const T> data) {
    reserve(data.size_bytes()).upload(data);
  }
  const Buffer& buffer() const { return buffer_; }
  GLuint id() const { return buffer_.id(); }

 private:
  std::string label_;
  Buffer buffer_;
};

}  // namespace murmur::gpu

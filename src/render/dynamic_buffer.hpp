#pragma once
// A GL buffer rewritten from the CPU whenever its contents change (per-frame flock uploads, overlay
// geometry): immutable storage reallocated, half as large again, when the data outgrows it.
#include <cstddef>
#include <span>
#include <string>
#include <utility>

#include "gpu/gl_objects.hpp"

namespace murmur::render {

class DynamicBuffer {
 public:
  // label: names every buffer it allocates (gpu::labelObject).
  explicit DynamicBuffer(std::string label) : label_(std::move(label)) {}

  template <class T>
  void write(std::span<const T> data) {
    reserve(data.size_bytes());
    buffer_.upload(data);
  }
  GLuint id() const { return buffer_.id(); }

 private:
  void reserve(std::size_t bytes) {
    if (buffer_ && buffer_.size() >= bytes) return;
    buffer_ = gpu::Buffer(label_, bytes + bytes / 2);
  }
  std::string label_;
  gpu::Buffer buffer_;
};

}  // namespace murmur::render

#include "gpu/readback.hpp"

#include <cassert>

namespace murmur::gpu {

void Readback::begin(std::size_t bytes) {
  if (!buffer_ || buffer_.size() < bytes) {
    const std::size_t size = bytes + bytes / 2;
    // GL_CLIENT_STORAGE_BIT: a hint to keep it in host memory, where the CPU reads it.
    buffer_ = Buffer(label_, size,
                     GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT | GL_CLIENT_STORAGE_BIT);
    mapped_ = buffer_.mapForReading();
  }
  pending_ = true;
}

void Readback::copy(const Buffer& source, std::size_t sourceOffset, std::size_t offset,
                    std::size_t bytes) const {
  if (bytes == 0) return;
  assert(offset + bytes <= buffer_.size());
  glCopyNamedBufferSubData(source.id(), buffer_.id(), static_cast<GLintptr>(sourceOffset),
                           static_cast<GLintptr>(offset), static_cast<GLsizeiptr>(bytes));
}

void Readback::end() {
  fence_ = Fence::afterRecordedWork();
}

const std::byte* Readback::read() {
  fence_.wait();
  pending_ = false;
  return mapped_;
}

}  // namespace murmur::gpu

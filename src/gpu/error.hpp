#pragma once
// Errors of the GPU library. Each what() starts with one line that says what failed and why, so
// that `murmur` can print it as is.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace murmur::gpu {

class GpuError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// No usable OpenGL context: no EGL library, no device, no OpenGL 4.3 core, no surfaceless support.
class ContextError : public GpuError {
 public:
  using GpuError::GpuError;
};

// A shader that does not load, compile or link. what() holds the driver's log with every location
// rewritten to the real file and line ("shaders/flock/Step.comp.glsl:42: error: ..."); file() and
// line() are those of the first error (line 0: no line, e.g. a link error).
class ShaderError : public GpuError {
 public:
  ShaderError(const std::string& message, std::string file, std::size_t line)
      : GpuError(message), file_(std::move(file)), line_(line) {}

  const std::string& file() const { return file_; }
  std::size_t line() const { return line_; }

 private:
  std::string file_;
  std::size_t line_;
};

// A flock the device cannot hold: more boids than a storage buffer may address
// (GL_MAX_SHADER_STORAGE_BLOCK_SIZE) or an allocation the driver refused (out of memory).
// It is bad input for the `murmur` command (exit code 2), not a bug.
class CapacityError : public GpuError {
 public:
  CapacityError(const std::string& message, std::uint64_t boids, std::uint64_t limit)
      : GpuError(message), boids_(boids), limit_(limit) {}

  std::uint64_t boids() const { return boids_; }
  // The largest boid count the device allows (0 when the limit is memory, not addressing).
  std::uint64_t limit() const { return limit_; }

 private:
  std::uint64_t boids_;
  std::uint64_t limit_;
};

}  // namespace murmur::gpu

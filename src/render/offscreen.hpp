#pragma once
// A framebuffer of any size to render into without a window: RGBA8 colour and 24-bit depth,
// multisampled when the device allows, resolved into a single-sample texture that is read back
// as rows top to bottom (the order of render::writePng).
#include <cstdint>
#include <vector>

#include "gpu/gl_objects.hpp"

namespace murmur::render {

// The owner of a renderbuffer (gl_objects.hpp has none; the offscreen target is its one user).
inline void deleteRenderbuffer(GLuint id) {
  glDeleteRenderbuffers(1, &id);
}
using Renderbuffer = gpu::GlName<deleteRenderbuffer>;

class OffscreenTarget {
 public:
  // samples: MSAA samples asked for, clamped to GL_MAX_SAMPLES (1: none). Throws gpu::GpuError
  // when the framebuffer cannot be made (size beyond GL_MAX_RENDERBUFFER_SIZE, out of memory).
  OffscreenTarget(int width, int height, int samples = 4);

  int width() const { return width_; }
  int height() const { return height_; }
  int samples() const { return samples_; }

  // Makes it the draw framebuffer.
  void bind() const;
  // Multisampled pixels into the colour texture (nothing to do with one sample).
  void resolve() const;
  // Resolves, then copies the colour texture to the bottom-left of `framebuffer` (0: the window).
  void present(GLuint framebuffer) const;
  // Resolves and reads the pixels: width * height * 4 bytes, rows top to bottom.
  std::vector<std::uint8_t> readRgba() const;

  GLuint colourTexture() const { return colour_.id(); }

 private:
  int width_;
  int height_;
  int samples_;
  gpu::Texture colour_;  // single sample: the resolved image
  gpu::Framebuffer resolved_{"offscreen resolved"};
  Renderbuffer msColour_;  // with samples > 1
  Renderbuffer depth_;
  gpu::Framebuffer drawn_{
      "offscreen drawn"};  // what bind() binds: the multisampled buffers, or colour_ itself
};

}  // namespace murmur::render

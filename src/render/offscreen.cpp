#include "render/offscreen.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>

#include "gpu/error.hpp"

namespace murmur::render {
namespace {

Renderbuffer makeRenderbuffer(std::string_view label, GLenum format, int width, int height, int samples) {
  GLuint id = 0;
  glCreateRenderbuffers(1, &id);
  Renderbuffer buffer(id);
  gpu::labelObject(GL_RENDERBUFFER, id, label);
  if (samples > 1)
    glNamedRenderbufferStorageMultisample(id, samples, format, width, height);
  else
    glNamedRenderbufferStorage(id, format, width, height);
  return buffer;
}

int supportedSamples(int asked) {
  GLint maxSamples = 1;
  glGetIntegerv(GL_MAX_SAMPLES, &maxSamples);
  return std::clamp(asked, 1, std::max(maxSamples, 1));
}

}  // namespace

OffscreenTarget::OffscreenTarget(int width, int height, int samples)
    : width_(width), height_(height), samples_(supportedSamples(samples)) {
  GLint maxSize = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &maxSize);
  if (width <= 0 || height <= 0 || width > maxSize || height > maxSize)
    throw gpu::GpuError("offscreen target " + std::to_string(width) + "x" + std::to_string(height) +
                        ": each side must be between 1 and " + std::to_string(maxSize) + " pixels");
  colour_ = gpu::Texture("offscreen colour", GL_RGBA8, width, height);
  resolved_.attach(GL_COLOR_ATTACHMENT0, colour_);
  depth_ = makeRenderbuffer("offscreen depth", GL_DEPTH_COMPONENT24, width, height, samples_);
  if (samples_ > 1) {
    msColour_ = makeRenderbuffer("offscreen multisampled colour", GL_RGBA8, width, height, samples_);
    glNamedFramebufferRenderbuffer(drawn_.id(), GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, msColour_.get());
  } else {
    drawn_.attach(GL_COLOR_ATTACHMENT0, colour_);
  }
  glNamedFramebufferRenderbuffer(drawn_.id(), GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_.get());
  if (!drawn_.complete() || !resolved_.complete() || gpu::takeGlError() == GL_OUT_OF_MEMORY)
    throw gpu::GpuError("offscreen target " + std::to_string(width) + "x" + std::to_string(height) +
                        " with " + std::to_string(samples_) +
                        " samples: the framebuffer is incomplete or out of memory");
}

void OffscreenTarget::bind() const {
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, drawn_.id());
}

void OffscreenTarget::resolve() const {
  if (samples_ <= 1) return;
  glBlitNamedFramebuffer(drawn_.id(), resolved_.id(), 0, 0, width_, height_, 0, 0, width_, height_,
                         GL_COLOR_BUFFER_BIT, GL_NEAREST);
}

void OffscreenTarget::present(GLuint framebuffer) const {
  resolve();
  glBlitNamedFramebuffer(resolved_.id(), framebuffer, 0, 0, width_, height_, 0, 0, width_, height_,
                         GL_COLOR_BUFFER_BIT, GL_NEAREST);
}

std::vector<std::uint8_t> OffscreenTarget::readRgba() const {
  resolve();
  const std::size_t row = std::size_t(width_) * 4;
  std::vector<std::uint8_t> bottomUp(row * std::size_t(height_));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  gpu::countBlockingWait();
  glGetTextureImage(colour_.id(), 0, GL_RGBA, GL_UNSIGNED_BYTE, GLsizei(bottomUp.size()), bottomUp.data());
  // GL's first row is the bottom one.
  std::vector<std::uint8_t> topDown(bottomUp.size());
  for (int y = 0; y < height_; ++y)
    std::memcpy(&topDown[std::size_t(y) * row], &bottomUp[std::size_t(height_ - 1 - y) * row], row);
  return topDown;
}

}  // namespace murmur::render

#pragma once
// For the render tests: a frame read back from an offscreen target (render::OffscreenTarget::readRgba:
// rows top to bottom) with its pixels as colours from 0 to 1, their hue, and the fixture that draws
// frames.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "gl_test_env.hpp"
#include "render/boid_buffers.hpp"
#include "render/camera.hpp"
#include "render/frame_renderer.hpp"
#include "render/offscreen.hpp"

namespace murmur::render {

struct Rgb {
  float r, g, b;
};

class Image {
 public:
  Image(std::vector<std::uint8_t> rgba, int width, int height)
      : rgba_(std::move(rgba)), width_(width), height_(height) {}
  Rgb at(int x, int y) const {
    if (x < 0 || y < 0 || x >= width_ || y >= height_)
      throw std::out_of_range("pixel " + std::to_string(x) + "," + std::to_string(y) +
                              " is outside the image");
    const std::size_t i = (std::size_t(y) * std::size_t(width_) + std::size_t(x)) * 4;
    return {rgba_[i] / 255.0f, rgba_[i + 1] / 255.0f, rgba_[i + 2] / 255.0f};
  }
  Rgb at(glm::vec2 pixel) const { return at(int(pixel.x), int(pixel.y)); }
  int width() const { return width_; }
  int height() const { return height_; }
  const std::vector<std::uint8_t>& bytes() const { return rgba_; }

 private:
  std::vector<std::uint8_t> rgba_;
  int width_;
  int height_;
};

// Hue in degrees: unchanged by shading that scales a colour or adds white to it.
inline float hue(glm::vec3 c) {
  const float hi = std::max({c.r, c.g, c.b}), lo = std::min({c.r, c.g, c.b});
  if (hi - lo < 1e-6f) return 0.0f;
  const float h = hi == c.r   ? (c.g - c.b) / (hi - lo)
                  : hi == c.g ? 2.0f + (c.b - c.r) / (hi - lo)
                              : 4.0f + (c.r - c.g) / (hi - lo);
  return std::fmod(60.0f * h + 360.0f, 360.0f);
}

// A frame renderer and an offscreen target of Width x Height (4x MSAA) to draw into, a flock uploaded
// from the CPU, a camera and the frame's options; a test fails when it raised a GL error.
template <int Width, int Height>
class FrameTest : public testing::Test {
 protected:
  void TearDown() override { EXPECT_EQ(test::glErrorCount(), errorsBefore_) << "GL errors during the test"; }
  // The target's pixels as drawn.
  Image read() const { return Image(target_.readRgba(), Width, Height); }

  std::size_t errorsBefore_ = test::glErrorCount();
  FrameRenderer renderer_{test::shaderLibrary()};
  OffscreenTarget target_{Width, Height, 4};
  HostBoidBuffers boids_;
  Camera camera_;
  FrameOptions options_;
};

}  // namespace murmur::render

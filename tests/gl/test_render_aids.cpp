// The flocking lab's visible aids on the offscreen target: the sampled boids' trails and vectors
// (render::BoidSamples, drawn from samples the GPU copied out of the boid buffers), the agents'
// trails and vectors in the overlay, and the player drawn as a craft pointing along its heading.
// Seen from straight above, orthographic: world x runs right, z down the screen.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include "gl_test_env.hpp"
#include "render/boid_buffers.hpp"
#include "render/camera.hpp"
#include "render/frame_renderer.hpp"
#include "render/offscreen.hpp"
#include "render/overlay.hpp"
#include "render/palette.hpp"
#include "render_image.hpp"

namespace murmur::render {
namespace {

constexpr int kWidth = 240;
constexpr int kHeight = 240;
constexpr float kDt = 0.1f;

// The pixels of `image` for which `shows` holds, within `radius` pixels of `centre` (by default: any).
std::size_t count(const Image& image, const std::function<bool(Rgb)>& shows,
                  glm::vec2 centre = glm::vec2(0.0f), float radius = 1e9f) {
  std::size_t n = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      if (glm::length(glm::vec2(float(x), float(y)) - centre) <= radius && shows(image.at(x, y))) ++n;
  return n;
}

// Coloured (not a grey) and of `colour`'s hue within 20 degrees: shading, the fog and blending over
// the light floor change the brightness and the saturation, hardly the hue.
bool near(Rgb pixel, glm::vec3 colour) {
  const glm::vec3 rgb(pixel.r, pixel.g, pixel.b);
  if (std::max({rgb.r, rgb.g, rgb.b}) - std::min({rgb.r, rgb.g, rgb.b}) < 0.12f) return false;
  const float d = std::abs(hue(rgb) - hue(colour));
  return std::min(d, 360.0f - d) < 20.0f;
}

// kForceColour: black, a dark grey through the fog and where a line one pixel wide straddles two
// columns (half of each covered), where nothing else in these frames is a dark grey.
bool black(Rgb pixel) {
  const float chroma = std::max({pixel.r, pixel.g, pixel.b}) - std::min({pixel.r, pixel.g, pixel.b});
  return chroma < 0.1f && 0.2126f * pixel.r + 0.7152f * pixel.g + 0.0722f * pixel.b < 0.5f;
}

// A flock moving along +x on rows z = -12, -4, 4, 12: boid i at (x, 0, z_i).
sim::FlockState row(float x, glm::vec3 velocity) {
  sim::FlockState state;
  state.resize(4);
  for (std::size_t i = 0; i < 4; ++i) {
    state.position[i] = glm::vec3(x, 0.0f, -12.0f + 8.0f * float(i));
    state.velocity[i] = velocity;
  }
  return state;
}

class RenderAidsTest : public FrameTest<kWidth, kHeight> {
 protected:
  RenderAidsTest() {
    camera_.setViewport(kWidth, kHeight);
    camera_.setOrthographic(true);
    camera_.setOrbit(glm::vec3(0.0f), 50.0f, 0.0f, glm::radians(90.0f));
    world_.worldMin = glm::vec3(-20.0f, -1.0f, -20.0f);
    world_.worldMax = glm::vec3(20.0f, 1.0f, 20.0f);
    camera_.frameBox(world_.worldMin, world_.worldMax);
    options_.overlay.box = options_.overlay.grid = false;
    options_.boids.size = 1.0f;
    options_.boids.minBirdPixels = 4.0f;
    options_.boids.colouring = BoidColouring::Group;
    options_.aids.trailEvery = 1;
    options_.aids.trailLength = 40;
    options_.aids.trailBoids = 4;
    options_.aids.vectorBoids = 4;
    renderer_.setOverlay(world_);
  }

  // Step `step` of the flock: its state uploaded, then sampled as the demo samples after a step.
  void stepTo(std::uint64_t step, const sim::FlockState& state) {
    boids_.upload(state);
    renderer_.sampleBoids(boids_.buffers(), step, kDt, options_);
  }
  Image render(const Overlay& overlay) {
    renderer_.setOverlay(overlay);
    target_.bind();
    renderer_.render(camera_, boids_.buffers(), options_);
    return read();
  }
  Image render() { return render(world_); }
  glm::vec2 pixel(glm::vec3 p) const { return *camera_.project(p); }

  Overlay world_;
};

// Four boids fly 20 units along +x, sampled every step: each leaves a trail in its group's colour
// behind it (amber: group 0), none ahead of it; switched off, or never sampled, none.
TEST_F(RenderAidsTest, SampledBoidsLeaveTrailsBehindThem) {
  options_.overlay.trails = true;
  for (std::uint64_t step = 0; step <= 20; ++step)
    stepTo(step, row(-15.0f + float(step), glm::vec3(10.0f, 0.0f, 0.0f)));
  const auto amber = [](Rgb p) { return near(p, groupColour(0)); };
  const Image shown = render();
  // Halfway along the trail of the boid on row z = -4, and as far ahead of it.
  const glm::vec2 behind = pixel(glm::vec3(-5.0f, 0.0f, -4.0f)), ahead = pixel(glm::vec3(15.0f, 0.0f, -4.0f));
  EXPECT_GE(count(shown, amber, behind, 2.0f), 2u) << "the trail behind the boid";
  EXPECT_EQ(count(shown, amber, ahead, 2.0f), 0u) << "nothing ahead of it";
  options_.overlay.trails = false;
  const Image hidden = render();
  EXPECT_EQ(count(hidden, amber, behind, 2.0f), 0u) << "trails switched off";
  // Four trails of 20 units (about 6 pixels a unit) against the boids alone.
  EXPECT_GT(count(shown, amber), count(hidden, amber) + 4 * 60)
      << count(shown, amber) << " vs " << count(hidden, amber);
}

// A boid that crosses a wrap world's seam (x = 20 to x = -20) leaves no line across the world.
TEST_F(RenderAidsTest, ATrailDoesNotCrossTheWorldAtAWrapSeam) {
  options_.overlay.trails = true;
  for (std::uint64_t step = 0; step <= 12; ++step) {
    float x = 12.0f + float(step);  // 12 .. 24, wrapped to -16 past 20
    if (x >= 20.0f) x -= 40.0f;
    stepTo(step, row(x, glm::vec3(10.0f, 0.0f, 0.0f)));
  }
  const Image shown = render();
  const auto amber = [](Rgb p) { return near(p, groupColour(0)); };
  EXPECT_GE(count(shown, amber, pixel(glm::vec3(16.0f, 0.0f, 4.0f)), 2.0f), 2u)
      << "the trail before the seam";
  EXPECT_EQ(count(shown, amber, pixel(glm::vec3(0.0f, 0.0f, 4.0f)), 3.0f), 0u) << "a line across the world";
}

// ShowVectors: each sampled boid's velocity in green along its flight, and once two steps are
// sampled, its steering force (the velocity's change over the step, here towards +z) in black.
TEST_F(RenderAidsTest, VectorsShowVelocityAndSteeringForce) {
  options_.overlay.vectors = true;
  options_.aids.velocityScale = 1.0f;  // a 6 units/s velocity: 6 units of line
  options_.aids.forceScale = 0.1f;     // 3 units/s over 0.1 s: 30 units/s^2, 3 units of line
  const auto green = [](Rgb p) { return near(p, kVelocityColour); };
  // Not at x = -10: on this camera a vertical line there runs along llvmpipe's tile edge (pixel 64),
  // where it rasterises no pixel.
  stepTo(1, row(-9.0f, glm::vec3(6.0f, 0.0f, 0.0f)));
  const Image first = render();
  const glm::vec3 boid(-9.0f, 0.0f, -4.0f);
  EXPECT_GE(count(first, green, pixel(boid + glm::vec3(4.0f, 0.0f, 0.0f)), 2.0f), 2u) << "the velocity";
  EXPECT_EQ(count(first, black), 0u) << "no force before a second step";

  stepTo(2, row(-9.0f, glm::vec3(6.0f, 0.0f, 3.0f)));
  const Image second = render();
  EXPECT_GE(count(second, black, pixel(boid + glm::vec3(0.0f, 0.0f, 2.0f)), 2.0f), 2u)
      << "the force towards +z";
  EXPECT_EQ(count(second, black, pixel(boid - glm::vec3(0.0f, 0.0f, 2.0f)), 2.0f), 0u) << "not away from it";
  EXPECT_GT(count(second, black), 4u * 10u) << "four force lines";
  EXPECT_GT(count(second, green), 4u * 15u) << "four velocity lines";
  options_.overlay.vectors = false;
  const Image hidden = render();
  EXPECT_EQ(count(hidden, black), 0u);
  EXPECT_EQ(count(hidden, green), 0u);
}

// With stored headings (boids.turn_rate, the lab's units) a bird is drawn along its heading but
// moves with its velocity: the velocity line follows the motion (+x here), not the heading (+z).
TEST_F(RenderAidsTest, VectorsFollowTheMotionWhereTheHeadingIsStored) {
  options_.overlay.vectors = true;
  options_.aids.velocityScale = 1.0f;
  const auto green = [](Rgb p) { return near(p, kVelocityColour); };
  sim::FlockState sliding = row(-9.0f, glm::vec3(6.0f, 0.0f, 0.0f));
  sliding.heading.assign(sliding.size(), glm::vec3(0.0f, 0.0f, 1.0f));
  stepTo(1, sliding);
  EXPECT_NE(boids_.buffers().motion, 0u);
  const Image image = render();
  const glm::vec3 boid(-9.0f, 0.0f, -4.0f);
  EXPECT_GE(count(image, green, pixel(boid + glm::vec3(4.0f, 0.0f, 0.0f)), 2.0f), 2u) << "along the motion";
  EXPECT_EQ(count(image, green, pixel(boid + glm::vec3(0.0f, 0.0f, 3.0f)), 1.5f), 0u)
      << "not along the heading";
}

// The agents' trails and vectors come with the overlay and switch with the same options.
TEST_F(RenderAidsTest, AgentTrailsAndVectorsSwitchWithTheOptions) {
  Overlay overlay = world_;
  overlay.trails.push_back({{glm::vec3(0.0f, 0.0f, 8.0f), glm::vec3(-15.0f, 0.0f, 8.0f)}, kChaserColour});
  overlay.vectors.push_back({{glm::vec3(-9.0f, 0.0f, -8.0f), glm::vec3(-9.0f, 0.0f, -16.0f)}, kForceColour});
  const auto blue = [](Rgb p) { return near(p, kChaserColour); };
  const Image off = render(overlay);
  EXPECT_EQ(count(off, blue), 0u);
  EXPECT_EQ(count(off, black), 0u);
  options_.overlay.trails = options_.overlay.vectors = true;
  const Image on = render(overlay);
  EXPECT_GE(count(on, blue, pixel(glm::vec3(-4.0f, 0.0f, 8.0f)), 2.0f), 2u);
  EXPECT_GE(count(on, black, pixel(glm::vec3(-9.0f, 0.0f, -12.0f)), 2.0f), 2u);
}

// The player is a green craft whose pointed bow lies along its heading: across the heading the
// craft is narrow a little behind its tip and full width as far behind its centre.
TEST_F(RenderAidsTest, ThePlayersCraftPointsAlongItsHeading) {
  const auto green = [](Rgb p) { return near(p, kPlayerColour); };
  for (const glm::vec3 heading : {glm::vec3(1.0f, 0.0f, 0.0f), glm::vec3(-1.0f, 0.0f, 0.0f),
                                  glm::vec3(0.0f, 0.0f, 1.0f), glm::vec3(0.6f, 0.0f, -0.8f)}) {
    Overlay overlay = world_;
    const glm::vec3 centre(2.0f, 0.0f, -3.0f);
    overlay.agents.push_back({centre, AgentKind::Player, 0, heading});
    const float length = 2.4f * markerSize(overlay);  // the craft's length (render/overlay.cpp)
    camera_.setOrbit(centre, 3.0f * length, 0.0f,
                     glm::radians(90.0f));  // closer: the craft fills a third of the view
    const Image image = render(overlay);
    const glm::vec2 c = pixel(centre);
    const glm::vec2 along = pixel(centre + heading * length) - c;  // the craft's length on screen
    std::size_t front = 0, back = 0, all = 0;
    for (int y = 0; y < kHeight; ++y)
      for (int x = 0; x < kWidth; ++x) {
        if (!green(image.at(x, y))) continue;
        ++all;
        const float t = glm::dot(glm::vec2(float(x), float(y)) - c, along) / glm::dot(along, along);
        if (t > 0.3f && t < 0.4f) ++front;
        if (t < -0.3f && t > -0.4f) ++back;
      }
    EXPECT_GT(all, 500u) << "heading " << heading.x << "," << heading.z;
    EXPECT_LT(float(front), 0.6f * float(back))
        << "heading " << heading.x << "," << heading.z << ": " << front << " pixels near the bow, " << back
        << " near the stern";
  }
}

}  // namespace
}  // namespace murmur::render

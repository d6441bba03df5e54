// The renderer on the offscreen target: boids appear at the pixel the camera projects them to, in
// their group's colour; empty space keeps the sky; obstacles show where projected; moving the
// camera moves them as the projection says. Small targets keep it fast on llvmpipe.
#include <gtest/gtest.h>

#include <cstdio>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include "gl_test_env.hpp"
#include "gpu/error.hpp"
#include "gpu/flock_pipeline.hpp"
#include "render/boid_buffers.hpp"
#include "render/boid_renderer.hpp"
#include "render/camera.hpp"
#include "render/frame_renderer.hpp"
#include "render/offscreen.hpp"
#include "render/overlay.hpp"
#include "render/palette.hpp"
#include "render/view_uniforms.hpp"
#include "render_image.hpp"
#include "sim/builders.hpp"

namespace murmur::render {
namespace {

constexpr int kWidth = 192;
constexpr int kHeight = 144;

float difference(Rgb a, Rgb b) {
  return std::abs(a.r - b.r) + std::abs(a.g - b.g) + std::abs(a.b - b.b);
}

// The palette entry of the nearest hue.
std::uint32_t nearestGroup(Rgb pixel) {
  const float seen = hue(glm::vec3(pixel.r, pixel.g, pixel.b));
  std::uint32_t best = 0;
  float bestDistance = std::numeric_limits<float>::max();
  for (std::uint32_t g = 0; g < kGroupPalette.size(); ++g) {
    const float d = std::abs(seen - hue(kGroupPalette[g]));
    const float around = std::min(d, 360.0f - d);
    if (around < bestDistance) bestDistance = around, best = g;
  }
  return best;
}

// Grey-ness: 0 for a grey, larger for saturated colours.
float luminance(Rgb c) {
  return 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b;
}

float chroma(Rgb c) {
  return std::max({c.r, c.g, c.b}) - std::min({c.r, c.g, c.b});
}

sim::FlockState flock(std::vector<glm::vec3> positions, std::vector<std::uint32_t> groups) {
  sim::FlockState state;
  state.resize(positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i) {
    state.position[i] = positions[i];
    state.velocity[i] = glm::vec3(5.0f, 0.0f, 0.0f);  // across the view: the bird is seen from the side
    state.group[i] = groups[i];
    state.groups = std::max(state.groups, groups[i] + 1);
  }
  return state;
}

class RenderTest : public FrameTest<kWidth, kHeight> {
 protected:
  RenderTest() {
    camera_.setViewport(kWidth, kHeight);
    camera_.setOrbit(glm::vec3(0.0f), 40.0f, 0.3f, 0.45f);
    options_.boids.size = 6.0f;
    options_.overlay.box = options_.overlay.grid = false;  // lines would cross the pixels looked at
  }

  Image render(const sim::FlockState& state, const Overlay& overlay = {}) {
    renderer_.setOverlay(overlay);
    boids_.upload(state);
    target_.bind();
    renderer_.render(camera_, boids_.buffers(), options_);
    return read();
  }
};

TEST_F(RenderTest, BoidAppearsAtItsProjectedPixelInItsGroupColour) {
  const glm::vec3 a(-8.0f, 0.0f, 0.0f), b(8.0f, 2.0f, -3.0f);
  const Image image = render(flock({a, b}, {0, 2}));
  const Image empty = render(flock({}, {}));
  for (const auto& [position, group] : {std::pair{a, 0u}, std::pair{b, 2u}}) {
    const glm::vec2 pixel = *camera_.project(position);
    ASSERT_TRUE(pixel.x >= 0 && pixel.x < kWidth && pixel.y >= 0 && pixel.y < kHeight);
    const Rgb seen = image.at(pixel);
    EXPECT_GT(difference(seen, empty.at(pixel)), 0.3f)
        << "group " << group << " at " << pixel.x << "," << pixel.y;
    EXPECT_EQ(nearestGroup(seen), group) << seen.r << " " << seen.g << " " << seen.b;
  }
}

// Heading: the hue turns with the direction of flight (same group, opposite directions: hues far
// apart); speed: a slow boid is blue, a fast one yellow.
TEST_F(RenderTest, HeadingAndSpeedColouring) {
  const glm::vec3 a(-8.0f, 0.0f, 0.0f), b(8.0f, 0.0f, 0.0f);
  sim::FlockState state = flock({a, b}, {0, 0});
  state.velocity[0] = glm::vec3(0.0f, 0.0f, 5.0f);
  state.velocity[1] = glm::vec3(0.0f, 0.0f, -9.0f);
  options_.boids.colouring = BoidColouring::Heading;
  Image image = render(state);
  const float hueA = hue(glm::vec3(image.at(*camera_.project(a)).r, image.at(*camera_.project(a)).g,
                                   image.at(*camera_.project(a)).b));
  const float hueB = hue(glm::vec3(image.at(*camera_.project(b)).r, image.at(*camera_.project(b)).g,
                                   image.at(*camera_.project(b)).b));
  const float apart = std::min(std::abs(hueA - hueB), 360.0f - std::abs(hueA - hueB));
  EXPECT_GT(apart, 120.0f) << hueA << " " << hueB;

  options_.boids.colouring = BoidColouring::Speed;
  options_.boids.speedLow = 5.0f;
  options_.boids.speedHigh = 9.0f;
  image = render(state);
  const Rgb slow = image.at(*camera_.project(a)), fast = image.at(*camera_.project(b));
  EXPECT_GT(slow.b, slow.r) << "slow is blue";
  EXPECT_GT(fast.r, fast.b) << "fast is yellow";
  EXPECT_GT(fast.g, fast.b);
}

TEST_F(RenderTest, EmptySpaceKeepsTheBackground) {
  const glm::vec3 position(0.0f, 0.0f, 0.0f);
  const Image image = render(flock({position}, {1}));
  const Image empty = render(flock({}, {}));
  const glm::vec2 boid = *camera_.project(position);
  int changed = 0;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x)
      if (glm::length(glm::vec2(x, y) - boid) > 20.0f && difference(image.at(x, y), empty.at(x, y)) > 0.0f)
        ++changed;
  EXPECT_EQ(changed, 0) << "pixels far from the boid differ from the empty frame";
  // And the background is a sky: bluish.
  const Rgb top = empty.at(kWidth / 2, 0);
  EXPECT_GT(top.b, top.r + 0.05f);
}

TEST_F(RenderTest, ObstacleIsVisibleWhereProjected) {
  Overlay overlay;
  overlay.obstacles.push_back({glm::vec3(-5.0f, -3.0f, -6.0f), 4.0f});
  const Image image = render(flock({}, {}), overlay);
  const Image empty = render(flock({}, {}));
  const glm::vec2 pixel = *camera_.project(overlay.obstacles[0].center);
  const Rgb seen = image.at(pixel);
  const Rgb sky = empty.at(pixel);
  EXPECT_GT(difference(seen, sky), 0.2f);
  EXPECT_GT(seen.r, seen.b) << "obstacles are a warm stone";
  EXPECT_LT(sky.r, sky.b) << "in a cool sky";
  // Far away from it, nothing changed.
  EXPECT_EQ(difference(image.at(2, kHeight - 3), empty.at(2, kHeight - 3)), 0.0f);
}

TEST_F(RenderTest, CameraChangeMovesBoidsAsTheProjectionSays) {
  const glm::vec3 position(10.0f, 2.0f, 3.0f);
  const sim::FlockState state = flock({position}, {3});
  const glm::vec2 before = *camera_.project(position);
  const Image first = render(state);
  camera_.orbit(0.8f, 0.25f);
  camera_.zoom(0.7f);
  camera_.pan(glm::vec2(45.0f, -30.0f));
  const glm::vec2 after = *camera_.project(position);
  ASSERT_GT(glm::length(after - before), 40.0f) << "the camera change must move the boid on screen";
  const Image second = render(state);
  const Image empty = render(flock({}, {}));
  EXPECT_EQ(nearestGroup(first.at(before)), 3u);
  EXPECT_EQ(nearestGroup(second.at(after)), 3u);
  EXPECT_GT(difference(second.at(after), empty.at(after)), 0.3f);
  EXPECT_EQ(difference(second.at(before), empty.at(before)), 0.0f) << "the old pixel shows the sky again";
}

TEST_F(RenderTest, PointModeDrawsEachBoidAtItsProjectedPixel) {
  options_.boids.shape = BoidShape::Points;
  options_.boids.size = 3.0f;
  const glm::vec3 a(-6.0f, 0.0f, 4.0f), b(5.0f, -2.0f, -4.0f);
  const Image image = render(flock({a, b}, {0, 1}));
  EXPECT_EQ(nearestGroup(image.at(*camera_.project(a))), 0u);
  EXPECT_EQ(nearestGroup(image.at(*camera_.project(b))), 1u);
}

// Silhouette points are translucent by the bird's coverage of its disc, so density shows: one far
// bird (half the disc's width) only tints the sky; twenty along the same line of sight darken
// it well past that, the more the darker; coloured points stay opaque.
TEST_F(RenderTest, SilhouettePointsDarkenWithTheBirdsBehindEachOther) {
  options_.boids.shape = BoidShape::Points;
  options_.boids.colouring = BoidColouring::Silhouette;
  // Half the 3-pixel disc wide: a bird covers 0.35 x 0.5^2 of it, darkening the sky behind by 9%.
  options_.boids.size = 1.5f * camera_.distance() / camera_.pixelsPerUnit();
  options_.atmosphere.sky = Sky::Dusk;
  const glm::vec3 at(0.0f, 0.0f, 0.0f);
  const glm::vec2 pixel = *camera_.project(at);
  const auto stack = [&](int birds) {
    std::vector<glm::vec3> positions;
    for (int k = 0; k < birds; ++k) positions.push_back(at - 0.01f * float(k) * camera_.forward());
    return luminance(render(flock(positions, std::vector<std::uint32_t>(positions.size(), 0))).at(pixel));
  };
  const float sky = stack(0), one = stack(1), five = stack(5), twenty = stack(20);
  EXPECT_GT(one, 0.8f * sky) << "a far bird only tints the sky";
  EXPECT_LT(one, sky);
  EXPECT_LT(five, one - 0.02f);
  EXPECT_LT(twenty, five - 0.02f);
  EXPECT_LT(twenty, 0.6f * sky) << "a dense line of sight is dark";
  options_.boids.colouring = BoidColouring::Group;
  EXPECT_EQ(nearestGroup(render(flock({at}, {2})).at(pixel)), 2u) << "a coloured point is opaque";
}

// A deep flock of silhouette points drawn whole is black wherever it lies, its density lost: three
// patches against the sky, with 1, 4 and 16 times the birds per area (the lightest alone deep
// enough to let through under 1% of the sky), come out the same near black. Drawn at the share
// silhouettePointShare gives (a share of the boids, each as dark as before), the densest is dark
// and the others lighter the fewer birds they hold. The share halves with twice the boids behind
// the same sample, and birds or coloured points are all drawn.
TEST_F(RenderTest, SilhouettePointsOfADeepFlockShowItsDensity) {
  // Looking level at the horizon's glow, without perspective: x right and y up on screen.
  camera_.setOrbit(glm::vec3(0.0f), 100.0f, 0.0f, 0.0f);
  camera_.setOrthographic(true);
  options_.boids.shape = BoidShape::Points;
  options_.boids.colouring = BoidColouring::Silhouette;
  options_.atmosphere.sky = Sky::Dusk;
  const float unitsPerPixel = 1.0f / camera_.pixelsPerUnitAtDepthOne();
  options_.boids.size = 3.0f * unitsPerPixel;  // the smallest point: a bird covers 0.35 of its disc
  // Patches 40 pixels square side by side across the middle of the screen, 10 units deep.
  const int patchPixels = 40;
  const std::array<int, 3> density{1, 4, 16};
  std::vector<glm::vec3> positions;
  std::uint32_t seed = 12345;
  const auto uniform = [&seed] {
    seed = seed * 1664525u + 1013904223u;
    return float(seed >> 8) / 16777216.0f - 0.5f;
  };
  const auto middleOf = [&](int patch) {
    return glm::vec3(float((patch - 1) * patchPixels) * unitsPerPixel, 0.0f, 0.0f);
  };
  for (int patch = 0; patch < 3; ++patch) {
    // 1.7 birds a pixel at the lightest: a depth of 1.7 x -ln(1 - 0.35) x the disc's 7.07 pixels = 5.2.
    const int birds = int(1.7f * float(patchPixels * patchPixels) * float(density[std::size_t(patch)]));
    for (int i = 0; i < birds; ++i)
      positions.push_back(middleOf(patch) + glm::vec3(uniform() * float(patchPixels) * unitsPerPixel,
                                                      uniform() * float(patchPixels) * unitsPerPixel,
                                                      10.0f * uniform()));
  }
  const sim::FlockState state = flock(positions, std::vector<std::uint32_t>(positions.size(), 0));
  const Image sky = render(flock({}, {}));
  const Image whole = render(state);
  // The mean luminance of a patch's middle 20 x 20 pixels, from the birds' own (0: the whole flock's
  // densest patch) to the sky's (1): the share of the sky that shows through.
  const auto mean = [&](const Image& image, int patch) {
    const glm::vec2 centre = *camera_.project(middleOf(patch));
    double sum = 0.0;
    for (int y = -10; y < 10; ++y)
      for (int x = -10; x < 10; ++x) sum += luminance(image.at(centre + glm::vec2(x, y)));
    return sum / 400.0;
  };
  const double birdLevel = mean(whole, 2);
  const auto skyShown = [&](const Image& image, int patch) {
    return (mean(image, patch) - birdLevel) / (mean(sky, patch) - birdLevel);
  };
  ASSERT_LT(birdLevel, 0.5 * mean(sky, 2));
  for (int patch = 0; patch < 2; ++patch)
    EXPECT_LT(skyShown(whole, patch), 0.06) << "drawn whole, patch " << patch;

  const float share = silhouettePointShare(camera_, positions, positions.size(), options_.boids);
  // The densest patch holds about a third of the patches the sample reaches (15% of which are
  // darker than kPointDepthTarget): its depth, 16 x 5.2, brought to 2.5.
  EXPECT_GT(share, 0.7f * kPointDepthTarget / (16.0f * 5.2f));
  EXPECT_LT(share, 1.3f * kPointDepthTarget / (16.0f * 5.2f));
  EXPECT_FLOAT_EQ(silhouettePointShare(camera_, positions, 2 * positions.size(), options_.boids),
                  0.5f * share);
  options_.boids.pointShare = share;
  const Image shared = render(state);
  const double light = skyShown(shared, 0), middle = skyShown(shared, 1), dark = skyShown(shared, 2);
  EXPECT_LT(dark, 0.3) << "the densest patch is dark";
  EXPECT_GT(middle, dark + 0.2);
  EXPECT_GT(light, middle + 0.2);
  EXPECT_GT(light, 0.7) << "the lightest lets most of the sky through";

  for (const BoidStyle& other : {BoidStyle{.shape = BoidShape::Birds, .colouring = BoidColouring::Silhouette},
                                 BoidStyle{.shape = BoidShape::Points, .colouring = BoidColouring::Group}})
    EXPECT_EQ(silhouettePointShare(camera_, positions, positions.size(), other), 1.0f);
  EXPECT_EQ(silhouettePointShare(camera_, {}, positions.size(), options_.boids), 1.0f);
}

// By group, a leader is red (LeaderMark::Red, the lab's) or its group's colour lit up
// (LeaderMark::Light); by heading it is lit up whatever the mark.
TEST_F(RenderTest, LeadersAreMarkedInRedOrLighterAsTheStyleSays) {
  const glm::vec3 leader(-6.0f, 0.0f, 0.0f), follower(6.0f, 0.0f, 0.0f);
  sim::FlockState state = flock({leader, follower}, {1, 1});
  state.leader = {1, 0};
  renderer_.setOverlay({});
  const auto draw = [&] {
    boids_.upload(state);
    target_.bind();
    renderer_.render(camera_, boids_.buffers(), options_);
    return read();
  };
  options_.boids.colouring = BoidColouring::Group;
  options_.boids.leaderMark = LeaderMark::Red;
  const Image byGroup = draw();
  const Rgb l = byGroup.at(*camera_.project(leader)), f = byGroup.at(*camera_.project(follower));
  EXPECT_EQ(nearestGroup(f), 1u) << "a follower in its group's blue";
  EXPECT_GT(l.r, 2.0f * l.b) << "a leader in red: " << l.r << " " << l.g << " " << l.b;
  EXPECT_GT(l.r, 2.0f * l.g);
  options_.boids.leaderMark = LeaderMark::Light;
  const Image lit = draw();
  const Rgb litLeader = lit.at(*camera_.project(leader)), litFollower = lit.at(*camera_.project(follower));
  EXPECT_LT(litLeader.r, litLeader.b) << "a lit-up leader keeps its group's blue, no red: " << litLeader.r
                                      << " " << litLeader.g << " " << litLeader.b;
  EXPECT_LT(chroma(litLeader), chroma(litFollower)) << "and is lighter than its follower";
  options_.boids.colouring = BoidColouring::Heading;
  const Image byHeading = draw();
  EXPECT_LT(chroma(byHeading.at(*camera_.project(leader))), chroma(byHeading.at(*camera_.project(follower))))
      << "by heading, a leader's colour is pushed towards white";
}

// The dusk sky (Sky::Dusk) is warm at the top of this view, near the horizon, where the day's is a
// pale blue; silhouettes are near black against it and a silhouette leader is a grey, not a colour.
TEST_F(RenderTest, DuskSkyAndSilhouettes) {
  const Image day = render(flock({}, {}));
  options_.atmosphere.sky = Sky::Dusk;
  const Image dusk = render(flock({}, {}));
  const Rgb dayTop = day.at(kWidth / 2, 0), duskTop = dusk.at(kWidth / 2, 0);
  EXPECT_GT(dayTop.b, dayTop.r) << dayTop.r << " " << dayTop.g << " " << dayTop.b;
  EXPECT_GT(duskTop.r, duskTop.b + 0.1f) << duskTop.r << " " << duskTop.g << " " << duskTop.b;

  const glm::vec3 follower(-6.0f, 0.0f, 0.0f), leader(6.0f, 0.0f, 0.0f);
  sim::FlockState state = flock({follower, leader}, {0, 0});
  state.leader = {0, 1};
  options_.boids.colouring = BoidColouring::Silhouette;
  const Image birds = render(state);
  const Rgb f = birds.at(*camera_.project(follower)), l = birds.at(*camera_.project(leader));
  const Rgb behind = dusk.at(*camera_.project(follower));
  EXPECT_LT(luminance(f), 0.15f) << f.r << " " << f.g << " " << f.b;
  EXPECT_LT(luminance(f), luminance(behind) - 0.2f) << "dark against the dusk";
  EXPECT_GT(luminance(l), luminance(f) + 0.04f) << "a leader lighter";
  EXPECT_LT(chroma(l), 0.1f) << "and grey: " << l.r << " " << l.g << " " << l.b;
}

// The dusk sky from the horizon up to 0.6 of the zenith's elevation: warm low down, blue high up,
// and no muddy brown between them (a straight mix of the orange horizon and the navy zenith
// passes through brown; the sky goes through a dusky rose instead). Seen from below the horizon,
// looking up, one column in the middle of the frame.
TEST_F(RenderTest, TheDuskSkyTurnsFromOrangeToBlueWithoutABrownBand) {
  options_.atmosphere.sky = Sky::Dusk;
  camera_.setOrbit(glm::vec3(0.0f, 10.0f, 0.0f), 40.0f, 0.3f, -0.35f);
  const Image sky = render(flock({}, {}));
  std::size_t brown = 0, rows = 0;
  for (int y = 0; y < kHeight; ++y) {
    const Rgb p = sky.at(kWidth / 2, y);
    const float h = hue(glm::vec3(p.r, p.g, p.b));
    ++rows;
    // Brown: an orange-red hue, dull and not bright.
    if (h > 2.0f && h < 50.0f && chroma(p) < 0.25f && luminance(p) < 0.6f) ++brown;
  }
  const Rgb top = sky.at(kWidth / 2, 0), bottom = sky.at(kWidth / 2, kHeight - 1);
  std::printf("dusk column: %zu of %zu rows brown; top %.2f %.2f %.2f, bottom %.2f %.2f %.2f\n", brown, rows,
              top.r, top.g, top.b, bottom.r, bottom.g, bottom.b);
  EXPECT_GT(top.b, top.r) << "blue high up";
  EXPECT_GT(bottom.r, bottom.b) << "warm low down";
  EXPECT_EQ(brown, 0u);
}

TEST_F(RenderTest, GroupsAreDrawnInTheFramesPalette) {
  const glm::vec3 chaser(-6.0f, 0.0f, 0.0f), interceptor(6.0f, 0.0f, 0.0f);
  options_.palette[0] = kChaserColour;
  options_.palette[1] = kInterceptorColour;
  const Image image = render(flock({chaser, interceptor}, {0, 1}));
  const auto hueDistance = [](Rgb pixel, glm::vec3 colour) {
    const float d = std::abs(hue(glm::vec3(pixel.r, pixel.g, pixel.b)) - hue(colour));
    return std::min(d, 360.0f - d);
  };
  EXPECT_LT(hueDistance(image.at(*camera_.project(chaser)), kChaserColour), 15.0f) << "chasers blue";
  EXPECT_LT(hueDistance(image.at(*camera_.project(interceptor)), kInterceptorColour), 15.0f)
      << "interceptors magenta";
}

TEST_F(RenderTest, OverlayMarkersAndLinesAreDrawn) {
  Overlay overlay;
  overlay.worldMin = glm::vec3(-15.0f);
  overlay.worldMax = glm::vec3(15.0f);
  overlay.goals.push_back({glm::vec3(-6.0f, 4.0f, 0.0f), 1});
  overlay.predators.push_back(glm::vec3(6.0f, 4.0f, 0.0f));
  overlay.paths.push_back(
      {{glm::vec3(-10.0f, -5.0f, 5.0f), glm::vec3(10.0f, -5.0f, 5.0f)}, glm::vec3(1.0f, 0.0f, 1.0f)});
  overlay.walls.push_back({glm::vec3(-2.0f, -15.0f, -12.0f), glm::vec3(2.0f, -6.0f, -8.0f)});
  overlay.agents.push_back({glm::vec3(0.0f, 8.0f, 0.0f), AgentKind::Leader, 3});
  options_.overlay.box = true;
  const Image image = render(flock({}, {}), overlay);
  const Image empty = render(flock({}, {}));
  EXPECT_EQ(nearestGroup(image.at(*camera_.project(overlay.goals[0].position))), 1u);
  const glm::vec3 wall = 0.5f * (overlay.walls[0].min + overlay.walls[0].max);
  const Rgb wallSeen = image.at(*camera_.project(wall)), wallSky = empty.at(*camera_.project(wall));
  EXPECT_GT(difference(wallSeen, wallSky), 0.1f) << "walls are drawn";
  EXPECT_GT(wallSeen.r, wallSeen.b) << "in warm stone";
  EXPECT_EQ(nearestGroup(image.at(*camera_.project(overlay.agents[0].position))), 3u)
      << "leaders in their group's colour";
  const Rgb predator = image.at(*camera_.project(overlay.predators[0]));
  const Rgb predatorSky = empty.at(*camera_.project(overlay.predators[0]));
  // Near black (kPredatorColour): apart from every group's hue, and from the sky behind it.
  EXPECT_LT(0.2126f * predator.r + 0.7152f * predator.g + 0.0722f * predator.b, 0.4f)
      << predator.r << " " << predator.g << " " << predator.b << ": predators are dark";
  EXPECT_GT(difference(predator, predatorSky), 0.3f);
  const Rgb path = image.at(*camera_.project(glm::vec3(0.0f, -5.0f, 5.0f)));
  EXPECT_GT(difference(path, empty.at(*camera_.project(glm::vec3(0.0f, -5.0f, 5.0f)))), 0.1f);
  options_.overlay.markers = false;
  const Image hidden = render(flock({}, {}), overlay);
  EXPECT_EQ(difference(hidden.at(*camera_.project(overlay.predators[0])),
                       empty.at(*camera_.project(overlay.predators[0]))),
            0.0f)
      << "markers switched off";
}

TEST(OverlayGeometry, AViewConeSpansTheViewAngleAtTheViewDistance) {
  const glm::vec3 apex(3.0f, 2.0f, -1.0f);
  const float halfAngle = 0.6f, range = 7.0f;
  // Facing +z (and up: the height of the heading does not turn the cone).
  const Polyline cone = viewCone(apex, glm::vec3(0.0f, 5.0f, 2.0f), halfAngle, range, glm::vec3(1.0f));
  ASSERT_GE(cone.points.size(), 5u);
  EXPECT_EQ(cone.points.front(), apex);
  EXPECT_EQ(cone.points.back(), apex);
  float smallest = 10.0f, largest = -10.0f;
  for (std::size_t i = 1; i + 1 < cone.points.size(); ++i) {
    const glm::vec3 d = cone.points[i] - apex;
    EXPECT_FLOAT_EQ(d.y, 0.0f);
    EXPECT_NEAR(glm::length(d), range, 1e-5f);
    const float angle = std::atan2(d.x, d.z);  // from +z, positive towards +x
    smallest = std::min(smallest, angle);
    largest = std::max(largest, angle);
  }
  EXPECT_NEAR(smallest, -halfAngle, 1e-5f);
  EXPECT_NEAR(largest, halfAngle, 1e-5f);
  // All round: the whole circle; a zero heading faces +x.
  const Polyline all = viewCone(apex, glm::vec3(0.0f), std::numbers::pi_v<float>, range, glm::vec3(1.0f));
  EXPECT_EQ(all.points.front(), all.points.back());
  EXPECT_NEAR(glm::length(all.points.front() - apex), range, 1e-5f);
  const Polyline ahead = viewCone(apex, glm::vec3(0.0f), 0.1f, range, glm::vec3(1.0f));
  const glm::vec3 first = ahead.points[1] - apex, last = ahead.points[ahead.points.size() - 2] - apex;
  EXPECT_NEAR(first.z, -last.z, 1e-5f) << "the arc is symmetric about +x";
  EXPECT_NEAR(first.x, range * std::cos(0.1f), 1e-5f);
}

TEST(OverlayGeometry, AHorizontalCircleIsClosedAtItsRadius) {
  const glm::vec3 centre(-2.0f, 4.0f, 5.0f);
  const Polyline circle = horizontalCircle(centre, 3.0f, glm::vec3(1.0f));
  ASSERT_GE(circle.points.size(), 17u);
  EXPECT_EQ(circle.points.front(), circle.points.back());
  for (const glm::vec3& p : circle.points) {
    EXPECT_NEAR(glm::length(p - centre), 3.0f, 1e-5f);
    EXPECT_FLOAT_EQ(p.y, centre.y);
  }
}

TEST_F(RenderTest, SensesAreDrawnAndSwitchOff) {
  Overlay overlay;
  overlay.worldMin = glm::vec3(-15.0f);
  overlay.worldMax = glm::vec3(15.0f);
  // A ring around the middle at the height of the camera's target: its near edge lies on the screen
  // below the centre.
  overlay.senses.push_back(horizontalCircle(glm::vec3(0.0f), 8.0f, glm::vec3(1.0f, 0.0f, 0.0f)));
  const glm::vec3 onRing = overlay.senses[0].points[overlay.senses[0].points.size() / 4];
  const Image empty = render(flock({}, {}));
  const Image shown = render(flock({}, {}), overlay);
  const glm::vec2 pixel = *camera_.project(onRing);
  // A line is a pixel wide: the largest change within a pixel of the projected point.
  const auto change = [&](const Image& image) {
    float largest = 0.0f;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const glm::vec2 at = pixel + glm::vec2(float(dx), float(dy));
        largest = std::max(largest, difference(image.at(at), empty.at(at)));
      }
    return largest;
  };
  EXPECT_GT(change(shown), 0.1f) << "the ring is drawn";
  options_.overlay.senses = false;
  const float left = change(render(flock({}, {}), overlay));
  EXPECT_EQ(left, 0.0f) << "senses switched off";
}

// Pixels a unit covers at the camera's target.
float pixelsPerUnitAtTarget(const Camera& camera) {
  return camera.pixelsPerUnit() / camera.distance();
}

// Birds on a grid across the view in the target's plane, spaced `pixels` apart on screen, with
// headings all round (and some climbing or diving): each shows another side.
sim::FlockState birdGrid(const Camera& camera, float pixels) {
  std::vector<glm::vec3> positions;
  const float spacing = pixels / pixelsPerUnitAtTarget(camera);
  for (int row = -2; row <= 2; ++row)
    for (int column = -3; column <= 3; ++column)
      positions.push_back(camera.target() +
                          spacing * (float(column) * camera.right() + float(row) * camera.up()));
  sim::FlockState state = flock(positions, std::vector<std::uint32_t>(positions.size(), 0));
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const float angle = 0.9f * float(i);
    state.velocity[i] = 5.0f * glm::vec3(std::cos(angle), 0.4f * std::sin(2.3f * angle), std::sin(angle));
  }
  return state;
}

// The pixels a frame's birds cover: where it differs from the empty frame.
std::vector<bool> covered(const Image& image, const Image& empty) {
  std::vector<bool> mask;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      mask.push_back(difference(image.at(x, y), empty.at(x, y)) > 0.05f);
  return mask;
}

// Birds longer on screen than BoidStyle::detailBirdPixels are drawn with the full mesh, exactly as
// with the far mesh switched off; shorter ones with the far mesh, which covers about the pixels the
// full one does (its outline and area) without being the same.
TEST_F(RenderTest, FarBirdsTakeTheFarMeshWithTheBirdsOutline) {
  const float detail = BoidStyle{}.detailBirdPixels;
  const sim::FlockState state = birdGrid(camera_, 2.5f * detail);
  const Image empty = render(flock({}, {}));

  options_.boids.size = 1.5f * detail / pixelsPerUnitAtTarget(camera_);
  const Image near = render(state);
  options_.boids.detailBirdPixels = 0.0f;
  EXPECT_EQ(near.bytes(), render(state).bytes()) << "near birds: the full mesh";

  // 0.8 of the detail length: shorter, yet above the 9 pixels far birds are scaled up to.
  options_.boids.size = 0.8f * detail / pixelsPerUnitAtTarget(camera_);
  const std::vector<bool> full = covered(render(state), empty);
  options_.boids.detailBirdPixels = detail;
  const std::vector<bool> far = covered(render(state), empty);
  int fullCount = 0, farCount = 0, both = 0;
  for (std::size_t i = 0; i < full.size(); ++i) {
    fullCount += full[i];
    farCount += far[i];
    both += full[i] && far[i];
  }
  ASSERT_GT(fullCount, 35 * 10) << "35 birds, each some pixels";
  EXPECT_NE(far, full) << "far birds: the far mesh";
  EXPECT_NEAR(float(farCount) / float(fullCount), 1.0f, 0.15f);
  EXPECT_GT(float(both) / float(fullCount + farCount - both), 0.7f) << "the same pixels, mostly";
}

// A bird is left out only when it lies wholly outside the view: one whose centre is past the right
// edge still shows the front of its body, flying in.
TEST_F(RenderTest, ABirdWhoseCentreIsOutOfViewStillShowsWhatIsIn) {
  const float length = 30.0f;  // pixels
  options_.boids.size = length / pixelsPerUnitAtTarget(camera_);
  const glm::vec3 centre = camera_.target() + (0.5f * float(kWidth) + 0.2f * length) /
                                                  pixelsPerUnitAtTarget(camera_) * camera_.right();
  ASSERT_GT(camera_.project(centre)->x, float(kWidth));
  sim::FlockState state = flock({centre}, {1});
  state.velocity[0] = -5.0f * camera_.right();
  const Image image = render(state);
  const Image empty = render(flock({}, {}));
  const int row = int(camera_.project(centre)->y);
  int drawn = 0;
  for (int y = row - 4; y <= row + 4; ++y)
    for (int x = kWidth - 8; x < kWidth; ++x) drawn += difference(image.at(x, y), empty.at(x, y)) > 0.3f;
  EXPECT_GT(drawn, 3);
}

// Flocks beyond one storage binding are drawn in several ranges: every range lands. The groups come
// from a group buffer here (position.w left 0), the other GroupSource.
// The boids alone, as `renderer` draws them with `style` (black background, no sky): the frame.
Image drawBoids(BoidRenderer& renderer, ViewUniformBuffer& view, const OffscreenTarget& target,
                const Camera& camera, const BoidBuffers& boids, const BoidStyle& style) {
  target.bind();
  glViewport(0, 0, kWidth, kHeight);
  glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  view.update(makeViewUniforms(camera, Atmosphere{}, 0.0f));
  renderer.draw(boids, style);
  return Image(target.readRgba(), kWidth, kHeight);
}

// gpu::FlockPipeline keeps its flock in cell order between steps, and the renderer finds each boid
// through the pipeline's slots (render::boidBuffers): the frame, trails and vectors sampled every
// step included, is the frame of the same states uploaded in id order, byte for byte, as birds and
// as points, and in ranges of a few boids each (slots bound in ranges, the arrays whole).
TEST_F(RenderTest, TheGpuPipelinesCellOrderedFlockDrawsAsItsStateInIdOrder) {
  const sim::Scene scene = sim::defaultDensityScene(3000, 3);
  gpu::FlockPipeline pipeline(test::glContext(), test::shaderLibrary(), gpu::Arithmetic::Exact);
  pipeline.upload(sim::spawnFlock(scene));
  FrameRenderer gpuRenderer(test::shaderLibrary());
  camera_.frameBox(scene.model.worldMin, scene.model.worldMax);
  options_.overlay.trails = options_.overlay.vectors = true;
  options_.aids.trailEvery = 1;
  options_.aids.trailBoids = 40;
  options_.aids.vectorBoids = 40;
  constexpr float kDt = 1.0f / 60.0f;
  for (std::uint64_t step = 1; step <= 6; ++step) {
    pipeline.step(scene.model, {});
    gpuRenderer.sampleBoids(boidBuffers(pipeline), step, kDt, options_);
    boids_.upload(pipeline.download());
    renderer_.sampleBoids(boids_.buffers(), step, kDt, options_);
  }
  const Image empty = render(sim::FlockState{});
  for (const BoidShape shape : {BoidShape::Birds, BoidShape::Points}) {
    options_.boids.shape = shape;
    target_.bind();
    gpuRenderer.render(camera_, boidBuffers(pipeline), options_);
    const Image fromSlots = read();
    boids_.upload(pipeline.download());
    target_.bind();
    renderer_.render(camera_, boids_.buffers(), options_);
    const Image inIdOrder = read();
    EXPECT_TRUE(fromSlots.bytes() == inIdOrder.bytes()) << "shape " << int(shape);
    std::size_t drawn = 0;
    for (std::size_t i = 0; i < empty.bytes().size(); i += 4)
      drawn += empty.bytes()[i] != inIdOrder.bytes()[i];
    EXPECT_GT(drawn, 2000u) << "the flock shows (shape " << int(shape) << ")";
  }
  // In draws of 512 boids: the slots of each range, the arrays whole.
  BoidRenderer ranges(test::shaderLibrary(), 512);
  ViewUniformBuffer view;
  const auto draw = [&](const BoidBuffers& boids, const BoidStyle& style) {
    return drawBoids(ranges, view, target_, camera_, boids, style);
  };
  for (const BoidShape shape : {BoidShape::Birds, BoidShape::Points}) {
    BoidStyle style = options_.boids;
    style.shape = shape;
    EXPECT_TRUE(draw(boidBuffers(pipeline), style).bytes() == draw(boids_.buffers(), style).bytes())
        << "in ranges, shape " << int(shape);
  }
}

TEST(BoidRenderer, DrawsLargeFlocksInSeveralRangesWithAGroupBuffer) {
  const std::size_t errorsBefore = test::glErrorCount();
  BoidRenderer renderer(test::shaderLibrary(), 64);
  ViewUniformBuffer view;
  OffscreenTarget target(kWidth, kHeight, 1);
  Camera camera;
  camera.setViewport(kWidth, kHeight);
  camera.setOrbit(glm::vec3(0.0f), 60.0f, 0.0f, 1.5f);  // from above
  // A 20 x 10 grid of boids, group = row % 8: boids of every range, in every group.
  std::vector<glm::vec4> positions, velocities;
  std::vector<std::uint32_t> groups;
  for (int row = 0; row < 10; ++row)
    for (int column = 0; column < 20; ++column) {
      positions.emplace_back(-30.0f + 3.0f * float(column), 0.0f, -18.0f + 4.0f * float(row), 0.0f);
      velocities.emplace_back(1.0f, 0.0f, 0.0f, 0.0f);
      groups.push_back(std::uint32_t(row % 8));
    }
  const auto positionBuffer = gpu::Buffer::fromSpan("test positions", std::span<const glm::vec4>(positions));
  const auto velocityBuffer =
      gpu::Buffer::fromSpan("test velocities", std::span<const glm::vec4>(velocities));
  const auto groupBuffer = gpu::Buffer::fromSpan("test groups", std::span<const std::uint32_t>(groups));
  BoidBuffers boids;
  boids.position = positionBuffer.id();
  boids.velocity = velocityBuffer.id();
  boids.groupSource = GroupSource::Buffer;
  boids.group = groupBuffer.id();
  boids.count = std::uint32_t(positions.size());

  // Points; birds that are all near (the full mesh) and all far (the far mesh): each range's lists.
  BoidStyle points;
  points.shape = BoidShape::Points;
  points.size = 2.0f;
  points.minPointPixels = 4.0f;
  BoidStyle near;
  near.shape = BoidShape::Birds;
  near.size = 2.5f;
  near.detailBirdPixels = 0.0f;
  BoidStyle far = near;
  far.detailBirdPixels = 1000.0f;
  for (const BoidStyle& style : {points, near, far}) {
    const Image image = drawBoids(renderer, view, target, camera, boids, style);
    int drawn = 0;
    for (std::size_t i = 0; i < positions.size(); ++i) {
      // The boid's colour at its pixel or next to it (a bird's body is a pixel or two wide here).
      const glm::vec2 pixel = *camera.project(glm::vec3(positions[i]));
      bool seen = false;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const Rgb rgb = image.at(int(pixel.x) + dx, int(pixel.y) + dy);
          seen = seen || (chroma(rgb) > 0.2f && nearestGroup(rgb) == groups[i]);
        }
      drawn += seen;
    }
    EXPECT_EQ(drawn, int(positions.size()))
        << "shape " << int(style.shape) << ", detail " << style.detailBirdPixels;
  }
  EXPECT_EQ(test::glErrorCount(), errorsBefore);
}

// A starling is drawn rolled by its bank (render/BirdInstances.comp.glsl, from the host's attitude
// or the GPU's headings): seen level from its side, a level bird is a thin sliver and one banked
// 60 degrees shows its wings, several times taller; boids of the same state are drawn level.
TEST(BoidRenderer, AStarlingIsDrawnRolledByItsBank) {
  BoidRenderer renderer(test::shaderLibrary());
  ViewUniformBuffer view;
  OffscreenTarget target(kWidth, kHeight, 1);
  Camera camera;
  camera.setViewport(kWidth, kHeight);
  camera.setOrbit(glm::vec3(0.0f), 12.0f, 0.0f, 0.0f);
  BoidStyle style;
  style.shape = BoidShape::Birds;
  style.size = 6.0f;
  style.detailBirdPixels = 0.0f;
  // The rows the bird covers (any pixel off the black background).
  const auto rows = [&](float bank, sim::UnitModel units) {
    sim::FlockState state;
    state.position = {glm::vec3(0.0f)};
    state.velocity = {glm::vec3(10.0f, 0.0f, 0.0f)};
    state.group = {0};
    state.attitude = {bank};
    HostBoidBuffers boids;
    boids.upload(state, units);
    const Image image = drawBoids(renderer, view, target, camera, boids.buffers(), style);
    int top = kHeight, bottom = -1;
    for (int y = 0; y < kHeight; ++y)
      for (int x = 0; x < kWidth; ++x)
        if (image.at(x, y).r + image.at(x, y).g + image.at(x, y).b > 0.05f) {
          top = std::min(top, y);
          bottom = std::max(bottom, y);
        }
    return bottom - top + 1;
  };
  const int level = rows(0.0f, sim::UnitModel::Starling);
  const int banked = rows(1.05f, sim::UnitModel::Starling);
  ASSERT_GT(level, 0) << "the bird is drawn";
  EXPECT_GT(banked, 3 * level) << level << " rows level, " << banked << " banked";
  EXPECT_EQ(rows(1.05f, sim::UnitModel::Boids), level) << "a boid's attitude is no bank";
}

TEST(OffscreenTarget, ReadsRowsTopToBottom) {
  OffscreenTarget target(8, 4, 4);
  target.bind();
  glDisable(GL_SCISSOR_TEST);
  glClearColor(0.0f, 0.0f, 1.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  // The top row (GL's last) red.
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 3, 8, 1);
  glClearColor(1.0f, 0.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  const std::vector<std::uint8_t> rgba = target.readRgba();
  ASSERT_EQ(rgba.size(), 8u * 4u * 4u);
  EXPECT_EQ(rgba[0], 255);  // first row read: red
  EXPECT_EQ(rgba[2], 0);
  EXPECT_EQ(rgba[rgba.size() - 4], 0);  // last row: blue
  EXPECT_EQ(rgba[rgba.size() - 2], 255);
}

TEST(OffscreenTarget, RejectsImpossibleSizes) {
  EXPECT_THROW(OffscreenTarget(0, 10), gpu::GpuError);
  EXPECT_THROW(OffscreenTarget(1 << 20, 10), gpu::GpuError);
}

}  // namespace
}  // namespace murmur::render

// The camera's projection and controls, the meshes and the wall blocks (no GL needed).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>
#include <vector>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include "render/camera.hpp"
#include "render/meshes.hpp"
#include "render/overlay.hpp"

namespace murmur::render {
namespace {

Camera testCamera() {
  Camera camera;
  camera.setViewport(200, 100);
  camera.setOrbit(glm::vec3(1.0f, 2.0f, 3.0f), 50.0f, 0.4f, 0.3f);
  return camera;
}

TEST(Camera, ProjectsTheTargetToTheCentre) {
  const Camera camera = testCamera();
  const glm::vec2 centre = *camera.project(camera.target());
  EXPECT_NEAR(centre.x, 100.0f, 1e-3f);
  EXPECT_NEAR(centre.y, 50.0f, 1e-3f);
  EXPECT_NEAR(glm::length(camera.eye() - camera.target()), 50.0f, 1e-3f);
}

TEST(Camera, ScreenAxesMatchPixelAxes) {
  const Camera camera = testCamera();
  const glm::vec2 centre = *camera.project(camera.target());
  const glm::vec2 right = *camera.project(camera.target() + camera.right());
  const glm::vec2 up = *camera.project(camera.target() + camera.up());
  EXPECT_GT(right.x, centre.x + 1.0f);
  EXPECT_NEAR(right.y, centre.y, 1e-3f);
  EXPECT_LT(up.y, centre.y - 1.0f) << "pixel rows run top to bottom";
  // One unit at the target's distance covers pixelsPerUnit() / distance pixels.
  EXPECT_NEAR(right.x - centre.x, camera.pixelsPerUnit() / camera.distance(), 1e-2f);
}

TEST(Camera, PointsBehindTheEyeDoNotProject) {
  const Camera camera = testCamera();
  EXPECT_FALSE(camera.project(camera.eye() - 5.0f * camera.forward()).has_value());
}

// A diverged flock: a non-finite point, or a camera that followed one, projects to no pixel (the
// demo's labels drew at NaN pixels, which crashed inside ImGui).
TEST(Camera, NonFinitePointsAndCamerasDoNotProject) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  Camera camera = testCamera();
  EXPECT_FALSE(camera.project(glm::vec3(nan, 0.0f, 0.0f)).has_value());
  EXPECT_FALSE(camera.project(glm::vec3(0.0f, inf, 0.0f)).has_value());
  EXPECT_TRUE(camera.project(camera.target()).has_value());
  camera.setTarget(glm::vec3(nan, 2.0f, 3.0f));
  EXPECT_FALSE(camera.project(glm::vec3(1.0f, 2.0f, 3.0f)).has_value());
}

TEST(Camera, PanMovesTheSceneWithTheMouse) {
  Camera camera = testCamera();
  const glm::vec3 point = camera.target();
  camera.pan(glm::vec2(20.0f, 10.0f));
  const glm::vec2 moved = *camera.project(point);
  EXPECT_NEAR(moved.x, 120.0f, 1e-2f);
  EXPECT_NEAR(moved.y, 60.0f, 1e-2f);
}

TEST(Camera, OrbitKeepsTheTargetAndClampsThePitch) {
  Camera camera = testCamera();
  camera.orbit(1.0f, 10.0f);
  EXPECT_LT(camera.pitch(), 1.5708f);
  EXPECT_NEAR(glm::length(camera.eye() - camera.target()), 50.0f, 1e-3f);
  camera.zoom(0.5f);
  EXPECT_NEAR(camera.distance(), 25.0f, 1e-4f);
}

TEST(Camera, FrameBoxFillsTheViewWithTheWholeBox) {
  Camera camera = testCamera();
  const glm::vec3 lo(-100.0f, -40.0f, -100.0f), hi(100.0f, 40.0f, 100.0f);
  camera.frameBox(lo, hi);
  glm::vec2 min(1e9f), max(-1e9f);
  for (int corner = 0; corner < 8; ++corner) {
    const glm::vec3 p((corner & 1) ? hi.x : lo.x, (corner & 2) ? hi.y : lo.y, (corner & 4) ? hi.z : lo.z);
    const glm::vec2 pixel = *camera.project(p);
    min = glm::min(min, pixel);
    max = glm::max(max, pixel);
  }
  EXPECT_GE(min.x, 0.0f);
  EXPECT_LE(max.x, 200.0f);
  EXPECT_GE(min.y, 0.0f);
  EXPECT_LE(max.y, 100.0f);
  // Centred, and filling the view in one direction.
  EXPECT_NEAR(min.x + max.x, 200.0f, 8.0f);
  EXPECT_NEAR(min.y + max.y, 100.0f, 4.0f);
  EXPECT_TRUE(max.x - min.x > 180.0f || max.y - min.y > 90.0f) << max.x - min.x << " x " << max.y - min.y;
}

// A flock is framed by its points' outline on screen: a cloud of 1,000 points with 10 strays far
// off to its right (1%) is centred and fills 80% of the view across, the strays left out; the same
// points with nothing left out put the strays in view. Framing a box is framing its 8 corners.
TEST(Camera, FramePointsCentresTheOutlineLeavingOutTheStrays) {
  Camera camera = testCamera();
  std::vector<glm::vec3> points;
  for (int i = 0; i < 1000; ++i) {  // a flat slab 60 x 4 x 30, spread evenly
    const float u = float(i % 40) / 39.0f, v = float((i / 40) % 25) / 24.0f, w = float(i % 7) / 6.0f;
    points.emplace_back(-30.0f + 60.0f * u, 10.0f + 4.0f * w, 5.0f + 30.0f * v);
  }
  std::vector<glm::vec3> withStrays = points;
  // Far to the right of the cloud and beyond it, as the camera looks.
  for (int i = 0; i < 10; ++i)
    withStrays.push_back(glm::vec3(0.0f, 12.0f, 20.0f) + 300.0f * camera.right() +
                         (100.0f + float(i)) * camera.forward());
  // The outline on screen leaving out `left` points at each end of each axis.
  const auto outline = [&](const std::vector<glm::vec3>& shown, std::size_t left) {
    glm::vec2 lo, hi;
    for (int axis = 0; axis < 2; ++axis) {
      std::vector<float> along;
      for (const glm::vec3& p : shown) along.push_back((*camera.project(p))[axis]);
      std::sort(along.begin(), along.end());
      lo[axis] = along[left], hi[axis] = along[along.size() - 1 - left];
    }
    return std::pair{lo, hi};
  };
  camera.framePoints(withStrays, 0.8f, 0.01f);
  const auto [lo, hi] = outline(withStrays, 10);
  EXPECT_NEAR(0.5f * (lo.x + hi.x), 100.0f, 0.5f) << "centred across";
  EXPECT_NEAR(0.5f * (lo.y + hi.y), 50.0f, 0.5f) << "and up and down";
  EXPECT_NEAR(std::max((hi.x - lo.x) / 200.0f, (hi.y - lo.y) / 100.0f), 0.8f, 0.005f)
      << "filling 80% of the view";
  const auto [cloudLo, cloudHi] = outline(points, 0);
  EXPECT_GT(cloudLo.x, 0.0f) << "the whole cloud in view";
  EXPECT_LT(cloudHi.x, 200.0f);
  EXPECT_GT(cloudLo.y, 0.0f);
  EXPECT_LT(cloudHi.y, 100.0f);
  EXPECT_GT(camera.project(withStrays.back())->x, 200.0f) << "the strays are off screen";

  camera.framePoints(withStrays, 0.8f, 0.0f);
  const auto [allLo, allHi] = outline(withStrays, 0);
  EXPECT_GE(allLo.x, 0.0f);
  EXPECT_LE(allHi.x, 200.0f) << "nothing trimmed: the strays are in view";

  const glm::vec3 boxLo(-10.0f, 0.0f, -20.0f), boxHi(30.0f, 5.0f, 10.0f);
  Camera byBox = testCamera(), byCorners = testCamera();
  byBox.frameBox(boxLo, boxHi);
  std::vector<glm::vec3> corners;
  for (int i = 0; i < 8; ++i)
    corners.emplace_back((i & 1) ? boxHi.x : boxLo.x, (i & 2) ? boxHi.y : boxLo.y,
                         (i & 4) ? boxHi.z : boxLo.z);
  byCorners.framePoints(corners, 0.94f, 0.0f);
  EXPECT_EQ(byBox.distance(), byCorners.distance());
  EXPECT_EQ(byBox.target(), byCorners.target());
}

// Closed shapes face outwards: counter-clockwise seen from outside, normals pointing away.
void expectOutward(const std::vector<MeshVertex>& mesh) {
  ASSERT_EQ(mesh.size() % 3, 0u);
  for (std::size_t i = 0; i < mesh.size(); i += 3) {
    const glm::vec3 a = mesh[i].position, b = mesh[i + 1].position, c = mesh[i + 2].position;
    const glm::vec3 centroid = (a + b + c) / 3.0f;
    EXPECT_GT(glm::dot(glm::cross(b - a, c - a), centroid), 0.0f) << "triangle " << i / 3;
    EXPECT_GT(glm::dot(mesh[i].normal, centroid), 0.0f) << "triangle " << i / 3;
  }
}

// Orthographic: no foreshortening (a point's pixel does not depend on its depth), the target plane
// as the perspective view shows it, and frameBox fits the box's outline in the view.
TEST(Camera, OrthographicKeepsSizesWhateverTheDepth) {
  Camera camera;
  camera.setViewport(640, 480);
  camera.setOrbit(glm::vec3(0.0f), 100.0f, 0.0f, glm::radians(90.0f));
  const Camera perspective = camera;
  camera.setOrthographic(true);
  const glm::vec2 low = *camera.project(glm::vec3(10.0f, -20.0f, 5.0f));
  const glm::vec2 high = *camera.project(glm::vec3(10.0f, 20.0f, 5.0f));
  EXPECT_NEAR(low.x, high.x, 1e-3f);
  EXPECT_NEAR(low.y, high.y, 1e-3f);
  const glm::vec2 inPlane = *camera.project(glm::vec3(10.0f, 0.0f, 5.0f));
  const glm::vec2 seen = *perspective.project(glm::vec3(10.0f, 0.0f, 5.0f));
  EXPECT_NEAR(inPlane.x, seen.x, 1e-2f);
  EXPECT_NEAR(inPlane.y, seen.y, 1e-2f);
  EXPECT_NEAR(camera.pixelsPerUnitAtDepthOne(), camera.pixelsPerUnit() / 100.0f, 1e-4f);

  camera.frameBox(glm::vec3(-80.0f, -5.0f, -20.0f), glm::vec3(80.0f, 5.0f, 20.0f));
  const glm::vec2 left = *camera.project(glm::vec3(-80.0f, 0.0f, 0.0f));
  const glm::vec2 right = *camera.project(glm::vec3(80.0f, 0.0f, 0.0f));
  // The box is wide: its width fills 94% of the view's.
  EXPECT_NEAR(right.x - left.x, 0.94f * 640.0f, 1.0f);
  EXPECT_NEAR(0.5f * (left.x + right.x), 320.0f, 1e-2f);
}

TEST(Meshes, ClosedShapesFaceOutwards) {
  expectOutward(sphereMesh(8, 12));
  expectOutward(diamondMesh());
  expectOutward(spikeMesh());
  expectOutward(boxMesh());
  expectOutward(craftMesh());
}

TEST(Overlay, WallCellsBecomeOneBlockPerRunAlongX) {
  sim::WallGrid walls;
  walls.origin = glm::vec2(-10.0f, 20.0f);
  walls.cellSize = 2.0f;
  walls.width = 4;
  walls.height = 2;
  walls.blocked = {1, 1, 0, 1,   // row z = 0: a run of two, then one
                   0, 0, 0, 0};  // row z = 1: free
  const std::vector<Block> blocks = wallBlocks(walls, -5.0f, 1.0f);
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].min, glm::vec3(-10.0f, -5.0f, 20.0f));
  EXPECT_EQ(blocks[0].max, glm::vec3(-6.0f, 1.0f, 22.0f));
  EXPECT_EQ(blocks[1].min, glm::vec3(-4.0f, -5.0f, 20.0f));
  EXPECT_EQ(blocks[1].max, glm::vec3(-2.0f, 1.0f, 22.0f));
}

TEST(Meshes, BirdIsOneUnitLongAlongX) {
  float minX = 0.0f, maxX = 0.0f, span = 0.0f;
  for (const MeshVertex& v : birdMesh()) {
    minX = std::min(minX, v.position.x);
    maxX = std::max(maxX, v.position.x);
    span = std::max(span, std::abs(v.position.z));
    EXPECT_NEAR(glm::length(v.normal), 1.0f, 1e-4f);
  }
  EXPECT_NEAR(maxX, 0.5f, 1e-6f);
  EXPECT_LE(minX, -0.5f);
  EXPECT_GT(span, 0.4f) << "wings spread along z";
}

// The far bird keeps the bird's extent (beak to tail fan, wing tip to wing tip) and its beat, in 4
// triangles; no vertex of either mesh, the wings beating, reaches past kBirdReach (what culls birds).
TEST(Meshes, TheFarBirdHasTheBirdsExtentInFewerTriangles) {
  const std::vector<MeshVertex> full = birdMesh(), far = farBirdMesh();
  EXPECT_EQ(full.size(), 33u);
  EXPECT_EQ(far.size(), 12u);
  auto extent = [](const std::vector<MeshVertex>& mesh) {
    glm::vec3 min(0.0f), max(0.0f);
    float reach = 0.0f, tipZ = 0.0f, tipWing = 0.0f;
    for (const MeshVertex& v : mesh) {
      min = glm::min(min, v.position);
      max = glm::max(max, v.position);
      for (const float beat : {-1.0f, 1.0f})
        reach = std::max(reach, glm::length(v.position + glm::vec3(0.0f, beat * kWingLift * v.wing, 0.0f)));
      if (std::abs(v.position.z) > tipZ) tipZ = std::abs(v.position.z), tipWing = v.wing;
      EXPECT_NEAR(glm::length(v.normal), 1.0f, 1e-4f);
    }
    return std::tuple{min, max, reach, tipWing};
  };
  const auto [fullMin, fullMax, fullReach, fullTip] = extent(full);
  const auto [farMin, farMax, farReach, farTip] = extent(far);
  EXPECT_EQ(farMin.x, fullMin.x);
  EXPECT_EQ(farMax.x, fullMax.x);
  EXPECT_EQ(farMax.z, fullMax.z);
  EXPECT_EQ(farMin.z, fullMin.z);
  EXPECT_EQ(farTip, 1.0f) << "the wing tips beat";
  EXPECT_EQ(fullTip, 1.0f);
  EXPECT_LE(fullReach, kBirdReach);
  EXPECT_LE(farReach, kBirdReach);
  EXPECT_GT(fullReach, 0.9f * kBirdReach) << "and not much less: culling stays tight";
}

}  // namespace
}  // namespace murmur::render

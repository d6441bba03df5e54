// camera = "ground" ([render]; docs/rendering.md): the headless camera stands on the world's floor at
// the spot the scene names (the world's centre for the murmuration, under its roost) and looks up
// at the flock it follows, which stays in the middle of the view as it wheels.
#include <gtest/gtest.h>

#include <cmath>

#include "gl_test_env.hpp"
#include "session/session.hpp"
#include "sim/metrics.hpp"

namespace murmur::session {
namespace {

TEST(GroundCamera, StandsOnTheFloorAndLooksUpAtTheFlock) {
  SceneOptions options;
  options.scene = MURMUR_SOURCE_DIR "/scenes/murmuration.toml";
  options.boids = 2000;
  Session session(options, "cpu", -1, test::glContext());
  ASSERT_EQ(session.view().cameraMotion, render::CameraMotion::Ground);
  const sim::ModelParams& model = session.world().scene().model;
  session.camera().setViewport(640, 360);
  session.frameScene();
  for (int frame = 0; frame < 12; ++frame) {
    for (int step = 0; step < 30; ++step) session.step();
    session.moveCamera(0.5);
    const render::Camera& camera = session.camera();
    const glm::vec3 eye = camera.eye();
    EXPECT_NEAR(eye.y, model.worldMin.y + render::kGroundEyeHeight, 1e-2f) << "frame " << frame;
    EXPECT_NEAR(eye.x, 0.0f, 1e-2f) << "frame " << frame;
    EXPECT_NEAR(eye.z, 0.0f, 1e-2f) << "frame " << frame;
    EXPECT_LT(camera.pitch(), 0.0f) << "looking up, frame " << frame;
    const glm::dvec3 centroid = glm::dvec3(sim::summarizeGroups(session.backend().state()).at(0).centroid);
    const std::optional<glm::vec2> pixel = camera.project(glm::vec3(centroid));
    ASSERT_TRUE(pixel.has_value()) << "the flock is in front of the camera, frame " << frame;
    EXPECT_NEAR(pixel->x, 320.0f, 320.0f / 3.0f) << "frame " << frame;
    EXPECT_NEAR(pixel->y, 180.0f, 180.0f / 3.0f) << "frame " << frame;
  }
}

}  // namespace
}  // namespace murmur::session

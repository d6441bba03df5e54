// The [render] section of a scene (no GL needed): defaults, every key, errors.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "core/error.hpp"
#include "render/scene_view.hpp"
#include "sim/scene_loader.hpp"

namespace murmur::render {
namespace {

namespace fs = std::filesystem;

// A scene file written for one test.
sim::Scene loadSceneText(const std::string& name, const std::string& text) {
  const fs::path path =
      fs::temp_directory_path() / ("murmur_scene_view_" + std::to_string(::getpid()) + name);
  std::ofstream(path) << text;
  try {
    sim::Scene scene = sim::loadScene(path.string(), kSceneSections);
    fs::remove(path);
    return scene;
  } catch (...) {
    fs::remove(path);
    throw;
  }
}

// Without [render]: a 3D flock filmed as a murmuration (dusk, silhouettes for one group, no box or
// grid, the camera following it), a flat one as a map (day, heading colours, box and grid, fixed).
TEST(SceneView, DefaultsWithoutARenderSection) {
  const sim::Scene scene = loadSceneText("defaults.toml", "[boids]\nradius = 0.5\n");
  const SceneView view = readSceneView(scene);
  EXPECT_FLOAT_EQ(view.boids.size, 1.6f);
  EXPECT_EQ(view.boids.shape, BoidShape::Auto);
  EXPECT_EQ(view.sky, Sky::Dusk);
  EXPECT_EQ(view.boids.colouring, BoidColouring::Silhouette);
  EXPECT_FALSE(view.overlay.box);
  EXPECT_FALSE(view.overlay.grid);
  EXPECT_EQ(view.cameraMotion, CameraMotion::Follow);
  EXPECT_EQ(readSceneView(loadSceneText("groups.toml", "[boids]\ngroups = 3\n")).boids.colouring,
            BoidColouring::Group);
  const SceneView flat = readSceneView(loadSceneText("flat.toml", "[world]\ndims = 2\n"));
  EXPECT_EQ(flat.sky, Sky::Day);
  EXPECT_EQ(flat.boids.colouring, BoidColouring::Heading);
  EXPECT_TRUE(flat.overlay.box);
  EXPECT_TRUE(flat.overlay.grid);
  EXPECT_EQ(flat.cameraMotion, CameraMotion::Fixed);
  EXPECT_FALSE(view.target.has_value());
  // The camera frames the world box.
  const Camera camera = sceneCamera(view, scene.model, 640, 360);
  for (const glm::vec3 corner : {scene.model.worldMin, scene.model.worldMax}) {
    const glm::vec2 pixel = *camera.project(corner);
    EXPECT_GE(pixel.x, 0.0f);
    EXPECT_LE(pixel.x, 640.0f);
    EXPECT_GE(pixel.y, 0.0f);
    EXPECT_LE(pixel.y, 360.0f);
  }
}

// Markers (agents, goals, predators) are 1.2% of the world box's diagonal, at most 4 birds long: the
// default 200 x 100 x 200 box gives 0.012 x 300 = 3.6 units; murmuration.toml's 1000 x 60 x 1000
// sky would give 17 (a falcon ten starlings long), so it gets 4 x 1.6 = 6.4.
TEST(SceneView, MarkersScaleWithTheWorldUpToFourBirds) {
  const sim::Scene small = loadSceneText("small.toml", "[boids]\nradius = 0.5\n");
  EXPECT_NEAR(markerSize(sceneOverlay(small, nullptr)), 3.6f, 1e-4f);
  const sim::Scene sky = loadSceneText("sky.toml",
                                       "[world]\nmin = [-500, 0, -500]\nmax = [500, 60, 500]\n"
                                       "[boids]\nradius = 0.5\n");
  EXPECT_FLOAT_EQ(defaultBodyLength(sky.model), 1.6f);
  EXPECT_FLOAT_EQ(markerSize(sceneOverlay(sky, nullptr)), 6.4f);
}

TEST(SceneView, ChaseAndInterceptGroupsTakeTheLabsColours) {
  const std::string groups =
      "[[groups]]\ngroup = 1\nrole = \"chase\"\ntarget = [0, 0, 0]\n"
      "[[groups]]\ngroup = 2\nrole = \"intercept\"\ntarget = [5, 0, 5]\n";
  const SceneView view = readSceneView(loadSceneText("roles.toml", "[boids]\ngroups = 3\n" + groups));
  EXPECT_EQ(view.palette[0], kGroupPalette[0]);
  EXPECT_EQ(view.palette[1], kChaserColour);
  EXPECT_EQ(view.palette[2], kInterceptorColour);
  // With more groups than palette entries, colours repeat: the roles keep the palette.
  const SceneView many = readSceneView(loadSceneText("roles9.toml", "[boids]\ngroups = 9\n" + groups));
  EXPECT_EQ(many.palette, kGroupPalette);
}

TEST(SceneView, ReadsEveryKey) {
  const sim::Scene scene = loadSceneText("keys.toml", R"([render]
camera_yaw = 90
camera_pitch = 30
camera_distance = 120
camera_target = [10, 0, -5]
fov = 40
boid_shape = "points"
boid_size = 2.5
leaders = "red"
sky = "dusk"
colour = "silhouette"
show_box = false
show_grid = false
show_obstacles = false
show_markers = false
show_paths = false
)");
  const SceneView view = readSceneView(scene);
  EXPECT_EQ(view.boids.shape, BoidShape::Points);
  EXPECT_FLOAT_EQ(view.boids.size, 2.5f);
  EXPECT_EQ(view.boids.leaderMark, LeaderMark::Red) << "a 3D scene asking for the lab's red leaders";
  EXPECT_EQ(view.sky, Sky::Dusk);
  EXPECT_EQ(view.boids.colouring, BoidColouring::Silhouette);
  EXPECT_FALSE(view.overlay.box || view.overlay.grid || view.overlay.obstacles || view.overlay.markers ||
               view.overlay.paths);
  const Camera camera = sceneCamera(view, scene.model, 640, 360);
  EXPECT_FLOAT_EQ(camera.distance(), 120.0f);
  EXPECT_FLOAT_EQ(camera.fieldOfView(), 40.0f);
  EXPECT_NEAR(camera.yaw(), 1.5707963f, 1e-5f);
  EXPECT_NEAR(camera.pitch(), 0.5235988f, 1e-5f);
  EXPECT_EQ(camera.target(), glm::vec3(10.0f, 0.0f, -5.0f));
}

// The lab's aids: off by default (24 boids each, trails of 40 samples every 5 steps when switched on),
// every key read; ShowVectors' lines 4 birds long at max_speed and at max_force.
TEST(SceneView, ReadsTheTrailAndVectorKeys) {
  const SceneView defaults = readSceneView(loadSceneText("aids_default.toml", "[boids]\nradius = 0.5\n"));
  EXPECT_FALSE(defaults.overlay.trails);
  EXPECT_FALSE(defaults.overlay.vectors);
  EXPECT_EQ(defaults.aids.trailLength, 40u);
  EXPECT_EQ(defaults.aids.trailEvery, 5u);
  EXPECT_EQ(defaults.aids.trailBoids, 24u);
  EXPECT_EQ(defaults.aids.vectorBoids, 24u);
  const sim::Scene scene = loadSceneText("aids.toml", R"([boids]
radius = 0.5
max_speed = 8
max_force = 16
[render]
show_trails = true
trail_length = 12
trail_every = 3
trail_boids = 100
show_vectors = true
vector_boids = 0
)");
  const SceneView view = readSceneView(scene);
  EXPECT_TRUE(view.overlay.trails);
  EXPECT_TRUE(view.overlay.vectors);
  EXPECT_EQ(view.aids.trailLength, 12u);
  EXPECT_EQ(view.aids.trailEvery, 3u);
  EXPECT_EQ(view.aids.trailBoids, 100u);
  EXPECT_EQ(view.aids.vectorBoids, 0u) << "vectors of the agents only";
  // A bird 1.6 long: 6.4 units of line for 8 units/s and for 16 units/s^2.
  EXPECT_FLOAT_EQ(view.aids.velocityScale * 8.0f, 6.4f);
  EXPECT_FLOAT_EQ(view.aids.forceScale * 16.0f, 6.4f);
}

TEST(SceneView, UnknownKeysAndBadValuesNameTheKey) {
  for (const auto& [text, key] :
       {std::pair{"[render]\ncamera_zoom = 2\n", "camera_zoom"}, std::pair{"[render]\nfov = 200\n", "fov"},
        std::pair{"[render]\nboid_shape = \"cubes\"\n", "boid_shape"},
        std::pair{"[render]\nshow_box = 1\n", "show_box"},
        std::pair{"[render]\ncolour = \"rainbow\"\n", "colour"},
        std::pair{"[render]\nprojection = \"fisheye\"\n", "projection"},
        std::pair{"[render]\ncamera_pitch = 91\n", "camera_pitch"},
        std::pair{"[render]\nleaders = \"blue\"\n", "leaders"},
        std::pair{"[render]\nsky = \"night\"\n", "sky"},
        std::pair{"[render]\nshow_trails = \"yes\"\n", "show_trails"},
        std::pair{"[render]\ntrail_length = 1\n", "trail_length"},
        std::pair{"[render]\ntrail_length = 2.5\n", "trail_length"},
        std::pair{"[render]\ntrail_every = 0\n", "trail_every"},
        std::pair{"[render]\ntrail_boids = -1\n", "trail_boids"},
        std::pair{"[render]\nshow_vectors = 1\n", "show_vectors"},
        std::pair{"[render]\nvector_boids = 5000\n", "vector_boids"}}) {
    const sim::Scene scene = loadSceneText("bad.toml", text);
    try {
      readSceneView(scene);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
      EXPECT_EQ(e.line(), 2u) << e.what();
    }
  }
}

// A flat world is seen from straight above (yaw 0: -z up, as a map is drawn), orthographic; one
// group is coloured by heading (one colour would say nothing), several by group.
TEST(SceneView, FlatWorldsAreSeenFromAboveAndOneGroupByHeading) {
  const sim::Scene flat =
      loadSceneText("flat.toml", "[world]\ndims = 2\nmin = [-50, -10, -30]\nmax = [50, 10, 30]\n");
  const SceneView view = readSceneView(flat);
  EXPECT_TRUE(view.orthographic);
  EXPECT_FLOAT_EQ(view.pitchDegrees, 90.0f);
  EXPECT_FLOAT_EQ(view.yawDegrees, 0.0f);
  EXPECT_EQ(view.boids.colouring, BoidColouring::Heading);
  EXPECT_EQ(view.boids.leaderMark, LeaderMark::Red) << "the flocking lab's red leaders in flat worlds";
  const Camera camera = sceneCamera(view, flat.model, 640, 480);
  EXPECT_TRUE(camera.orthographic());
  const glm::vec2 centre = *camera.project(glm::vec3(0.0f));
  const glm::vec2 east = *camera.project(glm::vec3(20.0f, 0.0f, 0.0f));
  const glm::vec2 north = *camera.project(glm::vec3(0.0f, 0.0f, -20.0f));
  EXPECT_GT(east.x, centre.x + 10.0f);
  EXPECT_NEAR(east.y, centre.y, 1e-3f);
  EXPECT_LT(north.y, centre.y - 10.0f);
  EXPECT_NEAR(north.x, centre.x, 1e-3f);

  const sim::Scene groups =
      loadSceneText("groups.toml", "[boids]\ngroups = 3\n[render]\nprojection = \"orthographic\"\n");
  const SceneView three = readSceneView(groups);
  EXPECT_EQ(three.boids.colouring, BoidColouring::Group);
  EXPECT_EQ(three.boids.leaderMark, LeaderMark::Light) << "3D leaders lit up, not swamping the groups in red";
  EXPECT_TRUE(three.orthographic);
  EXPECT_FLOAT_EQ(three.pitchDegrees, 18.0f);
  const sim::Scene speed = loadSceneText("speed.toml", "[render]\ncolour = \"speed\"\nshow_stats = false\n");
  const SceneView bySpeed = readSceneView(speed);
  EXPECT_EQ(bySpeed.boids.colouring, BoidColouring::Speed);
  EXPECT_FALSE(bySpeed.showStats);
  EXPECT_FLOAT_EQ(bySpeed.boids.speedHigh, speed.model.maxSpeed);
}

}  // namespace
}  // namespace murmur::render

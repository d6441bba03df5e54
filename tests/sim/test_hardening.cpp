// Regression tests of issue 13 (hardening): inputs that crashed, overflowed float32, hit undefined
// behaviour or made the summary quadratic; each failed before its fix.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/output_path.hpp"
#include "sim/builders.hpp"
#include "sim/cpu_simulator.hpp"
#include "sim/grid.hpp"
#include "sim/metrics.hpp"
#include "sim/random.hpp"
#include "sim/rules.hpp"
#include "sim/scene_loader.hpp"
#include "sim/scene_toml.hpp"
#include "sim/stability.hpp"
#include "sim/state_csv.hpp"
#include "sim/walls.hpp"

namespace murmur::sim {
namespace {

namespace fs = std::filesystem;

// The message of the InputError that parsing `text` with otherSections throws ("" when none).
std::string parseError(const std::string& text, std::span<const SceneSection> otherSections = {}) {
  try {
    parseScene(text, "test.toml", otherSections);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

std::string repeated(const std::string& unit, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += unit;
  return out;
}

// ---- 1. Nesting: toml++ recursed once per level and overflowed the stack (SIGSEGV) ----

TEST(SceneHardLimits, FiftyThousandDottedKeysAreRefusedNotACrash) {
  const std::string dotted = "a" + repeated(".a", 50'000) + " = 1\n";
  EXPECT_NE(parseError(dotted).find("test.toml:1: nesting deeper than 64 levels"), std::string::npos)
      << parseError(dotted);
  const std::string header = "[a" + repeated(".a", 50'000) + "]\n";
  EXPECT_NE(parseError(header).find("nesting deeper than 64"), std::string::npos);
  // Quoted segments, arrays and inline tables count too; the line is the offending one.
  EXPECT_NE(parseError("\n\n\"a\"" + repeated(".\"a\"", 100) + " = 1").find("test.toml:3:"),
            std::string::npos);
  EXPECT_NE(parseError("x = " + repeated("[", 100) + repeated("]", 100)).find("nesting deeper"),
            std::string::npos);
  EXPECT_NE(parseError("x = " + repeated("{a=", 100) + "1" + repeated("}", 100)).find("nesting deeper"),
            std::string::npos);
}

TEST(SceneHardLimits, NestingWithinTheLimitAndDotsInStringsOrCommentsAreNotCounted) {
  // 64 levels: toml++ parses it (and the loader reports the unknown section, not the nesting).
  const std::string deep = "a" + repeated(".a", kMaxSceneNesting - 1) + " = 1\n";
  EXPECT_NE(parseError(deep).find("unknown section"), std::string::npos) << parseError(deep);
  const std::string dots = "# " + repeated(".", 500) + "\n[world]\nmin = [-1.5, -2.5, -3.5] # 1.2.3\n";
  // In a section sim leaves unread, a string of any length.
  const SceneSection unread[] = {{"render", false}};
  EXPECT_EQ(parseError(dots + "[render]\nx = \"" + repeated(".", 500) + "\"\n", unread), "");
}

TEST(SceneHardLimits, OversizedTextIsRefused) {
  const std::string big(kMaxSceneBytes + 1, '\n');
  EXPECT_NE(parseError(big).find("the limit is"), std::string::npos);
}

// ---- 5. Float32 range, magnitudes and combinations ----

TEST(SceneHardLimits, NumbersBeyondFloat32AreRefusedAtTheirKey) {
  // 1e39 is a finite double but an infinite float: it was accepted and gave inf in the model.
  EXPECT_NE(parseError("[boids]\nmax_speed = 1e39\n")
                .find("test.toml:2: boids.max_speed: must be a finite number "
                      "within float32 range"),
            std::string::npos);
  EXPECT_NE(
      parseError("[world]\nmin = [0, 0, -1e39]\n").find("world.min: must be a finite number within float32"),
      std::string::npos);
  // The same reader serves the ai and render sections: checked for every module at once.
  const std::string doc = "[render]\ncamera_distance = 1e39\n";
  SceneDocument document;
  document.root = toml::parse(doc);
  document.path = "test.toml";
  TableReader root(document.path, document.root, "");
  TableReader render = *root.table("render");
  try {
    render.number("camera_distance");
    FAIL() << "1e39 accepted";
  } catch (const InputError& error) {
    EXPECT_EQ(error.key(), "render.camera_distance");
  }
}

TEST(SceneHardLimits, ValuesThatOverflowedTheFirstStepAreRefusedBeforeTheRun) {
  // Each of these ran the whole simulation and then failed with non-finite state (exit 3).
  EXPECT_NE(parseError("[boids]\nmass = 1e-45\n").find("boids.mass: max_force / mass is"), std::string::npos);
  EXPECT_NE(parseError("[boids]\nmax_speed = 1e20\n").find("boids.max_speed: must be within +-1e+09"),
            std::string::npos);
  EXPECT_NE(
      parseError("[weights]\ncohesion = 3e38\n").find("weights.cohesion: the forces of a step could reach"),
      std::string::npos);
  EXPECT_NE(parseError("[cruise]\nspeed = 3e38\n").find("cruise.speed: must be within"), std::string::npos);
  EXPECT_NE(parseError("[world]\nmin = [-3e38, -3e38, -3e38]\nmax = [3e38, 3e38, 3e38]\n")
                .find("world.min: must be within"),
            std::string::npos);
  EXPECT_NE(parseError("[perception]\nmin_distance = 1e-30\n").find("weights.separation: the forces"),
            std::string::npos);
  // The shipped defaults are far inside every limit.
  EXPECT_EQ(parseError(""), "");
}

// The lab's stability rule (docs/model.md, Stability) against hand-computed terms of lab-book
// (max_force 20, max_speed 10, dt 1/60, the interceptors' thrust 1.5, model.steering 0.6, Rs 3.75,
// d_min 0.25): the drag's 20 sqrt(1.5) / 60 / 10 = 0.0408 and the push's (10 sqrt(1.5) + 0.6 x 20 x
// 15 / 60) / 300 = 0.0508; the stable speed 10^2 / (20 / 60) = 300.
TEST(SceneHardLimits, TheLabsStabilityTermsAreTheDocumentedOnes) {
  const std::string path = MURMUR_SOURCE_DIR "/scenes/lab-book.toml";
  const SceneSection others[] = {{"agents", true}, {"render", false}};  // read above sim
  const Scene book = loadScene(path, others);
  EXPECT_DOUBLE_EQ(labStableSpeed(book.model), 100.0 / (20.0 * double(book.model.dt)));
  const std::vector<StabilityTerm> terms = stabilityTerms(book);
  ASSERT_EQ(terms.size(), 4u);
  EXPECT_NEAR(terms[2].value, 20.0 * std::sqrt(1.5) / 60.0 / 10.0, 1e-6);
  EXPECT_EQ(terms[2].limit, 0.5);
  EXPECT_NEAR(terms[3].value, (10.0 * std::sqrt(1.5) + 0.6 * 20.0 * 15.0 / 60.0) / 300.0, 1e-6);
  EXPECT_EQ(terms[3].limit, 1.0);
  // The boids' model has the float32 terms only.
  EXPECT_EQ(stabilityTerms(parseScene("", "boids.toml")).size(), 2u);
  // Which key a refusal names: the one furthest from its default.
  const auto keyOf = [&](const std::string& set) {
    try {
      const SceneOverride change{set.substr(0, set.find('=')), set.substr(set.find('=') + 1), "--set", 0};
      loadScene(path, others, std::span(&change, 1));
    } catch (const InputError& error) {
      return error.key();
    }
    return std::string();
  };
  EXPECT_EQ(keyOf("sim.dt=1"), "sim.dt");
  EXPECT_EQ(keyOf("boids.max_force=500"), "boids.max_force");
  EXPECT_EQ(keyOf("boids.max_force=160"), "");
}

TEST(SceneHardLimits, ObstacleCountIsLimited) {
  const std::string one = "[[obstacles]]\ncenter = [0, 0, 0]\nradius = 1\n";
  EXPECT_EQ(parseError(repeated(one, int(kMaxObstacles))), "");
  EXPECT_NE(parseError(repeated(one, int(kMaxObstacles) + 1)).find("obstacles[1024]: at most 1024 obstacles"),
            std::string::npos);
}

TEST(SceneHardLimits, StateCsvVelocityBeyondTheMagnitudeLimitIsRefused) {
  const fs::path file = fs::temp_directory_path() / "murmur_hardening_velocity.csv";
  std::ofstream(file) << "id,group,x,y,z,vx,vy,vz\n0,0,0,0,0,1e30,0,0\n";
  try {
    readStateCsv(file.string(), ModelParams{});
    FAIL() << "accepted";
  } catch (const InputError& error) {
    EXPECT_EQ(error.line(), 2u);
    EXPECT_EQ(error.key(), "vx");
  }
  fs::remove(file);
}

TEST(SceneHardLimits, RunMemoryIsEstimatedAndRefusedWithTheFigure) {
  EXPECT_GT(estimateRunBytes(1'000'000), 1'000'000u * 100u);
  const auto machine = [](std::uint64_t bytes) {
    return core::MemoryLimit{bytes, "this machine's {:.1f} GiB of memory"};
  };
  EXPECT_NO_THROW(checkRunMemory(1'000'000, "s.toml", machine(std::uint64_t(8) << 30)));
  try {
    checkRunMemory(100'000'000, "s.toml", machine(std::uint64_t(1) << 30));
    FAIL() << "accepted";
  } catch (const InputError& error) {
    EXPECT_EQ(error.key(), "boids.count");
    EXPECT_NE(std::string(error.what()).find("more than this machine's 1.0 GiB"), std::string::npos)
        << error.what();
  }
}

// ---- 4. Grid and wall indexing ----

TEST(GridLimits, HugeWorldOrTinyRadiusNeverCollapsesTheGrid) {
  // float -> int of 2e11 cells was undefined; on x86 it gave INT_MIN, so one cell for everything.
  ModelParams wide;
  wide.worldMin = glm::vec3(-5e11f);
  wide.worldMax = glm::vec3(5e11f);
  GridSpec grid = makeGridSpec(wide);
  EXPECT_GT(grid.cells.x, 200);
  EXPECT_LE(grid.cellCount(), kDefaultMaxCells);
  ModelParams tiny;
  tiny.perceptionRadius = 1e-9f;
  tiny.leaderRadius = 1e-9f;
  grid = makeGridSpec(tiny);
  EXPECT_GT(grid.cells.x, 200);
  EXPECT_LE(grid.cellCount(), kDefaultMaxCells);
  // Validation refuses what would make the cells much wider than R, naming the key.
  EXPECT_NE(
      parseError(
          "[perception]\nradius = 1e-9\nleader_radius = 1e-9\nseparation_radius = 0\nmin_distance = 1e-9\n")
          .find("perception.radius: too small for the world"),
      std::string::npos);
  // Far and non-finite positions land in edge cells (no int conversion of 1e30 or NaN).
  const GridSpec spec = makeGridSpec(ModelParams{});
  EXPECT_EQ(spec.cellCoord(glm::vec3(1e30f, -1e30f, std::nanf(""))), glm::ivec3(spec.cells.x - 1, 0, 0));
  // A NaN coordinate leaves no row out: the boids swept with it (sim::kSweepBatch, one cell) lose
  // none of theirs. A point mid-cell leaves out the rows around it at a small reach.
  const glm::ivec3 c(2, 2, 2);
  const glm::vec3 mid = spec.origin + (glm::vec3(c) + 0.5f) * spec.cellSize;
  const RowReach midCell(spec, c, mid, 0.01f, 3);
  const RowReach withNaN(spec, c, glm::vec3(std::nanf("")), mid, 0.01f, 3);
  EXPECT_FALSE(midCell(c.y - 1, c.z - 1, false));
  EXPECT_TRUE(withNaN(c.y - 1, c.z - 1, false));
  EXPECT_FALSE(withNaN(c.y + 1, c.z + 1, false));
}

TEST(GridLimits, WallCellOfAFarPointIsOutsideWithoutOverflow) {
  WallGrid walls;
  walls.width = 65;
  walls.height = 3;
  walls.blocked.assign(65 * 3, 1);
  // 1e30 has no int64 value: the cast gave INT64_MIN and cellAt multiplied it by the width.
  EXPECT_EQ(walls.cellAt(glm::vec3(1e30f, 0.0f, 1e30f)), -1);
  EXPECT_EQ(walls.cellAt(glm::vec3(1.5f, 0.0f, 1e30f)), -1);
  EXPECT_EQ(walls.cellAt(glm::vec3(std::nanf(""), 0.0f, 1.0f)), -1);
  EXPECT_FALSE(walls.blockedAt(glm::vec3(1e30f, 0.0f, 1e30f)));
  EXPECT_EQ(walls.cellAt(glm::vec3(64.5f, 0.0f, 2.5f)), 2 * 65 + 64);
}

// ---- One-line errors ----

TEST(InputErrors, ControlCharactersAreEscapedAndLongPartsCut) {
  const std::string what =
      InputError("f\n.toml", 3, "a\nb", "value \x1b[31mred\r" + std::string(5000, 'x')).what();
  EXPECT_EQ(what.find('\n'), std::string::npos);
  EXPECT_EQ(what.find('\x1b'), std::string::npos);
  EXPECT_EQ(what.find('\r'), std::string::npos);
  EXPECT_NE(what.find("f\\n.toml:3: a\\nb: value \\x1b[31mred\\r"), std::string::npos) << what;
  EXPECT_LT(what.size(), 800u);
  // A key holding a newline, and a CR-only file that toml++ echoes whole.
  EXPECT_EQ(parseError("\"a\\nb\" = 1\n").find('\n'), std::string::npos);
  const std::string crOnly = parseError(repeated("[world]\rdims = 2\r", 2000) + "= =\r");
  EXPECT_FALSE(crOnly.empty());
  EXPECT_EQ(crOnly.find('\r'), std::string::npos);
  EXPECT_LT(crOnly.size(), 800u);
}

// ---- 2. Output files ----

TEST(OutputPaths, OnlyRegularFilesInWritableDirectoriesAreTargets) {
  const fs::path dir = fs::temp_directory_path() / "murmur_hardening_out";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto refused = [](const std::string& path) {
    try {
      core::checkOutputFile(path, "--dump");
    } catch (const InputError& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  EXPECT_EQ(refused((dir / "new.csv").string()), "");
  EXPECT_NE(refused("/dev/full").find("not a regular file"), std::string::npos);
  fs::create_symlink("/dev/full", dir / "link.csv");
  EXPECT_NE(refused((dir / "link.csv").string()).find("symbolic link"), std::string::npos);
  EXPECT_NE(refused(dir.string()).find("is a directory"), std::string::npos);
  EXPECT_NE(refused((dir / "missing" / "x.csv").string()).find("does not exist"), std::string::npos);
  EXPECT_NO_THROW(core::checkOutputDirectory((dir / "frames" / "deeper").string(), "--frames"));
  EXPECT_FALSE(fs::exists(dir / "frames"));  // checked, not created
  EXPECT_THROW(core::checkOutputDirectory("/dev/full", "--frames"), InputError);
  // The atomic write never touches a file named like the old fixed temporary, and leaves no other.
  std::ofstream(dir / "s.csv.tmp") << "keep";
  FlockState state;
  state.position = {glm::vec3(1.0f, 2.0f, 3.0f)};
  state.velocity = {glm::vec3(0.0f)};
  state.group = {0};
  writeStateCsv((dir / "s.csv").string(), state);
  EXPECT_EQ(std::ifstream(dir / "s.csv.tmp").rdbuf()->sgetc(), 'k');
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) files += entry.is_regular_file() ? 1 : 0;
  EXPECT_EQ(files, 2u);  // s.csv and s.csv.tmp
  EXPECT_THROW(writeStateCsv((dir / "link.csv").string(), state), InputError);
  EXPECT_TRUE(fs::is_symlink(dir / "link.csv"));
  fs::remove_all(dir);
}

// ---- 3. The summary on a sparse flock ----

TEST(SparseSummary, NearestDistancesEqualBruteForce) {
  for (const Boundary boundary : {Boundary::Contain, Boundary::Wrap}) {
    Scene scene;
    scene.model.boundary = boundary;
    scene.model.worldMin = glm::vec3(-1000.0f);
    scene.model.worldMax = glm::vec3(1000.0f);
    scene.count = 3000;
    const FlockState state = spawnFlock(scene);
    const FlockMetrics metrics = measureFlock(scene.model, state);
    double sum = 0.0, closest = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < state.size(); ++i) {
      float best2 = std::numeric_limits<float>::infinity();
      for (std::size_t j = 0; j < state.size(); ++j) {
        if (j == i) continue;
        glm::vec3 d = state.position[j] - state.position[i];
        if (boundary == Boundary::Wrap) d = minimumImage(d, scene.model.worldSize());
        best2 = std::min(best2, glm::dot(d, d));
      }
      sum += std::sqrt(double(best2));
      closest = std::min(closest, std::sqrt(double(best2)));
    }
    EXPECT_EQ(metrics.meanNearestDistance, sum / double(state.size()));
    EXPECT_EQ(metrics.minPairDistance, closest);
  }
}

TEST(SparseSummary, AHundredThousandBoidRunSummarisesFasterThanItSimulates) {
  // The case: 1e5 boids in a 2000^3 wrap world took 0.59 s a step and 61 s to summarise.
  // A short run (10 steps) against its summary; the summary is now about two steps' worth.
  Scene scene;
  scene.model.boundary = Boundary::Wrap;
  scene.model.worldMin = glm::vec3(-1000.0f);
  scene.model.worldMax = glm::vec3(1000.0f);
  scene.count = 100'000;
  validateScene(scene);
  FlockState state = spawnFlock(scene);
  const StepInputs inputs = staticInputs(scene, state.groups);
  CpuSimulator simulator(NeighbourSearch::Grid);
  const auto start = std::chrono::steady_clock::now();
  for (int step = 0; step < 10; ++step) simulator.step(scene.model, inputs, state);
  const auto simulated = std::chrono::steady_clock::now();
  const FlockMetrics metrics = measureFlock(scene.model, state);
  const auto summarised = std::chrono::steady_clock::now();
  EXPECT_EQ(metrics.nonFinite, 0u);
  EXPECT_GT(metrics.meanNearestDistance, scene.model.perceptionRadius);  // sparse: most boids alone
  EXPECT_LT(summarised - simulated, simulated - start);
}

}  // namespace
}  // namespace murmur::sim

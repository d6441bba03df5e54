// `murmur run` end to end: dumps, determinism, round trips, and every kind of bad input (exit 2,
// one line on stderr, no output file).
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"

namespace murmur::test {
namespace {

namespace fs = std::filesystem;

void expectBadInput(const CliResult& r, const std::string& mention) {
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_EQ(countLines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find(mention), std::string::npos) << r.err;
}

// --backend auto falls back to the cpu only when no GL context can be made. A flock shader that does
// not compile (MURMUR_SHADER_DIR overrides the embedded one) is a bug: the run fails with the
// compiler's file:line (exit 3 as any failure that is not bad input) instead of quietly running on the cpu.
// On llvmpipe auto compiles the gpu backend's shaders before it picks the cpu, so this holds on any GL
// device.
TEST(RunCli, AutoFailsOnABrokenShaderInsteadOfFallingBack) {
  const fs::path dir = scratchDir("run_broken_shader");
  fs::create_directories(dir / "flock");
  std::ofstream(dir / "flock" / "Step.comp.glsl") << "#version 430\nthis is not GLSL\n";
  const std::string args = "run --scene scenes/free.toml --boids 50 --steps 1 --backend auto";
  const CliResult fine = runMurmur(args);
  ASSERT_EQ(fine.exitCode, 0) << fine.err;
  ASSERT_NE(fine.err.find("murmur: backend "), std::string::npos) << fine.err;
  ScopedEnv shaders("MURMUR_SHADER_DIR", dir.string());
  const CliResult broken = runMurmur(args);
  EXPECT_EQ(broken.exitCode, 3) << broken.err;
  EXPECT_NE(broken.err.find("Step.comp.glsl:2"), std::string::npos) << broken.err;
  EXPECT_EQ(broken.err.find("backend cpu"), std::string::npos) << broken.err;
}

TEST(RunCli, DumpHasHeaderAndOneRowPerBoid) {
  const fs::path dir = scratchDir("run_dump");
  const CliResult r = runMurmur("run --scene scenes/free.toml --boids 300 --steps 20 --backend cpu --dump " +
                                (dir / "s.csv").string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string csv = readFile(dir / "s.csv");
  EXPECT_EQ(csv.rfind("id,group,x,y,z,vx,vy,vz\n", 0), 0u);
  EXPECT_EQ(countLines(csv), 301u);
  EXPECT_FALSE(fs::exists(dir / "s.csv.tmp"));
}

TEST(RunCli, SameSeedAndBackendGiveByteIdenticalDumps) {
  const fs::path dir = scratchDir("run_determinism");
  for (const std::string backend : {"cpu", "cpu-naive"}) {
    for (const char* name : {"a.csv", "b.csv"}) {
      const CliResult r =
          runMurmur("run --scene scenes/free.toml --boids 400 --steps 30 --seed 9 --backend " + backend +
                    " --dump " + (dir / name).string());
      ASSERT_EQ(r.exitCode, 0) << r.err;
    }
    EXPECT_EQ(readFile(dir / "a.csv"), readFile(dir / "b.csv")) << backend;
  }
  // The two searches agree bit for bit too (same candidates in the same order).
  runMurmur("run --scene scenes/free.toml --boids 400 --steps 30 --seed 9 --backend cpu --dump " +
            (dir / "grid.csv").string());
  EXPECT_EQ(readFile(dir / "a.csv"), readFile(dir / "grid.csv"));
  // Another seed gives another flock.
  runMurmur("run --scene scenes/free.toml --boids 400 --steps 30 --seed 10 --backend cpu --dump " +
            (dir / "c.csv").string());
  EXPECT_NE(readFile(dir / "a.csv"), readFile(dir / "c.csv"));
}

TEST(RunCli, StepsZeroDumpsTheInitialStateAndInitRoundTrips) {
  const fs::path dir = scratchDir("run_roundtrip");
  ASSERT_EQ(runMurmur("run --scene scenes/wrap2d.toml --boids 100 --steps 0 --backend cpu --dump " +
                      (dir / "init.csv").string())
                .exitCode,
            0);
  ASSERT_EQ(runMurmur("run --scene scenes/wrap2d.toml --init " + (dir / "init.csv").string() +
                      " --steps 0 --backend cpu --dump " + (dir / "again.csv").string())
                .exitCode,
            0);
  EXPECT_EQ(readFile(dir / "init.csv"), readFile(dir / "again.csv"));
  // Ten steps from the file equal ten steps from the seed.
  ASSERT_EQ(runMurmur("run --scene scenes/wrap2d.toml --boids 100 --steps 10 --backend cpu --dump " +
                      (dir / "direct.csv").string())
                .exitCode,
            0);
  ASSERT_EQ(runMurmur("run --scene scenes/wrap2d.toml --init " + (dir / "init.csv").string() +
                      " --steps 10 --backend cpu --dump " + (dir / "fromfile.csv").string())
                .exitCode,
            0);
  EXPECT_EQ(readFile(dir / "direct.csv"), readFile(dir / "fromfile.csv"));
}

class BadStateCsv : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = scratchDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  CliResult runWith(const std::string& csv) {
    std::ofstream(dir_ / "in.csv") << csv;
    return runMurmur("run --scene scenes/free.toml --backend cpu --steps 1 --init " +
                     (dir_ / "in.csv").string() + " --dump " + (dir_ / "out.csv").string());
  }
  void TearDown() override { EXPECT_FALSE(fs::exists(dir_ / "out.csv")); }
  fs::path dir_;
};

TEST_F(BadStateCsv, MissingColumn) {
  expectBadInput(runWith("id,group,x,y,z,vx,vy\n0,0,1,2,3,1,0\n"), "in.csv:1: vz:");
}
TEST_F(BadStateCsv, NonNumberNamesItsLine) {
  expectBadInput(runWith("id,group,x,y,z,vx,vy,vz\n0,0,1,2,3,1,0,0\n1,0,1,abc,3,1,0,0\n"),
                 "in.csv:3: y: not a number");
}
TEST_F(BadStateCsv, NaNIsRejected) {
  expectBadInput(runWith("id,group,x,y,z,vx,vy,vz\n0,0,1,2,3,nan,0,0\n"),
                 "in.csv:2: vx: not a finite number");
}
TEST_F(BadStateCsv, IdsOutOfOrder) {
  expectBadInput(runWith("id,group,x,y,z,vx,vy,vz\n1,0,1,2,3,1,0,0\n"), "in.csv:2: id:");
}
TEST_F(BadStateCsv, OutsideTheWorld) {
  expectBadInput(runWith("id,group,x,y,z,vx,vy,vz\n0,0,1,2,300,1,0,0\n"), "in.csv:2: z:");
}
TEST_F(BadStateCsv, MissingFile) {
  expectBadInput(runMurmur("run --scene scenes/free.toml --backend cpu --init /nonexistent/in.csv"),
                 "/nonexistent/in.csv");
}

// Issue 50, item 9: with stderr not a terminal (a log, CI) a long run printed nothing until it
// ended. Now a line every 5% of the work, at most one per MURMUR_PROGRESS_EVERY seconds.
TEST(RunCli, ProgressGoesToALogAsLinesOfTheirOwn) {
  const std::string run = "run --scene scenes/free.toml --backend cpu --boids 4000 --steps 1500";
  const CliResult r = runMurmur(run, "MURMUR_PROGRESS_EVERY=0.2");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::istringstream lines(r.err);
  std::vector<unsigned long> done;
  std::string line, lastLine;
  while (std::getline(lines, line)) {
    ASSERT_EQ(line.rfind("[progress] step ", 0), 0u) << r.err;
    done.push_back(std::stoul(line.substr(16)));
    lastLine = line;
  }
  ASSERT_GE(done.size(), 2u) << r.err;
  for (std::size_t i = 1; i + 1 < done.size(); ++i)  // 5% apart, but the last: the end
    EXPECT_GE(done[i] - done[i - 1], 75u) << r.err;
  EXPECT_NE(lastLine.find("step 1500/1500 (100%)"), std::string::npos) << r.err;
  EXPECT_NE(lastLine.find("0:00 left"), std::string::npos) << r.err;
  EXPECT_EQ(runMurmur(run).err, "");  // by default the first line comes after 10 s
  const CliResult bad = runMurmur(run, "MURMUR_PROGRESS_EVERY=soon");
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_EQ(countLines(bad.err), 1u) << bad.err;
  EXPECT_NE(bad.err.find("MURMUR_PROGRESS_EVERY: 'soon' is not a number of seconds"), std::string::npos)
      << bad.err;
}

TEST(RunCli, UnwritableDumpFailsBeforeSimulating) {
  const CliResult r = runMurmur(
      "run --scene scenes/free.toml --boids 100 --steps 100000000 --backend cpu --dump "
      "/nonexistent/dir/out.csv");
  expectBadInput(r, "/nonexistent/dir/out.csv");
}

TEST(RunCli, NegativeStepsAndUnknownBackend) {
  expectBadInput(runMurmur("run --scene scenes/free.toml --backend cpu --steps -3"), "--steps");
  expectBadInput(runMurmur("run --scene scenes/free.toml --backend quantum --steps 1"), "quantum");
  expectBadInput(runMurmur("run --scene scenes/free.toml --backend cpu --boids -5"), "--boids");
}

// More boids than the device's storage buffers can address (--force: past the spawn's cost): refused
// before anything is spawned.
TEST(RunCli, TooManyBoidsForTheGpuNamesCountAndLimit) {
  const fs::path dir = scratchDir("run_capacity");
  const CliResult r =
      runMurmur("run --scene scenes/free.toml --backend gpu --boids 100000000 --steps 1 --force --dump " +
                (dir / "out.csv").string());
  expectBadInput(r, "100000000");
  EXPECT_NE(r.err.find("at most"), std::string::npos) << r.err;  // the limit follows
  EXPECT_FALSE(fs::exists(dir / "out.csv"));
}

// A scene sized for a GPU: boids.gpu_count is the count on the gpu backend (llvmpipe's here), the
// cpu backends run boids.count, and --boids sets the count on both.
TEST(RunCli, GpuCountSizesTheFlockOnTheGpuBackend) {
  const fs::path dir = scratchDir("run_gpu_count");
  std::ofstream(dir / "sized.toml") << "[boids]\ncount = 120\ngpu_count = 340\n";
  const auto boids = [&](const std::string& args) {
    const CliResult r =
        runMurmur("run --scene " + (dir / "sized.toml").string() + " --steps 1 --json " + args);
    EXPECT_EQ(r.exitCode, 0) << args << "\n" << r.err;
    const std::size_t at = r.out.find("\"boids\":");
    return at == std::string::npos ? std::string("none")
                                   : r.out.substr(at + 8, r.out.find_first_of(",}", at) - at - 8);
  };
  EXPECT_EQ(boids("--backend gpu"), "340");
  EXPECT_EQ(boids("--backend gpu-exact"), "340");
  EXPECT_EQ(boids("--backend cpu"), "120");
  EXPECT_EQ(boids("--backend gpu --boids 50"), "50");
  EXPECT_EQ(boids("--backend cpu --boids 50"), "50");
  // Issue 50, item 6: a line says when gpu_count set a count the cpu backends would not run.
  EXPECT_NE(runMurmur("run --scene " + (dir / "sized.toml").string() + " --steps 1 --backend gpu")
                .err.find("340 boids on the gpu backend (the scene's boids.gpu_count; 120 on the cpu ones"),
            std::string::npos);
  std::ofstream(dir / "bad.toml") << "[boids]\ncount = 120\ngpu_count = -3\n";
  expectBadInput(runMurmur("run --scene " + (dir / "bad.toml").string() + " --steps 1 --backend cpu"),
                 "gpu_count");
}

TEST(RunCli, BadSceneNamesFileLineAndKey) {
  const fs::path dir = scratchDir("run_bad_scene");
  std::ofstream(dir / "bad.toml") << "[world]\ndims = 3\n\n[perception]\nradius = -1\n";
  const CliResult r = runMurmur("run --scene " + (dir / "bad.toml").string() + " --backend cpu --steps 1");
  expectBadInput(r, "bad.toml:5: perception.radius");
  expectBadInput(runMurmur("run --scene /nonexistent/scene.toml --backend cpu"), "/nonexistent/scene.toml");
}

}  // namespace
}  // namespace murmur::test

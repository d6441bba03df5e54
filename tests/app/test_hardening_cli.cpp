// Regression tests of issue 13 for the `murmur` command: safe --dump targets, numeric flags, exit
// codes, one-line errors, and bad inputs that crashed or ran before failing.
#include <gtest/gtest.h>

#include <fstream>

#include "cli.hpp"

namespace murmur::test {
namespace {

namespace fs = std::filesystem;

void expectOneLineExit2(const CliResult& r, const std::string& mention) {
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_EQ(countLines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find(mention), std::string::npos) << r.err;
}

const std::string kRun = "run --scene scenes/free.toml --boids 50 --steps 2 --backend cpu";

TEST(HardeningCli, DumpNeverReplacesADeviceOrALink) {
  const fs::path dir = scratchDir("hardening_dump");
  // /dev/full as a device node and through a link: it was replaced by a regular file (as root,
  // /dev/stdout too); now refused before the run, and the link is left alone.
  expectOneLineExit2(runMurmur(kRun + " --dump /dev/full"), "not a regular file");
  fs::create_symlink("/dev/full", dir / "full.csv");
  expectOneLineExit2(runMurmur(kRun + " --dump " + (dir / "full.csv").string()), "symbolic link");
  EXPECT_TRUE(fs::is_symlink(dir / "full.csv"));
  fs::create_symlink("/proc/self/fd/1", dir / "stdout.csv");
  expectOneLineExit2(runMurmur(kRun + " --dump " + (dir / "stdout.csv").string()), "symbolic link");
  EXPECT_TRUE(fs::is_symlink(dir / "stdout.csv"));
}

TEST(HardeningCli, DirectoryTargetIsRefusedBeforeSimulating) {
  const fs::path dir = scratchDir("hardening_dump_dir");
  // 1e8 steps would run for hours: refused up front, in a moment.
  expectOneLineExit2(runMurmur("run --scene scenes/free.toml --boids 50 --steps 100000000 --backend cpu --dump " +
                               dir.string()),
                     "is a directory");
}

TEST(HardeningCli, AnExistingTmpFileIsNeverDeleted) {
  const fs::path dir = scratchDir("hardening_dump_tmp");
  std::ofstream(dir / "out.csv.tmp") << "mine";
  // A rejected scene, then a good run: OUT.tmp survives both (it was deleted by the probe).
  const fs::path bad = dir / "bad.toml";
  std::ofstream(bad) << "[boids]\nmass = 0\n";
  EXPECT_EQ(runMurmur("run --scene " + bad.string() + " --dump " + (dir / "out.csv").string()).exitCode, 2);
  ASSERT_EQ(runMurmur(kRun + " --dump " + (dir / "out.csv").string()).exitCode, 0);
  EXPECT_EQ(readFile(dir / "out.csv.tmp"), "mine");
  EXPECT_EQ(countLines(readFile(dir / "out.csv")), 51u);
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 3u);  // bad.toml, out.csv, out.csv.tmp: no temporary left behind
}

TEST(HardeningCli, NumericFlagsRejectOverflowEmptyAndOutOfRangeValues) {
  // INT64_MIN was the "not given" marker; 2^66 saturated to INT64_MAX; "" became 0; -5 was a device.
  for (const std::string flag : {"--seed", "--boids", "--steps"}) {
    expectOneLineExit2(runMurmur(kRun + " " + flag + " -9223372036854775808"), flag);
    expectOneLineExit2(runMurmur(kRun + " " + flag + " 99999999999999999999"), flag);
    expectOneLineExit2(runMurmur(kRun + " " + flag + " ''"), flag);
    // The whole text must be the integer (core::parseNumber): no trailing text, no exponent.
    expectOneLineExit2(runMurmur(kRun + " " + flag + " 5x"), "'5x' is not an integer");
    expectOneLineExit2(runMurmur(kRun + " " + flag + " 1e3"), "'1e3' is not an integer");
  }
  expectOneLineExit2(runMurmur(kRun + " --device -5"), "--device");
  expectOneLineExit2(runMurmur("demo --headless --steps 1 --every -9223372036854775808"), "--every");
  expectOneLineExit2(runMurmur("demo --headless --steps 1 --msaa ''"), "--msaa");
  expectOneLineExit2(runMurmur("compare --scene scenes/free.toml --steps 99999999999999999999"), "--steps");
}

TEST(HardeningCli, ANonexistentDeviceIsBadInputInEveryCommand) {
  // demo exited 3, devices exited 1 with nothing on stderr, run exited 2.
  expectOneLineExit2(runMurmur("devices --device 99"), "--device");
  expectOneLineExit2(runMurmur("demo --headless --steps 1 --device 99"), "--device");
  EXPECT_EQ(runMurmur("run --scene scenes/free.toml --boids 50 --steps 1 --backend gpu --device 99").exitCode, 2);
}

TEST(HardeningCli, DemoWithABadSceneLeavesNoFrameDirectory) {
  const fs::path dir = scratchDir("hardening_demo_frames");
  const fs::path bad = dir / "bad.toml";
  std::ofstream(bad) << "[boids]\ncount = -1\n";
  expectOneLineExit2(runMurmur("demo --headless --scene " + bad.string() + " --frames " + (dir / "frames").string()),
                     "boids.count");
  EXPECT_FALSE(fs::exists(dir / "frames"));
}

TEST(HardeningCli, DeeplyNestedSceneIsBadInputNotACrash) {
  const fs::path dir = scratchDir("hardening_nesting");
  std::string key = "a";
  for (int i = 0; i < 50'000; ++i) key += ".a";
  std::ofstream(dir / "deep.toml") << key << " = 1\n";
  expectOneLineExit2(runMurmur("run --backend cpu --scene " + (dir / "deep.toml").string()), "nesting deeper");
}

TEST(HardeningCli, OverflowingParametersFailBeforeTheRun) {
  const fs::path dir = scratchDir("hardening_overflow");
  std::ofstream(dir / "mass.toml") << "[boids]\ncount = 100\nmass = 1e-45\n";
  // This ran every step, then failed with non-finite state (exit 3).
  expectOneLineExit2(runMurmur("run --backend cpu --steps 100000000 --scene " + (dir / "mass.toml").string()),
                     "boids.mass");
}

}  // namespace
}  // namespace murmur::test

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
  expectOneLineExit2(
      runMurmur("run --scene scenes/free.toml --boids 50 --steps 100000000 --backend cpu --dump " +
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
  EXPECT_EQ(runMurmur("run --scene scenes/free.toml --boids 50 --steps 1 --backend gpu --device 99").exitCode,
            2);
}

TEST(HardeningCli, DemoWithABadSceneLeavesNoFrameDirectory) {
  const fs::path dir = scratchDir("hardening_demo_frames");
  const fs::path bad = dir / "bad.toml";
  std::ofstream(bad) << "[boids]\ncount = -1\n";
  expectOneLineExit2(
      runMurmur("demo --headless --scene " + bad.string() + " --frames " + (dir / "frames").string()),
      "boids.count");
  EXPECT_FALSE(fs::exists(dir / "frames"));
}

TEST(HardeningCli, DeeplyNestedSceneIsBadInputNotACrash) {
  const fs::path dir = scratchDir("hardening_nesting");
  std::string key = "a";
  for (int i = 0; i < 50'000; ++i) key += ".a";
  std::ofstream(dir / "deep.toml") << key << " = 1\n";
  expectOneLineExit2(runMurmur("run --backend cpu --scene " + (dir / "deep.toml").string()),
                     "nesting deeper");
}

TEST(HardeningCli, OverflowingParametersFailBeforeTheRun) {
  const fs::path dir = scratchDir("hardening_overflow");
  std::ofstream(dir / "mass.toml") << "[boids]\ncount = 100\nmass = 1e-45\n";
  // This ran every step, then failed with non-finite state (exit 3).
  expectOneLineExit2(runMurmur("run --backend cpu --steps 100000000 --scene " + (dir / "mass.toml").string()),
                     "boids.mass");
}

// Issue 51, item 7: flag errors printed control characters raw (ESC drove the terminal; a newline
// made two lines), `path --connect ""` ran as "0-connected", `devices` without EGL exited 1 (not in
// the README's table), and a closed stdout ended the process by SIGPIPE (exit 141).
TEST(HardeningCli, FlagsAreStrictAndMessagesEscaped) {
  const CliResult escape = runMurmur(kRun + " --seed \"$(printf '\033[31mX')\"");
  expectOneLineExit2(escape, "\\x1b[31mX");
  EXPECT_EQ(escape.err.find('\x1b'), std::string::npos) << escape.err;
  expectOneLineExit2(runMurmur(kRun + " --steps \"$(printf '5\nx')\""), "--steps");
  for (const char* connect : {"''", "+8", "0x8", "' 8'"})
    expectOneLineExit2(
        runMurmur(std::string("path --map data/maps/rooms-65-81.map --from 1,1 --to 3,3 --connect ") +
                  connect),
        "--connect");
  const CliResult none = runMurmur("devices", "__EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent");
  EXPECT_EQ(none.exitCode, 3) << none.err;
  EXPECT_EQ(countLines(none.err), 1u) << none.err;
  EXPECT_NE(none.err.find("no GL device in use"), std::string::npos) << none.err;
}

// Issue 51, item 5: under `ulimit -v 8G` 1e8 boids passed the physical-memory check and failed with
// "error: std::bad_alloc" (exit 3) after 21 s; the process's limit is checked with the machine's.
TEST(HardeningCli, AFlockOverTheProcesssMemoryLimitIsRefusedAtOnce) {
  expectOneLineExit2(
      runMurmur("run --scene scenes/free.toml --backend cpu --boids 100000000 --steps 1 --force",
                "ulimit -v 4000000;"),
      "boids.count: 100000000 boids need about 18.3 GiB, more than the 3.8 GiB this process may use "
      "(ulimit -v)");
}

// Issue 51, item 5: 5e7 boids were spawned (4.2 GB for 6.8 s) before their cost was refused; a
// 16384x16384 frame took 4.2 GB and 56 s; A* on a large map under `ulimit -v` printed
// "error: std::bad_alloc" naming no file. Each is now refused before its allocations: under a
// 1 GiB address space, which none of them would have got through.
TEST(HardeningCli, ImpossibleWorkIsRefusedBeforeItsAllocations) {
  const std::string limited = "ulimit -v 1000000;";
  expectOneLineExit2(
      runMurmur("run --scene scenes/free.toml --backend cpu --boids 50000000 --steps 1", limited),
      "boids.count: the flock would be packed too densely: 50000000 boids in the world's 28899 grid cells "
      "test at least 8.7e+10 candidates a step");
  const CliResult packed = runMurmur("run --scene scenes/free.toml --backend cpu --boids 50000000 --steps 1");
  EXPECT_NE(packed.err.find("widen the world at least 2.1x on each axis ([world] min, max), take a scene "
                            "made for it (murmuration), or pass --force"),
            std::string::npos)
      << packed.err;
  expectOneLineExit2(
      runMurmur("demo --headless --scene scenes/free.toml --size 16384x16384 --steps 1", limited),
      "--size: '16384x16384' is 268.4 million pixels a frame, over the limit of 33.2 million");

  const fs::path dir = scratchDir("hardening_big_map");
  {
    std::ofstream map(dir / "open.map");
    map << "type octile\nheight 8192\nwidth 8192\nmap\n";
    const std::string row(8192, '.');
    for (int y = 0; y < 8192; ++y) map << row << '\n';
  }
  std::ofstream(dir / "open.map.scen") << "version 1\n0\topen.map\t8192\t8192\t1\t1\t5\t5\t5.65685425\n";
  const std::string nodes = "the A* nodes of the 8192x8192 map need about 2.3 GiB, more than the 1.0 GiB";
  expectOneLineExit2(
      runMurmur("path --map " + (dir / "open.map").string() + " --from 1,1 --to 8000,8000", limited),
      "open.map: --map: " + nodes);
  expectOneLineExit2(runMurmur("path --scen " + (dir / "open.map.scen").string(), limited),
                     "open.map.scen:2: map: the A* nodes of the 1 map up to this row need about 2.3 GiB");
}

TEST(HardeningCli, AClosedStdoutEndsTheRunWithoutASignal) {
  const fs::path dir = scratchDir("hardening_sigpipe");
  const CommandOutput run =
      runCommand("cd '" + std::string(MURMUR_SOURCE_DIR) + "' && { '" + MURMUR_EXE +
                 "' run --scene scenes/free.toml --boids 50 --backend cpu --steps 100000 --every 1 "
                 "2>'" +
                 (dir / "err").string() + "'; echo $? >'" + (dir / "rc").string() + "'; } | head -1");
  EXPECT_NE(run.out.find("t = "), std::string::npos) << run.out;
  EXPECT_EQ(readFile(dir / "rc"), "0\n");
  EXPECT_NE(readFile(dir / "err").find("stdout was closed by its reader"), std::string::npos)
      << readFile(dir / "err");
}

// Values inside the documented ranges that made the lab diverge, noticed only by `run` after all
// its steps (exit 3), by `demo` not at all (exit 0, empty frames), by `compare` as -nan (exit 1):
// now refused at load by the stability rule, naming the key (docs/model.md, Stability).
TEST(HardeningCli, TheLabsStabilityRuleRefusesDivergingValuesAtLoad) {
  const std::string lab = "run --scene lab-book --backend cpu --steps 600 ";
  expectOneLineExit2(runMurmur(lab + "--set boids.max_force=500"),
                     "boids.max_force: max_force x dt x sqrt(thrust)");
  expectOneLineExit2(runMurmur(lab + "--set sim.dt=1"), "sim.dt: max_force x dt x sqrt(thrust)");
  expectOneLineExit2(runMurmur(lab + "--set sim.dt=0.2"), "sim.dt: one step's strongest push");
  const fs::path dir = scratchDir("hardening_lab_init");
  std::ofstream(dir / "fast.csv") << "id,group,x,y,z,vx,vy,vz\n0,0,0,0,0,1e9,0,0\n";
  expectOneLineExit2(
      runMurmur(lab + "--init " + (dir / "fast.csv").string()),
      "fast.csv:2: vx: a speed of 1e+09 is above the 300 at which the lab's drag steps stably");
  // Inside both terms (the push's reaches 1 near max_force 163) the whole run stays finite.
  const CliResult inside = runMurmur(lab + "--set boids.max_force=160");
  EXPECT_EQ(inside.exitCode, 0) << inside.err;
}

// 19 units packed within 0.1 of each other at dt = 0.1 s pass the rule (one neighbour's push) and
// diverge in a few steps: every command stops at the first non-finite step, exit 3, naming the
// step, the first such boid and the likeliest key; the demo leaves no frame of the diverged flock.
TEST(HardeningCli, EveryCommandStopsAtTheFirstNonFiniteStep) {
  const fs::path dir = scratchDir("hardening_diverging");
  {
    std::ofstream csv(dir / "packed.csv");
    csv << "id,group,x,y,z,vx,vy,vz\n";
    for (int i = 0; i < 19; ++i)
      csv << i << ',' << i % 2 << ',' << 0.01 * (i % 5) - 0.02 << ",0," << 0.01 * (i / 5) - 0.02 << ','
          << (i % 3) * 3 - 3 << ",0," << (i % 4) * 2 - 3 << "\n";
  }
  const std::string scene = " --scene lab-book --set sim.dt=0.1 --init " + (dir / "packed.csv").string();
  std::string firstMessage;
  for (const std::string& command :
       {"run --backend cpu --steps 600" + scene, "run --backend gpu-exact --steps 600" + scene,
        "compare --steps 600" + scene,
        "demo --headless --steps 600 --every 1 --size 64x48 --msaa 1 --frames " + (dir / "f").string() +
            scene}) {
    const CliResult r = runMurmur(command);
    EXPECT_EQ(r.exitCode, 3) << command << "\n" << r.err;
    const std::size_t at = r.err.find("the flock went non-finite at step ");
    ASSERT_NE(at, std::string::npos) << command << "\n" << r.err;
    EXPECT_NE(r.err.find("the key likeliest to blame: sim.dt"), std::string::npos) << r.err;
    // The same step on every backend (gpu-exact is cpu bit for bit on llvmpipe while the flock is
    // finite; which boids an infinity reaches first may differ).
    const std::string where = r.err.substr(at, r.err.find(", boid ", at) - at);
    if (firstMessage.empty()) firstMessage = where;
    EXPECT_EQ(where, firstMessage) << command;
  }
  EXPECT_EQ(firstMessage, "the flock went non-finite at step 8");
  EXPECT_FALSE(fs::exists(dir / "f"));
}

}  // namespace
}  // namespace murmur::test

// Regression tests of issue 21 for the `murmur` command: one output discipline for every file it
// writes (a full disk stands in as a file-size limit, `ulimit -f`; SIGTERM mid-run), one input
// discipline for every file it reads (FIFOs, devices, directories), checks before any work, and
// escaping in messages.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <fstream>
#include <string>
#include <vector>

#include "cli.hpp"

namespace murmur::test {
namespace {

namespace fs = std::filesystem;

void expectOneLine(const CliResult& r, int code, const std::string& mention) {
  EXPECT_EQ(r.exitCode, code) << r.err;
  EXPECT_EQ(countLines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find(mention), std::string::npos) << r.err;
}

// Names in dir holding ".tmp-": temporaries left behind.
std::vector<std::string> temporariesIn(const fs::path& dir) {
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().filename().string().find(".tmp-") != std::string::npos) left.push_back(entry.path().string());
  return left;
}

// A PNG is complete when it ends with its IEND chunk (and the chunk's CRC).
bool completePng(const fs::path& path) {
  const std::string bytes = readFile(path);
  return bytes.size() > 12 && bytes.compare(bytes.size() - 12, 12, std::string("\0\0\0\0IEND\xae\x42\x60\x82", 12)) == 0;
}

// Runs murmur in the background, sends it SIGTERM after `seconds` and waits for it.
CliResult terminateAfter(const std::string& args, double seconds) {
  const fs::path errFile = fs::temp_directory_path() / ("murmur_cli_term_" + std::to_string(::getpid()));
  const CommandOutput run = runCommand(std::string("cd '") + MURMUR_SOURCE_DIR + "' && '" + MURMUR_EXE + "' " + args +
                                       " 2>'" + errFile.string() + "' & pid=$!; sleep " + std::to_string(seconds) +
                                       "; kill -TERM $pid; wait $pid");
  CliResult result{run.exitCode, run.out, readFile(errFile)};
  fs::remove(errFile);
  return result;
}

const std::string kLongRun = "run --scene scenes/free.toml --boids 2000 --backend cpu --steps 1000000";

// Item 6: a full disk mid-write is exit code 3 and one line for --dump (it was 2), and the file
// that was there is kept.
TEST(OutputDiscipline, FullDiskDumpIsExit3AndKeepsTheOldFile) {
  const fs::path dir = scratchDir("discipline_dump_full");
  std::ofstream(dir / "out.csv") << "old";
  const CliResult r = runMurmur("run --scene scenes/free.toml --boids 2000 --steps 1 --backend cpu --dump " +
                                    (dir / "out.csv").string(),
                                "ulimit -f 16;");
  expectOneLine(r, 3, "File too large");
  EXPECT_EQ(readFile(dir / "out.csv"), "old");
  EXPECT_TRUE(temporariesIn(dir).empty());
}

// Items 1, 6: frames on a full disk were reported as written (exit 0, truncated and empty PNGs).
TEST(OutputDiscipline, FullDiskFramesAreExit3WithNoPartialPng) {
  const fs::path dir = scratchDir("discipline_frames_full");
  const CliResult r = runMurmur("demo --headless --scene scenes/free.toml --boids 200 --backend cpu --steps 40 "
                                "--every 10 --size 256x256 --msaa 1 --frames " + (dir / "frames").string(),
                                "ulimit -f 1;");
  expectOneLine(r, 3, "frame_");
  EXPECT_EQ(r.out.find("wrote"), std::string::npos) << r.out;
  ASSERT_TRUE(fs::is_directory(dir / "frames"));
  for (const auto& entry : fs::directory_iterator(dir / "frames"))
    EXPECT_TRUE(completePng(entry.path())) << entry.path();
  EXPECT_TRUE(temporariesIn(dir / "frames").empty());
}

// Item 2: a name without an extension is written as MP4 (it failed mid-run); an unknown one is
// refused before any work.
TEST(OutputDiscipline, VideoContainerIsExplicit) {
  const fs::path dir = scratchDir("discipline_video_noext");
  const CliResult r = runMurmur("demo --headless --scene scenes/free.toml --boids 50 --backend cpu --steps 4 "
                                "--every 1 --size 64x64 --msaa 1 --video " + (dir / "noext").string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(readFile(dir / "noext").substr(4, 4) == "ftyp");  // an MP4 box
  expectOneLine(runMurmur("demo --headless --steps 4 --video " + (dir / "out.gif").string()), 2, ".mkv");
  EXPECT_FALSE(fs::exists(dir / "out.gif"));
}

// Item 2 and the signal handler: SIGTERM mid-run stops cleanly (exit 143), nothing partial replaces
// what was there, no temporary is left, for --dump, --video and --frames.
TEST(OutputDiscipline, SigtermLeavesNoPartialOutput) {
  const fs::path dir = scratchDir("discipline_sigterm");
  std::ofstream(dir / "out.csv") << "old";
  std::ofstream(dir / "out.mp4") << "old";
  expectOneLine(terminateAfter(kLongRun + " --dump " + (dir / "out.csv").string(), 1.5), 143, "signal 15");
  expectOneLine(terminateAfter("demo --headless --scene scenes/free.toml --boids 200 --backend cpu --steps 1000000 "
                               "--every 1 --size 64x64 --msaa 1 --video " + (dir / "out.mp4").string(),
                               3),
                143, "signal 15");
  expectOneLine(terminateAfter("demo --headless --scene scenes/free.toml --boids 200 --backend cpu --steps 1000000 "
                               "--every 1 --size 64x64 --msaa 1 --frames " + (dir / "frames").string(),
                               3),
                143, "signal 15");
  EXPECT_EQ(readFile(dir / "out.csv"), "old");
  EXPECT_TRUE(readFile(dir / "out.mp4") == "old");  // not printed: binary when it fails
  EXPECT_TRUE(temporariesIn(dir).empty());
  for (const auto& entry : fs::directory_iterator(dir / "frames"))
    EXPECT_TRUE(completePng(entry.path())) << entry.path();
  EXPECT_TRUE(temporariesIn(dir / "frames").empty());
}

// Item 3: a FIFO hung forever, /dev/zero grew to gigabytes; a directory is no file either. Each is
// exit 2 naming its kind, in a moment (timeout 20 s guards against the old hang).
TEST(InputDiscipline, OnlyRegularFilesAreRead) {
  const fs::path dir = scratchDir("discipline_inputs");
  const std::string fifo = (dir / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string run = "run --scene scenes/free.toml --steps 1 --backend cpu";
  expectOneLine(runMurmur("run --backend cpu --scene " + fifo + " --steps 1", "timeout 20"), 2, "FIFO");
  expectOneLine(runMurmur(run + " --init " + fifo, "timeout 20"), 2, "FIFO");
  expectOneLine(runMurmur("path --map " + fifo + " --from 0,0 --to 1,1", "timeout 20"), 2, "FIFO");
  expectOneLine(runMurmur("path --scen " + fifo, "timeout 20"), 2, "FIFO");
  expectOneLine(runMurmur("path --map /dev/zero --from 0,0 --to 1,1", "timeout 20"), 2, "character device");
  expectOneLine(runMurmur(run + " --init /dev/zero", "timeout 20"), 2, "character device");
  expectOneLine(runMurmur("run --backend cpu --scene /dev/zero --steps 1", "timeout 20"), 2, "character device");
  expectOneLine(runMurmur(run + " --init " + dir.string()), 2, "directory");
  expectOneLine(runMurmur("path --map " + dir.string() + " --from 0,0 --to 1,1"), 2, "directory");
}

// Item 4: bench checked --out, --filter and --device only after the whole suite ran (or never).
TEST(BenchChecks, InputsAreCheckedBeforeRunning) {
  const fs::path dir = scratchDir("discipline_bench");
  std::ofstream(dir / "file") << "x";
  fs::create_symlink(dir / "missing", dir / "dangling");
  expectOneLine(runMurmur("bench --out " + (dir / "file").string(), "timeout 20"), 2, "--out");
  expectOneLine(runMurmur("bench --out /dev/null", "timeout 20"), 2, "--out");
  expectOneLine(runMurmur("bench --out " + (dir / "dangling").string(), "timeout 20"), 2, "--out");
  expectOneLine(runMurmur("bench --filter '('", "timeout 20"), 2, "not a regular expression");
  expectOneLine(runMurmur("bench --device 99", "timeout 20"), 2, "--device");
  expectOneLine(runMurmur("bench --device -5", "timeout 20"), 2, "--device");
  // An escape byte in the filter is echoed escaped.
  const CliResult r = runMurmur("bench --filter \"$(printf 'x\\033[31m(')\"", "timeout 20");
  expectOneLine(r, 2, "\\x1b[31m");
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos);
}

// Item 5: C1 controls (the 8-bit CSI) and bytes that are not UTF-8 were echoed raw.
TEST(MessageEscaping, C1ControlsAndInvalidUtf8AreEscaped) {
  const fs::path dir = scratchDir("discipline_escape");
  std::ofstream(dir / "binary.csv", std::ios::binary) << "id,group,x,y,z,vx,vy,vz\n0,0,\xff\xfe,0,0,0,0,0\n";
  const CliResult binary = runMurmur("run --scene scenes/free.toml --steps 1 --backend cpu --init " +
                                     (dir / "binary.csv").string());
  expectOneLine(binary, 2, "\\xff\\xfe");
  EXPECT_EQ(binary.err.find('\xff'), std::string::npos);
  const CliResult c1 = runMurmur("run --backend cpu --scene \"$(printf 'x\\302\\2332J.toml')\" --steps 1");
  expectOneLine(c1, 2, "x\\u009b2J.toml");
  EXPECT_EQ(c1.err.find("\xc2\x9b"), std::string::npos);
  // Well-formed text beyond ASCII is kept as it is.
  expectOneLine(runMurmur("run --backend cpu --scene 'städte.toml' --steps 1"), 2, "städte.toml");
}

// Item 9: empty text flags were accepted, --frames was ignored beside --video.
TEST(FlagChecks, EmptyTextFlagsAndFramesWithVideoAreRefused) {
  expectOneLine(runMurmur("run --scene scenes/free.toml --steps 1 --dump ''"), 2, "--dump");
  expectOneLine(runMurmur("demo --headless --steps 1 --frames ''"), 2, "--frames");
  expectOneLine(runMurmur("path --map x.map --from 0,0 --to 1,1 --heuristic ''"), 2, "--heuristic");
  expectOneLine(runMurmur("demo --headless --steps 1 --frames d --video v.mp4"), 2, "--frames");
}

}  // namespace
}  // namespace murmur::test

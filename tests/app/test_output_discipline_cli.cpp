// Regression tests of issue 21 for the `murmur` command: one output discipline for every file it
// writes (a full disk stands in as a file-size limit, `ulimit -f`; SIGTERM mid-run), one input
// discipline for every file it reads (FIFOs, devices, directories), checks before any work, and
// escaping in messages.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

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
    if (entry.path().filename().string().find(".tmp-") != std::string::npos)
      left.push_back(entry.path().string());
  return left;
}

// Runs murmur in the background, sends it SIGTERM after `seconds` and waits for it.
CliResult terminateAfter(const std::string& args, double seconds) {
  const fs::path errFile = fs::temp_directory_path() / ("murmur_cli_term_" + std::to_string(::getpid()));
  const CommandOutput run = runCommand(std::string("cd '") + MURMUR_SOURCE_DIR + "' && '" + MURMUR_EXE +
                                       "' " + args + " 2>'" + errFile.string() + "' & pid=$!; sleep " +
                                       std::to_string(seconds) + "; kill -TERM $pid; wait $pid");
  CliResult result{run.exitCode, run.out, readFile(errFile)};
  fs::remove(errFile);
  return result;
}

const std::string kLongRun = "run --scene scenes/free.toml --boids 2000 --backend cpu --steps 1000000";

// A frames directory holding the three frames of an earlier run, and their bytes.
std::vector<std::string> writeOldFrames(const fs::path& frames) {
  fs::create_directories(frames);
  std::vector<std::string> old;
  for (int i = 0; i < 3; ++i) {
    old.push_back("old frame " + std::to_string(i));
    std::ofstream(frames / ("frame_00000" + std::to_string(i) + ".png")) << old.back();
  }
  return old;
}

// The directory holds exactly those frames, byte for byte.
void expectOldFrames(const fs::path& frames, const std::vector<std::string>& old) {
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(frames)) {
    (void)entry;
    ++files;
  }
  EXPECT_EQ(files, old.size());
  for (std::size_t i = 0; i < old.size(); ++i)
    EXPECT_EQ(readFile(frames / ("frame_00000" + std::to_string(i) + ".png")), old[i]);
}

// Items 1, 6: frames on a full disk were reported as written (exit 0, truncated and empty PNGs);
// then a full disk left the first frame over an older run's. The frames go into a temporary
// directory that replaces the old one only when complete: the older frames stay, nothing else does.
TEST(OutputDiscipline, FullDiskFramesAreExit3AndKeepTheOlderFrames) {
  const fs::path dir = scratchDir("discipline_frames_full");
  const std::vector<std::string> old = writeOldFrames(dir / "frames");
  const CliResult r = runMurmur(
      "demo --headless --scene scenes/free.toml --boids 200 --backend cpu --steps 40 "
      "--every 10 --size 256x256 --msaa 1 --frames " +
          (dir / "frames").string(),
      "ulimit -f 1;");
  expectOneLine(r, 3, "frame_");
  EXPECT_EQ(r.out.find("wrote"), std::string::npos) << r.out;
  expectOldFrames(dir / "frames", old);
  EXPECT_TRUE(temporariesIn(dir).empty());
}

// Issue 50, item 2: a second run's frames replace the first's whole (frames 3-6 of a longer run
// were left beside the new 0-2); a directory holding other files is refused before any work, and
// --overwrite replaces it.
TEST(OutputDiscipline, AFramesDirectoryHoldsOneRunsFrames) {
  const fs::path dir = scratchDir("discipline_frames_second");
  const std::string demo =
      "demo --headless --scene scenes/free.toml --boids 50 --backend cpu --every 10 --size 32x32 "
      "--msaa 1 --frames " +
      (dir / "frames").string();
  ASSERT_EQ(runMurmur(demo + " --steps 60").exitCode, 0);
  ASSERT_EQ(runMurmur(demo + " --steps 20 --seed 5").exitCode, 0);
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir / "frames"))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"frame_000000.png", "frame_000001.png", "frame_000002.png"}));
  std::ofstream(dir / "frames" / "notes.txt") << "mine";
  expectOneLine(runMurmur(demo + " --steps 20"), 2, "--overwrite");
  EXPECT_EQ(readFile(dir / "frames" / "notes.txt"), "mine");
  ASSERT_EQ(runMurmur(demo + " --steps 10 --overwrite").exitCode, 0);
  EXPECT_FALSE(fs::exists(dir / "frames" / "notes.txt"));
  EXPECT_TRUE(fs::exists(dir / "frames" / "frame_000001.png"));
  EXPECT_TRUE(temporariesIn(dir).empty());
}

// Item 2: a name without an extension is written as MP4 (it failed mid-run); an unknown one is
// refused before any work.
TEST(OutputDiscipline, VideoContainerIsExplicit) {
  const fs::path dir = scratchDir("discipline_video_noext");
  const CliResult r = runMurmur(
      "demo --headless --scene scenes/free.toml --boids 50 --backend cpu --steps 4 "
      "--every 1 --size 64x64 --msaa 1 --video " +
      (dir / "noext").string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(readFile(dir / "noext").substr(4, 4) == "ftyp");  // an MP4 box
  expectOneLine(runMurmur("demo --headless --steps 4 --video " + (dir / "out.gif").string()), 2, ".mkv");
  EXPECT_FALSE(fs::exists(dir / "out.gif"));
}

// Item 2 and the signal handler: SIGTERM left 262 new frames over 100 older ones. Now the older
// frames stay as they were and the stopped run's are removed (the fault-family table below checks
// the other outputs).
TEST(OutputDiscipline, SigtermKeepsTheOlderFrames) {
  const fs::path dir = scratchDir("discipline_sigterm");
  const std::vector<std::string> old = writeOldFrames(dir / "frames");
  expectOneLine(
      terminateAfter("demo --headless --scene scenes/free.toml --boids 200 --backend cpu --steps 90000 "
                     "--every 1 --size 64x64 --msaa 1 --frames " +
                         (dir / "frames").string(),
                     3),
      143, "signal 15");
  expectOldFrames(dir / "frames", old);
  EXPECT_TRUE(temporariesIn(dir).empty());
}

// Issue 51, item 6: the dump's directory removed mid-run gave exit 2 after the work (3 is due); an
// append-only directory (chattr +a) took the temporary and refused its rename, leaving it behind.
TEST(OutputDiscipline, ADirectoryThatChangesOrForbidsRenamesIsHandled) {
  const fs::path dir = scratchDir("discipline_dir_changes");
  fs::create_directories(dir / "gone");
  const fs::path errFile = dir / "err.txt";
  const CommandOutput vanished =
      runCommand(std::string("cd '") + MURMUR_SOURCE_DIR + "' && '" + MURMUR_EXE +
                 "' run --scene scenes/free.toml --boids 2000 --backend cpu --steps 3000 --dump '" +
                 (dir / "gone" / "o.csv").string() + "' >/dev/null 2>'" + errFile.string() +
                 "' & pid=$!; sleep 0.3; rm -rf '" + (dir / "gone").string() + "'; wait $pid");
  EXPECT_EQ(vanished.exitCode, 3) << readFile(errFile);
  EXPECT_NE(readFile(errFile).find("changed during the run: its directory"), std::string::npos)
      << readFile(errFile);
  fs::create_directories(dir / "append");
  ASSERT_EQ(runCommand("chattr +a '" + (dir / "append").string() + "'").exitCode, 0);  // ext4, as root
  const CliResult r = runMurmur("run --scene scenes/free.toml --boids 20 --backend cpu --steps 1 --dump " +
                                (dir / "append" / "o.csv").string());
  runCommand("chattr -a '" + (dir / "append").string() + "'");
  expectOneLine(r, 2, "append-only");
  EXPECT_TRUE(fs::is_empty(dir / "append"));
}

// Issue 51, item 2: SIGTERM was acted on only between steps: at 5 s into a million boids' summary
// (`--steps 0`) the run went on to 56.9 s and exited 0. The measures check for a stop as they go.
TEST(OutputDiscipline, SigtermDuringTheSummaryStopsWithinASecond) {
  const auto start = std::chrono::steady_clock::now();
  expectOneLine(
      terminateAfter("run --scene scenes/free.toml --backend cpu --boids 1000000 --steps 0 --force", 4), 143,
      "signal 15");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 5.5);
}

// Issue 51, item 2: a terminal's Ctrl+C signals the whole process group, ffmpeg too, which then
// died before Murmur could stop it: OUT.mp4.tmp-* was left and no "stopped" line printed in 3 of 6
// tries. ffmpeg now runs in a group of its own; Murmur stops it and removes the temporary.
TEST(OutputDiscipline, AProcessGroupSigtermDuringAVideoLeavesNothing) {
  const fs::path dir = scratchDir("discipline_group_sigterm");
  std::ofstream(dir / "keep.mp4") << "old";
  for (int attempt = 0; attempt < 2; ++attempt) {
    const fs::path errFile = dir / "err.txt";
    // setsid: murmur leads a new group, as a shell's job would; kill -TERM -PGID signals it all.
    const CommandOutput run =
        runCommand(std::string("cd '") + MURMUR_SOURCE_DIR + "' && setsid '" + MURMUR_EXE +
                   "' demo --headless --scene lab --backend cpu --steps 90000 --every 1 --size 128x128 "
                   "--msaa 1 --video '" +
                   (dir / "keep.mp4").string() + "' 2>'" + errFile.string() +
                   "' & pid=$!; sleep 3; kill -TERM -$pid; wait $pid");
    const std::string err = readFile(errFile);
    EXPECT_EQ(run.exitCode, 143) << err;
    EXPECT_NE(err.find("stopped by signal 15"), std::string::npos) << err;
    EXPECT_EQ(readFile(dir / "keep.mp4"), "old");
    fs::remove(errFile);
    EXPECT_TRUE(temporariesIn(dir).empty());
  }
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
  expectOneLine(runMurmur("path --scen /dev/zero", "timeout 20"), 2, "character device");
  expectOneLine(runMurmur(run + " --init /dev/zero", "timeout 20"), 2, "character device");
  expectOneLine(runMurmur("run --backend cpu --scene /dev/zero --steps 1", "timeout 20"), 2,
                "character device");
  expectOneLine(runMurmur(run + " --init " + dir.string()), 2, "directory");
  expectOneLine(runMurmur("path --map " + dir.string() + " --from 0,0 --to 1,1"), 2, "directory");
  // A scene's map said "no such map file" for each of these (issue 51, item 7).
  for (const auto& [map, kind] :
       {std::pair{fifo, "FIFO"}, std::pair{std::string("/dev/zero"), "character device"},
        std::pair{dir.string(), "directory"}}) {
    std::ofstream(dir / "map.toml") << "[navigation]\nmap = \"" << map << "\"\n";
    expectOneLine(
        runMurmur("run --backend cpu --steps 1 --scene " + (dir / "map.toml").string(), "timeout 20"), 2,
        kind);
  }
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

// Items 6 and the exit codes: every fault family through every command that has it, with the code
// README.md's table gives it (2 bad input found before any work, 3 a write failing mid-run, 143
// SIGTERM), one line on stderr, and the output discipline's promise: a file that was there is kept
// byte for byte and no temporary is left.
struct Fault {
  const char* family;
  std::string args;  // after `murmur`; {dir} is the case's scratch directory
  int exitCode;
  std::string mention;        // in the one line on stderr
  std::string shellPrefix;    // e.g. a file-size limit standing in for a full disk
  double terminateAfter = 0;  // > 0: SIGTERM after this many seconds
  bool keepsResults = false;  // bench: the results JSON is complete and kept (only its report failed)
};

std::string withDir(std::string text, const fs::path& dir) {
  for (std::size_t at; (at = text.find("{dir}")) != std::string::npos;) text.replace(at, 5, dir.string());
  return text;
}

// A 1024 x 1024 map split by a wall at x = 1000, and `rows` scenarios across it: each search expands
// every reachable cell before it gives up, a path run of seconds.
void writeSplitMapScenarios(const fs::path& dir, int rows) {
  std::ofstream map(dir / "split.map");
  map << "type octile\nheight 1024\nwidth 1024\nmap\n";
  std::string row(1024, '.');
  row[1000] = '@';
  for (int y = 0; y < 1024; ++y) map << row << '\n';
  std::ofstream scen(dir / "split.map.scen");
  scen << "version 1\n";
  for (int i = 0; i < rows; ++i) scen << "0\tsplit.map\t1024\t1024\t0\t0\t1023\t1023\t1446.73047228\n";
}

// One error line, the only line but for bench's progress ("1 case; ...", "N cases; ...",
// "[k/N] ... left").
void expectOneError(const CliResult& r, int code, const std::string& mention) {
  EXPECT_EQ(r.exitCode, code) << r.err;
  std::istringstream lines(r.err);
  std::size_t errors = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("murmur: ", 0) == 0) {
      ++errors;
      EXPECT_NE(line.find(mention), std::string::npos) << r.err;
    } else {
      EXPECT_TRUE(line.rfind("[", 0) == 0 || line.find(" case") != std::string::npos) << r.err;
    }
  }
  EXPECT_EQ(errors, 1u) << r.err;
}

TEST(FaultFamilies, EveryCommandGivesTheReadmesExitCode) {
  const std::string run = "run --scene scenes/free.toml --backend cpu --boids 2000";
  const std::string demo =
      "demo --headless --scene scenes/free.toml --backend cpu --boids 200 --size 64x64 --msaa 1";
  const std::string compare =
      "compare --scene scenes/free.toml --reference cpu --candidate cpu-naive --boids 2000";
  const std::string bench = "bench --quick --filter '^density/cpu/threads:1/n:1000/'";
  const std::string longBench = "bench --quick --filter '^density/cpu/threads:1/n:(1000|4000)/'";
  const std::string diverging = " --scene lab-book --set sim.dt=0.1 --steps 600 --init {dir}/packed.csv";
  const std::vector<Fault> faults = {
      // Bad flags: an unknown one, a value out of range.
      {"unknown flag", run + " --bogus", 2, "--bogus", ""},
      {"unknown flag", compare + " --bogus", 2, "--bogus", ""},
      {"unknown flag", demo + " --bogus", 2, "--bogus", ""},
      {"unknown flag", "path --bogus", 2, "--bogus", ""},
      {"unknown flag", "bench --bogus", 2, "--bogus", ""},
      {"unknown flag", "devices --bogus", 2, "--bogus", ""},
      {"unknown flag", "scenes --bogus", 2, "--bogus", ""},
      {"flag value", run + " --steps -1", 2, "--steps", ""},
      {"flag value", compare + " --steps -1", 2, "--steps", ""},
      {"flag value", demo + " --steps -1", 2, "--steps", ""},
      {"flag value", "path --map x.map --from 0,0 --to 1,1 --connect 5", 2, "--connect", ""},
      {"flag value", bench + " --device -5", 2, "--device", ""},
      {"flag value", "devices --device 99", 2, "--device", ""},
      {"no device", "devices", 3, "no GL device in use", "__EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent"},
      {"missing input", "path --map {dir}/nosuch.map --from 0,0 --to 1,1", 2, "nosuch.map", ""},
      {"input kind", "path --scen {dir}", 2, "directory", ""},
      {"bad input", "path --map tests/data/bad/bad_char.map --from 0,0 --to 1,1", 2, "bad_char.map", ""},
      {"cost", "path --scen tests/data/bad/huge_worst_case.scen", 2, "--force", ""},
      // Output paths refused before any work.
      {"output path", run + " --steps 1 --dump {dir}", 2, "--dump", ""},
      {"output path", run + " --steps 1 --record {dir}", 2, "--record", ""},
      {"output path", run + " --steps 1 --record {dir}/nosuch/t.h5", 2, "--record", ""},
      {"output path", demo + " --steps 1 --frames {dir}/old.csv", 2, "--frames", ""},
      {"output path", demo + " --steps 1 --video {dir}", 2, "--video", ""},
      {"output path", bench + " --out {dir}/old.csv", 2, "--out", ""},
      {"output path", "demo --screenshot-dir {dir}/old.csv", 2, "--screenshot-dir", ""},
      // A name with no room for the temporary's suffix failed after the work ("File name too long").
      {"output path", run + " --steps 1 --dump {dir}/" + std::string(250, 'a') + ".csv", 2,
       "the name is 254 bytes", ""},
      {"output path", demo + " --steps 1 --frames {dir}/" + std::string(250, 'f'), 2, "the name is 250 bytes",
       ""},
      // A full disk mid-run (a file-size limit stands in): exit 3, nothing partial.
      {"full disk", run + " --steps 1 --dump {dir}/old.csv", 3, "File too large", "ulimit -f 16;"},
      {"full disk", run + " --steps 5 --record {dir}/old.csv", 3, "File too large", "ulimit -f 16;"},
      {"full disk", run + " --steps 40 --record {dir}/old.csv", 3, "File too large", "ulimit -f 400;"},
      {"full disk", demo + " --steps 40 --every 10 --frames {dir}/frames", 3, "frame_", "ulimit -f 1;"},
      {"full disk", demo + " --steps 60 --every 1 --video {dir}/old.mp4", 3, "a full disk?", "ulimit -f 8;"},
      // sh's ulimit -f counts 512-byte blocks: 16 KiB hold murmur_bench's results (8-11 KiB), not the
      // report's charts (a PNG of 28 KiB).
      {"full disk", bench + " --out {dir}", 3, "File too large", "ulimit -f 32;", 0, true},
      {"full disk", bench + " --out {dir}", 3, "incomplete", "ulimit -f 4;"},  // murmur_bench's results
      // More frames than a run may write (1e9 steps at --every 1 wrote PNGs until the disk filled),
      // a frames directory holding other files (the case's own).
      {"cost", demo + " --steps 1000000 --every 1 --frames {dir}/frames", 2, "--force", ""},
      {"cost", demo + " --steps 10000000 --every 1 --video {dir}/new.mp4", 2, "--force", ""},
      {"output path", demo + " --steps 1 --frames {dir}", 2, "--overwrite", ""},
      // A flock that diverges within the documented ranges: exit 3 at the first non-finite step.
      {"non-finite", "run --backend cpu" + diverging, 3, "non-finite at step 8", ""},
      {"non-finite", "compare" + diverging, 3, "non-finite at step 8", ""},
      {"non-finite", "demo --headless --backend cpu --size 32x32 --msaa 1 --frames {dir}/frames" + diverging,
       3, "non-finite at step 8", ""},
      // A file that grows while it is read (a .scen appended to grew the process to 5.1 GB in 40 s):
      // refused. A /proc file is one that always has: 0 bytes at open, then its text.
      {"growing input", "path --map /proc/self/status --from 0,0 --to 5,5", 2, "(it grew)", ""},
      {"growing input", "run --backend cpu --steps 1 --scene /proc/self/status", 2, "(it grew)", ""},
      {"growing input", "run --backend cpu --steps 1 --scene scenes/free.toml --init /proc/self/status", 2,
       "(it grew)", ""},
      // SIGTERM mid-run: exit 143, nothing partial.
      {"sigterm", run + " --steps 1000000 --dump {dir}/old.csv", 143, "signal 15", "", 1.5},
      {"sigterm", run + " --steps 1000000 --record {dir}/old.csv --record-every 10 --force", 143, "signal 15",
       "", 1.5},
      {"sigterm", compare + " --steps 1000000", 143, "signal 15", "", 1.5},
      {"sigterm", demo + " --steps 900000 --every 1 --video {dir}/old.mp4", 143, "signal 15", "", 3},
      {"sigterm", "path --scen {dir}/split.map.scen", 143, "signal 15", "", 2},
      {"sigterm", longBench + " --out {dir}", 143, "signal 15", "", 2.5},
  };
  // The families of a scene file, the same for each command that reads one: missing, not a regular
  // file, bad content, over the cost limits (item 7), beyond float32 precision (item 8).
  std::vector<Fault> all = faults;
  for (const std::string command : {"run --backend cpu", "compare", "demo --headless --backend cpu"}) {
    all.push_back({"missing input", command + " --scene {dir}/nosuch.toml", 2, "nosuch.toml", ""});
    all.push_back({"input kind", command + " --scene {dir}", 2, "directory", ""});
    all.push_back(
        {"bad input", command + " --scene tests/data/bad/syntax_error.toml", 2, "syntax_error.toml", ""});
    all.push_back({"cost", command + " --scene tests/data/bad/packed_flock.toml", 2, "boids.count", ""});
    all.push_back({"precision", command + " --scene tests/data/bad/far_world.toml", 2, "world.max", ""});
  }
  const fs::path dir = scratchDir("fault_families");
  writeSplitMapScenarios(dir, 400);
  {
    // 19 lab units packed within 0.05 of each other: they pass the stability rule and diverge.
    std::ofstream csv(dir / "packed.csv");
    csv << "id,group,x,y,z,vx,vy,vz\n";
    for (int i = 0; i < 19; ++i)
      csv << i << ',' << i % 2 << ',' << 0.01 * (i % 5) - 0.02 << ",0," << 0.01 * (i / 5) - 0.02 << ','
          << (i % 3) * 3 - 3 << ",0," << (i % 4) * 2 - 3 << "\n";
  }
  std::ofstream(dir / "old.csv") << "old";
  std::ofstream(dir / "old.mp4") << "old";
  for (const Fault& fault : all) {
    SCOPED_TRACE(std::string(fault.family) + ": murmur " + fault.args);
    const std::string args = withDir(fault.args, dir);
    const CliResult r = fault.terminateAfter > 0 ? terminateAfter(args, fault.terminateAfter)
                                                 : runMurmur(args, fault.shellPrefix + " timeout 60");
    expectOneError(r, fault.exitCode, fault.mention);
    EXPECT_EQ(readFile(dir / "old.csv"), "old");
    EXPECT_TRUE(readFile(dir / "old.mp4") == "old");  // not printed: binary when it fails
    EXPECT_TRUE(temporariesIn(dir).empty());
    std::vector<fs::path> results;
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.path().extension() == ".json") results.push_back(entry.path());
    ASSERT_EQ(results.size(), fault.keepsResults ? 1u : 0u);
    for (const fs::path& result : results) {
      EXPECT_TRUE(nlohmann::json::accept(readFile(result))) << result;
      fs::remove(result);
    }
  }
}

// Item 7: runs that passed every limit and still never ended. Refused up front with the figures and
// the key (the maze2d flock packed into its rooms: 1e6 boids took 88 s for 3 steps; its spawn disc
// is 0.4 of the map wide at most, so 300,000 boids test about 14,000 candidates each, 4e9 a step and
// over 1e12 in the scene's 600 steps), --force goes ahead.
TEST(CostEstimate, RefusesTheDenseMaze2dRunsAndForceGoesAhead) {
  expectOneLine(runMurmur("run --scene maze2d --boids 4000000 --steps 1 --backend cpu"), 2, "boids.count");
  const CliResult tooLong = runMurmur("run --scene maze2d --boids 300000 --backend cpu");
  expectOneLine(tooLong, 2, "sim.steps");
  EXPECT_NE(tooLong.err.find("--force"), std::string::npos) << tooLong.err;
  const std::string endless = "run --scene scenes/free.toml --backend cpu --steps 1000000000";
  expectOneLine(runMurmur(endless), 2, "sim.steps");
  expectOneLine(terminateAfter(endless + " --force", 1.5), 143, "signal 15");  // it ran
  // path: over the worst case before any map is read; with --force it goes on to read them.
  expectOneLine(runMurmur("path --scen tests/data/bad/huge_worst_case.scen"), 2, "cell expansions");
  expectOneLine(runMurmur("path --scen tests/data/bad/huge_worst_case.scen --force"), 2, "giant.map");
}

// Item 7: a run longer than a second shows, on a terminal, how long it has left.
TEST(CostEstimate, ProgressShowsTheTimeLeftOnATerminal) {
  const CommandOutput shown =
      runCommand("cd '" + std::string(MURMUR_SOURCE_DIR) + "' && script -qec \"'" + MURMUR_EXE +
                 "' run --scene scenes/free.toml --backend cpu --steps 600\" /dev/null");
  ASSERT_EQ(shown.exitCode, 0) << shown.out;
  EXPECT_NE(shown.out.find("step 600/600, 0:00 left"), std::string::npos) << shown.out;
  // Not on a pipe.
  EXPECT_EQ(runMurmur("run --scene scenes/free.toml --backend cpu --steps 300").err.find("left"),
            std::string::npos);
}

}  // namespace
}  // namespace murmur::test

// `murmur demo` end to end: headless frames (count, size, decodable), bad input before any work,
// the fallback to headless frames without a display, and a real window under Xvfb.
#include <gtest/gtest.h>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cli.hpp"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-function"
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb/stb_image.h>
#pragma GCC diagnostic pop

extern char** environ;

namespace murmur::test {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> framesIn(const fs::path& dir) {
  std::vector<fs::path> frames;
  if (!fs::exists(dir)) return frames;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".png") frames.push_back(entry.path());
  std::sort(frames.begin(), frames.end());
  return frames;
}

// Decodes every frame; each must be width x height.
void expectFrames(const fs::path& dir, std::size_t count, int width, int height) {
  const std::vector<fs::path> frames = framesIn(dir);
  ASSERT_EQ(frames.size(), count);
  for (std::size_t i = 0; i < frames.size(); ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "frame_%06zu.png", i);
    EXPECT_EQ(frames[i].filename().string(), name);
    int w = 0, h = 0, channels = 0;
    stbi_uc* pixels = stbi_load(frames[i].c_str(), &w, &h, &channels, 4);
    ASSERT_NE(pixels, nullptr) << frames[i] << ": " << stbi_failure_reason();
    EXPECT_EQ(w, width);
    EXPECT_EQ(h, height);
    stbi_image_free(pixels);
  }
}

TEST(DemoCli, HeadlessWritesAFrameEveryKStepsOfTheRequestedSize) {
  const fs::path dir = scratchDir("demo_headless") / "frames";
  const CliResult r = runMurmur("demo --headless --frames " + dir.string() +
                                " --steps 20 --every 5 --size 320x240 --boids 500 --backend cpu");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // The initial state, then after steps 5, 10, 15 and 20.
  expectFrames(dir, 5, 320, 240);
  EXPECT_NE(r.out.find("wrote 5 frames"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("500 boids"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("backend cpu"), std::string::npos) << r.out;
}

TEST(DemoCli, UnwritableFrameDirectoryFailsBeforeSimulating) {
  const fs::path dir = scratchDir("demo_unwritable");
  std::ofstream(dir / "file") << "not a directory";
  const fs::path frames = dir / "file" / "frames";
  const CliResult r =
      runMurmur("demo --headless --frames " + frames.string() + " --steps 5 --boids 100 --backend cpu");
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("--frames"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("wrote"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(frames));
}

TEST(DemoCli, BadSizeOrEveryIsBadInput) {
  const fs::path dir = scratchDir("demo_bad_size");
  for (const char* size : {"320", "0x240", "320x", "axb", "99999x10"}) {
    const CliResult r = runMurmur("demo --headless --frames " + dir.string() + " --steps 1 --size " + size);
    EXPECT_EQ(r.exitCode, 2) << size << ": " << r.err;
    EXPECT_NE(r.err.find("--size"), std::string::npos) << r.err;
  }
  const CliResult every = runMurmur("demo --headless --frames " + dir.string() + " --steps 1 --every 0");
  EXPECT_EQ(every.exitCode, 2) << every.err;
  EXPECT_TRUE(framesIn(dir).empty());
}

TEST(DemoCli, WithoutADisplayFallsBackToHeadlessFrames) {
  const ScopedEnv noX("DISPLAY", std::nullopt), noWayland("WAYLAND_DISPLAY", std::nullopt);
  const fs::path dir = scratchDir("demo_fallback") / "frames";
  const CliResult r = runMurmur("demo --frames " + dir.string() +
                                " --steps 10 --every 5 --size 160x120 --boids 200 --backend cpu");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("no display"), std::string::npos) << r.err;
  expectFrames(dir, 3, 160, 120);

  const CliResult strict = runMurmur("demo --no-fallback --steps 10 --boids 200 --backend cpu");
  EXPECT_NE(strict.exitCode, 0);
  EXPECT_NE(strict.err.find("--headless"), std::string::npos) << strict.err;
}

// An X server of our own, on a free display number, for the lifetime of the test.
class Xvfb {
 public:
  Xvfb() {
    for (int n = 90 + ::getpid() % 100; n < 400; ++n) {
      if (fs::exists("/tmp/.X" + std::to_string(n) + "-lock")) continue;
      display_ = ":" + std::to_string(n);
      break;
    }
    const std::string screen = "1280x720x24";
    std::vector<std::string> args = {"Xvfb", display_, "-screen", "0", screen, "-nolisten", "tcp"};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (::posix_spawnp(&pid_, "Xvfb", nullptr, nullptr, argv.data(), environ) != 0) pid_ = -1;
    // Ready once its socket exists.
    const fs::path socket = "/tmp/.X11-unix/X" + display_.substr(1);
    for (int i = 0; i < 100 && pid_ > 0 && !fs::exists(socket); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    ready_ = pid_ > 0 && fs::exists(socket);
  }
  ~Xvfb() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  bool ready() const { return ready_; }
  const std::string& display() const { return display_; }

 private:
  pid_t pid_ = -1;
  std::string display_;
  bool ready_ = false;
};

TEST(DemoCli, OpensAWindowUnderXvfbRendersAndClosesByItself) {
  const Xvfb server;
  ASSERT_TRUE(server.ready()) << "cannot start Xvfb (install xvfb): the window path needs a display";
  const ScopedEnv display("DISPLAY", server.display());
  const CliResult r =
      runMurmur("demo --steps 30 --boids 300 --backend cpu --size 640x360 --exit-after-steps");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("frames in a window"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("30 steps"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace murmur::test

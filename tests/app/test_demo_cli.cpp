// `murmur demo` end to end: headless frames (count, size, decodable), bad input before any work,
// the fallback to headless frames without a display, and a real window under Xvfb.
#include <gtest/gtest.h>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "png_text.hpp"

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

std::vector<fs::path> framesIn(const fs::path& dir, const char* extension = ".png") {
  std::vector<fs::path> frames;
  if (!fs::exists(dir)) return frames;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == extension) frames.push_back(entry.path());
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
  // Each frame says what made it.
  const std::string commit = buildCommit();
  ASSERT_FALSE(commit.empty());
  for (const auto& [frame, step] :
       {std::pair{"frame_000000.png", "0"}, std::pair{"frame_000004.png", "20"}}) {
    const std::map<std::string, std::string> text = pngText(dir / frame);
    EXPECT_EQ(text, (std::map<std::string, std::string>{{"Software", "murmur 0.1.0"},
                                                        {"commit", commit},
                                                        {"scene", MURMUR_SOURCE_DIR "/scenes/free.toml"},
                                                        {"seed", "1"},
                                                        {"step", step},
                                                        {"backend", "cpu"},
                                                        {"boids", "500"}}))
        << frame;
  }
}

// The murmuration with a heading of 1e-30 went non-finite at its spawn, and the headless demo, whose
// camera follows the flock, crashed drawing the falcon's state label at a NaN pixel (exit 139). Now
// the flock spawns along the heading and every frame is written.
TEST(DemoCli, ATinyHeadingNeitherDivergesNorCrashesTheLabels) {
  const fs::path dir = scratchDir("demo_tiny_heading") / "frames";
  const std::string heading = " --set 'sim.heading=[1e-30, 0, 0]'";
  const CliResult r = runMurmur(
      "demo --headless --scene murmuration --boids 10 --steps 10 --every 5 --size 160x120 "
      "--msaa 1 --backend cpu --frames " +
      dir.string() + heading);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  expectFrames(dir, 3, 160, 120);
  const CliResult run = runMurmur("run --scene murmuration --boids 10 --steps 10 --backend cpu" + heading);
  EXPECT_EQ(run.exitCode, 0) << run.err;
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

// The frame rates are numbers as the README writes them: no nan, hex, spaces or signs (nan reached
// ffmpeg, which failed after the work: exit 3).
TEST(DemoCli, FrameRatesAreStrictNumbers) {
  const fs::path dir = scratchDir("demo_bad_fps");
  for (const char* flag : {"--video-fps", "--max-fps"})
    for (const char* value : {"nan", "inf", "0x10", "' 5'", "+5", "5fps", "''", "1e9"}) {
      const CliResult r = runMurmur(std::string("demo --headless --frames ") + dir.string() + " --steps 1 " +
                                    flag + " " + value);
      EXPECT_EQ(r.exitCode, 2) << flag << " " << value << ": " << r.err;
      EXPECT_NE(r.err.find(flag), std::string::npos) << r.err;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
  EXPECT_TRUE(framesIn(dir).empty());
  const CliResult ok = runMurmur("demo --headless --frames " + dir.string() +
                                 " --steps 1 --boids 50 --backend cpu --size 64x64 --video-fps 24.5");
  EXPECT_EQ(ok.exitCode, 0) << ok.err;
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

// Waits until `flag` is set, at most `limit`; whether it was.
bool awaitFlag(const std::atomic<bool>& flag, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!flag && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  return flag;
}

// The murmur window's id once it has appeared (empty when none did within 60 s), focused.
std::string focusMurmurWindow() {
  const std::string window = runCommand("timeout 60 xdotool search --sync --name '^murmur$' | head -1").out;
  const std::string id = window.substr(0, window.find('\n'));
  if (!id.empty()) {
    EXPECT_EQ(std::system(("xdotool windowfocus --sync " + id).c_str()), 0);
  }
  return id;
}

// Waits until dir holds at least `count` PNGs (framesIn), at most `limit`; whether they came. A
// window's key is acted on in its next frame, which a loaded machine may draw seconds later:
// waiting for the screenshot it writes, not a fixed time, before the next key (Escape above all)
// keeps the test from racing the window. A screenshot is written whole or not at all (a
// temporary, then a rename), so a PNG counted here is complete.
bool awaitPngs(const fs::path& dir, std::size_t count, std::chrono::seconds limit = std::chrono::seconds(60),
               const char* extension = ".png") {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (framesIn(dir, extension).size() < count) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

TEST(DemoCli, OpensAWindowUnderXvfbRendersAndClosesByItself) {
  const Xvfb server;
  ASSERT_TRUE(server.ready()) << "cannot start Xvfb (install xvfb): the window path needs a display";
  const ScopedEnv display("DISPLAY", server.display());
  const CliResult r =
      runMurmur("demo --steps 30 --boids 300 --backend cpu --size 640x360 --exit-after-steps");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("frames in a window"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("30 steps"), std::string::npos) << r.out;
  // The CPU's step time, as the GPU's stages are given.
  EXPECT_NE(r.out.find("\ncpu backend: 30 steps, "), std::string::npos) << r.out;
}

// The 2D maze is drawn from straight above, orthographic: no wall hides a boid. At the first step
// its 600 boids (coloured by heading: saturated hues), spawned together in the leader's room, cover
// over 4,000 pixels of a 640x480 frame (the oblique camera this replaced showed about 3,000 for a
// flock spread over the map), and the dark walls a large part, at least half as dark as the floor.
TEST(DemoCli, TwoDimensionalSceneIsSeenFromAbove) {
  const fs::path dir = scratchDir("demo_top_down");
  const CliResult r = runMurmur(
      "demo --headless --scene scenes/maze2d.toml --steps 0 --size 640x480 --msaa 1 "
      "--no-stats --backend cpu --frames " +
      dir.string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  int w = 0, h = 0, channels = 0;
  stbi_uc* pixels = stbi_load((dir / "frame_000000.png").c_str(), &w, &h, &channels, 3);
  ASSERT_NE(pixels, nullptr);
  std::size_t boid = 0, wall = 0, floor = 0;
  double wallLight = 0.0, floorLight = 0.0;
  for (int i = 0; i < w * h; ++i) {
    const int red = pixels[3 * i], green = pixels[3 * i + 1], blue = pixels[3 * i + 2];
    const int high = std::max({red, green, blue}), low = std::min({red, green, blue});
    const double light = 0.2126 * red + 0.7152 * green + 0.0722 * blue;
    if (high > 70 && (high - low) * 100 > 45 * high) ++boid;
    // The walls (render::kWallColour, shaded): dark, hardly coloured. The floor: light grey-blue.
    if (high < 110 && high - low < 24) ++wall, wallLight += light;
    if (low > 130 && blue >= red) ++floor, floorLight += light;
  }
  stbi_image_free(pixels);
  EXPECT_GT(boid, 4000u);
  // The rooms map's walls (data/maps/rooms-65-81.map: thin walls between 4 x 5 rooms, pillars)
  // cover about 4% of the frame seen from above; seen at an angle they would be slivers.
  EXPECT_GT(wall, std::size_t(w * h) / 40) << boid;
  ASSERT_GT(floor, std::size_t(w * h) / 4);
  EXPECT_GT(floorLight / double(floor), 1.8 * wallLight / double(wall)) << "walls stand out from the floor";
}

// render/palette.hpp's kLeaderColour, kChaserColour, kInterceptorColour and kPlayerColour.
constexpr std::array<float, 3> kLeaderRed{0.92f, 0.12f, 0.10f};
constexpr std::array<float, 3> kChaserBlue{0.15f, 0.35f, 0.95f};
constexpr std::array<float, 3> kInterceptorMagenta{0.90f, 0.15f, 0.90f};
constexpr std::array<float, 3> kPlayerGreen{0.20f, 0.85f, 0.25f};

// Whether an RGB pixel shows `colour`: saturated, with its channels, scaled by the largest, within 0.3
// of the colour's scaled the same way (shading changes the brightness, hardly the proportions; the
// four lab colours lie over 0.8 apart; the grey floor and the sandstone rocks are not saturated).
bool showsColour(const stbi_uc* pixel, const std::array<float, 3>& colour) {
  const float rgb[3] = {float(pixel[0]), float(pixel[1]), float(pixel[2])};
  const float high = std::max({rgb[0], rgb[1], rgb[2]});
  if (high < 60.0f || high - std::min({rgb[0], rgb[1], rgb[2]}) < 0.5f * high) return false;  // dark, grey
  const float top = std::max({colour[0], colour[1], colour[2]});
  float distance = 0.0f;
  for (std::size_t k = 0; k < 3; ++k) distance += std::pow(rgb[k] / high - colour[k] / top, 2.0f);
  return std::sqrt(distance) < 0.3f;
}

// How many pixels of a PNG show each of `colours` (all 0 when it cannot be read).
std::vector<std::size_t> pixelsOfColours(const fs::path& png,
                                         const std::vector<std::array<float, 3>>& colours) {
  std::vector<std::size_t> counts(colours.size(), 0);
  int w = 0, h = 0, channels = 0;
  stbi_uc* pixels = stbi_load(png.c_str(), &w, &h, &channels, 3);
  if (pixels == nullptr) return counts;
  for (int i = 0; i < w * h; ++i)
    for (std::size_t c = 0; c < colours.size(); ++c) counts[c] += showsColour(pixels + 3 * i, colours[c]);
  stbi_image_free(pixels);
  return counts;
}

// The mean pixel position of `colour` in a PNG; nullopt when none shows it.
std::optional<std::array<float, 2>> centroidOfColour(const fs::path& png,
                                                     const std::array<float, 3>& colour) {
  int w = 0, h = 0, channels = 0;
  stbi_uc* pixels = stbi_load(png.c_str(), &w, &h, &channels, 3);
  if (pixels == nullptr) return std::nullopt;
  double x = 0.0, y = 0.0;
  std::size_t count = 0;
  for (int i = 0; i < w * h; ++i)
    if (showsColour(pixels + 3 * i, colour)) {
      x += i % w;
      y += i / w;
      ++count;
    }
  stbi_image_free(pixels);
  if (count == 0) return std::nullopt;
  return std::array<float, 2>{float(x / double(count)), float(y / double(count))};
}

// Pixels of a PNG whose luminance differs by more than 0.08 from their row's median: on a sky that
// only changes with height, what is drawn over it.
std::size_t pixelsOffTheSky(const fs::path& png) {
  int w = 0, h = 0, channels = 0;
  stbi_uc* pixels = stbi_load(png.c_str(), &w, &h, &channels, 3);
  if (pixels == nullptr) return 0;
  std::size_t count = 0;
  std::vector<double> row(static_cast<std::size_t>(w));
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const stbi_uc* p = pixels + 3 * (std::size_t(y) * std::size_t(w) + std::size_t(x));
      row[std::size_t(x)] = (0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]) / 255.0;
    }
    std::vector<double> sorted = row;
    std::nth_element(sorted.begin(), sorted.begin() + w / 2, sorted.end());
    const double median = sorted[std::size_t(w / 2)];
    for (const double l : row) count += std::abs(l - median) > 0.08;
  }
  stbi_image_free(pixels);
  return count;
}

// The murmuration is filmed as birds and sky: ten starlings and the falcon (a bird of prey, the
// flock's bird 2.5 times as long) over the whole world at 10 s, about 20 pixels drawn. The falcon's
// glyph, route and senses, which the panel's view section turns on, draw some 600.
TEST(DemoCli, TheMurmurationShowsBirdsAndSkyOnly) {
  const auto frame = [](const std::string& name, const std::string& extra) {
    const fs::path dir = scratchDir(name);
    const CliResult r = runMurmur(
        "demo --headless --scene scenes/murmuration.toml --boids 10 --steps 600 --every 600 --size 640x360 "
        "--msaa 1 --no-stats --backend cpu --set 'render.camera=\"fixed\"' " +
        extra + " --frames " + dir.string());
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return pixelsOffTheSky(dir / "frame_000001.png");
  };
  const std::size_t filmed = frame("demo_murmuration_filmed", "");
  const std::size_t marked = frame("demo_murmuration_marked",
                                   "--set render.show_markers=true --set render.show_paths=true "
                                   "--set render.show_senses=true");
  EXPECT_GT(filmed, 5u) << "no birds";
  EXPECT_LT(filmed, 100u) << "more than ten starlings and a falcon";
  EXPECT_GT(marked, 5 * filmed) << "the falcon's marks do not show when asked for";
}

// The flocking lab's four colours (render/palette.hpp) in a headless frame of scenes/lab.toml at step
// 300: emergent leaders red, chasers blue, interceptors magenta and the player's marker green. The
// first frame, before any step, has no leader flag set: no red.
TEST(DemoCli, LabFrameShowsLeadersChasersInterceptorsAndThePlayer) {
  const fs::path dir = scratchDir("demo_lab");
  const CliResult r = runMurmur(
      "demo --headless --scene scenes/lab.toml --steps 300 --every 300 --size 640x480 "
      "--msaa 1 --no-stats --backend cpu --frames " +
      dir.string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::vector<std::array<float, 3>> colours = {kLeaderRed, kChaserBlue, kInterceptorMagenta,
                                                     kPlayerGreen};
  const std::vector<std::size_t> start = pixelsOfColours(dir / "frame_000000.png", colours);
  const std::vector<std::size_t> later = pixelsOfColours(dir / "frame_000001.png", colours);
  EXPECT_EQ(start[0], 0u) << "red before any step";
  // The book's leader rule leaves a few leaders (one at step 300, about 60 pixels drawn larger).
  EXPECT_GT(later[0], 30u) << "leaders (red)";
  EXPECT_GT(later[1], 100u) << "chasers (blue)";
  EXPECT_GT(later[2], 100u) << "interceptors (magenta)";
  EXPECT_GT(later[3], 20u) << "the player (green)";
}

// A copy of a shipped scene with `renderKeys` as its [render] section, in `dir`.
fs::path sceneWithRender(const fs::path& dir, const std::string& scene, const std::string& renderKeys) {
  std::ifstream in(fs::path(MURMUR_SOURCE_DIR) / "scenes" / scene);
  std::ostringstream text;
  text << in.rdbuf() << "\n[render]\n" << renderKeys;
  const fs::path path = dir / scene;
  std::ofstream(path) << text.str();
  return path;
}

// How a frame with the lab's aids differs from the same frame without (the flock flies the same:
// only the drawing changed): pixels changed to a dark grey (the force lines, black), to green (the
// velocity lines) and to the chasers' blue or the interceptors' magenta (their trails).
struct AidPixels {
  std::size_t force = 0, velocity = 0, trail = 0;
};
AidPixels aidPixels(const fs::path& with, const fs::path& without) {
  AidPixels counts;
  int w = 0, h = 0, channels = 0, w0 = 0, h0 = 0;
  stbi_uc* a = stbi_load(with.c_str(), &w, &h, &channels, 3);
  stbi_uc* b = stbi_load(without.c_str(), &w0, &h0, &channels, 3);
  if (a != nullptr && b != nullptr && w == w0 && h == h0)
    for (int i = 0; i < w * h; ++i) {
      const stbi_uc* p = a + 3 * i;
      if (std::equal(p, p + 3, b + 3 * i)) continue;
      const int high = std::max({p[0], p[1], p[2]}), low = std::min({p[0], p[1], p[2]});
      if (high - low < 25 && high < 110) ++counts.force;
      if (p[1] > p[0] + 40 && p[1] > p[2] + 40) ++counts.velocity;
      if (p[2] > p[1] + 40) ++counts.trail;  // blue and magenta: more blue than green
    }
  stbi_image_free(a);
  stbi_image_free(b);
  return counts;
}

// [render] show_trails and show_vectors in headless frames of the lab on both backends: the trails
// of 24 boids and of the agents, the velocity and force of 24 boids and of the agents. Senses are off
// (their labels' dark plates would count as force lines).
TEST(DemoCli, HeadlessFramesShowTrailsAndVectorsOnBothBackends) {
  const fs::path dir = scratchDir("demo_aids");
  const fs::path plain = sceneWithRender(dir, "lab.toml", "show_senses = false\n");
  fs::create_directories(dir / "aids");
  const fs::path aids = sceneWithRender(dir / "aids", "lab.toml",
                                        "show_senses = false\nshow_trails = true\nshow_vectors = true\n");
  for (const std::string backend : {"cpu", "gpu"}) {
    for (const auto& [scene, out] :
         {std::pair{plain, dir / (backend + "_plain")}, std::pair{aids, dir / (backend + "_aids")}}) {
      const CliResult r = runMurmur("demo --headless --scene " + scene.string() +
                                    " --steps 200 --every 200 "
                                    "--size 640x480 --msaa 1 --no-stats --backend " +
                                    backend + " --frames " + out.string());
      ASSERT_EQ(r.exitCode, 0) << r.err;
    }
    const AidPixels seen = aidPixels(dir / (backend + "_aids") / "frame_000001.png",
                                     dir / (backend + "_plain") / "frame_000001.png");
    EXPECT_GT(seen.force, 80u) << backend << ": force lines";
    EXPECT_GT(seen.velocity, 80u) << backend << ": velocity lines";
    EXPECT_GT(seen.trail, 300u) << backend << ": trails";
    const AidPixels start = aidPixels(dir / (backend + "_aids") / "frame_000000.png",
                                      dir / (backend + "_plain") / "frame_000000.png");
    EXPECT_EQ(start.force + start.velocity + start.trail, 0u) << backend << ": nothing before the first step";
  }
}

// A bad [render] key of the aids is bad input: exit 2, one line naming the key, no frames.
TEST(DemoCli, BadTrailOrVectorKeysAreOneLineErrors) {
  const fs::path dir = scratchDir("demo_aids_bad");
  for (const std::string key :
       {"trail_every = 0", "trail_length = 1", "vector_boids = 5000", "show_trails = 2"}) {
    const fs::path scene = sceneWithRender(dir, "lab.toml", key + "\n");
    const CliResult r = runMurmur("demo --headless --scene " + scene.string() + " --steps 1 --frames " +
                                  (dir / "frames").string());
    EXPECT_EQ(r.exitCode, 2) << key << ": " << r.err;
    EXPECT_NE(r.err.find(key.substr(0, key.find(' '))), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(dir / "frames" / "frame_000000.png")) << key;
  }
}

// Key taps reach the demo however slow its frames: at 2 frames a second, several quick taps (a press
// and its release within one frame) land in every frame, and each must act. P takes a screenshot
// (one file per tap), Esc closes the window.
TEST(DemoCli, EveryKeyTapActsAtTwoFramesASecond) {
  const Xvfb server;
  ASSERT_TRUE(server.ready()) << "cannot start Xvfb (install xvfb): the window path needs a display";
  const ScopedEnv display("DISPLAY", server.display());
  const fs::path shots = scratchDir("demo_key_taps") / "shots";
  CliResult r;
  std::thread demo([&] {
    r = runMurmur("demo --boids 300 --backend cpu --size 320x180 --msaa 1 --max-fps 2 --screenshot-dir " +
                  shots.string());
  });
  const std::string id = focusMurmurWindow();
  ASSERT_FALSE(id.empty()) << "no murmur window appeared (is xdotool installed?)";
  constexpr int kTaps = 6;
  for (int tap = 0; tap < kTaps; ++tap) {
    EXPECT_EQ(std::system("xdotool key p"), 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(120));  // about 4 taps in a 500 ms frame
  }
  // A lost tap leaves it short: the wait then ends at its limit and the count below fails.
  awaitPngs(shots, kTaps);
  EXPECT_EQ(std::system("xdotool key Escape"), 0);
  demo.join();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(framesIn(shots).size(), std::size_t{kTaps}) << r.out;
  std::size_t lines = 0;
  for (std::size_t at = r.out.find("screenshot: "); at != std::string::npos;
       at = r.out.find("screenshot: ", at + 1))
    ++lines;
  EXPECT_EQ(lines, std::size_t{kTaps}) << r.out;
}

// The share of a PNG's pixels darker than a silhouette bird against the dusk (luminance below 0.2):
// how much of the frame the flock covers; -1 when it cannot be read.
double darkShare(const fs::path& png) {
  int w = 0, h = 0, channels = 0;
  stbi_uc* pixels = stbi_load(png.c_str(), &w, &h, &channels, 3);
  if (pixels == nullptr) return -1.0;
  std::size_t dark = 0;
  for (std::size_t i = 0; i < std::size_t(w) * std::size_t(h); ++i) {
    const stbi_uc* p = pixels + 3 * i;
    dark += 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2] < 0.2 * 255.0;
  }
  stbi_image_free(pixels);
  return double(dark) / (double(w) * double(h));
}

// [render] camera = "follow" frames the flock in headless frames: 3,000 silhouettes spawned in a ball
// in a 1,000-unit world cover 17% of the frame (a ball framed in 16:9 covers at most 39%, less the
// sky between the birds), where the fixed camera, framing the world, shows a speck.
TEST(DemoCli, AFollowingCameraFramesTheFlock) {
  const fs::path dir = scratchDir("demo_follow");
  const std::string scene =
      "[world]\nmin = [-500, 0, -500]\nmax = [500, 60, 500]\n[sim]\nspawn = \"sphere\"\n"
      "[boids]\ncount = 3000\n[render]\nsky = \"dusk\"\ncolour = \"silhouette\"\n"
      "show_box = false\nshow_grid = false\nshow_stats = false\n";
  double share[2] = {};
  for (const std::string camera : {"fixed", "follow"}) {
    std::ofstream(dir / (camera + ".toml")) << scene << "camera = \"" << camera << "\"\n";
    const CliResult r =
        runMurmur("demo --headless --backend cpu --scene " + (dir / (camera + ".toml")).string() +
                  " --steps 60 --every 60 --size 320x180 --frames " + (dir / camera).string());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    share[camera == "follow"] = darkShare(dir / camera / "frame_000001.png");
  }
  EXPECT_LT(share[0], 0.01) << "fixed: the flock a speck in the world";
  EXPECT_GT(share[1], 0.12) << "follow: the flock framed";
}

// Of a PNG: the mean luminance (0..1) of its left quarter, and the mean x (0..1 of the width) of its
// pixels darker than a silhouette against the dusk (luminance below 0.2; -1 when none).
struct PngMeasures {
  double leftQuarterLuminance = -1.0;
  double darkCentreX = -1.0;
};

std::optional<PngMeasures> measurePng(const fs::path& png) {
  int w = 0, h = 0, channels = 0;
  stbi_uc* pixels = stbi_load(png.c_str(), &w, &h, &channels, 3);
  if (pixels == nullptr) return std::nullopt;
  double left = 0.0, darkX = 0.0;
  std::size_t dark = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const stbi_uc* p = pixels + 3 * (std::size_t(y) * std::size_t(w) + std::size_t(x));
      const double luminance = (0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]) / 255.0;
      if (x < w / 4) left += luminance;
      if (luminance < 0.2) darkX += (x + 0.5) / w, ++dark;
    }
  stbi_image_free(pixels);
  return PngMeasures{left / (double(w / 4) * h), dark > 0 ? darkX / double(dark) : -1.0};
}

// The window's camera follows the flock of a 3D scene (its default [render] camera = "follow") and
// frames it in the part of the window right of the panel; F12 shoots the window as seen, the panel
// included, P the view alone with the flock centred. 3,000 silhouettes in a ball in a 1,000-unit world:
// framed, they darken about 7% of the view (the world framed instead shows a speck, under 1%:
// DemoCli.AFollowingCameraFramesTheFlock).
TEST(DemoCli, TheWindowFollowsTheFlockAndShootsTheWindowOrTheViewAlone) {
  const Xvfb server;
  ASSERT_TRUE(server.ready()) << "cannot start Xvfb (install xvfb): the window path needs a display";
  const ScopedEnv display("DISPLAY", server.display());
  const fs::path dir = scratchDir("demo_window_follow");
  std::ofstream(dir / "ball.toml") << "[world]\nmin = [-500, 0, -500]\nmax = [500, 60, 500]\n[sim]\nspawn = "
                                      "\"sphere\"\n[boids]\ncount = 3000\n";
  CliResult r;
  std::thread demo([&] {
    r = runMurmur("demo --scene " + (dir / "ball.toml").string() + " --backend cpu --size 800x450 --msaa 1 " +
                  "--screenshot-dir " + (dir / "shots").string());
  });
  const std::string id = focusMurmurWindow();
  ASSERT_FALSE(id.empty()) << "no murmur window appeared (is xdotool installed?)";
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));  // the camera's time to frame the flock
  EXPECT_EQ(std::system("xdotool key F12"), 0);
  EXPECT_TRUE(awaitPngs(dir / "shots", 1)) << "no screenshot for F12";
  EXPECT_EQ(std::system("xdotool key p"), 0);
  EXPECT_TRUE(awaitPngs(dir / "shots", 2)) << "no screenshot for P";
  EXPECT_EQ(std::system("xdotool key s"), 0);
  EXPECT_TRUE(awaitPngs(dir / "shots", 1, std::chrono::seconds(60), ".toml")) << "no scene saved for S";
  EXPECT_EQ(std::system("xdotool key Escape"), 0);
  demo.join();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // The saved scene: the flock as it ran, which `run` loads.
  const std::vector<fs::path> saved = framesIn(dir / "shots", ".toml");
  ASSERT_EQ(saved.size(), 1u);
  std::stringstream text;
  text << std::ifstream(saved[0]).rdbuf();
  EXPECT_NE(text.str().find("count = 3000\n"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("spawn = \"sphere\"\n"), std::string::npos) << text.str();
  const CliResult rerun = runMurmur("run --scene " + saved[0].string() + " --steps 2 --backend cpu");
  EXPECT_EQ(rerun.exitCode, 0) << rerun.err;
  EXPECT_NE(rerun.out.find("3000 boids"), std::string::npos) << rerun.out;
  const std::size_t windowShot = r.out.find(" (the window)"), viewShot = r.out.find(" (the view)");
  ASSERT_TRUE(windowShot != std::string::npos && viewShot != std::string::npos) << r.out;
  const auto pathBefore = [&](std::size_t end) {
    const std::size_t begin = r.out.rfind("screenshot: ", end) + std::string("screenshot: ").size();
    return fs::path(r.out.substr(begin, end - begin));
  };
  const std::optional<PngMeasures> withPanel = measurePng(pathBefore(windowShot));
  const std::optional<PngMeasures> view = measurePng(pathBefore(viewShot));
  ASSERT_TRUE(withPanel && view) << r.out;
  EXPECT_GT(darkShare(pathBefore(viewShot)), 0.04) << "the flock framed, not the world";
  EXPECT_NEAR(view->darkCentreX, 0.5, 0.12) << "the flock centred in the view alone";
  EXPECT_LT(withPanel->leftQuarterLuminance, 0.7 * view->leftQuarterLuminance)
      << "the dark panel on the left";
}

// A scene's sim.steps bounds headless runs only: the window simulates on until it is closed (the
// lab's 2000 steps once froze its window without a word).
TEST(DemoCli, TheWindowRunsPastTheScenesSteps) {
  const Xvfb server;
  ASSERT_TRUE(server.ready()) << "cannot start Xvfb (install xvfb): the window path needs a display";
  const ScopedEnv display("DISPLAY", server.display());
  const fs::path dir = scratchDir("demo_window_steps"), scene = dir / "five_steps.toml";
  std::ofstream(scene) << "[sim]\nsteps = 5\n[boids]\ncount = 300\n";
  CliResult r;
  std::thread demo([&] {
    r = runMurmur("demo --scene " + scene.string() +
                  " --backend cpu --size 320x180 --msaa 1 --screenshot-dir " + (dir / "shots").string());
  });
  const std::string id = focusMurmurWindow();
  ASSERT_FALSE(id.empty()) << "no murmur window appeared (is xdotool installed?)";
  // More than 20 steps however slowly the window draws: 2 s of steps of 1/60 s (about 120) where
  // frames are quick, and at least 3 frames of 8 steps (the most a frame takes) where they are
  // slow, each frame awaited through the screenshot it takes.
  std::this_thread::sleep_for(std::chrono::milliseconds(2000));
  for (std::size_t frame = 1; frame <= 3; ++frame) {
    EXPECT_EQ(std::system("xdotool key F12"), 0);
    EXPECT_TRUE(awaitPngs(dir / "shots", frame)) << "no screenshot for F12";
  }
  EXPECT_EQ(std::system("xdotool key Escape"), 0);
  demo.join();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::size_t at = r.out.find(" steps simulated");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::size_t begin = r.out.rfind(' ', at - 1) + 1;
  EXPECT_GT(std::stoull(r.out.substr(begin, at - begin)), 20u) << r.out;
}

// Esc with the panel's scene drop-down open closes the drop-down, not the window; a second Esc
// then quits. The drop-down is the panel's first row: the panel's window at (8, 8), its title bar
// (19 pixels at 960 wide) and padding (8) above it.
TEST(DemoCli, EscClosesAnOpenDropDownBeforeTheWindow) {
  const Xvfb server;
  ASSERT_TRUE(server.ready()) << "cannot start Xvfb (install xvfb): the window path needs a display";
  const ScopedEnv display("DISPLAY", server.display());
  std::atomic<bool> ended = false;
  CliResult r;
  std::thread demo([&] {
    r = runMurmur("demo --scene scenes/lab.toml --backend cpu --size 960x600 --msaa 1");
    ended = true;
  });
  const std::string id = focusMurmurWindow();
  ASSERT_FALSE(id.empty()) << "no murmur window appeared (is xdotool installed?)";
  std::this_thread::sleep_for(std::chrono::seconds(2));  // the panel laid out
  EXPECT_EQ(std::system(("xdotool mousemove --window " + id + " 60 44 click 1").c_str()), 0);
  std::this_thread::sleep_for(std::chrono::seconds(2));
  EXPECT_EQ(std::system("xdotool key Escape"), 0);
  std::this_thread::sleep_for(std::chrono::seconds(3));
  EXPECT_FALSE(ended) << "Esc closed the window with the drop-down open";
  EXPECT_EQ(std::system("xdotool key Escape"), 0);
  EXPECT_TRUE(awaitFlag(ended, std::chrono::seconds(30))) << "the second Esc did not quit";
  if (!ended) {
    EXPECT_EQ(std::system(("xdotool windowclose " + id).c_str()), 0);
  }
  demo.join();
  EXPECT_EQ(r.exitCode, 0) << r.err;
}

// The panel of a window screenshot: where it ends (along x = 10, in its left padding where nothing
// is drawn: the first of four rows below its title as bright as the sky) and the rows of its bluish
// bars along x = 320, right of its graph and sliders (title, buttons, section headers: runs of 15 to
// 25 rows), top to bottom.
struct PanelRows {
  int bottom = -1;
  std::vector<int> bars;  // each bar's middle row
};
PanelRows panelRows(const fs::path& png) {
  int w = 0, h = 0, channels = 0;
  stbi_uc* pixels = stbi_load(png.c_str(), &w, &h, &channels, 3);
  PanelRows rows;
  if (pixels == nullptr || w <= 320) return rows;
  const auto pixel = [&](int x, int y) {
    return pixels + 3 * (std::size_t(y) * std::size_t(w) + std::size_t(x));
  };
  int runStart = -1, skyRows = 0;
  for (int y = 0; y < h && rows.bottom < 0; ++y) {
    const stbi_uc* bar = pixel(320, y);
    const bool bluish = bar[2] > bar[0] + 30;
    if (bluish && runStart < 0) runStart = y;
    if (!bluish && runStart >= 0) {
      if (y - runStart >= 15 && y - runStart <= 25) rows.bars.push_back((runStart + y) / 2);
      runStart = -1;
    }
    const stbi_uc* edge = pixel(10, y);
    skyRows = y > 30 && 0.2126 * edge[0] + 0.7152 * edge[1] + 0.0722 * edge[2] > 50.0 ? skyRows + 1 : 0;
    if (skyRows == 4) rows.bottom = y - 3;
  }
  stbi_image_free(pixels);
  return rows;
}

// The panel's height fits what is open: opening "weights" (the third header from the bottom in
// free.toml's panel) lengthens it by its ten sliders and a checkbox, about 260 pixels, all shown in
// a window with room for them, none scrolled away.
TEST(DemoCli, ThePanelGrowsWithTheSectionsOpenedInIt) {
  const Xvfb server;
  ASSERT_TRUE(server.ready()) << "cannot start Xvfb (install xvfb): the window path needs a display";
  const ScopedEnv display("DISPLAY", server.display());
  const fs::path shots = scratchDir("demo_panel_height") / "shots";
  std::atomic<bool> ended = false;
  CliResult r;
  std::thread demo([&] {
    r = runMurmur(
        "demo --scene scenes/free.toml --boids 2000 --threads 1 --backend cpu --size 1280x800 "
        "--msaa 1 --screenshot-dir " +
        shots.string());
    ended = true;
  });
  const std::string id = focusMurmurWindow();
  ASSERT_FALSE(id.empty()) << "no murmur window appeared (is xdotool installed?)";
  std::this_thread::sleep_for(std::chrono::seconds(2));
  EXPECT_EQ(std::system("xdotool key F12"), 0);
  EXPECT_TRUE(awaitPngs(shots, 1)) << "no screenshot for F12";
  const std::vector<fs::path> first = framesIn(shots);
  const PanelRows closed = first.size() == 1 ? panelRows(first[0]) : PanelRows{};
  if (closed.bars.size() >= 3) {
    // A screenshot's status line (6 s) moves the rows below it: gone before the click.
    std::this_thread::sleep_for(std::chrono::seconds(7));
    const int weights = closed.bars[closed.bars.size() - 3];
    EXPECT_EQ(
        std::system(
            ("xdotool mousemove --window " + id + " 60 " + std::to_string(weights) + " click 1").c_str()),
        0);
    std::this_thread::sleep_for(std::chrono::seconds(2));
    EXPECT_EQ(std::system("xdotool key F12"), 0);
    EXPECT_TRUE(awaitPngs(shots, 2)) << "no second screenshot";
  }
  // A second Esc where the first closed a pop-up that a click beside the header opened.
  EXPECT_EQ(std::system("xdotool key Escape"), 0);
  if (!awaitFlag(ended, std::chrono::seconds(30))) {
    EXPECT_EQ(std::system("xdotool key Escape"), 0);
  }
  demo.join();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  ASSERT_GE(closed.bars.size(), 3u) << "the panel's headers were not found";
  std::vector<fs::path> both = framesIn(shots);
  ASSERT_EQ(both.size(), 2u);
  std::sort(both.begin(), both.end());
  const PanelRows open = panelRows(both[1]);
  EXPECT_GT(open.bottom, closed.bottom + 200) << closed.bottom << " -> " << open.bottom;
  EXPECT_LT(open.bottom, 800) << "the panel runs off the window";
  // The last header and the help line below it end the panel, as before: nothing scrolled away.
  ASSERT_FALSE(open.bars.empty());
  EXPECT_NEAR(open.bottom - open.bars.back(), closed.bottom - closed.bars.back(), 3);
}

// Where the player's green marker moved in the window over `hold` seconds of scenes/lab.toml from the
// start, with `key` held down then (none: ""): a screenshot (P) before and one after, the distance
// in pixels between the marker's centroids in them. nullopt when a screenshot is missing or shows no
// green.
std::optional<float> playerMoveInWindow(const std::string& name, const std::string& key) {
  const fs::path shots = scratchDir(name) / "shots";
  CliResult r;
  std::thread demo([&] {
    r = runMurmur("demo --scene scenes/lab.toml --backend cpu --size 960x600 --msaa 1 --screenshot-dir " +
                  shots.string());
  });
  const std::string window = runCommand("timeout 60 xdotool search --sync --name '^murmur$' | head -1").out;
  const std::string id = window.substr(0, window.find('\n'));
  bool sent = true;
  const auto xdotool = [&](const std::string& args) {
    sent = std::system(("xdotool " + args).c_str()) == 0 && sent;
  };
  xdotool("windowfocus --sync " + id);
  xdotool("key Tab p");  // the panel hidden: the whole world in view, then the first shot
  if (!key.empty()) xdotool("keydown " + key);
  std::this_thread::sleep_for(std::chrono::seconds(3));
  if (!key.empty()) xdotool("keyup " + key);
  xdotool("key p");
  awaitPngs(shots, 2);  // short, the count below fails
  xdotool("key Escape");
  demo.join();
  if (!sent) return std::nullopt;
  std::vector<fs::path> files;
  if (fs::exists(shots))
    for (const auto& entry : fs::directory_iterator(shots)) files.push_back(entry.path());
  if (r.exitCode != 0 || files.size() != 2) return std::nullopt;
  // murmur-<time>-1.png, murmur-<time>-2.png: the number orders them.
  std::sort(files.begin(), files.end(), [](const fs::path& a, const fs::path& b) {
    return a.stem().string().back() < b.stem().string().back();
  });
  const auto before = centroidOfColour(files[0], kPlayerGreen),
             after = centroidOfColour(files[1], kPlayerGreen);
  if (!before || !after) return std::nullopt;
  return std::hypot((*after)[0] - (*before)[0], (*after)[1] - (*before)[1]);
}

// The arrow keys take the player over in the window. On its course, lab.toml's player heads from
// its start along +x, speeding up at 6 units/s^2 to 7 units/s: over 3 s about 17 units, some 70
// pixels of the window's framing (600 pixels for 120 units, the panel hidden). With Left held from
// the start the keys drive instead: full left turn, no throttle, so it turns on the spot at the speed
// it had when the key went down (next to none): its marker moves a few pixels at most.
TEST(DemoCli, ArrowKeysSteerThePlayerInsteadOfItsCourse) {
  const Xvfb server;
  ASSERT_TRUE(server.ready()) << "cannot start Xvfb (install xvfb): the window path needs a display";
  const ScopedEnv display("DISPLAY", server.display());
  const std::optional<float> course = playerMoveInWindow("demo_player_course", "");
  const std::optional<float> steered = playerMoveInWindow("demo_player_keys", "Left");
  ASSERT_TRUE(course && steered) << "a screenshot is missing or shows no player";
  EXPECT_GT(*course, 30.0f);
  EXPECT_LT(*steered, 12.0f);
}

// "gpu stages (ms, mean after the first dispatch): scan 0.1 scatter 0.2 ..." (the window: "gpu
// stages (ms, gpu backend, mean ...): ...") -> {name, ms}
std::vector<std::pair<std::string, double>> stageTimes(const std::string& out) {
  std::vector<std::pair<std::string, double>> stages;
  std::size_t at = out.find("gpu stages (ms");
  if (at == std::string::npos) return stages;
  at = out.find("):", at) + 2;
  std::istringstream line(out.substr(at, out.find('\n', at) - at));
  std::string name;
  double ms = 0.0;
  while (line >> name >> ms) stages.emplace_back(name, ms);
  return stages;
}

// The per-stage GPU times the window reports are the ones `murmur run` measures on the same scene
// (a framebuffer with pixels bound while the stages compute once shifted llvmpipe's timestamps, so
// that each stage's time showed up under the one before it: half the forces pass under scatter).
// The scan is left out: on llvmpipe `run`'s (EGL) takes 3 to 5 times the window's (GLX), and no
// other stage of the window's grows by the difference, so no stamp moved (docs/gpu.md, Timings).
TEST(DemoCli, WindowStageTimesMatchRun) {
  const Xvfb server;
  ASSERT_TRUE(server.ready()) << "cannot start Xvfb (install xvfb): the window path needs a display";
  const std::string workload = "--scene scenes/predator.toml --boids 4000 --backend gpu --steps 200";
  CliResult window;
  {
    const ScopedEnv display("DISPLAY", server.display());
    window = runMurmur("demo " + workload + " --exit-after-steps --size 480x270 --msaa 1");
  }
  const CliResult run = runMurmur("run " + workload);
  ASSERT_EQ(window.exitCode, 0) << window.err;
  ASSERT_EQ(run.exitCode, 0) << run.err;
  const auto inWindow = stageTimes(window.out), inRun = stageTimes(run.out);
  // The stages of every step: the scan, scatter and forces, and the reduction for the agents (the
  // hash and count ran on the first step only: in the first-dispatch line alone).
  ASSERT_EQ(inWindow.size(), 4u) << window.out;
  ASSERT_EQ(inRun.size(), 4u) << run.out;
  for (std::size_t s = 0; s < inRun.size(); ++s) {
    EXPECT_EQ(inWindow[s].first, inRun[s].first);
    EXPECT_GT(inWindow[s].second, 0.0) << inWindow[s].first << "\n" << window.out;
    EXPECT_GT(inRun[s].second, 0.0) << inRun[s].first << "\n" << run.out;
  }
  const auto ms = [](const std::vector<std::pair<std::string, double>>& stages, const std::string& name) {
    for (const auto& [stage, time] : stages)
      if (stage == name) return time;
    return 0.0;
  };
  // Scatter, forces and reduce: their shares of the three within 25 points (the two runs share
  // the machine with other tests, which moves a share by up to 13 points under load), their sum
  // within a factor of 3. The shifted stamps moved scatter's share from about 15% to over 50%.
  const std::vector<std::string> compared{"scatter", "forces", "reduce"};
  double windowTotal = 0.0, runTotal = 0.0;
  for (const std::string& name : compared) {
    windowTotal += ms(inWindow, name);
    runTotal += ms(inRun, name);
  }
  ASSERT_GT(windowTotal, 0.0) << window.out;
  ASSERT_GT(runTotal, 0.0) << run.out;
  EXPECT_LT(windowTotal, 3.0 * runTotal) << window.out << run.out;
  EXPECT_LT(runTotal, 3.0 * windowTotal) << window.out << run.out;
  for (const std::string& name : compared)
    EXPECT_NEAR(ms(inWindow, name) / windowTotal, ms(inRun, name) / runTotal, 0.25)
        << name << ": window " << ms(inWindow, name) << " ms, run " << ms(inRun, name) << " ms\n"
        << window.out << run.out;
}

// The window's frames never make the CPU wait for the GPU, with agents on the gpu backend and the
// panel open (its statistics show the groups' leader counts every frame): the agents' perception and
// the panel's figures come back through fenced read-backs (docs/gpu.md, Read-backs); the trails and
// vectors stay on the GPU.
TEST(DemoCli, WindowFramesNeverWaitForTheGpu) {
  const Xvfb server;
  ASSERT_TRUE(server.ready()) << "cannot start Xvfb (install xvfb): the window path needs a display";
  const ScopedEnv display("DISPLAY", server.display());
  // The trails and vectors too: the GPU copies the sampled boids for them (render::BoidSamples).
  const fs::path aids = sceneWithRender(scratchDir("demo_window_waits"), "predator.toml",
                                        "show_trails = true\nshow_vectors = true\n");
  for (const std::string& scene : {std::string("scenes/predator.toml"), aids.string()}) {
    const CliResult r = runMurmur("demo --scene " + scene +
                                  " --boids 3000 --backend gpu --steps 60 "
                                  "--exit-after-steps --size 480x270 --msaa 1");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("60 steps simulated"), std::string::npos) << scene << "\n" << r.out;
    EXPECT_NE(r.out.find("blocking gpu waits in the frames: 0\n"), std::string::npos) << scene << "\n"
                                                                                      << r.out;
  }
}

// --video: the frames go through an ffmpeg child into an MP4 with exactly one video frame each
// (ffprobe decodes and counts them). scripts/install-deps.sh installs ffmpeg: missing, this fails.
TEST(DemoCli, HeadlessVideoHasOneFramePerRenderedFrame) {
  const fs::path video = scratchDir("demo_video") / "out.mp4";
  const CliResult r = runMurmur("demo --headless --video " + video.string() +
                                " --steps 29 --every 1 --size 322x242 --msaa 1 --boids 300 --backend cpu");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("a video of 30 frames"), std::string::npos) << r.out;
  const std::string counted = runCommand(
                                  "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                                  "stream=nb_read_frames,width,height "
                                  "-of csv=p=0 '" +
                                  video.string() + "'")
                                  .out;
  EXPECT_EQ(counted, "322,242,30\n");
  // The container says what made it.
  const std::string tags =
      runCommand("ffprobe -v error -show_entries format_tags -of default=noprint_wrappers=1 '" +
                 video.string() + "'")
          .out;
  for (const std::string& tag :
       {"TAG:commit=" + buildCommit(), std::string("TAG:scene=" MURMUR_SOURCE_DIR "/scenes/free.toml"),
        std::string("TAG:seed=1"), std::string("TAG:step=0"), std::string("TAG:backend=cpu"),
        std::string("TAG:boids=300"), std::string("TAG:steps_per_frame=1")})
    EXPECT_NE(tags.find(tag + "\n"), std::string::npos) << tag << " in\n" << tags;
}

// V records in simulated time: at 4 frames a second in the window (8 steps a frame at most, about
// half of real time), a 30 fps recording gets a frame per 1/30 s the flock flew, several per window
// frame, and plays at the flock's speed (it once took one frame per window frame, a 7x speed-up).
// The recording spans window frames counted, not seconds waited: after V, F12 is pressed and its
// screenshot awaited 8 times, so at least 8 frames (7 of 8 steps, 0.93 s flown) lie between the
// two Vs however slowly a loaded machine draws them (waiting 3 s once gave a single frame).
TEST(DemoCli, RecordingsRunInSimulatedTime) {
  const Xvfb server;
  ASSERT_TRUE(server.ready()) << "cannot start Xvfb (install xvfb): the window path needs a display";
  const ScopedEnv display("DISPLAY", server.display());
  const fs::path dir = scratchDir("demo_record_pacing");
  CliResult r;
  std::thread demo([&] {
    r = runMurmur(
        "demo --boids 300 --backend cpu --size 320x180 --msaa 1 --max-fps 4 --video-fps 30 "
        "--screenshot-dir " +
        dir.string());
  });
  const std::string id = focusMurmurWindow();
  ASSERT_FALSE(id.empty()) << "no murmur window appeared (is xdotool installed?)";
  EXPECT_EQ(std::system("xdotool key v"), 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  std::size_t taken = 0;
  while (taken < 8 && std::chrono::steady_clock::now() < deadline) {
    EXPECT_EQ(std::system("xdotool key F12"), 0);
    awaitPngs(dir, taken + 1);
    taken = framesIn(dir).size();
  }
  // The second V acted on by the frame that takes one more screenshot, at the latest: then Escape.
  EXPECT_EQ(std::system("xdotool key v F12"), 0);
  awaitPngs(dir, taken + 1);
  EXPECT_EQ(std::system("xdotool key Escape"), 0);
  demo.join();
  ASSERT_GE(taken, 8u) << "the window drew too few frames in 120 s\n" << r.out;
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::size_t at = r.out.find("recording: ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::size_t open = r.out.find(" (", at);
  const std::string path = r.out.substr(at + 11, open - at - 11);
  unsigned frames = 0;
  double simulated = 0.0;
  ASSERT_EQ(std::sscanf(r.out.c_str() + open, " (%u frames: %lf s simulated", &frames, &simulated), 2)
      << r.out;
  EXPECT_GT(simulated, 0.5) << r.out;
  EXPECT_NEAR(double(frames), 30.0 * simulated, 1.5) << r.out;
  const std::string counted = runCommand(
                                  "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                                  "stream=nb_read_frames -of csv=p=0 '" +
                                  path + "'")
                                  .out;
  EXPECT_EQ(counted, std::to_string(frames) + "\n");
}

TEST(DemoCli, VideoWithoutFfmpegIsAClearErrorBeforeAnyWork) {
  const fs::path video = scratchDir("demo_no_ffmpeg") / "out.mp4";
  const ScopedEnv path("PATH", "/nonexistent");
  const CliResult r =
      runMurmur("demo --headless --video " + video.string() + " --steps 5 --boids 100 --backend cpu");
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_EQ(countLines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("ffmpeg (with ffprobe) is not on PATH"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(video));
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace murmur::test

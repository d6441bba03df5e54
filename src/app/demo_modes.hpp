#pragma once
// The two ways `murmur demo` shows a flock: a window (GLFW, mouse camera, Dear ImGui panel) or
// headless PNG frames rendered offscreen on the EGL context.
#include <cstdint>
#include <string>

#include "app/scene_options.hpp"
#include "app/window_context.hpp"

namespace murmur::app {

struct DemoOptions {
  SceneOptions scene;
  std::string backend = "auto";
  int device = -1;
  int width = 1280;
  int height = 720;
  int msaa = 4;  // samples per pixel of the offscreen target (clamped to the device's maximum)
  // headless: default the scene's sim.steps, else 600; window: until closed (sim.steps only with
  // exitAfterSteps)
  std::int64_t steps = kUnset;
  std::int64_t every = kUnset;  // headless: a frame every K steps (default 10)
  std::string frames;           // headless: the frame directory (default ./murmur-frames)
  bool overwrite = false;       // headless: replace a frame directory that holds other files
  std::string video;            // headless: a video file written through ffmpeg instead of PNG frames
  double videoFps = 30.0;       // frames per second of a video (headless and the window's recordings)
  bool stats = true;            // headless: the step / boids / backend corner (and the scene's show_stats)
  bool exitAfterSteps = false;  // window: close once --steps steps are simulated
  double maxFps = 0.0;          // window: at most this many frames a second (0: as the display allows)
  std::string screenshotDir = "screenshots";  // window: where F12 / P put their PNGs
};

inline constexpr const char* kDefaultFrameDirectory = "murmur-frames";
// The most frames a headless run writes without --force: PNG files in one directory, video frames.
inline constexpr std::uint64_t kMaxHeadlessFrames = 100'000;
inline constexpr std::uint64_t kMaxVideoFrames = 1'000'000;
inline constexpr std::uint64_t kDefaultHeadlessSteps = 600;
inline constexpr std::uint64_t kDefaultFrameEvery = 10;

// The most pixels a window or frame has without --force (8K UHD): each takes tens of bytes in the
// multisampled target, its resolve and read-back.
inline constexpr std::uint64_t kMaxFramePixels = 7680ull * 4320ull;

// "WxH" -> width, height (each 16..16384, at most kMaxFramePixels without options.scene.force);
// InputError for --size otherwise.
void parseFrameSize(const std::string& text, DemoOptions& options);

// Writes frame_000000.png (the initial state) and one frame every `every` steps after it, or those
// frames as a video (options.video). Checks the frame directory or the video file and ffmpeg
// (InputError) before anything is simulated.
int runHeadlessDemo(const DemoOptions& options);

// Runs the window until it is closed (or, with exitAfterSteps, until --steps steps are done).
int runWindowDemo(const DemoOptions& options, WindowContext& window);

}  // namespace murmur::app

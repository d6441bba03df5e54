// `murmur demo --headless`: the flock rendered offscreen on the headless EGL context, PNG frames.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <regex>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "app/demo_modes.hpp"
#include "app/demo_video.hpp"
#include "app/frame_text.hpp"
#include "app/progress.hpp"
#include "core/error.hpp"
#include "core/output_path.hpp"
#include "gpu/context.hpp"
#include "render/offscreen.hpp"
#include "render/png_writer.hpp"
#include "session/session.hpp"

namespace murmur::app {
namespace {

namespace fs = std::filesystem;

// A headless frame's file name, frame_000000.png on: what a frames directory may hold to be replaced
// by the next run's.
bool isFrameName(const std::string& name) {
  static const std::regex pattern(R"(frame_\d{6,}\.png)");
  return std::regex_match(name, pattern);
}

// The frames a run writes, at most kMaxHeadlessFrames (PNGs) or kMaxVideoFrames (a video) without
// --force: 1e9 steps at --every 1 was accepted and wrote PNGs until the disk filled.
void checkFrameCount(std::uint64_t steps, std::uint64_t every, bool video, bool force) {
  const std::uint64_t frames = steps / every + 1, limit = video ? kMaxVideoFrames : kMaxHeadlessFrames;
  if (frames <= limit || force) return;
  throw InputError(
      "", 0, "--steps",
      fmt::format("{} steps at a frame every {} would write {} {}, over the limit of {}: raise --every, "
                  "lower --steps, or pass --force",
                  steps, every, frames, video ? "video frames" : "PNG frames", limit));
}

}  // namespace

void parseFrameSize(const std::string& text, DemoOptions& options) {
  static const std::regex pattern(R"((\d{1,5})x(\d{1,5}))");
  std::smatch match;
  if (!std::regex_match(text, match, pattern))
    throw InputError("", 0, "--size", "'" + text + "' is not WIDTHxHEIGHT (e.g. 1280x720)");
  const int width = std::stoi(match[1].str()), height = std::stoi(match[2].str());
  if (width < 16 || height < 16 || width > 16384 || height > 16384)
    throw InputError("", 0, "--size", "'" + text + "': each side must be between 16 and 16384 pixels");
  const std::uint64_t pixels = std::uint64_t(width) * std::uint64_t(height);
  if (pixels > kMaxFramePixels && !options.scene.force)
    throw InputError("", 0, "--size",
                     fmt::format("'{}' is {:.1f} million pixels a frame, over the limit of {:.1f} million "
                                 "(7680x4320): lower --size or pass --force",
                                 text, double(pixels) / 1e6, double(kMaxFramePixels) / 1e6));
  options.width = width;
  options.height = height;
}

int runHeadlessDemo(const DemoOptions& options) {
  const std::string dir = options.frames.empty() ? kDefaultFrameDirectory : options.frames;
  if (options.every != kUnset && options.every < 1) throw InputError("", 0, "--every", "must be >= 1");
  const auto every = options.every == kUnset ? kDefaultFrameEvery : static_cast<std::uint64_t>(options.every);
  if (options.video.empty())
    core::checkOutputFolder(dir, "--frames", isFrameName, options.overwrite);
  else
    checkVideoOutput(options.video, "--video");

  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<gpu::Context> context = gpu::createHeadlessContext(options.device);
  session::Session session(options.scene, options.backend, options.device, *context);
  const std::uint64_t steps = resolveSteps(options.steps, session.world().scene(), kDefaultHeadlessSteps);
  checkRunCost(session.world(), steps, options.scene);
  checkFrameCount(steps, every, !options.video.empty(), options.scene.force);
  if (!session.autoChoice().empty()) fmt::print(stderr, "murmur: {}\n", session.autoChoice());
  if (!session.countNote().empty()) fmt::print(stderr, "murmur: {}\n", session.countNote());
  // Only once the scene and the context are good: no empty directory, no empty video.
  std::optional<VideoEncoder> video;
  std::optional<core::TemporaryFolder> folder;
  if (options.video.empty()) {
    folder.emplace(dir, "--frames", isFrameName, options.overwrite);
  } else {
    std::vector<render::TextTag> tags = session.pictureTags();
    tags.push_back({"steps_per_frame", std::to_string(every)});
    video.emplace(options.video, options.width, options.height, options.videoFps, "--video", tags);
  }
  render::OffscreenTarget target(options.width, options.height, options.msaa);
  session.camera().setViewport(options.width, options.height);
  session.frameScene();

  std::optional<StatsOverlay> stats;
  if (options.stats && session.view().showStats) stats.emplace();
  std::uint64_t frames = 0;
  std::uint64_t lastFrameStep = 0;
  double encodeSeconds = 0.0;  // handing frames to ffmpeg (the cost of --video per frame)
  auto writeFrame = [&] {
    const double dt = session.world().scene().model.dt;
    session.frameOptions().atmosphere.time = float(double(session.steps()) * dt);
    session.moveCamera(frames == 0 ? 0.0 : double(session.steps() - lastFrameStep) * dt);
    lastFrameStep = session.steps();
    target.bind();
    session.render();
    if (stats) stats->draw(session, target.width(), target.height());
    if (video) {
      const std::vector<std::uint8_t> rgba = target.readRgba();
      const auto encodeStart = std::chrono::steady_clock::now();
      video->write(rgba);
      encodeSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - encodeStart).count();
    } else {
      const std::string path =
          (fs::path(folder->temporaryPath()) / fmt::format("frame_{:06d}.png", frames)).string();
      render::writePng(path, target.width(), target.height(), target.readRgba(), "--frames",
                       session.pictureTags());
    }
    ++frames;
  };
  ProgressBar progress(steps);
  writeFrame();
  for (std::uint64_t s = 1; s <= steps; ++s) {
    core::throwIfStopRequested();
    session.step();
    if (s % every == 0) writeFrame();
    progress.update(s, std::to_string(frames) + " frames");
  }
  if (video) {
    const auto encodeStart = std::chrono::steady_clock::now();
    video->finish();
    encodeSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - encodeStart).count();
  } else {
    folder->commit();
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (video)
    fmt::print("wrote a video of {} frames ({}x{}, {:g} fps) to {} | encoding {:.2f} ms a frame\n", frames,
               options.width, options.height, options.videoFps, video->path(),
               1000.0 * encodeSeconds / double(frames));
  else
    fmt::print("wrote {} frames ({}x{}, frame_000000.png .. frame_{:06d}.png) to {}\n", frames, options.width,
               options.height, frames - 1, fs::absolute(dir).lexically_normal().string());
  fmt::print("scene {} | backend {} ({}) | {} boids | {} steps, a frame every {} | {:.2f} s ({})\n",
             session.world().scene().path, session.backend().name(), session.backend().device(),
             session.boidCount(), steps, every, seconds, session.contextInfo().renderer);
  return 0;
}

}  // namespace murmur::app

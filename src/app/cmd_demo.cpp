// `murmur demo`: the flock drawn live in a window, or as PNG frames with --headless (and, when no
// window can be opened, headless frames in ./murmur-frames instead, so that the demo always shows
// something).
#include <cstdio>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "app/cli_checks.hpp"
#include "app/command.hpp"
#include "app/demo_modes.hpp"
#include "app/help.hpp"
#include "app/window_context.hpp"
#include "core/error.hpp"
#include "core/output_path.hpp"
#include "gpu/error.hpp"

namespace murmur::app {
namespace {

class DemoCommand final : public Command {
 public:
  void configure(CLI::App& sub) override {
    addSceneOptions(sub, options_.scene, false);
    sub.add_option(
           "--backend", options_.backend,
           "gpu, gpu-exact, cpu, cpu-naive or auto (default auto: gpu on a hardware GL device, cpu on a "
           "software renderer; gpu-exact rounds as the cpu does)")
        ->type_name("NAME");
    sub.add_option("--device", options_.device, "EGL device index for the headless context (murmur devices)")
        ->type_name("INDEX")
        ->check(integerIn(-1, kMaxEglDevice));
    sub.add_option("--size", size_, "Window or frame size in pixels (default 1280x720)")->type_name("WxH");
    // The ranges the checks accept, which the descriptions say.
    constexpr int kMaxMsaa = 16;
    constexpr double kMinVideoFps = 1.0, kMaxVideoFps = 240.0, kMinMaxFps = 0.1, kMaxMaxFps = 1000.0;
    sub.add_option(
           "--msaa", options_.msaa,
           fmt::format("Samples per pixel, 1 to {} (default 4; 1 is much faster on software renderers)",
                       kMaxMsaa))
        ->type_name("N")
        ->check(integerIn(1, kMaxMsaa));
    sub.add_option(
           "--steps", options_.steps,
           "Steps to simulate (headless default: the scene's sim.steps, else 600; window: until closed)")
        ->type_name("N")
        ->check(integerIn(0, kMaxCliSteps));
    sub.add_flag("--headless", headless_, "Render PNG frames offscreen instead of opening a window");
    CLI::Option* frames = sub.add_option("--frames", options_.frames,
                                         "Directory for the headless frames (default ./murmur-frames)")
                              ->type_name("DIR")
                              ->check(nonEmpty());
    sub.add_flag("--overwrite", options_.overwrite,
                 "Headless: replace a --frames directory that holds files other than frames");
    sub.add_option("--every", options_.every, "Headless: write a frame every K steps (default 10)")
        ->type_name("K")
        ->check(integerIn(1, kMaxCliSteps));
    sub.add_flag(
        "!--no-stats", options_.stats,
        "Headless: no step / boid count / backend corner on the frames (scene: [render] show_stats)");
    sub.add_option(
           "--video", options_.video,
           "Headless: write the frames as a video (e.g. out.mp4, .mov, .mkv) through ffmpeg instead of PNGs")
        ->type_name("FILE")
        ->check(nonEmpty())
        ->excludes(frames);
    sub.add_option("--video-fps", options_.videoFps,
                   fmt::format("Frames per second of videos and recordings, {} to {} (default 30)",
                               kMinVideoFps, kMaxVideoFps))
        ->type_name("FPS")
        ->check(numberIn(kMinVideoFps, kMaxVideoFps));
    sub.add_flag("--no-fallback", noFallback_,
                 "Fail when no window can be opened instead of rendering headless");
    sub.add_flag("--exit-after-steps", options_.exitAfterSteps,
                 "Window: close once --steps steps are simulated");
    sub.add_option("--max-fps", options_.maxFps,
                   fmt::format("Window: at most this many frames a second, {} to {} (default: no limit)",
                               kMinMaxFps, kMaxMaxFps))
        ->type_name("FPS")
        ->check(numberIn(kMinMaxFps, kMaxMaxFps));
    sub.add_option("--screenshot-dir", options_.screenshotDir,
                   "Window: where screenshots (F12, P) and recordings (V) go (default ./screenshots)")
        ->type_name("DIR")
        ->check(nonEmpty());
    sub.footer(
        scenesAndExamples("Examples:\n"
                          "  murmur demo --scene predator\n"
                          "  murmur demo --scene lab --screenshot-dir ~/Pictures\n"
                          "  murmur demo --scene murmuration --headless --steps 300 --video starlings.mp4"));
  }

  int run() override {
    checkDeviceIndex(options_.device);
    // scenes/free.toml under the working directory, else the shipped one (findScene).
    if (options_.scene.scene.empty()) options_.scene.scene = "scenes/free.toml";
    parseFrameSize(size_, options_);
    if (!options_.video.empty() && !headless_)
      throw InputError("", 0, "--video", "needs --headless (in a window, V or the record button records)");
    if (headless_) return runHeadlessDemo(options_);
    // Screenshots and recordings come later, at a key press: their directory is checked now.
    core::checkOutputDirectory(options_.screenshotDir, "--screenshot-dir");

    std::string reason;
    std::unique_ptr<WindowContext> window;
    if (!displayAvailable()) {
      reason = "no display (DISPLAY and WAYLAND_DISPLAY are unset)";
    } else {
      try {
        window = std::make_unique<WindowContext>("murmur", options_.width, options_.height);
      } catch (const gpu::ContextError& e) {
        reason = e.what();
      }
    }
    if (window) return runWindowDemo(options_, *window);
    if (noFallback_)
      throw std::runtime_error("cannot open a window: " + reason +
                               "; `murmur demo --headless --frames DIR` renders PNG frames without one");
    if (options_.frames.empty()) options_.frames = kDefaultFrameDirectory;
    std::fprintf(stderr, "murmur demo: cannot open a window: %s; rendering headless frames into %s instead\n",
                 reason.c_str(), options_.frames.c_str());
    return runHeadlessDemo(options_);
  }

 private:
  DemoOptions options_;
  std::string size_ = "1280x720";
  bool headless_ = false;
  bool noFallback_ = false;
};

}  // namespace

MURMUR_REGISTER_COMMAND(DemoCommand, "demo", "Show a flock in a window, or render PNG frames headless");

}  // namespace murmur::app

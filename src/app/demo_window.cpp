// `murmur demo` in a window: the fixed-step simulation, the mouse camera, keys, and the panel.
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <imgui_internal.h>  // ClosePopupToLevel: Esc closes the panel's pop-ups

// GL comes from glad (gpu/context.hpp), never from GLFW's GL/gl.h.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <glm/common.hpp>

#include "app/demo_modes.hpp"
#include "app/demo_panel.hpp"
#include "app/demo_video.hpp"
#include "app/report.hpp"
#include "core/error.hpp"
#include "core/output_path.hpp"
#include "gpu/gl_objects.hpp"
#include "gpu/timer.hpp"
#include "render/offscreen.hpp"
#include "render/png_writer.hpp"
#include "session/session.hpp"

namespace murmur::app {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// More steps than this per frame would only make a slow frame slower: the simulation runs
// slower than real time instead.
constexpr int kMaxStepsPerFrame = 8;
constexpr double kStatusSeconds = 6.0;

// Dear ImGui with its GLFW and OpenGL 3 backends, for the lifetime of the window loop.
class ImGuiScope {
 public:
  explicit ImGuiScope(GLFWwindow* window) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini in the user's directory
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 430 core");
  }
  ImGuiScope(const ImGuiScope&) = delete;
  ImGuiScope& operator=(const ImGuiScope&) = delete;
  ~ImGuiScope() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
};

// screenshots/murmur-20261123-104200-1.png: the time, then the screenshot's number in this run (several
// may be asked for within a second).
// (recordings: .mp4)
std::string screenshotPath(const DemoOptions& options, int number, const char* extension) {
  const std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  return (fs::path(options.screenshotDir) / fmt::format("murmur-{}-{}.{}", stamp, number, extension))
      .string();
}

// The window runs until it is closed: a scene's sim.steps bounds headless runs only (the lab's
// 2000 froze its window with no word). --steps N stops stepping at N; --exit-after-steps closes
// the window there, the scene's sim.steps serving when --steps is not given. 0: no limit.
std::uint64_t windowStepLimit(const DemoOptions& options, const sim::Scene& scene) {
  return options.steps != kUnset || options.exitAfterSteps ? resolveSteps(options.steps, scene, 0) : 0;
}

class WindowDemo {
 public:
  WindowDemo(const DemoOptions& options, WindowContext& window)
      : options_(options),
        window_(window),
        session_(options.scene, options.backend, options.device, window),
        stepLimit_(windowStepLimit(options, session_.world().scene())),
        renderTimer_(window.info().timestampBits),
        imgui_(window.window()) {
    controls_.followGroup = sceneFollow();
    if (options.exitAfterSteps && stepLimit_ == 0)
      throw InputError("", 0, "--exit-after-steps", "needs --steps N (or a scene with sim.steps)");
    checkRunCost(session_.world(), stepLimit_, options.scene);
    if (!session_.autoChoice().empty()) fmt::print(stderr, "murmur: {}\n", session_.autoChoice());
    if (!session_.countNote().empty()) fmt::print(stderr, "murmur: {}\n", session_.countNote());
  }

  int run() {
    fmt::print("demo: {} | backend {} ({}) | {} boids | {}\n", session_.world().scene().path,
               session_.backend().name(), session_.backend().device(), session_.boidCount(),
               window_.info().renderer);
    std::fflush(stdout);
    const Clock::time_point start = Clock::now();
    Clock::time_point last = start;
    double accumulator = 0.0;
    const std::uint64_t waitsBefore = gpu::blockingWaitCount();
    while (!window_.shouldClose() && core::stopSignal() == 0) {
      glfwPollEvents();
      const Clock::time_point now = Clock::now();
      const double frameSeconds = std::chrono::duration<double>(now - last).count();
      last = now;
      stats_.addFrame(1000.0 * frameSeconds, session_.totalSteps());

      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      ImGui::NewFrame();
      handleInput();
      applyRequests();
      simulate(frameSeconds, accumulator);
      followGroup(frameSeconds);
      refreshPointShare(frameSeconds);
      drawFrame();
      if (options_.exitAfterSteps && session_.steps() >= stepLimit_) window_.requestClose();
      if (options_.maxFps > 0.0)
        std::this_thread::sleep_until(now + std::chrono::duration_cast<Clock::duration>(
                                                std::chrono::duration<double>(1.0 / options_.maxFps)));
    }
    frameLoopWaits_ = gpu::blockingWaitCount() - waitsBefore;
    core::throwIfStopRequested();  // a recording under way is dropped with its temporary
    if (recording_) stopRecording();
    printSummary(std::chrono::duration<double>(Clock::now() - start).count());
    return 0;
  }

 private:
  // The whole run: every frame, the mean frame rate (frames over the seconds from the first frame
  // on, as the panel counts them, not the start-up before it), every step simulated (over scene
  // loads and resets), the times the frames made the CPU wait for the GPU (gpu::blockingWaitCount:
  // none unless a screenshot, a recording or a button that downloads the flock asked), and each
  // backend's steps with their wall time and GPU stage times over its part of the run.
  void printSummary(double seconds) {
    const glm::ivec2 size = window_.framebufferSize();
    fmt::print(
        "rendered {} frames in a window ({}x{}, {}) in {:.1f} s, {:.1f} fps mean (the panel's last: {:.1f}); "
        "{} "
        "steps simulated\n",
        stats_.frames, size.x, size.y, window_.info().platform, seconds,
        stats_.framedSeconds > 0.0 ? double(stats_.frames) / stats_.framedSeconds : 0.0, stats_.fps,
        session_.totalSteps());
    for (const StepTime& t : stepTimes_)
      fmt::print("{} backend: {} steps, {:.2f} ms a step on the cpu's clock{}\n", t.backend, t.steps,
                 t.milliseconds / double(t.steps),
                 t.backend.starts_with("gpu") ? " (handing the gpu its work; its own times below)" : "");
    fmt::print(
        "blocking gpu waits in the frames: {}{}\n", frameLoopWaits_,
        frameLoopWaits_ > 0 ? " (the frames read back: screenshots, recordings, the flock downloaded)" : "");
    noteStages();
    for (const auto& [backend, stages] : stageTimes_)
      fmt::print("{}", stageLines(stages, ", " + backend + " backend"));
  }

  // The current backend's stage times, kept before it is switched away from.
  void noteStages() {
    std::vector<gpu::StageTime> stages = session_.backend().stageTimes();
    if (!stages.empty()) stageTimes_.emplace_back(std::string(session_.backend().name()), std::move(stages));
  }

  // Mouse and keys, unless the panel has them. Keys come as events (every press, however short the
  // frame rate makes it); the mouse's motion and wheel add up between frames in ImGui.
  void handleInput() {
    const ImGuiIO& io = ImGui::GetIO();
    render::Camera& camera = session_.camera();
    if (!io.WantCaptureMouse) {
      if (ImGui::IsMouseDragging(ImGuiMouseButton_Left))
        camera.orbit(-0.005f * io.MouseDelta.x, 0.005f * io.MouseDelta.y);
      if (ImGui::IsMouseDragging(ImGuiMouseButton_Right) || ImGui::IsMouseDragging(ImGuiMouseButton_Middle))
        camera.pan(glm::vec2(io.MouseDelta.x, io.MouseDelta.y) * io.DisplayFramebufferScale.x);
      if (io.MouseWheel != 0.0f) camera.zoom(std::pow(0.9f, io.MouseWheel));
    }
    const std::vector<int> keys = window_.takeKeyPresses();
    if (io.WantCaptureKeyboard) return;  // typed into the panel
    // An open pop-up (a drop-down of the panel) has the keys: Esc closes it, not the window.
    if (ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel)) {
      if (std::find(keys.begin(), keys.end(), GLFW_KEY_ESCAPE) != keys.end())
        ImGui::ClosePopupToLevel(0, true);
      return;
    }
    for (const int key : keys) keyPressed(key);
    steerPlayers(keys);
  }

  // The arrow keys steer the scene's players, as the lab's bow thrusters: left / right turn, up /
  // down thrust. A key counts while held, and for the frame of a press however short (a tap). From
  // the first arrow key the keys drive the players (none held: no turn, no thrust, they coast) until
  // the world restarts; before that they follow their scripted courses (README, docs/ai.md).
  void steerPlayers(const std::vector<int>& pressed) {
    const auto down = [&](int key) {
      return glfwGetKey(window_.window(), key) == GLFW_PRESS ||
             std::find(pressed.begin(), pressed.end(), key) != pressed.end();
    };
    const bool left = down(GLFW_KEY_LEFT), right = down(GLFW_KEY_RIGHT);
    const bool up = down(GLFW_KEY_UP), back = down(GLFW_KEY_DOWN);
    world::World& world = session_.world();
    if (!world.director() || (!(left || right || up || back) && !world.director()->playersSteered())) return;
    world.steerPlayers({float(left) - float(right), float(up) - float(back)});
  }

  void keyPressed(int key) {
    switch (key) {
      case GLFW_KEY_SPACE:
        controls_.paused = !controls_.paused;
        break;
      case GLFW_KEY_N:
      case GLFW_KEY_PERIOD:
        ++controls_.stepsRequested;
        break;
      case GLFW_KEY_R:
        controls_.resetRequested = true;
        break;
      case GLFW_KEY_F12:
        ++controls_.screenshotsRequested;
        break;
      case GLFW_KEY_P:
        ++controls_.viewScreenshotsRequested;
        break;
      case GLFW_KEY_V:
        controls_.recordToggleRequested = !controls_.recordToggleRequested;
        break;
      case GLFW_KEY_S:
        controls_.saveSceneRequested = true;
        break;
      case GLFW_KEY_B:
        controls_.backendRequested = session_.backend().name() == "gpu" ? "cpu" : "gpu";
        break;
      case GLFW_KEY_H:
      case GLFW_KEY_F1:
        controls_.showHelp = !controls_.showHelp;
        break;
      case GLFW_KEY_TAB:
        controls_.showPanel = !controls_.showPanel;
        break;
      case GLFW_KEY_F: {  // nothing, the flock, group 0, group 1, ..., nothing
        const int groups = static_cast<int>(session_.world().scene().groups);
        const int next = controls_.followGroup == kFollowNothing ? kFollowFlock
                         : controls_.followGroup == kFollowFlock ? 0
                                                                 : controls_.followGroup + 1;
        controls_.followGroup = next < groups ? next : kFollowNothing;
        break;
      }
      case GLFW_KEY_C:
        session_.frameFlock();
        break;
      case GLFW_KEY_W:
        controls_.followGroup = kFollowNothing;
        session_.frameWorld();
        break;
      case GLFW_KEY_ESCAPE:
        window_.requestClose();
        break;
      default:
        break;
    }
  }

  // What the panel and the keys asked for that rebuilds or moves the flock; failures become the
  // status line, and the demo goes on as before.
  void applyRequests() {
    try {
      if (controls_.sceneRequested) {
        session_.loadScene(*std::exchange(controls_.sceneRequested, std::nullopt));
        controls_.boidInput = static_cast<int>(session_.boidCount());
        controls_.followGroup = sceneFollow();
        frameBesidePanel_ = true;
        setStatus("scene " + session_.world().scene().path);
      }
      if (controls_.respawnRequested) {
        session_.respawn(*std::exchange(controls_.respawnRequested, std::nullopt));
        setStatus(fmt::format("respawned {} boids", session_.boidCount()));
      }
      if (controls_.backendRequested) {
        noteStages();
        session_.switchBackend(*std::exchange(controls_.backendRequested, std::nullopt));
        setStatus(fmt::format("backend {} ({})", session_.backend().name(), session_.backend().device()));
      }
    } catch (const std::exception& e) {
      controls_.sceneRequested.reset();
      controls_.respawnRequested.reset();
      controls_.backendRequested.reset();
      setStatus(e.what());
    }
    if (std::exchange(controls_.resetRequested, false)) session_.reset();
  }

  // One step, its wall time added to the backend's.
  void stepOnce() {
    session_.step();
    const std::string_view backend = session_.backend().name();
    auto it = std::find_if(stepTimes_.begin(), stepTimes_.end(),
                           [&](const auto& t) { return t.backend == backend; });
    if (it == stepTimes_.end()) it = stepTimes_.insert(stepTimes_.end(), {std::string(backend), 0.0, 0});
    it->milliseconds += session_.lastStepMilliseconds();
    ++it->steps;
  }

  // Fixed steps of the scene's dt, as many as the frame's time covers.
  void simulate(double frameSeconds, double& accumulator) {
    const bool limited = stepLimit_ > 0 && session_.steps() >= stepLimit_;
    if (const int requested = std::exchange(controls_.stepsRequested, 0); requested > 0 && !limited) {
      for (int k = 0; k < requested && !(stepLimit_ > 0 && session_.steps() >= stepLimit_); ++k) stepOnce();
      return;
    }
    if (controls_.paused || limited) {
      accumulator = 0.0;
      return;
    }
    const double dt = session_.world().scene().model.dt;
    accumulator += frameSeconds;
    int steps = 0;
    while (accumulator >= dt && steps < kMaxStepsPerFrame &&
           !(stepLimit_ > 0 && session_.steps() >= stepLimit_)) {
      stepOnce();
      accumulator -= dt;
      ++steps;
    }
    if (steps == kMaxStepsPerFrame) accumulator = 0.0;
  }

  // What the camera follows when a scene starts: the flock when its [render] camera moves with it.
  int sceneFollow() const {
    return session_.view().cameraMotion == render::CameraMotion::Fixed ? kFollowNothing : kFollowFlock;
  }

  // Glides the camera's target to the followed group's centroid, or the whole flock's.
  void followGroup(double frameSeconds) {
    if (controls_.followGroup == kFollowNothing) return;
    const auto summaries = session_.backend().recentGroupSummaries();
    glm::vec3 sum(0.0f);
    std::uint32_t count = 0;
    for (std::size_t g = 0; g < summaries.size(); ++g)
      if (controls_.followGroup == kFollowFlock || g == std::size_t(controls_.followGroup)) {
        sum += float(summaries[g].count) * summaries[g].centroid;
        count += summaries[g].count;
      }
    if (count == 0) return;
    render::Camera& camera = session_.camera();
    const float blend = 1.0f - std::exp(-4.0f * static_cast<float>(frameSeconds));
    camera.setTarget(glm::mix(camera.target(), sum / float(count), blend));
  }

  // The share of silhouette points drawn follows the flock's shape and the view once a second while
  // the flock's state is on the host; on the gpu backend the sample it needs is a read-back, which
  // a frame does not wait for: there it is set when the flock is framed (at the start, C).
  void refreshPointShare(double frameSeconds) {
    pointShareAge_ += frameSeconds;
    if (pointShareAge_ < 1.0 || session_.backend().gpuPipeline() != nullptr) return;
    session_.updatePointShare(std::exchange(pointShareAge_, 0.0));
  }

  void drawFrame() {
    const glm::ivec2 size = window_.framebufferSize();
    if (size.x > 0 && size.y > 0) {  // minimised: nothing to draw into
      if (!target_ || target_->width() != size.x || target_->height() != size.y)
        target_ = std::make_unique<render::OffscreenTarget>(size.x, size.y, options_.msaa);
      session_.camera().setViewport(size.x, size.y);
      session_.frameOptions().atmosphere.time = static_cast<float>(glfwGetTime());
      target_->bind();
      {
        gpu::StageScope stage(renderTimer_, "render");
        session_.render();
      }
      renderTimer_.poll();
      if (const gpu::StageTime* render = renderTimer_.stage("render")) stats_.renderGpuMs = render->lastMs;
      if (std::exchange(controls_.recordToggleRequested, false)) toggleRecording();
      if (recording_) recordFrame();
      target_->present(0);
      if (const int shots = std::exchange(controls_.viewScreenshotsRequested, 0); shots > 0)
        viewScreenshots(shots);
    }
    drawPanel();
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    for (int k = std::exchange(controls_.screenshotsRequested, 0); k > 0; --k)
      screenshot(size, window_.readBackBuffer(), "the window");
    if (std::exchange(controls_.saveSceneRequested, false)) saveScene();
    window_.swapBuffers();
  }

  void drawPanel() {
    const double now = glfwGetTime();
    // A fresh status line first (a screenshot's path, an error); with none, that the run stopped.
    const bool stopped = stepLimit_ > 0 && session_.steps() >= stepLimit_ && !options_.exitAfterSteps;
    drawDemoPanel(session_, controls_, stats_,
                  now < statusUntil_ ? status_
                  : stopped ? fmt::format("stopped at step {} (--steps): R resets the flock", stepLimit_)
                            : std::string());
    drawHelpOverlay(controls_.showHelp, options_.screenshotDir, controls_.panelRight);
    drawAgentLabels(session_);
    // The view is framed right of the panel; a new world is framed before the panel exists, and
    // again once its width is known.
    session_.camera().setLeftInset(controls_.panelRight);
    if (std::exchange(frameBesidePanel_, false) && controls_.panelRight > 0) session_.refitView();
  }

  // The view again, without the panel's inset: the flock centred in the whole frame (target_ has
  // been shown already; the next frame draws it anew).
  void viewScreenshots(int shots) {
    render::Camera& camera = session_.camera();
    const int inset = camera.leftInset();
    camera.setLeftInset(0);
    target_->bind();
    session_.render();
    camera.setLeftInset(inset);
    const std::vector<std::uint8_t> rgba = target_->readRgba();
    for (int k = 0; k < shots; ++k)
      screenshot(glm::ivec2(target_->width(), target_->height()), rgba, "the view");
  }

  // A file into --screenshot-dir (made when missing), its number the next screenshot's: write(path)
  // writes it and says so. A bad directory (InputError) or a full disk (OutputError) becomes the
  // status line and a line on stderr naming what was `lost`.
  template <typename Write>
  void intoScreenshotDir(const char* extension, const char* lost, Write write) {
    const std::string path = screenshotPath(options_, ++screenshots_, extension);
    try {
      std::error_code ec;
      fs::create_directories(options_.screenshotDir, ec);
      write(path);
    } catch (const std::runtime_error& e) {
      fmt::print(stderr, "murmur: {}: {}\n", lost, e.what());
      setStatus(e.what());
    }
  }

  void saveScene() {
    intoScreenshotDir("toml", "scene not saved", [&](const std::string& path) {
      session_.saveScene(path, "--screenshot-dir");
      fmt::print("scene: {}\n", path);
      setStatus("scene saved to " + path);
    });
  }

  void screenshot(glm::ivec2 size, const std::vector<std::uint8_t>& rgba, const char* what) {
    intoScreenshotDir("png", "screenshot not written", [&](const std::string& path) {
      render::writePng(path, size.x, size.y, rgba, "--screenshot-dir", session_.pictureTags());
      fmt::print("screenshot: {} ({})\n", path, what);
      setStatus("screenshot " + path);
    });
  }

  // A recording: every frame the window shows, at its size, into screenshots/murmur-....mp4.
  void toggleRecording() {
    if (recording_) {
      stopRecording();
      return;
    }
    const std::string path = screenshotPath(options_, ++screenshots_, "mp4");
    try {
      std::error_code ec;
      fs::create_directories(options_.screenshotDir, ec);
      recording_.emplace(path, target_->width(), target_->height(), options_.videoFps, "record",
                         session_.pictureTags());
      recordingClock_ = 0.0;
      recordedSimSeconds_ = 0.0;
      recordedSteps_ = session_.totalSteps();
      controls_.recording = true;
      setStatus("recording " + path);
    } catch (const std::exception& e) {
      fmt::print(stderr, "murmur: recording not started: {}\n", e.what());
      setStatus(e.what());
    }
  }

  void recordFrame() {
    try {
      if (target_->width() * target_->height() * 4 != int(recording_->frameBytes()))
        throw std::runtime_error("the window changed size");
      const std::uint64_t steps = session_.totalSteps();
      const double simulated =
          double(steps - std::exchange(recordedSteps_, steps)) * session_.world().scene().model.dt;
      recordingClock_ += simulated;
      recordedSimSeconds_ += simulated;
      const double period = 1.0 / options_.videoFps;
      if (recording_->frames() > 0 && recordingClock_ < period) return;
      const std::vector<std::uint8_t> rgba = target_->readRgba();
      do {
        recording_->write(rgba);
        recordingClock_ -= period;
      } while (recordingClock_ >= period);
      recordingClock_ = std::max(recordingClock_, 0.0);
    } catch (const std::exception& e) {
      setStatus(std::string("recording stopped: ") + e.what());
      stopRecording();
    }
  }

  void stopRecording() {
    try {
      recording_->finish();
      fmt::print("recording: {} ({} frames: {:.2f} s simulated, at {:g} fps)\n", recording_->path(),
                 recording_->frames(), recordedSimSeconds_, options_.videoFps);
      setStatus(fmt::format("recorded {} frames to {}", recording_->frames(), recording_->path()));
    } catch (const std::exception& e) {
      fmt::print(stderr, "murmur: recording not written: {}\n", e.what());
      setStatus(e.what());
    }
    recording_.reset();
    controls_.recording = false;
  }

  void setStatus(std::string text) {
    status_ = std::move(text);
    statusUntil_ = glfwGetTime() + kStatusSeconds;
  }

  const DemoOptions& options_;
  WindowContext& window_;
  session::Session session_;
  std::uint64_t stepLimit_;  // 0: none
  gpu::GpuTimer renderTimer_;
  ImGuiScope imgui_;
  std::unique_ptr<render::OffscreenTarget> target_;
  DemoControls controls_;
  DemoStats stats_;
  std::string status_;
  double statusUntil_ = 0.0;
  bool frameBesidePanel_ = true;
  int screenshots_ = 0;  // screenshots and recordings so far (their file names' numbers)
  std::optional<VideoEncoder> recording_;
  // A recording runs in simulated time: a frame written per 1/fps of it (again when the simulation
  // outruns the window, none while it is paused), so that it plays at the speed the flock flies.
  double recordingClock_ = 0.0;      // simulated seconds not yet written
  std::uint64_t recordedSteps_ = 0;  // the session's total steps when the recording last looked
  double recordedSimSeconds_ = 0.0;  // simulated time the recording covers
  std::vector<std::pair<std::string, std::vector<gpu::StageTime>>> stageTimes_;
  struct StepTime {
    std::string backend;
    double milliseconds = 0.0;  // the step calls' wall time
    std::uint64_t steps = 0;
  };
  std::vector<StepTime> stepTimes_;   // per backend, in the order first used
  std::uint64_t frameLoopWaits_ = 0;  // blocking GPU waits over run()'s frames
  double pointShareAge_ = 0.0;        // seconds since refreshPointShare last set the share
};

}  // namespace

int runWindowDemo(const DemoOptions& options, WindowContext& window) {
  return WindowDemo(options, window).run();
}

}  // namespace murmur::app

#pragma once
// The demo window's Dear ImGui panel (scene, flock, model parameters, view, statistics) and its
// help overlay. The panel edits the model parameters in place (they take effect at the next step)
// and leaves everything that can fail or that rebuilds the flock to the loop, as requests.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "app/frame_text.hpp"
#include "session/session.hpp"

namespace murmur::app {

// What the window's camera follows (DemoControls::followGroup): a group's index, or one of these.
inline constexpr int kFollowNothing = -1;
inline constexpr int kFollowFlock = -2;  // every boid's centre (3D scenes start so: [render] camera)

struct DemoControls {
  bool paused = false;
  int stepsRequested = 0;  // single steps asked for (N, ., the step button) since the last frame
  bool resetRequested = false;
  int screenshotsRequested = 0;        // the window as seen, panel included (F12, the panel's button)
  int viewScreenshotsRequested = 0;    // the view alone, centred in the frame (P)
  bool recordToggleRequested = false;  // start or stop a recording (V, the record button)
  bool saveSceneRequested = false;     // save the scene as it runs (S, the panel's button)
  bool recording = false;              // a recording runs (set by the loop)
  bool showHelp = false;
  bool showPanel = true;
  int followGroup = kFollowNothing;  // the group the camera follows, or kFollowFlock
  int panelRight = 0;       // pixels the panel covers from the window's left edge (0: hidden or collapsed)
  float panelWidth = 0.0f;  // the panel's width as last drawn (the user may resize it); 0: not yet
  int boidInput = 0;        // the panel's boid count field (0: take the session's)
  std::optional<std::string> sceneRequested;
  std::optional<std::string> backendRequested;
  std::optional<std::uint32_t> respawnRequested;
};

// Frame times of the last kFrames frames (a ring) and the latest measurements.
struct DemoStats {
  static constexpr std::size_t kFrames = 240;
  std::array<float, kFrames> frameMs{};
  std::size_t next = 0;         // where the next frame time goes
  double fps = 0.0;             // over the latest half second
  double stepsPerSecond = 0.0;  // simulation steps per wall-clock second, same window
  double renderGpuMs = 0.0;
  std::uint64_t frames = 0;
  double framedSeconds = 0.0;      // the frames' times added up (the mean fps of the exit summary)
  std::uint64_t windowFrames = 0;  // frames and milliseconds since fps was last updated
  double windowMs = 0.0;
  std::uint64_t windowStartSteps = 0;  // the session's total steps when the window began

  // A frame of `milliseconds`; totalSteps: the session's steps over the whole run so far.
  void addFrame(double milliseconds, std::uint64_t totalSteps);
};

void drawDemoPanel(session::Session& session, DemoControls& controls, const DemoStats& stats,
                   const std::string& status);

// The keys and mouse controls, in a window of its own centred beside the panel (panelRight:
// DemoControls::panelRight); screenshots and recordings go to screenshotDir (--screenshot-dir),
// which it names.
void drawHelpOverlay(bool& open, const std::string& screenshotDir, int panelRight);

}  // namespace murmur::app

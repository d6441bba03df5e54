#pragma once
// The text drawn over frames with Dear ImGui: the colour legend, the agents' state labels, and the
// stats corner of headless frames. Any state of the flock and agents draws, non-finite ones too.
#include "session/session.hpp"

namespace murmur::app {

// What the boids' colours mean (group swatches, or the heading / speed scale), in the current
// ImGui window: the panel's, and the stats overlay of headless frames.
void drawLegend(const session::Session& session);

// Each agent's state beside it, over the whole frame (ImGui's foreground layer), when the overlay's
// senses are shown: the window and headless frames both call it. An agent off screen or at a
// non-finite point has no label.
void drawAgentLabels(session::Session& session);

// The text corner of headless frames: the step, simulated time, boid count and backend, and the
// colour legend, drawn by Dear ImGui into the offscreen target (no window, no input). Owns the ImGui
// context (one at a time) and its GL backend, on the current GL context.
class StatsOverlay {
 public:
  StatsOverlay();
  StatsOverlay(const StatsOverlay&) = delete;
  StatsOverlay& operator=(const StatsOverlay&) = delete;
  ~StatsOverlay();

  // Over what is drawn in the bound framebuffer (width x height).
  void draw(session::Session& session, int width, int height);
};

}  // namespace murmur::app

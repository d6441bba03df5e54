// Fuzzes the headless demo's frame as `murmur demo --headless` draws it, for any state of the
// flock: the input's bytes are a flock of kBoids boids (positions and velocities as raw floats: NaN,
// infinities and 1e38 among them) put on the gpu backend of a shipped scene's session, a few steps
// (the agents read that flock and move), the camera's framing, following and silhouette share, the
// frame with its trails and vectors, and the stats corner's legend and agent labels (app/frame_text).
// A step may stop with a StateError (the flock went non-finite); the frame is drawn all the same, as
// the gpu backend draws the steps between its checks. Anything else that escapes, a crash or a
// sanitizer report is a finding. Runs from the repository's root (scripts/fuzz.sh): the scenes are
// read from scenes/.
//
// Input: byte 0 the scene, byte 1 the steps (bits 0-1), trails (2), vectors (3), labels off (4),
// frameFlock (5), refitView (6), the camera's seconds (7: 0 or 1/30 s); byte 2 the boids' shape and
// colouring; then per boid 6 floats (position, velocity) and a group byte, zeros past the input's end.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "app/frame_text.hpp"
#include "core/error.hpp"
#include "gpu/context.hpp"
#include "render/offscreen.hpp"
#include "session/session.hpp"

namespace {

namespace render = murmur::render;
namespace session = murmur::session;

constexpr std::uint32_t kBoids = 64;
constexpr int kWidth = 96, kHeight = 64;
constexpr std::array kScenes = {"scenes/murmuration.toml", "scenes/predator.toml", "scenes/lab.toml",
                                "scenes/lab-book.toml", "scenes/free.toml"};

struct Frame {
  std::unique_ptr<murmur::gpu::Context> context = murmur::gpu::createHeadlessContext();
  std::vector<std::unique_ptr<session::Session>> sessions;
  std::unique_ptr<render::OffscreenTarget> target;
  std::unique_ptr<murmur::app::StatsOverlay> stats;

  Frame() {
    for (const char* scene : kScenes) {
      session::SceneOptions options;
      options.scene = scene;
      options.boids = kBoids;
      sessions.push_back(std::make_unique<session::Session>(options, "gpu", -1, *context));
      sessions.back()->camera().setViewport(kWidth, kHeight);
      sessions.back()->frameScene();
    }
    target = std::make_unique<render::OffscreenTarget>(kWidth, kHeight, 1);
    stats = std::make_unique<murmur::app::StatsOverlay>();
  }
};

// Bytes [at, at + n) of the input, zeros past its end.
void copyOut(const std::uint8_t* data, std::size_t size, std::size_t at, void* out, std::size_t n) {
  std::memset(out, 0, n);
  if (at < size) std::memcpy(out, data + at, std::min(n, size - at));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Never destroyed: Mesa, unloaded at the context's end, would leave its allocations unnamed to
  // LeakSanitizer at exit.
  static Frame& frame = *new Frame;
  std::array<std::uint8_t, 3> head{};
  copyOut(data, size, 0, head.data(), head.size());
  session::Session& s = *frame.sessions[head[0] % frame.sessions.size()];

  murmur::sim::FlockState state;
  state.resize(kBoids);
  state.groups = s.world().scene().groups;
  for (std::uint32_t i = 0; i < kBoids; ++i) {
    std::array<float, 6> values{};
    std::uint8_t group = 0;
    const std::size_t at = head.size() + std::size_t(i) * (sizeof(values) + 1);
    copyOut(data, size, at, values.data(), sizeof(values));
    copyOut(data, size, at + sizeof(values), &group, 1);
    state.position[i] = {values[0], values[1], values[2]};
    state.velocity[i] = {values[3], values[4], values[5]};
    state.group[i] = group % state.groups;
  }
  state.leader.assign(kBoids, 0);
  s.backend().setState(state);

  render::FrameOptions& options = s.frameOptions();
  options.overlay.trails = (head[1] & 4) != 0;
  options.overlay.vectors = (head[1] & 8) != 0;
  options.overlay.senses = (head[1] & 16) == 0;
  options.boids.shape = static_cast<render::BoidShape>(head[2] % 3);
  options.boids.colouring = static_cast<render::BoidColouring>((head[2] >> 2) % 4);
  try {
    for (int k = 0; k < (head[1] & 3); ++k) s.step();
  } catch (const murmur::StateError&) {
  }
  if (head[1] & 32) s.frameFlock();
  if (head[1] & 64) s.refitView();
  s.moveCamera(head[1] & 128 ? 1.0 / 30.0 : 0.0);

  frame.target->bind();
  s.render();
  frame.stats->draw(s, kWidth, kHeight);
  frame.target->readRgba();  // waits for the frame, as writing its PNG does
  return 0;
}

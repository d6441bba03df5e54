// murmur compare: one step of two backends (default gpu against the cpu reference) from the same
// state, errors and their explanation, then the free-running flocks' metrics side by side.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <vector>

#include <fmt/format.h>

#include "app/cli_checks.hpp"
#include "app/command.hpp"
#include "app/progress.hpp"
#include "app/report.hpp"
#include "app/world.hpp"
#include "sim/output_path.hpp"
#include "sim/parity.hpp"
#include "world/backend.hpp"
#include "world/world.hpp"

namespace murmur::app {
namespace {

OrderedJson backendJson(const world::FlockBackend& backend, double seconds, const sim::FlockMetrics& metrics,
                        const std::vector<sim::GroupSummary>& groups) {
  return {{"backend", backend.name()},
          {"device", backend.device()},
          {"gl_device", glDeviceJson(backend)},
          {"wall_seconds", jsonNumber(seconds)},
          {"metrics", metricsJson(metrics)},
          {"groups", groupsJson(groups)}};
}

class CompareCommand final : public Command {
 public:
  void configure(CLI::App& sub) override {
    addSceneOptions(sub, scene_, true);
    sub.add_option("--steps", steps_, "Free-running steps after the one-step check (default: the scene's, else 600)")
        ->check(integerIn(0, kMaxCliSteps));
    sub.add_option("--reference", reference_, "Reference backend (default cpu)")->check(nonEmpty());
    sub.add_option("--candidate", candidate_, "Backend checked against it (default gpu)")->check(nonEmpty());
    sub.add_option("--device", device_, "EGL device index for the gpu backend")->check(integerIn(-1, kMaxEglDevice));
    sub.add_flag("--json", json_, "Print only a JSON summary object on stdout (the human summary goes to stderr)");
  }

  int run() override {
    // Two worlds from one description, one on each backend (made first: a bad backend fails before
    // the scene is loaded).
    std::unique_ptr<world::FlockBackend> referenceBackend = world::makeBackend(reference_, device_);
    std::unique_ptr<world::FlockBackend> candidateBackend = world::makeBackend(candidate_, device_);
    const world::WorldDescription description = describeWorld(scene_).world;
    world::World referenceWorld(description, std::move(referenceBackend));
    world::World candidateWorld(description, std::move(candidateBackend));
    world::FlockBackend* const reference = &referenceWorld.backend();
    world::FlockBackend* const candidate = &candidateWorld.backend();
    const sim::Scene& scene = referenceWorld.scene();
    const sim::ModelParams& params = scene.model;
    const sim::FlockState& initial = referenceWorld.initial();
    const std::uint64_t steps = resolveSteps(steps_, scene, 600);

    // One step from the same state, with the same inputs: the agents of both worlds decide once,
    // on the reference's summaries of that state.
    if (referenceWorld.director() != nullptr) {
      const world::AgentPerception seen = referenceWorld.perceive();
      referenceWorld.steerAgents(seen);
      candidateWorld.steerAgents(seen);
    }
    referenceWorld.stepFlock();
    candidateWorld.stepFlock();
    const sim::FlockState referenceNext = reference->state();
    const sim::FlockState candidateNext = candidate->state();
    const sim::ParityTolerance tolerance;
    const sim::ParityReport parity =
        sim::compareOneStep(params, referenceWorld.inputs(), initial, referenceNext, candidateNext, tolerance);
    const bool passed = parity.passed(tolerance);

    std::FILE* summary = summaryStream(json_);
    fmt::print(summary, "compare {} ({}) against {} ({}) | scene {} | {} boids\n", candidate->name(), candidate->device(),
               reference->name(), reference->device(), scene.path, initial.size());
    fmt::print(summary, "one step: position error max {:.3g} mean {:.3g} (tolerance {:g}) | velocity error max {:.3g} "
               "mean {:.3g} (tolerance {:g})\n",
               parity.maxPositionError, parity.meanPositionError, tolerance.position, parity.maxVelocityError,
               parity.meanVelocityError, tolerance.velocity);
    fmt::print(summary, "over tolerance: {} boids ({:.3f}%), {} with a neighbour or obstacle within rounding of a "
               "perception edge, {} unexplained -> {}\n",
               parity.overTolerance, parity.boids ? 100.0 * double(parity.overTolerance) / double(parity.boids) : 0.0,
               parity.explainedByEdge, parity.unexplained.size(), passed ? "PASS" : "FAIL");

    // Free-running: both continue from their own state for `steps` more steps, each with its own
    // agents (they react to the flock they see).
    const std::uint64_t freeSteps = steps > 0 ? steps - 1 : 0;
    ProgressBar progress(2 * freeSteps);
    std::uint64_t done = 0;
    auto runOn = [&](world::World& side) {
      world::FlockBackend& backend = side.backend();
      const auto start = std::chrono::steady_clock::now();
      for (std::uint64_t s = 0; s < freeSteps; ++s) {
        sim::throwIfStopRequested();
        side.tick();
        progress.update(++done, std::string(backend.name()));
      }
      sim::FlockState state = backend.state();
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      return std::tuple{sim::measureFlock(params, state), backend.groupSummaries(), seconds};
    };
    const auto [refMetrics, refGroups, refSeconds] = runOn(referenceWorld);
    const auto [candMetrics, candGroups, candSeconds] = runOn(candidateWorld);
    fmt::print(summary, "after {} steps:          {:>12} {:>12}\n", steps, reference->name(), candidate->name());
    auto row = [summary](const char* label, double a, double b) { fmt::print(summary, "  {:<22} {:>12.4f} {:>12.4f}\n", label, a, b); };
    row("local polarization", refMetrics.localPolarization, candMetrics.localPolarization);
    row("mean speed", refMetrics.meanSpeed, candMetrics.meanSpeed);
    row("mean nearest distance", refMetrics.meanNearestDistance, candMetrics.meanNearestDistance);
    row("min pair distance", refMetrics.minPairDistance, candMetrics.minPairDistance);
    row("wall seconds", refSeconds, candSeconds);
    for (std::size_t g = 0; g < refGroups.size() && g < candGroups.size(); ++g)
      fmt::print(summary, "  group {} centroid       ({:.2f}, {:.2f}, {:.2f})  ({:.2f}, {:.2f}, {:.2f})\n", g,
                 refGroups[g].centroid.x, refGroups[g].centroid.y, refGroups[g].centroid.z,
                 candGroups[g].centroid.x, candGroups[g].centroid.y, candGroups[g].centroid.z);

    if (json_) {
      const std::size_t listed = std::min<std::size_t>(parity.unexplained.size(), 100);
      const OrderedJson oneStep = {
          {"max_position_error", jsonNumber(parity.maxPositionError)},
          {"mean_position_error", jsonNumber(parity.meanPositionError)},
          {"max_velocity_error", jsonNumber(parity.maxVelocityError)},
          {"mean_velocity_error", jsonNumber(parity.meanVelocityError)},
          {"position_tolerance", jsonNumber(tolerance.position)},
          {"velocity_tolerance", jsonNumber(tolerance.velocity)},
          {"over_tolerance", parity.overTolerance},
          {"explained_by_edge", parity.explainedByEdge},
          {"unexplained_ids", std::vector(parity.unexplained.begin(), parity.unexplained.begin() + std::ptrdiff_t(listed))},
          {"passed", passed}};
      printJson({{"command", "compare"},
                 {"scene", scene.path},
                 {"boids", initial.size()},
                 {"steps", steps},
                 {"reference", backendJson(*reference, refSeconds, refMetrics, refGroups)},
                 {"candidate", backendJson(*candidate, candSeconds, candMetrics, candGroups)},
                 {"one_step", oneStep}});
    }
    return passed ? 0 : 1;
  }

 private:
  SceneOptions scene_;
  std::int64_t steps_ = kUnset;
  std::string reference_ = "cpu";
  std::string candidate_ = "gpu";
  int device_ = -1;
  bool json_ = false;
};

}  // namespace

MURMUR_REGISTER_COMMAND(CompareCommand, "compare", "Check a backend (gpu) against the CPU reference");

}  // namespace murmur::app

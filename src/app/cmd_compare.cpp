// murmur compare: one step of two backends (default gpu against the cpu reference) from the same
// state, errors and their explanation, then the free-running flocks' metrics side by side.
#include <chrono>
#include <cstdio>

#include <fmt/format.h>

#include "app/backend.hpp"
#include "app/cli_checks.hpp"
#include "app/command.hpp"
#include "app/progress.hpp"
#include "app/report.hpp"
#include "app/world.hpp"
#include "sim/parity.hpp"

namespace murmur::app {
namespace {

JsonObject backendJson(const FlockBackend& backend, double seconds, const sim::FlockMetrics& metrics,
                       const std::vector<sim::GroupSummary>& groups) {
  JsonObject json;
  json.add("backend", backend.name())
      .add("device", backend.device())
      .raw("gl_device", glDeviceJson(backend))
      .add("wall_seconds", seconds)
      .add("metrics", metricsJson(metrics))
      .raw("groups", groupsJson(groups));
  return json;
}

class CompareCommand final : public Command {
 public:
  void configure(CLI::App& sub) override {
    addSceneOptions(sub, scene_, true);
    sub.add_option("--steps", steps_, "Free-running steps after the one-step check (default: the scene's, else 600)")
        ->check(integerIn(0, kMaxCliSteps));
    sub.add_option("--reference", reference_, "Reference backend (default cpu)");
    sub.add_option("--candidate", candidate_, "Backend checked against it (default gpu)");
    sub.add_option("--device", device_, "EGL device index for the gpu backend")->check(integerIn(-1, kMaxEglDevice));
    sub.add_flag("--json", json_, "Print only a JSON summary object on stdout (the human summary goes to stderr)");
  }

  int run() override {
    std::unique_ptr<FlockBackend> reference = makeBackend(reference_, device_);
    std::unique_ptr<FlockBackend> candidate = makeBackend(candidate_, device_);
    World world = loadWorld(scene_, [&](std::uint64_t boids) {
      reference->requireCapacity(boids);
      candidate->requireCapacity(boids);
    });
    const std::uint64_t steps = resolveSteps(steps_, world.scene, 600);
    const sim::ModelParams& params = world.scene.model;

    // One step from the same state, with the same inputs (the agents decide once, on the
    // reference's perception of that state).
    reference->setState(world.initial);
    candidate->setState(world.initial);
    std::optional<ai::AgentDirector> candidateDirector =
        ai::AgentDirector::create(world.scene, world.agents);
    sim::StepInputs candidateInputs = world.inputs;
    advanceAgents(world, *reference);
    if (candidateDirector) advanceAgents(*candidateDirector, *reference, params.dt, candidateInputs);
    reference->step(params, world.inputs);
    candidate->step(params, world.inputs);
    const sim::FlockState referenceNext = reference->state();
    const sim::FlockState candidateNext = candidate->state();
    const sim::ParityTolerance tolerance;
    const sim::ParityReport parity =
        sim::compareOneStep(params, world.inputs, world.initial, referenceNext, candidateNext, tolerance);
    const bool passed = parity.passed(tolerance);

    std::FILE* summary = summaryStream(json_);
    fmt::print(summary, "compare {} ({}) against {} ({}) | scene {} | {} boids\n", candidate->name(), candidate->device(),
               reference->name(), reference->device(), world.scene.path, world.initial.size());
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
    auto runOn = [&](FlockBackend& backend, std::optional<ai::AgentDirector>& director, sim::StepInputs& inputs) {
      const auto start = std::chrono::steady_clock::now();
      for (std::uint64_t s = 0; s < freeSteps; ++s) {
        if (director) advanceAgents(*director, backend, params.dt, inputs);
        backend.step(params, inputs);
        progress.update(++done, std::string(backend.name()));
      }
      sim::FlockState state = backend.state();
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      return std::tuple{sim::measureFlock(params, state), backend.groupSummaries(), seconds};
    };
    const auto [refMetrics, refGroups, refSeconds] = runOn(*reference, world.director, world.inputs);
    const auto [candMetrics, candGroups, candSeconds] = runOn(*candidate, candidateDirector, candidateInputs);
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
      std::string unexplained = "[";
      for (std::size_t k = 0; k < parity.unexplained.size() && k < 100; ++k)
        unexplained += (k ? "," : "") + std::to_string(parity.unexplained[k]);
      unexplained += "]";
      JsonObject oneStep;
      oneStep.add("max_position_error", parity.maxPositionError)
          .add("mean_position_error", parity.meanPositionError)
          .add("max_velocity_error", parity.maxVelocityError)
          .add("mean_velocity_error", parity.meanVelocityError)
          .add("position_tolerance", tolerance.position)
          .add("velocity_tolerance", tolerance.velocity)
          .add("over_tolerance", static_cast<std::uint64_t>(parity.overTolerance))
          .add("explained_by_edge", static_cast<std::uint64_t>(parity.explainedByEdge))
          .raw("unexplained_ids", unexplained)
          .add("passed", passed);
      JsonObject json;
      json.add("command", "compare")
          .add("scene", world.scene.path)
          .add("boids", static_cast<std::uint64_t>(world.initial.size()))
          .add("steps", steps)
          .add("reference", backendJson(*reference, refSeconds, refMetrics, refGroups))
          .add("candidate", backendJson(*candidate, candSeconds, candMetrics, candGroups))
          .add("one_step", oneStep);
      fmt::print("{}\n", json.str());
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

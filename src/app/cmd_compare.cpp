// murmur compare: one step of two backends (default gpu against the cpu reference) from the same
// state, errors and their explanation, then the free-running flocks' metrics side by side, how far
// each boid drifted between the two, and how fast each side stepped (ms a step, boid updates a
// second, the speed-up of the candidate over the reference).
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include <glm/geometric.hpp>

#include <fmt/format.h>

#include "app/cli_checks.hpp"
#include "app/command.hpp"
#include "app/help.hpp"
#include "app/progress.hpp"
#include "app/report.hpp"
#include "app/scene_options.hpp"
#include "core/output_path.hpp"
#include "sim/parity.hpp"
#include "world/backend.hpp"
#include "world/world.hpp"

namespace murmur::app {
namespace {

// How fast one side ran the free steps.
struct Speed {
  double seconds = 0.0;
  double msPerStep = 0.0;
  double boidUpdatesPerSecond = 0.0;
};

Speed speedOf(double seconds, std::uint64_t steps, std::size_t boids) {
  if (steps == 0 || seconds <= 0.0) return {seconds, 0.0, 0.0};
  return {seconds, seconds * 1e3 / double(steps), double(steps) * double(boids) / seconds};
}

// Per-boid drift after the free run: the distance between boid i's two positions (straight line, no
// wrap-around), its maximum, 99th percentile (nearest rank) and mean.
struct Drift {
  double max = 0.0;
  double p99 = 0.0;
  double mean = 0.0;
};

Drift driftBetween(const sim::FlockState& a, const sim::FlockState& b) {
  std::vector<double> distances;
  const std::size_t n = std::min(a.size(), b.size());
  distances.reserve(n);
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    distances.push_back(double(glm::length(a.position[i] - b.position[i])));
    sum += distances.back();
  }
  if (distances.empty()) return {};
  std::sort(distances.begin(), distances.end());
  const std::size_t rank = (99 * distances.size() + 99) / 100;  // ceil(0.99 n), 1-based
  return {distances.back(), distances[rank - 1], sum / double(distances.size())};
}

// The side's GL device is a software renderer (llvmpipe, lavapipe, SwiftShader): its "GPU" figures
// are the CPU's.
bool softwareGl(const world::FlockBackend& backend) {
  const gpu::ContextInfo* info = backend.glDevice();
  return info != nullptr && world::isSoftwareRenderer(info->renderer);
}

OrderedJson backendJson(const world::FlockBackend& backend, const Speed& speed,
                        const sim::FlockMetrics& metrics, const std::vector<sim::GroupSummary>& groups) {
  return {{"backend", backend.name()},
          {"device", backend.device()},
          {"gl_device", glDeviceJson(backend)},
          {"software_renderer", softwareGl(backend)},
          {"wall_seconds", jsonNumber(speed.seconds)},
          {"ms_per_step", jsonNumber(speed.msPerStep)},
          {"boid_updates_per_second", jsonNumber(speed.boidUpdatesPerSecond)},
          {"metrics", metricsJson(metrics)},
          {"groups", groupsJson(groups)}};
}

class CompareCommand final : public Command {
 public:
  void configure(CLI::App& sub) override {
    addSceneOptions(sub, scene_, true);
    sub.add_option("--steps", steps_,
                   "Free-running steps after the one-step check (default: the scene's, else 600)")
        ->type_name("N")
        ->check(integerIn(0, kMaxCliSteps));
    sub.add_option("--reference", reference_, "Reference backend (default cpu)")
        ->type_name("NAME")
        ->check(nonEmpty());
    sub.add_option("--candidate", candidate_, "Backend checked against it (default gpu)")
        ->type_name("NAME")
        ->check(nonEmpty());
    sub.add_option("--device", device_, "EGL device index for the gpu backend (murmur devices)")
        ->type_name("INDEX")
        ->check(integerIn(-1, kMaxEglDevice));
    sub.add_flag(
        "--exact", exact_,
        "Run gpu in its exact arithmetic (gpu-exact) and ask for the same bits: one-step errors and "
        "drift 0 (a GL device with IEEE arithmetic, llvmpipe, gives them; a real card's division and square "
        "root do not)");
    sub.add_flag("--json", json_,
                 "Print only a JSON summary object on stdout (the human summary goes to stderr)");
    sub.footer(
        scenesAndExamples("Examples:\n"
                          "  murmur compare --scene free --boids 20000 --steps 100\n"
                          "  murmur compare --scene predator --exact --steps 300\n"
                          "  murmur compare --scene wrap2d --reference cpu-naive --candidate cpu"));
  }

  int run() override {
    // Two worlds from one description, one on each backend (made first: a bad backend fails before
    // the scene is loaded).
    // --exact: the gpu backend in the arithmetic that rounds as the CPU does.
    const auto arithmeticOf = [this](const std::string& name) {
      return exact_ && name == "gpu" ? "gpu-exact" : name;
    };
    std::string referenceChoice, candidateChoice;
    std::unique_ptr<world::FlockBackend> referenceBackend = makeBackendFor(
        "--reference", arithmeticOf(reference_), device_, nullptr, &referenceChoice, scene_.threads);
    std::unique_ptr<world::FlockBackend> candidateBackend = makeBackendFor(
        "--candidate", arithmeticOf(candidate_), device_, nullptr, &candidateChoice, scene_.threads);
    // One flock for both backends: the scene's count (boids.gpu_count sizes a flock for a GPU alone).
    const world::WorldDescription description = describeWorld(scene_, false).world;
    world::World referenceWorld(description, std::move(referenceBackend));
    world::World candidateWorld(description, std::move(candidateBackend));
    world::FlockBackend* const reference = &referenceWorld.backend();
    world::FlockBackend* const candidate = &candidateWorld.backend();
    const sim::Scene& scene = referenceWorld.scene();
    const sim::ModelParams& params = scene.model;
    const sim::FlockState& initial = referenceWorld.initial();
    const std::uint64_t steps = resolveSteps(steps_, scene, 600);
    checkRunCost(referenceWorld, steps, scene_);
    for (const std::string& choice : {referenceChoice, candidateChoice})
      if (!choice.empty()) fmt::print(stderr, "murmur: {}\n", choice);

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
    const sim::ParityReport parity = sim::compareOneStep(params, referenceWorld.inputs(), initial,
                                                         referenceNext, candidateNext, tolerance);
    const bool sameStep = parity.maxPositionError == 0.0 && parity.maxVelocityError == 0.0;
    bool passed = exact_ ? sameStep : parity.passed(tolerance);

    std::FILE* summary = summaryStream(json_);
    fmt::print(summary, "compare {} ({}) against {} ({}) | scene {} | {} boids on each side\n",
               candidate->name(), candidate->device(), reference->name(), reference->device(), scene.path,
               initial.size());
    fmt::print(summary,
               "one step: position error max {:.3g} mean {:.3g} (tolerance {:g}) | velocity error max {:.3g} "
               "mean {:.3g} (tolerance {:g})\n",
               parity.maxPositionError, parity.meanPositionError, tolerance.position, parity.maxVelocityError,
               parity.meanVelocityError, tolerance.velocity);
    fmt::print(summary,
               "over tolerance: {} boids ({:.3f}%), {} with a neighbour or obstacle within rounding of a "
               "perception edge, {} unexplained -> {}\n",
               parity.overTolerance,
               parity.boids ? 100.0 * double(parity.overTolerance) / double(parity.boids) : 0.0,
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
        core::throwIfStopRequested();
        side.tick();
        progress.update(++done, std::string(backend.name()));
      }
      sim::FlockState state = backend.state();
      side.requireFinite(state);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      return std::tuple{sim::measureFlock(params, state), backend.groupSummaries(),
                        speedOf(seconds, freeSteps, state.size()), state};
    };
    const auto [refMetrics, refGroups, refSpeed, refFinal] = runOn(referenceWorld);
    const auto [candMetrics, candGroups, candSpeed, candFinal] = runOn(candidateWorld);
    const Drift drift = driftBetween(refFinal, candFinal);
    // Candidate over reference: > 1 when the candidate steps faster. 0 when no free step ran.
    const double speedup = candSpeed.msPerStep > 0.0 ? refSpeed.msPerStep / candSpeed.msPerStep : 0.0;
    const bool software = softwareGl(*reference) || softwareGl(*candidate);
    fmt::print(summary, "after {} steps:          {:>12} {:>12}\n", steps, reference->name(),
               candidate->name());
    auto row = [summary](const char* label, double a, double b) {
      fmt::print(summary, "  {:<22} {:>12.4f} {:>12.4f}\n", label, a, b);
    };
    row("local polarization", refMetrics.localPolarization, candMetrics.localPolarization);
    row("mean speed", refMetrics.meanSpeed, candMetrics.meanSpeed);
    row("mean nearest distance", refMetrics.meanNearestDistance, candMetrics.meanNearestDistance);
    row("min pair distance", refMetrics.minPairDistance, candMetrics.minPairDistance);
    row("ms per step", refSpeed.msPerStep, candSpeed.msPerStep);
    fmt::print(summary, "  {:<22} {:>12.4g} {:>12.4g}\n", "boid updates/s", refSpeed.boidUpdatesPerSecond,
               candSpeed.boidUpdatesPerSecond);
    for (std::size_t g = 0; g < refGroups.size() && g < candGroups.size(); ++g)
      fmt::print(summary, "  group {} centroid       ({:.2f}, {:.2f}, {:.2f})  ({:.2f}, {:.2f}, {:.2f})\n", g,
                 refGroups[g].centroid.x, refGroups[g].centroid.y, refGroups[g].centroid.z,
                 candGroups[g].centroid.x, candGroups[g].centroid.y, candGroups[g].centroid.z);
    fmt::print(summary, "per-boid drift between the two: max {:.4g}, p99 {:.4g}, mean {:.4g}\n", drift.max,
               drift.p99, drift.mean);
    if (exact_) {
      passed = sameStep && drift.max == 0.0;
      fmt::print(summary, "exact: the one step {}, the {} steps {} -> {}\n",
                 sameStep ? "bit for bit" : "differs", steps,
                 drift.max == 0.0 ? "bit for bit" : "drift apart", passed ? "PASS" : "FAIL");
    }
    if (freeSteps > 0)
      fmt::print(summary,
                 "speed-up {:.2f}x: {} ({:.3f} ms a step) against {} ({:.3f} ms a step) over the {} free "
                 "steps after "
                 "the compared one\n",
                 speedup, candidate->name(), candSpeed.msPerStep, reference->name(), refSpeed.msPerStep,
                 freeSteps);
    if (software)
      fmt::print(summary,
                 "note: the GL device is a software renderer ({}): its \"GPU\" runs on this machine's CPU "
                 "cores, so the speed-up says nothing about a graphics card\n",
                 softwareGl(*candidate) ? candidate->device() : reference->device());

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
          {"unexplained_ids",
           std::vector(parity.unexplained.begin(), parity.unexplained.begin() + std::ptrdiff_t(listed))}};
      printJson({{"command", "compare"},
                 {"passed", passed},
                 {"speedup", jsonNumber(speedup)},
                 {"software_renderer", software},
                 {"exact", exact_},
                 {"scene", scene.path},
                 {"boids", initial.size()},
                 {"steps", steps},
                 {"free_steps", freeSteps},
                 {"drift",
                  {{"max", jsonNumber(drift.max)},
                   {"p99", jsonNumber(drift.p99)},
                   {"mean", jsonNumber(drift.mean)}}},
                 {"reference", backendJson(*reference, refSpeed, refMetrics, refGroups)},
                 {"candidate", backendJson(*candidate, candSpeed, candMetrics, candGroups)},
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
  bool exact_ = false;
  bool json_ = false;
};

}  // namespace

MURMUR_REGISTER_COMMAND(CompareCommand, "compare", "Check a backend (gpu) against the CPU reference");

}  // namespace murmur::app

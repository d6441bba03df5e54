// murmur run: a headless simulation of a scene on one backend, with a summary (and --json).
#include <chrono>
#include <cstdio>
#include <optional>

#include <fmt/format.h>

#include "app/cli_checks.hpp"
#include "app/command.hpp"
#include "app/help.hpp"
#include "app/progress.hpp"
#include "app/report.hpp"
#include "app/scene_options.hpp"
#include "core/error.hpp"
#include "core/output_path.hpp"
#include "record/trajectory.hpp"
#include "session/recording.hpp"
#include "sim/metrics.hpp"
#include "sim/state_csv.hpp"
#include "world/backend.hpp"
#include "world/world.hpp"

namespace murmur::app {
namespace {

std::string shapeLine(const sim::FlockShape& shape) {
  return fmt::format(
      "largest flock {:.1f}% ({} flocks) | its polarization {:.3f} | its extents {:.1f} {:.1f} {:.1f} units "
      "(standard deviations along its principal axes) | thinness {:.2f} (shortest over longest) | "
      "width {:.2f} (middle over longest) | thinnest axis {:.0f} degrees from vertical",
      100.0 * shape.largestFraction, shape.flocks, shape.polarization, shape.extents.x, shape.extents.y,
      shape.extents.z, shape.thinness, shape.widthRatio, shape.thinAxisTilt);
}

OrderedJson shapeJson(const sim::FlockShape& shape) {
  return {
      {"flocks", shape.flocks},
      {"largest_fraction", jsonNumber(shape.largestFraction)},
      {"polarization", jsonNumber(shape.polarization)},
      {"extents", {jsonNumber(shape.extents.x), jsonNumber(shape.extents.y), jsonNumber(shape.extents.z)}},
      {"thinness", jsonNumber(shape.thinness)},
      {"width_ratio", jsonNumber(shape.widthRatio)},
      {"thin_axis_tilt", jsonNumber(shape.thinAxisTilt)}};
}

// "emergent leaders per group: 3/120 2/120": each group's emergent leaders of the last step, of its
// boids; nothing where the scene does not steer by them (none are recorded).
std::string leadersLine(const world::World& world, const std::vector<sim::GroupSummary>& groups) {
  if (!world.leadersUsed()) return {};
  std::string line = "emergent leaders per group:";
  for (const sim::GroupSummary& g : groups) line += fmt::format(" {}/{}", g.leaders, g.count);
  return line;
}

// " | falcon dive | agent 1 seek", for the samples of --every.
std::string agentStates(const ai::AgentDirector* director) {
  std::string states;
  if (director == nullptr) return states;
  for (std::size_t i = 0; i < director->size(); ++i)
    states +=
        fmt::format(" | {} {}", director->name(i).empty() ? fmt::format("agent {}", i) : director->name(i),
                    director->stateName(i));
  return states;
}

class RunCommand final : public Command {
 public:
  void configure(CLI::App& sub) override {
    addSceneOptions(sub, scene_, true);
    sub.add_option("--steps", steps_, "Steps to simulate (default: the scene's sim.steps, else 600)")
        ->type_name("N")
        ->check(integerIn(0, kMaxCliSteps));
    sub.add_option(
           "--backend", backend_,
           "gpu, gpu-exact, cpu, cpu-naive or auto (default auto: gpu on a hardware GL device, cpu on a "
           "software renderer; gpu-exact rounds as the cpu does)")
        ->type_name("NAME");
    sub.add_option("--device", device_, "EGL device index for the gpu backend (murmur devices)")
        ->type_name("INDEX")
        ->check(integerIn(-1, kMaxEglDevice));
    sub.add_option("--dump", dump_, "Write the final state CSV here")->type_name("FILE")->check(nonEmpty());
    sub.add_option(
           "--every", every_,
           "Also measure the flock's shape, the emergent leaders per group and the agents' states every N "
           "steps (a line each, and "
           "\"samples\" in --json)")
        ->type_name("N")
        ->check(integerIn(1, kMaxCliSteps));
    sub.add_option(
           "--record", record_,
           "Record the flock every --record-every steps (the first state too) into an HDF5 file in the H5MD "
           "layout (docs/api.md, Trajectories)")
        ->type_name("FILE.h5")
        ->check(nonEmpty());
    sub.add_option("--record-every", recordEvery_, "Steps between the frames of --record (default 1)")
        ->type_name("K")
        ->check(integerIn(1, kMaxCliSteps));
    sub.add_flag("--json", json_,
                 "Print only a JSON summary object on stdout (the human summary goes to stderr)");
    sub.footer(
        scenesAndExamples("Examples:\n"
                          "  murmur run --scene maze2d --steps 300\n"
                          "  murmur run --scene free --boids 50000 --backend gpu --json\n"
                          "  murmur run --scene predator --steps 100 --dump final.csv\n"
                          "  murmur run --scene murmuration --steps 3000 --every 300"));
  }

  int run() override {
    if (!dump_.empty()) core::checkOutputFile(dump_, "--dump");
    if (!record_.empty()) core::checkOutputFile(record_, "--record");
    if (recordEvery_ != kUnset && record_.empty())
      throw InputError("", 0, "--record-every", "needs --record");
    // The backend first: a bad --backend fails before the scene is loaded.
    std::string autoChoice;
    std::unique_ptr<world::FlockBackend> chosen =
        makeBackendFor("--backend", backend_, device_, nullptr, &autoChoice, scene_.threads);
    const bool onGpu = chosen->gpuPipeline() != nullptr;
    session::DescribedWorld described = describeWorld(scene_, onGpu);
    world::World world(std::move(described.world), std::move(chosen));
    world::FlockBackend* const backend = &world.backend();
    const std::uint64_t steps = resolveSteps(steps_, world.scene(), 600);
    checkRunCost(world, steps, scene_);
    const auto recordEvery = recordEvery_ == kUnset ? std::uint64_t(1) : std::uint64_t(recordEvery_);
    std::optional<record::TrajectoryWriter> recording;
    sim::FlockState frame;  // a recorded frame's state, its arrays reused
    if (!record_.empty()) {
      record::TrajectoryWriter::checkSize(record_, "--record", world.initial().size(),
                                          steps / recordEvery + 1, scene_.force);
      recording.emplace(record_, "--record", session::trajectoryInfo(world), world.initial().size());
      backend->readState(frame);
      recording->append(0, 0.0, frame);
    }
    // After the checks of the input: bad input is one line.
    noteBackendChoice(autoChoice, *backend, described.countNote);

    std::FILE* summary = summaryStream(json_);
    OrderedJson samples = OrderedJson::array();
    ProgressBar progress(steps);
    const auto start = std::chrono::steady_clock::now();
    for (std::uint64_t s = 0; s < steps; ++s) {
      core::throwIfStopRequested();
      world.tick();
      progress.update(s + 1);
      if (recording && (s + 1) % recordEvery == 0) {
        backend->readState(frame);
        recording->append(s + 1, double(s + 1) * world.scene().model.dt, frame);
      }
      if (every_ != kUnset && (s + 1) % std::uint64_t(every_) == 0) {
        // Sampling reads the state back: on the gpu backend a blocking wait, so timed runs leave --every out.
        const sim::FlockState state = backend->state();
        world.requireFinite(state);
        const sim::FlockShape shape = sim::measureFlockShape(world.scene().model, state);
        const std::vector<sim::GroupSummary> groups = sim::summarizeGroups(state);
        progress.clear();
        const std::string leaders = leadersLine(world, groups);
        fmt::print(summary, "t = {:.1f} s (step {}): {}{}{}{}\n", double(s + 1) * world.scene().model.dt,
                   s + 1, shapeLine(shape), leaders.empty() ? "" : " | ", leaders,
                   agentStates(world.director()));
        flushSample(summary);
        samples.push_back({{"step", s + 1},
                           {"seconds", jsonNumber(double(s + 1) * world.scene().model.dt)},
                           {"shape", shapeJson(shape)},
                           {"groups", groupsJson(groups)},
                           {"agents", agentsJson(world.director())}});
      }
    }
    const sim::FlockState final = backend->state();  // also waits for the device to finish
    world.requireFinite(final);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const sim::FlockMetrics metrics = sim::measureFlock(world.scene().model, final);
    const sim::FlockShape shape = sim::measureFlockShape(world.scene().model, final);
    if (!dump_.empty())
      core::writeAfterWork(dump_, "--dump", [&] {
        sim::writeStateCsv(dump_, final, "--dump", world.scene().model.unitModel);
      });
    if (recording) recording->commit();

    const double updatesPerSecond = seconds > 0.0 ? double(final.size()) * double(steps) / seconds : 0.0;
    fmt::print(summary, "scene {} | backend {} ({}) | {} boids | {} steps ({:.2f} s simulated)\n",
               world.scene().path, backend->name(), backend->device(), final.size(), steps,
               double(steps) * world.scene().model.dt);
    fmt::print(summary, "wall {:.3f} s | {:.3g} boid updates/s\n", seconds, updatesPerSecond);
    fmt::print(
        summary,
        "local polarization {:.3f} | speed mean {:.2f} [{:.2f}, {:.2f}] | nearest mean {:.3f} min {:.3f} | "
        "nearest's bearing {:.3f} (mean |cos| to the heading: 0.5 all around)\n",
        metrics.localPolarization, metrics.meanSpeed, metrics.minSpeed, metrics.maxSpeed,
        metrics.meanNearestDistance, metrics.minPairDistance, metrics.nearestAlongHeading);
    fmt::print(summary, "{}\n", shapeLine(shape));
    const std::vector<sim::GroupSummary> groups = backend->groupSummaries();
    if (const std::string leaders = leadersLine(world, groups); !leaders.empty())
      fmt::print(summary, "{}\n", leaders);
    if (const ai::AgentDirector* director = world.director()) {
      for (std::size_t i = 0; i < director->size(); ++i) {
        const glm::vec3 p = director->position(i);
        fmt::print(summary, "agent {} {}{} | state {} | at ({:.1f}, {:.1f}, {:.1f})\n", i,
                   ai::toString(director->kind(i)),
                   director->name(i).empty() ? "" : fmt::format(" \"{}\"", director->name(i)),
                   director->stateName(i), p.x, p.y, p.z);
      }
    }
    const std::vector<gpu::StageTime> stages = backend->stageTimes();
    fmt::print(summary, "{}", stageLines(stages));
    if (!dump_.empty()) fmt::print(summary, "wrote {}\n", dump_);
    if (recording) fmt::print(summary, "wrote {} ({} frames)\n", record_, recording->frames());
    if (json_) {
      auto [stageMs, firstDispatchMs] = stageJson(stages);
      OrderedJson json = {{"command", "run"},
                          {"scene", world.scene().path},
                          {"backend", backend->name()},
                          {"device", backend->device()},
                          {"gl_device", glDeviceJson(*backend)},
                          {"boids", final.size()},
                          {"steps", steps},
                          {"wall_seconds", jsonNumber(seconds)},
                          {"boid_updates_per_second", jsonNumber(updatesPerSecond)},
                          {"gpu_stage_ms", std::move(stageMs)},
                          {"gpu_first_dispatch_ms", std::move(firstDispatchMs)},
                          {"metrics", metricsJson(metrics)},
                          {"shape", shapeJson(shape)},
                          {"groups", groupsJson(groups)},
                          {"agents", agentsJson(world.director())}};
      if (every_ != kUnset) json["samples"] = std::move(samples);
      if (!dump_.empty()) json["dump"] = dump_;
      if (recording) json["record"] = record_;
      printJson(json);
    }
    return 0;
  }

 private:
  SceneOptions scene_;
  std::int64_t steps_ = kUnset;
  std::string backend_ = "auto";
  int device_ = -1;
  std::string dump_;
  std::string record_;
  std::int64_t recordEvery_ = kUnset;
  std::int64_t every_ = kUnset;
  bool json_ = false;
};

}  // namespace

MURMUR_REGISTER_COMMAND(RunCommand, "run", "Simulate a scene headless and print a summary");

}  // namespace murmur::app

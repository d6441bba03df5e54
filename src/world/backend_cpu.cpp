#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/cpu_simulator.hpp"
#include "world/backend.hpp"

namespace murmur::world {
namespace {

// The flock lives in the simulator, in the cell order of its last step (CpuSimulator's resident
// flock); what reads it by id (the agents' perception, the renderer, a sample) gets it in id order
// once a step, the first time it asks.
class CpuFlockBackend final : public FlockBackend {
 public:
  CpuFlockBackend(sim::NeighbourSearch search, int threads) : simulator_(search, threads) {}
  std::string_view name() const override { return sim::toString(simulator_.search()); }
  void setState(const sim::FlockState& state) override {
    simulator_.setState(state);
    byId_ = state;
    byIdCurrent_ = true;
    stepped_ = false;
  }
  void step(const sim::ModelParams& params, const sim::StepInputs& inputs) override {
    simulator_.step(params, inputs);
    byIdCurrent_ = false;
    stepped_ = true;
  }
  // Answered at once (nothing to wait for), kept for perceived().
  void requestPerception(std::span<const sim::BoidProbe> probes, std::uint32_t k) override {
    const sim::FlockState& now = byId();
    perceived_ = AgentPerception{
        sim::summarizeGroups(now),
        stepped_ ? simulator_.nearestBoids(now, probes, k) : sim::NearestBoids(probes.size(), now.groups, k)};
  }
  AgentPerception perceived() override {
    if (!perceived_) throw std::logic_error("perceived() before any requestPerception()");
    return *perceived_;
  }
  std::optional<FiniteCheck> checkFinite(std::uint64_t step) override {
    return FiniteCheck{step, simulator_.residentFinite()};
  }
  sim::FlockState state() override { return byId(); }
  void readState(sim::FlockState& out) override {
    if (byIdCurrent_)
      out = byId_;
    else
      simulator_.copyState(out);
  }
  std::vector<sim::GroupSummary> groupSummaries() override { return sim::summarizeGroups(byId()); }
  std::vector<glm::vec3> positionSample() override { return sim::samplePositions(byId()); }
  // "CPU, 2 threads"; "CPU, 1 of 2 threads (...)" while one thread is found faster (sim::ThreadChoice).
  std::string device() const override {
    const int threads = simulator_.threads(), inUse = simulator_.threadsInUse();
    if (inUse == threads) return fmt::format("CPU, {} thread{}", threads, threads == 1 ? "" : "s");
    return fmt::format("CPU, {} of {} threads (one thread ran faster here)", inUse, threads);
  }

 private:
  const sim::FlockState& byId() {
    if (!byIdCurrent_) simulator_.copyState(byId_);  // into the last one's arrays: no allocation
    byIdCurrent_ = true;
    return byId_;
  }

  sim::CpuSimulator simulator_;
  sim::FlockState byId_;      // the flock in id order, once asked for since the last step
  bool byIdCurrent_ = false;  // byId_ is the flock's state now
  bool stepped_ = false;      // the simulator's grid is that of the flock's last step
  std::optional<AgentPerception> perceived_;
};

}  // namespace

std::unique_ptr<FlockBackend> makeCpuBackend(sim::NeighbourSearch search, int threads) {
  return std::make_unique<CpuFlockBackend>(search, threads);
}

}  // namespace murmur::world

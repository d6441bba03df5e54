#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/cpu_simulator.hpp"
#include "world/backend.hpp"

namespace murmur::world {
namespace {

class CpuFlockBackend final : public FlockBackend {
 public:
  explicit CpuFlockBackend(sim::NeighbourSearch search) : simulator_(search) {}
  std::string_view name() const override { return sim::toString(simulator_.search()); }
  void setState(const sim::FlockState& state) override {
    state_ = state;
    stepped_ = false;
  }
  void step(const sim::ModelParams& params, const sim::StepInputs& inputs) override {
    simulator_.step(params, inputs, state_);
    stepped_ = true;
  }
  // Answered at once (nothing to wait for), kept for perceived().
  void requestPerception(std::span<const sim::BoidProbe> probes, std::uint32_t k) override {
    perceived_ = AgentPerception{
        sim::summarizeGroups(state_),
        stepped_ ? simulator_.nearestBoids(state_, probes, k) : sim::NearestBoids(probes.size(), state_.groups, k)};
  }
  AgentPerception perceived() override {
    if (!perceived_) throw std::logic_error("perceived() before any requestPerception()");
    return *perceived_;
  }
  sim::FlockState state() override { return state_; }
  std::vector<sim::GroupSummary> groupSummaries() override { return sim::summarizeGroups(state_); }
  std::vector<glm::vec3> positionSample() override { return sim::samplePositions(state_); }
  // "CPU, 2 threads"; "CPU, 1 of 2 threads (...)" while one thread is found faster (sim::ThreadChoice).
  std::string device() const override {
    const int threads = simulator_.threads(), inUse = simulator_.threadsInUse();
    if (inUse == threads) return fmt::format("CPU, {} thread{}", threads, threads == 1 ? "" : "s");
    return fmt::format("CPU, {} of {} threads (one thread ran faster here)", inUse, threads);
  }

 private:
  sim::CpuSimulator simulator_;
  sim::FlockState state_;
  bool stepped_ = false;  // the simulator's grid is that of state_'s last step
  std::optional<AgentPerception> perceived_;
};

}  // namespace

std::unique_ptr<FlockBackend> makeCpuBackend(sim::NeighbourSearch search) {
  return std::make_unique<CpuFlockBackend>(search);
}

}  // namespace murmur::world

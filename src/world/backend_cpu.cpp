#include <fmt/format.h>

#include "sim/cpu_backend.hpp"
#include "world/backend.hpp"

namespace murmur::world {
namespace {

class CpuFlockBackend final : public FlockBackend {
 public:
  explicit CpuFlockBackend(sim::NeighbourSearch search) : simulator_(search) {}
  std::string_view name() const override { return sim::toString(simulator_.search()); }
  void setState(const sim::FlockState& state) override { state_ = state; }
  void step(const sim::ModelParams& params, const sim::StepInputs& inputs) override {
    simulator_.step(params, inputs, state_);
  }
  sim::FlockState state() override { return state_; }
  std::vector<sim::GroupSummary> groupSummaries() override { return sim::summarizeGroups(state_); }
  std::string device() const override { return fmt::format("CPU, {} threads", simulator_.threads()); }

 private:
  sim::CpuSimulator simulator_;
  sim::FlockState state_;
};

}  // namespace

std::unique_ptr<FlockBackend> makeCpuBackend(sim::NeighbourSearch search) {
  return std::make_unique<CpuFlockBackend>(search);
}

}  // namespace murmur::world

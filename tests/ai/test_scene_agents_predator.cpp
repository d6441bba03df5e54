// scenes/predator.toml through the director with a real flock (the CPU reference, a few hundred
// boids): 10,000 steps without NaN, no agent stuck, and the predator going through its whole round
// (patrol, hunt, rest, patrol again).
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "ai/director.hpp"
#include "ai/scene_agents.hpp"
#include "sim/builders.hpp"
#include "sim/cpu_simulator.hpp"
#include "sim/metrics.hpp"
#include "sim/scene_loader.hpp"

namespace murmur::ai {
namespace {

bool finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// The states an agent went through, consecutive repeats dropped.
void record(std::vector<std::string>& states, std::string_view state) {
  if (states.empty() || states.back() != state) states.emplace_back(state);
}

bool contains(const std::vector<std::string>& states, const std::vector<std::string>& sequence) {
  for (std::size_t i = 0; i + sequence.size() <= states.size(); ++i)
    if (std::equal(sequence.begin(), sequence.end(), states.begin() + std::ptrdiff_t(i))) return true;
  return false;
}

TEST(PredatorScene, TenThousandStepsWithARealFlockStayFiniteAndNoAgentIsStuck) {
  sim::Scene scene = sim::loadScene(MURMUR_SOURCE_DIR "/scenes/predator.toml", kSceneSections);
  scene.count = 300;
  sim::FlockState flock = sim::spawnFlock(scene);
  std::optional<AgentDirector> director = AgentDirector::fromScene(scene);
  ASSERT_TRUE(director.has_value());
  sim::StepInputs inputs = sim::staticInputs(scene, flock.groups);
  // One thread: a few hundred boids gain nothing from more, and the test shares its machine.
  sim::CpuSimulator simulator(sim::NeighbourSearch::Grid, 1);

  // Stuck: an agent that, in some window of 5 s in which it never rested, stayed within 1 unit of
  // where the window began.
  constexpr int kSteps = 10'000;
  const int window = int(std::lround(5.0 / scene.model.dt));
  constexpr float kMinTravel = 1.0f;
  const std::size_t agents = director->size();
  std::vector<glm::vec3> windowStart(agents);
  std::vector<float> windowTravel(agents, 0.0f);
  std::vector<bool> restedInWindow(agents, false);
  std::vector<std::vector<std::string>> states(agents);
  std::size_t predatorPoints = 0;

  for (int step = 0; step < kSteps; ++step) {
    if (step % window == 0) {
      for (std::size_t a = 0; a < agents; ++a) {
        if (step > 0 && !restedInWindow[a]) {
          EXPECT_GE(windowTravel[a], kMinTravel)
              << "agent " << a << " stuck in \"" << states[a].back() << "\" before step " << step;
        }
        windowStart[a] = director->position(a);
        windowTravel[a] = 0.0f;
        restedInWindow[a] = false;
      }
    }
    const std::vector<sim::GroupSummary> summaries = sim::summarizeGroups(flock);
    const sim::NearestBoids boids =
        simulator.nearestBoids(flock, director->probes(), AgentDirector::kPerceivedBoids);
    director->update(scene.model.dt, summaries, boids, inputs);
    simulator.step(scene.model, inputs, flock);

    predatorPoints = inputs.predators.size();
    for (std::size_t a = 0; a < agents; ++a) {
      ASSERT_TRUE(finite(director->position(a)) && finite(director->velocity(a)))
          << "agent " << a << ", step " << step;
      windowTravel[a] = std::max(windowTravel[a], glm::length(director->position(a) - windowStart[a]));
      if (director->action(a) == Action::Rest) restedInWindow[a] = true;
      record(states[a], director->stateName(a));
    }
    for (std::size_t i = 0; i < flock.size(); ++i)
      ASSERT_TRUE(finite(flock.position[i]) && finite(flock.velocity[i]))
          << "boid " << i << ", step " << step;
  }

  EXPECT_EQ(predatorPoints, 1u);
  for (std::size_t a = 0; a < agents; ++a) {
    if (director->kind(a) == AgentKind::Leader) {
      EXPECT_TRUE(contains(states[a], {"lead"})) << "leader " << a;
    } else {
      // It hunts what it perceives, rests after a catch or a long chase, and returns to its round.
      EXPECT_TRUE(contains(states[a], {"patrol", "hunt"})) << "predator " << a;
      EXPECT_TRUE(contains(states[a], {"hunt", "rest", "patrol"})) << "predator " << a;
    }
  }
}

}  // namespace
}  // namespace murmur::ai

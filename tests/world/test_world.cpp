// The library world (world/world.hpp): what tick() writes into the step inputs and steps the boids
// with, the walls hookup, start/respawn/load/switchBackend, and that two worlds from one description
// tick identically. On the CPU backends (cpu and cpu-naive agree bit for bit), against the CPU
// reference stepped by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "ai/scene_agents.hpp"
#include "core/error.hpp"
#include "map_file.hpp"
#include "scratch_dir.hpp"
#include "session/scene_sections.hpp"
#include "sim/builders.hpp"
#include "sim/cpu_simulator.hpp"
#include "sim/metrics.hpp"
#include "sim/nearest_boids.hpp"
#include "sim/scene_loader.hpp"
#include "world/world.hpp"

namespace murmur::world {
namespace {

// A flat 100 x 100 world of two groups, 300 boids, a static target for group 0 and a static predator.
const std::string kFlatWorld = R"(
[world]
dims = 2
min = [-50, -5, -50]
max = [50, 5, 50]
margin = 2
[sim]
seed = 5
[boids]
count = 300
groups = 2
[[targets]]
group = 0
position = [10, 0, 10]
[[predators]]
position = [-20, 0, -20]
)";

// A leader of group 1 and a predator agent, both patrolling (so that they move every step).
const std::string kAgents = R"(
[[agents]]
kind = "leader"
group = 1
position = [5, 0, 5]
[[agents.states]]
name = "round"
action = "patrol"
waypoints = [[30, 0, 30], [-30, 0, 30]]
[[agents]]
kind = "predator"
position = [-5, 0, 5]
[[agents.states]]
name = "round"
action = "patrol"
waypoints = [[-30, 0, -30], [30, 0, -30]]
)";

WorldDescription describe(const std::string& text) {
  return WorldDescription{sim::parseScene(text, "world.toml", ai::kSceneSections), "", {}};
}

bool sameState(const sim::FlockState& a, const sim::FlockState& b) {
  return a.position == b.position && a.velocity == b.velocity && a.group == b.group && a.groups == b.groups;
}

bool sameInputs(const sim::StepInputs& a, const sim::StepInputs& b) {
  return a.obstacleCenter == b.obstacleCenter && a.obstacleRadius == b.obstacleRadius && a.goal == b.goal &&
         a.predators == b.predators && a.walls == b.walls;
}

// `state` after one step of the CPU reference with `inputs`.
sim::FlockState stepped(const sim::Scene& scene, const sim::StepInputs& inputs, sim::FlockState state) {
  sim::CpuSimulator(sim::NeighbourSearch::Grid).step(scene.model, inputs, state);
  return state;
}

// The library speaks in types, not flags: an unknown name is UnknownBackend naming it (the command
// maps it to its flag), and the two CPU names make their backends.
// Every shipped scene loads as the app loads it (every module's sections), agents and maps included.
TEST(ShippedScenes, EveryOneLoadsWithItsAgents) {
  int scenes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(MURMUR_SOURCE_DIR) + "/scenes")) {
    if (entry.path().extension() != ".toml") continue;
    SCOPED_TRACE(entry.path().string());
    const sim::Scene scene = sim::loadScene(entry.path().string(), session::kSceneSections);
    EXPECT_NO_THROW(ai::loadSceneAgents(scene, {MURMUR_MAPS_DIR}));
    ++scenes;
  }
  EXPECT_GE(scenes, 6);
}

TEST(MakeBackend, AnUnknownNameIsATypedErrorNamingIt) {
  try {
    makeBackend("quantum");
    FAIL() << "no error";
  } catch (const UnknownBackend& e) {
    EXPECT_EQ(e.name(), "quantum");
    EXPECT_NE(std::string(e.what()).find("'quantum'"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("--"), std::string::npos) << e.what();
  }
  EXPECT_EQ(makeBackend("cpu")->name(), "cpu");
  EXPECT_EQ(makeBackend("cpu-naive")->name(), "cpu-naive");
}

TEST(World, WithoutAgentsATickIsOneStepWithTheScenesStaticInputs) {
  World world(describe(kFlatWorld), makeBackend("cpu"));
  EXPECT_EQ(world.director(), nullptr);
  const sim::StepInputs expected = sim::staticInputs(world.scene(), 2);
  ASSERT_TRUE(sameInputs(world.inputs(), expected));
  sim::FlockState reference = world.initial();
  EXPECT_TRUE(sameState(world.backend().state(), reference)) << "the initial flock is on the backend";
  for (int s = 0; s < 3; ++s) {
    world.tick();
    reference = stepped(world.scene(), expected, reference);
    EXPECT_TRUE(sameState(world.backend().state(), reference)) << "tick " << s;
  }
}

TEST(World, ATickWritesTheAgentsGoalAndPredatorIntoTheInputsAndStepsWithThem) {
  World world(describe(kFlatWorld + kAgents), makeBackend("cpu"));
  ASSERT_NE(world.director(), nullptr);
  // Started: the scene's static inputs; the leader's group has no goal yet.
  ASSERT_EQ(world.inputs().goal.size(), 2u);
  EXPECT_EQ(world.inputs().goal[0], glm::vec3(10.0f, 0.0f, 10.0f));
  EXPECT_EQ(world.inputs().goal[1], std::nullopt);
  ASSERT_EQ(world.inputs().predators.size(), 1u);

  world.tick();
  const ai::AgentDirector& agents = *world.director();
  const glm::vec3 leader = agents.position(0), predator = agents.position(1);
  EXPECT_NE(leader, glm::vec3(5.0f, 0.0f, 5.0f)) << "the leader moved";
  EXPECT_NE(predator, glm::vec3(-5.0f, 0.0f, 5.0f)) << "the predator moved";
  const sim::StepInputs& inputs = world.inputs();
  EXPECT_EQ(inputs.goal[0], glm::vec3(10.0f, 0.0f, 10.0f));
  EXPECT_EQ(inputs.goal[1], leader);
  ASSERT_EQ(inputs.predators.size(), 2u);
  EXPECT_EQ(inputs.predators[0], glm::vec3(-20.0f, 0.0f, -20.0f));
  EXPECT_EQ(inputs.predators[1], predator);

  // The boids stepped with those inputs, not with the static ones.
  const sim::FlockState after = world.backend().state();
  EXPECT_TRUE(sameState(after, stepped(world.scene(), inputs, world.initial())));
  EXPECT_FALSE(
      sameState(after, stepped(world.scene(), sim::staticInputs(world.scene(), 2), world.initial())));
}

TEST(World, TheMapsWallsGoIntoTheInputsWithOrWithoutAgents) {
  // 10 x 10 cells over the 100 x 100 world: 10 units a cell, cell (0, 0) at x, z in [-50, -40).
  const std::filesystem::path map =
      test::writeMap("world_walls", {"@@........", "@@........", "..........", "..........", "..........",
                                     "..........", "..........", "..........", "..........", ".........@"});
  const std::string navigation = "[navigation]\nmap = \"" + map.string() + "\"\n";
  for (const std::string& agents : {std::string(), kAgents}) {
    SCOPED_TRACE(agents.empty() ? "no agents" : "agents");
    World world(describe(kFlatWorld + navigation + agents), makeBackend("cpu"));
    const std::shared_ptr<const sim::WallGrid> walls = world.inputs().walls;
    ASSERT_NE(walls, nullptr);
    EXPECT_TRUE(walls->blockedAt(glm::vec3(-45.0f, 0.0f, -45.0f)));
    EXPECT_TRUE(walls->blockedAt(glm::vec3(-35.0f, 0.0f, -35.0f)));
    EXPECT_TRUE(walls->blockedAt(glm::vec3(45.0f, 0.0f, 45.0f)));
    EXPECT_FALSE(walls->blockedAt(glm::vec3(-25.0f, 0.0f, -45.0f)));
    EXPECT_FALSE(walls->blockedAt(glm::vec3(0.0f, 0.0f, 0.0f)));
    for (const glm::vec3& p : world.initial().position)
      ASSERT_FALSE(walls->blockedAt(p)) << "spawned in a wall";
    const sim::StepInputs before = world.inputs();
    world.tick();
    EXPECT_EQ(world.inputs().walls, walls);
    EXPECT_TRUE(sameState(world.backend().state(), stepped(world.scene(), world.inputs(), world.initial())));
    // The walls change the step: without them the boids end elsewhere.
    sim::StepInputs wallless = world.inputs();
    wallless.walls = nullptr;
    EXPECT_FALSE(sameState(world.backend().state(), stepped(world.scene(), wallless, world.initial())));
    if (agents.empty()) {
      EXPECT_TRUE(sameInputs(world.inputs(), before));
    }
  }
}

TEST(World, TwoWorldsFromOneDescriptionTickIdentically) {
  const WorldDescription description = describe(kFlatWorld + kAgents);
  World grid(description, makeBackend("cpu"));
  World naive(description, makeBackend("cpu-naive"));
  ASSERT_TRUE(sameState(grid.initial(), naive.initial()));
  for (int s = 0; s < 60; ++s) {
    grid.tick();
    naive.tick();
    ASSERT_TRUE(sameInputs(grid.inputs(), naive.inputs())) << "tick " << s;
    ASSERT_EQ(grid.director()->position(0), naive.director()->position(0)) << "tick " << s;
    ASSERT_EQ(grid.director()->position(1), naive.director()->position(1)) << "tick " << s;
  }
  EXPECT_TRUE(sameState(grid.backend().state(), naive.backend().state()));
  EXPECT_FALSE(sameState(grid.backend().state(), grid.initial())) << "the flock moved";
}

// compare's lockstep: both worlds' agents steer on one flock, then both step.
TEST(World, SteerAgentsThenStepFlockIsATick) {
  const WorldDescription description = describe(kFlatWorld + kAgents);
  World ticked(description, makeBackend("cpu"));
  World halves(description, makeBackend("cpu"));
  for (int s = 0; s < 10; ++s) {
    ticked.tick();
    halves.steerAgents(halves.perceive());
    halves.stepFlock();
  }
  EXPECT_TRUE(sameInputs(ticked.inputs(), halves.inputs()));
  EXPECT_TRUE(sameState(ticked.backend().state(), halves.backend().state()));
}

// The agents perceive the flock one step late: before tick s, the group summaries of the state
// before the last step and the nearest boids of that state's request (the grid of the step before
// it, the brute force here), around the agents where they are now; the initial flock (and no boids)
// at the first two ticks.
TEST(World, AgentsPerceiveTheFlockAsItWasBeforeTheLastStep) {
  // A predator that looks for boids (its sight gives it a probe) and never stops patrolling.
  const std::string watcher = R"(
[[agents]]
kind = "predator"
position = [-5, 0, 5]
view_distance = 40
[[agents.states]]
name = "round"
action = "patrol"
waypoints = [[-30, 0, -30], [30, 0, -30]]
transitions = [{ when = "sees", to = "round" }]
)";
  World world(describe(kFlatWorld + watcher), makeBackend("cpu"));
  std::vector<sim::FlockState> states;  // states[s]: the flock before tick s
  std::size_t boidsSeen = 0;
  for (int s = 0; s < 30; ++s) {
    states.push_back(world.backend().state());
    const std::vector<sim::BoidProbe> probes = world.director()->probes();
    const sim::FlockState& asked = states[s > 0 ? s - 1 : 0];
    const AgentPerception seen = world.perceive();
    const std::vector<sim::GroupSummary> groups = sim::summarizeGroups(asked);
    ASSERT_EQ(seen.groups.size(), groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g) {
      EXPECT_EQ(seen.groups[g].count, groups[g].count) << "tick " << s;
      EXPECT_EQ(seen.groups[g].centroid, groups[g].centroid) << "tick " << s;
      EXPECT_EQ(seen.groups[g].meanVelocity, groups[g].meanVelocity) << "tick " << s;
    }
    const sim::NearestBoids boids =
        s < 2 ? sim::NearestBoids(probes.size(), 2, ai::AgentDirector::kPerceivedBoids)
              : sim::nearestBoids(asked, states[s - 2].position, probes, ai::AgentDirector::kPerceivedBoids);
    EXPECT_EQ(seen.boids, boids) << "tick " << s;
    for (const std::uint32_t count : seen.boids.counts) boidsSeen += count;
    world.tick();
  }
  EXPECT_GT(boidsSeen, 0u) << "not a test of empty answers";
}

TEST(World, StartPutsTheFlockTheAgentsAndTheInputsBack) {
  World world(describe(kFlatWorld + kAgents), makeBackend("cpu"));
  const sim::StepInputs started = world.inputs();
  for (int s = 0; s < 20; ++s) world.tick();
  const sim::FlockState first = world.backend().state();
  const glm::vec3 leader = world.director()->position(0);
  world.start();
  EXPECT_TRUE(sameState(world.backend().state(), world.initial()));
  EXPECT_TRUE(sameInputs(world.inputs(), started));
  EXPECT_EQ(world.director()->position(0), glm::vec3(5.0f, 0.0f, 5.0f));
  for (int s = 0; s < 20; ++s) world.tick();
  EXPECT_TRUE(sameState(world.backend().state(), first));
  EXPECT_EQ(world.director()->position(0), leader);
}

TEST(World, RespawnSpawnsThatManyBoidsAsTheSceneSays) {
  World world(describe(kFlatWorld), makeBackend("cpu"));
  world.tick();
  world.respawn(120);
  EXPECT_EQ(world.scene().count, 120u);
  sim::Scene expected = world.scene();
  EXPECT_TRUE(sameState(world.initial(), sim::spawnFlock(expected)));
  EXPECT_TRUE(sameState(world.backend().state(), world.initial()));
}

TEST(World, AnInitFileGivesTheCountAndRaisesTheGroups) {
  const std::filesystem::path csv = test::scratchDir("world_init") / "init.csv";
  {
    std::ofstream out(csv);
    out << "id,group,x,y,z,vx,vy,vz\n0,0,1,0,1,1,0,0\n1,3,-1,0,2,0,0,1\n2,1,4,0,-3,-1,0,0\n";
  }
  WorldDescription description = describe(kFlatWorld);
  description.init = csv.string();
  World world(description, makeBackend("cpu"));
  EXPECT_EQ(world.scene().count, 3u);
  EXPECT_EQ(world.scene().groups, 4u);
  EXPECT_EQ(world.initial().groups, 4u);
  EXPECT_EQ(world.inputs().goal.size(), 4u);
  EXPECT_EQ(world.initial().position[1], glm::vec3(-1.0f, 0.0f, 2.0f));
  EXPECT_TRUE(sameState(world.backend().state(), world.initial()));
}

TEST(World, ABadDescriptionLeavesTheWorldAsItWas) {
  World world(describe(kFlatWorld + kAgents), makeBackend("cpu"));
  world.tick();
  const sim::FlockState state = world.backend().state();
  const sim::StepInputs inputs = world.inputs();
  WorldDescription missingInit = describe(kFlatWorld);
  missingInit.init = "/no/such/state.csv";
  EXPECT_THROW(world.load(missingInit), InputError);
  // An agent outside the world box.
  EXPECT_THROW(world.load(describe(kFlatWorld + "[[agents]]\nposition = [90, 0, 0]\n[[agents.states]]\n"
                                                "name = \"s\"\naction = \"rest\"\n")),
               InputError);
  EXPECT_EQ(world.scene().count, 300u);
  ASSERT_NE(world.director(), nullptr);
  EXPECT_EQ(world.director()->size(), 2u);
  EXPECT_TRUE(sameInputs(world.inputs(), inputs));
  EXPECT_TRUE(sameState(world.backend().state(), state));
}

TEST(World, SwitchingBackendCarriesTheFlockOver) {
  const WorldDescription description = describe(kFlatWorld + kAgents);
  World stays(description, makeBackend("cpu"));
  World switches(description, makeBackend("cpu"));
  auto tickBoth = [&] {
    for (int s = 0; s < 5; ++s) {
      stays.tick();
      switches.tick();
    }
  };
  tickBoth();
  switches.switchBackend(makeBackend("cpu-naive"));
  EXPECT_EQ(switches.backend().name(), "cpu-naive");
  EXPECT_TRUE(sameState(switches.backend().state(), stays.backend().state()));
  tickBoth();
  EXPECT_TRUE(sameState(switches.backend().state(), stays.backend().state()));
}

}  // namespace
}  // namespace murmur::world

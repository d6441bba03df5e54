#include "ai/director.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include <glm/geometric.hpp>

#include "ai/fsm.hpp"
#include "ai/motion.hpp"
#include "ai/nav.hpp"
#include "ai/perception.hpp"
#include "ai/planning.hpp"
#include "ai/player.hpp"
#include "ai/steering.hpp"
#include "sim/rules.hpp"

namespace murmur::ai {
namespace {

// Ids for the generic machine: the index in AgentSpec::states (StateSpec::transitions) plus one,
// since the value-initialised id is the machine's null id.
enum class StateId : std::uint32_t {};
enum class TransitionId : std::uint32_t {};

constexpr float kEpsilon = 1e-6f;
constexpr double kNever = std::numeric_limits<double>::infinity();

// What every agent of a director shares. Lives in the director's Runtime (on the heap), so the agents'
// pointers to it stay valid when the director moves.
struct Shared {
  AgentSpace space;  // its navigation: the one below
  std::vector<sim::Obstacle> obstacles;
  std::shared_ptr<const NavigationGrid> navigation;  // null: no grid
  std::unique_ptr<PathFinder> paths;                 // on navigation->map (scratch for A* and hearing)
  PerceptionWorld sightWorld;                        // obstacles, plus the grid when its cells are map walls
  PerceptionWorld hearingWorld;  // the grid, whatever its cells stand for (sound goes around both)
  // The player agents' positions and velocities at the start of this update: what the others see
  // and hear of them.
  std::vector<std::pair<glm::vec3, glm::vec3>> players;
};

// The boid an agent perceived last.
struct Target {
  std::uint32_t group = 0;
  std::uint32_t boid = 0;    // its id
  glm::vec3 position{0.0f};  // when last perceived
  glm::vec3 velocity{0.0f};  // when last perceived
  bool perceivedNow = false;
  bool player = false;  // a player agent (group and boid unused), not a boid
};

struct Agent;
using Machine = StateMachine<Agent, StateId, TransitionId>;

struct Agent {
  Agent(const AgentSpec& spec, std::uint64_t seed, Shared& shared);

  AgentKind kind;
  std::string name;
  std::uint32_t group;
  Vehicle vehicle;
  float maxSpeed;  // the spec's; vehicle.maxSpeed is the current state's limit
  glm::vec3 heading{1.0f, 0.0f, 0.0f};
  SightParams sight;
  HearingParams hearing;
  double replanInterval;
  bool perceives;  // whether any state or transition uses perception (else it is skipped)
  Shared* shared;
  Wander wander;

  // This step.
  double dt = 0.0;
  std::span<const sim::GroupSummary> flock;
  std::span<const sim::BoidSample> boids(std::uint32_t ofGroup) const { return nearest->of(index, ofGroup); }
  const sim::NearestBoids* nearest = nullptr;  // the answer for the director's probes
  std::size_t index = 0;                       // this agent's probe
  glm::vec3 steering{0.0f};
  std::optional<glm::vec3> goal;  // where the current action steers to (or away from) this step
  double timeInState = 0.0;

  // Perception, per group.
  std::vector<std::uint8_t> seen;
  std::vector<std::uint8_t> heard;
  bool seesPlayer = false;
  bool hearsPlayer = false;
  std::vector<double> sincePerceived;  // seconds since each group was last perceived
  double sinceAnyPerceived = kNever;
  std::optional<Target> target;

  RoutePlanner route;

  Machine machine;  // no states for a player

  // A player's thrusters and course.
  PlayerLimits playerLimits;
  PlayerMotion playerMotion;
  PlayerBody playerBody = PlayerBody::Kinematic;
  RigidBody rigidBody;  // playerBody Rigid only
  std::vector<glm::vec3> course;
  float arrivalRadius;
  std::size_t courseIndex = 0;  // the waypoint being steered for
};

glm::vec3 flat(const Shared& shared, glm::vec3 point) {
  if (shared.space.dims == 2) point.y = 0.0f;
  return point;
}

// The point a Near / Far transition measures the distance to.
std::optional<glm::vec3> referencePoint(const TransitionSpec& transition, const Agent& agent) {
  if (transition.group) {
    if (*transition.group >= agent.flock.size() || agent.flock[*transition.group].count == 0)
      return std::nullopt;
    return flat(*agent.shared, agent.flock[*transition.group].centroid);
  }
  if (agent.target) return agent.target->position;
  return std::nullopt;
}

bool anyOf(const std::vector<std::uint8_t>& flags, std::optional<std::uint32_t> group) {
  if (group) return *group < flags.size() && flags[*group] != 0;
  return std::any_of(flags.begin(), flags.end(), [](std::uint8_t flag) { return flag != 0; });
}

bool holds(const TransitionSpec& transition, const Agent& agent) {
  switch (transition.when) {
    case Condition::Sees:
      return anyOf(agent.seen, transition.group);
    case Condition::Hears:
      return anyOf(agent.heard, transition.group);
    case Condition::Near:
    case Condition::Far: {
      const std::optional<glm::vec3> reference = referencePoint(transition, agent);
      if (!reference) return false;
      const float distance = glm::length(*reference - agent.vehicle.position);
      return transition.when == Condition::Near ? distance < transition.distance
                                                : distance > transition.distance;
    }
    case Condition::SeesPlayer:
      return agent.seesPlayer;
    case Condition::HearsPlayer:
      return agent.hearsPlayer;
    case Condition::Timer:
      return agent.timeInState > transition.seconds;
    case Condition::LostFor: {
      if (!transition.group) return agent.sinceAnyPerceived > transition.seconds;
      const double since =
          *transition.group < agent.sincePerceived.size() ? agent.sincePerceived[*transition.group] : kNever;
      return since > transition.seconds;
    }
  }
  return false;
}

// The agent's route toward goal (RoutePlanner::travel on the shared grid).
glm::vec3 travel(Agent& agent, const glm::vec3& goal, const glm::vec3& direct, const TravelParams& params) {
  Shared& shared = *agent.shared;
  return agent.route.travel(agent.vehicle, shared.navigation.get(), shared.paths.get(), agent.replanInterval,
                            goal, direct, params);
}

// A state of a scene-defined machine: its spec's action while current, its transitions tried in order.
class ScriptedState final : public FsmState<Agent, StateId, TransitionId> {
 public:
  ScriptedState(StateId id, StateSpec spec) : FsmState(id), spec_(std::move(spec)) {
    for (std::size_t i = 0; i < spec_.transitions.size(); ++i)
      addTransition(TransitionId(i + 1), StateId(spec_.transitions[i].to + 1));
  }

  const StateSpec& spec() const { return spec_; }

  void enter(Agent& agent) override {
    agent.timeInState = 0.0;
    agent.route.forget();
  }

  void reason(Agent& agent, Machine& machine) override {
    for (std::size_t i = 0; i < spec_.transitions.size(); ++i) {
      if (!holds(spec_.transitions[i], agent)) continue;
      if (machine.perform(TransitionId(i + 1), agent) != FsmStatus::Ok)
        throw std::logic_error("ScriptedState: a validated transition was refused");
      return;
    }
  }

  void act(Agent& agent) override { agent.steering = steer(agent); }

 private:
  glm::vec3 steer(Agent& agent);

  StateSpec spec_;
  // Patrol: the waypoint being visited. Kept when the state is left, so that the agent returns to
  // the route where it left it.
  std::size_t patrolIndex_ = 0;
};

glm::vec3 ScriptedState::steer(Agent& agent) {
  Vehicle& vehicle = agent.vehicle;
  vehicle.maxSpeed = spec_.speed.value_or(agent.maxSpeed);
  // The shortest stop from full speed: arrive never overshoots with it.
  const float slowRadius =
      spec_.slowRadius.value_or(std::max(vehicle.maxSpeed * vehicle.maxSpeed / vehicle.maxForce, kEpsilon));
  const std::optional<glm::vec3> goal =
      spec_.point ? spec_.point
                  : (agent.target ? std::optional<glm::vec3>(agent.target->position) : std::nullopt);
  // The target's velocity where it is known now (a remembered one would lead the agent astray).
  const glm::vec3 targetVelocity =
      !spec_.point && agent.target && agent.target->perceivedNow ? agent.target->velocity : glm::vec3(0.0f);
  agent.goal = spec_.action == Action::Rest || spec_.action == Action::Wander ? std::nullopt : goal;
  switch (spec_.action) {
    case Action::Rest:
      return -vehicle.velocity;
    case Action::Patrol: {
      if (glm::length(spec_.waypoints[patrolIndex_] - vehicle.position) < spec_.arrivalRadius) {
        patrolIndex_ = (patrolIndex_ + 1) % spec_.waypoints.size();
        agent.route.forget();
      }
      const glm::vec3& waypoint = spec_.waypoints[patrolIndex_];
      agent.goal = waypoint;
      return travel(agent, waypoint, arrive(vehicle, waypoint, slowRadius), {true, slowRadius});
    }
    case Action::Seek:
      if (!goal) return -vehicle.velocity;
      return travel(agent, *goal, seek(vehicle, *goal), {false, slowRadius});
    case Action::Arrive:
      if (!goal) return -vehicle.velocity;
      return travel(agent, *goal, arrive(vehicle, *goal, slowRadius), {true, slowRadius});
    case Action::Pursue:
      if (!goal) return -vehicle.velocity;
      return travel(agent, *goal, pursue(vehicle, *goal, targetVelocity, spec_.maxPrediction),
                    {false, slowRadius});
    case Action::Flee:
      if (!goal) return -vehicle.velocity;
      return flee(vehicle, *goal) + containment(vehicle, agent.shared->space);
    case Action::Evade:
      if (!goal) return -vehicle.velocity;
      return evade(vehicle, *goal, targetVelocity, spec_.maxPrediction) +
             containment(vehicle, agent.shared->space);
    case Action::Wander:
      return agent.wander.steer(vehicle, agent.heading, float(agent.dt), agent.shared->space.dims,
                                spec_.wander) +
             containment(vehicle, agent.shared->space);
  }
  return glm::vec3(0.0f);
}

// Whether anything the agent does depends on what it perceives (else perception is skipped: it costs
// up to kPerceivedBoids sight tests and A* searches per group and step).
bool usesPerception(const AgentSpec& spec) {
  for (const StateSpec& state : spec.states) {
    const bool targetAction = state.action == Action::Seek || state.action == Action::Arrive ||
                              state.action == Action::Pursue || state.action == Action::Flee ||
                              state.action == Action::Evade;
    if (targetAction && !state.point) return true;
    for (const TransitionSpec& transition : state.transitions) {
      const bool sense = transition.when == Condition::Sees || transition.when == Condition::Hears ||
                         transition.when == Condition::LostFor || transition.when == Condition::SeesPlayer ||
                         transition.when == Condition::HearsPlayer;
      const bool targetDistance =
          (transition.when == Condition::Near || transition.when == Condition::Far) && !transition.group;
      if (sense || targetDistance) return true;
    }
  }
  return false;
}

Agent::Agent(const AgentSpec& spec, std::uint64_t seed, Shared& sharedWorld)
    : kind(spec.kind),
      name(spec.name),
      group(spec.group),
      vehicle{spec.position, glm::vec3(0.0f), spec.maxSpeed, spec.maxForce},
      maxSpeed(spec.maxSpeed),
      sight(spec.sight),
      hearing(spec.hearing),
      replanInterval(spec.replanInterval),
      perceives(usesPerception(spec)),
      shared(&sharedWorld),
      wander(seed),
      playerLimits{spec.player.turnRate, spec.maxSpeed, spec.maxForce},
      playerBody(spec.player.body),
      rigidBody(spec.player.rigid),
      course(spec.player.course),
      arrivalRadius(spec.player.arrivalRadius) {
  if (kind == AgentKind::Player) return;
  // The machine enters the first state added: the initial one goes first.
  machine.addState(std::make_unique<ScriptedState>(StateId(spec.initial + 1), spec.states[spec.initial]));
  for (std::size_t i = 0; i < spec.states.size(); ++i)
    if (i != spec.initial) machine.addState(std::make_unique<ScriptedState>(StateId(i + 1), spec.states[i]));
}

const ScriptedState& currentState(const Agent& agent) {
  return static_cast<const ScriptedState&>(*agent.machine.current());
}

// Sight and hearing of every group through its nearest sampled boids, nearest first: the group is
// seen when one of them is seen, heard when one of them is heard (loud: that boid's own speed; one
// heard boid is enough, so the A* searches stop there). Then the target: the boid it had, while still
// perceived; else the nearest perceived boid of the target's group, while that group is still
// perceived (two groups in view must not make the agent dither); else the nearest perceived boid.
//
// The players are seen and heard by the same tests (the player at the image nearest the agent in a
// wrap world, heard at its own speed); a perceived player is the target before any boid.
void perceive(Agent& agent) {
  const std::size_t groups = agent.flock.size();
  agent.seen.assign(groups, 0);
  agent.heard.assign(groups, 0);
  agent.seesPlayer = false;
  agent.hearsPlayer = false;
  agent.sincePerceived.resize(groups, kNever);
  if (!agent.perceives) return;
  const Shared& shared = *agent.shared;
  const glm::vec3 position = agent.vehicle.position;
  std::optional<Target> nearest, sameBoid, sameGroup;
  float nearestDistance = std::numeric_limits<float>::infinity();
  for (std::uint32_t g = 0; g < groups; ++g) {
    std::optional<Target> perceivedOfGroup;  // its nearest perceived boid
    for (const sim::BoidSample& sample : agent.boids(g)) {
      const glm::vec3 boid = flat(shared, sample.position);
      const float distance = glm::length(boid - position);
      const bool seen = see(shared.sightWorld, agent.sight, position, agent.heading, boid) == Sight::Seen;
      // The straight line is a lower bound of the path: beyond range no search is needed.
      const bool heard = !agent.heard[g] && distance <= agent.hearing.range &&
                         hear(shared.hearingWorld, shared.paths.get(), agent.hearing, position, boid,
                              glm::length(sample.velocity)) == Hearing::Heard;
      if (seen) agent.seen[g] = 1;
      if (heard) agent.heard[g] = 1;
      if (!seen && !heard) continue;
      const Target target{g, sample.id, boid, flat(shared, sample.velocity), true};
      if (agent.target && !agent.target->player && agent.target->boid == sample.id &&
          agent.target->group == g)
        sameBoid = target;
      if (!perceivedOfGroup) {
        perceivedOfGroup = target;
        if (distance < nearestDistance) {
          nearest = target;
          nearestDistance = distance;
        }
      }
    }
    if (!perceivedOfGroup) continue;
    agent.sincePerceived[g] = 0.0;
    agent.sinceAnyPerceived = 0.0;
    if (agent.target && !agent.target->player && agent.target->group == g) sameGroup = perceivedOfGroup;
  }
  std::optional<Target> player;
  for (const auto& [at, velocity] : shared.players) {
    glm::vec3 offset = flat(shared, at) - position;
    if (shared.space.wrap) offset = sim::minimumImage(offset, shared.space.worldMax - shared.space.worldMin);
    const glm::vec3 image = position + offset;
    const bool seen = see(shared.sightWorld, agent.sight, position, agent.heading, image) == Sight::Seen;
    const bool heard = glm::length(offset) <= agent.hearing.range &&
                       hear(shared.hearingWorld, shared.paths.get(), agent.hearing, position, image,
                            glm::length(velocity)) == Hearing::Heard;
    agent.seesPlayer = agent.seesPlayer || seen;
    agent.hearsPlayer = agent.hearsPlayer || heard;
    if ((seen || heard) && !player) player = Target{0, 0, image, flat(shared, velocity), true, true};
  }
  if (player) agent.sinceAnyPerceived = 0.0;
  const std::optional<Target> chosen = player      ? player
                                       : sameBoid  ? sameBoid
                                       : sameGroup ? sameGroup
                                                   : nearest;
  if (chosen)
    agent.target = chosen;
  else if (agent.target)
    agent.target->perceivedNow = false;
}

// One step of a player: the keys' input when the user has steered, else toward the course's
// waypoint (passed within the arrival radius, in the horizontal plane), else slowing to a stop; by
// its thrusters (kinematic) or as the lab's rigid body.
void movePlayer(Agent& agent, const std::optional<PlayerInput>& keys, float dt) {
  Vehicle& vehicle = agent.vehicle;
  const bool rigid = agent.playerBody == PlayerBody::Rigid;
  // No course and no keys: the kinematic body brakes; the rigid one coasts, slowed by its drag.
  PlayerInput input{0.0f, rigid ? 0.0f : -1.0f};
  agent.goal = std::nullopt;
  if (keys) {
    input = *keys;
  } else if (!agent.course.empty()) {
    const glm::vec3 toWaypoint = agent.course[agent.courseIndex] - vehicle.position;
    if (std::hypot(toWaypoint.x, toWaypoint.z) < agent.arrivalRadius)
      agent.courseIndex = (agent.courseIndex + 1) % agent.course.size();
    agent.goal = agent.course[agent.courseIndex];
    input = rigid ? rigidCourseInput(agent.playerMotion, vehicle.position, *agent.goal, agent.rigidBody,
                                     agent.maxSpeed, dt)
                  : courseInput(agent.playerMotion, vehicle.position, *agent.goal, agent.playerLimits, dt);
  }
  vehicle.velocity = rigid ? rigidStep(agent.playerMotion, input, agent.rigidBody, agent.maxSpeed, dt)
                           : thrust(agent.playerMotion, input, agent.playerLimits, dt);
  advanceVehicle(vehicle, dt, agent.shared->space, agent.shared->space.wrap);
  // What a wall or the box stopped is lost.
  agent.playerMotion.speed = glm::length(vehicle.velocity);
  agent.playerMotion.velocity = vehicle.velocity;
  agent.heading = headingOf(agent.playerMotion.angle);
}

}  // namespace

struct AgentDirector::Runtime {
  Shared shared;
  std::vector<Agent> agents;
  std::vector<std::optional<glm::vec3>> staticGoals;  // per group, from [[targets]]
  std::vector<glm::vec3> staticPredators;             // [[predators]]
  // (group, agent) for each [[groups]] target_agent: the agent's position and velocity are the
  // group's target (sim::GroupSteering).
  std::vector<std::pair<std::uint32_t, std::size_t>> agentTargets;
  std::optional<PlayerInput> keys;  // the user's input for the players, once they steered
};

std::optional<AgentDirector> AgentDirector::fromScene(const sim::Scene& scene) {
  return create(scene, loadSceneAgents(scene));
}

std::optional<AgentDirector> AgentDirector::create(const sim::Scene& scene, SceneAgents agents) {
  if (agents.agents.empty()) return std::nullopt;
  return AgentDirector(scene, std::move(agents));
}

AgentDirector::AgentDirector(const sim::Scene& scene, SceneAgents agents)
    : runtime_(std::make_unique<Runtime>()) {
  Runtime& runtime = *runtime_;
  Shared& shared = runtime.shared;
  shared.obstacles = scene.obstacles;
  shared.navigation = std::move(agents.navigation);
  shared.space =
      AgentSpace{scene.model.worldMin, scene.model.worldMax,    scene.model.margin,
                 scene.model.dims,     shared.navigation.get(), scene.model.boundary == sim::Boundary::Wrap};
  const auto dims = static_cast<std::uint32_t>(shared.space.dims);
  shared.sightWorld = PerceptionWorld{shared.obstacles, nullptr, GridPlacement{}, dims};
  shared.hearingWorld = PerceptionWorld{{}, nullptr, GridPlacement{}, dims};
  if (shared.navigation) {
    const NavigationGrid& navigation = *shared.navigation;
    shared.paths = std::make_unique<PathFinder>(navigation.map);
    if (navigation.wallsFromMap) {
      shared.sightWorld.grid = &navigation.map;
      shared.sightWorld.placement = navigation.placement;
    }
    shared.hearingWorld.grid = &navigation.map;
    shared.hearingWorld.placement = navigation.placement;
  }
  runtime.staticGoals.assign(scene.groups, std::nullopt);
  for (const sim::Target& target : scene.targets)
    if (target.group < scene.groups) runtime.staticGoals[target.group] = target.position;
  runtime.staticPredators = scene.predators;
  for (const sim::GroupSpec& spec : scene.groupSpecs)
    if (const std::optional<std::size_t> agent = findAgent(agents.agents, spec.targetAgent))
      runtime.agentTargets.emplace_back(spec.group, *agent);

  runtime.agents.reserve(agents.agents.size());
  for (std::size_t i = 0; i < agents.agents.size(); ++i) {
    // One wander stream per agent, all from the scene's seed.
    const std::uint64_t seed = scene.seed ^ (0xD1B54A32D192ED03ull * (i + 1));
    runtime.agents.emplace_back(agents.agents[i], seed, shared);
  }
  for (Agent& agent : runtime.agents)
    if (agent.kind != AgentKind::Player && agent.machine.start(agent) != FsmStatus::Ok)
      throw std::logic_error("AgentDirector: an agent's machine did not start");
}

AgentDirector::~AgentDirector() = default;
AgentDirector::AgentDirector(AgentDirector&&) noexcept = default;
AgentDirector& AgentDirector::operator=(AgentDirector&&) noexcept = default;

std::vector<sim::BoidProbe> AgentDirector::probes() const {
  std::vector<sim::BoidProbe> out;
  out.reserve(runtime_->agents.size());
  for (const Agent& agent : runtime_->agents)
    out.push_back({flat(runtime_->shared, agent.vehicle.position),
                   agent.perceives ? std::max(agent.sight.viewDistance, agent.hearing.range) : 0.0f});
  return out;
}

void AgentDirector::update(double dt, std::span<const sim::GroupSummary> flock,
                           const sim::NearestBoids& boids, sim::StepInputs& inputs) {
  if (!(dt > 0.0) || !std::isfinite(dt)) throw std::invalid_argument("AgentDirector::update: dt must be > 0");
  Runtime& runtime = *runtime_;
  runtime.shared.players.clear();
  for (const Agent& agent : runtime.agents)
    if (agent.kind == AgentKind::Player)
      runtime.shared.players.emplace_back(agent.vehicle.position, agent.vehicle.velocity);
  for (std::size_t i = 0; i < runtime.agents.size(); ++i) {
    Agent& agent = runtime.agents[i];
    if (agent.kind == AgentKind::Player) {
      movePlayer(agent, runtime.keys, float(dt));
      continue;
    }
    agent.dt = dt;
    agent.flock = flock;
    agent.nearest = &boids;
    agent.index = i;
    agent.timeInState += dt;
    agent.route.advance(dt);
    agent.sinceAnyPerceived += dt;
    for (double& since : agent.sincePerceived) since += dt;
    perceive(agent);
    if (agent.machine.update(agent) != FsmStatus::Ok)
      throw std::logic_error("AgentDirector: an agent's machine is not started");
    moveVehicle(agent.vehicle, agent.heading, agent.steering, float(dt), runtime.shared.space);
    agent.nearest = nullptr;
  }

  for (std::size_t g = 0; g < inputs.goal.size(); ++g)
    inputs.goal[g] = g < runtime.staticGoals.size() ? runtime.staticGoals[g] : std::nullopt;
  inputs.predators = runtime.staticPredators;
  for (const Agent& agent : runtime.agents) {
    if (agent.kind == AgentKind::Predator)
      inputs.predators.push_back(agent.vehicle.position);
    else if (agent.kind == AgentKind::Leader && agent.group < inputs.goal.size())
      inputs.goal[agent.group] = agent.vehicle.position;
  }
  for (const auto& [group, agent] : runtime.agentTargets)
    if (group < inputs.steering.size()) {
      inputs.steering[group].target = runtime.agents[agent].vehicle.position;
      inputs.steering[group].targetVelocity = runtime.agents[agent].vehicle.velocity;
    }
}

void AgentDirector::steerPlayers(const PlayerInput& input) {
  runtime_->keys = input;
}

bool AgentDirector::playersSteered() const {
  return runtime_->keys.has_value();
}

const NavigationGrid* AgentDirector::navigation() const {
  return runtime_->shared.navigation.get();
}

std::size_t AgentDirector::size() const {
  return runtime_->agents.size();
}

AgentKind AgentDirector::kind(std::size_t agent) const {
  return runtime_->agents.at(agent).kind;
}

std::uint32_t AgentDirector::group(std::size_t agent) const {
  return runtime_->agents.at(agent).group;
}

glm::vec3 AgentDirector::position(std::size_t agent) const {
  return runtime_->agents.at(agent).vehicle.position;
}

std::string_view AgentDirector::name(std::size_t agent) const {
  return runtime_->agents.at(agent).name;
}

std::optional<glm::vec3> AgentDirector::goal(std::size_t agent) const {
  return runtime_->agents.at(agent).goal;
}

std::optional<AgentDirector::PerceivedTarget> AgentDirector::target(std::size_t agent) const {
  const std::optional<Target>& target = runtime_->agents.at(agent).target;
  if (!target) return std::nullopt;
  return PerceivedTarget{target->group, target->boid, target->position, target->perceivedNow};
}

glm::vec3 AgentDirector::velocity(std::size_t agent) const {
  return runtime_->agents.at(agent).vehicle.velocity;
}

glm::vec3 AgentDirector::heading(std::size_t agent) const {
  return runtime_->agents.at(agent).heading;
}

std::string_view AgentDirector::stateName(std::size_t agent) const {
  const Agent& state = runtime_->agents.at(agent);
  if (state.kind == AgentKind::Player) return toString(AgentKind::Player);
  return currentState(state).spec().name;
}

const SightParams& AgentDirector::sight(std::size_t agent) const {
  return runtime_->agents.at(agent).sight;
}

const HearingParams& AgentDirector::hearing(std::size_t agent) const {
  return runtime_->agents.at(agent).hearing;
}

std::optional<Action> AgentDirector::action(std::size_t agent) const {
  const Agent& state = runtime_->agents.at(agent);
  if (state.kind == AgentKind::Player) return std::nullopt;  // no state machine
  return currentState(state).spec().action;
}

std::vector<glm::vec3> AgentDirector::path(std::size_t agent) const {
  const Agent& state = runtime_->agents.at(agent);
  const PathFollower& route = state.route.path();
  if (!route.active()) return {};
  std::vector<glm::vec3> points{state.vehicle.position};
  const std::vector<glm::vec3>& waypoints = route.waypoints();
  points.insert(points.end(), waypoints.begin() + std::ptrdiff_t(route.next()), waypoints.end());
  return points;
}

}  // namespace murmur::ai

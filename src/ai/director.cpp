#include "ai/director.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include <glm/geometric.hpp>

#include "ai/fsm.hpp"
#include "ai/nav.hpp"
#include "ai/perception.hpp"
#include "ai/steering.hpp"

namespace murmur::ai {
namespace {

// Ids for the generic machine: the index in AgentSpec::states (StateSpec::transitions) plus one,
// since the value-initialised id is the machine's null id.
enum class StateId : std::uint32_t {};
enum class TransitionId : std::uint32_t {};

constexpr float kEpsilon = 1e-6f;
constexpr double kNever = std::numeric_limits<double>::infinity();
// Cells: how far from a goal that lies in a wall (a flock's centroid between two corridors) the planner
// looks for a free cell to plan to instead.
constexpr std::int32_t kGoalSearchRadius = 8;
// A path waypoint within this many cells counts as reached (the follower also passes on to the next
// one as soon as that one is in sight).
constexpr float kReachCells = 0.75f;

// What every agent of a director shares. Lives in the director's Runtime (on the heap), so the agents'
// pointers to it stay valid when the director moves.
struct Shared {
  glm::vec3 worldMin{0.0f};
  glm::vec3 worldMax{0.0f};
  float margin = 0.0f;  // world.margin: free-roaming actions steer back inside this band
  int dims = 3;
  std::vector<sim::Obstacle> obstacles;
  std::shared_ptr<const NavigationGrid> navigation;  // null: no grid
  std::unique_ptr<PathFinder> paths;                 // on navigation->map (scratch for A* and hearing)
  PerceptionWorld sightWorld;    // obstacles, plus the grid when its cells are map walls
  PerceptionWorld hearingWorld;  // the grid, whatever its cells stand for (sound goes around both)
};

// The boid an agent perceived last.
struct Target {
  std::uint32_t group = 0;
  std::uint32_t boid = 0;    // its id
  glm::vec3 position{0.0f};  // when last perceived
  glm::vec3 velocity{0.0f};  // when last perceived
  bool perceivedNow = false;
};

struct Agent;
using Machine = StateMachine<Agent, StateId, TransitionId>;

struct Agent {
  Agent(const AgentSpec& spec, std::uint64_t seed, Shared& shared);

  AgentKind kind;
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
  double timeInState = 0.0;

  // Perception, per group.
  std::vector<std::uint8_t> seen;
  std::vector<std::uint8_t> heard;
  std::vector<double> sincePerceived;  // seconds since each group was last perceived
  double sinceAnyPerceived = kNever;
  std::optional<Target> target;

  // Navigation.
  PathFollower path;
  std::optional<Cell> plannedGoal;  // the goal cell of the last plan; nullopt: plan at the next need
  double sincePlan = kNever;        // seconds since the last plan

  Machine machine;
};

glm::vec3 flat(const Shared& shared, glm::vec3 point) {
  if (shared.dims == 2) point.y = 0.0f;
  return point;
}

// Drops the path and its goal, so that the next travel plans at once (a new state or waypoint).
void forgetPath(Agent& agent) {
  agent.path.clear();
  agent.plannedGoal.reset();
}

// The point a Near / Far transition measures the distance to.
std::optional<glm::vec3> referencePoint(const TransitionSpec& transition, const Agent& agent) {
  if (transition.group) {
    if (*transition.group >= agent.flock.size() || agent.flock[*transition.group].count == 0) return std::nullopt;
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
      return transition.when == Condition::Near ? distance < transition.distance : distance > transition.distance;
    }
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

// The passable cell nearest to cell (itself when passable) within kGoalSearchRadius rings; ties go to
// the first in scan order, so the choice is deterministic.
std::optional<Cell> nearestPassable(const GridMap& map, Cell cell) {
  if (map.passable(cell)) return cell;
  for (std::int32_t ring = 1; ring <= kGoalSearchRadius; ++ring) {
    std::optional<Cell> best;
    std::int32_t bestSquared = std::numeric_limits<std::int32_t>::max();
    for (std::int32_t dy = -ring; dy <= ring; ++dy) {
      for (std::int32_t dx = -ring; dx <= ring; ++dx) {
        if (std::max(std::abs(dx), std::abs(dy)) != ring) continue;
        const Cell candidate{cell.x + dx, cell.y + dy};
        const std::int32_t squared = dx * dx + dy * dy;
        if (squared < bestSquared && map.passable(candidate)) {
          best = candidate;
          bestSquared = squared;
        }
      }
    }
    if (best) return best;
  }
  return std::nullopt;
}

// Plans an A* path from the agent's cell to goalCell, smoothed with line of sight, as world waypoints:
// the agent's position, the kept cell centres, and the goal itself when it lies in goalCell. Heights
// (3D) go linearly from the agent's to the goal's along the waypoints. No path: the path is cleared.
void plan(Agent& agent, Cell goalCell, const glm::vec3& goal) {
  const Shared& shared = *agent.shared;
  const NavigationGrid& navigation = *shared.navigation;
  agent.plannedGoal = goalCell;
  agent.sincePlan = 0.0;
  agent.path.clear();
  const glm::vec3 position = agent.vehicle.position;
  const Cell start = navigation.placement.cellAt(position);
  // Moves never enter blocked cells and starts are validated, so start is passable; a blocked start
  // would only make findPath report NoPath.
  const PathResult result = shared.paths->findPath(start, goalCell, searchOptions(navigation.connectivity));
  if (result.status == PathStatus::NoPath) return;
  const std::vector<Cell> cells = smoothPath(navigation.map, result.path);
  std::vector<glm::vec3> waypoints{position};
  const float steps = float(std::max<std::size_t>(cells.size() - 1, 1));
  for (std::size_t i = 1; i < cells.size(); ++i) {
    const float height = position.y + (goal.y - position.y) * (float(i) / steps);
    waypoints.push_back(navigation.placement.centerOf(cells[i], height));
  }
  if (result.status == PathStatus::Found && navigation.placement.cellAt(goal) == goalCell) {
    if (waypoints.size() > 1)
      waypoints.back() = goal;
    else
      waypoints.push_back(goal);
  }
  agent.path.assign(std::move(waypoints));
}

struct TravelParams {
  bool arriveAtEnd = false;  // stop on the goal (arrive) instead of running through it (seek)
  float slowRadius = 1.0f;   // units, > 0: arrive's slow-down radius at the goal
};

// The steering toward goal: `direct` (the action's own steering) when there is no grid or the goal
// is in clear line of sight; else along an A* path, replanned when the goal's cell changes or the
// next waypoint drops out of sight, at most every replanInterval seconds (at once for a new goal
// when there is no path). A goal in a wall is replaced by the nearest free cell.
glm::vec3 travel(Agent& agent, const glm::vec3& goal, const glm::vec3& direct, const TravelParams& params) {
  const Shared& shared = *agent.shared;
  if (!shared.navigation) return direct;
  const NavigationGrid& navigation = *shared.navigation;
  const glm::vec3 position = agent.vehicle.position;
  if (segmentClear(navigation.map, navigation.placement, position, goal)) {
    agent.path.clear();
    return direct;
  }
  const std::optional<Cell> goalCell = nearestPassable(navigation.map, navigation.placement.cellAt(goal));
  if (!goalCell) {
    agent.path.clear();
    return direct;
  }
  const bool due = agent.sincePlan >= agent.replanInterval;
  const bool newGoal = !agent.plannedGoal || *agent.plannedGoal != *goalCell;
  const bool replan =
      agent.path.active()
          ? due && (newGoal || !segmentClear(navigation.map, navigation.placement, position, agent.path.target()))
          : newGoal || due;
  if (replan) plan(agent, *goalCell, goal);
  if (!agent.path.active()) return direct;
  const PathFollowParams follow{kReachCells * navigation.placement.cellSize, params.slowRadius, params.arriveAtEnd};
  return agent.path.steer(agent.vehicle, follow, &navigation.map, navigation.placement);
}

// Back inside the world box, for the actions that go where no waypoint leads (flee, evade, wander):
// on each active axis, within world.margin of a side, a push inward growing to max speed at the side
// (the model's containment rule).
glm::vec3 containment(const Agent& agent) {
  const Shared& shared = *agent.shared;
  glm::vec3 push(0.0f);
  if (shared.margin <= 0.0f) return push;
  const glm::vec3& p = agent.vehicle.position;
  for (int axis = 0; axis < 3; ++axis) {
    if (shared.dims == 2 && axis == 1) continue;
    const float low = shared.worldMin[axis] + shared.margin;
    const float high = shared.worldMax[axis] - shared.margin;
    if (p[axis] < low) push[axis] += agent.vehicle.maxSpeed * (low - p[axis]) / shared.margin;
    if (p[axis] > high) push[axis] -= agent.vehicle.maxSpeed * (p[axis] - high) / shared.margin;
  }
  return push;
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
    forgetPath(agent);
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
      spec_.point ? spec_.point : (agent.target ? std::optional<glm::vec3>(agent.target->position) : std::nullopt);
  // The target's velocity where it is known now (a remembered one would lead the agent astray).
  const glm::vec3 targetVelocity =
      !spec_.point && agent.target && agent.target->perceivedNow ? agent.target->velocity : glm::vec3(0.0f);
  switch (spec_.action) {
    case Action::Rest:
      return -vehicle.velocity;
    case Action::Patrol: {
      if (glm::length(spec_.waypoints[patrolIndex_] - vehicle.position) < spec_.arrivalRadius) {
        patrolIndex_ = (patrolIndex_ + 1) % spec_.waypoints.size();
        forgetPath(agent);
      }
      const glm::vec3& waypoint = spec_.waypoints[patrolIndex_];
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
      return travel(agent, *goal, pursue(vehicle, *goal, targetVelocity, spec_.maxPrediction), {false, slowRadius});
    case Action::Flee:
      if (!goal) return -vehicle.velocity;
      return flee(vehicle, *goal) + containment(agent);
    case Action::Evade:
      if (!goal) return -vehicle.velocity;
      return evade(vehicle, *goal, targetVelocity, spec_.maxPrediction) + containment(agent);
    case Action::Wander:
      return agent.wander.steer(vehicle, agent.heading, float(agent.dt), agent.shared->dims, spec_.wander) +
             containment(agent);
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
                         transition.when == Condition::LostFor;
      const bool targetDistance =
          (transition.when == Condition::Near || transition.when == Condition::Far) && !transition.group;
      if (sense || targetDistance) return true;
    }
  }
  return false;
}

Agent::Agent(const AgentSpec& spec, std::uint64_t seed, Shared& sharedWorld)
    : kind(spec.kind),
      group(spec.group),
      vehicle{spec.position, glm::vec3(0.0f), spec.maxSpeed, spec.maxForce},
      maxSpeed(spec.maxSpeed),
      sight(spec.sight),
      hearing(spec.hearing),
      replanInterval(spec.replanInterval),
      perceives(usesPerception(spec)),
      shared(&sharedWorld),
      wander(seed) {
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
void perceive(Agent& agent) {
  const std::size_t groups = agent.flock.size();
  agent.seen.assign(groups, 0);
  agent.heard.assign(groups, 0);
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
      if (agent.target && agent.target->boid == sample.id && agent.target->group == g) sameBoid = target;
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
    if (agent.target && agent.target->group == g) sameGroup = perceivedOfGroup;
  }
  const std::optional<Target> chosen = sameBoid ? sameBoid : sameGroup ? sameGroup : nearest;
  if (chosen)
    agent.target = chosen;
  else if (agent.target)
    agent.target->perceivedNow = false;
}

// Applies the agent's steering, then moves it: clamped to the world box (the velocity along a clamped
// axis is dropped) and, on a grid, never into a blocked cell: a move that would cross one keeps only
// its x or only its z part (sliding along the wall, the larger part first), else the agent stops.
void move(Agent& agent) {
  const Shared& shared = *agent.shared;
  Vehicle& vehicle = agent.vehicle;
  const float dt = float(agent.dt);
  applySteering(vehicle, agent.steering, dt, shared.dims);
  const glm::vec3 from = vehicle.position;
  glm::vec3 to = from + vehicle.velocity * dt;
  for (int axis = 0; axis < 3; ++axis) {
    if (shared.dims == 2 && axis == 1) continue;
    if (to[axis] < shared.worldMin[axis] || to[axis] > shared.worldMax[axis]) {
      to[axis] = std::clamp(to[axis], shared.worldMin[axis], shared.worldMax[axis]);
      vehicle.velocity[axis] = 0.0f;
    }
  }
  if (shared.navigation) {
    const NavigationGrid& navigation = *shared.navigation;
    const auto clear = [&](const glm::vec3& point) {
      return segmentClear(navigation.map, navigation.placement, from, point);
    };
    if (!clear(to)) {
      const glm::vec3 alongX(to.x, to.y, from.z);
      const glm::vec3 alongZ(from.x, to.y, to.z);
      const bool xFirst = std::abs(vehicle.velocity.x) >= std::abs(vehicle.velocity.z);
      const glm::vec3& first = xFirst ? alongX : alongZ;
      const glm::vec3& second = xFirst ? alongZ : alongX;
      const int firstDropped = xFirst ? 2 : 0;
      if (clear(first)) {
        to = first;
        vehicle.velocity[firstDropped] = 0.0f;
      } else if (clear(second)) {
        to = second;
        vehicle.velocity[2 - firstDropped] = 0.0f;
      } else {
        to = glm::vec3(from.x, to.y, from.z);
        vehicle.velocity.x = 0.0f;
        vehicle.velocity.z = 0.0f;
      }
    }
  }
  vehicle.position = to;
  const float speed = glm::length(vehicle.velocity);
  if (speed > kEpsilon) agent.heading = vehicle.velocity / speed;
}

}  // namespace

struct AgentDirector::Runtime {
  Shared shared;
  std::vector<Agent> agents;
  std::shared_ptr<const sim::WallGrid> walls;
  std::vector<std::optional<glm::vec3>> staticGoals;  // per group, from [[targets]]
  std::vector<glm::vec3> staticPredators;             // [[predators]]
};

std::optional<AgentDirector> AgentDirector::fromScene(const sim::Scene& scene) {
  return create(scene, loadSceneAgents(scene));
}

std::optional<AgentDirector> AgentDirector::create(const sim::Scene& scene, SceneAgents agents) {
  if (agents.agents.empty()) return std::nullopt;
  return AgentDirector(scene, std::move(agents));
}

AgentDirector::AgentDirector(const sim::Scene& scene, SceneAgents agents) : runtime_(std::make_unique<Runtime>()) {
  Runtime& runtime = *runtime_;
  Shared& shared = runtime.shared;
  shared.worldMin = scene.model.worldMin;
  shared.worldMax = scene.model.worldMax;
  shared.margin = scene.model.margin;
  shared.dims = scene.model.dims;
  shared.obstacles = scene.obstacles;
  shared.navigation = std::move(agents.navigation);
  const auto dims = static_cast<std::uint32_t>(shared.dims);
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
  runtime.walls = std::move(agents.walls);
  runtime.staticGoals.assign(scene.groups, std::nullopt);
  for (const sim::Target& target : scene.targets)
    if (target.group < scene.groups) runtime.staticGoals[target.group] = target.position;
  runtime.staticPredators = scene.predators;

  runtime.agents.reserve(agents.agents.size());
  for (std::size_t i = 0; i < agents.agents.size(); ++i) {
    // One wander stream per agent, all from the scene's seed.
    const std::uint64_t seed = scene.seed ^ (0xD1B54A32D192ED03ull * (i + 1));
    runtime.agents.emplace_back(agents.agents[i], seed, shared);
  }
  for (Agent& agent : runtime.agents)
    if (agent.machine.start(agent) != FsmStatus::Ok)
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

void AgentDirector::update(double dt, std::span<const sim::GroupSummary> flock, const sim::NearestBoids& boids,
                           sim::StepInputs& inputs) {
  if (!(dt > 0.0) || !std::isfinite(dt)) throw std::invalid_argument("AgentDirector::update: dt must be > 0");
  Runtime& runtime = *runtime_;
  for (std::size_t i = 0; i < runtime.agents.size(); ++i) {
    Agent& agent = runtime.agents[i];
    agent.dt = dt;
    agent.flock = flock;
    agent.nearest = &boids;
    agent.index = i;
    agent.timeInState += dt;
    agent.sincePlan += dt;
    agent.sinceAnyPerceived += dt;
    for (double& since : agent.sincePerceived) since += dt;
    perceive(agent);
    if (agent.machine.update(agent) != FsmStatus::Ok)
      throw std::logic_error("AgentDirector: an agent's machine is not started");
    move(agent);
    agent.nearest = nullptr;
  }

  for (std::size_t g = 0; g < inputs.goal.size(); ++g)
    inputs.goal[g] = g < runtime.staticGoals.size() ? runtime.staticGoals[g] : std::nullopt;
  inputs.predators = runtime.staticPredators;
  inputs.walls = runtime.walls;
  for (const Agent& agent : runtime.agents) {
    if (agent.kind == AgentKind::Predator)
      inputs.predators.push_back(agent.vehicle.position);
    else if (agent.group < inputs.goal.size())
      inputs.goal[agent.group] = agent.vehicle.position;
  }
}

const std::shared_ptr<const sim::WallGrid>& AgentDirector::walls() const {
  return runtime_->walls;
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

glm::vec3 AgentDirector::velocity(std::size_t agent) const {
  return runtime_->agents.at(agent).vehicle.velocity;
}

glm::vec3 AgentDirector::heading(std::size_t agent) const {
  return runtime_->agents.at(agent).heading;
}

std::string_view AgentDirector::stateName(std::size_t agent) const {
  return currentState(runtime_->agents.at(agent)).spec().name;
}

Action AgentDirector::action(std::size_t agent) const {
  return currentState(runtime_->agents.at(agent)).spec().action;
}

std::vector<glm::vec3> AgentDirector::path(std::size_t agent) const {
  const Agent& state = runtime_->agents.at(agent);
  if (!state.path.active()) return {};
  std::vector<glm::vec3> points{state.vehicle.position};
  const std::vector<glm::vec3>& waypoints = state.path.waypoints();
  points.insert(points.end(), waypoints.begin() + std::ptrdiff_t(state.path.next()), waypoints.end());
  return points;
}

}  // namespace murmur::ai

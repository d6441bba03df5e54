// The public API (include/murmur/murmur.hpp) over a session::Session: the world and, from the first
// render(), its renderer, each GPU simulation in a GL context of its own.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "build_info.hpp"
#include "core/error.hpp"
#include "core/output_path.hpp"
#include "gpu/context.hpp"
#include "gpu/error.hpp"
#include "murmur/murmur.hpp"
#include "record/trajectory.hpp"
#include "render/offscreen.hpp"
#include "render/png_writer.hpp"
#include "session/recording.hpp"
#include "session/scene_source.hpp"
#include "session/session.hpp"
#include "sim/metrics.hpp"
#include "sim/param_table.hpp"
#include "sim/scene_loader.hpp"
#include "sim/state_csv.hpp"
#include "sim/worker_pool.hpp"

namespace murmur {
namespace {

std::atomic<LogFcn> logFcn{nullptr};

void log(std::string_view message) {
  if (const LogFcn fcn = logFcn.load()) fcn(message);
}

// The GL debug messages of a context, to the log hook (glDebugMessageCallback takes a C function).
void GLAD_API_PTR debugMessage(GLenum, GLenum, GLuint, GLenum severity, GLsizei length, const GLchar* text,
                               const void*) {
  if (severity == GL_DEBUG_SEVERITY_NOTIFICATION || text == nullptr) return;
  std::string_view message =
      length >= 0 ? std::string_view(text, std::size_t(length)) : std::string_view(text);
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.remove_suffix(1);
  log(fmt::format("gl: {}", message));
}

void hookDebugMessages() {
  if (glDebugMessageCallback == nullptr) return;
  glEnable(GL_DEBUG_OUTPUT);
  glDebugMessageCallback(debugMessage, nullptr);
}

std::unique_ptr<gpu::Context> makeContext(int device) {
  try {
    std::unique_ptr<gpu::Context> context = gpu::createHeadlessContext(device);
    hookDebugMessages();
    return context;
  } catch (const gpu::ContextError& e) {
    throw DeviceError(std::string("no GPU: ") + e.what());
  }
}

// The simulation's context current for one call, released after it so that the next call may come
// from another thread and another simulation's context may be current meanwhile.
class CurrentContext {
 public:
  explicit CurrentContext(gpu::Context* context) : context_(context) {
    if (context_ != nullptr) context_->makeCurrent();
  }
  CurrentContext(const CurrentContext&) = delete;
  CurrentContext& operator=(const CurrentContext&) = delete;
  ~CurrentContext() {
    if (context_ != nullptr) context_->release();
  }

 private:
  gpu::Context* context_;
};

// The integer parameters besides the table's floats, by key.
constexpr std::string_view kNeighboursKey = "perception.neighbours";

const sim::ModelParam& tableParam(std::string_view key) {
  for (const sim::ModelParam& param : sim::modelParams())
    if (param.key() == key) return param;
  throw InputError("", 0, std::string(key), "no such parameter (murmur::params() lists them; docs/model.md)");
}

static_assert(kMaxGroups == sim::kMaxStateGroups);

glm::vec3 toGlm(Vec3 v) {
  return {v.x, v.y, v.z};
}
Vec3 toVec3(glm::vec3 v) {
  return {v.x, v.y, v.z};
}

}  // namespace

void setLogFcn(LogFcn fcn) {
  logFcn.store(fcn);
}

Backend backendFromName(std::string_view name) {
  for (Backend backend : {Backend::Cpu, Backend::CpuNaive, Backend::Gpu, Backend::GpuExact, Backend::Auto})
    if (backendName(backend) == name) return backend;
  throw InputError("", 0, "backend", world::UnknownBackend(name).what());
}

std::string_view backendName(Backend backend) {
  switch (backend) {
    case Backend::Cpu:
      return "cpu";
    case Backend::CpuNaive:
      return "cpu-naive";
    case Backend::Gpu:
      return "gpu";
    case Backend::GpuExact:
      return "gpu-exact";
    case Backend::Auto:
      return "auto";
  }
  return "auto";
}

std::vector<std::string> scenes() {
  std::vector<std::string> names;
  for (const std::filesystem::path& path : session::shippedScenes()) names.push_back(path.stem().string());
  return names;
}

std::vector<ParamInfo> params() {
  std::vector<ParamInfo> rows;
  for (const sim::ModelParam& p : sim::modelParams())
    rows.push_back({p.key(), p.defaultValue, p.minimum, p.minimumIncluded, p.maximum, std::string(p.unit),
                    std::string(p.meaning)});
  rows.push_back(
      {std::string(kNeighboursKey), 0.0f, 0.0f, true, float(sim::kMaxTopologicalNeighbours), "1",
       "K: alignment and cohesion use the K nearest same-group neighbours within R (0: every one)"});
  return rows;
}

std::string version() {
  return fmt::format("{} ({})", buildVersion(), buildCommit());
}

struct Simulation::Impl {
  std::unique_ptr<gpu::Context>
      context;  // a gpu backend's from the start, a cpu one's from the first render()
  std::optional<session::Session> session;  // after context: destroyed before it
  std::shared_ptr<sim::FlockState> view = std::make_shared<sim::FlockState>();  // the views' state
  bool viewCurrent = false;
  std::optional<render::OffscreenTarget> target;
  bool framed = false;  // the camera has framed the scene for the target's size
  std::uint64_t lastFrameStep = 0;
  std::optional<record::TrajectoryWriter> recording;
  std::uint64_t recordEvery = 1;
  int device = -1;

  world::World& world() { return session->world(); }

  // The flock in id order, read once a step; StateError when it is not finite.
  const sim::FlockState& state() {
    if (viewCurrent) return *view;
    if (view.use_count() > 1) view = std::make_shared<sim::FlockState>();  // a held view keeps the old one
    world().backend().readState(*view);
    if (view->leader.size() != view->size()) view->leader.assign(view->size(), 0);  // no step yet
    for (std::size_t i = 0; i < view->size(); ++i) {
      const glm::vec3 p = view->position[i], v = view->velocity[i];
      if (!std::isfinite(p.x + p.y + p.z + v.x + v.y + v.z))
        throw StateError(fmt::format("boid {} has non-finite state at step {} ({}): the model diverged", i,
                                     session->steps(), world().scene().path));
    }
    viewCurrent = true;
    return *view;
  }
  void changed() {
    viewCurrent = false;
    framed = false;
  }
  void recordFrame() {
    const sim::FlockState& now = state();
    recording->append(session->steps(), double(session->steps()) * world().scene().model.dt, now);
  }
};

Simulation::Simulation(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Simulation::Simulation(Simulation&&) noexcept = default;
Simulation& Simulation::operator=(Simulation&&) noexcept = default;
Simulation::~Simulation() {
  if (impl_ == nullptr) return;
  const CurrentContext current(impl_->context.get());
  if (impl_->recording) {
    try {
      impl_->recording->commit();
    } catch (const std::exception& e) {
      log(fmt::format("the recording was not written: {}", e.what()));
    }
  }
  impl_->target.reset();
  impl_->session.reset();
}

namespace {

session::SceneOptions sceneOptions(std::string_view scene, std::string_view text, const Options& options) {
  if (options.threads < 0 || options.threads > sim::kMaxThreads)
    throw InputError("", 0, "threads",
                     fmt::format("{} is not in [0, {}]", options.threads, sim::kMaxThreads));
  if (options.boids > std::int64_t(sim::kMaxBoids) || options.boids < -1)
    throw InputError("", 0, "boids", fmt::format("{} is not in [0, {}]", options.boids, sim::kMaxBoids));
  if (options.seed < -1) throw InputError("", 0, "seed", fmt::format("{} is below 0", options.seed));
  session::SceneOptions out;
  out.scene = scene;
  out.text = text;
  if (options.boids >= 0) out.boids = options.boids;
  if (options.seed >= 0) out.seed = options.seed;
  out.dataDirs = options.dataDirectories;
  out.threads = options.threads;
  return out;
}

// A simulation of `scene` on options.backend: a gpu backend in a context of its own, made here.
std::unique_ptr<Simulation::Impl> makeImpl(const session::SceneOptions& scene, const Options& options) {
  auto impl = std::make_unique<Simulation::Impl>();
  impl->device = options.device;
  const bool gpu = options.backend == Backend::Gpu || options.backend == Backend::GpuExact;
  if (gpu || options.backend == Backend::Auto) {
    try {
      impl->context = makeContext(options.device);
    } catch (const DeviceError&) {
      if (gpu) throw;  // auto: the cpu backend
    }
  }
  std::unique_ptr<world::FlockBackend> made;
  {
    const CurrentContext current(impl->context.get());
    std::string autoChoice;
    made = session::makeBackendFor("backend", backendName(options.backend), options.device,
                                   impl->context.get(), &autoChoice, options.threads);
    if (!autoChoice.empty()) log(autoChoice);
  }
  if (made->glContext() == nullptr)
    impl->context.reset();  // a cpu backend: no context until the first render()
  const CurrentContext current(impl->context.get());
  impl->session.emplace(scene, std::move(made), options.device, nullptr);
  return impl;
}

}  // namespace

Simulation Simulation::fromScene(std::string_view nameOrPath, Backend backend) {
  Options options;
  options.backend = backend;
  return fromScene(nameOrPath, options);
}

Simulation Simulation::fromScene(std::string_view nameOrPath, const Options& options) {
  if (nameOrPath.empty()) throw InputError("", 0, "scene", "is empty: a shipped scene's name or a file");
  // TOML text has a line break, a table or a key; a name or a path has none of them.
  if (nameOrPath.find_first_of("\n[=") != std::string_view::npos) return fromToml(nameOrPath, options);
  return Simulation(makeImpl(sceneOptions(nameOrPath, "", options), options));
}

Simulation Simulation::fromToml(std::string_view text, const Options& options, std::string_view name) {
  // Empty text is a scene of defaults, as an empty file is.
  return Simulation(
      makeImpl(sceneOptions(name, text.empty() ? std::string_view("\n") : text, options), options));
}

void Simulation::step(std::uint64_t n) {
  Impl& d = *impl_;
  const CurrentContext current(d.context.get());
  for (std::uint64_t i = 0; i < n; ++i) {
    core::throwIfStopRequested();
    d.session->step();
    d.viewCurrent = false;
    if (d.recording && d.session->steps() % d.recordEvery == 0) d.recordFrame();
  }
}

void Simulation::reset() {
  const CurrentContext current(impl_->context.get());
  impl_->session->reset();
  impl_->changed();
}

void Simulation::respawn(std::uint32_t count) {
  Impl& d = *impl_;
  const CurrentContext current(d.context.get());
  d.session->respawn(count);
  d.changed();
}

void Simulation::setState(std::span<const Vec3> positions, std::span<const Vec3> velocities,
                          std::span<const std::uint32_t> groups) {
  Impl& d = *impl_;
  const CurrentContext current(d.context.get());
  sim::FlockState state;
  state.position.resize(positions.size());
  state.velocity.resize(velocities.size());
  std::transform(positions.begin(), positions.end(), state.position.begin(), toGlm);
  std::transform(velocities.begin(), velocities.end(), state.velocity.begin(), toGlm);
  state.group.assign(groups.begin(), groups.end());
  d.session->setInitial(std::move(state), "setState");
  d.changed();
}

std::shared_ptr<const void> Simulation::holdViews() {
  const CurrentContext current(impl_->context.get());
  impl_->state();
  return impl_->view;
}

std::span<const Vec3> Simulation::positions() {
  const CurrentContext current(impl_->context.get());
  const std::vector<glm::vec3>& p = impl_->state().position;
  return {reinterpret_cast<const Vec3*>(p.data()), p.size()};
}

std::span<const Vec3> Simulation::velocities() {
  const CurrentContext current(impl_->context.get());
  const std::vector<glm::vec3>& v = impl_->state().velocity;
  return {reinterpret_cast<const Vec3*>(v.data()), v.size()};
}

std::span<const std::uint32_t> Simulation::groups() {
  const CurrentContext current(impl_->context.get());
  return impl_->state().group;
}

std::span<const std::uint8_t> Simulation::leaders() {
  const CurrentContext current(impl_->context.get());
  return impl_->state().leader;
}

std::size_t Simulation::size() const {
  return impl_->session->world().initial().size();
}
std::uint32_t Simulation::groupCount() const {
  return impl_->session->world().initial().groups;
}
std::uint64_t Simulation::steps() const {
  return impl_->session->steps();
}
double Simulation::time() const {
  return double(impl_->session->steps()) * double(impl_->session->world().scene().model.dt);
}

float Simulation::param(std::string_view key) const {
  const sim::ModelParams& model = impl_->session->world().scene().model;
  if (key == kNeighboursKey) return float(model.topologicalNeighbours);
  return tableParam(key).field.of(model);
}

void Simulation::setParam(std::string_view key, float value) {
  world::World& world = impl_->world();
  sim::Scene changed = world.scene();
  const std::string name(key);
  if (key == kNeighboursKey) {
    if (!(value >= 0.0f && value <= float(sim::kMaxTopologicalNeighbours)) || value != std::floor(value))
      throw InputError(changed.path, 0, name,
                       fmt::format("{:g} is refused: must be an integer in [0, {}]", value,
                                   sim::kMaxTopologicalNeighbours));
    changed.model.topologicalNeighbours = static_cast<std::uint32_t>(value);
  } else {
    const sim::ModelParam& row = tableParam(key);
    if (!row.inRange(value))
      throw InputError(changed.path, 0, name, fmt::format("{:g} is refused: {}", value, row.rangeRule()));
    row.field.of(changed.model) = value;
  }
  sim::validateScene(changed);  // the limits between parameters (InputError naming the key)
  world.model() = changed.model;
}

void Simulation::setGoal(std::uint32_t group, std::optional<Vec3> goal) {
  world::World& world = impl_->world();
  if (group >= world.inputs().goal.size())
    throw InputError("", 0, "group",
                     fmt::format("{} is not below the scene's {} groups", group, world.inputs().goal.size()));
  if (goal) {
    sim::Scene changed = world.scene();
    changed.targets = {sim::Target{group, toGlm(*goal)}};
    sim::validateScene(changed);  // finite, within the limits
  }
  world.setGoal(group, goal ? std::optional(toGlm(*goal)) : std::nullopt);
}

void Simulation::setPredators(std::span<const Vec3> points) {
  world::World& world = impl_->world();
  sim::Scene changed = world.scene();
  changed.predators.assign(points.size(), glm::vec3(0.0f));
  std::transform(points.begin(), points.end(), changed.predators.begin(), toGlm);
  sim::validateScene(changed);  // finite, within the limits, the flee force bounded
  world.setPredators(std::move(changed.predators));
}

Measures Simulation::measure() {
  Impl& d = *impl_;
  const CurrentContext current(d.context.get());
  const sim::FlockState& state = d.state();
  const sim::ModelParams& model = d.world().scene().model;
  const sim::FlockMetrics m = sim::measureFlock(model, state);
  const sim::FlockShape shape = sim::measureFlockShape(model, state);
  Measures out;
  out.localPolarization = m.localPolarization;
  out.meanSpeed = m.meanSpeed;
  out.minSpeed = m.minSpeed;
  out.maxSpeed = m.maxSpeed;
  out.meanNearestDistance = m.meanNearestDistance;
  out.minPairDistance = m.minPairDistance;
  out.nearestAlongHeading = m.nearestAlongHeading;
  out.nonFinite = m.nonFinite;
  out.flocks = shape.flocks;
  out.largestFraction = shape.largestFraction;
  out.polarization = shape.polarization;
  for (int axis = 0; axis < 3; ++axis) out.extents[axis] = shape.extents[axis];
  out.thinness = shape.thinness;
  out.widthRatio = shape.widthRatio;
  out.thinAxisTilt = shape.thinAxisTilt;
  for (const sim::GroupSummary& g : sim::summarizeGroups(state))
    out.groups.push_back({g.count, g.leaders, toVec3(g.centroid), toVec3(g.meanVelocity)});
  return out;
}

std::vector<AgentState> Simulation::agents() const {
  std::vector<AgentState> out;
  const ai::AgentDirector* director = impl_->session->world().director();
  for (std::size_t i = 0; director != nullptr && i < director->size(); ++i)
    out.push_back({std::string(director->name(i)), std::string(ai::toString(director->kind(i))),
                   std::string(director->stateName(i)), director->group(i), toVec3(director->position(i)),
                   toVec3(director->velocity(i))});
  return out;
}

std::vector<std::uint8_t> Simulation::render(int width, int height) {
  Impl& d = *impl_;
  if (width < 16 || height < 16 || width > 16384 || height > 16384)
    throw InputError("", 0, "render",
                     fmt::format("{}x{}: each side must be between 16 and 16384 pixels", width, height));
  if (!d.context) d.context = makeContext(d.device);
  const CurrentContext current(d.context.get());
  d.session->attachContext(*d.context);
  if (!d.target || d.target->width() != width || d.target->height() != height) {
    d.target.emplace(width, height);
    d.framed = false;
  }
  const double dt = d.world().scene().model.dt;
  d.session->frameOptions().atmosphere.time = float(double(d.session->steps()) * dt);
  if (!d.framed) {
    d.session->camera().setViewport(width, height);
    d.session->frameScene();
    d.session->moveCamera(0.0);
    d.framed = true;
  } else {
    d.session->moveCamera(double(d.session->steps() - std::min(d.lastFrameStep, d.session->steps())) * dt);
  }
  d.lastFrameStep = d.session->steps();
  d.target->bind();
  d.session->render();
  return d.target->readRgba();
}

void Simulation::saveFrame(const std::string& path, int width, int height) {
  core::checkOutputFile(path, "saveFrame");
  const std::vector<std::uint8_t> rgba = render(width, height);
  render::writePng(path, width, height, rgba, "saveFrame", impl_->session->pictureTags());
}

void Simulation::saveScene(const std::string& path) const {
  impl_->session->saveScene(path, "saveScene");
}

void Simulation::record(const std::string& path, std::uint64_t every) {
  Impl& d = *impl_;
  if (every < 1) throw InputError("", 0, "every", "must be >= 1");
  if (d.recording)
    throw InputError("", 0, "record", "a recording is already running (stopRecording() first)");
  const CurrentContext current(d.context.get());
  const world::World& world = d.world();
  d.recording.emplace(path, "record", session::trajectoryInfo(world), d.state().size());
  d.recordEvery = every;
  try {
    d.recordFrame();
  } catch (...) {
    d.recording.reset();
    throw;
  }
}

void Simulation::stopRecording() {
  Impl& d = *impl_;
  if (!d.recording) return;
  std::optional<record::TrajectoryWriter> recording = std::move(d.recording);
  d.recording.reset();
  recording->commit();
}

std::string Simulation::backend() const {
  return std::string(impl_->session->world().backend().name());
}
std::string Simulation::device() const {
  return impl_->session->world().backend().device();
}
std::string Simulation::scenePath() const {
  return impl_->session->world().scene().path;
}

}  // namespace murmur

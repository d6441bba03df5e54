#pragma once
// Murmur's public API: a flock simulation made from a scene, stepped on a backend (the CPU
// reference or the GPU's compute pipeline), read in place, changed between steps, measured,
// recorded and drawn. docs/api.md describes every call with its units and limits.
//
//   auto sim = murmur::Simulation::fromScene("free", murmur::Backend::Cpu);  // a name or a path
//   sim.step(5);
//   std::size_t n = sim.positions().size();  // a view: .size(), .data(), [i].x / .y / .z
//
// A Simulation is used from one thread at a time (any thread: a GPU simulation makes its own
// OpenGL context current for the call and releases it after). Several may live in one process.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "murmur/error.hpp"
#include "murmur/export.hpp"

namespace murmur {

// A position or velocity: world units (a body length is boids.body_length), units a second.
// Laid out as three packed floats, so a view of n of them is 3n floats.
struct Vec3 {
  float x = 0.0f, y = 0.0f, z = 0.0f;
};
static_assert(sizeof(Vec3) == 3 * sizeof(float));

// Group ids of a state are below this (setState).
inline constexpr std::uint32_t kMaxGroups = 1024;

enum class Backend {
  Cpu,       // the CPU reference, uniform-grid search ("cpu")
  CpuNaive,  // the CPU reference, all pairs ("cpu-naive")
  Gpu,       // OpenGL compute shaders, fast arithmetic ("gpu")
  GpuExact,  // compute shaders rounding as the CPU does: bit for bit with cpu on llvmpipe ("gpu-exact")
  Auto,      // gpu on a hardware GL device, else cpu ("auto")
};
// "cpu", "cpu-naive", "gpu", "gpu-exact", "auto"; InputError (key "backend") for any other name.
MURMUR_API Backend backendFromName(std::string_view name);
MURMUR_API std::string_view backendName(Backend backend);

struct Options {
  Backend backend = Backend::Auto;
  int device = -1;  // EGL device index for the gpu backends (`murmur devices`); -1: the first that works
  int threads = 0;  // CPU backend threads; 0: one per hardware thread
  // Boid count instead of the scene's boids.count (and of its boids.gpu_count on a gpu backend); -1: the
  // scene's.
  std::int64_t boids = -1;
  std::int64_t seed = -1;  // spawn seed instead of the scene's sim.seed; -1: the scene's
  // Where a scene's relative data paths (a [navigation] map) are looked for after the scene's own
  // directory, before $MURMUR_DATA_DIR and the installed share/murmur/data.
  std::vector<std::string> dataDirectories;
};

// One row of docs/model.md's parameter table.
struct ParamInfo {
  std::string key;  // "perception.radius"
  float defaultValue;
  float minimum;
  bool minimumIncluded;  // [minimum, ...] or (minimum, ...]
  float maximum;         // included; infinity where there is no upper limit
  std::string unit;      // "1" for a dimensionless factor
  std::string meaning;
};

// What `murmur run --every` measures (docs/model.md, Measures).
struct GroupMeasure {
  std::uint32_t boids = 0;
  std::uint32_t leaders = 0;  // the group's emergent leaders in the last step (docs/model.md, step 8)
  Vec3 centroid, meanVelocity;
};
struct Measures {
  double localPolarization =
      0.0;  // mean |mean heading| of each boid's same-group neighbourhood within R, 0..1
  double meanSpeed = 0.0, minSpeed = 0.0, maxSpeed = 0.0;   // units a second
  double meanNearestDistance = 0.0, minPairDistance = 0.0;  // world units
  double nearestAlongHeading = 0.0;  // mean |cos| of the nearest neighbour's bearing: 0.5 all around
  std::uint64_t nonFinite = 0;       // boids with a NaN or infinite component
  std::size_t flocks = 0;            // connected components of the graph of pairs closer than R
  double largestFraction = 0.0;      // boids in the largest flock / boids
  double polarization = 0.0;         // |mean heading| over the largest flock, 0..1
  double extents[3] = {0.0, 0.0,
                       0.0};  // std. deviations along its principal axes, longest first, world units
  double thinness = 0.0;      // extents[2] / extents[0]
  double widthRatio = 0.0;    // extents[1] / extents[0]
  double thinAxisTilt = 0.0;  // degrees between the shortest principal axis and the vertical (y)
  std::vector<GroupMeasure> groups;
};

// A CPU agent of the scene's [[agents]] (docs/ai.md).
struct AgentState {
  std::string name;   // the scene's name for it, or ""
  std::string kind;   // "leader", "predator", "player"
  std::string state;  // its state machine's state: "patrol", "dive", ...
  std::uint32_t group = 0;
  Vec3 position, velocity;
};

// Receives what Murmur would otherwise print: its choices (what auto picked) and the GL debug
// messages of its contexts. One hook for the process; null: nothing is reported.
using LogFcn = void (*)(std::string_view message);
MURMUR_API void setLogFcn(LogFcn fcn);

// The shipped scenes' names ("free", "murmuration", ...), sorted.
MURMUR_API std::vector<std::string> scenes();
// The model's parameters, in docs/model.md's order.
MURMUR_API std::vector<ParamInfo> params();
// The build: version and commit ("0.1.0 (abc1234)").
MURMUR_API std::string version();

class MURMUR_API Simulation {
 public:
  // A shipped scene's name, a scene file's path (as `murmur run --scene`), or TOML text. InputError
  // on a bad scene, DeviceError when a gpu backend has no device.
  static Simulation fromScene(std::string_view nameOrPath, Backend backend = Backend::Auto);
  static Simulation fromScene(std::string_view nameOrPath, const Options& options);
  // `name` stands for the file in messages; relative data paths are looked for in options.dataDirectories.
  static Simulation fromToml(std::string_view text, const Options& options = {},
                             std::string_view name = "<toml>");

  Simulation(Simulation&&) noexcept;
  Simulation& operator=(Simulation&&) noexcept;
  ~Simulation();

  // n steps of the scene's dt (agents, then boids). A recording (record()) takes a frame every K
  // steps. StateError at the first step whose flock is non-finite.
  void step(std::uint64_t n = 1);
  // The initial flock again (as spawned, or as setState() gave it) and the agents at their start.
  void reset();
  // A new flock of `count` boids spawned as the scene says.
  void respawn(std::uint32_t count);
  // A flock from memory, as `murmur run --init` reads it from a file: n boids in id order, groups
  // below kMaxGroups, finite, inside the world box, velocities within the model's limits (InputError
  // naming the array, the boid and the limit; nothing changes then). It becomes the initial flock.
  void setState(std::span<const Vec3> positions, std::span<const Vec3> velocities,
                std::span<const std::uint32_t> groups);

  // The flock in id order. Views into the simulation, valid until the next call that steps or
  // changes it (step, reset, respawn, setState, another backend) or the simulation's end. No
  // allocation per call; on a gpu backend the first read after a step downloads the state once.
  std::span<const Vec3> positions();
  std::span<const Vec3> velocities();
  std::span<const std::uint32_t> groups();
  // 1: an emergent leader in the last step; all 0 where the scene does not steer by them
  std::span<const std::uint8_t> leaders();
  // Keeps the memory the views point at alive and unchanged while the token is held, also past the
  // next step and past the simulation's end: a read after a step then fills a new buffer. (The
  // Python module's arrays each hold one.)
  std::shared_ptr<const void> holdViews();
  std::size_t size() const;  // boids
  std::uint32_t groupCount() const;
  std::uint64_t steps() const;  // since the flock (re)started
  double time() const;          // simulated seconds since then

  // A parameter by docs/model.md's dotted key ("perception.neighbours"). setParam validates the
  // value against the table and the other parameters (InputError naming the key, the value and the
  // range; nothing changes then); it applies from the next step.
  float param(std::string_view key) const;
  void setParam(std::string_view key, float value);

  // Group `group`'s goal (docs/model.md, step 8b), or none; the predators' points (step 8d). Until
  // the flock restarts; a scene's agents overwrite what they steer.
  void setGoal(std::uint32_t group, std::optional<Vec3> goal);
  void setPredators(std::span<const Vec3> points);

  Measures measure();
  std::vector<AgentState> agents() const;

  // The frame as `murmur demo --headless` draws it (the scene's camera and look, no stats corner),
  // RGBA, rows from the top, width x height x 4 bytes. Needs OpenGL (DeviceError without).
  std::vector<std::uint8_t> render(int width, int height);
  // The same frame as a PNG (written atomically: OutputError on failure, nothing left), its text
  // chunks naming the scene, seed, step, backend, boid count and commit.
  void saveFrame(const std::string& path, int width = 1280, int height = 720);
  // The scene as it runs (its parameters as setParam left them, the count, the seed) as a scene
  // file, written atomically: fromScene(path) starts the same flock under the same model.
  void saveScene(const std::string& path) const;

  // Records the flock every `every` steps (this state first) into an HDF5 file in the H5MD
  // layout (docs/api.md, Trajectories): positions, velocities, groups, leader flags, steps and
  // times, the scene text and the build. Written to a temporary and renamed into place by
  // stopRecording() (or the simulation's end); on an error or a stop nothing is left.
  void record(const std::string& path, std::uint64_t every = 1);
  void stopRecording();

  std::string backend() const;  // "cpu", "gpu-exact", ...
  std::string device() const;   // "CPU, 2 threads", GL_RENDERER
  std::string scenePath() const;

  struct Impl;  // the library's

 private:
  explicit Simulation(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace murmur

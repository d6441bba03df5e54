#pragma once
// Flock trajectories as HDF5 files in the H5MD 1.1 layout (h5md.nongnu.org), which h5py and trajectory
// tools read: particles/flock/{position,velocity,species,leader} as time-dependent elements (step,
// time, value; rows in boid id order), the world box, and the run's parameters (the scene, the build).
// The file goes through core::TemporaryOutput: it appears at its path only when committed complete.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <glm/vec3.hpp>

#include "sim/flock.hpp"

namespace murmur::record {

// What a trajectory records besides the frames.
struct TrajectoryInfo {
  std::string scenePath;               // the scene file
  std::string sceneText;               // the scene's TOML text as loaded
  std::string build;                   // the build's commit/version string
  std::string backend;                 // "cpu", "gpu", ...
  std::string device;                  // "CPU, 2 threads", GL_RENDERER
  double dt = 0;                       // seconds per step
  glm::vec3 worldMin{0}, worldMax{0};  // the world box
  bool periodic = false;               // wrap boundaries
  bool twoD = false;                   // 2D world (the box's dimension stays 3; y is 0)
};

// Writes one trajectory, frame by frame: memory stays bounded by one frame whatever the length. Move-only;
// the destructor closes the file and removes the temporary unless committed. Write errors are
// OutputError naming the path and option, a stop request (SIGINT, SIGTERM) is StopRequested; either
// leaves no temporary and an existing file at the path as it was.
class TrajectoryWriter {
 public:
  // Checks path like core::checkOutputFile (InputError naming option), creates the temporary beside
  // it and writes the metadata; boids: the flock size, fixed for the file.
  TrajectoryWriter(std::string path, std::string option, const TrajectoryInfo& info, std::size_t boids);
  TrajectoryWriter(TrajectoryWriter&&) noexcept;
  TrajectoryWriter& operator=(TrajectoryWriter&&) noexcept;
  ~TrajectoryWriter();

  // Appends one frame: positions, velocities, leader flags and groups, with its step and time.
  // std::invalid_argument unless each of the state's arrays holds `boids` entries.
  void append(std::uint64_t step, double time, const sim::FlockState& state);
  std::uint64_t frames() const;
  // Closes the file (each step checked), then flushes it to the disk and renames it over the path.
  void commit();

  // The bytes a file of `frames` frames of `boids` boids takes, within about 10%, the scene's text
  // not counted: for refusing a run up front that would not fit.
  static std::uint64_t estimateBytes(std::uint64_t boids, std::uint64_t frames);
  // Refuses (InputError naming `option`) a trajectory of `frames` frames whose estimate is more than
  // the space free where `path` will be written, unless `force`: a run is not started that could
  // only end on a full disk.
  static void checkSize(const std::string& path, const std::string& option, std::uint64_t boids,
                        std::uint64_t frames, bool force);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace murmur::record

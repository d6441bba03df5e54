#pragma once
// One-step parity between two backends run from the same state: the errors, and for each boid
// over tolerance whether a neighbour lies within float rounding of a perception edge (R, Rs, the
// field-of-view cone, the 45-degree leader cone) or an obstacle within rounding of an avoidance
// decision (inside, detection box), where the two may legitimately decide differently.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/flock.hpp"
#include "sim/params.hpp"

namespace murmur::sim {

struct ParityTolerance {
  double position = 1e-4;  // units
  double velocity = 1e-3;  // units/s
  // Largest share of boids over tolerance that an edge may explain before parity fails.
  double explainedShare = 0.01;
};

struct ParityReport {
  std::size_t boids = 0;
  double maxPositionError = 0.0;
  double meanPositionError = 0.0;
  double maxVelocityError = 0.0;
  double meanVelocityError = 0.0;
  std::size_t overTolerance = 0;
  std::size_t explainedByEdge = 0;         // over tolerance, on a perception or avoidance edge
  std::vector<std::uint32_t> unexplained;  // ids over tolerance with no such neighbour
  bool groupsOrSizeDiffer = false;

  bool passed(const ParityTolerance& tolerance) const {
    return !groupsOrSizeDiffer && unexplained.empty() &&
           double(explainedByEdge) <= tolerance.explainedShare * double(boids);
  }
};

// initial: the common starting state; reference and candidate: each backend's state one step later.
ParityReport compareOneStep(const ModelParams& params, const StepInputs& inputs, const FlockState& initial,
                            const FlockState& reference, const FlockState& candidate,
                            const ParityTolerance& tolerance = {});

// True when some j has |d_ij| within `slack` of R or Rs, or its direction within `slack` (in
// distance units) of the field-of-view or 45-degree front cone of boid i. Exposed for tests.
bool hasNeighbourOnPerceptionEdge(const ModelParams& params, const FlockState& state, std::uint32_t i,
                                  double slack);

// True when an obstacle is within `slack` of an avoidance decision of boid i: its clearance
// surface (inside rule), the detection box's side (|b| = re), front (t = 0) or end (t = L + re).
bool hasObstacleOnDetectionEdge(const ModelParams& params, const StepInputs& inputs, const FlockState& state,
                                std::uint32_t i, double slack);

// True when boid i, one of its wall probes or its next position `next` (the solid-wall test) lies
// within `slack` of a wall-cell boundary, where the two backends may place it in different cells.
bool hasWallProbeOnCellEdge(const ModelParams& params, const StepInputs& inputs, const FlockState& state,
                            std::uint32_t i, double slack, std::optional<glm::vec3> next = std::nullopt);

}  // namespace murmur::sim

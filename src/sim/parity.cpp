#include "sim/parity.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "sim/rules.hpp"

namespace murmur::sim {
namespace {

// Rounding of an offset between two coordinates of this world: a few float ulps of its largest
// coordinate, with room for the fused multiply-adds and reassociation a GPU compiler may do.
double edgeSlack(const ModelParams& params) {
  const glm::vec3 extent = glm::max(glm::abs(params.worldMin), glm::abs(params.worldMax));
  const double scale = std::max({1.0f, extent.x, extent.y, extent.z, params.searchRadius()});
  return 64.0 * double(std::numeric_limits<float>::epsilon()) * scale;
}

}  // namespace

bool hasNeighbourOnPerceptionEdge(const ModelParams& params, const FlockState& state, std::uint32_t i,
                                  double slack) {
  const double r = params.perceptionRadius, rs = params.separationRadius, rl = params.leaderRadius;
  const double cosHalfFov = std::cos(double(params.fovDegrees) * 0.5 * std::numbers::pi / 180.0);
  const bool limitedFov = params.fovDegrees < 360.0f;
  const glm::dvec3 f(stateHeading(state, i));
  const glm::dvec3 size(params.worldSize());
  for (std::size_t j = 0; j < state.size(); ++j) {
    if (j == i) continue;
    glm::dvec3 d = glm::dvec3(state.position[j]) - glm::dvec3(state.position[i]);
    if (params.boundary == Boundary::Wrap) d -= size * glm::floor(d / size + 0.5);
    const double dist = glm::length(d);
    if (dist > std::max(r, rl) + slack) continue;
    if (std::abs(dist - r) <= slack || std::abs(dist - rs) <= slack || std::abs(dist - rl) <= slack)
      return true;
    // Distance of j from the cone surface, approximately: |along - dist cos| is that distance
    // scaled by sin of the half-angle, at most 1.
    const double along = glm::dot(f, d);
    if (limitedFov && std::abs(along - dist * cosHalfFov) <= slack) return true;
    if (dist <= rl + slack && std::abs(along - dist * std::numbers::sqrt2 / 2) <= slack) return true;
  }
  return false;
}

bool hasObstacleOnDetectionEdge(const ModelParams& params, const StepInputs& inputs, const FlockState& state,
                                std::uint32_t i, double slack) {
  const glm::dvec3 p(state.position[i]);
  const glm::dvec3 f(stateHeading(state, i));
  const double reach =
      double(params.perceptionRadius) + glm::length(glm::dvec3(state.velocity[i])) * params.lookahead;
  const glm::dvec3 size(params.worldSize());
  for (std::size_t k = 0; k < inputs.obstacleCenter.size(); ++k) {
    glm::dvec3 a = glm::dvec3(inputs.obstacleCenter[k]) - p;
    if (params.boundary == Boundary::Wrap) a -= size * glm::floor(a / size + 0.5);  // the minimum image
    if (params.dims == 2) a.y = 0.0;
    const double re = double(inputs.obstacleRadius[k]) + params.radius;
    const double t = glm::dot(a, f);
    const double b = glm::length(a - t * f);
    if (std::abs(glm::length(a) - re) <= slack || std::abs(b - re) <= slack || std::abs(t) <= slack ||
        std::abs(t - (reach + re)) <= slack)
      return true;
  }
  return false;
}

bool hasWallProbeOnCellEdge(const ModelParams& params, const StepInputs& inputs, const FlockState& state,
                            std::uint32_t i, double slack, std::optional<glm::vec3> next) {
  if (inputs.walls == nullptr || inputs.walls->blocked.empty()) return false;
  const WallGrid& walls = *inputs.walls;
  const glm::dvec3 p(state.position[i]);
  glm::dvec3 ahead(stateHeading(state, i));
  ahead.y = 0.0;
  const double aheadLen = glm::length(ahead);
  const double reach =
      double(params.perceptionRadius) + glm::length(glm::dvec3(state.velocity[i])) * params.lookahead;
  auto nearCellEdge = [&](glm::dvec3 q) {
    const double fx = (q.x - walls.origin.x) / walls.cellSize, fz = (q.z - walls.origin.y) / walls.cellSize;
    const double edge = slack / walls.cellSize;
    return std::abs(fx - std::round(fx)) <= edge || std::abs(fz - std::round(fz)) <= edge;
  };
  if (nearCellEdge(p) || (next && nearCellEdge(glm::dvec3(*next)))) return true;
  if (aheadLen < 1e-6) return false;
  for (int k = 1; k <= kWallProbes; ++k)
    if (nearCellEdge(p + ahead / aheadLen * (reach * k / kWallProbes))) return true;
  return false;
}

ParityReport compareOneStep(const ModelParams& params, const StepInputs& inputs, const FlockState& initial,
                            const FlockState& reference, const FlockState& candidate,
                            const ParityTolerance& tolerance) {
  ParityReport report;
  report.boids = reference.size();
  if (reference.size() != candidate.size() || reference.size() != initial.size() ||
      reference.group != candidate.group) {
    report.groupsOrSizeDiffer = true;
    return report;
  }
  const double slack = edgeSlack(params);
  double positionSum = 0.0, velocitySum = 0.0;
  for (std::size_t i = 0; i < reference.size(); ++i) {
    const double dp = glm::length(glm::dvec3(reference.position[i]) - glm::dvec3(candidate.position[i]));
    const double dv = glm::length(glm::dvec3(reference.velocity[i]) - glm::dvec3(candidate.velocity[i]));
    positionSum += dp;
    velocitySum += dv;
    report.maxPositionError = std::max(report.maxPositionError, std::isfinite(dp) ? dp : INFINITY);
    report.maxVelocityError = std::max(report.maxVelocityError, std::isfinite(dv) ? dv : INFINITY);
    if (dp > tolerance.position || dv > tolerance.velocity || !std::isfinite(dp + dv)) {
      ++report.overTolerance;
      if (std::isfinite(dp + dv) &&
          (hasNeighbourOnPerceptionEdge(params, initial, static_cast<std::uint32_t>(i), slack) ||
           hasObstacleOnDetectionEdge(params, inputs, initial, static_cast<std::uint32_t>(i), slack) ||
           hasWallProbeOnCellEdge(params, inputs, initial, static_cast<std::uint32_t>(i), slack,
                                  reference.position[i])))
        ++report.explainedByEdge;
      else
        report.unexplained.push_back(static_cast<std::uint32_t>(i));
    }
  }
  if (report.boids > 0) {
    report.meanPositionError = positionSum / double(report.boids);
    report.meanVelocityError = velocitySum / double(report.boids);
  }
  return report;
}

}  // namespace murmur::sim

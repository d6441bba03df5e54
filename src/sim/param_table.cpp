#include "sim/param_table.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/scene_loader.hpp"
#include "sim/starling_model.hpp"

namespace murmur::sim {
namespace {

constexpr float kMagnitudeLimit = float(kMaxMagnitude);  // lengths, speeds, forces: docs/model.md, Limits
constexpr bool kIncluded = true, kExcluded = false;
// The upper limit of perception.comfort_multiplier (the force bound, docs/model.md Limits, counts it too).
constexpr float kMaxComfortMultiplier = 1000.0f;
// The upper limit of boids.turn_rate, degrees/s: any rate of at least 180 / dt turns the heading
// onto the velocity in one step, so a larger limit would only admit the same model.
constexpr float kMaxTurnRate = 1e6f;

constexpr ParamField member(float ModelParams::*field) {
  return {field, nullptr};
}
constexpr ParamField weight(float Weights::*field) {
  return {nullptr, field};
}

// section, name, field, default, minimum (included?), maximum, at most, slider range, unit, meaning
constexpr ModelParam kModelParams[] = {
    {"world", "margin", member(&ModelParams::margin), 10.0f, 0.0f, kIncluded, kMagnitudeLimit, "", 0.0f,
     50.0f, "units", "width of the band inside the world's faces where containment pushes inward"},
    {"sim", "dt", member(&ModelParams::dt), 1.0f / 60.0f, 0.0f, kExcluded, 1.0f, "", 0.001f, 0.1f, "s",
     "simulated time of one step"},
    {"boids", "mass", member(&ModelParams::mass), 1.0f, 0.0f, kExcluded, kMagnitudeLimit, "", 0.1f, 10.0f,
     "mass", "a boid's mass: acceleration is force / mass"},
    {"boids", "max_speed", member(&ModelParams::maxSpeed), 10.0f, 0.0f, kExcluded, kMagnitudeLimit, "", 0.5f,
     50.0f, "units/s", "velocities are clamped to this speed"},
    {"boids", "min_speed", member(&ModelParams::minSpeed), 2.0f, 0.0f, kIncluded, kMagnitudeLimit,
     "boids.max_speed", 0.0f, 50.0f, "units/s", "slower velocities are raised to this speed"},
    {"boids", "max_force", member(&ModelParams::maxForce), 20.0f, 0.0f, kExcluded, kMagnitudeLimit, "", 0.5f,
     100.0f, "mass units/s^2", "the summed force is clamped to this length"},
    {"boids", "radius", member(&ModelParams::radius), 0.5f, 0.0f, kIncluded, kMagnitudeLimit, "", 0.0f, 5.0f,
     "units", "body radius: the clearance a boid keeps from obstacles"},
    {"boids", "body_length", member(&ModelParams::bodyLength), 0.1f, 0.0f, kExcluded, kMagnitudeLimit, "",
     0.01f, 2.0f, "units", "L: the view modes' radii and the default leader radius are in body lengths"},
    {"boids", "turn_rate", member(&ModelParams::turnRate), 0.0f, 0.0f, kIncluded, kMaxTurnRate, "", 0.0f,
     720.0f, "degrees/s",
     "the heading turns toward the velocity at most this fast, the boid moving along it; 0: off"},
    {"perception", "radius", member(&ModelParams::perceptionRadius), 5.0f, 0.0f, kExcluded, kMagnitudeLimit,
     "", 0.5f, 50.0f, "units", "R: boids closer than this are neighbours"},
    {"perception", "separation_radius", member(&ModelParams::separationRadius), 2.0f, 0.0f, kIncluded,
     kMagnitudeLimit, "perception.radius", 0.0f, 50.0f, "units",
     "Rs: neighbours closer than this push apart"},
    {"perception", "leader_radius", member(&ModelParams::leaderRadius), 5.0f, 0.0f, kExcluded,
     kMagnitudeLimit, "", 0.5f, 50.0f, "units",
     "RL: a boid with no other boid this close in its front cone leads (default: the narrow view's radius)"},
    {"perception", "fov_degrees", member(&ModelParams::fovDegrees), 270.0f, 0.0f, kExcluded, 360.0f, "", 1.0f,
     360.0f, "degrees", "field of view, centred on the heading; 360 sees all around"},
    {"perception", "min_distance", member(&ModelParams::minDistance), 0.25f, 0.0f, kExcluded, kMagnitudeLimit,
     "", 0.01f, 2.0f, "units", "d_min: separation treats closer neighbours as this far"},
    {"perception", "comfort_distance", member(&ModelParams::comfortDistance), 0.0f, 0.0f, kIncluded,
     kMagnitudeLimit, "", 0.0f, 10.0f, "units",
     "separation from a neighbour closer than this is multiplied by comfort_multiplier; 0: off"},
    {"perception", "comfort_multiplier", member(&ModelParams::comfortMultiplier), 2.0f, 0.0f, kIncluded,
     kMaxComfortMultiplier, "", 0.0f, 10.0f, "1", "the factor of separation inside the comfort distance"},
    {"avoidance", "lookahead", member(&ModelParams::lookahead), 1.0f, 0.0f, kIncluded, kMagnitudeLimit, "",
     0.0f, 5.0f, "s", "travel time the obstacle detection box reaches beyond R"},
    {"goal", "slow_radius", member(&ModelParams::slowRadius), 10.0f, 0.0f, kExcluded, kMagnitudeLimit, "",
     0.5f, 50.0f, "units", "boids slow down within this distance of their goal"},
    {"flee", "radius", member(&ModelParams::fleeRadius), 15.0f, 0.0f, kIncluded, kMagnitudeLimit, "", 0.0f,
     50.0f, "units", "Rf: boids flee predators closer than this"},
    {"cruise", "speed", member(&ModelParams::cruiseSpeed), 8.0f, 0.0f, kIncluded, kMagnitudeLimit, "", 0.0f,
     50.0f, "units/s", "the speed the cruise force steers towards"},
    {"roost", "radius", member(&ModelParams::roostRadius), 0.0f, 0.0f, kIncluded, kMagnitudeLimit, "", 0.0f,
     500.0f, "units", "boids farther than this from the roost's x-z are pulled back; 0: no roost"},
    {"roost", "height_band", member(&ModelParams::roostHeightBand), 0.0f, 0.0f, kIncluded, kMagnitudeLimit,
     "", 0.0f, 200.0f, "units",
     "boids farther than this above or below the roost's height (its centre's y) are pulled back; 0: none"},
    {"model", "steering", member(&ModelParams::labSteering), 0.6f, 0.0f, kExcluded, 10.0f, "", 0.05f, 2.0f,
     "1", "the lab's units: the full sideways push at the bow, as a fraction of the thrust (the book: 3/5)"},
    {"model", "inertia", member(&ModelParams::labInertia), 0.0625f, 0.0f, kExcluded, 100.0f, "", 0.01f, 1.0f,
     "m L^2", "the lab's units: moment of inertia in mass times body length squared (the book: 1/16)"},
    {"model", "spin_rate", member(&ModelParams::labSpinRate), 180.0f, 0.0f, kExcluded, 3600.0f, "", 10.0f,
     720.0f, "degrees/s", "the lab's units: the spin a full push holds against the angular drag"},
    {"model", "roll_rate", member(&ModelParams::starlingRollRate), 180.0f, 0.0f, kExcluded, 3600.0f, "",
     10.0f, 720.0f, "degrees/s", "starlings: the fastest a bird rolls toward the bank its steering asks"},
    {"model", "max_bank", member(&ModelParams::starlingMaxBank), 60.0f, 0.0f, kExcluded,
     float(kMaxStarlingBankDegrees), "", 5.0f, float(kMaxStarlingBankDegrees), "degrees",
     "starlings: the steepest bank a bird rolls to"},
    {"model", "lift_drag", member(&ModelParams::starlingLiftDrag), 3.3f, 1.0f, kIncluded, 100.0f, "", 1.0f,
     20.0f, "1", "starlings: lift over drag, so the thrust is the weight over it (StarDisplay: 3.3)"},
    {"model", "gravity", member(&ModelParams::starlingGravity), 9.81f, 0.0f, kExcluded, kMagnitudeLimit, "",
     1.0f, 30.0f, "units/s^2", "starlings: the acceleration of gravity, along -y"},
    {"weights", "separation", weight(&Weights::separation), 1.5f, 0.0f, kIncluded, kUnbounded, "", 0.0f,
     10.0f, "1", "weight of separation (step 3)"},
    {"weights", "alignment", weight(&Weights::alignment), 1.0f, 0.0f, kIncluded, kUnbounded, "", 0.0f, 10.0f,
     "1", "weight of alignment (step 4)"},
    {"weights", "cohesion", weight(&Weights::cohesion), 1.0f, 0.0f, kIncluded, kUnbounded, "", 0.0f, 10.0f,
     "1", "weight of cohesion (step 5)"},
    {"weights", "avoidance", weight(&Weights::avoidance), 3.0f, 0.0f, kIncluded, kUnbounded, "", 0.0f, 10.0f,
     "1", "weight of obstacle avoidance (step 6)"},
    {"weights", "bounds", weight(&Weights::bounds), 2.0f, 0.0f, kIncluded, kUnbounded, "", 0.0f, 10.0f, "1",
     "weight of containment (step 7)"},
    {"weights", "goal", weight(&Weights::goal), 0.5f, 0.0f, kIncluded, kUnbounded, "", 0.0f, 10.0f, "1",
     "weight of goal seeking (step 8)"},
    {"weights", "flee", weight(&Weights::flee), 3.0f, 0.0f, kIncluded, kUnbounded, "", 0.0f, 10.0f, "1",
     "weight of fleeing (step 9)"},
    {"weights", "cruise", weight(&Weights::cruise), 3.0f, 0.0f, kIncluded, kUnbounded, "", 0.0f, 10.0f, "1",
     "weight of cruising (step 10)"},
    {"weights", "walls", weight(&Weights::walls), 3.0f, 0.0f, kIncluded, kUnbounded, "", 0.0f, 10.0f, "1",
     "weight of the walls of map worlds (step 6b)"},
    {"weights", "roost", weight(&Weights::roost), 1.0f, 0.0f, kIncluded, kUnbounded, "", 0.0f, 10.0f, "1",
     "weight of the roost's pull (step 8d)"},
    {"weights", "height", weight(&Weights::height), 1.0f, 0.0f, kIncluded, kUnbounded, "", 0.0f, 10.0f, "1",
     "weight of the pull of the roost's height band (step 8d)"},
};

// The lab's three views (Bourg & Seemann; docs/model.md, View modes): all around but a 90-degree blind
// cone behind, the front half, a 90-degree cone ahead, with the book's radii in body lengths.
constexpr ViewMode kViewModes[] = {
    {"wide", 270.0f, 200.0f, "all around but a 90-degree blind cone behind"},
    {"limited", 180.0f, 30.0f, "the half-space ahead"},
    {"narrow", 90.0f, 50.0f, "a 90-degree cone ahead"},
};
constexpr std::size_t kNarrowView = 2;

// slot: ParamField::member or ParamField::weight.
template <class Member>
float defaultOf(Member ParamField::*slot, Member field) {
  for (const ModelParam& param : kModelParams)
    if (param.field.*slot == field) return param.defaultValue;
  throw std::logic_error("a model parameter has no row in the parameter table (sim/param_table.cpp)");
}

}  // namespace

float modelDefault(float ModelParams::*member) {
  return defaultOf(&ParamField::member, member);
}

float modelDefault(float Weights::*member) {
  return defaultOf(&ParamField::weight, member);
}

std::string ModelParam::key() const {
  return fmt::format("{}.{}", section, name);
}

bool ModelParam::inRange(float value) const {
  return (minimumIncluded ? value >= minimum : value > minimum) && value <= maximum;
}

std::string ModelParam::rangeRule() const {
  // Limits of the magnitude (or none) go without saying here: their own message tells them.
  if (maximum == kMagnitudeLimit || maximum == kUnbounded)
    return fmt::format("must be {} {}", minimumIncluded ? "at least" : "above", minimum);
  return fmt::format("must be in {}{}, {}]", minimumIncluded ? "[" : "(", minimum, maximum);
}

bool paramActs(const ModelParam& param, UnitModel units) {
  if (param.section != "model") return true;
  const float ModelParams::*member = param.field.member;
  const bool lab = member == &ModelParams::labSteering || member == &ModelParams::labInertia ||
                   member == &ModelParams::labSpinRate;
  return lab ? units == UnitModel::Lab : units == UnitModel::Starling;
}

std::span<const ModelParam> modelParams() {
  return kModelParams;
}

const ModelParam& modelParam(std::string_view key) {
  for (const ModelParam& param : kModelParams)
    if (param.key() == key) return param;
  throw std::logic_error(fmt::format("no model parameter {}", key));
}

EditRange editRange(const ModelParam& param, const ModelParams& model) {
  float low = param.editLow, high = param.editHigh;
  if (!param.atMost.empty()) high = std::min(high, modelParam(param.atMost).field.of(model));
  const glm::vec3 size = model.worldSize();
  const bool flat = model.dims == 2;
  const float largest = std::max({size.x, flat ? 0.0f : size.y, size.z});
  const float smallest = std::min({size.x, flat ? size.x : size.y, size.z});
  const bool wrap = model.boundary == Boundary::Wrap;
  if (param.field.member == &ModelParams::perceptionRadius ||
      param.field.member == &ModelParams::leaderRadius) {
    // The grid holds (extent / R)^dims cells: the floor keeps that at most 128 a side; a wrapping
    // world needs every extent to be at least 2 R.
    low = std::max(low, largest / 128.0f);
    high = std::min(high, (wrap ? 0.5f : 0.25f) * smallest);
  }
  if (param.field.member == &ModelParams::margin && !wrap) high = std::min(high, 0.4f * smallest);
  return {&param, std::min(low, high), high};
}

std::vector<EditRange> editRanges(const ModelParams& model) {
  std::vector<EditRange> ranges;
  ranges.reserve(std::size(kModelParams));
  for (const ModelParam& param : kModelParams) ranges.push_back(editRange(param, model));
  return ranges;
}

void clampToAtMost(ModelParams& model) {
  for (const ModelParam& param : kModelParams)
    if (!param.atMost.empty())
      param.field.of(model) = std::min(param.field.of(model), modelParam(param.atMost).field.of(model));
}

std::span<const ViewMode> viewModes() {
  return kViewModes;
}

float ViewMode::radius(const ModelParams& model) const {
  return radiusLengths * model.bodyLength;
}

float viewSeparationRadius(const ModelParams& model) {
  return kViewSeparationLengths * model.bodyLength;
}

float narrowViewRadius(const ModelParams& model) {
  return kViewModes[kNarrowView].radius(model);
}

const ViewMode* viewModeOf(const ModelParams& model) {
  for (const ViewMode& mode : kViewModes)
    if (model.fovDegrees == mode.fovDegrees && model.perceptionRadius == mode.radius(model)) return &mode;
  return nullptr;
}

void applyViewMode(ModelParams& model, const ViewMode& mode) {
  model.fovDegrees = mode.fovDegrees;
  const EditRange radius = editRange(modelParam("perception.radius"), model);
  model.perceptionRadius = std::clamp(mode.radius(model), radius.low, radius.high);
  model.separationRadius = viewSeparationRadius(model);
  clampToAtMost(model);
}

}  // namespace murmur::sim

#pragma once
// The table of the model's real-valued parameters: one row per parameter with its scene key, its
// place in ModelParams, its default, its limits, its unit and its meaning. The rows drive the scene
// loader (the keys it reads and accepts), validation (the limits), the defaults (params.hpp), the
// demo panel's sliders (editRanges) and docs/model.md's table (checked against these rows by
// tests/sim/test_param_table.cpp). A new parameter is a row here, the rule that uses it, and a row
// of the GPU parameter block (gpu/step_params.table).
//
// Also here: the named view modes ([perception] view), preset values of two of these parameters.
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/params.hpp"

namespace murmur::sim {

// Where a parameter lives: a member of ModelParams, or of its weights.
struct ParamField {
  float ModelParams::*member = nullptr;
  float Weights::*weight = nullptr;

  float& of(ModelParams& model) const { return member ? model.*member : model.weights.*weight; }
  float of(const ModelParams& model) const { return member ? model.*member : model.weights.*weight; }
};

// No upper limit of its own (the weights: the force bound of docs/model.md, Limits, applies).
inline constexpr float kUnbounded = std::numeric_limits<float>::infinity();

struct ModelParam {
  std::string_view section;  // the scene's table: "perception"
  std::string_view name;     // the key in it: "radius"
  ParamField field;
  float defaultValue;
  float minimum;
  bool minimumIncluded;      // [minimum, ...] or (minimum, ...]
  float maximum;             // included; kMaxMagnitude for lengths, speeds and forces; or kUnbounded
  std::string_view atMost;   // the key of a parameter this one may not exceed, or ""
  float editLow, editHigh;   // the demo panel's slider range (before editRanges narrows it)
  std::string_view unit;     // "1" for a dimensionless factor
  std::string_view meaning;  // one line, plain text (docs/model.md repeats it)

  std::string key() const;  // "perception.radius"
  bool inRange(float value) const;
  // The limit as a sentence: "must be above 0", "must be in (0, 360]".
  std::string rangeRule() const;
};

// Every row, in the order of docs/model.md's table (sections in the model's order).
std::span<const ModelParam> modelParams();
// Whether a row acts in a model of these units: every row but [model]'s, which belong to the lab's
// units or to starlings.
bool paramActs(const ModelParam& param, UnitModel units);
// The row of `key`; std::logic_error when there is none.
const ModelParam& modelParam(std::string_view key);

// ---- Editing a running model (the demo panel) ----

// The range a live edit of `param` may take: its slider range, narrowed so that every value in it
// keeps the model valid with the other parameters as they are (at most its atMost parameter;
// perception.radius: at least 1/128 of the largest world extent, which bounds the grid's cells, and
// at most a quarter of the smallest, half when wrapping; world.margin: leaves an interior).
struct EditRange {
  const ModelParam* param;
  float low, high;
};
EditRange editRange(const ModelParam& param, const ModelParams& model);
// One per row, in table order: the panel's sliders.
std::vector<EditRange> editRanges(const ModelParams& model);
// Lowers every parameter that exceeds its atMost parameter to it (after an edit lowered that one).
void clampToAtMost(ModelParams& model);

// ---- View modes ----

// Field of view, perception radius and separation radius together, by name, in the book's
// proportions (Bourg & Seemann): [perception] view = "wide" sets the three (explicit keys of the same
// table override them), and the demo panel's view combo. Radii are in body lengths (boids.body_length).
struct ViewMode {
  std::string_view name;
  float fovDegrees;
  float radiusLengths;                           // the perception radius in body lengths
  std::string_view sees;                         // one line (docs/model.md repeats it)
  float radius(const ModelParams& model) const;  // radiusLengths x model.bodyLength
};
// Every view's separation radius, in body lengths (the book's 5).
inline constexpr float kViewSeparationLengths = 5.0f;
float viewSeparationRadius(const ModelParams& model);
// The narrow view's radius for the model's body length: the leader radius's default (step 8).
float narrowViewRadius(const ModelParams& model);
std::span<const ViewMode> viewModes();
// The mode whose field of view and perception radius the model has exactly; null for none.
const ViewMode* viewModeOf(const ModelParams& model);
// Sets the mode's values, the radius kept within its edit range and the separation radius at most
// it: the panel's view combo.
void applyViewMode(ModelParams& model, const ViewMode& mode);

}  // namespace murmur::sim

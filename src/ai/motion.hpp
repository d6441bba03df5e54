#pragma once
// How the director's agents move (ai/director.hpp): steering applied, then the move clamped to the
// world box and kept out of blocked navigation cells; and the push back inside the world for the
// actions that go where no waypoint leads.
#include <glm/vec3.hpp>

#include "ai/scene_agents.hpp"
#include "ai/steering.hpp"

namespace murmur::ai {

// Where the agents move.
struct AgentSpace {
  glm::vec3 worldMin{0.0f};
  glm::vec3 worldMax{0.0f};
  float margin = 0.0f;  // world.margin: the containment band inside the box
  int dims = 3;
  const NavigationGrid* navigation = nullptr;  // the grid whose blocked cells stop moves; null: none
  // world.boundary = "wrap": the player wraps round the world as the boids do (the book's lab);
  // the other agents keep to the box.
  bool wrap = false;
};

// Back inside the world box (for flee, evade, wander): the model's containment rule
// (sim::containmentPush) with the vehicle's current top speed.
glm::vec3 containment(const Vehicle& vehicle, const AgentSpace& space);

// Applies steering for dt seconds (> 0), then advanceVehicle. heading: the unit facing, updated to the
// new velocity's direction unless the vehicle (nearly) stopped.
void moveVehicle(Vehicle& vehicle, glm::vec3& heading, const glm::vec3& steering, float dt,
                 const AgentSpace& space);

// Moves the vehicle by its velocity for dt seconds: clamped to the world box (the velocity along a
// clamped axis is dropped), or with `wraps` folded onto the torus by the model's own fold
// (sim::wrapCoordinate), and, on a grid, never into a blocked cell: a move that would cross one
// keeps only its x or only its z part (sliding along the wall, the larger part first), else the
// vehicle stops.
void advanceVehicle(Vehicle& vehicle, float dt, const AgentSpace& space, bool wraps = false);

}  // namespace murmur::ai

#pragma once
// Everything drawn besides the boids: the world box and a ground grid, obstacles as shaded
// spheres, walls as blocks, goals and predators as markers, and the CPU agents with their paths. Plain
// vectors of points, so that the scene, the AI layer or a test can fill them without knowing GL.
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "gpu/dynamic_buffer.hpp"
#include "gpu/gl_objects.hpp"
#include "gpu/shader_library.hpp"
#include "render/view_uniforms.hpp"
#include "sim/scene.hpp"
#include "sim/walls.hpp"

namespace murmur::render {

struct Sphere {
  glm::vec3 center{0.0f};
  float radius = 1.0f;
};

// An axis-aligned block (a run of wall cells).
struct Block {
  glm::vec3 min{0.0f};
  glm::vec3 max{0.0f};
};

struct GroupMarker {
  glm::vec3 position{0.0f};
  std::uint32_t group = 0;
};

enum class AgentKind { Leader, Predator, Player };

struct AgentMarker {
  glm::vec3 position{0.0f};
  AgentKind kind = AgentKind::Leader;
  std::uint32_t group = 0;              // a leader's colour
  glm::vec3 heading{1.0f, 0.0f, 0.0f};  // where a player's craft points (its x-z direction)
};

// A predator agent as the filmed look draws it where the markers are off: a bird of prey, the
// flock's bird at kRaptorScale times its length, flying along its velocity.
struct Raptor {
  glm::vec3 position{0.0f};
  glm::vec3 velocity{0.0f};
};
inline constexpr float kRaptorScale = 2.5f;

struct Polyline {
  std::vector<glm::vec3> points;
  glm::vec3 colour{1.0f};
};

// Text at a point of the world (an agent's state). The renderer draws no text: the demo draws labels
// over the frame with its UI (app/demo_panel.cpp, drawLabels), at camera.project(position).
struct Label {
  glm::vec3 position{0.0f};
  std::string text;
  glm::vec3 colour{1.0f};
};

// An agent's view cone as an outline in the horizontal plane through apex: apex, the arc of radius
// `range` from -halfAngle to +halfAngle (radians) around heading's horizontal direction, back to the
// apex. halfAngle >= pi (seeing all round) gives the whole circle; a vertical or zero heading faces +x.
Polyline viewCone(glm::vec3 apex, glm::vec3 heading, float halfAngle, float range, glm::vec3 colour);
// A circle of `radius` around center in the horizontal plane (a hearing range), closed.
Polyline horizontalCircle(glm::vec3 center, float radius, glm::vec3 colour);

struct Overlay {
  glm::vec3 worldMin{-100.0f, -50.0f, -100.0f};
  glm::vec3 worldMax{100.0f, 50.0f, 100.0f};
  // The largest the markers (goals, predators, agents) may be, units (markerSize).
  float maxMarkerSize = std::numeric_limits<float>::infinity();
  std::vector<Sphere> obstacles;
  std::vector<Block> walls;
  std::vector<GroupMarker> goals;    // a group's goal, in the group's colour
  std::vector<glm::vec3> predators;  // static predator points
  std::vector<AgentMarker> agents;   // leaders, predators and players moved by the AI layer
  std::vector<Raptor> raptors;       // the predators among them, drawn as birds without markers
  std::vector<Polyline> paths;       // e.g. an agent's A* path
  std::vector<Polyline> senses;      // agents' view cones and hearing ranges
  std::vector<Polyline> trails;      // agents' past positions, faded towards the oldest
  std::vector<Polyline> vectors;     // agents' velocity and steering force, one segment each
  std::vector<Label> labels;         // agents' states, drawn by the demo's UI
};

// The markers' size, units: 1.2% of the world box's diagonal (they read the same in any scene), at
// least 0.5 and at most overlay.maxMarkerSize.
float markerSize(const Overlay& overlay);

// The overlay of a scene: its world box, obstacles, static goals ([[targets]]) and predators, and
// the walls the boids avoid (null: none; see wallBlocks).
Overlay sceneOverlay(const sim::Scene& scene, const sim::WallGrid* walls);

// The blocked cells of a wall grid as blocks, one per run of blocked cells along x, between the
// heights bottom and top.
std::vector<Block> wallBlocks(const sim::WallGrid& walls, float bottom, float top);

// What to show (the demo's toggles).
struct OverlayStyle {
  bool box = true;
  bool grid = true;
  bool obstacles = true;  // spheres and walls
  bool markers = true;    // goals, predators, agents (off: predator agents drawn as birds of prey)
  bool paths = true;
  bool senses = true;  // view cones, hearing ranges and the state labels
  // The lab's aids, off by default: trails of past positions and the ShowVectors lines (velocity
  // and steering force), of the agents here and of a sample of the boids (render::BoidSamples).
  bool trails = false;
  bool vectors = false;
};

// One instance of an overlay shape (std430 mirror of Shape.vert.glsl's ShapeInstance).
struct ShapeInstance {
  glm::vec4 position;
  glm::vec4 scale;  // w: the heading about +y, radians (the craft)
  glm::vec4 colour;
};

class OverlayRenderer {
 public:
  explicit OverlayRenderer(const gpu::ShaderLibrary& shaders);

  // Rebuilds the geometry (a few kilobytes: call it whenever something moved).
  void set(const Overlay& overlay);

  // Opaque shapes; with the view uniforms bound and the depth test on.
  void drawShapes(const OverlayStyle& style) const;
  // Lines, blended over what is drawn, after every opaque thing (depth test on, depth writes off).
  void drawLines(const OverlayStyle& style) const;

  static constexpr GLuint kShapeBinding = 4;

 private:
  enum class Mesh { Sphere, Box, Diamond, Spike, Craft, Count };
  struct Range {
    GLint first = 0;
    GLsizei count = 0;
  };
  // Instances [first, first + count) drawn with one mesh, shown when `shown` says so.
  struct ShapeRun {
    Mesh mesh;
    bool OverlayStyle::*shown;
    Range instances;
  };
  struct LineRun {
    bool OverlayStyle::*shown;
    Range vertices;
  };

  gpu::Program shapes_;
  // ShapeRun (Shape.vert.glsl): x the first instance of the run drawn.
  gpu::UniformBlock<glm::uvec4> shapeRun_{"shape run constants", kDrawParamsBinding};
  gpu::Program lines_;
  gpu::Buffer meshes_;
  std::array<Range, static_cast<std::size_t>(Mesh::Count)> meshRanges_;
  gpu::VertexArray meshArray_{"overlay meshes"};
  gpu::DynamicBuffer instances_{"overlay instances"};
  std::vector<ShapeRun> shapeRuns_;
  gpu::DynamicBuffer lineVertices_{"overlay lines"};
  gpu::VertexArray lineArray_{"overlay lines"};
  std::vector<LineRun> lineRuns_;
};

}  // namespace murmur::render

#include "render/overlay.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <string>

#include <numbers>

#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

#include "render/meshes.hpp"
#include "render/palette.hpp"
#include "render/scene_view.hpp"
#include "render/view_uniforms.hpp"

namespace murmur::render {
namespace {

struct LineVertex {
  glm::vec3 position;
  glm::vec4 colour;
};

// 1, 2 or 5 times a power of ten: the grid step that gives about `cells` cells across `extent`.
float niceStep(float extent, float cells) {
  const float raw = extent / cells;
  const float decade = std::pow(10.0f, std::floor(std::log10(raw)));
  for (const float m : {1.0f, 2.0f, 5.0f})
    if (m * decade >= raw) return m * decade;
  return 10.0f * decade;
}

void addLine(std::vector<LineVertex>& out, glm::vec3 a, glm::vec3 b, glm::vec4 colour) {
  out.push_back({a, colour});
  out.push_back({b, colour});
}

void addBox(std::vector<LineVertex>& out, glm::vec3 lo, glm::vec3 hi, glm::vec4 colour) {
  for (int axis = 0; axis < 3; ++axis) {
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    for (int corner = 0; corner < 4; ++corner) {
      glm::vec3 a = lo;
      a[u] = (corner & 1) ? hi[u] : lo[u];
      a[v] = (corner & 2) ? hi[v] : lo[v];
      glm::vec3 b = a;
      b[axis] = hi[axis];
      addLine(out, a, b, colour);
    }
  }
}

// Lines across the floor of the box every niceStep, x and z, fading out towards the walls.
void addGrid(std::vector<LineVertex>& out, glm::vec3 lo, glm::vec3 hi, glm::vec4 colour) {
  const float step = niceStep(std::max(hi.x - lo.x, hi.z - lo.z), 20.0f);
  for (int axis : {0, 2}) {
    const int across = 2 - axis;
    for (float t = std::ceil(lo[axis] / step) * step; t <= hi[axis]; t += step) {
      glm::vec3 a = lo, b = lo;
      a[axis] = b[axis] = t;
      b[across] = hi[across];
      addLine(out, a, b, colour);
    }
  }
}

// A trail's opacity `age` of the way (0..1) from its newest point to its oldest.
float trailAlpha(float age) {
  return 1.0f - 0.75f * age;
}

// Segments of a whole circle; an arc gets its share (at least 2).
constexpr int kCircleSegments = 64;

// The point at `radius` and `angle` (radians, from +x towards +z) around center, at center's height.
glm::vec3 onHorizontalCircle(glm::vec3 center, float radius, float angle) {
  return center + radius * glm::vec3(std::cos(angle), 0.0f, std::sin(angle));
}
}  // namespace

Polyline viewCone(glm::vec3 apex, glm::vec3 heading, float halfAngle, float range, glm::vec3 colour) {
  constexpr float kPi = std::numbers::pi_v<float>;
  if (halfAngle >= kPi) return horizontalCircle(apex, range, colour);
  const glm::vec2 flat(heading.x, heading.z);
  const float facing = glm::dot(flat, flat) > 0.0f ? std::atan2(flat.y, flat.x) : 0.0f;
  const int segments = std::max(2, static_cast<int>(std::ceil(kCircleSegments * halfAngle / kPi)));
  Polyline cone{{apex}, colour};
  for (int i = 0; i <= segments; ++i)
    cone.points.push_back(
        onHorizontalCircle(apex, range, facing - halfAngle + 2.0f * halfAngle * float(i) / float(segments)));
  cone.points.push_back(apex);
  return cone;
}

Polyline horizontalCircle(glm::vec3 center, float radius, glm::vec3 colour) {
  Polyline circle{{}, colour};
  for (int i = 0; i <= kCircleSegments; ++i)
    circle.points.push_back(onHorizontalCircle(
        center, radius, 2.0f * std::numbers::pi_v<float> * float(i % kCircleSegments) / kCircleSegments));
  return circle;
}

float markerSize(const Overlay& overlay) {
  return std::min(std::max(0.012f * glm::length(overlay.worldMax - overlay.worldMin), 0.5f),
                  overlay.maxMarkerSize);
}

Overlay sceneOverlay(const sim::Scene& scene, const sim::WallGrid* walls) {
  Overlay overlay;
  overlay.worldMin = scene.model.worldMin;
  overlay.worldMax = scene.model.worldMax;
  // At most 4 birds long: in a sky a kilometre wide the world's 1.2% made the falcon a house among
  // starlings.
  overlay.maxMarkerSize = 4.0f * defaultBodyLength(scene.model);
  for (const sim::Obstacle& o : scene.obstacles) overlay.obstacles.push_back({o.center, o.radius});
  for (const sim::Target& t : scene.targets) overlay.goals.push_back({t.position, t.group});
  overlay.predators = scene.predators;
  if (walls != nullptr) {
    // Walls are infinite in y. In a flat world, where every boid flies at y = 0, full-height walls
    // would hide the flock in the corridors from most angles: they stop just above it.
    const float top = scene.model.dims == 2 ? std::min(scene.model.worldMax.y, 1.0f) : scene.model.worldMax.y;
    overlay.walls = wallBlocks(*walls, scene.model.worldMin.y, top);
  }
  return overlay;
}

std::vector<Block> wallBlocks(const sim::WallGrid& walls, float bottom, float top) {
  std::vector<Block> blocks;
  for (std::uint32_t z = 0; z < walls.height; ++z) {
    const std::uint8_t* row = &walls.blocked[std::size_t(z) * walls.width];
    for (std::uint32_t x = 0; x < walls.width;) {
      if (row[x] == 0) {
        ++x;
        continue;
      }
      const std::uint32_t first = x;
      while (x < walls.width && row[x] != 0) ++x;
      const glm::vec2 lo = walls.origin + walls.cellSize * glm::vec2(float(first), float(z));
      const glm::vec2 hi = walls.origin + walls.cellSize * glm::vec2(float(x), float(z + 1));
      blocks.push_back({glm::vec3(lo.x, bottom, lo.y), glm::vec3(hi.x, top, hi.y)});
    }
  }
  return blocks;
}

OverlayRenderer::OverlayRenderer(const gpu::ShaderLibrary& shaders) {
  gpu::Defines defines = viewDefines();
  defines.emplace_back("SHAPE_BINDING", std::to_string(kShapeBinding));
  shapes_ = shaders.graphics("render/Shape.vert.glsl", "render/Shape.frag.glsl", defines);
  lines_ = shaders.graphics("render/Line.vert.glsl", "render/Line.frag.glsl", defines);

  std::vector<MeshVertex> all;
  // In the order of Mesh.
  const std::array<std::vector<MeshVertex>, std::size_t(Mesh::Count)> meshes = {
      sphereMesh(16, 32), boxMesh(), diamondMesh(), spikeMesh(), craftMesh()};
  for (std::size_t m = 0; m < meshes.size(); ++m) {
    meshRanges_[m] = {GLint(all.size()), GLsizei(meshes[m].size())};
    all.insert(all.end(), meshes[m].begin(), meshes[m].end());
  }
  meshes_ = gpu::Buffer::fromSpan("overlay meshes", std::span<const MeshVertex>(all), 0);
  const GLuint vao = meshArray_.id();
  glVertexArrayVertexBuffer(vao, 0, meshes_.id(), 0, sizeof(MeshVertex));
  glEnableVertexArrayAttrib(vao, 0);
  glVertexArrayAttribFormat(vao, 0, 4, GL_FLOAT, GL_FALSE, offsetof(MeshVertex, position));
  glVertexArrayAttribBinding(vao, 0, 0);
  glEnableVertexArrayAttrib(vao, 1);
  glVertexArrayAttribFormat(vao, 1, 3, GL_FLOAT, GL_FALSE, offsetof(MeshVertex, normal));
  glVertexArrayAttribBinding(vao, 1, 0);

  const GLuint lineVao = lineArray_.id();
  glEnableVertexArrayAttrib(lineVao, 0);
  glVertexArrayAttribFormat(lineVao, 0, 3, GL_FLOAT, GL_FALSE, offsetof(LineVertex, position));
  glVertexArrayAttribBinding(lineVao, 0, 0);
  glEnableVertexArrayAttrib(lineVao, 1);
  glVertexArrayAttribFormat(lineVao, 1, 4, GL_FLOAT, GL_FALSE, offsetof(LineVertex, colour));
  glVertexArrayAttribBinding(lineVao, 1, 0);
}

void OverlayRenderer::set(const Overlay& overlay) {
  const glm::vec3 lo = overlay.worldMin, hi = overlay.worldMax;
  const float marker = markerSize(overlay);

  std::vector<ShapeInstance> instances;
  shapeRuns_.clear();
  auto run = [&](Mesh mesh, bool OverlayStyle::*shown, auto&& addInstances) {
    const auto first = GLint(instances.size());
    addInstances();
    const auto count = GLsizei(instances.size()) - first;
    if (count > 0) shapeRuns_.push_back({mesh, shown, {first, count}});
  };
  auto instance = [&instances](glm::vec3 position, glm::vec3 scale, glm::vec3 colour, float heading = 0.0f) {
    instances.push_back({glm::vec4(position, 1.0f), glm::vec4(scale, heading), glm::vec4(colour, 1.0f)});
  };
  run(Mesh::Sphere, &OverlayStyle::obstacles, [&] {
    for (const Sphere& s : overlay.obstacles) instance(s.center, glm::vec3(s.radius), kObstacleColour);
  });
  run(Mesh::Box, &OverlayStyle::obstacles, [&] {
    for (const Block& b : overlay.walls)
      instance(0.5f * (b.min + b.max), 0.5f * (b.max - b.min), kWallColour);
  });
  run(Mesh::Diamond, &OverlayStyle::markers, [&] {
    for (const GroupMarker& goal : overlay.goals)
      instance(goal.position, glm::vec3(marker), groupColour(goal.group));
  });
  run(Mesh::Spike, &OverlayStyle::markers, [&] {
    for (const glm::vec3& p : overlay.predators) instance(p, glm::vec3(marker), kPredatorColour);
    for (const AgentMarker& a : overlay.agents)
      if (a.kind == AgentKind::Predator) instance(a.position, glm::vec3(0.8f * marker), kPredatorColour);
  });
  run(Mesh::Sphere, &OverlayStyle::markers, [&] {
    for (const AgentMarker& a : overlay.agents)
      if (a.kind == AgentKind::Leader) instance(a.position, glm::vec3(0.5f * marker), groupColour(a.group));
  });
  // The player as the lab draws it: a craft with a pointed bow along its heading, larger than the
  // other markers so that its heading reads.
  run(Mesh::Craft, &OverlayStyle::markers, [&] {
    for (const AgentMarker& a : overlay.agents)
      if (a.kind == AgentKind::Player)
        instance(a.position, glm::vec3(2.4f * marker), kPlayerColour, std::atan2(a.heading.z, a.heading.x));
  });
  instances_.write(std::span<const ShapeInstance>(instances));

  std::vector<LineVertex> vertices;
  lineRuns_.clear();
  auto lineRun = [&](bool OverlayStyle::*shown, auto&& addLines) {
    const auto first = GLint(vertices.size());
    addLines();
    const auto count = GLsizei(vertices.size()) - first;
    if (count > 0) lineRuns_.push_back({shown, {first, count}});
  };
  lineRun(&OverlayStyle::box, [&] { addBox(vertices, lo, hi, glm::vec4(kBoxColour, 0.9f)); });
  lineRun(&OverlayStyle::grid, [&] { addGrid(vertices, lo, hi, glm::vec4(kGridColour, 0.45f)); });
  lineRun(&OverlayStyle::markers, [&] {
    // A pole from each goal down to the floor shows where it stands.
    for (const GroupMarker& goal : overlay.goals)
      addLine(vertices, goal.position, glm::vec3(goal.position.x, lo.y, goal.position.z),
              glm::vec4(groupColour(goal.group), 0.8f));
  });
  lineRun(&OverlayStyle::paths, [&] {
    for (const Polyline& path : overlay.paths)
      for (std::size_t i = 1; i < path.points.size(); ++i)
        addLine(vertices, path.points[i - 1], path.points[i], glm::vec4(path.colour, 1.0f));
  });
  lineRun(&OverlayStyle::senses, [&] {
    for (const Polyline& outline : overlay.senses)
      for (std::size_t i = 1; i < outline.points.size(); ++i)
        addLine(vertices, outline.points[i - 1], outline.points[i], glm::vec4(outline.colour, 0.75f));
  });
  lineRun(&OverlayStyle::trails, [&] {
    // Newest first: opaque at the agent, fading towards the oldest point.
    for (const Polyline& trail : overlay.trails)
      for (std::size_t i = 1; i < trail.points.size(); ++i)
        addLine(vertices, trail.points[i - 1], trail.points[i],
                glm::vec4(trail.colour, trailAlpha(float(i) / float(trail.points.size()))));
  });
  lineRun(&OverlayStyle::vectors, [&] {
    for (const Polyline& vector : overlay.vectors)
      for (std::size_t i = 1; i < vector.points.size(); ++i)
        addLine(vertices, vector.points[i - 1], vector.points[i], glm::vec4(vector.colour, 1.0f));
  });
  lineVertices_.write(std::span<const LineVertex>(vertices));
  glVertexArrayVertexBuffer(lineArray_.id(), 0, lineVertices_.id(), 0, sizeof(LineVertex));
}

void OverlayRenderer::drawShapes(const OverlayStyle& style) const {
  if (shapeRuns_.empty()) return;
  shapes_.use();
  meshArray_.bind();
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kShapeBinding, instances_.id());
  for (const ShapeRun& run : shapeRuns_) {
    if (!(style.*run.shown)) continue;
    const Range mesh = meshRanges_[static_cast<std::size_t>(run.mesh)];
    shapeRun_.set(glm::uvec4(static_cast<std::uint32_t>(run.instances.first), 0u, 0u, 0u));
    glDrawArraysInstanced(GL_TRIANGLES, mesh.first, mesh.count, run.instances.count);
  }
  glBindVertexArray(0);
}

void OverlayRenderer::drawLines(const OverlayStyle& style) const {
  if (lineRuns_.empty()) return;
  lines_.use();
  lineArray_.bind();
  for (const LineRun& run : lineRuns_)
    if (style.*run.shown) glDrawArrays(GL_LINES, run.vertices.first, run.vertices.count);
  glBindVertexArray(0);
}

}  // namespace murmur::render

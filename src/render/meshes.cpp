#include "render/meshes.hpp"

#include <array>
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

namespace murmur::render {
namespace {

// Appends triangle (a, b, c) with its face normal; wings give each corner's wing weight.
void addFace(std::vector<MeshVertex>& mesh, glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 wings) {
  const glm::vec3 normal = glm::normalize(glm::cross(b - a, c - a));
  mesh.push_back({a, wings.x, normal});
  mesh.push_back({b, wings.y, normal});
  mesh.push_back({c, wings.z, normal});
}

// A face of a closed shape that surrounds the origin: wound counter-clockwise seen from outside
// (whatever order the corners come in), its normal pointing away from the origin.
void addOutwardFace(std::vector<MeshVertex>& mesh, glm::vec3 a, glm::vec3 b, glm::vec3 c) {
  if (glm::dot(glm::cross(b - a, c - a), a + b + c) < 0.0f) std::swap(b, c);
  addFace(mesh, a, b, c, glm::vec3(0.0f));
}

}  // namespace

std::vector<MeshVertex> birdMesh() {
  // As few triangles as read as a bird: every vertex is shaded per instance, and a flock has
  // millions of instances. Nothing is culled, so thin surfaces need one face only.
  std::vector<MeshVertex> mesh;
  // Body: a double pyramid from the beak to the tail around a triangular ring (back and belly
  // sides), widest a little ahead of the middle.
  const glm::vec3 beak(0.5f, 0.0f, 0.0f), tail(-0.5f, 0.0f, 0.0f);
  const std::array<glm::vec3, 3> ring = {glm::vec3(0.1f, 0.09f, 0.0f), glm::vec3(0.1f, -0.05f, 0.08f),
                                         glm::vec3(0.1f, -0.05f, -0.08f)};
  for (std::size_t i = 0; i < ring.size(); ++i) {
    const glm::vec3 a = ring[i], b = ring[(i + 1) % ring.size()];
    addOutwardFace(mesh, beak, a, b);
    addOutwardFace(mesh, tail, a, b);
  }
  // Wings: swept back, rising a little towards the tips (a dihedral reads as a bird from any side).
  for (const float side : {1.0f, -1.0f}) {
    const glm::vec3 rootFront(0.18f, 0.02f, 0.05f * side), rootBack(-0.12f, 0.02f, 0.05f * side);
    const glm::vec3 tip(-0.22f, 0.08f, 0.6f * side), elbow(0.05f, 0.05f, 0.3f * side);
    addFace(mesh, rootFront, rootBack, elbow, glm::vec3(0.0f, 0.0f, 0.5f));
    addFace(mesh, elbow, rootBack, tip, glm::vec3(0.5f, 0.0f, 1.0f));
  }
  // Tail fan.
  addFace(mesh, glm::vec3(-0.35f, 0.0f, 0.0f), glm::vec3(-0.6f, 0.0f, 0.14f), glm::vec3(-0.6f, 0.0f, -0.14f),
          glm::vec3(0.0f));
  return mesh;
}

std::vector<MeshVertex> farBirdMesh() {
  std::vector<MeshVertex> mesh;
  // Each wing one triangle: the root's front moved forward to where the line from the tip through
  // birdMesh's elbow meets the root, so that the wing keeps its leading edge and its area.
  for (const float side : {1.0f, -1.0f})
    addFace(mesh, glm::vec3(0.275f, 0.025f, 0.05f * side), glm::vec3(-0.12f, 0.02f, 0.05f * side),
            glm::vec3(-0.22f, 0.08f, 0.6f * side), glm::vec3(0.0f, 0.0f, 1.0f));
  // The body and tail as seen from above, then from the side (the body's depth, back to belly).
  addFace(mesh, glm::vec3(0.5f, 0.0f, 0.0f), glm::vec3(-0.6f, 0.0f, 0.12f), glm::vec3(-0.6f, 0.0f, -0.12f),
          glm::vec3(0.0f));
  addFace(mesh, glm::vec3(0.5f, 0.0f, 0.0f), glm::vec3(-0.5f, 0.09f, 0.0f), glm::vec3(-0.5f, -0.05f, 0.0f),
          glm::vec3(0.0f));
  return mesh;
}

std::vector<MeshVertex> sphereMesh(int rings, int segments) {
  // Vertex (ring r, segment s) on the unit sphere; ring 0 is the north pole.
  auto at = [&](int r, int s) {
    const float theta = std::numbers::pi_v<float> * float(r) / float(rings);
    const float phi = 2.0f * std::numbers::pi_v<float> * float(s) / float(segments);
    return glm::vec3(std::sin(theta) * std::cos(phi), std::cos(theta), -std::sin(theta) * std::sin(phi));
  };
  std::vector<MeshVertex> mesh;
  auto add = [&mesh](glm::vec3 p) { mesh.push_back({p, 0.0f, p}); };
  for (int r = 0; r < rings; ++r) {
    for (int s = 0; s < segments; ++s) {
      const glm::vec3 a = at(r, s), b = at(r + 1, s), c = at(r + 1, s + 1), d = at(r, s + 1);
      if (r > 0) {  // the triangle that collapses at the north pole
        add(a), add(b), add(d);
      }
      if (r < rings - 1) {  // and at the south pole
        add(d), add(b), add(c);
      }
    }
  }
  return mesh;
}

std::vector<MeshVertex> diamondMesh() {
  std::vector<MeshVertex> mesh;
  const glm::vec3 top(0.0f, 1.0f, 0.0f), bottom(0.0f, -1.0f, 0.0f);
  const std::array<glm::vec3, 4> ring = {glm::vec3(0.6f, 0.0f, 0.0f), glm::vec3(0.0f, 0.0f, -0.6f),
                                         glm::vec3(-0.6f, 0.0f, 0.0f), glm::vec3(0.0f, 0.0f, 0.6f)};
  for (std::size_t i = 0; i < ring.size(); ++i) {
    const glm::vec3 a = ring[i], b = ring[(i + 1) % ring.size()];
    addOutwardFace(mesh, top, a, b);
    addOutwardFace(mesh, bottom, a, b);
  }
  return mesh;
}

std::vector<MeshVertex> boxMesh() {
  std::vector<MeshVertex> mesh;
  for (int axis = 0; axis < 3; ++axis) {
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    for (const float side : {1.0f, -1.0f}) {
      // The face's corners, (u, v) = (-1, -1), (1, -1), (1, 1), (-1, 1).
      std::array<glm::vec3, 4> corner;
      for (int k = 0; k < 4; ++k) {
        corner[k][axis] = side;
        corner[k][u] = (k == 1 || k == 2) ? 1.0f : -1.0f;
        corner[k][v] = k >= 2 ? 1.0f : -1.0f;
      }
      addOutwardFace(mesh, corner[0], corner[1], corner[2]);
      addOutwardFace(mesh, corner[0], corner[2], corner[3]);
    }
  }
  return mesh;
}

std::vector<MeshVertex> craftMesh() {
  // The outline in the x-z plane: the stern's corners, the bow's shoulders and its point.
  const std::array<glm::vec2, 5> outline = {glm::vec2(-0.5f, 0.25f), glm::vec2(0.05f, 0.25f),
                                            glm::vec2(0.5f, 0.0f), glm::vec2(0.05f, -0.25f),
                                            glm::vec2(-0.5f, -0.25f)};
  const float half = 0.08f;  // half the thickness
  auto at = [](glm::vec2 p, float y) { return glm::vec3(p.x, y, p.y); };
  std::vector<MeshVertex> mesh;
  // Deck and keel as fans from a point inside the outline (it is convex), then the sides.
  const glm::vec2 inside(-0.1f, 0.0f);
  for (std::size_t i = 0; i < outline.size(); ++i) {
    const glm::vec2 a = outline[i], b = outline[(i + 1) % outline.size()];
    addOutwardFace(mesh, at(inside, half), at(a, half), at(b, half));
    addOutwardFace(mesh, at(inside, -half), at(a, -half), at(b, -half));
    addOutwardFace(mesh, at(a, half), at(b, half), at(b, -half));
    addOutwardFace(mesh, at(a, half), at(b, -half), at(a, -half));
  }
  return mesh;
}

std::vector<MeshVertex> spikeMesh() {
  std::vector<MeshVertex> mesh;
  const float core = 0.35f;  // half the width of each spike's square base
  const std::array<glm::vec3, 3> axes = {glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1)};
  for (std::size_t k = 0; k < axes.size(); ++k) {
    const glm::vec3 u = axes[(k + 1) % 3] * core, v = axes[(k + 2) % 3] * core;
    for (const float sign : {1.0f, -1.0f}) {
      const glm::vec3 tip = axes[k] * sign;
      const glm::vec3 base = axes[k] * (sign * core);
      const std::array<glm::vec3, 4> square = {base + u + v, base - u + v, base - u - v, base + u - v};
      for (std::size_t i = 0; i < square.size(); ++i)
        addOutwardFace(mesh, tip, square[i], square[(i + 1) % 4]);
    }
  }
  return mesh;
}

}  // namespace murmur::render

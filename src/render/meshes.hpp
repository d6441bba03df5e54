#pragma once
// The small triangle meshes of a frame, built on the CPU once: the bird that every boid instance
// draws, and the overlay shapes (obstacle spheres, goal diamonds, predator spikes). Plain triangle
// lists (GL_TRIANGLES), counter-clockwise seen from outside, one normal per vertex.
#include <vector>

#include <glm/vec3.hpp>

namespace murmur::render {

struct MeshVertex {
  glm::vec3 position{0.0f};
  // How much of the wing beat moves this vertex up and down (0: body, 1: wing tip).
  float wing = 0.0f;
  glm::vec3 normal{0.0f, 1.0f, 0.0f};
};

// How far the beat lifts and lowers a vertex of wing weight 1 (a wing tip), body lengths.
inline constexpr float kWingLift = 0.12f;
// No vertex of birdMesh or farBirdMesh lies farther than this from the bird's centre (body lengths),
// the wings beating: the sphere by which a bird outside the view is left out.
inline constexpr float kBirdReach = 0.7f;

// A bird one unit long, centred on the origin, flying along +x with +y up and its wings spread
// along z: a slim diamond body, swept wings and a tail fan. Flat shaded (normals per face).
std::vector<MeshVertex> birdMesh();

// The same bird for far boids, a few pixels long on screen: 4 triangles instead of 11 (each wing
// one triangle, the body and tail one flat triangle seen from above and one seen from the side),
// its outline, area and wing beat those of birdMesh's within a few hundredths of the body length.
std::vector<MeshVertex> farBirdMesh();

// The unit sphere (radius 1), smooth shaded.
std::vector<MeshVertex> sphereMesh(int rings, int segments);

// A diamond (octahedron) of radius 1, stretched along y; flat shaded.
std::vector<MeshVertex> diamondMesh();

// The cube [-1, 1]^3; flat shaded.
std::vector<MeshVertex> boxMesh();

// The flocking lab's craft: a flat slab one unit long along +x (its heading), a rectangle ending in a
// pointed bow at +x = 0.5, 0.5 wide along z and 0.16 thick along y; flat shaded.
std::vector<MeshVertex> craftMesh();

// Six spikes along the axes around a small core (radius 1 at the tips); flat shaded.
std::vector<MeshVertex> spikeMesh();

}  // namespace murmur::render

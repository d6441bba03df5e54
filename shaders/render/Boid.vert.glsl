#version 430 core
// The near birds, pulled by vertex index from their instance records (render/Birds.glsl; made once
// per bird by render/BirdInstances.comp.glsl, which keeps the near and far lists): vertex v is
// vertex v % BIRD_VERTICES of the full mesh (render::birdMesh) for record v / BIRD_VERTICES. No
// instancing: a CPU renderer runs its vertex pipeline once per instance, and a bird has 33 vertices.
// Flat shaded: the face normal of the mesh (the provoking vertex's), turned with the bird.
#include "render/View.glsl"
#include "render/Birds.glsl"

layout(std430, binding = INSTANCE_BINDING) readonly buffer BirdInstances { BirdInstance birds[]; };
layout(std430, binding = MESH_BINDING) readonly buffer BirdMeshes { BirdMeshVertex meshes[]; };

out vec3 vWorldPosition;
flat out vec3 vNormal;
flat out vec3 vColour;

void main() {
  uint v = uint(VERTEX_INDEX);
  BirdInstance bird = birds[v / BIRD_VERTICES];
  vWorldPosition = birdVertex(bird, meshes[v % BIRD_VERTICES], vNormal);
  vColour = bird.colour.rgb;
  gl_Position = view.viewProjection * vec4(vWorldPosition, 1.0);
}

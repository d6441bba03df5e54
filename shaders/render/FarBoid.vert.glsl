#version 430 core
// The far birds (drawn shorter than BoidStyle::detailBirdPixels), pulled by vertex index from the
// far list of instance records as render/Boid.vert.glsl pulls the near ones: vertex v is vertex
// v % FAR_BIRD_VERTICES of the far mesh (render::farBirdMesh, after the full one in the mesh
// buffer) for record v / FAR_BIRD_VERTICES. A far bird is a few pixels: each face is lit once, at
// the bird's centre, here, and FarBoid.frag.glsl only fills it in. A CPU renderer sets up every
// value a fragment shader interpolates once per triangle, which costs more than the lighting.
#include "render/View.glsl"
#include "render/Birds.glsl"

layout(std430, binding = INSTANCE_BINDING) readonly buffer BirdInstances { BirdInstance birds[]; };
layout(std430, binding = MESH_BINDING) readonly buffer BirdMeshes { BirdMeshVertex meshes[]; };

flat out vec3 vColour;

void main() {
  uint v = uint(VERTEX_INDEX);
  BirdInstance bird = birds[v / FAR_BIRD_VERTICES];
  vec3 normal;
  vec3 world = birdVertex(bird, meshes[BIRD_VERTICES + v % FAR_BIRD_VERTICES], normal);
  // Lit from both sides, as Boid.frag.glsl lights the near birds.
  vec3 centre = bird.centreSize.xyz;
  normal = normalize(normal);
  if (dot(normal, view.eye.xyz - centre) < 0.0) normal = -normal;
  vColour = shade(bird.colour.rgb, normal, centre);
  gl_Position = view.viewProjection * vec4(world, 1.0);
}

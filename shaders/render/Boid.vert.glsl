#version 430 core
// One bird per instance: position, velocity, group and flags read from storage buffers by
// gl_InstanceID (render::BoidBuffers documents the layout), the mesh turned to fly along the
// velocity, wings beating with a phase of its own. Flat shaded: the face normal of the mesh (the
// provoking vertex's), turned with the bird.
#include "render/View.glsl"
#include "render/Boids.glsl"

layout(location = 0) in vec4 aPositionWing;  // xyz: mesh position (unit length, +x forward); w: wing weight
layout(location = 1) in vec3 aNormal;

out vec3 vWorldPosition;
flat out vec3 vNormal;
flat out vec3 vColour;

void main() {
  uint i = uint(INSTANCE_INDEX);
  vec3 velocity = boidVelocity[i].xyz;
  float speed = length(velocity);
  vec3 forward = speed > 1e-6 ? velocity / speed : vec3(1.0, 0.0, 0.0);
  vec3 worldUp = abs(forward.y) < 0.99 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
  vec3 side = normalize(cross(forward, worldUp));
  vec3 up = cross(side, forward);

  bool leader = isLeader(i);
  float beat = sin(view.eye.w * 14.0 + float(i) * 0.61);
  vec3 local = aPositionWing.xyz + vec3(0.0, 0.12 * beat * aPositionWing.w, 0.0);
  vec3 centre = boidPosition[i].xyz;
  float depth = (view.viewProjection * vec4(centre, 1.0)).w;
  float size = max(uSize, uMinPixels * depth / view.cameraRight.w) * leaderScale(leader);
  vec3 world = centre + size * (forward * local.x + up * local.y + side * local.z);

  vWorldPosition = world;
  vNormal = forward * aNormal.x + up * aNormal.y + side * aNormal.z;
  vColour = boidColour(i, leader);
  gl_Position = view.viewProjection * vec4(world, 1.0);
}

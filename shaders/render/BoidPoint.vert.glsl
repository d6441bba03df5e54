#version 430 core
// The impostor mode for very large flocks: one point per boid (gl_VertexID), sized by distance
// like a ball of the body length, drawn as a shaded sphere by BoidPoint.frag.glsl.
#include "render/View.glsl"
#include "render/Boids.glsl"

out vec3 vWorldPosition;
flat out vec3 vColour;

void main() {
  uint i = uint(VERTEX_INDEX);
  bool leader = isLeader(i);
  vWorldPosition = boidPosition[i].xyz;
  vColour = boidColour(i, leader);
  gl_Position = view.viewProjection * vec4(vWorldPosition, 1.0);
  float size = uSize * leaderScale(leader);
  gl_PointSize = clamp(size * view.cameraRight.w / max(gl_Position.w, 1e-4), uMinPixels, 64.0);
}

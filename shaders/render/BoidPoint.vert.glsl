#version 430 core
// The impostor mode for very large flocks: one point per boid (gl_VertexID), sized by distance
// like a ball of the body length, drawn as a shaded sphere by BoidPoint.frag.glsl.
#include "render/View.glsl"
#include "render/Boids.glsl"

out vec3 vWorldPosition;
flat out vec3 vColour;
// Silhouettes: the share of the drawn disc a bird of this size would darken (a bird is slender: about
// a third of its length squared), so that overlapping far birds add up to the flock's density and
// its thin sheets show lighter than its thick folds; 1 for coloured points.
flat out float vCoverage;

const float kBirdAreaShare = 0.35;

void main() {
  uint e = boidElement(uint(VERTEX_INDEX));
  bool leader = isLeader(e);
  vWorldPosition = boidPosition[e].xyz;
  vColour = boidColour(e, leader);
  gl_Position = view.viewProjection * vec4(vWorldPosition, 1.0);
  float size = uSize * leaderScale(leader);
  float pixels = size * view.cameraRight.w / max(gl_Position.w, 1e-4);
  gl_PointSize = clamp(pixels, uMinPixels, 64.0);
  float share = min(pixels / gl_PointSize, 1.0);
  vCoverage = uColouring == COLOUR_SILHOUETTE ? kBirdAreaShare * share * share : 1.0;
}

#version 430 core
// The impostor mode for very large flocks: one point per boid (gl_VertexID), sized by distance
// like a ball of the body length, drawn as a shaded sphere by BoidPoint.frag.glsl.
#include "render/View.glsl"
#include "render/Boids.glsl"

out vec3 vWorldPosition;
flat out vec3 vColour;
// Silhouettes: the share of the drawn disc a bird of this size would darken (BIRD_AREA_SHARE of its
// length squared), so that overlapping far birds add up to the flock's density and its thin sheets
// show lighter than its thick folds; 1 for coloured points.
flat out float vCoverage;

// A well-mixed 32-bit hash (Wellons' lowbias32): which boids a partly drawn flock keeps.
uint hashIndex(uint x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  return x ^ (x >> 16);
}

void main() {
  uint index = uint(VERTEX_INDEX);
  uint e = boidElement(index);
  bool leader = isLeader(e);
  // A share of the silhouettes, the same boids every frame, leaders always (render::silhouettePointShare):
  // those left out go outside the clip volume.
  if (uColouring == COLOUR_SILHOUETTE && !leader && float(hashIndex(index) >> 8) >= uPointShare * 16777216.0) {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    gl_PointSize = 1.0;
    vWorldPosition = vec3(0.0);
    vColour = vec3(0.0);
    vCoverage = 0.0;
    return;
  }
  vWorldPosition = boidPosition[e].xyz;
  vColour = boidColour(e, leader);
  gl_Position = view.viewProjection * vec4(vWorldPosition, 1.0);
  float size = uSize * leaderScale(leader);
  float pixels = size * view.cameraRight.w / max(gl_Position.w, 1e-4);
  gl_PointSize = clamp(pixels, uMinPixels, 64.0);
  float share = min(pixels / gl_PointSize, 1.0);
  vCoverage = uColouring == COLOUR_SILHOUETTE ? BIRD_AREA_SHARE * share * share : 1.0;
}

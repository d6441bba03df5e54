#version 430 core
// A point sprite shaded as a sphere facing the camera (gl_PointCoord y runs down the sprite), its
// alpha the bird's coverage (blended for silhouettes: BoidRenderer::draw).
#include "render/View.glsl"

in vec3 vWorldPosition;
flat in vec3 vColour;
flat in float vCoverage;

layout(location = 0) out vec4 fragColour;

void main() {
  vec2 disc = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(disc, disc);
  if (r2 > 1.0) discard;
  vec3 toEye = normalize(view.eye.xyz - vWorldPosition);
  vec3 normal = normalize(disc.x * view.cameraRight.xyz - disc.y * view.cameraUp.xyz + sqrt(1.0 - r2) * toEye);
  fragColour = vec4(shade(vColour, normal, vWorldPosition), vCoverage);
}

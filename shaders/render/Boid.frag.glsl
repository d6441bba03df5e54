#version 430 core
// The birds, lit from both sides: thin wings show whichever face the camera sees.
#include "render/View.glsl"

in vec3 vWorldPosition;
flat in vec3 vNormal;
flat in vec3 vColour;

layout(location = 0) out vec4 fragColour;

void main() {
  vec3 normal = normalize(vNormal);
  if (dot(normal, view.eye.xyz - vWorldPosition) < 0.0) normal = -normal;
  fragColour = vec4(shade(vColour, normal, vWorldPosition), 1.0);
}

#version 430 core
// Flat shading of the birds: the face normal comes from the screen-space derivatives of the
// position, so it always faces the camera (thin wings lit from both sides) and follows the beats.
#include "render/View.glsl"

in vec3 vWorldPosition;
flat in vec3 vColour;

layout(location = 0) out vec4 fragColour;

void main() {
  vec3 normal = normalize(cross(dFdx(vWorldPosition), dFdy(vWorldPosition)));
  fragColour = vec4(shade(vColour, normal, vWorldPosition), 1.0);
}

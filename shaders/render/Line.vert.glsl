#version 430 core
// World-space lines: the world box, the ground grid, agent paths.
#include "render/View.glsl"

layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec4 aColour;

out vec3 vWorldPosition;
out vec4 vColour;

void main() {
  vWorldPosition = aPosition;
  vColour = aColour;
  gl_Position = view.viewProjection * vec4(aPosition, 1.0);
}

#version 430 core
// One triangle that covers the screen (gl_VertexID 0..2), at the far plane, with the view ray of
// each corner: a pinhole camera's ray direction is linear across the screen, so the interpolated
// rays are exact and the fragment shader only normalises them.
#include "render/View.glsl"

out vec3 vRay;

void main() {
  vec2 ndc = vec2(VERTEX_INDEX == 1 ? 3.0 : -1.0, VERTEX_INDEX == 2 ? 3.0 : -1.0);
  vec4 farPoint = view.inverseViewProjection * vec4(ndc, 1.0, 1.0);
  vRay = farPoint.xyz / farPoint.w - view.eye.xyz;
  gl_Position = vec4(ndc, 1.0, 1.0);
}

#version 430 core
// One triangle that covers the screen (gl_VertexID 0..2), at the far plane.
out vec2 vNdc;

void main() {
  vNdc = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
  gl_Position = vec4(vNdc, 1.0, 1.0);
}

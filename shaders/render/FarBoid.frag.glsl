#version 430 core
// The far birds: each face in the colour FarBoid.vert.glsl lit it.
flat in vec3 vColour;

layout(location = 0) out vec4 fragColour;

void main() { fragColour = vec4(vColour, 1.0); }

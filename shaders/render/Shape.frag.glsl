#version 430 core
#include "render/View.glsl"

in vec3 vWorldPosition;
in vec3 vNormal;
flat in vec3 vColour;

layout(location = 0) out vec4 fragColour;

void main() { fragColour = vec4(shade(vColour, normalize(vNormal), vWorldPosition), 1.0); }

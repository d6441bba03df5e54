#version 430 core
// The sampled boids' trails and vectors: the colour SampleLines.vert.glsl gives, through the fog, as
// every line of the overlay (Line.frag.glsl).
#include "render/View.glsl"

in vec3 vWorldPosition;
in vec4 vColour;

layout(location = 0) out vec4 fragColour;

void main() { fragColour = vec4(applyFog(vColour.rgb, vWorldPosition), vColour.a); }

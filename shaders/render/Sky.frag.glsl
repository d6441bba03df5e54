#version 430 core
// The background: the sky along the view ray of each pixel, so it turns with the camera.
#include "render/View.glsl"

in vec3 vRay;

layout(location = 0) out vec4 fragColour;

void main() { fragColour = vec4(skyColour(normalize(vRay)), 1.0); }

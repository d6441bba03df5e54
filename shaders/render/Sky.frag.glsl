#version 430 core
// The background: the sky along the view ray of each pixel, so it turns with the camera.
#include "render/View.glsl"

in vec2 vNdc;

layout(location = 0) out vec4 fragColour;

void main() {
  vec4 nearPoint = view.inverseViewProjection * vec4(vNdc, -1.0, 1.0);
  vec4 farPoint = view.inverseViewProjection * vec4(vNdc, 1.0, 1.0);
  vec3 direction = normalize(farPoint.xyz / farPoint.w - nearPoint.xyz / nearPoint.w);
  fragColour = vec4(skyColour(direction), 1.0);
}

#version 430 core
// The overlay shapes (obstacle spheres, goal diamonds, predator spikes, agents): one mesh drawn
// for a run of instances, each a position, a scale and a colour (render::ShapeInstance).
#include "render/View.glsl"

struct ShapeInstance {
  vec4 positionScale;  // xyz: centre; w: scale (a sphere's radius)
  vec4 colour;         // rgb; a: unused
};
layout(std430, binding = SHAPE_BINDING) readonly buffer Shapes { ShapeInstance shapes[]; };

layout(location = 0) in vec4 aPositionWing;  // the wing weight (w) is unused here
layout(location = 1) in vec3 aNormal;

layout(location = 0) uniform uint uFirstInstance;

out vec3 vWorldPosition;
out vec3 vNormal;
flat out vec3 vColour;

void main() {
  ShapeInstance shape = shapes[uFirstInstance + uint(gl_InstanceID)];
  vWorldPosition = shape.positionScale.xyz + shape.positionScale.w * aPositionWing.xyz;
  vNormal = aNormal;
  vColour = shape.colour.rgb;
  gl_Position = view.viewProjection * vec4(vWorldPosition, 1.0);
}

#version 430 core
// The overlay shapes (obstacle spheres, wall blocks, goal diamonds, predator spikes, agents): one
// mesh drawn for a run of instances, each a position, a scale per axis and a colour
// (render::ShapeInstance), turned about +y to a heading (the player's craft).
#include "render/View.glsl"

struct ShapeInstance {
  vec4 position;  // xyz: centre; w: unused
  vec4 scale;     // xyz: half-size along each axis (a sphere's radius); w: the heading, radians
                  // about +y from +x towards +z (0: as the mesh is)
  vec4 colour;    // rgb; a: unused
};
layout(std430, binding = SHAPE_BINDING) readonly buffer Shapes { ShapeInstance shapes[]; };

layout(location = 0) in vec4 aPositionWing;  // the wing weight (w) is unused here
layout(location = 1) in vec3 aNormal;

layout(std140, binding = DRAW_PARAMS_BINDING) uniform ShapeRun { uint uFirstInstance; };

out vec3 vWorldPosition;
out vec3 vNormal;
flat out vec3 vColour;

void main() {
  ShapeInstance shape = shapes[uFirstInstance + uint(INSTANCE_INDEX)];
  float c = cos(shape.scale.w), s = sin(shape.scale.w);
  mat3 turn = mat3(c, 0.0, s, 0.0, 1.0, 0.0, -s, 0.0, c);  // columns: +x to (c, 0, s), +z to (-s, 0, c)
  vWorldPosition = shape.position.xyz + turn * (shape.scale.xyz * aPositionWing.xyz);
  vNormal = turn * (aNormal / shape.scale.xyz);  // the inverse transpose of the scaling, then the turn
  vColour = shape.colour.rgb;
  gl_Position = view.viewProjection * vec4(vWorldPosition, 1.0);
}

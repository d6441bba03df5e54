#version 430 core
// The sampled boids' trails and vectors (render::BoidSamples) as GL_LINES, read from the samples
// buffer SampleBoids.comp.glsl fills: no vertex buffer, two vertices a segment.
#include "render/View.glsl"

layout(std430, binding = SAMPLES_BINDING) readonly buffer Samples { vec4 samples[]; };

// render::SampleLineParams (std140).
layout(std140, binding = DRAW_PARAMS_BINDING) uniform SampleLines {
  vec4 uVelocityColour;  // rgb; a: units of line per unit of speed
  vec4 uForceColour;     // rgb; a: units of line per unit of acceleration
  vec4 uHalfWorld;       // xyz: half the world box; a trail step longer than it crossed a wrap seam
  uint uMode;            // SAMPLE_TRAIL, SAMPLE_VELOCITY or SAMPLE_FORCE
  uint uCount;           // boids sampled
  uint uSlots;           // SAMPLE_TRAIL: the ring's samples per boid (slot-major: slot * uCount + boid)
  uint uNewest;          // its newest slot
  uint uFilled;          // its slots holding samples
};

out vec3 vWorldPosition;
out vec4 vColour;

void main() {
  uint segment = uint(VERTEX_INDEX) / 2u;
  bool far = (uint(VERTEX_INDEX) & 1u) == 1u;
  vec3 position;
  bool hidden;
  if (uMode == SAMPLE_TRAIL) {
    // Segment `age` of a boid's trail joins its age-th newest sample to the one before it.
    uint boid = segment / (uSlots - 1u);
    uint age = segment % (uSlots - 1u);
    vec4 newer = samples[((uNewest + uSlots - age) % uSlots) * uCount + boid];
    vec4 older = samples[((uNewest + 2u * uSlots - age - 1u) % uSlots) * uCount + boid];
    hidden = age + 1u >= uFilled || any(greaterThan(abs(newer.xyz - older.xyz), uHalfWorld.xyz));
    position = far ? older.xyz : newer.xyz;
    // Opaque at the newest sample, fading towards the oldest (as render/overlay.cpp's trailAlpha).
    vColour = vec4(groupColour(uint(newer.w)), 1.0 - 0.75 * (float(age) + (far ? 1.0 : 0.0)) / float(uSlots));
  } else {
    // A boid's velocity (SAMPLE_VELOCITY) or its force, from its position.
    uint boid = segment;
    bool force = uMode != SAMPLE_VELOCITY;
    vec4 vector = samples[3u * boid + (force ? 2u : 1u)];
    hidden = force && vector.w == 0.0;
    vec4 colour = force ? uForceColour : uVelocityColour;
    position = samples[3u * boid].xyz + (far ? vector.xyz * colour.a : vec3(0.0));
    vColour = vec4(colour.rgb, 1.0);
  }
  vWorldPosition = position;
  // A hidden segment has both ends outside the clip volume: nothing is drawn.
  gl_Position = hidden ? vec4(2.0, 2.0, 2.0, 1.0) : view.viewProjection * vec4(position, 1.0);
}

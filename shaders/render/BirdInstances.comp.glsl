#version 430 core
// The per-bird work of a frame, done once per boid (render::BoidRenderer): from one range of the
// boid buffers (render::BoidBuffers) to an instance record (render/Birds.glsl) that
// render/Boid.vert.glsl only applies to each vertex of the mesh: the centre and the length drawn,
// the basis that turns the mesh to fly along the velocity, the wing tips' lift by this frame's beat,
// the colour.
//
// Each bird goes into one of two lists of the range's records: near birds, drawn with the full mesh
// (render/Boid.vert.glsl), then far birds, drawn shorter than uDetailPixels on screen, with the far
// mesh (render/FarBoid.vert.glsl); a bird wholly outside the view goes into neither. Both lists keep
// the boids' order, so that where two birds meet at exactly the same depth the one drawn first
// shows, as without the lists (a flat world's birds all fly at one depth seen from above). Two
// dispatches of this program with render/BirdLists.comp.glsl between them: uPhase BIRD_COUNT writes
// each workgroup's near and far counts to lists[]; BirdLists turns them into each workgroup's first
// near and far record (and fills the range's two draw commands); BIRD_WRITE writes every record
// there, after those of the workgroup's earlier invocations of its list.
#include "render/View.glsl"
#include "render/Boids.glsl"
#include "render/Birds.glsl"

layout(local_size_x = WORKGROUP_SIZE) in;
#include "common/WorkgroupSum.glsl"

layout(std430, binding = INSTANCE_BINDING) writeonly buffer BirdInstances { BirdInstance birds[]; };
// Per workgroup: its near and far counts (BIRD_COUNT), then its first near and far record (BirdLists).
layout(std430, binding = LISTS_BINDING) buffer BirdLists { uvec2 lists[]; };


// Whether the sphere (centre, radius) lies wholly outside one of the view's six clip planes (clip:
// the centre's clip coordinates). The clip-space distance w +- x to a plane grows by |row w +- row x|
// (rows of the view-projection, without the translation) per world unit.
bool outsideView(vec4 clip, float radius) {
  mat4 m = view.viewProjection;
  vec3 rowX = vec3(m[0][0], m[1][0], m[2][0]), rowY = vec3(m[0][1], m[1][1], m[2][1]);
  vec3 rowZ = vec3(m[0][2], m[1][2], m[2][2]), rowW = vec3(m[0][3], m[1][3], m[2][3]);
  return clip.w - clip.x < -radius * length(rowW - rowX) || clip.w + clip.x < -radius * length(rowW + rowX) ||
         clip.w - clip.y < -radius * length(rowW - rowY) || clip.w + clip.y < -radius * length(rowW + rowY) ||
         clip.w - clip.z < -radius * length(rowW - rowZ) || clip.w + clip.z < -radius * length(rowW + rowZ);
}

void main() {
  uint i = gl_GlobalInvocationID.x, t = gl_LocalInvocationID.x;
  uint list = 0u;  // the bird's list, packed so that one sum counts both: near 1, far 1 << 16; 0: not drawn
  BirdInstance bird;
  if (i < uCount) {
    uint e = boidElement(i);
    vec3 velocity = boidVelocity[e].xyz;
    float speed = length(velocity);
    vec3 forward = speed > 1e-6 ? velocity / speed : vec3(1.0, 0.0, 0.0);
    vec3 worldUp = abs(forward.y) < 0.99 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
    vec3 side = normalize(cross(forward, worldUp));
    if (uHasBank) {
      // Rolled by its bank toward its right (+side): its up axis tilts that way, as the flight's does.
      float bank = boidBank[e].w;
      side = cos(bank) * side - sin(bank) * cross(side, forward);
    }

    bool leader = isLeader(e);
    // Each bird beats with a phase of its own: its index in the range.
    float beat = sin(view.eye.w * 14.0 + float(i) * 0.61);
    vec3 centre = boidPosition[e].xyz;
    vec4 clip = view.viewProjection * vec4(centre, 1.0);
    float depth = clip.w;
    float size = max(uSize, uMinPixels * depth / view.cameraRight.w) * leaderScale(leader);

    bool far = size * view.cameraRight.w < uDetailPixels * depth;  // shorter than uDetailPixels, in front
    if (!outsideView(clip, BIRD_REACH * size)) list = far ? 1u << 16 : 1u;
    if (uPhase == BIRD_WRITE)
      bird = BirdInstance(vec4(centre, size), vec4(forward, WING_LIFT * beat), vec4(side, 0.0),
                          vec4(boidColour(e, leader), 0.0));
  }
  // Inclusive prefix sums of the packed lists, both lists at once: the last invocation's is the
  // workgroup's counts.
  uint upToHere = workgroupInclusiveSum(list);
  uint group = gl_WorkGroupID.x;
  if (uPhase == BIRD_COUNT) {
    if (t == uint(WORKGROUP_SIZE) - 1u) lists[group] = uvec2(upToHere & 0xFFFFu, upToHere >> 16);
    return;
  }
  uint before = upToHere - list;
  if (list == 1u) birds[lists[group].x + (before & 0xFFFFu)] = bird;
  if (list == 1u << 16) birds[lists[group].y + (before >> 16)] = bird;
}

// What a bird is drawn from (render::BoidRenderer): its instance record, written once per bird by
// render/BirdInstances.comp.glsl, and the two meshes, read by render/Boid.vert.glsl.

// render::BirdInstance (std430).
struct BirdInstance {
  vec4 centreSize;   // xyz: centre; w: the body length drawn, world units
  vec4 forwardLift;  // xyz: unit, along the velocity; w: the wing tips' lift by this frame's beat, body lengths
  vec4 side;         // xyz: unit, towards the wing at +z of the mesh (up is cross(side, forward)); w: unused
  vec4 colour;       // rgb; a: unused
};

// render::BirdMeshVertex (std430): the full bird's BIRD_VERTICES (render::birdMesh), then the far
// bird's FAR_BIRD_VERTICES (render::farBirdMesh), non-indexed triangles.
struct BirdMeshVertex {
  vec4 positionWing;  // xyz: unit length, +x forward; w: wing weight (0: body, 1: wing tip)
  vec4 normal;        // xyz: the face's; w: unused
};

// Where a vertex of the mesh lands for this bird: the mesh turned to fly along forward (+x) with
// its +y up, scaled to the drawn length, the vertex lifted by the beat as much as its wing weight
// says. normal: the mesh normal, turned alike.
vec3 birdVertex(BirdInstance bird, BirdMeshVertex vertex, out vec3 normal) {
  vec3 forward = bird.forwardLift.xyz, side = bird.side.xyz;
  vec3 up = cross(side, forward);
  vec3 local = vertex.positionWing.xyz + vec3(0.0, bird.forwardLift.w * vertex.positionWing.w, 0.0);
  normal = forward * vertex.normal.x + up * vertex.normal.y + side * vertex.normal.z;
  return bird.centreSize.xyz + bird.centreSize.w * (forward * local.x + up * local.y + side * local.z);
}

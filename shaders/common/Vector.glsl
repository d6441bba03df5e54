// Lengths, directions and offsets exactly as src/sim/rules.hpp computes them (see Rules.glsl).
// EXACT qualifies the results that must round as the CPU's do: the flock pipeline defines it as
// `precise` for its parity variant (gpu::Arithmetic::Exact: bit for bit with the CPU on llvmpipe) and
// as nothing for the fast one (the default: the compiler may fuse multiply-adds and reorder, as it
// would for any shader; real cards' division and square root are approximate anyway).

const float kEps = 1e-6;

// glm::dot: (x*x' + y*y') + z*z'.
float dot3(vec3 a, vec3 b) {
  EXACT float r = (a.x * b.x + a.y * b.y) + a.z * b.z;
  return r;
}

float length3(vec3 v) {
  EXACT float r = sqrt(dot3(v, v));
  return r;
}

// f = norm(v), or (1,0,0) for a (near) zero velocity.
vec3 heading(vec3 v) {
  EXACT float len = sqrt(dot3(v, v));
  EXACT vec3 f = len < kEps ? vec3(1.0, 0.0, 0.0) : v / len;
  return f;
}

// Minimum-image offset: each component folded into [-size/2, size/2). Positions on a torus lie in
// [lo, hi), so |d| < size and one comparison each way decides the fold exactly (as sim::minimumImage).
vec3 minimumImage(vec3 d, vec3 size) {
  vec3 halfSize = 0.5 * size;  // `half` is a reserved word in GLSL
  EXACT vec3 below = d + size;
  EXACT vec3 above = d - size;
  return mix(mix(d, below, lessThan(d, -halfSize)), above, greaterThanEqual(d, halfSize));
}

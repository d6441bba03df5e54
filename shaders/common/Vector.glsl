// Lengths, directions and offsets exactly as src/sim/rules.hpp computes them (see Rules.glsl).

const float kEps = 1e-6;

// glm::dot: (x*x' + y*y') + z*z'.
float dot3(vec3 a, vec3 b) {
  precise float r = (a.x * b.x + a.y * b.y) + a.z * b.z;
  return r;
}

float length3(vec3 v) {
  precise float r = sqrt(dot3(v, v));
  return r;
}

// f = norm(v), or (1,0,0) for a (near) zero velocity.
vec3 heading(vec3 v) {
  precise float len = sqrt(dot3(v, v));
  precise vec3 f = len < kEps ? vec3(1.0, 0.0, 0.0) : v / len;
  return f;
}

// Minimum-image offset: each component folded into [-size/2, size/2).
vec3 minimumImage(vec3 d, vec3 size) {
  precise vec3 k = floor(d / size + 0.5);
  precise vec3 r = d - size * k;
  return r;
}

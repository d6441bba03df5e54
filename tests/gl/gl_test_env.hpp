#pragma once
// The one GL context of the GL test process (made by tests/gl/main.cpp before any test runs).
#include <cstddef>
#include <string>

#include "gpu/context.hpp"
#include "gpu/shader_library.hpp"
#include "sim/flock.hpp"

namespace murmur::test {

gpu::Context& glContext();
// The embedded shaders.
const gpu::ShaderLibrary& shaderLibrary();
// GL errors the debug callback has seen since the process started; a test compares before/after.
std::size_t glErrorCount();

// True on Mesa's llvmpipe, where the GLSL mirror of the model must give the CPU reference's step
// bit for bit (same operations in the same order, no fused multiply-add); other renderers are
// judged by sim::compareOneStep's tolerances and perception-edge analysis.
bool bitwiseParityExpected();
// Empty when every boid of `candidate` equals `reference` to the last bit (positions, velocities,
// groups); otherwise the count of boids that differ and the first of them, values in hex floats.
std::string bitwiseDifference(const sim::FlockState& reference, const sim::FlockState& candidate);

}  // namespace murmur::test

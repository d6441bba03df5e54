#pragma once
// The one GL context of the GL test process (made by tests/gl/main.cpp before any test runs).
#include <cstddef>

#include "gpu/context.hpp"
#include "gpu/shader_library.hpp"

namespace murmur::test {

gpu::Context& glContext();
// The embedded shaders.
const gpu::ShaderLibrary& shaderLibrary();
// GL errors the debug callback has seen since the process started; a test compares before/after.
std::size_t glErrorCount();

}  // namespace murmur::test

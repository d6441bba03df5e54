// GL test main: makes the one headless context of the process (a debug context, so that GL errors
// reach the callback below) and fails when there is none: a GL test is never skipped.
// MURMUR_EGL_DEVICE=<index> picks an EGL device (default: the first that works).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "gl_test_env.hpp"
#include "gpu/error.hpp"

namespace murmur::test {
namespace {

std::unique_ptr<gpu::Context> theContext;
std::atomic<std::size_t> errorCount{0};

// Compile errors also arrive here (source GL_DEBUG_SOURCE_SHADER_COMPILER); tests that expect them
// catch gpu::ShaderError, so only API errors count.
void GLAPIENTRY onGlMessage(GLenum source, GLenum type, GLuint, GLenum severity, GLsizei,
                            const GLchar* message, const void*) {
  if (source == GL_DEBUG_SOURCE_SHADER_COMPILER) return;
  if (type == GL_DEBUG_TYPE_ERROR) {
    ++errorCount;
    std::fprintf(stderr, "GL error: %s\n", message);
  } else if (severity == GL_DEBUG_SEVERITY_HIGH) {
    std::fprintf(stderr, "GL: %s\n", message);
  }
}

}  // namespace

gpu::Context& glContext() {
  return *theContext;
}

const gpu::ShaderLibrary& shaderLibrary() {
  static const gpu::ShaderLibrary library;
  return library;
}

std::size_t glErrorCount() {
  return errorCount.load();
}

}  // namespace murmur::test

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  // Test discovery at build time lists the tests only; it must not need a GPU.
  if (GTEST_FLAG_GET(list_tests)) return RUN_ALL_TESTS();
  int device = -1;
  if (const char* chosen = std::getenv("MURMUR_EGL_DEVICE")) device = std::atoi(chosen);
  try {
    murmur::test::theContext = murmur::gpu::createHeadlessContext(device, /*debug=*/true);
  } catch (const murmur::gpu::ContextError& e) {
    std::fprintf(stderr, "murmur_gl_tests: FAILED: no OpenGL context: %s\n", e.what());
    return 1;
  }
  const murmur::gpu::ContextInfo& info = murmur::test::theContext->info();
  std::printf("GL_RENDERER: %s\nGL_VERSION: %s\ncontext: %s\n", info.renderer.c_str(), info.version.c_str(),
              info.platform.c_str());
  glEnable(GL_DEBUG_OUTPUT);
  glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  glDebugMessageCallback(murmur::test::onGlMessage, nullptr);
  const int result = RUN_ALL_TESTS();
  murmur::test::theContext.reset();
  return result;
}

// Every program the flock pipeline and the frame renderer build, exactly as they hand it to the
// driver (includes resolved, their defines injected: ShaderLibrary::observeStages), checked by
// glslangValidator (the Khronos reference compiler) as GLSL 4.30 core: what Mesa accepts is not
// proof that NVIDIA's, AMD's or Intel's compilers will.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "gl_test_env.hpp"
#include "gpu/flock_pipeline.hpp"
#include "render/frame_renderer.hpp"
#include "shell_command.hpp"

namespace murmur::gpu {
namespace {

struct Validation {
  int exitCode = -1;
  std::string log;
};

// glslangValidator on `text` as a shader of `stage`; the log's locations rewritten to shaders/ files.
Validation validate(GLenum stage, const std::string& text, const std::vector<std::string>& files) {
  const char* extension = stage == GL_COMPUTE_SHADER ? "comp" : stage == GL_VERTEX_SHADER ? "vert" : "frag";
  const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                     ("murmur_glslang_" + std::to_string(::getpid()) + "." + extension);
  std::ofstream(path) << text;
  const std::string command = std::string("'") + GLSLANG_VALIDATOR + "' '" + path.string() + "' 2>&1";
  const test::CommandOutput run = test::runCommand(command);
  std::filesystem::remove(path);
  return {run.exitCode, rewriteShaderLog(run.out, files)};
}

TEST(Glslang, EveryProgramOfThePipelineAndTheRendererIsValidGlsl430Core) {
  ShaderLibrary shaders;
  std::vector<std::pair<GLenum, PreprocessedShader>> stages;
  shaders.observeStages(
      [&](GLenum stage, const PreprocessedShader& shader) { stages.emplace_back(stage, shader); });
  {
    for (const Arithmetic arithmetic : {Arithmetic::Fast, Arithmetic::Exact}) {
      FlockPipeline pipeline(test::glContext(), shaders, arithmetic);
      pipeline.buildForcePrograms(0);
      pipeline.buildForcePrograms(kAllStepFeatures);
    }
    const render::FrameRenderer renderer(shaders);
  }
  // Each pipeline (fast and exact arithmetic): hash, count, clear counts, scatter ids, reorder
  // (plain and turning), reduce, reduce groups, nearest boids and their merge, slots by id,
  // positions by id, scan (13 compute shaders), and the force passes (metric and topological, each plain,
  // turning and starlings': 6, without optional terms and with all; the lab's units: 1, whatever the
  // terms); the renderer:
  // sky, shapes, lines, near birds, far birds, points, sampled boids' lines (7 vertex + fragment pairs), the
  // bird instances, the bird lists and the boid sampler (3 compute shaders).
  ASSERT_EQ(stages.size(), 2u * (13u + 2u * 6u + 1u) + 3u + 2u * 7u);
  std::set<std::string> names;
  for (const auto& [stage, shader] : stages) {
    names.insert(shader.files.front());
    EXPECT_EQ(shader.text.rfind("#version 430 core\n", 0), 0u) << shader.files.front();
    const Validation result = validate(stage, shader.text, shader.files);
    EXPECT_EQ(result.exitCode, 0) << shader.files.front() << ":\n" << result.log;
  }
  // Every variant of a program comes from the same file: 20 of the pipeline's, 17 of the renderer's.
  EXPECT_EQ(names.size(), 20u + 3u + 2u * 7u);
}

// The check can fail: glslang rejects what GLSL 4.30 core forbids (an implicit int to float
// conversion is allowed, a 4.50-only built-in is not) even where a lenient driver would not.
TEST(Glslang, RejectsAShaderBeyondGlsl430Core) {
  const std::string text = R"(#version 430 core
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Out { float values[]; };
void main() { values[0] = float(gl_CullDistance[0]); }
)";
  const Validation result = validate(GL_COMPUTE_SHADER, text, {"test/Beyond.comp.glsl"});
  EXPECT_NE(result.exitCode, 0) << result.log;
  EXPECT_NE(result.log.find("gl_CullDistance"), std::string::npos) << result.log;
}

}  // namespace
}  // namespace murmur::gpu

// Writes every program the flock pipeline and the frame renderer build, exactly as they hand it to
// the driver (ShaderLibrary::observeStages: includes resolved, their defines injected), so that an
// offline compiler sees what the GL driver sees (scripts/shader-stats.sh compiles them to SPIR-V and
// through RADV). Needs an OpenGL context (llvmpipe will do): the pipeline and renderer build their
// programs as they would for a run.
//
//   murmur_shader_dump DIR [SHADER_DIR]
//
// SHADER_DIR: shaders read from there first (ShaderLibrary's --shader-dir), so that an edited
// shader's statistics need no rebuild.
// writes DIR/<name>.comp, .vert, .frag (name: the shader's path under shaders/ without .glsl and its
// stage suffix, e.g. DIR/flock/Step.comp; the force passes' other variants as DIR/flock/Step.all.comp
// (every optional term), DIR/flock/Step.exact.comp and .exact.all.comp) and DIR/programs.txt, one
// program a line:
// "compute flock/Step.comp" or "graphics render/Boid.vert render/Boid.frag".
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "gpu/context.hpp"
#include "gpu/flock_pipeline.hpp"
#include "render/frame_renderer.hpp"

namespace {

// "flock/Step.comp.glsl" -> "flock/Step.comp", with a variant suffix "flock/Step.all.comp".
std::string outputName(const std::string& shader, const std::string& variant) {
  const std::string suffix = ".glsl";
  std::string name = shader.ends_with(suffix) ? shader.substr(0, shader.size() - suffix.size()) : shader;
  name.insert(name.rfind('.'), variant);
  return name;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: murmur_shader_dump DIR [SHADER_DIR]\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  try {
    const std::unique_ptr<murmur::gpu::Context> context = murmur::gpu::createHeadlessContext();
    murmur::gpu::ShaderLibrary shaders =
        argc == 3 ? murmur::gpu::ShaderLibrary(argv[2]) : murmur::gpu::ShaderLibrary();
    // Each stage with the variant suffix its name gets ("" for what a run of most scenes builds).
    struct Stage {
      GLenum stage;
      murmur::gpu::PreprocessedShader shader;
      std::string variant;
    };
    std::vector<Stage> stages;
    std::string variant;
    shaders.observeStages([&](GLenum stage, const murmur::gpu::PreprocessedShader& shader) {
      stages.push_back({stage, shader, variant});
    });
    using murmur::gpu::Arithmetic;
    {
      // The fast arithmetic a run builds, with the force passes without optional terms
      // (flock/Step.comp); then the force passes with every term (flock/Step.all.comp), and both
      // in the exact arithmetic (flock/Step.exact.comp, flock/Step.exact.all.comp: the latter is
      // what the pass was before either split).
      murmur::gpu::FlockPipeline fast(*context, shaders, Arithmetic::Fast);
      const murmur::render::FrameRenderer renderer(shaders);
      variant = ".all";
      fast.buildForcePrograms(murmur::gpu::kAllStepFeatures);
      variant = ".exact";
      murmur::gpu::FlockPipeline exact(*context, shaders, Arithmetic::Exact);
      variant = ".exact.all";
      exact.buildForcePrograms(murmur::gpu::kAllStepFeatures);
      // The exact pipeline's other programs are the fast one's but for the grid hash's rounding.
      std::erase_if(stages, [](const Stage& s) {
        return s.variant.starts_with(".exact") && !s.shader.files.front().starts_with("flock/Step");
      });
    }
    std::filesystem::create_directories(dir);
    std::ofstream programs(dir / "programs.txt");
    for (const auto& [stage, shader, suffix] : stages) {
      const std::string name = outputName(shader.files.front(), suffix);
      std::filesystem::create_directories((dir / name).parent_path());
      std::ofstream(dir / name, std::ios::binary) << shader.text;
      if (stage == GL_COMPUTE_SHADER) {
        programs << "compute " << name << "\n";
      } else if (stage == GL_VERTEX_SHADER) {
        programs << "graphics " << name;  // the fragment stage follows (ShaderLibrary::graphics)
      } else {
        programs << " " << name << "\n";
      }
    }
    if (!programs) throw std::runtime_error("cannot write " + (dir / "programs.txt").string());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "murmur_shader_dump: %s\n", e.what());
    return 1;
  }
  return 0;
}

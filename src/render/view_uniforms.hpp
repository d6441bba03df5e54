#pragma once
// The per-frame uniform block every render program reads (shaders/render/View.glsl): camera,
// sun, sky, fog and the group palette, std140 at binding kViewBinding.
#include <array>

#include <glad/gl.h>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "gpu/gl_objects.hpp"
#include "gpu/shader_library.hpp"
#include "render/camera.hpp"
#include "render/palette.hpp"

namespace murmur::render {

// Uniform block bindings, numbered after the renderers' storage bindings: GL keeps the two apart,
// Vulkan does not (the same sources compile as Vulkan GLSL for scripts/shader-stats.sh).
inline constexpr GLuint kViewBinding = 8;
inline constexpr GLuint kDrawParamsBinding = 9;  // the constants of one draw (BoidStyleBlock, ShapeRun)

// The atmosphere of a frame.
// The sky of a frame: kDaySky or kDuskSky (render/palette.hpp); `[render] sky` chooses.
enum class Sky { Day, Dusk };

struct Atmosphere {
  Sky sky = Sky::Day;
  float maxFog = 0.65f;  // the most that fog hides of anything, however far
  float time = 0.0f;     // seconds: the phase of the wing beats
};

// std140 mirror of the View block.
struct ViewUniforms {
  glm::mat4 viewProjection;
  glm::mat4 inverseViewProjection;
  glm::vec4 eye;
  glm::vec4 cameraRight;
  glm::vec4 cameraUp;
  glm::vec4 sunDirection;
  glm::vec4 sunColour;
  glm::vec4 skyZenith;
  glm::vec4 skyMiddle;
  glm::vec4 skyHorizon;
  glm::vec4 groundHaze;
  glm::vec4 fog;
  glm::vec4 leaderColour;
  std::array<glm::vec4, kGroupPalette.size()> palette;
};
static_assert(sizeof(ViewUniforms) == 2 * 64 + (11 + kGroupPalette.size()) * 16, "std140 layout of View");

// fogDensity: per unit of distance (0: no fog).
ViewUniforms makeViewUniforms(const Camera& camera, const Atmosphere& atmosphere, float fogDensity,
                              const GroupPalette& palette = kGroupPalette);

// The defines every render program is compiled with (binding points, palette size).
gpu::Defines viewDefines();

// The uniform buffer, updated once per frame and bound at kViewBinding.
class ViewUniformBuffer {
 public:
  ViewUniformBuffer() : buffer_("view uniforms", sizeof(ViewUniforms)) {}
  void update(const ViewUniforms& uniforms) const;

 private:
  gpu::Buffer buffer_;
};

}  // namespace murmur::render

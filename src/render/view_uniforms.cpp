#include "render/view_uniforms.hpp"

#include <span>
#include <string>

#include <glm/geometric.hpp>
#include <glm/matrix.hpp>

namespace murmur::render {

ViewUniforms makeViewUniforms(const Camera& camera, const Atmosphere& atmosphere, float fogDensity,
                              const GroupPalette& palette) {
  ViewUniforms u{};
  u.viewProjection = camera.viewProjection();
  u.inverseViewProjection = glm::inverse(u.viewProjection);
  u.eye = glm::vec4(camera.eye(), atmosphere.time);
  u.cameraRight = glm::vec4(camera.right(), camera.pixelsPerUnitAtDepthOne());
  u.cameraUp = glm::vec4(camera.up(), 0.0f);
  const SkyColours& sky = atmosphere.sky == Sky::Dusk ? kDuskSky : kDaySky;
  u.sunDirection = glm::vec4(glm::normalize(sky.sunDirection), 0.0f);
  u.sunColour = glm::vec4(sky.sun, 1.0f);
  u.skyZenith = glm::vec4(sky.zenith, 1.0f);
  u.skyMiddle = glm::vec4(sky.middle, 1.0f);
  u.skyHorizon = glm::vec4(sky.horizon, 1.0f);
  u.groundHaze = glm::vec4(sky.groundHaze, 1.0f);
  u.fog = glm::vec4(fogDensity, atmosphere.maxFog, 0.0f, 0.0f);
  u.leaderColour = glm::vec4(kLeaderColour, 1.0f);
  for (std::size_t i = 0; i < palette.size(); ++i) u.palette[i] = glm::vec4(palette[i], 1.0f);
  return u;
}

gpu::Defines viewDefines() {
  return {{"VIEW_BINDING", std::to_string(kViewBinding)},
          {"DRAW_PARAMS_BINDING", std::to_string(kDrawParamsBinding)},
          {"PALETTE_SIZE", std::to_string(kGroupPalette.size())}};
}

void ViewUniformBuffer::update(const ViewUniforms& uniforms) const {
  buffer_.upload(std::span<const ViewUniforms>(&uniforms, 1));
  buffer_.bindBase(GL_UNIFORM_BUFFER, kViewBinding);
}

}  // namespace murmur::render

#pragma once
// The colours of a frame: the group palette, the sky, the overlays. Shaders receive them through the
// view uniforms (render/view_uniforms.hpp), so this file is the only place they are written down.
#include <array>
#include <cstddef>
#include <cstdint>

#include <glm/vec3.hpp>

namespace murmur::render {

// Group g is drawn in kGroupPalette[g % size]: hues far apart, so that neighbouring flocks of
// different groups stay apart on screen, and light enough to read against the sky once shaded.
inline constexpr std::array<glm::vec3, 8> kGroupPalette = {
    glm::vec3(0.95f, 0.55f, 0.15f),  // amber
    glm::vec3(0.20f, 0.55f, 0.95f),  // blue
    glm::vec3(0.90f, 0.25f, 0.45f),  // crimson
    glm::vec3(0.30f, 0.80f, 0.35f),  // green
    glm::vec3(0.65f, 0.40f, 0.90f),  // violet
    glm::vec3(0.95f, 0.85f, 0.25f),  // yellow
    glm::vec3(0.20f, 0.80f, 0.80f),  // teal
    glm::vec3(0.95f, 0.50f, 0.75f),  // pink
};

inline glm::vec3 groupColour(std::uint32_t group) { return kGroupPalette[group % kGroupPalette.size()]; }

inline constexpr glm::vec3 kSkyZenith{0.24f, 0.42f, 0.70f};
inline constexpr glm::vec3 kSkyHorizon{0.80f, 0.86f, 0.92f};
inline constexpr glm::vec3 kGroundHaze{0.55f, 0.58f, 0.60f};  // below the horizon and the ambient from below
inline constexpr glm::vec3 kSunColour{1.00f, 0.95f, 0.86f};
inline constexpr glm::vec3 kObstacleColour{0.62f, 0.60f, 0.56f};  // stone
inline constexpr glm::vec3 kPredatorColour{0.85f, 0.10f, 0.08f};
inline constexpr glm::vec3 kBoxColour{0.20f, 0.24f, 0.30f};
inline constexpr glm::vec3 kGridColour{0.35f, 0.40f, 0.45f};

}  // namespace murmur::render

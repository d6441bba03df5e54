#pragma once
// The colours of a frame: the group palette, the sky, the overlays. Shaders receive them through the
// view uniforms (render/view_uniforms.hpp), so this file is the only place they are written down.
#include <array>
#include <cstddef>
#include <cstdint>

#include <glm/vec3.hpp>

namespace murmur::render {

// Group g is drawn in kGroupPalette[g % size]: hues (degrees) far apart, so that neighbouring flocks of
// different groups stay apart on screen, and light enough to read against the sky once shaded.
inline constexpr std::array<glm::vec3, 8> kGroupPalette = {
    glm::vec3(0.95f, 0.55f, 0.15f),  // amber, hue 30
    glm::vec3(0.20f, 0.50f, 0.95f),  // blue, 216
    glm::vec3(0.90f, 0.20f, 0.35f),  // crimson, 347
    glm::vec3(0.30f, 0.80f, 0.35f),  // green, 126
    glm::vec3(0.60f, 0.35f, 0.90f),  // violet, 267
    glm::vec3(0.95f, 0.85f, 0.25f),  // yellow, 51
    glm::vec3(0.20f, 0.80f, 0.75f),  // teal, 175
    glm::vec3(0.95f, 0.45f, 0.85f),  // pink, 312
};

// The colours boids are drawn in, group g in palette[g % size] (the view uniforms carry it).
using GroupPalette = std::array<glm::vec3, kGroupPalette.size()>;

inline glm::vec3 groupColour(std::uint32_t group) {
  return kGroupPalette[group % kGroupPalette.size()];
}

// A sky a frame is drawn under (render::Sky): its gradient from the zenith to the horizon, the haze
// below the horizon (and the ambient light from below), the sun's colour and where it stands.
struct SkyColours {
  glm::vec3 zenith;
  glm::vec3 middle;  // halfway up the gradient from the horizon to the zenith
  glm::vec3 horizon;
  glm::vec3 groundHaze;
  glm::vec3 sun;
  glm::vec3 sunDirection;  // towards the sun; normalised when used
};
inline constexpr SkyColours kDaySky{{0.28f, 0.48f, 0.78f}, {0.57f, 0.69f, 0.865f}, {0.86f, 0.90f, 0.95f},
                                    {0.60f, 0.64f, 0.69f}, {1.00f, 0.95f, 0.86f},  {0.45f, 0.75f, 0.35f}};
// The light of the murmurations people film: deep blue overhead, a warm glow low in the west where
// the sun has just set, dark haze below; birds are seen as silhouettes against it. Between the glow
// and the blue a dusky rose: a straight mix of the two passes through a muddy brown.
inline constexpr SkyColours kDuskSky{{0.12f, 0.17f, 0.34f}, {0.62f, 0.40f, 0.56f}, {0.93f, 0.62f, 0.40f},
                                     {0.30f, 0.26f, 0.30f}, {1.00f, 0.72f, 0.48f}, {-0.90f, 0.06f, 0.20f}};
// BoidColouring::Silhouette: near black, a touch of blue; fog fades far birds into the horizon.
inline constexpr glm::vec3 kSilhouetteColour{0.05f, 0.05f, 0.07f};
inline constexpr glm::vec3 kObstacleColour{0.72f, 0.62f, 0.50f};  // sandstone: warm against the cool sky
// Dark umber: a map's walls stand out from the light floor seen from above, as maps are drawn.
inline constexpr glm::vec3 kWallColour{0.24f, 0.21f, 0.19f};
// Near black: apart from every group hue (the old red was close to the crimson group), on sky and floor.
inline constexpr glm::vec3 kPredatorColour{0.10f, 0.09f, 0.11f};
// The flocking lab's roles (Bourg & Seemann): emergent leaders red (drawn in it whatever their
// group when boids are coloured by group and marked LeaderMark::Red, the default of 2D scenes),
// chasers blue, interceptors magenta, the player green (reserved for the player unit).
inline constexpr glm::vec3 kLeaderColour{0.92f, 0.12f, 0.10f};
inline constexpr glm::vec3 kChaserColour{0.15f, 0.35f, 0.95f};
inline constexpr glm::vec3 kInterceptorColour{0.90f, 0.15f, 0.90f};
inline constexpr glm::vec3 kPlayerColour{0.20f, 0.85f, 0.25f};
// The lab's ShowVectors: each unit's velocity in green, the force on it in black (nothing else is
// black: the predators and silhouettes are a little lighter).
inline constexpr glm::vec3 kVelocityColour{0.05f, 0.60f, 0.15f};
inline constexpr glm::vec3 kForceColour{0.0f, 0.0f, 0.0f};
inline constexpr glm::vec3 kBoxColour{0.20f, 0.24f, 0.30f};
inline constexpr glm::vec3 kGridColour{0.35f, 0.40f, 0.45f};

}  // namespace murmur::render

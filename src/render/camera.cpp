#include "render/camera.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>
#include <vector>

#include <glm/common.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/trigonometric.hpp>

namespace murmur::render {
namespace {

// Straight down is fine: right() depends on the yaw only, so the view never degenerates.
constexpr float kMaxPitch = glm::radians(90.0f);
constexpr float kMinDistance = 0.05f;

}  // namespace

void Camera::setOrbit(glm::vec3 target, float distance, float yaw, float pitch) {
  target_ = target;
  distance_ = std::max(distance, kMinDistance);
  yaw_ = yaw;
  pitch_ = std::clamp(pitch, -kMaxPitch, kMaxPitch);
}

void Camera::setViewport(int width, int height) {
  width_ = std::max(width, 1);
  height_ = std::max(height, 1);
}

void Camera::setLeftInset(int leftPixels) {
  leftInset_ = std::max(leftPixels, 0);
}

void Camera::setFieldOfView(float verticalDegrees) {
  fovYDegrees_ = std::clamp(verticalDegrees, 5.0f, 150.0f);
}

void Camera::frameBox(glm::vec3 min, glm::vec3 max) {
  std::array<glm::vec3, 8> corners;
  for (int i = 0; i < 8; ++i)
    corners[i] = glm::vec3((i & 1) ? max.x : min.x, (i & 2) ? max.y : min.y, (i & 4) ? max.z : min.z);
  framePoints(corners, 0.94f, 0.0f);
}

void Camera::framePoints(std::span<const glm::vec3> points, float fill, float trim) {
  if (points.empty()) return;
  const std::size_t lowRank = std::min(std::size_t(trim * float(points.size())), points.size() - 1);
  const std::size_t highRank = points.size() - 1 - lowRank;
  // Where to start from: the box of the points on the world's axes, trimmed as the outline is.
  glm::vec3 min, max;
  {
    std::vector<float> values(points.size());
    for (int axis = 0; axis < 3; ++axis) {
      for (std::size_t i = 0; i < points.size(); ++i) values[i] = points[i][axis];
      std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(lowRank), values.end());
      min[axis] = values[lowRank];
      std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(highRank), values.end());
      max[axis] = values[highRank];
    }
  }
  const glm::vec3 centre = 0.5f * (min + max);
  sceneRadius_ = std::max(0.5f * glm::length(max - min), 1.0f);
  const float tanY = std::tan(0.5f * glm::radians(fovYDegrees_));
  const float aspect = framedAspect();
  // The points' outline on screen per axis: the (trim)-th and (1 - trim)-th of their coordinates
  // along it (the extremes without trim), with their depths. place(point) gives a point's screen
  // coordinates and its depth, once for both axes.
  std::array<std::vector<std::pair<float, float>>, 2> along;  // per axis: (screen coordinate, depth)
  along[0].resize(points.size());
  along[1].resize(points.size());
  struct Outline {
    glm::vec2 lo, hi, loDepth, hiDepth;
  };
  auto outline = [&](auto&& place) {
    for (std::size_t i = 0; i < points.size(); ++i) {
      const auto [screen, depth] = place(points[i]);
      along[0][i] = {screen.x, depth};
      along[1][i] = {screen.y, depth};
    }
    Outline result{};
    for (int axis = 0; axis < 2; ++axis) {
      auto& values = along[std::size_t(axis)];
      const auto rank = [&](std::size_t r) {
        std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(r), values.end());
        return values[r];
      };
      std::tie(result.lo[axis], result.loDepth[axis]) = rank(lowRank);
      std::tie(result.hi[axis], result.hiDepth[axis]) = rank(highRank);
    }
    return result;
  };
  if (orthographic_) {
    // No perspective: the outline's half-extents along screen right and up set the visible height.
    const Outline box = outline([&](glm::vec3 point) {
      return std::pair{glm::vec2(glm::dot(point - centre, right()), glm::dot(point - centre, up())), 1.0f};
    });
    target_ = centre + 0.5f * (box.lo.x + box.hi.x) * right() + 0.5f * (box.lo.y + box.hi.y) * up();
    const glm::vec2 extent = 0.5f * (box.hi - box.lo);
    const float halfHeight = std::max(std::max(extent.y, extent.x / aspect) / fill, 1e-3f);
    // The visible half-height is distance * tan(fov / 2), as in the perspective view's target plane.
    distance_ = halfHeight / tanY;
    return;
  }
  // The outline on screen, centred by moving the target (a box seen from above projects lower than
  // its centre): its larger half-extent in normalised device coordinates, infinite while more
  // points are behind the near plane than the outline leaves out (those behind are left out first).
  const float tanX = tanY * aspect;
  auto centredExtent = [&](float distance) {
    target_ = centre;
    distance_ = distance;
    float extent = 0.0f;
    for (int round = 0; round < 3; ++round) {
      const glm::mat4 viewProjection = framedProjection() * view();
      std::size_t behind = 0;
      const Outline box = outline([&](glm::vec3 point) {
        const glm::vec4 clip = viewProjection * glm::vec4(point, 1.0f);
        if (clip.w > nearPlane()) return std::pair{glm::vec2(clip) / clip.w, clip.w};
        ++behind;
        // Left out at the low end of both axes: no pixel, no depth to slide by.
        return std::pair{glm::vec2(-std::numeric_limits<float>::infinity()), 1.0f};
      });
      if (behind > lowRank) return std::numeric_limits<float>::infinity();
      extent = 0.5f * std::max(box.hi.x - box.lo.x, box.hi.y - box.lo.y);
      // Sliding the camera by s units moves a point at depth w by s / (w tan) on screen: the
      // slide that makes the two extremes symmetric.
      const glm::vec2 tangent(tanX, tanY);
      const glm::vec2 slide =
          (box.lo + box.hi) / (1.0f / (box.loDepth * tangent) + 1.0f / (box.hiDepth * tangent));
      target_ += slide.x * right() + slide.y * up();
    }
    return extent;
  };
  // The extent shrinks as the distance grows: bisect for the distance where it fills `fill` of
  // the view, starting from one where the bounding sphere fits.
  float near = 0.0f,
        far = sceneRadius_ / std::sin(std::min(std::atan(tanX), std::atan(tanY))) / std::min(fill, 1.0f);
  for (int i = 0; i < 24; ++i) {
    const float middle = 0.5f * (near + far);
    (centredExtent(middle) > fill ? near : far) = middle;
  }
  centredExtent(far);
}

void Camera::orbit(float deltaYaw, float deltaPitch) {
  yaw_ += deltaYaw;
  pitch_ = std::clamp(pitch_ + deltaPitch, -kMaxPitch, kMaxPitch);
}

void Camera::zoom(float factor) {
  distance_ = std::max(distance_ * factor, kMinDistance);
}

void Camera::pan(glm::vec2 pixels) {
  const float unitsPerPixel = distance_ / pixelsPerUnit();
  target_ += (-pixels.x * right() + pixels.y * up()) * unitsPerPixel;
}

glm::vec3 Camera::eye() const {
  return target_ - distance_ * forward();
}

glm::vec3 Camera::forward() const {
  // From the eye, which sits at target + distance * (cos p sin y, sin p, cos p cos y).
  return -glm::vec3(std::cos(pitch_) * std::sin(yaw_), std::sin(pitch_), std::cos(pitch_) * std::cos(yaw_));
}

glm::vec3 Camera::right() const {
  return glm::vec3(std::cos(yaw_), 0.0f, -std::sin(yaw_));
}

glm::vec3 Camera::up() const {
  return glm::cross(right(), forward());
}

// Both planes scale with the distance, so that the 24-bit depth buffer keeps its precision whether
// the camera looks at the whole world or follows a flock from close by.
float Camera::nearPlane() const {
  return std::max(0.01f * distance_, 0.01f);
}

float Camera::farPlane() const {
  return distance_ + 4.0f * sceneRadius_;
}

float Camera::pixelsPerUnit() const {
  return float(height_) / (2.0f * std::tan(0.5f * glm::radians(fovYDegrees_)));
}

float Camera::pixelsPerUnitAtDepthOne() const {
  return orthographic_ ? pixelsPerUnit() / distance_ : pixelsPerUnit();
}

glm::mat4 Camera::view() const {
  return glm::lookAt(eye(), target_, up());
}

glm::mat4 Camera::framedProjection() const {
  if (orthographic_) {
    const float halfHeight = distance_ * std::tan(0.5f * glm::radians(fovYDegrees_));
    const float halfWidth = halfHeight * framedAspect();
    return glm::ortho(-halfWidth, halfWidth, -halfHeight, halfHeight, nearPlane(), farPlane());
  }
  return glm::perspective(glm::radians(fovYDegrees_), framedAspect(), nearPlane(), farPlane());
}

glm::mat4 Camera::projection() const {
  // The framed part's x in [-1, 1] lands on [inset, width] of the whole viewport: x scaled by
  // (width - inset) / width, then moved by inset / width (in clip space: by that much times w, the
  // eye depth of a perspective projection, 1 of an orthographic one).
  const float scale = float(width_ - leftInset()) / float(width_), shift = float(leftInset()) / float(width_);
  glm::mat4 result = framedProjection();
  for (int column = 0; column < 4; ++column)
    result[column][0] = scale * result[column][0] + shift * result[column][3];
  return result;
}

glm::mat4 Camera::viewProjection() const {
  return projection() * view();
}

std::optional<glm::vec2> Camera::project(glm::vec3 worldPoint) const {
  return pixelOf(viewProjection() * glm::vec4(worldPoint, 1.0f));
}

std::optional<glm::vec2> Camera::pixelOf(glm::vec4 clip) const {
  if (!(clip.w > 0.0f)) return std::nullopt;  // behind the eye, or a non-finite point or camera
  const glm::vec2 ndc = glm::vec2(clip) / clip.w;
  const glm::vec2 pixel((0.5f * ndc.x + 0.5f) * float(width_), (0.5f - 0.5f * ndc.y) * float(height_));
  if (!std::isfinite(pixel.x) || !std::isfinite(pixel.y)) return std::nullopt;
  return pixel;
}

}  // namespace murmur::render

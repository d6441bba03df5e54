#include "render/camera.hpp"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/trigonometric.hpp>

namespace murmur::render {
namespace {

constexpr float kMaxPitch = glm::radians(89.0f);
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

void Camera::setFieldOfView(float verticalDegrees) { fovYDegrees_ = std::clamp(verticalDegrees, 5.0f, 150.0f); }

void Camera::frameBox(glm::vec3 min, glm::vec3 max) {
  target_ = 0.5f * (min + max);
  sceneRadius_ = std::max(0.5f * glm::length(max - min), 1.0f);
  // Back off until every corner lies within both half-angles of view: a corner at (x, y) across
  // the view and z along it is seen at depth distance + z.
  const float tanY = std::tan(0.5f * glm::radians(fovYDegrees_));
  const float tanX = tanY * float(width_) / float(height_);
  float distance = kMinDistance;
  for (int corner = 0; corner < 8; ++corner) {
    const glm::vec3 c = glm::vec3((corner & 1) ? max.x : min.x, (corner & 2) ? max.y : min.y,
                                  (corner & 4) ? max.z : min.z) - target_;
    const float z = glm::dot(c, forward());
    distance = std::max({distance, std::abs(glm::dot(c, right())) / tanX - z, std::abs(glm::dot(c, up())) / tanY - z});
  }
  distance_ = 1.04f * distance;  // a small margin around the box
}

void Camera::orbit(float deltaYaw, float deltaPitch) {
  yaw_ += deltaYaw;
  pitch_ = std::clamp(pitch_ + deltaPitch, -kMaxPitch, kMaxPitch);
}

void Camera::zoom(float factor) { distance_ = std::max(distance_ * factor, kMinDistance); }

void Camera::pan(glm::vec2 pixels) {
  const float unitsPerPixel = distance_ / pixelsPerUnit();
  target_ += (-pixels.x * right() + pixels.y * up()) * unitsPerPixel;
}

glm::vec3 Camera::eye() const { return target_ - distance_ * forward(); }

glm::vec3 Camera::forward() const {
  // From the eye, which sits at target + distance * (cos p sin y, sin p, cos p cos y).
  return -glm::vec3(std::cos(pitch_) * std::sin(yaw_), std::sin(pitch_), std::cos(pitch_) * std::cos(yaw_));
}

glm::vec3 Camera::right() const { return glm::vec3(std::cos(yaw_), 0.0f, -std::sin(yaw_)); }

glm::vec3 Camera::up() const { return glm::cross(right(), forward()); }

// Both planes scale with the distance, so that the 24-bit depth buffer keeps its precision whether
// the camera looks at the whole world or follows a flock from close by.
float Camera::nearPlane() const { return std::max(0.01f * distance_, 0.01f); }

float Camera::farPlane() const { return distance_ + 4.0f * sceneRadius_; }

float Camera::pixelsPerUnit() const {
  return float(height_) / (2.0f * std::tan(0.5f * glm::radians(fovYDegrees_)));
}

glm::mat4 Camera::view() const { return glm::lookAt(eye(), target_, up()); }

glm::mat4 Camera::projection() const {
  return glm::perspective(glm::radians(fovYDegrees_), float(width_) / float(height_), nearPlane(), farPlane());
}

glm::mat4 Camera::viewProjection() const { return projection() * view(); }

std::optional<glm::vec2> Camera::project(glm::vec3 worldPoint) const {
  const glm::vec4 clip = viewProjection() * glm::vec4(worldPoint, 1.0f);
  if (clip.w <= 0.0f) return std::nullopt;
  const glm::vec2 ndc = glm::vec2(clip) / clip.w;
  return glm::vec2((0.5f * ndc.x + 0.5f) * float(width_), (0.5f - 0.5f * ndc.y) * float(height_));
}

}  // namespace murmur::render

#pragma once
// An orbit camera with a perspective (or orthographic) projection: it looks at a target from a
// distance, turned by a yaw about +y and a pitch above the horizontal plane. Orthographic, it shows
// what the perspective view shows in the target's plane, without foreshortening (2D worlds, seen
// from straight above). The mouse controls of the demo (orbit, zoom,
// pan) and the tests (project) both use it.
#include <algorithm>
#include <optional>
#include <span>

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

namespace murmur::render {

class Camera {
 public:
  // yaw 0 looks from +z towards -z; pitch > 0 looks down from above. Radians.
  void setOrbit(glm::vec3 target, float distance, float yaw, float pitch);
  void setTarget(glm::vec3 target) { target_ = target; }
  void setViewport(int width, int height);
  // The view is framed in the viewport's part right of leftPixels (what a panel leaves free): the
  // target sits in the middle of that part and frameBox fits the box into it, while the viewport
  // still draws to its left edge (an off-centre projection; the view is not cut). Clamped to half
  // the viewport's width; 0: the whole viewport.
  void setLeftInset(int leftPixels);
  int leftInset() const { return std::min(leftInset_, width_ / 2); }
  void setFieldOfView(float verticalDegrees);
  void setOrthographic(bool orthographic) { orthographic_ = orthographic; }
  bool orthographic() const { return orthographic_; }
  // Puts the target at the centre of the box and moves back until the whole box fits the view;
  // yaw and pitch stay. The clip range follows the box's size from then on.
  void frameBox(glm::vec3 min, glm::vec3 max);
  // Frames points as frameBox frames the box's corners: their outline centred on the screen and
  // filling `fill` of the view (0..1), where the outline leaves out the share `trim` of the points
  // at each end of each screen axis (a few strays do not set the view; 0: every point).
  void framePoints(std::span<const glm::vec3> points, float fill, float trim);

  void orbit(float deltaYaw, float deltaPitch);  // pitch stays within +-90 degrees
  void zoom(float factor);                       // distance *= factor
  // Moves the target so that the point under the mouse follows it (pixels, y down).
  void pan(glm::vec2 pixels);

  glm::vec3 target() const { return target_; }
  float distance() const { return distance_; }
  float yaw() const { return yaw_; }
  float pitch() const { return pitch_; }
  float fieldOfView() const { return fovYDegrees_; }
  int width() const { return width_; }
  int height() const { return height_; }

  glm::vec3 eye() const;
  glm::vec3 forward() const;  // unit, from the eye to the target
  glm::vec3 right() const;    // unit, screen right
  glm::vec3 up() const;       // unit, screen up
  float nearPlane() const;
  float farPlane() const;
  // Pixels covered by one unit seen at distance 1 (point sizes: size * this / distance).
  float pixelsPerUnit() const;
  // What a unit of size at clip-space depth w covers, times w: pixelsPerUnit() in perspective,
  // the target plane's pixels per unit orthographically (where w is 1). Shaders size boids by it.
  float pixelsPerUnitAtDepthOne() const;

  glm::mat4 view() const;
  glm::mat4 projection() const;
  glm::mat4 viewProjection() const;

  // The pixel where worldPoint appears: x right, y down from the top-left corner of the viewport,
  // pixel (i, j) covering [i, i+1) x [j, j+1) (the row order of OffscreenTarget::readRgba). nullopt
  // when the point is behind the camera, or it or the camera is not finite (a diverged flock).
  // Points outside the viewport give pixels outside it.
  std::optional<glm::vec2> project(glm::vec3 worldPoint) const;
  // The same pixel of a point already in clip space (viewProjection() times it): for callers that
  // need its w (the eye depth) too.
  std::optional<glm::vec2> pixelOf(glm::vec4 clip) const;

 private:
  glm::vec3 target_{0.0f};
  float distance_ = 250.0f;
  float yaw_ = 0.6f;
  float pitch_ = 0.35f;
  float fovYDegrees_ = 50.0f;
  bool orthographic_ = false;
  float sceneRadius_ = 150.0f;  // what the clip range must hold around the target
  int width_ = 1280;
  int height_ = 720;
  int leftInset_ = 0;
  // The projection into the inset part of the viewport, whose clip space frameBox works in.
  glm::mat4 framedProjection() const;
  float framedAspect() const { return float(width_ - leftInset()) / float(height_); }
};

}  // namespace murmur::render

#include "app/window_context.hpp"

#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

// GL comes from glad (gpu/context.hpp), never from GLFW's GL/gl.h.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "gpu/error.hpp"
#include "gpu/gl_objects.hpp"

namespace murmur::app {
namespace {

// GLFW reports errors through a callback; the last one names the reason for a failure.
std::string lastGlfwError;

void onGlfwError(int code, const char* description) {
  lastGlfwError = std::string(description) + " (GLFW error " + std::to_string(code) + ")";
}

GLFWwindow* createWindow(const std::string& title, int width, int height, int major, int minor) {
  glfwDefaultWindowHints();
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, major);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, minor);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  // No depth or samples here: the frame is rendered into an offscreen target (MSAA, depth) and
  // copied to the window, which only holds colour.
  glfwWindowHint(GLFW_DEPTH_BITS, 0);
  glfwWindowHint(GLFW_STENCIL_BITS, 0);
  return glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
}

}  // namespace

bool displayAvailable() {
  for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY"}) {
    const char* value = std::getenv(name);
    if (value != nullptr && *value != '\0') return true;
  }
  return false;
}

WindowContext::WindowContext(const std::string& title, int width, int height) {
  glfwSetErrorCallback(onGlfwError);
  if (glfwInit() != GLFW_TRUE) throw gpu::ContextError("cannot initialise GLFW: " + lastGlfwError);
  window_ = createWindow(title, width, height, 4, 5);
  if (window_ == nullptr) window_ = createWindow(title, width, height, 4, 3);
  if (window_ == nullptr) {
    glfwTerminate();
    throw gpu::ContextError("cannot open an OpenGL 4.3 core window: " + lastGlfwError);
  }
  glfwSetWindowUserPointer(window_, this);
  glfwSetKeyCallback(window_, onKey);
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(1);
  try {
    info_ = gpu::loadGl(glfwGetProcAddress, "GLFW window");
  } catch (...) {
    glfwDestroyWindow(window_);
    glfwTerminate();
    throw;
  }
}

WindowContext::~WindowContext() {
  glfwDestroyWindow(window_);
  glfwTerminate();
}

void WindowContext::makeCurrent() {
  glfwMakeContextCurrent(window_);
}

void WindowContext::release() {
  glfwMakeContextCurrent(nullptr);
}

bool WindowContext::shouldClose() const {
  return glfwWindowShouldClose(window_) == GLFW_TRUE;
}

void WindowContext::requestClose() {
  glfwSetWindowShouldClose(window_, GLFW_TRUE);
}

glm::ivec2 WindowContext::framebufferSize() const {
  glm::ivec2 size(0);
  glfwGetFramebufferSize(window_, &size.x, &size.y);
  return size;
}

std::vector<std::uint8_t> WindowContext::readBackBuffer() const {
  const glm::ivec2 size = framebufferSize();
  const std::size_t row = std::size_t(size.x) * 4;
  std::vector<std::uint8_t> bottomUp(row * std::size_t(size.y));
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  gpu::countBlockingWait();
  glReadPixels(0, 0, size.x, size.y, GL_RGBA, GL_UNSIGNED_BYTE, bottomUp.data());
  // GL's first row is the bottom one; the panel's blending leaves alpha below 1, which a PNG would
  // show as holes.
  std::vector<std::uint8_t> topDown(bottomUp.size());
  for (int y = 0; y < size.y; ++y)
    std::memcpy(&topDown[std::size_t(y) * row], &bottomUp[std::size_t(size.y - 1 - y) * row], row);
  for (std::size_t i = 3; i < topDown.size(); i += 4) topDown[i] = 255;
  return topDown;
}

void WindowContext::swapBuffers() {
  glfwSwapBuffers(window_);
}

void WindowContext::onKey(GLFWwindow* window, int key, int /*scancode*/, int action, int /*mods*/) {
  if (action != GLFW_PRESS || key == GLFW_KEY_UNKNOWN) return;
  static_cast<WindowContext*>(glfwGetWindowUserPointer(window))->keyPresses_.push_back(key);
}

std::vector<int> WindowContext::takeKeyPresses() {
  return std::exchange(keyPresses_, {});
}

}  // namespace murmur::app

#pragma once
// The demo's window: a GLFW window with an OpenGL 4.5 core context (4.3 when 4.5 is refused),
// behind the gpu::Context interface so that the GPU backend and the renderer share it.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <glm/vec2.hpp>

#include "gpu/context.hpp"

struct GLFWwindow;

namespace murmur::app {

// A display to open windows on: DISPLAY (X11) or WAYLAND_DISPLAY is set.
bool displayAvailable();

class WindowContext final : public gpu::Context {
 public:
  // Opens the window, makes its context current and loads GL. Throws gpu::ContextError with GLFW's
  // reason when there is no display, no GLFW or no OpenGL 4.3 core context.
  WindowContext(const std::string& title, int width, int height);
  ~WindowContext() override;

  void makeCurrent() override;
  void release() override;
  const gpu::ContextInfo& info() const override { return info_; }

  GLFWwindow* window() const { return window_; }
  bool shouldClose() const;
  void requestClose();
  // The framebuffer's size in pixels (differs from the window's on high-DPI screens).
  glm::ivec2 framebufferSize() const;
  void swapBuffers();
  // What the window shows before the next swapBuffers (the back buffer), RGBA rows from the top:
  // the view with the panel drawn over it. A blocking wait (gpu::blockingWaitCount).
  std::vector<std::uint8_t> readBackBuffer() const;

  // The keys pressed since the last call, in order (GLFW key codes; repeats excluded). They come
  // from GLFW's key callback, so a press released within the same frame is still here: polling key
  // state once per frame would miss it at low frame rates. Installed before Dear ImGui's callbacks,
  // which chain to it.
  std::vector<int> takeKeyPresses();

 private:
  static void onKey(GLFWwindow* window, int key, int scancode, int action, int mods);

  GLFWwindow* window_ = nullptr;
  std::vector<int> keyPresses_;
  gpu::ContextInfo info_;
};

}  // namespace murmur::app

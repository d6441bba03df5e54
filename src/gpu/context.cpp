#include "gpu/context.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <string_view>
#include <utility>

#include <glad/egl.h>

#include "gpu/error.hpp"

namespace murmur::gpu {
namespace {

std::string eglErrorName(EGLint error) {
  static const std::pair<EGLint, const char*> kNames[] = {
      {EGL_SUCCESS, "EGL_SUCCESS"},
      {EGL_NOT_INITIALIZED, "EGL_NOT_INITIALIZED"},
      {EGL_BAD_ACCESS, "EGL_BAD_ACCESS"},
      {EGL_BAD_ALLOC, "EGL_BAD_ALLOC"},
      {EGL_BAD_ATTRIBUTE, "EGL_BAD_ATTRIBUTE"},
      {EGL_BAD_CONFIG, "EGL_BAD_CONFIG"},
      {EGL_BAD_CONTEXT, "EGL_BAD_CONTEXT"},
      {EGL_BAD_CURRENT_SURFACE, "EGL_BAD_CURRENT_SURFACE"},
      {EGL_BAD_DISPLAY, "EGL_BAD_DISPLAY"},
      {EGL_BAD_MATCH, "EGL_BAD_MATCH"},
      {EGL_BAD_NATIVE_PIXMAP, "EGL_BAD_NATIVE_PIXMAP"},
      {EGL_BAD_NATIVE_WINDOW, "EGL_BAD_NATIVE_WINDOW"},
      {EGL_BAD_PARAMETER, "EGL_BAD_PARAMETER"},
      {EGL_BAD_SURFACE, "EGL_BAD_SURFACE"},
      {EGL_CONTEXT_LOST, "EGL_CONTEXT_LOST"},
  };
  for (const auto& [code, name] : kNames)
    if (code == error) return name;
  return "EGL error " + std::to_string(error);
}

std::string lastEglError() {
  return eglErrorName(eglGetError());
}

bool hasExtension(const char* list, std::string_view name) {
  if (list == nullptr) return false;
  const std::string_view all(list);
  for (std::size_t pos = 0; pos < all.size();) {
    const std::size_t end = std::min(all.find(' ', pos), all.size());
    if (all.substr(pos, end - pos) == name) return true;
    pos = end + 1;
  }
  return false;
}

// What EGL offers before any display exists (client extensions). Read once per load: glad resets
// its extension flags to a display's own extensions whenever it loads for a display.
struct ClientEgl {
  // EGL_EXT_device_enumeration + EGL_EXT_device_query, or EGL_EXT_device_base, the older name of
  // the pair and the only one NVIDIA's driver reports (behind libglvnd with no Mesa beside it)
  bool enumerateDevices = false;
  bool platformDevice = false;  // EGL_EXT_platform_device
  bool surfaceless = false;     // EGL_MESA_platform_surfaceless
};

// Loads libEGL (on first use) and its client extensions.
ClientEgl loadEglClient() {
  if (gladLoaderLoadEGL(EGL_NO_DISPLAY) == 0)
    throw ContextError("cannot load libEGL.so.1 (install libegl1 and a driver: Mesa or the NVIDIA driver)");
  ClientEgl client;
  const bool pair = GLAD_EGL_EXT_device_enumeration && GLAD_EGL_EXT_device_query;
  client.enumerateDevices = (pair || GLAD_EGL_EXT_device_base) && eglQueryDevicesEXT != nullptr &&
                            eglQueryDeviceStringEXT != nullptr;
  client.platformDevice = GLAD_EGL_EXT_platform_device != 0;
  client.surfaceless = GLAD_EGL_MESA_platform_surfaceless != 0;
  return client;
}

std::vector<EGLDeviceEXT> queryDevices(const ClientEgl& client) {
  if (!client.enumerateDevices) return {};
  EGLint count = 0;
  if (!eglQueryDevicesEXT(0, nullptr, &count) || count <= 0) return {};
  std::vector<EGLDeviceEXT> devices(static_cast<std::size_t>(count));
  if (!eglQueryDevicesEXT(count, devices.data(), &count)) return {};
  devices.resize(static_cast<std::size_t>(count));
  return devices;
}

EglDevice describeDevice(int index, EGLDeviceEXT device) {
  EglDevice out;
  out.index = index;
  const char* extensions = eglQueryDeviceStringEXT(device, EGL_EXTENSIONS);
  out.extensions = extensions != nullptr ? extensions : "";
  DeviceFacts facts;
  facts.software = hasExtension(extensions, "EGL_MESA_device_software");
  std::string name;
  if (hasExtension(extensions, "EGL_EXT_device_query_name"))
    if (const char* renderer = eglQueryDeviceStringEXT(device, EGL_RENDERER_EXT)) name = renderer;
  if (hasExtension(extensions, "EGL_NV_device_cuda") && eglQueryDeviceAttribEXT != nullptr) {
    EGLAttrib cuda = -1;
    if (eglQueryDeviceAttribEXT(device, EGL_CUDA_DEVICE_NV, &cuda)) {
      facts.cuda = true;
      name += (name.empty() ? "" : ", ") + std::string("CUDA device ") + std::to_string(cuda);
    }
  }
  if (hasExtension(extensions, "EGL_EXT_device_drm"))
    if (const char* file = eglQueryDeviceStringEXT(device, EGL_DRM_DEVICE_FILE_EXT)) {
      name += (name.empty() ? "" : ", ") + std::string(file);
      readPciFacts(file, "/sys", facts);
    }
  if (name.empty())
    name = facts.software ? "software renderer (Mesa)" : "EGL device " + std::to_string(index);
  out.name = name;
  out.type = classifyDevice(facts);
  return out;
}

std::vector<EglDevice> describeDevices(const std::vector<EGLDeviceEXT>& devices) {
  std::vector<EglDevice> out;
  for (std::size_t i = 0; i < devices.size(); ++i)
    out.push_back(describeDevice(static_cast<int>(i), devices[i]));
  return out;
}

// eglInitialize is not reference counted: one eglTerminate ends every context on a display, and
// two devices opened by one process share the display handle. Count our own users.
class DisplayUsers {
 public:
  static DisplayUsers& instance() {
    static DisplayUsers users;
    return users;
  }
  void acquire(EGLDisplay display) {
    const std::lock_guard lock(mutex_);
    ++count_[display];
  }
  // Terminates the display when nobody (counted) uses it any more.
  void release(EGLDisplay display) {
    const std::lock_guard lock(mutex_);
    auto it = count_.find(display);
    if (it != count_.end() && --it->second > 0) return;
    if (it != count_.end()) count_.erase(it);
    eglTerminate(display);
  }

 private:
  std::mutex mutex_;
  std::map<EGLDisplay, int> count_;
};

EGLDisplay platformDisplay(EGLenum platform, void* native) {
  if (eglGetPlatformDisplay != nullptr) return eglGetPlatformDisplay(platform, native, nullptr);
  if (eglGetPlatformDisplayEXT != nullptr) return eglGetPlatformDisplayEXT(platform, native, nullptr);
  return EGL_NO_DISPLAY;
}

GLADapiproc eglProc(const char* name) {
  return reinterpret_cast<GLADapiproc>(eglGetProcAddress(name));
}

class EglHeadlessContext final : public Context {
 public:
  // Makes a context on display (taking over one counted use of it) or throws ContextError with the
  // reason; the caller tries the next candidate.
  EglHeadlessContext(EGLDisplay display, std::string platform, bool debug) : display_(display) {
    try {
      create(platform, debug);
    } catch (...) {
      destroy();
      throw;
    }
  }
  ~EglHeadlessContext() override { destroy(); }

  void makeCurrent() override {
    if (!eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_))
      throw ContextError("eglMakeCurrent failed: " + lastEglError());
  }
  void release() override { eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT); }
  const ContextInfo& info() const override { return info_; }

 private:
  void create(const std::string& platform, bool debug) {
    EGLint major = 0, minor = 0;
    if (!eglInitialize(display_, &major, &minor)) throw ContextError("eglInitialize: " + lastEglError());
    // Display extensions (surfaceless, no-config, create_context) of this display.
    if (gladLoaderLoadEGL(display_) == 0) throw ContextError("cannot load the EGL functions of the display");
    if (!GLAD_EGL_KHR_surfaceless_context) throw ContextError("no EGL_KHR_surfaceless_context");
    if (!eglBindAPI(EGL_OPENGL_API))
      throw ContextError("no desktop OpenGL (eglBindAPI: " + lastEglError() + ")");

    EGLConfig config = EGL_NO_CONFIG_KHR;
    if (!GLAD_EGL_KHR_no_config_context) {
      const EGLint attributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                   EGL_NONE};
      EGLint found = 0;
      if (!eglChooseConfig(display_, attributes, &config, 1, &found) || found < 1)
        throw ContextError("no EGL config for desktop OpenGL");
    }
    const bool egl15 = major > 1 || (major == 1 && minor >= 5);
    if (!egl15 && !GLAD_EGL_KHR_create_context)
      throw ContextError("EGL " + std::to_string(major) + "." + std::to_string(minor) +
                         " without EGL_KHR_create_context cannot ask for a core context");
    std::string refused;
    for (const auto& [glMajor, glMinor] : {std::pair{4, 5}, std::pair{4, 3}}) {
      std::vector<EGLint> attributes = {EGL_CONTEXT_MAJOR_VERSION,       glMajor,
                                        EGL_CONTEXT_MINOR_VERSION,       glMinor,
                                        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT};
      if (debug) {
        if (egl15)
          attributes.insert(attributes.end(), {EGL_CONTEXT_OPENGL_DEBUG, EGL_TRUE});
        else
          attributes.insert(attributes.end(), {EGL_CONTEXT_FLAGS_KHR, EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR});
      }
      attributes.push_back(EGL_NONE);
      context_ = eglCreateContext(display_, config, EGL_NO_CONTEXT, attributes.data());
      if (context_ != EGL_NO_CONTEXT) break;
      refused += (refused.empty() ? "" : ", ") + std::to_string(glMajor) + "." + std::to_string(glMinor) +
                 " core: " + lastEglError();
    }
    if (context_ == EGL_NO_CONTEXT) throw ContextError("no OpenGL context (" + refused + ")");
    makeCurrent();
    info_ = loadGl(eglProc, platform);
  }

  void destroy() {
    if (context_ != EGL_NO_CONTEXT) {
      eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      eglDestroyContext(display_, context_);
      context_ = EGL_NO_CONTEXT;
    }
    if (display_ != EGL_NO_DISPLAY) {
      DisplayUsers::instance().release(display_);
      display_ = EGL_NO_DISPLAY;
    }
  }

  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLContext context_ = EGL_NO_CONTEXT;
  ContextInfo info_;
};

std::unique_ptr<Context> tryDisplay(EGLDisplay display, const std::string& platform, bool debug) {
  if (display == EGL_NO_DISPLAY) throw ContextError("no EGL display (" + lastEglError() + ")");
  DisplayUsers::instance().acquire(display);
  return std::make_unique<EglHeadlessContext>(display, platform, debug);
}

std::string getString(GLenum name) {
  const GLubyte* text = glGetString(name);
  return text != nullptr ? reinterpret_cast<const char*>(text) : "";
}

bool hasGlExtension(std::string_view name) {
  GLint count = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &count);
  for (GLint i = 0; i < count; ++i) {
    const auto* ext = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, static_cast<GLuint>(i)));
    if (ext != nullptr && name == ext) return true;
  }
  return false;
}

// A /proc/meminfo figure ("MemTotal:", "MemAvailable:"), bytes; 0 when absent.
std::uint64_t hostMemory(std::string_view key) {
  std::ifstream meminfo("/proc/meminfo");
  std::string name, unit;
  std::uint64_t kib = 0;
  while (meminfo >> name >> kib >> unit)
    if (name == key) return kib * 1024;
  return 0;
}

bool isSoftwareRenderer(const std::string& renderer) {
  return renderer.find("llvmpipe") != std::string::npos || renderer.find("softpipe") != std::string::npos;
}

// Vendor memory queries (the enums of GL_NVX_gpu_memory_info and GL_ATI_meminfo; values in KiB).
constexpr GLenum kDedicatedVidmemNvx = 0x9047;
constexpr GLenum kCurrentAvailableVidmemNvx = 0x9049;
constexpr GLenum kVboFreeMemoryAti = 0x87FB;  // 4 values: total free first

struct DeviceMemory {
  std::uint64_t total = 0;
  std::uint64_t free = 0;
  std::string source = "unknown";
};

DeviceMemory queryDeviceMemory(const std::string& renderer) {
  DeviceMemory memory;
  if (hasGlExtension("GL_NVX_gpu_memory_info")) {
    GLint total = 0, free = 0;
    glGetIntegerv(kDedicatedVidmemNvx, &total);
    glGetIntegerv(kCurrentAvailableVidmemNvx, &free);
    memory = {static_cast<std::uint64_t>(total) * 1024, static_cast<std::uint64_t>(free) * 1024,
              "GL_NVX_gpu_memory_info"};
  } else if (hasGlExtension("GL_ATI_meminfo")) {
    std::array<GLint, 4> kib{};
    glGetIntegerv(kVboFreeMemoryAti, kib.data());
    memory = {0, static_cast<std::uint64_t>(kib[0]) * 1024, "GL_ATI_meminfo"};
  } else if (isSoftwareRenderer(renderer)) {
    memory = {hostMemory("MemTotal:"), hostMemory("MemAvailable:"), "host memory"};
  }
  return memory;
}

}  // namespace

ContextInfo loadGl(GLADloadfunc load, std::string platform) {
  const int version = gladLoadGL(load);
  if (version == 0) throw ContextError("cannot load the OpenGL functions (" + platform + ")");
  ContextInfo info;
  info.platform = std::move(platform);
  info.majorVersion = GLAD_VERSION_MAJOR(version);
  info.minorVersion = GLAD_VERSION_MINOR(version);
  info.vendor = getString(GL_VENDOR);
  info.renderer = getString(GL_RENDERER);
  info.version = getString(GL_VERSION);
  info.glslVersion = getString(GL_SHADING_LANGUAGE_VERSION);
  info.driver = driverOf(info.version);
  if (!GLAD_GL_VERSION_4_3)
    throw ContextError("OpenGL 4.3 with compute shaders is needed; " + info.renderer + " offers " +
                       info.version);
  if (!GLAD_GL_VERSION_4_5 && !GLAD_GL_ARB_direct_state_access)
    throw ContextError("OpenGL 4.5 or GL_ARB_direct_state_access is needed; " + info.renderer + " offers " +
                       info.version);
  GLint64 blockSize = 0;
  glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &blockSize);
  info.maxShaderStorageBlockSize = blockSize;
  glGetIntegerv(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, &info.maxShaderStorageBufferBindings);
  glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &info.shaderStorageBufferOffsetAlignment);
  for (GLuint axis = 0; axis < 3; ++axis) {
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, axis, &info.maxComputeWorkGroupCount[axis]);
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, axis, &info.maxComputeWorkGroupSize[axis]);
  }
  glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &info.maxComputeWorkGroupInvocations);
  glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &info.maxComputeSharedMemorySize);
  glGetQueryiv(GL_TIMESTAMP, GL_QUERY_COUNTER_BITS, &info.timestampBits);
  GLint flags = 0;
  glGetIntegerv(GL_CONTEXT_FLAGS, &flags);
  info.debugOutput = (flags & GL_CONTEXT_FLAG_DEBUG_BIT) != 0;
  const DeviceMemory memory = queryDeviceMemory(info.renderer);
  info.memoryTotalBytes = memory.total;
  info.memoryFreeBytes = memory.free;
  info.memorySource = memory.source;
  info.software = isSoftwareRenderer(info.renderer);
  return info;
}

std::uint64_t freeDeviceMemory(const ContextInfo& info) {
  return queryDeviceMemory(info.renderer).free;
}

std::string driverOf(std::string_view glVersion) {
  const std::size_t profile = glVersion.find(')');
  std::size_t start = profile != std::string_view::npos ? profile + 1 : glVersion.find(' ');
  if (start == std::string_view::npos) return std::string(glVersion);
  while (start < glVersion.size() && glVersion[start] == ' ') ++start;
  return std::string(glVersion.substr(start));
}

std::string_view deviceKindName(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::Discrete:
      return "discrete";
    case DeviceKind::Hardware:
      return "hardware";
    case DeviceKind::Integrated:
      return "integrated";
    case DeviceKind::Software:
      return "software";
  }
  return "hardware";
}

DeviceClass classifyDevice(const DeviceFacts& facts) {
  constexpr int kNvidia = 0x10de, kIntel = 0x8086;
  if (facts.software) return {DeviceKind::Software, "EGL_MESA_device_software, a CPU's speed"};
  if (facts.cuda) return {DeviceKind::Discrete, "a CUDA device (NVIDIA's driver)"};
  if (facts.pciVendor == kNvidia) return {DeviceKind::Discrete, "an NVIDIA PCI device"};
  if (facts.pciBus == 0)
    return {DeviceKind::Integrated, "on PCI bus 0, where a CPU's integrated graphics sit"};
  if (facts.pciVendor == kIntel && facts.pciBus > 0)
    return {DeviceKind::Discrete, "an Intel GPU off PCI bus 0 (a card)"};
  return {DeviceKind::Hardware, facts.pciBus > 0 ? "a PCI GPU whose vendor does not tell card from integrated"
                                                 : "a hardware device with no PCI address in sysfs"};
}

void readPciFacts(std::string_view drmDeviceFile, const std::string& sysfsRoot, DeviceFacts& facts) {
  namespace fs = std::filesystem;
  const std::string node = fs::path(drmDeviceFile).filename().string();
  if (node.empty()) return;
  std::error_code error;
  const fs::path device = fs::canonical(fs::path(sysfsRoot) / "class" / "drm" / node / "device", error);
  if (error) return;
  // domain:bus:device.function, e.g. 0000:01:00.0; the bus is two hex digits.
  const std::string address = device.filename().string();
  unsigned domain = 0, bus = 0, slot = 0, function = 0;
  if (std::sscanf(address.c_str(), "%x:%x:%x.%x", &domain, &bus, &slot, &function) == 4)
    facts.pciBus = static_cast<int>(bus);
  std::ifstream vendorFile(device / "vendor");
  std::string vendor;
  if (vendorFile >> vendor) {
    unsigned value = 0;
    if (std::sscanf(vendor.c_str(), "0x%x", &value) == 1) facts.pciVendor = static_cast<int>(value);
  }
}

std::vector<int> preferredDeviceOrder(const std::vector<EglDevice>& devices) {
  std::vector<int> order;
  for (const DeviceKind kind :
       {DeviceKind::Discrete, DeviceKind::Hardware, DeviceKind::Integrated, DeviceKind::Software})
    for (const EglDevice& device : devices)
      if (device.type.kind == kind) order.push_back(device.index);
  return order;
}

std::vector<EglDevice> listEglDevices() {
  return describeDevices(queryDevices(loadEglClient()));
}

std::unique_ptr<Context> createHeadlessContext(int deviceIndex, bool debug) {
  const ClientEgl client = loadEglClient();
  const std::vector<EGLDeviceEXT> devices = queryDevices(client);
  const bool devicePlatform = client.platformDevice && !devices.empty();
  if (deviceIndex >= 0) {
    if (!devicePlatform)
      throw ContextError("EGL device " + std::to_string(deviceIndex) +
                         " asked for, but EGL offers no device enumeration (EGL_EXT_device_base or "
                         "EGL_EXT_device_enumeration, and EGL_EXT_platform_device)");
    if (static_cast<std::size_t>(deviceIndex) >= devices.size())
      throw ContextError("EGL device " + std::to_string(deviceIndex) + " does not exist (" +
                         std::to_string(devices.size()) + " devices; `murmur devices` lists them)");
  }
  std::string reasons;
  auto note = [&reasons](const std::string& candidate, const std::string& reason) {
    reasons += (reasons.empty() ? "" : "; ") + candidate + ": " + reason;
  };
  if (devicePlatform) {
    const std::vector<EglDevice> described = describeDevices(devices);
    const std::vector<int> order =
        deviceIndex >= 0 ? std::vector<int>{deviceIndex} : preferredDeviceOrder(described);
    for (const int i : order) {
      const auto at = static_cast<std::size_t>(i);
      const std::string platform = "EGL device " + std::to_string(i) + " (" + described[at].name + ")";
      try {
        return tryDisplay(platformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[at]), platform, debug);
      } catch (const ContextError& e) {
        note(platform, e.what());
      }
    }
  }
  if (deviceIndex < 0) {
    if (client.surfaceless) {
      try {
        return tryDisplay(platformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY),
                          "EGL surfaceless platform", debug);
      } catch (const ContextError& e) {
        note("EGL surfaceless platform", e.what());
      }
    } else {
      note("EGL surfaceless", "no EGL_MESA_platform_surfaceless");
    }
  }
  throw ContextError("no headless OpenGL 4.3 context: " + reasons);
}

}  // namespace murmur::gpu

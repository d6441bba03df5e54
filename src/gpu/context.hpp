#pragma once
// The OpenGL context every GPU object lives in. Two implementations: the headless EGL context here
// (an EGL device, e.g. an NVIDIA GPU on a server, or Mesa's surfaceless platform: llvmpipe on a
// machine with no GPU) and the GLFW window context of the `murmur` demo (src/app; this library
// never sees GLFW). Both load GL with loadGl() once their context is current.
//
// A context is current on the thread that created it; GL calls from other threads need
// makeCurrent() there first (and the context released on the creating thread).
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <glad/gl.h>

namespace murmur::gpu {

struct ContextInfo {
  std::string platform;  // how the context was made: "EGL device 0 (NVIDIA ...)", "GLFW window", ...
  std::string vendor;    // GL_VENDOR
  std::string renderer;  // GL_RENDERER
  std::string version;   // GL_VERSION
  std::string glslVersion;
  std::string driver;  // the driver part of GL_VERSION: "Mesa 22.3.6", "NVIDIA 550.54.15"
  // Memory of the device when the context was made, bytes (0: the driver does not say); where the
  // figures come from: "GL_NVX_gpu_memory_info", "GL_ATI_meminfo" (free only), "host memory"
  // (a software renderer), or "unknown".
  std::uint64_t memoryTotalBytes = 0;
  std::uint64_t memoryFreeBytes = 0;
  std::string memorySource;
  // A software renderer (llvmpipe, softpipe): a CPU's figures, never to be published as a card's.
  bool software = false;
  int majorVersion = 0;
  int minorVersion = 0;
  std::int64_t maxShaderStorageBlockSize = 0;  // bytes one storage buffer binding may address
  int maxShaderStorageBufferBindings = 0;
  int shaderStorageBufferOffsetAlignment = 0;  // bytes
  std::array<int, 3> maxComputeWorkGroupCount{};
  std::array<int, 3> maxComputeWorkGroupSize{};
  int maxComputeWorkGroupInvocations = 0;
  int maxComputeSharedMemorySize = 0;  // bytes
  int timestampBits = 0;               // GL_QUERY_COUNTER_BITS of GL_TIMESTAMP; 0: no GPU timers
  bool debugOutput = false;            // a debug context: glDebugMessageCallback reports everything
};

class Context {
 public:
  Context() = default;
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  virtual ~Context() = default;

  virtual void makeCurrent() = 0;
  // Makes no context current on this thread, so that another thread may make this one current.
  virtual void release() = 0;
  virtual const ContextInfo& info() const = 0;
};

// Loads the GL entry points of the current context with `load` (eglGetProcAddress,
// glfwGetProcAddress), checks that it is OpenGL 4.3+ core with direct state access (4.5 or
// GL_ARB_direct_state_access) and returns its strings and limits. Throws ContextError.
ContextInfo loadGl(GLADloadfunc load, std::string platform);

// Free device memory now, bytes (the current context's device; 0 when the driver does not say).
std::uint64_t freeDeviceMemory(const ContextInfo& info);

// "4.5 (Core Profile) Mesa 22.3.6" -> "Mesa 22.3.6"; "4.6.0 NVIDIA 550.54.15" -> "NVIDIA 550.54.15".
std::string driverOf(std::string_view glVersion);

// A headless OpenGL 4.5 core context (4.3 when 4.5 is refused), current on this thread with no
// surface. deviceIndex selects an EGL device (EGL_EXT_device_enumeration + EGL_EXT_platform_device;
// listEglDevices() numbers them); -1 tries the devices in preferredDeviceOrder() (discrete before
// integrated before software), then the surfaceless platform. debug asks for a debug context (slower; GL
// errors reach the debug callback). libEGL is loaded at run time (nothing links against it). Throws
// ContextError.
std::unique_ptr<Context> createHeadlessContext(int deviceIndex = -1, bool debug = false);

// What kind of device an EGL device is, in the order createHeadlessContext(-1) prefers them: a
// discrete card first (its own memory and the most throughput), a hardware device of unknown kind
// next, an integrated GPU after (sharing the CPU's memory bandwidth), a software renderer last.
enum class DeviceKind { Discrete, Hardware, Integrated, Software };

std::string_view deviceKindName(DeviceKind kind);

// What a device's kind is decided by: EGL's extensions and, for a DRM device, its PCI address and
// vendor from sysfs (-1 where unknown).
struct DeviceFacts {
  bool software = false;  // EGL_MESA_device_software: llvmpipe
  bool cuda = false;      // EGL_NV_device_cuda: an NVIDIA GPU driven by its own driver
  int pciVendor = -1;     // e.g. 0x10de NVIDIA, 0x8086 Intel, 0x1002 AMD
  int pciBus = -1;        // the bus of the device's PCI address (domain:bus:device.function)
};

struct DeviceClass {
  DeviceKind kind = DeviceKind::Hardware;
  std::string why;  // one clause, printed by `murmur devices`
};

// The rule (docs/gpu.md, Choosing a device): software is software; a CUDA device or an NVIDIA PCI
// device is discrete; any other GPU on PCI bus 0, the root complex where CPUs put their integrated
// graphics (Intel's at 00:02.0), is integrated; an Intel GPU off bus 0 is discrete (Arc); anything
// else is hardware of unknown kind (AMD's integrated GPUs sit behind an internal bridge, off bus
// 0, like its cards, so bus and vendor cannot tell them apart).
DeviceClass classifyDevice(const DeviceFacts& facts);

// The PCI vendor and bus of a DRM device file (/dev/dri/card0, /dev/dri/renderD128) from sysfs
// (sysfsRoot/class/drm/<name>/device: a link to the PCI device's folder, named by its address,
// holding its `vendor`); the fields stay -1 where sysfs does not say.
void readPciFacts(std::string_view drmDeviceFile, const std::string& sysfsRoot, DeviceFacts& facts);

struct EglDevice {
  int index = 0;
  std::string name;        // renderer, DRM node or CUDA device, whatever the driver tells
  std::string extensions;  // the device's EGL extensions
  DeviceClass type;

  bool software() const { return type.kind == DeviceKind::Software; }
};

// The order in which createHeadlessContext(-1) tries devices: by kind (discrete, hardware,
// integrated, software), in EGL's order within a kind, so that a machine with a card uses it even
// when EGL lists Mesa's software device or the integrated GPU first.
std::vector<int> preferredDeviceOrder(const std::vector<EglDevice>& devices);

// The EGL devices in the order createHeadlessContext numbers them (empty without
// EGL_EXT_device_base or EGL_EXT_device_enumeration). Throws ContextError when libEGL cannot be loaded.
std::vector<EglDevice> listEglDevices();

}  // namespace murmur::gpu

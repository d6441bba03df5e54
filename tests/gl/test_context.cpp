// The headless context, GL objects, the shader library (includes, defines, file:line errors) and
// the GPU timer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include <unistd.h>

#include "gl_test_env.hpp"
#include "gpu/error.hpp"
#include "gpu/gl_objects.hpp"
#include "gpu/timer.hpp"
#include "render/offscreen.hpp"

namespace murmur::gpu {
namespace {

// A directory of shaders written by the test; names missing there come from the embedded table.
class ShaderDir {
 public:
  ShaderDir()
      : path_(std::filesystem::temp_directory_path() / ("murmur_gl_test_" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path_ / "test");
  }
  ~ShaderDir() { std::filesystem::remove_all(path_); }
  void write(const std::string& name, const std::string& text) const { std::ofstream(path_ / name) << text; }
  ShaderLibrary library() const { return ShaderLibrary(path_); }

 private:
  std::filesystem::path path_;
};

const char* kDoubleShader = R"(#version 430 core
layout(local_size_x = WORKGROUP_SIZE) in;
#include "common/Dispatch.glsl"
layout(std430, binding = 0) buffer Values { float values[]; };
layout(std140, binding = 0) uniform DoubleParams { uint uCount; };
void main() {
  uint i = globalInvocationIndex();
  if (i >= uCount) return;
  values[i] = 2.0 * values[i] + FACTOR;
}
)";

TEST(Context, IsOpenGl43CoreWithComputeLimits) {
  const ContextInfo& info = test::glContext().info();
  EXPECT_FALSE(info.renderer.empty());
  EXPECT_GE(info.majorVersion * 10 + info.minorVersion, 43);
  EXPECT_GE(info.maxShaderStorageBlockSize, std::int64_t{1} << 24);
  EXPECT_GE(info.maxComputeWorkGroupCount[0], 65535);
  EXPECT_GE(info.maxComputeWorkGroupInvocations, 1024);
  EXPECT_GE(info.maxComputeSharedMemorySize, 32768);
  EXPECT_GE(info.maxShaderStorageBufferBindings, 8);
  EXPECT_TRUE(info.debugOutput);
}

TEST(Context, ListsEglDevicesWithoutFailing) {
  const std::vector<EglDevice> devices = listEglDevices();
  for (std::size_t i = 0; i < devices.size(); ++i) {
    EXPECT_EQ(devices[i].index, static_cast<int>(i));
    EXPECT_FALSE(devices[i].name.empty());
  }
}

EglDevice device(int index, DeviceKind kind) {
  return {index, "", "", {kind, ""}};
}

TEST(Context, PrefersDiscreteThenUnknownHardwareThenIntegratedThenSoftware) {
  using enum DeviceKind;
  const std::vector<EglDevice> devices = {device(0, Software), device(1, Integrated), device(2, Hardware),
                                          device(3, Discrete), device(4, Software),   device(5, Discrete)};
  EXPECT_EQ(preferredDeviceOrder(devices), (std::vector<int>{3, 5, 2, 1, 0, 4}));
  EXPECT_EQ(preferredDeviceOrder({device(0, Software)}), (std::vector<int>{0}));
  EXPECT_TRUE(preferredDeviceOrder({}).empty());
}

TEST(Context, ClassifiesDevicesByExtensionVendorAndBus) {
  using enum DeviceKind;
  const auto kind = [](bool software, bool cuda, int vendor, int bus) {
    return classifyDevice({software, cuda, vendor, bus}).kind;
  };
  EXPECT_EQ(kind(true, false, -1, -1), Software);
  EXPECT_EQ(kind(false, true, -1, -1), Discrete);        // NVIDIA's EGL device: no DRM file needed
  EXPECT_EQ(kind(false, false, 0x10de, 1), Discrete);    // NVIDIA through its DRM node
  EXPECT_EQ(kind(false, false, 0x8086, 0), Integrated);  // Intel graphics at 00:02.0
  EXPECT_EQ(kind(false, false, 0x8086, 3), Discrete);    // Intel Arc behind a PCIe port
  EXPECT_EQ(kind(false, false, 0x1002, 0), Integrated);
  EXPECT_EQ(kind(false, false, 0x1002, 4), Hardware);  // an AMD card or an APU: bus and vendor cannot tell
  EXPECT_EQ(kind(false, false, -1, -1), Hardware);
  EXPECT_FALSE(classifyDevice({false, false, 0x8086, 0}).why.empty());
}

// readPciFacts follows /sys/class/drm/<node>/device to the PCI device's folder, as the kernel lays
// it out; here a copy of that layout in a temporary folder, for an integrated and a discrete GPU.
TEST(Context, ReadsThePciVendorAndBusOfADrmNodeFromSysfs) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("murmur-sysfs-" + std::to_string(::getpid()));
  fs::remove_all(root);
  const auto addGpu = [&](const std::string& node, const std::string& address, const std::string& vendor) {
    const fs::path pci = root / "devices" / "pci0000:00" / address;
    fs::create_directories(pci);
    std::ofstream(pci / "vendor") << vendor << "\n";
    fs::create_directories(root / "class" / "drm" / node);
    fs::create_directory_symlink(fs::path("../../../devices/pci0000:00") / address,
                                 root / "class" / "drm" / node / "device");
  };
  addGpu("card0", "0000:00:02.0", "0x8086");
  addGpu("renderD129", "0000:01:00.0", "0x10de");
  DeviceFacts intel, nvidia, missing;
  readPciFacts("/dev/dri/card0", root.string(), intel);
  readPciFacts("/dev/dri/renderD129", root.string(), nvidia);
  readPciFacts("/dev/dri/card7", root.string(), missing);
  fs::remove_all(root);
  EXPECT_EQ(intel.pciVendor, 0x8086);
  EXPECT_EQ(intel.pciBus, 0);
  EXPECT_EQ(nvidia.pciVendor, 0x10de);
  EXPECT_EQ(nvidia.pciBus, 1);
  EXPECT_EQ(missing.pciVendor, -1);
  EXPECT_EQ(missing.pciBus, -1);
  EXPECT_EQ(classifyDevice(intel).kind, DeviceKind::Integrated);
  EXPECT_EQ(classifyDevice(nvidia).kind, DeviceKind::Discrete);
}

// Mesa lists its software device (llvmpipe) on every machine; chosen by index, it is the one used.
TEST(Context, OpensTheSoftwareDeviceByIndex) {
  const std::vector<EglDevice> devices = listEglDevices();
  const auto software =
      std::find_if(devices.begin(), devices.end(), [](const EglDevice& d) { return d.software(); });
  ASSERT_NE(software, devices.end()) << "no EGL device with EGL_MESA_device_software";
  {
    const std::unique_ptr<Context> context = createHeadlessContext(software->index);
    const ContextInfo& info = context->info();
    EXPECT_NE(info.renderer.find("llvmpipe"), std::string::npos) << info.renderer;
    EXPECT_EQ(info.platform.rfind("EGL device " + std::to_string(software->index) + " (", 0), 0u)
        << info.platform;
    EXPECT_EQ(info.driver.rfind("Mesa ", 0), 0u) << info.version;
    EXPECT_EQ(info.memorySource, "host memory");
    EXPECT_GT(info.memoryTotalBytes, 0u);
    EXPECT_GT(info.memoryFreeBytes, 0u);
    EXPECT_LE(info.memoryFreeBytes, info.memoryTotalBytes);
  }
  test::glContext().makeCurrent();
}

TEST(Context, DriverIsTheVersionStringAfterTheGlVersion) {
  EXPECT_EQ(driverOf("4.5 (Core Profile) Mesa 22.3.6"), "Mesa 22.3.6");
  EXPECT_EQ(driverOf("4.6.0 NVIDIA 550.54.15"), "NVIDIA 550.54.15");
  EXPECT_EQ(driverOf("4.6"), "4.6");
}

TEST(Context, RejectsAMissingDeviceIndexWithAReason) {
  try {
    createHeadlessContext(1000);
    FAIL() << "device 1000 should not exist";
  } catch (const ContextError& e) {
    EXPECT_NE(std::string(e.what()).find("1000"), std::string::npos) << e.what();
  }
  test::glContext().makeCurrent();
}

TEST(Compute, DispatchComputesEveryElementEvenSpreadOverY) {
  ShaderDir dir;
  dir.write("test/Double.comp.glsl", kDoubleShader);
  const Program program =
      dir.library().compute("test/Double.comp.glsl", {{"WORKGROUP_SIZE", "64"}, {"FACTOR", "1.0"}});
  const std::size_t errorsBefore = test::glErrorCount();
  for (int maxGroupsX : {test::glContext().info().maxComputeWorkGroupCount[0], 3}) {
    std::vector<float> values(1000 + 7);
    std::iota(values.begin(), values.end(), 0.0f);
    const Buffer buffer = Buffer::fromSpan("doubled values", std::span<const float>(values));
    buffer.bindBase(GL_SHADER_STORAGE_BUFFER, 0);
    const UniformBlock<std::uint32_t> params("double constants", 0);
    params.set(static_cast<std::uint32_t>(values.size()));
    dispatchCompute(program, values.size(), 64, maxGroupsX);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    const std::vector<float> result = buffer.download<float>(values.size());
    for (std::size_t i = 0; i < values.size(); ++i)
      ASSERT_EQ(result[i], 2.0f * values[i] + 1.0f) << "element " << i << ", max groups " << maxGroupsX;
  }
  EXPECT_EQ(dispatchSize(1007, 64, 3).x, 3u);
  EXPECT_EQ(dispatchSize(1007, 64, 3).y, 6u);  // 16 groups over x = 3
  EXPECT_EQ(test::glErrorCount(), errorsBefore);
}

// Every wrapper names its object for debuggers (glObjectLabel), read back with glGetObjectLabel; and
// what gpu/ and render/ create carries its name (a shader program its file, the offscreen target its
// role).
TEST(DebugLabels, EveryWrapperNamesItsObject) {
  ASSERT_TRUE(GLAD_GL_VERSION_4_3 || GLAD_GL_KHR_debug) << "no glObjectLabel on this context";
  const std::size_t errorsBefore = test::glErrorCount();
  const Buffer buffer("test positions", 64);
  EXPECT_EQ(objectLabel(GL_BUFFER, buffer.id()), "test positions");
  const Texture texture("test colour", GL_RGBA8, 4, 4);
  EXPECT_EQ(objectLabel(GL_TEXTURE, texture.id()), "test colour");
  const Framebuffer framebuffer("test framebuffer");
  EXPECT_EQ(objectLabel(GL_FRAMEBUFFER, framebuffer.id()), "test framebuffer");
  const Query query("test stamp", GL_TIMESTAMP);
  EXPECT_EQ(objectLabel(GL_QUERY, query.id()), "test stamp");
  const VertexArray vertexArray("test vertices");
  EXPECT_EQ(objectLabel(GL_VERTEX_ARRAY, vertexArray.id()), "test vertices");
  ShaderDir dir;
  dir.write("test/Double.comp.glsl", kDoubleShader);
  const Program program =
      dir.library().compute("test/Double.comp.glsl", {{"WORKGROUP_SIZE", "64"}, {"FACTOR", "1.0"}});
  EXPECT_NE(objectLabel(GL_PROGRAM, program.id()).find("Double.comp.glsl"), std::string::npos)
      << objectLabel(GL_PROGRAM, program.id());
  const render::OffscreenTarget target(8, 8, 1);
  EXPECT_EQ(objectLabel(GL_TEXTURE, target.colourTexture()), "offscreen colour");
  EXPECT_EQ(objectLabel(GL_BUFFER, 0), "");
  EXPECT_EQ(test::glErrorCount(), errorsBefore);
}

TEST(Buffer, UploadsAndDownloadsSubRanges) {
  const Buffer buffer("sub ranges", 16 * sizeof(std::uint32_t));
  buffer.fill(7u);
  const std::vector<std::uint32_t> part = {1, 2, 3};
  buffer.upload(std::span<const std::uint32_t>(part), 5);
  const std::vector<std::uint32_t> all = buffer.download<std::uint32_t>(16);
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], i >= 5 && i < 8 ? part[i - 5] : 7u) << i;
  EXPECT_EQ(buffer.download<std::uint32_t>(2, 6), (std::vector<std::uint32_t>{2, 3}));
}

TEST(ShaderLibrary, ReportsCompileErrorsAtTheirFileAndLine) {
  ShaderDir dir;
  dir.write("test/Broken.comp.glsl", R"(#version 430 core
layout(local_size_x = 1) in;
#include "common/Dispatch.glsl"
void main() {
  uint i = globalInvocationIndex();
  float x = undeclaredThing * 2.0;
}
)");
  try {
    dir.library().compute("test/Broken.comp.glsl");
    FAIL() << "the shader should not compile";
  } catch (const ShaderError& e) {
    EXPECT_EQ(e.file(), "shaders/test/Broken.comp.glsl") << e.what();
    EXPECT_EQ(e.line(), 6u) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("shaders/test/Broken.comp.glsl:6: ", 0), 0u) << e.what();
  }
}

TEST(ShaderLibrary, ReportsErrorsInsideAnIncludedFile) {
  ShaderDir dir;
  dir.write("test/Helper.glsl", "// helper\nfloat helper(float x) {\n  return x * missingName;\n}\n");
  dir.write("test/User.comp.glsl", R"(#version 430 core
#include "test/Helper.glsl"
#include "test/Helper.glsl"
layout(local_size_x = 1) in;
void main() {}
)");
  try {
    dir.library().compute("test/User.comp.glsl");
    FAIL() << "the shader should not compile";
  } catch (const ShaderError& e) {
    EXPECT_EQ(e.file(), "shaders/test/Helper.glsl") << e.what();
    EXPECT_EQ(e.line(), 3u) << e.what();
  }
}

TEST(ShaderLibrary, LinesAfterAnIncludeKeepTheirNumbers) {
  ShaderDir dir;
  dir.write("test/After.comp.glsl", R"(#version 430 core
layout(local_size_x = 1) in;
#include "common/Dispatch.glsl"

void main() {
  uint i = globalInvocationIndex();
}
#error line eight
)");
  try {
    dir.library().compute("test/After.comp.glsl");
    FAIL() << "#error should fail the compile";
  } catch (const ShaderError& e) {
    EXPECT_EQ(e.file(), "shaders/test/After.comp.glsl") << e.what();
    EXPECT_EQ(e.line(), 8u) << e.what();
  }
}

TEST(ShaderLibrary, NamesAMissingIncludeAndItsLine) {
  ShaderDir dir;
  dir.write("test/Missing.comp.glsl",
            "#version 430 core\n\n#include \"common/NoSuchFile.glsl\"\nvoid main() {}\n");
  try {
    dir.library().compute("test/Missing.comp.glsl");
    FAIL();
  } catch (const ShaderError& e) {
    EXPECT_EQ(e.file(), "shaders/test/Missing.comp.glsl");
    EXPECT_EQ(e.line(), 3u);
    EXPECT_NE(std::string(e.what()).find("common/NoSuchFile.glsl"), std::string::npos) << e.what();
  }
  EXPECT_THROW(test::shaderLibrary().load("no/Such.comp.glsl"), ShaderError);
}

TEST(ShaderLibrary, RewritesTheLogFormatsOfOtherDrivers) {
  const std::vector<std::string> files = {"flock/Step.comp.glsl", "common/Rules.glsl"};
  EXPECT_EQ(rewriteShaderLog("1(100042) : error C1008: undefined variable \"x\"\n", files),
            "shaders/common/Rules.glsl:42: error C1008: undefined variable \"x\"");
  EXPECT_EQ(rewriteShaderLog("ERROR: 0:7: 'x' : undeclared identifier\n", files),
            "shaders/flock/Step.comp.glsl:7: error: 'x' : undeclared identifier");
  EXPECT_EQ(rewriteShaderLog("0:3(12): error: `y' undeclared\n", files),
            "shaders/flock/Step.comp.glsl:3: error: `y' undeclared");
}

TEST(GpuTimer, TimesAStageWithoutStallingThenOnResolve) {
  GpuTimer timer(test::glContext().info().timestampBits);
  ASSERT_TRUE(timer.supported());
  ShaderDir dir;
  dir.write("test/Double.comp.glsl", kDoubleShader);
  const Program program =
      dir.library().compute("test/Double.comp.glsl", {{"WORKGROUP_SIZE", "64"}, {"FACTOR", "0.0"}});
  const Buffer buffer("one MiB", 1 << 20);
  buffer.bindBase(GL_SHADER_STORAGE_BUFFER, 0);
  const UniformBlock<std::uint32_t> params("double constants", 0);
  params.set(std::uint32_t{1} << 18);
  for (int frame = 0; frame < 3; ++frame) {
    StageScope scope(timer, "double");
    dispatchCompute(program, std::uint64_t{1} << 18, 64,
                    test::glContext().info().maxComputeWorkGroupCount[0]);
  }
  timer.poll();
  timer.resolve();
  const StageTime* stage = timer.stage("double");
  ASSERT_NE(stage, nullptr);
  EXPECT_EQ(stage->samples, 3u);
  EXPECT_GE(stage->lastMs, 0.0);
  EXPECT_GT(stage->totalMs, 0.0);
}

}  // namespace
}  // namespace murmur::gpu

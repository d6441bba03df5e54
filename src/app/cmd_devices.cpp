// `murmur devices`: the EGL devices of this machine (hardware and software) and the headless
// context Murmur would use (the one `murmur run --backend gpu` and the benchmarks get), with the
// limits that bound a flock.
#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "app/cli_checks.hpp"
#include "app/command.hpp"
#include "core/error.hpp"
#include "gpu/context.hpp"
#include "gpu/error.hpp"
#include "gpu/flock_pipeline.hpp"

namespace murmur::app {
namespace {

std::string mib(std::uint64_t bytes) {
  return bytes > 0 ? fmt::format("{} MiB", bytes >> 20) : std::string("?");
}

class DevicesCommand final : public Command {
 public:
  void configure(CLI::App& sub) override {
    sub.add_option("--device", device_,
                   "EGL device to open (index from the list; -1: discrete, then integrated, then software)")
        ->type_name("INDEX")
        ->check(integerIn(-1, kMaxEglDevice));
    sub.footer(
        "Examples:\n"
        "  murmur devices\n"
        "  murmur devices --device 0    # open device 0 of the list, whatever it is");
  }

  int run() override {
    checkDeviceIndex(device_);
    const std::vector<gpu::EglDevice> devices = gpu::listEglDevices();
    fmt::print("EGL devices:{}\n", devices.empty() ? " none enumerable (EGL offers no EGL_EXT_device_base or "
                                                     "EGL_EXT_device_enumeration, or lists no device)"
                                                   : "");
    const std::vector<int> order = gpu::preferredDeviceOrder(devices);
    for (const gpu::EglDevice& d : devices)
      fmt::print("  {}: {} [{}: {}]{}\n", d.index, d.name, gpu::deviceKindName(d.type.kind), d.type.why,
                 !order.empty() && order.front() == d.index ? " (default)" : "");
    if (!order.empty()) {
      const auto preferred = std::find_if(devices.begin(), devices.end(),
                                          [&](const gpu::EglDevice& d) { return d.index == order.front(); });
      fmt::print("preferred: device {}: {}\n", order.front(),
                 preferred->software()
                     ? "no hardware device, so the software one (a CPU's speed)"
                     : fmt::format("the first {} device; the order is discrete, hardware of unknown kind, "
                                   "integrated, software, in EGL's order within a kind",
                                   gpu::deviceKindName(preferred->type.kind)));
    }
    std::unique_ptr<gpu::Context> context;
    try {
      context = gpu::createHeadlessContext(device_);
    } catch (const gpu::ContextError& e) {
      std::fflush(stdout);  // the list first, then the one line on stderr (exit 3: no GPU context)
      throw DeviceError(fmt::format("no GL device in use: {}", e.what()));
    }
    const gpu::ContextInfo& info = context->info();
    fmt::print("in use: {}{}\n", info.platform, info.software ? " [software renderer: a CPU's speed]" : "");
    fmt::print("  GL_VENDOR    {}\n  GL_RENDERER  {}\n  GL_VERSION   {}\n  GLSL         {}\n", info.vendor,
               info.renderer, info.version, info.glslVersion);
    fmt::print("  driver       {}\n", info.driver);
    fmt::print("  memory       {} total, {} free ({})\n", mib(info.memoryTotalBytes),
               mib(info.memoryFreeBytes), info.memorySource);
    fmt::print("  max storage block  {} MiB: at most {} boids\n", info.maxShaderStorageBlockSize >> 20,
               gpu::FlockPipeline::maxBoids(info));
    fmt::print("  max work groups    {} x {} x {} (work group: {} invocations, {} KiB shared)\n",
               info.maxComputeWorkGroupCount[0], info.maxComputeWorkGroupCount[1],
               info.maxComputeWorkGroupCount[2], info.maxComputeWorkGroupInvocations,
               info.maxComputeSharedMemorySize >> 10);
    fmt::print("  GPU timers         {}\n", info.timestampBits > 0
                                                ? fmt::format("{}-bit timestamps", info.timestampBits)
                                                : std::string("none"));
    return 0;
  }

 private:
  int device_ = -1;
};

}  // namespace

MURMUR_REGISTER_COMMAND(DevicesCommand, "devices", "List the GL devices (EGL) and the one in use");

}  // namespace murmur::app

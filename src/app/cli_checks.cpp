#include "app/cli_checks.hpp"

#include <optional>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/parse_number.hpp"
#include "gpu/context.hpp"
#include "gpu/error.hpp"

namespace murmur::app {

CLI::Validator integerIn(std::int64_t lo, std::int64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        const std::optional<std::int64_t> value = core::parseNumber<std::int64_t>(text);
        if (!value) return fmt::format("'{}' is not an integer in [{}, {}]", text, lo, hi);
        if (*value < lo || *value > hi) return fmt::format("{} is not in [{}, {}]", text, lo, hi);
        return "";
      },
      "");
}

CLI::Validator nonEmpty() {
  return CLI::Validator([](std::string& text) -> std::string { return text.empty() ? "is empty" : ""; }, "");
}

void checkDeviceIndex(int device) {
  if (device < 0) return;
  const std::vector<gpu::EglDevice> devices = gpu::listEglDevices();
  if (!devices.empty() && std::size_t(device) >= devices.size())
    throw InputError("", 0, "--device",
                     fmt::format("no EGL device {} (this machine has {}: murmur devices lists them)", device,
                                 devices.size()));
}

std::unique_ptr<world::FlockBackend> makeBackendFor(const std::string& flag, std::string_view name, int device,
                                                    gpu::Context* context, std::string* autoChoice) {
  world::AutoChoice choice;
  std::unique_ptr<world::FlockBackend> backend;
  try {
    backend = world::makeBackend(name, device, context, &choice);
  } catch (const world::UnknownBackend& e) {
    throw InputError("", 0, flag, e.what());
  } catch (const gpu::ContextError& e) {
    throw InputError("", 0, flag, std::string("gpu: ") + e.what());
  }
  if (autoChoice != nullptr && name == "auto") {
    switch (choice.reason) {
      case world::AutoChoice::Reason::HardwareGpu:
        *autoChoice = fmt::format("backend gpu: a hardware GL device ({})", choice.detail);
        break;
      case world::AutoChoice::Reason::SoftwareRenderer:
        *autoChoice = fmt::format("backend cpu: the GL device is a software renderer ({}), where the cpu backend "
                                  "is faster; {} gpu to use it anyway",
                                  choice.detail, flag);
        break;
      case world::AutoChoice::Reason::NoGpuContext:
        *autoChoice = fmt::format("backend cpu: no GPU backend ({}); {} gpu to insist", choice.detail, flag);
        break;
    }
  }
  return backend;
}

}  // namespace murmur::app

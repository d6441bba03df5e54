#include "app/cli_checks.hpp"

#include <charconv>
#include <string>

#include <fmt/format.h>

#include "gpu/context.hpp"
#include "sim/error.hpp"

namespace murmur::app {

CLI::Validator integerIn(std::int64_t lo, std::int64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        std::int64_t value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (text.empty() || error != std::errc() || end != text.data() + text.size())
          return fmt::format("'{}' is not an integer in [{}, {}]", text, lo, hi);
        if (value < lo || value > hi) return fmt::format("{} is not in [{}, {}]", text, lo, hi);
        return "";
      },
      fmt::format("INT in [{} - {}]", lo, hi));
}

void checkDeviceIndex(int device) {
  if (device < 0) return;
  const std::vector<gpu::EglDevice> devices = gpu::listEglDevices();
  if (!devices.empty() && std::size_t(device) >= devices.size())
    throw InputError("", 0, "--device",
                     fmt::format("no EGL device {} (this machine has {}: murmur devices lists them)", device,
                                 devices.size()));
}

}  // namespace murmur::app

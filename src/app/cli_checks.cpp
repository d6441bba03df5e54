#include "app/cli_checks.hpp"

#include <cmath>
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

CLI::Validator numberIn(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        const std::optional<double> value = core::parseNumber<double>(text);
        if (!value || !std::isfinite(*value))
          return fmt::format("'{}' is not a number in [{:g}, {:g}]", text, lo, hi);
        if (*value < lo || *value > hi) return fmt::format("{} is not in [{:g}, {:g}]", text, lo, hi);
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

}  // namespace murmur::app

#include "sim/error.hpp"

#include <fmt/format.h>

namespace murmur {
namespace {
std::string formatInputError(const std::string& file, std::size_t line, const std::string& key,
                             const std::string& message) {
  std::string where;
  if (!file.empty()) where = line > 0 ? fmt::format("{}:{}: ", file, line) : fmt::format("{}: ", file);
  if (!key.empty()) where += fmt::format("{}: ", key);
  return where + message;
}
}  // namespace

InputError::InputError(std::string file, std::size_t line, std::string key, const std::string& message)
    : std::runtime_error(formatInputError(file, line, key, message)),
      file_(std::move(file)),
      line_(line),
      key_(std::move(key)) {}

}  // namespace murmur

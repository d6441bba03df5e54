#include "sim/error.hpp"

#include <fmt/format.h>

namespace murmur {
namespace {

// Each part of a message is echoed from input (a file name, a key, a value): control characters
// are escaped (a newline or a terminal escape in a value cannot break the line or drive the
// terminal) and a part longer than `limit` characters is cut, so that an error is one line of
// reasonable width whatever the input.
std::string printable(std::string_view text, std::size_t limit) {
  std::string out;
  for (const char c : text) {
    if (out.size() >= limit) {
      out += "...";
      break;
    }
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (byte < 0x20 || byte == 0x7f) out += fmt::format("\\x{:02x}", byte);
    else out += c;
  }
  return out;
}

std::string formatInputError(const std::string& file, std::size_t line, const std::string& key,
                             const std::string& message) {
  std::string where;
  const std::string shownFile = printable(file, 240);
  if (!file.empty()) where = line > 0 ? fmt::format("{}:{}: ", shownFile, line) : fmt::format("{}: ", shownFile);
  if (!key.empty()) where += fmt::format("{}: ", printable(key, 120));
  return where + printable(message, 400);
}

}  // namespace

InputError::InputError(std::string file, std::size_t line, std::string key, const std::string& message)
    : std::runtime_error(formatInputError(file, line, key, message)),
      file_(std::move(file)),
      line_(line),
      key_(std::move(key)) {}

}  // namespace murmur

#pragma once
// The one reader of numbers in text: state CSVs (sim/state_csv), MovingAI maps and scenarios
// (ai/movingai) and command-line values (murmur path's points, the integer options). Strict, so that
// every reader rejects the same things; the caller names the file, line and key in its error.
#include <charconv>
#include <optional>
#include <string_view>
#include <system_error>

namespace murmur::core {

// The number text is, exactly: std::from_chars' decimal format (no leading white space or '+'; for
// floating point also exponents, "inf" and "nan"). nullopt when text is empty, holds anything before
// or after the number, or the value does not fit Number.
template <class Number>
std::optional<Number> parseNumber(std::string_view text) {
  Number value{};
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc{} || stop != end) return std::nullopt;
  return value;
}

}  // namespace murmur::core

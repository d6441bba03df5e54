#include "core/error.hpp"

#include <fmt/format.h>

namespace murmur {
namespace {

// The length of the well-formed UTF-8 sequence at the start of text (RFC 3629: no overlong form, no
// surrogate, nothing above U+10FFFF), 0 when it is not one.
std::size_t utf8SequenceLength(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  std::size_t length = 0;
  unsigned char lo = 0x80, hi = 0xbf;  // the range of the second byte
  if (lead >= 0xc2 && lead <= 0xdf)
    length = 2;
  else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) lo = 0xa0;
    if (lead == 0xed) hi = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) lo = 0x90;
    if (lead == 0xf4) hi = 0x8f;
  } else
    return 0;
  if (text.size() < length || byte(1) < lo || byte(1) > hi) return 0;
  for (std::size_t i = 2; i < length; ++i)
    if (byte(i) < 0x80 || byte(i) > 0xbf) return 0;
  return length;
}

std::string formatInputError(const std::string& file, std::size_t line, const std::string& key,
                             const std::string& message) {
  std::string where;
  const std::string shownFile = printable(file, 240);
  if (!file.empty())
    where = line > 0 ? fmt::format("{}:{}: ", shownFile, line) : fmt::format("{}: ", shownFile);
  if (!key.empty()) where += fmt::format("{}: ", printable(key, 120));
  return where + printable(message, 400);
}

}  // namespace

// Control characters
// (C0, DEL and the C1 range U+0080-U+009F, whose CSI U+009B drives a terminal as ESC [ does) and
// bytes that are not well-formed UTF-8 are escaped (a newline or a terminal escape in a value cannot
// break the line or drive the terminal), and a part longer than `limit` bytes is cut, so that an
// error is one line of reasonable width whatever the input.
std::string printable(std::string_view text, std::size_t limit) {
  std::string out;
  while (!text.empty()) {
    if (out.size() >= limit) {
      out += "...";
      break;
    }
    const char c = text.front();
    const auto byte = static_cast<unsigned char>(c);
    std::size_t used = 1;
    if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else if (c == '\t')
      out += "\\t";
    else if (byte < 0x20 || byte == 0x7f)
      out += fmt::format("\\x{:02x}", byte);
    else if (byte < 0x80)
      out += c;
    else if (const std::size_t length = utf8SequenceLength(text); length == 0)
      out += fmt::format("\\x{:02x}", byte);  // not UTF-8: the byte itself, escaped
    else {
      used = length;
      const auto second = static_cast<unsigned char>(text[1]);
      if (byte == 0xc2 && second < 0xa0)
        out += fmt::format("\\u{:04x}", second);  // C1 control
      else
        out += text.substr(0, length);
    }
    text.remove_prefix(used);
  }
  return out;
}

InputError::InputError(std::string file, std::size_t line, std::string key, const std::string& message)
    : Error(formatInputError(file, line, key, message)),
      file_(std::move(file)),
      line_(line),
      key_(std::move(key)) {}

OutputError::OutputError(const std::string& file, const std::string& option, const std::string& message)
    : Error(formatInputError(file, 0, option, message)) {}

OutOfMemoryError::OutOfMemoryError(const std::string& file)
    : Error(formatInputError(file, 0, "", "out of memory reading the file")) {}

StopRequested::StopRequested(int signal)
    : Error(
          fmt::format("stopped by signal {} before the run was complete; no partial file was left", signal)),
      signal_(signal) {}

}  // namespace murmur

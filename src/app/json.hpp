#pragma once
// A minimal JSON object writer for the one-line `--json` summaries (keys in insertion order).
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace murmur::app {

class JsonObject {
 public:
  JsonObject& add(std::string_view key, double value) {
    return raw(key, std::isfinite(value) ? fmt::format("{:.9g}", value) : std::string("null"));
  }
  JsonObject& add(std::string_view key, std::int64_t value) { return raw(key, std::to_string(value)); }
  JsonObject& add(std::string_view key, std::uint64_t value) { return raw(key, std::to_string(value)); }
  JsonObject& add(std::string_view key, int value) { return raw(key, std::to_string(value)); }
  JsonObject& add(std::string_view key, unsigned value) { return raw(key, std::to_string(value)); }
  JsonObject& add(std::string_view key, bool value) { return raw(key, value ? "true" : "false"); }
  JsonObject& add(std::string_view key, std::string_view value) { return raw(key, quote(value)); }
  JsonObject& add(std::string_view key, const char* value) { return raw(key, quote(value)); }
  JsonObject& add(std::string_view key, const JsonObject& value) { return raw(key, value.str()); }
  // value must already be valid JSON (an array, say).
  JsonObject& raw(std::string_view key, std::string_view json) {
    body_ += body_.empty() ? "" : ",";
    body_ += quote(key);
    body_ += ':';
    body_ += json;
    return *this;
  }
  std::string str() const { return "{" + body_ + "}"; }

  static std::string quote(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        default:
          if (static_cast<unsigned char>(c) < 0x20)
            out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
          else
            out += c;
      }
    }
    return out + "\"";
  }

 private:
  std::string body_;
};

}  // namespace murmur::app

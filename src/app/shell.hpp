#pragma once
// Text for the shell that popen runs (ffmpeg for videos, murmur_bench and Python for `murmur bench`).
#include <string>
#include <string_view>

namespace murmur::app {

// The text in single quotes, its own single quotes escaped: one shell word, whatever it holds.
inline std::string shellQuoted(std::string_view text) {
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace murmur::app

#pragma once
// Text for the shell that popen runs (ffmpeg for videos, murmur_bench and Python for `murmur bench`),
// and what those programs leave in their logs.
#include <fstream>
#include <string>
#include <string_view>

namespace murmur::app {

// The text in single quotes, its own single quotes escaped: one shell word, whatever it holds.
inline std::string shellQuoted(std::string_view text) {
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// The last line of a program's log that says something (its error), empty when there is none.
inline std::string lastLine(const std::string& logPath) {
  std::ifstream log(logPath, std::ios::binary);
  std::string line, last;
  while (std::getline(log, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  return last;
}

}  // namespace murmur::app

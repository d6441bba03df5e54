#pragma once
// Runs a shell command for a test (murmur itself, glslangValidator, xdotool, ffprobe) and keeps what
// it printed on stdout.
#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace murmur::test {

struct CommandOutput {
  int exitCode = -1;  // -1 when the command did not run or did not exit normally
  std::string out;
};

inline CommandOutput runCommand(const std::string& command) {
  CommandOutput result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.out.append(buffer, n);
  const int status = ::pclose(pipe);
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace murmur::test

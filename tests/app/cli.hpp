#pragma once
// Runs the built `murmur` command for end-to-end tests: exit code, stdout, stderr.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "scratch_dir.hpp"
#include "shell_command.hpp"

namespace murmur::test {

struct CliResult {
  int exitCode = -1;
  std::string out;
  std::string err;
};

inline std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs murmur in the working directory dir; args are appended to the murmur path verbatim (quote them
// as a shell would need). shellPrefix runs in the same shell first (e.g. "ulimit -f 16;" for a small
// disk).
inline CliResult runMurmurIn(const std::filesystem::path& dir, const std::string& args,
                             const std::string& shellPrefix = "") {
  const auto errFile =
      std::filesystem::temp_directory_path() / ("murmur_cli_err_" + std::to_string(::getpid()));
  const std::string command = "cd '" + dir.string() + "' && " + shellPrefix + " '" + MURMUR_EXE + "' " +
                              args + " 2>'" + errFile.string() + "'";
  const CommandOutput run = runCommand(command);
  CliResult result{run.exitCode, run.out, readFile(errFile)};
  std::filesystem::remove(errFile);
  return result;
}

// Runs murmur in the source directory (scenes/... as users type them from a clone).
inline CliResult runMurmur(const std::string& args, const std::string& shellPrefix = "") {
  return runMurmurIn(MURMUR_SOURCE_DIR, args, shellPrefix);
}

// Sets (or, with nullopt, unsets) an environment variable for the scope: the command inherits it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value->c_str(), 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

inline std::size_t countLines(const std::string& text) {
  std::size_t lines = 0;
  for (const char c : text) lines += c == '\n';
  return lines;
}

}  // namespace murmur::test

#pragma once
// Errors for bad user input (scene files, state CSVs, maps, command-line values): the `murmur`
// command prints what() as one line and exits with code 2. Errors writing an output that passed
// its checks (a full disk, ffmpeg failing): one line, exit code 3. A run stopped by SIGINT or SIGTERM:
// exit code 128 + the signal. Programmer errors use assert or std::logic_error instead.
#include <cstddef>
#include <stdexcept>
#include <string>

namespace murmur {

class InputError : public std::runtime_error {
 public:
  // file may be empty (a command-line value), line 0 means "no line", key may be empty.
  InputError(std::string file, std::size_t line, std::string key, const std::string& message);

  const std::string& file() const { return file_; }
  std::size_t line() const { return line_; }
  const std::string& key() const { return key_; }

 private:
  std::string file_;
  std::size_t line_;
  std::string key_;
};

// An output could not be written (core/output_path.hpp): what() names the file; nothing partial was
// left in its place.
class OutputError : public std::runtime_error {
 public:
  OutputError(const std::string& file, const std::string& option, const std::string& message);
};

// Reading an input file ran out of memory (std::bad_alloc): exit code 3, the file named.
class OutOfMemoryError : public std::runtime_error {
 public:
  explicit OutOfMemoryError(const std::string& file);
};

// The run was asked to stop by a signal (SIGINT, SIGTERM) and stopped cleanly.
class StopRequested : public std::runtime_error {
 public:
  explicit StopRequested(int signal);
  int signal() const { return signal_; }

 private:
  int signal_;
};

}  // namespace murmur

#pragma once
// The errors Murmur throws for expected outcomes, each what() one line that the `murmur` command
// prints as is. Bad input (a scene file, a state, a parameter value, a command-line value): exit
// code 2. An output that passed its checks but could not be written (a full disk): exit code 3.
// A stop asked for by SIGINT or SIGTERM: exit code 128 + the signal. Programmer errors are
// std::logic_error (std::out_of_range, std::invalid_argument) instead.
#include <cstddef>
#include <stdexcept>
#include <string>

#include "murmur/export.hpp"

namespace murmur {

// Every error below.
class MURMUR_API Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class MURMUR_API InputError : public Error {
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

// An output could not be written: what() names the file; nothing partial was left in its place.
class MURMUR_API OutputError : public Error {
 public:
  OutputError(const std::string& file, const std::string& option, const std::string& message);
};

// Reading an input file ran out of memory (std::bad_alloc): the file named.
class MURMUR_API OutOfMemoryError : public Error {
 public:
  explicit OutOfMemoryError(const std::string& file);
};

// No usable GPU: no OpenGL 4.3 context on the device asked for, or none at all.
class MURMUR_API DeviceError : public Error {
 public:
  using Error::Error;
};

// The flock's state went non-finite (NaN or infinite components).
class MURMUR_API StateError : public Error {
 public:
  using Error::Error;
};

// The work was asked to stop by a signal (SIGINT, SIGTERM) and stopped cleanly.
class MURMUR_API StopRequested : public Error {
 public:
  explicit StopRequested(int signal);
  int signal() const { return signal_; }

 private:
  int signal_;
};

}  // namespace murmur

#pragma once
// Errors for bad user input (scene files, state CSVs, maps, command-line values). The `murmur`
// command prints what() as one line and exits with code 2. Programmer errors use assert or
// std::logic_error instead.
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

}  // namespace murmur

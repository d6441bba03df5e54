#pragma once
// Errors for bad user input (scene files, state CSVs, maps, command-line values): the `murmur`
// command prints what() as one line and exits with code 2. Errors writing an output that passed
// its checks (a full disk, ffmpeg failing): one line, exit code 3. A run stopped by SIGINT or SIGTERM:
// exit code 128 + the signal. The classes are the public API's (include/murmur/error.hpp), so the
// library's callers catch what the modules throw. Programmer errors use assert or std::logic_error.
#include "murmur/error.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace murmur {

// Text echoed from input (a file name, a key, a value, a command-line word) made safe for a one-line
// message: control characters and bytes that are not UTF-8 escaped, cut past `limit` bytes. Every
// error message's parts go through it.
std::string printable(std::string_view text, std::size_t limit = 400);

}  // namespace murmur

#pragma once
// Errors for bad user input (scene files, state CSVs, maps, command-line values): the `murmur`
// command prints what() as one line and exits with code 2. Errors writing an output that passed
// its checks (a full disk, ffmpeg failing): one line, exit code 3. A run stopped by SIGINT or SIGTERM:
// exit code 128 + the signal. The classes are the public API's (include/murmur/error.hpp), so the
// library's callers catch what the modules throw. Programmer errors use assert or std::logic_error.
#include "murmur/error.hpp"

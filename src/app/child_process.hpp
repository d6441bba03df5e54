#pragma once
// A program Murmur runs (ffmpeg and ffprobe for videos, murmur_bench and Python for `murmur bench`),
// started without a shell (posix_spawnp: its arguments reach it as they are, a name starting with
// '-' included), its standard streams given as descriptors, in a process group of its own when asked:
// a terminal's Ctrl+C then reaches Murmur alone, which stops the child itself and cleans up.
#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

namespace murmur::app {

class ChildProcess {
 public:
  // Descriptors for the child's stdin, stdout and stderr; -1: inherited.
  struct Streams {
    int in = -1;
    int out = -1;
    int err = -1;
  };
  // Starts args[0] (looked up on PATH) with args; std::runtime_error naming it when it cannot start.
  ChildProcess(const std::vector<std::string>& args, Streams streams, bool ownGroup);
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess();  // terminate() unless waited for

  // Waits for it to end: its wait status (WIFEXITED, WEXITSTATUS).
  int wait();
  // SIGTERM (to its group when it has one of its own), then waits.
  void terminate();

 private:
  pid_t pid_ = -1;
  bool ownGroup_;
  bool waited_ = false;
  int status_ = 0;
};

// Runs args to the end with stdout and stderr to /dev/null (a probe: `python3 -c 'import x'`);
// true when it started and exited 0.
bool runQuietly(const std::vector<std::string>& args);

// Runs args in a process group of its own, its stderr into errPath (created or truncated), handing
// each line of its stdout to onLine; its exit code, -1 when it did not start or a signal ended it.
// A stop request (SIGINT, SIGTERM) stops it within a quarter second and unwinds with StopRequested.
int runLines(const std::vector<std::string>& args, const std::string& errPath,
             const std::function<void(const std::string&)>& onLine);

}  // namespace murmur::app

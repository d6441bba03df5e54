#include "app/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "core/output_path.hpp"

extern char** environ;

namespace murmur::app {

ChildProcess::ChildProcess(const std::vector<std::string>& args, Streams streams, bool ownGroup)
    : ownGroup_(ownGroup) {
  std::vector<char*> argv;
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attributes);
  const int targets[] = {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO};
  const int sources[] = {streams.in, streams.out, streams.err};
  for (int i = 0; i < 3; ++i)
    if (sources[i] >= 0) posix_spawn_file_actions_adddup2(&actions, sources[i], targets[i]);
  // The child's SIGPIPE as a program expects it (Murmur ignores it); SIGXFSZ stays ignored, so that
  // past a file size limit its writes fail with EFBIG, as Murmur's do. In its own group if asked.
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  short flags = POSIX_SPAWN_SETSIGDEF;
  if (ownGroup) {
    flags |= POSIX_SPAWN_SETPGROUP;
    posix_spawnattr_setpgroup(&attributes, 0);
  }
  posix_spawnattr_setflags(&attributes, flags);
  const int error = ::posix_spawnp(&pid_, argv[0], &actions, &attributes, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (error != 0) throw std::runtime_error(fmt::format("cannot start {}: {}", args[0], std::strerror(error)));
}

ChildProcess::~ChildProcess() {
  if (!waited_) terminate();
}

int ChildProcess::wait() {
  if (waited_) return status_;
  while (::waitpid(pid_, &status_, 0) < 0 && errno == EINTR) {
  }
  waited_ = true;
  return status_;
}

void ChildProcess::terminate() {
  if (waited_) return;
  ::kill(ownGroup_ ? -pid_ : pid_, SIGTERM);
  wait();
}

bool runQuietly(const std::vector<std::string>& args) {
  const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  try {
    ChildProcess child(args, {-1, null, null}, false);
    const int status = child.wait();
    if (null >= 0) ::close(null);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
  } catch (const std::runtime_error&) {
    if (null >= 0) ::close(null);
    return false;
  }
}

int runLines(const std::vector<std::string>& args, const std::string& errPath,
             const std::function<void(const std::string&)>& onLine) {
  int out[2];
  const int err = ::open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (err < 0 || ::pipe2(out, O_CLOEXEC) != 0) {
    if (err >= 0) ::close(err);
    return -1;
  }
  std::optional<ChildProcess> child;
  try {
    child.emplace(args, ChildProcess::Streams{-1, out[1], err}, true);
  } catch (const std::runtime_error&) {
    ::close(out[0]);
    ::close(out[1]);
    ::close(err);
    return -1;
  }
  ::close(out[1]);
  ::close(err);
  std::string line;
  char buffer[4096];
  // Polled, so that a stop is seen within a quarter second however long a case runs silently.
  while (core::stopSignal() == 0) {
    pollfd ready{out[0], POLLIN, 0};
    if (::poll(&ready, 1, 250) == 0) continue;
    const ssize_t n = ::read(out[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (ssize_t i = 0; i < n; ++i) {
      if (buffer[i] != '\n') {
        line += buffer[i];
        continue;
      }
      onLine(line);
      line.clear();
    }
  }
  ::close(out[0]);
  if (core::stopSignal() != 0) child->terminate();
  core::throwIfStopRequested();
  if (!line.empty()) onLine(line);
  const int status = child->wait();
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace murmur::app

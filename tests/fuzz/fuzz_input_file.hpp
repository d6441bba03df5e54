#pragma once
// The fuzzed bytes as Murmur reads its inputs: a regular file, opened by the readers' file entry
// points (readStateCsv, loadMovingAiMap, loadMovingAiScenarios) through core::InputFile, so that the
// kind and size checks and the bounded line reads are on the fuzzed path, not only the parsers.
// One file per process (mkstemp under the temporary directory), rewritten for every input and
// removed at exit. The size limits themselves (hundreds of MiB and more, core/input_file.hpp) are far
// beyond a fuzz input and the file is always regular; the line-length limits (1,024 bytes a state CSV
// line, 16,386 a map or scenario line) are within -max_len, and the seed corpus holds lines at them
// and one byte over.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

namespace murmur::fuzz {

class InputFileForFuzzing {
 public:
  InputFileForFuzzing() : path_((std::filesystem::temp_directory_path() / "murmur-fuzz-XXXXXX").string()) {
    fd_ = ::mkstemp(path_.data());
    if (fd_ < 0) die("mkstemp");
  }
  InputFileForFuzzing(const InputFileForFuzzing&) = delete;
  InputFileForFuzzing& operator=(const InputFileForFuzzing&) = delete;
  ~InputFileForFuzzing() {
    ::close(fd_);
    ::unlink(path_.c_str());
  }

  // Makes the file hold exactly data; returns its path. A failure here is the harness's, not the
  // reader's: it aborts rather than fuzz a file that does not hold the input.
  const std::string& write(const std::uint8_t* data, std::size_t size) {
    for (std::size_t done = 0; done < size;) {
      const ::ssize_t written = ::pwrite(fd_, data + done, size - done, ::off_t(done));
      if (written < 0 && errno == EINTR) continue;
      if (written <= 0) die("pwrite");
      done += std::size_t(written);
    }
    // Cut to the new size after writing, never to 0 first: ext4 flushes a file truncated to 0 when
    // the reader closes it (auto_da_alloc), which made every input wait for the disk.
    if (::ftruncate(fd_, ::off_t(size)) != 0) die("ftruncate");
    return path_;
  }

 private:
  [[noreturn]] void die(const char* call) const {
    std::fprintf(stderr, "fuzz harness: %s on %s: %s\n", call, path_.c_str(), std::strerror(errno));
    std::abort();
  }

  std::string path_;
  int fd_ = -1;
};

}  // namespace murmur::fuzz

#pragma once
// The input discipline of every file Murmur reads (a scene, a state CSV, a MovingAI map or scenario
// file): only a regular file is read (a FIFO would block forever, a device such as /dev/zero never
// ends, a directory is no file: each is InputError naming its kind), its size is checked against the
// reader's documented limit before a byte is read and no more than that size is read (a file that
// grows meanwhile is refused), lines are read with a length bound, and running out of memory is
// reported as such (std::bad_alloc, exit code 3), never as a parse error.
#include <cstddef>
#include <cstdint>
#include <istream>
#include <memory>
#include <streambuf>
#include <string>
#include <string_view>

namespace murmur::core {

// Each reader states its own limits beside it (docs/model.md, Limits; README, Input files):
// sim::kMaxSceneBytes, sim::kMaxStateCsvBytes, ai::kMaxMapBytes, ...

class InputFile {
 public:
  // Opens path (without blocking on a FIFO) and checks it: a regular file of at most maxBytes.
  // InputError naming path otherwise; `what` names the file in messages ("scene file").
  InputFile(const std::string& path, std::uint64_t maxBytes, std::string_view what);
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile();

  // The file's bytes; InputError when a read reaches past the size it had at open (it grew).
  std::istream& stream() { return *stream_; }
  std::uint64_t size() const { return size_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::uint64_t size_ = 0;
  std::unique_ptr<std::streambuf> buffer_;
  std::unique_ptr<std::istream> stream_;
};

// std::getline with a bound: false at the end of the input; InputError naming source and lineNumber
// (the line being read) when the line is longer than maxBytes. A trailing '\r' is dropped.
bool readBoundedLine(std::istream& in, std::string& line, std::size_t maxBytes, const std::string& source,
                     std::size_t lineNumber);

[[noreturn]] void reportOutOfMemory(const std::string& path);

// The whole of a small file (a scene, a sweep) as text, through an InputFile of at most maxBytes;
// InputError naming `what` ("scene file") when it changed while it was read or cannot be read.
std::string readWholeFile(const std::string& path, std::uint64_t maxBytes, std::string_view what);

// Runs read(), turning std::bad_alloc into one line naming the file (exit code 3).
template <typename Read>
auto withMemoryReport(const std::string& path, Read read) -> decltype(read()) {
  try {
    return read();
  } catch (const std::bad_alloc&) {
    reportOutOfMemory(path);
  }
}

}  // namespace murmur::core

#include "core/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ext/stdio_filebuf.h>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"

namespace murmur::core {
namespace {

std::string kindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// The file's bytes up to the size it had when opened: a file that grows while it is read (a log
// appended to, a map gaining lines) is refused when its reader reaches the extra bytes, as the
// scene reader refuses it, instead of being read without end. The stream rethrows (badbit).
class BoundedBuffer final : public std::streambuf {
 public:
  BoundedBuffer(std::unique_ptr<std::streambuf> file, std::uint64_t limit, std::string path, std::string what)
      : file_(std::move(file)), left_(limit), path_(std::move(path)), what_(std::move(what)) {}

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    if (left_ == 0) {
      if (file_->sgetc() != traits_type::eof())
        throw InputError(path_, 0, "", fmt::format("the {} changed while it was read (it grew)", what_));
      return traits_type::eof();
    }
    const std::streamsize got =
        file_->sgetn(chunk_, std::streamsize(std::min<std::uint64_t>(left_, sizeof chunk_)));
    if (got <= 0) return traits_type::eof();
    left_ -= std::uint64_t(got);
    setg(chunk_, chunk_, chunk_ + got);
    return traits_type::to_int_type(*gptr());
  }

 private:
  std::unique_ptr<std::streambuf> file_;
  std::uint64_t left_;
  std::string path_, what_;
  char chunk_[1 << 16];
};

}  // namespace

InputFile::InputFile(const std::string& path, std::uint64_t maxBytes, std::string_view what) : path_(path) {
  // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    throw InputError(path, 0, "", fmt::format("cannot open the {}: {}", what, std::strerror(errno)));
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    const int error = errno;
    ::close(fd);
    throw InputError(path, 0, "", fmt::format("cannot read the {}: {}", what, std::strerror(error)));
  }
  if (!S_ISREG(info.st_mode)) {
    ::close(fd);
    throw InputError(path, 0, "",
                     fmt::format("is {}; the {} must be a regular file", kindOf(info.st_mode), what));
  }
  size_ = std::uint64_t(info.st_size);
  if (size_ > maxBytes) {
    ::close(fd);
    throw InputError(path, 0, "",
                     fmt::format("the {} has {} bytes, more than the limit of {} (docs/model.md, Limits)",
                                 what, size_, maxBytes));
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  auto buffer = std::make_unique<__gnu_cxx::stdio_filebuf<char>>(fd, std::ios::in | std::ios::binary);
  if (!buffer->is_open()) {
    ::close(fd);
    throw InputError(path, 0, "", fmt::format("cannot read the {}", what));
  }
  // The file buffer closes fd when destroyed.
  buffer_ = std::make_unique<BoundedBuffer>(std::move(buffer), size_, path, std::string(what));
  stream_ = std::make_unique<std::istream>(buffer_.get());
  stream_->exceptions(std::ios::badbit);  // the buffer's InputError reaches the reader
}

InputFile::~InputFile() = default;

bool readBoundedLine(std::istream& in, std::string& line, std::size_t maxBytes, const std::string& source,
                     std::size_t lineNumber) {
  line.clear();
  std::streambuf* const buffer = in.rdbuf();
  for (;;) {
    const int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      if (line.empty()) {
        in.setstate(std::ios::eofbit);
        return false;
      }
      break;
    }
    if (c == '\n') break;
    // The limit is on the line's text: a CR one byte over it may still be a CRLF ending.
    if (line.size() > maxBytes || (line.size() == maxBytes && c != '\r'))
      throw InputError(source, lineNumber, "", fmt::format("line longer than {} bytes", maxBytes));
    line.push_back(char(c));
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

void reportOutOfMemory(const std::string& path) {
  throw OutOfMemoryError(path);
}

std::string readWholeFile(const std::string& path, std::uint64_t maxBytes, std::string_view what) {
  InputFile file(path, maxBytes, what);
  // The size checked, and one byte more, which the bounded buffer refuses: a file that grew since.
  std::string text = withMemoryReport(path, [&] { return std::string(file.size() + 1, '\0'); });
  file.stream().read(text.data(), std::streamsize(text.size()));
  text.resize(std::size_t(file.stream().gcount()));
  return text;
}

}  // namespace murmur::core

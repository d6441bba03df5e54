#include "core/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ext/stdio_filebuf.h>

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

}  // namespace

InputFile::InputFile(const std::string& path, std::uint64_t maxBytes, std::string_view what) : path_(path) {
  // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw InputError(path, 0, "", fmt::format("cannot open the {}: {}", what, std::strerror(errno)));
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    const int error = errno;
    ::close(fd);
    throw InputError(path, 0, "", fmt::format("cannot read the {}: {}", what, std::strerror(error)));
  }
  if (!S_ISREG(info.st_mode)) {
    ::close(fd);
    throw InputError(path, 0, "", fmt::format("is {}; the {} must be a regular file", kindOf(info.st_mode), what));
  }
  size_ = std::uint64_t(info.st_size);
  if (size_ > maxBytes) {
    ::close(fd);
    throw InputError(path, 0, "",
                     fmt::format("the {} has {} bytes, more than the limit of {} (docs/model.md, Limits)", what,
                                 size_, maxBytes));
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  auto buffer = std::make_unique<__gnu_cxx::stdio_filebuf<char>>(fd, std::ios::in | std::ios::binary);
  if (!buffer->is_open()) {
    ::close(fd);
    throw InputError(path, 0, "", fmt::format("cannot read the {}", what));
  }
  buffer_ = std::move(buffer);  // closes fd when destroyed
  stream_ = std::make_unique<std::istream>(buffer_.get());
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
  // The size checked, and one byte more to notice a file that grew since.
  std::string text = withMemoryReport(path, [&] { return std::string(file.size() + 1, '\0'); });
  file.stream().read(text.data(), std::streamsize(text.size()));
  text.resize(std::size_t(file.stream().gcount()));
  if (text.size() > file.size())
    throw InputError(path, 0, "", fmt::format("the {} changed while it was read", what));
  if (file.stream().bad())
    throw InputError(path, 0, "", fmt::format("cannot read the {} ({})", what, std::strerror(errno)));
  return text;
}

}  // namespace murmur::core

#include "core/memory.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <fmt/format.h>

#include "core/error.hpp"

namespace murmur::core {
namespace {

double gibibytes(std::uint64_t bytes) {
  return double(bytes) / double(std::uint64_t(1) << 30);
}

}  // namespace

std::optional<MemoryLimit> memoryLimit() {
  std::optional<MemoryLimit> least;
  const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && pageSize > 0)
    least =
        MemoryLimit{std::uint64_t(pages) * std::uint64_t(pageSize), "this machine's {:.1f} GiB of memory"};
  for (const int resource : {RLIMIT_AS, RLIMIT_DATA}) {
    rlimit limit{};
    if (::getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) continue;
    if (least && std::uint64_t(limit.rlim_cur) >= least->bytes) continue;
    least = MemoryLimit{
        std::uint64_t(limit.rlim_cur),
        fmt::format("the {{:.1f}} GiB this process may use (ulimit -{})", resource == RLIMIT_AS ? 'v' : 'd')};
  }
  return least;
}

void checkMemory(std::uint64_t bytes, const std::string& what, const std::string& file, std::size_t line,
                 const std::string& key, const MemoryLimit& limit) {
  if (bytes <= limit.bytes) return;
  throw InputError(file, line, key,
                   fmt::format("{} need about {:.1f} GiB, more than {}", what, gibibytes(bytes),
                               fmt::format(fmt::runtime(limit.what), gibibytes(limit.bytes))));
}

void checkMemory(std::uint64_t bytes, const std::string& what, const std::string& file, std::size_t line,
                 const std::string& key) {
  if (const std::optional<MemoryLimit> limit = memoryLimit())
    checkMemory(bytes, what, file, line, key, *limit);
}

}  // namespace murmur::core

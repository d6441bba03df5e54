#pragma once
// The memory a process may take, checked before large allocations (the flock, a path search's
// nodes), so that a run too large is refused at once with the figures rather than failing later
// with an unnamed bad_alloc.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace murmur::core {

struct MemoryLimit {
  std::uint64_t bytes = 0;
  // The limit in words, {} standing for its GiB: "this machine's {} GiB of memory".
  std::string what;
};

// The least of the machine's physical memory and the process's address-space and data limits
// (ulimit -v, -d); none when none is known.
std::optional<MemoryLimit> memoryLimit();

// InputError (file, line, key): "WHAT need about X GiB, more than LIMIT" when `bytes` is over
// `limit`; the form without one takes memoryLimit() (none known: no check).
void checkMemory(std::uint64_t bytes, const std::string& what, const std::string& file, std::size_t line,
                 const std::string& key, const MemoryLimit& limit);
void checkMemory(std::uint64_t bytes, const std::string& what, const std::string& file, std::size_t line,
                 const std::string& key);

}  // namespace murmur::core

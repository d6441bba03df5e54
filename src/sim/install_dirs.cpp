#include "sim/install_dirs.hpp"

#include <system_error>

namespace murmur::sim {

std::filesystem::path executableDir() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::current_path() : self.parent_path();
}

std::filesystem::path shareDir() {
  const std::filesystem::path bundle = (executableDir() / ".." / "share" / "murmur").lexically_normal();
  std::error_code error;
  return std::filesystem::is_directory(bundle, error) ? bundle : executableDir() / "share" / "murmur";
}

}  // namespace murmur::sim

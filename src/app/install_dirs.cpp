#include "app/install_dirs.hpp"

namespace murmur::app {

std::filesystem::path executableDir() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::current_path() : self.parent_path();
}

std::filesystem::path installedShareDir() {
  return (executableDir() / ".." / "share" / "murmur").lexically_normal();
}

}  // namespace murmur::app

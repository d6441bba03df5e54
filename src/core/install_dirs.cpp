#include "core/install_dirs.hpp"

#include <cstdlib>
#include <system_error>

namespace murmur::core {

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

std::vector<std::filesystem::path> dataDirectories() {
  std::vector<std::filesystem::path> dirs;
  if (const char* env = std::getenv("MURMUR_DATA_DIR"); env != nullptr && *env != '\0') dirs.emplace_back(env);
  dirs.push_back(shareDir() / "data");
  return dirs;
}

}  // namespace murmur::core

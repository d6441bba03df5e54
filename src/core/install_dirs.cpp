#include "core/install_dirs.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <string_view>
#include <system_error>

namespace murmur::core {

std::filesystem::path binaryDir() {
  std::error_code error;
  Dl_info info{};
  // For the main program dladdr names it as it was started (maybe by PATH): /proc/self/exe there.
  if (dladdr(reinterpret_cast<void*>(&binaryDir), &info) != 0 && info.dli_fname != nullptr &&
      std::string_view(info.dli_fname).find(".so") != std::string_view::npos) {
    const std::filesystem::path self = std::filesystem::canonical(info.dli_fname, error);
    if (!error) return self.parent_path();
  }
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::current_path() : self.parent_path();
}

std::filesystem::path shareDir() {
  if (const char* env = std::getenv("MURMUR_SHARE_DIR"); env != nullptr && *env != '\0') return env;
  const std::filesystem::path installed = (binaryDir() / ".." / "share" / "murmur").lexically_normal();
  std::error_code error;
  return std::filesystem::is_directory(installed, error) ? installed : binaryDir() / "share" / "murmur";
}

std::vector<std::filesystem::path> dataDirectories() {
  std::vector<std::filesystem::path> dirs;
  if (const char* env = std::getenv("MURMUR_DATA_DIR"); env != nullptr && *env != '\0')
    dirs.emplace_back(env);
  dirs.push_back(shareDir() / "data");
  return dirs;
}

}  // namespace murmur::core

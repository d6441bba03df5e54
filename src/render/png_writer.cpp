#include "render/png_writer.hpp"

#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wshadow"
#include <stb_image_write.h>
#pragma GCC diagnostic pop

#include "sim/error.hpp"

namespace murmur::render {

void writePng(const std::string& path, int width, int height, std::span<const std::uint8_t> rgba) {
  if (width <= 0 || height <= 0 || rgba.size() != std::size_t(width) * std::size_t(height) * 4)
    throw std::invalid_argument("writePng: pixel buffer does not match the image size");
  const std::string temporary = path + ".tmp";
  if (stbi_write_png(temporary.c_str(), width, height, 4, rgba.data(), width * 4) == 0) {
    std::remove(temporary.c_str());
    throw InputError(path, 0, "", "cannot write PNG file");
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::remove(temporary.c_str());
    throw InputError(path, 0, "", "cannot write PNG file: " + ec.message());
  }
}

}  // namespace murmur::render

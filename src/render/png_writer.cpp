#include "render/png_writer.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wshadow"
#include <stb_image_write.h>
#pragma GCC diagnostic pop

#include "core/output_path.hpp"

namespace murmur::render {

std::vector<std::uint8_t> encodePng(int width, int height, std::span<const std::uint8_t> rgba) {
  if (width <= 0 || height <= 0 || rgba.size() != std::size_t(width) * std::size_t(height) * 4)
    throw std::invalid_argument("encodePng: pixel buffer does not match the image size");
  std::vector<std::uint8_t> png;
  const auto append = [](void* context, void* data, int size) {
    auto& bytes = *static_cast<std::vector<std::uint8_t>*>(context);
    const auto* begin = static_cast<const std::uint8_t*>(data);
    bytes.insert(bytes.end(), begin, begin + size);
  };
  if (stbi_write_png_to_func(append, &png, width, height, 4, rgba.data(), width * 4) == 0)
    throw std::runtime_error("cannot encode a PNG image of " + std::to_string(width) + "x" +
                             std::to_string(height));
  return png;
}

void writePng(const std::string& path, int width, int height, std::span<const std::uint8_t> rgba,
              const std::string& option) {
  const std::vector<std::uint8_t> png = encodePng(width, height, rgba);
  core::TemporaryOutput output(path, option);
  output.write(png.data(), png.size());
  output.commit();
}

}  // namespace murmur::render

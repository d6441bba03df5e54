#include "render/png_writer.hpp"

#include <algorithm>
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

#include <zlib.h>

#include "core/output_path.hpp"

namespace murmur::render {
namespace {

bool printable(char c) {
  return c >= ' ' && c <= '~';
}

void appendBigEndian(std::vector<std::uint8_t>& bytes, std::uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) bytes.push_back(std::uint8_t(value >> shift));
}

// A tEXt chunk: length, type, the key, a zero byte, the value, the CRC of type and data.
std::vector<std::uint8_t> textChunk(const TextTag& tag) {
  if (tag.key.empty() || tag.key.size() > 79 || !std::all_of(tag.key.begin(), tag.key.end(), printable))
    throw std::invalid_argument("encodePng: a text tag's key is not 1-79 printable ASCII characters");
  std::vector<std::uint8_t> body = {'t', 'E', 'X', 't'};
  body.insert(body.end(), tag.key.begin(), tag.key.end());
  body.push_back(0);
  for (const char c : tag.value) {
    if (printable(c)) {
      body.push_back(std::uint8_t(c));
      continue;
    }
    constexpr char kHex[] = "0123456789abcdef";  // Other bytes (a path's UTF-8) as \xNN
    const auto byte = static_cast<std::uint8_t>(c);
    body.insert(body.end(), {'\\', 'x', std::uint8_t(kHex[byte >> 4]), std::uint8_t(kHex[byte & 15])});
  }
  std::vector<std::uint8_t> chunk;
  appendBigEndian(chunk, std::uint32_t(body.size() - 4));
  chunk.insert(chunk.end(), body.begin(), body.end());
  appendBigEndian(chunk, std::uint32_t(crc32(0, body.data(), uInt(body.size()))));
  return chunk;
}

}  // namespace

std::vector<std::uint8_t> encodePng(int width, int height, std::span<const std::uint8_t> rgba,
                                    std::span<const TextTag> tags) {
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
  // After the signature (8 bytes) and the header chunk (25).
  constexpr std::ptrdiff_t kAfterHeader = 33;
  std::vector<std::uint8_t> text;
  for (const TextTag& tag : tags) {
    const std::vector<std::uint8_t> chunk = textChunk(tag);
    text.insert(text.end(), chunk.begin(), chunk.end());
  }
  png.insert(png.begin() + kAfterHeader, text.begin(), text.end());
  return png;
}

void writePng(const std::string& path, int width, int height, std::span<const std::uint8_t> rgba,
              const std::string& option, std::span<const TextTag> tags) {
  const std::vector<std::uint8_t> png = encodePng(width, height, rgba, tags);
  core::TemporaryOutput output(path, option);
  output.write(png.data(), png.size());
  output.commit();
}

}  // namespace murmur::render

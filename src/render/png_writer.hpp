#pragma once
// PNG output for headless frames and screenshots (stb_image_write), written with the output
// discipline of core/output_path.hpp: no partial PNG is ever left behind, every write is checked.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace murmur::render {

// What made a picture, one key and value: a PNG's tEXt chunk, a video's metadata tag. Keys are 1-79
// printable ASCII characters (std::invalid_argument otherwise); a PNG writes a value's other bytes
// as \xNN.
struct TextTag {
  std::string key;
  std::string value;
};

// The PNG file of an image, encoded in memory: stb_image_write reports no write or close error of
// the files it writes itself. rgba: width * height * 4 bytes, rows top to bottom
// (std::invalid_argument otherwise). tags: tEXt chunks after the header, in order.
std::vector<std::uint8_t> encodePng(int width, int height, std::span<const std::uint8_t> rgba,
                                    std::span<const TextTag> tags = {});

// encodePng's bytes written to path with the output discipline. InputError (naming option) when
// path is no writable regular file; OutputError when writing it fails (a full disk).
void writePng(const std::string& path, int width, int height, std::span<const std::uint8_t> rgba,
              const std::string& option, std::span<const TextTag> tags = {});

}  // namespace murmur::render

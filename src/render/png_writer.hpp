#pragma once
// PNG output for headless frames and screenshots (stb_image_write), written atomically:
// a temporary file beside the target, then a rename, so no partial PNG is ever left behind.
#include <cstdint>
#include <span>
#include <string>

namespace murmur::render {

// rgba: width * height * 4 bytes, rows top to bottom. Throws murmur::InputError when the file
// cannot be written.
void writePng(const std::string& path, int width, int height, std::span<const std::uint8_t> rgba);

}  // namespace murmur::render

#pragma once
// PNG output for headless frames and screenshots (stb_image_write), written with the output
// discipline of core/output_path.hpp: no partial PNG is ever left behind, every write is checked.
#include <cstdint>
#include <span>
#include <string>

namespace murmur::render {

// rgba: width * height * 4 bytes, rows top to bottom. InputError (naming option) when path is no
// writable regular file; OutputError when writing it fails (a full disk).
void writePng(const std::string& path, int width, int height, std::span<const std::uint8_t> rgba,
              const std::string& option);

}  // namespace murmur::render

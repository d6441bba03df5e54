#pragma once
// What the tests read back from the PNGs Murmur writes: the text chunks and the build's commit.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <zlib.h>

#include "cli.hpp"

namespace murmur::test {

// A PNG's tEXt chunks, key to value, each chunk's CRC checked.
inline std::map<std::string, std::string> pngText(const std::filesystem::path& png) {
  std::ifstream in(png, std::ios::binary);
  const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                         std::istreambuf_iterator<char>());
  std::map<std::string, std::string> text;
  const auto word = [&](std::size_t at) {
    return std::uint32_t(bytes[at]) << 24 | std::uint32_t(bytes[at + 1]) << 16 |
           std::uint32_t(bytes[at + 2]) << 8 | std::uint32_t(bytes[at + 3]);
  };
  std::size_t at = 8;
  while (at + 12 <= bytes.size()) {
    const std::uint32_t length = word(at);
    if (at + 12 + length > bytes.size()) break;
    const std::string type(bytes.begin() + long(at) + 4, bytes.begin() + long(at) + 8);
    EXPECT_EQ(word(at + 8 + length), crc32(0, bytes.data() + at + 4, length + 4)) << png << ": " << type;
    if (type == "tEXt") {
      const std::string data(bytes.begin() + long(at) + 8, bytes.begin() + long(at) + 8 + length);
      text[data.substr(0, data.find('\0'))] = data.substr(data.find('\0') + 1);
    }
    at += 12 + length;
  }
  EXPECT_EQ(at, bytes.size()) << png << ": chunks do not end at the file's end";
  return text;
}

// The commit `murmur --version` names.
inline std::string buildCommit() {
  const std::string version = runMurmur("--version").out;
  const std::size_t at = version.find("(commit ") + 8;
  return version.substr(at, version.find(',', at) - at);
}

}  // namespace murmur::test

#pragma once
// A MovingAI map file written for a test (the ai and world suites): rows of '.' (free) and '@'
// (blocked), row 0 first.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "scratch_dir.hpp"

namespace murmur::test {

// Writes the map into a scratch directory of its own (scratchDir: one per test and process) as
// <name>.map and returns its path.
inline std::filesystem::path writeMap(const std::string& name, const std::vector<std::string>& rows) {
  const std::filesystem::path path = scratchDir("map_" + name) / (name + ".map");
  std::ofstream out(path);
  out << "type octile\nheight " << rows.size() << "\nwidth " << rows.front().size() << "\nmap\n";
  for (const std::string& row : rows) out << row << "\n";
  return path;
}

}  // namespace murmur::test

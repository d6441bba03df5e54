// Fuzzes the state CSV reader (sim/state_csv.hpp) against the default model's world box.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "core/error.hpp"
#include "sim/state_csv.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    murmur::sim::parseStateCsv(in, "fuzz.csv", murmur::sim::ModelParams{});
  } catch (const murmur::InputError&) {
  }
  return 0;
}

// Fuzzes the state CSV reader (sim/state_csv.hpp) as `murmur run --init` reads it: the bytes in a
// regular file, read by readStateCsv (core::InputFile, bounded lines), against the default model's
// world box.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "fuzz_input_file.hpp"
#include "sim/state_csv.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static murmur::fuzz::InputFileForFuzzing file;
  const std::string& path = file.write(data, size);
  try {
    murmur::sim::readStateCsv(path, murmur::sim::ModelParams{});
  } catch (const murmur::InputError&) {
  }
  return 0;
}

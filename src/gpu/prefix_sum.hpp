#pragma once
// Exclusive prefix sum of uint32 values on the GPU, for any count: a block scan per level
// (shaders/grid/Scan.comp.glsl: blockSize() values per work group) whose block totals are scanned
// by the next level, recursively, then added back (ScanAdd.comp.glsl). Up to 2^24 values (a
// grid's largest count of cells) take two levels; no level ever runs a single-thread loop over
// the blocks.
#include <cstdint>
#include <vector>

#include <glm/vec4.hpp>

#include "gpu/context.hpp"
#include "gpu/gl_objects.hpp"
#include "gpu/shader_library.hpp"

namespace murmur::gpu {

class PrefixSum {
 public:
  // groupSize: threads per work group (a power of two); itemsPerThread values each.
  PrefixSum(const Context& context, const ShaderLibrary& shaders, std::uint32_t groupSize = 256,
            std::uint32_t itemsPerThread = 16);

  // out[i] = in[0] + ... + in[i-1] for i < count (out[0] = 0). in and out may be the same buffer;
  // both hold at least count values. Records GPU commands only (no wait); the caller puts a
  // glMemoryBarrier before reading out.
  void exclusiveScan(const Buffer& in, const Buffer& out, std::uint32_t count);

  std::uint32_t blockSize() const { return groupSize_ * itemsPerThread_; }
  // Scan levels `count` values take (1 when count fits one block).
  std::uint32_t levels(std::uint32_t count) const;
  // grid/Scan (each level's block scan) and grid/ScanAdd (the add-back): the pipeline's byte model.
  const Program& scanProgram() const { return scan_; }
  const Program& addProgram() const { return add_; }

 private:
  void scanLevel(const Buffer& in, const Buffer& out, std::uint32_t count, std::size_t level);

  std::uint32_t groupSize_;
  std::uint32_t itemsPerThread_;
  int maxGroupsX_;
  Program scan_;
  Program add_;
  UniformBlock<glm::uvec4> params_;  // layout::PassParams: x the count of the level
  std::vector<Buffer> blockSums_;  // per level, grown on demand
};

}  // namespace murmur::gpu

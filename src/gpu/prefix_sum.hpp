#pragma once
// Exclusive prefix sum of uint32 values on the GPU, in one dispatch for any count
// (shaders/grid/Scan.comp.glsl: blockSize() values per work group, each block adding the totals
// of the blocks before it by a decoupled look-back with a fallback, so that no block waits on
// another being scheduled). A status word per block carries the totals; the scan leaves them zero.
#include <cstdint>

#include <glm/vec4.hpp>

#include "gpu/context.hpp"
#include "gpu/gl_objects.hpp"
#include "gpu/shader_library.hpp"

namespace murmur::gpu {

class PrefixSum {
 public:
  // Values a block takes unless told otherwise (gpu::FlockPipeline keeps it whatever its threads):
  // the block sits in shared memory (grid/Scan.comp.glsl), 16.5 KiB, within every device's 32 KiB.
  static constexpr std::uint32_t kBlockValues = 4096;
  // Threads a group unless told otherwise (gpu::WorkGroupSizes::scan too): 512 threads of 8 values,
  // faster than 256 of 16 on a card (docs/gpu.md, Work-group sizes).
  static constexpr std::uint32_t kGroupSize = 512;
  // Predecessors a block's look-back reads at once, a thread each (fewer in a smaller group): a
  // wider window of the whole group was tried on an H200 and not kept (docs/gpu.md, Prefix sum).
  static constexpr std::uint32_t kLookBackWindow = 32;

  // groupSize: threads per work group (a power of two); itemsPerThread values each (the block must
  // fit the device's shared memory: std::invalid_argument otherwise); lookBackPolls: how many times
  // a block reads an empty predecessor's status before summing that block's values itself (0:
  // always itself, which tests use to exercise the fallback).
  PrefixSum(const Context& context, const ShaderLibrary& shaders, std::uint32_t groupSize = kGroupSize,
            std::uint32_t itemsPerThread = kBlockValues / kGroupSize, std::uint32_t lookBackPolls = 1024);

  // out[i] = in[0] + ... + in[i-1] for i < count (out[0] = 0). in and out are different buffers
  // (the fallback reads other blocks' inputs while they write), each holding at least count
  // values, and the sum of all of them is below 2^30. Records GPU commands only (no wait); the
  // caller puts a glMemoryBarrier before reading out.
  void exclusiveScan(const Buffer& in, const Buffer& out, std::uint32_t count);

  std::uint32_t blockSize() const { return groupSize_ * itemsPerThread_; }
  // grid/Scan: the pipeline's byte model.
  const Program& scanProgram() const { return scan_; }

 private:
  std::uint32_t groupSize_;
  std::uint32_t itemsPerThread_;
  std::uint32_t lookBackPolls_;
  int maxGroupsX_;
  Program scan_;
  UniformBlock<glm::uvec4> params_;  // layout::PassParams: x the count, y the look-back's polls
  Buffer status_;                    // the next ticket, then a status word per block; grown on demand
};

}  // namespace murmur::gpu

#include "gpu/prefix_sum.hpp"

#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gpu/flock_layout.hpp"

namespace murmur::gpu {

PrefixSum::PrefixSum(const Context& context, const ShaderLibrary& shaders, std::uint32_t groupSize,
                     std::uint32_t itemsPerThread, std::uint32_t lookBackPolls)
    : groupSize_(groupSize),
      itemsPerThread_(itemsPerThread),
      lookBackPolls_(lookBackPolls),
      maxGroupsX_(context.info().maxComputeWorkGroupCount[0]),
      params_("prefix sum constants", layout::kPassParams) {
  // grid/Scan.comp.glsl's shared memory: the block (a word of padding every 32), a word a thread,
  // the look-back's window (at most) and two words more.
  const std::uint64_t blockValues = std::uint64_t(groupSize) * itemsPerThread;
  const std::uint64_t sharedBytes =
      (blockValues + blockValues / 32 + groupSize + kLookBackWindow + 2) * sizeof(std::uint32_t);
  if (sharedBytes > static_cast<std::uint64_t>(context.info().maxComputeSharedMemorySize))
    throw std::invalid_argument(fmt::format(
        "gpu::PrefixSum: {} threads of {} values need {} bytes of shared memory; {} offers {}", groupSize,
        itemsPerThread, sharedBytes, context.info().renderer, context.info().maxComputeSharedMemorySize));
  Defines defines = layout::bindingDefines();
  defines.emplace_back("WORKGROUP_SIZE", std::to_string(groupSize_));
  defines.emplace_back("ITEMS", std::to_string(itemsPerThread_));
  defines.emplace_back("LOOK_BACK_WINDOW", std::to_string(kLookBackWindow));
  scan_ = shaders.compute("grid/Scan.comp.glsl", defines);
}

void PrefixSum::exclusiveScan(const Buffer& in, const Buffer& out, std::uint32_t count) {
  if (count == 0) return;
  if (in.id() == out.id()) throw std::logic_error("gpu::PrefixSum: the input must not be the output");
  const std::uint32_t blocks = (count + blockSize() - 1) / blockSize();
  // Made zero; each scan's last work group zeroes the words it used (grid/Scan.comp.glsl).
  const std::size_t statusWords = std::size_t(blocks) + 2;
  if (status_.size() < statusWords * sizeof(std::uint32_t))
    status_ = Buffer::fromSpan("prefix sum tickets and block status",
                               std::span<const std::uint32_t>(std::vector<std::uint32_t>(statusWords)), 0);
  // The previous scan's last work group zeroed status_ with shader writes: visible to this one.
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  in.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kScanIn);
  out.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kScanOut);
  status_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kScanStatus);
  params_.set(layout::PassParams(count, lookBackPolls_, 0u, 0u));
  dispatchCompute(scan_, std::uint64_t(blocks) * groupSize_, groupSize_, maxGroupsX_);
}

}  // namespace murmur::gpu

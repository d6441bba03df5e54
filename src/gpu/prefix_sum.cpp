#include "gpu/prefix_sum.hpp"

#include <stdexcept>
#include <string>

#include "gpu/flock_layout.hpp"

namespace murmur::gpu {

PrefixSum::PrefixSum(const Context& context, const ShaderLibrary& shaders, std::uint32_t groupSize,
                     std::uint32_t itemsPerThread, std::uint32_t lookBackPolls)
    : groupSize_(groupSize),
      itemsPerThread_(itemsPerThread),
      lookBackPolls_(lookBackPolls),
      maxGroupsX_(context.info().maxComputeWorkGroupCount[0]),
      params_("prefix sum constants", layout::kPassParams) {
  Defines defines = layout::bindingDefines();
  defines.emplace_back("WORKGROUP_SIZE", std::to_string(groupSize_));
  defines.emplace_back("ITEMS", std::to_string(itemsPerThread_));
  scan_ = shaders.compute("grid/Scan.comp.glsl", defines);
}

void PrefixSum::exclusiveScan(const Buffer& in, const Buffer& out, std::uint32_t count) {
  if (count == 0) return;
  if (in.id() == out.id()) throw std::logic_error("gpu::PrefixSum: the input must not be the output");
  const std::uint32_t blocks = (count + blockSize() - 1) / blockSize();
  const std::size_t statusBytes = (std::size_t(blocks) + 1) * sizeof(std::uint32_t);
  if (status_.size() < statusBytes) status_ = Buffer("prefix sum tickets and block status", statusBytes, 0);
  status_.fill(0u);
  in.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kScanIn);
  out.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kScanOut);
  status_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kScanStatus);
  params_.set(layout::PassParams(count, lookBackPolls_, 0u, 0u));
  dispatchCompute(scan_, std::uint64_t(blocks) * groupSize_, groupSize_, maxGroupsX_);
}

}  // namespace murmur::gpu

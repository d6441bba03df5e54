#include "gpu/prefix_sum.hpp"

#include <string>

#include "gpu/flock_layout.hpp"

namespace murmur::gpu {

PrefixSum::PrefixSum(const Context& context, const ShaderLibrary& shaders, std::uint32_t groupSize,
                     std::uint32_t itemsPerThread)
    : groupSize_(groupSize),
      itemsPerThread_(itemsPerThread),
      maxGroupsX_(context.info().maxComputeWorkGroupCount[0]),
      params_("prefix sum constants", layout::kPassParams) {
  Defines defines = layout::bindingDefines();
  defines.emplace_back("WORKGROUP_SIZE", std::to_string(groupSize_));
  defines.emplace_back("ITEMS", std::to_string(itemsPerThread_));
  defines.emplace_back("SCAN_BLOCK", std::to_string(blockSize()));
  scan_ = shaders.compute("grid/Scan.comp.glsl", defines);
  add_ = shaders.compute("grid/ScanAdd.comp.glsl", defines);
}

std::uint32_t PrefixSum::levels(std::uint32_t count) const {
  std::uint32_t levels = 1;
  for (std::uint64_t blocks = (std::uint64_t(count) + blockSize() - 1) / blockSize(); blocks > 1;
       blocks = (blocks + blockSize() - 1) / blockSize())
    ++levels;
  return levels;
}

void PrefixSum::exclusiveScan(const Buffer& in, const Buffer& out, std::uint32_t count) {
  if (count == 0) return;
  // Every level's block totals, allocated before the recursion holds references into them.
  const std::uint32_t levelCount = levels(count);
  if (blockSums_.size() < levelCount) blockSums_.resize(levelCount);
  std::uint32_t values = count;
  for (std::uint32_t level = 0; level < levelCount; ++level) {
    const std::uint32_t blocks = (values + blockSize() - 1) / blockSize();
    if (blockSums_[level].size() < blocks * sizeof(std::uint32_t))
      blockSums_[level] = Buffer("prefix sum block totals", blocks * sizeof(std::uint32_t), 0);
    values = blocks;
  }
  scanLevel(in, out, count, 0);
}

void PrefixSum::scanLevel(const Buffer& in, const Buffer& out, std::uint32_t count, std::size_t level) {
  const std::uint32_t blocks = (count + blockSize() - 1) / blockSize();
  const Buffer& sums = blockSums_[level];

  in.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kScanIn);
  out.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kScanOut);
  sums.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kScanSums);
  params_.set(layout::PassParams(count, 0u, 0u, 0u));
  dispatchCompute(scan_, std::uint64_t(blocks) * groupSize_, groupSize_, maxGroupsX_);
  if (blocks == 1) return;

  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  scanLevel(sums, sums, blocks, level + 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  out.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kScanOut);
  sums.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kScanSums);
  params_.set(layout::PassParams(count, 0u, 0u, 0u));
  dispatchCompute(add_, count, groupSize_, maxGroupsX_);
}

}  // namespace murmur::gpu

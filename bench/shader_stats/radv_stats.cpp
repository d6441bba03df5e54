// Compiles SPIR-V programs into Vulkan pipelines and prints what the driver's compiler reports of
// each executable (VK_KHR_pipeline_executable_properties): on Mesa's RADV with RADV_FORCE_FAMILY
// set (a null device: no AMD card needed), the register counts, spills, scratch, LDS, instruction
// count and the latency and throughput estimates of ACO, the compiler AMD cards run under Mesa.
// scripts/shader-stats.sh drives it, once per target.
//
//   murmur_radv_stats --compute a.spv [--graphics v.spv f.spv] ...
//
// Prints one tab-separated line per executable: the SPIR-V file, the driver's executable name, the
// subgroup size, then name=value for every statistic. The descriptor set layout of each pipeline is
// read from the SPIR-V itself (every binding of set 0, uniform or storage buffer), the vertex
// inputs likewise (one vec4 attribute per location); graphics pipelines draw triangles into one
// RGBA8 colour attachment per fragment output, with a 32-bit depth buffer, through dynamic
// rendering. Exit 2 on bad arguments or unreadable SPIR-V, 1 when Vulkan fails.
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct VulkanError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A Vulkan structure of type T, zeroed but for its sType.
template <class T>
T make(VkStructureType type) {
  T value{};
  value.sType = type;
  return value;
}

void check(VkResult result, const char* what) {
  if (result != VK_SUCCESS)
    throw VulkanError(std::string(what) + " failed: VkResult " + std::to_string(result));
}

std::vector<std::uint32_t> readSpirv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument(path + ": cannot read");
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < 20 || bytes.size() % 4 != 0) throw std::invalid_argument(path + ": not SPIR-V");
  std::vector<std::uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  if (words[0] != 0x07230203u) throw std::invalid_argument(path + ": not SPIR-V (magic number)");
  return words;
}

// What a pipeline needs to know of a module's interface (SPIR-V specification, section 3).
struct Interface {
  std::map<std::uint32_t, VkDescriptorType> bindings;  // set 0
  std::set<std::uint32_t> inputLocations;
  std::set<std::uint32_t> outputLocations;
};

Interface reflect(const std::vector<std::uint32_t>& words, const std::string& path) {
  constexpr std::uint32_t kOpTypePointer = 32, kOpVariable = 59, kOpDecorate = 71;
  constexpr std::uint32_t kBlock = 2, kBufferBlock = 3, kLocation = 30, kBinding = 33, kDescriptorSet = 34;
  constexpr std::uint32_t kInput = 1, kUniform = 2, kOutput = 3, kUniformConstant = 0, kPushConstant = 9,
                          kStorageBuffer = 12;
  std::map<std::uint32_t, std::uint32_t> binding, set, location;
  std::set<std::uint32_t> block, bufferBlock;
  std::map<std::uint32_t, std::uint32_t> pointee;                  // pointer type -> type
  std::vector<std::pair<std::uint32_t, std::uint32_t>> variables;  // (pointer type, id)
  std::map<std::uint32_t, std::uint32_t> storageClass;             // variable id -> class
  for (std::size_t at = 5; at < words.size();) {
    const std::uint32_t count = words[at] >> 16, op = words[at] & 0xffffu;
    if (count == 0 || at + count > words.size()) throw std::invalid_argument(path + ": truncated SPIR-V");
    const std::uint32_t* w = &words[at];
    if (op == kOpDecorate && count >= 3) {
      if (w[2] == kBinding) binding[w[1]] = w[3];
      if (w[2] == kDescriptorSet) set[w[1]] = w[3];
      if (w[2] == kLocation) location[w[1]] = w[3];
      if (w[2] == kBlock) block.insert(w[1]);
      if (w[2] == kBufferBlock) bufferBlock.insert(w[1]);
    } else if (op == kOpTypePointer) {
      pointee[w[1]] = w[3];
    } else if (op == kOpVariable) {
      variables.emplace_back(w[1], w[2]);
      storageClass[w[2]] = w[3];
    }
    at += count;
  }
  Interface out;
  for (const auto& [type, id] : variables) {
    const std::uint32_t cls = storageClass[id];
    if (cls == kInput && location.count(id)) out.inputLocations.insert(location[id]);
    if (cls == kOutput && location.count(id)) out.outputLocations.insert(location[id]);
    if (cls == kUniformConstant || cls == kPushConstant)
      throw std::invalid_argument(path + ": textures, samplers and push constants are not handled");
    if (cls != kUniform && cls != kStorageBuffer) continue;
    if (set.count(id) && set[id] != 0) throw std::invalid_argument(path + ": descriptor set other than 0");
    if (!binding.count(id)) throw std::invalid_argument(path + ": a buffer without a binding");
    const std::uint32_t structType = pointee[type];
    const bool storage = cls == kStorageBuffer || bufferBlock.count(structType);
    if (!storage && !block.count(structType))
      throw std::invalid_argument(path + ": a uniform that is not a block");
    const VkDescriptorType kind =
        storage ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    const auto [it, inserted] = out.bindings.emplace(binding[id], kind);
    if (!inserted && it->second != kind)
      throw std::invalid_argument(path + ": binding " + std::to_string(binding[id]) + " used twice");
  }
  return out;
}

struct Program {
  std::vector<std::string> files;  // one: compute; two: vertex, fragment
};

class Device {
 public:
  Device() {
    auto app = make<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
    app.pApplicationName = "murmur_radv_stats";
    app.apiVersion = VK_API_VERSION_1_3;
    auto instanceInfo = make<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
    instanceInfo.pApplicationInfo = &app;
    check(vkCreateInstance(&instanceInfo, nullptr, &instance_), "vkCreateInstance");
    std::uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance_, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(instance_, &count, devices.data());
    for (VkPhysicalDevice candidate : devices) {
      VkPhysicalDeviceProperties properties;
      vkGetPhysicalDeviceProperties(candidate, &properties);
      if (std::strstr(properties.deviceName, "RADV") && properties.apiVersion >= VK_API_VERSION_1_3) {
        physical_ = candidate;
        name_ = properties.deviceName;
        break;
      }
    }
    if (!physical_) throw VulkanError("no RADV device with Vulkan 1.3 (is RADV_FORCE_FAMILY set?)");
    const float priority = 1.0f;
    auto queue = make<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
    queue.queueFamilyIndex = 0;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    auto executableInfo = make<VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR);
    executableInfo.pipelineExecutableInfo = VK_TRUE;
    auto vulkan13 =
        make<VkPhysicalDeviceVulkan13Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
    vulkan13.dynamicRendering = VK_TRUE;
    vulkan13.pNext = &executableInfo;
    const char* extensions[] = {VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME};
    auto deviceInfo = make<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
    deviceInfo.pNext = &vulkan13;
    deviceInfo.queueCreateInfoCount = 1;
    deviceInfo.pQueueCreateInfos = &queue;
    deviceInfo.enabledExtensionCount = 1;
    deviceInfo.ppEnabledExtensionNames = extensions;
    check(vkCreateDevice(physical_, &deviceInfo, nullptr, &device_), "vkCreateDevice");
    getProperties_ = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
        vkGetDeviceProcAddr(device_, "vkGetPipelineExecutablePropertiesKHR"));
    getStatistics_ = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
        vkGetDeviceProcAddr(device_, "vkGetPipelineExecutableStatisticsKHR"));
    if (!getProperties_ || !getStatistics_)
      throw VulkanError("VK_KHR_pipeline_executable_properties missing");
  }
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
  ~Device() {
    if (device_) vkDestroyDevice(device_, nullptr);
    vkDestroyInstance(instance_, nullptr);
  }

  const std::string& name() const { return name_; }

  // Builds the program's pipeline and prints its executables' statistics.
  void report(const Program& program) {
    std::vector<VkShaderModule> modules;
    std::map<std::uint32_t, VkDescriptorType> bindings;
    std::vector<Interface> interfaces;
    for (const std::string& file : program.files) {
      const std::vector<std::uint32_t> words = readSpirv(file);
      interfaces.push_back(reflect(words, file));
      for (const auto& [binding, kind] : interfaces.back().bindings) {
        const auto [it, inserted] = bindings.emplace(binding, kind);
        if (!inserted && it->second != kind)
          throw std::invalid_argument(file + ": binding " + std::to_string(binding) +
                                      " differs between stages");
      }
      auto moduleInfo = make<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
      moduleInfo.codeSize = words.size() * sizeof(std::uint32_t);
      moduleInfo.pCode = words.data();
      VkShaderModule module = VK_NULL_HANDLE;
      check(vkCreateShaderModule(device_, &moduleInfo, nullptr, &module), "vkCreateShaderModule");
      modules.push_back(module);
    }
    std::vector<VkDescriptorSetLayoutBinding> layoutBindings;
    for (const auto& [binding, kind] : bindings)
      layoutBindings.push_back({binding, kind, 1, VK_SHADER_STAGE_ALL, nullptr});
    auto setInfo = make<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    setInfo.bindingCount = static_cast<std::uint32_t>(layoutBindings.size());
    setInfo.pBindings = layoutBindings.data();
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    check(vkCreateDescriptorSetLayout(device_, &setInfo, nullptr, &setLayout), "vkCreateDescriptorSetLayout");
    auto layoutInfo = make<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &setLayout;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    check(vkCreatePipelineLayout(device_, &layoutInfo, nullptr, &layout), "vkCreatePipelineLayout");

    VkPipeline pipeline = modules.size() == 1
                              ? compute(modules[0], layout)
                              : graphics(modules[0], modules[1], interfaces[0], interfaces[1], layout);
    print(pipeline, program);

    vkDestroyPipeline(device_, pipeline, nullptr);
    vkDestroyPipelineLayout(device_, layout, nullptr);
    vkDestroyDescriptorSetLayout(device_, setLayout, nullptr);
    for (VkShaderModule module : modules) vkDestroyShaderModule(device_, module, nullptr);
  }

 private:
  static VkPipelineShaderStageCreateInfo stage(VkShaderStageFlagBits which, VkShaderModule module) {
    auto info = make<VkPipelineShaderStageCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
    info.stage = which;
    info.module = module;
    info.pName = "main";
    return info;
  }

  VkPipeline compute(VkShaderModule module, VkPipelineLayout layout) {
    auto info = make<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
    info.flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    info.stage = stage(VK_SHADER_STAGE_COMPUTE_BIT, module);
    info.layout = layout;
    VkPipeline pipeline = VK_NULL_HANDLE;
    check(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline),
          "vkCreateComputePipelines");
    return pipeline;
  }

  VkPipeline graphics(VkShaderModule vertex, VkShaderModule fragment, const Interface& vertexInterface,
                      const Interface& fragmentInterface, VkPipelineLayout layout) {
    const VkPipelineShaderStageCreateInfo stages[] = {stage(VK_SHADER_STAGE_VERTEX_BIT, vertex),
                                                      stage(VK_SHADER_STAGE_FRAGMENT_BIT, fragment)};
    // One vec4 attribute per input location, all from one interleaved binding.
    std::vector<VkVertexInputAttributeDescription> attributes;
    for (std::uint32_t location : vertexInterface.inputLocations)
      attributes.push_back({location, 0, VK_FORMAT_R32G32B32A32_SFLOAT, location * 16});
    const VkVertexInputBindingDescription vertexBinding{
        0, static_cast<std::uint32_t>(16 * (attributes.size() + 1)), VK_VERTEX_INPUT_RATE_VERTEX};
    auto vertexInput =
        make<VkPipelineVertexInputStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO);
    if (!attributes.empty()) {
      vertexInput.vertexBindingDescriptionCount = 1;
      vertexInput.pVertexBindingDescriptions = &vertexBinding;
      vertexInput.vertexAttributeDescriptionCount = static_cast<std::uint32_t>(attributes.size());
      vertexInput.pVertexAttributeDescriptions = attributes.data();
    }
    auto assembly = make<VkPipelineInputAssemblyStateCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO);
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    const VkViewport viewport{0, 0, 1920, 1080, 0, 1};
    const VkRect2D scissor{{0, 0}, {1920, 1080}};
    auto viewportState =
        make<VkPipelineViewportStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO);
    viewportState.viewportCount = 1;
    viewportState.pViewports = &viewport;
    viewportState.scissorCount = 1;
    viewportState.pScissors = &scissor;
    auto raster = make<VkPipelineRasterizationStateCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO);
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = VK_CULL_MODE_NONE;
    raster.lineWidth = 1.0f;
    auto multisample =
        make<VkPipelineMultisampleStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO);
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    auto depth = make<VkPipelineDepthStencilStateCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO);
    depth.depthTestEnable = VK_TRUE;
    depth.depthWriteEnable = VK_TRUE;
    depth.depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
    const std::size_t colours =
        fragmentInterface.outputLocations.empty() ? 0 : *fragmentInterface.outputLocations.rbegin() + 1;
    std::vector<VkPipelineColorBlendAttachmentState> blends(colours);
    for (VkPipelineColorBlendAttachmentState& blend : blends) blend.colorWriteMask = 0xf;
    auto blend =
        make<VkPipelineColorBlendStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO);
    blend.attachmentCount = static_cast<std::uint32_t>(colours);
    blend.pAttachments = blends.data();
    const std::vector<VkFormat> formats(colours, VK_FORMAT_R8G8B8A8_UNORM);
    auto rendering = make<VkPipelineRenderingCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO);
    rendering.colorAttachmentCount = static_cast<std::uint32_t>(colours);
    rendering.pColorAttachmentFormats = formats.data();
    rendering.depthAttachmentFormat = VK_FORMAT_D32_SFLOAT;

    auto info = make<VkGraphicsPipelineCreateInfo>(VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO);
    info.pNext = &rendering;
    info.flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    info.stageCount = 2;
    info.pStages = stages;
    info.pVertexInputState = &vertexInput;
    info.pInputAssemblyState = &assembly;
    info.pViewportState = &viewportState;
    info.pRasterizationState = &raster;
    info.pMultisampleState = &multisample;
    info.pDepthStencilState = &depth;
    info.pColorBlendState = &blend;
    info.layout = layout;
    VkPipeline pipeline = VK_NULL_HANDLE;
    check(vkCreateGraphicsPipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline),
          "vkCreateGraphicsPipelines");
    return pipeline;
  }

  void print(VkPipeline pipeline, const Program& program) {
    auto pipelineInfo = make<VkPipelineInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR);
    pipelineInfo.pipeline = pipeline;
    std::uint32_t count = 0;
    check(getProperties_(device_, &pipelineInfo, &count, nullptr), "vkGetPipelineExecutablePropertiesKHR");
    std::vector<VkPipelineExecutablePropertiesKHR> executables(
        count, make<VkPipelineExecutablePropertiesKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR));
    check(getProperties_(device_, &pipelineInfo, &count, executables.data()),
          "vkGetPipelineExecutablePropertiesKHR");
    for (std::uint32_t e = 0; e < count; ++e) {
      // Executables follow the stages; a graphics pipeline's first is the vertex shader.
      const std::string& file = program.files[std::min<std::size_t>(e, program.files.size() - 1)];
      std::printf("%s\t%s\t%u", file.c_str(), executables[e].name, executables[e].subgroupSize);
      auto executableInfo = make<VkPipelineExecutableInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR);
      executableInfo.pipeline = pipeline;
      executableInfo.executableIndex = e;
      std::uint32_t statCount = 0;
      check(getStatistics_(device_, &executableInfo, &statCount, nullptr),
            "vkGetPipelineExecutableStatisticsKHR");
      std::vector<VkPipelineExecutableStatisticKHR> stats(
          statCount,
          make<VkPipelineExecutableStatisticKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR));
      check(getStatistics_(device_, &executableInfo, &statCount, stats.data()),
            "vkGetPipelineExecutableStatisticsKHR");
      for (const VkPipelineExecutableStatisticKHR& stat : stats) {
        switch (stat.format) {
          case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
            std::printf("\t%s=%u", stat.name, stat.value.b32);
            break;
          case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
            std::printf("\t%s=%lld", stat.name, static_cast<long long>(stat.value.i64));
            break;
          case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
            std::printf("\t%s=%llu", stat.name, static_cast<unsigned long long>(stat.value.u64));
            break;
          default:
            std::printf("\t%s=%g", stat.name, stat.value.f64);
        }
      }
      std::printf("\n");
    }
  }

  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  std::string name_;
  PFN_vkGetPipelineExecutablePropertiesKHR getProperties_ = nullptr;
  PFN_vkGetPipelineExecutableStatisticsKHR getStatistics_ = nullptr;
};

}  // namespace

int main(int argc, char** argv) {
  std::vector<Program> programs;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--compute" && i + 1 < argc) {
      programs.push_back({{argv[i + 1]}});
      i += 1;
    } else if (arg == "--graphics" && i + 2 < argc) {
      programs.push_back({{argv[i + 1], argv[i + 2]}});
      i += 2;
    } else {
      std::fprintf(stderr, "usage: murmur_radv_stats (--compute a.spv | --graphics v.spv f.spv)...\n");
      return 2;
    }
  }
  try {
    Device device;
    std::printf("# device\t%s\n", device.name().c_str());
    for (const Program& program : programs) device.report(program);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "murmur_radv_stats: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "murmur_radv_stats: %s\n", e.what());
    return 1;
  }
  return 0;
}

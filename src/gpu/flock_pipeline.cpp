#include "gpu/flock_pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "gpu/error.hpp"
#include "gpu/flock_layout.hpp"
#include "sim/rules.hpp"

namespace murmur::gpu {
namespace layout {
namespace {

// Every storage binding of the flock shaders: the define the shaders name it by, the name of its
// buffer (this file's layout comment, the byte model's lines) and the size of one element.
struct StorageBindingInfo {
  StorageBinding binding;
  std::string_view define;
  std::string_view buffer;
  std::uint32_t elementBytes;
};

constexpr StorageBindingInfo kStorageBindings[] = {
    {kPositions, "BINDING_POSITIONS", "positions", 16},
    {kVelocities, "BINDING_VELOCITIES", "velocities", 16},
    {kCellOf, "BINDING_CELL_OF", "cellOf", 4},
    {kRankInCell, "BINDING_RANK_IN_CELL", "rankInCell", 4},
    {kCellCounts, "BINDING_CELL_COUNTS", "cellCounts", 4},
    {kCellStarts, "BINDING_CELL_STARTS", "cellStarts", 4},
    {kUnsortedIds, "BINDING_UNSORTED_IDS", "unsortedIds", 4},
    {kSortedIds, "BINDING_SORTED_IDS", "sortedIds", 4},
    {kSortedPositions, "BINDING_SORTED_POSITIONS", "sortedPositions", 16},
    {kSortedHeadings, "BINDING_SORTED_HEADINGS", "sortedHeadings", 16},
    {kInputs, "BINDING_INPUTS", "inputs", 16},
    {kPartials, "BINDING_PARTIALS", "partials", sizeof(GroupPartial)},
    {kSummaries, "BINDING_SUMMARIES", "summaries", sizeof(GroupSummary)},
    {kScanIn, "BINDING_SCAN_IN", "scanIn", 4},
    {kScanOut, "BINDING_SCAN_OUT", "scanOut", 4},
    {kScanStatus, "BINDING_SCAN_STATUS", "scanStatus", 4},
    {kWalls, "BINDING_WALLS", "walls", 4},
    {kNearestProbes, "BINDING_NEAREST_PROBES", "nearestProbes", sizeof(NearestProbe)},
    {kNearestIds, "BINDING_NEAREST_IDS", "nearestIds", 4},
    {kNearestSamples, "BINDING_NEAREST_SAMPLES", "nearestSamples", 16},
    {kHeadings, "BINDING_HEADINGS", "headings", 16},
    {kDrawnVelocities, "BINDING_DRAWN_VELOCITIES", "drawnVelocities", 16},
    {kBoidIds, "BINDING_BOID_IDS", "boidIds", 4},
    {kSortedVelocities, "BINDING_SORTED_VELOCITIES", "sortedVelocities", 16},
    {kSlotOf, "BINDING_SLOT_OF", "slotOf", 4},
    {kSampleIds, "BINDING_SAMPLE_IDS", "sampleIds", 4},
    {kSamplePositions, "BINDING_SAMPLE_POSITIONS", "samplePositions", 16},
    {kNearestPartials, "BINDING_NEAREST_PARTIALS", "nearestPartials", 4},
};
static_assert(std::size(kStorageBindings) == kStorageBindingCount, "one line per storage binding");

// The line of kStorageBindings for a binding point.
const StorageBindingInfo& storageBinding(GLuint binding) {
  const auto* found = std::find_if(std::begin(kStorageBindings), std::end(kStorageBindings),
                                   [binding](const StorageBindingInfo& b) { return b.binding == binding; });
  if (found == std::end(kStorageBindings))
    throw std::logic_error(fmt::format("no storage binding {}", binding));
  return *found;
}

}  // namespace

Defines bindingDefines() {
  Defines defines;
  for (const StorageBindingInfo& b : kStorageBindings)
    defines.emplace_back(b.define, std::to_string(b.binding));
  defines.emplace_back("STEP_PARAMS_BINDING", std::to_string(kStepParams));
  defines.emplace_back("MAX_TOPOLOGICAL_NEIGHBOURS", std::to_string(sim::kMaxTopologicalNeighbours));
  defines.emplace_back("PASS_PARAMS_BINDING", std::to_string(kPassParams));
  return defines;
}

}  // namespace layout

namespace {

constexpr std::uint32_t kReduceItems = 4;       // boids per thread in flock/Reduce
constexpr std::uint32_t kClearItems = 4;        // quads of counts a thread zeroes (grid/ClearCountsBody)
constexpr std::uint32_t kMaxGroups = 1u << 24;  // groups travel as floats in positions.w
// The cells + 1 count words of a grid rounded up to whole quads, which grid/ClearCountsBody.glsl
// writes 16 bytes at a time.
constexpr std::uint64_t countQuads(std::uint32_t cells) {
  return (std::uint64_t(cells) + 4) / 4;
}
// Threads per work group of the nearest-boids query (both passes); a power of two (their merge
// trees halve it).
constexpr std::uint32_t kNearestWorkGroupSize = 64;
// A probe's box is cut into slices of its rows of cells, one work group each, so that each has
// about kNearestSlotsPerSlice slots to scan if the flock filled the grid evenly, at most
// kMaxNearestSlices and one row each: the murmuration's falcon, whose 400-unit view covers much
// of the grid, is then some tens of work groups at 1M boids rather than one slow one, while a few
// small probes stay one work group each (every work group ends in a merge tree, which a CPU
// renderer pays dearly for; docs/gpu.md, Nearest boids).
constexpr double kNearestSlotsPerSlice = 16384.0;
constexpr int kMaxNearestSlices = 256;

// The largest per-boid element (positions, velocities, sorted copies: a vec4).
constexpr std::uint64_t kLargestBoidElement = 16;

bool isPowerOfTwo(std::uint32_t x) {
  return x != 0 && (x & (x - 1)) == 0;
}

Defines withGroupSize(Arithmetic arithmetic, std::uint32_t groupSize, std::uint32_t items = 1) {
  Defines defines = layout::bindingDefines();
  defines.emplace_back("WORKGROUP_SIZE", std::to_string(groupSize));
  defines.emplace_back("ITEMS", std::to_string(items));
  defines.emplace_back("EXACT", arithmetic == Arithmetic::Exact ? "precise" : "");
  return defines;
}

void checkSizes(const WorkGroupSizes& sizes, const ContextInfo& info) {
  for (std::uint32_t size : {sizes.grid, sizes.forces, sizes.scan, sizes.reduce})
    if (size == 0 || size > static_cast<std::uint32_t>(info.maxComputeWorkGroupInvocations) ||
        size > static_cast<std::uint32_t>(info.maxComputeWorkGroupSize[0]))
      throw std::invalid_argument(
          fmt::format("work group size {} is outside 1..{}", size,
                      std::min(info.maxComputeWorkGroupInvocations, info.maxComputeWorkGroupSize[0])));
  if (!isPowerOfTwo(sizes.scan) || !isPowerOfTwo(sizes.reduce))
    throw std::invalid_argument("the scan and reduce work group sizes must be powers of two");
}

// Checks what the pipeline needs of the device and of the sizes before anything compiles.
const Context& validated(const Context& context, const WorkGroupSizes& sizes) {
  const ContextInfo& info = context.info();
  if (info.maxShaderStorageBufferBindings < static_cast<int>(layout::kStorageBindingCount))
    throw ContextError(fmt::format("the flock pipeline needs {} shader storage bindings; {} offers {}",
                                   static_cast<int>(layout::kStorageBindingCount), info.renderer,
                                   info.maxShaderStorageBufferBindings));
  checkSizes(sizes, info);
  return context;
}

}  // namespace

FlockPipeline::FlockPipeline(const Context& context, const ShaderLibrary& shaders, Arithmetic arithmetic,
                             WorkGroupSizes sizes)
    : info_(validated(context, sizes).info()),
      sizes_(sizes),
      maxGroupsX_(info_.maxComputeWorkGroupCount[0]),
      shaders_(shaders),
      arithmetic_(arithmetic),
      prefixSum_(context, shaders, sizes.scan, std::max(1u, PrefixSum::kBlockValues / sizes.scan)),
      timer_(info_.timestampBits),
      maxCells_(static_cast<std::uint32_t>(
          std::min<std::int64_t>(std::int64_t{1} << 24, info_.maxShaderStorageBlockSize / 4 - 4))) {
  hashProgram_ =
      shaders.compute("grid/CellIndex.comp.glsl", withGroupSize(arithmetic, sizes_.grid, kClearItems));
  countProgram_ = shaders.compute("grid/Count.comp.glsl", withGroupSize(arithmetic, sizes_.grid));
  clearCountsProgram_ =
      shaders.compute("grid/ClearCounts.comp.glsl", withGroupSize(arithmetic, sizes_.grid, kClearItems));
  scatterIdsProgram_ = shaders.compute("grid/ScatterIds.comp.glsl", withGroupSize(arithmetic, sizes_.grid));
  reorderProgram_ = shaders.compute("grid/Reorder.comp.glsl", withGroupSize(arithmetic, sizes_.grid));
  turningReorderProgram_ =
      shaders.compute("grid/ReorderTurning.comp.glsl", withGroupSize(arithmetic, sizes_.grid));
  reduceProgram_ =
      shaders.compute("flock/Reduce.comp.glsl", withGroupSize(arithmetic, sizes_.reduce, kReduceItems));
  reduceGroupsProgram_ =
      shaders.compute("flock/ReduceGroups.comp.glsl", withGroupSize(arithmetic, sizes_.reduce));
  Defines nearestDefines = withGroupSize(arithmetic, kNearestWorkGroupSize);
  nearestDefines.emplace_back("MAX_K", std::to_string(sim::kMaxNearestBoids));
  nearestProgram_ = shaders.compute("query/NearestBoids.comp.glsl", nearestDefines);
  nearestMergeProgram_ = shaders.compute("query/NearestMerge.comp.glsl", nearestDefines);
  slotOfProgram_ = shaders.compute("grid/SlotOf.comp.glsl", withGroupSize(arithmetic, sizes_.grid));
  positionsByIdProgram_ =
      shaders.compute("query/PositionsById.comp.glsl", withGroupSize(arithmetic, sizes_.grid));
  // The passes without optional terms now, so that a shader that does not compile fails here (the
  // terms' code is in every variant; a variant only leaves it out after compiling it).
  buildForcePrograms(0);
  stepParams_ = Buffer("step params", sizeof(layout::StepParams));
  allocateBoids(0);
}

const Program& FlockPipeline::forceProgram(ForcePass pass, std::uint32_t features) {
  // The lab's units have their own terms (common/LabModel.glsl): one program for every set.
  if (pass == ForcePass::Lab) features = 0;
  const auto key = std::pair(pass, features);
  if (const auto found = forcePrograms_.find(key); found != forcePrograms_.end()) return found->second;
  static constexpr std::array<std::string_view, kForcePasses.size()> kFiles = {
      "flock/Step.comp.glsl",
      "flock/StepTopological.comp.glsl",
      "flock/StepTurning.comp.glsl",
      "flock/StepTopologicalTurning.comp.glsl",
      "flock/StepLab.comp.glsl",
      "flock/StepStarling.comp.glsl",
      "flock/StepTopologicalStarling.comp.glsl"};
  Defines defines = withGroupSize(arithmetic_, sizes_.forces);
  for (const auto& [name, bit] :
       {std::pair{"FEATURE_WALLS", kWallsTerm}, std::pair{"FEATURE_OBSTACLES", kObstaclesTerm},
        std::pair{"FEATURE_AGENTS", kAgentsTerms}, std::pair{"FEATURE_ROOST", kRoostTerm}})
    defines.emplace_back(name, (features & bit) != 0 ? "1" : "0");
  return forcePrograms_.emplace(key, shaders_.compute(kFiles[static_cast<std::size_t>(pass)], defines))
      .first->second;
}

void FlockPipeline::buildForcePrograms(std::uint32_t features) {
  for (const ForcePass pass : kForcePasses) forceProgram(pass, features);
}

std::uint32_t FlockPipeline::stepFeatures(const sim::ModelParams& params, const sim::PackedInputs& packed) {
  // Each test matches the one the term's GLSL makes of the step's constants (common/Rules.glsl).
  std::uint32_t features = 0;
  if (packed.walls != nullptr && !packed.walls->blocked.empty()) features |= kWallsTerm;
  if (!packed.obstacles.empty()) features |= kObstaclesTerm;
  const bool goal =
      std::any_of(packed.goals.begin(), packed.goals.end(), [](const glm::vec4& g) { return g.w != 0.0f; });
  bool steered = false;
  for (std::size_t k = 0; k < packed.steering.size(); k += 3)
    steered = steered || packed.steering[k].w != 0.0f;
  if (goal || !packed.predators.empty() || steered) features |= kAgentsTerms;
  if (params.roostPulls()) features |= kRoostTerm;
  return features;
}

std::uint64_t FlockPipeline::maxBoids(const ContextInfo& info) {
  return static_cast<std::uint64_t>(info.maxShaderStorageBlockSize) / kLargestBoidElement;
}

void FlockPipeline::requireCapacity(const ContextInfo& info, std::uint64_t boids) {
  const std::uint64_t limit = maxBoids(info);
  if (boids > limit)
    throw CapacityError(fmt::format("{} boids do not fit on {}: a storage buffer holds at most {} bytes "
                                    "(GL_MAX_SHADER_STORAGE_BLOCK_SIZE), that is {} boids",
                                    boids, info.renderer, info.maxShaderStorageBlockSize, limit),
                        boids, limit);
}

void FlockPipeline::allocateBoids(std::size_t count) {
  requireCapacity(info_, count);
  takeGlError();  // older errors are not ours
  const std::size_t vec4s = count * sizeof(glm::vec4);
  const std::size_t uints = count * sizeof(std::uint32_t);
  positions_ = Buffer("boid positions", vec4s);
  velocities_ = Buffer("boid velocities", vec4s);
  // ids_ and sortedIds_ trade places every step: their labels name the pair, not the role.
  ids_ = Buffer("boid ids by slot, A", uints);  // uploadable: upload() fills it
  cellOf_ = Buffer("boid cells", uints, 0);
  rankInCell_ = Buffer("boid rank in cell", uints, 0);
  unsortedIds_ = Buffer("unsorted ids", uints, 0);
  sortedIds_ = Buffer("boid ids by slot, B", uints, 0);
  sortedPositions_ = Buffer("sorted positions", vec4s, 0);
  sortedVelocities_ = Buffer("sorted velocities", vec4s, 0);
  sortedHeadings_ = Buffer("sorted headings", vec4s, 0);
  slotOf_ = Buffer("boid slots by id", uints, 0);
  reduceBlocks_ =
      static_cast<std::uint32_t>((count + sizes_.reduce * kReduceItems - 1) / (sizes_.reduce * kReduceItems));
  partials_ = Buffer("group partial sums",
                     std::max<std::size_t>(reduceBlocks_, 1) * groups_ * sizeof(layout::GroupPartial), 0);
  summaries_ = Buffer("group summaries", groups_ * sizeof(layout::GroupSummary), 0);
  if (takeGlError() == GL_OUT_OF_MEMORY) {
    const std::uint64_t mib = (count * layout::kBytesPerBoid + (1u << 20) - 1) >> 20;
    for (Buffer* b :
         {&positions_, &velocities_, &ids_, &cellOf_, &rankInCell_, &unsortedIds_, &sortedIds_,
          &sortedPositions_, &sortedVelocities_, &sortedHeadings_, &slotOf_, &partials_, &summaries_})
      *b = Buffer();
    count_ = 0;
    throw CapacityError(fmt::format("{} boids do not fit on {}: out of GPU memory allocating {} MiB", count,
                                    info_.renderer, mib),
                        count, 0);
  }
  count_ = count;
  flockStart_ = ++state_;
  identityIds_ = Buffer();
  headings_ = Buffer();
  drawnVelocities_ = Buffer();
}

void FlockPipeline::allocateHeadings() {
  if (headings_) return;
  takeGlError();
  // Uploadable: upload() may fill them.
  headings_ = Buffer("boid headings", count_ * sizeof(glm::vec4));
  drawnVelocities_ = Buffer("boid drawn velocities", count_ * sizeof(glm::vec4));
  if (takeGlError() == GL_OUT_OF_MEMORY) {
    headings_ = Buffer();
    drawnVelocities_ = Buffer();
    throw CapacityError(
        fmt::format("{} boids' headings (boids.turn_rate, the lab's units, starlings) do not fit on {}: "
                    "out of GPU memory allocating {} MiB more",
                    count_, info_.renderer, (2 * count_ * sizeof(glm::vec4) + (1u << 20) - 1) >> 20),
        count_, 0);
  }
}

void FlockPipeline::upload(const sim::FlockState& state) {
  const std::size_t n = state.size();
  requireCapacity(info_, n);
  finiteTag_.reset();  // a pending check is of the old flock
  if (state.velocity.size() != n || state.group.size() != n)
    throw std::invalid_argument(
        fmt::format("flock state sizes differ: {} positions, {} velocities, {} groups", n,
                    state.velocity.size(), state.group.size()));
  if (state.groups < 1 || state.groups > kMaxGroups)
    throw std::invalid_argument(
        fmt::format("{} groups: the GPU pipeline takes 1 to {}", state.groups, kMaxGroups));
  std::vector<glm::vec4> positions(n), velocities(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (state.group[i] >= state.groups)
      throw std::invalid_argument(
          fmt::format("boid {} is in group {} of {}", i, state.group[i], state.groups));
    positions[i] = glm::vec4(state.position[i], static_cast<float>(state.group[i]));
    velocities[i] = glm::vec4(state.velocity[i], i < state.leader.size() ? float(state.leader[i]) : 0.0f);
  }
  groups_ = state.groups;
  allocateBoids(n);
  positions_.upload(std::span<const glm::vec4>(positions));
  velocities_.upload(std::span<const glm::vec4>(velocities));
  ids_.upload(std::span<const std::uint32_t>(identityIds()));
  // Stored headings, or a starling state's banks alone (the headings then the velocities').
  const bool attitudes = state.attitude.size() == n;  // a lab unit's spin or a starling's bank rides in w
  if (n > 0 && (state.heading.size() == n || attitudes)) {
    std::vector<glm::vec4> headings(n);
    for (std::size_t i = 0; i < n; ++i) {
      const glm::vec3 h = state.heading.empty() ? sim::heading(state.velocity[i]) : state.heading[i];
      headings[i] = glm::vec4(h, attitudes ? state.attitude[i] : 0.0f);
      velocities[i] = glm::vec4(h * glm::length(state.velocity[i]), velocities[i].w);
    }
    allocateHeadings();
    headings_.upload(std::span<const glm::vec4>(headings));
    drawnVelocities_.upload(std::span<const glm::vec4>(velocities));
    headingsOf_ = state_;
  }
}

sim::FlockState FlockPipeline::download() const {
  sim::FlockState state;
  state.groups = groups_;
  state.resize(count_);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  // The state is in slot order: each slot's values go to the id the slot holds.
  const std::vector<std::uint32_t> ids = ids_.download<std::uint32_t>(count_);
  const std::vector<glm::vec4> positions = positions_.download<glm::vec4>(count_);
  const std::vector<glm::vec4> velocities = velocities_.download<glm::vec4>(count_);
  for (std::size_t s = 0; s < count_; ++s) {
    const std::uint32_t i = ids[s];
    state.position[i] = glm::vec3(positions[s]);
    state.group[i] = static_cast<std::uint32_t>(positions[s].w);
    state.velocity[i] = glm::vec3(velocities[s]);
    state.leader[i] = velocities[s].w != 0.0f ? 1 : 0;
  }
  if (headingsOf_ == state_) {
    const std::vector<glm::vec4> headings = headings_.download<glm::vec4>(count_);
    state.heading.resize(count_);
    for (std::size_t s = 0; s < count_; ++s) state.heading[ids[s]] = glm::vec3(headings[s]);
    if (sim::hasAttitude(units_)) {
      state.attitude.resize(count_);
      for (std::size_t s = 0; s < count_; ++s) state.attitude[ids[s]] = headings[s].w;
    }
  }
  return state;
}

std::vector<std::uint32_t> FlockPipeline::identityIds() const {
  std::vector<std::uint32_t> ids(count_);
  for (std::size_t i = 0; i < count_; ++i) ids[i] = static_cast<std::uint32_t>(i);
  return ids;
}

void FlockPipeline::prepareGrid(const sim::ModelParams& params) {
  grid_ = sim::makeGridSpec(params, maxCells_);
  const std::uint32_t cells = grid_.cellCount();
  if (cells == cells_ && cellCounts_) return;
  takeGlError();
  cellCounts_ = Buffer("grid cell counts", countQuads(cells) * 4 * sizeof(std::uint32_t), 0);
  cellStarts_ = Buffer("grid cell starts", (std::size_t(cells) + 1) * sizeof(std::uint32_t), 0);
  if (takeGlError() == GL_OUT_OF_MEMORY) {
    cellCounts_ = Buffer();
    cellStarts_ = Buffer();
    throw CapacityError(fmt::format("out of GPU memory allocating a grid of {} cells", cells), count_, 0);
  }
  cells_ = cells;
}

std::uint32_t FlockPipeline::writeStepParams(const sim::ModelParams& params, const sim::StepInputs& inputs) {
  const sim::PackedInputs packed = sim::packInputs(params, inputs, groups_);
  const sim::StepContext ctx = sim::makeStepContext(params, packed);

  // One vec4 array: obstacles, then a goal per group, then predators, then each group's steering.
  std::vector<glm::vec4> values(packed.obstacles.begin(), packed.obstacles.end());
  values.insert(values.end(), packed.goals.begin(), packed.goals.end());
  for (const glm::vec3& p : packed.predators) values.emplace_back(p, 0.0f);
  values.insert(values.end(), packed.steering.begin(), packed.steering.end());
  inputs_.write(std::span<const glm::vec4>(values));

  uploadWalls(ctx.walls);
  const layout::StepParams p =
      layout::makeStepParams(params, ctx, grid_, packed, static_cast<std::uint32_t>(count_), groups_);
  stepParams_.upload(std::span<const layout::StepParams>(&p, 1));
  return stepFeatures(params, packed);
}

void FlockPipeline::uploadWalls(const sim::WallGrid* walls) {
  // Walls are static in a scene: uploaded when the grid changes, not every step.
  if (walls == uploadedWalls_ && walls_) return;
  uploadedWalls_ = walls;
  std::vector<std::uint32_t> cells(walls != nullptr ? walls->blocked.size() : 1, 0u);
  if (walls != nullptr) std::copy(walls->blocked.begin(), walls->blocked.end(), cells.begin());
  walls_ = Buffer("wall cells", cells.size() * sizeof(std::uint32_t));
  walls_.upload(std::span<const std::uint32_t>(cells));
}

void FlockPipeline::bindStorage() const {
  positions_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kPositions);
  velocities_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kVelocities);
  ids_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kBoidIds);
  cellOf_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kCellOf);
  rankInCell_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kRankInCell);
  cellCounts_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kCellCounts);
  cellStarts_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kCellStarts);
  unsortedIds_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kUnsortedIds);
  sortedIds_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kSortedIds);
  sortedPositions_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kSortedPositions);
  sortedVelocities_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kSortedVelocities);
  sortedHeadings_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kSortedHeadings);
  slotOf_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kSlotOf);
  inputs_.buffer().bindBase(GL_SHADER_STORAGE_BUFFER, layout::kInputs);
  walls_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kWalls);
  partials_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kPartials);
  summaries_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kSummaries);
  stepParams_.bindBase(GL_UNIFORM_BUFFER, layout::kStepParams);
  if (headings_) {
    headings_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kHeadings);
    drawnVelocities_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kDrawnVelocities);
  }
}

namespace {

// llvmpipe takes a GL timestamp when it rasterises the bound framebuffer's pending work, not when
// the command is reached, unless that framebuffer has no pixels (then at once): under a window's
// framebuffer or a framebuffer object, each stage's time shows up under the stage before it (seen
// by the render benchmarks, the headless demo and the window's panel). The compute passes need no
// framebuffer: they run with an empty one bound (no attachments: zero pixels, on any context), and
// the caller's bindings come back afterwards.
class EmptyFramebufferScope {
 public:
  explicit EmptyFramebufferScope(const Framebuffer& empty) {
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_);
    empty.bind();
  }
  ~EmptyFramebufferScope() {
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(draw_));
    glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(read_));
  }
  EmptyFramebufferScope(const EmptyFramebufferScope&) = delete;
  EmptyFramebufferScope& operator=(const EmptyFramebufferScope&) = delete;

 private:
  GLint draw_ = 0;
  GLint read_ = 0;
};

}  // namespace

void FlockPipeline::step(const sim::ModelParams& params, const sim::StepInputs& inputs) {
  prepareGrid(params);
  const std::uint32_t features = writeStepParams(params, inputs);
  // The stored headings exist only while the turn rate is on or the units are the lab's or
  // starlings (as sim::CpuSimulator keeps them): the first step with them sorts norm(v) (and a zero
  // spin or bank) as the plain reorder does, and its force pass stores them.
  const bool stored = params.storesHeading();
  const bool headingsKnown = stored && headingsOf_ == state_;
  units_ = params.unitModel;
  if (count_ == 0) return;
  if (stored) allocateHeadings();
  const EmptyFramebufferScope emptyFramebuffer(emptyFramebuffer_);
  bindStorage();
  const std::uint64_t n = count_;
  // Threads that zero the cells + 1 counts, kClearItems quads of words each (not Buffer::fill:
  // docs/gpu.md, "Clearing the counts").
  const std::uint64_t clearThreads = (countQuads(cells_) + kClearItems - 1) / kClearItems;
  // The previous step's force pass hashed and counted the positions it wrote, on its grid: with
  // the same grid now, the hash and count passes have nothing to add.
  if (countsOf_ != state_ || !(countedGrid_ == grid_)) {
    {
      StageScope stage(timer_, stageName(FlockStage::Hash));
      // Also zeroes the counts for the count pass (grid/ClearCountsBody.glsl).
      dispatchCompute(hashProgram_, std::max(n, clearThreads), sizes_.grid, maxGroupsX_);
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    {
      StageScope stage(timer_, stageName(FlockStage::Count));
      dispatchCompute(countProgram_, n, sizes_.grid, maxGroupsX_);
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
  }
  {
    StageScope stage(timer_, stageName(FlockStage::Scan));
    // cells + 1 values: the last count is 0, so cellStarts[cells] = N closes the last cell.
    prefixSum_.exclusiveScan(cellCounts_, cellStarts_, cells_ + 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  }
  {
    StageScope stage(timer_, stageName(FlockStage::Scatter));
    dispatchCompute(scatterIdsProgram_, n, sizes_.grid, maxGroupsX_);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    dispatchCompute(headingsKnown ? turningReorderProgram_ : reorderProgram_, n, sizes_.grid, maxGroupsX_);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  }
  gridFlock_ = flockStart_;
  {
    StageScope stage(timer_, stageName(FlockStage::Forces));
    // The scan has read this step's counts: the force pass counts the next step's from zero.
    dispatchCompute(clearCountsProgram_, clearThreads, sizes_.grid, maxGroupsX_);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    const bool topological = params.topologicalNeighbours > 0;
    const bool turning = params.turnRate > 0.0f;
    const ForcePass pass = params.unitModel == sim::UnitModel::Lab ? ForcePass::Lab
                           : params.unitModel == sim::UnitModel::Starling
                               ? (topological ? ForcePass::TopologicalStarling : ForcePass::Starling)
                           : turning ? (topological ? ForcePass::TopologicalTurning : ForcePass::Turning)
                                     : (topological ? ForcePass::Topological : ForcePass::Metric);
    dispatchCompute(forceProgram(pass, features), n, sizes_.forces, maxGroupsX_);
    // The next reader may be a shader, a vertex fetch (renderer) or a read-back.
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT |
                    GL_BUFFER_UPDATE_BARRIER_BIT);
  }
  // The state is in this step's sorted order now: its ids are the sort's.
  std::swap(ids_, sortedIds_);
  // A new state: the slots and the group reduction wait for a reader (groupSummaries() and the
  // requests).
  ++state_;
  headingsOf_ = stored ? state_ : 0;
  countsOf_ = state_;
  countedGrid_ = grid_;
  timer_.poll();
}

void FlockPipeline::stateReplaced() {
  finiteTag_.reset();
  // A new state (its headings, which the copy leaves, are kept).
  const bool headings = headingsOf_ == state_;
  ++state_;
  if (headings) headingsOf_ = state_;
  // A GPU copy: a benchmark restores its flock between timed steps.
  if (!identityIds_)
    identityIds_ = Buffer::fromSpan("identity ids", std::span<const std::uint32_t>(identityIds()), 0);
  glCopyNamedBufferSubData(identityIds_.id(), ids_.id(), 0, 0, GLsizeiptr(count_ * sizeof(std::uint32_t)));
}

void FlockPipeline::mapSlotsIfStale() {
  if (slotsOf_ == state_) return;
  slotsOf_ = state_;
  if (count_ == 0) return;
  const EmptyFramebufferScope emptyFramebuffer(emptyFramebuffer_);
  passParams_.set(layout::PassParams(static_cast<std::uint32_t>(count_), 0u, 0u, 0u));
  ids_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kBoidIds);
  slotOf_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kSlotOf);
  dispatchCompute(slotOfProgram_, count_, sizes_.grid, maxGroupsX_);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

const Buffer& FlockPipeline::slotBuffer() {
  mapSlotsIfStale();
  return slotOf_;
}

void FlockPipeline::reduceIfStale() {
  if (summariesOf_ == state_) return;
  summariesOf_ = state_;
  if (count_ == 0) {
    // No boids: every group empty, as the default sim::GroupSummary (all zero).
    summaries_.fill(0u);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    return;
  }
  mapSlotsIfStale();
  const EmptyFramebufferScope emptyFramebuffer(emptyFramebuffer_);
  StageScope stage(timer_, stageName(FlockStage::Reduce));
  positions_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kPositions);
  velocities_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kVelocities);
  slotOf_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kSlotOf);
  partials_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kPartials);
  summaries_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kSummaries);
  passParams_.set(layout::PassParams(static_cast<std::uint32_t>(count_), groups_, reduceBlocks_, 0u));
  dispatchCompute(reduceProgram_, std::uint64_t(reduceBlocks_) * sizes_.reduce, sizes_.reduce, maxGroupsX_);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  dispatchCompute(reduceGroupsProgram_, std::uint64_t(groups_) * sizes_.reduce, sizes_.reduce, maxGroupsX_);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
}

namespace {

std::vector<sim::GroupSummary> unpackSummaries(const std::byte* raw, std::uint32_t groups) {
  std::vector<layout::GroupSummary> packed(groups);
  std::memcpy(packed.data(), raw, packed.size() * sizeof(layout::GroupSummary));
  std::vector<sim::GroupSummary> out(groups);
  for (std::uint32_t g = 0; g < groups; ++g) {
    out[g].count = packed[g].count;
    out[g].centroid = glm::vec3(packed[g].meanPosition);
    out[g].meanVelocity = glm::vec3(packed[g].meanVelocity);
    out[g].leaders = packed[g].leaders;
  }
  return out;
}

// The query's answers as query/NearestBoids writes them: ids (the count per list, then k ids per
// list) and samples (position, velocity per list and rank).
sim::NearestBoids unpackNearest(const std::vector<std::uint32_t>& ids, const std::vector<glm::vec4>& samples,
                                std::size_t probes, std::uint32_t groups, std::uint32_t k) {
  sim::NearestBoids out(probes, groups, k);
  const std::size_t lists = probes * groups;
  for (std::size_t list = 0; list < lists; ++list) {
    out.counts[list] = ids[list];
    for (std::uint32_t r = 0; r < ids[list]; ++r) {
      const std::size_t at = list * k + r;
      out.samples[at] = {ids[lists + at], glm::vec3(samples[2 * at]), glm::vec3(samples[2 * at + 1])};
    }
  }
  return out;
}

template <class T>
std::vector<T> copyOut(const std::byte* raw, std::size_t count) {
  std::vector<T> out(count);
  std::memcpy(out.data(), raw, count * sizeof(T));
  return out;
}

}  // namespace

std::vector<sim::GroupSummary> FlockPipeline::groupSummaries() {
  reduceIfStale();
  std::vector<layout::GroupSummary> raw = summaries_.download<layout::GroupSummary>(groups_);
  return unpackSummaries(reinterpret_cast<const std::byte*>(raw.data()), groups_);
}

bool FlockPipeline::dispatchNearest(std::span<const sim::BoidProbe> probes, std::uint32_t k) {
  if (gridFlock_ != flockStart_ || count_ == 0 || probes.empty()) return false;
  const std::size_t lists = probes.size() * groups_;
  std::vector<layout::NearestProbe> packed;
  packed.reserve(probes.size());
  int sliceStride = 1;
  for (const sim::BoidProbe& probe : probes) {
    const sim::CellBox box = sim::probeCells(grid_, probe);
    const glm::ivec3 extent = glm::max(box.last - box.first + 1, glm::ivec3(0));
    const int rows = extent.x > 0 ? extent.y * extent.z : 0;
    const double boxCells = double(extent.x) * double(rows);
    const double slots = double(count_) * boxCells / double(grid_.cellCount());
    const double mostSlices = double(std::min(std::max(rows, 1), kMaxNearestSlices));
    const int slices =
        static_cast<int>(std::clamp(std::ceil(slots / kNearestSlotsPerSlice), 1.0, mostSlices));
    sliceStride = std::max(sliceStride, slices);
    packed.push_back({glm::vec4(probe.position, probe.radius * probe.radius), glm::ivec4(box.first, slices),
                      glm::ivec4(box.last, 0)});
  }
  nearestProbes_.write(std::span<const layout::NearestProbe>(packed));
  const std::size_t partialLists = lists * static_cast<std::size_t>(sliceStride);
  const Buffer& partialBuffer = nearestPartials_.reserve(partialLists * (1 + 2 * k) * sizeof(std::uint32_t));
  const Buffer& idBuffer = nearestIds_.reserve(lists * (1 + k) * sizeof(std::uint32_t));
  const Buffer& sampleBuffer = nearestSamples_.reserve(lists * k * 2 * sizeof(glm::vec4));

  mapSlotsIfStale();
  const EmptyFramebufferScope emptyFramebuffer(emptyFramebuffer_);
  bindStorage();
  nearestProbes_.buffer().bindBase(GL_SHADER_STORAGE_BUFFER, layout::kNearestProbes);
  idBuffer.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kNearestIds);
  sampleBuffer.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kNearestSamples);
  partialBuffer.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kNearestPartials);
  passParams_.set(layout::PassParams(groups_, static_cast<std::uint32_t>(lists), k,
                                     static_cast<std::uint32_t>(sliceStride)));
  dispatchCompute(nearestProgram_, std::uint64_t(partialLists) * kNearestWorkGroupSize, kNearestWorkGroupSize,
                  maxGroupsX_);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  dispatchCompute(nearestMergeProgram_, std::uint64_t(lists) * kNearestWorkGroupSize, kNearestWorkGroupSize,
                  maxGroupsX_);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  return true;
}

sim::NearestBoids FlockPipeline::nearestBoids(std::span<const sim::BoidProbe> probes, std::uint32_t k) {
  sim::NearestBoids out(probes.size(), groups_, k);
  if (!dispatchNearest(probes, k)) return out;
  const std::size_t lists = probes.size() * groups_;
  const std::vector<std::uint32_t> ids = nearestIds_.buffer().download<std::uint32_t>(lists * (1 + k));
  const std::vector<glm::vec4> samples = nearestSamples_.buffer().download<glm::vec4>(lists * k * 2);
  return unpackNearest(ids, samples, probes.size(), groups_, k);
}

void FlockPipeline::requestPerception(std::span<const sim::BoidProbe> probes, std::uint32_t k) {
  static_cast<void>(sim::NearestBoids(0, groups_, k));  // k is checked before anything is recorded
  const std::size_t lists = probes.size() * groups_;
  const std::size_t summaryBytes = groups_ * sizeof(layout::GroupSummary);
  const std::size_t idBytes = lists * (1 + k) * sizeof(std::uint32_t);
  const std::size_t sampleBytes = lists * k * 2 * sizeof(glm::vec4);
  reduceIfStale();
  const bool queried = dispatchNearest(probes, k);
  perception_.begin(summaryBytes + (queried ? idBytes + sampleBytes : 0));
  perception_.copy(summaries_, 0, 0, summaryBytes);
  if (queried) {
    perception_.copy(nearestIds_.buffer(), 0, summaryBytes, idBytes);
    perception_.copy(nearestSamples_.buffer(), 0, summaryBytes + idBytes, sampleBytes);
  }
  perception_.end();
  perceptionRequest_ = {probes.size(), groups_, k, queried};
}

FlockPipeline::Perception FlockPipeline::perception() {
  const PerceptionRequest& request = perceptionRequest_;
  if (request.k == 0) throw std::logic_error("FlockPipeline::perception() before any requestPerception()");
  const std::byte* raw = perception_.read();
  Perception out{unpackSummaries(raw, request.groups),
                 sim::NearestBoids(request.probes, request.groups, request.k)};
  if (request.queried) {
    const std::size_t lists = request.probes * request.groups;
    const std::size_t summaryBytes = request.groups * sizeof(layout::GroupSummary);
    const std::size_t idCount = lists * (1 + request.k);
    const auto ids = copyOut<std::uint32_t>(raw + summaryBytes, idCount);
    const auto samples =
        copyOut<glm::vec4>(raw + summaryBytes + idCount * sizeof(std::uint32_t), lists * request.k * 2);
    out.boids = unpackNearest(ids, samples, request.probes, request.groups, request.k);
  }
  return out;
}

const std::vector<sim::GroupSummary>& FlockPipeline::recentGroupSummaries() {
  if (display_.pending() && display_.ready())
    recentSummaries_ = unpackSummaries(display_.read(), displayGroups_);
  if (!display_.pending()) displayGroups_ = requestSummaries(display_);
  return recentSummaries_;
}

std::uint32_t FlockPipeline::requestSummaries(Readback& readback) {
  reduceIfStale();
  const std::size_t bytes = groups_ * sizeof(layout::GroupSummary);
  readback.begin(bytes);
  readback.copy(summaries_, 0, 0, bytes);
  readback.end();
  return groups_;
}

std::optional<FlockPipeline::FiniteCheck> FlockPipeline::checkFinite(std::uint64_t tag) {
  std::optional<FiniteCheck> answer;
  if (finite_.pending() && finite_.ready()) {
    const std::vector<sim::GroupSummary> groups = unpackSummaries(finite_.read(), finiteGroups_);
    const auto finite = [](const sim::GroupSummary& g) {
      const glm::vec3 sum = g.centroid + g.meanVelocity;
      return g.count == 0 || (std::isfinite(sum.x) && std::isfinite(sum.y) && std::isfinite(sum.z));
    };
    if (finiteTag_) answer = FiniteCheck{*finiteTag_, std::all_of(groups.begin(), groups.end(), finite)};
    finiteTag_.reset();
  }
  if (!finite_.pending() || !finiteTag_) {
    finiteGroups_ = requestSummaries(finite_);
    finiteTag_ = tag;
  }
  return answer;
}

std::vector<glm::vec3> FlockPipeline::positionSample() {
  if (sampleIdsFor_ != count_) {
    std::vector<std::uint32_t> ids;
    for (const sim::IdRun& run : sim::positionSampleRuns(count_))
      for (std::size_t i = run.first; i < run.first + run.count; ++i)
        ids.push_back(static_cast<std::uint32_t>(i));
    if (!ids.empty()) sampleIds_.write(std::span<const std::uint32_t>(ids));
    sampleIdsFor_ = count_;
    sampleSize_ = ids.size();
  }
  if (sampleSize_ == 0) return {};
  const std::size_t bytes = sampleSize_ * sizeof(glm::vec4);
  const Buffer& gathered = samplePositions_.reserve(bytes);
  mapSlotsIfStale();
  {
    const EmptyFramebufferScope emptyFramebuffer(emptyFramebuffer_);
    positions_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kPositions);
    slotOf_.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kSlotOf);
    sampleIds_.buffer().bindBase(GL_SHADER_STORAGE_BUFFER, layout::kSampleIds);
    gathered.bindBase(GL_SHADER_STORAGE_BUFFER, layout::kSamplePositions);
    passParams_.set(layout::PassParams(static_cast<std::uint32_t>(sampleSize_), 0u, 0u, 0u));
    dispatchCompute(positionsByIdProgram_, sampleSize_, sizes_.grid, maxGroupsX_);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  }
  sample_.begin(bytes);
  sample_.copy(gathered, 0, 0, bytes);
  sample_.end();
  std::vector<glm::vec4> read(sampleSize_);
  std::memcpy(read.data(), sample_.read(), bytes);
  return std::vector<glm::vec3>(read.begin(), read.end());
}

namespace {

// How each program of a step touches each storage buffer it binds, in a steady step: the state in
// the last sort's slot order, so that a boid's slot moves little from one step to the next and
// every per-boid access but the readers' by id follows the threads' order. Elements that the
// threads of a work group share are counted once (a cell's start, count and id list; the
// neighbours' positions and headings, whose every read the Candidate lines count for a GPU without
// cache). FlockPipeline::trafficModel checks the table against the programs' active blocks.
struct TrafficRule {
  FlockStage stage;
  std::string_view program;
  GLuint binding;
  BufferTraffic::Unit unit;
  std::uint32_t accesses;
  bool scattered = false;
};

constexpr BufferTraffic::Unit kBoid = BufferTraffic::Unit::Boid, kCell = BufferTraffic::Unit::Cell,
                              kCandidate = BufferTraffic::Unit::Candidate, kStep = BufferTraffic::Unit::Step;

constexpr TrafficRule kTrafficRules[] = {
    // Only after an upload, stateReplaced() or a grid change: the force pass does their work.
    {FlockStage::Hash, "grid/CellIndex", layout::kPositions, kBoid, 1},
    {FlockStage::Hash, "grid/CellIndex", layout::kCellOf, kBoid, 1},
    {FlockStage::Hash, "grid/CellIndex", layout::kCellCounts, kCell, 1},  // zeroed
    {FlockStage::Count, "grid/Count", layout::kCellOf, kBoid, 1},
    {FlockStage::Count, "grid/Count", layout::kRankInCell, kBoid, 1},
    {FlockStage::Count, "grid/Count", layout::kCellCounts, kCell, 2},  // each atomic's cell
    // cells + 1 values: the one-pass scan reads the counts and writes the starts; the status words
    // (one a block of 4,096) are a thousandth of that. The look-back's fallback, which reads a
    // block's counts again, only runs for a block not yet at its first sum after many looks.
    {FlockStage::Scan, "grid/Scan", layout::kScanIn, kCell, 1},
    {FlockStage::Scan, "grid/Scan", layout::kScanOut, kCell, 1},
    {FlockStage::Scan, "grid/Scan", layout::kScanStatus, kStep, 1},
    {FlockStage::Scatter, "grid/ScatterIds", layout::kCellOf, kBoid, 1},
    {FlockStage::Scatter, "grid/ScatterIds", layout::kRankInCell, kBoid, 1},
    {FlockStage::Scatter, "grid/ScatterIds", layout::kBoidIds, kBoid, 1},
    {FlockStage::Scatter, "grid/ScatterIds", layout::kCellStarts, kCell, 1},
    {FlockStage::Scatter, "grid/ScatterIds", layout::kUnsortedIds, kBoid, 1},
    {FlockStage::Scatter, "grid/Reorder", layout::kBoidIds, kBoid, 1},
    {FlockStage::Scatter, "grid/Reorder", layout::kCellOf, kBoid, 1},
    {FlockStage::Scatter, "grid/Reorder", layout::kCellStarts, kCell, 1},
    {FlockStage::Scatter, "grid/Reorder", layout::kUnsortedIds, kBoid, 1},  // the own cell's ids, shared
    {FlockStage::Scatter, "grid/Reorder", layout::kPositions, kBoid, 1},
    {FlockStage::Scatter, "grid/Reorder", layout::kVelocities, kBoid, 1},
    {FlockStage::Scatter, "grid/Reorder", layout::kSortedIds, kBoid, 1},
    {FlockStage::Scatter, "grid/Reorder", layout::kSortedPositions, kBoid, 1},
    {FlockStage::Scatter, "grid/Reorder", layout::kSortedVelocities, kBoid, 1},
    {FlockStage::Scatter, "grid/Reorder", layout::kSortedHeadings, kBoid, 1},
    {FlockStage::Forces, "grid/ClearCounts", layout::kCellCounts, kCell, 1},  // zeroed
    {FlockStage::Forces, "flock/Step", layout::kCellStarts, kCell, 1},
    {FlockStage::Forces, "flock/Step", layout::kSortedIds, kStep, 1},  // only for boids closer than 1e-6
    {FlockStage::Forces, "flock/Step", layout::kSortedPositions, kBoid, 1},
    {FlockStage::Forces, "flock/Step", layout::kSortedPositions, kCandidate, 1},
    {FlockStage::Forces, "flock/Step", layout::kSortedHeadings, kCandidate, 1},
    {FlockStage::Forces, "flock/Step", layout::kSortedVelocities, kBoid, 1},
    {FlockStage::Forces, "flock/Step", layout::kPositions, kBoid, 1},
    {FlockStage::Forces, "flock/Step", layout::kVelocities, kBoid, 1},
    {FlockStage::Forces, "flock/Step", layout::kCellOf, kBoid, 1},
    {FlockStage::Forces, "flock/Step", layout::kRankInCell, kBoid, 1},
    {FlockStage::Forces, "flock/Step", layout::kCellCounts, kCell, 2},  // each atomic's cell
    // For a reader: the slot map, then the sums over blocks of ids, each boid read at its slot.
    {FlockStage::Reduce, "grid/SlotOf", layout::kBoidIds, kBoid, 1},
    {FlockStage::Reduce, "grid/SlotOf", layout::kSlotOf, kBoid, 1, true},
    {FlockStage::Reduce, "flock/Reduce", layout::kSlotOf, kBoid, 1},
    {FlockStage::Reduce, "flock/Reduce", layout::kPositions, kBoid, 1, true},
    {FlockStage::Reduce, "flock/Reduce", layout::kVelocities, kBoid, 1, true},
    {FlockStage::Reduce, "flock/Reduce", layout::kPartials, kStep, 1},
    {FlockStage::Reduce, "flock/ReduceGroups", layout::kPartials, kStep, 1},
    {FlockStage::Reduce, "flock/ReduceGroups", layout::kSummaries, kStep, 1},
};

// common/Params.glsl declares the step's inputs and the walls in every program that includes it
// (drivers report declared blocks as active); the passes of the model read neither but for the
// optional terms, which the metric pass the model describes leaves out.
bool declaredByParams(GLuint binding) {
  return binding == layout::kInputs || binding == layout::kWalls;
}

}  // namespace

std::vector<BufferTraffic> FlockPipeline::trafficModel() const {
  const std::pair<std::string_view, const Program*> programs[] = {
      {"grid/CellIndex", &hashProgram_},
      {"grid/Count", &countProgram_},
      {"grid/ClearCounts", &clearCountsProgram_},
      {"grid/Scan", &prefixSum_.scanProgram()},
      {"grid/ScatterIds", &scatterIdsProgram_},
      {"grid/Reorder", &reorderProgram_},
      {"flock/Step", &forcePrograms_.at({ForcePass::Metric, 0u})},
      {"grid/SlotOf", &slotOfProgram_},
      {"flock/Reduce", &reduceProgram_},
      {"flock/ReduceGroups", &reduceGroupsProgram_},
  };
  std::vector<BufferTraffic> model;
  for (const auto& entry : programs) {
    // Named, not a structured binding: Clang 14 cannot capture one in the lambda below.
    const std::string_view name = entry.first;
    const std::vector<GLuint> bound = entry.second->storageBindings();
    for (const TrafficRule& rule : kTrafficRules) {
      if (rule.program != name) continue;
      const layout::StorageBindingInfo& buffer = layout::storageBinding(rule.binding);
      if (std::find(bound.begin(), bound.end(), rule.binding) == bound.end())
        throw std::logic_error(
            fmt::format("the byte model has {} move '{}', which it does not bind", name, buffer.buffer));
      model.push_back(
          {rule.stage, name, buffer.buffer, buffer.elementBytes, rule.unit, rule.accesses, rule.scattered});
    }
    for (const GLuint binding : bound) {
      const bool described = std::any_of(
          std::begin(kTrafficRules), std::end(kTrafficRules),
          [&](const TrafficRule& rule) { return rule.program == name && rule.binding == binding; });
      if (!described && !declaredByParams(binding))
        throw std::logic_error(
            fmt::format("{} binds storage block {} ('{}'), which the byte model does not describe", name,
                        binding, layout::storageBinding(binding).buffer));
    }
  }
  return model;
}

GridSnapshot FlockPipeline::gridSnapshot() const {
  GridSnapshot snapshot;
  if (!cellCounts_) return snapshot;
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  // cellOf and the counts hold the next step's (the force pass hashes and counts what it writes):
  // this step's follow from its cell starts and order.
  snapshot.cellStart = cellStarts_.download<std::uint32_t>(std::size_t(cells_) + 1);
  snapshot.order = ids_.download<std::uint32_t>(count_);  // the step's sort, the state's order since
  snapshot.cellCount.resize(cells_);
  snapshot.cellOf.resize(count_);
  for (std::uint32_t c = 0; c < cells_; ++c) {
    snapshot.cellCount[c] = snapshot.cellStart[c + 1] - snapshot.cellStart[c];
    for (std::uint32_t k = snapshot.cellStart[c]; k < snapshot.cellStart[c + 1] && k < count_; ++k)
      snapshot.cellOf[snapshot.order[k]] = c;
  }
  return snapshot;
}

}  // namespace murmur::gpu

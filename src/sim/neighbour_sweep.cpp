// Compiled once per instruction set Highway targets (foreach_target re-includes this file).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "sim/neighbour_sweep.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "sim/fine_grid.hpp"
#include "sim/neighbour_sweep.hpp"
#include "sim/scene_loader.hpp"
#include "sim/simd_lanes.hpp"

#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace murmur::sim::HWY_NAMESPACE {

// The offsets d = p_j - p of the candidates in slots [m, m + lanes), and (returned) their d.d,
// each lane made as sim::offset and glm::dot make them (the minimum image per lane:
// sim::foldComponent). Out-parameters, not a struct: scalable vectors (SVE, RVV) cannot be members.
template <bool Imaged>
HWY_INLINE FloatVec offsetsFrom(const StepContext& ctx, FloatVec x, FloatVec y, FloatVec z, glm::vec3 p,
                                FloatVec& dx, FloatVec& dy, FloatVec& dz) {
  const FloatTag df;
  const auto fold = [&](FloatVec d, float size) {
    if constexpr (!Imaged) return d;
    const float half = 0.5f * size;
    const FloatVec sizes = hn::Set(df, size);
    const FloatVec folded = hn::IfThenElse(hn::Ge(d, hn::Set(df, half)), hn::Sub(d, sizes), d);
    return hn::IfThenElse(hn::Lt(d, hn::Set(df, -half)), hn::Add(d, sizes), folded);
  };
  dx = fold(hn::Sub(x, hn::Set(df, p.x)), ctx.worldSize.x);
  dy = fold(hn::Sub(y, hn::Set(df, p.y)), ctx.worldSize.y);
  dz = fold(hn::Sub(z, hn::Set(df, p.z)), ctx.worldSize.z);
  return dotLanes(dx, dy, dz, dx, dy, dz);
}

template <bool Imaged>
HWY_INLINE FloatVec candidateOffsets(const StepContext& ctx, const SortedFlock& flock, std::uint32_t m,
                                     glm::vec3 p, FloatVec& dx, FloatVec& dy, FloatVec& dz) {
  const FloatTag df;
  return offsetsFrom<Imaged>(ctx, hn::LoadU(df, flock.x + m), hn::LoadU(df, flock.y + m),
                             hn::LoadU(df, flock.z + m), p, dx, dy, dz);
}

// A mask's lanes as bits, lane 0 lowest.
template <class Mask>
HWY_INLINE std::uint64_t maskBits(Mask mask) {
  std::uint8_t bytes[8] = {};
  hn::StoreMaskBits(FloatTag(), mask, bytes);
  std::uint64_t bits;
  std::memcpy(&bits, bytes, sizeof bits);
  return bits;
}

// The lanes of slots [m, m + lanes) that `within` takes and that are candidates of boid i (in slot
// selfSlot) in the run [m, end): lanes past the run hold boids of other cells (or the padding),
// and i is no neighbour of itself.
template <class Mask>
HWY_INLINE std::uint64_t candidateBits(Mask within, std::uint32_t m, std::uint32_t end,
                                       std::uint32_t selfSlot) {
  const FloatTag df;
  std::uint64_t bits = maskBits(hn::And(within, hn::FirstN(df, end - m)));
  if (selfSlot - m < hn::Lanes(df)) bits &= ~(std::uint64_t{1} << (selfSlot - m));
  return bits;
}

// The lab's units: the candidates of one run of cells, slots [begin, end), folded into `self` (in
// slot selfSlot) one by one with the scalar function. Inlined into the boid's loop (as a call it
// cost 30%: the sums went through memory).
template <bool Imaged>
HWY_INLINE void sweepLabRun(const StepContext& ctx, const BoidView& self, std::uint32_t selfSlot,
                            const SortedFlock& flock, std::uint32_t begin, std::uint32_t end,
                            NeighbourSums& sums) {
  const FloatTag df;
  const std::size_t lanes = hn::Lanes(df);
  const FloatVec r2 = hn::Set(df, ctx.searchRadius2);
  HWY_ALIGN float ox[kMaxLanes], oy[kMaxLanes], oz[kMaxLanes];
  FloatVec dx = hn::Zero(df), dy = dx, dz = dx;
  for (std::uint32_t m = begin; m < end; m += static_cast<std::uint32_t>(lanes)) {
    const FloatVec d2 = candidateOffsets<Imaged>(ctx, flock, m, self.position, dx, dy, dz);
    std::uint64_t bits = candidateBits(hn::Lt(d2, r2), m, end, selfSlot);
    if (bits == 0) continue;
    hn::Store(dx, df, ox);
    hn::Store(dy, df, oy);
    hn::Store(dz, df, oz);
    for (; bits != 0; bits &= bits - 1) {
      const unsigned lane = static_cast<unsigned>(__builtin_ctzll(bits));
      const std::uint32_t j = m + lane;
      accumulateNeighbour(ctx, self, {ox[lane], oy[lane], oz[lane]}, flock.heading[j], flock.id[j],
                          flock.group[j], sums);
    }
  }
}

// Packing a vector's taken lanes to its front: AVX-512 (and the scalable sets) has an instruction
// for it. Below that, Highway 1.0.3's Compress copies its 1 KiB table of lane orders onto the stack
// on every call (GCC builds the function's local constexpr array each time: the step ran 4x slower
// under AVX2 than with the per-run sweep before), so the lanes' order comes from kTakenFirst, once
// per vector, and moves all five vectors.
constexpr bool kNativeCompress = HWY_TARGET <= HWY_AVX3 || HWY_HAVE_SCALABLE;
static_assert(kNativeCompress || kMaxLanes <= 8, "kTakenFirst orders at most 8 lanes");
// For each mask of up to 8 lanes, the lanes it takes (lowest first), then the others: for 4
// lanes the first 4 of its mask's row.
struct LaneOrders {
  std::uint32_t lanes[256][8];
};
constexpr LaneOrders takenFirst() {
  LaneOrders orders{};
  for (std::uint32_t mask = 0; mask < 256; ++mask) {
    std::uint32_t at = 0;
    for (std::uint32_t lane = 0; lane < 8; ++lane)
      if (mask >> lane & 1u) orders.lanes[mask][at++] = lane;
    for (std::uint32_t lane = 0; lane < 8; ++lane)
      if (!(mask >> lane & 1u)) orders.lanes[mask][at++] = lane;
  }
  return orders;
}
static constexpr LaneOrders kTakenFirst = takenFirst();

static_assert(kMaxLanes <= kSweepPadding && HWY_MAX_BYTES <= kWithinAlignment,
              "WithinCandidates fits every vector");

// The metric rule's sums, in locals while a batch is swept (in the caller's NeighbourSums, which
// the flock's headings might alias, every addition went through memory; and NeighbourSums is
// mostly the topological rule's nearest list).
struct MetricSums {
  glm::vec3 separation{0.0f};
  glm::vec3 headingSum{0.0f};
  glm::vec3 offsetSum{0.0f};
  std::uint32_t sameGroupCount = 0;
  bool separating = false;
  bool frontOccupied = false;
};
template <class From, class To>
HWY_INLINE void copyMetricSums(const From& from, To& to) {
  to.separation = from.separation;
  to.headingSum = from.headingSum;
  to.offsetSum = from.offsetSum;
  to.sameGroupCount = from.sameGroupCount;
  to.separating = from.separating;
  to.frontOccupied = from.frontOccupied;
}
// Set in a gathered slot whose boid is of the sweeping boid's group: one vector packed less than
// the group itself (slots stay below it: kMaxBoids).
constexpr std::uint32_t kSameGroup = 1u << 31;
static_assert(kMaxBoids < std::int64_t{kSameGroup});
constexpr std::uint32_t gatheredSlot(std::uint32_t word) {
  return word & ~kSameGroup;
}

// Folds the first `count` gathered candidates into the sums, a vector of them at a time:
// accumulateNeighbour's tests (the distance, the front cone, the field of view) on every lane at once, then
// one at a time, in slot order, the separation push (sim::separationPush itself: a few neighbours a boid,
// where a vector of pushes cost as much) and the sums' additions. Each lane makes the scalar
// function's operations in its order, so the sums are the same bytes.
HWY_INLINE void foldWithin(const StepContext& ctx, const BoidView& self, std::uint32_t selfSlot,
                           const SortedFlock& flock, const WithinCandidates& within, std::uint32_t count,
                           MetricSums& sums) {
  const FloatTag df;
  const hn::RebindToUnsigned<FloatTag> du;
  using V = FloatVec;
  const std::size_t lanes = hn::Lanes(df);
  for (std::uint32_t k = 0; k < count; k += static_cast<std::uint32_t>(lanes)) {
    // Boid i itself was gathered too (tested here, on a couple of vectors, rather than on every
    // vector of its runs); its word has kSameGroup.
    const auto slots = hn::Load(du, within.slot + k);
    const auto candidate = hn::And(hn::FirstN(df, count - k),
                                   hn::RebindMask(df, hn::Ne(slots, hn::Set(du, selfSlot | kSameGroup))));
    const V dx = hn::Load(df, within.dx + k), dy = hn::Load(df, within.dy + k),
            dz = hn::Load(df, within.dz + k);
    const V d2 = dotLanes(dx, dy, dz, dx, dy, dz);
    const V dist = hn::Sqrt(d2);
    const auto coincident = hn::Lt(dist, hn::Set(df, kEps));
    const V along = dotLanes(hn::Set(df, self.heading.x), hn::Set(df, self.heading.y),
                             hn::Set(df, self.heading.z), dx, dy,
                             dz);  // glm::dot(self.heading, d)
    if (ctx.needFront && !sums.frontOccupied) {
      const auto front = hn::And(hn::Lt(d2, hn::Set(df, ctx.leaderRadius2)),
                                 hn::Or(coincident, hn::Ge(along, hn::Mul(dist, hn::Set(df, kCos45)))));
      if (!hn::AllFalse(df, hn::And(candidate, front))) sums.frontOccupied = true;
    }
    auto accepted = hn::And(candidate, hn::Lt(d2, hn::Set(df, ctx.radius2)));
    if (ctx.limitedFov)
      accepted = hn::And(
          accepted, hn::Or(coincident, hn::Not(hn::Lt(along, hn::Mul(dist, hn::Set(df, ctx.cosHalfFov))))));
    std::uint64_t separating = maskBits(hn::And(accepted, hn::Lt(d2, hn::Set(df, ctx.separationRadius2))));
    if (separating != 0) {
      sums.separating = true;
      for (; separating != 0; separating &= separating - 1) {
        const unsigned at = k + static_cast<unsigned>(__builtin_ctzll(separating));
        const glm::vec3 d{within.dx[at], within.dy[at], within.dz[at]};
        const float d2j = glm::dot(d, d);
        const std::uint32_t id = flock.id[gatheredSlot(within.slot[at])];
        sums.separation += separationPush(ctx, self, d, d2j, std::sqrt(d2j), id);
      }
    }
    const auto sameGroup = hn::RebindMask(df, hn::TestBit(slots, hn::Set(du, kSameGroup)));
    std::uint64_t same = maskBits(hn::And(accepted, sameGroup));
    for (; same != 0; same &= same - 1) {
      const unsigned at = k + static_cast<unsigned>(__builtin_ctzll(same));
      sums.headingSum += flock.heading[gatheredSlot(within.slot[at])];
      sums.offsetSum += glm::vec3(within.dx[at], within.dy[at], within.dz[at]);
      ++sums.sameGroupCount;
    }
  }
}

// The metric rule for the B boids of one cell (selves, in slots firstSlot...): the candidates of
// a run within the search radius of each added to its `counts[b]` gathered (without a branch on
// which lanes are), to be folded in (foldWithin) in slot order as before; a boid with more than
// kWithinCapacity of them folds them in as its buffer fills. Each vector of candidates is loaded
// once for all B. The counts are the caller's locals (kept in `within`, they went through memory on
// every vector).
template <bool Imaged, int B>
HWY_INLINE void gatherWithin(const StepContext& ctx, const BoidView* selves, std::uint32_t firstSlot,
                             const SortedFlock& flock, std::uint32_t begin, std::uint32_t end,
                             WithinCandidates* within, std::uint32_t* counts, MetricSums* sums) {
  const FloatTag df;
  const hn::RebindToUnsigned<FloatTag> du;
  const std::size_t lanes = hn::Lanes(df);
  const FloatVec r2 = hn::Set(df, ctx.searchRadius2);
  // Iota made once: made in the loop (Highway writes it lane by lane and loads it), its load waited
  // on the stores on every vector.
  const auto lanesFromZero = hn::Iota(du, 0);
  for (std::uint32_t m = begin; m < end; m += static_cast<std::uint32_t>(lanes)) {
    const FloatVec x = hn::LoadU(df, flock.x + m), y = hn::LoadU(df, flock.y + m),
                   z = hn::LoadU(df, flock.z + m);
    const auto groups = hn::LoadU(du, flock.group + m);
    const auto slots = hn::Add(hn::Set(du, m), lanesFromZero);
    const auto inRun = hn::FirstN(df, end - m);
    for (int b = 0; b < B; ++b) {
      FloatVec dx, dy, dz;
      const FloatVec d2 = offsetsFrom<Imaged>(ctx, x, y, z, selves[b].position, dx, dy, dz);
      const auto take = hn::And(hn::Lt(d2, r2), inRun);
      const auto sameGroup = hn::Eq(groups, hn::Set(du, selves[b].group));
      const auto slotWords = hn::Or(slots, hn::And(hn::VecFromMask(du, sameGroup), hn::Set(du, kSameGroup)));
      WithinCandidates& to = within[b];
      const std::uint32_t count = counts[b];
      if constexpr (kNativeCompress) {
        hn::StoreU(hn::Compress(dx, take), df, to.dx + count);
        hn::StoreU(hn::Compress(dy, take), df, to.dy + count);
        hn::StoreU(hn::Compress(dz, take), df, to.dz + count);
        hn::StoreU(hn::Compress(slotWords, hn::RebindMask(du, take)), du, to.slot + count);
      } else {
        const auto order = hn::SetTableIndices(du, kTakenFirst.lanes[maskBits(take)]);
        const auto pack = [&](FloatVec v) {
          return hn::BitCast(df, hn::TableLookupLanes(hn::BitCast(du, v), order));
        };
        hn::StoreU(pack(dx), df, to.dx + count);
        hn::StoreU(pack(dy), df, to.dy + count);
        hn::StoreU(pack(dz), df, to.dz + count);
        hn::StoreU(hn::TableLookupLanes(slotWords, order), du, to.slot + count);
      }
      counts[b] = count + static_cast<std::uint32_t>(hn::CountTrue(df, take));
      if (counts[b] > kWithinCapacity - lanes) {
        foldWithin(ctx, selves[b], firstSlot + std::uint32_t(b), flock, to, counts[b], sums[b]);
        counts[b] = 0;
      }
    }
  }
}

// The metric rule for the B boids of one cell: the runs that may hold a candidate of any of them
// (their box's rows), swept once.
template <int B>
HWY_INLINE void sweepMetric(const StepContext& ctx, const GridSpec& grid, const CellOrder& cells, int dims,
                            const SortedFlock& flock, std::uint32_t firstSlot, const BoidView* selves,
                            NeighbourSums* sums, CellRuns& around, WithinCandidates* within) {
  glm::vec3 low = selves[0].position, high = low;
  for (int b = 1; b < B; ++b) {
    low = glm::min(low, selves[b].position);
    high = glm::max(high, selves[b].position);
  }
  const int spanX = static_cast<int>(cells.cellOfSlot[firstSlot + B - 1] - cells.cellOfSlot[firstSlot]);
  const SlotRuns runs =
      neighbourSlotRuns(grid, cells, low, high, std::sqrt(ctx.searchRadius2), dims, around, spanX);
  MetricSums local[B];
  for (int b = 0; b < B; ++b) copyMetricSums(sums[b], local[b]);
  // The neighbours' headings are read last (foldWithin), one at a time, from rows of cells far
  // apart in the flock: at large flocks each was a cache miss the fold waited on (docs/architecture.md,
  // Tuning constants). Asked for now, they come while the runs are gathered.
  for (int r = 0; r < runs.count; ++r) {
    __builtin_prefetch(flock.heading + runs.runs[std::size_t(r)].begin);
    __builtin_prefetch(flock.heading + runs.runs[std::size_t(r)].end - 1);
  }
  std::uint32_t counts[B] = {};
  for (int r = 0; r < runs.count; ++r) {
    const SlotRun run = runs.runs[std::size_t(r)];
    if (run.imaged)
      gatherWithin<true, B>(ctx, selves, firstSlot, flock, run.begin, run.end, within, counts, local);
    else
      gatherWithin<false, B>(ctx, selves, firstSlot, flock, run.begin, run.end, within, counts, local);
  }
  for (int b = 0; b < B; ++b) {
    foldWithin(ctx, selves[b], firstSlot + std::uint32_t(b), flock, within[b], counts[b], local[b]);
    copyMetricSums(local[b], sums[b]);
  }
}

// The topological rule (ctx.topological = K; docs/model.md): alignment and cohesion take the K
// nearest same-group boids in view within R, separation and the front cone stay metric. Which K
// are nearest and whether the front cone holds a boid depend on no order, and the separation sums
// in slot order over the boids within Rs, so the sweep may leave out every boid farther than the
// K-th nearest so far, Rs and, while the front cone is tested and still empty, RL. First the
// boid's own cell (when it holds many) is offered to the K nearest and tested for the front cone,
// which usually fills both; then only the cells within the reach that leaves are swept, in slot
// order, each candidate folded in as by accumulateNeighbour but those of the own cell not offered
// again. Only the candidates a vector finds within the reach (which shrinks as nearer boids come)
// are folded in one by one.

// The squared distance within which a candidate may still change boid i's sums: the K-th
// nearest's once there are K (only a nearer one, or one as near with a lower id, takes its place),
// else R^2; at least Rs^2, and RL^2 while the front cone is tested and empty.
HWY_INLINE float topologicalReach2(const StepContext& ctx, const NeighbourSums& sums) {
  const float kth =
      sums.nearestCount == ctx.topological ? sums.nearest[ctx.topological - 1].distance2 : ctx.radius2;
  const float front = ctx.needFront && !sums.frontOccupied ? ctx.leaderRadius2 : 0.0f;
  return std::max(std::max(kth, ctx.separationRadius2), front);
}

// Each candidate of slots [begin, end) but selfSlot nearer than `radius2` and within the reach,
// visited as visit(j, d_ij) in slot order.
template <bool Imaged, typename Visit>
HWY_INLINE void forEachWithinReach(const StepContext& ctx, const SortedFlock& flock, glm::vec3 p,
                                   std::uint32_t selfSlot, float radius2, std::uint32_t begin,
                                   std::uint32_t end, const NeighbourSums& sums, Visit&& visit) {
  const FloatTag df;
  const std::size_t lanes = hn::Lanes(df);
  const FloatVec r2 = hn::Set(df, radius2);
  HWY_ALIGN float ox[kMaxLanes], oy[kMaxLanes], oz[kMaxLanes];
  FloatVec dx = hn::Zero(df), dy = dx, dz = dx;
  for (std::uint32_t m = begin; m < end; m += static_cast<std::uint32_t>(lanes)) {
    const FloatVec d2 = candidateOffsets<Imaged>(ctx, flock, m, p, dx, dy, dz);
    const FloatVec reach2 = hn::Set(df, topologicalReach2(ctx, sums));
    std::uint64_t bits = candidateBits(hn::And(hn::Lt(d2, r2), hn::Le(d2, reach2)), m, end, selfSlot);
    if (bits == 0) continue;
    hn::Store(dx, df, ox);
    hn::Store(dy, df, oy);
    hn::Store(dz, df, oz);
    for (; bits != 0; bits &= bits - 1) {
      const unsigned lane = static_cast<unsigned>(__builtin_ctzll(bits));
      if (!visit(m + lane, glm::vec3{ox[lane], oy[lane], oz[lane]})) return;
    }
  }
}

// The candidates of slots [begin, end) within the reach, folded into `self`'s sums as Terms says;
// with Terms = All those in [ownBegin, ownEnd) (offered already) as AllButNearest.
template <bool Imaged, NeighbourTerms Terms>
HWY_INLINE void sweepNearRun(const StepContext& ctx, const BoidView& self, std::uint32_t selfSlot,
                             const SortedFlock& flock, std::uint32_t begin, std::uint32_t end,
                             std::uint32_t ownBegin, std::uint32_t ownEnd, NeighbourSums& sums) {
  forEachWithinReach<Imaged>(
      ctx, flock, self.position, selfSlot, ctx.searchRadius2, begin, end, sums,
      [&](std::uint32_t j, const glm::vec3& d) {
        if (Terms == NeighbourTerms::All && (j < ownBegin || j >= ownEnd))
          accumulateNeighbour<NeighbourTerms::All>(ctx, self, d, flock.heading[j], flock.id[j],
                                                   flock.group[j], sums);
        else
          accumulateNeighbour<Terms == NeighbourTerms::All ? NeighbourTerms::AllButNearest : Terms>(
              ctx, self, d, flock.heading[j], flock.id[j], flock.group[j], sums);
        return true;
      });
}

HWY_INLINE void sweepTopological(const StepContext& ctx, const GridSpec& grid, const CellOrder& cells,
                                 int dims, const SortedFlock& flock, std::uint32_t selfSlot,
                                 const BoidView& self, NeighbourSums& sums, CellRuns& around) {
  const std::uint32_t cell = grid.cellIndex(grid.cellCoord(self.position));
  std::uint32_t ownBegin = cells.cellStart[cell], ownEnd = cells.cellStart[cell + 1];
  SlotRuns runs;
  if (ownEnd - ownBegin > kSeedingCellPerNeighbour * ctx.topological) {
    // The own cell's offsets need the minimum image only on a wrapped axis of one cell; elsewhere
    // folding leaves them as they are.
    constexpr NeighbourTerms kFirst = NeighbourTerms::AllButSeparation;
    if (ctx.wrap)
      sweepNearRun<true, kFirst>(ctx, self, selfSlot, flock, ownBegin, ownEnd, ownBegin, ownEnd, sums);
    else
      sweepNearRun<false, kFirst>(ctx, self, selfSlot, flock, ownBegin, ownEnd, ownBegin, ownEnd, sums);
    runs = nearSlotRuns(grid, cells, self.position, std::sqrt(topologicalReach2(ctx, sums)), dims);
  } else {
    // A sparse cell would leave the reach at about R: the whole block, its runs kept while boids
    // share the cell, every candidate offered in it.
    runs = neighbourSlotRuns(grid, cells, self.position, std::sqrt(ctx.searchRadius2), dims, around);
    ownBegin = ownEnd = 0;
  }
  for (int r = 0; r < runs.count; ++r) {
    const SlotRun run = runs.runs[std::size_t(r)];
    if (run.imaged)
      sweepNearRun<true, NeighbourTerms::All>(ctx, self, selfSlot, flock, run.begin, run.end, ownBegin,
                                              ownEnd, sums);
    else
      sweepNearRun<false, NeighbourTerms::All>(ctx, self, selfSlot, flock, run.begin, run.end, ownBegin,
                                               ownEnd, sums);
  }
}

// The adaptive range (sim/fine_grid): the candidates within `range` of boid i (in slot selfSlot)
// on the fine grid, the front cone tested and each offered to the K nearest as they come, those
// within Rs kept aside. True when that settles the sums: K found nearer than the range, which
// also covers Rs and, while the front cone is tested and empty, RL; the ones kept aside are then
// folded into the separation in slot order, as the search of R folds them. False leaves the sums
// to be made again.
inline constexpr std::uint32_t kRangeSeparationCapacity = 64;
struct RangeSeparating {
  std::uint32_t slot;  // in the cell order
  std::uint32_t fine;
  glm::vec3 offset;
};

HWY_INLINE bool sweepTopologicalRange(const StepContext& ctx, const FineGrid& fine, std::uint32_t selfSlot,
                                      const BoidView& self, float range, NeighbourSums& sums) {
  const SortedFlock flock = fine.flock();
  const std::uint32_t selfFine = fine.fineSlot[selfSlot];
  const float range2 = range * range;
  // The fine cells of the box [p - range, p + range], widened by a margin rounding cannot cross.
  const glm::vec3 p = self.position;
  const float slack = 1e-5f * (std::abs(p.x) + std::abs(p.y) + std::abs(p.z) + range + fine.cellWidth);
  const glm::ivec3 lo = fine.cellCoord(p - glm::vec3(range + slack));
  const glm::ivec3 hi = fine.cellCoord(p + glm::vec3(range + slack));
  RangeSeparating separating[kRangeSeparationCapacity];
  std::uint32_t separatingCount = 0;
  bool overflowed = false;  // more than kRangeSeparationCapacity within Rs
  // The squared gap from p to fine cell c's slab along an axis, less the slack (the cells of a
  // row wholly beyond the range are left out).
  const auto gap2 = [&](int axis, int c) {
    const float cellLo = fine.origin[axis] + float(c) * fine.cellWidth;
    const float gap = std::max(std::max(cellLo - p[axis], p[axis] - (cellLo + fine.cellWidth)) - slack, 0.0f);
    return gap * gap;
  };
  for (int cz = lo.z; cz <= hi.z; ++cz) {
    const float gz2 = gap2(2, cz);
    for (int cy = lo.y; cy <= hi.y; ++cy) {
      const float row2 = gz2 + gap2(1, cy);
      if (row2 > range2) continue;
      int first = lo.x, last = hi.x;
      while (first < last && row2 + gap2(0, first) > range2) ++first;
      while (last > first && row2 + gap2(0, last) > range2) --last;
      const std::uint32_t begin = fine.cellStart[fine.cellIndex({first, cy, cz})];
      const std::uint32_t end = fine.cellStart[fine.cellIndex({last, cy, cz}) + 1];
      forEachWithinReach<false>(ctx, flock, p, selfFine, range2, begin, end, sums,
                                [&](std::uint32_t j, const glm::vec3& d) {
                                  if (glm::dot(d, d) < ctx.separationRadius2) {
                                    if (separatingCount == kRangeSeparationCapacity) {
                                      overflowed = true;
                                      return false;
                                    }
                                    separating[separatingCount++] = {fine.slot[j], j, d};
                                  }
                                  accumulateNeighbour<NeighbourTerms::AllButSeparation>(
                                      ctx, self, d, flock.heading[j], flock.id[j], flock.group[j], sums);
                                  return true;
                                });
      if (overflowed) return false;
    }
  }
  const bool settled = sums.nearestCount == ctx.topological &&
                       sums.nearest[ctx.topological - 1].distance2 < range2 &&
                       ctx.separationRadius2 <= range2 &&
                       (!ctx.needFront || sums.frontOccupied || ctx.leaderRadius2 <= range2);
  if (!settled) return false;
  std::sort(separating, separating + separatingCount,
            [](const RangeSeparating& a, const RangeSeparating& b) { return a.slot < b.slot; });
  for (std::uint32_t s = 0; s < separatingCount; ++s) {
    const std::uint32_t j = separating[s].fine;
    accumulateNeighbour<NeighbourTerms::AllButNearest>(ctx, self, separating[s].offset, flock.heading[j],
                                                       flock.id[j], flock.group[j], sums);
  }
  return true;
}

// The topological rule with the adaptive range: boid i's range tried first, the search of R
// where it does not settle the sums; its range for the next step kept. 1 where the range settled.
HWY_INLINE std::uint32_t sweepTopologicalAdaptive(const StepContext& ctx, const GridSpec& grid,
                                                  const CellOrder& cells, int dims, const SortedFlock& flock,
                                                  std::uint32_t selfSlot, const BoidView& self,
                                                  const AdaptiveRange& adaptive, NeighbourSums& sums,
                                                  CellRuns& around) {
  float& range = adaptive.range[self.id];
  const float tried =
      std::min(std::max(range + adaptive.margin, std::sqrt(ctx.separationRadius2)), std::sqrt(ctx.radius2));
  const bool settled =
      range > 0.0f && sweepTopologicalRange(ctx, *adaptive.grid, selfSlot, self, tried, sums);
  if (!settled) {
    ::new (static_cast<void*>(&sums)) NeighbourSums;
    sweepTopological(ctx, grid, cells, dims, flock, selfSlot, self, sums, around);
  }
  const std::uint32_t k = ctx.topological;
  range = sums.nearestCount == k ? std::sqrt(sums.nearest[k - 1].distance2) : 0.0f;
  return settled ? 1 : 0;
}

std::uint32_t SweepNeighbours(const StepContext& ctx, const GridSpec& grid, const CellOrder& cells, int dims,
                              const SortedFlock& flock, std::uint32_t firstSlot, const BoidView* selves,
                              std::uint32_t count, NeighbourSums* sums, CellRuns& around,
                              SweepScratch& scratch, const AdaptiveRange* adaptive) {
  if (!sweepsBatchAsBox(ctx)) {
    std::uint32_t settled = 0;
    for (std::uint32_t b = 0; b < count; ++b) {
      const BoidView& self = selves[b];
      const std::uint32_t selfSlot = firstSlot + b;
      if (ctx.topological != 0 && adaptive != nullptr) {
        settled += sweepTopologicalAdaptive(ctx, grid, cells, dims, flock, selfSlot, self, *adaptive, sums[b],
                                            around);
        continue;
      }
      if (ctx.topological != 0) {
        sweepTopological(ctx, grid, cells, dims, flock, selfSlot, self, sums[b], around);
        continue;
      }
      const SlotRuns runs =
          neighbourSlotRuns(grid, cells, self.position, std::sqrt(ctx.searchRadius2), dims, around);
      for (int r = 0; r < runs.count; ++r) {
        const SlotRun run = runs.runs[std::size_t(r)];
        if (run.imaged)
          sweepLabRun<true>(ctx, self, selfSlot, flock, run.begin, run.end, sums[b]);
        else
          sweepLabRun<false>(ctx, self, selfSlot, flock, run.begin, run.end, sums[b]);
      }
    }
    return settled;
  }
  switch (count) {
    case 1:
      sweepMetric<1>(ctx, grid, cells, dims, flock, firstSlot, selves, sums, around, scratch.within);
      break;
    case 2:
      sweepMetric<2>(ctx, grid, cells, dims, flock, firstSlot, selves, sums, around, scratch.within);
      break;
    case 3:
      sweepMetric<3>(ctx, grid, cells, dims, flock, firstSlot, selves, sums, around, scratch.within);
      break;
    case 4:
      sweepMetric<4>(ctx, grid, cells, dims, flock, firstSlot, selves, sums, around, scratch.within);
      break;
    case 5:
      sweepMetric<5>(ctx, grid, cells, dims, flock, firstSlot, selves, sums, around, scratch.within);
      break;
    case 6:
      sweepMetric<6>(ctx, grid, cells, dims, flock, firstSlot, selves, sums, around, scratch.within);
      break;
    case 7:
      sweepMetric<7>(ctx, grid, cells, dims, flock, firstSlot, selves, sums, around, scratch.within);
      break;
    default:
      sweepMetric<8>(ctx, grid, cells, dims, flock, firstSlot, selves, sums, around, scratch.within);
      break;
  }
  return 0;
}

const char* SweepTargetName() {
  return hwy::TargetName(HWY_TARGET);
}

}  // namespace murmur::sim::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace murmur::sim {

HWY_EXPORT(SweepNeighbours);
HWY_EXPORT(SweepTargetName);

std::uint32_t sweepNeighbours(const StepContext& ctx, const GridSpec& grid, const CellOrder& cells, int dims,
                              const SortedFlock& flock, std::uint32_t firstSlot,
                              std::span<const BoidView> selves, std::span<NeighbourSums> sums,
                              CellRuns& around, SweepScratch& scratch, const AdaptiveRange* adaptive) {
  return HWY_DYNAMIC_DISPATCH(SweepNeighbours)(ctx, grid, cells, dims, flock, firstSlot, selves.data(),
                                               static_cast<std::uint32_t>(selves.size()), sums.data(), around,
                                               scratch, adaptive);
}

std::string simdTargetName() {
  return HWY_DYNAMIC_DISPATCH(SweepTargetName)();
}

std::vector<SimdTarget> availableSimdTargets() {
  std::vector<SimdTarget> targets;
  for (const std::int64_t bits : hwy::SupportedAndGeneratedTargets())
    targets.push_back({bits, hwy::TargetName(bits)});
  return targets;
}

namespace {
std::int64_t forcedTarget = 0;  // Highway keeps its mock to itself
}  // namespace

void forceSimdTarget(std::int64_t bits) {
  forcedTarget = bits;
  hwy::SetSupportedTargetsForTest(bits);
}

std::int64_t forcedSimdTarget() {
  return forcedTarget;
}

}  // namespace murmur::sim
#endif  // HWY_ONCE

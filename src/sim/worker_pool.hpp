#pragma once
// The CPU reference's threads: a fixed set of workers that run the chunks of one loop at a time,
// with the calling thread taking part.
//
// Why not OpenMP: its threads spin at the end of every loop (libgomp's wait policy can only be set
// through the environment before the program starts, never from a library), and `schedule(static)`
// hands each thread a fixed share. On a machine where another process holds a core, a worker that
// is descheduled then stalls the whole step until the scheduler gives it a core back, while the
// other thread burns its own core spinning: 2 threads ran 3.4x slower than 1 (issue 22). Here
// chunks are claimed one at a time from a shared counter, so the thread that runs does all the
// work that is left and a late thread delays the end by at most the chunk it holds; idle threads
// spin for some 50 us (the next loop of the step is usually that close) and then sleep in the
// kernel (std::atomic::wait, a futex on Linux).
//
// Results never depend on the thread count: loops given to forChunks must write disjoint outputs.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

namespace murmur::sim {

// The most threads a pool may be asked for (a thread count from a user is checked against it).
inline constexpr int kMaxThreads = 1024;

class WorkerPool {
 public:
  // threads <= 0: std::thread::hardware_concurrency(); at most kMaxThreads. A pool of 1 runs
  // everything on the caller.
  explicit WorkerPool(int threads = 0);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int threads() const { return static_cast<int>(workers_.size()) + 1; }

  // While set, every loop runs on the caller alone and the workers sleep (ThreadChoice below). Set
  // between loops, never during one; results do not change.
  void setSerial(bool serial) { serial_ = serial; }
  // Seconds the calling thread has waited, over all loops so far, for chunks other threads held
  // after it ran out of chunks to claim: what late threads cost.
  double waitedSeconds() const { return waitedSeconds_; }

  // body(begin, end) over [0, n) in chunks of at most `chunk` items, on every thread of the pool
  // (the caller included); returns when every chunk has run. A loop of one chunk, or any loop on a
  // pool of one thread, is one call body(0, n) on the caller. Not reentrant: one loop at a time.
  template <class Body>
  void forChunks(std::size_t n, std::size_t chunk, Body&& body) {
    if (n == 0) return;
    if (chunk == 0) chunk = 1;
    if (workers_.empty() || serial_ || n <= chunk) {
      body(std::size_t{0}, n);
      return;
    }
    run(n, chunk, &body,
        [](void* b, std::size_t begin, std::size_t end) { (*static_cast<Body*>(b))(begin, end); });
  }

 private:
  using Invoke = void (*)(void*, std::size_t, std::size_t);
  void run(std::size_t n, std::size_t chunk, void* body, Invoke invoke);
  // Claims and runs chunks of the loop of `generation` until none is left.
  void work(std::uint32_t generation);
  void workerLoop(std::stop_token stop);

  // The loop being run, written before its generation is published in claim_. Atomics (relaxed)
  // because a thread that woke late may read them while the next loop writes them: it then fails
  // to claim (the generation differs) and uses nothing it read.
  std::atomic<std::size_t> n_{0}, chunk_{1}, chunks_{0};
  std::atomic<void*> body_{nullptr};
  std::atomic<Invoke> invoke_{nullptr};
  // High 32 bits: the loop's generation; low 32 bits: the next chunk to claim. One word, so a
  // thread that wakes late can never claim a chunk of a newer loop as one of the loop it saw.
  std::atomic<std::uint64_t> claim_{0};
  // The low word of claim_ while a loop is being written: beyond any chunk count.
  static constexpr std::uint64_t kNothingToClaim = 0xffffffffu;
  std::atomic<std::uint32_t> published_{0};  // the generation workers wait on
  std::atomic<std::size_t> done_{0};         // chunks finished in the current loop
  std::uint32_t generation_ = 0;
  bool serial_ = false;
  double waitedSeconds_ = 0.0;
  std::vector<std::jthread> workers_;
};

// Whether a run's next step goes threaded or on the calling thread alone: whichever was faster when
// last tried. Claimed chunks keep a late thread from holding up more than its chunk, but where
// another process holds a core the scheduler also shares that core between it and one of ours, and
// then a threaded step can be slower than one thread's, while the calling thread waits little: the
// wait is no signal (the busy-core benchmark; docs/architecture.md, Tuning constants). So now and
// then kTrialSteps steps run
// the other way, and the way whose steps were faster on average (the trial's against the last 8 or
// so steps) is kept. A trial costs at most kTrialSteps steps as long again times the threads, so
// trials come after firstWait() steps, 1% of the time at worst, the wait doubling after each trial
// that keeps the choice (up to 8 times as long) and starting again after one that changes it.
class ThreadChoice {
 public:
  static constexpr std::uint32_t kTrialSteps = 4;

  // threads: the pool's (1: never a trial).
  explicit ThreadChoice(int threads) : threads_(threads), wait_(2 * firstWait()), untilTrial_(firstWait()) {}

  std::uint32_t firstWait() const { return 100u * kTrialSteps * std::uint32_t(std::max(threads_ - 1, 1)); }
  std::uint32_t longestWait() const { return 8u * firstWait(); }

  // Whether the coming step runs on the calling thread alone.
  bool serial() const { return trialStepsLeft_ > 0 ? !serial_ : serial_; }
  // Whether the steps run on the calling thread alone but for trials (the way last found faster).
  bool chosenSerial() const { return serial_; }
  // The coming step's wall time, once it has run (seconds).
  void record(double seconds);

 private:
  int threads_;
  bool serial_ = false;
  std::uint32_t wait_;
  std::uint32_t untilTrial_;
  std::uint32_t trialStepsLeft_ = 0;
  double chosenSeconds_ = 0.0;  // the chosen way's recent steps, smoothed
  bool timed_ = false;          // chosenSeconds_ holds a step
  double trialSeconds_ = 0.0;   // the trial's steps so far, summed
};

}  // namespace murmur::sim

#include "record/trajectory.hpp"

#include <fcntl.h>
#include <hdf5.h>
#include <linux/falloc.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/output_path.hpp"

// Serial HDF5 is not thread-safe: every writer of a process is used from one thread at a time.
//
// HDF5 before 1.10.11 and 1.14.1 (HDFFV-11052) frees a file whose close failed (a full disk) but keeps
// its id, and its exit handler then crashes closing it; a failed H5Fflush makes every later close fail.
// So: the datasets bypass the chunk cache (a write error comes from append, not from a close); commit
// reserves the file's blocks before it closes anything; an abandoned file's last writes go to memory,
// so that its closes succeed; and HDF5's exit handler is never installed (every id is closed by then).
namespace murmur::record {
namespace {

static_assert(sizeof(glm::vec3) == 3 * sizeof(float), "frames are written straight from the state's arrays");

// The chunks of the step and time datasets, in frames: written through (no cache), so small.
constexpr hsize_t kStepChunk = 64;
// HDF5's limit on a chunk's size is 4 GiB - 1: a larger frame is split along the boids.
constexpr hsize_t kMaxChunkBytes = (hsize_t{1} << 32) - 1;

// An HDF5 id with the function that closes it; closed, errors ignored, when destroyed (on an error path).
class Id {
 public:
  using Close = herr_t (*)(hid_t);
  Id() = default;
  Id(hid_t id, Close closer) : id_(id), close_(closer) {}
  Id(Id&& other) noexcept : id_(std::exchange(other.id_, H5I_INVALID_HID)), close_(other.close_) {}
  Id& operator=(Id&& other) noexcept {
    if (this != &other) {
      close();
      id_ = std::exchange(other.id_, H5I_INVALID_HID);
      close_ = other.close_;
    }
    return *this;
  }
  ~Id() { close(); }

  hid_t get() const { return id_; }
  // Closes the id now (once); the close's result.
  herr_t close() { return id_ < 0 ? 0 : close_(std::exchange(id_, H5I_INVALID_HID)); }

 private:
  hid_t id_ = H5I_INVALID_HID;
  Close close_ = nullptr;
};

// The innermost error of an HDF5 error stack (the cause) and the errno a failed system call left.
struct Hdf5Failure {
  std::string major, minor;  // empty: no HDF5 error
  int error = 0;
};

std::string hdf5Message(hid_t id) {
  std::array<char, 160> text{};
  return H5Eget_msg(id, nullptr, text.data(), text.size()) > 0 ? std::string(text.data()) : "unknown";
}

herr_t summariseEntry(unsigned n, const H5E_error2_t* entry, void* data) {
  auto& failure = *static_cast<Hdf5Failure*>(data);
  if (n == 0) {  // walking upwards: the first entry is where the error arose
    failure.major = hdf5Message(entry->maj_num);
    failure.minor = hdf5Message(entry->min_num);
  }
  // The POSIX driver names a failed call's errno in its description: "..., errno = 28, ...".
  if (const char* at = entry->desc != nullptr ? std::strstr(entry->desc, "errno = ") : nullptr;
      at != nullptr && failure.error == 0)
    failure.error = std::atoi(at + std::strlen("errno = "));
  return 0;
}

// The current error stack, summarised and cleared.
Hdf5Failure takeHdf5Failure() {
  Hdf5Failure failure;
  const hid_t stack = H5Eget_current_stack();
  if (stack >= 0) {
    H5Ewalk2(stack, H5E_WALK_UPWARD, summariseEntry, &failure);
    H5Eclose_stack(stack);
  }
  return failure;
}

// One time-dependent H5MD element: a group holding step, time and value.
struct Element {
  Id group, value;
};

}  // namespace

struct TrajectoryWriter::Impl {
  Impl(const std::string& path, std::string option, std::size_t boids);
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl();

  // Calls an HDF5 function and returns its result; OutputError naming `what` when it fails.
  template <class Call>
  auto call(const char* what, Call&& hdf5) {
    const auto result = hdf5();
    if (result < 0) fail(what, 0);
    return result;
  }
  // The id an HDF5 call created or opened, to be closed by closer; OutputError naming `what` when none.
  Id open(const char* what, Id::Close closer, hid_t id) {
    if (id < 0) fail(what, 0);
    return Id(id, closer);
  }
  // OutputError naming what failed, HDF5's error (its errno included) or else `error`, an errno.
  [[noreturn]] void fail(const char* what, int error);

  void writeMetadata(const TrajectoryInfo& info);
  Id group(hid_t parent, const char* name);
  void attribute(hid_t object, const char* name, hid_t type, const std::vector<hsize_t>& dims,
                 const void* data);
  void stringAttribute(hid_t object, const char* name, const std::string& text);
  Element element(hid_t particles, const char* name, hid_t fileType, bool vector, hid_t access);
  void writeRow(hid_t dataset, int rank, hid_t memoryType, hid_t memory, const void* data);
  void append(std::uint64_t step, double time, const sim::FlockState& state);
  void reserveBlocks();
  void close();

  core::TemporaryOutput output;  // first: destroyed last, once every HDF5 id below is closed
  std::string option;
  std::size_t boids;
  std::uint64_t frames = 0;
  bool failed = false, committed = false;
  Id file, stringType;
  Id step, time;  // shared by the elements (hard links), as H5MD allows
  Element position, velocity, species, leader;
  Id one, vectors, scalars;  // memory spaces: one value, one frame of vectors (N, 3) and of scalars (N)
  std::vector<std::int32_t> groups;  // one frame's species, converted from uint32
};

TrajectoryWriter::Impl::Impl(const std::string& path, std::string option_, std::size_t boids_)
    : output(path, option_), option(std::move(option_)), boids(boids_) {
  // Once, before HDF5 starts: no exit handler (see above), and no HDF5 error is ever printed; each is
  // reported as an OutputError instead.
  static const bool silenced = [] {
    H5dont_atexit();
    return H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr) >= 0;
  }();
  if (!silenced) fail("initialising HDF5", 0);
  output.closeForOthers();  // HDF5 opens the temporary itself
  const Id access = open("creating the file", H5Pclose, H5Pcreate(H5P_FILE_ACCESS));
  call("creating the file", [&] { return H5Pset_fclose_degree(access.get(), H5F_CLOSE_STRONG); });
#if H5_VERSION_GE(1, 10, 7)
  // The temporary is Murmur's alone: no lock, which some file systems (NFS) refuse.
  call("creating the file", [&] { return H5Pset_file_locking(access.get(), false, true); });
#endif
  file = open("creating the file", H5Fclose,
              H5Fcreate(output.temporaryPath().c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()));
}

TrajectoryWriter::Impl::~Impl() {
  if (committed || file.get() < 0) return;
  // Abandoned: what the closes below still write (dirty metadata) is not needed. HDF5's descriptor is
  // pointed at an anonymous memory file, so that they succeed on a full disk too; failing that, the
  // temporary is emptied to give them room.
  void* handle = nullptr;
  const int sink = ::memfd_create("murmur-trajectory", MFD_CLOEXEC);
  const bool redirected = sink >= 0 && H5Fget_vfd_handle(file.get(), H5P_DEFAULT, &handle) >= 0 &&
                          handle != nullptr && ::dup3(sink, *static_cast<int*>(handle), O_CLOEXEC) >= 0;
  if (sink >= 0) ::close(sink);
  if (!redirected && ::truncate(output.temporaryPath().c_str(), 0) != 0) return;  // best effort
}

void TrajectoryWriter::Impl::fail(const char* what, int error) {
  failed = true;
  const Hdf5Failure failure = takeHdf5Failure();
  if (failure.error != 0) error = failure.error;
  std::string reason = "cannot write the trajectory";
  if (error == ENOSPC || error == EFBIG || error == EDQUOT)
    reason += fmt::format(": {}", std::strerror(error));
  const std::string hdf5 =
      failure.major.empty() ? "" : fmt::format("; HDF5: {}: {}", failure.major, failure.minor);
  throw OutputError(output.path(), option,
                    fmt::format("{} ({}{}); the target was left as it was", reason, what, hdf5));
}

Id TrajectoryWriter::Impl::group(hid_t parent, const char* name) {
  return open("writing the metadata", H5Gclose,
              H5Gcreate2(parent, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
}

// An attribute of `type` in the file and in memory: a scalar when dims is empty.
void TrajectoryWriter::Impl::attribute(hid_t object, const char* name, hid_t type,
                                       const std::vector<hsize_t>& dims, const void* data) {
  const char* what = "writing the metadata";
  const Id space = dims.empty() ? open(what, H5Sclose, H5Screate(H5S_SCALAR))
                                : open(what, H5Sclose,
                                       H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr));
  Id attr = open(what, H5Aclose, H5Acreate2(object, name, type, space.get(), H5P_DEFAULT, H5P_DEFAULT));
  call(what, [&] { return H5Awrite(attr.get(), type, data); });
  call(what, [&] { return attr.close(); });
}

void TrajectoryWriter::Impl::stringAttribute(hid_t object, const char* name, const std::string& text) {
  const char* const data = text.c_str();
  attribute(object, name, stringType.get(), {}, &data);
}

void TrajectoryWriter::Impl::writeMetadata(const TrajectoryInfo& info) {
  const char* what = "writing the metadata";
  // UTF-8 strings of variable length: h5py reads them as str.
  stringType = open(what, H5Tclose, H5Tcopy(H5T_C_S1));
  call(what, [&] { return H5Tset_size(stringType.get(), H5T_VARIABLE); });
  call(what, [&] { return H5Tset_cset(stringType.get(), H5T_CSET_UTF8); });

  const Id h5md = group(file.get(), "h5md");
  const std::int32_t version[2] = {1, 1};
  attribute(h5md.get(), "version", H5T_NATIVE_INT32, {2}, version);
  stringAttribute(group(h5md.get(), "author").get(), "name", "Murmur");
  const Id creator = group(h5md.get(), "creator");
  stringAttribute(creator.get(), "name", "murmur");
  stringAttribute(creator.get(), "version", info.build);

  const Id particles = group(file.get(), "particles");
  // No id element: row i of every value is boid i (its index at creation).
  const Id flock = group(particles.get(), "flock");
  const Id box = group(flock.get(), "box");
  const std::int32_t dimension = 3;
  attribute(box.get(), "dimension", H5T_NATIVE_INT32, {}, &dimension);
  const char* const boundary = info.periodic ? "periodic" : "none";
  const char* const boundaries[3] = {boundary, boundary, boundary};
  attribute(box.get(), "boundary", stringType.get(), {3}, boundaries);
  // edges is H5MD's; offset (the box's lowest corner) is Murmur's, for a world not at the origin.
  const glm::vec3 edges = info.worldMax - info.worldMin;
  for (const auto& named : {std::pair{"edges", &edges}, std::pair{"offset", &info.worldMin}}) {
    const char* const name = named.first;
    const glm::vec3* const corner = named.second;  // clang 14 captures no structured binding
    const hsize_t three = 3;
    const Id space = open(what, H5Sclose, H5Screate_simple(1, &three, nullptr));
    Id data =
        open(what, H5Dclose,
             H5Dcreate2(box.get(), name, H5T_IEEE_F32LE, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    call(what, [&] { return H5Dwrite(data.get(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, corner); });
    call(what, [&] { return data.close(); });
  }

  // No chunk cache: each write goes to the file (and takes its space) in append.
  const Id uncached = open(what, H5Pclose, H5Pcreate(H5P_DATASET_ACCESS));
  call(what, [&] { return H5Pset_chunk_cache(uncached.get(), 0, 0, 1.0); });
  position = element(flock.get(), "position", H5T_IEEE_F32LE, true, uncached.get());
  velocity = element(flock.get(), "velocity", H5T_IEEE_F32LE, true, uncached.get());
  species = element(flock.get(), "species", H5T_STD_I32LE, false, uncached.get());
  leader = element(flock.get(), "leader", H5T_STD_U8LE, false, uncached.get());

  const Id parameters = group(file.get(), "parameters");
  stringAttribute(parameters.get(), "scene_path", info.scenePath);
  stringAttribute(parameters.get(), "build", info.build);
  stringAttribute(parameters.get(), "backend", info.backend);
  stringAttribute(parameters.get(), "device", info.device);
  attribute(parameters.get(), "dt", H5T_NATIVE_DOUBLE, {}, &info.dt);
  const std::int32_t worldDimension = info.twoD ? 2 : 3;  // 2: every y is 0
  attribute(parameters.get(), "world_dimension", H5T_NATIVE_INT32, {}, &worldDimension);
  {  // the scene's text, of any length, as a scalar string dataset
    const Id space = open(what, H5Sclose, H5Screate(H5S_SCALAR));
    Id scene = open(what, H5Dclose,
                    H5Dcreate2(parameters.get(), "scene", stringType.get(), space.get(), H5P_DEFAULT,
                               H5P_DEFAULT, H5P_DEFAULT));
    const char* const text = info.sceneText.c_str();
    call(what, [&] { return H5Dwrite(scene.get(), stringType.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, &text); });
    call(what, [&] { return scene.close(); });
  }

  const hsize_t n = boids, perBoid[2] = {n, 3};
  one = open(what, H5Sclose, H5Screate(H5S_SCALAR));
  vectors = open(what, H5Sclose, H5Screate_simple(2, perBoid, nullptr));
  scalars = open(what, H5Sclose, H5Screate_simple(1, perBoid, nullptr));
  groups.resize(boids);
}

// An extendible element: value of shape (frames, N, 3) when vector, else (frames, N), one frame a chunk.
Element TrajectoryWriter::Impl::element(hid_t particles, const char* name, hid_t fileType, bool vector,
                                        hid_t access) {
  const char* what = "writing the metadata";
  Element made{group(particles, name), {}};
  const int rank = vector ? 3 : 2;
  const hsize_t n = boids, width = vector ? 3 : 1;
  const hsize_t dims[3] = {0, n, 3}, maxDims[3] = {H5S_UNLIMITED, n > 0 ? n : H5S_UNLIMITED, 3};
  // Chunk dimensions must be positive (N = 0 too) and a chunk under 4 GiB.
  const hsize_t chunkBoids =
      std::clamp<hsize_t>(kMaxChunkBytes / (width * H5Tget_size(fileType)), 1, std::max<hsize_t>(n, 1));
  const hsize_t chunk[3] = {1, chunkBoids, 3};
  const Id space = open(what, H5Sclose, H5Screate_simple(rank, dims, maxDims));
  const Id create = open(what, H5Pclose, H5Pcreate(H5P_DATASET_CREATE));
  call(what, [&] { return H5Pset_chunk(create.get(), rank, chunk); });
  call(what, [&] { return H5Pset_fill_time(create.get(), H5D_FILL_TIME_NEVER); });  // every row is written
  made.value =
      open(what, H5Dclose,
           H5Dcreate2(made.group.get(), "value", fileType, space.get(), H5P_DEFAULT, create.get(), access));
  if (step.get() < 0) {  // the first element holds step and time, the others link to them
    const hsize_t none = 0, unlimited = H5S_UNLIMITED;
    const Id series = open(what, H5Sclose, H5Screate_simple(1, &none, &unlimited));
    const Id seriesCreate = open(what, H5Pclose, H5Pcreate(H5P_DATASET_CREATE));
    call(what, [&] { return H5Pset_chunk(seriesCreate.get(), 1, &kStepChunk); });
    step = open(what, H5Dclose,
                H5Dcreate2(made.group.get(), "step", H5T_STD_I64LE, series.get(), H5P_DEFAULT,
                           seriesCreate.get(), access));
    time = open(what, H5Dclose,
                H5Dcreate2(made.group.get(), "time", H5T_IEEE_F64LE, series.get(), H5P_DEFAULT,
                           seriesCreate.get(), access));
  } else {
    for (const char* link : {"step", "time"})
      call(what, [&] {
        return H5Lcreate_hard(position.group.get(), link, made.group.get(), link, H5P_DEFAULT, H5P_DEFAULT);
      });
  }
  return made;
}

// Extends dataset by one frame and writes it from memory, a space of the frame's shape.
void TrajectoryWriter::Impl::writeRow(hid_t dataset, int rank, hid_t memoryType, hid_t memory,
                                      const void* data) {
  const char* what = "writing a frame";
  const hsize_t frame = frames, n = boids;
  const hsize_t dims[3] = {frame + 1, n, 3}, start[3] = {frame, 0, 0}, count[3] = {1, n, 3};
  call(what, [&] { return H5Dset_extent(dataset, dims); });
  if (rank > 1 && n == 0) return;  // nothing to write
  const Id space = open(what, H5Sclose, H5Dget_space(dataset));
  call(what,
       [&] { return H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr); });
  call(what, [&] { return H5Dwrite(dataset, memoryType, memory, space.get(), H5P_DEFAULT, data); });
}

void TrajectoryWriter::Impl::append(std::uint64_t stepNumber, double seconds, const sim::FlockState& state) {
  if (failed || committed) throw std::logic_error("TrajectoryWriter::append after a failure or the commit");
  core::throwIfStopRequested();
  if (state.position.size() != boids || state.velocity.size() != boids || state.group.size() != boids ||
      state.leader.size() != boids)
    throw std::invalid_argument(fmt::format(
        "TrajectoryWriter::append: a state of {} boids in a trajectory of {}", state.size(), boids));
  if (stepNumber > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    throw std::invalid_argument("TrajectoryWriter::append: step beyond int64");
  for (std::size_t i = 0; i < boids; ++i) {
    if (state.group[i] > static_cast<std::uint32_t>(std::numeric_limits<std::int32_t>::max()))
      throw std::invalid_argument("TrajectoryWriter::append: group beyond int32");
    groups[i] = static_cast<std::int32_t>(state.group[i]);
  }
  const auto signedStep = static_cast<std::int64_t>(stepNumber);
  writeRow(step.get(), 1, H5T_NATIVE_INT64, one.get(), &signedStep);
  writeRow(time.get(), 1, H5T_NATIVE_DOUBLE, one.get(), &seconds);
  writeRow(position.value.get(), 3, H5T_NATIVE_FLOAT, vectors.get(), state.position.data());
  writeRow(velocity.value.get(), 3, H5T_NATIVE_FLOAT, vectors.get(), state.velocity.data());
  writeRow(species.value.get(), 2, H5T_NATIVE_INT32, scalars.get(), groups.data());
  writeRow(leader.value.get(), 2, H5T_NATIVE_UINT8, scalars.get(), state.leader.data());
  ++frames;
}

// Allocates the blocks of the whole file, written or not, so that the closes' writes (the metadata HDF5
// holds, all within the file's end of allocation) need no more space. A file system without fallocate
// (NFS 3) goes without.
void TrajectoryWriter::Impl::reserveBlocks() {
  const char* what = "reserving the file's space";
  haddr_t end = 0;
  void* handle = nullptr;
  call(what, [&] { return H5Fget_eoa(file.get(), &end); });
  call(what, [&] { return H5Fget_vfd_handle(file.get(), H5P_DEFAULT, &handle); });
  const int fd = *static_cast<int*>(handle);
  int result;
  do result = ::fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, static_cast<off_t>(end));
  while (result != 0 && errno == EINTR);
  if (result != 0 && errno != EOPNOTSUPP && errno != ENOSYS) fail(what, errno);
}

// Closes every id, the file last, each close checked: the metadata HDF5 holds is written here.
void TrajectoryWriter::Impl::close() {
  const char* what = "closing the file";
  reserveBlocks();
  for (Id* id : {&one, &vectors, &scalars, &stringType}) call(what, [&] { return id->close(); });
  for (Element* e : {&position, &velocity, &species, &leader}) {
    call(what, [&] { return e->value.close(); });
    call(what, [&] { return e->group.close(); });
  }
  call(what, [&] { return step.close(); });
  call(what, [&] { return time.close(); });
  call(what, [&] { return file.close(); });
}

TrajectoryWriter::TrajectoryWriter(std::string path, std::string option, const TrajectoryInfo& info,
                                   std::size_t boids)
    : impl_(std::make_unique<Impl>(path, std::move(option), boids)) {
  impl_->writeMetadata(info);
}

TrajectoryWriter::TrajectoryWriter(TrajectoryWriter&&) noexcept = default;
TrajectoryWriter& TrajectoryWriter::operator=(TrajectoryWriter&&) noexcept = default;
TrajectoryWriter::~TrajectoryWriter() = default;

void TrajectoryWriter::append(std::uint64_t step, double time, const sim::FlockState& state) {
  if (!impl_) throw std::logic_error("TrajectoryWriter::append on a moved-from writer");
  impl_->append(step, time, state);
}

std::uint64_t TrajectoryWriter::frames() const {
  return impl_ ? impl_->frames : 0;
}

void TrajectoryWriter::commit() {
  if (!impl_ || impl_->failed || impl_->committed)
    throw std::logic_error("TrajectoryWriter::commit after a failure, the commit or a move");
  core::throwIfStopRequested();
  impl_->close();
  impl_->output.commit();
  impl_->committed = true;
}

std::uint64_t TrajectoryWriter::estimateBytes(std::uint64_t boids, std::uint64_t frames) {
  // Fitted to files HDF5 1.10 writes: the metadata with the first step and time chunks; with boids, the
  // first node of each element's chunk index, then per frame the values and their share of the indexes.
  constexpr std::uint64_t kMetadata = 26 * 1024, kFirstIndexNodes = 11776, kBytesPerBoid = 2 * 12 + 4 + 1,
                          kIndexPerFrame = 220, kStepTimePerFrame = 16;
  if (boids == 0) return kMetadata + frames * kStepTimePerFrame;
  return kMetadata + kFirstIndexNodes + frames * (boids * kBytesPerBoid + kIndexPerFrame);
}

void TrajectoryWriter::checkSize(const std::string& path, const std::string& option, std::uint64_t boids,
                                 std::uint64_t frames, bool force) {
  if (force) return;
  const std::uint64_t bytes = estimateBytes(boids, frames);
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (dir.empty()) dir = ".";
  struct statvfs fs {};
  if (::statvfs(dir.c_str(), &fs) != 0) return;  // checkOutputFile names a missing directory
  const std::uint64_t free = std::uint64_t(fs.f_bavail) * fs.f_frsize;
  if (bytes > free)
    throw InputError(
        "", 0, option,
        fmt::format("the trajectory would take about {:.3g} GB ({} frames of {} boids), more than the "
                    "{:.3g} GB free where it goes: record fewer frames, fewer boids, or pass --force",
                    double(bytes) / 1e9, frames, boids, double(free) / 1e9));
}

}  // namespace murmur::record

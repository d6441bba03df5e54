// The trajectory writer: an H5MD 1.1 file read back with the HDF5 C API, value by value, and the output
// discipline (nothing at the path before the commit, no temporary left on any failure, a full disk).
#include <gtest/gtest.h>

#include <hdf5.h>
#include <sys/mount.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/output_path.hpp"
#include "record/trajectory.hpp"
#include "scratch_dir.hpp"

namespace murmur::record {
namespace {

namespace fs = std::filesystem;

TrajectoryInfo testInfo() {
  TrajectoryInfo info;
  info.scenePath = "scenes/test.toml";
  info.sceneText = "[world]\nsize = [100, 0, 50]\n# caf\xc3\xa9\n";
  info.build = "0.1.0-test";
  info.backend = "cpu";
  info.device = "CPU, 2 threads";
  info.dt = 1.0 / 60.0;
  info.worldMin = glm::vec3(-50.0f, -1.0f, -25.0f);
  info.worldMax = glm::vec3(50.0f, 1.0f, 25.0f);
  info.periodic = true;
  return info;
}

// Frame k of a hand-made flock: every value distinct, two groups, one leader.
sim::FlockState testState(std::size_t boids, int k) {
  sim::FlockState state;
  state.resize(boids);
  state.groups = 2;
  for (std::size_t i = 0; i < boids; ++i) {
    const auto f = static_cast<float>(i);
    state.position[i] = glm::vec3(f + 10.0f * static_cast<float>(k), -f, 0.5f * f + 0.25f);
    state.velocity[i] = glm::vec3(0.125f * f, static_cast<float>(k), -2.0f - f);
    state.group[i] = static_cast<std::uint32_t>(i % 2);
    state.leader[i] = i == static_cast<std::size_t>(k) ? 1 : 0;
  }
  return state;
}

// The temporaries (<path>.tmp-XXXXXX) and other entries in dir.
std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  return names;
}

std::string readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A file opened for reading, closed at the end of the scope.
class Reader {
 public:
  explicit Reader(const std::string& path) : id_(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT)) {}
  ~Reader() {
    if (id_ >= 0) H5Fclose(id_);
  }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;
  bool ok() const { return id_ >= 0; }

  // A dataset's whole contents as T (read through memType) and its shape.
  template <class T>
  std::vector<T> read(const char* path, hid_t memType, std::vector<hsize_t>& dims) const {
    const hid_t data = H5Dopen2(id_, path, H5P_DEFAULT);
    EXPECT_GE(data, 0) << path;
    const hid_t space = H5Dget_space(data);
    dims.assign(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)), 0);
    H5Sget_simple_extent_dims(space, dims.data(), nullptr);
    std::vector<T> values(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
    if (!values.empty()) {
      EXPECT_GE(H5Dread(data, memType, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
    }
    H5Sclose(space);
    H5Dclose(data);
    return values;
  }
  // A scalar or 1-D attribute's values as T.
  template <class T>
  std::vector<T> attribute(const char* object, const char* name, hid_t memType) const {
    const hid_t attr = H5Aopen_by_name(id_, object, name, H5P_DEFAULT, H5P_DEFAULT);
    EXPECT_GE(attr, 0) << object << " " << name;
    const hid_t space = H5Aget_space(attr);
    std::vector<T> values(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
    EXPECT_GE(H5Aread(attr, memType, values.data()), 0);
    H5Sclose(space);
    H5Aclose(attr);
    return values;
  }
  // A string attribute (variable-length UTF-8), each of its values.
  std::vector<std::string> strings(const char* object, const char* name) const {
    const hid_t type = stringType();
    std::vector<char*> raw = attribute<char*>(object, name, type);
    H5Tclose(type);
    return take(raw);
  }
  std::string stringDataset(const char* path) const {
    const hid_t type = stringType();
    const hid_t data = H5Dopen2(id_, path, H5P_DEFAULT);
    std::vector<char*> raw(1, nullptr);
    EXPECT_GE(H5Dread(data, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, raw.data()), 0);
    H5Dclose(data);
    H5Tclose(type);
    return take(raw).at(0);
  }

 private:
  static hid_t stringType() {
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    H5Tset_cset(type, H5T_CSET_UTF8);
    return type;
  }
  static std::vector<std::string> take(std::vector<char*>& raw) {
    std::vector<std::string> out;
    for (char* s : raw) {
      out.emplace_back(s != nullptr ? s : "");
      H5free_memory(s);
    }
    return out;
  }
  hid_t id_;
};

TEST(TrajectoryWriter, WritesThreeFramesInTheH5mdLayout) {
  const fs::path dir = test::scratchDir("trajectory_layout");
  const std::string path = (dir / "run.h5").string();
  constexpr std::size_t kBoids = 5;
  {
    TrajectoryWriter writer(path, "--record", testInfo(), kBoids);
    for (int k = 0; k < 3; ++k)
      writer.append(100 + 10 * static_cast<std::uint64_t>(k), 0.5 * k, testState(kBoids, k));
    EXPECT_EQ(writer.frames(), 3u);
    EXPECT_FALSE(fs::exists(path));  // only the temporary until the commit
    EXPECT_EQ(entries(dir).size(), 1u);
    writer.commit();
    EXPECT_TRUE(fs::exists(path));
  }
  EXPECT_EQ(entries(dir), std::vector<std::string>{"run.h5"});

  const Reader file(path);
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(file.attribute<std::int32_t>("h5md", "version", H5T_NATIVE_INT32),
            (std::vector<std::int32_t>{1, 1}));
  EXPECT_EQ(file.strings("h5md/author", "name"), std::vector<std::string>{"Murmur"});
  EXPECT_EQ(file.strings("h5md/creator", "name"), std::vector<std::string>{"murmur"});
  EXPECT_EQ(file.strings("h5md/creator", "version"), std::vector<std::string>{"0.1.0-test"});

  EXPECT_EQ(file.attribute<std::int32_t>("particles/flock/box", "dimension", H5T_NATIVE_INT32),
            std::vector<std::int32_t>{3});
  EXPECT_EQ(file.strings("particles/flock/box", "boundary"),
            (std::vector<std::string>{"periodic", "periodic", "periodic"}));
  std::vector<hsize_t> dims;
  EXPECT_EQ(file.read<float>("particles/flock/box/edges", H5T_NATIVE_FLOAT, dims),
            (std::vector<float>{100.0f, 2.0f, 50.0f}));
  EXPECT_EQ(dims, std::vector<hsize_t>{3});
  EXPECT_EQ(file.read<float>("particles/flock/box/offset", H5T_NATIVE_FLOAT, dims),
            (std::vector<float>{-50.0f, -1.0f, -25.0f}));

  const TrajectoryInfo info = testInfo();
  EXPECT_EQ(file.strings("parameters", "scene_path"), std::vector<std::string>{info.scenePath});
  EXPECT_EQ(file.stringDataset("parameters/scene"), info.sceneText);
  EXPECT_EQ(file.strings("parameters", "build"), std::vector<std::string>{info.build});
  EXPECT_EQ(file.strings("parameters", "backend"), std::vector<std::string>{"cpu"});
  EXPECT_EQ(file.strings("parameters", "device"), std::vector<std::string>{"CPU, 2 threads"});
  EXPECT_EQ(file.attribute<double>("parameters", "dt", H5T_NATIVE_DOUBLE), std::vector<double>{info.dt});
  EXPECT_EQ(file.attribute<std::int32_t>("parameters", "world_dimension", H5T_NATIVE_INT32),
            std::vector<std::int32_t>{3});

  for (const char* element : {"position", "velocity", "species", "leader"}) {
    SCOPED_TRACE(element);
    const std::string group = std::string("particles/flock/") + element;
    EXPECT_EQ(file.read<std::int64_t>((group + "/step").c_str(), H5T_NATIVE_INT64, dims),
              (std::vector<std::int64_t>{100, 110, 120}));
    EXPECT_EQ(dims, std::vector<hsize_t>{3});
    EXPECT_EQ(file.read<double>((group + "/time").c_str(), H5T_NATIVE_DOUBLE, dims),
              (std::vector<double>{0.0, 0.5, 1.0}));
  }
  const auto position = file.read<float>("particles/flock/position/value", H5T_NATIVE_FLOAT, dims);
  EXPECT_EQ(dims, (std::vector<hsize_t>{3, kBoids, 3}));
  const auto velocity = file.read<float>("particles/flock/velocity/value", H5T_NATIVE_FLOAT, dims);
  EXPECT_EQ(dims, (std::vector<hsize_t>{3, kBoids, 3}));
  const auto species = file.read<std::int32_t>("particles/flock/species/value", H5T_NATIVE_INT32, dims);
  EXPECT_EQ(dims, (std::vector<hsize_t>{3, kBoids}));
  const auto leader = file.read<std::uint8_t>("particles/flock/leader/value", H5T_NATIVE_UINT8, dims);
  EXPECT_EQ(dims, (std::vector<hsize_t>{3, kBoids}));
  ASSERT_EQ(position.size(), 3 * kBoids * 3);
  ASSERT_EQ(leader.size(), 3 * kBoids);
  for (int k = 0; k < 3; ++k) {
    const sim::FlockState state = testState(kBoids, k);
    for (std::size_t i = 0; i < kBoids; ++i) {
      const std::size_t row = static_cast<std::size_t>(k) * kBoids + i;
      for (int c = 0; c < 3; ++c) {
        EXPECT_EQ(position[row * 3 + c], state.position[i][c]) << k << " " << i << " " << c;
        EXPECT_EQ(velocity[row * 3 + c], state.velocity[i][c]) << k << " " << i << " " << c;
      }
      EXPECT_EQ(species[row], static_cast<std::int32_t>(state.group[i]));
      EXPECT_EQ(leader[row], state.leader[i]);
    }
  }
}

TEST(TrajectoryWriter, ZeroBoidsMakeAValidFile) {
  const fs::path dir = test::scratchDir("trajectory_empty");
  const std::string path = (dir / "empty.h5").string();
  TrajectoryInfo info = testInfo();
  info.periodic = false;
  info.twoD = true;
  TrajectoryWriter writer(path, "--record", info, 0);
  writer.append(0, 0.0, sim::FlockState{});
  writer.append(1, 0.25, sim::FlockState{});
  writer.commit();
  const Reader file(path);
  ASSERT_TRUE(file.ok());
  std::vector<hsize_t> dims;
  EXPECT_TRUE(file.read<float>("particles/flock/position/value", H5T_NATIVE_FLOAT, dims).empty());
  EXPECT_EQ(dims, (std::vector<hsize_t>{2, 0, 3}));
  EXPECT_TRUE(file.read<std::uint8_t>("particles/flock/leader/value", H5T_NATIVE_UINT8, dims).empty());
  EXPECT_EQ(dims, (std::vector<hsize_t>{2, 0}));
  EXPECT_EQ(file.read<std::int64_t>("particles/flock/leader/step", H5T_NATIVE_INT64, dims),
            (std::vector<std::int64_t>{0, 1}));
  EXPECT_EQ(file.strings("particles/flock/box", "boundary"),
            (std::vector<std::string>{"none", "none", "none"}));
  EXPECT_EQ(file.attribute<std::int32_t>("parameters", "world_dimension", H5T_NATIVE_INT32),
            std::vector<std::int32_t>{2});
}

TEST(TrajectoryWriter, WithoutCommitLeavesTheOlderFileAndNoTemporary) {
  const fs::path dir = test::scratchDir("trajectory_abandoned");
  const fs::path path = dir / "run.h5";
  std::ofstream(path) << "older";
  {
    TrajectoryWriter writer(path.string(), "--record", testInfo(), 5);
    writer.append(0, 0.0, testState(5, 0));
    TrajectoryWriter moved = std::move(writer);  // the moved-to writer owns the temporary
    moved.append(1, 0.1, testState(5, 1));
    EXPECT_EQ(entries(dir).size(), 2u);
  }
  EXPECT_EQ(entries(dir), std::vector<std::string>{"run.h5"});
  EXPECT_EQ(readText(path), "older");
  EXPECT_EQ(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL), 0);  // every id closed
}

TEST(TrajectoryWriter, CommitReplacesTheOlderFile) {
  const fs::path dir = test::scratchDir("trajectory_replace");
  const fs::path path = dir / "run.h5";
  std::ofstream(path) << "older";
  TrajectoryWriter writer(path.string(), "--record", testInfo(), 2);
  writer.append(0, 0.0, testState(2, 0));
  writer.commit();
  EXPECT_EQ(entries(dir), std::vector<std::string>{"run.h5"});
  EXPECT_GT(H5Fis_hdf5(path.c_str()), 0);
}

TEST(TrajectoryWriter, AStateOfAnotherSizeIsRefused) {
  const fs::path dir = test::scratchDir("trajectory_mismatch");
  TrajectoryWriter writer((dir / "run.h5").string(), "--record", testInfo(), 5);
  EXPECT_THROW(writer.append(0, 0.0, testState(4, 0)), std::invalid_argument);
  sim::FlockState shortVelocity = testState(5, 0);
  shortVelocity.velocity.pop_back();
  EXPECT_THROW(writer.append(0, 0.0, shortVelocity), std::invalid_argument);
  writer.append(0, 0.0, testState(5, 0));  // a refused state wrote nothing
  EXPECT_EQ(writer.frames(), 1u);
}

TEST(TrajectoryWriter, ABadPathIsAnInputErrorNamingTheOption) {
  const fs::path dir = test::scratchDir("trajectory_bad_path");
  try {
    TrajectoryWriter writer((dir / "missing" / "run.h5").string(), "--record", testInfo(), 5);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--record"), std::string::npos) << e.what();
  }
  EXPECT_THROW(TrajectoryWriter(dir.string(), "--record", testInfo(), 5), InputError);  // a directory
}

TEST(TrajectoryWriter, AStopLeavesNoTemporary) {
  const fs::path dir = test::scratchDir("trajectory_stop");
  const fs::path path = dir / "run.h5";
  std::ofstream(path) << "older";
  for (const bool inCommit : {false, true}) {
    SCOPED_TRACE(inCommit);
    {
      TrajectoryWriter writer(path.string(), "--record", testInfo(), 5);
      writer.append(0, 0.0, testState(5, 0));
      core::requestStop(SIGTERM);
      if (inCommit) {
        EXPECT_THROW(writer.commit(), StopRequested);
      } else {
        EXPECT_THROW(writer.append(1, 0.1, testState(5, 1)), StopRequested);
      }
      core::requestStop(0);
    }
    EXPECT_EQ(entries(dir), std::vector<std::string>{"run.h5"});
    EXPECT_EQ(readText(path), "older");
    EXPECT_EQ(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL), 0);
  }
}

// A 64 KiB tmpfs fills up while frames are written (in append) or while the file is closed (in commit):
// an OutputError naming the path, the option and the cause, and nothing left: no file, no temporary, no
// HDF5 id (HDF5 1.10 leaks a file whose close failed), no open descriptor (the tmpfs unmounts).
TEST(TrajectoryWriter, FullDiskLeavesNoFile) {
  const fs::path dir = test::scratchDir("trajectory_full") / "mnt";
  fs::create_directories(dir);
  ASSERT_EQ(::mount("tmpfs", dir.c_str(), "tmpfs", 0, "size=64k"), 0)
      << "cannot mount a tmpfs (needs root): " << std::strerror(errno);
  const std::string path = (dir / "run.h5").string();
  bool failedInAppend = false, failedInCommit = false;
  const std::pair<std::size_t, int> cases[] = {{1000, 100}, {5, 10},  {5, 50},  {5, 60},  {5, 70},
                                               {5, 80},     {5, 100}, {5, 150}, {5, 300}, {0, 3000}};
  for (const auto& [boids, frames] : cases) {
    SCOPED_TRACE(testing::Message() << boids << " boids, " << frames << " frames");
    std::string message;
    bool appended = false;
    try {
      TrajectoryWriter writer(path, "--record", testInfo(), boids);
      for (int k = 0; k < frames; ++k)
        writer.append(static_cast<std::uint64_t>(k), 0.1 * k, testState(boids, k));
      appended = true;
      writer.commit();
    } catch (const OutputError& e) {
      message = e.what();
    }
    EXPECT_EQ(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL), 0);
    if (message.empty()) {  // it fitted
      EXPECT_GT(H5Fis_hdf5(path.c_str()), 0);
      EXPECT_EQ(entries(dir), std::vector<std::string>{"run.h5"});
      fs::remove(path);
      continue;
    }
    (appended ? failedInCommit : failedInAppend) = true;
    EXPECT_NE(message.find(path + ": --record: cannot write the trajectory: " + std::strerror(ENOSPC)),
              std::string::npos)
        << message;
    EXPECT_TRUE(entries(dir).empty());
  }
  EXPECT_TRUE(failedInAppend);
  EXPECT_TRUE(failedInCommit);
  const int unmounted = ::umount(dir.c_str());
  EXPECT_EQ(unmounted, 0) << "a file is still open: " << std::strerror(errno);
  if (unmounted != 0) ::umount2(dir.c_str(), MNT_DETACH);
}

TEST(TrajectoryWriter, EstimateIsWithinAFifthOfTheSize) {
  const fs::path dir = test::scratchDir("trajectory_estimate");
  const std::string path = (dir / "run.h5").string();
  TrajectoryWriter writer(path, "--record", testInfo(), 1000);
  for (int k = 0; k < 20; ++k) writer.append(static_cast<std::uint64_t>(k), 0.1 * k, testState(1000, k));
  writer.commit();
  const auto size = static_cast<double>(fs::file_size(path));
  const auto estimate = static_cast<double>(TrajectoryWriter::estimateBytes(1000, 20));
  EXPECT_NEAR(estimate / size, 1.0, 0.2) << "estimate " << estimate << ", size " << size;
}

// The size check before a run: a trajectory larger than the free space where it goes is refused,
// naming the option, the estimate and the way past it; --force passes; one that fits passes.
TEST(TrajectoryWriter, CheckSizeRefusesWhatTheDiskCannotHold) {
  const fs::path dir = test::scratchDir("trajectory_size") / "mnt";
  fs::create_directories(dir);
  ASSERT_EQ(::mount("tmpfs", dir.c_str(), "tmpfs", 0, "size=1m"), 0)
      << "cannot mount a tmpfs (needs root): " << std::strerror(errno);
  const std::string path = (dir / "run.h5").string();
  try {
    TrajectoryWriter::checkSize(path, "--record", 10000, 100, false);  // about 29 MB
    ADD_FAILURE() << "29 MB accepted on a 1 MiB filesystem";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "--record");
    EXPECT_NE(std::string(e.what()).find("100 frames of 10000 boids"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--force"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(TrajectoryWriter::checkSize(path, "--record", 10000, 100, true));
  EXPECT_NO_THROW(TrajectoryWriter::checkSize(path, "--record", 100, 10, false));
  EXPECT_TRUE(entries(dir).empty());
  EXPECT_EQ(::umount(dir.c_str()), 0) << std::strerror(errno);
}

}  // namespace
}  // namespace murmur::record

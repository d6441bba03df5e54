// The Python module murmur._murmur: pybind11 over the public API (murmur/murmur.hpp) alone. The flock's
// arrays are numpy views of the library's memory, each holding the simulation and a holdViews() token.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <murmur/murmur.hpp>

namespace py = pybind11;

namespace {

// Groups a state may hold (murmur.hpp, setState).
constexpr std::int64_t kGroupLimit = murmur::kMaxGroups;

// The exception types, made once at import and kept for the process (the module holds them too).
PyObject* errorType = nullptr;
PyObject* inputErrorType = nullptr;
PyObject* outputErrorType = nullptr;
PyObject* outOfMemoryErrorType = nullptr;
PyObject* deviceErrorType = nullptr;
PyObject* stateErrorType = nullptr;
PyObject* stopRequestedType = nullptr;

// Text from the library as str: bytes that are not UTF-8 (a path) become U+FFFD rather than an error.
py::str text(std::string_view s) {
  PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
  if (o == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(o);
}

std::string strOf(py::handle h) {
  return py::str(h).cast<std::string>();
}

// A path argument (str, bytes or os.PathLike) as the file system's bytes.
std::string fsPath(py::handle path) {
  return py::module_::import("os").attr("fsencode")(path).cast<std::string>();
}

PyObject* newException(py::module_& m, const char* name, const py::tuple& bases, const char* doc) {
  const std::string qualified = std::string("murmur.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
  if (type == nullptr) throw py::error_already_set();
  m.add_object(name, type);  // the module's reference; ours is never released
  return type;
}

void raise(PyObject* type, const std::exception& e) {
  py::object error = py::reinterpret_borrow<py::object>(type)(text(e.what()));
  PyErr_SetObject(type, error.ptr());
}

void translate(std::exception_ptr p) {
  try {
    if (p) std::rethrow_exception(p);
  } catch (const murmur::InputError& e) {
    py::object error = py::reinterpret_borrow<py::object>(inputErrorType)(text(e.what()));
    error.attr("file") = text(e.file());
    error.attr("line") = e.line();
    error.attr("key") = text(e.key());
    PyErr_SetObject(inputErrorType, error.ptr());
  } catch (const murmur::OutputError& e) {
    raise(outputErrorType, e);
  } catch (const murmur::OutOfMemoryError& e) {
    raise(outOfMemoryErrorType, e);
  } catch (const murmur::DeviceError& e) {
    raise(deviceErrorType, e);
  } catch (const murmur::StateError& e) {
    raise(stateErrorType, e);
  } catch (const murmur::StopRequested& e) {
    py::object error = py::reinterpret_borrow<py::object>(stopRequestedType)(text(e.what()));
    error.attr("signal") = e.signal();
    PyErr_SetObject(stopRequestedType, error.ptr());
  } catch (const murmur::Error& e) {
    raise(errorType, e);
  }
}

// ---- the log hook: one Python callable for the process, called with the GIL from any thread.
PyObject* logCallback = nullptr;     // a strong reference while set
std::atomic<bool> logActive{false};  // false from interpreter exit on: no Python object is touched then

void logTrampoline(std::string_view message) noexcept {
  if (!logActive.load()) return;
  try {
    py::gil_scoped_acquire gil;
    if (logCallback == nullptr) return;
    // Our own reference: the callback may call set_log() and drop the module's.
    py::object callback = py::reinterpret_borrow<py::object>(logCallback);
    try {
      callback(text(message));
    } catch (py::error_already_set& e) {
      e.discard_as_unraisable("murmur.set_log callback");
    }
  } catch (...) {  // nothing may reach the library
  }
}

void clearLog() {
  logActive = false;
  murmur::setLogFcn(nullptr);
  PyObject* old = std::exchange(logCallback, nullptr);
  Py_XDECREF(old);
}

void setLog(const py::object& callback) {
  if (callback.is_none()) return clearLog();
  if (PyCallable_Check(callback.ptr()) == 0)
    throw py::type_error("set_log takes a callable (message: str) -> None or None, got " +
                         strOf(py::type::of(callback)));
  PyObject* old = std::exchange(logCallback, callback.inc_ref().ptr());
  Py_XDECREF(old);
  logActive = true;
  murmur::setLogFcn(&logTrampoline);
}

// ---- the simulation, with a lock: the library's Simulation is used from one thread at a time.
struct PySim {
  explicit PySim(murmur::Simulation&& s) : sim(std::move(s)) {}
  murmur::Simulation sim;
  std::mutex mutex;
  std::atomic<std::thread::id> owner{};
};

// One call's hold on a simulation. The mutex is waited for with the GIL released (the lock is always
// taken before the GIL: a step holding it may call the log hook, which takes the GIL).
class Use {
 public:
  explicit Use(PySim& s) : s_(s), lock_(s.mutex, std::try_to_lock) {
    if (!lock_.owns_lock()) {
      if (s.owner.load() == std::this_thread::get_id())
        throw std::runtime_error("the simulation is already in a call on this thread (a log callback?)");
      py::gil_scoped_release release;
      lock_.lock();
    }
    s.owner = std::this_thread::get_id();
  }
  Use(const Use&) = delete;
  Use& operator=(const Use&) = delete;
  ~Use() { s_.owner = std::thread::id(); }

 private:
  PySim& s_;
  std::unique_lock<std::mutex> lock_;
};

std::int64_t atLeast(std::int64_t value, std::int64_t minimum, const char* name) {
  if (value < minimum)
    throw py::value_error(std::string(name) + " must be >= " + std::to_string(minimum) + ", got " +
                          std::to_string(value));
  return value;
}

murmur::Options makeOptions(std::optional<std::int64_t> boids, const std::string& backend,
                            std::optional<std::int64_t> seed, std::int64_t threads, std::int64_t device,
                            const py::object& dataDirs) {
  murmur::Options options;
  options.backend = murmur::backendFromName(backend);
  if (boids) options.boids = atLeast(*boids, 0, "boids");
  if (seed) options.seed = atLeast(*seed, 0, "seed");
  atLeast(threads, 0, "threads");
  atLeast(device, -1, "device");
  if (threads > std::numeric_limits<int>::max() || device > std::numeric_limits<int>::max())
    throw py::value_error("threads and device must fit an int");
  options.threads = static_cast<int>(threads);
  options.device = static_cast<int>(device);
  if (py::isinstance<py::str>(dataDirs) || py::isinstance<py::bytes>(dataDirs) ||
      py::hasattr(dataDirs, "__fspath__"))
    throw py::type_error("data_dirs must be a sequence of paths, not one path");
  for (py::handle dir : dataDirs) options.dataDirectories.push_back(fsPath(dir));
  return options;
}

std::unique_ptr<PySim> create(const std::string& source, bool toml, const std::string& name,
                              const murmur::Options& options) {
  py::gil_scoped_release release;  // a gpu backend builds its programs here
  if (toml) return std::make_unique<PySim>(murmur::Simulation::fromToml(source, options, name));
  return std::make_unique<PySim>(murmur::Simulation::fromScene(source, options));
}

// n steps, in calls of about 50 ms with the GIL released: Ctrl-C (KeyboardInterrupt) is seen between
// them, the steps done before it stay done.
void step(PySim& s, std::int64_t n) {
  atLeast(n, 0, "n");
  Use use(s);
  std::uint64_t left = static_cast<std::uint64_t>(n), chunk = 1;
  while (left > 0) {
    const std::uint64_t now = std::min(left, chunk);
    const auto start = std::chrono::steady_clock::now();
    {
      py::gil_scoped_release release;
      s.sim.step(now);
    }
    left -= now;
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (seconds < 0.025)
      chunk *= 2;
    else if (seconds > 0.1 && chunk > 1)
      chunk /= 2;
  }
}

// What a view array holds: the Python simulation and the token that keeps the memory unchanged.
struct HeldView {
  py::object sim;
  std::shared_ptr<const void> token;
};

template <class E>
py::array view(const py::object& self, std::span<const E> (murmur::Simulation::*read)(),
               const py::dtype& dtype, bool vectors) {
  PySim& s = self.cast<PySim&>();
  std::span<const E> data;
  std::shared_ptr<const void> token;
  {
    Use use(s);
    py::gil_scoped_release release;  // a gpu backend downloads the flock at the first read after a step
    data = (s.sim.*read)();
    token = s.sim.holdViews();
  }
  auto held = std::make_unique<HeldView>(HeldView{self, std::move(token)});
  py::capsule base(held.get(), [](void* p) { delete static_cast<HeldView*>(p); });
  held.release();
  const auto n = static_cast<py::ssize_t>(data.size());
  std::vector<py::ssize_t> shape = vectors ? std::vector<py::ssize_t>{n, 3} : std::vector<py::ssize_t>{n};
  py::array out(dtype, shape, std::vector<py::ssize_t>{}, n > 0 ? data.data() : nullptr, base);
  out.attr("flags").attr("writeable") = false;
  return out;
}

// ---- inputs: numpy arrays checked before the library sees them.
py::array asarray(py::handle value) {
  return py::module_::import("numpy").attr("asarray")(value);
}

// An (N, 3) float32 C-contiguous copy-if-needed of `value`: real floating dtypes (and integers where
// `integers`) converted, anything else a ValueError.
py::array_t<float, py::array::c_style> vectors(py::handle value, const std::string& name, bool integers,
                                               bool finite) {
  py::array a = asarray(value);
  const char kind = a.dtype().kind();
  const std::string expected = name + " must be a float32 array of shape (N, 3), got ";
  if (!(kind == 'f' || (integers && (kind == 'i' || kind == 'u'))))
    throw py::value_error(expected + strOf(a.dtype()));
  if (a.ndim() != 2 || a.shape(1) != 3) throw py::value_error(expected + "shape " + strOf(a.attr("shape")));
  py::array_t<float, py::array::c_style> out =
      py::array_t<float, py::array::c_style | py::array::forcecast>(a);
  const float* p = out.data();
  for (py::ssize_t i = 0; finite && i < out.shape(0); ++i)
    if (!std::isfinite(p[3 * i]) || !std::isfinite(p[3 * i + 1]) || !std::isfinite(p[3 * i + 2]))
      throw py::value_error(name + "[" + std::to_string(i) + "] is not finite" +
                            (a.dtype().itemsize() == 4 ? "" : " as float32") + ": " +
                            strOf(out.attr("__getitem__")(i)));
  return out;
}

std::span<const murmur::Vec3> asVec3(const py::array_t<float, py::array::c_style>& a) {
  return {reinterpret_cast<const murmur::Vec3*>(a.data()), static_cast<std::size_t>(a.shape(0))};
}

std::vector<std::uint32_t> groupArray(py::handle value, py::ssize_t n) {
  py::array a = asarray(value);
  const char kind = a.dtype().kind();
  const std::string expected = "groups must be an integer array of shape (" + std::to_string(n) + ",), got ";
  if (kind != 'i' && kind != 'u') throw py::value_error(expected + strOf(a.dtype()));
  if (a.ndim() != 1 || a.shape(0) != n) throw py::value_error(expected + "shape " + strOf(a.attr("shape")));
  std::vector<std::uint32_t> out(static_cast<std::size_t>(n));
  auto check = [&](py::ssize_t i, bool ok, const std::string& shown) {
    if (!ok)
      throw py::value_error("groups[" + std::to_string(i) + "] is " + shown + ": groups must be in [0, " +
                            std::to_string(kGroupLimit) + ")");
  };
  if (kind == 'u') {
    py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast> g(a);
    for (py::ssize_t i = 0; i < n; ++i) {
      check(i, g.data()[i] < std::uint64_t(kGroupLimit), std::to_string(g.data()[i]));
      out[std::size_t(i)] = std::uint32_t(g.data()[i]);
    }
  } else {
    py::array_t<std::int64_t, py::array::c_style | py::array::forcecast> g(a);
    for (py::ssize_t i = 0; i < n; ++i) {
      check(i, g.data()[i] >= 0 && g.data()[i] < kGroupLimit, std::to_string(g.data()[i]));
      out[std::size_t(i)] = std::uint32_t(g.data()[i]);
    }
  }
  return out;
}

void setState(PySim& s, py::handle positions, py::handle velocities, py::handle groups) {
  const auto p = vectors(positions, "positions", false, true);
  const auto v = vectors(velocities, "velocities", false, true);
  if (v.shape(0) != p.shape(0))
    throw py::value_error("velocities must have the shape of positions (" + std::to_string(p.shape(0)) +
                          ", 3), got (" + std::to_string(v.shape(0)) + ", 3)");
  const std::vector<std::uint32_t> g = groupArray(groups, p.shape(0));
  Use use(s);
  py::gil_scoped_release release;
  s.sim.setState(asVec3(p), asVec3(v), g);
}

std::uint32_t groupIndex(std::int64_t group) {
  atLeast(group, 0, "group");
  if (group > std::int64_t(std::numeric_limits<std::uint32_t>::max()))
    throw py::value_error("group is too large");
  return static_cast<std::uint32_t>(group);
}

void setGoal(PySim& s, std::int64_t group, const py::object& point) {
  std::optional<murmur::Vec3> goal;
  if (!point.is_none()) {
    py::array a = asarray(point);
    const char kind = a.dtype().kind();
    if (!(kind == 'f' || kind == 'i' || kind == 'u') || a.ndim() != 1 || a.shape(0) != 3)
      throw py::value_error("point must be 3 numbers (x, y, z) or None, got " + strOf(point));
    py::array_t<float, py::array::c_style | py::array::forcecast> f(a);
    goal = murmur::Vec3{f.data()[0], f.data()[1], f.data()[2]};
  }
  const std::uint32_t g = groupIndex(group);
  Use use(s);
  s.sim.setGoal(g, goal);
}

void setPredators(PySim& s, py::handle points) {
  py::array a = asarray(points);
  std::vector<murmur::Vec3> none;
  std::optional<py::array_t<float, py::array::c_style>> p;
  if (a.size() != 0 || a.ndim() != 1) p = vectors(a, "points", true, false);  // [] is no predator
  Use use(s);
  s.sim.setPredators(p ? asVec3(*p) : std::span<const murmur::Vec3>(none));
}

py::tuple tuple3(murmur::Vec3 v) {
  return py::make_tuple(v.x, v.y, v.z);
}

py::dict measure(PySim& s) {
  murmur::Measures m;
  {
    Use use(s);
    py::gil_scoped_release release;
    m = s.sim.measure();
  }
  py::list groups;
  for (const murmur::GroupMeasure& g : m.groups) {
    py::dict d;
    d["boids"] = g.boids;
    d["leaders"] = g.leaders;
    d["centroid"] = tuple3(g.centroid);
    d["mean_velocity"] = tuple3(g.meanVelocity);
    groups.append(d);
  }
  py::dict d;
  d["local_polarization"] = m.localPolarization;
  d["mean_speed"] = m.meanSpeed;
  d["min_speed"] = m.minSpeed;
  d["max_speed"] = m.maxSpeed;
  d["mean_nearest_distance"] = m.meanNearestDistance;
  d["min_pair_distance"] = m.minPairDistance;
  d["nearest_along_heading"] = m.nearestAlongHeading;
  d["non_finite"] = m.nonFinite;
  d["flocks"] = m.flocks;
  d["largest_fraction"] = m.largestFraction;
  d["polarization"] = m.polarization;
  d["extents"] = py::make_tuple(m.extents[0], m.extents[1], m.extents[2]);
  d["thinness"] = m.thinness;
  d["width_ratio"] = m.widthRatio;
  d["thin_axis_tilt"] = m.thinAxisTilt;
  d["groups"] = groups;
  return d;
}

py::list agents(PySim& s) {
  std::vector<murmur::AgentState> states;
  {
    Use use(s);
    states = s.sim.agents();
  }
  py::list out;
  for (const murmur::AgentState& a : states) {
    py::dict d;
    d["name"] = text(a.name);
    d["kind"] = text(a.kind);
    d["state"] = text(a.state);
    d["group"] = a.group;
    d["position"] = tuple3(a.position);
    d["velocity"] = tuple3(a.velocity);
    out.append(d);
  }
  return out;
}

// The frame as an (H, W, 4) uint8 array that owns the library's vector (moved, not copied).
py::array render(PySim& s, int width, int height) {
  auto pixels = std::make_unique<std::vector<std::uint8_t>>();
  {
    Use use(s);
    py::gil_scoped_release release;
    *pixels = s.sim.render(width, height);
  }
  const std::size_t expected = std::size_t(std::max(width, 0)) * std::size_t(std::max(height, 0)) * 4;
  if (pixels->size() != expected)
    throw std::runtime_error("render returned " + std::to_string(pixels->size()) + " bytes, not " +
                             std::to_string(expected));
  std::uint8_t* data = pixels->data();
  py::capsule base(pixels.get(), [](void* p) { delete static_cast<std::vector<std::uint8_t>*>(p); });
  pixels.release();
  return py::array_t<std::uint8_t>({py::ssize_t(height), py::ssize_t(width), py::ssize_t(4)}, data, base);
}

py::list paramTable() {
  py::list rows;
  for (const murmur::ParamInfo& p : murmur::params()) {
    py::dict d;
    d["key"] = text(p.key);
    d["default"] = p.defaultValue;
    d["minimum"] = p.minimum;
    d["minimum_included"] = p.minimumIncluded;
    d["maximum"] = p.maximum;
    d["unit"] = text(p.unit);
    d["meaning"] = text(p.meaning);
    rows.append(d);
  }
  return rows;
}

// ---- sim.params: a mapping of every parameter, bound to its simulation.
const std::vector<std::string>& paramKeys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    for (const murmur::ParamInfo& p : murmur::params()) out.push_back(p.key);
    return out;
  }();
  return keys;
}

struct Params {
  py::object sim;
  PySim& s() const { return sim.cast<PySim&>(); }
};

std::string paramKey(const py::object& key) {
  if (!py::isinstance<py::str>(key)) throw py::key_error(strOf(py::repr(key)));
  return key.cast<std::string>();
}

// The value of `key`; KeyError for a key the library does not know (the table's, or any other it takes).
float paramValue(PySim& s, const std::string& key) {
  Use use(s);
  try {
    return s.sim.param(key);
  } catch (const murmur::InputError&) {
    throw py::key_error("no such parameter '" + key + "' (murmur.params() lists them)");
  }
}

void setParamValue(PySim& s, const py::object& keyObject, const py::object& value) {
  const std::string key = paramKey(keyObject);
  paramValue(s, key);  // KeyError first
  // A real number; text and bools (True is no radius) are refused rather than read as 1.
  const bool refused =
      py::isinstance<py::str>(value) || py::isinstance<py::bytes>(value) || py::isinstance<py::bool_>(value);
  const double number = refused ? -1.0 : PyFloat_AsDouble(value.ptr());
  if (refused || (number == -1.0 && PyErr_Occurred() != nullptr)) {
    PyErr_Clear();
    throw py::type_error("parameter '" + key + "' must be a number, got " +
                         strOf(py::type::of(value).attr("__name__")));
  }
  Use use(s);
  s.sim.setParam(key, static_cast<float>(number));
}

py::list paramItems(const Params& p) {
  py::list out;
  for (const std::string& key : paramKeys()) out.append(py::make_tuple(key, paramValue(p.s(), key)));
  return out;
}

}  // namespace

PYBIND11_MODULE(_murmur, m) {
  m.doc() = "Murmur's flock simulation (the C++ library murmur/murmur.hpp) for Python.";

  // ---- errors
  errorType = newException(m, "Error", py::make_tuple(py::handle(PyExc_RuntimeError)),
                           "Every error Murmur raises for an expected outcome; the message is one line.");
  const py::handle error(errorType);
  inputErrorType = newException(m, "InputError", py::make_tuple(error, py::handle(PyExc_ValueError)),
                                "Bad input (a scene, a state, a parameter value, a path): attributes file, "
                                "line (0: none) and key name where it is.");
  outputErrorType = newException(
      m, "OutputError", py::make_tuple(error, py::handle(PyExc_OSError)),
      "An output that passed its checks could not be written (a full disk); nothing partial is left.");
  outOfMemoryErrorType =
      newException(m, "OutOfMemoryError", py::make_tuple(error, py::handle(PyExc_MemoryError)),
                   "Reading an input file ran out of memory.");
  deviceErrorType =
      newException(m, "DeviceError", py::make_tuple(error),
                   "No usable GPU: no OpenGL 4.3 context on the device asked for, or none at all.");
  stateErrorType =
      newException(m, "StateError", py::make_tuple(error), "The flock went non-finite (NaN or inf).");
  stopRequestedType = newException(
      m, "StopRequested", py::make_tuple(error, py::handle(PyExc_KeyboardInterrupt)),
      "The work was stopped by SIGINT or SIGTERM between steps (attribute signal); a KeyboardInterrupt too.");
  py::register_exception_translator(&translate);

  // ---- the log hook, cleared at interpreter exit so that no Python object is touched after it
  m.def("set_log", &setLog, py::arg("callback"),
        "Receives what Murmur would print (what backend='auto' chose and why, GL debug messages): "
        "callback(message: str), called from any thread with the GIL; None: nothing. Exceptions in it are "
        "reported as unraisable and dropped. It must not call the simulation that is logging.");
  py::module_::import("atexit").attr("register")(py::cpp_function([] { clearLog(); }));

  m.def("scenes", &murmur::scenes, "The shipped scenes' names ('free', 'murmuration', ...), sorted.");
  m.def("params", &paramTable,
        "The model's parameters in docs/model.md's order: dicts {key, default, minimum, minimum_included, "
        "maximum (inf: no limit), unit, meaning}.");
  m.def("version", &murmur::version, "The build's version and commit, '0.1.0 (abc1234)'.");

  // ---- sim.params
  py::class_<Params>(m, "Params",
                     "Every model parameter of one simulation by docs/model.md's dotted key, as float; "
                     "assignment is validated as the scene is (murmur.InputError naming the key and the "
                     "range) and applies from the next step.")
      .def(
          "__getitem__",
          [](const Params& p, const py::object& key) { return paramValue(p.s(), paramKey(key)); },
          py::arg("key"))
      .def(
          "__setitem__",
          [](const Params& p, const py::object& key, const py::object& value) {
            setParamValue(p.s(), key, value);
          },
          py::arg("key"), py::arg("value"))
      .def(
          "get",
          [](const Params& p, const py::object& key, const py::object& fallback) -> py::object {
            if (!py::isinstance<py::str>(key)) return fallback;
            try {
              return py::float_(paramValue(p.s(), key.cast<std::string>()));
            } catch (const py::key_error&) {
              return fallback;
            }
          },
          py::arg("key"), py::arg("default") = py::none(),
          "The value of key, or default where there is none.")
      .def(
          "keys", [](const Params&) { return paramKeys(); }, "The keys, in docs/model.md's order.")
      .def(
          "values",
          [](const Params& p) {
            py::list out;
            for (const std::string& key : paramKeys()) out.append(paramValue(p.s(), key));
            return out;
          },
          "The values, in the keys' order.")
      .def("items", &paramItems, "(key, value) pairs, in docs/model.md's order.")
      .def("__iter__", [](const Params&) { return py::iter(py::cast(paramKeys())); })
      .def("__len__", [](const Params&) { return paramKeys().size(); })
      .def("__contains__",
           [](const Params& p, const py::object& key) {
             if (!py::isinstance<py::str>(key)) return false;
             const std::string k = key.cast<std::string>();
             if (std::find(paramKeys().begin(), paramKeys().end(), k) != paramKeys().end()) return true;
             try {
               paramValue(p.s(), k);
               return true;
             } catch (const py::key_error&) {
               return false;
             }
           })
      .def("__repr__", [](const Params& p) { return "Params(" + strOf(py::dict(paramItems(p))) + ")"; });

  // ---- the simulation
  py::class_<PySim>(m, "Simulation",
                    "A flock simulation made from a scene, stepped on a backend, read in place. One call at "
                    "a time: a call from another thread waits for the running one.")
      .def(py::init([](const py::object& scene, std::optional<std::int64_t> boids, const std::string& backend,
                       std::optional<std::int64_t> seed, std::int64_t threads, std::int64_t device,
                       const py::object& dataDirs) {
             const murmur::Options options = makeOptions(boids, backend, seed, threads, device, dataDirs);
             return create(fsPath(scene), false, "", options);
           }),
           py::arg("scene"), py::kw_only(), py::arg("boids") = py::none(), py::arg("backend") = "auto",
           py::arg("seed") = py::none(), py::arg("threads") = 0, py::arg("device") = -1,
           py::arg("data_dirs") = py::tuple(),
           "scene: a shipped scene's name (murmur.scenes()), a scene file's path or TOML text. boids: the "
           "flock's size instead of the scene's; backend: 'cpu', 'cpu-naive', 'gpu', 'gpu-exact' or 'auto'; "
           "seed: the spawn seed instead of the scene's; threads: CPU threads (0: one per hardware thread); "
           "device: the EGL device for a gpu backend (-1: the first that works); data_dirs: where a scene's "
           "relative data paths are looked for after its own directory. murmur.InputError on bad input, "
           "murmur.DeviceError when a gpu backend has no device.")
      .def_static(
          "from_toml",
          [](const std::string& textSource, std::optional<std::int64_t> boids, const std::string& backend,
             std::optional<std::int64_t> seed, std::int64_t threads, std::int64_t device,
             const py::object& dataDirs, const std::string& name) {
            const murmur::Options options = makeOptions(boids, backend, seed, threads, device, dataDirs);
            return create(textSource, true, name, options);
          },
          py::arg("text"), py::kw_only(), py::arg("boids") = py::none(), py::arg("backend") = "auto",
          py::arg("seed") = py::none(), py::arg("threads") = 0, py::arg("device") = -1,
          py::arg("data_dirs") = py::tuple(), py::arg("name") = "<toml>",
          "A simulation of a scene given as TOML text; name stands for the file in messages, relative data "
          "paths are looked for in data_dirs. The other keywords as Simulation's.")
      .def("step", &step, py::arg("n") = 1,
           "n steps of the scene's dt (agents, then boids), the GIL released. A recording takes its frames. "
           "murmur.StateError at the first non-finite step; on Ctrl-C the steps done stay done.")
      .def(
          "reset",
          [](PySim& s) {
            Use use(s);
            py::gil_scoped_release release;
            s.sim.reset();
          },
          "The initial flock again (as spawned or as set_state gave it), the agents at their start.")
      .def(
          "respawn",
          [](PySim& s, std::int64_t count) {
            atLeast(count, 0, "count");
            if (count > std::int64_t(std::numeric_limits<std::uint32_t>::max()))
              throw py::value_error("count is too large");
            Use use(s);
            py::gil_scoped_release release;
            s.sim.respawn(static_cast<std::uint32_t>(count));
          },
          py::arg("count"), "A new flock of count boids spawned as the scene says.")
      .def("set_state", &setState, py::arg("positions"), py::arg("velocities"), py::arg("groups"),
           "A flock from memory, as `murmur run --init` reads it: positions and velocities (N, 3) float32 "
           "(float64 converted; world units, units a second), groups (N,) integers in [0, 1024), finite, "
           "inside the world box. It becomes the initial flock. ValueError (or murmur.InputError) naming the "
           "problem; nothing changes then.")
      .def_property_readonly(
          "positions",
          [](const py::object& self) {
            return view(self, &murmur::Simulation::positions, py::dtype::of<float>(), true);
          },
          "(N, 3) float32, world units, id order: a read-only view that keeps this step's values (and the "
          "simulation) while it lives.")
      .def_property_readonly(
          "velocities",
          [](const py::object& self) {
            return view(self, &murmur::Simulation::velocities, py::dtype::of<float>(), true);
          },
          "(N, 3) float32, units a second, id order: a read-only view as positions.")
      .def_property_readonly(
          "groups",
          [](const py::object& self) {
            return view(self, &murmur::Simulation::groups, py::dtype::of<std::uint32_t>(), false);
          },
          "(N,) uint32: each boid's group, a read-only view as positions.")
      .def_property_readonly(
          "leaders",
          [](const py::object& self) {
            return view(self, &murmur::Simulation::leaders, py::dtype::of<bool>(), false);
          },
          "(N,) bool: the emergent leaders of the last step, a read-only view as positions.")
      .def_property_readonly(
          "params", [](const py::object& self) { return Params{self}; },
          "The parameters as a mapping (murmur.Params): sim.params['perception.neighbours'] = 5.")
      .def("measure", &measure,
           "The measures of `murmur run --json` (docs/model.md, Measures): local_polarization, "
           "mean/min/max_speed (units/s), mean_nearest_distance, min_pair_distance (world units), "
           "nearest_along_heading (mean |cos| of the nearest neighbour's bearing), "
           "non_finite, flocks, largest_fraction, polarization, extents (standard deviations along the "
           "largest flock's principal axes, world units, "
           "longest first), thinness, width_ratio, thin_axis_tilt (degrees), groups (dicts {boids, leaders, "
           "centroid, mean_velocity}).")
      .def("agents", &agents,
           "The scene's agents: dicts {name, kind ('leader', 'predator', 'player'), state, group, position, "
           "velocity}.")
      .def("render", &render, py::arg("width"), py::arg("height"),
           "The frame `murmur demo --headless` draws, (height, width, 4) uint8 RGBA, rows from the top; "
           "sides 16..16384 pixels. Needs OpenGL (murmur.DeviceError without). The GIL is released.")
      .def(
          "save_frame",
          [](PySim& s, const py::object& path, int width, int height) {
            const std::string p = fsPath(path);
            Use use(s);
            py::gil_scoped_release release;
            s.sim.saveFrame(p, width, height);
          },
          py::arg("path"), py::arg("width") = 1280, py::arg("height") = 720,
          "The frame as a PNG file, written atomically (murmur.OutputError on failure, nothing left); its "
          "text chunks name the scene, seed, step, backend, boid count and commit.")
      .def(
          "save_scene",
          [](PySim& s, const py::object& path) {
            const std::string p = fsPath(path);
            Use use(s);
            s.sim.saveScene(p);
          },
          py::arg("path"),
          "The scene as it runs (its params as set, the count, the seed) as a scene file, written "
          "atomically: Simulation(path) starts the same flock under the same model.")
      .def(
          "record",
          [](PySim& s, const py::object& path, std::int64_t every) {
            const std::string p = fsPath(path);
            atLeast(every, 1, "every");
            Use use(s);
            py::gil_scoped_release release;
            s.sim.record(p, static_cast<std::uint64_t>(every));
          },
          py::arg("path"), py::arg("every") = 1,
          "Records the flock into an HDF5 file (H5MD 1.1): this state first, then every `every` steps. The "
          "file appears at path when stop_recording() (or the simulation's end) commits it.")
      .def(
          "stop_recording",
          [](PySim& s) {
            Use use(s);
            py::gil_scoped_release release;
            s.sim.stopRecording();
          },
          "Commits the recording (nothing when none runs).")
      .def(
          "set_goal", [](PySim& s, std::int64_t group, const py::object& point) { setGoal(s, group, point); },
          py::arg("group"), py::arg("point"),
          "Group's goal point (x, y, z), world units, or None; until the flock restarts. A scene's agents "
          "overwrite what they steer.")
      .def("set_predators", &setPredators, py::arg("points"),
           "The predators' points, (M, 3) world units ([]: none); until the flock restarts.")
      .def_property_readonly(
          "steps",
          [](PySim& s) {
            Use use(s);
            return s.sim.steps();
          },
          "Steps since the flock (re)started.")
      .def_property_readonly(
          "time",
          [](PySim& s) {
            Use use(s);
            return s.sim.time();
          },
          "Simulated seconds since the flock (re)started.")
      .def_property_readonly(
          "backend",
          [](PySim& s) {
            Use use(s);
            return text(s.sim.backend());
          },
          "The backend: 'cpu', 'cpu-naive', 'gpu', 'gpu-exact'.")
      .def_property_readonly(
          "device",
          [](PySim& s) {
            Use use(s);
            return text(s.sim.device());
          },
          "What runs it: 'CPU, 2 threads' or the GL renderer.")
      .def_property_readonly(
          "scene_path",
          [](PySim& s) {
            Use use(s);
            return text(s.sim.scenePath());
          },
          "The scene file (or the name given to TOML text).")
      .def_property_readonly(
          "group_count",
          [](PySim& s) {
            Use use(s);
            return s.sim.groupCount();
          },
          "The flock's groups.")
      .def(
          "__len__",
          [](PySim& s) {
            Use use(s);
            return s.sim.size();
          },
          "Boids.")
      .def("__repr__", [](PySim& s) {
        Use use(s);
        return "<murmur.Simulation " + strOf(py::repr(text(s.sim.scenePath()))) + ": " +
               std::to_string(s.sim.size()) + " boids on " + s.sim.backend() + ", step " +
               std::to_string(s.sim.steps()) + ">";
      });
  // murmur.Simulation rather than murmur._murmur.Simulation in reprs and pickles' lookups.
  for (const char* name : {"Simulation", "Params"}) m.attr(name).attr("__module__") = "murmur";
}

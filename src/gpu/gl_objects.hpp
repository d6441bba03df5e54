#pragma once
// Move-only owners of OpenGL objects (direct state access, OpenGL 4.5 or
// GL_ARB_direct_state_access), in the spirit of Fwog: each constructor creates the object, the
// destructor deletes it, and nothing is ever bound behind the caller's back except where a
// function says so. They need the context they were made in to be current. Each takes a label that
// names it in debuggers, profilers (RenderDoc, Nsight) and GL debug messages (labelObject).
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <glad/gl.h>

namespace murmur::gpu {

// The owned GL name with its deleter; 0 is "no object".
template <void (*Delete)(GLuint)>
class GlName {
 public:
  GlName() = default;
  explicit GlName(GLuint id) : id_(id) {}
  GlName(GlName&& other) noexcept : id_(std::exchange(other.id_, 0)) {}
  GlName& operator=(GlName&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, 0);
    }
    return *this;
  }
  GlName(const GlName&) = delete;
  GlName& operator=(const GlName&) = delete;
  ~GlName() { reset(); }

  GLuint get() const { return id_; }
  explicit operator bool() const { return id_ != 0; }

 private:
  void reset() {
    if (id_ != 0) Delete(id_);
    id_ = 0;
  }
  GLuint id_ = 0;
};

namespace detail {
inline void deleteBuffer(GLuint id) {
  glDeleteBuffers(1, &id);
}
inline void deleteProgram(GLuint id) {
  glDeleteProgram(id);
}
inline void deleteVertexArray(GLuint id) {
  glDeleteVertexArrays(1, &id);
}
inline void deleteTexture(GLuint id) {
  glDeleteTextures(1, &id);
}
inline void deleteFramebuffer(GLuint id) {
  glDeleteFramebuffers(1, &id);
}
inline void deleteQuery(GLuint id) {
  glDeleteQueries(1, &id);
}
}  // namespace detail

// Names a GL object (glObjectLabel: core in GL 4.3, or KHR_debug; nothing without either).
// identifier: GL_BUFFER, GL_PROGRAM, GL_TEXTURE, GL_FRAMEBUFFER, GL_QUERY, GL_VERTEX_ARRAY, ...
inline void labelObject(GLenum identifier, GLuint id, std::string_view label) {
  if (id == 0 || !(GLAD_GL_VERSION_4_3 || GLAD_GL_KHR_debug)) return;
  glObjectLabel(identifier, id, static_cast<GLsizei>(label.size()), label.data());
}

// The label of a GL object (glGetObjectLabel); empty when it has none or labels are not supported.
inline std::string objectLabel(GLenum identifier, GLuint id) {
  if (id == 0 || !(GLAD_GL_VERSION_4_3 || GLAD_GL_KHR_debug)) return {};
  GLsizei length = 0;
  glGetObjectLabel(identifier, id, 0, &length, nullptr);
  std::string label(static_cast<std::size_t>(length) + 1, '\0');
  glGetObjectLabel(identifier, id, static_cast<GLsizei>(label.size()), &length, label.data());
  label.resize(static_cast<std::size_t>(length));
  return label;
}

// Calls that make the CPU wait for the GPU (a buffer or image read, a query result not yet
// available, a wait on a fence the GPU has not passed yet; Murmur never calls glFinish) go through
// the wrappers here and are counted, per thread (a GL context is current on one thread), so that
// tests can assert where they happen: a step has none.
inline std::uint64_t& blockingWaitCount() {
  thread_local std::uint64_t count = 0;
  return count;
}
inline void countBlockingWait() {
  ++blockingWaitCount();
}

// Compute dispatches issued through dispatchCompute(), per thread as blockingWaitCount(): tests
// count a step's passes with it.
inline std::uint64_t& dispatchCount() {
  thread_local std::uint64_t count = 0;
  return count;
}

// Immutable storage of a fixed byte size (glNamedBufferStorage). Typed helpers copy spans of
// trivially copyable T in and out; offsets and counts are in elements of T.
class Buffer {
 public:
  Buffer() = default;
  // GL_DYNAMIC_STORAGE_BIT lets upload() write it; a size of 0 still makes a (tiny) buffer so that
  // it can be bound. Allocation failure shows as GL_OUT_OF_MEMORY (see checkAllocation()).
  Buffer(std::string_view label, std::size_t bytes, GLbitfield flags = GL_DYNAMIC_STORAGE_BIT,
         const void* data = nullptr)
      : size_(bytes) {
    GLuint id = 0;
    glCreateBuffers(1, &id);
    name_ = GlName<detail::deleteBuffer>(id);
    glNamedBufferStorage(id, static_cast<GLsizeiptr>(bytes > 0 ? bytes : 16), data, flags);
    labelObject(GL_BUFFER, id, label);
  }
  template <class T>
  static Buffer fromSpan(std::string_view label, std::span<const T> data,
                         GLbitfield flags = GL_DYNAMIC_STORAGE_BIT) {
    static_assert(std::is_trivially_copyable_v<T>);
    return Buffer(label, data.size_bytes(), flags, data.empty() ? nullptr : data.data());
  }

  GLuint id() const { return name_.get(); }
  std::size_t size() const { return size_; }
  explicit operator bool() const { return static_cast<bool>(name_); }

  template <class T>
  void upload(std::span<const T> data, std::size_t firstElement = 0) const {
    static_assert(std::is_trivially_copyable_v<T>);
    if (data.empty()) return;
    assert((firstElement + data.size()) * sizeof(T) <= size_);
    glNamedBufferSubData(id(), static_cast<GLintptr>(firstElement * sizeof(T)),
                         static_cast<GLsizeiptr>(data.size_bytes()), data.data());
  }
  template <class T>
  void download(std::span<T> out, std::size_t firstElement = 0) const {
    static_assert(std::is_trivially_copyable_v<T>);
    if (out.empty()) return;
    assert((firstElement + out.size()) * sizeof(T) <= size_);
    countBlockingWait();
    glGetNamedBufferSubData(id(), static_cast<GLintptr>(firstElement * sizeof(T)),
                            static_cast<GLsizeiptr>(out.size_bytes()), out.data());
  }
  template <class T>
  std::vector<T> download(std::size_t count, std::size_t firstElement = 0) const {
    std::vector<T> out(count);
    download(std::span<T>(out), firstElement);
    return out;
  }
  // The whole buffer mapped for reading for as long as it lives (glMapNamedBufferRange with
  // GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT: it must have been made with those and
  // GL_MAP_READ_BIT). What the GPU writes shows there once a fence after the write has passed
  // (Fence); deleting the buffer unmaps it. Null for an empty buffer or when mapping fails.
  const std::byte* mapForReading() const {
    if (size_ == 0) return nullptr;
    return static_cast<const std::byte*>(
        glMapNamedBufferRange(id(), 0, static_cast<GLsizeiptr>(size_),
                              GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT));
  }
  // Every 32-bit word of the buffer set to value.
  void fill(std::uint32_t value) const {
    glClearNamedBufferData(id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &value);
  }
  void bindBase(GLenum target, GLuint index) const { glBindBufferBase(target, index, id()); }
  void bindRange(GLenum target, GLuint index, std::size_t offsetBytes, std::size_t bytes) const {
    glBindBufferRange(target, index, id(), static_cast<GLintptr>(offsetBytes),
                      static_cast<GLsizeiptr>(bytes));
  }

 private:
  GlName<detail::deleteBuffer> name_;
  std::size_t size_ = 0;
};

// A linked program (made by ShaderLibrary, which owns compiling and error reporting).
class Program {
 public:
  Program() = default;
  Program(GLuint id, std::string_view label) : name_(id) { labelObject(GL_PROGRAM, id, label); }

  GLuint id() const { return name_.get(); }
  explicit operator bool() const { return static_cast<bool>(name_); }
  void use() const { glUseProgram(id()); }
  // The binding points of the storage blocks the linked program really uses (its active ones,
  // as the driver reports them), in the driver's order.
  std::vector<GLuint> storageBindings() const {
    GLint blocks = 0;
    glGetProgramInterfaceiv(id(), GL_SHADER_STORAGE_BLOCK, GL_ACTIVE_RESOURCES, &blocks);
    std::vector<GLuint> bindings;
    for (GLint i = 0; i < blocks; ++i) {
      const GLenum property = GL_BUFFER_BINDING;
      GLint binding = 0;
      glGetProgramResourceiv(id(), GL_SHADER_STORAGE_BLOCK, static_cast<GLuint>(i), 1, &property, 1, nullptr,
                             &binding);
      bindings.push_back(static_cast<GLuint>(binding));
    }
    return bindings;
  }

 private:
  GlName<detail::deleteProgram> name_;
};

// The constants of a dispatch or a draw, in a small std140 uniform block: the shaders declare no
// loose uniforms, so that the same sources also compile as Vulkan GLSL (scripts/shader-stats.sh).
// set() writes the block and binds it at its binding point for the next dispatch or draw.
template <class T>
class UniformBlock {
 public:
  UniformBlock(std::string_view label, GLuint binding) : buffer_(label, sizeof(T)), binding_(binding) {}
  void set(const T& value) const {
    static_assert(std::is_trivially_copyable_v<T>);
    buffer_.upload(std::span<const T>(&value, 1));
    buffer_.bindBase(GL_UNIFORM_BUFFER, binding_);
  }

 private:
  Buffer buffer_;
  GLuint binding_;
};

class VertexArray {
 public:
  explicit VertexArray(std::string_view label) {
    GLuint id = 0;
    glCreateVertexArrays(1, &id);
    name_ = GlName<detail::deleteVertexArray>(id);
    labelObject(GL_VERTEX_ARRAY, id, label);
  }
  GLuint id() const { return name_.get(); }
  void bind() const { glBindVertexArray(id()); }

 private:
  GlName<detail::deleteVertexArray> name_;
};

// A 2D texture with immutable storage.
class Texture {
 public:
  Texture() = default;
  Texture(std::string_view label, GLenum internalFormat, GLsizei width, GLsizei height, GLsizei levels = 1)
      : width_(width), height_(height) {
    GLuint id = 0;
    glCreateTextures(GL_TEXTURE_2D, 1, &id);
    name_ = GlName<detail::deleteTexture>(id);
    glTextureStorage2D(id, levels, internalFormat, width, height);
    labelObject(GL_TEXTURE, id, label);
  }
  GLuint id() const { return name_.get(); }
  GLsizei width() const { return width_; }
  GLsizei height() const { return height_; }

 private:
  GlName<detail::deleteTexture> name_;
  GLsizei width_ = 0;
  GLsizei height_ = 0;
};

class Framebuffer {
 public:
  explicit Framebuffer(std::string_view label) {
    GLuint id = 0;
    glCreateFramebuffers(1, &id);
    name_ = GlName<detail::deleteFramebuffer>(id);
    labelObject(GL_FRAMEBUFFER, id, label);
  }
  GLuint id() const { return name_.get(); }
  void attach(GLenum attachment, const Texture& texture, GLint level = 0) const {
    glNamedFramebufferTexture(id(), attachment, texture.id(), level);
  }
  bool complete() const {
    return glCheckNamedFramebufferStatus(id(), GL_DRAW_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  }
  void bind() const { glBindFramebuffer(GL_FRAMEBUFFER, id()); }

 private:
  GlName<detail::deleteFramebuffer> name_;
};

class Query {
 public:
  Query() = default;
  Query(std::string_view label, GLenum target) {
    GLuint id = 0;
    glCreateQueries(target, 1, &id);
    name_ = GlName<detail::deleteQuery>(id);
    labelObject(GL_QUERY, id, label);
  }
  GLuint id() const { return name_.get(); }
  // Never waits.
  bool available() const {
    GLint ready = GL_FALSE;
    glGetQueryObjectiv(id(), GL_QUERY_RESULT_AVAILABLE, &ready);
    return ready == GL_TRUE;
  }
  // Waits for the result (a counted blocking wait unless it is available already).
  std::uint64_t result() const {
    if (!available()) countBlockingWait();
    GLuint64 value = 0;
    glGetQueryObjectui64v(id(), GL_QUERY_RESULT, &value);
    return value;
  }

 private:
  GlName<detail::deleteQuery> name_;
};

// A fence in the command stream (glFenceSync): it passes once the GPU has finished every command
// recorded before it. passed() asks without waiting; wait() waits, a counted blocking wait when the
// GPU has not passed it yet.
class Fence {
 public:
  Fence() = default;
  // A fence after everything recorded so far.
  static Fence afterRecordedWork() {
    Fence fence;
    fence.sync_ = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    return fence;
  }
  Fence(Fence&& other) noexcept : sync_(std::exchange(other.sync_, nullptr)) {}
  Fence& operator=(Fence&& other) noexcept {
    if (this != &other) {
      reset();
      sync_ = std::exchange(other.sync_, nullptr);
    }
    return *this;
  }
  Fence(const Fence&) = delete;
  Fence& operator=(const Fence&) = delete;
  ~Fence() { reset(); }

  explicit operator bool() const { return sync_ != nullptr; }
  // Never waits. The flush bit sends the fence to the GPU if it is still in the driver's queue (a
  // fence never flushed may never pass). A failed wait (a lost context) counts as passed: there is
  // nothing to wait for.
  bool passed() const {
    if (sync_ == nullptr) return true;
    return glClientWaitSync(sync_, GL_SYNC_FLUSH_COMMANDS_BIT, 0) != GL_TIMEOUT_EXPIRED;
  }
  void wait() const {
    if (passed()) return;
    countBlockingWait();
    while (glClientWaitSync(sync_, GL_SYNC_FLUSH_COMMANDS_BIT, kWaitSliceNs) == GL_TIMEOUT_EXPIRED) {
    }
  }

 private:
  static constexpr GLuint64 kWaitSliceNs = 1'000'000'000;
  void reset() {
    if (sync_ != nullptr) glDeleteSync(sync_);
    sync_ = nullptr;
  }
  GLsync sync_ = nullptr;
};

// A named region in debuggers and profilers (RenderDoc, Nsight): glPushDebugGroup ... glPopDebugGroup.
class DebugGroup {
 public:
  explicit DebugGroup(std::string_view name) {
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, static_cast<GLsizei>(name.size()), name.data());
  }
  DebugGroup(const DebugGroup&) = delete;
  DebugGroup& operator=(const DebugGroup&) = delete;
  ~DebugGroup() { glPopDebugGroup(); }
};

// Work groups for `invocations` threads of `groupSize`, spread over y when x would pass the
// device's limit (GL guarantees only 65535 per axis). Shaders recover the linear index with
// globalInvocationIndex() of shaders/common/Dispatch.glsl and return past the end.
struct DispatchSize {
  GLuint x = 0, y = 1;
  std::uint64_t groups() const { return std::uint64_t(x) * y; }
};

inline DispatchSize dispatchSize(std::uint64_t invocations, std::uint32_t groupSize, int maxGroupsX) {
  const std::uint64_t groups = (invocations + groupSize - 1) / groupSize;
  const auto limit = static_cast<std::uint64_t>(maxGroupsX);
  if (groups <= limit) return {static_cast<GLuint>(groups), 1};
  return {static_cast<GLuint>(limit), static_cast<GLuint>((groups + limit - 1) / limit)};
}

// Runs program (made current here) over `invocations` threads; nothing for 0.
inline void dispatchCompute(const Program& program, std::uint64_t invocations, std::uint32_t groupSize,
                            int maxGroupsX) {
  if (invocations == 0) return;
  program.use();
  const DispatchSize size = dispatchSize(invocations, groupSize, maxGroupsX);
  glDispatchCompute(size.x, size.y, 1);
  ++dispatchCount();
}

// The GL error flag, cleared. Allocation checks use it once per allocation, never per step.
inline GLenum takeGlError() {
  const GLenum first = glGetError();
  // Several flags may be set; a lost context reports forever, hence the bound.
  for (int i = 0; i < 8 && glGetError() != GL_NO_ERROR; ++i) {
  }
  return first;
}

}  // namespace murmur::gpu

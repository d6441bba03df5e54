#include "gpu/shader_library.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>

#include "gpu/error.hpp"

namespace murmur::gpu {
namespace {

constexpr std::string_view kRoot = "shaders/";
// File k of a program is numbered from k * kLineStride + 1 on (and is source string k): Mesa
// reports some errors inside included code with source string 0, so the line alone must tell.
constexpr std::size_t kLineStride = 100000;

std::string displayName(std::string_view name) {
  return std::string(kRoot) + std::string(name);
}

std::optional<std::string> readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    lines.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return lines;
}

// `#include "path"` -> path; anything else -> nullopt.
std::optional<std::string> includeTarget(std::string_view line) {
  static const std::regex pattern(R"re(^\s*#\s*include\s+"([^"]+)"\s*(//.*)?$)re");
  std::match_results<std::string_view::const_iterator> match;
  if (!std::regex_match(line.begin(), line.end(), match, pattern)) return std::nullopt;
  return match[1].str();
}

bool isVersionLine(std::string_view line) {
  static const std::regex pattern(R"(^\s*#\s*version\b.*)");
  return std::regex_match(line.begin(), line.end(), pattern);
}

class Preprocessor {
 public:
  explicit Preprocessor(const ShaderLibrary& library) : library_(library) {}

  PreprocessedShader run(std::string_view name, const Defines& defines) {
    out_.files.push_back(std::string(name));
    const std::string text = library_.load(name);
    const std::vector<std::string_view> lines = splitLines(text);
    if (lines.empty() || !isVersionLine(lines[0]))
      throw ShaderError(displayName(name) + ":1: error: the first line must be #version", displayName(name),
                        1);
    out_.text += std::string(lines[0]) + "\n";
    for (const auto& [key, value] : defines) out_.text += "#define " + key + " " + value + "\n";
    emit(lines, 1, 0);
    return std::move(out_);
  }

 private:
  // Appends lines[first...] of the file numbered `file`, expanding includes.
  void emit(const std::vector<std::string_view>& lines, std::size_t first, std::size_t file) {
    lineDirective(first + 1, file);
    for (std::size_t i = first; i < lines.size(); ++i) {
      const std::optional<std::string> target = includeTarget(lines[i]);
      if (!target) {
        out_.text += std::string(lines[i]) + "\n";
        continue;
      }
      const std::string where = displayName(out_.files[file]) + ":" + std::to_string(i + 1);
      if (std::find(out_.files.begin(), out_.files.end(), *target) == out_.files.end()) {
        std::string included;
        try {
          included = library_.load(*target);
        } catch (const ShaderError&) {
          throw ShaderError(where + ": error: cannot include \"" + *target + "\": no such shader",
                            displayName(out_.files[file]), i + 1);
        }
        out_.files.push_back(*target);
        emit(splitLines(included), 0, out_.files.size() - 1);
      }
      // Back in this file: the next line is i + 2 (1-based).
      lineDirective(i + 2, file);
    }
  }

  // The next line is line `line` of file number `file`.
  void lineDirective(std::size_t line, std::size_t file) {
    out_.text += "#line " + std::to_string(file * kLineStride + line) + " " + std::to_string(file) + "\n";
  }

  const ShaderLibrary& library_;
  PreprocessedShader out_;
};

// The info log of a shader (glGetShaderiv, glGetShaderInfoLog) or a program (glGetProgramiv,
// glGetProgramInfoLog), up to its terminating NUL.
template <class GetParameter, class GetLog>
std::string infoLog(GLuint object, GetParameter getParameter, GetLog getLog) {
  GLint logLength = 0;
  getParameter(object, GL_INFO_LOG_LENGTH, &logLength);
  std::string log(static_cast<std::size_t>(std::max(logLength, 1)), '\0');
  getLog(object, logLength, nullptr, log.data());
  log.resize(std::strlen(log.c_str()));
  return log;
}

GLuint compileStage(GLenum stage, const PreprocessedShader& source) {
  const GLuint shader = glCreateShader(stage);
  const char* text = source.text.c_str();
  const auto length = static_cast<GLint>(source.text.size());
  glShaderSource(shader, 1, &text, &length);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok == GL_TRUE) return shader;
  const std::string log = infoLog(shader, glGetShaderiv, glGetShaderInfoLog);
  glDeleteShader(shader);
  std::string message = rewriteShaderLog(log, source.files);
  // The location of the first error, for ShaderError::file()/line().
  static const std::regex location(R"((shaders/[^:\s]+):(\d+):)");
  std::smatch match;
  std::string file = displayName(source.files[0]);
  std::size_t line = 0;
  if (std::regex_search(message, match, location)) {
    file = match[1].str();
    line = std::stoul(match[2].str());
  }
  if (message.empty()) message = displayName(source.files[0]) + ": error: compilation failed (no log)";
  throw ShaderError(message, file, line);
}

Program link(const std::vector<GLuint>& shaders, const std::string& what) {
  const GLuint program = glCreateProgram();
  for (GLuint shader : shaders) glAttachShader(program, shader);
  glLinkProgram(program);
  for (GLuint shader : shaders) {
    glDetachShader(program, shader);
    glDeleteShader(shader);
  }
  GLint ok = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (ok == GL_TRUE) return Program(program, what);
  std::string log = infoLog(program, glGetProgramiv, glGetProgramInfoLog);
  glDeleteProgram(program);
  while (!log.empty() && (log.back() == '\n' || log.back() == ' ')) log.pop_back();
  throw ShaderError(what + ": link error: " + log, what, 0);
}

// Deletes compiled stages if a later stage fails to compile.
class StageList {
 public:
  StageList() = default;
  StageList(const StageList&) = delete;
  StageList& operator=(const StageList&) = delete;
  ~StageList() {
    for (GLuint shader : shaders_) glDeleteShader(shader);
  }
  void add(GLuint shader) { shaders_.push_back(shader); }
  std::vector<GLuint> release() { return std::exchange(shaders_, {}); }

 private:
  std::vector<GLuint> shaders_;
};

}  // namespace

std::string rewriteShaderLog(std::string_view log, const std::vector<std::string>& files) {
  // Mesa "0:12(5): error: ...", NVIDIA "0(12) : error C1008: ...", AMD/Intel "ERROR: 0:12: ...".
  static const std::regex mesa(R"(^(\d+):(\d+)\((\d+)\):\s*(.*)$)");
  static const std::regex nvidia(R"(^(\d+)\((\d+)\)\s*:\s*(.*)$)");
  static const std::regex khronos(R"(^(ERROR|WARNING):\s*(\d+):(\d+):\s*(.*)$)");
  // "file:line" of a reported (source, line): the line alone tells the file (see kLineStride).
  auto where = [&files](const std::string& source, const std::string& line) {
    const std::size_t number = std::stoul(line);
    const std::size_t k = number / kLineStride;
    if (k < files.size()) return displayName(files[k]) + ":" + std::to_string(number % kLineStride);
    return "source " + source + ":" + line;
  };
  std::string out;
  for (std::string_view raw : splitLines(log)) {
    std::string line(raw);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty()) continue;
    std::smatch m;
    if (std::regex_match(line, m, mesa)) {
      line = where(m[1], m[2]) + ": " + m[4].str();
    } else if (std::regex_match(line, m, nvidia)) {
      line = where(m[1], m[2]) + ": " + m[3].str();
    } else if (std::regex_match(line, m, khronos)) {
      std::string kind = m[1].str() == "ERROR" ? "error" : "warning";
      line = where(m[2], m[3]) + ": " + kind + ": " + m[4].str();
    }
    out += (out.empty() ? "" : "\n") + line;
  }
  return out;
}

std::string ShaderLibrary::load(std::string_view name) const {
  if (overrideDir_)
    if (std::optional<std::string> text = readFile(*overrideDir_ / std::filesystem::path(name))) return *text;
  const auto& table = embeddedShaders();
  const auto it = std::lower_bound(table.begin(), table.end(), name,
                                   [](const auto& entry, std::string_view key) { return entry.first < key; });
  if (it != table.end() && it->first == name) return std::string(it->second);
  throw ShaderError(
      displayName(name) + ": error: no such shader" +
          (overrideDir_ ? " (looked in " + overrideDir_->string() + " and the embedded ones)" : ""),
      displayName(name), 0);
}

PreprocessedShader ShaderLibrary::preprocess(std::string_view name, const Defines& defines) const {
  return Preprocessor(*this).run(name, defines);
}

const PreprocessedShader& ShaderLibrary::observed(GLenum stage, const PreprocessedShader& shader) const {
  if (observer_) observer_(stage, shader);
  return shader;
}

Program ShaderLibrary::compute(std::string_view name, const Defines& defines) const {
  StageList stages;
  stages.add(compileStage(GL_COMPUTE_SHADER, observed(GL_COMPUTE_SHADER, preprocess(name, defines))));
  return link(stages.release(), displayName(name));
}

Program ShaderLibrary::graphics(std::string_view vertexName, std::string_view fragmentName,
                                const Defines& defines) const {
  StageList stages;
  stages.add(compileStage(GL_VERTEX_SHADER, observed(GL_VERTEX_SHADER, preprocess(vertexName, defines))));
  stages.add(
      compileStage(GL_FRAGMENT_SHADER, observed(GL_FRAGMENT_SHADER, preprocess(fragmentName, defines))));
  return link(stages.release(), displayName(vertexName) + " + " + displayName(fragmentName));
}

}  // namespace murmur::gpu

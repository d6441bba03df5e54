#include "app/demo_panel.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <imgui.h>

#include "sim/param_table.hpp"

namespace murmur::app {
namespace {

namespace fs = std::filesystem;

// The scenes beside the current one (scenes/*.toml), sorted.
std::vector<std::string> siblingScenes(const std::string& current) {
  std::vector<std::string> scenes;
  const fs::path dir = fs::path(current).parent_path();
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir.empty() ? fs::path(".") : dir, ec))
    if (entry.path().extension() == ".toml") scenes.push_back(entry.path().string());
  std::sort(scenes.begin(), scenes.end());
  return scenes;
}

// What the camera follows, in words (the panel's follow combo and its line under the buttons).
std::string followName(int follow) {
  return follow == kFollowNothing ? std::string("nothing")
         : follow == kFollowFlock ? std::string("the flock")
                                  : fmt::format("group {}", follow);
}

void sceneSection(session::Session& session, DemoControls& controls) {
  const std::string& current = session.world().scene().path;
  if (ImGui::BeginCombo("scene", fs::path(current).filename().c_str())) {
    for (const std::string& path : siblingScenes(current)) {
      const bool selected = fs::path(path).filename() == fs::path(current).filename();
      if (ImGui::Selectable(fs::path(path).filename().c_str(), selected) && !selected)
        controls.sceneRequested = path;
    }
    ImGui::EndCombo();
  }
  if (controls.boidInput == 0) controls.boidInput = static_cast<int>(session.boidCount());
  ImGui::InputInt("boids", &controls.boidInput, 1000, 10000);
  controls.boidInput = std::clamp(controls.boidInput, 1, 100'000'000);
  ImGui::SameLine();
  if (ImGui::Button("respawn")) controls.respawnRequested = static_cast<std::uint32_t>(controls.boidInput);

  const std::string_view backend = session.backend().name();
  ImGui::TextUnformatted("backend");
  for (const char* name : {"gpu", "cpu", "cpu-naive"}) {
    ImGui::SameLine();
    if (ImGui::RadioButton(name, backend == name) && backend != name) controls.backendRequested = name;
  }
  if (ImGui::Button(controls.paused ? "run" : "pause")) controls.paused = !controls.paused;
  ImGui::SameLine();
  if (ImGui::Button("step")) ++controls.stepsRequested;
  ImGui::SameLine();
  if (ImGui::Button("reset")) controls.resetRequested = true;
  // Two rows: one would run past a narrow panel's edge.
  if (ImGui::Button("screenshot")) ++controls.screenshotsRequested;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("the window as seen, panel included (F12); P: the view alone, centred");
  ImGui::SameLine();
  if (ImGui::Button(controls.recording ? "stop" : "record")) controls.recordToggleRequested = true;
  ImGui::SameLine();
  if (ImGui::Button("save scene")) controls.saveSceneRequested = true;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("the scene as it runs, the parameters as set here, as a scene file (S)");
  ImGui::Text("the camera follows %s (F)", followName(controls.followGroup).c_str());
}

// Enough decimals to set a thousandth of the slider's range (ImGui rounds to them), and the unit.
std::string sliderFormat(const sim::EditRange& range) {
  const float span = range.high - range.low;
  const int decimals = span > 0.0f ? std::max(0, int(std::ceil(-std::log10(span / 1000.0f)))) : 2;
  const std::string_view unit = range.param->unit;
  return unit == "1" ? fmt::format("%.{}f", decimals) : fmt::format("%.{}f {}", decimals, unit);
}

// The view mode combo: sets the field of view and the perception radius together.
void viewModeCombo(sim::ModelParams& model) {
  const sim::ViewMode* current = sim::viewModeOf(model);
  if (!ImGui::BeginCombo("view mode", current ? std::string(current->name).c_str() : "custom")) return;
  for (const sim::ViewMode& mode : sim::viewModes()) {
    if (ImGui::Selectable(std::string(mode.name).c_str(), &mode == current)) sim::applyViewMode(model, mode);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", std::string(mode.sees).c_str());
  }
  ImGui::EndCombo();
}

// A slider for each row of the parameter table (sim/param_table.hpp) in the weights section, or in
// every other (under the name of its section), within the range that keeps the model valid.
void parameterSliders(sim::ModelParams& model, bool weights) {
  std::string_view section;
  for (const sim::EditRange& range : sim::editRanges(model)) {
    const sim::ModelParam& param = *range.param;
    if ((param.section == "weights") != weights) continue;
    if (!sim::paramActs(param, model.unitModel)) continue;  // the lab's body or the starlings' flight
    if (!weights && param.section != section) ImGui::TextDisabled("[%s]", std::string(param.section).c_str());
    section = param.section;
    if (param.key() == "perception.radius") viewModeCombo(model);
    const std::string label = fmt::format("{}##{}", param.name, param.key());  // shown: the name
    ImGui::SliderFloat(label.c_str(), &param.field.of(model), range.low, range.high,
                       sliderFormat(range).c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", std::string(param.meaning).c_str());
  }
}

void modelSection(sim::ModelParams& model) {
  if (ImGui::CollapsingHeader("weights")) {
    parameterSliders(model, true);
    ImGui::Checkbox("cohesion only without separation", &model.cohesionOnlyWithoutSeparation);
  }
  if (ImGui::CollapsingHeader("model parameters")) parameterSliders(model, false);
  sim::clampToAtMost(model);
}

// The lab's flocking switch, for each chase and intercept group: off, every boid of the group
// pursues the target (not only its emergent leaders) and it drops the flocking rules.
void pursuitSection(world::World& world) {
  std::vector<sim::GroupSpec> pursuers;
  for (const sim::GroupSpec& spec : world.scene().groupSpecs)
    if (spec.steering.role != sim::GroupRole::Flock) pursuers.push_back(spec);
  if (pursuers.empty() ||
      !ImGui::CollapsingHeader("chasers and interceptors", ImGuiTreeNodeFlags_DefaultOpen))
    return;
  for (const sim::GroupSpec& spec : pursuers) {
    bool flocking = spec.steering.flocking;
    const char* role = spec.steering.role == sim::GroupRole::Chase ? "chasers" : "interceptors";
    const std::string label = fmt::format("group {} ({}) flocking", spec.group, role);
    if (ImGui::Checkbox(label.c_str(), &flocking)) world.setGroupFlocking(spec.group, flocking);
  }
}

// The lab's aids: trails (of the agents and a sample of the boids) and ShowVectors. A new count or
// length starts the boids' samples again.
void aidControls(render::FrameOptions& options) {
  render::AidStyle& aids = options.aids;
  ImGui::Checkbox("trails", &options.overlay.trails);
  ImGui::SameLine();
  ImGui::Checkbox("vectors", &options.overlay.vectors);
  if (options.overlay.trails) {
    int length = static_cast<int>(aids.trailLength), every = static_cast<int>(aids.trailEvery),
        boids = static_cast<int>(aids.trailBoids);
    if (ImGui::SliderInt("trail length", &length, 2, 200))
      aids.trailLength = static_cast<std::uint32_t>(length);
    if (ImGui::SliderInt("trail every", &every, 1, 50, "%d steps"))
      aids.trailEvery = static_cast<std::uint32_t>(every);
    if (ImGui::SliderInt("trail boids", &boids, 0, 512)) aids.trailBoids = static_cast<std::uint32_t>(boids);
  }
  if (options.overlay.vectors) {
    int boids = static_cast<int>(aids.vectorBoids);
    if (ImGui::SliderInt("vector boids", &boids, 0, 512))
      aids.vectorBoids = static_cast<std::uint32_t>(boids);
  }
}

void viewSection(session::Session& session, DemoControls& controls) {
  if (!ImGui::CollapsingHeader("view")) return;
  render::Camera& camera = session.camera();
  float fov = camera.fieldOfView();
  if (ImGui::SliderFloat("camera field of view", &fov, 20.0f, 100.0f, "%.0f deg")) camera.setFieldOfView(fov);
  render::FrameOptions& options = session.frameOptions();
  int colouring = static_cast<int>(options.boids.colouring);
  if (ImGui::Combo("colour", &colouring, "group\0heading\0speed\0silhouette\0"))
    options.boids.colouring = render::BoidColouring(colouring);
  drawLegend(session);
  ImGui::SliderFloat("boid size", &options.boids.size, 0.1f, 10.0f, "%.2f");
  ImGui::SliderFloat("min pixels", &options.boids.minBirdPixels, 1.0f, 30.0f, "%.0f");
  int shape = static_cast<int>(options.boids.shape);
  if (ImGui::Combo("boid shape", &shape, "birds\0points\0auto\0"))
    options.boids.shape = render::BoidShape(shape);
  ImGui::Checkbox("box", &options.overlay.box);
  ImGui::SameLine();
  ImGui::Checkbox("grid", &options.overlay.grid);
  ImGui::SameLine();
  ImGui::Checkbox("obstacles", &options.overlay.obstacles);
  ImGui::SameLine();
  ImGui::Checkbox("markers", &options.overlay.markers);
  ImGui::Checkbox("paths", &options.overlay.paths);
  ImGui::SameLine();
  ImGui::Checkbox("senses", &options.overlay.senses);
  aidControls(options);
  const int groups = static_cast<int>(session.world().scene().groups);
  if (ImGui::BeginCombo("follow", followName(controls.followGroup).c_str())) {
    for (int g = kFollowFlock; g < groups; ++g)
      if (ImGui::Selectable(followName(g).c_str(), g == controls.followGroup)) controls.followGroup = g;
    ImGui::EndCombo();
  }
  if (ImGui::Button("frame the flock")) session.frameFlock();
  ImGui::SameLine();
  if (ImGui::Button("frame the world")) {
    controls.followGroup = kFollowNothing;
    session.frameWorld();
  }
}

// The frame-time graph's top: the next of 10, 20, 50, 100, ... ms above the frame times shown, a
// few long ones left out (they are cut at the top): one slow frame, a scene load or a shader build,
// must not flatten the graph for the next 240 frames.
float graphScale(const std::array<float, DemoStats::kFrames>& frameMs) {
  std::array<float, DemoStats::kFrames> sorted = frameMs;
  const auto high = sorted.begin() + std::ptrdiff_t(sorted.size() * 95 / 100);
  std::nth_element(sorted.begin(), high, sorted.end());
  const float typical = *high;
  for (float decade = 10.0f;; decade *= 10.0f)
    for (const float step : {1.0f, 2.0f, 5.0f})
      if (typical <= step * decade || decade > 1e5f) return step * decade;
}

void statisticsSection(session::Session& session, const DemoStats& stats) {
  if (!ImGui::CollapsingHeader("statistics", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::Text("%.1f fps | %.0f steps/s | %llu boids", stats.fps, stats.stepsPerSecond,
              static_cast<unsigned long long>(session.boidCount()));
  ImGui::Text("step %llu | %.1f s simulated", static_cast<unsigned long long>(session.steps()),
              double(session.steps()) * double(session.world().scene().model.dt));
  const float scale = graphScale(stats.frameMs);
  // The frame time of the same half second as the fps: the two agree.
  const std::string overlay =
      stats.fps > 0.0 ? fmt::format("{:.1f} ms a frame", 1000.0 / stats.fps) : std::string();
  // The graph takes the panel's width but for its scale's labels beside it.
  const float graphWidth =
      ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("10000 ms").x - ImGui::GetStyle().ItemSpacing.x;
  ImGui::PlotLines("##frames", stats.frameMs.data(), int(DemoStats::kFrames), int(stats.next),
                   overlay.c_str(), 0.0f, scale, ImVec2(std::max(graphWidth, 40.0f), 60.0f));
  ImGui::SameLine();
  ImGui::Text("%.0f ms\n\n\n0", double(scale));
  if (session.world().leadersUsed()) {
    std::string leaders = "emergent leaders:";
    for (const sim::GroupSummary& g : session.backend().recentGroupSummaries())
      leaders += fmt::format(" {}/{}", g.leaders, g.count);
    ImGui::TextWrapped("%s (per group, of its boids)", leaders.c_str());
  }
  const std::vector<gpu::StageTime> stages = session.backend().stageTimes();
  const char* const onGpu = session.contextInfo().software ? "on the gpu (software: the cpu)" : "on the gpu";
  if (stages.empty()) {
    ImGui::Text("step: %.2f ms", session.lastStepMilliseconds());
  } else {
    // The step's wall time on the CPU is what handing the GPU its work cost, and on a software GPU
    // the work too: the GPU's own times are its stages' timer queries. A stage's first dispatch holds
    // the driver's program build, and the hash and count run on the first step only: the step is
    // the stages that repeat, each without its first dispatch (app/report.hpp, stageLines).
    double gpuStep = 0.0;
    for (const gpu::StageTime& stage : stages)
      if (stage.repeated()) gpuStep += stage.laterMeanMs();
    ImGui::TextWrapped("step: %.2f ms %s", gpuStep, onGpu);
    ImGui::TextWrapped("(the cpu waited %.2f ms for it)", session.lastStepMilliseconds());
    for (const gpu::StageTime& stage : stages) {
      if (stage.repeated())
        ImGui::Text("  %-8s %.3f ms", stage.name.c_str(), stage.laterMeanMs());
      else
        ImGui::Text("  %-8s %.3f ms (once)", stage.name.c_str(), stage.firstMs);
    }
  }
  ImGui::TextWrapped("render: %.2f ms %s", stats.renderGpuMs, onGpu);
  ImGui::TextWrapped("simulation: %s", session.backend().device().c_str());
  ImGui::TextWrapped("rendering: %s", session.contextInfo().renderer.c_str());
}

// Every agent as `run --json` lists it: what it is, its state, where it is and what it is after.
void agentsSection(const session::Session& session) {
  const ai::AgentDirector* director = session.world().director();
  if (director == nullptr || !ImGui::CollapsingHeader("agents", ImGuiTreeNodeFlags_DefaultOpen)) return;
  // Wider than the panel: it scrolls sideways (its own height: every agent and the scroll bar).
  const float height = ImGui::GetTextLineHeightWithSpacing() * float(director->size() + 1) +
                       ImGui::GetStyle().ScrollbarSize + 2.0f * ImGui::GetStyle().CellPadding.y;
  if (!ImGui::BeginTable("agents", 4,
                         ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX,
                         ImVec2(0.0f, height)))
    return;
  for (const char* heading : {"agent", "state", "position", "target"}) ImGui::TableSetupColumn(heading);
  ImGui::TableHeadersRow();
  for (std::size_t i = 0; i < director->size(); ++i) {
    const glm::vec3 p = director->position(i);
    const auto target = director->target(i);
    const std::string name = director->name(i).empty()
                                 ? fmt::format("{} {}", i, ai::toString(director->kind(i)))
                                 : std::string(director->name(i));
    const std::string cells[] = {name, std::string(director->stateName(i)),
                                 fmt::format("{:.0f} {:.0f} {:.0f}", p.x, p.y, p.z),
                                 target ? fmt::format("group {} boid {}{}", target->group, target->boid,
                                                      target->perceivedNow ? "" : " (lost)")
                                        : std::string("-")};
    ImGui::TableNextRow();
    for (const std::string& cell : cells) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(cell.c_str());
    }
  }
  ImGui::EndTable();
}

}  // namespace

void DemoStats::addFrame(double milliseconds, std::uint64_t totalSteps) {
  frameMs[next] = static_cast<float>(milliseconds);
  next = (next + 1) % kFrames;
  ++frames;
  framedSeconds += milliseconds / 1000.0;
  ++windowFrames;
  windowMs += milliseconds;
  if (windowMs >= 500.0) {
    fps = 1000.0 * double(windowFrames) / windowMs;
    stepsPerSecond = 1000.0 * double(totalSteps - windowStartSteps) / windowMs;
    windowFrames = 0;
    windowMs = 0.0;
    windowStartSteps = totalSteps;
  }
}

void drawDemoPanel(session::Session& session, DemoControls& controls, const DemoStats& stats,
                   const std::string& status) {
  controls.panelRight = 0;
  if (!controls.showPanel) return;
  // About a third of a small window (640 x 480: 230 pixels), 330 in a large one; never taller than
  // the window (it scrolls instead).
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  // A small window gets smaller text, so that the panel's rows fit its narrower width.
  ImGui::GetIO().FontGlobalScale = display.x < 900.0f ? 0.8f : 1.0f;
  ImGui::SetNextWindowPos(ImVec2(8, 8), ImGuiCond_FirstUseEver);
  // Its height fits what is open every frame (up to the window's, then it scrolls): no empty rows
  // below a section, no scrolling while the window has room. Its width stays as set or resized.
  const float width =
      controls.panelWidth > 0.0f ? controls.panelWidth : std::clamp(display.x * 0.36f, 220.0f, 330.0f);
  ImGui::SetNextWindowSize(ImVec2(width, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSizeConstraints(ImVec2(160.0f, 0.0f),
                                      ImVec2(display.x * 0.6f, std::max(display.y - 16.0f, 100.0f)));
  // Collapsed (the arrow in its title bar), it leaves the whole view to the flock.
  const bool open = ImGui::Begin("murmur", &controls.showPanel);
  if (!ImGui::IsWindowCollapsed()) controls.panelWidth = ImGui::GetWindowWidth();
  const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
  if (open && !ImGui::IsWindowCollapsed())
    controls.panelRight = int((ImGui::GetWindowPos().x + ImGui::GetWindowSize().x) * scale.x);
  if (!open) {
    ImGui::End();
    return;
  }
  // Room for the labels: a third of the panel, at least the width of the longest short one.
  ImGui::PushItemWidth(-std::max(ImGui::CalcTextSize("backend").x + 16.0f, ImGui::GetWindowWidth() / 3.0f));
  sceneSection(session, controls);
  if (!status.empty()) ImGui::TextWrapped("%s", status.c_str());
  statisticsSection(session, stats);
  agentsSection(session);
  modelSection(session.world().model());
  pursuitSection(session.world());
  viewSection(session, controls);
  ImGui::PopItemWidth();
  ImGui::TextDisabled("H or F1: help");
  ImGui::End();
}

void drawHelpOverlay(bool& open, const std::string& screenshotDir, int panelRight) {
  if (!open) return;
  const ImGuiIO& io = ImGui::GetIO();
  // Centred in the part of the window the panel leaves free.
  const float left = float(panelRight) / io.DisplayFramebufferScale.x;
  ImGui::SetNextWindowPos(ImVec2(0.5f * (left + io.DisplaySize.x), 0.5f * io.DisplaySize.y), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.85f);
  ImGui::Begin("help", &open, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse);
  const std::string screenshotInto =
      "screenshot of the window, panel included (PNG, into " + screenshotDir + ")";
  const std::string viewShotInto = "screenshot of the view alone, centred (PNG, into " + screenshotDir + ")";
  const std::string recordInto = "record a video / stop (MP4 through ffmpeg, into " + screenshotDir + ")";
  const std::string saveInto =
      "save the scene as it runs, parameters as set (TOML, into " + screenshotDir + ")";
  const std::pair<const char*, const char*> controls[] = {
      {"left drag", "orbit"},
      {"right or middle drag", "pan"},
      {"wheel", "zoom"},
      {"space", "pause / run"},
      {"N or .", "one step (paused)"},
      {"R", "reset the flock"},
      {"B", "switch backend gpu <-> cpu (state carried over)"},
      {"F", "what the camera follows: nothing, the flock, each group in turn"},
      {"C", "frame the flock (beside the panel)"},
      {"W", "frame the whole world"},
      {"arrow keys", "steer the player: left / right turn, up / down thrust"},
      {"F12", screenshotInto.c_str()},
      {"P", viewShotInto.c_str()},
      {"V", recordInto.c_str()},
      {"S", saveInto.c_str()},
      {"Tab", "show / hide the panel"},
      {"H or F1", "this help"},
      {"Esc", "quit (a drop-down open: close it)"},
  };
  for (const auto& [key, action] : controls) {
    ImGui::TextUnformatted(key);
    ImGui::SameLine(170);
    ImGui::TextUnformatted(action);
  }
  ImGui::End();
}

}  // namespace murmur::app

#include "app/frame_text.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include <fmt/format.h>

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "render/palette.hpp"

namespace murmur::app {
namespace {

void layoutStats(session::Session& session) {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  ImGui::SetNextWindowPos(ImVec2(8.0f, 8.0f));
  ImGui::SetNextWindowBgAlpha(0.6f);
  ImGui::Begin("stats", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoInputs |
                   ImGuiWindowFlags_NoSavedSettings);
  ImGui::Text("step %llu | %.1f s | %u boids | backend %s", static_cast<unsigned long long>(session.steps()),
              double(session.steps()) * double(session.world().scene().model.dt), session.boidCount(),
              std::string(session.backend().name()).c_str());
  drawLegend(session);
  ImGui::End();
  drawAgentLabels(session);
  ImGui::Render();
}

}  // namespace

void drawLegend(const session::Session& session) {
  const render::BoidStyle& style = session.frameOptions().boids;
  const bool leaders = session.world().leadersUsed();  // else none are recorded or drawn
  switch (style.colouring) {
    case render::BoidColouring::Group: {
      const std::uint32_t groups = session.world().scene().groups;
      for (std::uint32_t g = 0; g < groups; ++g) {
        const glm::vec3 c = session.frameOptions().palette[g % session.frameOptions().palette.size()];
        if (g > 0) ImGui::SameLine();
        ImGui::ColorButton(fmt::format("group {}", g).c_str(), ImVec4(c.r, c.g, c.b, 1.0f),
                           ImGuiColorEditFlags_NoTooltip, ImVec2(12, 12));
        ImGui::SameLine();
        ImGui::Text("group %u", g);
      }
      if (!leaders) break;
      ImGui::SameLine();
      if (style.leaderMark == render::LeaderMark::Red) {
        const glm::vec3 l = render::kLeaderColour;
        ImGui::ColorButton("emergent leaders", ImVec4(l.r, l.g, l.b, 1.0f), ImGuiColorEditFlags_NoTooltip,
                           ImVec2(12, 12));
        ImGui::SameLine();
        ImGui::TextUnformatted("emergent leaders (larger)");
      } else {
        ImGui::TextUnformatted("(emergent leaders lighter)");
      }
      break;
    }
    case render::BoidColouring::Heading:
      // A flat world's boids never climb.
      ImGui::TextUnformatted(session.world().scene().model.dims == 2
                                 ? "colour: direction of flight (hue)"
                                 : "colour: direction of flight (hue), lighter climbing");
      break;
    case render::BoidColouring::Speed:
      ImGui::Text("colour: speed, blue %.1f .. teal .. yellow %.1f", double(style.speedLow),
                  double(style.speedHigh));
      break;
    case render::BoidColouring::Silhouette:
      ImGui::TextUnformatted(leaders ? "birds as silhouettes (emergent leaders grey)"
                                     : "birds as silhouettes");
      break;
  }
  if (session.hasPredator() && !session.frameOptions().overlay.markers) {
    ImGui::TextUnformatted("predator: the large bird");
  } else if (session.hasPredator()) {
    const glm::vec3 p = render::kPredatorColour;
    ImGui::ColorButton("predator", ImVec4(p.r, p.g, p.b, 1.0f), ImGuiColorEditFlags_NoTooltip,
                       ImVec2(12, 12));
    ImGui::SameLine();
    const bool leadersSaid = !leaders || style.colouring == render::BoidColouring::Group ||
                             style.colouring == render::BoidColouring::Silhouette;
    ImGui::TextUnformatted(leadersSaid ? "predator" : "predator; emergent leaders: larger, lighter");
  }
}

void drawAgentLabels(session::Session& session) {
  if (!session.frameOptions().overlay.senses) return;
  ImDrawList& drawList = *ImGui::GetForegroundDrawList();
  const float offset = 12.0f * ImGui::GetIO().FontGlobalScale;  // above right of the marker, not on it
  for (const render::Label& label : session.labels()) {
    const std::optional<glm::vec2> pixel = session.camera().project(label.position);
    if (!pixel) continue;
    const ImVec2 size = ImGui::CalcTextSize(label.text.c_str());
    const ImVec2 at(pixel->x + offset, pixel->y - offset - size.y);
    // A dark plate under the text: readable on the sky, the floor and a flock alike.
    drawList.AddRectFilled(ImVec2(at.x - 2.0f, at.y - 1.0f),
                           ImVec2(at.x + size.x + 2.0f, at.y + size.y + 1.0f), IM_COL32(0, 0, 0, 150), 3.0f);
    const glm::vec3 c = 0.5f * (label.colour + glm::vec3(1.0f));  // lightened: dark colours stay legible
    drawList.AddText(at, ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1.0f)), label.text.c_str());
  }
}

StatsOverlay::StatsOverlay() {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  ImGui::StyleColorsDark();
  ImGui_ImplOpenGL3_Init("#version 430 core");
}

StatsOverlay::~StatsOverlay() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext();
}

void StatsOverlay::draw(session::Session& session, int width, int height) {
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(float(width), float(height));
  io.DeltaTime = 1.0f / 30.0f;
  io.FontGlobalScale = std::max(1.0f, float(height) / 720.0f);  // as readable at 1080p as at 720p
  // Twice: an auto-sized window takes its size from the frame before (the text changes every frame).
  for (int pass = 0; pass < 2; ++pass) layoutStats(session);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

}  // namespace murmur::app

#include "ai/agents.hpp"

namespace murmur::ai {

std::string_view toString(AgentKind kind) {
  switch (kind) {
    case AgentKind::Leader:
      return "leader";
    case AgentKind::Predator:
      return "predator";
    case AgentKind::Player:
      return "player";
  }
  return "unknown";
}

std::string_view toString(Action action) {
  switch (action) {
    case Action::Patrol:
      return "patrol";
    case Action::Seek:
      return "seek";
    case Action::Arrive:
      return "arrive";
    case Action::Pursue:
      return "pursue";
    case Action::Flee:
      return "flee";
    case Action::Evade:
      return "evade";
    case Action::Wander:
      return "wander";
    case Action::Rest:
      return "rest";
  }
  return "unknown";
}

std::string_view toString(Condition condition) {
  switch (condition) {
    case Condition::Sees:
      return "sees";
    case Condition::Hears:
      return "hears";
    case Condition::Near:
      return "near";
    case Condition::Far:
      return "far";
    case Condition::Timer:
      return "timer";
    case Condition::LostFor:
      return "lost_for";
    case Condition::SeesPlayer:
      return "sees_player";
    case Condition::HearsPlayer:
      return "hears_player";
  }
  return "unknown";
}

}  // namespace murmur::ai

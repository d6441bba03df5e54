#pragma once
// A generic finite-state machine with the semantics of the classic FSMSystem (Unity wiki): states
// are identified by id, each state holds its own map transition -> target state id, and the machine
// holds the states by id and performs a transition only when the current state has it and its
// target is in the machine.
//
// Ids are small value types (usually enums). The value-initialised id (StateId{}, TransitionId{}:
// 0 for an enum) is the null id, as NullStateID / NullTransition in the classic: no state may have
// it and no transition may use it or lead to it.
//
// Differences from the classic, all on purpose: the machine is generic over the agent type (the
// classic passes a player and an NPC); the first state added is entered by start(), not silently
// made current, so that its enter() runs like any other; refused transitions return a status that
// says why instead of logging; building errors (null or duplicate ids) throw std::invalid_argument
// since they are programmer errors (a scene loader validates user input before building a machine).
#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

namespace murmur::ai {

// What a machine call did. Only Ok changes anything.
enum class FsmStatus {
  Ok,
  NotStarted,        // perform / update before start
  AlreadyStarted,    // start called twice
  NoStates,          // start on an empty machine
  NullTransition,    // perform with the null transition id
  NoSuchTransition,  // the current state has no such transition
  TargetMissing,     // the transition's target state is not in the machine
  NoSuchState,       // removeState of an id the machine does not hold
  StateIsCurrent,    // removeState of the current state (or, before start, of the initial one)
};

constexpr std::string_view toString(FsmStatus status) {
  switch (status) {
    case FsmStatus::Ok:
      return "ok";
    case FsmStatus::NotStarted:
      return "not started";
    case FsmStatus::AlreadyStarted:
      return "already started";
    case FsmStatus::NoStates:
      return "no states";
    case FsmStatus::NullTransition:
      return "null transition";
    case FsmStatus::NoSuchTransition:
      return "no such transition";
    case FsmStatus::TargetMissing:
      return "target state missing";
    case FsmStatus::NoSuchState:
      return "no such state";
    case FsmStatus::StateIsCurrent:
      return "state is current";
  }
  return "unknown";
}

template <class Agent, class StateId, class TransitionId>
class StateMachine;

// One state. Subclasses override the hooks they need; all default to doing nothing.
template <class Agent, class StateId, class TransitionId>
class FsmState {
 public:
  using Machine = StateMachine<Agent, StateId, TransitionId>;

  // id: not the null id (std::invalid_argument otherwise).
  explicit FsmState(StateId id) : id_(id) {
    if (id == StateId{}) throw std::invalid_argument("FsmState: the null state id is not a state");
  }
  virtual ~FsmState() = default;
  FsmState(const FsmState&) = delete;
  FsmState& operator=(const FsmState&) = delete;

  StateId id() const { return id_; }

  // Adds transition -> target. Throws std::invalid_argument when either id is null or the state
  // already has this transition (the classic refuses both). The target need not be in the machine
  // yet: perform() checks it when the transition is taken.
  void addTransition(TransitionId transition, StateId target) {
    if (transition == TransitionId{}) throw std::invalid_argument("FsmState: null transition id");
    if (target == StateId{}) throw std::invalid_argument("FsmState: transition to the null state id");
    if (!transitions_.emplace(transition, target).second)
      throw std::invalid_argument("FsmState: duplicate transition");
  }

  // Returns whether the transition was there.
  bool removeTransition(TransitionId transition) { return transitions_.erase(transition) > 0; }

  // The state a transition leads to, if this state has it.
  std::optional<StateId> target(TransitionId transition) const {
    auto found = transitions_.find(transition);
    if (found == transitions_.end()) return std::nullopt;
    return found->second;
  }

  const std::map<TransitionId, StateId>& transitions() const { return transitions_; }

  // Called when the machine enters this state (start, or a transition into it).
  virtual void enter(Agent& /*agent*/) {}
  // Called when the machine leaves this state, before the next state's enter.
  virtual void exit(Agent& /*agent*/) {}
  // Decides whether to leave: may call machine.perform(transition, agent). Must not add or remove
  // states of the machine.
  virtual void reason(Agent& /*agent*/, Machine& /*machine*/) {}
  // What the agent does while in this state, once per update.
  virtual void act(Agent& /*agent*/) {}

 private:
  StateId id_;
  std::map<TransitionId, StateId> transitions_;
};

template <class Agent, class StateId, class TransitionId>
class StateMachine {
 public:
  using State = FsmState<Agent, StateId, TransitionId>;

  // Adds a state; the first one added is the initial state. Throws std::invalid_argument for a null
  // pointer or a state id already in the machine.
  void addState(std::unique_ptr<State> state) {
    if (!state) throw std::invalid_argument("StateMachine: null state");
    if (find(state->id()) != nullptr) throw std::invalid_argument("StateMachine: duplicate state id");
    states_.push_back(std::move(state));
  }

  // Removes a state (its exit is not called). Refuses the current state, and before start the
  // initial one (the first added), so that the machine never points at a removed state.
  [[nodiscard]] FsmStatus removeState(StateId id) {
    auto found = std::find_if(states_.begin(), states_.end(),
                              [id](const std::unique_ptr<State>& state) { return state->id() == id; });
    if (found == states_.end()) return FsmStatus::NoSuchState;
    if (current_ == found->get() || (current_ == nullptr && found == states_.begin()))
      return FsmStatus::StateIsCurrent;
    states_.erase(found);
    return FsmStatus::Ok;
  }

  // Enters the initial state (calls its enter).
  [[nodiscard]] FsmStatus start(Agent& agent) {
    if (current_ != nullptr) return FsmStatus::AlreadyStarted;
    if (states_.empty()) return FsmStatus::NoStates;
    current_ = states_.front().get();
    current_->enter(agent);
    return FsmStatus::Ok;
  }

  // Takes a transition of the current state: calls the current state's exit, switches, calls the
  // new state's enter. On any status but Ok nothing changes and no hook runs. A transition whose
  // target is the current state itself exits and re-enters it.
  [[nodiscard]] FsmStatus perform(TransitionId transition, Agent& agent) {
    if (current_ == nullptr) return FsmStatus::NotStarted;
    if (transition == TransitionId{}) return FsmStatus::NullTransition;
    std::optional<StateId> target = current_->target(transition);
    if (!target) return FsmStatus::NoSuchTransition;
    State* next = find(*target);
    if (next == nullptr) return FsmStatus::TargetMissing;
    current_->exit(agent);
    current_ = next;
    current_->enter(agent);
    return FsmStatus::Ok;
  }

  // One tick: the current state's reason (which may perform transitions), then the act of the state
  // that is current after it.
  [[nodiscard]] FsmStatus update(Agent& agent) {
    if (current_ == nullptr) return FsmStatus::NotStarted;
    current_->reason(agent, *this);
    current_->act(agent);
    return FsmStatus::Ok;
  }

  bool started() const { return current_ != nullptr; }
  // The current state's id; the null id before start.
  StateId currentId() const { return current_ != nullptr ? current_->id() : StateId{}; }
  // The current state; null before start.
  const State* current() const { return current_; }
  bool contains(StateId id) const { return find(id) != nullptr; }
  std::size_t size() const { return states_.size(); }

 private:
  State* find(StateId id) const {
    for (const std::unique_ptr<State>& state : states_)
      if (state->id() == id) return state.get();
    return nullptr;
  }

  // Insertion order (the front is the initial state); machines hold a handful of states, so a
  // linear search beats a map.
  std::vector<std::unique_ptr<State>> states_;
  State* current_ = nullptr;
};

}  // namespace murmur::ai

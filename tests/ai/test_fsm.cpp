// The state machine's rules (FSMSystem semantics): building, start, perform, update, removal.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ai/fsm.hpp"

namespace murmur::ai {
namespace {

enum class Guard { None, Patrol, Chase, Flee };
enum class Event { None, SawPlayer, LostPlayer, Hurt };

const char* name(Guard id) {
  switch (id) {
    case Guard::None:
      return "none";
    case Guard::Patrol:
      return "patrol";
    case Guard::Chase:
      return "chase";
    case Guard::Flee:
      return "flee";
  }
  return "?";
}

struct Npc {
  std::vector<std::string> log;
  Event next = Event::None;  // what reason() should perform on the next update
  std::vector<FsmStatus> performed;
};

using Machine = StateMachine<Npc, Guard, Event>;
using State = FsmState<Npc, Guard, Event>;

class LoggingState : public State {
 public:
  using State::State;
  void enter(Npc& npc) override { npc.log.push_back(std::string("enter ") + name(id())); }
  void exit(Npc& npc) override { npc.log.push_back(std::string("exit ") + name(id())); }
  void reason(Npc& npc, Machine& machine) override {
    npc.log.push_back(std::string("reason ") + name(id()));
    if (npc.next != Event::None) {
      npc.performed.push_back(machine.perform(npc.next, npc));
      npc.next = Event::None;
    }
  }
  void act(Npc& npc) override { npc.log.push_back(std::string("act ") + name(id())); }
};

std::unique_ptr<State> makeState(Guard id, std::vector<std::pair<Event, Guard>> transitions) {
  auto state = std::make_unique<LoggingState>(id);
  for (auto [event, target] : transitions) state->addTransition(event, target);
  return state;
}

// Patrol -SawPlayer-> Chase -LostPlayer-> Patrol; Chase -Hurt-> Flee (Flee is added only by some tests).
Machine guardMachine() {
  Machine machine;
  machine.addState(makeState(Guard::Patrol, {{Event::SawPlayer, Guard::Chase}}));
  machine.addState(makeState(Guard::Chase, {{Event::LostPlayer, Guard::Patrol}, {Event::Hurt, Guard::Flee}}));
  return machine;
}

using Log = std::vector<std::string>;

TEST(FsmState, NullStateIdIsRefused) {
  EXPECT_THROW(LoggingState{Guard::None}, std::invalid_argument);
}

TEST(FsmState, TransitionsMapToTargets) {
  LoggingState state(Guard::Patrol);
  state.addTransition(Event::SawPlayer, Guard::Chase);
  state.addTransition(Event::Hurt, Guard::Flee);
  EXPECT_EQ(state.target(Event::SawPlayer), Guard::Chase);
  EXPECT_EQ(state.target(Event::Hurt), Guard::Flee);
  EXPECT_EQ(state.target(Event::LostPlayer), std::nullopt);
  EXPECT_EQ(state.transitions().size(), 2u);
}

TEST(FsmState, DuplicateTransitionIsRefused) {
  LoggingState state(Guard::Patrol);
  state.addTransition(Event::SawPlayer, Guard::Chase);
  EXPECT_THROW(state.addTransition(Event::SawPlayer, Guard::Flee), std::invalid_argument);
  EXPECT_THROW(state.addTransition(Event::SawPlayer, Guard::Chase), std::invalid_argument);
  EXPECT_EQ(state.target(Event::SawPlayer), Guard::Chase);  // the first one stays
}

TEST(FsmState, NullTransitionOrTargetIsRefused) {
  LoggingState state(Guard::Patrol);
  EXPECT_THROW(state.addTransition(Event::None, Guard::Chase), std::invalid_argument);
  EXPECT_THROW(state.addTransition(Event::SawPlayer, Guard::None), std::invalid_argument);
  EXPECT_TRUE(state.transitions().empty());
}

TEST(FsmState, RemoveTransition) {
  LoggingState state(Guard::Patrol);
  state.addTransition(Event::SawPlayer, Guard::Chase);
  EXPECT_TRUE(state.removeTransition(Event::SawPlayer));
  EXPECT_FALSE(state.removeTransition(Event::SawPlayer));
  EXPECT_EQ(state.target(Event::SawPlayer), std::nullopt);
  state.addTransition(Event::SawPlayer, Guard::Flee);  // may be added again after removal
  EXPECT_EQ(state.target(Event::SawPlayer), Guard::Flee);
}

TEST(StateMachine, NullOrDuplicateStateIsRefused) {
  Machine machine = guardMachine();
  EXPECT_THROW(machine.addState(nullptr), std::invalid_argument);
  EXPECT_THROW(machine.addState(makeState(Guard::Chase, {})), std::invalid_argument);
  EXPECT_EQ(machine.size(), 2u);
}

TEST(StateMachine, StartEntersTheFirstStateAdded) {
  Machine machine = guardMachine();
  Npc npc;
  EXPECT_FALSE(machine.started());
  EXPECT_EQ(machine.currentId(), Guard::None);
  EXPECT_EQ(machine.current(), nullptr);
  EXPECT_EQ(machine.start(npc), FsmStatus::Ok);
  EXPECT_TRUE(machine.started());
  EXPECT_EQ(machine.currentId(), Guard::Patrol);
  EXPECT_EQ(npc.log, (Log{"enter patrol"}));
}

TEST(StateMachine, StartTwiceOrEmptyIsRefused) {
  Npc npc;
  Machine empty;
  EXPECT_EQ(empty.start(npc), FsmStatus::NoStates);
  Machine machine = guardMachine();
  ASSERT_EQ(machine.start(npc), FsmStatus::Ok);
  EXPECT_EQ(machine.start(npc), FsmStatus::AlreadyStarted);
  EXPECT_EQ(npc.log, (Log{"enter patrol"}));
}

TEST(StateMachine, NothingRunsBeforeStart) {
  Machine machine = guardMachine();
  Npc npc;
  EXPECT_EQ(machine.perform(Event::SawPlayer, npc), FsmStatus::NotStarted);
  EXPECT_EQ(machine.update(npc), FsmStatus::NotStarted);
  EXPECT_TRUE(npc.log.empty());
  EXPECT_EQ(machine.currentId(), Guard::None);
}

TEST(StateMachine, PerformExitsThenEnters) {
  Machine machine = guardMachine();
  Npc npc;
  ASSERT_EQ(machine.start(npc), FsmStatus::Ok);
  EXPECT_EQ(machine.perform(Event::SawPlayer, npc), FsmStatus::Ok);
  EXPECT_EQ(machine.currentId(), Guard::Chase);
  EXPECT_EQ(machine.perform(Event::LostPlayer, npc), FsmStatus::Ok);
  EXPECT_EQ(machine.currentId(), Guard::Patrol);
  EXPECT_EQ(npc.log, (Log{"enter patrol", "exit patrol", "enter chase", "exit chase", "enter patrol"}));
}

TEST(StateMachine, TransitionTheCurrentStateLacksIsRefused) {
  Machine machine = guardMachine();
  Npc npc;
  ASSERT_EQ(machine.start(npc), FsmStatus::Ok);
  npc.log.clear();
  // LostPlayer exists in Chase, not in Patrol (the current state).
  EXPECT_EQ(machine.perform(Event::LostPlayer, npc), FsmStatus::NoSuchTransition);
  EXPECT_EQ(machine.perform(Event::None, npc), FsmStatus::NullTransition);
  EXPECT_EQ(machine.currentId(), Guard::Patrol);
  EXPECT_TRUE(npc.log.empty());
}

TEST(StateMachine, TransitionToAStateNotInTheMachineIsRefused) {
  Machine machine = guardMachine();
  Npc npc;
  ASSERT_EQ(machine.start(npc), FsmStatus::Ok);
  ASSERT_EQ(machine.perform(Event::SawPlayer, npc), FsmStatus::Ok);
  npc.log.clear();
  EXPECT_EQ(machine.perform(Event::Hurt, npc), FsmStatus::TargetMissing);  // Flee not added
  EXPECT_EQ(machine.currentId(), Guard::Chase);
  EXPECT_TRUE(npc.log.empty());

  machine.addState(makeState(Guard::Flee, {}));
  EXPECT_EQ(machine.perform(Event::Hurt, npc), FsmStatus::Ok);
  EXPECT_EQ(machine.currentId(), Guard::Flee);
  EXPECT_EQ(npc.log, (Log{"exit chase", "enter flee"}));
}

TEST(StateMachine, SelfTransitionExitsAndReenters) {
  Machine machine;
  machine.addState(makeState(Guard::Patrol, {{Event::SawPlayer, Guard::Patrol}}));
  Npc npc;
  ASSERT_EQ(machine.start(npc), FsmStatus::Ok);
  EXPECT_EQ(machine.perform(Event::SawPlayer, npc), FsmStatus::Ok);
  EXPECT_EQ(npc.log, (Log{"enter patrol", "exit patrol", "enter patrol"}));
}

TEST(StateMachine, UpdateRunsReasonThenAct) {
  Machine machine = guardMachine();
  Npc npc;
  ASSERT_EQ(machine.start(npc), FsmStatus::Ok);
  npc.log.clear();
  EXPECT_EQ(machine.update(npc), FsmStatus::Ok);
  EXPECT_EQ(npc.log, (Log{"reason patrol", "act patrol"}));
}

TEST(StateMachine, UpdateActsInTheStateReasonSwitchedTo) {
  Machine machine = guardMachine();
  Npc npc;
  ASSERT_EQ(machine.start(npc), FsmStatus::Ok);
  npc.log.clear();
  npc.next = Event::SawPlayer;
  EXPECT_EQ(machine.update(npc), FsmStatus::Ok);
  EXPECT_EQ(npc.log, (Log{"reason patrol", "exit patrol", "enter chase", "act chase"}));
  EXPECT_EQ(npc.performed, (std::vector<FsmStatus>{FsmStatus::Ok}));
  EXPECT_EQ(machine.currentId(), Guard::Chase);
}

TEST(StateMachine, UpdateWithARefusedTransitionActsInTheSameState) {
  Machine machine = guardMachine();
  Npc npc;
  ASSERT_EQ(machine.start(npc), FsmStatus::Ok);
  npc.log.clear();
  npc.next = Event::Hurt;  // Patrol has no Hurt transition
  EXPECT_EQ(machine.update(npc), FsmStatus::Ok);
  EXPECT_EQ(npc.log, (Log{"reason patrol", "act patrol"}));
  EXPECT_EQ(npc.performed, (std::vector<FsmStatus>{FsmStatus::NoSuchTransition}));
}

TEST(StateMachine, RemoveState) {
  Machine machine = guardMachine();
  machine.addState(makeState(Guard::Flee, {}));
  Npc npc;
  EXPECT_EQ(machine.removeState(Guard::Patrol), FsmStatus::StateIsCurrent);  // initial, before start
  EXPECT_EQ(machine.removeState(Guard::None), FsmStatus::NoSuchState);
  ASSERT_EQ(machine.start(npc), FsmStatus::Ok);
  ASSERT_EQ(machine.perform(Event::SawPlayer, npc), FsmStatus::Ok);
  EXPECT_EQ(machine.removeState(Guard::Chase), FsmStatus::StateIsCurrent);
  EXPECT_EQ(machine.removeState(Guard::Flee), FsmStatus::Ok);
  EXPECT_EQ(machine.removeState(Guard::Flee), FsmStatus::NoSuchState);
  EXPECT_FALSE(machine.contains(Guard::Flee));
  npc.log.clear();
  EXPECT_EQ(machine.perform(Event::Hurt, npc), FsmStatus::TargetMissing);
  EXPECT_EQ(machine.removeState(Guard::Patrol), FsmStatus::Ok);  // no longer current
  EXPECT_EQ(machine.perform(Event::LostPlayer, npc), FsmStatus::TargetMissing);
  EXPECT_TRUE(npc.log.empty());
  EXPECT_EQ(machine.currentId(), Guard::Chase);
}

// Generic over the agent and the id types: here the agent is a plain counter and ids are integers
// (0 is the null id).
TEST(StateMachine, AnyAgentType) {
  struct Counting : FsmState<int, int, int> {
    using FsmState::FsmState;
    void enter(int& agent) override { agent += 100; }
    void act(int& agent) override { agent += id(); }
  };
  StateMachine<int, int, int> machine;
  auto first = std::make_unique<Counting>(1);
  first->addTransition(7, 2);
  machine.addState(std::move(first));
  machine.addState(std::make_unique<Counting>(2));
  int agent = 0;
  ASSERT_EQ(machine.start(agent), FsmStatus::Ok);
  ASSERT_EQ(machine.update(agent), FsmStatus::Ok);
  ASSERT_EQ(machine.perform(7, agent), FsmStatus::Ok);
  ASSERT_EQ(machine.update(agent), FsmStatus::Ok);
  EXPECT_EQ(agent, 100 + 1 + 100 + 2);
}

TEST(FsmStatus, Names) {
  EXPECT_EQ(toString(FsmStatus::Ok), "ok");
  EXPECT_EQ(toString(FsmStatus::TargetMissing), "target state missing");
}

}  // namespace
}  // namespace murmur::ai

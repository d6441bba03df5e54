#pragma once
// Subcommands of `murmur` register themselves (one file each, app/cmd_*.cpp), so adding a command
// touches no shared list. A command's run() returns the process exit code; bad input is reported by
// throwing murmur::InputError (printed as one line, exit code 2).
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace murmur::app {

class Command {
 public:
  virtual ~Command() = default;
  virtual void configure(CLI::App& sub) = 0;
  virtual int run() = 0;
};

struct CommandInfo {
  std::string name;
  std::string description;
  std::unique_ptr<Command> (*make)();
};

std::vector<CommandInfo>& commandRegistry();

struct CommandRegistrar {
  explicit CommandRegistrar(CommandInfo info) { commandRegistry().push_back(std::move(info)); }
};

}  // namespace murmur::app

#define MURMUR_REGISTER_COMMAND(Type, name, description)                                       \
  static const ::murmur::app::CommandRegistrar murmur_registrar_##Type {                       \
    ::murmur::app::CommandInfo {                                                               \
      name, description,                                                                       \
          []() -> std::unique_ptr<::murmur::app::Command> { return std::make_unique<Type>(); } \
    }                                                                                          \
  }

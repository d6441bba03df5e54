// murmur: GPU flocking simulator and renderer. Subcommands live in app/cmd_*.cpp.
#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <exception>
#include <memory>
#include <new>
#include <system_error>

#include <fmt/format.h>

#include "app/command.hpp"
#include "app/help.hpp"
#include "build_info.hpp"
#include "core/error.hpp"
#include "core/output_path.hpp"

namespace murmur::app {
std::vector<CommandInfo>& commandRegistry() {
  static std::vector<CommandInfo> registry;
  return registry;
}

namespace {

// SIGINT, SIGTERM: the first marks the run for a clean stop (core::requestStop: loops unwind, no
// temporary is left); a second one ends the process at once, for a step that takes long.
void onStopSignal(int signal) {
  if (core::stopSignal() != 0) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  core::requestStop(signal);
}

void installSignalHandlers() {
  struct sigaction action {};
  action.sa_handler = onStopSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // a write in progress completes; the loops check the flag
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  // Past a file size limit (ulimit -f) a write fails with EFBIG and is reported, instead of the
  // signal ending the process with a partial file.
  std::signal(SIGXFSZ, SIG_IGN);
  // A closed stdout (`murmur run --every 1 | head -1`) fails the write with EPIPE, which ends the
  // command as the reader's leaving (stdoutClosed), instead of the signal killing it.
  std::signal(SIGPIPE, SIG_IGN);
}

// The reader of stdout has gone: the command stops as a stop would (temporaries removed), says so
// on stderr and exits 0, the reader having taken what it wanted.
int stdoutClosed() {
  std::fputs("murmur: stdout was closed by its reader; stopped there\n", stderr);
  return 0;
}

}  // namespace
}  // namespace murmur::app

int main(int argc, char** argv) {
  using namespace murmur::app;
  CLI::App cli{"murmur: GPU flocking simulator and renderer", "murmur"};
  cli.require_subcommand(1);
  cli.formatter(std::make_shared<HelpFormatter>());  // the commands, added below, inherit it
  cli.set_version_flag("--version", fmt::format("murmur {} (commit {}, {} build)", murmur::buildVersion(),
                                                murmur::buildCommit(), murmur::buildType()));
  auto& registry = commandRegistry();
  std::sort(registry.begin(), registry.end(),
            [](const CommandInfo& a, const CommandInfo& b) { return a.name < b.name; });
  std::vector<std::pair<CLI::App*, std::unique_ptr<Command>>> commands;
  for (const CommandInfo& info : registry) {
    CLI::App* sub = cli.add_subcommand(info.name, info.description);
    auto command = info.make();
    command->configure(*sub);
    commands.emplace_back(sub, std::move(command));
  }
  // Set after the commands are added: CLI11 gives a command its parent's footer when it is added.
  cli.footer(
      "Examples:\n"
      "  murmur demo                 # a flock in a window, or headless frames\n"
      "  murmur scenes               # the shipped scenes\n"
      "  murmur run --scene maze2d   # one scene headless, then a summary\n"
      "  murmur run --help           # a command's options and examples");
  if (argc == 1) {  // bare `murmur`: what it can do, rather than "A subcommand is required"
    std::fputs(cli.help().c_str(), stdout);
    return 0;
  }
  try {
    cli.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return cli.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return cli.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return cli.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "murmur: %s\n", murmur::printable(e.what()).c_str());
    return 2;
  }
  installSignalHandlers();
  try {
    for (auto& [sub, command] : commands)
      if (sub->parsed()) {
        const int code = command->run();
        if (std::fflush(stdout) != 0 && errno == EPIPE) return stdoutClosed();
        return code;
      }
  } catch (const std::system_error& e) {
    if (e.code() == std::errc::broken_pipe) return stdoutClosed();
    std::fprintf(stderr, "murmur: error: %s\n", murmur::printable(e.what()).c_str());
    return 3;
  } catch (const murmur::StopRequested& e) {
    std::fprintf(stderr, "murmur: %s\n", e.what());
    return 128 + e.signal();
  } catch (const murmur::InputError& e) {
    std::fprintf(stderr, "murmur: %s\n", e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fputs(
        "murmur: error: out of memory (the limits of docs/model.md, Limits, did not foresee it: a bug "
        "worth reporting)\n",
        stderr);
    return 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "murmur: error: %s\n", murmur::printable(e.what()).c_str());
    return 3;
  }
  return 2;
}

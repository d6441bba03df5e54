#pragma once
// The scene options that run, compare and demo share on the command line; what they describe
// (session/scene_source.hpp) is the library's.
#include <CLI/CLI.hpp>

#include "session/scene_source.hpp"

namespace murmur::app {

using session::checkRunCost;
using session::DescribedWorld;
using session::describeWorld;
using session::findScene;
using session::kUnset;
using session::makeBackendFor;
using session::resolveSteps;
using session::SceneOptions;
using session::shippedScenes;

void addSceneOptions(CLI::App& command, SceneOptions& options, bool sceneRequired);

}  // namespace murmur::app
